"""The pivot view's pairs (``PivotTable``): the two values, the records, their
share of the first value's records, the rejected and their share.  Values come
from the log (scopes, metadata): untrusted, drawn through ``safe`` like every
cell."""

from __future__ import annotations

from rich.cells import cell_len
from textual.message import Message

from ...triage.pivot import PivotCell
from .. import keys
from ..tones import TABLE, Tone
from .growing_table import GrowingTable
from .table import Cell, Column, CursorTable, SafeTable

__all__ = ["PivotTable"]


class PivotTable(CursorTable, GrowingTable):
    """A pivot's pairs, a row each."""

    HELP = (
        "**Pivot**: each pair of values of the two dimensions with its records, their share of the first value's "
        "records (`of A`: which share of one model's answers failed at each check, with `model,check`), and how "
        "many of them the contract rejected (`✗` and their share)."
    )
    BINDINGS = keys.bindings("pivot", on="table")
    reserve = 64

    COLUMNS = (
        Column("a", "", min_width=12, cut="middle"),
        Column("b", "", min_width=12, cut="middle"),
        Column("records", "records", width=9, justify="right"),
        Column("share", "of A", width=7, justify="right"),
        Column("rejected", "rejected", width=14, justify="right"),
    )

    class Moved(Message):
        """The cursor is on another pair (or on none)."""

        def __init__(self, cell: PivotCell | None) -> None:
            super().__init__()
            self.cell = cell

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cells: list[PivotCell] = []
        self.keys: tuple[str, str] = ("", "")
        self._widest = (0, 0)
        self.set_columns(self.COLUMNS)
        self.empty_message = "no records counted yet"

    def set_cells(self, cells: list[PivotCell], keys: tuple[str, str]) -> None:
        """Show these pairs, the cursor staying on the same pair when it is still there."""
        current = self.current
        self.cells = cells
        cursor = next((row for row, cell in enumerate(cells)
                       if current is not None and (cell.a, cell.b) == (current.a, current.b)), None)
        self.cursor = cursor if cursor is not None else (0 if cells else None)
        widest = (max((cell_len(cell.a) for cell in cells), default=0), max((cell_len(cell.b) for cell in cells),
                                                                           default=0))
        if keys != self.keys or widest != self._widest:
            self.keys, self._widest = keys, widest
            _, _, records, _, rejected = self.COLUMNS
            # The values' columns titled by their dimensions, sharing the width the counts leave in proportion
            # to what their values need (a minimum each, not each its need: the counts would be pushed out).
            self.set_columns((Column("a", keys[0], min_width=12, weight=max(1, widest[0]), cut="middle"),
                              Column("b", keys[1], min_width=12, weight=max(1, widest[1]), cut="middle"),
                              records, Column("share", f"of {keys[0]}", width=max(7, min(len(keys[0]) + 3, 14)),
                                              justify="right", cut="middle"), rejected))
        self.set_row_count(len(cells))
        if self.cursor is not None:
            self.scroll_to_row(self.cursor)
        if current is None or self.current is None or (current.a, current.b) != (self.current.a, self.current.b):
            self.post_message(self.Moved(self.current))

    def move_cursor(self, row: int | None, *, scroll: bool = True) -> None:
        moved = row != self.cursor
        super().move_cursor(row, scroll=scroll)
        if moved:
            self.post_message(self.Moved(self.current))

    @property
    def current(self) -> PivotCell | None:
        return self.cells[self.cursor] if self.cursor is not None and self.cursor < len(self.cells) else None

    def cell(self, row: int, column: Column) -> Cell:
        found = self.cells[row]
        key = column.key
        if key == "a":
            return found.a  # untrusted: scopes and metadata come from the log
        if key == "b":
            return found.b
        if key == "records":
            return (f"{found.records:,}", None)
        if key == "share":
            return (f"{100 * found.share:.1f}%", TABLE[Tone.MUTED])
        if not found.rejected:
            return ("·", TABLE[Tone.PENDING])
        return (f"✗ {found.rejected:,} {100 * found.rejected_rate:.0f}%", TABLE[Tone.BAD])

    def on_safe_table_row_clicked(self, event: SafeTable.RowClicked) -> None:
        event.stop()
        self.move_cursor(event.row)
