"""The suite summary: the ladder as a bar chart, n/N per rung, first failures per check.

Like the article's figure: how many cases each admission rung lets through
(strict JSON, citation only, the full contract), then the label lens (how many
cases it would ANSWER, and how many of those the contract rejects), then every
check of the contract with how many cases got past it and how many it stopped.
Enter on a row lists those cases.  Verdicts are computed in a worker, once.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static

from ...presentation.selection import STAGE_NAMES
from ...presentation.session import Session
from ...reports.suite import SuiteReport
from ...suites.load import Suite
from .. import keys, safe
from ..messages import CasesChosen
from ..tones import TABLE, TEXT, Tone, strong
from ..widgets.table import Cell, Column, SafeTable

__all__ = ["SummaryScreen", "bar"]

_EIGHTHS = " ▏▎▍▌▋▊▉"
_MUTED = TEXT[Tone.MUTED]


def bar(value: int, total: int, width: int) -> str:
    """A horizontal bar of ``width`` cells filled value/total, to an eighth of a cell."""
    if total <= 0 or width <= 0:
        return " " * max(width, 0)
    eighths = round(8 * width * value / total)
    full, part = divmod(eighths, 8)
    text = "█" * full + (_EIGHTHS[part] if part else "")
    return text.ljust(width)


@dataclass(frozen=True, slots=True)
class Row:
    stage: str
    label: str
    passed: int
    total: int
    failed: int | None  # first failures at this check (None for the baselines)
    cases: tuple[int, ...]  # the cases Enter lists
    description: str
    danger: bool = False  # a count that should be zero: its bar in the error colour


class SummaryTable(SafeTable):
    DEFAULT_CSS = """
    SummaryTable > .summary-table--bar { color: $primary; }
    """
    COMPONENT_CLASSES = SafeTable.COMPONENT_CLASSES | {"summary-table--bar"}

    COLUMNS = (
        Column("stage", "", width=8),
        Column("label", "rung", width=24),
        Column("bar", "passed", min_width=10),
        Column("count", "n/N", width=9, justify="right"),
        Column("failed", "first fail", width=10, justify="right"),
    )

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.rows: list[Row] = []
        self.set_columns(self.COLUMNS)
        self.empty_message = "computing verdicts…"

    def set_summary_rows(self, rows: list[Row]) -> None:
        self.rows = rows
        self.cursor = 0 if rows else None
        self.set_row_count(len(rows))

    def cell(self, row: int, column: Column) -> Cell:
        data = self.rows[row]
        key = column.key
        if key == "stage":
            return (data.stage, TABLE[Tone.MUTED])
        if key == "label":
            return (data.label, None)
        if key == "bar":
            width = self._widths[2] if len(self._widths) > 2 else 20
            style = (TABLE[Tone.BAD] if data.danger
                     else TABLE[Tone.GOOD] if data.failed is None else "summary-table--bar")
            return (bar(data.passed, data.total, width), style)
        if key == "count":
            return (f"{data.passed}/{data.total}", None)
        if data.failed is None:
            return None
        return (f"✗ {data.failed}", TABLE[Tone.BAD]) if data.failed else ("·", TABLE[Tone.PENDING])

    def on_safe_table_row_clicked(self, event: SafeTable.RowClicked) -> None:
        event.stop()
        self.move_cursor(event.row)
        self.screen.action_show_cases()  # type: ignore[attr-defined]


class SummaryScreen(Screen[CasesChosen | None]):
    DEFAULT_CSS = """
    SummaryScreen { layout: vertical; }
    SummaryScreen > #summary-panel {
        border-top: solid $primary-muted;
        border-title-color: $text-primary;
        border-title-style: bold;
        padding: 0 1;
        height: 1fr;
    }
    SummaryScreen #summary-head { height: auto; margin-bottom: 1; }
    SummaryScreen SummaryTable { height: 1fr; }
    """

    BINDINGS = keys.bindings("summary")

    def __init__(self, session: Session, suite: Suite | None) -> None:
        super().__init__()
        self.session = session
        self.suite = suite
        self.all_suites = suite is None or len(session.suites) == 1

    def compose(self) -> ComposeResult:
        with Vertical(id="summary-panel"):
            yield Static("", id="summary-head", markup=False)
            yield SummaryTable(id="summary-table")
        yield Footer()

    def on_mount(self) -> None:
        self._refresh_title()
        self._compute()

    def _numbers(self) -> list[int]:
        if self.all_suites or self.suite is None:
            return list(range(len(self.session)))
        return self.session.numbers_of(self.suite)

    def _refresh_title(self) -> None:
        panel = self.query_one("#summary-panel")
        if self.all_suites or self.suite is None:
            names = ", ".join(suite.name for suite in self.session.suites)
            panel.border_title = Content.assemble("summary · all suites (", safe.content(names), ")")
        else:
            panel.border_title = Content.assemble("summary · ", safe.content(self.suite.name))

    @work(thread=True, exclusive=True, group="summary")
    def _compute(self) -> None:
        numbers = self._numbers()
        summary = self.session.summary(numbers)
        self.app.call_from_thread(self._show, numbers, summary)

    def _show(self, numbers: list[int], summary: SuiteReport) -> None:
        total = summary.total
        rows = [Row("admit" if position == 0 else "", rung.name, rung.count, total, None, rung.cases,
                    f"{rung.name} accepts") for position, rung in enumerate(summary.rungs)]
        if summary.lens_labelled:  # else no answer got as far as claims the lens could label
            answer, rejects = summary.lens
            rows += [
                Row("lens", answer.name, answer.count, total, None, answer.cases, "lens says ANSWER"),
                Row("", rejects.name, rejects.count, total, None, rejects.cases,
                    "lens ANSWER, contract rejects", danger=True),
            ]
        stage = None
        for row in summary.checks:
            check = row.check
            label = STAGE_NAMES[check.stage] if check.stage != stage else ""
            stage = check.stage
            rows.append(Row(label, check.title, row.passed, total, row.failed, row.stopped,
                            f"first failure {check.id}"))
        if summary.broken:
            broken = len(summary.broken)
            rows.append(Row("", "could not be loaded", broken, broken + total, None, summary.broken,
                            "could not be loaded"))
        self.query_one(SummaryTable).set_summary_rows(rows)
        strict, citation, contract = summary.rungs
        bold = "bold"
        head = [
            Content.assemble(
                ("Of ", _MUTED), (f"{total}", bold), (f" cases, {strict.name} accepts ", _MUTED),
                (f"{strict.count}", bold), (f", {citation.name} ", _MUTED), (f"{citation.count}", bold),
                (" (the quote exists in a supplied source), the ", _MUTED), (contract.name, _MUTED),
                (" ", _MUTED), (f"{contract.count}", bold), (".", _MUTED)),
        ]
        if summary.lens_labelled:
            answer, rejects = summary.lens
            head.append(Content.assemble(
                ("The label lens says ANSWER to ", _MUTED), (f"{answer.count}", bold),
                ("; the contract rejects ", _MUTED),
                (f"{rejects.count}", strong(Tone.WARN) if rejects.count else bold),
                (" of those.", _MUTED)))
        if summary.labelled:
            style = strong(Tone.GOOD) if summary.matching == summary.labelled else strong(Tone.BAD)
            head.append(Content.assemble((f"{summary.matching}/{summary.labelled}", style),
                                         (" verdicts match their frozen labels", _MUTED)))
        if summary.broken:
            head.append(Content.styled(f"{len(summary.broken)} cases could not be loaded", strong(Tone.BAD)))
        self.query_one("#summary-head", Static).update(Content("\n").join(head))

    def action_cursor(self, step: int) -> None:
        table = self.query_one(SummaryTable)
        if table.rows:
            row = (table.cursor or 0) + step
            table.move_cursor(max(0, min(row, len(table.rows) - 1)))

    def action_show_cases(self) -> None:
        table = self.query_one(SummaryTable)
        if table.cursor is None or not table.rows:
            return
        row = table.rows[table.cursor]
        if not row.cases:
            self.notify("no case here", markup=False, timeout=2)
            return
        self.dismiss(CasesChosen(list(row.cases), row.description))

    def action_toggle_scope(self) -> None:
        if len(self.session.suites) < 2:
            return
        self.all_suites = not self.all_suites
        self._refresh_title()
        self.query_one(SummaryTable).set_summary_rows([])
        self._compute()
