"""The raw answer editor (``E``): the answer's text in a TextArea, verified as you type.

The TextArea holds the answer's editable form (``presentation.raw_form``): the
answer itself, but for its control and invisible characters, written
``\\u{XXXX}``, so that nothing reaches the terminal raw and the text reads back
to the very answer.  Every edit verifies the text again (the same ``verify``,
through the frozen case's report, so the status line says what the verdict panel
would: "was ACCEPT, now INVALID_JSON/SYNTAX"), and the first failure's place in
the answer (a decoding error's position, the member a check compared, both
occurrences of a duplicate key) is marked in the text.

The text is given to the TextArea once, when it is built, and changed only by
editing it (typing, ``replace``, ``insert``): assigning ``text`` would drop the
TextArea's own undo history (^z, ^y).  ^s dismisses the screen with the change
(``presentation.editors.raw_edit``); Esc closes it without one (with unapplied edits,
the first Esc says so and the second discards them).
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import TextArea
from textual.widgets.text_area import Location

from ...contract.text import line_col, shorten
from ...lab.history import Change
from ...presentation.editors import raw_edit
from ...presentation.leaving import Held
from ...presentation.raw_form import EditableForm, read_form, to_form
from ...reports.case import CaseReport
from ..widgets.footer import KeysFooter
from .. import keys, safe
from ..tones import TEXT, Tone, strong
from ..widgets.editor_status import EditorStatus
from ..widgets.raw_text_area import RawTextArea

__all__ = ["RawEditorScreen"]

# Measured (benchmarks/bench_tui.py, "raw editor"): verifying an answer of normal
# size takes well under a millisecond, so it happens on the keystroke; a form
# longer than this (thousands of escapes: 15-30 ms at 8,000, 60-115 ms at 50,000) is
# verified once the keystroke has been drawn, the latest text only.
VERIFY_AT_ONCE = 32_768
# TextArea wraps a line by dividing all of it for every row it draws: a line
# longer than this is not wrapped (a 24 KB one-line answer: 79 ms a keystroke
# wrapped, 27 ms not).
WRAP_AT_MOST = 4_096


class RawEditorScreen(Screen[Change | None]):
    BINDINGS = keys.bindings("raw_editor")
    AUTO_FOCUS = "#raw-text"

    def __init__(self, frozen: CaseReport, raw: str) -> None:
        """Edit ``raw`` (the case's answer as shown now) of the case whose frozen report is ``frozen``."""
        super().__init__()
        self.frozen = frozen
        self.original = raw
        self.form: EditableForm = to_form(raw)
        self.raw = raw
        self.report: CaseReport | None = None
        self._warned = False
        self._pending = False  # a verification is due once the screen has been drawn

    def compose(self) -> ComposeResult:
        with Vertical(id="raw-panel"):
            yield EditorStatus(id="raw-status")
            # The text is set here, once: assigning it later would drop the undo history.
            wrap = max(map(len, self.form.text.split("\n"))) <= WRAP_AT_MOST
            editor = RawTextArea(self.form.text, id="raw-text", soft_wrap=wrap, show_line_numbers=True,
                                 highlight_cursor_line=False)
            # Matching brackets walks the text from the cursor, on every move: not in a long answer.
            editor.match_cursor_bracket = len(self.form.text) <= VERIFY_AT_ONCE
            yield editor
        yield KeysFooter()

    def on_mount(self) -> None:
        unwrapped = "" if self.editor.soft_wrap else f" · lines over {WRAP_AT_MOST:,} characters are not wrapped"
        self.query_one("#raw-panel").border_title = Content.assemble(
            "raw answer · ", safe.content(self.frozen.id, "bold"),
            (f" · ^s applies · Esc closes · \\u{{1b}} writes an ESC{unwrapped}", "$text-muted"))
        self._verify()

    @property
    def editor(self) -> RawTextArea:
        return self.query_one(RawTextArea)

    @property
    def edited(self) -> bool:
        return self.raw != self.original

    # -- verifying as you type -------------------------------------------------------

    @on(TextArea.Changed)
    def _changed(self, event: TextArea.Changed) -> None:
        self._warned = False
        if len(self.form.text) <= VERIFY_AT_ONCE:
            self._verify()
        elif not self._pending:
            self._pending = True
            self.call_after_refresh(self._verify)

    def _verify(self) -> None:
        self._pending = False
        editor = self.editor
        self.raw, self.form = read_form(editor.text)
        report = self.report = self.frozen.edited(self.raw, ())
        step = report.first_failure
        marks: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = ()
        where = ""
        if step is not None and step.answer_span is not None:
            spans = (step.answer_span, *step.related_spans)
            marks = tuple((self._location(span.start), self._location(span.end)) for span in spans)
            row, column = marks[0][0]
            where = f" at {row + 1}:{column + 1}"
        editor.set_marks(marks)
        self._show_status(report, step.explanation if step is not None else None, where)

    def _location(self, answer_offset: int) -> Location:
        """The editor's (row, column) of a character offset in the answer."""
        line, column = line_col(self.form.text, self.form.offset(answer_offset))
        return line - 1, column - 1

    def _show_status(self, report: CaseReport, explanation: str | None, where: str) -> None:
        comparison = report.comparison
        headline = comparison.headline if comparison is not None else report.actual
        tone = Tone.GOOD if report.actual == "ACCEPT" else Tone.BAD
        parts: list[Content | tuple[str, str]] = [(headline, strong(tone))]
        if where:
            parts.append((where, "bold"))
        if explanation:
            parts += [(" · ", TEXT[Tone.MUTED]), safe.content(shorten(explanation, 160), TEXT[Tone.MUTED])]
        content = Content.assemble(*parts)
        if self._warned:
            content = Content("\n").join([Content.styled("unapplied edits: Esc again discards them, ^s applies them",
                                                          strong(Tone.WARN)), content])
        self.query_one(EditorStatus).show(content)

    # -- keys ------------------------------------------------------------------------

    def action_apply(self) -> None:
        change = raw_edit(self.original, self.raw)
        if change is None:
            self.notify("nothing changed: the answer stays as it was", markup=False, timeout=2)
        self.dismiss(change)

    def held(self, quitting: bool) -> Held:
        """The text typed and not applied (Esc asks on its own; q types, so this is quitting's, ^q)."""
        return Held(others=("the raw editor's edits, not applied",)) if self.edited else Held()

    def action_cancel(self) -> None:
        if self.edited and not self._warned:
            self._warned = True
            self._verify()
            return
        self.dismiss(None)

    def action_undo_text(self) -> None:
        self.editor.undo()

    def action_redo_text(self) -> None:
        self.editor.redo()
