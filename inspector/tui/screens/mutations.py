"""The mutation menu (``m``): every mutation of the catalogue on the current claim.

A row per mutation, in catalogue order: its dotted name, title, what it is meant
to trip and how many variants it has here (greyed, with why, when none).  Typing
filters by dotted name, title or help; the arrows and Enter work over the filter
(priority keys); Enter dismisses the screen with the chosen
mutation's name, and the main screen applies it (asking for a prediction first in
predict mode).  The rows are computed by ``presentation.mutation_menu``.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Static

from ...presentation.mutation_menu import MenuRow, matching
from .. import keys, safe
from ..tones import TEXT, Tone
from ..widgets.table import Cell, Column, SafeTable

__all__ = ["MutationMenu", "MutationTable"]


class MutationTable(SafeTable):
    """The menu's rows; the ones with no variant here greyed."""

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

    def on_safe_table_row_clicked(self, event: SafeTable.RowClicked) -> None:
        event.stop()
        self.move_cursor(event.row)
        self.screen.action_apply()  # type: ignore[attr-defined]


class MutationMenu(ModalScreen[str | None]):
    DEFAULT_CSS = """
    MutationMenu { align: center middle; }
    MutationMenu > #menu {
        width: 90%;
        max-width: 110;
        height: 80%;
        border: round $primary;
        border-title-color: $text-primary;
        border-title-style: bold;
        background: $surface;
        padding: 0 1;
    }
    MutationMenu #menu-filter { margin-bottom: 1; }
    MutationMenu MutationTable { height: 1fr; }
    MutationMenu #menu-help { height: auto; max-height: 4; color: $text-muted; margin-top: 1; }
    """

    BINDINGS = keys.bindings("mutations")

    def __init__(self, rows: Sequence[MenuRow], where: str) -> None:
        super().__init__()
        self.all_rows = tuple(rows)
        self.where = where  # "claims[0] of complete-answer"

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            yield Input(placeholder="filter: dotted name, title or help", id="menu-filter")
            yield MutationTable(id="menu-table")
            yield Static("", id="menu-help", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#menu").border_title = Content.assemble("mutations · ", safe.content(self.where))
        self._show(self.all_rows)
        self.query_one("#menu-filter", Input).focus()

    @property
    def table(self) -> MutationTable:
        return self.query_one(MutationTable)

    def _show(self, rows: Sequence[MenuRow]) -> None:
        self.table.set_menu_rows(rows)
        self._describe()

    def _describe(self) -> None:
        """The selected mutation's help line, and why it has no variant here."""
        table = self.table
        help_view = self.query_one("#menu-help", Static)
        if table.cursor is None:
            help_view.update(Content.styled("no mutation matches: Esc closes the menu", TEXT[Tone.MUTED]))
            return
        row = table.rows[table.cursor]
        parts = [Content.styled(row.name, "bold"), Content(f"  {row.mutation.help}")]
        if not row.applies:
            parts.append(Content.styled(f"\nnot applicable here: {row.why}", TEXT[Tone.WARN]))
        elif row.current is not None:
            parts.append(Content.styled(f"\nvariant {row.count} applied last: Enter applies the next one",
                                        TEXT[Tone.MUTED]))
        help_view.update(Content.assemble(*parts))

    @on(Input.Changed, "#menu-filter")
    def _filter(self, event: Input.Changed) -> None:
        self._show(matching(self.all_rows, event.value))

    def action_cursor(self, step: int) -> None:
        table = self.table
        if table.rows:
            row = (table.cursor or 0) + step
            table.move_cursor(max(0, min(row, len(table.rows) - 1)))
            self._describe()

    def action_apply(self) -> None:
        table = self.table
        if table.cursor is None:
            return
        row = table.rows[table.cursor]
        if not row.applies:
            self.notify(f"{row.name}: not applicable here: {row.why}", severity="warning", markup=False, timeout=3)
            return
        self.dismiss(row.name)
