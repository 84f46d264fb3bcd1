"""The triage overview's time histogram (``TimeTable``): a row per bucket, the
selected group's records as a bar, its rejected, and its share of the bucket's
records (``presentation.overview.TimeShown``); the whole triage's when no group is."""

from __future__ import annotations

from textual.content import Content
from textual.message import Message

from ...presentation.bars import bar
from ...presentation.overview import Snapshot, TimeShown
from ...triage.timeline import MAX_BUCKETS, Histogram, iso
from ..tones import TABLE, TEXT, Tone
from .growing_table import GrowingTable
from .table import Cell, Column, SafeTable

__all__ = ["TimeDrawn", "TimeTable", "time_title"]


class TimeDrawn(Message):
    """A histogram drawn by a worker from a snapshot's series (``presentation.overview.time_shown``): the
    selected group's (the overview) or pair's (the pivot view)."""

    def __init__(self, shown: TimeShown, buckets: object, snapshot: Snapshot) -> None:
        super().__init__()
        self.shown = shown
        self.buckets = buckets
        self.snapshot = snapshot


def time_title(shown: TimeShown, what: str) -> Content:
    """The histogram's title: whose records (``what``: the group, the pair; or all), the bucket, the range
    (the year once when both ends share it) and the records outside it."""
    histogram = shown.histogram
    if histogram is None:
        return Content("")
    first, last = iso(histogram.first)[:10], iso(histogram.last)[:10]
    if first[:4] == last[:4]:  # the year once, in the title's few columns
        first, last = first[5:], last[5:]
    outliers = histogram.outlier_words()
    return Content.assemble("time", (f" · {what if shown.group is not None else 'all'}", "bold"),
                            (f" · per {histogram.bucket} · {first} – {last}", TEXT[Tone.MUTED]),
                            (f" · {outliers}" if outliers else "", TEXT[Tone.WARN]))


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
        self.set_row_count(len(histogram.bars) if histogram is not None else 0)  # (every row drawn again)

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
