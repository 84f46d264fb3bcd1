"""Asking before work is lost: ``ConfirmScreen``, the small question ``q`` and ``^q`` raise.

The app asks it (``InspectorApp.action_back`` and ``action_quit``) when leaving a
screen, or quitting, would lose what some screen holds (``presentation.leaving``:
lab edits not saved, marks their file refused, an unfinished review): the question says
what, each thing on a line; ``y`` or Enter leaves, ``n`` or Esc stays.  It
dismisses with the answer.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from .. import keys, safe
from ..tones import TEXT, Tone

__all__ = ["ConfirmScreen"]


class ConfirmScreen(ModalScreen[bool]):
    BINDINGS = keys.bindings("confirm")

    def __init__(self, question: str, lost: tuple[str, ...]) -> None:
        super().__init__()
        self.question = question  # "quit the inspector?", "back to the overview?"
        self.lost = lost  # what leaving loses, a line each

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm", classes="dialog"):
            yield Static(Content("This loses:"), id="confirm-head")
            yield Static(Content("\n").join([Content.assemble(("• ", TEXT[Tone.WARN]), safe.content(words))
                                             for words in self.lost]), id="confirm-lost")
            yield Static(Content.assemble(("y", "bold $text-accent"), " or ", ("Enter", "bold $text-accent"),
                                          ": yes, leave · ", ("n", "bold $text-accent"), " or ",
                                          ("Esc", "bold $text-accent"), ": no, stay"), id="confirm-keys")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#confirm").border_title = self.question

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
