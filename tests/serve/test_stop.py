"""``inspector serve`` stops cleanly on SIGINT (Ctrl+C), SIGTERM and SIGHUP (a closed
terminal or SSH session): exit status 0, its sessions' app processes ended with it,
none left behind; and a server ended any other way (SIGKILL) takes its sessions
with it too."""

from __future__ import annotations

import asyncio
import os
import signal

import aiohttp
import pytest

from support.serve import alive, read_until, start_server

pytestmark = pytest.mark.xdist_group("browser")


# SIGINT (Ctrl+C) with two sessions open; SIGTERM (a service manager's stop) and SIGHUP (its terminal closed)
# with one.
@pytest.mark.parametrize(("sig", "count"), [(signal.SIGINT, 2), (signal.SIGTERM, 1), (signal.SIGHUP, 1)],
                         ids=["SIGINT", "SIGTERM", "SIGHUP"])
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


async def test_a_server_killed_takes_its_sessions_with_it() -> None:
    """SIGKILL: no handler runs, yet each session sees its server's pipe close and ends."""
    served = start_server("fixtures/article.json")
    sessions: list[int] = []
    try:
        async with aiohttp.ClientSession(cookies=served.cookie) as client:
            socket = await client.ws_connect(f"{served.websocket}?width=80&height=24")
            await read_until(socket, "complete-answer")
            sessions = served.sessions()
            assert len(sessions) == 1
            served.process.kill()
            await asyncio.to_thread(served.process.wait, 10)
            for _ in range(200):  # 10 s at most; it takes well under one
                if not any(alive(pid) for pid in sessions):
                    break
                await asyncio.sleep(0.05)
            assert not any(alive(pid) for pid in sessions)
    finally:
        if served.process.poll() is None:
            served.process.kill()
        served.process.communicate()
        for pid in sessions:  # a session left behind by a failure is not left running
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
