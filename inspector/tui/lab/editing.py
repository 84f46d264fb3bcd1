"""The lab's editors (``Editing``): the claim form, the raw editor, repair, save.

Each is a screen that dismisses with its result (a change, the repair chosen,
the file saved); the lab applies the change, or opens the saved suite when asked.
"""

from __future__ import annotations

from functools import partial

from ...lab.history import Change
from ...presentation.editors import claim_form, editable_text
from ...presentation.repair_view import RepairView
from ...presentation.save_form import SaveForm
from ..screens.edit_claim import EditClaimScreen
from ..screens.raw_editor import RawEditorScreen
from ..screens.repair import RepairScreen
from ..screens.save import Saved, SaveScreen
from .changes import Changes
from .view import LabView

__all__ = ["Editing"]


class Editing(Changes):
    """The editors, repair and save of one view's lab (the last file saved into is proposed again)."""

    def __init__(self, view: LabView) -> None:
        super().__init__(view)
        self._save_path: str | None = None  # the file the lab saved into last, proposed again

    def edit_claim(self) -> None:
        selection = self.view.selection
        form = claim_form(selection.report, selection.claim) if selection is not None else None
        if form is None:
            self._warn("this answer did not decode into claims: edit its text with E")
            return
        self.view.app.push_screen(EditClaimScreen(form), self._edited)

    def edit_raw(self) -> None:
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
        number = self.view.browse.current
        history = self.session.history(number) if number is not None else None
        if number is None or history is None:
            return
        form = SaveForm(self.session.report(number), history)
        self.view.app.push_screen(SaveScreen(form, self._save_path), partial(self._save_closed, number))

    def _save_closed(self, number: int, saved: Saved | None) -> None:
        if saved is None:
            return
        self.session.saved(number)  # its edits are in a file now: quitting does not lose them
        self._save_path = str(saved.path)
        if saved.open:
            self.view.add_suite(saved.suite, saved.case_id)
