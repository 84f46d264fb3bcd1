"""The mutation report in the lab (``Report``): the loaded suites' report, its mutants opened here.

A mutant chosen in the report (``MutantChosen``) opens its case with the mutant
applied, as a change of the frozen answer.
"""

from __future__ import annotations

from ...lab.history import Change
from ..screens.mutation_report import MutationReportScreen
from .changes import Changes

__all__ = ["Report"]


class Report(Changes):
    """The mutation report of one view's lab."""

    def mutation_report(self) -> None:
        """The mutation report of the loaded suites; a mutant chosen there opens here (``MutantChosen``)."""
        selection = self.view.selection
        suite = selection.report.suite if selection is not None else None
        self.view.app.push_screen(MutationReportScreen(self.session, suite), self._post)

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
