"""The triage overview's groups (``GroupTable``): kind, name, the summary's bar,
records and their share, and once records are annotated how many of each
group's are, and how many of those the contract got wrong (false).  Group names come from the log: untrusted, drawn
through ``safe`` like every cell."""

from __future__ import annotations

from rich.cells import cell_len
from textual.message import Message

from ...presentation.bars import bar
from ...presentation.overview import claim_columns, fit_claim_columns, rejections
from ...triage.compare import Comparison, Shift
from ...triage.items import Paired
from ...triage.groups import GroupKind
from ...triage.summary import Group
from .. import keys
from ..tones import TABLE, TABLE_HIGHLIGHT, Tone
from .growing_table import GrowingTable
from .table import Cell, Column, CursorTable, Piece, SafeTable, middle_cut, untrusted

__all__ = ["KIND_WORDS", "GroupTable"]

# How each kind of group is titled in the overview's first column.
KIND_WORDS = {
    GroupKind.CHECK: "verdict", GroupKind.REASON: "sub-reason", GroupKind.CLAIM: "claim", GroupKind.SCOPE: "scope",
    GroupKind.BY: "metadata", GroupKind.BLAME: "blame", GroupKind.CATEGORY: "category", GroupKind.RUNG: "rungs",
    GroupKind.FALSE_ACCEPT: "false accept", GroupKind.BAD: "bad lines", GroupKind.PIVOT: "pivot", GroupKind.ITEM: "item",
}


