"""``inspector open`` (and ``inspector`` with no command): suites, or one answer, in the
inspector.  The only command besides ``screenshots`` that loads the terminal UI, and
only once its inputs are read."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..suites.load import LoadError, Suite, bundled_suite_paths, load_answer, load_registry, load_request, load_suites
from .answer import answer_suite
from .output import error, terminal_problem

__all__ = ["add_parser", "run", "single_answer", "stream_problem"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "open", help="open the inspector (the terminal UI)",
        description="Open suites, or one answer with --request and --registry, in the inspector.",
        epilog="Needs a terminal on standard input and output. exit status: 0; 2 for a missing or invalid "
               "file or no terminal, before the UI starts; 3 internal error.",
    )
    parser.add_argument("paths", nargs="*", metavar="SUITE|CLAIMS")
    parser.add_argument("--request", metavar="R")
    parser.add_argument("--registry", metavar="G")
    parser.set_defaults(run=run, stream_problem=stream_problem)
    return parser


def stream_problem(args: argparse.Namespace) -> str | None:
    # Textual on a pipe or /dev/null waits forever or fails deep inside.
    return terminal_problem("inspector open needs a terminal (standard input and output); "
                            "for a report without one, use check or audit")


def run(args: argparse.Namespace) -> int:
    """Also ``inspector`` with no command: then none of open's arguments were parsed."""
    paths: list[str] = getattr(args, "paths", [])
    request: str | None = getattr(args, "request", None)
    registry: str | None = getattr(args, "registry", None)
    if (request is None) != (registry is None):
        return error("--request and --registry go together (with one CLAIMS file)")
    if request is not None and registry is not None:
        if len(paths) != 1:
            return error("with --request and --registry, give exactly one CLAIMS file")
        suites = [single_answer(Path(paths[0]), request, registry)]
    else:
        suite_paths = [Path(p) for p in paths] or bundled_suite_paths()
        if not suite_paths:
            return error("no suite given and no bundled suites found")
        try:
            suites = load_suites(suite_paths, strict=False)
        except LoadError as exc:
            if not getattr(args, "suite_first", False):
                raise
            return error(f"{exc} (inspector FILE opens a suite, as inspector open FILE; {_what_else(exc.path)})")
    if getattr(args, "check_only", False):  # inspector serve: the inputs are usable, nothing opens here
        return 0
    from ..tui.launch import open_suites

    return open_suites(suites)


def _what_else(path: str) -> str:
    """What else a file given to ``inspector FILE`` may have been meant for."""
    if path.endswith((".jsonl", ".gz", ".log")):
        return "a log is triaged: inspector triage LOG --registry G"
    return "the commands: inspector --help"


def single_answer(claims: Path, request_path: str, registry_path: str) -> Suite:
    """One answer file as a suite of one case, named after the file."""
    registry = load_registry(registry_path)
    request = load_request(request_path)
    return answer_suite(claims, load_answer(claims), request, registry)
