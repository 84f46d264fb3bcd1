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
from ...presentation.selection import Selection
from .. import safe
from ..tones import TEXT, TEXT_HIGHLIGHT, Tone
from .text_view import Mark, SafeTextView

__all__ = ["SourceText"]


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
        self.fit(selection.report.suite.registry)
        source = selection.source
        span = selection.source_span
        caption_words = selection.source_caption
        key = (id(source), span, selection.tone, caption_words)
        if key == self._key:
            return
        self._key = key
        caption = self.query_one("#source-caption", Static)
        view = self.query_one(SafeTextView)
        style = TEXT[caption_words.tone]
        if source is None:
            if caption_words.doc is not None:
                caption.update(layout=False, content=Content.assemble(
                    ("cited document ", style), safe.content(caption_words.doc, "bold"), (caption_words.note, style)))
            else:
                caption.update(Content.styled(caption_words.note, style), layout=False)
            view.clear()
            self._source_id = None
            return
        if source.id != self._source_id:
            view.set_text(source.text)
            self._source_id = source.id
        caption.update(Content.assemble(safe.content(source.id, "bold"), (" text", TEXT[Tone.MUTED]),
                                        (caption_words.note, style)), layout=False)
        marks: list[Mark] = []
        if span is not None:
            # The nearest line of a quote that is not there is not what the step found.
            tone = Tone.PENDING if selection.quote_missing else selection.tone
            marks.append(Mark(span.start, span.end, TEXT_HIGHLIGHT[tone]))
        view.set_marks(marks, focus=marks[0].start if marks else None)
