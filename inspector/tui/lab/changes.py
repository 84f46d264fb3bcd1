"""What every job of the lab ends in (``Changes``): a change of the case's answer applied.

A change goes to the session's history of the current case, its report to the
view (``show_changed``) and to the exercise when it is open; in predict mode the
prediction made before it is scored.  Undo, redo and reset step that history
(``^z``, ``^y``, ``^r``; the exercise's restore step asks with ``UndoAsked``).
"""

from __future__ import annotations

from textual.message import Message

from ...lab.history import Change
from ...presentation.predict import PredictScore
from ...presentation.session import Session
from ...reports.case import CaseReport
from ..screens.exercise import ExerciseScreen
from .view import LabView

__all__ = ["Changes"]


class Changes:
    """The lab's state over one view, and the one way a change of its case is applied."""

    def __init__(self, view: LabView) -> None:
        self.view = view
        self.predicting = PredictScore()  # predict mode and the session's score
        self._said: str | None = None  # the verdict predicted for the change being applied
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
            # the prediction's outcome: the verdict panel's own line (show_score), no notice over the verdict

    def _show(self, report: CaseReport) -> None:
        """Show the changed answer, on the view and to the exercise when it is open."""
        self.view.show_changed(report)
        if self._exercise is not None:
            self._exercise.show(report)

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
            self.view.tell(f"undone: {undone.what}")
        elif step == "redo" and redone is not None:
            self._show(self.session.redo(number))
            self.view.tell(f"redone: {redone.what}")
        elif step == "reset" and history.edited:
            self._show(self.session.reset(number))
            self.view.tell(f"back to the frozen case ({history.position} change"
                           f"{'s' if history.position != 1 else ''} undone; ^r redoes them)")
        else:
            return False
        return True

