"""``inspector mutate``: every mutation of every accepted case, and what the contract catches.

The report is written as the mutants are verified, to standard output or to a
new file (``--out``, atomically: a temporary file beside it, synced, then linked
into place), and only counts are kept: memory does not grow with the mutants.
The exit status says the report was written (0); the gates are asked for:
``--fail-under PCT`` (the score) and ``--require-coverage`` (every rejection code
covered by a case of the suites).
"""

from __future__ import annotations

import argparse
import io
import math
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, BinaryIO

from .. import __version__
from ..contract.text import shorten, visible
from ..io.writing import WriteError, create_files
from ..suites.load import bundled_suite_paths, load_suites
from .output import EXIT_ACCEPT, EXIT_REJECT, PIPED_WIDTH, error, report_console
from .table import FACT_LABEL_WIDTH, TableColumn, fitted, hanging

if TYPE_CHECKING:
    from rich.console import Console

    from ..lab.mutation_testing import MutantResult, MutationRun
    from .table import Cell

__all__ = ["COVERAGE_COLUMNS", "KILLED_COLUMNS", "MUTATION_COLUMNS", "add_parser", "print_mutate", "run"]


def _mutations_listing() -> str:
    from ..lab.mutations import MUTATIONS

    return "\n".join(f"  {mutation.name:<20} {mutation.title:<36} {'/'.join(mutation.checks) or '-'}"
                     for mutation in MUTATIONS)


def _percent(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a percentage: {text!r}") from None
    if not math.isfinite(value) or not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"a percentage is between 0 and 100, not {text!r}")
    return value


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "mutate", help="mutate every accepted case and count what the contract catches",
        description="Apply every mutation of the counterexample lab (every variant) to every ACCEPT "
                    "case of the suites, verify each mutant once and report: how many each verdict "
                    "code killed, the survivors, the mutation score, the mutants that slipped past "
                    "their check to another one, and which rejection codes the suites' own cases cover. "
                    "The report is written as the mutants are verified; only counts are kept.",
        epilog="mutations, and the checks each is meant to trip (- harmless: stays accepted):\n" + _mutations_listing()
               + "\n\nexit status: 0 the report was written, 1 a gate asked for failed (--fail-under, "
               "--require-coverage), 2 unusable input, 3 internal error.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("suites", nargs="*", metavar="SUITE", help="suite files (default: the bundled suites)")
    parser.add_argument("--format", choices=("text", "json", "stryker"), default="text",
                        help="stryker: the mutation-testing-report-schema, for mutation-testing-elements")
    parser.add_argument("--out", metavar="FILE", type=Path,
                        help="write the report to FILE, a new file (never overwritten), instead of standard output")
    parser.add_argument("--fail-under", metavar="PCT", type=_percent,
                        help="exit 1 when the mutation score is below PCT percent (or no mutant was scored)")
    parser.add_argument("--require-coverage", action="store_true",
                        help="exit 1 when a rejection code is covered by no case of the suites")
    parser.set_defaults(run=run)
    return parser


def _check_out(path: Path) -> str | None:
    """Why ``--out`` cannot be written, found before the work (create_files checks again)."""
    parent = path.parent
    if not parent.is_dir():
        return f"{path}: no such directory: {parent}"
    if os.path.lexists(path):
        return f"{path}: already exists; refusing to overwrite (--out takes a new file)"
    return None


class _Utf8(io.TextIOBase):
    """Text written as UTF-8 into the binary file ``create_files`` hands over (which it
    buffers, syncs and closes itself: nothing is left to flush or close here)."""

    def __init__(self, binary: BinaryIO) -> None:
        super().__init__()
        self.binary = binary

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def write(self, text: str) -> int:
        self.binary.write(text.encode("utf-8"))
        return len(text)


def _write_out(path: Path, write: Callable[[IO[str]], None]) -> None:
    """``write`` the report into a new file, atomically (``io.writing.create_files``)."""
    create_files({path: lambda binary: write(_Utf8(binary))})  # type: ignore[arg-type]  # _Utf8: the text writes of the binary stream


