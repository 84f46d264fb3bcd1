"""``inspector audit``: run suites against their frozen labels, print or write the report."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import __version__
from ..contract.text import json_dumps, visible
from ..presentation.bars import bar
from ..suites.load import Suite, bundled_suite_paths, load_suites
from .output import EXIT_ACCEPT, EXIT_REJECT, TONE_STYLES, error, report_console
from .table import BAR_WIDTH, FACT_LABEL_WIDTH, TableColumn, fit_columns, fitted, hanging, natural_widths, render_table

if TYPE_CHECKING:
    from ..reports.audit import Audit
    from ..reports.case import Rung
    from ..suites.load import HumanDecision, Review
    from .table import Cell

__all__ = ["FIRST_FAILURE_COLUMNS", "LADDER_COLUMNS", "add_parser", "audit_columns", "print_audit", "run"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "audit", help="run fixture suites and compare with their frozen labels",
        description="Run every case of the suites and compare each verdict with its frozen label.",
        epilog="exit status: 0 all labels match, 1 a label differs (or a case a person annotated as a false "
               "acceptance has none, or --verify found a difference), "
               "2 unusable input, 3 internal error.",
    )
    parser.add_argument("suites", nargs="*", metavar="SUITE", help="suite files (default: the bundled suites)")
    parser.add_argument("--format", choices=("text", "json", "html"), default="text",
                        help="html: one self-contained page (the rungs, the ladder, the mismatches, every verdict "
                             "explained), on standard output or into --out FILE")
    parser.add_argument("--out", metavar="DIR", type=Path,
                        help="also write results.json and manifest.json into DIR (new or empty; not inside the "
                             "bundled fixtures); with --format html: the page's FILE (a new file)")
    parser.add_argument("--verify", metavar="DIR", type=Path,
                        help="recompute a run written by --out and fail on any difference")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from ..reports.audit import audit, review_status
    from ..suites.manifest import RunError, verify_run, write_run

    if args.verify is not None:
        if args.suites or args.out:
            return error("--verify DIR takes no suites and no --out: it rereads the run's own inputs")
        try:
            differences, notes = verify_run(
                args.verify, lambda paths: audit(load_suites(paths)).to_dict(__version__), __version__)
        except RunError as exc:
            return error(str(exc))
        for note in notes:
            print(f"note: {visible(note)}")
        for difference in differences:
            print(f"differs: {visible(difference)}")
        if differences:
            print(f"{args.verify}: {len(differences)} difference(s)")
            return EXIT_REJECT
        print(f"{args.verify}: verified, inputs and results unchanged")
        return EXIT_ACCEPT

    paths = [Path(p) for p in args.suites] or bundled_suite_paths()
    if not paths:
        return error("no suite given and no bundled suites found")
    if args.format == "html":
        from .html_report import out_problem

        if (problem := out_problem(args.out)) is not None:
            return error(problem)
    suites = load_suites(paths)
    result = audit(suites)
    # The review's state reads the pending files beside the suites: recorded (in the
    # results and the manifest), not recomputed by --verify, which reads the suites alone.
    status = review_status(suites, result)
    if args.format == "html":
        from ..html.audit import audit_page
        from .html_report import write_report

        if (problem := write_report(args.out, audit_page(suites, result, status, f"inspector {__version__}"))):
            return error(problem)
        return EXIT_REJECT if result.mismatches or result.summary.unlabelled else EXIT_ACCEPT
    document = {**result.to_dict(__version__), "review": status}
    if args.out is not None:
        try:
            write_run(args.out, paths, document, __version__, review=status)
        except RunError as exc:
            return error(str(exc))
    if args.format == "json":
        print(json_dumps(document))
    else:
        print_audit(suites, result, status)
        if args.out is not None:
            print(f"wrote {args.out / 'results.json'} and {args.out / 'manifest.json'}")
    return EXIT_REJECT if result.mismatches or result.summary.unlabelled else EXIT_ACCEPT


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _kappa(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def _baseline_rungs() -> tuple[Rung, ...]:
    """The rungs the audit table shows as columns: all but the contract's, which is the
    actual label itself."""
    from ..reports.case import RUNGS

    return tuple(rung for rung in RUNGS if rung.id != "contract")


def audit_columns(labels_differ: bool = False) -> tuple[TableColumn, ...]:
    """The audit's per-case table, in display order.

    Beyond case, actual and match, the columns that say what the label does not come
    first: the failing check and claim, then the expected label, the lens, the blame.
    When a label in the table differs from its verdict the expected label is what the
    reader looks for, so it comes before the first failure; when none does it repeats
    the actual one. The rungs go first, the lowest first: strict JSON rejects exactly
    when the label is INVALID_JSON, and citation-only and the category follow from the
    label's check in nearly every case.
    """
    expected, first_failure = (1, 2) if labels_differ else (2, 1)
    return (
        TableColumn("case"),
        TableColumn("expected", priority=expected),
        TableColumn("actual", under="case"),
        TableColumn("match"),
        *(TableColumn(rung.name, priority=7 - number) for number, rung in enumerate(_baseline_rungs())),
        TableColumn("first failure", priority=first_failure, min_width=18),
        TableColumn("lens", priority=3),
        TableColumn("category", priority=5, min_width=12),
        TableColumn("blame", priority=4),
    )


LADDER_COLUMNS = (
    TableColumn("check", priority=1, min_width=10),
    TableColumn("code"),
    TableColumn("passed"),
    TableColumn("", priority=2, min_width=5, width=BAR_WIDTH),
)
FIRST_FAILURE_COLUMNS = (
    TableColumn("check", priority=1, min_width=10),
    TableColumn("code"),
    TableColumn("cases"),
)


def _match_cell(item: Any) -> Any:
    from rich.text import Text

    if item.known_regression:
        return Text("✗ known regression", "yellow")
    if item.match is False:
        return Text("✗ differs", "bold red")
    return Text("✓", "green") if item.match else Text("-")


def print_audit(suites: list[Suite], result: Audit, status: dict[str, Any] | None = None) -> None:
    from rich.text import Text

    from .review import status_lines

    console = report_console()
    summary = result.summary
    by_suite: dict[str, list] = {}
    for item in result.results:
        by_suite.setdefault(item.suite.name, []).append(item)
    for suite in suites:
        rows = []
        for item in by_suite.get(suite.name, []):
            verdict, step, evidence = item.verdict, item.first_failure, item.evidence
            baselines = {baseline.name: baseline for baseline in item.baselines}
            rows.append({
                "case": Text(visible(item.id)),
                "expected": Text(visible(item.expected or "-")),
                "actual": Text(verdict.label, "green" if verdict.ok else ""),
                "match": _match_cell(item),
                **{rung.name: Text(baseline.word, TONE_STYLES[baseline.tone])
                   if (baseline := baselines.get(rung.name)) else Text("-", "dim") for rung in _baseline_rungs()},
                "first failure": (Text(visible(step.check.title)),
                                  Text(f" [{step.claim}]" if step.claim is not None else ""))
                if step else Text("-", "dim"),
                "lens": Text(evidence.policy, "yellow" if evidence.lens_disagrees else ""),
                "category": Text(category.title if (category := item.category) else "-"),
                "blame": Text(evidence.blame or "-", "magenta" if evidence.blame == "retrieval" else ""),
            })
        title = Text(visible(f"{suite.name} ({suite.path})"))
        labels_differ = any(item.match is False for item in by_suite.get(suite.name, []))
        console.print(fitted(title, audit_columns(labels_differ), rows, console.width))
        for item in by_suite.get(suite.name, []):
            metadata = item.case.metadata if item.case is not None else None
            if metadata is not None:  # an exported triage record's place and metadata
                from ..presentation.records import case_metadata

                for line in hanging(f"  metadata: {visible(item.id)}: ",
                                    [visible(word) for word in case_metadata(metadata).words()],
                                    console.width, " · ", "    ", ""):
                    console.print(line)
            human = item.case.human if item.case is not None else None
            if human is not None:  # a reviewer's decision (an annotated triage record's export)
                said = f"human: {item.id}: {human.decision} by {human.reviewer} at {human.at}"
                for line in hanging("  ", [visible(said + (f": {human.note}" if human.note else ""))],
                                    console.width, "; ", "    ", ""):
                    console.print(line)

    total = summary.total
    ladder: list[dict[str, Cell]] = [
        {"check": Text(row.check.title), "code": Text(row.check.code), "passed": Text(f"{row.passed}/{total}")}
        for row in summary.checks]
    layout = fit_columns(LADDER_COLUMNS, natural_widths(LADDER_COLUMNS, ladder), console.width)
    width = layout.widths.get("", 0)  # the bar is drawn to its column's width: full width, every case passed
    for cells, row in zip(ladder, summary.checks):
        cells[""] = Text(bar(row.passed, total, width).rstrip(), "cyan")
    console.print(render_table("the ladder: cases past each check", LADDER_COLUMNS, layout, ladder))

    if summary.first_failures:
        rows = [{"check": Text(row.check.title), "code": Text(row.check.code), "cases": Text(str(row.failed))}
                for row in summary.checks if row.failed]
        console.print(fitted("first failures per check", FIRST_FAILURE_COLUMNS, rows, console.width))

    recall = summary.mean_recall
    facts = [
        ("summary", " · ", [
            f"{total} cases", *(f"{row.name} {row.count}/{total}" for row in summary.rungs),
            f"citation-only false accepts {len(summary.citation_false_accepts)}"]),
        ("lens", "; ", [
            f"the label lens says ANSWER where the contract rejects in {summary.rung('lens_disagrees').count} "
            f"case(s)",
            f"agreement lens/contract {_rate(summary.lens_agreement)}",
            f"verdict/frozen label {_rate(summary.verdict_agreement)}"]),
        ("blame", "; ", [
            f"rejections: {summary.blame['retrieval']} retrieval, {summary.blame['generation']} generation",
            f"mean retrieval recall {'-' if recall is None else f'{recall:.2f}'}",
            f"{summary.conflicted} case(s) touch conflicting evidence"]),
        ("abstain", ", ", [f"{name.replace('_', ' ')} {count}" for name, count in sorted(summary.categories.items())]),
    ]
    agreement = summary.agreement
    if agreement.any:
        claims, answers = agreement.claims, agreement.answers
        facts.append(("people", "; ", [
            f"{agreement.labelled_claims} claim(s) labelled by people ({len(agreement.not_assessable)} not "
            "assessable)",
            f"people/lens {_rate(claims.rate)} of {claims.compared}, kappa {_kappa(claims.kappa)}",
            f"people/contract {_rate(answers.rate)} of {answers.compared} answer(s), kappa {_kappa(answers.kappa)}"]))
    if status is not None and (status["to_review"] or status["pending_files"] or status["known_regressions"]):
        facts.append(("review", "; ", status_lines(status)))
    for label, separator, parts in facts:
        for line in hanging(label.ljust(FACT_LABEL_WIDTH), parts, console.width, separator) if parts else ():
            console.print(line)
    if summary.mismatched:
        console.print(Text(f"{len(summary.mismatched)} case(s) differ from their frozen label:", "bold red"))
        for item in summary.mismatched:
            got = [f"{item.suite.name}/{item.id}: expected {item.expected}, got {item.actual}"]
            if item.lens_match is False:  # a lens to match: a loaded case, its evidence assessed
                got.append(f"expected labels {item.case.expected_labels} policy {item.case.expected_policy}, "  # type: ignore[union-attr]  # a lens to match: a loaded case
                           f"got {list(item.evidence.labels)} {item.evidence.policy}")  # type: ignore[union-attr]  # and its evidence assessed
            for line in hanging("  ", [visible(part) for part in got], console.width, "; ", "    ", ""):
                console.print(line)
    elif not summary.known_regressions and not summary.unlabelled:
        console.print(Text("all verdicts match their frozen labels", "green"))
    else:
        console.print(Text("every other verdict matches its frozen label", "green"))
    if summary.unlabelled:
        console.print(Text(f"{len(summary.unlabelled)} case(s) without a label: a person annotated the acceptance "
                           "as false, not which rejection is right:", "bold red"))
        for item in summary.unlabelled:
            decided: HumanDecision = item.case.human  # type: ignore[union-attr, assignment]  # unlabelled: an annotated case
            for line in hanging("  ", [visible(f"{item.suite.name}/{item.id}: got {item.actual} "
                                               f"({decided.decision} by {decided.reviewer} at {decided.at})")],
                                console.width, "; ", "    ", ""):
                console.print(line)
    if summary.known_regressions:
        console.print(Text(f"{len(summary.known_regressions)} known regression(s): rejected in review, the label "
                           "kept:", "yellow"))
        for item in summary.known_regressions:
            review: Review = item.case.review  # type: ignore[union-attr, assignment]  # a known regression: a reviewed case
            said = f"; {review.note}" if review.note else ""
            for line in hanging("  ", [visible(f"{item.suite.name}/{item.id}: expected {item.expected}, got "
                                               f"{item.actual} (rejected by {review.reviewer} at {review.at}"
                                               f"{said})")], console.width, "; ", "    ", ""):
                console.print(line)
