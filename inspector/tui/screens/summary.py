"""The suite summary: the ladder as a bar chart, n/N per rung, first failures per check.

Like the article's figure: how many cases each admission rung lets through
(strict JSON, citation only, the full contract), then the label lens (how many
cases it would ANSWER, and how many of those the contract rejects), then every
check of the contract with how many cases got past it and how many it stopped.
Enter on a row lists those cases.  Verdicts are computed in a worker, once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static

from ...contract.evidence import ANSWER
from .. import safe
from ..messages import CasesChosen
from ..session import Session, Summary, failing_check
from ..widgets.ladder import STAGE_NAMES
from ..widgets.table import Cell, Column, SafeTable
from ...suites.load import Suite

__all__ = ["SummaryScreen", "bar"]

_EIGHTHS = " ▏▎▍▌▋▊▉"


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
    cases: Callable[[], list[int]]  # the cases Enter lists
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
            return (data.stage, "safe-table--note")
        if key == "label":
            return (data.label, None)
        if key == "bar":
            width = self._widths[2] if len(self._widths) > 2 else 20
            style = ("safe-table--bad" if data.danger
                     else "safe-table--good" if data.failed is None else "summary-table--bar")
            return (bar(data.passed, data.total, width), style)
        if key == "count":
            return (f"{data.passed}/{data.total}", None)
        if data.failed is None:
            return None
        return (f"✗ {data.failed}", "safe-table--bad") if data.failed else ("·", "safe-table--dim")

    def on_safe_table_row_clicked(self, event: SafeTable.RowClicked) -> None:
        event.stop()
        self.move_cursor(event.row)
        self.screen.action_show_cases()  # type: ignore[attr-defined]


class SummaryScreen(Screen[None]):
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

    BINDINGS = [
        Binding("j,down", "cursor(1)", "down", key_display="j", group=Binding.Group("row", compact=True)),
        Binding("k,up", "cursor(-1)", "up", key_display="k", group=Binding.Group("row", compact=True)),
        Binding("enter", "show_cases", "list these cases"),
        Binding("a", "toggle_scope", "all suites / this suite"),
        Binding("escape,S,q", "dismiss", "back", key_display="Esc"),
    ]

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

    def _show(self, numbers: list[int], summary: Summary) -> None:
        session = self.session
        total = summary.total

        def where(test: Callable[[int], bool]) -> Callable[[], list[int]]:
            return lambda: [n for n in numbers if test(n)]

        def verdict_of(n: int):
            return session.verdict(n)

        rows = [
            Row("admit", "strict JSON", summary.strict_json, total, None,
                where(lambda n: (v := verdict_of(n)) is not None and v.strict_json), "strict JSON accepts"),
            Row("", "quote in supplied source", summary.citation_only, total, None,
                where(lambda n: (v := verdict_of(n)) is not None and v.citation_only), "citation-only accepts"),
            Row("", "complete field contract", summary.accepted, total, None,
                where(lambda n: (v := verdict_of(n)) is not None and v.ok), "contract accepts"),
        ]
        if summary.lens_labelled:  # else no answer got as far as claims the lens could label
            rows += [
                Row("lens", "label lens says ANSWER", summary.lens_answer, total, None,
                    where(lambda n: (v := verdict_of(n)) is not None and v.policy == ANSWER), "lens says ANSWER"),
                Row("", "⚠ the contract rejects", summary.lens_disagrees, total, None,
                    where(lambda n: (v := verdict_of(n)) is not None and v.lens_disagrees),
                    "lens ANSWER, contract rejects", danger=True),
            ]
        stage = None
        for rung in summary.rungs:
            check = rung.check
            label = STAGE_NAMES[check.stage] if check.stage != stage else ""
            stage = check.stage

            def stopped(n: int, check_id: str = check.id) -> bool:
                verdict = verdict_of(n)
                failing = failing_check(verdict) if verdict is not None else None
                return failing is not None and failing.id == check_id

            rows.append(Row(label, check.title, rung.passed, total, rung.failed, where(stopped),
                            f"first failure {check.id}"))
        if summary.broken:
            rows.append(Row("", "could not be loaded", summary.broken, summary.broken + total, None,
                            where(lambda n: session.entries[n].broken), "could not be loaded"))
        self.query_one(SummaryTable).set_summary_rows(rows)
        head = [
            Content.assemble(
                ("Of ", "$text-muted"), (f"{total}", "bold"), (" cases, strict JSON accepts ", "$text-muted"),
                (f"{summary.strict_json}", "bold"), (", checking that the quote exists accepts ", "$text-muted"),
                (f"{summary.citation_only}", "bold"), (", the full contract accepts ", "$text-muted"),
                (f"{summary.accepted}", "bold"), (".", "$text-muted")),
        ]
        if summary.lens_labelled:
            head.append(Content.assemble(
                ("The label lens says ANSWER to ", "$text-muted"), (f"{summary.lens_answer}", "bold"),
                ("; the contract rejects ", "$text-muted"),
                (f"{summary.lens_disagrees}", "bold $text-warning" if summary.lens_disagrees else "bold"),
                (" of those.", "$text-muted")))
        if summary.labelled:
            style = "bold $text-success" if summary.matching == summary.labelled else "bold $text-error"
            head.append(Content.assemble((f"{summary.matching}/{summary.labelled}", style),
                                         (" verdicts match their frozen labels", "$text-muted")))
        if summary.broken:
            head.append(Content.styled(f"{summary.broken} cases could not be loaded", "bold $text-error"))
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
        numbers = row.cases()
        if not numbers:
            self.notify("no case here", markup=False, timeout=2)
            return
        self.dismiss()
        self.app.post_message(CasesChosen(numbers, row.description))

    def action_toggle_scope(self) -> None:
        if len(self.session.suites) < 2:
            return
        self.all_suites = not self.all_suites
        self._refresh_title()
        self.query_one(SummaryTable).set_summary_rows([])
        self._compute()
