"""A triage as the inspector shows it: the overview's rows, and a group's records
as the cases of a suite, read from the log only as they are shown.

The counts are the engine's (``triage.summary``): the overview only orders and
filters its groups.  A group can hold hundreds of thousands of records, so its
records are never all built: the engine's ``triage.members`` finds a group's
lines and turns the n-th into a ``Case`` as it is asked for.
``RecordSession`` is a ``Session`` over that lazy suite, so the main view and
the lab work on a record exactly as on a suite's case.
"""

from __future__ import annotations

import operator
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import compress
from pathlib import Path
from typing import Any

from ..contract.checks import CHECKS, label_of
from ..contract.models import Registry
from ..reports.case import CaseReport
from ..suites.load import Case, CaseError, Suite
from ..triage.drill import LineReader
from ..triage.export import ExportError, SampleTaken, export_suite, suite_bytes
from ..triage.engines import Engine
from ..triage.follow import FollowEvent, FollowProgress
from ..triage.groups import BAD, KINDS, GroupKind, PivotDetail, other_name
from ..triage.sample import sample_numbers
from ..triage.logs import LogError
from ..triage.mapping import DEFAULT_FORMAT, LogFormat
from ..triage.job import Following, TriageJob
from ..triage.members import GroupMembers, RecordCases, Rereader, place_name, record_report, record_suite
from ..triage.compare import Comparison, Shift, compare
from ..triage.run import LocalEngine, local_engine
from ..triage.pivot import CHECK, SCOPE, Pivot, PivotCell, pivot, pivot_problem
from ..triage.series import Buckets
from ..triage.stamp import LogChanged, LogStamp, changed_logs, check_stamps
from ..triage.summary import Group, Summary, summarize
from ..triage.tally import VERDICT_LABELS, Options, Tally
from ..triage.timeline import MAX_BUCKETS, Histogram, iso
from .marks import Marks
from .numbers import NumberError, ascii_digits, whole_number
from .session import Session

__all__ = [
    "EXPORT_LIMIT",
    "COMPARED_SORTS",
    "Comparison",
    "SORTS",
    "SORT_WORDS",
    "Shown",
    "Shift",
    "TASK_BYTES",
    "ExportError",
    "FollowEvent",
    "Group",
    "GroupKind",
    "GroupMembers",
    "Histogram",
    "LineReader",
    "LogChanged",
    "MAX_BUCKETS",
    "PIVOT_SORTS",
    "Pivot",
    "PivotCell",
    "RecordCases",
    "RecordSession",
    "Snapshot",
    "StaleExport",
    "TimeShown",
    "Summary",
    "TriageRun",
    "count",
    "export_download",
    "export_group",
    "export_path",
    "iso",
    "log_changes",
    "open_group",
    "other_name",
    "overview_groups",
    "pivot",
    "pivot_default",
    "pivot_dimensions",
    "pivot_group",
    "pivot_keys",
    "pivot_rows",
    "record_suite",
    "rejections",
    "has_buckets",
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


# -- a pivot of two dimensions, in the overview --------------------------------------

# How the pivot view orders its pairs: the most records first, the largest rejected share, the largest share of
# its row, or by name.
PIVOT_SORTS = ("records", "rejected", "share", "name")


def pivot_dimensions(by: Sequence[str]) -> tuple[str, ...]:
    """What a triage counted by ``by`` can cross: the scope, the check, each --by path."""
    return (SCOPE, CHECK, *by)


def pivot_default(run: TriageRun) -> tuple[str, str]:
    """The pivot view's dimensions at first: --pivot's, else the first --by path's by check, else the scope's."""
    by = run.options.by
    return run.pivot or ((by[0], CHECK) if by else (SCOPE, CHECK))


def pivot_keys(text: str, by: Sequence[str]) -> tuple[str, str]:
    """The two dimensions ``A,B`` names, each one this triage counted; ValueError with the line to show."""
    problem = pivot_problem(text.strip())
    if problem is not None:
        raise ValueError(problem.removeprefix("--pivot "))
    first, second = (key.strip() for key in text.split(","))
    dimensions = pivot_dimensions(by)
    for key in (first, second):
        if key not in dimensions:
            raise ValueError(f"{key!r} was not counted: count with --by {key} (here: {', '.join(dimensions)})")
    if first == second:
        raise ValueError(f"{first!r} twice; cross two different dimensions")
    return first, second


def pivot_rows(crossed: Pivot, sort: str = "records") -> list[PivotCell]:
    """The pivot's pairs in ``sort`` order (``PIVOT_SORTS``)."""
    cells = list(crossed.cells)
    if sort == "rejected":
        cells.sort(key=lambda cell: (-cell.rejected_rate, -cell.records, cell.a, cell.b))
    elif sort == "share":
        cells.sort(key=lambda cell: (-cell.share, -cell.records, cell.a, cell.b))
    elif sort == "name":
        cells.sort(key=lambda cell: (cell.a.casefold(), cell.b.casefold()))
    return cells


def pivot_group(crossed: Pivot, cell: PivotCell) -> Group:
    """A pair of the pivot as a group: its records open (``open_group``) and are drawn over time (``time_shown``)
    as any group's (``Group.membership``)."""
    return Group(cell.name, GroupKind.PIVOT, cell.records, cell.share, cell.rejected,
                 detail=PivotDetail(crossed.keys, cell.a, cell.b))


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
               poll_seconds: float | None = None) -> TriageRun:
    """A triage for the overview: always with the index (a group opens from it);
    ``log_format``: where the lines' members are (every reread reads them so);
    ``follow``: the logs are followed as they grow (``triage.follow``).  ``engine``
    (or the local engine of ``workers``, ``task_bytes``, ``progress_every``) counts
    in ranges of ``TASK_BYTES`` unless it says otherwise: the counts fill in sooner."""
    return TriageRun(tuple(logs), registry, str(registry_path),
                     Options(by=tuple(dict.fromkeys(by)), since=since, until=until, index=True,
                             log_format=log_format, series=True),
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
    # Comparing (``TriageRun.against``), once both are counted: --against's summary, and each group's change.
    baseline: Summary | None = None
    shifts: dict[str, Shift] | None = None
    comparison: Comparison | None = None  # the same shifts in order, and the family the FDR is controlled over

    def cells(self) -> dict[Any, int]:
        """The counts' cells (``Tally.cells``) as summarised."""
        return self.frozen[0] if self.frozen is not None else self.summary.tally.cells

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
                            frozen=(dict(tally.cells), series[1], series[2]))
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


