"""Following logs as they grow, as ``tail -F`` does: ``Follower`` and ``follow``.

A followed log is counted as it is written: the lines already there first (by
``triage.run.triage``, on every core, up to the log's last newline), then each
complete line appended, through the same ``tally_chunks`` and ``Tally.add`` as
any count, with one ``RequestCache`` for the whole run and the index kept when
asked (the overview's drill-down).  Nothing of a line is held once it is
counted: memory grows only with the index (a few tens of bytes a line, when
kept) and the counts' keys, the bad lines kept bounded as in any count.

- A last line without its newline waits for it (at most ``MAX_LINE_BYTES`` of
  it held; a longer one is a bad line, "too long", once its newline comes).
- A log renamed and replaced (logrotate's ``create``), or removed and made
  again, is a rotation: the file open is read on to its end, and on as long as
  it still grows (a writer that has not reopened yet: until it has been still
  for ``DRAIN_SECONDS``), the new file from its start, its lines numbered from 1.
- A log truncated in place (``copytruncate``), or rewritten under the part
  already counted (the byte before it is not the newline read there), is
  counted again from its start, its lines numbered from 1.
- A log that cannot be found is read on through the file open, until a file
  is there again.

Each of these is a ``FollowEvent``, said with what happened and after which
line.  The lines counted of a generation that ended (rotated away, truncated)
are put under a name of their own in the counts and the index
(``app.jsonl (generation 1, rotated away)``; past ``NAMED_GENERATIONS`` of
them, the later ones share one), whose stamp is ``gone``
(``triage.stamp``): a reread of one says why it cannot be read again, rather
than showing the line now at its offset, and a line number always means the
line of the file it was counted in.  Every stamp of a followed log is
``growing``: a reread accepts the log longer than counted, not another file or
a shorter one.

Standard input (``-``) is followed too (headless only: it cannot be reread):
its lines are counted as they arrive, and its end ends the follow.  A ``.gz``
cannot be followed: it is compressed whole, not a line at a time.

``Follower.poll()`` does one round (what tests drive directly); ``follow()``
is the run, counting the backlog, then polling every ``POLL_SECONDS`` until
``cancel`` is set or every input ended, reporting ``FollowProgress`` (the
counts, the new lines a second, the events); ``Counts`` and
``follow_document`` make the headless ``--format jsonl`` objects
(``inspector.triage.follow/1``).
"""

from __future__ import annotations

import io
import os
import select
from array import array
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, BinaryIO, Protocol

from ..contract.checks import label_of
from ..contract.models import Registry
from .engines import Engine, Progress
from .logs import CHUNK_BYTES, STDIN, Chunk, LogError, check_stdin, is_gzip, open_log, read_problem
from .records import MAX_LINE_BYTES, RequestCache
from .stamp import LogStamp
from .tally import VERDICT_LABELS, Index, Options, Tally, tally_chunks
from .timeline import iso

__all__ = [
    "DRAIN_SECONDS",
    "POLL_SECONDS",
    "REPORT_SECONDS",
    "SCHEMA",
    "Counts",
    "FollowEvent",
    "FollowProgress",
    "Follower",
    "LogState",
    "check_followable",
    "events_after",
    "follow",
    "follow_document",
]

SCHEMA = "inspector.triage.follow/1"
# How often the logs are looked at: a line written is counted within this (and its counting).
POLL_SECONDS = 0.25
# The longest a follow goes without reporting (the new lines a second fall to 0 when none come).
REPORT_SECONDS = 1.0
# An earlier generation (rotated away) is read on until it has not grown for this long.
DRAIN_SECONDS = 2.0
# At most this much of one log is read in one poll: a log that grew by gigabytes
# is caught up poll after poll, each reported and each a chance to stop.
POLL_BYTES = 4 * CHUNK_BYTES
# The events a follow keeps (the latest; ``FollowProgress.event_count`` counts every one).
EVENTS_KEPT = 100
# The new lines a second are those of about the last this many seconds.
RATE_SECONDS = 2.0
# The ended generations of one log that keep a name of their own; the lines of the later
# ones share one: an index holds at most 65,536 file names, and a file rewritten in place
# every second would make as many in a day.
NAMED_GENERATIONS = 256
_SCAN = 64 * 1024


