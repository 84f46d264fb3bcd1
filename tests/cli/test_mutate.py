"""``inspector mutate``: the text summary, the JSON names and sums, the Stryker
report, and its exit statuses (1 for a suite missing a rejection code, 2 for
unusable input, never a traceback)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.contract.text import line_col
from inspector.lab.mutation_testing import REJECTIONS
from inspector.lab.mutations import MUTATIONS

from support import ARTICLE, FIXTURES, decoded, one_line_error, run_cli

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
        assert document["schema"] == "inspector.mutate/1"
        for key in ("mutants", "killed_by", "survivors", "score", "coverage", "coverage_reasons"):
            assert key in document
        assert sum(document["killed_by"].values()) + len(document["survivors"]) == document["mutants"]
        assert set(document["killed_by"]) <= set(REJECTIONS)
        for survivor in document["survivors"]:
            assert {"case", "mutation", "raw"} <= set(survivor)
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
    def test_exit_1_when_a_rejection_code_is_not_covered(self, capsys, tmp_path):
        status, document = run_json(capsys, str(accepted_only_suite(tmp_path)))
        assert status == 1
        assert document["uncovered"] == list(REJECTIONS)
        assert document["mutants"] > 0 and document["score"] == 1.0

    def test_text_names_the_uncovered_codes(self, capsys, tmp_path):
        assert main(["mutate", str(accepted_only_suite(tmp_path))]) == 1
        out = capsys.readouterr().out
        assert "not covered by any case: INVALID_JSON, NO_CITATION" in out

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
        assert main(["mutate", str(path)]) == 1  # hostile.json covers only some codes
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


class TestStryker:
    def test_the_mutation_testing_report_schema(self, capsys):
        assert main(["mutate", "--format", "stryker", str(ARTICLE)]) == 0
        report = json.loads(capsys.readouterr().out)
        _, document = run_json(capsys, str(ARTICLE))
        assert report["schemaVersion"] == "1"
        assert set(report["thresholds"]) == {"high", "low"}
        assert list(report["files"]) == [f"{case}.json" for case in document["accepted_cases"]]
        mutants = [m for file in report["files"].values() for m in file["mutants"]]
        assert len(mutants) == document["mutants"]
        assert len({m["id"] for m in mutants}) == len(mutants)
        statuses = {m["status"] for m in mutants}
        assert statuses <= {"Killed", "Survived", "Ignored"}
        ignored = [m for m in mutants if m["status"] == "Ignored"]
        assert {m["mutatorName"] for m in ignored} == {"raw.whitespace", "raw.bom", "raw.escape_key",
                                                      "claim.move_up", "claim.move_down"}
        assert sum(1 for m in mutants if m["status"] == "Killed") == 156

    def test_locations_point_at_the_edit_in_the_source(self, capsys):
        assert main(["mutate", "--format", "stryker", str(ARTICLE)]) == 0
        report = json.loads(capsys.readouterr().out)
        file = report["files"]["article/complete-answer.json"]
        source = file["source"]
        assert source == ARTICLE_SUITE["cases"][0]["raw"]
        perturb = next(m for m in file["mutants"]
                       if m["mutatorName"] == "value.perturb" and m["replacement"] == '"5001"')
        start, end = perturb["location"]["start"], perturb["location"]["end"]
        offset = source.index('"5000"')
        assert (start["line"], start["column"]) == line_col(source, offset)
        assert (end["line"], end["column"]) == line_col(source, offset + len('"5000"'))
        for mutant in file["mutants"]:
            where = mutant["location"]
            assert (where["start"]["line"], where["start"]["column"]) <= (where["end"]["line"],
                                                                         where["end"]["column"])
            assert where["start"]["line"] >= 1 and where["start"]["column"] >= 1


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
        assert status == 0  # coverage, not the score, decides the exit status

    def test_the_text_shows_the_hole_with_its_raw_text(self, capsys, holed):
        main(["mutate", str(ARTICLE)])
        out = capsys.readouterr().out
        assert "3 survivors meant to be rejected (holes in the contract):" in out
        assert "article/complete-answer  value.perturb  next number: 5001  -> ACCEPT" in out
        assert '    |       "value": "5001",' in out
