"""Disks that fail: a write that runs out of space (``DiskFull``), a real small or
read-only tmpfs where the tests may mount one (``mount_tmpfs``)."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
from pathlib import Path


class DiskFull:
    """Fail writes (or syncs) to files under ``root`` with ENOSPC once ``allowed`` bytes are written."""

    def __init__(self, root: Path, allowed: int = 0) -> None:
        self.root, self.left = str(root), allowed
        self.real_write, self.real_fsync = os.write, os.fsync

    def _ours(self, fd: int) -> bool:
        try:
            return os.readlink(f"/proc/self/fd/{fd}").startswith(self.root)
        except OSError:
            return False

    def write(self, fd: int, data) -> int:  # noqa: ANN001 - bytes-like
        if self._ours(fd):
            if self.left <= 0:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            data = bytes(data)[: self.left]
            self.left -= len(data)
        return self.real_write(fd, data)

    def fsync(self, fd: int) -> None:
        if self._ours(fd) and self.left <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        self.real_fsync(fd)


def mount_tmpfs(target: Path, options: str) -> bool:
    if shutil.which("mount") is None:
        return False
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(target)], capture_output=True)
    return proc.returncode == 0


def umount(target: Path) -> None:
    subprocess.run(["umount", str(target)], capture_output=True)