class Cancel(Protocol):
    """What stops a follow: a ``threading.Event``, or anything with its two methods."""

    def is_set(self) -> bool: ...

    def wait(self, timeout: float | None = None) -> bool: ...


def check_followable(path: str) -> None:
    """LogError unless ``path`` can be followed: ``-``, or a regular file that is not a ``.gz``."""
    if path != STDIN and is_gzip(path):
        raise LogError(path, "a .gz cannot be followed: it is compressed whole, not written a line at a time; "
                             "follow the plain log it is made from, or triage the .gz without --follow")


@dataclass(frozen=True, slots=True)
class FollowEvent:
    """Something that happened to a followed log: ``kind`` is ``rotated``
    (renamed and replaced), ``truncated`` (truncated or rewritten in place),
    ``gone`` (cannot be found), ``back`` (the same file found again),
    ``unreadable`` (a new file there that cannot be read), ``ended`` (standard
    input ended) or ``broken`` (a read error); ``after_line``: the last line
    counted of the generation it happened to; ``detail``: what, in words."""

    number: int  # 1 for a follow's first event, and so on
    time: float  # epoch seconds
    file: str
    kind: str
    after_line: int
    detail: str

    def words(self) -> str:
        return f"{self.file}: {self.detail}"

    def to_dict(self) -> dict[str, Any]:
        return {"time": iso(self.time), "file": self.file, "event": self.kind, "after_line": self.after_line,
                "detail": self.detail}


@dataclass(frozen=True, slots=True)
class LogState:
    """Where the following of one log is: the generation read now (1 until a
    rotation or truncation), its lines counted, the bytes of a last line waiting
    for its newline, and whether it ended (standard input only)."""

    file: str
    generation: int
    lines: int
    waiting: int
    ended: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "generation": self.generation, "lines": self.lines,
                "waiting_bytes": self.waiting, "ended": self.ended}


@dataclass(frozen=True)
class FollowProgress(Progress):
    """How far a follow is: a ``Progress`` (lines, bytes, seconds since it
    started, the counts so far), and ``caught_up`` once the lines that were in
    the logs when it started are counted (from then on every line is new),
    ``per_second`` the new lines a second, the latest ``events`` (every one
    counted in ``event_count``), each log's ``LogState``, ``done`` at the end.
    ``existing``: the bytes that were in the plain logs when it started (up to
    each one's last newline), ``existing_read`` how many of them are counted
    and ``existing_lines`` their lines: a follow stopped before it caught up
    says how far it read."""

    caught_up: bool = False
    per_second: float = 0.0
    events: tuple[FollowEvent, ...] = ()
    event_count: int = 0
    logs: tuple[LogState, ...] = ()
    done: bool = False
    existing: int = 0
    existing_read: int = 0
    existing_lines: int = 0


class _Source:
    """One generation of a followed log: the descriptor it is read from, how far
    it is read (``read``) and counted (``offset``, the start of the first line
    not counted; ``line``, its number), the start of a last line waiting for its
    newline (``carry``), or the length so far of one too long to hold (``skipping``)."""

    __slots__ = ("carry", "fd", "grew", "identity", "key", "last", "line", "offset", "read", "skipping", "stream")

    def __init__(self, key: str, fd: int | None, identity: tuple[int, int] | None, at: float,
                 stream: BinaryIO | None = None) -> None:
        self.key = key  # the name its lines are counted under: the log's path, or an ended generation's own
        self.fd = fd
        self.identity = identity
        self.stream = stream  # standard input without a descriptor (in memory)
        self.read = 0
        self.offset = 0
        self.line = 1
        self.carry = b""
        self.skipping = 0
        self.last = b""  # the byte just before ``read``: a file rewritten under it holds another there
        self.grew = at  # when it last grew (an ended generation is read on until it stops)

    @property
    def waiting(self) -> int:
        return len(self.carry) + self.skipping


