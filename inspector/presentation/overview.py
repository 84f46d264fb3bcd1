"""A triage as the overview shows it: what to count and how (``TriageRun``), the
count itself, handed over as it goes (``count``: each ``Snapshot``), the groups in
the order chosen (``overview_groups``) and the histogram of the one selected
(``time_shown``).

The counts are the engine's (``triage.summary``): the overview only orders and
filters its groups.  Two of its dimensions crossed are ``pivot_view``'s, a
group's records ``record_session``'s, a group written as a suite ``group_export``'s.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..contract.models import Registry
from ..triage.drill import LineReader
from ..triage.engines import Engine
from ..triage.follow import FollowEvent, FollowProgress
from ..triage.groups import BAD, KINDS, ClaimDetail, GroupKind, claim_parts
from ..triage.logs import LogError
from ..triage.mapping import DEFAULT_FORMAT, LogFormat
from ..triage.job import Following, TriageJob
from ..triage.compare import Comparison, Shift
from ..triage.run import LocalEngine, local_engine
from ..triage.series import Buckets
from ..triage.stamp import LogChanged, LogStamp, changed_logs
from ..triage.summary import Group, Summary, summarize
from ..triage.tally import Options, Tally
from ..triage.timeline import Histogram

__all__ = [
    "CLAIM_PART_CELLS",
    "COMPARED_SORTS",
    "SORTS",
    "SORT_WORDS",
    "TASK_BYTES",
    "Snapshot",
    "TimeShown",
    "TriageRun",
    "claim_columns",
    "count",
    "fit_claim_columns",
    "has_buckets",
    "log_changes",
    "overview_groups",
    "rejections",
    "time_shown",
    "triage_run",
]

# How the overview orders its groups: as the summary lists them (by kind, the
# largest first), by rejections (``rejections``: the passing groups last), by
# count across kinds, or by name.
SORTS = ("kind", "rejections", "count", "name")
# Comparing two triages (--against): by the change's weight first (``Shift.weight``: significant first).
COMPARED_SORTS = ("change", *SORTS)
SORT_WORDS = {"kind": "by kind", "rejections": "by rejections", "count": "by count", "name": "by name",
              "change": "by change"}
# The kinds whose every record the contract rejected (a failing verdict is a ``check`` group but ACCEPT).
_REJECTION_KINDS = frozenset({GroupKind.CHECK, GroupKind.REASON, GroupKind.CLAIM, GroupKind.BLAME,
                              GroupKind.CATEGORY, GroupKind.FALSE_ACCEPT})


def rejections(group: Group) -> int | None:
    """How many of the group's records the contract rejected, where that means something: a population's
    (a scope, a ``--by`` value) ``rejected``; all of a group of rejections (a failing verdict, a sub-reason,
    a failing claim, a blame, a category, citation-only's false accepts); none of ACCEPT's.  None for a
    rung (the records passing it, rejected later or not) and the bad lines (not records: never verified)."""
    if group.population is not None:
        return group.rejected or 0
    if group.kind is GroupKind.CHECK and group.name == "ACCEPT":
        return 0
    return group.records if group.kind in _REJECTION_KINDS else None


# The least a claim's field or document is cut to (in the middle) when its three columns do not fit.
CLAIM_PART_CELLS = 8


def claim_columns(group: Group) -> tuple[str, str, str] | None:
    """A claim group's check, field and document, each as its name spells it (``claim:CHECK/FIELD/DOC``:
    the overview shows them as three columns, so the check and the field are never lost to a cut of the
    name); None for a group of another kind."""
    detail = group.detail
    if group.kind is not GroupKind.CLAIM or not isinstance(detail, ClaimDetail):
        return None
    return claim_parts(detail.check, detail.field, detail.doc)


def fit_claim_columns(widest: tuple[int, int, int], width: int) -> tuple[int, int, int]:
    """The cells of a claim's check, field and document columns within ``width`` (a cell between two):
    each as wide as its widest (``widest``) when they fit; else the document gives way, then the field,
    each down to ``CLAIM_PART_CELLS`` (a value longer is cut in the middle: its head and tail tell it
    from its neighbours'), the check last (a check's name is at most 20 cells)."""
    check, field, doc = widest
    over = check + field + doc + 2 - width
    for at in (2, 1, 0):
        if over <= 0:
            break
        parts = [check, field, doc]
        least = 1 if at == 0 else min(parts[at], CLAIM_PART_CELLS)
        given = min(over, parts[at] - least)
        parts[at] -= given
        over -= given
        check, field, doc = parts
    return check, field, doc


def overview_groups(summary: Summary, sort: str = "kind", text: str = "",
                    shifts: dict[str, Shift] | None = None) -> list[Group]:
    """The summary's groups whose name contains ``text`` (case-insensitive), in ``sort`` order.  With
    ``shifts`` (a comparison, ``Snapshot.shifts``), the groups of --against's logs that vanished too (no
    record here), and ``change`` sorts by the change's weight."""
    everything = list(summary.groups)
    if shifts:
        vanished = [Group(shift.name, shift.kind, 0, 0.0, total=summary.records)
                    for shift in shifts.values() if shift.vanished]
        if vanished:  # each after its kind's groups (the summary's order is by kind: a stable sort keeps it)
            everything = sorted(everything + vanished, key=lambda group: KINDS.index(group.kind))
    needle = text.casefold().strip()
    groups = [group for group in everything if needle in group.name.casefold()] if needle else everything
    if sort == "change" and shifts:
        groups.sort(key=lambda group: shifts[group.name].weight() if group.name in shifts else (True,))
    elif sort == "rejections":
        # The most rejections first; the groups with none (ACCEPT, the rungs, the bad lines) last, largest first.
        def most_rejected(group: Group) -> tuple[bool, int, str]:
            rejected = rejections(group)
            return (not rejected, -(rejected or group.records), group.name)

        groups.sort(key=most_rejected)
    elif sort == "count":
        groups.sort(key=lambda group: (-group.records, group.name))
    elif sort == "name":
        groups.sort(key=lambda group: group.name.casefold())
    return groups


