"""Every command in README.md and docs/*.md runs as written.

Each document's ```sh blocks are read in order and every command in them runs in
a fresh directory holding a copy of ``fixtures/`` (so ``fixtures/article.json``
and a log the document wrote earlier are found), one test per document.  A
command succeeds with exit status 0, or with the status its trailing comment
states (``inspector check ... value-mismatch.json  # exit 1``).

- ``inspector ...`` runs in this process (``inspector.cli.main``, what the
  console script calls), its standard output written to the file a trailing
  ``> FILE`` names; a command with any other shell syntax (a pipe, ``<``, an
  environment variable) runs in ``bash`` with this virtualenv's ``bin`` first on
  ``PATH``.
- The commands that open the terminal UI (``inspector``, ``inspector open ...``,
  ``inspector triage LOG`` without ``--summary``, ``--format``, ``--export`` or
  ``--records``)
  run through the real command line as if on a terminal, which checks their
  arguments and loads every suite, answer, registry and log they name (a log is
  checked, not counted); the real launch then builds the app with the real
  factory, and ``App.run`` is replaced by a stand-in that records the app
  instead of taking over the terminal.  ``inspector
  screenshots`` (a minute of rendering) stops at the same point: its arguments
  parsed, the directory not written.  ``inspector serve ...`` runs through the
  real command line too, which checks its options and has ``open`` or
  ``triage`` check what it serves; the server is a stand-in that records it
  would have listened, and returns (nothing is left running).
- ``make TARGET`` is checked with ``make -n`` (the target exists); ``make run``
  and ``make test`` are the set-up test's (tests/test_readme.py).
- A benchmark (``python benchmarks/bench_*.py ...``) takes minutes: the script
  must exist and compile, and every option the command gives must be one it
  declares.

The ```python examples run too, in the same kind of directory.
"""

from __future__ import annotations

import contextlib
import io
import os
import py_compile
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from support import ROOT

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SETUP = {"make run", "make test"}
SHELL_SYNTAX = re.compile(r"[|<&;$`]|^\w+=")
EXIT = re.compile(r"#[^#]*\bexit (\d+)\b[^#]*$")


@dataclass(frozen=True)
class Command:
    document: str
    line: int  # where it starts in the document
    text: str  # as written, continuation lines joined
    status: int  # the exit status it documents

    def __str__(self) -> str:
        return f"{self.document}:{self.line}: {self.text}"


def commands_of(path: Path) -> list[Command]:
    """The commands of a document's ```sh blocks, in order."""
    found: list[Command] = []
    lines = path.read_text("utf-8").splitlines()
    inside = False
    pending: list[str] = []
    start = 0
    for number, line in enumerate(lines, 1):
        if not inside:
            inside = line.strip() == "```sh"
            continue
        if line.strip() == "```":
            inside = False
            continue
        if not pending:
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            start = number
        if line.rstrip().endswith("\\"):
            pending.append(line.rstrip()[:-1].rstrip())
            continue
        pending.append(line.strip())
        text = " ".join(part.strip() for part in pending)
        pending = []
        exit_status = EXIT.search(text)
        found.append(Command(path.relative_to(ROOT).as_posix(), start, text,
                             int(exit_status.group(1)) if exit_status else 0))
    return found


def words(command: Command) -> list[str]:
    return shlex.split(command.text, comments=True)


def is_inspector(word: str) -> bool:
    return word in ("inspector", ".venv/bin/inspector")


class FakeTerminal(io.StringIO):
    """Standard input or output as the inspector sees a terminal (nothing is read)."""

    def isatty(self) -> bool:
        return True


class Launched:
    """Records the apps the command line would run, instead of running them: the
    real launch builds the app with the real factory, and ``App.run`` stops there
    (the snapshot tests look at the running app)."""

    def __init__(self) -> None:
        self.opened: list[str] = []

    def run(self, app, *args, **kwargs) -> None:  # noqa: ANN001, ANN002, ANN003 - App.run's place
        self.opened.append(type(app).__name__)

    async def serve(self, config, ready, stop) -> None:  # noqa: ANN001 - run_server's place
        self.opened.append("served")

    def write_screenshots(self, out_dir: Path, overwrite: bool = False) -> int:
        self.opened.append("screenshots")
        return 0


def opens_the_ui(argv: list[str]) -> bool:
    rest = [word for word in argv if word != "--debug"]
    if not rest or rest[0] in ("open", "screenshots") or rest[0].endswith(".json"):  # inspector SUITE: open
        return True
    if rest[0] == "review":
        return not {"--status", "--apply", "--discard", "--accept", "--reject", "--accept-all", "--reject-all"} & {
            word.split("=")[0] for word in rest}
    return rest[0] == "triage" and not {"--summary", "--format", "--export", "--records"} & {
        word.split("=")[0] for word in rest}