class _Log:
    """A followed log: its path, the generation read now, earlier ones still read on."""

    __slots__ = ("current", "draining", "ended", "generation", "missing", "path", "problem", "shared")

    def __init__(self, path: str, current: _Source) -> None:
        self.path = path
        self.current = current
        self.draining: list[_Source] = []
        self.generation = 1
        self.missing = False  # the path names no file (said once)
        self.problem: str | None = None  # why a new file at the path cannot be read (said once)
        self.ended = False
        self.shared: str | None = None  # the name the generations past NAMED_GENERATIONS share


class Follower:
    """Follows ``logs`` (plain files, ``-`` for standard input): ``poll()``
    counts what was appended since the last poll into ``tally``, and notices a
    rotation or truncation (``events``).  The files are opened here (LogError
    for a ``.gz``, a FIFO, a missing file, ``-`` closed or given twice);
    ``backlog`` says, per plain log, where its last newline was then: a count
    of the lines up to there (``triage(..., ends=backlog)``) handed to
    ``adopt`` is followed on from there; without one, ``poll()`` counts every
    log from its start.  ``stamps``: kept as the logs are followed (each log's
    a ``growing`` stamp, each ended generation's a ``gone`` one), for the
    rereads of the overview.  ``close()`` when done."""

    def __init__(self, logs: Sequence[str], registry: Registry, options: Options = Options(), *,
                 stdin: BinaryIO | None = None, stamps: dict[str, LogStamp] | None = None,
                 requests: RequestCache | None = None, clock: Callable[[], float] = time.monotonic,
                 now: Callable[[], float] = time.time) -> None:
        if sum(1 for path in logs if path == STDIN) > 1:
            raise LogError(STDIN, "standard input given more than once")
        for path in logs:
            check_followable(path)
        if STDIN in logs:
            check_stdin(stdin if stdin is not None else _stdin())
        self.registry = registry
        self.options = options
        self.requests = requests if requests is not None else RequestCache(registry)
        self.stamps = stamps
        self.clock = clock
        self.now = now
        self.tally = Tally(by_keys=options.by, index=Index() if options.index else None)
        self.events: deque[FollowEvent] = deque(maxlen=EVENTS_KEPT)
        self.event_count = 0
        self.backlog: dict[str, int] = {}
        # Of what was in the plain logs when the follow started (``backlog``): the bytes and lines counted.
        self.existing_read = 0
        self.existing_lines = 0
        self.logs: list[_Log] = []
        try:
            for path in dict.fromkeys(logs):
                self.logs.append(_Log(path, self._stdin_source(stdin) if path == STDIN else self._open_first(path)))
        except BaseException:
            self.close()
            raise

    # -- opening ----------------------------------------------------------------------

    def _open_first(self, path: str) -> _Source:
        fd = open_log(path)
        found = os.fstat(fd)
        source = _Source(path, fd, (found.st_dev, found.st_ino), self.clock())
        self.backlog[path] = _after_last_newline(fd, found.st_size)
        if self.stamps is not None:
            self.stamps[path] = LogStamp(path, found.st_dev, found.st_ino, self.backlog[path], found.st_mtime_ns,
                                         growing=True)
        return source

    def _stdin_source(self, stdin: BinaryIO | None) -> _Source:
        stream = stdin if stdin is not None else _stdin()
        try:
            fd: int | None = stream.fileno()  # type: ignore[union-attr]  # None (stdin closed): AttributeError, caught
        except (io.UnsupportedOperation, AttributeError, OSError, ValueError):
            fd = None
        return _Source(STDIN, fd, None, self.clock(), stream=stream if fd is None else None)

    def adopt(self, tally: Tally) -> None:
        """Take ``tally`` as the count of each plain log's lines up to its
        ``backlog`` (what ``triage(logs, ..., ends=backlog)`` counted, in this
        order), and follow on from there."""
        if self.options.index and tally.index is None:
            tally.index = Index()
        if not tally.by_keys:
            tally.by_keys = self.options.by
        self.tally = tally
        plain = [log for log in self.logs if log.path in self.backlog]
        for log in plain:
            source, end = log.current, self.backlog[log.path]
            assert source.fd is not None
            # One log: its lines are the count's; several: the newlines before its end, counted in C.
            lines = tally.lines if len(plain) == 1 else _newlines(source.fd, end)
            source.read = source.offset = end
            source.line = lines + 1
            source.last = os.pread(source.fd, 1, end - 1) if end else b""

    def stopped(self, tally: Tally, read: int) -> None:
        """Take ``tally`` as the count of the first ``read`` bytes of the lines that were in the plain logs
        (a count of the backlog stopped before its end: its tasks are merged in log order), so that each
        log's state says the lines counted of it; nothing is followed on from there."""
        self.tally = tally
        plain = [log for log in self.logs if log.path in self.backlog]
        left, lines = read, tally.lines
        for log in plain:
            source, end = log.current, self.backlog[log.path]
            assert source.fd is not None
            part = min(left, end)
            # A log read whole: its newlines (counted in C); the one the count stopped in: the lines left.
            counted = min(_newlines(source.fd, end), lines) if part == end else lines
            source.read = source.offset = part
            source.line = counted + 1
            left, lines = left - part, lines - counted
        self.existing_read = read

    # -- one round ----------------------------------------------------------------------

    def poll(self) -> bool:
        """Count what every log gained since the last poll, noticing rotations
        and truncations; whether a log has more to read already (it grew by
        more than ``POLL_BYTES``: poll again at once)."""
        behind = False
        for log in self.logs:
            if not log.ended:
                behind = (self._poll_stream(log) if log.path == STDIN else self._poll_file(log)) or behind
        return behind

    @property
    def ended(self) -> bool:
        """Whether every log ended (only standard input ends)."""
        return all(log.ended for log in self.logs)

    def states(self) -> tuple[LogState, ...]:
        return tuple(LogState(log.path, log.generation, log.current.line - 1, log.current.waiting, log.ended)
                     for log in self.logs)

    def _poll_file(self, log: _Log) -> bool:
        now = self.clock()
        for source in list(log.draining):  # earlier generations, still written through another name
            behind = self._read_file(source)
            if not behind and now - source.grew >= DRAIN_SECONDS:
                self._finish(source)
                log.draining.remove(source)
                _close(source)
        try:
            found: os.stat_result | None = os.stat(log.path)
        except (OSError, ValueError):
            found = None
        current = log.current
        if found is None:
            if not log.missing:
                log.missing = True
                self._event(log, "gone", current.line - 1,
                            f"cannot be found after line {current.line - 1:,} (removed or renamed): the file open "
                            "is read on, and a new one from its start once it is there")
        elif (found.st_dev, found.st_ino) != current.identity:
            fresh = self._open_again(log)
            if fresh is not None:
                self._read_file(current)  # the old file up to now, under its name still
                after = current.line - 1
                self._retire(log, "rotated away", "renamed and replaced")
                log.draining.append(current)
                log.current = fresh
                log.missing = False
                self._stamp(log.path, fresh)  # after the old lines were renamed: never their stamp
                self._event(log, "rotated", after, f"renamed and replaced after line {after:,}: the old file is "
                                                   "read on to its end, the new one from its start (line 1)")
        elif log.missing:
            log.missing = False
            self._event(log, "back", current.line - 1,
                        f"found again (the same file), after line {current.line - 1:,}")
        self._check_truncated(log)
        return self._read_file(log.current)

    def _open_again(self, log: _Log) -> _Source | None:
        """The new file at the log's path (None, said once, while it cannot be read)."""
        try:
            check_followable(log.path)
            fd = open_log(log.path)
        except LogError as exc:
            if exc.problem != log.problem:
                log.problem = exc.problem
                self._event(log, "unreadable", log.current.line - 1,
                            f"another file is there now but cannot be followed ({exc.problem}); the file open is "
                            "read on meanwhile")
            return None
        log.problem = None
        found = os.fstat(fd)
        return _Source(log.path, fd, (found.st_dev, found.st_ino), self.clock())

    def _check_truncated(self, log: _Log) -> None:
        """A truncation (shorter than read), or a rewrite under what was read
        (the byte before it is not the one read there): counted again from the start."""
        source = log.current
        assert source.fd is not None
        size = os.fstat(source.fd).st_size
        if size >= source.read and (not source.read or os.pread(source.fd, 1, source.read - 1) == source.last):
            return
        how = f"truncated ({size:,} bytes now, {source.read:,} read before)" if size < source.read else \
            "rewritten in place"
        after = source.line - 1
        self._retire(log, "truncated", how)
        fresh = _Source(log.path, source.fd, source.identity, self.clock())
        source.fd = None  # the descriptor goes on with the new generation
        log.current = fresh
        self._stamp(log.path, fresh)
        self._event(log, "truncated", after, f"{how} after line {after:,}: counted again from its start (line 1)")

    def _retire(self, log: _Log, name: str, how: str) -> None:
        """Put the lines counted of the log's current generation under a name of
        their own, with a ``gone`` stamp saying why they are not read again: the
        path names another file (or other bytes) from now on."""
        source = log.current
        shared = log.generation > NAMED_GENERATIONS
        if shared:
            if log.shared is None:
                log.shared = self._unique(f"{log.path} (a generation past the first {NAMED_GENERATIONS}, ended)")
            key = log.shared
            gone = (f"{log.path} was rotated or truncated more than {NAMED_GENERATIONS:,} times while followed "
                    f"(the last: {how} at {iso(self.now())}): the lines counted of it before are not in it any "
                    "more, and are not read again")
        else:
            key = self._unique(f"{log.path} (generation {log.generation}, {name})")
            gone = (f"{log.path} was {how} at {iso(self.now())}: the lines counted before that are not in it any "
                    "more, and are not read again")
        log.generation += 1
        if self.stamps is not None and source.identity is not None:
            # The stamp first, then the name: a reread never finds the name unstamped.
            self.stamps[key] = LogStamp(key, *source.identity, source.offset, 0, growing=True, gone=gone)
        index = self.tally.index
        if index is not None and log.path in index.files:
            at = index.files.index(log.path)
            if key in index.files:  # a shared name: the path's lines join it, its slot is the next generation's
                remap = list(range(len(index.files)))
                remap[at] = index.files.index(key)
                index.file = array("H", map(remap.__getitem__, index.file))
            else:
                index.files[at] = key
        if any(file == log.path for file, _, _ in self.tally.bad):
            self.tally.bad[:] = [(key if file == log.path else file, line, reason)
                                 for file, line, reason in self.tally.bad]
        source.key = key

    def _unique(self, name: str) -> str:
        taken = {log.path for log in self.logs} | set(self.stamps or ()) | \
            set(self.tally.index.files if self.tally.index is not None else ())
        found, number = name, 1
        while found in taken:
            number += 1
            found = f"{name} #{number}"
        return found

    def _stamp(self, path: str, source: _Source) -> None:
        """The stamp of a new generation: its identity, nothing counted yet (mtime is not compared)."""
        if self.stamps is not None and source.identity is not None:
            self.stamps[path] = LogStamp(path, *source.identity, source.offset, 0, growing=True)

    # -- reading and counting -------------------------------------------------------------

    def _read_file(self, source: _Source) -> bool:
        """Count what ``source`` gained (at most ``POLL_BYTES``); whether more is there."""
        if source.fd is None:
            return False
        size = os.fstat(source.fd).st_size
        budget = POLL_BYTES
        while source.read < size and budget > 0:
            data = os.pread(source.fd, min(CHUNK_BYTES, size - source.read, budget), source.read)
            if not data:
                break
            source.read += len(data)
            source.last = data[-1:]
            source.grew = self.clock()
            budget -= len(data)
            self._count(source, self._feed(source, data))
        return source.read < size

    def _poll_stream(self, log: _Log) -> bool:
        """Count what standard input brought since the last poll (without waiting for more)."""
        source = log.current
        budget = POLL_BYTES
        while budget > 0:
            try:
                if source.fd is not None:
                    if not select.select([source.fd], [], [], 0)[0]:
                        return False
                    data = os.read(source.fd, CHUNK_BYTES)
                else:
                    stream: Any = source.stream
                    data = (stream.read1 if hasattr(stream, "read1") else stream.read)(CHUNK_BYTES) or b""
            except BlockingIOError:  # a descriptor left non-blocking, nothing there after all
                return False
            except OSError as exc:
                self._finish(source)
                log.ended = True
                self.tally.broken.append((log.path, source.line - 1, f"cannot read further: {read_problem(exc)}"))
                self._event(log, "broken", source.line - 1,
                            f"cannot be read further after line {source.line - 1:,}: {read_problem(exc)}")
                return False
            if not data:
                self._finish(source)
                log.ended = True
                self._event(log, "ended", source.line - 1, f"ended after line {source.line - 1:,}")
                return False
            source.read += len(data)
            budget -= len(data)
            self._count(source, self._feed(source, data))
        return True

    def _feed(self, source: _Source, data: bytes) -> list[Chunk]:
        """The complete lines ``data`` ends (with what waited before it), as
        chunks; the rest waits (a line longer than ``MAX_LINE_BYTES`` is
        skipped, its length kept, and is one chunk of no data at its newline)."""
        chunks: list[Chunk] = []
        if source.skipping:
            newline = data.find(b"\n")
            if newline < 0:
                source.skipping += len(data)
                return chunks
            chunks.append((source.offset, None, source.skipping + newline))
            source.offset += source.skipping + newline + 1
            source.skipping = 0
            data = data[newline + 1:]
        buffer = source.carry + data if source.carry else data
        cut = buffer.rfind(b"\n")
        if cut >= 0:
            chunks.append((source.offset, buffer[:cut + 1], cut + 1))
            source.offset += cut + 1
            buffer = buffer[cut + 1:]
        if len(buffer) > MAX_LINE_BYTES:
            source.skipping, buffer = len(buffer), b""
        source.carry = buffer
        return chunks

    def _finish(self, source: _Source) -> None:
        """The end of a generation or a stream: a last line without its newline is a line."""
        if source.skipping:
            self._count(source, [(source.offset, None, source.skipping)])
            source.offset += source.skipping
        elif source.carry:
            self._count(source, [(source.offset, source.carry, len(source.carry))])
            source.offset += len(source.carry)
        source.carry, source.skipping = b"", 0

    def _count(self, source: _Source, chunks: list[Chunk]) -> None:
        if not chunks:
            return
        part = tally_chunks(source.key, chunks, self.registry, self.options, source.line, self.requests)
        source.line += part.lines
        self.tally.add(part)
        stamp = self.stamps.get(source.key) if self.stamps is not None else None
        if stamp is not None and stamp.gone is None:
            self.stamps[source.key] = replace(stamp, size=source.offset)  # type: ignore[index]  # a stamp: stamps kept

    def _event(self, log: _Log, kind: str, after: int, detail: str) -> None:
        self.event_count += 1
        self.events.append(FollowEvent(self.event_count, self.now(), log.path, kind, after, detail))

    def close(self) -> None:
        """Close every file open (standard input is left as it is)."""
        for log in self.logs:
            for source in (log.current, *log.draining):
                _close(source)
            log.draining.clear()


