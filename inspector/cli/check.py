"""``inspector check``: verify one candidate answer and print the verdict."""

from __future__ import annotations

import argparse
import fcntl
import io
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..contract.text import json_dumps, visible
from ..reports.tones import Tone
from ..suites.load import load_answer, load_answer_stream, load_registry, load_request
from .answer import answer_suite
from .output import EXIT_ACCEPT, EXIT_REJECT, TONE_STYLES, error

if TYPE_CHECKING:
    from ..reports.case import CaseReport

__all__ = ["add_parser", "print_verdict", "run", "stream_problem"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "check", help="verify one candidate answer",
        description="Verify one candidate answer against a request and a registry.",
        epilog="exit status: 0 ACCEPT, 1 rejected, 2 unusable input, 3 internal error.",
    )
    parser.add_argument("--request", required=True, metavar="R", help="request JSON file")
    parser.add_argument("--registry", required=True, metavar="G", help="registry JSON file ({\"sources\": [...]})")
    parser.add_argument("claims", nargs="?", default="-", metavar="CLAIMS",
                        help="the answer file, or - for standard input (default)")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--trace", action="store_true", help="show every step, not just the first failure")
    parser.set_defaults(run=run, stream_problem=stream_problem)
    return parser


def stream_problem(args: argparse.Namespace) -> str | None:
    """Why standard input cannot give the answer, before anything is read."""
    if args.claims != "-" or sys.stdin is None:
        return None
    try:
        flags = fcntl.fcntl(sys.stdin.fileno(), fcntl.F_GETFL)
    except io.UnsupportedOperation:
        return None  # not a file descriptor (an in-memory stream): nothing to check
    except (OSError, ValueError):
        return "standard input is closed: pass a CLAIMS file or pipe the answer in"
    if flags & os.O_ACCMODE == os.O_WRONLY:
        return "standard input is open for writing only: pass a CLAIMS file or pipe the answer in"
    return None


def run(args: argparse.Namespace) -> int:
    from ..reports.case import CaseReport

    registry = load_registry(args.registry)
    request = load_request(args.request)
    if args.claims == "-":
        if sys.stdin is None or sys.stdin.isatty():
            return error("no answer given: pass a CLAIMS file or pipe the answer into standard input")
        raw: bytes = load_answer_stream(sys.stdin.buffer)
    else:
        raw = load_answer(args.claims)
    suite = answer_suite(Path(args.claims), raw, request, registry)
    report = CaseReport.of(0, suite, suite.cases[0])
    verdict = report.verdict
    assert verdict is not None
    if args.format == "json":
        from ..reports.case import verdict_document

        print(json_dumps(verdict_document(verdict, trace=args.trace)))
    else:
        print_verdict(report, trace=args.trace)
    return EXIT_ACCEPT if verdict.ok else EXIT_REJECT


def print_verdict(report: CaseReport, trace: bool) -> None:
    """The verdict as the inspector's verdict panel says it: the label, the first
    failure, the baselines (the report's, in their words), the call-out, the accepted map."""
    from rich.console import Console
    from rich.text import Text

    from ..contract.trace import Outcome
    from ..presentation.selection import MARKS

    verdict, explained = report.verdict, report.trace
    assert verdict is not None and explained is not None
    console = Console(highlight=False, soft_wrap=True)
    style = "bold green" if verdict.ok else "bold red"
    console.print(Text.assemble(("verdict  ", "bold"), (visible(verdict.label), style)))
    failure = explained.first_failure
    if failure is not None:
        where = f"claims[{failure.claim}]: " if failure.claim is not None else ""
        console.print(Text.assemble(("failed   ", "bold"), f"{failure.check.title} ({where.rstrip(': ') or 'answer'})"))
        console.print(Text.assemble(("why      ", "bold"), visible(where + failure.explanation)))
        console.print(Text.assemble(("fix      ", "bold"), visible(failure.hint)))
    baselines: list[str | tuple[str, str]] = [("baselines", "bold")]
    for baseline in report.baselines:
        baselines += [f"  {baseline.name} ", (baseline.word, TONE_STYLES[baseline.tone])]
    console.print(Text.assemble(*baselines))
    if report.citation_callout is not None:
        console.print(Text("         " + report.citation_callout.removeprefix("⚠ "), style=TONE_STYLES[Tone.WARN]))
    if verdict.ok:
        console.print(Text("accepted", style="bold"))
        for field, value in verdict.accepted.items():
            console.print(Text(f"  {visible(field)} = {visible(value)}"))
    if trace:
        # The marks are the checks panel's (presentation.selection.MARKS), styled for a terminal.
        styles = {Outcome.PASSED: "green", Outcome.FAILED: "bold red", Outcome.NOT_REACHED: "dim",
                  Outcome.UNAVAILABLE: "dim"}
        console.print(Text("trace", style="bold"))
        for step in explained.steps:
            mark, mark_style = MARKS[step.outcome], styles[step.outcome]
            claim = f"[{step.claim}]" if step.claim is not None else ""
            console.print(Text.assemble(
                "  ", (mark, mark_style), f" {step.check.title}{claim}: ",
                (visible(step.explanation), "dim" if step.outcome is Outcome.NOT_REACHED else "")))
