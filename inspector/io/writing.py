"""Writing the tool's outputs (audit runs, screenshots, synthetic logs): whole or not at all.

A full disk, a read-only directory or a name already taken must never leave half
an output behind.  So every file is written to a temporary name first and
fsynced, and only then put in place: a new directory is assembled as a hidden
sibling and renamed into place in one step; files going into an existing
directory are all written first, then linked (refusing any name that exists)
or, when replacing was asked for, renamed over the old ones one by one;
``create_files`` does the same for new files in several directories.  A file's
contents are bytes or, for an output too big to hold (a log), a function that
writes them into the open temporary file.  Whatever fails, the temporary files
are removed and one ``WriteError`` says which path failed and why.

Files are created as any file the person writes (mode 0666 less the umask), not
0600 as ``tempfile.mkstemp`` would make them; a file replaced with ``keep_mode``
keeps its permission bits (a 0600 suite stays 0600), and a read-only file is
never replaced (its mode is what its owner asked for, even of root).

Some folders are never written into, whatever the command: the bundled fixtures
(which plain ``inspector``, ``audit`` and ``mutate`` load, so a file put there
changes what they run), declared by ``suites.load`` with ``protect``.  The rule
is here, below every writer, so no command can forget it: every target is
compared with the protected folders after resolving its directory's symbolic
links (``refuse_protected``), and refused with ``ProtectedTarget``.
"""

from __future__ import annotations

import errno
import io
import os
import secrets
import stat
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    from typing_extensions import Buffer

__all__ = ["Contents", "ProtectedTarget", "TargetExists", "WriteError", "check_free", "check_new_file", "create_files", "may_write",
           "protect", "protected_roots", "refuse_protected", "write_files", "write_new_directory"]

# What a file holds: its bytes, or a function that writes them into the (binary) file it is handed.
Contents = bytes | Callable[[BinaryIO], object]

_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)


class WriteError(Exception):
    """An output that could not be written: the path and the reason, in one line."""

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(f"{self.path}: {reason}")


class TargetExists(WriteError):
    """The name is taken and replacing was not asked for."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(path, "already exists; refusing to overwrite")


class ProtectedTarget(WriteError):
    """The target lies inside a folder the tool never writes into (``protect``)."""

    def __init__(self, path: str | Path, what: str, place: str) -> None:
        self.what = what
        self.place = place
        super().__init__(path, f"is inside {what} ({place}); write elsewhere")


# The folders nothing is written into, resolved, with what each is called in a refusal.
_PROTECTED: list[tuple[Path, str]] = []


def protect(root: str | Path, what: str) -> None:
    """Declare ``root`` (and everything under it) a folder no output may land in;
    ``what`` names it in the refusal ("the bundled fixtures")."""
    entry = (Path(os.path.realpath(root)), what)
    if entry not in _PROTECTED:
        _PROTECTED.append(entry)


def protected_roots() -> tuple[Path, ...]:
    """The protected folders, resolved."""
    return tuple(root for root, _ in _PROTECTED)


def refuse_protected(path: str | Path) -> None:
    """ProtectedTarget when writing ``path`` would put something inside a protected
    folder: its directory resolved after every symbolic link, then its name (where
    the file is placed), and the whole path resolved (where a link, or a directory
    written into, leads)."""
    if not _PROTECTED:
        return
    path = Path(path)
    places = {Path(os.path.realpath(path.parent)) / path.name, Path(os.path.realpath(path))}
    for root, what in _PROTECTED:
        for place in sorted(places):
            if place.is_relative_to(root):
                raise ProtectedTarget(path, what, str(Path(root.name, place.relative_to(root))))


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def _temporary_name(directory: Path, name: str) -> Path:
    return directory / f".{name}.{secrets.token_hex(4)}.tmp"


class _Descriptor(io.RawIOBase):
    """A file descriptor as a raw stream that writes with ``os.write``, as bytes are written."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self.fd = fd

    def writable(self) -> bool:
        return True

    def write(self, data: Buffer) -> int:
        return os.write(self.fd, data)


def _write_file(path: Path, data: Contents) -> None:
    """Create ``path`` (which must not exist) holding ``data``, synced to disk;
    on failure it is removed again."""
    fd = os.open(path, _CREATE_FLAGS, 0o666)
    try:
        if isinstance(data, bytes):
            view = memoryview(data)
            while view:
                written = os.write(fd, view)
                view = view[written:]
        else:
            with io.BufferedWriter(_Descriptor(fd), 1 << 16) as stream:
                data(stream)
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        _remove([path])
        raise
    os.close(fd)


