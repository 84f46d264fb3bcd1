"""The command line against hostile standard streams, JSON output that a terminal
cannot act on, and internal errors that are not verdicts (inspector.cli)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from inspector.cli import EXIT_INTERNAL, main
from inspector.cli import audit as audit_command
from inspector.cli import check as check_command
from inspector.contract.text import INVISIBLE_CHARACTERS, is_invisible

from support import ANSWERS, PAYMENTS_REGISTRY, PAYMENTS_REQUEST, ROOT, SOURCES, run_cli

CHECK = ["check", "--request", str(PAYMENTS_REQUEST), "--registry", str(PAYMENTS_REGISTRY)]
# What a terminal would act on or show as nothing: C1 (CSI, NEL), DEL, a bidi
# override, a line separator, a zero-width space, a Hangul filler, a tag character.
HOSTILE = "a\x9b31mb\x85c\x7fd\u202ee\u2028f\u200bg\u3164h\U000e0041i"


def run(*args: str, env: dict[str, str] | None = None, **kwargs) -> subprocess.CompletedProcess[bytes]:
    """``python -m inspector ARGS`` with the given streams (kwargs go to subprocess.run)."""
    kwargs.setdefault("timeout", 60)
    return subprocess.run([sys.executable, "-m", "inspector", *args], cwd=ROOT,
                          env={**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})}, **kwargs)


def one_line(stderr: bytes) -> str:
    text = stderr.decode("utf-8")
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


def raw_invisibles(text: str) -> list[str]:
    return [ch for ch in text if is_invisible(ch) and ch != "\n"]


def hostile_answer(tmp_path: Path) -> Path:
    path = tmp_path / "answer.json"
    path.write_text(json.dumps({"claims": [{"field": "read_timeout_ms", "value": HOSTILE, "doc": "prod-v2",
                                            "quote": HOSTILE}]}, ensure_ascii=False), "utf-8")
    return path


def hostile_suite(tmp_path: Path) -> Path:
    raw = json.dumps({"claims": [{"field": "read_timeout_ms", "value": "5000", "doc": "prod-v2",
                                  "quote": HOSTILE}]}, ensure_ascii=False)
    request = {"service": "payments", "environment": "prod", "revision": "v2",
               "fields": ["read_timeout_ms"], "supplied": ["prod-v2"]}
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps({"sources": SOURCES, "cases": [
        {"id": "case" + HOSTILE, "raw": raw, "request": request, "expected": "NO_CITATION/QUOTE_NOT_FOUND"}]},
        ensure_ascii=False), "utf-8")
    return path


class TestJsonOutput:
    """--format json and results.json: valid JSON, read back the same, nothing raw."""

    def test_check_json_escapes_what_the_tui_escapes(self, tmp_path, capsys):
        assert main([*CHECK, "--format", "json", "--trace", str(hostile_answer(tmp_path))]) == 1
        out = capsys.readouterr().out
        assert raw_invisibles(out) == []
        assert "\\u009b" in out and "\\u202e" in out and "\\u3164" in out and "\\udb40\\udc41" in out
        document = json.loads(out)
        assert document["trace"][0]["check"]
        assert any(HOSTILE in json.dumps(step, ensure_ascii=False) for step in document["trace"])

    def test_audit_json_and_results_read_back_the_same(self, tmp_path, capsys):
        suite = hostile_suite(tmp_path)
        assert main(["audit", str(suite), "--format", "json", "--out", str(tmp_path / "run")]) == 0
        out = capsys.readouterr().out
        assert raw_invisibles(out) == []
        document = json.loads(out)
        assert document["cases"][0]["id"] == "case" + HOSTILE
        for name in ("results.json", "manifest.json"):
            text = (tmp_path / "run" / name).read_text("utf-8")
            assert raw_invisibles(text) == [], name
        assert json.loads((tmp_path / "run" / "results.json").read_text("utf-8")) == document
        assert main(["audit", "--verify", str(tmp_path / "run")]) == 0

    @pytest.mark.parametrize("text", [HOSTILE, "\ud800 lone", "\U0001f600 and caf\u00e9 stay", "", "\x00\x1f\x7f"])
    def test_json_dumps_reads_back_the_same(self, text):
        from inspector.contract.text import json_dumps

        written = json_dumps({"k" + text: [text, {"v": text}]})
        assert raw_invisibles(written) == []
        assert json.loads(written) == {"k" + text: [text, {"v": text}]}
        written.encode("utf-8")  # a lone surrogate, escaped, no longer breaks UTF-8
        assert ("\U0001f600" in written) == ("\U0001f600" in text)  # visible characters stay themselves

    def test_lint_json(self, tmp_path, capsys):
        registry = tmp_path / "registry.json"
        registry.write_text(json.dumps({"sources": [
            {**SOURCES[0], "id": "prod\u3164"}, {**SOURCES[0], "id": "prod\u3164"}]}, ensure_ascii=False), "utf-8")
        main(["registry", "lint", str(registry), "--format", "json"])
        out = capsys.readouterr().out
        assert raw_invisibles(out) == [] and "prod\\u3164" in out


class TestBlanks:
    """Letters and blanks that draw as nothing are escaped in plain text too."""

    def test_default_ignorables_are_escaped_in_text_output(self, tmp_path, capsys):
        main([*CHECK, str(hostile_answer(tmp_path))])
        out = capsys.readouterr().out
        assert raw_invisibles(out) == []
        assert "\\u3164" in out

    @pytest.mark.parametrize("ch", ["\u3164", "\u115f", "\u1160", "\uffa0", "\u2800", "\u034f", "\ufe0f",
                                    "\u180b", "\u17b4", "\U000e0100"])
    def test_one_definition(self, ch):
        from inspector.contract.text import json_dumps, visible
        from inspector.tui import safe

        assert ch in INVISIBLE_CHARACTERS
        assert visible("prod" + ch) == safe.display("prod" + ch) != "prod" + ch
        assert "\\u" in json_dumps("prod" + ch)
        assert list(safe.pieces(ch)) == [(visible(ch), True)]


class TestStandardStreams:
    def test_stdout_on_a_full_disk(self):
        with open("/dev/full", "wb") as full:
            proc = run(*CHECK, str(ANSWERS / "value-mismatch.json"), stdout=full, stderr=subprocess.PIPE)
        assert proc.returncode == 2
        assert one_line(proc.stderr) == "inspector: error: cannot write to standard output: No space left on device"

    def test_json_to_a_full_disk(self):
        with open("/dev/full", "wb") as full:
            proc = run("audit", "--format", "json", stdout=full, stderr=subprocess.PIPE)
        assert proc.returncode == 2
        assert "cannot write to standard output" in one_line(proc.stderr)

    def test_stdin_open_for_writing_only(self, tmp_path):
        with open(tmp_path / "w", "wb") as write_only:
            proc = run(*CHECK, stdin=write_only, capture_output=True)
        assert proc.returncode == 2
        assert "standard input is open for writing only" in one_line(proc.stderr)

    def test_an_ascii_stdout(self):
        proc = run("audit", env={"PYTHONIOENCODING": "ascii"}, capture_output=True)
        assert proc.returncode == 2
        line = one_line(proc.stderr)
        assert "standard output (ascii) cannot encode" in line and "PYTHONIOENCODING=utf-8" in line

    def test_open_with_dev_null(self):
        proc = run("open", stdin=subprocess.DEVNULL, capture_output=True, timeout=20)
        assert proc.returncode == 2
        assert "inspector open needs a terminal" in one_line(proc.stderr)

    def test_open_with_stdin_closed(self):
        proc = subprocess.run(f"exec {sys.executable} -m inspector open <&-", shell=True, cwd=ROOT,
                              capture_output=True, timeout=20)
        assert proc.returncode == 2
        assert "inspector open needs a terminal" in one_line(proc.stderr)

    def test_no_command_is_open(self):
        proc = run_cli(input=b"")
        assert proc.returncode == 2
        assert "inspector open needs a terminal" in one_line(proc.stderr)


class TestInternalErrors:
    """A bug is exit 3, never 1 (rejected, a label differs) or a traceback."""

    @pytest.fixture
    def broken(self, monkeypatch):
        def fail(*args, **kwargs):
            raise ZeroDivisionError("division by zero")

        # A bug in presenting the verdict or the audit report.
        monkeypatch.setattr(check_command, "print_verdict", fail)
        monkeypatch.setattr(audit_command, "print_audit", fail)
        monkeypatch.delenv("INSPECTOR_DEBUG", raising=False)

    def test_one_line_and_exit_3(self, broken, capsys):
        assert main([*CHECK, str(ANSWERS / "accept.json")]) == EXIT_INTERNAL == 3
        err = capsys.readouterr().err
        line = one_line(err.encode())
        assert line.startswith("inspector: internal error in check: ZeroDivisionError: division by zero")
        assert "--debug" in line and "INSPECTOR_DEBUG=1" in line

    def test_debug_option_prints_the_traceback(self, broken, capsys):
        assert main([*CHECK, str(ANSWERS / "accept.json"), "--debug"]) == 3
        err = capsys.readouterr().err
        assert "Traceback" in err and "ZeroDivisionError" in err
        assert err.strip().splitlines()[-1].startswith("inspector: internal error in check")

    def test_debug_before_the_command(self, broken, capsys):
        assert main(["--debug", *CHECK, str(ANSWERS / "accept.json")]) == 3
        assert "Traceback" in capsys.readouterr().err

    def test_debug_environment_variable(self, broken, capsys, monkeypatch):
        monkeypatch.setenv("INSPECTOR_DEBUG", "1")
        assert main([*CHECK, str(ANSWERS / "accept.json")]) == 3
        assert "Traceback" in capsys.readouterr().err

    def test_in_audit(self, broken, capsys):
        assert main(["audit"]) == 3
        assert one_line(capsys.readouterr().err.encode()).startswith("inspector: internal error in audit")

    def test_help_documents_exit_3(self, capsys):
        with pytest.raises(SystemExit):
            main(["--help"])
        assert "3 internal error" in capsys.readouterr().out
