"""The inspector app, and ``make_app``, the one factory the CLI, tests and screenshots use.

The app holds the session and the keys that work everywhere (help, palette,
back and quit); the main view and its state are ``MainScreen``'s.

``q`` is one rule on every screen, as VisiData's: back a screen (the screen's
``leave`` when it has one, else its ``dismiss``), and on the first screen quit.
It is the app's key, so a screen added later follows it without code of its own;
a screen whose focused field takes text keeps ``q`` for typing (Textual gives the
key to the field first), and a dialog (a modal screen) keeps its own keys.
Before leaving loses work, and before quitting does (``q`` on the first screen,
``^q`` anywhere), the app asks (``ConfirmScreen``), saying what would be lost:
each screen says what it holds (``held``, a ``presentation.leaving.Held``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from textual.app import App
from textual.screen import Screen

from ..presentation.leaving import Held, lost_words
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
        from .screens.help import HelpScreen, help_section

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(help_section(self.screen)))

    # -- q: back a screen, quitting from the first; asking before work is lost ---------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # q's two keys: back on a screen over the first, quit on the first (the footer names the one that applies).
        if action == "back_screen":
            return len(self.screen_stack) > 1
        if action == "leave":
            return len(self.screen_stack) <= 1
        return True

    @staticmethod
    def _held(screen: Screen[object], quitting: bool) -> Held:
        held = getattr(screen, "held", None)
        return held(quitting) if callable(held) else Held()

    def action_back_screen(self) -> None:
        """Back a screen (``q``): the screen's own ``leave``, else its dismissal; asked first when
        leaving it loses what only it holds."""
        screen = self.screen
        if len(self.screen_stack) <= 1:
            return
        lost = lost_words([self._held(screen, False)])

        def leave(yes: bool | None = True) -> None:
            if yes and screen is self.screen:
                own = getattr(screen, "leave", None)
                if callable(own):
                    own()
                else:
                    screen.dismiss()

        if lost:
            self._ask("go back a screen?", lost, leave)
        else:
            leave()

    def action_leave(self) -> None:
        """``q`` on the first screen: quit (asked first when that loses work)."""
        self.quit_asking()

    async def action_quit(self) -> None:
        """``^q`` (Textual's quit key), from any screen: quit, asked first when that loses work."""
        self.quit_asking()

    def quit_asking(self) -> None:
        """Quit, asked first when some screen holds work that quitting loses, saying what."""
        from .screens.confirm import ConfirmScreen

        if isinstance(self.screen, ConfirmScreen):
            return  # asked already: y or n answers
        lost = lost_words(self._held(screen, True) for screen in self.screen_stack)
        if lost:
            self._ask("quit the inspector?", lost, lambda yes: self.exit() if yes else None)
        else:
            self.exit()

    def _ask(self, question: str, lost: tuple[str, ...], answered: Callable[[bool | None], None]) -> None:
        from .screens.confirm import ConfirmScreen

        self.push_screen(ConfirmScreen(question, lost), answered)


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
