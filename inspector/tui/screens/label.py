"""The label form (``L`` in review mode): a person's label of the current claim.

The claim (field, value, doc) and the lens's label in the head; the four labels
and "clear" a row each (``1``-``4``, ``0``, or the list keys and Enter); a note,
needed for NOT_ASSESSABLE (``presentation.review_view.label_problem``).
Dismissed with the choice (``LabelChoice``; None: closed); the main screen
writes it into the pending file.  Every string from the answer is untrusted:
drawn through ``safe``.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label, Static
from textual.widgets.option_list import Option

from ...presentation.review_view import LABEL_CHOICES, LabelChoice, label_problem
from .. import keys, safe
from ..tones import TEXT, Tone, strong
from ..widgets.label_choices import LabelChoices

__all__ = ["LabelScreen"]

_MUTED = TEXT[Tone.MUTED]


class LabelScreen(ModalScreen[LabelChoice | None]):
    BINDINGS = keys.bindings("label")

    def __init__(self, claim: int, field: str, value: str, lens: str | None, current: str | None,
                 note: str | None = None) -> None:
        super().__init__()
        self.claim = claim
        self.field = field
        self.claim_value = value
        self.lens = lens
        self.current = current
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(id="label", classes="dialog"):
            yield Static(self._head(), id="label-head", classes="dialog-head")
            yield LabelChoices(*(Option(Content.assemble((f"{key}  ", "bold"), words), id=str(index))
                               for index, (key, _, words) in enumerate(LABEL_CHOICES)),
                               id="label-choices", compact=True)
            with Horizontal(classes="dialog-row"):
                yield Label("note")
                yield Input(self.note or "", placeholder="optional (needed for NOT_ASSESSABLE)", id="label-note",
                            compact=True, select_on_focus=False)
            yield Static("", id="label-status", classes="dialog-status")
        yield Footer()

    def _head(self) -> Content:
        return Content.assemble(
            (f"claims[{self.claim}] ", "bold"), safe.content(self.field, "bold"), (" = ", _MUTED),
            safe.content(self.claim_value), ("\nlens ", _MUTED), (self.lens or "—", "bold"),
            (" · person ", _MUTED), (self.current or "—", "bold"))

    def on_mount(self) -> None:
        self.query_one("#label").border_title = f"label claims[{self.claim}]"
        choices = self.query_one(LabelChoices)
        labels = [label for _, label, _ in LABEL_CHOICES]
        choices.highlighted = labels.index(self.current) if self.current in labels else 0
        choices.focus()

    def action_choose(self, index: int) -> None:
        self.query_one(LabelChoices).highlighted = index
        self.action_submit()

    def action_submit(self) -> None:
        index = self.query_one(LabelChoices).highlighted or 0
        label = LABEL_CHOICES[index][1]
        note = self.query_one("#label-note", Input).value
        problem = label_problem(label, note)
        if problem is not None:
            self.query_one("#label-status", Static).update(Content.styled(problem, strong(Tone.BAD)))
            self.query_one("#label-note", Input).focus()
            return
        self.dismiss(LabelChoice(label, note.strip() or None if label is not None else None))
