"""The ``inspector`` command line (inspector.cli): exit codes, one-line errors,
standard input, JSON documents (audit runs on disk: test_manifest, test_writing).

Most tests call ``main([...])`` in process; a few run ``python -m inspector`` to
check what a shell user sees."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from inspector import load_registry, load_request, verify
from inspector.cli import main
from inspector.reports.case import verdict_document
from inspector.suites.load import load_answer

from support import (
    ANSWERS,
    ARTICLE,
    FIXTURES,
    GOOD,
    PAYMENTS_REGISTRY,
    PAYMENTS_REQUEST,
    REQUEST_DICT,
    SOURCES,
    decoded,
    one_line_error,
    run_cli,
    run_main,
)

CHECK = ["check", "--request", str(PAYMENTS_REQUEST), "--registry", str(PAYMENTS_REGISTRY)]

# The payments answers and what the fixtures' README says they are.
PAYMENTS_ANSWERS = [
    ("accept.json", "ACCEPT", 0),
    ("value-mismatch.json", "VALUE_MISMATCH", 1),
    ("stale-revision.json", "STALE_REVISION", 1),
    ("duplicate-key.json", "INVALID_JSON/DUPLICATE_KEY", 1),
    ("not-json.txt", "INVALID_JSON/SYNTAX", 1),
]

CASE_KEYS = {"suite", "id", "expected", "actual", "strict_json", "citation_only", "accepted", "first_failure",
             "labels", "policy"}
SUMMARY_KEYS = {"cases", "strict_json", "citation_only", "accepted", "citation_only_false_accepts",
                "label_mismatches"}


def feed_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def copy_suite(tmp_path: Path, source: Path = ARTICLE, name: str | None = None) -> Path:
    target = tmp_path / (name or source.name)
    shutil.copyfile(source, target)
    return target


def write_suite(path: Path, cases: list[dict]) -> Path:
    path.write_text(json.dumps({"sources": SOURCES, "cases": cases}), "utf-8")
    return path


class TestCheck:
    @pytest.mark.parametrize(("name", "label", "code"), PAYMENTS_ANSWERS, ids=[a[0] for a in PAYMENTS_ANSWERS])
    def test_payments_answers(self, capsys, name, label, code):
        assert main([*CHECK, str(ANSWERS / name)]) == code
        out, err = capsys.readouterr()
        assert label in out.splitlines()[0]
        assert err == ""

    def test_accept_lists_the_accepted_map(self, capsys):
        main([*CHECK, str(ANSWERS / "accept.json")])
        out = capsys.readouterr().out
        assert "read_timeout_ms = 5000" in out and "retry_enabled = false" in out

    def test_rejection_explains_and_hints(self, capsys):
        main([*CHECK, str(ANSWERS / "value-mismatch.json")])
        out = capsys.readouterr().out
        assert "2000" in out and "5000" in out
        assert "citation-only would have accepted this\n" in out
        assert "fix" in out

    def test_the_fix_says_what_this_claim_and_source_hold(self, capsys):
        """Not the declared example ("5s" is not "5000"): this answer's 2000, prod-v2's 5000."""
        assert main([*CHECK, str(ANSWERS / "value-mismatch.json")]) == 1
        out = capsys.readouterr().out
        assert 'fix      Copy prod-v2\'s read_timeout_ms exactly: "5000", not "2000".\n' in out
        assert '"5s"' not in out

    def test_the_fix_shows_hostile_values_safely(self, capsys, tmp_path):
        raw = json.loads((ANSWERS / "value-mismatch.json").read_text("utf-8"))
        raw["claims"][0]["value"] = "\x1b[31m2000\u202e"
        answer = tmp_path / "hostile.json"
        answer.write_text(json.dumps(raw), "utf-8")
        assert main([*CHECK, str(answer)]) == 1
        fix = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("fix "))
        assert fix.endswith('Copy prod-v2\'s read_timeout_ms exactly: "5000", not "\\u001b[31m2000\\u202e".')
        assert "\x1b" not in fix and "\u202e" not in fix

    def test_the_json_hint_is_the_same(self, capsys):
        main([*CHECK, "--format", "json", str(ANSWERS / "value-mismatch.json")])
        hint = json.loads(capsys.readouterr().out)["first_failure"]["hint"]
        assert hint == 'Copy prod-v2\'s read_timeout_ms exactly: "5000", not "2000".'

    @pytest.mark.parametrize(("name", "baselines"), [
        ("accept.json", "strict JSON accept  citation-only accept  label lens ANSWER  contract accept"),
        ("value-mismatch.json", "strict JSON accept  citation-only accept  label lens ABSTAIN  contract reject"),
        ("stale-revision.json", "strict JSON accept  citation-only accept  label lens ANSWER  contract reject"),
    ])
    def test_the_baselines_say_the_reports_words(self, capsys, name, baselines):
        # The inspector's verdict panel's baselines (CaseReport.baselines), in their words: accept/reject,
        # ANSWER/ABSTAIN for the label lens.
        main([*CHECK, str(ANSWERS / name)])
        assert f"baselines  {baselines}\n" in capsys.readouterr().out

    def test_baselines_of_an_answer_that_is_not_json(self, capsys, monkeypatch):
        feed_stdin(monkeypatch, b"not json")
        main(CHECK)
        assert "baselines  strict JSON reject  citation-only reject  label lens ABSTAIN  contract reject\n" \
            in capsys.readouterr().out

    def test_trace(self, capsys):
        main([*CHECK, "--trace", str(ANSWERS / "stale-revision.json")])
        out = capsys.readouterr().out
        assert "trace" in out
        assert "current revision" in out and "not reached" in out

    def test_stdin_dash(self, capsys, monkeypatch):
        feed_stdin(monkeypatch, (ANSWERS / "accept.json").read_bytes())
        assert main([*CHECK, "-"]) == 0
        assert "ACCEPT" in capsys.readouterr().out

    def test_stdin_by_default(self, capsys, monkeypatch):
        feed_stdin(monkeypatch, b"not json")
        assert main(CHECK) == 1
        assert "INVALID_JSON/SYNTAX" in capsys.readouterr().out

    def test_stdin_bytes_are_not_decoded_first(self, capsys, monkeypatch):
        feed_stdin(monkeypatch, b'{"claims": "\xff"}')
        assert main([*CHECK, "--format", "json"]) == 1
        assert json.loads(capsys.readouterr().out)["reason"] == "NOT_UTF8"

    def test_json_document(self, capsys):
        assert main([*CHECK, "--format", "json", str(ANSWERS / "value-mismatch.json")]) == 1
        document = json.loads(capsys.readouterr().out)
        assert document["status"] == "VALUE_MISMATCH" and document["reason"] is None
        assert document["strict_json"] is True and document["citation_only"] is True
        assert document["accepted"] == {}
        failure = document["first_failure"]
        assert {"check", "reason", "claim", "detail"} <= set(failure)
        assert (failure["check"], failure["claim"]) == ("value", 0)
        assert "2000" in failure["detail"]

    def test_json_document_of_an_accepted_answer(self, capsys):
        assert main([*CHECK, "--format", "json", str(ANSWERS / "accept.json")]) == 0
        document = json.loads(capsys.readouterr().out)
        assert document["status"] == "ACCEPT"
        assert document["first_failure"] is None
        assert list(document["accepted"].items()) == [("read_timeout_ms", "5000"), ("retry_enabled", "false")]

    def test_json_trace(self, capsys):
        main([*CHECK, "--format", "json", "--trace", str(ANSWERS / "duplicate-key.json")])
        document = json.loads(capsys.readouterr().out)
        trace = document["trace"]
        assert [step["outcome"] for step in trace[:5]] == ["passed", "passed", "passed", "passed", "failed"]
        failed = trace[4]
        assert failed["check"] == "duplicate_key" and failed["reason"] == "DUPLICATE_KEY"
        assert failed["answer_span"]["line"] == 2 and len(failed["related_spans"]) == 1
        assert {step["outcome"] for step in trace[5:]} == {"not_reached"}

    @pytest.mark.parametrize("trace", [False, True], ids=["document", "with-trace"])
    @pytest.mark.parametrize(("name", "label", "code"), PAYMENTS_ANSWERS, ids=[a[0] for a in PAYMENTS_ANSWERS])
    def test_json_document_is_the_presentation_layers(self, capsys, name, label, code, trace):
        # The command renders verdict_document; it computes nothing of its own.
        assert main([*CHECK, "--format", "json", *(["--trace"] if trace else []), str(ANSWERS / name)]) == code
        document = json.loads(capsys.readouterr().out)
        verdict = verify(load_answer(ANSWERS / name), load_request(PAYMENTS_REQUEST), load_registry(PAYMENTS_REGISTRY))
        assert verdict.label == label
        assert document == json.loads(json.dumps(verdict_document(verdict, trace=trace)))
        assert ("trace" in document) is trace

    def test_hostile_answer_text_is_shown_visibly(self, capsys, tmp_path):
        path = tmp_path / "answer.json"
        path.write_text(json.dumps({"claims": [{"field": "read_timeout_ms", "value": "5000",
                                                "doc": "\x1b]52;c;aGk=\x07\u202e", "quote": "x"}]}), "utf-8")
        assert main([*CHECK, str(path)]) == 1
        out = capsys.readouterr().out
        assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
        assert "\\u001b" in out


class TestCheckUnusableInput:
    def test_missing_claims_file(self, capsys, tmp_path):
        missing = tmp_path / "nope.json"
        assert main([*CHECK, str(missing)]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        one_line_error(err, str(missing))

    def test_claims_file_is_a_directory(self, capsys, tmp_path):
        assert main([*CHECK, str(tmp_path)]) == 2
        one_line_error(capsys.readouterr().err, str(tmp_path))

    def test_missing_request(self, capsys, tmp_path):
        missing = tmp_path / "request.json"
        assert main(["check", "--request", str(missing), "--registry", str(PAYMENTS_REGISTRY),
                     str(ANSWERS / "accept.json")]) == 2
        one_line_error(capsys.readouterr().err, str(missing))

    @pytest.mark.parametrize(("content", "words"), [
        ("{\n  \"service\": ", ["end of file"]),
        ('{"service": "payments",}', ["1:24"]),
        (json.dumps({**REQUEST_DICT, "revison": "v2"}), ["revison"]),
        (json.dumps({k: v for k, v in REQUEST_DICT.items() if k != "fields"}), ["fields"]),
        (json.dumps({**REQUEST_DICT, "fields": []}), ["fields"]),
        (json.dumps(REQUEST_DICT)[:-1] + ', "revision": "v1"}', ["revision"]),
    ], ids=["truncated", "syntax", "unknown-member", "missing-member", "no-fields", "duplicate-key"])
    def test_invalid_request(self, capsys, tmp_path, content, words):
        request = tmp_path / "request.json"
        request.write_text(content, "utf-8")
        assert main(["check", "--request", str(request), "--registry", str(PAYMENTS_REGISTRY),
                     str(ANSWERS / "accept.json")]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        one_line_error(err, str(request), *words)

    @pytest.mark.parametrize(("content", "words"), [
        ("", ["end of file"]),
        ("[]", []),
        (json.dumps({"sources": [SOURCES[0], SOURCES[0]]}), ["prod-v2"]),
        (json.dumps({"sources": [{**SOURCES[0], "revison": "v2"}]}), ["revison"]),
        (b'{"sources": "\xff"}', ["0xFF"]),
    ], ids=["empty", "array", "duplicate-source", "unknown-member", "not-utf8"])
    def test_invalid_registry(self, capsys, tmp_path, content, words):
        registry = tmp_path / "registry.json"
        registry.write_bytes(content if isinstance(content, bytes) else content.encode())
        assert main(["check", "--request", str(PAYMENTS_REQUEST), "--registry", str(registry),
                     str(ANSWERS / "accept.json")]) == 2
        one_line_error(capsys.readouterr().err, str(registry), *words)

    def test_missing_registry(self, capsys, tmp_path):
        assert main(["check", "--request", str(PAYMENTS_REQUEST), "--registry", str(tmp_path / "g.json"),
                     str(ANSWERS / "accept.json")]) == 2
        one_line_error(capsys.readouterr().err, "g.json")

    def test_subprocess_errors_are_one_line(self, tmp_path):
        bad = tmp_path / "request.json"
        bad.write_text("{", "utf-8")
        proc = run_cli("check", "--request", bad, "--registry", PAYMENTS_REGISTRY, ANSWERS / "accept.json")
        out, err = decoded(proc)
        assert proc.returncode == 2
        assert out == ""
        one_line_error(err, str(bad))


class TestCheckSubprocess:
    @pytest.mark.parametrize(("name", "label", "code"), [PAYMENTS_ANSWERS[0], PAYMENTS_ANSWERS[3]],
                             ids=["accept", "duplicate-key"])
    def test_exit_codes(self, name, label, code):
        proc = run_cli(*CHECK, ANSWERS / name)
        out, err = decoded(proc)
        assert proc.returncode == code, err
        assert label in out

    def test_stdin(self):
        proc = run_cli(*CHECK, "--format", "json", input=GOOD.encode())
        out, err = decoded(proc)
        assert proc.returncode == 0, err
        assert json.loads(out)["status"] == "ACCEPT"

    def test_stdin_not_json(self):
        proc = run_cli(*CHECK, "-", input=(ANSWERS / "not-json.txt").read_bytes())
        assert proc.returncode == 1
        assert "INVALID_JSON/SYNTAX" in decoded(proc)[0]


class TestAudit:
    def test_article_text_report(self, capsys):
        assert main(["audit", str(ARTICLE)]) == 0
        out = capsys.readouterr().out
        # One name per rung, as the article names them.
        assert "22 cases · strict JSON 17/22 · citation-only 13/22 · contract 3/22 · citation-only false accepts 10" \
            in " ".join(out.split())
        assert "quote exists" not in out and "full contract" not in out
        assert "all verdicts match" in out

    def test_article_json(self, capsys):
        assert main(["audit", "--format", "json", str(ARTICLE)]) == 0
        document = json.loads(capsys.readouterr().out)
        assert document["schema"] == "inspector.audit/1"
        assert len(document["cases"]) == 22
        for item in document["cases"]:
            assert CASE_KEYS <= set(item)
            assert item["suite"] == "article"
            assert item["expected"] == item["actual"] or item["actual"].startswith(item["expected"] + "/")
            failure = item["first_failure"]
            if item["actual"] == "ACCEPT":
                assert failure is None and item["accepted"]
            else:
                assert {"check", "reason", "claim", "detail"} <= set(failure)
                assert item["accepted"] == {}
        summary = document["summary"]
        assert SUMMARY_KEYS <= set(summary)
        assert {key: summary[key] for key in SUMMARY_KEYS} == {
            "cases": 22, "strict_json": 17, "citation_only": 13, "accepted": 3,
            "citation_only_false_accepts": 10, "label_mismatches": 0}

    def test_mismatch_exits_1_and_lists_the_case(self, capsys, tmp_path):
        suite = write_suite(tmp_path / "mine.json", [
            {"id": "fine", "raw": GOOD, "request": REQUEST_DICT, "expected": "ACCEPT"},
            {"id": "mislabelled", "raw": GOOD, "request": REQUEST_DICT, "expected": "VALUE_MISMATCH"},
        ])
        assert main(["audit", str(suite)]) == 1
        out = capsys.readouterr().out
        assert "mine/mislabelled" in out
        assert "mine/fine" not in out

    def test_mismatch_json(self, capsys, tmp_path):
        suite = write_suite(tmp_path / "mine.json", [
            {"id": "mislabelled", "raw": GOOD, "request": REQUEST_DICT, "expected": "INCOMPLETE"}])
        assert main(["audit", "--format", "json", str(suite)]) == 1
        document = json.loads(capsys.readouterr().out)
        assert document["summary"]["label_mismatches"] == 1
        assert document["cases"][0]["actual"] == "ACCEPT"

    def test_several_suites(self, capsys):
        paths = [str(FIXTURES / "article.json"), str(FIXTURES / "decode.json")]
        assert main(["audit", "--format", "json", *paths]) == 0
        document = json.loads(capsys.readouterr().out)
        assert {item["suite"] for item in document["cases"]} == {"article", "decode"}

    def test_bad_suite_is_unusable_input(self, capsys, tmp_path):
        bad = tmp_path / "bad.json"
        bad.write_text('{"sources": [], "sources": []}', "utf-8")
        assert main(["audit", str(bad)]) == 2
        out, err = capsys.readouterr()
        one_line_error(err, str(bad), "sources")

    def test_missing_suite(self, capsys, tmp_path):
        assert main(["audit", str(tmp_path / "none.json")]) == 2
        one_line_error(capsys.readouterr().err, "none.json")


class TestEntryPoints:
    def test_python_m_inspector_help(self):
        proc = run_cli("--help")
        out, err = decoded(proc)
        assert proc.returncode == 0 and err == ""
        assert "usage: inspector" in out
        for command in ("check", "audit"):
            assert command in out
        assert "INVALID_JSON" in out and "INCOMPLETE" in out

    def test_console_script_help(self):
        script = Path(sys.executable).parent / "inspector"
        if not script.exists():
            pytest.skip("the inspector console script is not installed next to this interpreter")
        proc = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout == decoded(run_cli("--help"))[0]

    def test_python_m_inspector_audit(self):
        proc = run_cli("audit", "--format", "json", ARTICLE)
        out, err = decoded(proc)
        assert proc.returncode == 0, err
        assert json.loads(out)["summary"]["accepted"] == 3

    def test_check_help(self, capsys):
        with pytest.raises(SystemExit) as info:
            main(["check", "--help"])
        assert info.value.code == 0
        assert "--request" in capsys.readouterr().out

    def test_unknown_command_is_a_usage_error(self, capsys):
        with pytest.raises(SystemExit) as info:
            main(["frobnicate"])
        assert info.value.code == 2


class TestFixturesUntouched:
    def test_cli_never_writes_into_fixtures(self, capsys, fixture_bytes, tmp_path):
        for name, _, _ in PAYMENTS_ANSWERS:
            main([*CHECK, "--trace", str(ANSWERS / name)])
            main([*CHECK, "--format", "json", "--trace", str(ANSWERS / name)])
        suites = [str(path) for path in sorted(FIXTURES.glob("*.json"))]
        main(["audit", *suites])
        main(["audit", "--format", "json", *suites])
        main(["audit", "--out", str(tmp_path / "run"), *suites])
        main(["audit", "--verify", str(tmp_path / "run")])
        run_cli("audit", *suites)
        capsys.readouterr()
        after = {path: path.read_bytes() for path in sorted(FIXTURES.rglob("*")) if path.is_file()}
        assert after == fixture_bytes


# -- inspector SUITE: a suite as the first argument opens it, as `less FILE` shows a file ----------

@pytest.fixture
def opened(monkeypatch):  # noqa: ANN201 - the suites open_suites was given, a list filled by the run
    """``inspector open`` as if on a terminal, the UI replaced by a list of what it was given."""
    from inspector.cli import open as open_command
    from inspector.tui import launch

    given: list = []
    monkeypatch.setattr(open_command, "terminal_problem", lambda message: None)
    monkeypatch.setattr(launch, "open_suites", lambda suites: given.append(suites) or 0)
    return given


def test_a_suite_as_the_first_argument_opens_it(capsys, opened):
    status, _, err = run_main(capsys, "fixtures/article.json")
    assert status == 0, err
    assert [[suite.name for suite in suites] for suites in opened] == [["article"]]
    assert run_main(capsys, "--debug", "fixtures/article.json", "fixtures/access.json")[0] == 0
    assert [suite.name for suite in opened[-1]] == ["article", "access"]


@pytest.mark.parametrize(("word", "said"), [
    ("README.md", "README.md: 1:1: invalid JSON"),
    ("no-such.json", "no-such.json: no such file"),
    ("fixtures/logs/sample.jsonl", "a log is triaged: inspector triage LOG --registry G"),
])
def test_a_first_argument_that_is_not_a_suite_is_one_line(capsys, opened, word, said):
    status, out, err = run_main(capsys, word)
    assert status == 2 and not opened and out == ""
    line = one_line_error(err)
    assert said in line and "inspector FILE opens a suite, as inspector open FILE" in line


def test_a_word_that_is_no_file_is_still_an_unknown_command(capsys, opened):
    status, _, err = run_main(capsys, "chek")
    assert status == 2 and not opened and "invalid choice: 'chek'" in err
