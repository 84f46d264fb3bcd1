"""The pivot view's grid (``PivotTable``): the first dimension's values down, the
second's across (``presentation.pivot_view.PivotGrid``), each cell the pair's
share of its row and its records, as VisiData's pivot and a spreadsheet show
them.  The cursor is a cell: j/k move it a row, h/l a column; the row names and
their records stay put while the grid scrolls sideways.  Values come from the
log (scopes, metadata): untrusted, drawn through ``safe`` like every cell (a
column's title too, made visible)."""

from __future__ import annotations

from rich.cells import cell_len
from textual.message import Message

from ...contract.text import visible
from ...presentation.pivot_view import PivotGrid, grid_words
from ...triage.pivot import PivotCell
from .. import keys
from ..tones import TABLE, Tone
from .table import Cell, Column, CursorTable, SafeTable

__all__ = ["PivotTable"]

# A column of the second dimension is at most this wide (its title cut in the middle past it).
COLUMN_CELLS = 24
# The row names' column: at most this wide (cut in the middle past it), at least ROW_LEAST.
ROW_CELLS = 32
ROW_LEAST = 12


class PivotTable(CursorTable):
    """A pivot as a grid: a row per value of the first dimension, a column per value of the second."""

    HELP = (
        "**Pivot**: the first dimension's values down, the second's across (models down, checks across with "
        "`model,check`); each cell is the pair's share of its row's records and its records (`41.2% 36`: which "
        "share of one model's answers failed at each check), `·` where none; `records` is the row's, and "
        "`✗` its rejected share. h/l (←/→) move across, j/k down; the row names stay while the grid scrolls "
        "sideways; Enter opens the cell's records."
    )
    BINDINGS = keys.bindings("pivot", on="table")
    fixed_columns = 3  # the row's name, records and rejected share stay put when the grid scrolls sideways

    class Moved(Message):
        """The cursor is on another cell (``cell`` None: no record has both values), or on none."""

        def __init__(self, names: tuple[str, str] | None, cell: PivotCell | None) -> None:
            super().__init__()
            self.names = names
            self.cell = cell

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.grid = PivotGrid(("", ""), (), (), {}, {}, {})
        self.column = 0  # the cursor's column: a value of the second dimension
        self.empty_message = "no records counted yet"

    @property
    def cells(self) -> list[PivotCell]:
        """Every pair of the grid, row by row, column by column."""
        grid = self.grid
        return [grid.cells[a, b] for a in grid.rows for b in grid.columns if (a, b) in grid.cells]

    def set_grid(self, grid: PivotGrid) -> None:
        """Show this grid, the cursor staying on the same two values while they are there."""
        before = self.names
        self.grid = grid
        row = grid.rows.index(before[0]) if before is not None and before[0] in grid.rows else 0
        column = grid.columns.index(before[1]) if before is not None and before[1] in grid.columns else 0
        self.cursor = row if grid.rows else None
        self.column = column
        widest = max((cell_len(a) for a in grid.rows), default=0)
        names = Column("a", visible(grid.keys[0]), width=max(ROW_LEAST, min(widest, ROW_CELLS)), cut="middle")
        across = [Column(f"b{at}", visible(b), justify="right", cut="middle",
                         width=max(6, min(cell_len(visible(b)), COLUMN_CELLS),
                                   *(len(grid_words(grid.cells.get((a, b)))) for a in grid.rows)))
                  for at, b in enumerate(grid.columns)]
        self.set_columns((names, Column("records", "records", width=9, justify="right"),
                          Column("rejected", "✗", width=6, justify="right"), *across))
        self.set_row_count(len(grid.rows))
        if self.cursor is not None:
            self.scroll_to_row(self.cursor)
            self.scroll_to_column(f"b{self.column}")
        if self.names != before:
            self.post_message(self.Moved(self.names, self.current))

    @property
    def names(self) -> tuple[str, str] | None:
        """The two values under the cursor."""
        grid = self.grid
        if self.cursor is None or self.cursor >= len(grid.rows) or not grid.columns:
            return None
        return grid.rows[self.cursor], grid.columns[min(self.column, len(grid.columns) - 1)]

    @property
    def current(self) -> PivotCell | None:
        """The pair under the cursor (None where no record has both values)."""
        return self.grid.at(self.cursor, self.column) if self.cursor is not None else None

    def cursor_changed(self) -> None:
        self.post_message(self.Moved(self.names, self.current))

    def move_column(self, column: int) -> None:
        """Put the cursor on another column (kept within the columns), in view."""
        column = max(0, min(column, len(self.grid.columns) - 1))
        if column == self.column:
            return
        self.column = column
        self.refresh_rows((self.cursor,))
        self.scroll_to_column(f"b{column}")
        self.cursor_changed()

    def scroll_to_column(self, key: str) -> None:
        """Bring a column of the second dimension into view, the grid scrolled by whole columns (a column cut
        at the left edge would show the tail of its title and of its cells)."""
        self._ensure_layout()
        keys = [column.key for column in self.columns]
        if key not in keys or len(self._widths) <= self.fixed_columns:
            return
        at, first = keys.index(key), self.fixed_columns
        origin = self._starts[first]  # where the scrolled columns start: scroll_x 0
        view = self.scrollable_content_region.width - origin
        left = int(self.scroll_offset.x)
        start, end = self._starts[at] - origin, self._starts[at] - origin + self._widths[at]
        if start < left or view <= 0:
            self.scroll_to(x=start, animate=False, immediate=True)
        elif end > left + view:  # the first whole column from which this one is in view
            lo = next((column for column in range(first, at + 1) if end - (self._starts[column] - origin) <= view),
                      at)
            self.scroll_to(x=self._starts[lo] - origin, animate=False, immediate=True)

    def action_cursor_left(self) -> None:
        self.move_column(self.column - 1)

    def action_cursor_right(self) -> None:
        self.move_column(self.column + 1)

    def row_style(self, row: int) -> str | None:
        return "safe-table--marked" if row == self.cursor else None

    def cell_style(self, row: int, column: Column) -> str | None:
        if row == self.cursor and column.key in ("a", f"b{self.column}"):
            return "safe-table--cursor"
        return None

    def cell(self, row: int, column: Column) -> Cell:
        grid = self.grid
        a = grid.rows[row]
        key = column.key
        if key == "a":
            return a  # untrusted: scopes and metadata come from the log
        total = grid.totals[a]
        if key == "records":
            return (f"{total:,}", None)
        if key == "rejected":
            rejected = grid.rejected[a]
            return (f"{100 * rejected / total:.0f}%", TABLE[Tone.BAD]) if rejected and total else \
                ("·", TABLE[Tone.PENDING])
        found = grid.cells.get((a, grid.columns[int(key[1:])]))
        words = grid_words(found)
        return (words, TABLE[Tone.PENDING]) if found is None else (words, None)

    def on_safe_table_row_clicked(self, event: SafeTable.RowClicked) -> None:
        event.stop()
        self.move_cursor(event.row)
