"""The repair view: the smallest edits that make a rejected answer ACCEPT, as a diff.

What it shows is ``presentation.repair_view.RepairView``: the verdict now and
after, the claims diff (``-`` in the failure colour, ``+`` in the success
colour), or, when no edit can fix the answer, why (a rejection that is
retrieval's names its fields).  Enter dismisses it with the view, whose
``change()`` the main screen applies like any other change; Esc with nothing.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from ...presentation.repair_view import RepairView
from .. import keys, safe
from ..tones import TEXT, Tone, strong

__all__ = ["RepairScreen", "repair_content"]

_MUTED = TEXT[Tone.MUTED]


def repair_content(view: RepairView) -> tuple[Content, Content]:
    """The head (the verdict now, what the repair does) and the body (the diff, or
    why there is none)."""
    fix = view.repair
    verdict = view.report.verdict
    assert verdict is not None
    head = [Content.assemble(("now ", _MUTED), (view.was, strong(Tone.GOOD if verdict.ok else Tone.BAD)))]
    if view.applies:
        count = view.headline.removesuffix(view.now)
        head.append(Content.assemble((count, "bold"), (view.now, strong(Tone.GOOD if fix.verdict.ok else Tone.BAD))))
    else:
        head.append(Content.styled(view.headline, strong(Tone.WARN) if not fix.possible else _MUTED))
    if view.applies:
        body = Content("\n").join(
            Content.assemble((f"{line.sign} ", strong(line.tone)), safe.content(line.text, TEXT[line.tone]))
            for line in view.lines)
    elif not fix.possible:
        why = [safe.content(line) for line in view.missing] or [safe.content(view.reason or "")]
        body = Content("\n").join([*why, Content(""), Content.styled("Enter does nothing here; Esc closes.", _MUTED)])
    else:
        body = Content.styled("The answer is accepted as it is.", _MUTED)
    return Content("\n").join(head), body


class RepairScreen(ModalScreen[RepairView | None]):
    BINDINGS = keys.bindings("repair")

    def __init__(self, view: RepairView) -> None:
        super().__init__()
        self.view = view

    def compose(self) -> ComposeResult:
        head, body = repair_content(self.view)
        with Vertical(id="repair", classes="dialog"):
            yield Static(head, id="repair-head")
            with VerticalScroll(id="repair-diff"):
                yield Static(body, id="repair-body")
        yield Footer()

    def on_mount(self) -> None:
        panel = self.query_one("#repair")
        panel.border_title = Content.assemble("repair · ", safe.content(self.view.report.id))
        self.query_one("#repair-diff").focus()  # so the arrow and page keys scroll a long diff

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "apply":
            return self.view.applies or None  # greyed when no edit can fix it
        return True

    def action_apply(self) -> None:
        if self.view.applies:
            self.dismiss(self.view)