# -- a triage run, and what it has counted so far --------------------------------------

# While counting, how often the series are copied for the overview's histogram (seconds).
SERIES_EVERY = 1.0

# The overview's tasks are smaller than the headless summary's: the first counts
# are drawn after one task (4 MiB, ~7,000 lines: 0.5 s on the 1M-line log against
# 2.9 s with 16 MiB, the same busy machine) and Esc is answered within one task.
TASK_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class TriageRun:
    """What to triage and how: the logs, the registry (and its path, as the
    summary names it), the options, and the engine that counts.  ``follow``:
    once counted, the logs are followed as they grow (``triage.follow``, every
    ``poll_seconds``: None for its default)."""

    logs: tuple[str, ...]
    registry: Registry
    registry_path: str
    options: Options = Options(index=True)
    engine: Engine = field(default_factory=LocalEngine)
    follow: bool = False
    pivot: tuple[str, str] | None = None  # the pivot view's dimensions at first (--pivot A,B)
    against: tuple[str, ...] = ()  # the logs compared with (--against: before), counted beside the logs
    # The logs as given, when they are counted from staged copies (a --log-format document): what is shown.
    given: tuple[str, ...] | None = None
    poll_seconds: float | None = None

    @property
    def job(self) -> TriageJob:
        """The count this run starts with (``triage.job``), its logs stamped for rereading (a followed
        run's by the follower, as they grow)."""
        following = None
        if self.follow:
            following = Following(self.poll_seconds) if self.poll_seconds is not None else Following()
        return TriageJob(self.logs, self.registry, self.registry_path, self.options, self.against, self.engine,
                         self.given, stamp=not self.follow, follow=following)

    @property
    def names(self) -> tuple[str, ...]:
        """The logs as the user named them (``given``, else ``logs``)."""
        return self.given if self.given is not None else self.logs


def triage_run(logs: Sequence[str], registry: Registry, registry_path: str | Path, by: Sequence[str] = (),
               since: float | None = None, until: float | None = None, log_format: LogFormat = DEFAULT_FORMAT,
               follow: bool = False, pivot: tuple[str, str] | None = None, against: Sequence[str] = (),
               given: Sequence[str] | None = None, engine: Engine | None = None, workers: int | None = None,
               task_bytes: int | None = None, progress_every: float | None = None,
               poll_seconds: float | None = None, item: str | None = None) -> TriageRun:
    """A triage for the overview: always with the index (a group opens from it);
    ``log_format``: where the lines' members are (every reread reads them so);
    ``follow``: the logs are followed as they grow (``triage.follow``).  ``engine``
    (or the local engine of ``workers``, ``task_bytes``, ``progress_every``) counts
    in ranges of ``TASK_BYTES`` unless it says otherwise: the counts fill in sooner.  ``item``: where a record's
    item is named (``--item``: as the summary's, ``tally.Options.item``; None: the item member, else the request)."""
    return TriageRun(tuple(logs), registry, str(registry_path),
                     Options(by=tuple(dict.fromkeys(by)), since=since, until=until, index=True,
                             log_format=log_format, series=True, item=item),
                     _overview_engine(local_engine(engine, workers, task_bytes, None, progress_every)), follow,
                     pivot, tuple(against), tuple(given) if given is not None else None, poll_seconds)


