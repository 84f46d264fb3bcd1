"""A triage's bad lines, a row each: file, line and reason (``BadLinesTable``).

Reasons can quote the line: untrusted text, drawn through ``safe`` like every cell.
"""

from __future__ import annotations

from pathlib import Path

from ..tones import TABLE, Tone
from .table import Cell, Column, SafeTable

__all__ = ["BadLinesTable"]


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
