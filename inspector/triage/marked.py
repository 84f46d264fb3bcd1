"""Records marked by hand (``space`` on a group's record), kept beside the log: ``LOG.marks.jsonl``.

A mark is a reviewer's bookmark ("look at this one again", "export these"),
not a decision: it says nothing of the verdict.  It lasts as the annotations
do (``triage.annotations``): in a file of its own beside the log, never in
the log, JSON lines, the first a header::

    {"schema": "inspector.marks/1", "log": "app.jsonl"}
    {"line": 12, "offset": 3071, "sha256": "…"}

A record is keyed as an annotation is, by its line, the byte offset its line
starts at and the sha256 of the line's bytes: a mark of a line rewritten since
(another digest at that offset) marks nothing.  The file is rewritten whole or
not at all (``io.writing``), keeping its permission bits, under its lock
(``io.locking``: two terminals marking one log add to what is on disk, reading
it again under the lock), and only a file this module wrote (its header) is
ever replaced; never a symbolic link, never inside the bundled fixtures.  A log
read from standard input has no file beside it: its marks are not kept.
Reading is bounded (``MAX_BYTES``); a file that is not what this module writes
is a ``MarksError`` naming the file and line.  Pure: no textual, no rich.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager
from pathlib import Path

import msgspec

from ..contract.text import visible
from ..io.locking import exclusive_as
from ..io.reading import ReadError, read_limited
from ..io.writing import WriteError, write_files
from .logs import STDIN

__all__ = ["MAX_BYTES", "SCHEMA", "SUFFIX", "MarkKey", "MarksError", "change_marks", "marks_path", "read_marks"]

SCHEMA = "inspector.marks/1"
SUFFIX = ".marks.jsonl"
MAX_BYTES = 16 * 1024 * 1024  # a mark is about a hundred bytes: more than a hundred thousand fit

MarkKey = tuple[int, int, str]  # line, offset, sha256 of the line's bytes


class MarksError(Exception):
    """A marks file that cannot be read or written: the file (and line), and why, in one line."""

    def __init__(self, path: str | Path, problem: str, line: int | None = None) -> None:
        self.path = str(path)
        self.problem = problem
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(visible(f"{where}: {problem}"))


class _Header(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    schema: str
    log: str | None = None


class _Mark(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    line: int
    offset: int
    sha256: str


_HEADER = msgspec.json.Decoder(_Header)
_MARK = msgspec.json.Decoder(_Mark)
_ENCODE = msgspec.json.Encoder().encode


def marks_path(log: str) -> Path | None:
    """The marks file of ``log``, beside it (None for standard input: nothing to be beside)."""
    if log == STDIN:
        return None
    return Path(log).with_name(Path(log).name + SUFFIX)


def read_marks(log: str) -> tuple[list[MarkKey], bool]:
    """The marks of ``log`` in the order they were made, and whether its file exists (none: no file, or
    standard input).  MarksError for a file that is not a regular file, too large, or not a marks file."""
    path = marks_path(log)
    if path is None:
        return [], False
    try:
        data = read_limited(path, MAX_BYTES, "file of marks", follow_symlinks=False)
    except ReadError as exc:
        if exc.problem == "no such file":
            return [], False
        raise MarksError(path, exc.problem) from None
    return list(_keys(path, data)), True


def _keys(path: Path, data: bytes) -> Iterable[MarkKey]:
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    try:
        header = _HEADER.decode(lines[0]) if lines else None
    except (msgspec.DecodeError, RecursionError):
        header = None
    if header is None or header.schema != SCHEMA:
        raise MarksError(path, f'not a file of marks: its first line is not {{"schema": "{SCHEMA}"}}', 1)
    found: dict[MarkKey, None] = {}
    for number, text in enumerate(lines[1:], 2):
        try:
            mark = _MARK.decode(text)
        except (msgspec.DecodeError, RecursionError) as exc:
            raise MarksError(path, f"not a mark: {exc}", number) from None
        found[(mark.line, mark.offset, mark.sha256)] = None
    return found.keys()


def change_marks(log: str, add: Iterable[MarkKey] = (), remove: Iterable[MarkKey] = ()) -> list[MarkKey]:
    """Add and remove marks of ``log`` in its file, read again and rewritten whole under its lock (marks
    made meanwhile elsewhere stay); the marks now.  Nothing is written for standard input, nor when nothing
    changes.  MarksError when the file cannot be read, locked or written."""
    path = marks_path(log)
    if path is None:
        return []
    with _locked(path):
        keys, exists = read_marks(log)
        kept = dict.fromkeys(keys)
        before = list(kept)
        for key in remove:
            kept.pop(key, None)
        for key in add:
            kept[key] = None
        if list(kept) == before:
            return before
        document = b"".join([_ENCODE({"schema": SCHEMA, "log": Path(log).name}), b"\n",
                             *(_ENCODE({"line": line, "offset": offset, "sha256": sha256}) + b"\n"
                               for line, offset, sha256 in kept)])
        try:
            # Replacing only a file this module wrote and read back (its header); else creating, never over one.
            write_files(path.parent, {path.name: document}, overwrite=exists, keep_mode=True)
        except WriteError as exc:
            raise MarksError(exc.path, f"{exc.reason}; the marks were not kept") from None
        except (OSError, ValueError) as exc:
            raise MarksError(path, f"{getattr(exc, 'strerror', None) or exc}; the marks were not kept") from None
    return list(kept)


def _locked(path: Path) -> AbstractContextManager[None]:
    """Hold the marks file's lock: MarksError when it cannot be had."""
    return exclusive_as(path, lambda where, reason: MarksError(where, f"{reason}; the marks were not kept"))
