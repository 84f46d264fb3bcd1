"""A triage's bad lines: file, line, reason and how the line starts, one row each (``BadLinesScreen``).

The lines that are not records (not JSON, not an object, ``raw`` or ``request``
missing or unusable, ...) are counted as their own group; Enter on it in the
overview lists them here, as the engine found them, in order: the first 1,000
(``tally.BAD_KEPT``; the title says how many more, and ``inspector triage
--summary --bad-lines FILE`` writes every one).  Each row's start is read from
its log as the row is drawn (``presentation.records.BadLineStarts``, a few
hundred bytes at most).  Reasons can quote the line and the start is the line:
untrusted text, drawn through ``safe`` like every cell.  The selected line's whole
reason is under the table; ``l`` (or Enter) shows the whole line, as ``l`` on a
record does (``LogLineScreen``: escaped, the first ``records.LINE_BYTES``).
"""

from __future__ import annotations

from functools import partial

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from ...presentation.records import BadLineStarts, bad_line
from .. import keys, safe
from ..tones import TEXT, Tone
from ..widgets.bad_lines_table import BadLinesTable
from ..widgets.footer import KeysFooter
from .log_line import show_log_line
from ..widgets.table import CursorTable

__all__ = ["BadLinesScreen"]


class BadLinesScreen(Screen[None]):
    BINDINGS = keys.bindings("bad")

    def __init__(self, bad: list[tuple[str, int, str]], counted: int | None = None,
                 starts: BadLineStarts | None = None) -> None:
        super().__init__()
        self.bad = bad
        self.counted = max(len(bad), counted or 0)  # every bad line, listed or not
        self.starts = starts

    def compose(self) -> ComposeResult:
        with Vertical(id="bad-panel"):
            yield BadLinesTable(self.bad, self.starts, id="bad-lines")
            yield Static("", id="bad-reason")
        yield KeysFooter()

    def on_mount(self) -> None:
        count = len(self.bad)
        files = ", ".join(dict.fromkeys(file for file, _, _ in self.bad))
        listed = "" if self.counted == count else \
            f"the first {count:,} listed (inspector triage --summary --bad-lines FILE writes every one) · "
        self.query_one("#bad-panel").border_title = Content.assemble(
            f"bad lines · {self.counted:,} (counted, never dropped) · {listed}", safe.content(files))
        self._show_reason()

    @on(CursorTable.CursorMoved)
    def _show_reason(self) -> None:
        """The selected line's whole reason (the table cuts it to its column): untrusted, it can quote the line."""
        row = self.query_one(BadLinesTable).cursor
        line = Content("") if row is None else Content.assemble(
            ("reason: ", TEXT[Tone.MUTED]), safe.content(self.bad[row][2]), (" · l: the whole line", TEXT[Tone.MUTED]))
        self.query_one("#bad-reason", Static).update(line)

    def action_log_line(self) -> None:
        """The selected bad line's whole text, reread from its log, its reason above it (a log changed since it
        was counted, or a line that cannot be read: said instead)."""
        row = self.query_one(BadLinesTable).cursor
        if row is None or self.starts is None:
            return
        show_log_line(self, partial(bad_line, self.starts, row), "this line", self.bad[row][2])
