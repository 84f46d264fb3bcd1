"""``inspector serve`` stops cleanly on SIGINT (Ctrl+C) and SIGTERM: exit status 0,
its sessions' app processes ended with it, none left behind."""

from __future__ import annotations

import asyncio
import signal

import aiohttp
import pytest

from support.serve import alive, read_until, start_server

pytestmark = pytest.mark.xdist_group("browser")


# SIGINT (Ctrl+C) with two sessions open; SIGTERM (a service manager's stop) with one.
@pytest.mark.parametrize(("sig", "count"), [(signal.SIGINT, 2), (signal.SIGTERM, 1)], ids=["SIGINT", "SIGTERM"])
async def test_stopping_the_server_ends_every_session(sig: int, count: int) -> None:
    served = start_server("fixtures/article.json")
    try:
        async with aiohttp.ClientSession(cookies=served.cookie) as client:
            sockets = [await client.ws_connect(f"{served.websocket}?width=80&height=24") for _ in range(count)]
            for socket in sockets:
                await read_until(socket, "complete-answer")
            sessions = served.sessions()
            assert len(sessions) == count
            status, said = await asyncio.to_thread(served.stop, sig)
            for socket in sockets:  # told, not left hanging
                message = await asyncio.wait_for(socket.receive(), 5)
                while message.type == aiohttp.WSMsgType.BINARY:
                    message = await asyncio.wait_for(socket.receive(), 5)
                assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
    finally:
        if served.process.poll() is None:
            served.process.kill()
    assert status == 0, said
    assert "stopped, every session ended" in said
    assert "Traceback" not in said
    assert not any(alive(pid) for pid in sessions)
