"""The aiohttp server of ``inspector serve``.

textual-serve's ``Server`` is not used: it has no authentication, lists its
static folder, renders its page unescaped with a web font from a public host,
and starts the app through a shell.  What is kept of it is the part that runs
the app: ``AppService`` (one app process a websocket, its frames to the
browser, the keys back) and the ``DownloadManager`` (a file the app delivers on
purpose, fetched by the browser).  Around them:

- everything is served under a random path (``/<path>/``), and every request
  carries the token (``?token=`` once, then a cookie scoped to that path, so it
  never reaches another server on this host, whatever its port; the websocket
  the cookie): without it, 403 and nothing started;
- a connection whose request headers are not complete within
  ``header_timeout`` is closed, and at most ``max_waiting`` such connections
  are kept (one more closes the oldest): a client that connects and sends
  nothing cannot hold the server; what was closed is one log line a burst
  (``guard.py``);
- at most ``max_sessions`` app processes; one more is refused with a message,
  on the page and in the terminal, not left waiting;
- each app process is started without a shell, in its own session (a Ctrl+C in
  the server's terminal is the server's), and ended with its websocket: asked to
  quit, then terminated, then killed; stopping the server ends them all, and a
  server gone any other way (SIGKILL) ends them too: each holds the read end of
  a pipe only the server writes to, and ends when it reads its end of file
  (``watch.py``).
"""

from __future__ import annotations

import asyncio
import hmac
import io
import json
import logging
import os
import secrets
import shlex
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import textual_serve
from aiohttp import WSCloseCode, WSMsgType, web
from textual_serve._binary_encode import load as binary_load
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from ..contract.text import visible
from .guard import ConnectionGuard
from .page import ASSETS, CONTENT_SECURITY_POLICY, SCRIPT, SCRIPT_NAME, message_page, terminal_page
from .watch import WATCH_VARIABLE

__all__ = ["QUIT_SECONDS", "Server", "ServeConfig", "new_path", "new_token", "run_server"]

log = logging.getLogger("inspector.serve")

STATIC = Path(textual_serve.__file__).parent / "static"
QUIT_SECONDS = 3.0  # how long an app process has to quit when asked, then to end when terminated
MAX_MESSAGE = 64 * 1024  # a browser's message (keys, a resize) is small
MAX_CELLS = 1000  # a terminal's width or height beyond which a resize is not believed
_WS_REFUSED = 1013  # "try again later" (RFC 6455 §7.4.1, as registered)


def new_token() -> str:
    return secrets.token_urlsafe(32)


def new_path() -> str:
    """The random path everything is served under (``/`` + 16 characters): the cookie's path."""
    return "/" + secrets.token_urlsafe(12)


@dataclass
class ServeConfig:
    """What to serve and how: ``argv`` is one session's app process."""

    argv: Sequence[str]
    token: str
    host: str = "127.0.0.1"
    port: int = 8000
    max_sessions: int = 4
    title: str = "inspector"
    environment: dict[str, str] = field(default_factory=dict)  # added to each app process's
    path: str = field(default_factory=new_path)  # everything is under it: /PATH/, /PATH/ws, ...
    header_timeout: float = 10.0  # seconds for a connection's request headers to be complete
    max_waiting: int = 32  # connections whose headers are not complete yet, beyond which the oldest is closed
    burst_seconds: float = 5.0  # closed connections are said once per burst: one line, this long after its first


def _to_int(text: str | None, default: int, low: int, high: int) -> int:
    try:
        return min(max(int(text or ""), low), high)
    except ValueError:
        return default


