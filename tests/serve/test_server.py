"""``inspector serve`` for real (inspector.serve.server): one server for the module,
on a free port, at most two sessions; an aiohttp client without the token is
refused everywhere and starts nothing; with it, the websocket draws the case
list, ``j`` moves to the next case; a third session is refused cleanly."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Iterator

import aiohttp
import pytest
from yarl import URL

from inspector.serve.server import AppProcess, ServeConfig, Server
from support.serve import Served, alive, read_until, start_server

pytestmark = pytest.mark.xdist_group("browser")

SIZE = {"width": 120, "height": 36}


@pytest.fixture(scope="module")
def served() -> Iterator[Served]:
    server = start_server("--max-sessions", "2", "fixtures/article.json")
    yield server
    status, said = server.stop()
    assert status == 0, said
    assert not server.sessions()


async def _wait_for_sessions(served: Served, count: int, timeout: float = 10) -> None:
    for _ in range(int(timeout * 20)):
        if len(served.sessions()) == count:
            return
        await asyncio.sleep(0.05)
    assert len(served.sessions()) == count


class TestTheToken:
    @pytest.mark.parametrize("path", ["/", "/static/js/textual.js", "/static/css/xterm.css", "/download/x",
                                      "/nowhere"])
    async def test_without_it_every_route_is_forbidden(self, served: Served, path: str) -> None:
        async with aiohttp.ClientSession() as client:
            async with client.get(served.base + path, allow_redirects=False) as response:
                assert response.status == 403
                assert "token" in await response.text()
            async with client.get(served.base + path + "?token=wrong", allow_redirects=False) as response:
                assert response.status == 403

    async def test_a_websocket_without_it_is_refused_and_starts_nothing(self, served: Served) -> None:
        async with aiohttp.ClientSession() as client:
            for url in (served.websocket, served.websocket + "?token=" + served.token[:-1] + "x"):
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await client.ws_connect(url)
                assert refused.value.status == 403
        assert served.sessions() == []

    async def test_from_another_sites_page_a_websocket_is_refused(self, served: Served) -> None:
        async with aiohttp.ClientSession(cookies=served.cookie) as client:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await client.ws_connect(served.websocket, headers={"Origin": "http://evil.example"})
            assert refused.value.status == 403
        assert served.sessions() == []

    async def test_in_the_address_it_becomes_a_cookie_and_leaves_the_address(self, served: Served) -> None:
        # unsafe: keep cookies of an IP address (aiohttp's jar drops them by default)
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
            async with client.get(f"{served.base}/?token={served.token}", allow_redirects=False) as response:
                assert response.status == 303
                assert response.headers["Location"] == "/"
                cookie = response.headers["Set-Cookie"]
                assert f"inspector-token-{served.port}={served.token}" in cookie
                assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
            async with client.get(served.base + "/") as response:  # the cookie now
                assert response.status == 200
                page = await response.text()
                assert "default-src 'none'" in response.headers["Content-Security-Policy"]
                assert response.headers["X-Frame-Options"] == "DENY"
        assert served.token not in page


class TestThePage:
    async def test_names_nothing_but_the_servers_own_assets(self, served: Served) -> None:
        async with aiohttp.ClientSession(cookies=served.cookie) as client:
            async with client.get(served.base + "/") as response:
                page = await response.text()
            for asset in ("/static/js/textual.js", "/static/css/xterm.css", "/static/fonts/RobotoMono.ttf"):
                assert asset in page
                async with client.get(served.base + asset) as response:
                    assert response.status == 200
            for elsewhere in ("/static/", "/static/images/background.png", "/static/%2e%2e/server.py",
                              "/static/js/%2e%2e/%2e%2e/server.py"):
                async with client.get(URL(served.base + elsewhere, encoded=True)) as response:
                    assert response.status == 404, elsewhere
        assert "googleapis" not in page and "https://" not in page and "<script>" not in page
        assert served.sessions() == []  # a page is not a session: the websocket is


class TestASession:
    async def test_draws_the_case_list_j_moves_to_the_next_case_junk_is_ignored(self, served: Served) -> None:
        async with aiohttp.ClientSession(cookies=served.cookie) as client:
            async with client.ws_connect(f"{served.websocket}?width=120&height=36") as socket:
                await socket.send_json(["resize", SIZE])
                first = await read_until(socket, "one-field-request")
                assert "complete-answer" in first
                assert len(served.sessions()) == 1
                await asyncio.sleep(0.3)  # the first screen settled
                while True:  # what is still coming of it
                    try:
                        await asyncio.wait_for(socket.receive(), 0.3)
                    except asyncio.TimeoutError:
                        break
                await socket.send_json(["stdin", "j"])
                await read_until(socket, "reordered-claims")  # the second case, now the current one
                # malformed messages are ignored, and the session goes on
                for junk in ("not json", "{}", "[]", "[1, 2]", '["resize", {"width": -1, "height": 1e9}]',
                             '["stdin", 5]', '["resize", "x"]'):
                    await socket.send_str(junk)
                await socket.send_bytes(b"\x00\xff")
                await socket.send_json(["ping", "still here"])
                while True:
                    message = await asyncio.wait_for(socket.receive(), 10)
                    if message.type == aiohttp.WSMsgType.TEXT:
                        assert message.json() == ["pong", "still here"]
                        break
        await _wait_for_sessions(served, 0)

    async def test_a_session_beyond_the_limit_is_refused_with_a_message(self, served: Served) -> None:
        async with aiohttp.ClientSession(cookies=served.cookie) as client:
            first = await client.ws_connect(f"{served.websocket}?width=80&height=24")
            second = await client.ws_connect(f"{served.websocket}?width=80&height=24")
            await read_until(first, "complete-answer")
            await read_until(second, "complete-answer")
            assert len(served.sessions()) == 2
            third = await client.ws_connect(f"{served.websocket}?width=80&height=24")
            said = (await asyncio.wait_for(third.receive(), 5)).data.decode()
            assert "All 2 session(s) of this server are in use" in said
            assert (await asyncio.wait_for(third.receive(), 5)).type == aiohttp.WSMsgType.CLOSE
            assert third.close_code == 1013
            async with client.get(served.base + "/") as page:
                assert page.status == 503
                assert "All 2 session(s)" in await page.text()
            assert len(served.sessions()) == 2  # no third process
            await first.close()
            await _wait_for_sessions(served, 1)
            async with client.get(served.base + "/") as page:  # room again
                assert page.status == 200
            await second.close()
        await _wait_for_sessions(served, 0)

    async def test_closing_the_browser_ends_its_process(self, served: Served) -> None:
        from support.serve import alive

        async with aiohttp.ClientSession(cookies=served.cookie) as client:
            socket = await client.ws_connect(f"{served.websocket}?width=80&height=24")
            await read_until(socket, "complete-answer")
            (pid,) = served.sessions()
        # the client went away without a goodbye (a closed tab)
        for _ in range(200):
            if not alive(pid):
                break
            await asyncio.sleep(0.05)
        assert not alive(pid)

    async def test_quitting_the_app_closes_its_websocket(self, served: Served) -> None:
        async with aiohttp.ClientSession(cookies=served.cookie) as client:
            async with client.ws_connect(f"{served.websocket}?width=80&height=24") as socket:
                await read_until(socket, "complete-answer")
                await socket.send_json(["stdin", "q"])
                for _ in range(100):
                    message = await asyncio.wait_for(socket.receive(), 10)
                    if message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
                        break
                assert socket.closed
        await _wait_for_sessions(served, 0)


class TestTheLimit:
    def test_a_session_whose_app_has_ended_holds_no_place(self) -> None:
        """From the app's exit on, not once the event loop has reaped it and the
        session's handler has tidied up: on Python 3.13 that came late enough that
        a page reloaded right after another tab closed was still refused (503)."""
        server = Server(ServeConfig(argv=["inspector"], token="t", max_sessions=1))
        async def unused(*_: object) -> None: ...
        session = AppProcess(["inspector"], {}, write_bytes=unused, write_str=unused, close=unused,
                             download_manager=server.downloads)
        app = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
        session._process = app  # type: ignore[assignment]  # what the handler holds: a pid and a returncode
        server.sessions.add(session)
        server.reserved = 1
        try:
            assert server.full
            app.stdin.close()  # type: ignore[union-attr]
            deadline = time.monotonic() + 10
            while alive(app.pid) and time.monotonic() < deadline:
                time.sleep(0.01)
            assert app.returncode is None  # exited, not reaped: the handler has not run its finally
            assert not server.full
        finally:
            app.wait()
        assert not server.full