def open_group(group: Group, snapshot: Snapshot, run: TriageRun, reader: LineReader) -> RecordSession:
    """A session over the group's records as counted in ``snapshot``; each
    record is reread only from a log still what was counted, and only if its
    verdict is still the one counted (else it is a broken case saying so).
    ``LogChanged`` when a log already changed: nothing of it can be shown."""
    index = snapshot.summary.tally.index
    if index is None:  # pragma: no cover - the overview always counts with the index
        raise ValueError("this triage kept no index")
    check_stamps(snapshot.stamps)
    members = GroupMembers(group, index, snapshot.indexed, run.options.by, reader, registry=run.registry,
                           stamps=snapshot.stamps, log_format=run.options.log_format)
    return RecordSession(record_suite(group, members, run.names, run.registry))


# -- a group written as a suite ------------------------------------------------------------

# How many records an export from the overview takes unless told: the first ones.
EXPORT_LIMIT = 1000


class StaleExport(ExportError):
    """An export refused because a log is not what was counted any more (its
    ``path``): nothing was written, and counting again is the way on."""


def export_path(group: Group) -> str:
    """The file an export of the group proposes: its name, made a plain file name."""
    stem = re.sub(r"[^A-Za-z0-9._=-]+", "_", group.name).strip("._")[:80] or "group"
    return f"{stem}.json"


@dataclass(frozen=True, slots=True)
class Shown:
    """The records of a group its list shows when narrowed (``/``'s filter, a choice in the palette or the
    summary): their numbers, ascending, and how they were chosen in words (``filter model=gpt-x``).  An
    export takes what the user sees: the first ones, a sample and the marked ones are taken among these."""

    numbers: tuple[int, ...]
    words: str

    def __len__(self) -> int:
        return len(self.numbers)

    @property
    def records_words(self) -> str:
        """``records shown (filter model=gpt-x)``: what a sample is drawn from, in the suite's description."""
        return f"records shown ({self.words})"


