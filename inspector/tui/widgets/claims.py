"""The current case's claims, one row each; the current claim selected.

Beside each claim, the label lens's verdict on it (SUPPORTED, CONTRADICTED,
INSUFFICIENT_EVIDENCE), read from the verdict: the lens is weaker than the
contract, so a SUPPORTED claim may still be rejected.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events

from ...presentation.review_view import human_label_cell
from ...presentation.selection import Selection
from ...reports.case import CLAIM_LABELS
from ..messages import ClaimChosen
from ..tones import TABLE, TABLE_HIGHLIGHT, Tone
from .table import Cell, Column, SafeTable, fit_first

__all__ = ["ClaimsTable"]


class ClaimsTable(SafeTable):
    HELP = (
        "**Claims**: the answer's claims as decoded (index, field, value, doc, quote). The current "
        "claim is selected and the member the current step reads is highlighted. Click a row or "
        "use `[` `]` to change claim. *label* is the label lens's verdict on the claim against the "
        "authorized evidence: `SUPPORTED`, `CONTRADICTED` or `INSUFFICIENT` (`INSUFFICIENT_EVIDENCE`; "
        "a narrow table shows ✓ ✗ ?). The lens ignores scope, revision, supply and quotes, so the "
        "contract may still reject a SUPPORTED claim. *person* (in review mode, or when the suite holds people's "
        "labels) is a person's label of the claim (`L` sets it in review mode; `N/A` not assessable), `≠` where "
        "it differs from the lens's."
    )

    COLUMNS: tuple[Column, ...] = (
        Column("index", "#", width=2, justify="right"),
        Column("field", "field", min_width=6, weight=4),
        Column("value", "value", min_width=5, weight=2),
        # Narrow minimums: doc and quote give way to the field and the value (FIT); the registry has
        # the document, the step's detail the quote.
        Column("doc", "doc", min_width=4, weight=3),
        Column("quote", "quote", min_width=5, weight=5),
        Column("label", "label", width=12),
    )
    # A table narrower than WIDE cells (80×24, or beside the registry on wide
    # terminals) shows the label as its mark: ✓ ✗ ?
    COMPACT_COLUMNS = (*COLUMNS[:-1], Column("mark", "lens", width=4))
    # With people's labels (review mode, or a suite that holds them): a column more.
    HUMAN_COLUMNS = (*COLUMNS, Column("human", "person", width=14))
    COMPACT_HUMAN_COLUMNS = (*COMPACT_COLUMNS, Column("human_mark", "ppl", width=4))
    WIDE = 60
    # Sized to their content before doc and quote share the rest (in this order when even
    # they do not fit): the compared value and the field are what a reader looks for;
    # doc and quote give way first, down to their minimum width.
    FIT = ("value", "field")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.selection: Selection | None = None
        self._claims: tuple = ()
        self._labels: tuple[str, ...] = ()
        self._member: tuple[int | None, str | None, Tone | None] = (None, None, None)
        self._human: dict[int, str] | None = None
        self._wide = True
        self._chosen: tuple[Column, ...] = self.COLUMNS  # the columns before FIT's are sized
        self.set_columns(self.COLUMNS)

    def on_resize(self, event: events.Resize) -> None:
        self._wide = event.size.width >= self.WIDE
        self._set_columns()

    def _set_columns(self) -> None:
        if self._human is None:
            columns = self.COLUMNS if self._wide else self.COMPACT_COLUMNS
        else:
            columns = self.HUMAN_COLUMNS if self._wide else self.COMPACT_HUMAN_COLUMNS
        if columns is not self._chosen:
            self._chosen = columns
            self.set_columns(columns)

    def _ensure_layout(self) -> None:
        available = self.scrollable_content_region.width or self.size.width
        if available != self._layout_width or not self._widths:
            self.columns = self._fitted(available)
        super()._ensure_layout()

    def _fitted(self, available: int) -> tuple[Column, ...]:
        """The chosen columns with FIT's given the width of their longest cell (as drawn:
        escapes take their cells), as far as doc and quote keep their minimum widths."""
        wanted = {}
        for column in self._chosen:
            if column.key in self.FIT:
                wanted[column.key] = max([cell_len(column.title)] + [
                    sum(cell_len(text) for text, _ in self._pieces(self.cell(row, column)))
                    for row in range(len(self._claims))])
        return fit_first(self._chosen, {key: wanted[key] for key in self.FIT if key in wanted}, available, self.gap)

    def show_human(self, labels: dict[int, str] | None) -> None:
        """People's labels of the claims (claim -> label); None: no column for them."""
        if labels == self._human:
            return
        self._human = None if labels is None else dict(labels)
        self._set_columns()
        self.refresh_all()

    def show(self, selection: Selection) -> None:
        previous = self.selection
        self.selection = selection
        claims = selection.claims
        member = (selection.claim, selection.claim_member, selection.tone)
        if claims is not self._claims or previous is None or previous.report is not selection.report:
            self._claims = claims
            self._labels = selection.report.claim_labels
            self._member = member
            self.empty_message = selection.report.claims_missing
            self.cursor = selection.claim if claims else None
            self._layout_width = -1  # FIT's widths are the new claims'
            self.set_row_count(len(claims))
            self.scroll_to(0, 0, animate=False, immediate=True)
            return
        if member != self._member:
            old_row = self._member[0]
            self._member = member
            self.refresh_rows((old_row, selection.claim))
        self.move_cursor(selection.claim if claims else None)

    def cell(self, row: int, column: Column) -> Cell:
        claim = self._claims[row]
        key = column.key
        if key == "index":
            return str(row)
        if key in ("human", "human_mark"):
            lens = self._labels[row] if row < len(self._labels) else None
            mark, word, tone = human_label_cell((self._human or {}).get(row), lens)
            return (mark if key == "human_mark" else word, TABLE[tone])
        if key in ("label", "mark"):
            label = self._labels[row] if row < len(self._labels) else None
            if label not in CLAIM_LABELS:
                return ("—", TABLE[Tone.PENDING])
            mark, word, tone = CLAIM_LABELS[label]
            return (mark if key == "mark" else word, TABLE[tone])
        return getattr(claim, key)

    def cell_style(self, row: int, column: Column) -> str | None:
        claim, member, tone = self._member
        if row == claim and column.key == member and tone is not None:
            return TABLE_HIGHLIGHT[tone]
        return None

    def on_safe_table_row_clicked(self, event: SafeTable.RowClicked) -> None:
        event.stop()
        self.post_message(ClaimChosen(event.row))
