"""The triage overview's time histogram (``TimeTable``): a row per bucket, the
selected group's records as a bar, its rejected, and its share of the bucket's
records (``presentation.triage.TimeShown``); the whole triage's when no group is."""

from __future__ import annotations

from ...presentation.bars import bar
from ...presentation.triage import MAX_BUCKETS, Histogram, TimeShown, iso
from ..tones import TABLE, Tone
from .growing_table import GrowingTable
from .table import Cell, Column, SafeTable

__all__ = ["TimeTable"]


class TimeTable(GrowingTable):
    """The time histogram: a row per bucket, its records as a bar, the rejected, the share of all."""

    DEFAULT_CSS = """
    TimeTable > .time-table--bar { color: $primary; }
    """
    COMPONENT_CLASSES = SafeTable.COMPONENT_CLASSES | {"time-table--bar"}
    reserve = MAX_BUCKETS

    COLUMNS = (
        Column("start", "from (UTC)", width=11),
        Column("bar", "records", min_width=4),
        Column("records", "n", width=7, justify="right"),
        Column("rejected", "✗", width=7, justify="right"),
        Column("share", "of all", width=6, justify="right"),
    )

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.shown: TimeShown | None = None
        self.histogram: Histogram | None = None
        self.most = 0
        self.set_columns(self.COLUMNS)

    def set_histogram(self, histogram: Histogram | None) -> None:
        """The whole triage's histogram."""
        self.set_shown(TimeShown(histogram, None, histogram))

    def set_shown(self, shown: TimeShown) -> None:
        self.shown = shown
        self.histogram = histogram = shown.histogram
        self.most = max((b.records for b in histogram.bars), default=0) if histogram is not None else 0
        self.set_row_count(len(histogram.bars) if histogram is not None else 0)
        self.refresh_all()

    def cell(self, row: int, column: Column) -> Cell:
        assert self.histogram is not None and self.shown is not None
        found = self.histogram.bars[row]
        key = column.key
        if key == "start":  # a day's or a week's bar by its date (the year too), a shorter one's by its minute
            shown = iso(found.start)[:10] if self.histogram.seconds >= 86400 else \
                iso(found.start)[5:16].replace("T", " ")
            return (shown, TABLE[Tone.MUTED])
        if key == "bar":
            width = self._widths[1] if len(self._widths) > 1 else 10
            return (bar(found.records, self.most, width), "time-table--bar")
        if key == "records":
            return (f"{found.records:,}", None)
        if key == "share":
            share = self.shown.share(row)
            return (f"{100 * share:.0f}%", TABLE[Tone.MUTED]) if share is not None else None
        return (f"✗ {found.rejected:,}", TABLE[Tone.BAD]) if found.rejected else ("·", TABLE[Tone.PENDING])

    def row_style(self, row: int) -> str | None:
        return None
