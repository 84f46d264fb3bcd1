"""``inspector review``: walk the cases whose verdict needs a person (in the
inspector), then apply the decisions to the suite or drop them.

Reviewing never writes the suite: decisions wait in a pending file beside it
(``SUITE.review.json``).  ``--apply`` is the one step that writes the suite,
``--discard`` drops the decisions.  ``--status`` says, headless, what is pending.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..contract.text import json_dumps, visible
from ..suites.load import Suite, bundled_suite_paths, load_suite, load_suites
from .output import EXIT_ACCEPT, error, terminal_problem

__all__ = ["add_parser", "run", "stream_problem"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "review", help="review verdicts that differ from their frozen labels, then apply the decisions",
        description="Open the inspector in review mode on the cases that need a person: a verdict that differs "
                    "from its frozen label, a case saved or edited since its last review, one reviewed under "
                    "another contract. a accepts (the verdict becomes the label), r rejects (the label stays: "
                    "a known regression), s skips; L labels a claim. Decisions wait in SUITE.review.json beside "
                    "the suite until --apply writes them into it.",
        epilog="exit status: 0 done; 2 unusable input (a pending file that is corrupt, another suite's, for "
               "cases that no longer exist, or taken on a suite that has changed since; two reviewers' files "
               "without --pending; a bundled suite in place), nothing applied; 3 internal error.",
    )
    parser.add_argument("suites", nargs="*", metavar="SUITE", help="suite files (default: the bundled suites)")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--apply", action="store_true",
                        help="write the pending decisions into the suite (atomically, in place or to --out), "
                             "then remove the pending file")
    action.add_argument("--discard", action="store_true", help="remove the pending file, applying nothing")
    action.add_argument("--status", action="store_true",
                        help="print what is pending (cases to review, decisions to apply) and exit")
    decide = parser.add_argument_group("deciding without the inspector (recorded in the pending file, as a/r are)")
    decide.add_argument("--accept", metavar="CASE", action="append", default=[],
                        help="accept this pending case's verdict as its label (repeatable)")
    decide.add_argument("--reject", metavar="CASE", action="append", default=[],
                        help="reject this pending case's verdict: its label stays, a known regression (repeatable)")
    decide.add_argument("--accept-all", action="store_true", help="accept every case still to decide")
    decide.add_argument("--reject-all", action="store_true", help="reject every case still to decide")
    decide.add_argument("--note", metavar="TEXT", help="a note on each decision taken")
    parser.add_argument("--out", metavar="NEW", type=Path,
                        help="with --apply: write the reviewed suite to this new file instead (the only way "
                             "for a bundled suite)")
    parser.add_argument("--pending", metavar="FILE", type=Path,
                        help="with --apply or --discard: the pending file to use, when reviewers left several")
    parser.add_argument("--all", dest="every", action="store_true",
                        help="walk every case, not only the pending ones (to label the claims of any case)")
    parser.add_argument("--reviewer", metavar="NAME",
                        help="the name stamped on each decision (default: git's user.name, else the login)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="with --status")
    parser.set_defaults(run=run, stream_problem=stream_problem)
    return parser


def _deciding(args: argparse.Namespace) -> bool:
    return bool(args.accept or args.reject or args.accept_all or args.reject_all)


def stream_problem(args: argparse.Namespace) -> str | None:
    # Only walking the cases needs a terminal; a misused option is run's to explain.
    if (args.apply or args.discard or args.status or args.out or args.pending or args.format != "text"
            or _deciding(args) or args.note is not None):
        return None
    return terminal_problem("inspector review needs a terminal (standard input and output) to walk the cases; "
                            "--status, --apply and --discard work without one")


def run(args: argparse.Namespace) -> int:
    from ..suites.review import ReviewError
    from ..suites.reviewer import reviewer_name

    if (args.out is not None or args.pending is not None) and not (args.apply or args.discard):
        return error("--out and --pending go with --apply (--pending with --discard too)")
    if args.format == "json" and not args.status:
        return error("--format json goes with --status")
    if _deciding(args) and (args.apply or args.discard or args.status):
        return error("--accept and --reject record decisions; apply them in a second step (--apply)")
    if args.every and (args.apply or args.discard or args.status or _deciding(args)):
        return error("--all walks every case in the inspector: it goes with no other action")
    if args.note is not None and not _deciding(args):
        return error("--note goes with --accept, --reject, --accept-all or --reject-all")
    if args.accept_all and args.reject_all:
        return error("--accept-all and --reject-all: choose one")
    paths = [Path(p) for p in args.suites] or ([] if args.apply or args.discard else bundled_suite_paths())
    if not paths:
        return error("give the SUITE to apply or discard the decisions of" if args.apply or args.discard
                     else "no suite given and no bundled suites found")
    try:
        reviewer = reviewer_name(args.reviewer)
    except ValueError as exc:
        return error(f"--reviewer: {exc}")
    try:
        if args.apply or args.discard:
            if len(paths) > 1 and (args.out is not None or args.pending is not None):
                return error("--out and --pending name one suite's files: give one SUITE")
            for path in paths:
                _apply_or_discard(args, path)
            return EXIT_ACCEPT
        suites = load_suites(paths)
        if args.status:
            return _status(args, suites)
        if _deciding(args):
            return _decide(args, suites, reviewer)
        from ..tui.launch import open_review

        return open_review(suites, reviewer, every=args.every)
    except ReviewError as exc:
        return error(str(exc))


def _apply_or_discard(args: argparse.Namespace, path: Path) -> None:
    from ..suites.review import ReviewError, apply_review, discard, load_pending

    suite = load_suite(path)
    pending_path = args.pending if args.pending is not None else _the_pending_file(path)
    pending = load_pending(pending_path, suite)
    if args.discard:
        discard(pending.path)
        print(visible(f"discarded {pending.path} ({_counts(pending)}); {path} is as it was"))
        return
    if args.out is not None and args.out.exists():
        raise ReviewError(args.out, "already exists; --out writes a new file")
    applied = apply_review(pending, path, args.out)
    parts = [f"{len(applied.accepted)} accepted ({len(applied.relabelled)} relabelled)",
             f"{len(applied.rejected)} rejected as known regressions"]
    if applied.skipped:
        parts.append(f"{len(applied.skipped)} skipped (still pending)")
    parts.append(f"{applied.labels} claim label(s)")
    print(visible(f"applied {pending.path} to {applied.path}: {', '.join(parts)}; removed {pending.path}"))


def _decide(args: argparse.Namespace, suites: list[Suite], reviewer: str) -> int:
    """Record decisions as the review mode's a and r do, without the inspector."""
    from ..presentation.review import ReviewSession
    from ..presentation.session import Session
    from ..suites.load import ACCEPT_DECISION, REJECT_DECISION

    review = ReviewSession(Session(suites), reviewer)
    session = review.session
    wanted: dict[int, str] = {}
    if args.accept_all or args.reject_all:
        every = ACCEPT_DECISION if args.accept_all else REJECT_DECISION
        wanted = {number: every for number in review.queue if review.is_left(number)}
    for decision, ids in ((ACCEPT_DECISION, args.accept), (REJECT_DECISION, args.reject)):
        for case_id in ids:
            numbers = [number for number, known in enumerate(session.ids) if known == case_id]
            if not numbers:
                return error(f"no case {case_id!r} in {', '.join(str(suite.path) for suite in suites)}")
            if len(numbers) > 1:
                return error(f"case {case_id!r} is in more than one suite: review one suite at a time")
            if numbers[0] not in review.queue:
                return error(f"case {case_id!r} has nothing to review (its verdict has its label, and no review "
                             "of it is pending)")
            if wanted.get(numbers[0], decision) != decision:
                return error(f"case {case_id!r} is both accepted and rejected")
            wanted[numbers[0]] = decision
    if not wanted:
        waiting = f" ({len(review.queue)} decided, waiting for --apply)" if review.queue else ""
        print(f"nothing to decide: no case is left to review{waiting}")
        return EXIT_ACCEPT
    news = []
    try:
        for number, decision in sorted(wanted.items()):
            review.decide(number, decision, args.note)
            news += [review.news] if review.news is not None else []
    except ValueError as exc:
        return error(str(exc))
    where = ", ".join(str(path) for path in review.pending_paths) or "no pending file"
    applies = " ".join(str(suite.path) for suite in suites)
    print(visible(f"recorded {len(wanted)} decision(s) in {where} ({review.left} left of {len(review.queue)}); "
                  f"inspector review --apply {applies} writes them into the suite"))
    for words in news:  # a decision taken meanwhile by another session, replaced by this one
        print(visible(words))
    return EXIT_ACCEPT


