"""The connections in front of ``inspector serve``'s routes: a client that connects
and never finishes its request's headers cannot hold the server.

aiohttp waits for a request's headers as long as the client likes, and keeps any
number of such connections: anyone on the machine, without the token, could open
a few hundred and leave them (until the server runs out of file descriptors, and
its log fills with the loop's tracebacks).  Here, in front of aiohttp's own
protocol (``web.Server``'s ``RequestHandler``, one a connection):

- a connection whose request headers are not complete ``header_timeout``
  seconds after it opened is closed;
- at most ``max_waiting`` connections wait for their headers at once: one more
  closes the oldest of them (a real browser's request, sent at once, gets
  through a flood instead of queueing behind it);
- what was closed, and any network error the loop reports (an ``accept`` out
  of file descriptors), is said once per burst: one line ``burst_seconds`` after the
  burst's first, with its count, never a traceback a connection.

The server answers one request a connection (``Connection: close``, set by the
server's middleware), so the first request's headers are the only ones a
connection waits for; a websocket, once upgraded, is the session's.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Callable
from typing import Any

__all__ = ["ConnectionGuard"]

log = logging.getLogger("inspector.serve")

_END_OF_HEADERS = b"\r\n\r\n"


class ConnectionGuard:
    """Wraps aiohttp's protocol factory (``protocol``); counts, times and closes what waits."""

    def __init__(self, factory: Callable[[], asyncio.Protocol], loop: asyncio.AbstractEventLoop, *,
                 header_timeout: float, max_waiting: int, burst_seconds: float) -> None:
        self.factory = factory
        self.loop = loop
        self.header_timeout = header_timeout
        self.max_waiting = max(1, max_waiting)
        self.burst_seconds = burst_seconds
        self.waiting: dict[_Guarded, None] = {}  # oldest first (dicts keep their order)
        self.burst: Counter[str] = Counter()
        self._flush: asyncio.TimerHandle | None = None

    def protocol(self) -> asyncio.Protocol:
        return _Guarded(self, self.factory())

    # -- the connections waiting for their headers

    def opened(self, connection: _Guarded) -> None:
        while len(self.waiting) >= self.max_waiting:
            oldest = next(iter(self.waiting))
            self.note(f"closed: more than {self.max_waiting} connections waiting for their request's headers")
            oldest.drop()
        self.waiting[connection] = None
        connection.timer = self.loop.call_later(self.header_timeout, self._timed_out, connection)

    def _timed_out(self, connection: _Guarded) -> None:
        if connection in self.waiting:
            self.note(f"closed: request headers not complete within {self.header_timeout:g} s")
            connection.drop()

    def settled(self, connection: _Guarded) -> None:
        """Its headers are complete (or it is gone): no longer waiting."""
        self.waiting.pop(connection, None)
        if connection.timer is not None:
            connection.timer.cancel()
            connection.timer = None

    # -- one line a burst

    def note(self, what: str) -> None:
        self.burst[what] += 1
        if self._flush is None:
            self._flush = self.loop.call_later(self.burst_seconds, self.flush)

    def flush(self) -> None:
        self._flush = None
        if self.burst:
            said = "; ".join(f"{count:,} connection(s) {what}" if what.startswith("closed") else f"{count:,} × {what}"
                             for what, count in self.burst.items())
            self.burst.clear()
            log.warning("in the last %g s: %s (a client that connects and sends nothing, or a flood)",
                        self.burst_seconds, said)

    def exception_handler(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The loop's errors of the network (an ``accept`` out of file descriptors, a connection's
        failure: an ``OSError``) counted into the burst's line by their message, without a traceback
        each; any other error is the loop's to report, as it would."""
        exc = context.get("exception")
        if not isinstance(exc, OSError):
            loop.default_exception_handler(context)
            return
        what = str(context.get("message") or "an error in the event loop")
        self.note(f"{what} ({type(exc).__name__}: {exc})")

    def close(self) -> None:
        for connection in list(self.waiting):
            self.settled(connection)
        if self._flush is not None:
            self._flush.cancel()
        self.flush()


class _Guarded(asyncio.Protocol):
    """aiohttp's protocol for one connection, watched until its request's headers are complete."""

    def __init__(self, guard: ConnectionGuard, inner: Any) -> None:
        self.guard = guard
        self.inner = inner
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.tail = b""  # the last bytes received while waiting: the end of the headers may be split

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # a stream's transport
        self.inner.connection_made(transport)
        self.guard.opened(self)

    def data_received(self, data: bytes) -> None:
        if self.timer is not None:
            seen = self.tail + data
            if _END_OF_HEADERS in seen:
                self.guard.settled(self)
            else:
                self.tail = seen[-3:]
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.settled(self)
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()

    def drop(self) -> None:
        self.guard.settled(self)
        if self.transport is not None:
            self.transport.abort()
