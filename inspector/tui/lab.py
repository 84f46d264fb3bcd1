"""The lab: change one thing of the case shown, see which check flips (``Lab``).

The main screen keeps the main view (the cases, the trace, the panels, the
filter); its ``Lab`` keeps everything that changes the case's answer and what it
remembers meanwhile: the mutation keys and the menu, predict mode and its score,
the article's exercise, undo, redo and reset, the two editors, repair, save, and
the mutation report's mutants opened in the lab.  The main screen's lab keys run
the lab's methods of the same names; the messages the lab's screens send
(``AnswerChanged``, ``MutationChosen``, ``UndoAsked``, ``MutantChosen``) are
handed to it.  A change is applied to the session's history of the case, and
the edited answer's report goes back to the view (``show_changed``), which
selects it like any other case's.

The lab's screens never call the main screen: a form or a menu dismisses with
its result, which the lab applies; the exercise, open over several changes,
sends its changes as messages and is shown each report the lab applies
(``ExerciseScreen.show``).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Protocol

from textual.app import App
from textual.message import Message

from ..presentation.browse import Browse
from ..presentation.editors import Change, claim_form, editable_text
from ..presentation.key_state import KeyState
from ..presentation.mutation_menu import LabCase, Next
from ..presentation.predict import PredictScore
from ..presentation.selection import Selection
from ..presentation.session import Session
from ..reports.case import CaseReport
from ..suites.load import Suite
from . import safe

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from ..presentation.repair_view import RepairView
    from .screens.exercise import ExerciseScreen
    from .screens.save import Saved

__all__ = ["Lab", "LabView"]


class LabView(Protocol):
    """What the lab reads of the view it changes (the main screen) and asks of it."""

    session: Session
    browse: Browse
    selection: Selection | None

    @property
    def app(self) -> App[object]: ...

    def key_state(self) -> KeyState: ...

    def open_case(self, number: int) -> None: ...

    def show_changed(self, report: CaseReport) -> None: ...

    def show_score(self, score: PredictScore) -> None: ...

    def add_suite(self, suite: Suite, case_id: str | None = None) -> None: ...

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None: ...

    def post_message(self, message: Message) -> bool: ...


class Lab:
    """The lab of one main view: its keys, its state, its screens' results."""

    def __init__(self, view: LabView) -> None:
        self.view = view
        self.predicting = PredictScore()  # predict mode and the session's score
        self._said: str | None = None  # the verdict predicted for the change being applied
        self._save_path: str | None = None  # the file the lab saved into last, proposed again
        self._exercise: ExerciseScreen | None = None  # the exercise open over the view

    @property
    def session(self) -> Session:
        return self.view.session

    def _warn(self, words: str, timeout: float = 3) -> None:
        self.view.notify(words, severity="warning", markup=False, timeout=timeout)

    def _post(self, message: Message | None) -> None:
        """A screen's result that is a message for the view (a mutation chosen in the menu)."""
        if message is not None:
            self.view.post_message(message)

    # -- changes of the current case's answer ----------------------------------------------

    def apply_change(self, change: Change, *, replaces: bool = False) -> None:
        """Apply a change to the current case's answer now (``replaces``: in place of the
        last change).  The lab's keys call this directly rather than posting
        ``AnswerChanged`` to the view, so that a key pressed again before a message
        would have been handled sees the change (a cycling mutation's next variant)."""
        number = self.view.browse.current
        history = self.session.history(number) if number is not None else None
        if number is None or history is None:
            self._said = None
            self.view.notify("no answer to change: this case could not be loaded", severity="warning", timeout=3)
            return
        if replaces and history.can_undo:
            self.session.undo(number)
        report = self.session.change(number, change)
        self._show(report)
        if self._said is not None:
            said, self._said = self._said, None
            self.predicting = self.predicting.scored(said, report.status, change.what)
            self.view.show_score(self.predicting)
            last = self.predicting.last
            if last is not None:
                self.view.notify(last.words, severity="information" if last.right else "warning", markup=False,
                                 timeout=4)

    def _show(self, report: CaseReport) -> None:
        """Show the changed answer, on the view and to the exercise when it is open."""
        self.view.show_changed(report)
        if self._exercise is not None:
            self._exercise.show(report)

    def open_mutant(self, number: int, change: Change) -> None:
        """Open a mutant of the mutation report in the lab: its case, the mutant applied.
        A report's mutant is an edit of the frozen answer, so the case's own changes are
        set aside first (else a saved counterexample would record edits its text lacks)."""
        history = self.session.history(number)
        if history is None:
            return
        self.view.open_case(number)
        if history.edited:
            self.session.reset(number)
            self.view.notify(f"{history.position} earlier change{'s' if history.position != 1 else ''} of this "
                             "case replaced by the mutant (it is an edit of the frozen case)", markup=False,
                             timeout=4)
        self._show(self.session.change(number, change))

    # -- mutations and predictions -------------------------------------------------------------

    def _lab_case(self) -> LabCase | None:
        """The current case as the lab mutates it (None when it has no answer to change)."""
        number, selection = self.view.browse.current, self.view.selection
        if number is None or selection is None:
            return None
        return LabCase.of(self.session, number, selection.claim)

    def mutations(self) -> None:
        """The mutation menu for the current claim; the menu dismisses with a ``MutationChosen``."""
        lab = self._lab_case()
        selection = self.view.selection
        if lab is None or selection is None:
            self.view.notify("no answer to mutate: this case could not be loaded", severity="warning", timeout=3)
            return
        report = selection.report
        where = f"claims[{lab.claim}] of {report.id}" if lab.claim is not None else report.id
        from .screens.mutations import MutationMenu

        self.view.app.push_screen(MutationMenu(lab.rows(), where), self._post)

    def mutate(self, name: str) -> None:
        """Apply a mutation to the current claim (again: its next variant), predicting first in predict mode."""
        lab = self._lab_case()
        if lab is None:
            return
        step = lab.next(name)
        if step is None:
            self._warn(f"{name}: not applicable here: {lab.why_not(name)}")
            return
        if self.predicting.on:
            from .screens.predict import PredictScreen

            self.view.app.push_screen(PredictScreen(step.mutant.name, self.predicting.score),
                                      partial(self._predicted, step))
        else:
            self._apply_mutant(step)

    def _predicted(self, step: Next, said: str | None) -> None:
        if said is None:
            self.view.notify("no prediction: nothing applied", markup=False, timeout=2)
            return
        self._said = said
        self._apply_mutant(step)

    def _apply_mutant(self, step: Next) -> None:
        self.apply_change(step.mutant.change(), replaces=step.replaces)
        if step.count > 1:
            self.view.notify(f"{safe.display(step.mutant.name)} ({step.place})", markup=False, timeout=2)

    def predict(self) -> None:
        self.predicting = self.predicting.toggled()
        self.view.show_score(self.predicting)
        state = "on: each mutation asks for the verdict you expect" if self.predicting.on else "off"
        self.view.notify(f"predict mode {state} ({self.predicting.score})", markup=False, timeout=3)

    def exercise(self) -> None:
        """The article's exercise on the current accepted case (from the palette)."""
        from ..presentation.exercise import Exercise
        from .screens.exercise import ExerciseScreen

        selection = self.view.selection
        if selection is None or not self.view.key_state().accepted:
            self._warn("the exercise starts from an accepted case")
            return
        claim = selection.claim if selection.claim is not None else 0
        screen = ExerciseScreen(self.session, Exercise.start(selection.report, claim), self.view)  # type: ignore[arg-type]  # the view: a screen
        self._exercise = screen
        self.view.app.push_screen(screen, self._exercise_closed)

    def _exercise_closed(self, _: None) -> None:
        self._exercise = None

    # -- the history: undo, redo, reset -------------------------------------------------------

    def undo(self) -> None:
        self._history_step("undo")

    def redo(self) -> None:
        self._history_step("redo")

    def reset(self) -> None:
        self._history_step("reset")

    def undo_asked(self) -> None:
        """The exercise's restore: undo, and tell the exercise what the case is now (changed or not)."""
        if not self._history_step("undo") and self._exercise is not None:
            number = self.view.browse.current
            if number is not None:
                self._exercise.show(self.session.report(number))

    def _history_step(self, step: str) -> bool:
        """Undo, redo or reset the current case's changes; whether anything changed."""
        number = self.view.browse.current
        history = self.session.history(number) if number is not None else None
        if number is None or history is None:
            return False
        undone, redone = history.undone, history.redone
        if step == "undo" and undone is not None:
            self._show(self.session.undo(number))
            self.view.notify(f"undone: {safe.display(undone.what)}", markup=False, timeout=2)
        elif step == "redo" and redone is not None:
            self._show(self.session.redo(number))
            self.view.notify(f"redone: {safe.display(redone.what)}", markup=False, timeout=2)
        elif step == "reset" and history.edited:
            self._show(self.session.reset(number))
            self.view.notify(f"back to the frozen case ({history.position} change"
                             f"{'s' if history.position != 1 else ''} undone; ^r redoes them)", markup=False,
                             timeout=3)
        else:
            return False
        return True

    # -- the editors, repair, save --------------------------------------------------------------

    def edit_claim(self) -> None:
        from .screens.edit_claim import EditClaimScreen

        selection = self.view.selection
        form = claim_form(selection.report, selection.claim) if selection is not None else None
        if form is None:
            self._warn("this answer did not decode into claims: edit its text with E")
            return
        self.view.app.push_screen(EditClaimScreen(form), self._edited)

    def edit_raw(self) -> None:
        from .screens.raw_editor import RawEditorScreen

        number = self.view.browse.current
        if number is None or self.session.history(number) is None:
            self.view.notify("no answer to edit: this case could not be loaded", severity="warning", timeout=3)
            return
        raw = editable_text(self.session.report(number))
        if raw is None:
            self._warn("this answer's bytes are not UTF-8: there is no text to edit (the raw view shows "
                       "them as \\xNN)", timeout=4)
            return
        self.view.app.push_screen(RawEditorScreen(self.session.frozen(number), raw), self._edited)

    def _edited(self, change: Change | None) -> None:
        """The edit form or the raw editor closed: apply its change, if it made one."""
        if change is not None:
            self.apply_change(change)

    def repair(self) -> None:
        """The smallest edits that make the case as shown ACCEPT (greyed when it is)."""
        from ..presentation.repair_view import RepairView
        from .screens.repair import RepairScreen

        number = self.view.browse.current
        report = self.session.report(number) if number is not None else None
        if report is None or report.verdict is None or report.verdict.ok:
            return
        self.view.app.push_screen(RepairScreen(RepairView.of(report)), self._repair_closed)

    def _repair_closed(self, view: RepairView | None) -> None:
        change = view.change() if view is not None else None
        if change is not None:
            self.apply_change(change)

    def save(self) -> None:
        """Save the case as shown into a counterexample file (the form remembers the last file)."""
        from ..presentation.save_form import SaveForm
        from .screens.save import SaveScreen

        number = self.view.browse.current
        history = self.session.history(number) if number is not None else None
        if number is None or history is None:
            return
        form = SaveForm(self.session.report(number), history)
        self.view.app.push_screen(SaveScreen(form, self._save_path), self._save_closed)

    def _save_closed(self, saved: Saved | None) -> None:
        if saved is None:
            return
        self._save_path = str(saved.path)
        if saved.open:
            self.view.add_suite(saved.suite, saved.case_id)

    # -- the mutation report ---------------------------------------------------------------------

    def mutation_report(self) -> None:
        """The mutation report of the loaded suites; a mutant chosen there opens here (``MutantChosen``)."""
        from .screens.mutation_report import MutationReportScreen

        selection = self.view.selection
        suite = selection.report.suite if selection is not None else None
        self.view.app.push_screen(MutationReportScreen(self.session, suite), self._post)