class GroupTable(CursorTable, GrowingTable):
    """The groups: kind, name, the summary's bar, records and their share."""

    HELP = (
        "**Triage groups**: each group of the log with its records (`records`), their share of every record "
        "counted (`rate`; the bad lines': of every line read) and how many the contract rejected (`rejected`): "
        "for a scope or a `--by` value, its rejected records and their share of *its own* records (`✗ 78 52%`); "
        "`✗ all` for a group of rejections (a failing verdict, a sub-reason, a failing claim, a blame, a "
        "category, citation-only's false accepts); `·` for none (ACCEPT, a scope with none); blank for a rung "
        "(records passing it, rejected later or not) and the bad lines (never verified). A failing claim's group "
        "(`claim:CHECK/FIELD/DOC`) shows its check, field and document as three columns: when they do not fit, "
        "the time histogram gives way first, then the rate, the annotated and the rejected, then the document "
        "and the field are cut in the middle. Another long name is cut in "
        "the middle; the line under the table shows the selected group's whole name. Comparing (`--against`): "
        "each group's rate `before` (--against's logs) and `after` (the logs given), the rejected share of its "
        "own records for a scope or a `--by` value, its share of all records for the others, and the `change` "
        "in points, highlighted when more than noise (a two-proportion z-test whose q, Benjamini-Hochberg over the "
        "groups tested, is below 0.01), dim when too few "
        "records to tell; `new` and `vanished` groups. When both runs name their items (`--item`, Inspect's "
        "samples), a `--by` value's `items lost, gained` beside its change: its items in both runs accepted "
        "before only and after only, of those paired, and McNemar's exact p (highlighted below 0.01); the first "
        "column to give way."
    )

    DEFAULT_CSS = """
    GroupTable > .group-table--bar { color: $primary; }
    """
    COMPONENT_CLASSES = SafeTable.COMPONENT_CLASSES | {"group-table--bar"}
    BINDINGS = keys.bindings("triage", on="table")
    reserve = 64

    COLUMNS = (
        Column("kind", "", width=12),
        Column("group", "group", min_width=16, cut="middle"),
        Column("bar", "", min_width=8),
        Column("records", "records", width=9, justify="right"),
        Column("rate", "rate", width=6, justify="right"),
        Column("rejected", "rejected", width=8, justify="right"),  # as wide as its widest cell (set_groups)
    )
    # Once a reviewer annotated records of the logs: how many of the group's, and how many the contract got wrong.
    ANNOTATED = Column("annotated", "annotated", width=12, justify="right")
    # Comparing (--against): the rate before and after, and the change, in place of the rate and the rejected.
    COMPARED = (
        Column("before", "before", width=7, justify="right"),
        Column("after", "after", width=7, justify="right"),
        Column("change", "change", width=10, justify="right"),
    )
    # ... with items named on both sides: a --by value's paired items beside its rate change (the first to give way).
    PAIRED = Column("paired", "items lost, gained", width=25, justify="right")

    class Moved(Message):
        """The cursor is on another group (or on none)."""

        def __init__(self, group: Group | None) -> None:
            super().__init__()
            self.group = group

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.groups: list[Group] = []
        self.records = 0
        self.lines = 0
        self.by_kind = True
        self.annotated = False
        self.shifts: dict[str, Shift] | None = None
        self.comparison: Comparison | None = None  # the shifts' comparison, for the paired items beside them
        self._longest = 0  # the longest group name but the claims', in cells: what the name column needs
        self._claims = (0, 0, 0)  # the widest check, field and document of the claim groups (claim_columns)
        self._widest = 0  # the widest rejected cell
        # Whether the cursor was moved (a key, a click): it then stays on its group as the counts reorder the
        # rows; until then it stays on the first row, in view (not on the group first shown there).
        self.chosen = False
        self.set_columns(self.COLUMNS)
        self.empty_message = "counting…"

    def set_groups(self, groups: list[Group], records: int, lines: int, by_kind: bool,
                   shifts: dict[str, Shift] | None = None, comparison: Comparison | None = None) -> None:
        """Show these groups: the cursor on the group it was moved to while that is still there (scrolled into
        view), else on the first row."""
        current, row = self.current, self.cursor
        self.groups, self.records, self.lines, self.by_kind = groups, records, lines, by_kind
        cursor = next((row for row, group in enumerate(groups) if current is not None and group.name == current.name),
                      None) if self.chosen else None
        self.cursor = cursor if cursor is not None else (0 if groups else None)
        annotated = any(group.annotated is not None for group in groups)
        longest = max((cell_len(group.name) for group in groups if group.kind is not GroupKind.CLAIM), default=0)
        parts = [found for found in map(claim_columns, groups) if found is not None]
        claims = (max((cell_len(check) for check, _, _ in parts), default=0),
                  max((cell_len(field) for _, field, _ in parts), default=0),
                  max((cell_len(doc) for _, _, doc in parts), default=0))
        widest = max((len(cell[0]) for cell in map(_rejected, groups) if cell is not None), default=0)
        if annotated != self.annotated or longest != self._longest or widest != self._widest or \
                claims != self._claims or (shifts is None) != (self.shifts is None) or \
                self._pairs(comparison) != self._pairs(self.comparison):
            self.annotated, self._longest, self._widest, self._claims = annotated, longest, widest, claims
            self._layout_width = -1  # the columns are fitted again
        self.shifts, self.comparison = shifts, comparison
        self.set_row_count(len(groups))
        if self.cursor is not None and self.cursor != row:  # its group moved: in view (a scroll by hand stays)
            self.scroll_to_row(self.cursor)
        if (self.current and self.current.name) != (current and current.name):
            self.post_message(self.Moved(self.current))

    def move_cursor(self, row: int | None, *, scroll: bool = True) -> None:
        self.chosen = True
        super().move_cursor(row, scroll=scroll)

    def cursor_changed(self) -> None:
        self.post_message(self.Moved(self.current))

    # -- fitting the columns to the width -------------------------------------------------

    def _ensure_layout(self) -> None:
        available = self.scrollable_content_region.width or self.size.width
        if available != self._layout_width or not self._widths:
            self.columns = self._fitted(available)
        super()._ensure_layout()

    @property
    def names_need(self) -> int:
        """The cells the name column needs: the longest name, a claim's three columns whole."""
        check, field, doc = self._claims
        return max(self._longest, check + field + doc + 2 if check else 0)

    def fits_names(self, available: int) -> bool:
        """Whether at ``available`` cells every name is whole beside every count (the screen's time histogram
        gives way when not: ``TriageScreen``)."""
        return self._room(self._counts(), available) >= self.names_need

    def _counts(self) -> list[Column]:
        """The count columns shown when there is room for them all."""
        counts = [_sized(column, max(column.width or 0, self._widest)) if column.key == "rejected" else column
                  for column in self.COLUMNS[3:]]
        if self.shifts is not None:  # before, after and the change say what rate and rejected would
            counts = [counts[0], *self.COMPARED]
            if self._pairs(self.comparison):
                counts.append(self.PAIRED)
        if self.annotated:
            counts.append(self.ANNOTATED)
        return counts

    def _room(self, counts: list[Column], available: int) -> int:
        """The cells left to the name (and the bar) beside the kind and these counts."""
        kind = self.COLUMNS[0]
        return available - sum(column.width or 0 for column in (kind, *counts)) - self.gap * (len(counts) + 1)

    def _fitted(self, available: int) -> tuple[Column, ...]:
        """The columns for this width: the count always; the name as wide as the longest needs, up to
        what is left after the counts (then cut in the middle); the bar gets the rest, or gives way.  The
        other counts give way to a claim's three columns (``names_need``), never to another long name."""
        kind, group, bar_column, *_ = self.COLUMNS
        counts = self._counts()
        check, field, doc = self._claims
        least = max(group.min_width, check + field + doc + 2 if check else 0)
        counts = [_sized(column, max(column.width or 0, self._widest)) if column.key == "rejected" else column
                  for column in counts]
        # Narrower than the name's least: the paired items, the share, then the annotated and rejected give way,
        # never the count (comparing: before, then after; never the change).
        for key in ("paired", "rate", "annotated", "rejected", "before", "after"):
            if self._room(counts, available) >= least:
                break
            counts = [column for column in counts if column.key != key]
        room = self._room(counts, available)
        need = max(self.names_need, group.min_width)
        name = max(group.min_width, min(need, room))
        bar_width = room - name - self.gap
        if bar_width >= bar_column.min_width:
            return (kind, _sized(group, name), _sized(bar_column, bar_width), *counts)
        return (kind, _sized(group, max(group.min_width, room)), *counts)

    @property
    def current(self) -> Group | None:
        return self.groups[self.cursor] if self.cursor is not None and self.cursor < len(self.groups) else None

    def cell(self, row: int, column: Column) -> Cell:
        group = self.groups[row]
        key = column.key
        if key == "kind":
            if self.by_kind and row > 0 and self.groups[row - 1].kind is group.kind:
                return None
            return (KIND_WORDS[group.kind], TABLE[Tone.MUTED])
        if key == "group":
            parts = claim_columns(group)
            if parts is not None:
                return self._claim_cell(parts)
            return group.name  # untrusted: fields, sources, scopes and metadata come from the log
        if key == "bar":
            total = self.lines if group.kind.lines else self.records
            width = self._widths[2]
            style = TABLE[Tone.BAD] if group.kind in (GroupKind.BAD, GroupKind.FALSE_ACCEPT) else \
                TABLE[Tone.GOOD] if group.name in ("ACCEPT", "rung:contract") else "group-table--bar"
            return (bar(group.records, total, width), style)
        if key == "records":
            return (f"{group.records:,}", None)
        if key == "rate":
            return (f"{100 * group.rate:.1f}%", TABLE[Tone.MUTED])
        if key in ("before", "after", "change"):
            return _compared(self.shifts.get(group.name) if self.shifts else None, key)
        if key == "paired":
            return self._paired(group)
        if key == "annotated":
            if not group.annotated:
                return ("·", TABLE[Tone.PENDING]) if group.annotated is not None else None
            wrong = (group.false_rejections or 0) + (group.false_acceptances or 0)
            return (f"{group.annotated:,} · {wrong:,} false", TABLE[Tone.BAD]) if wrong else \
                (f"{group.annotated:,}", None)
        return _rejected(group)

    @staticmethod
    def _pairs(comparison: Comparison | None) -> bool:
        """Whether the comparison paired items (the column of the paired items is shown)."""
        return comparison is not None and comparison.items is not None

    def paired(self, group: Group) -> Paired | None:
        """A --by value's items in both runs (``Comparison.paired``); None for another group, or not comparing."""
        shift = self.shifts.get(group.name) if self.shifts else None
        return self.comparison.paired(shift) if self.comparison is not None and shift is not None else None

    def _paired(self, group: Group) -> tuple[str, str | None] | None:
        """A --by value's items in both runs: lost and gained, McNemar's p; strong when p < 0.01."""
        paired = self.paired(group)
        if paired is None:
            return None
        if paired.p >= 0.01 or paired.regressed == paired.fixed:
            return (paired.beside_words(), TABLE[Tone.MUTED])
        return (paired.beside_words(), TABLE_HIGHLIGHT[Tone.BAD if paired.regressed > paired.fixed else Tone.GOOD])

    def _claim_cell(self, parts: tuple[str, str, str]) -> list[Piece]:
        """A claim's check, field and document in their columns (``fit_claim_columns``), each padded to its
        column's width; the field and the document (untrusted: from the log) cut in the middle when too long."""
        widths = fit_claim_columns(self._claims, self._widths[1])
        pieces: list[Piece] = []
        for at, (text, width) in enumerate(zip(parts, widths, strict=True)):
            shown = middle_cut(untrusted(text), width)
            pieces += shown
            if at < 2:
                pieces.append((" " * (width - sum(cell_len(piece) for piece, _ in shown) + 1), None))
        return pieces

    def on_safe_table_row_clicked(self, event: SafeTable.RowClicked) -> None:
        event.stop()
        self.move_cursor(event.row)


