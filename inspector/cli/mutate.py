"""``inspector mutate``: every mutation of every accepted case, and what the contract catches."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..contract.text import json_dumps, shorten, visible
from ..suites.load import bundled_suite_paths, load_suites
from .output import EXIT_ACCEPT, EXIT_REJECT, error, report_console
from .table import FACT_LABEL_WIDTH, TableColumn, fitted, hanging

if TYPE_CHECKING:
    from rich.console import Console

    from ..lab.mutation_testing import MutantResult, MutateReport
    from .table import Cell

__all__ = ["COVERAGE_COLUMNS", "KILLED_COLUMNS", "MUTATION_COLUMNS", "add_parser", "print_mutate", "run"]


def _mutations_listing() -> str:
    from ..lab.mutations import MUTATIONS

    return "\n".join(f"  {mutation.name:<20} {mutation.title:<36} {'/'.join(mutation.checks) or '-'}"
                     for mutation in MUTATIONS)


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "mutate", help="mutate every accepted case and count what the contract catches",
        description="Apply every mutation of the counterexample lab (every variant) to every ACCEPT "
                    "case of the suites, verify each mutant once and report: how many each verdict "
                    "code killed, the survivors, the mutation score, the mutants that slipped past "
                    "their check to another one, and which rejection codes the suites' own cases cover.",
        epilog="mutations, and the checks each is meant to trip (- harmless: stays accepted):\n" + _mutations_listing()
               + "\n\nexit status: 0 every rejection code covered, 1 a rejection code no case of the "
               "suites fails with, 2 unusable input, 3 internal error.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("suites", nargs="*", metavar="SUITE", help="suite files (default: the bundled suites)")
    parser.add_argument("--format", choices=("text", "json", "stryker"), default="text",
                        help="stryker: the mutation-testing-report-schema, for mutation-testing-elements")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from ..lab.mutation_testing import mutate

    paths = [Path(p) for p in args.suites] or bundled_suite_paths()
    if not paths:
        return error("no suite given and no bundled suites found")
    report = mutate(load_suites(paths))
    if args.format == "json":
        print(json_dumps(report.to_dict(__version__)))
    elif args.format == "stryker":
        print(json_dumps(report.to_stryker(__version__)))
    else:
        print_mutate(report)
    return EXIT_REJECT if report.uncovered else EXIT_ACCEPT


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


def print_mutate(report: MutateReport) -> None:
    from rich.text import Text

    from ..lab.mutation_testing import REJECTIONS
    from ..lab.mutations import MUTATIONS_BY_NAME

    console = report_console()
    width = console.width
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

    score = "-" if report.score is None else f"{report.score:.1%}"
    facts = [
        ("mutants", " · ", [f"{len(report.results)} mutants of {len(report.parents)} accepted case(s) "
                            f"(of {report.summary.total})", f"{report.killed} killed",
                            f"{len(report.survivors)} survived"]),
        ("score", "; ", [f"{score} of the {len(report.meant)} mutants meant to change the verdict killed",
                         f"{len(report.slipped)} slipped to another check"]),
        ("harmless", "; ", [f"{len(report.harmless) - len(report.stricter)} of {len(report.harmless)} "
                            "harmless mutants still accepted",
                            f"{len(report.stricter)} rejected (the contract is stricter than intended)"]),
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

    for title, results, style in (
            ("survivors meant to be rejected (holes in the contract)", report.holes, "bold red"),
            ("harmless mutants rejected (the contract is stricter than intended)", report.stricter, "yellow")):
        if not results:
            continue
        console.print(Text(f"{len(results)} {title}:", style))
        for result in results:
            _print_mutant(console, result, full=result in report.holes)
    harmless_kept = [result for result in report.survivors if result.mutant.harmless]
    if harmless_kept:
        console.print(Text(f"{len(harmless_kept)} harmless survivor(s), as intended:", "bold"))
        for result in harmless_kept:
            _print_mutant(console, result, full=False)


def _print_mutant(console: Console, result: MutantResult, full: bool) -> None:
    """One mutant: its case, mutation and variant, what it got, and its edit, or its
    whole raw text, every character shown safely."""
    from rich.text import Text

    from ..contract.text import line_col

    mutant = result.mutant
    start, end, replacement = mutant.edit
    line, column = line_col(result.parent.verdict.text or "", start)
    removed = (result.parent.verdict.text or "")[start:end]
    # ‹ › bound the text (it has quotes and spaces of its own); visible() shows what a terminal would hide.
    edit = f"at {line}:{column}: " + (f"‹{shorten(removed, 40)}› -> " if removed else "insert ") \
        + f"‹{shorten(replacement, 60)}›"
    console.print(Text.assemble("  ", (visible(result.case), "bold"), f"  {mutant.mutation}  ",
                                visible(mutant.variant), f"  -> {result.outcome}"))
    console.print(Text("    " + visible(edit), "dim"))
    if full:
        for raw_line in mutant.raw.split("\n"):
            console.print(Text("    | " + visible(raw_line)))
