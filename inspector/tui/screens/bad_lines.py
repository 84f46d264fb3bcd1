"""A triage's bad lines: file, line and reason, one row each (``BadLinesScreen``).

The lines that are not records (not JSON, not an object, ``raw`` or ``request``
missing or unusable, ...) are counted as their own group; Enter on it in the
overview lists every one here, as the engine found them, in order.  Reasons can
quote the line: untrusted text, drawn through ``safe`` like every cell.
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer

from .. import keys, safe
from ..tones import TABLE, Tone
from ..widgets.table import Cell, Column, SafeTable

__all__ = ["BadLinesScreen", "BadLinesTable"]


class BadLinesTable(SafeTable):
    COLUMNS = (
        Column("file", "file", min_width=10, weight=1),
        Column("line", "line", width=9, justify="right"),
        Column("reason", "reason", min_width=20, weight=4),
    )

    def __init__(self, bad: list[tuple[str, int, str]], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.bad = bad
        # A log's name, when that tells the logs apart (the title has their paths).
        files = {file for file, _, _ in bad}
        names = {file: Path(file).name for file in files}
        self.shown = names if len(set(names.values())) == len(files) else {file: file for file in files}
        self.set_columns(self.COLUMNS)
        self.empty_message = "no bad line"
        self.cursor = 0 if bad else None
        self.set_row_count(len(bad))

    def cell(self, row: int, column: Column) -> Cell:
        file, line, reason = self.bad[row]
        if column.key == "file":
            return self.shown[file]
        if column.key == "line":
            return (f"{line:,}", TABLE[Tone.MUTED])
        return reason


class BadLinesScreen(Screen[None]):
    DEFAULT_CSS = """
    BadLinesScreen { layout: vertical; }
    BadLinesScreen > #bad-panel {
        border-top: solid $primary-muted;
        border-title-color: $text-primary;
        border-title-style: bold;
        padding: 0 1;
        height: 1fr;
    }
    """

    BINDINGS = keys.bindings("bad")

    def __init__(self, bad: list[tuple[str, int, str]]) -> None:
        super().__init__()
        self.bad = bad

    def compose(self) -> ComposeResult:
        with Vertical(id="bad-panel"):
            yield BadLinesTable(self.bad, id="bad-lines")
        yield Footer()

    def on_mount(self) -> None:
        count = len(self.bad)
        files = ", ".join(dict.fromkeys(file for file, _, _ in self.bad))
        self.query_one("#bad-panel").border_title = Content.assemble(
            f"bad lines · {count:,} (counted, never dropped) · ", safe.content(files))

    def action_cursor(self, step: int) -> None:
        table = self.query_one(BadLinesTable)
        if table.bad:
            table.move_cursor(max(0, min((table.cursor or 0) + step, len(table.bad) - 1)))
