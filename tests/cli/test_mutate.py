"""``inspector mutate``: the text summary, the JSON names and sums, the Stryker
report, and its exit statuses (1 for a suite missing a rejection code, 2 for
unusable input, never a traceback)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import ARTICLE, FIXTURES, decoded, one_line_error, run_cli
from support.stryker import mutated

from inspector.cli import main
from inspector.contract.text import line_col
from inspector.lab.mutation_testing import REJECTIONS
from inspector.lab.mutations import MUTATIONS

ARTICLE_SUITE = json.loads(ARTICLE.read_text("utf-8"))


def run_json(capsys, *args: str) -> tuple[int, dict]:
    status = main(["mutate", "--format", "json", *args])
    return status, json.loads(capsys.readouterr().out)


def accepted_only_suite(tmp_path: Path) -> Path:
    """The article's registry with only its accepted cases: no rejection is covered."""
    suite = {**ARTICLE_SUITE, "cases": [c for c in ARTICLE_SUITE["cases"] if c["expected"] == "ACCEPT"]}
    path = tmp_path / "accepted.json"
    path.write_text(json.dumps(suite), "utf-8")
    return path


class TestJson:
    def test_names_and_sums_on_the_article(self, capsys):
        status, document = run_json(capsys, str(ARTICLE))
        assert status == 0
        assert document["schema"] == "inspector.mutate/2"
        for key in ("mutants", "killed_by", "survivors", "score", "coverage", "coverage_reasons"):
            assert key in document
        assert sum(document["killed_by"].values()) + len(document["survivors"]) == document["mutants"]
        assert set(document["killed_by"]) <= set(REJECTIONS)
        for survivor in document["survivors"]:
            assert {"case", "mutation", "edit"} <= set(survivor)
            # Its edit says what it is; the whole mutated text only for a hole (none here).
            assert "raw" not in survivor
        assert document["accepted_cases"] == ["article/complete-answer", "article/reordered-claims",
                                              "article/one-field-request"]
        # Every mutant meant to change the verdict is killed; the survivors are the harmless ones.
        assert document["score"] == 1.0 and document["holes"] == 0
        assert all(s["harmless"] for s in document["survivors"])
        assert document["harmless"]["rejected"] == []

    def test_per_mutation_figures_add_up(self, capsys):
        _, document = run_json(capsys, str(ARTICLE))
        rows = document["by_mutation"]
        assert list(rows) == [m.name for m in MUTATIONS]
        assert sum(row["mutants"] for row in rows.values()) == document["mutants"]
        assert sum(row["killed"] for row in rows.values()) == sum(document["killed_by"].values())
        assert sum(row["slipped"] for row in rows.values()) == len(document["slipped"])
        assert sum(check["killed"] for check in document["by_check"].values()) == document["killed"]

    def test_slipped_mutants_name_both_checks(self, capsys):
        _, document = run_json(capsys, str(ARTICLE))
        assert document["slipped"]
        for slipped in document["slipped"]:
            assert slipped["meant"] != slipped["check"]
            assert slipped["mutation"] == "doc.other" and slipped["check"] == "quote_found"

    def test_coverage_lists_the_suites_own_cases(self, capsys):
        _, document = run_json(capsys, str(ARTICLE))
        assert list(document["coverage"]) == list(REJECTIONS)
        assert document["coverage"]["VALUE_MISMATCH"] == ["article/real-quote-wrong-value",
                                                          "article/value-in-seconds"]
        assert document["coverage"]["INCOMPLETE"] == ["article/omitted-field"]
        assert all(document["coverage"].values()) and document["uncovered"] == []
        reasons = document["coverage_reasons"]
        assert reasons["NO_CITATION/UNKNOWN_DOC"] == ["article/invented-doc"]
        assert reasons["INVALID_JSON/UNKNOWN_MEMBER"] == ["article/free-text-answer-member",
                                                          "article/claim-confidence-member"]
        assert reasons["INVALID_JSON/TOO_DEEP"] == []
        # The article's requests carry no scope: access control is not part of its contract.
        assert "NO_CITATION/NOT_AUTHORIZED" not in reasons
        labels = {c["id"]: c["expected"] for c in ARTICLE_SUITE["cases"]}
        for key, cases in reasons.items():
            for case in cases:
                assert labels[case.split("/", 1)[1]] == key

    def test_not_authorized_is_covered_where_cases_carry_a_scope(self, capsys):
        _, document = run_json(capsys, str(FIXTURES / "access.json"))
        assert document["coverage_reasons"]["NO_CITATION/NOT_AUTHORIZED"]
        assert document["by_mutation"]["doc.other"]["killed_by"].get("NO_CITATION/NOT_AUTHORIZED")

    def test_the_bundled_suites(self, capsys):
        status, document = run_json(capsys)
        assert status == 0 and document["uncovered"] == []
        # The union decides; each suite's own gaps are listed (access.json covers three codes).
        assert document["uncovered_by_suite"]["article"] == []
        assert document["uncovered_by_suite"]["access"] == ["INVALID_JSON", "DUPLICATE_CLAIM",
                                                            "UNREQUESTED_FIELD", "SCOPE_MISMATCH",
                                                            "QUOTE_NOT_SUPPORTING", "INCOMPLETE"]
        assert sum(document["killed_by"].values()) + len(document["survivors"]) == document["mutants"]
        # Harmless edits of the cases at the size limit push them over it: listed, not hidden.
        rejected = document["harmless"]["rejected"]
        assert rejected and {r["verdict"] for r in rejected} == {"INVALID_JSON/TOO_LARGE"}
        assert all(r["case"].startswith("decode/") for r in rejected)