def _overview_engine(engine: Engine) -> Engine:
    """``engine``, counting in ranges of ``TASK_BYTES`` when it names no size of its own."""
    if engine.task_bytes is not None:
        return engine
    if isinstance(engine, LocalEngine):
        return replace(engine, task_bytes=TASK_BYTES)
    from ..triage.distributed import DaskEngine

    return replace(engine, task_bytes=TASK_BYTES) if isinstance(engine, DaskEngine) else engine


@dataclass
class Snapshot:
    """The counts so far (or in the end), summarised, with how far the run is."""

    summary: Summary
    indexed: int  # lines in the index when summarised: what a group opened now holds
    bad: list[tuple[str, int, str]]  # the first bad lines so far (tally.BAD_KEPT): (file, line, reason)
    lines: int
    bytes_done: int
    total_bytes: int | None
    seconds: float
    done: bool = False
    cancelled: bool = False
    failed: str | None = None  # why a log could not be read at all
    # every log that broke off before its end so far: (file, line after which, why)
    broken: list[tuple[str, int, str]] = field(default_factory=list)

    @property
    def bad_lines(self) -> int:
        """Every bad line counted so far (``bad`` lists the first ones)."""
        group = self.summary.group(BAD)
        return group.records if group is not None else 0
    # Each log as it was when the counting started: a reread checks it (``triage.stamp``).
    stamps: dict[str, LogStamp] = field(default_factory=dict)
    # In the end: the logs that changed while they were counted (the counts may mix two files).
    changed: tuple[LogChanged, ...] = ()
    # Following (``TriageRun.follow``): the lines already there are counted and new ones are
    # counted as they come, this many a second; the latest of what happened to the logs
    # (rotations, truncations...), ``event_count`` counting every one.
    following: bool = False
    per_second: float = 0.0
    events: tuple[FollowEvent, ...] = ()
    event_count: int = 0
    # The tally's cells and series when summarised, while it goes on counting (copies: the counting thread
    # changes the tally's own); None once done (the tally's are final).
    frozen: tuple[dict[Any, int], dict[Any, int], dict[Any, int]] | None = None
    # The tally's items when summarised (``Tally.items``: a copy, as the cells), None once done.
    frozen_items: dict[Any, int] | None = None
    # Comparing (``TriageRun.against``), once both are counted: --against's summary, and each group's change.
    baseline: Summary | None = None
    shifts: dict[str, Shift] | None = None
    comparison: Comparison | None = None  # the same shifts in order, and the family the FDR is controlled over

    def cells(self) -> dict[Any, int]:
        """The counts' cells (``Tally.cells``) as summarised."""
        return self.frozen[0] if self.frozen is not None else self.summary.tally.cells

    def items(self) -> dict[Any, int]:
        """The counts' items (``Tally.items``: per item, its trials by status) as summarised."""
        return self.frozen_items if self.frozen_items is not None else self.summary.tally.items

    def buckets(self, group: Group | None = None) -> Buckets:
        """The series as summarised, sorted into the histogram's bars (``group``: only its records)."""
        if self.frozen is not None:
            return Buckets(self.summary, self.frozen[1], self.frozen[2], group=group)
        return Buckets(self.summary, group=group)

    @property
    def records_per_second(self) -> float:
        return self.summary.records / self.seconds if self.seconds > 0 else 0.0


