"""Reading logs: plain JSON-lines files, ``.gz`` files and standard input.

The rules of ``io.reading`` hold here too: a log is a regular file (symbolic
links followed) or ``-`` for standard input; a FIFO, a device or a directory is
refused before it is opened for reading, and opening never blocks.  A log may be
far larger than memory, so it is read in chunks of complete lines, never whole,
and no line longer than ``MAX_LINE_BYTES`` is ever held: it is skipped and
reported as a bad line.

A plain file is read by byte range: a range ``[start, end)`` owns the lines that
begin in it, so any split of a file into ranges covers every line exactly once.
A ``.gz`` file (recognised by its magic bytes, whatever its name) and standard
input are streams: read once, from the start, and offsets are positions in the
decompressed stream.  A ``.gz`` is decompressed by ``triage.gz``, in bounded
pieces: a stream that breaks off (truncated, corrupt, a bad CRC, garbage after
its end) hands out every line before the break, then raises ``StreamBroke``
saying where and why.
"""

from __future__ import annotations

import fcntl
import functools
import glob
import io
import os
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, BinaryIO

from ..contract.text import visible
from ..io.reading import ReadError, open_regular
from .gz import GzipBreak, GzipLines, Inflater, SeekIndex, file_identity
from .records import MAX_LINE_BYTES

__all__ = [
    "CHUNK_BYTES",
    "LOG_SUFFIXES",
    "STDIN",
    "Chunk",
    "Pread",
    "LogError",
    "StreamBroke",
    "check_log",
    "check_stdin",
    "count_lines",
    "expand_logs",
    "gzip_line_at",
    "identity_of",
    "is_gzip",
    "line_of",
    "line_ranges",
    "range_chunks",
    "read_gzip",
    "read_line_at",
    "read_problem",
    "read_range",
    "size_of",
    "stream_chunks",
]

STDIN = "-"
CHUNK_BYTES = 4 * 1024 * 1024
# The logs a directory given as LOG holds: the files directly in it named so.
LOG_SUFFIXES = (".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz")
_GLOB_MAGIC = frozenset("*?[")
_GZIP_MAGIC = b"\x1f\x8b"

# A piece of a log: (offset of its first byte, its complete lines), or for a line
# too long to hold, (offset, None) with the skipped length in the third place.
Chunk = tuple[int, bytes | None, int]
# Reads ``size`` bytes at ``offset`` of a file (fewer at its end): os.pread on a descriptor, or
# an object in a bucket read by a distributed worker.
Pread = Callable[[int, int], bytes]


