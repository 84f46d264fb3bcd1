"""What a log was when it was counted: ``LogStamp``, and ``LogChanged`` when it is not any more.

The index of a triage holds, per line, where it was (file, offset) and its
verdict, not the line: a drill-down or an export rereads each line from its
offset.  If the file was rewritten, rotated or replaced since it was counted,
the bytes at an offset are another record (or half of one), and a reread would
silently show, or export under the counted label, a record that was never
counted.  So the counting takes a stamp of each log when it starts (the file's
identity, device and inode, its size and modification time), and every reread
checks it first, then that the line reread still has the verdict the index
holds for it (``triage.members``).  Either failing is ``LogChanged``: refuse,
and count again.

A log still being appended to changes too (its size and mtime): what was
counted is not what is there, and the stamp says so; count a copy, or count
again.

A followed log (``triage.follow``) grows by design, so its stamp is a
``growing`` one: the follower moves its ``size`` on to what it has counted, and
a reread accepts a file at least that long with the same identity, and refuses
one that is another file (renamed and replaced) or shorter (truncated).  When
the follower sees a rotation or a truncation, the lines counted of the earlier
generation are put under a name of their own (``triage.follow``), whose stamp
is ``gone``: a reread of one of them says why it cannot be read again rather
than reading another record at its offset.  A gone stamp is no change of the
log as a whole (its lines were counted, and the follower said what happened):
``check_stamps`` and ``changed_logs`` leave it out.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .logs import STDIN, LogError, identity_of

__all__ = ["LogChanged", "LogStamp", "changed_logs", "check_stamps", "live_stamps", "stamp_logs"]


class LogChanged(LogError):
    """A log is not what was counted any more: which one and what differs (one line)."""

    def __init__(self, path: str, what: str) -> None:
        self.what = what
        super().__init__(path, f"the log changed since it was counted ({what}); count it again")


@dataclass(frozen=True, slots=True)
class LogStamp:
    """A log's identity (``st_dev``, ``st_ino``), size and modification time
    (nanoseconds) when its counting started.

    ``growing``: a followed log, whose ``size`` is what has been counted of it
    so far: longer is still the log, shorter is not (mtime is not compared).
    ``gone``: why the lines stamped can never be read again (an earlier
    generation of a followed log: rotated away or truncated), in words."""

    path: str
    device: int
    inode: int
    size: int
    mtime_ns: int
    growing: bool = False
    gone: str | None = None

    @classmethod
    def of(cls, path: str) -> LogStamp:
        """The stamp of the regular file ``path`` now (LogError if it cannot be
        opened): its identity as a ``.gz``'s seek index takes it (``logs.identity_of``)."""
        device, inode, size, mtime_ns = identity_of(path)
        return cls(path, device, inode, size, mtime_ns)

    def difference(self) -> str | None:
        """What differs now from the stamp, in words (None when nothing does)."""
        if self.gone is not None:
            return self.gone
        try:
            found = os.stat(self.path)
        except (OSError, ValueError) as exc:
            return f"it cannot be found again: {getattr(exc, 'strerror', None) or exc}"
        if (found.st_dev, found.st_ino) != (self.device, self.inode):
            return "it is another file now: replaced or rotated"
        if self.growing:
            if found.st_size < self.size:
                return f"{found.st_size:,} bytes now, shorter than the {self.size:,} counted: truncated"
            return None
        if found.st_size != self.size:
            return f"{found.st_size:,} bytes now, {self.size:,} when counted"
        if found.st_mtime_ns != self.mtime_ns:
            return "written to since: its modification time differs"
        return None

    def check(self) -> None:
        """LogChanged unless the log is still what was stamped."""
        what = self.difference()
        if what is not None:
            raise LogChanged(self.path, what)


def stamp_logs(logs: Iterable[str]) -> dict[str, LogStamp]:
    """The stamp of every log but standard input (which is never reread): taken
    when the counting starts.  LogError for a log that cannot be opened."""
    return {path: LogStamp.of(path) for path in dict.fromkeys(logs) if path != STDIN}


def live_stamps(stamps: Mapping[str, LogStamp]) -> list[LogStamp]:
    """The stamps of the logs as they are (not of a generation gone), taken at
    once: a follower adds to ``stamps`` from another thread (``triage.follow``)."""
    return [stamp for stamp in list(stamps.values()) if stamp.gone is None]


def check_stamps(stamps: Mapping[str, LogStamp]) -> None:
    """LogChanged for the first log that is not what was stamped."""
    for stamp in live_stamps(stamps):
        stamp.check()


def changed_logs(stamps: Mapping[str, LogStamp]) -> list[LogChanged]:
    """A LogChanged for each log that is not what was stamped (none: all still are)."""
    found = []
    for stamp in live_stamps(stamps):
        what = stamp.difference()
        if what is not None:
            found.append(LogChanged(stamp.path, what))
    return found
