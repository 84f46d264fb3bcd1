"""``inspector triage --format html``: the summary as one self-contained page (``html.triage``),
with a few records of the largest rejection groups reread from the count's index; ``--out`` is
the page's new file.  Kept apart from ``triage`` so that module only chooses it."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .output import error

if TYPE_CHECKING:
    from ..triage.compare import Comparison
    from ..triage.summary import Summary

__all__ = ["html_problem", "stamp_logs", "write_html"]


def html_problem(args: argparse.Namespace) -> str | None:
    """Why ``--format html`` cannot be made with these options (before counting); --out is its page."""
    from .html_report import out_problem

    if args.export is not None or args.follow or args.pivot is not None:
        return "--format html is the summary as a page: it takes no --export, --follow or --pivot"
    if args.out is not None and args.bad_lines is not None and args.out.absolute() == args.bad_lines.absolute():
        return "--bad-lines and --out name the same file"
    return out_problem(args.out)


def stamp_logs(logs: Sequence[str]) -> dict[str, Any]:
    """Each log as it is before the count (a record reread for the HTML report is checked against it)."""
    from ..triage.stamp import stamp_logs as stamps_of

    return stamps_of(logs)


def write_html(args: argparse.Namespace, summary: Summary, baseline: Summary | None, registry: Any,
               stamps: dict[str, Any], comparison: Comparison | None = None) -> int | None:
    """``--format html``: the page, with a few records of the largest rejection groups, written whole;
    with ``--against``, the job's ``comparison`` drawn; the exit status of a failure (None: written)."""
    from .. import __version__
    from ..html.triage import triage_page
    from ..presentation.triage_examples import group_examples
    from .html_report import write_report

    examples = group_examples(summary, args.logs, registry, stamps)
    page = triage_page(summary, baseline, args.against or (), examples, f"inspector {__version__}", comparison)
    if (problem := write_report(args.out, page)) is not None:
        return error(problem)
    return None
