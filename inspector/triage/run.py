"""Triage of whole logs on every core: split, count in processes, merge in order.

Each log becomes tasks: a plain file, byte ranges of about ``TASK_BYTES``
(``tally_range`` on each, in worker processes that read the file themselves); a
``.gz`` file or standard input, chunks of complete lines that this process
decompresses or reads and hands over (a compressed stream cannot be entered in
the middle).  The workers are forked, so they start with the registry and the
imports already in memory (about a millisecond each); at most a few tasks are in
flight at a time, so a stream is never read far ahead of the counting.  Results
are merged in task order, each range's line numbers shifted by the lines before
it in its log.  A small input is counted in this process: starting workers
would cost more than they save.

``triage`` reports progress to a callback (lines and bytes done, and the counts
so far) and can be cancelled between tasks, keeping what was counted: what the
inspector's overview runs in a worker thread.

With ``bad_lines`` (a binary stream: ``--bad-lines``), every bad line is
written to it, in order: each task spills its own into a file of a private
directory, and each spill is copied into the stream, renumbered, when its task
is merged (``triage.badlines``), so that neither a worker nor this process
holds more than a batch of them.

The workers are bounded: at most the cores this process may run on, at most
the tasks of the plain logs (a stream's are not known ahead), and a request of
more than ``MAX_WORKERS`` is refused.  They are all started before a task is
taken: when the system refuses a fork (a process limit, no memory) the count
runs in this process instead (``on_notice`` says so), nothing counted twice.
A worker that dies while counting (killed by a signal: the kernel's
out-of-memory killer, say) ends the triage with ``WorkerError``, which says
which log it was counting and how it died.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, BinaryIO

from ..contract.models import Registry
from .badlines import Spill, copy_spill, spill_name
from .engines import Cancel, Engine, Progress, Runs, WorkerError, broken_problem, cores
from .gz import SeekIndex
from .logs import (
    STDIN,
    LogError,
    StreamBroke,
    check_log,
    check_stdin,
    count_lines,
    identity_of,
    is_gzip,
    line_ranges,
    size_of,
    stream_chunks,
)
from .records import RequestCache
from .table import RecordsOut, RowSpill, rows_name
from .tally import Options, Tally, tally_chunk, tally_chunks, tally_range

__all__ = ["MAX_WORKERS", "PARALLEL_MIN_BYTES", "TASK_BYTES", "Engine", "LocalEngine", "Progress", "WorkerError",
           "cores", "local_engine", "plan_workers", "triage", "triage_runs"]

TASK_BYTES = 16 * 1024 * 1024
# Below this much input, counting here beats starting processes.
PARALLEL_MIN_BYTES = 8 * 1024 * 1024
# At most how often a count's progress is told (seconds).
PROGRESS_EVERY = 0.25
# The most workers one may ask for; past the cores, more only cost memory (each
# a forked copy of this process) and start-up time.
MAX_WORKERS = 64


def plan_workers(requested: int | None, kinds: Sequence[str], sizes: Sequence[int | None],
                 task_bytes: int = TASK_BYTES) -> int:
    """How many processes to count in: ``requested`` (default: every core), at
    most the cores, and at most the tasks when every log is a plain file (a
    stream's chunks are not known ahead).  ``ValueError`` for fewer than one
    or more than ``MAX_WORKERS``."""
    if requested is not None and not 1 <= requested <= MAX_WORKERS:
        raise ValueError(f"workers: {requested} is not between 1 and {MAX_WORKERS}")
    workers = min(requested or cores(), cores())
    if all(kind == "plain" for kind in kinds):
        tasks = sum(max(1, -(-(size or 0) // task_bytes)) for size in sizes)
        workers = min(workers, tasks)
    return max(1, workers)


# A task, tagged: ("range", log, number, start, end) for a plain file's byte
# range, ("range", log, number, start, end, first line) when its lines are numbered
# as they are counted (``--records``: rows written with their line numbers); ("chunk", log, number, offset, lines, first line) for a stream's chunk;
# ("long", log, number, offset, length, line) for a line too long to hold and
# ("broken", log, number, line after, problem) where a stream broke off, both counted here.
_Task = tuple[Any, ...]

# What a forked worker inherits: set just before the pool starts.
_WORKER: dict[str, Any] = {}


def _spill_of(task: _Task) -> str | None:
    """Where the task spills its bad lines (None without --bad-lines, or for a log of a run after the first)."""
    folder = _WORKER.get("spills")
    if folder is None or not _WORKER["bad_lines"] or task[2] >= _WORKER["spilling"]:
        return None
    return os.path.join(folder, spill_name(task[0], task[2], task[3]))


def _rows_of(task: _Task) -> str | None:
    """Where the task spills its records' rows (None without --records, or for a log of a run after the first)."""
    folder = _WORKER.get("spills")
    if folder is None or not _WORKER["records"] or task[2] >= _WORKER["spilling"]:
        return None
    return os.path.join(folder, rows_name(task[0], task[2], task[3]))


def _work(task: _Task) -> Tally:
    """Count one task (in a worker, or here) with the options of its log's run."""
    registry, options, requests = _WORKER["registry"], _WORKER["options"][task[2]], _WORKER["requests"]
    kind, path = task[0], task[1]
    spilled, rowed = _spill_of(task), _rows_of(task)
    spill = Spill(spilled) if spilled is not None else None
    rows = RowSpill(rowed, _WORKER["records"] == "csv") if rowed is not None else None
    if kind == "range":
        return tally_range(path, task[3], task[4], registry, options, requests,
                           first_line=task[5] if len(task) > 5 else 1, spill=spill, rows=rows)
    if kind == "chunk":
        return tally_chunk(path, task[3], task[4], task[5], registry, options, requests, spill, rows)
    if kind == "long":
        return tally_chunks(path, [(task[3], None, task[4])], registry, options, task[5], requests, spill, rows)
    tally = Tally()
    tally.broken.append((path, task[3], task[4]))
    return tally


def _local(task: _Task) -> bool:
    """Tasks with nothing to count in a worker."""
    return task[0] in ("long", "broken")


def _tasks(logs: Sequence[str], kinds: Sequence[str], sizes: Sequence[int | None], task_bytes: int,
           stdin: BinaryIO | None, consumed: list[int], indexes: dict[str, SeekIndex] | None,
           ends: Mapping[str, int], numbered: int = 0) -> Iterator[_Task]:
    """The tasks of the logs, in order.  The ranges of the first ``numbered``
    logs carry the number of their first line, the newlines before it counted
    here, in C, as the tasks are handed out (a few milliseconds a range): their
    rows (``--records``) are written with their line numbers, not renumbered
    line by line once the ranges before them are merged."""
    for number, (path, kind, size) in enumerate(zip(logs, kinds, sizes)):
        if kind == "plain":
            line, counted = 1, 0
            for start, end in line_ranges(path, max(1, -(-(size or 0) // task_bytes)), ends.get(path)):
                if number < numbered:
                    line += count_lines(path, start, counted)
                    counted = start
                    yield ("range", path, number, start, end, line)
                else:
                    yield ("range", path, number, start, end)
            continue
        line = 1
        before = consumed[0]
        read = [0]
        handed = 0  # the offset just past the lines handed out
        try:
            for offset, data, length in stream_chunks(path, stdin, read, (indexes or {}).get(path)):
                consumed[0] = before + read[0]
                if data is None:
                    yield ("long", path, number, offset, length, line)
                    line += 1
                else:
                    yield ("chunk", path, number, offset, data, line)
                    line += data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
                handed = offset + length + (1 if data is None else 0)  # a long line's length is without its newline
        except StreamBroke as exc:
            yield ("broken", path, number, line - 1, broken_problem(exc, handed))
        except LogError as exc:
            yield ("broken", path, number, line - 1, exc.problem)
        consumed[0] = before + read[0]


def triage(logs: Sequence[str], registry: Registry, options: Options = Options(), *, engine: Engine | None = None,
           workers: int | None = None, task_bytes: int | None = None, parallel_min_bytes: int | None = None,
           progress_every: float | None = None, on_progress: Callable[[Progress], None] | None = None,
           cancel: Cancel | None = None, stdin: BinaryIO | None = None,
           indexes: dict[str, SeekIndex] | None = None, bad_lines: BinaryIO | None = None,
           spill_dir: str | os.PathLike[str] | None = None, records: RecordsOut | None = None,
           on_notice: Callable[[str], None] | None = None, ends: Mapping[str, int] | None = None) -> Tally:
    """Count every line of ``logs`` (in order; ``-`` is standard input): ``triage_runs`` of one run."""
    return triage_runs([(logs, options)], registry, engine=engine, workers=workers, task_bytes=task_bytes,
                       parallel_min_bytes=parallel_min_bytes, progress_every=progress_every,
                       on_progress=on_progress, cancel=cancel, stdin=stdin, indexes=indexes, bad_lines=bad_lines,
                       spill_dir=spill_dir, records=records, on_notice=on_notice, ends=ends)[0]


def local_engine(engine: Engine | None = None, workers: int | None = None, task_bytes: int | None = None,
                 parallel_min_bytes: int | None = None, progress_every: float | None = None) -> Engine:
    """``engine``, or the local engine of the settings given as keywords (for short: the tests, the
    benchmarks); ValueError for both (an engine's settings are its own)."""
    given = {name: value for name, value in (("workers", workers), ("task_bytes", task_bytes),
                                             ("parallel_min_bytes", parallel_min_bytes),
                                             ("progress_every", progress_every)) if value is not None}
    if engine is not None:
        if given:
            raise ValueError(f"{sorted(given)} with an engine: they are the engine's settings")
        return engine
    return LocalEngine(workers=workers, task_bytes=task_bytes, parallel_min_bytes=parallel_min_bytes,
                       progress_every=progress_every if progress_every is not None else PROGRESS_EVERY)


def triage_runs(runs: Runs, registry: Registry, *, engine: Engine | None = None,
                workers: int | None = None, task_bytes: int | None = None, parallel_min_bytes: int | None = None,
                progress_every: float | None = None, on_progress: Callable[[Progress], None] | None = None,
                cancel: Cancel | None = None, stdin: BinaryIO | None = None,
                indexes: dict[str, SeekIndex] | None = None, bad_lines: BinaryIO | None = None,
                spill_dir: str | os.PathLike[str] | None = None, records: RecordsOut | None = None,
                on_notice: Callable[[str], None] | None = None, ends: Mapping[str, int] | None = None) -> list[Tally]:
    """Count every line of each run's logs with ``engine`` (default: the local
    engine, its settings given for short as ``workers``, ``task_bytes``,
    ``parallel_min_bytes``, ``progress_every``; ``LocalEngine.count_runs`` says
    what the other arguments do)."""
    return local_engine(engine, workers, task_bytes, parallel_min_bytes, progress_every).count_runs(
        runs, registry, on_progress=on_progress, cancel=cancel, on_notice=on_notice, bad_lines=bad_lines,
        spill_dir=spill_dir, records=records, stdin=stdin, indexes=indexes, ends=ends)


@dataclass(frozen=True)
class LocalEngine:
    """Every core of this machine: ``workers`` processes to count in (default:
    every core; at most the cores and the tasks, ``plan_workers``); 1, or less
    input than ``parallel_min_bytes`` (default ``PARALLEL_MIN_BYTES``), counts
    in this process.  A plain log is counted in ranges of ``task_bytes``
    (default ``TASK_BYTES``); progress is told at most every ``progress_every``
    seconds.  (The defaults are read when a count starts.)"""

    workers: int | None = None
    task_bytes: int | None = None
    progress_every: float = PROGRESS_EVERY
    parallel_min_bytes: int | None = None

    def count_runs(self, runs: Runs, registry: Registry, *,
                   on_progress: Callable[[Progress], None] | None = None, cancel: Cancel | None = None,
                   on_notice: Callable[[str], None] | None = None, bad_lines: BinaryIO | None = None,
                   spill_dir: str | os.PathLike[str] | None = None, records: RecordsOut | None = None,
                   stdin: BinaryIO | None = None, indexes: dict[str, SeekIndex] | None = None,
                   ends: Mapping[str, int] | None = None) -> list[Tally]:
        """Count every line of each run's logs (in order; ``-`` is standard input,
        on one run only), each run with its options, into a tally a run.  The
        runs' tasks share one pool of workers (``--against``: the two triages side
        by side on every core, not one after the other); the first run's are the
        ones ``bad_lines``, ``options.stop_at_limit`` and the progress's tally are of.

        When the workers cannot be started, the count runs in this process and
        ``on_notice`` is told why; a worker that dies raises ``WorkerError``.
        ``on_progress`` is called at most every ``progress_every`` seconds and once
        at the end, in this thread, with the counts as they are (they go on
        changing after it returns).  ``cancel`` stops between tasks, returning
        what was counted.  A log that cannot be opened (standard input too:
        closed, write-only, a directory) raises ``LogError`` before anything is
        counted.  One that breaks off (a truncated or corrupt ``.gz``, a read
        error) is counted up to the last complete line before the break, listed
        in ``Tally.broken`` (file, the line after which it broke, why), and the
        next log is counted.  ``indexes``: per ``.gz`` log, a ``SeekIndex`` to
        keep its restart points in as it is decompressed (what a drill-down after
        the count reads from).

        ``bad_lines``: a binary stream every bad line is written to, a JSON object
        a line (``triage.badlines``); the tasks' spills go into a new private
        directory in ``spill_dir`` (default: the system's temporary directory),
        removed at the end.  ``records``: where a row of every record of the first
        run's logs is copied, in log order (``--records``, ``triage.table``),
        spilled by each task into the same directory as its bad lines are.  With
        ``options.stop_at_limit``, the counting stops once ``options.limit``
        records of the group are collected.

        ``ends``: per plain log, the byte its count stops at (the lines that begin
        before it; a followed log's last newline, so that a line still being
        written is left to the follower, ``triage.follow``)."""
        return _count_runs(runs, registry, workers=self.workers, on_progress=on_progress, cancel=cancel,
                           stdin=stdin,
                           parallel_min_bytes=self.parallel_min_bytes if self.parallel_min_bytes is not None
                           else PARALLEL_MIN_BYTES, task_bytes=self.task_bytes,
                           progress_every=self.progress_every, indexes=indexes, bad_lines=bad_lines,
                           spill_dir=spill_dir, records=records, on_notice=on_notice, ends=ends)


def _count_runs(runs: Runs, registry: Registry, *, workers: int | None, on_progress: Callable[[Progress], None] | None,
                cancel: Cancel | None, stdin: BinaryIO | None, parallel_min_bytes: int,
                task_bytes: int | None, progress_every: float, indexes: dict[str, SeekIndex] | None,
                bad_lines: BinaryIO | None, spill_dir: str | os.PathLike[str] | None, records: RecordsOut | None,
                on_notice: Callable[[str], None] | None, ends: Mapping[str, int] | None) -> list[Tally]:
    """``LocalEngine.count_runs`` with its settings."""
    task_bytes = task_bytes or TASK_BYTES
    logs = [path for run_logs, _ in runs for path in run_logs]
    run_of = [number for number, (run_logs, _) in enumerate(runs) for _ in run_logs]
    options_of = [run_options for run_logs, run_options in runs for _ in run_logs]
    options = runs[0][1]
    for path in logs:
        check_log(path)
    if sum(1 for path in logs if path == STDIN) > 1:
        raise LogError(STDIN, "standard input given more than once")
    if STDIN in logs:
        check_stdin(stdin if stdin is not None else sys.stdin.buffer if sys.stdin is not None else None)
    kinds = ["stream" if path == STDIN or is_gzip(path) else "plain" for path in logs]
    if indexes is not None:
        for path, kind in zip(logs, kinds):
            if kind == "stream" and path != STDIN:
                identity = identity_of(path)
                if path not in indexes or indexes[path].identity != identity:
                    indexes[path] = SeekIndex(identity)
    ends = ends if ends is not None else {}
    sizes = [ends[path] if path in ends else size_of(path) if path != STDIN else None for path in logs]
    total = None if None in sizes else sum(size or 0 for size in sizes)
    workers = plan_workers(workers, kinds, sizes, task_bytes)
    # A .gz holds about ten times its size in lines (the generator's logs: 14 times).
    work = None if total is None else sum((size or 0) * (10 if kind == "stream" else 1)
                                          for size, kind in zip(sizes, kinds))
    if (work is not None and work < parallel_min_bytes) or "fork" not in multiprocessing.get_all_start_methods():
        workers = 1

    started = time.monotonic()
    results = [Tally() for _ in runs]
    result = results[0]
    consumed = [0]  # bytes read by the stream readers
    ranges = [0]  # bytes of the plain ranges counted
    place = [-1, 0]  # the log being merged, and its lines so far (a range's numbers start at 1)
    reported = [started]

    def take(task: _Task, tally: Tally) -> None:
        if task[2] != place[0]:
            place[0], place[1] = task[2], 0
        # A stream's tasks, and a numbered range, know their line numbers.
        shift = place[1] if task[0] == "range" and len(task) == 5 else 0
        if spills is not None:
            spilled, rowed = _spill_of(task), _rows_of(task)
            if spilled is not None and os.path.exists(spilled):
                copy_spill(spilled, task[1], shift, bad_lines)  # type: ignore[arg-type]  # spills: bad lines asked for
                os.unlink(spilled)
            if rowed is not None and os.path.exists(rowed):
                if shift:  # pragma: no cover - every range of a run written is numbered (_tasks)
                    raise AssertionError("rows spilled without their line numbers")
                records.copy(rowed)  # type: ignore[union-attr]  # rows spilled: records asked for
                os.unlink(rowed)
        if task[0] == "range":
            tally.shift(shift)
            ranges[0] += task[4] - task[3]
        place[1] += tally.lines
        results[run_of[task[2]]].add(tally)
        now = time.monotonic()
        if on_progress is not None and now - reported[0] >= progress_every:
            reported[0] = now
            on_progress(Progress(_lines(results), ranges[0] + consumed[0], total, now - started, result))

    limit = options.limit if options.stop_at_limit else None

    def stopped() -> bool:
        return (cancel is not None and cancel.is_set()) or (limit is not None and len(result.collected) >= limit)

    spilling = bad_lines is not None or records is not None
    spills = tempfile.mkdtemp(prefix=".inspector-spills-", dir=spill_dir) if spilling else None
    _WORKER.update(registry=registry, options=options_of, requests=RequestCache(registry), spills=spills,
                   spilling=len(runs[0][0]), bad_lines=bad_lines is not None,
                   records=None if records is None else "csv" if records.csv else "jsonl")
    try:
        tasks = _tasks(logs, kinds, sizes, task_bytes, stdin, consumed, indexes, ends,
                       len(runs[0][0]) if records is not None else 0)
        if workers == 1 or not _run_pool(tasks, workers, take, stopped, on_notice):
            for task in tasks:
                if stopped():
                    break
                take(task, _work(task))
    finally:
        _WORKER.clear()
        if spills is not None:
            shutil.rmtree(spills, ignore_errors=True)  # the directory made above, and only what the tasks spilled
    if on_progress is not None:
        on_progress(Progress(_lines(results), ranges[0] + consumed[0], total, time.monotonic() - started, result))
    return results


def _lines(results: Sequence[Tally]) -> int:
    return sum(tally.lines for tally in results)


def _run_pool(tasks: Iterator[_Task], workers: int, take: Callable[[_Task, Tally], None],
              stopped: Callable[[], bool], on_notice: Callable[[str], None] | None) -> bool:
    """Count ``tasks`` in ``workers`` processes; False, with no task taken,
    when they could not be started (count them here then)."""
    # Flushed now, or each forked child could write the parent's buffered output again.
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
    executor = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"))
    # Every worker is forked at the first submission: a no-op's, so that a
    # refused fork is known before any task is taken from ``tasks``.
    try:
        executor.submit(int).result()
    except (OSError, BrokenProcessPool) as exc:
        _abandon(executor)
        if on_notice is not None:
            on_notice(f"could not start {workers} counting processes ({_why(exc)}); counting in this process")
        return False
    # The executor's own table of its processes (kept: it forgets it on shutdown),
    # read when one dies to say how.
    processes = dict(getattr(executor, "_processes", None) or {})
    pending: deque[tuple[_Task, Future[Tally]]] = deque()
    limit = 2 * workers + 1  # in flight: enough to keep every worker busy, not a stream read far ahead
    current: _Task | None = None  # the task submitted or waited for last: which log a death was counting
    try:
        for task in tasks:
            if stopped():
                return True
            current = task
            pending.append((task, _done(_work(task)) if _local(task) else executor.submit(_work, task)))
            while len(pending) >= limit or (pending and pending[0][1].done()):
                current, future = pending.popleft()
                take(current, future.result())
        while pending:
            if stopped():
                return True
            current, future = pending.popleft()
            take(current, future.result())
    except BrokenProcessPool:
        executor.shutdown(wait=True, cancel_futures=True)
        path = current[1] if current is not None else "triage"
        raise WorkerError(path, f"a counting worker died ({_death(processes)}); count with fewer workers "
                                "(--workers 1 counts in one process)") from None
    finally:
        executor.shutdown(wait=True, cancel_futures=True)
    return True


def _abandon(executor: ProcessPoolExecutor) -> None:
    """Stop the workers that did start when the others could not be: they wait
    for work that will never come, and this process would wait for them at exit."""
    for process in list((getattr(executor, "_processes", None) or {}).values()):
        try:
            process.terminate()
            process.join(5)
        except (OSError, ValueError, AssertionError):
            pass
    executor.shutdown(wait=False, cancel_futures=True)


def _why(exc: BaseException) -> str:
    if isinstance(exc, OSError):
        return exc.strerror or str(exc) or type(exc).__name__
    return "a worker died as it started"


def _death(processes: dict[Any, Any]) -> str:
    """How a worker of the pool ended, in words: the first killed by a signal
    other than the SIGTERM that stops the others once one died."""
    codes = [process.exitcode for process in processes.values() if process.exitcode not in (None, 0)]
    killed = [-code for code in codes if code < 0 and -code != signal.SIGTERM] or \
        [-code for code in codes if code < 0]
    if killed:
        number = killed[0]
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        guess = ": probably out of memory" if number == signal.SIGKILL else ""
        return f"killed by {name} (signal {number}){guess}"
    if codes:
        return f"exited with status {codes[0]}"
    return "it ended without a word"


def _done(tally: Tally) -> Future[Tally]:
    future: Future[Tally] = Future()
    future.set_result(tally)
    return future