def export_group(group: Group, snapshot: Snapshot, run: TriageRun, reader: LineReader, out: str | Path,
                 limit: int = EXPORT_LIMIT, *, numbers: Sequence[int] | None = None,
                 sample: SampleTaken | None = None, shown: Shown | None = None) -> int:
    """Write the group's first ``limit`` records, as counted in ``snapshot``, as a
    new suite file at ``out`` (``triage.export``: the file the headless
    ``--export GROUP --out SUITE --limit N`` writes); returns the cases written.
    ``numbers``: those of the group's records instead (the ones marked);
    ``sample``: a random sample of them instead, the records the headless
    ``--sample N --seed S`` writes for the same seed (``triage.sample``).
    ``shown``: the group's list is narrowed to these (a filter): the first
    ones, the sample and the marked ones are taken among them only, and the
    suite's description says so.
    Each record is reread only from a log still what was counted, and only if
    its verdict is still the one counted (``triage.members.Rereader``); the
    logs are checked once more before writing.  Raises ``ExportError`` with the
    one line to show: a group of bad lines, a log that cannot be read again or
    changed since it was counted (``StaleExport``: count again), a
    file already there, a full disk; nothing is written then."""
    collected, books, sample, chosen = _collected(group, snapshot, run, reader, out, limit, numbers, sample, shown)
    return export_suite(out, group.name, run.registry, collected, run.logs, run.options.log_format, books,
                        sample=sample, chosen=chosen)


def export_download(group: Group, snapshot: Snapshot, run: TriageRun, reader: LineReader, name: str,
                    limit: int = EXPORT_LIMIT, *, numbers: Sequence[int] | None = None,
                    sample: SampleTaken | None = None, shown: Shown | None = None) -> tuple[bytes, int]:
    """The suite ``export_group`` would write, as bytes (and its cases): what a served
    inspector offers as a download named ``name`` instead of writing on the server.
    Refused as ``export_group`` refuses, but for what only a file on disk can be."""
    collected, books, sample, chosen = _collected(group, snapshot, run, reader, name, limit, numbers, sample, shown)
    return suite_bytes(name, group.name, run.registry, collected, run.logs, run.options.log_format, books,
                       sample=sample, chosen=chosen)


def _collected(group: Group, snapshot: Snapshot, run: TriageRun, reader: LineReader, out: str | Path, limit: int,
               numbers: Sequence[int] | None, sample: SampleTaken | None, shown: Shown | None
               ) -> tuple[list[Any], Any, SampleTaken | None, str | None]:
    """The group's chosen records (among those ``shown``, when the list is narrowed) reread (each still
    what was counted), the reviewers' annotations of the logs, the sample as drawn and how the records
    were chosen otherwise, in words; ``ExportError`` naming ``out``."""
    if group.kind is GroupKind.BAD:
        raise ExportError(out, "the bad lines cannot be exported as a suite: they are not records")
    if limit < 1:
        raise ExportError(out, "the number of records to export is at least 1")
    index = snapshot.summary.tally.index
    if index is None:  # pragma: no cover - the overview always counts with the index
        raise ExportError(out, "this triage kept no index")
    members = GroupMembers(group, index, snapshot.indexed, run.options.by, reader,
                           log_format=run.options.log_format)
    rereader = Rereader(reader, run.registry, snapshot.stamps, run.options.log_format)
    collected = []
    # The records to choose from: those shown when the list is narrowed, else the whole group.
    pool: Sequence[int] = shown.numbers if shown is not None else range(len(members))
    chosen: Iterable[int] = pool[:limit]
    if numbers is not None:
        chosen = sorted(set(numbers).intersection(pool)) if shown is not None else sorted(set(numbers))
    elif sample is not None:
        members.resolve_all()
        files, file_of, offsets, found = index.files, index.file, index.offset, members.found
        if shown is None:
            chosen = sample_numbers(((files[file_of[position]], offsets[position]) for position in found),
                                    sample.size, sample.seed)
        else:  # drawn among those shown, each keyed by its place as the headless sample keys it
            pool = [number for number in pool if number < len(found)]
            sample = replace(sample, of=len(pool), among=shown.records_words)
            drawn = sample_numbers(((files[file_of[found[number]]], offsets[found[number]]) for number in pool),
                                   sample.size, sample.seed)
            chosen = [pool[number] for number in drawn]
    try:
        rereader.check()
        for number in chosen:
            position = members.position(number)
            if position is None:
                break
            file, line, offset, label = index.entry(position)
            try:
                collected.append((file, line, offset, rereader.reread(file, line, offset, label)[0], label))
            except LogChanged:
                raise
            except LogError as exc:
                raise ExportError(out, f"{file}:{line} cannot be read again: {exc.problem}; nothing was written") \
                    from None
        rereader.check()  # what was reread is what was counted, up to the last line
    except LogChanged as exc:
        raise StaleExport(exc.path, f"{exc.problem}; nothing was written") from None
    if not collected:
        raise ExportError(out, f"no record to write among the {len(shown):,} {shown.records_words}"
                          if shown is not None else "no record in this group")
    from ..triage.annotated import read_all
    from ..triage.annotations import AnnotationError

    try:  # each record's annotation, carried into its case (human)
        books = read_all(run.logs)
    except AnnotationError as exc:
        raise ExportError(exc.path, f"{exc.problem}; nothing was written") from None
    among = f" among the {len(shown):,} {shown.records_words}" if shown is not None else ""
    chosen_words = f"the {len(collected):,} record(s) marked by hand{among}" if numbers is not None else \
        f"the first {len(collected):,} of the {len(shown):,} {shown.records_words}" \
        if shown is not None and sample is None else None
    return collected, books, sample, chosen_words


