"""A triage's bad lines: file, line, reason and how the line starts, one row each (``BadLinesScreen``).

The lines that are not records (not JSON, not an object, ``raw`` or ``request``
missing or unusable, ...) are counted as their own group; Enter on it in the
overview lists them here, as the engine found them, in order: the first 1,000
(``tally.BAD_KEPT``; the title says how many more, and ``inspector triage
--summary --bad-lines FILE`` writes every one).  Each row's start is read from
its log as the row is drawn (``presentation.records.BadLineStarts``, a few
hundred bytes at most).  Reasons can quote the line and the start is the line:
untrusted text, drawn through ``safe`` like every cell.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen

from ...presentation.records import BadLineStarts
from .. import keys, safe
from ..widgets.bad_lines_table import BadLinesTable
from ..widgets.footer import KeysFooter

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
        yield KeysFooter()

    def on_mount(self) -> None:
        count = len(self.bad)
        files = ", ".join(dict.fromkeys(file for file, _, _ in self.bad))
        listed = "" if self.counted == count else \
            f"the first {count:,} listed (inspector triage --summary --bad-lines FILE writes every one) · "
        self.query_one("#bad-panel").border_title = Content.assemble(
            f"bad lines · {self.counted:,} (counted, never dropped) · {listed}", safe.content(files))
