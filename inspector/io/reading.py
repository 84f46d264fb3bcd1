"""Reading the files the tool is given, with bounds.

Every input (suite, registry, request, answer, and a run's manifest and results)
is read here, so that each one gets the same guarantees: only a regular file is
read, opening never blocks (a FIFO opened for reading would wait for a writer),
and no more than a fixed number of bytes is ever read, whatever ``st_size``
says (``/dev/zero`` and ``/proc`` files report 0).  Standard input, when it is
asked for with ``-``, is read with the same bound.

An answer is read just past the largest size that could pass the contract's size
check, so that a 300 MB answer costs 24 KB and gets the same TOO_LARGE verdict
as a 200 MB one.  The other files have fixed limits, stated in docs/cli.md.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

from ..contract.decode import MAX_ANSWER_BYTES

__all__ = [
    "ANSWER_READ_BYTES",
    "MAX_REQUEST_BYTES",
    "MAX_RUN_FILE_BYTES",
    "MAX_SUITE_BYTES",
    "ReadError",
    "is_regular_file",
    "open_regular",
    "read_limited",
    "read_prefix",
    "read_stream_prefix",
]

MiB = 1024 * 1024
# Suites and registries (a registry file may be a suite).
MAX_SUITE_BYTES = 64 * MiB
MAX_REQUEST_BYTES = 1 * MiB
# results.json of an audit (about 1 KB a case) and manifest.json.
MAX_RUN_FILE_BYTES = 256 * MiB
# More than MAX_ANSWER_BYTES is too large however the bytes decode, and the
# decoder says so without decoding: one byte past it is all an answer needs.
ANSWER_READ_BYTES = MAX_ANSWER_BYTES + 1

_CHUNK = 1 * MiB
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)


class ReadError(Exception):
    """A file that cannot be read: which one and why, in one line."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    return "not a regular file"


def _not_regular(path: str | Path, mode: int) -> ReadError:
    return ReadError(path, f"is {_kind(mode)}, not a regular file")


def _os_problem(exc: OSError) -> str:
    if isinstance(exc, FileNotFoundError):
        return "no such file"
    if isinstance(exc, PermissionError):
        return "permission denied"
    return exc.strerror or str(exc)


def is_regular_file(path: str | Path) -> bool:
    """Whether ``path`` (symbolic links followed) is a regular file; never raises."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def _open_regular(path: str | Path, follow_symlinks: bool) -> int:
    """A descriptor of a regular file, or ReadError.  The type is checked before
    opening (so a device is never even opened) and again on the descriptor (so a
    file swapped in between is caught); O_NONBLOCK keeps a FIFO from blocking."""
    before = os.stat(path, follow_symlinks=follow_symlinks)
    if not stat.S_ISREG(before.st_mode):
        raise _not_regular(path, before.st_mode)
    flags = _OPEN_FLAGS | (0 if follow_symlinks else os.O_NOFOLLOW)
    fd = os.open(path, flags)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise _not_regular(path, mode)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _read_fd(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    remaining = limit
    while remaining > 0:
        chunk = os.read(fd, min(remaining, _CHUNK))
        if not chunk:
            break
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def open_regular(path: str | Path) -> int:
    """A read-only descriptor of the regular file ``path`` (symbolic links
    followed), for a reader that streams a file too large to hold (a log): the
    same refusals as every other input, as a ReadError.  The caller closes it."""
    try:
        return _open_regular(path, True)
    except ReadError:
        raise
    except OSError as exc:
        raise ReadError(path, _os_problem(exc)) from None
    except ValueError as exc:  # a NUL byte in the path
        raise ReadError(path, str(exc)) from None


def read_prefix(path: str | Path, limit: int, *, follow_symlinks: bool = True) -> bytes:
    """At most ``limit`` bytes from the start of the regular file ``path``."""
    try:
        fd = _open_regular(path, follow_symlinks)
        try:
            return _read_fd(fd, limit)
        finally:
            os.close(fd)
    except ReadError:
        raise
    except OSError as exc:
        if not follow_symlinks and exc.errno == getattr(os, "ELOOP", -1):
            raise ReadError(path, "is a symbolic link, not a regular file") from None
        raise ReadError(path, _os_problem(exc)) from None
    except ValueError as exc:  # a NUL byte in the path
        raise ReadError(path, str(exc)) from None


def read_limited(path: str | Path, limit: int, what: str = "file", *, follow_symlinks: bool = True) -> bytes:
    """The whole regular file ``path``; ReadError if it is longer than ``limit``."""
    data = read_prefix(path, limit + 1, follow_symlinks=follow_symlinks)
    if len(data) > limit:
        raise ReadError(path, f"larger than the {_size(limit)} accepted for a {what}")
    return data


def read_stream_prefix(stream: BinaryIO, limit: int, name: str = "standard input") -> bytes:
    """At most ``limit`` bytes of an open stream (standard input given as ``-``)."""
    try:
        data = stream.read(limit)
    except OSError as exc:
        raise ReadError(name, _os_problem(exc)) from None
    except ValueError as exc:  # a closed stream
        raise ReadError(name, str(exc)) from None
    if data is None:  # a non-blocking stream with nothing ready
        raise ReadError(name, "no data ready (the stream is non-blocking)")
    return bytes(data)


def _size(limit: int) -> str:
    return f"{limit // MiB} MiB" if limit % MiB == 0 else f"{limit} bytes"
