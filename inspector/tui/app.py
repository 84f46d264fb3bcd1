"""The inspector app, and ``make_app``, the one factory the CLI, tests and screenshots use.

The app holds the session and the keys that work everywhere (help, palette,
quit); the main view and its state are ``MainScreen``'s.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.app import App

from ..presentation.overview import TriageRun
from ..presentation.review import ReviewSession
from ..presentation.session import Session
from ..suites.load import Suite
from . import keys
from .screens.main import MainScreen
from .screens.triage import TriageScreen

__all__ = ["InspectorApp", "TriageApp", "make_app", "make_review_app", "make_triage_app"]


class InspectorApp(App[int]):
    CSS_PATH = "inspector.tcss"
    TITLE = "inspector"
    BINDINGS = keys.bindings("app")
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-normal"), (160, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]

    def __init__(self, session: Session, *, freeze_gc: bool = False, review: ReviewSession | None = None) -> None:
        super().__init__()
        self.session = session
        self.main = MainScreen(session, freeze_gc=freeze_gc, review=review)

    def get_default_screen(self) -> MainScreen:
        return self.main

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())


def make_app(suites: Iterable[Suite], *, freeze_gc: bool = False) -> InspectorApp:
    """The inspector on these suites (the CLI, the tests and the screenshots all start here).

    ``freeze_gc``: once mounted, move every object to the collector's permanent
    generation (``gc.freeze``), for a process that runs only the app (the CLI);
    tests leave it off so that one app's objects do not outlive it."""
    return InspectorApp(Session(suites), freeze_gc=freeze_gc)


def make_review_app(session: Session, review: ReviewSession, *, freeze_gc: bool = False) -> InspectorApp:
    """The inspector in review mode on ``review``'s cases (``inspector review``; ``review.session``
    is ``session``): the main view opens on the first case left."""
    if review.session is not session:
        raise ValueError("the review is of another session")
    return InspectorApp(session, freeze_gc=freeze_gc, review=review)


class TriageApp(InspectorApp):
    """The inspector opened on a triage's overview (``inspector triage``); a
    group's records open in the main view over them."""

    def __init__(self, run: TriageRun) -> None:
        super().__init__(Session())
        self.overview = TriageScreen(run)

    def get_default_screen(self) -> TriageScreen:  # type: ignore[override]  # the triage app's first screen, a TriageScreen
        return self.overview


def make_triage_app(run: TriageRun) -> TriageApp:
    """The inspector on a triage (the CLI, the tests and the benchmark start here)."""
    return TriageApp(run)
