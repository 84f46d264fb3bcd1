"""The mutation report's rows, or one row's list of mutants (``ReportTable``).

A click posts ``SafeTable.RowClicked``; the report screen selects or opens the row.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...presentation.bars import bar
from ...presentation.mutation_report import Item, ReportRow, mutant_tone
from .. import keys
from ..tones import TABLE, Tone
from .table import Cell, Column, CursorTable, SafeTable

__all__ = ["ReportTable"]


class ReportTable(CursorTable):
    """The report's rows, or one row's list of mutants."""

    BINDINGS = keys.bindings("mutation_report", on="table")

    DEFAULT_CSS = """
    ReportTable > .report-table--bar { color: $primary; }
    """
    COMPONENT_CLASSES = SafeTable.COMPONENT_CLASSES | {"report-table--bar"}

    REPORT_COLUMNS = (
        Column("section", "", width=9),
        Column("label", "", width=28),
        Column("what", "", min_width=12),
        Column("count", "mutants", width=8, justify="right"),
        Column("note", "", width=26),
    )
    # A list of mutants: the claim each changed where the report's rows have their count.
    LIST_COLUMNS = (
        Column("section", "", width=9),
        Column("label", "case", width=28),
        Column("what", "mutation", min_width=12),
        Column("count", "claim", width=8, justify="right"),
        Column("note", "verdict", width=26),
    )

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.items: Sequence[Item] = ()  # the report's rows, or a row's mutants
        self.sections: dict[int, str] = {}
        self.set_columns(self.REPORT_COLUMNS)
        self.empty_message = "computing the mutation report…"

    def set_items(self, items: Sequence[Item], sections: dict[int, str], cursor: int | None, *,
                  listing: bool) -> None:
        self.items, self.sections = items, sections
        columns = self.LIST_COLUMNS if listing else self.REPORT_COLUMNS
        if self.columns != columns:
            self.set_columns(columns)
        self.cursor = None
        self.set_row_count(len(items))
        self.refresh_all()
        if items:
            self.go_to(cursor or 0)
            self.scroll_to_row(self.cursor or 0, center=True)

    def cell(self, row: int, column: Column) -> Cell:
        item = self.items[row]
        key = column.key
        if key == "section":
            return (self.sections.get(row, ""), TABLE[Tone.MUTED])
        if isinstance(item, ReportRow):
            return self._row_cell(item, key)
        if key == "label":
            return item.case
        if key == "what":
            return item.mutant.name
        if key == "count":
            claim = item.mutant.claim
            return (f"[{claim}]", TABLE[Tone.MUTED]) if claim is not None and self.columns is self.LIST_COLUMNS \
                else None
        return (item.outcome, TABLE[mutant_tone(item)])

    def _row_cell(self, item: ReportRow, key: str) -> Cell:
        if key == "label":
            return item.label
        if key == "what":
            if item.what:
                return (item.what, TABLE[Tone.BAD])
            width = self._widths[2] if len(self._widths) > 2 else 20
            return (bar(item.count, item.total, width), "report-table--bar")
        if key == "count":
            return (str(item.count), None) if item.count else ("·", TABLE[Tone.PENDING])
        return (item.note, TABLE[Tone.WARN]) if item.note else None