def _close(source: _Source) -> None:
    if source.fd is not None and source.key != STDIN:
        os.close(source.fd)
    source.fd = None


def _stdin() -> BinaryIO | None:
    import sys

    return sys.stdin.buffer if sys.stdin is not None else None


def _after_last_newline(fd: int, size: int) -> int:
    """Where the last complete line of the file ends (0: none)."""
    position = size
    while position > 0:
        start = max(0, position - _SCAN)
        found = os.pread(fd, position - start, start).rfind(b"\n")
        if found >= 0:
            return start + found + 1
        position = start
    return 0


def _newlines(fd: int, end: int) -> int:
    """The newlines in the file's first ``end`` bytes."""
    count = position = 0
    while position < end:
        data = os.pread(fd, min(CHUNK_BYTES, end - position), position)
        if not data:
            break
        count += data.count(b"\n")
        position += len(data)
    return count


# -- the run ---------------------------------------------------------------------------------


def follow(logs: Sequence[str], registry: Registry, options: Options = Options(), *,
           on_progress: Callable[[FollowProgress], None], cancel: Cancel, stdin: BinaryIO | None = None,
           stamps: dict[str, LogStamp] | None = None, poll_seconds: float = POLL_SECONDS,
           report_seconds: float = REPORT_SECONDS, on_notice: Callable[[str], None] | None = None,
           engine: Engine | None = None, workers: int | None = None,
           task_bytes: int | None = None, parallel_min_bytes: int | None = None,
           progress_every: float | None = None) -> Tally:
    """Count ``logs`` and follow them until ``cancel`` is set or every one ended
    (standard input's end; a file never ends); the counts in the end.

    The lines already in the plain logs are counted first, by ``triage`` on
    every core (``engine``, or the local engine of ``workers``, ``task_bytes``...), up to each
    one's last newline; then every ``poll_seconds`` what was appended.
    ``on_progress`` is called in this thread with the counts as they are: while
    the backlog is counted as ``triage`` reports, then after each poll that
    counted a line or saw an event (at most every ``poll_seconds``) and at least
    every ``report_seconds``; once more at the end (``done``).  LogError before
    anything is counted for a log that cannot be followed."""
    from .run import local_engine, triage

    follower = Follower(logs, registry, options, stdin=stdin, stamps=stamps)
    started = time.monotonic()
    existing = sum(follower.backlog.values())
    try:
        if follower.backlog:
            read = [0]

            def backlog(state: Any) -> None:
                read[0] = state.bytes_done
                on_progress(FollowProgress(state.lines, state.bytes_done, state.total_bytes, state.seconds,
                                           state.tally, events=tuple(follower.events),
                                           event_count=follower.event_count, logs=follower.states(),
                                           existing=existing, existing_read=state.bytes_done,
                                           existing_lines=state.lines))

            counted = triage(list(follower.backlog), registry, options, on_progress=backlog,
                             cancel=cancel, ends=follower.backlog, on_notice=on_notice,
                             engine=local_engine(engine, workers, task_bytes, parallel_min_bytes, progress_every))
            if read[0] < existing:  # stopped while the lines there were counted: nothing to follow on from
                follower.stopped(counted, read[0])
            else:
                follower.adopt(counted)
                follower.existing_read = existing
            follower.existing_lines = counted.lines
        samples: deque[tuple[float, int]] = deque()
        reported = seen = -1.0
        told = follower.event_count
        while not cancel.is_set() and not follower.ended:
            behind = follower.poll()
            now = time.monotonic()
            lines = follower.tally.lines
            samples.append((now, lines))
            while len(samples) > 2 and now - samples[1][0] >= RATE_SECONDS:
                samples.popleft()
            news = lines != seen or follower.event_count != told
            if now - reported >= report_seconds or (news and now - reported >= poll_seconds):
                first, count_then = samples[0]
                rate = (lines - count_then) / (now - first) if now > first else 0.0
                on_progress(_progress(follower, started, now, rate))
                reported, seen, told = now, lines, follower.event_count
            if not behind and not follower.ended:
                cancel.wait(poll_seconds)
        on_progress(_progress(follower, started, time.monotonic(), 0.0, done=True))
        return follower.tally
    finally:
        follower.close()


