"""The lab's mutations (``Mutating``): the menu, the mutation keys, predict mode, the exercise.

A mutation applies to the current claim (pressed again: its next variant, in
place of the last); in predict mode the verdict expected is asked first
(``PredictScreen``) and scored when the change is applied.  The article's
exercise opens over the view and sends its changes as messages.
"""

from __future__ import annotations

from functools import partial

from ...presentation.exercise import Exercise
from ...presentation.mutation_menu import LabCase, Next
from ..screens.exercise import ExerciseScreen
from ..screens.mutations import MutationMenu
from ..screens.predict import PredictScreen
from .changes import Changes

__all__ = ["Mutating"]


class Mutating(Changes):
    """The mutation menu and keys, predict mode and the exercise of one view's lab."""

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
            self.view.app.push_screen(PredictScreen(step.mutant.name, self.predicting.score),
                                      partial(self._predicted, step))
        else:
            self._apply_mutant(step)

    def _predicted(self, step: Next, said: str | None) -> None:
        if said is None:
            self.view.tell("no prediction: nothing applied")
            return
        self._said = said
        self._apply_mutant(step)

    def _apply_mutant(self, step: Next) -> None:
        self.apply_change(step.mutant.change(), replaces=step.replaces)
        if step.count > 1 and not self.predicting.on:  # predicting, the line says the prediction's outcome
            self.view.tell(f"{step.mutant.name} ({step.place})")

    def predict(self) -> None:
        self.predicting = self.predicting.toggled()
        self.view.show_score(self.predicting)
        state = "on: each mutation asks for the verdict you expect" if self.predicting.on else "off"
        self.view.tell(f"predict mode {state} ({self.predicting.score})")

    def exercise(self) -> None:
        """The article's exercise on the current accepted case (from the palette)."""
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
