"""What the tests share: the paths of the fixtures, a small registry mirroring the
article's table, claim and answer builders, trace look-ups and runners for the
``inspector`` command: ``run_main`` in this process, ``run_cli`` and ``run_bounded``
in a subprocess, for what only a process shows (streams, terminals, signals, the
interpreter's start).  ``support.tui``: the Pilot tests' helpers; ``support.access``:
scoped registries.  Fixtures live in ``tests/conftest.py``.

The registry here is the tests' own (not the fixtures'), so that spans and
explanations can be asserted exactly; ``FIXTURES`` points at the fixture suites
for the tests that audit them.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

from inspector import Registry, Request, Step, Verdict, explain, verify
from inspector.contract.models import coerce_request

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
ARTICLE = FIXTURES / "article.json"
PAYMENTS = FIXTURES / "payments"
PAYMENTS_REGISTRY = PAYMENTS / "registry.json"
PAYMENTS_REQUEST = PAYMENTS / "request.json"
ANSWERS = PAYMENTS / "answers"
SUITE_FILES = sorted(FIXTURES.glob("*.json"))

TIMEOUT, RETRY = "read_timeout_ms", "retry_enabled"

# The article's registry: payments prod v2 (current), prod v1 (stale), dev v2
# (other environment), billing v2 (other service); plus a source with an astral
# value, for UTF-16 counting.
SOURCES: list[dict[str, Any]] = [
    {"id": "prod-v2", "service": "payments", "environment": "prod", "revision": "v2",
     "facts": {TIMEOUT: "5000", RETRY: "false"},
     "text": "# payments prod v2\nread_timeout_ms=5000\nretry_enabled=false\nmax_connections=50\n"},
    {"id": "prod-v1", "service": "payments", "environment": "prod", "revision": "v1",
     "facts": {TIMEOUT: "2000", RETRY: "true"},
     "text": "# payments prod v1\nread_timeout_ms=2000\nretry_enabled=true\n"},
    {"id": "dev-v2", "service": "payments", "environment": "dev", "revision": "v2",
     "facts": {TIMEOUT: "12000", RETRY: "true"},
     "text": "# payments dev v2\nread_timeout_ms=12000\nretry_enabled=true\n"},
    {"id": "billing-v2", "service": "billing", "environment": "prod", "revision": "v2",
     "facts": {TIMEOUT: "5000", RETRY: "false"},
     "text": "# billing prod v2\nread_timeout_ms=5000\nretry_enabled=false\n"},
    {"id": "emoji-v2", "service": "payments", "environment": "prod", "revision": "v2",
     "facts": {"mood": "\U0001f600"},
     "text": "mood=\U0001f600\n"},
]
REGISTRY_DICT: dict[str, Any] = {"sources": SOURCES}
REQUEST_DICT: dict[str, Any] = {
    "service": "payments", "environment": "prod", "revision": "v2",
    "fields": [TIMEOUT, RETRY], "supplied": ["prod-v2", "prod-v1", "dev-v2", "emoji-v2"],
}
REGISTRY: Registry = Registry.coerce(REGISTRY_DICT)
REQUEST: Request = coerce_request(REQUEST_DICT)


def request_with(**changes: Any) -> Request:
    return coerce_request({**REQUEST_DICT, **changes})


def claim(field: str = TIMEOUT, value: Any = "5000", doc: str = "prod-v2", quote: str | None = None,
          **extra: Any) -> dict[str, Any]:
    """One claim; the quote defaults to the canonical line ``field=value``."""
    return {"field": field, "value": value, "doc": doc,
            "quote": f"{field}={value}" if quote is None else quote, **extra}


TIMEOUT_CLAIM = claim()
RETRY_CLAIM = claim(RETRY, "false")


def answer(*claims: dict[str, Any], indent: int | None = None, ascii_only: bool = True, **extra: Any) -> str:
    """The JSON text of an answer with these claims (and extra top-level members)."""
    return json.dumps({"claims": list(claims), **extra}, indent=indent, ensure_ascii=ascii_only)


GOOD = answer(TIMEOUT_CLAIM, RETRY_CLAIM)


def run(raw: str | bytes, request: Any = None, registry: Any = None) -> Verdict:
    return verify(raw, REQUEST if request is None else request, REGISTRY if registry is None else registry)


def step(steps: tuple[Step, ...] | Verdict, check_id: str, claim: int | None = None) -> Step:
    """The step of ``check_id`` (for ``claim``) in a trace."""
    if isinstance(steps, Verdict):
        steps = explain(steps).steps
    found = [s for s in steps if s.check.id == check_id and s.claim == claim]
    assert len(found) == 1, f"{check_id}[{claim}] occurs {len(found)} times in the trace"
    return found[0]


def detail(verdict: Verdict) -> str | None:
    """What the first failure says (None when accepted)."""
    failure = explain(verdict).first_failure
    return failure.explanation if failure is not None else None


def spanned(text: str, span: Any) -> str:
    assert span is not None
    return text[span.start:span.end]


# The width every test's output is laid out for (conftest.py sets it for each test;
# the subprocess runners pass the same); a test about widths sets its own.
COLUMNS = "200"


def run_cli(*args: str | os.PathLike[str], input: bytes | None = None, cwd: Path | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m inspector ARGS`` in a subprocess, text output captured."""
    return subprocess.run(
        [sys.executable, "-m", "inspector", *map(str, args)],
        input=input, capture_output=True, cwd=cwd or ROOT, timeout=timeout,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": COLUMNS, "NO_COLOR": "1"},
    )