def run(args: argparse.Namespace) -> int:
    from ..lab.mutation_testing import MutationRun

    paths = [Path(p) for p in args.suites] or bundled_suite_paths()
    if not paths:
        return error("no suite given and no bundled suites found")
    if args.out is not None and (problem := _check_out(args.out)):
        return error(problem)
    mutation_run = MutationRun(load_suites(paths))

    def write(stream: IO[str]) -> None:
        if args.format == "json":
            from ..lab.mutation_json import write_mutate_json

            write_mutate_json(mutation_run, stream.write, __version__)
        elif args.format == "stryker":
            from ..lab.stryker import write_stryker

            write_stryker(mutation_run, stream.write, __version__)
        else:
            print_mutate(mutation_run, report_console() if stream is sys.stdout else _file_console(stream))

    if args.out is None:
        write(sys.stdout)
    else:
        try:
            _write_out(args.out, write)
        except WriteError as exc:
            return error(str(exc))
    return _gates(args, mutation_run)


def _gates(args: argparse.Namespace, mutation_run: MutationRun) -> int:
    """The exit status: 0, or 1 when a gate that was asked for fails (said on stderr)."""
    failed = []
    if args.fail_under is not None:
        score = mutation_run.score
        if score is None:
            failed.append(f"--fail-under {args.fail_under:g}: no mutant was scored")
        elif score * 100 < args.fail_under:
            failed.append(f"--fail-under {args.fail_under:g}: the mutation score is {score:.2%}")
    if args.require_coverage and mutation_run.uncovered:
        failed.append(f"--require-coverage: covered by no case: {', '.join(mutation_run.uncovered)}")
    for message in failed:
        print(f"inspector: {message}", file=sys.stderr)
    return EXIT_REJECT if failed else EXIT_ACCEPT


def _file_console(stream: IO[str]) -> Console:
    """A console writing plain text into a report file, as wide as COLUMNS says, else PIPED_WIDTH."""
    from rich.console import Console

    columns = os.environ.get("COLUMNS", "").strip()
    return Console(file=stream, highlight=False, color_system=None, force_terminal=False,
                   width=int(columns) if columns.isdigit() and int(columns) > 0 else PIPED_WIDTH)


MUTATION_COLUMNS = (
    TableColumn("mutation"),
    TableColumn("meant for", priority=2, min_width=12),
    TableColumn("mutants"),
    TableColumn("killed"),
    TableColumn("survived"),
    TableColumn("slipped", priority=1),
    TableColumn("killed first by", priority=3, min_width=16),
)
KILLED_COLUMNS = (TableColumn("code"), TableColumn("mutants"), TableColumn("of which slipped", priority=1))
COVERAGE_COLUMNS = (TableColumn("code"), TableColumn("cases"), TableColumn("first of them", priority=1, min_width=12))


def print_mutate(mutation_run: MutationRun, console: Console) -> None:
    """Verify the run's mutants and print its report: the tables, the mutants it
    lists (the holes, the harmless mutants rejected, the harmless survivors), which
    wait in spools meanwhile, and last the score and the coverage, so that a
    terminal shows them after hundreds of lines."""
    from ..lab.mutation_testing import Spool

    with Spool(mutation_run.parents) as survivors, Spool(mutation_run.parents) as stricter:
        for result in mutation_run.stream():
            if not result.killed:
                survivors.add(result)
            elif result.mutant.harmless:
                stricter.add(result)
        _print_tables(mutation_run, console)
        tally = mutation_run.tally
        listings = (
            ("survivors meant to be rejected (holes in the contract)", tally.holes, "bold red",
             lambda: (r for r in survivors if not r.mutant.harmless)),
            ("harmless mutants rejected (the contract is stricter than intended)", tally.stricter, "yellow",
             lambda: iter(stricter)),
        )
        from rich.text import Text

        for title, count, style, results in listings:
            if count:
                console.print(Text(f"{count} {title}:", style))
                for result in results():
                    _print_mutant(console, result, full=result.hole)
        kept = tally.survivors - tally.holes
        if kept:
            console.print(Text(f"{kept} harmless survivor(s), as intended:", "bold"))
            for result in survivors:
                if result.mutant.harmless:
                    _print_mutant(console, result, full=False)
        _print_score(mutation_run, console)