def _sync_directory(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _remove(paths: list[Path]) -> None:
    """Best effort, newest first: these are ours, and the original error matters more."""
    for path in reversed(paths):
        try:
            if path.is_dir() and not path.is_symlink():
                path.rmdir()
            else:
                path.unlink()
        except OSError:
            pass


def _check_names(names: Iterable[str]) -> None:
    for name in names:
        if not name or name in (".", "..") or "/" in name or "\0" in name:
            raise ValueError(f"not a plain file name: {name!r}")


def _is_empty_directory(path: Path) -> bool:
    """True for an empty directory, False if ``path`` does not exist; WriteError otherwise."""
    try:
        mode = os.lstat(path).st_mode
        if stat.S_ISLNK(mode):  # a link to a directory will do; a dangling one is not "new"
            try:
                mode = os.stat(path).st_mode
            except FileNotFoundError:
                raise WriteError(path, "is a symbolic link to nothing") from None
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise WriteError(path, _reason(exc)) from None
    if not stat.S_ISDIR(mode):
        raise WriteError(path, "exists and is not a directory")
    try:
        with os.scandir(path) as entries:
            if next(entries, None) is not None:
                raise WriteError(path, "directory is not empty; use a new output directory")
    except OSError as exc:
        raise WriteError(path, _reason(exc)) from None
    return True


def write_new_directory(target: Path, files: Mapping[str, bytes]) -> None:
    """Make ``target`` a directory holding exactly ``files``, or leave no trace.

    ``target`` must not exist or be an empty directory (then it is filled, all
    files or none).  A new directory is built as a hidden sibling and renamed
    into place, so it appears complete or not at all; missing parents are
    created, and removed again if the write fails."""
    _check_names(files)
    target = Path(target)
    refuse_protected(target)  # where it leads, when it is a link to a directory
    if _is_empty_directory(target):
        write_files(target, files, overwrite=False)
        return
    made: list[Path] = []  # everything created so far, in order, to undo on failure
    current = target
    try:
        for parent in [parent for parent in reversed(target.parents) if not parent.exists()]:
            current = parent
            parent.mkdir(0o777)
            made.append(parent)
        current = target
        temp = _temporary_name(target.parent, target.name)
        temp.mkdir(0o777)
        made.append(temp)
        for name, data in files.items():
            current = target / name
            _write_file(temp / name, data)
            made.append(temp / name)
        current = target
        _sync_directory(temp)
        # rename() refuses a target that became a non-empty directory meanwhile.
        os.rename(temp, target)
        made = [target if path == temp else target / path.name if path.parent == temp else path
                for path in made]
        current = target.parent
        _sync_directory(target.parent)
    except OSError as exc:
        _remove(made)
        if exc.errno in (errno.ENOTEMPTY, errno.EEXIST) and current == target:
            raise WriteError(target, "directory is not empty; use a new output directory") from None
        raise WriteError(current, _reason(exc)) from None
    except BaseException:
        _remove(made)
        raise


def check_free(directory: Path, names: Iterable[str], *, overwrite: bool = False) -> None:
    """WriteError unless ``write_files(directory, names...)`` may write every name:
    ``directory`` is a directory or does not exist yet, and no name is taken (or,
    with ``overwrite``, taken only by a regular file).  Cheap, so that a caller
    can ask before the work of producing the files."""
    names = list(names)
    _check_names(names)
    directory = Path(directory)
    for name in names:
        refuse_protected(directory / name)
    refuse_protected(directory)
    try:
        mode = os.stat(directory).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise WriteError(directory, _reason(exc)) from None
    if not stat.S_ISDIR(mode):
        raise WriteError(directory, "exists and is not a directory")
    for name in names:
        path = directory / name
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise WriteError(path, _reason(exc)) from None
        if not stat.S_ISREG(mode):
            raise WriteError(path, "exists and is not a regular file; refusing to replace it")
        if not overwrite:
            raise TargetExists(path)
        if not may_write(path):
            raise WriteError(path, "is read-only; refusing to replace it")


def may_write(path: str | Path) -> bool:
    """Whether the file's mode lets this user write it: its owner's, group's or others' write
    bit, as they apply to this user, and the system agrees.  The bits are read, not only
    ``os.access``, so that a file made read-only is refused to root too: replacing it by a
    rename would succeed, and undo what its owner asked for."""
    found = os.stat(path)
    if hasattr(os, "getuid") and found.st_uid == os.getuid():
        bit = stat.S_IWUSR
    elif hasattr(os, "getgroups") and (found.st_gid == os.getgid() or found.st_gid in os.getgroups()):
        bit = stat.S_IWGRP
    else:
        bit = stat.S_IWOTH
    return bool(found.st_mode & bit) and os.access(path, os.W_OK)


def check_new_file(path: str | Path) -> None:
    """WriteError unless a new file can be created at ``path`` now: the name is
    free (``check_free``, the protected folders included), its folder exists and
    this process may create files in it.  What a command asks before a long run
    whose output it writes at the end; the write itself still refuses a name
    taken meanwhile.  ValueError for a name that is not a plain file name."""
    path = Path(path)
    directory = path.parent
    check_free(directory, [path.name])
    if not directory.is_dir():
        raise WriteError(directory, "no such directory")
    if not os.access(directory, os.W_OK | os.X_OK):
        raise WriteError(directory, "not writable (permission denied)")


def write_files(directory: Path, files: Mapping[str, Contents], *, overwrite: bool = False,
                keep_mode: bool = False) -> None:
    """Put ``files`` into the existing ``directory``: every one of them or none.

    A name that exists is refused unless ``overwrite``; even then only a regular
    file this user may write (``may_write``) is replaced (never a directory, a
    symbolic link or a read-only file), each one atomically, with ``keep_mode``
    keeping the replaced file's permission bits.
    """
    directory = Path(directory)
    check_free(directory, files, overwrite=overwrite)
    _place({directory / name: data for name, data in files.items()}, overwrite=overwrite, keep_mode=keep_mode)


def create_files(files: Mapping[str | Path, Contents]) -> None:
    """Create every path of ``files``, each in its existing directory: all of them or none.

    No path may exist, as anything (a symbolic link, even a dangling one, included):
    nothing is ever written into a file this did not create.  Each file is written
    to a temporary name beside it and synced, and only then linked into place,
    which also refuses a name taken meanwhile; a failure removes what was placed.
    """
    paths = [Path(path) for path in files]
    for path in paths:
        refuse_protected(path)
    for path in paths:
        parent = path.parent
        try:
            mode = os.stat(parent).st_mode
        except FileNotFoundError:
            raise WriteError(path, f"no such directory: {parent}") from None
        except OSError as exc:
            raise WriteError(parent, _reason(exc)) from None
        if not stat.S_ISDIR(mode):
            raise WriteError(path, f"{parent} is not a directory")
        try:
            os.lstat(path)
        except FileNotFoundError:
            continue
        except OSError as exc:
            raise WriteError(path, _reason(exc)) from None
        raise TargetExists(path)
    _place(dict(zip(paths, files.values(), strict=True)), overwrite=False)


def _place(files: Mapping[Path, Contents], *, overwrite: bool, keep_mode: bool = False) -> None:
    """Write every file to a temporary name in its directory, then put them all in place
    (linked, or renamed over the old ones with ``overwrite``) and sync the directories."""
    for path in files:
        refuse_protected(path)  # again, just before writing: whoever called, the rule holds
    temporary: dict[Path, Path] = {}
    placed: list[Path] = []
    current = next(iter(files), Path("."))
    try:
        for path, data in files.items():
            current = path
            temp = _temporary_name(path.parent, path.name)
            temporary[path] = temp
            _write_file(temp, data)
        for path, temp in temporary.items():
            current = path
            if overwrite:
                if keep_mode:
                    try:
                        os.chmod(temp, stat.S_IMODE(os.lstat(path).st_mode))
                    except FileNotFoundError:
                        pass
                os.replace(temp, path)
            else:
                # link() refuses a name that appeared meanwhile; nothing is replaced.
                os.link(temp, path)
                placed.append(path)
        for directory in dict.fromkeys(path.parent for path in files):
            current = directory
            _sync_directory(directory)
    except FileExistsError:
        _remove(placed)
        raise TargetExists(current) from None
    except OSError as exc:
        _remove(placed)
        raise WriteError(current, _reason(exc)) from None
    except BaseException:
        _remove(placed)
        raise
    finally:
        for temp in temporary.values():
            try:
                temp.unlink()
            except OSError:
                pass
