"""Rereading records of a log from their offsets (a drill-down from the index)."""

from __future__ import annotations

import os

from .gz import GzipLines, SeekIndex, file_identity
from .logs import (
    STDIN,
    LogError,
    gzip_line_at,
    is_gzip,
    line_of,
    open_log,
    read_line_at,
)
from .mapping import DEFAULT_FORMAT, LogFormat
from .parsing import decode_record
from .records import MAX_LINE_BYTES, BadLine, LogRecord, RequestCache

__all__ = ["LineReader", "read_record"]


def read_record(path: str, offset: int, line: int = 0, requests: RequestCache | None = None,
                log_format: LogFormat = DEFAULT_FORMAT) -> LogRecord | BadLine:
    """The record whose line begins at byte ``offset`` of the log ``path`` (of the
    decompressed stream for ``.gz``), or the bad line there, read as
    ``log_format`` says (the format it was counted with).  ``line`` is its
    number, as the index has it (only carried along).  LogError if the log cannot
    be read there (standard input cannot be read again)."""
    return decode_record(read_line_at(path, offset), path, line, offset, requests, log_format)


class LineReader:
    """Lines of logs read at their offsets, many in a row (a drill-down paging
    through a group): a plain log is read with a small read per line (most lines
    are a few hundred bytes); a ``.gz`` log keeps its decompression open, so that
    reading on at a later offset decompresses only the bytes between, and its
    restart points (``gz.SeekIndex``, bounded), so that an earlier offset
    decompresses at most one interval, not the log from its start.  The index of
    a log outlives ``close()`` (the overview keeps one reader for its session)
    unless the file changed (its identity and size).  A plain log's descriptor
    is of the file the path names now (its identity is compared on each read):
    a followed log renamed and replaced is read from the new file, not the one
    opened first.  ``close()`` when done."""

    FIRST_READ = 64 * 1024

    def __init__(self) -> None:
        self._plain: dict[str, tuple[int, tuple[int, int]]] = {}  # path -> (descriptor, its device and inode)
        self._streams: dict[str, GzipLines] = {}
        self._gzip: dict[str, bool] = {}
        self.indexes: dict[str, SeekIndex] = {}

    def line_at(self, path: str, offset: int) -> bytes:
        """The line beginning at ``offset``, without its newline (LogError if unreadable)."""
        if path == STDIN:
            raise LogError(path, "standard input cannot be read again; triage a file to drill down")
        gz = self._gzip.get(path)
        if gz is None:
            gz = self._gzip[path] = is_gzip(path)
        return self._gzip_line(path, offset) if gz else self._plain_line(path, offset)

    def line_start(self, path: str, offset: int, limit: int) -> tuple[bytes, bool]:
        """The first ``limit`` bytes of the line beginning at ``offset`` (without
        its newline) and whether the line goes on past them: a preview (a bad
        line's start), never the whole of a long line.  A plain log is read
        ``limit + 1`` bytes; a ``.gz``, up to the decompression's next piece.
        LogError if unreadable."""
        if path == STDIN:
            raise LogError(path, "standard input cannot be read again; triage a file to drill down")
        gz = self._gzip.get(path)
        if gz is None:
            gz = self._gzip[path] = is_gzip(path)
        if gz:
            try:
                data = gzip_line_at(path, self._stream(path), offset, limit)
            except LogError:
                self._drop(path)
                raise
        else:
            data = os.pread(self._plain_fd(path), limit + 1, offset)
        line, newline, _ = data.partition(b"\n")
        return line[:limit], len(line) > limit

    def _plain_line(self, path: str, offset: int) -> bytes:
        fd = self._plain_fd(path)
        data = os.pread(fd, self.FIRST_READ, offset)
        end = data.find(b"\n")
        if end < 0 and len(data) == self.FIRST_READ:  # a long line: the rest, up to the limit
            data += os.pread(fd, MAX_LINE_BYTES + 1 - self.FIRST_READ, offset + self.FIRST_READ)
            end = data.find(b"\n")
        if end < 0:
            if len(data) > MAX_LINE_BYTES:
                raise LogError(path, f"the line at offset {offset} is longer than {MAX_LINE_BYTES} bytes")
            return data
        return data[:end]

    def _plain_fd(self, path: str) -> int:
        """The descriptor of the file ``path`` names now (opened again when it is another file)."""
        kept = self._plain.get(path)
        if kept is not None:
            try:
                found = os.stat(path)
                now: tuple[int, int] | None = (found.st_dev, found.st_ino)
            except (OSError, ValueError):
                now = None
            if now == kept[1]:
                return kept[0]
            del self._plain[path]
            os.close(kept[0])
        fd = open_log(path)
        found = os.fstat(fd)
        self._plain[path] = (fd, (found.st_dev, found.st_ino))
        return fd

    def _gzip_line(self, path: str, offset: int) -> bytes:
        try:
            return line_of(path, offset, gzip_line_at(path, self._stream(path), offset))
        except LogError:
            self._drop(path)
            raise

    def _stream(self, path: str) -> GzipLines:
        lines = self._streams.get(path)
        if lines is None:
            fd = open_log(path)
            identity = file_identity(fd)
            index = self.indexes.get(path)
            if index is None or index.identity != identity:
                index = self.indexes[path] = SeekIndex(identity)
            lines = self._streams[path] = GzipLines(fd, index)
        return lines

    def _drop(self, path: str) -> None:
        lines = self._streams.pop(path, None)
        if lines is not None:
            os.close(lines.fd)

    def close(self) -> None:
        for fd, _ in self._plain.values():
            os.close(fd)
        self._plain.clear()
        for path in list(self._streams):
            self._drop(path)
