"""Predict mode's question: which verdict do you expect from this change?

One key per verdict (``presentation.predict.PREDICTIONS``, derived from the
contract's codes), shown beside its code; the screen dismisses with the status
chosen, or None (Esc: the change is not applied).  The main view stays visible
above the question.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from ...presentation.predict import PREDICTIONS
from .. import keys, safe
from ..tones import TEXT, Tone

__all__ = ["PredictScreen", "verdict_keys"]


def verdict_keys() -> Content:
    """``a ACCEPT  j INVALID_JSON  c NO_CITATION ...``, the keys in bold."""
    parts: list[Content | tuple[str, str] | str] = []
    for number, (key, status) in enumerate(PREDICTIONS):
        parts += [("  " if number else "", ""), (key, "bold $text-accent"), f" {status}"]
    return Content.assemble(*parts)


class PredictScreen(ModalScreen[str | None]):
    BINDINGS = keys.bindings("predict")

    def __init__(self, what: str, score: str) -> None:
        super().__init__()
        self.what = what  # the change about to be applied, in words
        self.score = score

    def compose(self) -> ComposeResult:
        with Vertical(id="predict"):
            yield Static(Content.assemble("About to apply ", safe.content(self.what, "bold"),
                                          ". Which verdict do you expect?"), id="predict-question")
            yield Static(verdict_keys(), id="predict-keys")
            yield Static(Content.styled("Esc: do not apply it", TEXT[Tone.MUTED]), id="predict-cancel")

    def on_mount(self) -> None:
        self.query_one("#predict").border_title = f"predict · {self.score}"

    def action_say(self, status: str) -> None:
        self.dismiss(status)
