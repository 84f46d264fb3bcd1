"""The suite summary's rows (``SummaryTable``): a rung or a check a row, its bar,
n/N and its first failures.  A click posts ``SafeTable.RowClicked``; the summary
lists the row's cases."""

from __future__ import annotations

from dataclasses import dataclass

from ...presentation.bars import bar
from textual.message import Message

from .. import keys
from ..tones import TABLE, Tone
from .table import Cell, Column, CursorTable, SafeTable

__all__ = ["Row", "SummaryTable"]


@dataclass(frozen=True, slots=True)
class Row:
    stage: str
    label: str
    passed: int
    total: int
    failed: int | None  # first failures at this check (None for the baselines)
    cases: tuple[int, ...]  # the cases Enter lists
    description: str
    danger: bool = False  # a count that should be zero: its bar in the error colour


class SummaryTable(CursorTable):
    """The summary's rows; ``j`` on the last one posts ``PastEnd`` (the screen moves into the agreement's
    matrices, when there are some)."""

    BINDINGS = keys.bindings("summary", on="table")
    DEFAULT_CSS = """
    SummaryTable > .summary-table--bar { color: $primary; }
    """
    COMPONENT_CLASSES = SafeTable.COMPONENT_CLASSES | {"summary-table--bar"}

    COLUMNS = (
        Column("stage", "", width=8),
        Column("label", "rung", width=24),
        Column("bar", "passed", min_width=10),
        Column("count", "n/N", width=9, justify="right"),
        Column("failed", "first fail", width=10, justify="right"),
    )

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[Row] = []
        self.set_columns(self.COLUMNS)
        self.empty_message = "computing verdicts…"

    class PastEnd(Message):
        """``j`` on the last row."""

    def action_cursor_down(self) -> None:
        if self.cursor is not None and self.cursor == self.row_count - 1:
            self.post_message(self.PastEnd())
        else:
            super().action_cursor_down()

    def set_summary_rows(self, rows: list[Row]) -> None:
        self.rows = rows
        self.cursor = 0 if rows else None
        self.set_row_count(len(rows))

    def cell(self, row: int, column: Column) -> Cell:
        data = self.rows[row]
        key = column.key
        if key == "stage":
            return (data.stage, TABLE[Tone.MUTED])
        if key == "label":
            return (data.label, None)
        if key == "bar":
            width = self._widths[2] if len(self._widths) > 2 else 20
            style = (TABLE[Tone.BAD] if data.danger
                     else TABLE[Tone.GOOD] if data.failed is None else "summary-table--bar")
            return (bar(data.passed, data.total, width), style)
        if key == "count":
            return (f"{data.passed}/{data.total}", None)
        if data.failed is None:
            return None
        return (f"✗ {data.failed}", TABLE[Tone.BAD]) if data.failed else ("·", TABLE[Tone.PENDING])
