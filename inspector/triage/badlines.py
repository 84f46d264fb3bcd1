"""Every bad line, written as it is found: ``--bad-lines FILE``.

A log can hold millions of bad lines (a file of newlines, a small ``.gz`` that
decompresses to gigabytes of garbage), so a tally keeps only the first
``KEPT`` of them (and their counts by kind); the file gets every one, one JSON
object a line: ``{"file", "line", "offset", "reason"}``, in log order.

The counting runs in tasks (byte ranges of a plain log, chunks of a stream),
each in a worker process, and a range's line numbers are known only once the
ranges before it are merged.  So each task spills its bad lines into a file of
its own (``Spill``: ``[line, offset, reason]`` a line, numbered within the
task), written in batches as they are found, and the driver copies the spills
into the output in task order, each line renumbered by the lines before its
task (``copy_spill``), then removes them: the memory stays one batch, whatever
the number of bad lines, and the order is the log's.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, BinaryIO

import msgspec

__all__ = ["BATCH", "KEPT", "BadLineEntry", "HeldSpill", "Spill", "SpillFile", "copy_spill", "copy_spilled", "spill_name"]

# Bad lines a tally keeps (the first ones, in order): what the summary lists.
KEPT = 1000
# Bad lines a spill holds before writing them out.
BATCH = 16384
_READ = 4 * 1024 * 1024
_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


class BadLineEntry(msgspec.Struct, frozen=True):
    """A line of ``--bad-lines``: where the bad line is and why (``offset`` None
    where it is not known: a stream that broke off)."""

    file: str
    line: int
    offset: int | None
    reason: str


_ENCODE_LINES = msgspec.json.Encoder().encode_lines
_SPILLED = msgspec.json.Decoder(tuple[int, int | None, str])


def spill_name(kind: str, log: int, place: int) -> str:
    """The name of a task's spill in the spill directory: the task's kind, its
    log's number and where it starts (unique per task)."""
    return f"{kind}-{log}-{place}.jsonl"


class SpillFile:
    """A task's items in a new file of the spill directory, created at the first
    item (a task without any leaves no file), written ``batch`` items at a time
    as ``encode`` writes them."""

    batch = BATCH

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._batch: list[Any] = []
        self._fd: int | None = None

    def encode(self, batch: list[Any]) -> bytes:
        return _ENCODE_LINES(batch)

    def append(self, item: Any) -> None:
        self._batch.append(item)
        if len(self._batch) >= self.batch:
            self.flush()

    def flush(self) -> None:
        if not self._batch:
            return
        if self._fd is None:
            self._fd = os.open(self.path, _FLAGS, 0o600)
        view = memoryview(self.encode(self._batch))
        self._batch.clear()
        while view:
            view = view[os.write(self._fd, view):]

    def close(self) -> None:
        try:
            self.flush()
        finally:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None


class Spill(SpillFile):
    """The bad lines of one task, as ``[line, offset, reason]`` lines."""

    def add(self, line: int, offset: int | None, reason: str) -> None:
        self.append((line, offset, reason))


def copy_spill(path: str | Path, file: str, shift: int, out: BinaryIO) -> int:
    """Write the spill at ``path`` (bad lines of ``file``) to ``out`` as
    ``--bad-lines`` lines, each line number ``shift`` further on; returns how
    many.  The spill is read a few megabytes at a time."""
    written = 0
    with open(path, "rb") as spill:
        rest = b""
        while True:
            data = spill.read(_READ)
            if not data:
                break
            data = rest + data
            cut = data.rfind(b"\n") + 1
            rest = data[cut:]
            written += copy_spilled(data[:cut], file, shift, out)
        if rest:  # pragma: no cover - a spill always ends with a newline
            raise ValueError(f"{path}: a spill ends inside a line")
    return written


def copy_spilled(data: bytes, file: str, shift: int, out: BinaryIO) -> int:
    """``copy_spill`` of a spill's whole lines held in ``data`` (a piece of a
    spill file, or a ``HeldSpill``'s bytes); returns how many."""
    entries = [BadLineEntry(file, line + shift, offset, reason)
               for line, offset, reason in _SPILLED.decode_lines(data)]
    out.write(_ENCODE_LINES(entries))
    return len(entries)


class HeldSpill(Spill):
    """A spill kept in memory, encoded as a spill file's lines (``data``): the
    bad lines of a task counted on another machine, sent back with its tally
    (``triage.distributed``)."""

    def __init__(self) -> None:
        self.data = bytearray()
        self._batch = []
        self._fd = None

    def flush(self) -> None:
        if self._batch:
            self.data += _ENCODE_LINES(self._batch)
            self._batch.clear()