class _Ids(Sequence[str]):
    """Every case id of a record suite, computed from the index when read."""

    def __init__(self, cases: RecordCases) -> None:
        self.cases = cases

    def __len__(self) -> int:
        return len(self.cases)

    def __getitem__(self, number: Any) -> Any:
        if isinstance(number, slice):
            return [self[n] for n in range(*number.indices(len(self)))]
        if number < 0:
            number += len(self)
        if not 0 <= number < len(self):
            raise IndexError(number)
        return self.cases.id_of(number)


class _Rows(Sequence[tuple[Suite, Case | None, CaseError | None]]):
    """The session's rows of a record suite, built from its lazy cases."""

    def __init__(self, suite: Suite, cases: RecordCases) -> None:
        self.suite = suite
        self.cases = cases

    def __len__(self) -> int:
        return len(self.cases)

    def __getitem__(self, number: Any) -> Any:
        case = self.cases[number]  # IndexError past the end, as the cases'

        return (self.suite, case, None) if isinstance(case, Case) else (self.suite, None, case)


class _Reports:
    """The session's computed reports, the last ``KEEP`` kept (a report is
    rebuilt if needed again: verify is pure)."""

    KEEP = 4096

    def __init__(self) -> None:
        self._kept: OrderedDict[int, Any] = OrderedDict()

    def __getitem__(self, number: int) -> Any:
        found = self._kept.get(number)
        if found is not None:
            self._kept.move_to_end(number)
        return found

    def __setitem__(self, number: int, report: Any) -> None:
        self._kept[number] = report
        if len(self._kept) > self.KEEP:
            self._kept.popitem(last=False)


_CHECK_OF_LABEL = {label_of(check.code, reason): check.id for check in CHECKS for reason in (check.reasons or (None,))}
# The label of each index code (a bad line's is BAD).
_LABELS = (*VERDICT_LABELS, "BAD")


