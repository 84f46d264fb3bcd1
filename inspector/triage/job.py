"""One triage run: what to count (``TriageJob``) and ``run_job``, which counts it.

A job is the whole description of a run: the logs (and ``--against``'s, counted
beside them in the same workers), the registry, the options, and the engine
that counts (``run.LocalEngine``, ``distributed.DaskEngine``).  ``run_job``
counts it and summarises it into a ``JobResult``: the summary, the baseline's
(``--against``) and the comparison of the two, and each log's stamp as the
counting started (what a reread of its records checks).  A job may follow its
logs as they grow (``Following``: ``triage.follow``), then it counts until
cancelled.  The command's summary (text, JSON, HTML) and its ``--follow``, and
the inspector's overview, each build a job and run it; nothing else puts a
triage together.  Where the run writes (``--bad-lines``,
``--records``), how far it is (``progress``) and when it stops (``cancel``) are
the caller's, given to ``run_job``.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import BinaryIO

from ..contract.models import Registry
from .compare import Comparison, compare
from .engines import Engine, Progress
from .follow import POLL_SECONDS, Cancel, REPORT_SECONDS, FollowProgress, follow
from .gz import SeekIndex
from .items import pair_items
from .settings import compare_settings
from .run import LocalEngine
from .stamp import LogStamp, stamp_logs
from .summary import Summary, summarize
from .table import RecordsOut
from .tally import Options

__all__ = ["Following", "FollowProgress", "JobResult", "TriageJob", "run_job"]


@dataclass(frozen=True)
class Following:
    """Follow the logs as they grow (``--follow``; the overview's follow mode):
    once the lines already there are counted, what is appended is counted every
    ``poll_seconds``, reported at least every ``report_seconds``, until the
    job is cancelled or every log ended (standard input's end)."""

    poll_seconds: float = POLL_SECONDS
    report_seconds: float = REPORT_SECONDS


@dataclass(frozen=True)
class TriageJob:
    """A triage to run: ``logs`` counted with ``options`` against ``registry``
    (``registry_path``: as the summary names it), and ``against``'s logs (the
    baseline: before) counted beside them with ``against_options``, by
    ``engine``.  ``names`` and ``against_names``: the logs as the user gave them,
    when they are counted from staged copies (a ``--log-format`` document): what
    the summaries name.  ``stamp``: each log is stamped as the count starts
    (``JobResult.stamps``: for rereading records, the overview's and the HTML
    report's; never a URL's).  ``follow``: the logs are followed as they grow
    (nothing to compare: a followed job has no ``against``); the stamps are
    then the follower's, kept as it goes."""

    logs: tuple[str, ...]
    registry: Registry
    registry_path: str
    options: Options = Options()
    against: tuple[str, ...] = ()
    engine: Engine = field(default_factory=LocalEngine)
    names: tuple[str, ...] | None = None
    against_names: tuple[str, ...] | None = None
    stamp: bool = False
    follow: Following | None = None

    def __post_init__(self) -> None:
        if self.follow is not None and self.against:
            raise ValueError("a followed job compares nothing: no against")

    @property
    def against_options(self) -> Options:
        """What ``against``'s logs are counted with: the same groups and window and
        format and items, and nothing else (no index, no records collected, no series)."""
        options = self.options
        return Options(by=options.by, since=options.since, until=options.until, log_format=options.log_format,
                       item=options.item)

    @property
    def shown(self) -> tuple[str, ...]:
        """The logs as the user named them (``names``, else ``logs``)."""
        return self.names if self.names is not None else self.logs

    @property
    def against_shown(self) -> tuple[str, ...]:
        return self.against_names if self.against_names is not None else self.against


@dataclass(frozen=True)
class JobResult:
    """A job counted: its ``summary``; with ``against``, the ``baseline``'s and the
    ``comparison`` (None when cancelled: the baseline may be half counted);
    ``stamps`` (with ``TriageJob.stamp``); ``cancelled`` when ``cancel`` stopped it."""

    summary: Summary
    baseline: Summary | None = None
    comparison: Comparison | None = None
    stamps: dict[str, LogStamp] = field(default_factory=dict)
    cancelled: bool = False


def run_job(job: TriageJob, *, progress: Callable[[Progress], None] | None = None,
            cancel: Cancel | None = None, on_notice: Callable[[str], None] | None = None,
            bad_lines: BinaryIO | None = None, records: RecordsOut | None = None,
            spill_dir: str | os.PathLike[str] | None = None, stdin: BinaryIO | None = None,
            indexes: dict[str, SeekIndex] | None = None, stamps: dict[str, LogStamp] | None = None) -> JobResult:
    """Count ``job`` (both runs in one pool: ``engine.count_runs``) and summarise it.
    ``progress``, ``cancel``, ``on_notice``, ``bad_lines``, ``records``,
    ``spill_dir``, ``stdin`` and ``indexes`` are handed to the engine
    (``run.LocalEngine.count_runs`` says what each does).  LogError (and its
    kinds: ``WorkerError``, the Dask engine's ``EngineError``) for a log that
    cannot be counted.  ``stamps``: the dict the stamps are put in as the count
    starts (what a record reread while it counts is checked against).
    A followed job (``TriageJob.follow``) reports ``FollowProgress`` (a
    ``Progress``) and counts until ``cancel`` is set or every log ended."""
    stamps = stamps if stamps is not None else {}
    if job.follow is not None:
        return _follow_job(job, job.follow, progress, cancel, on_notice, stdin, stamps)
    if job.stamp:
        stamps.update(stamp_logs(job.logs))
    runs: list[tuple[Sequence[str], Options]] = [(list(job.logs), job.options)]
    if job.against:  # both runs' generation settings counted too, to be set side by side
        runs = [(list(job.logs), replace(job.options, settings=True)),
                (list(job.against), replace(job.against_options, settings=True))]
    tallies = job.engine.count_runs(runs, job.registry, on_progress=progress, cancel=cancel, on_notice=on_notice,
                                    bad_lines=bad_lines, spill_dir=spill_dir, records=records, stdin=stdin,
                                    indexes=indexes)
    cancelled = cancel is not None and cancel.is_set()
    summary = summarize(tallies[0], job.options, job.shown, job.registry_path)
    if not job.against or cancelled:
        return JobResult(summary, stamps=stamps, cancelled=cancelled)
    baseline = summarize(tallies[1], runs[1][1], job.against_shown, job.registry_path)
    comparison = compare(summary, baseline)
    comparison.items = pair_items(tallies[0], tallies[1], job.options)  # after the count: from the two tallies
    comparison.settings = compare_settings(tallies[0], tallies[1], job.registry_path)
    return JobResult(summary, baseline, comparison, stamps)


def _follow_job(job: TriageJob, following: Following, progress: Callable[[Progress], None] | None,
                cancel: Cancel | None, on_notice: Callable[[str], None] | None, stdin: BinaryIO | None,
                stamps: dict[str, LogStamp]) -> JobResult:
    """Count ``job``'s logs and follow them (``triage.follow``) until cancelled or ended."""
    stop = cancel if cancel is not None else threading.Event()  # never set: followed until the logs end
    tally = follow(list(job.logs), job.registry, job.options, on_progress=progress or _ignored, cancel=stop,
                   stdin=stdin, stamps=stamps, poll_seconds=following.poll_seconds,
                   report_seconds=following.report_seconds, on_notice=on_notice, engine=job.engine)
    summary = summarize(tally, job.options, job.shown, job.registry_path)
    return JobResult(summary, stamps=stamps, cancelled=stop.is_set())


def _ignored(progress: Progress) -> None:
    """No one is told how far a job is."""
