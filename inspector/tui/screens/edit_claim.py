"""The claim edit form (``e``): the current claim's field, value, doc and quote.

Each field starts with the member as the answer holds it, decoded (untrusted:
shown through ``SafeInput``, control and invisible characters as ``\\uXXXX``,
the value itself untouched).  Enter dismisses the form with the change that
writes the members that differ (``ClaimForm.change``), or None when nothing
differs; Esc dismisses it with None.  The main screen posts the change.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label, Static

from ...lab.history import Change
from ...presentation.editors import MEMBERS, ClaimForm
from .. import keys, safe
from ..widgets.safe_input import SafeInput
from .form import FIELD_KEYS

__all__ = ["EditClaimScreen"]


class EditClaimScreen(ModalScreen[Change | None]):
    BINDINGS = [*FIELD_KEYS, *keys.bindings("edit_claim")]  # Tab before the field's keys (form.FIELD_KEYS)

    def __init__(self, form: ClaimForm) -> None:
        super().__init__()
        self.form = form

    def compose(self) -> ComposeResult:
        values = self.form.values
        with Vertical(id="edit-form", classes="dialog"):
            for member in MEMBERS:
                with Horizontal(classes="edit-row"):
                    yield Label(member, classes="edit-label")
                    yield SafeInput(values[member], id=f"edit-{member}", select_on_focus=False, compact=True)
            yield Static(Content("Enter applies · Tab next field · Esc cancels: only the members you "
                                 "change are written into the answer"), id="edit-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#edit-form").border_title = Content.assemble(
            f"edit claims[{self.form.claim}] of ", safe.content(self.form.case_id))
        self.query_one("#edit-field", SafeInput).focus()

    def values(self) -> dict[str, str]:
        """The four members as the form has them now."""
        return {member: self.query_one(f"#edit-{member}", SafeInput).value for member in MEMBERS}

    def change(self) -> Change | None:
        return self.form.change(self.values())

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_apply()

    def action_apply(self) -> None:
        change = self.change()
        if change is None:
            self.notify("nothing changed: the answer stays as it was", markup=False, timeout=2)
        self.dismiss(change)

    def action_cancel(self) -> None:
        self.dismiss(None)
