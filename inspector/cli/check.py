"""``inspector check``: verify one candidate answer and print the verdict."""

from __future__ import annotations

import argparse
import fcntl
import io
import os
import sys
from typing import TYPE_CHECKING, Any

from ..contract.text import json_dumps, visible
from ..suites.load import load_answer, load_answer_stream, load_registry, load_request
from .output import EXIT_ACCEPT, EXIT_REJECT, error

if TYPE_CHECKING:
    from ..contract.verdict import Verdict

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
    from ..contract.verify import verify

    registry = load_registry(args.registry)
    request = load_request(args.request)
    if args.claims == "-":
        if sys.stdin is None or sys.stdin.isatty():
            return error("no answer given: pass a CLAIMS file or pipe the answer into standard input")
        raw: bytes = load_answer_stream(sys.stdin.buffer)
    else:
        raw = load_answer(args.claims)
    verdict = verify(raw, request, registry)
    if args.format == "json":
        from ..reports.case import verdict_document

        print(json_dumps(verdict_document(verdict, trace=args.trace)))
    else:
        print_verdict(verdict, trace=args.trace)
    return EXIT_ACCEPT if verdict.ok else EXIT_REJECT


def print_verdict(verdict: Verdict, trace: bool) -> None:
    from rich.console import Console
    from rich.text import Text

    from ..contract.trace import Outcome, explain
    from ..reports.case import CITATION_CALLOUT, RUNGS

    console = Console(highlight=False, soft_wrap=True)
    style = "bold green" if verdict.ok else "bold red"
    console.print(Text.assemble(("verdict  ", "bold"), (visible(verdict.label), style)))
    explained = explain(verdict)
    failure = explained.first_failure
    if failure is not None:
        where = f"claims[{failure.claim}]: " if failure.claim is not None else ""
        console.print(Text.assemble(("failed   ", "bold"), f"{failure.check.title} ({where.rstrip(': ') or 'answer'})"))
        console.print(Text.assemble(("why      ", "bold"), visible(where + failure.explanation)))
        console.print(Text.assemble(("fix      ", "bold"), visible(failure.hint)))
    yes_no = {True: ("yes", "green"), False: ("no", "red")}
    baselines: list[str | tuple[str, str]] = [("baselines", "bold")]
    for rung in RUNGS:
        baselines += [f"  {rung.name} ", yes_no[rung.passes(verdict)]]
    console.print(Text.assemble(*baselines))
    if verdict.citation_only and not verdict.ok:
        console.print(Text("         " + CITATION_CALLOUT.removeprefix("⚠ "), style="yellow"))
    if verdict.ok:
        console.print(Text("accepted", style="bold"))
        for field, value in verdict.accepted.items():
            console.print(Text(f"  {visible(field)} = {visible(value)}"))
    if trace:
        marks = {Outcome.PASSED: ("✓", "green"), Outcome.FAILED: ("✗", "bold red"),
                 Outcome.NOT_REACHED: ("·", "dim"), Outcome.UNAVAILABLE: ("?", "dim")}
        console.print(Text("trace", style="bold"))
        for step in explained.steps:
            mark, mark_style = marks[step.outcome]
            claim = f"[{step.claim}]" if step.claim is not None else ""
            console.print(Text.assemble(
                "  ", (mark, mark_style), f" {step.check.title}{claim}: ",
                (visible(step.explanation), "dim" if step.outcome is Outcome.NOT_REACHED else "")))
