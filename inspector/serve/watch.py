"""A session's side of ``inspector serve``: end when the server ends, however it ends.

The server makes one pipe and keeps its write end to itself; each session's
process gets the read end (its number in ``WATCH_VARIABLE``).  Nothing is ever
written: when the server's process ends (stopped, a closed terminal's SIGHUP,
SIGKILL, a crash), the kernel closes its end, the read returns the end of the
file, and the session ends as it would on SIGTERM.  Portable (any POSIX pipe),
and nothing is polled.  Imports nothing of the server (no aiohttp): the session
process is ``python -m inspector open ...``.
"""

from __future__ import annotations

import os
import signal
import threading
import time

__all__ = ["WATCH_VARIABLE", "watch_server"]

WATCH_VARIABLE = "INSPECTOR_SERVE_WATCH_FD"
GRACE_SECONDS = 3.0  # after SIGTERM, how long before the process is ended regardless


def watch_server() -> bool:
    """If this process is a session of ``inspector serve`` (the variable names the pipe), watch the
    server from a daemon thread; whether it is.  The variable is dropped (no child inherits it)."""
    named = os.environ.pop(WATCH_VARIABLE, None)
    if named is None:
        return False
    try:
        fd = int(named)
        os.fstat(fd)
    except (ValueError, OSError):
        return False
    os.set_inheritable(fd, False)
    threading.Thread(target=_watch, args=(fd,), name="inspector-serve-watch", daemon=True).start()
    return True


def _watch(fd: int) -> None:
    try:
        while os.read(fd, 4096):  # nothing is written: only the end of the file returns
            pass
    except OSError:
        pass
    # The server is gone: end as on SIGTERM, and for good if something holds that up.
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(GRACE_SECONDS)
    os._exit(1)
