"""The mutation menu's rows (``MutationTable``): a mutation a row, those with no
variant here greyed.  A click posts ``SafeTable.RowClicked``; the menu applies."""

from __future__ import annotations

from collections.abc import Sequence

from ...presentation.mutation_menu import MenuRow
from .table import Cell, Column, CursorTable

__all__ = ["MutationTable"]


class MutationTable(CursorTable, can_focus=False):
    """The menu's rows; the ones with no variant here greyed.  Its cursor moves by its own actions
    (``CursorTable``), which the menu's arrows run: the menu's filter field keeps the focus."""

    COLUMNS = (
        Column("name", "mutation", width=20),
        Column("title", "what it changes", min_width=12, weight=2),
        Column("meant", "meant to trip", width=22),
        Column("variants", "variants", width=8, justify="right"),
    )

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: tuple[MenuRow, ...] = ()
        self.set_columns(self.COLUMNS)
        self.empty_message = "no mutation matches"

    def set_menu_rows(self, rows: Sequence[MenuRow]) -> None:
        self.rows = tuple(rows)
        self.cursor = 0 if rows else None
        self.set_row_count(len(rows))
        self.refresh_all()
        if rows:
            self.scroll_to_row(0)

    def cell(self, row: int, column: Column) -> Cell:
        data = self.rows[row]
        dim = None if data.applies else "safe-table--dim"
        key = column.key
        if key == "name":
            return (data.name, dim)
        if key == "title":
            return (data.mutation.title, dim)
        if key == "meant":
            return (data.mutation.meant, dim or (None if data.mutation.check else "safe-table--note"))
        return (data.count, dim)

    def row_style(self, row: int) -> str | None:
        if row == self.cursor:
            return "safe-table--cursor"
        return None