def count(run: TriageRun, report: Callable[[Snapshot], object], cancel: threading.Event,
          reader: LineReader | None = None) -> None:
    """Triage ``run`` (the engine, on every core), calling ``report`` with each
    partial count the engine hands over, summarised here, in the caller's thread
    (the counts go on changing once the engine carries on: they are summarised
    before), and once more at the end (``done``; ``cancelled`` if ``cancel`` was
    set).  A log that cannot be read at all ends it with ``failed``.  With
    ``reader`` (the session's), a ``.gz`` log's restart points are kept in it as
    the count decompresses, so a drill-down decompresses at most one interval.
    Each log is stamped as the counting starts (``Snapshot.stamps``: what a
    reread of its lines checks), and checked against it at the end (``changed``).

    With ``run.follow`` the count goes on as the logs grow (``triage.follow``:
    the lines there counted on every core, then each line appended), reporting
    at least every second, until ``cancel`` is set; the stamps are then the
    follower's, kept as it goes (a log may grow, not be replaced or shorten)."""
    from ..triage.job import run_job

    last: list[Snapshot] = []
    stamps: dict[str, LogStamp] = {}
    # The series copied for the snapshots (a dict of a key per dated minute and cell: hundreds of thousands on a
    # big log), at most once a second, what the overview's histogram is redrawn at while counting.
    series: list[Any] = [0.0, {}, {}]

    def progress(state: Any) -> None:
        tally = state.tally
        now = time.monotonic()
        if now - series[0] >= SERIES_EVERY:
            series[:] = [now, {cell: dict(minutes) for cell, minutes in tally.series.items()},
                         {claim: dict(minutes) for claim, minutes in tally.claim_series.items()}]
        following = state if isinstance(state, FollowProgress) else None
        snapshot = Snapshot(summarize(tally, run.options, run.names, run.registry_path),
                            len(tally.index) if tally.index is not None else 0, list(tally.bad),
                            tally.lines if run.against else state.lines, state.bytes_done, state.total_bytes,
                            state.seconds,
                            broken=list(tally.broken), stamps=stamps,
                            frozen=(dict(tally.cells), series[1], series[2]), frozen_items=dict(tally.items))
        if following is not None:
            snapshot.following, snapshot.per_second = following.caught_up, following.per_second
            snapshot.events, snapshot.event_count = following.events, following.event_count
        last[:] = [snapshot]
        report(snapshot)

    try:  # --against's logs counted beside the logs, in the same workers
        result = run_job(run.job, progress=progress, cancel=cancel,
                         indexes=reader.indexes if reader is not None else None, stamps=stamps)
    except LogError as exc:
        report(Snapshot(summarize(Tally(), run.options, run.names, run.registry_path), 0, [], 0, 0, None, 0.0,
                        done=True, failed=str(exc)))
        return
    final = last[0]  # the engine reports once at the end, always
    compared = result.comparison
    shifts = {shift.name: shift for shift in compared} if compared is not None else None
    report(Snapshot(final.summary, final.indexed, final.bad, final.lines, final.bytes_done, final.total_bytes,
                    final.seconds, done=True, cancelled=cancel.is_set(), broken=final.broken, stamps=stamps,
                    changed=tuple(changed_logs(stamps)), events=final.events, event_count=final.event_count,
                    baseline=result.baseline, shifts=shifts, comparison=compared))


@dataclass(frozen=True)
class TimeShown:
    """What the overview's time histogram draws: the selected group's records over time (``group`` its name)
    on the whole triage's bars, or the whole triage's (``group`` None: the bad lines, or nothing selected)."""

    histogram: Histogram | None
    group: str | None
    whole: Histogram | None  # the whole triage's, bar for bar: what a group's share of each bar is of

    def share(self, bar: int) -> float | None:
        """The group's share of the records of one bar (None for the whole, or an empty bar)."""
        if self.group is None or self.histogram is None or self.whole is None:
            return None
        total = self.whole.bars[bar].records
        return self.histogram.bars[bar].records / total if total else None


def has_buckets(snapshot: Snapshot, buckets: Buckets | None) -> bool:
    """Whether ``buckets`` are the finished ``snapshot``'s whole sweep (then ``time_shown`` takes milliseconds)."""
    return buckets is not None and buckets.summary is snapshot.summary and buckets.group is None


def time_shown(snapshot: Snapshot, group: Group | None,
               buckets: Buckets | None = None) -> tuple[TimeShown, Buckets | None]:
    """The histogram the overview shows for ``group`` (a pivot cell's too) in ``snapshot``, and the
    snapshot's ``Buckets`` once counted (pass them back for the next group: they are built once, a sweep over
    every dated record's minute and cell; while counting, each group's own sweep, None)."""
    summary = snapshot.summary
    whole = summary.histogram
    if group is None or group.kind is GroupKind.BAD or whole is None:
        return TimeShown(whole, None, whole), buckets
    if not snapshot.done:  # the counts change: only this group's records are swept, nothing kept for the next
        return TimeShown(snapshot.buckets(group).of(group), group.name, whole), None
    if not has_buckets(snapshot, buckets):
        buckets = snapshot.buckets()
    return TimeShown(buckets.of(group), group.name, whole), buckets  # type: ignore[union-attr]  # has_buckets: set


def log_changes(snapshot: Snapshot) -> list[LogChanged]:
    """The logs counted in ``snapshot`` that are not what was counted any more (a stat each)."""
    return changed_logs(snapshot.stamps)