def run_inspector(argv: list[str], out: Path | None, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """``inspector ARGV`` in this process: the exit status and what it said on stderr."""
    from textual.app import App

    from inspector import cli
    from inspector.serve import server
    from inspector.tui import launch

    launched = Launched()
    ui = opens_the_ui(argv)
    stdout, stderr = (FakeTerminal() if ui else io.StringIO()), io.StringIO()
    with monkeypatch.context() as patch:
        patch.setattr(App, "run", lambda app, *args, **kwargs: launched.run(app))
        patch.setattr(launch, "write_screenshots", launched.write_screenshots)
        patch.setattr(server, "run_server", launched.serve)
        patch.setattr(server, "configure_logging", lambda: None)
        patch.setattr(sys, "stdin", FakeTerminal() if ui else io.StringIO())
        patch.setenv("COLUMNS", "120")
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                status = cli.main(argv)
            except SystemExit as exc:  # argparse: a bad option, or --help
                status = exc.code if isinstance(exc.code, int) else 2
    if out is not None:
        out.write_text(stdout.getvalue(), "utf-8")
    if ui and status == 0:
        assert launched.opened, f"inspector {shlex.join(argv)} was expected to open the inspector"
    if argv[0] == "serve" and status == 0:
        assert launched.opened == ["served"], f"inspector {shlex.join(argv)} was expected to serve"
    return status, stderr.getvalue()


def check_benchmark(argv: list[str]) -> None:
    script = next(word for word in argv if word.startswith("benchmarks/"))
    source = ROOT / script
    assert source.is_file(), f"{script} does not exist"
    py_compile.compile(str(source), doraise=True)
    declared = set(re.findall(r"add_argument\(\s*\"(--[\w-]+)\"", source.read_text("utf-8")))
    for option in (word.split("=")[0] for word in argv if word.startswith("--")):
        assert option in declared, f"{script} has no option {option}"


def run_command(command: Command, cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    argv = words(command)
    if shlex.join(argv) in SETUP:
        return  # tests/test_readme.py holds them to the set-up section and the Makefile
    if argv[0] == "make":
        proc = subprocess.run(["make", "-n", *argv[1:]], cwd=ROOT, capture_output=True, text=True)
        assert proc.returncode == 0, f"{command}\n{proc.stderr}"
        return
    if any(word.startswith("benchmarks/") for word in argv[:3]):
        check_benchmark(argv)
        return
    plain = not SHELL_SYNTAX.search(command.text.split("#")[0])
    if is_inspector(argv[0]) and plain and all(">" not in word for word in argv[1:-2]):
        out = None
        if len(argv) > 2 and argv[-2] == ">":
            out, argv = cwd / argv[-1], argv[:-2]
        assert all(">" not in word for word in argv), command
        status, said = run_inspector(argv[1:], out, monkeypatch)
    else:
        env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
               "COLUMNS": "120"}
        text = command.text.replace(".venv/bin/inspector", "inspector")
        proc = subprocess.run(["bash", "-c", text], cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=120)
        status, said = proc.returncode, proc.stderr
    assert status == command.status, f"{command}\nexit {status}, documented {command.status}\n{said}"


def git(*argv: str, cwd: Path) -> str:
    proc = subprocess.run(["git", "-c", "user.name=tests", "-c", "user.email=tests@example.invalid", *argv],
                          cwd=cwd, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("document", DOCUMENTS, ids=[path.relative_to(ROOT).as_posix() for path in DOCUMENTS])
def test_every_command_runs_as_written(document: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """...and leaves ``git status`` clean: what the commands write, and the file the
    tour's ``s`` saves a counterexample into, are ignored (.gitignore)."""
    from inspector.presentation.save_form import DEFAULT_PATH

    shutil.copytree(ROOT / "fixtures", tmp_path / "fixtures")
    shutil.copy(ROOT / ".gitignore", tmp_path / ".gitignore")
    git("init", "-q", cwd=tmp_path)
    git("add", "-A", cwd=tmp_path)
    git("commit", "-q", "-m", "the checkout", cwd=tmp_path)
    monkeypatch.chdir(tmp_path)
    for command in commands_of(document):
        run_command(command, tmp_path, monkeypatch)
    if document.name == "README.md":
        (tmp_path / DEFAULT_PATH).write_text("{}")
    left = git("status", "--porcelain", "--untracked-files=all", cwd=tmp_path)
    assert left == "", f"{document.name} leaves files git shows (.gitignore them, or write them elsewhere):\n{left}"


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", path.read_text("utf-8"), re.S | re.M)


@pytest.mark.parametrize("document", [path for path in DOCUMENTS if python_blocks(path)],
                         ids=lambda path: path.relative_to(ROOT).as_posix())
def test_every_python_example_runs(document: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copytree(ROOT / "fixtures", tmp_path / "fixtures")
    monkeypatch.chdir(tmp_path)
    for block in python_blocks(document):
        exec(compile(block, f"{document.name} (python example)", "exec"), {"__name__": "__example__"})


def test_the_documents_have_commands() -> None:
    counted = {path.name: len(commands_of(path)) for path in DOCUMENTS}
    assert counted["README.md"] >= 4, counted
    assert len(DOCUMENTS) >= 9, "README.md and the docs/ pages"
