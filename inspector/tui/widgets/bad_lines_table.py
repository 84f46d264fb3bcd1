"""A triage's bad lines, a row each: file, line, reason and the line's start (``BadLinesTable``).

Reasons can quote the line, and the start is the line itself: untrusted text,
drawn through ``safe`` like every cell (bytes that are not UTF-8 as ``\\xNN``),
cut to the column.  A row's start is read when the row is first drawn
(``presentation.records.BadLineStarts``: a few hundred bytes a line at most).
"""

from __future__ import annotations

from pathlib import Path

from ...presentation.records import BadLineStarts
from .. import keys, safe
from ..tones import TABLE, Tone
from .table import Cell, Column, CursorTable, Piece

__all__ = ["BadLinesTable"]

_ESCAPE = "safe-table--escape"
_NOTE = TABLE[Tone.MUTED]


class BadLinesTable(CursorTable):
    BINDINGS = keys.bindings("bad", on="table")
    COLUMNS = (
        Column("file", "file", min_width=8, weight=1),
        Column("line", "line", width=9, justify="right"),
        Column("reason", "reason", min_width=20, weight=4),
        Column("start", "the line starts", min_width=16, weight=3),
    )

    def __init__(self, bad: list[tuple[str, int, str]], starts: BadLineStarts | None = None, *,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.bad = bad
        self.starts = starts
        # A log's name, when that tells the logs apart (the title has their paths).
        files = {file for file, _, _ in bad}
        names = {file: Path(file).name for file in files}
        self.shown = names if len(set(names.values())) == len(files) else {file: file for file in files}
        self.set_columns(self.COLUMNS if starts is not None else self.COLUMNS[:3])
        self.empty_message = "no bad line"
        self.cursor = 0 if bad else None
        self.set_row_count(len(bad))

    def cell(self, row: int, column: Column) -> Cell:
        file, line, reason = self.bad[row]
        if column.key == "file":
            return self.shown[file]
        if column.key == "line":
            return (f"{line:,}", TABLE[Tone.MUTED])
        if column.key == "start":
            return self._start(row)
        return reason

    def _start(self, row: int) -> list[Piece]:
        assert self.starts is not None
        start = self.starts[row]
        if start.problem is not None:
            return [(start.problem, _NOTE)]
        if not start.text.strip(" "):  # spaces alone show as nothing
            return [(f"({len(start.text):,} spaces)" if start.text else "(empty)", _NOTE)]
        pieces: list[Piece] = [(piece, _ESCAPE if escaped else None)
                               for piece, escaped in safe.pieces(start.text, raw_bytes=True)]
        if start.cut:
            pieces.append(("…", _NOTE))
        return pieces
