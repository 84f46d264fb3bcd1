"""One writer at a time for a file that several processes change: ``exclusive``.

A file people add to from several places at once (a suite's pending review, a
log's annotations: two terminals, two served tabs, two reviewers) is changed by
read, change, write: whole or not at all (``io.writing``).  Two such changes at
once would each write what it read plus its own change, and the first one's
would be lost.  So every change holds an advisory lock while it reads the file
again and writes it: ``fcntl.flock`` on a hidden sidecar file beside it
(``.NAME.lock``, created once and left in place: removing a lock file while
another process waits on it would let a third one take a second lock).  The
lock is never taken on the file itself, which each write replaces by a rename.

Where ``fcntl`` is missing (Windows) the sidecar is locked with ``msvcrt``; where
the folder's file system refuses locks, the change is refused (``LockError``)
rather than risked.  A lock held longer than ``WAIT`` seconds (another process
stuck mid-write) is a ``LockError`` too, never a silent wait forever.
"""

from __future__ import annotations

import errno
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from .writing import WriteError, refuse_protected

__all__ = ["WAIT", "LockError", "exclusive", "exclusive_as", "lock_path"]

WAIT = 10.0  # seconds: a change holds the lock for milliseconds

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]  # no fcntl on Windows
try:
    import msvcrt
except ImportError:
    msvcrt = None  # type: ignore[assignment]  # no msvcrt elsewhere

_OPEN_FLAGS = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


class LockError(Exception):
    """The lock of a file could not be taken: the file and why, in one line."""

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


def lock_path(path: str | Path) -> Path:
    """The sidecar ``path`` is locked through: ``.NAME.lock`` beside it."""
    path = Path(path)
    return path.with_name(f".{path.name}.lock")


def _try_lock(fd: int) -> bool:
    """Take the lock without waiting: True when taken, False when another process holds it."""
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True
    if msvcrt is not None:  # pragma: no cover - Windows
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError as exc:
            if exc.errno in (errno.EACCES, errno.EDEADLK):
                return False
            raise
        return True
    raise OSError(errno.ENOLCK, "this system has no file locks")  # pragma: no cover


def _unlock(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
    elif msvcrt is not None:  # pragma: no cover - Windows
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


@contextmanager
def exclusive(path: str | Path, wait: float = WAIT) -> Iterator[None]:
    """Hold ``path``'s lock (its sidecar's) while the block reads and rewrites ``path``.
    LockError when the sidecar cannot be made or locked (a link in its place, a file system
    without locks, a folder that cannot be written), or when another process keeps it past ``wait``;
    ProtectedTarget (a ``WriteError``) for a file inside a protected folder."""
    sidecar = lock_path(path)
    refuse_protected(sidecar)  # ProtectedTarget: no lock file inside the bundled fixtures either
    try:
        fd = os.open(sidecar, _OPEN_FLAGS, 0o666)
    except OSError as exc:
        why = "is a symbolic link; refusing to lock through it" if exc.errno == errno.ELOOP \
            else exc.strerror or str(exc)
        raise LockError(sidecar, why) from None
    try:
        deadline = time.monotonic() + wait
        pause = 0.001
        while True:
            try:
                taken = _try_lock(fd)
            except OSError as exc:
                raise LockError(sidecar, f"cannot be locked here ({exc.strerror or exc}); refusing to write "
                                         "without a lock, as another writer's change could be lost") from None
            if taken:
                break
            if time.monotonic() >= deadline:
                raise LockError(sidecar, f"another process has held this lock for more than {wait:g} s; "
                                         "nothing written (try again)")
            time.sleep(pause)  # another writer holds it for a few milliseconds
            pause = min(pause * 2, 0.05)
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)


@contextmanager
def exclusive_as(path: str | Path, refused: Callable[[str, str], Exception]) -> Iterator[None]:
    """``exclusive``, a refusal (a ``LockError``, or a ``WriteError`` from the lock or the block's
    write) raised as the caller's own error: ``refused(path, reason)``."""
    try:
        with exclusive(path):
            yield
    except (LockError, WriteError) as exc:
        raise refused(exc.path, exc.reason) from None
