"""The checks panel: every check of the trace in contract order, for the current claim.

The access check is shown only when the request carries a scope (without one
the trace has no such step).  ✓ passed, ✗ failed, · not reached.  The first
failure is emphasised; in explore mode the checks after it are evaluated too and
shown greyed.  Under the checks, the selected step's explanation and fix hint.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from ...presentation.selection import CheckRow, Selection
from .. import safe
from ..messages import CheckChosen
from ..tones import TABLE, TEXT, Tone, strong
from .table import Cell, Column, SafeTable

__all__ = ["ChecksPanel", "ChecksTable"]


class ChecksTable(SafeTable):
    show_header = False

    COLUMNS = (
        Column("stage", "stage", width=8),
        Column("mark", "", width=1),
        Column("title", "check", min_width=10),
    )

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: tuple[CheckRow, ...] = ()
        self.set_columns(self.COLUMNS)

    def set_rows(self, rows: tuple[CheckRow, ...], selected: str | None) -> None:
        """Show these checks, the selected check's row under the cursor."""
        old = self.rows
        self.rows = rows
        if len(rows) != len(old) or any(a.check is not b.check for a, b in zip(old, rows, strict=True)):
            self.set_row_count(len(rows))
            self.refresh(layout=True)  # the panel's height follows its checks
        else:
            self.refresh_rows([r for r, (a, b) in enumerate(zip(old, rows, strict=True)) if a.shown != b.shown])
        cursor = next((r for r, row in enumerate(rows) if row.check.id == selected), None)
        self.move_cursor(cursor)

    def row_style(self, row: int) -> str | None:
        if row == self.cursor:
            return "safe-table--cursor"
        return TABLE[Tone.PENDING] if self.rows[row].dim else None

    def cell(self, row: int, column: Column) -> Cell:
        shown = self.rows[row]
        key = column.key
        if key == "stage":
            return (shown.stage, TABLE[Tone.MUTED]) if shown.stage else None
        if key == "mark":
            return (shown.mark, TABLE[shown.mark_tone])
        if shown.failure is not None:
            title = "safe-table--first" if shown.first_failure else None
            return [(shown.check.title, title), ("  " + shown.failure, TABLE[Tone.BAD])]
        return (shown.check.title, None)

    def on_safe_table_row_clicked(self, event: SafeTable.RowClicked) -> None:
        event.stop()
        self.post_message(CheckChosen(self.rows[event.row].check.id))


class ChecksPanel(Vertical):
    HELP = (
        "**Checks**: the contract's checks in order, for the current claim: ✓ passed, ✗ failed, "
        "· not reached (the first failure decides). `n`/`p` step through the trace, `f` jumps to "
        "the first failure, `F` also evaluates the checks after it (greyed). *access allowed* is a "
        "check only when the request carries an access scope. Under the checks: the selected step's "
        "explanation and how to fix it."
    )

    DEFAULT_CSS = """
    ChecksPanel { height: auto; }
    ChecksPanel > ChecksTable { height: auto; }
    ChecksPanel > #step-detail { height: 6; overflow: hidden; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._key: object = None

    def compose(self) -> ComposeResult:
        yield ChecksTable(id="checks-table")
        yield Static("", id="step-detail", markup=False)

    def show(self, selection: Selection) -> None:
        key = (selection.steps, selection.position, selection.claim)
        if key == self._key:
            return
        self._key = key
        step = selection.step
        self.query_one(ChecksTable).set_rows(selection.check_rows(), step.check.id if step is not None else None)
        # A fixed height: no layout pass needed for new text.
        self.query_one("#step-detail", Static).update(detail(selection), layout=False)


def detail(selection: Selection) -> Content:
    """The selected step in words: what it checked, what it found, how to fix it."""
    detail = selection.detail
    if detail is None:
        if selection.report.verdict is None:
            return Content.styled("the case could not be loaded: no trace", TEXT[Tone.MUTED])
        return Content.styled("no step", TEXT[Tone.MUTED])
    head = Content.assemble((detail.title, "bold"), (detail.where, TEXT[Tone.MUTED]))
    if detail.label is not None:
        body = Content.assemble((f"{detail.label}: ", strong(Tone.BAD)), safe.content(detail.explanation))
        # The hint quotes this claim's and source's values (Step.fix): untrusted, shown safely.
        fix = Content.assemble(("fix: ", strong(Tone.GOOD)), safe.content(detail.hint or ""))
        return Content("\n").join([head, body, fix])
    body = safe.content(detail.explanation, TEXT[detail.tone])
    return Content("\n").join([head, body])
