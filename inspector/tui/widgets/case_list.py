"""The case list: every case of the loaded suites, its frozen label and its verdict."""

from __future__ import annotations

from collections.abc import Container, Mapping

from rich.cells import cell_len
from textual import events

from ...presentation.browse import Browse
from ...presentation.review import ReviewSession
from ...presentation.review_view import KNOWN_REGRESSION_MARK, ROW_MARKS, row_state
from ...presentation.session import Session
from ...reports.case import CaseReport
from ..messages import CaseChosen
from ..tones import TABLE, Tone
from .table import Cell, Column, Piece, SafeTable, fit_first, untrusted

__all__ = ["CaseList"]


class CaseList(SafeTable):
    """Rows are the visible cases of the main screen's ``Browse``; it only draws them."""

    HELP = (
        "**Cases**: every case of the loaded suites with its frozen label (*expected*) and the "
        "contract's verdict (*actual*); sub-reasons stand for their status "
        "(`DUPLICATE_KEY` is `INVALID_JSON/DUPLICATE_KEY`). `≠` marks a verdict that differs "
        "from the label, `!` a case that could not be loaded, `✎` a case edited in the lab (its verdict is the "
        "edited answer's; the suite file is never changed), `⊘` a known regression (a reviewer rejected its verdict "
        "and kept the label), `?` an exported record without a label (a person called its acceptance false). "
        "In review mode the list is the review's cases, marked `•` left, `✓` accepted, "
        "`✗` rejected, `»` skipped. On a triage group's records, `●` marks a record marked by hand (space), `◆` one "
        "annotated the contract wrong (w: a false rejection or acceptance) and `◇` right (t), and the records a "
        "search (^f) matches are highlighted. "
        "Verdicts are computed when a row is first drawn."
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
    # A triage group's records: a column for the records marked by hand and annotated (``show_marks``).
    MARKED = Column("marked", "", width=2)
    # The id is as wide as the longest (of the first FIT_SAMPLE cases: a log's records
    # are not all read for it) as far as the labels keep LABELS cells (18: "VALUE_MISMATCH
    # ≠ A"), or only their minimum width when the id would have fewer than LABELS itself
    # (80×24): the id tells the rows apart; the label's code reads from its head, and the
    # verdict panel has it whole.
    FIT_SAMPLE = 2000
    LABELS = 18

    def __init__(self, session: Session, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session = session
        self.review: ReviewSession | None = None  # review mode: each row's mark is its review state
        self.marks: Container[int] | None = None  # the records marked by hand (a triage group's)
        self.annotated: Mapping[int, bool] = {}  # ... annotated: whether the contract was wrong (◆) or right (◇)
        self.matches: Container[int] = ()  # ... a search matches: highlighted
        self._wide = True
        self._chosen: tuple[Column, ...] = self.COLUMNS  # the columns before the id's width is fitted
        self._sampled = -1  # how many ids the id's width was measured on
        self._id_width = 0
        self.browse = Browse.of(session)
        self.empty_message = "no case matches"
        self.set_columns(self.COLUMNS)
        self.set_row_count(len(self.browse.visible))

    def on_resize(self, event: events.Resize) -> None:
        self._wide = event.size.width >= self.WIDE
        self._set_columns()

    def _set_columns(self) -> None:
        columns = self.COLUMNS if self._wide else self.COMPACT_COLUMNS
        if self.marks is not None:
            columns = (self.MARKED, *columns)
        if columns != self._chosen:
            self._chosen = columns
            self.set_columns(columns)

    def _ensure_layout(self) -> None:
        ids = self.session.ids
        sampled = min(len(ids), self.FIT_SAMPLE)
        if sampled != self._sampled:
            self._sampled = sampled
            self._id_width = max([0] + [sum(cell_len(text) for text, _ in self._pieces(ids[number]))
                                        for number in range(sampled)])
            self._layout_width = -1
        available = self.scrollable_content_region.width or self.size.width
        if available != self._layout_width or not self._widths:
            columns = self._chosen
            room = available - sum(c.width or 0 for c in columns) - self.gap * max(0, len(columns) - 1)
            wanted = self._id_width if room < 2 * self.LABELS else min(self._id_width, room - self.LABELS)
            self.columns = fit_first(columns, {"id": wanted}, available, self.gap)
        super()._ensure_layout()

    def show_marks(self, marks: Container[int]) -> None:
        """Show which cases are marked by hand (a column of its own, with their annotations), from now on."""
        self.marks = marks
        self._set_columns()

    def show_annotated(self, annotated: Mapping[int, bool]) -> None:
        """Which records are annotated, the contract wrong (True) or right (False): their marker in the list."""
        if annotated != self.annotated:
            self.annotated = annotated
            self.refresh_all()

    def show_matches(self, matches: Container[int]) -> None:
        """Highlight the records a search matches (none: empty)."""
        self.matches = matches
        self.refresh_all()

    def row_style(self, row: int) -> str | None:
        if row != self.cursor and self.matches and self.browse.visible[row] in self.matches:
            return "safe-table--marked"
        return super().row_style(row)

    def set_view(self, browse: Browse) -> None:
        """Show another set of cases; the current case's row stays in view if present."""
        self.browse = browse
        self.cursor = browse.row_of(browse.current)
        self.set_row_count(len(browse.visible))
        self.scroll_to(y=0, animate=False, immediate=True)
        if self.cursor is not None:
            self.scroll_to_row(self.cursor, center=True)

    def show_current(self, browse: Browse) -> None:
        self.browse = browse
        self.move_cursor(browse.row_of(browse.current))

    # -- drawing ------------------------------------------------------------

    def cell(self, row: int, column: Column) -> Cell:
        report = self.session.report(self.browse.visible[row])
        key = column.key
        if key == "marked":
            number = self.browse.visible[row]
            wrong = self.annotated.get(number)
            marked: Piece = ("●", TABLE[Tone.WARN]) if self.marks is not None and number in self.marks else (" ", None)
            if wrong is None:
                return [marked]
            return [marked, ("◆", TABLE[Tone.BAD]) if wrong else ("◇", TABLE[Tone.GOOD])]
        if key == "id":
            return report.id
        if key == "expected":
            return report.short_expected
        if key == "actual":
            return self._actual(report)
        if key == "both":
            if report.expected is None or not report.differs:
                return [self._actual(report)]
            return [*untrusted(report.short_expected), (" ≠ ", TABLE[Tone.BAD]), self._actual(report)]
        state = row_state(self.review, report.number) if self.review is not None and not report.broken else None
        if state is not None:
            mark, tone = ROW_MARKS[state]
            return (mark, TABLE[tone])
        if report.broken:
            return ("!", TABLE[Tone.BAD])
        if report.parent is not None:
            return ("✎", TABLE[Tone.WARN])
        if report.known_regression:
            return (KNOWN_REGRESSION_MARK[0], TABLE[KNOWN_REGRESSION_MARK[1]])
        if report.differs:
            return ("≠", TABLE[Tone.BAD])
        if report.expected is None and report.case is not None and report.case.human is not None:
            return ("?", TABLE[Tone.BAD])  # unlabelled: a person called the acceptance false
        return None

    @staticmethod
    def _actual(report: CaseReport) -> Piece:
        # The verdict's label comes from the checks table, not from the suite.
        return (report.short_actual, TABLE[report.actual_tone])

    def on_safe_table_row_clicked(self, event: SafeTable.RowClicked) -> None:
        event.stop()
        self.post_message(CaseChosen(self.browse.visible[event.row]))