class AppProcess(AppService):
    """One session's app process: started from an argument list (no shell) in its own
    session, its standard error made visible before it reaches the server's log, and
    ended for good (``end``)."""

    def __init__(self, argv: Sequence[str], environment: dict[str, str], watch_fd: int | None = None,
                 **kwargs: object) -> None:
        super().__init__(shlex.join(argv), **kwargs)  # type: ignore[arg-type]  # AppService's own keywords
        self.argv = tuple(argv)
        self.environment = environment
        self.watch_fd = watch_fd

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        env = {**self._build_environment(width=width, height=height), **self.environment}
        passed: tuple[int, ...] = ()
        if self.watch_fd is not None:  # the session ends when the server does, however it ends
            env[WATCH_VARIABLE] = str(self.watch_fd)
            passed = (self.watch_fd,)
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=env, start_new_session=True, pass_fds=passed)
        self._stdin = process.stdin
        return process

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def exited(self) -> bool:
        """Whether the app process has ended, seen from the system: from its exit on
        (a zombie, not yet reaped), not only once the event loop has reaped it and
        woken the session's handler, which on Python 3.13 comes noticeably later."""
        process = self._process
        if process is None:
            return False
        if process.returncode is not None:
            return True
        waitid = getattr(os, "waitid", None)  # not on macOS before Python 3.13
        if waitid is None:
            return False
        try:  # WNOWAIT: looked at, left for the event loop to reap
            return waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
        except ChildProcessError:  # reaped already
            return True

    async def run(self) -> None:
        """textual-serve's loop (frames and meta packets from the app to the browser), with
        its standard error logged visibly, and the websocket closed when the app ends."""
        process = self._process
        assert process is not None and process.stdout is not None and process.stderr is not None
        stdout, stderr = process.stdout, process.stderr
        errors = io.BytesIO()  # what was said so far: its size bounds the log

        async def read_stderr() -> None:
            # Line by line as it comes (a session's error is in the server's log while it runs), up to 64 KiB;
            # a line longer than the reader's limit is read in pieces.
            while True:
                try:
                    line = await stderr.readline()
                except ValueError:  # beyond the limit: what is buffered, as a piece
                    line = await stderr.read(64 * 1024)
                if not line:
                    break
                if errors.tell() < 64 * 1024:
                    errors.write(line)
                    said = line.decode("utf-8", "replace").rstrip()
                    if said:
                        log.warning("session %s: %s", self.pid, visible(said))

        stderr_task = asyncio.create_task(read_stderr())
        try:
            for _ in range(10):  # the prelude says it is a Textual app speaking the web driver
                line = await stdout.readline()
                if not line or line == b"__GANGLION__\n":
                    break
            while True:
                kind = await stdout.readexactly(1)
                size = int.from_bytes(await stdout.readexactly(4), "big")
                payload = await stdout.readexactly(size)
                if kind == b"D":
                    await self.on_data(payload)
                elif kind == b"M":
                    await self.on_meta(payload)
                elif kind == b"P":
                    unpacked: Any = binary_load(payload)
                    if unpacked[0] == "deliver_chunk":
                        await self._download_manager.chunk_received(unpacked[1], unpacked[2])
        except (asyncio.IncompleteReadError, ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            try:
                await asyncio.wait_for(stderr_task, QUIT_SECONDS)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                stderr_task.cancel()
            try:
                await self.remote_close()  # the app ended (or died): the browser is told, not left waiting
            except Exception:  # noqa: BLE001 - the websocket may be gone already
                pass

    async def on_meta(self, data: bytes) -> None:
        """textual-serve's, except that a delivered file's address is given relative to the page
        (textual.js would fetch it at the host's root, outside the served path, without the cookie)."""
        try:
            meta = json.loads(data)
        except ValueError:
            return
        if not isinstance(meta, dict) or meta.get("type") != "deliver_file_start":
            await super().on_meta(data)
            return
        try:
            key = str(meta["key"])
            await self._download_manager.create_download(
                app_service=self, delivery_key=key, file_name=Path(meta["path"]).name,
                open_method=meta["open_method"], mime_type=meta["mime_type"], encoding=meta["encoding"],
                name=meta.get("name"))
        except KeyError:
            log.error("a session delivered a file without its key, path or type: ignored")
            return
        await self.remote_write_str(json.dumps(["open_url", {"url": f"download/{quote(key, safe='')}",
                                                             "new_tab": True}]))

    async def end(self) -> None:
        """Ask the app to quit, then terminate it, then kill it; wait for it either way."""
        try:
            await asyncio.wait_for(self.stop(), QUIT_SECONDS)
        except (asyncio.TimeoutError, Exception):  # noqa: BLE001 - ending regardless
            pass
        process = self._process
        if process is None:
            return
        try:  # asked to quit, it is ending: signalling it now would race the reaping of it
            await asyncio.wait_for(process.wait(), QUIT_SECONDS)
            return
        except asyncio.TimeoutError:
            pass
        for signal_it in (process.terminate, process.kill):
            try:
                signal_it()
            except ProcessLookupError:
                return
            try:
                await asyncio.wait_for(process.wait(), QUIT_SECONDS)
                return
            except asyncio.TimeoutError:
                continue


class Server:
    """The routes (``/``, ``/ws``, ``/static/...``, ``/download/{key}``) behind the token check."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.sessions: set[AppProcess] = set()
        self.reserved = 0  # sessions counted from the handshake, before their process starts
        self.sockets: set[web.WebSocketResponse] = set()
        self.downloads = DownloadManager()
        self.port = config.port
        self.path = config.path
        self.watch_fd: int | None = None  # the read end of the pipe each session watches (run_server's)

    @property
    def cookie(self) -> str:
        # A cookie is not port-specific: two servers on one host must not share one.
        return f"inspector-token-{self.port}"

    def make_app(self) -> web.Application:
        app = web.Application(middlewares=[self._headers, self._require_token], client_max_size=MAX_MESSAGE)
        root = self.path
        app.add_routes([
            web.get(f"{root}/", self.index),
            web.get(f"{root}/ws", self.websocket),
            web.get(f"{root}/static/{{name:.+}}", self.static),
            web.get(f"{root}/download/{{key}}", self.download),
        ])
        app.on_shutdown.append(self._on_shutdown)
        return app

    # -- the checks in front of every route

    def _token_ok(self, given: str | None) -> bool:
        return given is not None and hmac.compare_digest(given.encode(), self.config.token.encode())

    @web.middleware
    async def _headers(self, request: web.Request, handler: Callable) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            response = exc
        headers = response.headers
        headers.setdefault("X-Content-Type-Options", "nosniff")
        headers.setdefault("Referrer-Policy", "no-referrer")
        headers.setdefault("X-Frame-Options", "DENY")
        headers.setdefault("Cache-Control", "no-store")
        if not isinstance(response, web.WebSocketResponse):
            # One request a connection: a kept-alive connection's next request would have no header timeout.
            response.force_close()
        if isinstance(response, web.HTTPException):
            raise response
        return response

    @web.middleware
    async def _require_token(self, request: web.Request, handler: Callable) -> web.StreamResponse:
        given = request.query.get("token")
        if given is not None:
            if not self._token_ok(given):
                return self._forbidden("the token in this address is not this server's")
            if request.path == f"{self.path}/" and request.method == "GET":
                # Once: the token becomes a cookie and leaves the address bar (and the history).  Its path
                # is the served one: a browser sends it to no other server on this host, whatever the port
                # (cookies ignore ports).
                response = web.HTTPSeeOther(f"{self.path}/")
                response.set_cookie(self.cookie, self.config.token, httponly=True, samesite="Strict",
                                    path=f"{self.path}/")
                return response
        elif not self._token_ok(request.cookies.get(self.cookie)):
            return self._forbidden("this server needs the token it printed when it started: open the address "
                                   "it printed (…/?token=…)")
        if request.path == f"{self.path}/ws":
            origin = request.headers.get("Origin")
            if origin is not None and origin not in (f"http://{request.host}", f"https://{request.host}"):
                return self._forbidden("a websocket from another site's page")
        return await handler(request)

    def _forbidden(self, why: str) -> web.Response:
        return web.Response(status=403, text=message_page("inspector: forbidden", f"403 forbidden: {why}."),
                            content_type="text/html")

    # -- the routes

    @property
    def full(self) -> bool:
        """Whether every session is taken: a session whose app has ended no longer
        holds one, though its handler may still be tidying up."""
        ended = sum(1 for session in self.sessions if session.exited)
        return self.reserved - ended >= self.config.max_sessions

    def _refusal(self) -> str:
        n = self.config.max_sessions
        return (f"All {n} session(s) of this server are in use (--max-sessions {n}): close another tab of it, "
                "then reload this page.")

    async def index(self, request: web.Request) -> web.Response:
        if self.full:
            return web.Response(status=503, text=message_page("inspector: busy", self._refusal()),
                                content_type="text/html", headers={"Retry-After": "10"})
        font_size = _to_int(request.query.get("fontsize"), 16, 6, 48)
        page = terminal_page(self.config.title, font_size)
        return web.Response(text=page, content_type="text/html",
                            headers={"Content-Security-Policy": CONTENT_SECURITY_POLICY})

    async def static(self, request: web.Request) -> web.StreamResponse:
        if request.match_info["name"] == SCRIPT_NAME:
            return web.Response(text=SCRIPT, content_type="text/javascript")
        found = ASSETS.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound()
        name, content_type = found
        return web.FileResponse(STATIC / name, headers={"Content-Type": content_type})

    async def download(self, request: web.Request) -> web.StreamResponse:
        """A file a session delivered on purpose (the lab's save, triage's export)."""
        key = request.match_info["key"]
        try:
            meta = await self.downloads.get_download_metadata(key)
        except KeyError:
            raise web.HTTPNotFound() from None
        response = web.StreamResponse()
        response.content_type = meta.mime_type
        if meta.encoding:
            response.charset = meta.encoding
        response.headers["Content-Disposition"] = f"attachment; filename*=UTF-8''{quote(meta.file_name, safe='')}"
        await response.prepare(request)
        async for chunk in self.downloads.download(key):
            await response.write(chunk)
        await response.write_eof()
        return response

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        socket = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        if not socket.can_prepare(request).ok:
            # A plain GET (an address typed, a crawler): not a websocket, and not an error of the server's.
            return web.Response(status=400, text="400: this address is the terminal's websocket; open the page "
                                                  f"{self.path}/ instead.\n")
        if self.full:
            try:
                await socket.prepare(request)
                # Drawn in the terminal the page shows, then closed: the page says the session ended.
                await socket.send_bytes(f"\r\n  {self._refusal()}\r\n".encode())
                await socket.close(code=_WS_REFUSED, message=b"all sessions in use")
            except (ConnectionError, asyncio.CancelledError):  # the client left mid-handshake
                pass
            if not socket.prepared:
                raise web.HTTPBadRequest()
            return socket
        self.reserved += 1
        session: AppProcess | None = None
        try:
            width = _to_int(request.query.get("width"), 80, 1, MAX_CELLS)
            height = _to_int(request.query.get("height"), 24, 1, MAX_CELLS)
            await socket.prepare(request)
            self.sockets.add(socket)
            session = AppProcess(self.config.argv, self.config.environment, self.watch_fd,
                                 write_bytes=socket.send_bytes, write_str=socket.send_str, close=socket.close,
                                 download_manager=self.downloads)
            self.sessions.add(session)
            await session.start(width, height)
            log.info("session %s started (%d of at most %d)", session.pid, len(self.sessions),
                     self.config.max_sessions)
            await self._messages(socket, session)
        except (ConnectionError, asyncio.CancelledError):  # the client left (mid-handshake, or a tab closed)
            pass
        finally:
            if session is not None:
                await session.end()
                self.sessions.discard(session)
                log.info("session %s ended", session.pid)
            self.sockets.discard(socket)
            self.reserved -= 1
            if socket.prepared and not socket.closed:
                try:
                    await socket.close()
                except ConnectionError:
                    pass
        if not socket.prepared:  # the client left before the upgrade was answered: nothing to answer
            raise web.HTTPBadRequest()
        return socket

    async def _messages(self, socket: web.WebSocketResponse, session: AppProcess) -> None:
        """The browser's messages: keys (``stdin``), a resize, focus and blur, a ping.
        Anything else, or malformed, is ignored."""
        async for message in socket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
                continue
            if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
                continue
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                await session.send_bytes(data.encode("utf-8", "replace"))
            elif kind == "resize" and isinstance(data, dict):
                width, height = data.get("width"), data.get("height")
                if isinstance(width, int) and isinstance(height, int) and 0 < width <= MAX_CELLS \
                        and 0 < height <= MAX_CELLS:
                    await session.set_terminal_size(width, height)
            elif kind == "ping":
                await socket.send_json(["pong", data])
            elif kind == "blur":
                await session.blur()
            elif kind == "focus":
                await session.focus()

    async def _on_shutdown(self, app: web.Application) -> None:
        for socket in list(self.sockets):
            await socket.close(code=WSCloseCode.GOING_AWAY, message=b"the server stopped")
        await asyncio.gather(*(session.end() for session in list(self.sessions)), return_exceptions=True)


async def run_server(config: ServeConfig, ready: Callable[[Server], None], stop: asyncio.Event) -> None:
    """Serve until ``stop`` is set, then end every session; ``ready`` once listening (its port known).
    ``OSError`` when the address cannot be bound."""
    server = Server(config)
    runner = web.AppRunner(server.make_app(), handle_signals=False, access_log=None, shutdown_timeout=QUIT_SECONDS)
    await runner.setup()
    # Each session gets the read end; only this process holds the write end (not inherited: os.pipe's are
    # not), so when this process ends, however it ends, every session reads the end of the file.
    watch_read, watch_write = os.pipe()
    server.watch_fd = watch_read
    loop = asyncio.get_running_loop()
    guard = ConnectionGuard(runner.server, loop, header_timeout=config.header_timeout,  # type: ignore[arg-type]  # set up: a Server
                            max_waiting=config.max_waiting, burst_seconds=config.burst_seconds)
    previous_handler = loop.get_exception_handler()
    loop.set_exception_handler(guard.exception_handler)
    listener = None
    try:
        listener = await loop.create_server(guard.protocol, config.host, config.port)
        server.port = listener.sockets[0].getsockname()[1]
        ready(server)
        await stop.wait()
    finally:
        if listener is not None:
            listener.close()
        guard.close()
        await runner.cleanup()
        loop.set_exception_handler(previous_handler)
        os.close(watch_read)
        os.close(watch_write)


def configure_logging() -> None:
    """The server's log on standard error, one plain line each (no colour, no markup)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("inspector serve: %(message)s"))
    for name in ("inspector.serve", "textual-serve"):
        logger = logging.getLogger(name)
        for old in list(logger.handlers):
            logger.removeHandler(old)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
        logger.propagate = False
