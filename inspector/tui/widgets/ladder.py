"""The check ladder: every check of the trace in contract order, for the current claim.

The access check is a rung only when the request carries a scope (without one
the trace has no such step).  ✓ passed, ✗ failed, · not reached.  The first
failure is emphasised; in explore mode the checks after it are evaluated too and
shown greyed.  Under the ladder, the selected step's explanation and fix hint.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from ...contract.checks import CHECKS, Check, Stage
from ...contract.verify import Outcome, Step
from .. import safe
from ..messages import CheckChosen
from ..selection import Selection, ladder, ladder_checks
from .table import Cell, Column, SafeTable

__all__ = ["Ladder", "LadderTable", "STAGE_NAMES"]

STAGE_NAMES = {Stage.DECODE: "decode", Stage.CITATION: "citation", Stage.CLAIM: "claim", Stage.COVERAGE: "coverage"}
MARKS = {Outcome.PASSED: "✓", Outcome.FAILED: "✗", Outcome.NOT_REACHED: "·", Outcome.UNAVAILABLE: "?"}


class LadderTable(SafeTable):
    show_header = False

    COLUMNS = (
        Column("stage", "stage", width=8),
        Column("mark", "", width=1),
        Column("title", "check", min_width=10),
    )

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[tuple[Check, Step | None]] = []
        self.first_failure: Step | None = None
        self._checks: tuple[Check, ...] = ()
        self._row_of: dict[str, int] = {}
        self._first_of_stage: frozenset[str] = frozenset()
        self.set_columns(self.COLUMNS)
        self._set_checks(CHECKS)

    def _set_checks(self, checks: tuple[Check, ...]) -> None:
        """Another list of rungs (a request with or without an access scope)."""
        self._checks = checks
        self._row_of = {check.id: row for row, check in enumerate(checks)}
        self._first_of_stage = frozenset(
            check.id for row, check in enumerate(checks) if row == 0 or checks[row - 1].stage != check.stage)
        self.rows = [(check, None) for check in checks]
        self.set_row_count(len(checks))
        self.refresh(layout=True)  # the ladder's height follows its rungs

    @property
    def checks(self) -> tuple[Check, ...]:
        return self._checks

    def set_rows(self, checks: tuple[Check, ...], rows: list[tuple[Check, Step | None]],
                 first_failure: Step | None, selected: str | None) -> None:
        """Show these rungs, the selected check's row under the cursor."""
        if checks is not self._checks:
            self._set_checks(checks)
        cursor = self._row_of.get(selected) if selected is not None else None
        changed = [r for r, (old, new) in enumerate(zip(self.rows, rows, strict=True)) if old[1] != new[1]]
        failure_changed = first_failure is not self.first_failure
        self.rows = rows
        self.first_failure = first_failure
        if failure_changed:
            self.refresh_all()
        else:
            self.refresh_rows(changed)
        self.move_cursor(cursor)

    def row_style(self, row: int) -> str | None:
        if row == self.cursor:
            return "safe-table--cursor"
        step = self.rows[row][1]
        if step is None or not step.reached:
            return "safe-table--dim"
        return None

    def cell(self, row: int, column: Column) -> Cell:
        check, step = self.rows[row]
        key = column.key
        if key == "stage":
            return (STAGE_NAMES[check.stage], "safe-table--note") if check.id in self._first_of_stage else None
        if key == "mark":
            if step is None:
                return ("–", "safe-table--dim")  # no step (a case that could not be loaded)
            component = ("safe-table--good" if step.outcome is Outcome.PASSED else
                         "safe-table--bad" if step.outcome is Outcome.FAILED else None)
            return (MARKS[step.outcome], component)
        if step is not None and step.failed:
            title = "safe-table--first" if step is self.first_failure else None
            return [(check.title, title), ("  " + (step.reason or step.code), "safe-table--bad")]
        return (check.title, None)

    def on_safe_table_row_clicked(self, event: SafeTable.RowClicked) -> None:
        event.stop()
        self.post_message(CheckChosen(self.rows[event.row][0].id))


class Ladder(Vertical):
    HELP = (
        "**Checks**: the contract's checks in order, for the current claim: ✓ passed, ✗ failed, "
        "· not reached (the first failure decides). `n`/`p` step through the trace, `f` jumps to "
        "the first failure, `F` also evaluates the checks after it (greyed). *access allowed* is a "
        "rung only when the request carries an access scope. Under the ladder: the selected step's "
        "explanation and how to fix it."
    )

    DEFAULT_CSS = """
    Ladder { height: auto; }
    Ladder > LadderTable { height: auto; }
    Ladder > #step-detail { height: 6; overflow: hidden; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._key: object = None

    def compose(self) -> ComposeResult:
        yield LadderTable(id="ladder-table")
        yield Static("", id="step-detail", markup=False)

    @property
    def selected_check(self) -> str | None:
        table = self.query_one(LadderTable)
        return table.rows[table.cursor][0].id if table.cursor is not None else None

    @property
    def detail_text(self) -> str:
        return str(self.query_one("#step-detail", Static).render())

    def show(self, selection: Selection) -> None:
        key = (selection.steps, selection.position, selection.claim)
        if key == self._key:
            return
        self._key = key
        table = self.query_one(LadderTable)
        step = selection.step
        first = selection.first_failure
        table.set_rows(ladder_checks(selection), ladder(selection),
                       selection.steps[first] if first is not None else None,
                       step.check.id if step is not None else None)
        # A fixed height: no layout pass needed for new text.
        self.query_one("#step-detail", Static).update(detail(selection), layout=False)


def detail(selection: Selection) -> Content:
    """The selected step in words: what it checked, what it found, how to fix it."""
    step = selection.step
    if step is None:
        if selection.verdict is None:
            return Content.styled("the case could not be loaded: no trace", "$text-muted")
        return Content.styled("no step", "$text-muted")
    where = f" · claims[{step.claim}]" if step.claim is not None else ""
    explored = "" if step.reached or step.outcome is Outcome.NOT_REACHED else " · explored"
    count = f" · {selection.position + 1}/{len(selection.steps)}"
    head = Content.assemble((f"{MARKS[step.outcome]} {step.check.title}", "bold"),
                            (f"{where}{explored}{count}", "$text-muted"))
    if step.failed:
        body = Content.assemble((f"{step.label}: ", "bold $text-error"), safe.content(step.explanation))
        fix = Content.assemble(("fix: ", "bold $text-success"), step.hint)
        return Content("\n").join([head, body, fix])
    body = safe.content(step.explanation, "$text-muted" if step.outcome is not Outcome.PASSED else "")
    return Content("\n").join([head, body])
