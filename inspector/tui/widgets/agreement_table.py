"""The summary's agreement section: people's claim labels against the label lens,
and against the contract, as confusion matrices (rows: people); one cell is
current, and Enter lists the cases behind it (``presentation.review_view``)."""

from __future__ import annotations

from ...presentation.review_view import AgreementCell, AgreementSection
from textual.message import Message

from .. import keys
from ..tones import TABLE, Tone
from .table import Cell, Column, CursorTable

__all__ = ["AgreementTable"]

_WIDTH = 14


class AgreementTable(CursorTable):
    """Each section is a row of column titles, then a row per person's label; a cell is current.

    It has the focus while a cell is current (the summary moves it here, ``j`` past its table's last row)
    and binds the summary's movement keys (``CursorTable``: over the people's rows, the titles' rows
    passed) and ``h``/``l`` across the columns; ``k`` above the first posts ``PastStart`` (the summary's
    table takes the cursor back)."""

    BINDINGS = keys.bindings("summary", on="matrix")

    DEFAULT_CSS = """
    AgreementTable { height: auto; max-height: 9; }
    """
    show_header = False

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        # Each drawn row: (the section, the person's label row's index, or None for the titles row).
        self.layout_rows: list[tuple[AgreementSection, int | None]] = []
        self.column = 0  # the current cell's column, when the cursor is in the matrix
        self.set_columns((Column("human", "", width=22), *(Column(f"c{i}", "", width=_WIDTH, justify="right")
                                                           for i in range(3))))

    class PastStart(Message):
        """``k`` on the first row of cells."""

    @property
    def current(self) -> tuple[int, int] | None:
        """The current cell (table row, column), when the cursor is in the matrix."""
        return None if self.cursor is None else (self.cursor, self.column)

    def allow_focus(self) -> bool:
        return self.cursor is not None

    def stops(self) -> list[int]:
        return self.selectable

    def action_cursor_up(self) -> None:
        if self.cursor is not None and self.cursor == self.within(0):
            self.post_message(self.PastStart())
        else:
            super().action_cursor_up()

    def action_column(self, step: int) -> None:
        if self.cursor is not None:
            self.move_to(self.cursor, self.column + step)

    def set_sections(self, sections: tuple[AgreementSection, ...]) -> None:
        self.layout_rows = [(section, index) for section in sections
                            for index in (None, *range(len(section.rows)))]
        self.cursor = None
        self.set_row_count(len(self.layout_rows))

    @property
    def selectable(self) -> list[int]:
        """The table rows with cells (a person's label), in order."""
        return [row for row, (_, index) in enumerate(self.layout_rows) if index is not None]

    def current_cell(self) -> AgreementCell | None:
        if self.current is None:
            return None
        row, column = self.current
        section, index = self.layout_rows[row]
        assert index is not None
        return section.rows[index][1][column]

    def move_to(self, row: int, column: int) -> None:
        """Make a cell current (its column kept within its section's)."""
        section, _ = self.layout_rows[row]
        self.column = max(0, min(column, len(section.columns) - 1))
        self.refresh_rows([row])
        self.move_cursor(row)

    def leave(self) -> None:
        self.move_cursor(None)

    def _key_moved(self, row: int, toward: int) -> None:
        """A row moved to by a key keeps the column (within the row's section)."""
        super()._key_moved(row, toward)
        if self.cursor is not None:
            self.move_to(self.cursor, self.column)

    def row_style(self, row: int) -> str | None:
        return None

    def cell(self, row: int, column: Column) -> Cell:
        section, index = self.layout_rows[row]
        if column.key == "human":
            if index is None:
                return (f"person ↓ {section.rater} →", TABLE[Tone.MUTED])
            return (section.rows[index][0], None)
        position = int(column.key[1:])
        if position >= len(section.columns):
            return None
        if index is None:
            return (section.columns[position], TABLE[Tone.MUTED])
        cell = section.rows[index][1][position]
        if not cell.count:
            return ("·", TABLE[Tone.PENDING])
        return (str(cell.count), TABLE[Tone.GOOD if cell.agreed else Tone.BAD])

    def cell_style(self, row: int, column: Column) -> str | None:
        if self.current is not None and self.current[0] == row and column.key == f"c{self.current[1]}":
            return "safe-table--cursor"
        return None
