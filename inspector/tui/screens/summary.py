"""The suite summary: the ladder as a bar chart, n/N per rung, first failures per check.

Like the article's figure: how many cases each admission rung lets through
(strict JSON, citation only, the full contract), then the label lens (how many
cases it would ANSWER, and how many of those the contract rejects), then every
check of the contract with how many cases got past it and how many it stopped.
Enter on a row lists those cases.  Verdicts are computed in a worker, once.

Below, people against the lens and the contract (``reports.agreement``): the
rate, Cohen's kappa, and each confusion matrix; ``j`` past the last row moves
into the matrices, ``h``/``l`` across, and Enter on a cell lists its cases.  In
review mode the review's pending labels count too (``ReviewSession.agreement``).
"""

from __future__ import annotations

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from ...presentation.review import ReviewSession
from ...presentation.review_view import NO_LABELS, AgreementSection, agreement_sections
from ...presentation.selection import STAGE_NAMES
from ...presentation.session import Session
from ...reports.suite import SuiteReport
from ...suites.load import Suite
from ..widgets.footer import KeysFooter
from .. import keys, safe
from ..messages import CasesChosen
from ..tones import TEXT, Tone, strong
from ..widgets.agreement_table import AgreementTable
from ..widgets.summary_table import Row, SummaryTable
from ..widgets.table import SafeTable

__all__ = ["SummaryScreen"]

_MUTED = TEXT[Tone.MUTED]


class SummaryScreen(Screen[CasesChosen | None]):
    BINDINGS = keys.bindings("summary")

    def __init__(self, session: Session, suite: Suite | None, review: ReviewSession | None = None) -> None:
        super().__init__()
        self.session = session
        self.suite = suite
        self.review = review
        self.all_suites = suite is None or len(session.suites) == 1

    def compose(self) -> ComposeResult:
        with Vertical(id="summary-panel"):
            yield Static("", id="summary-head", markup=False)
            yield SummaryTable(id="summary-table")
            yield Static("", id="agreement-head", markup=False)
            yield AgreementTable(id="agreement")
        yield KeysFooter()

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
        agreement = self.review.agreement(numbers) if self.review is not None else summary.agreement
        sections = agreement_sections(agreement)
        self.app.call_from_thread(self._show, numbers, summary)
        self.app.call_from_thread(self._show_agreement, sections)

    def _show_agreement(self, sections: tuple[AgreementSection, ...]) -> None:
        head = self.query_one("#agreement-head", Static)
        table = self.query_one(AgreementTable)
        table.set_sections(sections)
        table.display = bool(sections)
        if not sections:
            head.update(Content.assemble(("agreement  ", "bold"), (NO_LABELS, _MUTED)))
            return
        lines = [Content.assemble(("agreement", "bold"),
                                  (" (pending labels included)" if self.review is not None else "", _MUTED))]
        lines += [Content.assemble((f"{section.title}: ", "bold"), (section.figures, _MUTED)) for section in sections]
        head.update(Content("\n").join(lines))

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

    @on(SafeTable.RowClicked, "#summary-table")
    def _clicked(self, event: SafeTable.RowClicked) -> None:
        event.stop()
        self.query_one(AgreementTable).leave()
        self.query_one(SummaryTable).move_cursor(event.row)
        self.action_show_cases()

    # The table and the matrices each move their own cursor (their keys); between them, here.
    @on(SummaryTable.PastEnd)
    def _into_matrix(self) -> None:
        """``j`` past the table's last row: into the matrices' first cell, when there are some."""
        matrix = self.query_one(AgreementTable)
        selectable = matrix.selectable
        if selectable:
            self.query_one(SummaryTable).move_cursor(None)
            matrix.move_to(selectable[0], 0)
            matrix.focus()

    @on(AgreementTable.PastStart)
    def _out_of_matrix(self) -> None:
        """``k`` above the matrices' first row: back to the table's last row."""
        self.query_one(AgreementTable).leave()
        table = self.query_one(SummaryTable)
        if table.row_count:
            table.move_cursor(table.row_count - 1)
        table.focus()

    def action_show_cases(self) -> None:
        matrix = self.query_one(AgreementTable)
        cell = matrix.current_cell()
        if cell is not None:
            if not cell.cases:
                self.notify("no case here", markup=False, timeout=2)
                return
            self.dismiss(CasesChosen(list(cell.cases), cell.description))
            return
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
        self.query_one(AgreementTable).set_sections(())
        self.query_one(SummaryTable).focus()
        self._compute()
