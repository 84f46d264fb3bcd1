"""The trials view's items (``TrialsTable``) and the flips view's cells (``FlipsTable``).

An item's id comes from the log: untrusted, drawn through ``safe`` like every
cell (a ``str`` cell), never as markup."""

from __future__ import annotations

from textual.message import Message

from ...presentation.trials_view import ItemRow, verdict_strip
from ...triage.items import Flip
from .. import keys
from ..tones import TABLE, Tone
from .table import Cell, Column, CursorTable, SafeTable

__all__ = ["FlipsTable", "TrialsTable"]


class TrialsTable(CursorTable):
    """A triage's items, a row each: the item, its population, its trials and the verdicts they had."""

    HELP = (
        "**Trials** (`t` on the overview): each item (its records in one run are its trials: the item member, "
        "`--item PATH`, else the request) within its population (its `--by` values), its trials, the verdicts "
        "they had (`ACCEPT 3 · QUOTE_NOT_SUPPORTING 2`) and the share accepted; the most unstable first (more "
        "distinct verdicts, then a share accepted nearer one half). The head has the stability of every item: "
        "the unstable share, pass@1 and pass^k (all k trials accepted). With `--against`, `f` is the flips view: "
        "the items whose verdict changed between the runs, regressions first, each cell opening its items here "
        "with their verdict before in the same population (the cell's is the item's over all of them)."
    )
    BINDINGS = keys.bindings("trials", on="table")

    COLUMNS = (
        Column("item", "item", min_width=10, weight=2, cut="middle"),
        Column("population", "population", min_width=8, weight=2, cut="middle"),
        Column("trials", "trials", width=6, justify="right"),
        Column("verdicts", "verdicts seen", min_width=14, weight=6),
        Column("accepted", "accepted", width=8, justify="right"),
    )
    BEFORE = Column("before", "before", width=12, cut="middle")

    class Moved(Message):
        """The cursor is on another item (or on none)."""

        def __init__(self, row: ItemRow | None) -> None:
            super().__init__()
            self.row = row

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[ItemRow] = []
        self._before = False
        self.set_columns(self.COLUMNS)
        self.empty_message = "no item counted yet"

    def set_rows(self, rows: list[ItemRow], before: bool = False) -> None:
        """Show these items (``before``: with their verdict before, a flip cell's), the cursor staying on the
        same item when it is still there."""
        current = self.current
        self.rows = rows
        if before != self._before:
            self._before = before
            item, population, trials, verdicts, accepted = self.COLUMNS
            self.set_columns((item, population, trials, self.BEFORE, verdicts, accepted) if before
                             else self.COLUMNS)
        cursor = next((number for number, row in enumerate(rows)
                       if current is not None and row.key == current.key), None)
        self.cursor = cursor if cursor is not None else (0 if rows else None)
        self.set_row_count(len(rows))
        if self.cursor is not None:
            self.scroll_to_row(self.cursor)
        if current is None or self.current is None or current.key != self.current.key:
            self.post_message(self.Moved(self.current))

    def cursor_changed(self) -> None:
        self.post_message(self.Moved(self.current))

    @property
    def current(self) -> ItemRow | None:
        return self.rows[self.cursor] if self.cursor is not None and self.cursor < len(self.rows) else None

    def cell(self, row: int, column: Column) -> Cell:
        found = self.rows[row]
        key = column.key
        if key == "item":
            return found.text  # untrusted: the item's id comes from the log
        if key == "population":
            return found.population
        if key == "trials":
            return (f"{found.trials:,}", None)
        if key == "before":
            return (found.before or "—", TABLE[Tone.GOOD] if found.before == "ACCEPT" else TABLE[Tone.BAD]
                    if found.before is not None else TABLE[Tone.MUTED])
        if key == "verdicts":
            return (verdict_strip(found), TABLE[Tone.WARN] if found.distinct > 1 else TABLE[Tone.MUTED])
        return (f"{100 * found.share:.0f}%", TABLE[Tone.GOOD] if found.share == 1 else
                TABLE[Tone.BAD] if found.share == 0 else None)

    def on_safe_table_row_clicked(self, event: SafeTable.RowClicked) -> None:
        event.stop()
        self.move_cursor(event.row)


class FlipsTable(CursorTable):
    """The flip table of two runs: each (verdict before, verdict after) with its items, regressions first."""

    BINDINGS = keys.bindings("flips", on="table")

    COLUMNS = (
        Column("kind", "", width=12),
        Column("before", "before", min_width=10, cut="middle"),
        Column("after", "after", min_width=10, cut="middle"),
        Column("items", "items", width=9, justify="right"),
    )

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.flips: list[Flip] = []
        self.set_columns(self.COLUMNS)
        self.empty_message = "no item in both runs"

    def set_flips(self, flips: list[Flip]) -> None:
        self.flips = flips
        self.cursor = 0 if flips else None
        self.set_row_count(len(flips))

    @property
    def current(self) -> Flip | None:
        return self.flips[self.cursor] if self.cursor is not None and self.cursor < len(self.flips) else None

    def cell(self, row: int, column: Column) -> Cell:
        flip = self.flips[row]
        key = column.key
        if key == "kind":
            tone = {"regressed": Tone.BAD, "fixed": Tone.GOOD, "changed": Tone.WARN}.get(flip.kind, Tone.MUTED)
            return ("▼ regressed" if flip.kind == "regressed" else flip.kind, TABLE[tone])
        if key == "before":
            return (flip.before, None)
        if key == "after":
            return (flip.after, None)
        return (f"{flip.items:,}", None)

    def on_safe_table_row_clicked(self, event: SafeTable.RowClicked) -> None:
        event.stop()
        self.move_cursor(event.row)