def _rejected(group: Group) -> tuple[str, str | None] | None:
    """The rejected cell: what it means for this kind of group (``GroupTable.HELP``)."""
    rejected = rejections(group)
    if rejected is None:
        return None
    if not rejected:
        return ("·", TABLE[Tone.PENDING])
    if group.rejected_rate is None:  # a group of rejections: every record of it
        return ("✗ all", TABLE[Tone.BAD])
    return (f"✗ {rejected:,} {100 * group.rejected_rate:.0f}%", TABLE[Tone.BAD])


def _compared(shift: Shift | None, key: str) -> tuple[str, str | None] | None:
    """A comparison's cell: a side's rate, or the change (``GroupTable.HELP``)."""
    if shift is None:
        return None
    if key != "change":
        before, after = shift.rates_words()
        said = before if key == "before" else after
        return (said, TABLE[Tone.PENDING] if said == "-" else TABLE[Tone.MUTED])
    said = shift.change_words()
    if shift.change is None:
        return (said, TABLE[Tone.WARN])
    if shift.significant:
        return (said, TABLE_HIGHLIGHT[Tone.BAD if shift.worse else Tone.GOOD])
    if not shift.tested:
        return (said, TABLE[Tone.PENDING])
    return (said, TABLE[Tone.BAD] if shift.worse else None)


def _sized(column: Column, width: int) -> Column:
    return Column(column.key, column.title, width=width, justify=column.justify, cut=column.cut)