def _the_pending_file(path: Path) -> Path:
    from ..suites.review import ReviewError, pending_files

    found = pending_files(path)
    if not found:
        raise ReviewError(path, "has no pending review decisions (inspector review SUITE takes them)")
    if len(found) > 1:
        names = ", ".join(str(item) for item in found)
        raise ReviewError(path, f"has {len(found)} pending review files ({names}): say which with --pending FILE")
    return found[0]


def _counts(pending: Any) -> str:
    return f"{len(pending.decisions)} decision(s), {len(pending.labels)} claim label(s)"


def _status(args: argparse.Namespace, suites: list[Suite]) -> int:
    from ..reports.audit import audit, decided_cases, review_status

    result = audit(suites)
    status = review_status(suites, result)
    if args.format == "json":
        print(json_dumps(status))
        return EXIT_ACCEPT
    for line in status_lines(status):
        print(visible(line))
    decided = decided_cases(suites)
    for report in result.summary.pending:
        said = decided.get((str(report.suite.path), report.id))
        print(visible(f"  {report.suite.name}/{report.id}: {report.pending_reason} "
                      f"(expected {report.expected}, got {report.actual})"
                      + (f"; decided: {said}, to apply" if said else "")))
    return EXIT_ACCEPT


def status_lines(status: dict[str, Any]) -> list[str]:
    """The review's state in words (``review --status`` and ``audit``)."""
    decided = status.get("decided_mismatches", 0)  # a manifest written before it was counted has none
    lines = [f"{status['to_review']} case(s) to review: {status['unreviewed_mismatches']} unreviewed mismatch(es), "
             + (f"{decided} decided (to apply), " if decided else "")
             + f"{status['known_regressions']} known regression(s)"]
    for item in status["pending_files"]:
        if item.get("problem"):
            lines.append(f"pending file {item['path']}: unusable: {item['problem']}")
        else:
            lines.append(f"pending file {item['path']} ({item['reviewer']}): {item['decisions']} decision(s) and "
                         f"{item['labels']} claim label(s) to apply (inspector review --apply {item['suite']})")
    return lines