def run_main(capsys: Any, *args: str | os.PathLike[str], input: bytes | None = None,
             cwd: Path | None = None) -> tuple[int, str, str]:
    """``inspector ARGS`` in this process, as ``run_cli`` runs it (from ``cwd`` or ``ROOT``, with
    ``NO_COLOR=1`` and the tests' ``COLUMNS``) but without a new interpreter's start:
    the exit status (argparse's own exits included), standard output and standard error.
    ``input`` is standard input's bytes, as an in-memory stream (no file descriptor, so
    not for a test of what standard input is: closed, a terminal, write-only).  Without
    ``capsys`` (a module-scoped fixture has none) the output is caught in memory."""
    from inspector.cli import main

    saved = {name: os.environ.get(name) for name in ("NO_COLOR", "COLUMNS")}
    os.environ.update(NO_COLOR="1", COLUMNS=COLUMNS)
    stdin = sys.stdin
    if input is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(input), encoding="utf-8")
    if capsys is not None:
        capsys.readouterr()  # only this command's output
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.ExitStack() as stack:
            stack.enter_context(contextlib.chdir(cwd or ROOT))
            if capsys is None:
                stack.enter_context(contextlib.redirect_stdout(out))
                stack.enter_context(contextlib.redirect_stderr(err))
            try:
                status = main([str(arg) for arg in args])
            except SystemExit as exit:
                status = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    finally:
        sys.stdin = stdin
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    if capsys is None:
        return status, out.getvalue(), err.getvalue()
    stdout, stderr = capsys.readouterr()
    return status, stdout, stderr


def decoded(proc: subprocess.CompletedProcess) -> tuple[str, str]:
    return proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")


def one_line_error(err: str, *names: str) -> str:
    """The single ``inspector: error:`` line of ``err`` (no traceback), naming ``names``."""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err
    assert lines[0].startswith("inspector: error: ")
    for name in names:
        assert name in lines[0], lines[0]
    return lines[0]


# What a hung or runaway command is given before the test calls it a failure.
HANG_TIMEOUT = 30
ADDRESS_SPACE = 1024 * 1024 * 1024


def _bounded() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def run_bounded(*args: str | os.PathLike[str], stdin: int | None = None,
                cwd: Path | None = None) -> subprocess.CompletedProcess[bytes]:
    """``python -m inspector ARGS`` with a timeout and at most 1 GiB of address space."""
    return subprocess.run(
        [sys.executable, "-m", "inspector", *map(str, args)], stdin=stdin if stdin is not None else subprocess.DEVNULL,
        capture_output=True, cwd=cwd or ROOT, timeout=HANG_TIMEOUT, preexec_fn=_bounded,
        env={**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": COLUMNS, "NO_COLOR": "1"},
    )


def case_of(suite: Any, case_id: str) -> Any:
    """The case of a loaded suite with this id."""
    return next(case for case in suite.cases if case.id == case_id)


def save_counterexample(path: Path, case_id: str = "saved", parent: str = "value-in-seconds", suite: Any = None,
                        raw: str | bytes | None = None, expected: str | None = None,
                        edits: tuple[str, ...] = ("value.perturb",), note: str = "a note") -> Any:
    """Save a counterexample of ``parent`` (a case of the article, by default) as the lab does."""
    from inspector import __version__
    from inspector.lab.save import save_case
    from inspector.suites.load import load_suite

    suite = load_suite(ARTICLE) if suite is None else suite
    parent_case = case_of(suite, parent)
    raw = parent_case.raw if raw is None else raw
    if expected is None:
        expected = verify(raw, parent_case.request, suite.registry).label
    return save_case(path, suite, parent_case, raw, expected, note, case_id, list(edits), __version__)


def tree(root: Path) -> dict[str, object]:
    """Everything under ``root`` (``root`` itself not included), each path relative to
    it: a directory as ``"dir"``, a symbolic link as where it points, a file as
    its bytes; to show that nothing was written, created or replaced there."""
    listing: dict[str, object] = {}
    for path in sorted(root.rglob("*")):
        name = str(path.relative_to(root))
        if path.is_symlink():
            listing[name] = ("link", os.readlink(path))
        elif path.is_dir():
            listing[name] = "dir"
        else:
            listing[name] = path.read_bytes()
    return listing