def _print_tables(report: MutationRun, console: Console) -> None:
    """The tables: each mutation's mutants, the codes that killed them, the suites' coverage."""
    from rich.text import Text

    from ..lab.mutation_testing import REJECTIONS
    from ..lab.mutations import MUTATIONS_BY_NAME

    width = console.width
    tally = report.tally
    rows: list[dict[str, Cell]] = []
    for row in report.mutations:
        # A mutation whose variants are meant for several checks (doc.other) says how many more.
        meant = MUTATIONS_BY_NAME[row.name].meant
        rows.append({
            "mutation": Text(row.name),
            "meant for": Text(meant, "" if row.check else "dim"),
            "mutants": Text(str(row.mutants)),
            "killed": Text(str(row.killed)),
            "survived": Text(str(row.survived), "bold red" if row.survived > row.harmless else ""),
            "slipped": Text(str(row.slipped), "yellow" if row.slipped else ""),
            "killed first by": Text(", ".join(f"{label} {n}" for label, n in row.killed_by.items()) or "-"),
        })
    console.print(fitted("mutations: every variant on every accepted case", MUTATION_COLUMNS, rows, width))

    slipped_by_code = report.slipped_by
    killed = [{"code": Text(code), "mutants": Text(str(n)), "of which slipped": Text(str(slipped_by_code.get(code, 0)))}
              for code, n in report.killed_by.items()]
    if killed:
        console.print(fitted("mutants killed first, per verdict code", KILLED_COLUMNS, killed, width))

    coverage: list[dict[str, Cell]] = []
    for code in REJECTIONS:
        cases = report.coverage[code]
        coverage.append({"code": Text(code), "cases": Text(str(len(cases)), "" if cases else "bold red"),
                         "first of them": Text(visible(", ".join(cases[:3])) or "not covered",
                                               "" if cases else "bold red")})
    for key, cases in report.coverage_reasons.items():
        coverage.append({"code": Text("  " + key, "dim"), "cases": Text(str(len(cases)), "" if cases else "yellow"),
                         "first of them": Text(visible(", ".join(cases[:3])) or "-")})
    console.print(fitted("coverage: the suites' own cases failing first with each code", COVERAGE_COLUMNS,
                         coverage, width))


def _print_score(report: MutationRun, console: Console) -> None:
    """The last lines: the mutants, the score, the harmless ones, and what the suites' cases cover."""
    from rich.text import Text

    width = console.width
    tally = report.tally
    score = "-" if report.score is None else f"{report.score:.1%}"
    mutants = f"{tally.mutants} mutants of {len(report.parents)} accepted case(s) (of {report.summary.total})"
    facts = [
        ("mutants", " · ", [mutants, f"{tally.killed} killed",
                            f"{tally.survivors} survived"]),
        ("score", "; ", [f"{score} of the {tally.meant} mutants meant to change the verdict killed",
                         f"{tally.slipped} slipped to another check"]),
        ("harmless", "; ", [f"{tally.harmless - tally.stricter} of {tally.harmless} harmless mutants still accepted",
                            f"{tally.stricter} rejected (the contract is stricter than intended)"]),
    ]
    for label, separator, parts in facts:
        for line in hanging(label.ljust(FACT_LABEL_WIDTH), parts, width, separator):
            console.print(line)
    if report.uncovered:
        console.print(Text(f"not covered by any case: {', '.join(report.uncovered)}", "bold red"))
    else:
        console.print(Text("every rejection code is covered by a case of the suites", "green"))
    gaps = {name: codes for name, codes in report.uncovered_by_suite.items() if codes}
    if len(report.audit.suites) > 1 and gaps:
        parts = [visible(f"{name} lacks {', '.join(codes)}") for name, codes in gaps.items()]
        for line in hanging("per suite".ljust(FACT_LABEL_WIDTH + 1), parts, width, "; ", lead_style="dim"):
            console.print(line)


def _print_mutant(console: Console, result: MutantResult, full: bool) -> None:
    """One mutant: its case, mutation and variant, what it got, and its edit, or its
    whole raw text, every character shown safely."""
    from rich.text import Text

    from ..contract.text import line_col

    mutant = result.mutant
    start, end, replacement = mutant.edit
    line, column = line_col(result.parent.verdict.text or "", start)  # type: ignore[union-attr]  # a loaded case: its verdict is set
    removed = (result.parent.verdict.text or "")[start:end]  # type: ignore[union-attr]  # the same
    # ‹ › bound the text (it has quotes and spaces of its own); visible() shows what a terminal would hide.
    edit = f"at {line}:{column}: " + (f"‹{shorten(removed, 40)}› -> " if removed else "insert ") \
        + f"‹{shorten(replacement, 60)}›"
    console.print(Text.assemble("  ", (visible(result.case), "bold"), f"  {mutant.mutation}  ",
                                visible(mutant.variant), f"  -> {result.outcome}"))
    console.print(Text("    " + visible(edit), "dim"))
    if full:
        for raw_line in mutant.raw.split("\n"):
            console.print(Text("    | " + visible(raw_line)))
