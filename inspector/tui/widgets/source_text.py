"""The cited source's text, with what the current step found in it marked.

For the quote steps this is the quote's location (or, when the quote is not in
the text, "not found" and the nearest line); for the value step, the line that
states the fact.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from ...contract.models import Registry
from .. import safe
from ..selection import Selection, Tone
from .text_view import Mark, SafeTextView

__all__ = ["SourceText"]

_MARKS = {Tone.PASSED: "safe-text--passed", Tone.FAILED: "safe-text--failed", Tone.PENDING: "safe-text--pending"}
_CAPTION = "$text-muted"


class SourceText(Vertical):
    HELP = (
        "**Source text**: the cited document's text. Quote steps mark where the quote is, or say "
        "*not found* and mark the nearest line; the value step marks the line stating the fact."
    )

    DEFAULT_CSS = """
    SourceText { height: auto; }
    SourceText > #source-caption { height: 1; }
    """

    MAX_ROWS = 5  # longer texts scroll; the marked line is scrolled into view

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._key: object = None
        self._source_id: str | None = None
        self._fitted: Registry | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="source-caption", markup=False)
        yield SafeTextView(wrap=True, line_numbers=True, id="source-view")

    @property
    def marks(self) -> tuple[Mark, ...]:
        return self.query_one(SafeTextView).marks

    @property
    def caption(self) -> str:
        return str(self.query_one("#source-caption", Static).render())

    def fit(self, registry: Registry) -> None:
        """Size the text view for every source of the case's registry: as many rows
        as its longest text has lines, up to MAX_ROWS.  A view whose height moved
        with each case would lay the screen out on every change of case; this one
        changes only between suites whose sources differ in length."""
        if registry is self._fitted:
            return
        self._fitted = registry
        lines = max((source.text.count("\n") + (not source.text.endswith("\n")) for source in registry),
                    default=1)
        rows = max(1, min(lines, self.MAX_ROWS))
        view = self.query_one(SafeTextView)
        if view.styles.height is None or view.styles.height.value != rows:
            view.styles.height = rows

    def show(self, selection: Selection) -> None:
        self.fit(selection.entry.suite.registry)
        source = selection.source
        span = selection.source_span
        step = selection.step
        key = (id(source), span, selection.tone, selection.quote_missing, step.check.id if step else None,
               selection.on_claim)
        if key == self._key:
            return
        self._key = key
        caption = self.query_one("#source-caption", Static)
        view = self.query_one(SafeTextView)
        if source is None:
            claim = selection.claim_value
            if claim is not None:
                caption.update(layout=False, content=Content.assemble(
                    ("cited document ", _CAPTION), safe.content(claim.doc, "bold"),
                    (" is not in the registry: no text to show", _CAPTION)))
            else:
                caption.update(Content.styled("no cited document", _CAPTION), layout=False)
            view.clear()
            self._source_id = None
            return
        if source.id != self._source_id:
            view.set_text(source.text)
            self._source_id = source.id
        words: list[Content | tuple[str, str]] = [safe.content(source.id, "bold"), (" text", _CAPTION)]
        marks: list[Mark] = []
        if span is not None:
            if selection.quote_missing:
                words.append((f" · quote not found · nearest line {span.line} marked", "$text-error"))
                marks.append(Mark(span.start, span.end, "safe-text--pending"))
            else:
                what = "quote" if step is not None and step.check.claim_member == "quote" else "the fact's line"
                words.append((f" · {what} at line {span.line}", _CAPTION))
                marks.append(Mark(span.start, span.end, _MARKS[selection.tone]))
        elif selection.quote_missing:
            words.append((" · quote not found", "$text-error"))
        caption.update(Content.assemble(*words), layout=False)
        view.set_marks(marks, focus=marks[0].start if marks else None)