def _progress(follower: Follower, started: float, now: float, rate: float, done: bool = False) -> FollowProgress:
    tally = follower.tally
    read = sum(source.read for log in follower.logs for source in (log.current, *log.draining))
    existing, existing_read = sum(follower.backlog.values()), follower.existing_read
    return FollowProgress(tally.lines, read, read, now - started, tally, caught_up=existing_read >= existing,
                          per_second=rate, events=tuple(follower.events), event_count=follower.event_count,
                          logs=follower.states(), done=done, existing=existing, existing_read=existing_read,
                          existing_lines=follower.existing_lines)


# -- the headless objects ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Counts:
    """What the headless follow reports of a tally: lines, records, bad lines
    and the records of every verdict label (``tally.VERDICT_LABELS``, each one,
    0 included: a consumer reads a label without asking whether it is there)."""

    lines: int = 0
    records: int = 0
    bad_lines: int = 0
    by_label: dict[str, int] = field(default_factory=lambda: dict.fromkeys(VERDICT_LABELS, 0))

    @classmethod
    def of(cls, tally: Tally) -> Counts:
        labels = dict.fromkeys(VERDICT_LABELS, 0)
        for cell, count in tally.cells.items():
            label = label_of(cell.verdict.status, cell.verdict.reason)
            labels[label] = labels.get(label, 0) + count
        return cls(tally.lines, tally.records, tally.bad_lines, labels)

    def minus(self, before: Counts) -> Counts:
        return Counts(self.lines - before.lines, self.records - before.records, self.bad_lines - before.bad_lines,
                      {label: count - before.by_label.get(label, 0) for label, count in self.by_label.items()})

    def to_dict(self) -> dict[str, Any]:
        return {"lines": self.lines, "records": self.records, "bad_lines": self.bad_lines,
                "by_label": dict(self.by_label)}