class RecordSession(Session):
    """A session over one record suite, without building a row per record:
    rows, ids and reports come from the lazy cases; a search, a verdict filter
    and a check filter read the labels the index holds (an edited record's from
    its report)."""

    def __init__(self, suite: Suite) -> None:
        cases = suite.cases
        assert isinstance(cases, RecordCases)
        self.cases: RecordCases = cases
        self.marks: Marks = Marks()  # the records marked by hand (space), kept while the group's session is
        super().__init__([suite], rows=_Rows(suite, cases), ids=_Ids(cases), reports=_Reports())

    def __len__(self) -> int:
        return len(self.cases)

    def frozen(self, number: int) -> CaseReport:
        report = self._reports[number]
        if report is None:
            report = record_report(self.suites[0], number)
            self._reports[number] = report
        return report

    def log_changes(self) -> list[LogChanged]:
        """The logs of these records that are not what was counted any more (a stat each)."""
        return changed_logs(self.cases.members.rereader.stamps)

    def _label(self, number: int) -> str:
        if number in self._edited:
            return self.report(number).actual
        return self.cases.label_of(number)

    def search(self, text: str, among: Sequence[int] | None = None) -> list[int]:
        """Records whose place (file:line) or verdict label contains ``text``."""
        numbers: Iterable[int] = range(len(self)) if among is None else among
        needle = text.casefold().strip()
        if not needle:
            return list(numbers)
        return self._matching(numbers, [needle in label.casefold() for label in _LABELS],
                              lambda n: needle in self.ids[n].casefold() or needle in self._label(n).casefold(),
                              self._places_holding(needle))

    def ids_containing(self, text: str) -> Iterator[int]:
        needle = text.casefold()
        marks = self._places_holding(needle)
        if marks is None:
            return iter(())
        return (number for number in range(len(self))
                if (marks[number] if number < len(marks) else needle in self.ids[number].casefold()))

    def _places_holding(self, needle: str) -> bytes | None:
        """A byte per member found (1 where the record's place, its id
        ``name:line``, contains ``needle``, casefolded), worked out per file
        from what a place is made of rather than by writing every place: the
        needle within ``name:`` holds for all the file's records; a tail of
        ``name:`` then digits, for the lines whose digits start with them;
        digits alone, for the lines whose digits hold them.  None when no place
        can hold the needle."""
        members = self.cases.members
        names = [f"{place_name(file)}:".casefold() for file in members.index.files]
        # Per file: (every record holds it, the line prefixes that do, the digits a line must hold).
        rules: list[tuple[bool, tuple[str, ...], str | None]] = []
        for name in names:
            prefixes = tuple(needle[cut:] for cut in range(1, len(needle) + 1)
                             if needle[cut - 1] == ":" and name.endswith(needle[:cut])
                             and (ascii_digits(needle[cut:]) or cut == len(needle)))
            rules.append((needle in name, prefixes, needle if ascii_digits(needle) else None))
        if not any(every or prefixes or digits for every, prefixes, digits in rules):
            return None
        members.resolve_all()
        found, index = members.found, members.index
        lines = list(map(str, map(index.line.__getitem__, found)))
        marks = bytearray(len(found))
        files = list(map(index.file.__getitem__, found)) if len(names) > 1 else None  # one log: all its
        held: bytes | None
        for number, (every, prefixes, digits) in enumerate(rules):
            if every:
                held = b"\x01" * len(lines)
            else:
                held = bytes([line.startswith(prefixes) or (digits is not None and digits in line) for line in lines]) \
                    if prefixes else bytes([digits in line for line in lines]) if digits is not None else None
                if held is None:
                    continue
            if files is not None:  # only this file's records
                held = bytes(map(operator.and_, held, map(number.__eq__, files)))
            marks = bytearray(map(operator.or_, marks, held))
        return bytes(marks)

    def with_status(self, status: str) -> list[int]:
        return self._matching(range(len(self)), [label.partition("/")[0] == status for label in _LABELS],
                              lambda n: self._label(n).partition("/")[0] == status)

    def failing_at(self, check_id: str) -> list[int]:
        return self._matching(range(len(self)), [_CHECK_OF_LABEL.get(label) == check_id for label in _LABELS],
                              lambda n: _CHECK_OF_LABEL.get(self._label(n)) == check_id)

    def _matching(self, numbers: Iterable[int], by_code: list[bool], one: Callable[[int], bool],
                  also: bytes | None = None) -> list[int]:
        """The ``numbers`` that hold, in order: decided by their label code
        (``by_code``, over the index in C: a group can hold most of a million
        lines) or by ``also`` (a byte per member found: its place); an edited
        record, or one past what was found, by ``one``."""
        members = self.cases.members
        members.resolve_all()
        hits = members.codes().translate(bytes(by_code).ljust(256, b"\0"))
        if also is not None:
            hits = bytes(map(operator.or_, hits, also))
        known = len(hits)
        edited = self._edited
        if not edited and numbers.__class__ is range and numbers.step == 1 and numbers.stop <= known:
            return list(compress(numbers, memoryview(hits)[numbers.start:numbers.stop]))
        return [n for n in numbers if (one(n) if n in edited or n >= known else hits[n])]

    def mismatched(self) -> list[int]:
        # Every record's expected label is its verdict when counted: only an edit can differ.
        return [n for n in self.edits() if self.report(n).differs]

    def numbers_of(self, suite: Suite) -> list[int]:
        return list(range(len(self))) if suite is self.suites[0] else []

    def find_id(self, case_id: str) -> int | None:
        # An id is a place, name:line: looked for among the members' (file, line) in the index.
        name, _, line = case_id.rpartition(":")
        members = self.cases.members
        files = {number for number, file in enumerate(members.index.files) if place_name(file) == name}
        if not files or not ascii_digits(line):  # as ids are written: no separators
            return None
        try:  # a line number as the index holds it (a signed 64-bit array)
            wanted = whole_number(line, most=2**63 - 1, what="a line")
        except NumberError:
            return None
        members.resolve_all()
        lines, file_of = members.index.line, members.index.file
        return next((n for n, position in enumerate(members.found)
                     if lines[position] == wanted and file_of[position] in files), None)