class TestExit:
    """Exit 0 when the report was written; the gates only when asked for."""

    def test_exit_0_with_uncovered_codes_unless_coverage_is_required(self, capsys, tmp_path):
        suite = str(accepted_only_suite(tmp_path))
        status, document = run_json(capsys, suite)
        assert status == 0
        assert document["uncovered"] == list(REJECTIONS)
        assert document["mutants"] > 0 and document["score"] == 1.0
        assert main(["mutate", "--format", "json", "--require-coverage", suite]) == 1
        captured = capsys.readouterr()
        assert json.loads(captured.out)["uncovered"] == list(REJECTIONS)  # the report is written all the same
        assert captured.err == "inspector: --require-coverage: covered by no case: " + ", ".join(REJECTIONS) + "\n"
        assert main(["mutate", "--require-coverage", str(ARTICLE)]) == 0

    def test_text_names_the_uncovered_codes(self, capsys, tmp_path):
        assert main(["mutate", str(accepted_only_suite(tmp_path))]) == 0
        out = capsys.readouterr().out
        assert "not covered by any case: INVALID_JSON, NO_CITATION" in out

    def test_the_stryker_report_exits_0_when_written(self, capsys):
        # access.json covers three codes of nine: a report all the same, and exit 0.
        assert main(["mutate", "--format", "stryker", str(FIXTURES / "access.json")]) == 0
        assert json.loads(capsys.readouterr().out)["files"]

    def test_fail_under_reads_the_score(self, capsys, monkeypatch):
        assert main(["mutate", "--format", "stryker", "--fail-under", "100", str(ARTICLE)]) == 0
        capsys.readouterr()
        import inspector.lab.mutation_testing as lab

        real = lab.verify
        monkeypatch.setattr(lab, "verify", lambda raw, request, registry:
                            real(raw.replace('"5001"', '"5000"'), request, registry))
        assert main(["mutate", "--format", "stryker", "--fail-under", "99", str(ARTICLE)]) == 1
        captured = capsys.readouterr()
        assert json.loads(captured.out)["files"]
        assert captured.err == "inspector: --fail-under 99: the mutation score is 98.08%\n"
        assert main(["mutate", "--fail-under", "98", str(ARTICLE)]) == 0

    def test_fail_under_with_no_mutant_to_score(self, capsys, tmp_path):
        suite = {**ARTICLE_SUITE, "cases": [c for c in ARTICLE_SUITE["cases"] if c["expected"] != "ACCEPT"]}
        path = tmp_path / "rejected.json"
        path.write_text(json.dumps(suite), "utf-8")
        assert main(["mutate", "--fail-under", "0", str(path)]) == 1
        assert "no mutant was scored" in capsys.readouterr().err

    @pytest.mark.parametrize("value", ["101", "-1", "nan", "inf", "x", "²"])
    def test_fail_under_refuses_what_is_not_a_percentage(self, capsys, value):
        with pytest.raises(SystemExit) as exit_:
            main(["mutate", "--fail-under", value, str(ARTICLE)])
        assert exit_.value.code == 2
        captured = capsys.readouterr()
        assert captured.out == "" and "--fail-under" in captured.err and "Traceback" not in captured.err

    def test_exit_2_on_a_missing_file(self, capsys, tmp_path):
        assert main(["mutate", str(tmp_path / "none.json")]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        one_line_error(captured.err, "none.json")

    def test_exit_2_on_an_invalid_suite_in_a_subprocess(self, tmp_path):
        bad = tmp_path / "bad.json"
        bad.write_text('{"sources": [], "cases": [{"id": 1}]}', "utf-8")
        proc = run_cli("mutate", bad)
        out, err = decoded(proc)
        assert proc.returncode == 2 and out == ""
        one_line_error(err, "bad.json")

    def test_a_suite_with_no_accepted_case(self, capsys, tmp_path):
        suite = {**ARTICLE_SUITE, "cases": [c for c in ARTICLE_SUITE["cases"] if c["expected"] != "ACCEPT"]}
        path = tmp_path / "rejected.json"
        path.write_text(json.dumps(suite), "utf-8")
        status, document = run_json(capsys, str(path))
        assert status == 0 and document["mutants"] == 0 and document["score"] is None
        assert main(["mutate", str(path)]) == 0
        assert "0 mutants of 0 accepted case(s)" in capsys.readouterr().out
        status, report = run_stryker(capsys, str(path))
        assert status == 0 and report["files"] == {}


class TestText:
    def test_summary_tables_and_survivors(self, capsys):
        assert main(["mutate", str(ARTICLE)]) == 0
        out = capsys.readouterr().out
        assert "mutations: every variant on every accepted case" in out
        for mutation in MUTATIONS:
            assert mutation.name in out
        assert "mutants killed first, per verdict code" in out
        assert "coverage: the suites' own cases failing first with each code" in out
        assert "100.0% of the 156 mutants meant to change the verdict killed" in out
        assert "every rejection code is covered" in out
        assert "article/complete-answer  raw.bom  a leading BOM  -> ACCEPT" in out
        assert "insert ‹\\ufeff›" in out  # the BOM itself is never printed

    def test_the_text_ends_with_the_score_and_the_coverage(self, capsys):
        """Hundreds of lines of survivors scroll up: the score and the coverage are the last lines,
        where a terminal shows them."""
        assert main(["mutate"]) == 0
        lines = capsys.readouterr().out.splitlines()
        score = next(number for number, line in enumerate(lines) if line.startswith("score "))
        assert len(lines) > 100 and score >= len(lines) - 12
        tail = "\n".join(lines[score - 1:])
        assert tail.startswith("mutants ") and "harmless " in tail
        assert "every rejection code is covered" in tail or "not covered by any case" in tail
        assert not any(line.startswith("  ") and " -> " in line for line in lines[score:])  # no survivor after it

    def test_a_narrow_terminal_keeps_the_figures(self, capsys, monkeypatch):
        monkeypatch.setenv("COLUMNS", "80")
        assert main(["mutate", str(ARTICLE)]) == 0
        out = capsys.readouterr().out
        from rich.cells import cell_len

        assert max(cell_len(line) for line in out.splitlines()) <= 80
        header = next(line for line in out.splitlines() if "mutation" in line and "mutants" in line)
        for column in ("meant for", "killed", "survived", "slipped"):
            assert column in header

    def test_each_suites_own_gaps_are_named(self, capsys):
        assert main(["mutate", str(ARTICLE), str(FIXTURES / "access.json")]) == 0
        out = capsys.readouterr().out
        assert "per suite access lacks INVALID_JSON, DUPLICATE_CLAIM" in out
        assert "article lacks" not in out

    def test_untrusted_text_is_shown_safely(self, capsys, tmp_path):
        # A case id and values with terminal escapes and bidi controls: shown as \\uXXXX.
        suite = json.loads((FIXTURES / "hostile.json").read_text("utf-8"))
        path = tmp_path / "hostile.json"
        path.write_text(json.dumps(suite), "utf-8")
        assert main(["mutate", str(path)]) == 0  # hostile.json covers only some codes: no gate asked for
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\u202e" not in out and "\x07" not in out
        assert "\\u001b" in out

    def test_help_lists_the_command_and_every_mutation(self, capsys):
        with pytest.raises(SystemExit):
            main(["--help"])
        assert "mutate" in capsys.readouterr().out
        with pytest.raises(SystemExit):
            main(["mutate", "--help"])
        out = capsys.readouterr().out
        for mutation in MUTATIONS:
            assert mutation.name in out
        assert "stryker" in out and "exit status" in out


def check_report_schema(report: dict) -> None:
    """What mutation-testing-report-schema (version 1, as of 3.8) requires of a report,
    asserted member by member (the schema's validator is not a dependency here)."""
    assert {"schemaVersion", "thresholds", "files"} <= set(report)
    assert report["schemaVersion"] == "1"
    assert set(report["thresholds"]) == {"high", "low"}
    assert all(isinstance(v, int) and 0 <= v <= 100 for v in report["thresholds"].values())
    assert isinstance(report["framework"]["name"], str)
    test_ids = set()
    for test_file in report.get("testFiles", {}).values():
        for test in test_file["tests"]:
            assert isinstance(test["id"], str) and isinstance(test["name"], str)
            test_ids.add(test["id"])
    ids = set()
    for file in report["files"].values():
        assert isinstance(file["language"], str) and isinstance(file["source"], str)
        for mutant in file["mutants"]:
            assert {"id", "mutatorName", "location", "status"} <= set(mutant)
            assert mutant["status"] in {"Killed", "Survived", "NoCoverage", "CompileError", "RuntimeError",
                                        "Timeout", "Ignored", "Pending"}
            for end in ("start", "end"):
                where = mutant["location"][end]
                assert isinstance(where["line"], int) and where["line"] >= 1
                assert isinstance(where["column"], int) and where["column"] >= 1
            for key in ("id", "mutatorName", "description", "replacement", "statusReason"):
                assert isinstance(mutant.get(key, ""), str)
            for key in ("killedBy", "coveredBy"):
                assert set(mutant.get(key, [])) <= test_ids  # every id names a test of the report
            assert mutant["id"] not in ids
            ids.add(mutant["id"])


def run_stryker(capsys, *args: str) -> tuple[int, dict]:
    status = main(["mutate", "--format", "stryker", *args])
    return status, json.loads(capsys.readouterr().out)


class TestStryker:
    def test_the_mutation_testing_report_schema(self, capsys):
        status, report = run_stryker(capsys, str(ARTICLE))
        assert status == 0
        check_report_schema(report)
        _, document = run_json(capsys, str(ARTICLE))
        assert list(report["files"]) == [f"{case}.json" for case in document["accepted_cases"]]
        mutants = [m for file in report["files"].values() for m in file["mutants"]]
        assert len(mutants) == document["mutants"]
        statuses = {m["status"] for m in mutants}
        assert statuses <= {"Killed", "Survived", "Ignored"}
        ignored = [m for m in mutants if m["status"] == "Ignored"]
        assert {m["mutatorName"] for m in ignored} == {"raw.whitespace", "raw.bom", "raw.escape_key",
                                                      "claim.move_up", "claim.move_down"}
        assert sum(1 for m in mutants if m["status"] == "Killed") == 156

    def test_the_checks_are_the_tests_and_name_what_they_killed(self, capsys):
        from inspector.contract.checks import CHECKS

        _, report = run_stryker(capsys, str(ARTICLE))
        (tests,) = report["testFiles"].values()
        names = {test["id"]: test["name"] for test in tests["tests"]}
        assert list(names.values()) == [f"{c.id}: {c.title} ({c.code})" for c in CHECKS]
        _, document = run_json(capsys, str(ARTICLE))
        killed_by = {}
        for file in report["files"].values():
            for mutant in file["mutants"]:
                assert mutant["coveredBy"]
                if mutant["status"] == "Killed":
                    (test,) = mutant["killedBy"]
                    assert test in mutant["coveredBy"]
                    check = names[test].split(":")[0]
                    killed_by[check] = killed_by.get(check, 0) + 1
                else:
                    assert "killedBy" not in mutant
        assert killed_by == {check: row["killed"] for check, row in document["by_check"].items()}
        assert killed_by["quote_supports"] == 30

    def test_harmless_mutants_rejected_stay_in_the_score(self, capsys):
        status, report = run_stryker(capsys)
        _, document = run_json(capsys)
        assert status == 0
        check_report_schema(report)
        mutants = [(name, m) for name, file in report["files"].items() for m in file["mutants"]]
        rejected = [(name, m) for name, m in mutants if "stricter than intended" in m.get("statusReason", "")]
        assert len(rejected) == len(document["harmless"]["rejected"]) == 17
        assert all(m["status"] == "Survived" for _, m in rejected)
        assert all(name.startswith("decode/") for name, _ in rejected)
        assert sum(m["status"] == "Ignored" for _, m in mutants) == document["harmless"]["accepted"] == 267
        assert sum(m["status"] == "Survived" for _, m in mutants) == 17 + document["holes"]

    def test_locations_point_at_the_edit_in_the_source(self, capsys):
        _, report = run_stryker(capsys, str(ARTICLE))
        file = report["files"]["article/complete-answer.json"]
        source = file["source"]
        assert source == ARTICLE_SUITE["cases"][0]["raw"]
        perturb = next(m for m in file["mutants"]
                       if m["mutatorName"] == "value.perturb" and m["replacement"] == '"5001"')
        start, end = perturb["location"]["start"], perturb["location"]["end"]
        offset = source.index('"5000"')
        assert (start["line"], start["column"]) == line_col(source, offset)
        assert (end["line"], end["column"]) == line_col(source, offset + len('"5000"'))

    def test_every_mutant_is_where_the_reader_puts_it(self, capsys, tmp_path):
        """An answer with CRLF and a lone CR between its tokens, U+2028, U+2029 and emoji
        inside its strings, then the bundled suites: applying each mutant's replacement
        at its location, as Stryker's report does, gives the mutant, every one."""
        from inspector.lab.mutation_testing import MutationRun
        from inspector.suites.load import bundled_suite_paths, load_suites

        value = "\U0001f600\u2028\U0001f600\u2029\r x"
        emoji = {"id": "emoji-\U0001f600", "service": "payments", "environment": "prod", "revision": "v2",
                 "facts": {"read_timeout_ms": "5000", "mood": value},
                 "text": f"mood={value}\nread_timeout_ms=5000\n"}
        raw = ('{\r\n"claims":\r[\n{"field": "mood", "value": ' + json.dumps(value, ensure_ascii=False)
               + ', "doc": "emoji-\U0001f600",\r\n"quote": ' + json.dumps("mood=" + value, ensure_ascii=False)
               + '},\r{"field": "read_timeout_ms", "value": "5000", "doc": "emoji-\U0001f600", '
                 '"quote": "read_timeout_ms=5000"}]}\r\n')
        request = {"service": "payments", "environment": "prod", "revision": "v2",
                   "fields": ["mood", "read_timeout_ms"], "supplied": ["emoji-\U0001f600"]}
        path = tmp_path / "breaks.json"
        path.write_text(json.dumps({"sources": [*ARTICLE_SUITE["sources"], emoji],
                                    "cases": [{"id": "breaks", "raw": raw, "request": request,
                                               "expected": "ACCEPT"}]}), "utf-8")
        for paths in ([path], bundled_suite_paths()):
            status, report = run_stryker(capsys, *map(str, paths))
            assert status == 0
            run = MutationRun(load_suites(paths))
            expected = {str(number): result.mutant.raw for number, result in enumerate(run.stream(), 1)}
            assert len(run.parents) == len(report["files"]) and expected
            mutants = [(file["source"], m) for file in report["files"].values() for m in file["mutants"]]
            assert len(mutants) == len(expected)
            for source, mutant in mutants:
                assert mutated(source, mutant) == expected[mutant["id"]], mutant

    def test_untrusted_text_stays_json(self, capsys):
        status, report = run_stryker(capsys, str(FIXTURES / "hostile.json"))
        assert status == 0
        check_report_schema(report)


class TestOut:
    @pytest.mark.parametrize("form", ["text", "json", "stryker"])
    def test_the_file_holds_what_standard_output_would(self, capsys, tmp_path, form):
        out = tmp_path / f"report.{form}"
        assert main(["mutate", "--format", form, "--out", str(out), str(ARTICLE)]) == 0
        assert capsys.readouterr().out == ""
        assert main(["mutate", "--format", form, str(ARTICLE)]) == 0
        assert out.read_text("utf-8") == capsys.readouterr().out
        assert [p.name for p in tmp_path.iterdir()] == [out.name]  # no temporary file left

    def test_it_refuses_an_existing_file_before_the_work(self, capsys, tmp_path, monkeypatch):
        out = tmp_path / "taken.json"
        out.write_text("mine", "utf-8")
        import inspector.lab.mutation_testing as lab

        monkeypatch.setattr(lab, "verify", None)  # never reached
        assert main(["mutate", "--out", str(out), str(ARTICLE)]) == 2
        one_line_error(capsys.readouterr().err, "taken.json", "already exists")
        assert out.read_text("utf-8") == "mine"
        link = tmp_path / "link.json"
        link.symlink_to(tmp_path / "nowhere.json")
        assert main(["mutate", "--out", str(link), str(ARTICLE)]) == 2
        assert not (tmp_path / "nowhere.json").exists()

    def test_it_refuses_a_missing_directory(self, capsys, tmp_path):
        assert main(["mutate", "--out", str(tmp_path / "none" / "r.json"), str(ARTICLE)]) == 2
        one_line_error(capsys.readouterr().err, "no such directory")

    def test_a_failed_write_leaves_nothing(self, capsys, tmp_path, monkeypatch):
        from inspector.lab import stryker

        real = stryker._mutant

        def failing(number, result, lines):
            if number == 50:
                raise OSError(28, "No space left on device")
            return real(number, result, lines)

        monkeypatch.setattr(stryker, "_mutant", failing)
        out = tmp_path / "r.json"
        assert main(["mutate", "--format", "stryker", "--out", str(out), str(ARTICLE)]) == 2
        one_line_error(capsys.readouterr().err, "No space left on device")
        assert list(tmp_path.iterdir()) == []


class TestHoles:
    """No bundled mutant meant to be rejected survives; a contract with a hole (here
    simulated: verify reads 5001 as 5000) must show it, with the whole raw text."""

    @pytest.fixture
    def holed(self, monkeypatch):
        import inspector.lab.mutation_testing as lab

        real = lab.verify

        def lenient(raw, request, registry):
            return real(raw.replace('"5001"', '"5000"'), request, registry)

        monkeypatch.setattr(lab, "verify", lenient)

    def test_a_surviving_mutant_lowers_the_score_and_is_listed(self, capsys, holed):
        status, document = run_json(capsys, str(ARTICLE))
        holes = [s for s in document["survivors"] if not s["harmless"]]
        assert document["holes"] == len(holes) == 3  # each accepted case claims read_timeout_ms
        assert {h["mutation"] for h in holes} == {"value.perturb"}
        assert all('"5001"' in h["raw"] for h in holes)
        assert document["score"] == round(153 / 156, 6)
        assert document["by_mutation"]["value.perturb"]["survived"] == 3
        assert status == 0  # no gate was asked for

    def test_the_text_shows_the_hole_with_its_raw_text(self, capsys, holed):
        main(["mutate", str(ARTICLE)])
        out = capsys.readouterr().out
        assert "3 survivors meant to be rejected (holes in the contract):" in out
        assert "article/complete-answer  value.perturb  next number: 5001  -> ACCEPT" in out
        assert '    |       "value": "5001",' in out