def follow_document(progress: FollowProgress, now: Counts, before: Counts, interval: float,
                    events: Iterable[FollowEvent], at: float, final: bool = False) -> dict[str, Any]:
    """One object of ``--follow --format jsonl`` (``SCHEMA``): the time, the
    counts since the start (``total``) and in the last ``interval`` seconds
    (``interval``: ``now`` minus ``before``), the events since the last object,
    each log's state, ``caught_up`` (false while the lines that were already in
    the logs are counted, and in the final object of a follow stopped before
    they all were), ``existing`` (those lines: their bytes, the bytes and lines
    of them read, whether all were) and ``final`` (the last object, on SIGINT,
    SIGTERM or the end of standard input)."""
    return {"schema": SCHEMA, "time": iso(at), "seconds": round(progress.seconds, 3), "final": final,
            "caught_up": progress.caught_up,
            "existing": {"bytes": progress.existing, "bytes_read": progress.existing_read,
                         "lines_read": progress.existing_lines, "all_read": progress.caught_up},
            "total": now.to_dict(),
            "interval": {"seconds": round(interval, 3), **now.minus(before).to_dict()},
            "events": [event.to_dict() for event in events], "logs": [log.to_dict() for log in progress.logs],
            "broken": [{"file": file, "after_line": line, "problem": problem}
                       for file, line, problem in progress.tally.broken]}


def events_after(progress: FollowProgress, told: int) -> list[FollowEvent]:
    """The events of ``progress`` numbered after ``told`` (those kept)."""
    return [event for event in progress.events if event.number > told]
