"""What the CLI calls: run the inspector, or write its screenshots."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..suites.load import Suite

if TYPE_CHECKING:
    from ..presentation.overview import TriageRun

__all__ = ["open_review", "open_suites", "open_triage", "write_screenshots"]


def open_suites(suites: list[Suite]) -> int:
    """Run the inspector on these suites until the person quits; the exit status."""
    from .app import make_app

    app = make_app(suites, freeze_gc=True)
    app.run()
    return app.return_code or 0


def open_review(suites: list[Suite], reviewer: str, every: bool = False) -> int:
    """Run the inspector in review mode on these suites' pending cases (``every``: on
    all their cases), as ``reviewer``, until the person quits; the exit status.
    ``ReviewError`` (a pending file that cannot be continued) and ``ValueError`` (an
    unusable reviewer's name) are raised before anything is shown: the CLI says them
    in one line."""
    from ..presentation.review import ReviewSession
    from ..presentation.session import Session
    from ..suites.reviewer import check_name
    from .app import make_review_app

    session = Session(suites)
    review = ReviewSession(session, check_name(reviewer), every=every)
    app = make_review_app(session, review, freeze_gc=True)
    app.run()
    return app.return_code or 0


def open_triage(run: TriageRun) -> int:
    """Run the inspector on a triage's overview until the person quits; the exit status."""
    from .app import make_triage_app

    app = make_triage_app(run)
    app.run()
    return app.return_code or 0


def write_screenshots(out_dir: Path, overwrite: bool = False) -> int:
    """Drive the real app through its main states and save an SVG of each into
    ``out_dir`` (existing ones replaced only with ``overwrite``)."""
    from .scenes import write_all

    return write_all(Path(out_dir), overwrite=overwrite)
