"""The mutation menu (``m``): every mutation of the catalogue on the current claim.

A row per mutation, in catalogue order: its dotted name, title, what it is meant
to trip and how many variants it has here (greyed, with why, when none).  Typing
filters by dotted name, title or help; the arrows, PgDn PgUp, ^Home ^End and Enter
work over the filter (priority keys); Enter dismisses the screen with a ``MutationChosen`` (the chosen
mutation's name) for the main screen, whose lab applies it (asking for a
prediction first in predict mode).  The rows are computed by ``presentation.mutation_menu``.
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
from ..messages import MutationChosen
from ..tones import TEXT, Tone
from ..widgets.mutation_table import MutationTable
from ..widgets.table import CursorTable, SafeTable

__all__ = ["MutationMenu"]


class MutationMenu(ModalScreen[MutationChosen | None]):
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

    @on(SafeTable.RowClicked, "#menu-table")
    def _clicked(self, event: SafeTable.RowClicked) -> None:
        event.stop()
        self.table.move_cursor(event.row)
        self.action_apply()

    @on(Input.Changed, "#menu-filter")
    def _filter(self, event: Input.Changed) -> None:
        self._show(matching(self.all_rows, event.value))

    async def action_table(self, action: str) -> None:
        """The filter field keeps the focus (typing filters): the list keys that type nothing, priority keys
        of the menu (``keys._moves(typing=True)``), run the table's own actions, as Textual's command
        palette runs its list's (``command_list``)."""
        await self.table.run_action(action)

    @on(CursorTable.CursorMoved, "#menu-table")
    def _moved(self) -> None:
        self._describe()

    def action_apply(self) -> None:
        table = self.table
        if table.cursor is None:
            return
        row = table.rows[table.cursor]
        if not row.applies:
            self.notify(f"{row.name}: not applicable here: {row.why}", severity="warning", markup=False, timeout=3)
            return
        self.dismiss(MutationChosen(row.name))