class LogError(Exception):
    """A log that cannot be read at all: which one and why, in one line."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(visible(f"{self.path}: {problem}"))


class StreamBroke(LogError):
    """A stream that broke off after handing out some lines: ``produced`` is
    where its good data ends (an offset in the decompressed stream)."""

    def __init__(self, path: str | Path, problem: str, produced: int) -> None:
        super().__init__(path, problem)
        self.produced = produced


def expand_logs(args: Sequence[str], suffixes: tuple[str, ...] | None = None) -> list[str]:
    """The logs named by LOG arguments, in order: a file (or ``-``) as it is; a
    glob (``logs/*.jsonl``, quoted so that the shell leaves it) as the files it
    matches, sorted (a directory it matches is left out); a directory as every
    ``LOG_SUFFIXES`` file directly in it, sorted (dot files left out, as a glob
    leaves them).  A file named twice is read once (``-`` twice is refused by
    the triage).  LogError for a glob that matches no file or a directory that
    holds no log, before anything is read.  A name that exists is a file even
    when it holds glob characters.  ``suffixes``: a format's, in place of ``LOG_SUFFIXES``."""
    found: list[str] = []
    suffixes = suffixes or LOG_SUFFIXES
    for arg in args:
        if arg == STDIN:
            found.append(arg)
        elif os.path.isdir(arg):
            try:
                names = sorted(name for name in os.listdir(arg)
                               if name.endswith(suffixes) and not name.startswith("."))
            except OSError as exc:
                raise LogError(arg, f"cannot list the directory: {read_problem(exc)}") from None
            logs = [path for path in (os.path.join(arg, name) for name in names) if not os.path.isdir(path)]
            if not logs:
                raise LogError(arg, f"the directory holds no log ({', '.join('*' + end for end in suffixes)})")
            found += logs
        elif _GLOB_MAGIC & set(arg) and not os.path.lexists(arg):
            logs = sorted(path for path in glob.glob(arg) if not os.path.isdir(path))
            if not logs:
                raise LogError(arg, "no file matches this pattern")
            found += logs
        else:
            found.append(arg)
    once: list[str] = []
    seen: set[str] = set()
    for path in found:
        if path == STDIN or path not in seen:
            once.append(path)
            seen.add(path)
    return once


def check_stdin(stream: IO[Any] | None) -> None:
    """LogError unless ``stream`` (standard input) can be read: open, not for
    writing only, not a directory.  A stream without a file descriptor (in
    memory) is taken as it is."""
    if stream is None:
        raise LogError(STDIN, "standard input is closed: pipe the log in (cat app.jsonl | inspector triage - ...)")
    try:
        fd = stream.fileno()
    except (io.UnsupportedOperation, AttributeError):
        return
    except (OSError, ValueError):
        raise LogError(STDIN, "standard input is closed: pipe the log in (cat app.jsonl | inspector triage - ...)") \
            from None
    try:
        flags = fcntl.fcntl(fd, fcntl.F_GETFL)
        mode = os.fstat(fd).st_mode
    except OSError:
        raise LogError(STDIN, "standard input is closed: pipe the log in (cat app.jsonl | inspector triage - ...)") \
            from None
    if flags & os.O_ACCMODE == os.O_WRONLY:
        raise LogError(STDIN, "standard input is open for writing only: pipe the log in "
                              "(cat app.jsonl | inspector triage - ...)")
    if stat.S_ISDIR(mode):
        raise LogError(STDIN, "standard input is a directory: pipe the log in (cat app.jsonl | inspector triage - ...)")


def check_log(path: str) -> None:
    """LogError unless ``path`` is ``-`` or a regular file that can be opened."""
    if path == STDIN:
        return
    os.close(open_log(path))


def open_log(path: str) -> int:
    try:
        return open_regular(path)
    except ReadError as exc:
        raise LogError(path, exc.problem) from None


def is_gzip(path: str) -> bool:
    """Whether the regular file ``path`` starts with gzip's magic bytes."""
    if path == STDIN:
        return False
    fd = open_log(path)
    try:
        return os.pread(fd, 2, 0) == _GZIP_MAGIC
    finally:
        os.close(fd)


def identity_of(path: str) -> tuple[int, ...]:
    """The file's (device, inode, size, modification time): what a ``SeekIndex`` was taken on."""
    fd = open_log(path)
    try:
        return file_identity(fd)
    finally:
        os.close(fd)


def size_of(path: str) -> int:
    fd = open_log(path)
    try:
        return os.fstat(fd).st_size
    finally:
        os.close(fd)


def line_ranges(path: str, parts: int, end: int | None = None) -> list[tuple[int, int]]:
    """``parts`` byte ranges of about equal size covering the plain file ``path``
    (its first ``end`` bytes when given: a followed log is counted up to its last
    newline, ``triage.follow``), each starting at the beginning of a line (fewer
    for a small file)."""
    fd = open_log(path)
    try:
        size = os.fstat(fd).st_size if end is None else end
        cuts = [0]
        for number in range(1, max(1, parts)):
            cut = _next_line_start(fd, max(cuts[-1], size * number // parts))
            if cut is None or cut >= size:
                break
            if cut > cuts[-1]:
                cuts.append(cut)
        cuts.append(size)
        return [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a] or [(0, 0)]
    finally:
        os.close(fd)


def _next_line_start(fd: int | Pread, position: int) -> int | None:
    """The first line start at or after ``position`` (None past the end)."""
    if position == 0:
        return 0
    pread = fd if callable(fd) else functools.partial(os.pread, fd)
    while True:
        data = pread(65536, position - 1)
        if not data:
            return None
        found = data.find(b"\n")
        if found >= 0:
            return position + found
        position += len(data)


def count_lines(path: str, end: int, start: int = 0) -> int:
    """How many lines begin before byte ``end`` of the plain file ``path``
    (newlines in ``[0, end)``, when ``end`` is a line start); from ``start``
    (a line start), how many begin in ``[start, end)``."""
    fd = open_log(path)
    try:
        lines = 0
        position = start
        while position < end:
            data = os.pread(fd, min(CHUNK_BYTES, end - position), position)
            if not data:
                break
            lines += data.count(b"\n")
            position += len(data)
        return lines
    finally:
        os.close(fd)


def range_chunks(path: str, start: int, end: int) -> Iterator[Chunk]:
    """The lines of the plain file ``path`` that begin in ``[start, end)``, in
    chunks of complete lines (the first line start at or after ``start``; the
    last owned line is read to its end, past ``end`` if need be)."""
    fd = open_log(path)
    try:
        yield from read_range(functools.partial(os.pread, fd), start, end)
    finally:
        os.close(fd)


def read_range(pread: Pread, start: int, end: int) -> Iterator[Chunk]:
    """``range_chunks`` of a file read with ``pread(size, offset)`` (a local
    descriptor's, or an object's in a bucket: ``triage.distributed``)."""
    first = _next_line_start(pread, start) if start > 0 else 0
    if first is None or first >= end:
        return
    yield from _split(lambda position: pread(CHUNK_BYTES, position), first, end)


def stream_chunks(path: str, stdin: BinaryIO | None = None, consumed: list[int] | None = None,
                  index: SeekIndex | None = None) -> Iterator[Chunk]:
    """Every line of a stream (``-``, or a ``.gz`` file decompressed), in chunks
    of complete lines.  ``consumed[0]`` follows the bytes read from the file (the
    compressed ones for ``.gz``).  A stream that breaks off hands out every
    complete line before the break, then raises ``StreamBroke`` (the bytes of a
    line it cut off are not a line).  ``index``: a ``.gz``'s restart points are
    kept there as it is decompressed (for a drill-down after the count)."""
    consumed = consumed if consumed is not None else [0]
    if path == STDIN:
        stream = stdin if stdin is not None else sys.stdin.buffer

        def read_stdin(position: int) -> bytes:
            try:
                data = stream.read(CHUNK_BYTES) or b""
            except OSError as exc:
                raise StreamBroke(path, f"cannot read further: {read_problem(exc)}", consumed[0]) from None
            consumed[0] += len(data)
            return data

        yield from _split(read_stdin, 0, None)
        return
    fd = open_log(path)
    try:
        yield from read_gzip(path, Inflater(fd, index=index), consumed)
    finally:
        os.close(fd)


def read_gzip(path: str, inflater: Inflater, consumed: list[int] | None = None) -> Iterator[Chunk]:
    """The lines a ``.gz``'s ``inflater`` decompresses, as ``stream_chunks`` hands them out."""
    consumed = consumed if consumed is not None else [0]

    def read(position: int) -> bytes:
        try:
            data = inflater.read(CHUNK_BYTES)
        except GzipBreak as exc:
            raise StreamBroke(path, exc.problem, inflater.position) from None
        except OSError as exc:
            raise StreamBroke(path, f"cannot read further: {read_problem(exc)}", inflater.position) from None
        consumed[0] = inflater.compressed
        return data

    yield from _split(read, 0, None)


def read_problem(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def _split(read: Callable[[int], bytes], position: int, end: int | None) -> Iterator[Chunk]:
    """Chunks of complete lines from ``read(at)`` (the bytes from ``at`` on; a
    stream ignores ``at``), for the lines beginning before ``end`` (None: all)."""
    buffer = b""  # the bytes from position on, read but not yet handed out
    skipping = 0  # while skipping a line too long to hold: its length so far
    while end is None or position < end:
        data = read(position + (skipping or len(buffer)))
        if not data:
            if skipping:
                yield position, None, skipping
            elif buffer:
                yield position, buffer, len(buffer)  # the last line has no newline
            return
        if skipping:
            found = data.find(b"\n")
            if found < 0:
                skipping += len(data)
                continue
            yield position, None, skipping + found
            position += skipping + found + 1
            skipping = 0
            buffer = data[found + 1:]
        else:
            buffer += data
        cut = buffer.rfind(b"\n")
        if cut < 0:
            if len(buffer) > MAX_LINE_BYTES:
                skipping, buffer = len(buffer), b""
            continue
        complete = buffer[:cut + 1]
        if end is not None and position + len(complete) > end:
            if position >= end:
                return
            # Only the lines that begin before end: up to the newline ending the line holding byte end - 1.
            complete = complete[:complete.index(b"\n", end - 1 - position) + 1]
            yield position, complete, len(complete)
            return
        yield position, complete, len(complete)
        position += len(complete)
        buffer = buffer[cut + 1:]


def read_line_at(path: str, offset: int) -> bytes:
    """The line that begins at byte ``offset`` of a log (of the decompressed
    stream for ``.gz``, decompressed from its start: ``drill.LineReader`` keeps
    restart points for many), without its newline, for a drill-down.  At most
    ``MAX_LINE_BYTES`` are read."""
    if path == STDIN:
        raise LogError(path, "standard input cannot be read again; triage a file to drill down")
    fd = open_log(path)
    try:
        if os.pread(fd, 2, 0) == _GZIP_MAGIC:
            data = gzip_line_at(path, GzipLines(fd, SeekIndex()), offset)
        else:
            data = os.pread(fd, MAX_LINE_BYTES + 1, offset)
    finally:
        os.close(fd)
    return line_of(path, offset, data)


def gzip_line_at(path: str, lines: GzipLines, offset: int, limit: int = MAX_LINE_BYTES) -> bytes:
    """The bytes of the line at ``offset`` of a ``.gz`` (``line_of`` makes them the line),
    decompressed until its newline or past ``limit`` bytes."""
    try:
        return lines.line_at(offset, limit)
    except GzipBreak as exc:
        raise LogError(path, f"cannot read at offset {offset}: {exc.problem}") from None
    except OSError as exc:
        raise LogError(path, f"cannot read at offset {offset}: {read_problem(exc)}") from None


def line_of(path: str, offset: int, data: bytes) -> bytes:
    """The line at the start of ``data`` (read from ``offset``), without its newline."""
    line, newline, _ = data.partition(b"\n")
    if not newline and len(data) > MAX_LINE_BYTES:
        raise LogError(path, f"the line at offset {offset} is longer than {MAX_LINE_BYTES} bytes")
    return line
