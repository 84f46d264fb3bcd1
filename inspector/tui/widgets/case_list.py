"""The case list: every case of the loaded suites, its frozen label and its verdict."""

from __future__ import annotations

from bisect import bisect_left

from textual import events

from ..messages import CaseChosen
from ..session import Session
from .table import Cell, Column, Piece, SafeTable, untrusted

__all__ = ["CaseList", "short_label"]


def short_label(label: str | None) -> str:
    """``INVALID_JSON/DUPLICATE_KEY`` -> ``DUPLICATE_KEY``: the sub-reason names its status."""
    if label is None:
        return "—"
    return label.rpartition("/")[2]


class CaseList(SafeTable):
    """Rows are entry numbers of the session (all of them, or a filtered view)."""

    HELP = (
        "**Cases**: every case of the loaded suites with its frozen label (*expected*) and the "
        "contract's verdict (*actual*); sub-reasons stand for their status "
        "(`DUPLICATE_KEY` is `INVALID_JSON/DUPLICATE_KEY`). `≠` marks a verdict that differs "
        "from the label, `!` a case that could not be loaded. Verdicts are computed when a row is first drawn."
    )

    COLUMNS = (
        Column("mark", "", width=1),
        Column("id", "case", min_width=8, weight=3),
        Column("expected", "expected", min_width=12, weight=2),
        Column("actual", "actual", min_width=12, weight=2),
    )
    # Narrower than WIDE, expected and actual share a column: one label when they
    # agree, "expected ≠ actual" when they do not.
    COMPACT_COLUMNS = (
        Column("mark", "", width=1),
        Column("id", "case", min_width=8, weight=1),
        Column("both", "expected ≠ actual", min_width=10, weight=1),
    )
    WIDE = 58

    def __init__(self, session: Session, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session
        self.view: list[int] = list(range(len(session)))
        self.current: int | None = None
        self.empty_message = "no case matches"
        self.set_columns(self.COLUMNS)
        self.set_row_count(len(self.view))

    def on_resize(self, event: events.Resize) -> None:
        columns = self.COLUMNS if event.size.width >= self.WIDE else self.COMPACT_COLUMNS
        if columns is not self.columns:
            self.set_columns(columns)

    def set_view(self, numbers: list[int]) -> None:
        """Show only these entries (ascending); keeps the current case's row if present."""
        self.view = numbers
        self.cursor = self.row_of(self.current)
        self.set_row_count(len(numbers))
        self.scroll_to(y=0, animate=False, immediate=True)
        if self.cursor is not None:
            self.scroll_to_row(self.cursor, center=True)

    def row_of(self, number: int | None) -> int | None:
        if number is None:
            return None
        row = bisect_left(self.view, number)
        return row if row < len(self.view) and self.view[row] == number else None

    def neighbour(self, number: int | None, step: int) -> int | None:
        """The entry ``step`` rows away in the view (the nearest one when ``number`` is filtered out)."""
        if not self.view:
            return None
        if number is None:
            return self.view[0 if step > 0 else -1]
        row = bisect_left(self.view, number)
        present = row < len(self.view) and self.view[row] == number
        if present:
            row += step
        elif step < 0:
            row -= 1
        row = max(0, min(row, len(self.view) - 1))
        return self.view[row]

    def show_current(self, number: int) -> None:
        self.current = number
        self.move_cursor(self.row_of(number))

    def refresh_entries(self) -> None:
        self.refresh_all()

    # -- drawing ------------------------------------------------------------

    def cell(self, row: int, column: Column) -> Cell:
        number = self.view[row]
        entry = self.session.entries[number]
        key = column.key
        if key == "id":
            return entry.id
        if key == "expected":
            return short_label(entry.expected)
        actual = self.session.actual(number)
        if key == "actual":
            return self._actual(actual)
        if key == "both":
            if entry.expected is None or not self.session.differs(number):
                return [self._actual(actual)]
            return [*untrusted(short_label(entry.expected)), (" ≠ ", "safe-table--bad"), self._actual(actual)]
        if entry.broken:
            return ("!", "safe-table--bad")
        if self.session.differs(number):
            return ("≠", "safe-table--bad")
        return None

    @staticmethod
    def _actual(actual: str) -> Piece:
        # The verdict's label comes from the checks table, not from the suite.
        component = ("safe-table--good" if actual == "ACCEPT" else
                     "safe-table--bad" if actual == "ERROR" else None)
        return (short_label(actual), component)

    def on_safe_table_row_clicked(self, event: SafeTable.RowClicked) -> None:
        event.stop()
        self.post_message(CaseChosen(self.view[event.row]))
