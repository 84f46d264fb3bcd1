"""Connections that never finish their request's headers (inspector.serve.guard),
against the server itself, in this process, on 127.0.0.1: raw sockets holding
half a request.  They are closed after the header timeout; beyond the cap, the
oldest is closed, so the token holder's request gets through a flood; what was
closed is one log line a burst.  No session is started (the app is ``true``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import aiohttp
import pytest
import pytest_asyncio

from inspector.serve.server import Server, ServeConfig, run_server

HALF = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"  # and never the blank line that ends the headers


@dataclass
class Running:
    server: Server
    config: ServeConfig

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.server.port}{self.server.path}"

    @property
    def cookie(self) -> dict[str, str]:
        return {self.server.cookie: self.config.token}


async def _serving(config: ServeConfig) -> AsyncIterator[Running]:
    stop = asyncio.Event()
    started: asyncio.Future[Server] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(run_server(config, started.set_result, stop))
    server = await asyncio.wait_for(started, 10)
    try:
        yield Running(server, config)
    finally:
        stop.set()
        await asyncio.wait_for(task, 10)


@pytest_asyncio.fixture
async def quick() -> AsyncIterator[Running]:
    """A server with a half-second header timeout, eight waiting at most, bursts of a second."""
    config = ServeConfig(argv=("true",), token="t" * 43, port=0, header_timeout=0.5, max_waiting=8,
                         burst_seconds=1.0)
    async for running in _serving(config):
        yield running


async def _half_open(port: int, count: int) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    opened = []
    for _ in range(count):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(HALF)
        await writer.drain()
        opened.append((reader, writer))
    return opened


async def _closed_by_server(reader: asyncio.StreamReader, within: float) -> bool:
    try:
        return await asyncio.wait_for(reader.read(), within) == b""
    except ConnectionResetError:
        return True
    except asyncio.TimeoutError:
        return False


def _close(opened: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]) -> None:
    for _, writer in opened:
        writer.transport.abort()


async def test_beyond_the_cap_the_oldest_waiting_are_closed_and_the_token_holder_gets_through() -> None:
    """With the defaults (as ``inspector serve`` runs): 100 half-open connections do not hold it."""
    async for running in _serving(ServeConfig(argv=("true",), token="t" * 43, port=0)):
        opened = await _half_open(running.server.port, 100)
        try:
            cap = running.config.max_waiting
            assert cap < 100
            closed = await asyncio.gather(*(_closed_by_server(reader, 3) for reader, _ in opened[:100 - cap]))
            assert all(closed)  # the oldest, beyond the cap
            async with aiohttp.ClientSession(cookies=running.cookie) as client:
                async with client.get(running.base + "/", timeout=aiohttp.ClientTimeout(total=5)) as response:
                    assert response.status == 200
                    assert response.headers["Connection"] == "close"  # one request a connection
        finally:
            _close(opened)


async def test_headers_not_finished_in_time_are_closed(quick: Running) -> None:
    opened = await _half_open(quick.server.port, 6)
    try:
        # a request that finishes its headers is answered, slowly or not
        reader, writer = await asyncio.open_connection("127.0.0.1", quick.server.port)
        writer.write(HALF)
        await asyncio.sleep(0.2)
        writer.write(b"\r\n")
        assert (await asyncio.wait_for(reader.readline(), 5)).startswith(b"HTTP/1.1 403")
        writer.close()
        closed = await asyncio.gather(*(_closed_by_server(reader, 3) for reader, _ in opened))
        assert all(closed)
    finally:
        _close(opened)


class _Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def logged() -> Iterator[_Kept]:
    """What the server logs (its logger's own handler: the CLI's does not propagate)."""
    kept = _Kept()
    logger = logging.getLogger("inspector.serve")
    level = logger.level
    logger.addHandler(kept)
    logger.setLevel(logging.INFO)
    yield kept
    logger.removeHandler(kept)
    logger.setLevel(level)


async def test_a_burst_is_one_line_in_the_log(quick: Running, logged: _Kept) -> None:
    opened = await _half_open(quick.server.port, 30)
    try:
        await asyncio.gather(*(_closed_by_server(reader, 3) for reader, _ in opened))
        for _ in range(60):  # the burst's line, a second after its first
            if logged.records:
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)  # and nothing after it
    finally:
        _close(opened)
    lines = [record.getMessage() for record in logged.records]
    assert len(lines) == 1, lines
    assert "22 connection(s) closed: more than 8 connections waiting" in lines[0]
    assert "8 connection(s) closed: request headers not complete within 0.5 s" in lines[0]
    assert not any(record.exc_info for record in logged.records)


async def test_the_loops_errors_are_counted_into_the_bursts_line_without_a_traceback(logged: _Kept) -> None:
    """Out of file descriptors, the loop reports every failed ``accept``: once a traceback each, it fills the log."""
    from aiohttp import web

    from inspector.serve.guard import ConnectionGuard

    guard = ConnectionGuard(web.Server(lambda request: web.Response()), asyncio.get_running_loop(),
                            header_timeout=1, max_waiting=4, burst_seconds=0.2)
    for _ in range(1000):
        guard.exception_handler(asyncio.get_running_loop(), {
            "message": "socket.accept() out of system resource", "exception": OSError(24, "Too many open files")})
    await asyncio.sleep(0.4)
    guard.close()
    lines = [record.getMessage() for record in logged.records]
    assert lines == ["in the last 0.2 s: 1,000 × socket.accept() out of system resource (OSError: [Errno 24] Too "
                     "many open files) (a client that connects and sends nothing, or a flood)"]
    assert not any(record.exc_info for record in logged.records)


def test_the_docs_give_the_limits_the_server_has() -> None:
    from support import ROOT

    config = ServeConfig(argv=("true",), token="t")
    said = " ".join((ROOT / "docs" / "serve.md").read_text("utf-8").split())
    assert f"not complete {config.header_timeout:g} seconds after it opened" in said
    assert f"at most {config.max_waiting} connections may wait for their headers" in said
    assert f"{config.burst_seconds:g} seconds after the burst's first" in said
