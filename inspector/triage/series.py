"""Each group's records over time: the whole triage's histogram, drawn for one group.

The count keeps, with ``Options.series``, per count cell the dated records of
each minute (``Tally.series``), and per failing claim (``Tally.claim_series``):
what any group's records are over time, for any bucket.  A group's series is
drawn on the whole triage's bars (its bucket and range, ``summary.histogram``),
so that it lines up with them bar for bar; the records of the group outside that
range are counted before or after it, as the whole histogram's outliers are.

``Buckets`` sorts the minutes into those bars once (per count cell and per
claim: a few thousand keys, not a key a minute), and then draws any group from
them: a group of the summary (``groups.membership``: the same test that finds
its records in the index) or a pivot cell.  ``--series`` puts every group's in
the JSON; the overview draws the selected group's.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .groups import GroupKind, cell_names, claim_name
from .summary import Group, Summary
from .timeline import Bar, Histogram

__all__ = ["Buckets", "series_document"]

# Where a record outside the bars goes: before the first, after the last.
_BEFORE, _AFTER = -1, -2
# The groups without a histogram: the bad lines (not records), an item's trials (the series are kept per count
# cell, which does not say a record's item).
_UNDATED = frozenset((GroupKind.BAD, GroupKind.ITEM))


class Buckets:
    """A triage's dated records per bar of its histogram, per count cell and per failing claim."""

    def __init__(self, summary: Summary, series: Any = None, claim_series: Any = None,
                 group: Group | None = None) -> None:
        """``series`` and ``claim_series``: the tally's as they were when ``summary`` was made, where the
        tally goes on counting (the overview's snapshots: copies made in the counting thread); else the
        summary's tally's.  ``group``: only its records are sorted (a sweep that skips the others: what one
        group's histogram needs while the counts change)."""
        self.summary = summary
        self.group = group
        self.frame = frame = summary.histogram
        self.by = summary.tally.by_keys
        self.cells: dict[Any, dict[int, int]] = {}
        self.claims: dict[Any, dict[int, int]] = {}
        self._members: tuple[dict[str, list[Any]], dict[str, list[Any]]] | None = None
        if frame is None:
            return
        first, last, seconds = int(frame.first // 60), int(frame.last // 60), frame.seconds
        origin = (first * 60) // seconds * seconds
        place = {max(0, (int(bar.start) - origin) // seconds): number for number, bar in enumerate(frame.bars)}

        def bar_of(minute: int) -> int:
            if minute < first:
                return _BEFORE
            if minute > last:
                return _AFTER
            return place.get((minute * 60 - origin) // seconds, _BEFORE)

        bars: dict[int, int] = {}
        series = summary.tally.series if series is None else series
        claim_series = summary.tally.claim_series if claim_series is None else claim_series
        sources: tuple[tuple[dict[Any, dict[int, int]], Any], ...] = ((self.cells, series), (self.claims, claim_series))
        holds: Any = None
        if group is not None:
            if group.kind in _UNDATED:
                return
            column, holds = group.membership(self.by)
            sources = ((self.claims, claim_series),) if column == "claim" else ((self.cells, series),)
        for target, source in sources:
            for key, minutes in source.items():
                if holds is not None and not holds(key):
                    continue
                counts = target[key] = {}
                for minute, count in minutes.items():
                    number = bars.get(minute)
                    if number is None:
                        number = bars[minute] = bar_of(minute)
                    counts[number] = counts.get(number, 0) + count

    def drawn(self, cells: Iterable[Any] = (), claims: Iterable[Any] = ()) -> Histogram | None:
        """The histogram of these cells' and claims' records (None without dated records in the triage)."""
        frame = self.frame
        if frame is None:
            return None
        records = [0] * len(frame.bars)
        rejected = [0] * len(frame.bars)
        outside = {_BEFORE: 0, _AFTER: 0}
        for keys, table, rejections in ((cells, self.cells, None), (claims, self.claims, True)):
            for key in keys:
                counts = table.get(key)
                if not counts:
                    continue
                failed = rejections or key.verdict.status != "ACCEPT"
                for number, count in counts.items():
                    if number < 0:
                        outside[number] += count
                        continue
                    records[number] += count
                    if failed:
                        rejected[number] += count
        return Histogram(frame.bucket, frame.seconds,
                         tuple(Bar(bar.start, n, r) for bar, n, r in zip(frame.bars, records, rejected)),
                         frame.first, frame.last, outside[_BEFORE], outside[_AFTER], frame.earliest, frame.latest)

    def of(self, group: Group) -> Histogram | None:
        """One group's histogram (a pivot cell's too: ``Group.membership``); the bad lines and an item's trials have none.  Once
        asked for a group of the summary, every group's members are known (``members``, one sweep of the
        cells' names), so the next group costs only its own cells: a key in the overview, not a test of
        every cell."""
        if group.kind in _UNDATED or (self.group is not None and group.name != self.group.name):
            return None
        if group.kind is not GroupKind.PIVOT and self.group is None:
            cells, claims = self.members()
            if group.kind is GroupKind.CLAIM:
                return self.drawn(claims=claims.get(group.name, ()))
            return self.drawn(cells=cells.get(group.name, ()))
        column, holds = group.membership(self.by)
        if column == "claim":
            return self.drawn(claims=[claim for claim in self.claims if holds(claim)])
        return self.drawn(cells=[cell for cell in self.cells if holds(cell)])

    def members(self) -> tuple[dict[str, list[Any]], dict[str, list[Any]]]:
        """Per group name, its cells and its claims (``groups.cell_names``, the names of a cell's groups)."""
        if self._members is None:
            cells: dict[str, list[Any]] = {}
            for cell in self.cells:
                for name in cell_names(cell, self.by):
                    cells.setdefault(name, []).append(cell)
            claims: dict[str, list[Any]] = {}
            for claim in self.claims:
                claims.setdefault(claim_name(*claim), []).append(claim)
            self._members = (cells, claims)
        return self._members

    def every(self) -> dict[str, Histogram]:
        """Every group's histogram, by name, in one sweep over the cells (the JSON's ``--series``)."""
        if self.frame is None:
            return {}
        cells, claims = self.members()
        found = {name: self.drawn(cells=members) for name, members in cells.items()}
        found.update((name, self.drawn(claims=members)) for name, members in claims.items())
        return {name: histogram for name, histogram in found.items() if histogram is not None}


def series_document(histogram: Histogram) -> dict[str, Any]:
    """A group's series as the JSON gives it: its records and rejected per bar of the whole histogram (one
    number a bar of ``timeline.bars``, in their order: a series is two lists, not a list of objects), and its
    records outside the bars."""
    return {"records": [bar.records for bar in histogram.bars], "rejected": [bar.rejected for bar in histogram.bars],
            "before": histogram.before, "after": histogram.after}
