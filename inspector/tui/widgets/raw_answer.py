"""The answer exactly as received (or re-indented), with what the step points at marked.

Marked: the decode error's position, both occurrences of a duplicate key, the
member the current step reads, and (softly) the whole current claim.  Bytes
that are not UTF-8 are shown as ``\\xNN``.
"""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import var

from ...presentation.pretty import Pretty, reindent
from ...presentation.selection import Selection
from ..tones import TEXT_HIGHLIGHT
from .text_view import Mark, SafeTextView

__all__ = ["RawAnswer"]

PRETTY_LIMIT = 65_536
# Narrower than this (the answer panel at 80×24), the answer has no line numbers: its
# cells go to the text.
NUMBERED = 32


def _as_text(raw: str | bytes) -> tuple[str, bool]:
    """The answer as text, and whether undecodable bytes ride along as surrogates."""
    if isinstance(raw, str):
        return raw, False
    try:
        return raw.decode("utf-8"), False
    except UnicodeDecodeError:
        return raw.decode("utf-8", "surrogateescape"), True


class RawAnswer(Vertical):
    HELP = (
        "**Answer**: the exact text the model returned (`r` toggles a re-indented view with the "
        "same characters). Marked: the decode error, both occurrences of a duplicate key, the "
        "member the current step reads; the current claim is shaded."
    )

    DEFAULT_CSS = """
    RawAnswer { height: 1fr; }
    """

    # Bound to the main screen's ``pretty`` (data_bind): raw or re-indented.
    pretty: var[bool] = var(False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._selection: Selection | None = None
        self._entry: object = None
        self._text = ""
        self._raw_bytes = False
        self._pretty: Pretty | None = None
        self._key: object = None

    def compose(self) -> ComposeResult:
        yield SafeTextView(wrap=True, line_numbers=True, id="answer-view")

    @property
    def view(self) -> SafeTextView:
        return self.query_one(SafeTextView)

    def on_resize(self, event: events.Resize) -> None:
        self.view.show_line_numbers(event.size.width >= NUMBERED)

    def watch_pretty(self) -> None:
        self._entry = None
        if self._selection is not None:
            self.show(self._selection)

    def show(self, selection: Selection) -> None:
        self._selection = selection
        entry = selection.report
        if entry is not self._entry:
            self._entry = entry
            self._key = None
            self._load(selection)
        spans = selection.answer_spans
        claim_span = selection.claim_span
        key = (spans, claim_span, selection.tone)
        if key == self._key:
            return
        self._key = key
        marks: list[Mark] = []
        if claim_span is not None:
            marks.append(self._mark(claim_span.start, claim_span.end, "safe-text--soft"))
        for span in spans:
            marks.append(self._mark(span.start, span.end, TEXT_HIGHLIGHT[selection.tone]))
        focus = marks[-1].start if marks else None
        if spans:
            focus = self._mark(spans[0].start, spans[0].end, "").start
        self.view.set_marks(marks, focus=focus)

    def _mark(self, start: int, end: int, component: str) -> Mark:
        if self._pretty is not None:
            start, end = self._pretty.span(start, end)
        return Mark(start, end, component)

    def _load(self, selection: Selection) -> None:
        case = selection.report.case
        view = self.view
        self._pretty = None
        if case is None:
            view.set_text("")
            return
        text, raw_bytes = _as_text(case.raw)
        note = None
        if self.pretty:
            if raw_bytes:
                note = "not UTF-8: shown raw"
            elif len(text) > PRETTY_LIMIT:
                note = "too long to re-indent: shown raw"
            else:
                self._pretty = reindent(text)
                if self._pretty is None:
                    note = "not a JSON object or array: shown raw"
        if self._pretty is not None:
            view.set_text(self._pretty.text)
        else:
            view.set_text(text, raw_bytes=raw_bytes, note=note)
        if not text:
            view.set_text("", note="(empty answer)")
