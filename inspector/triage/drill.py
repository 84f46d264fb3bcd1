"""Rereading one record of a log from its offset (a drill-down from the index)."""

from __future__ import annotations

from .logs import read_line_at
from .records import BadLine, LogRecord, RequestCache, decode_record

__all__ = ["read_record"]


def read_record(path: str, offset: int, line: int = 0, requests: RequestCache | None = None) -> LogRecord | BadLine:
    """The record whose line begins at byte ``offset`` of the log ``path`` (of the
    decompressed stream for ``.gz``), or the bad line there.  ``line`` is its
    number, as the index has it (only carried along).  LogError if the log cannot
    be read there (standard input cannot be read again)."""
    return decode_record(read_line_at(path, offset), path, line, offset, requests)
