"""The served inspector in a real browser: Debian's headless Chromium, driven over the
Chrome DevTools protocol (support.chromium), on one ``inspector serve`` of the
article's and the hostile suite for the module.  The page draws the terminal (the
screenshot is checked: the terminal, not an error page); a key typed moves to the
next case; the page asks nothing of anyone but the server; walking the hostile
suite opens no dialog, fetches nothing, and puts none of its strings into the
page's HTML (the terminal draws them on a canvas); behind a TLS proxy the page
connects its websocket over TLS (``wss://``).  Without a Chromium
(support.chromium.find_browser) they are skipped, or fail where CI is set: .ci/run installs one."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from support import FIXTURES
from support.chromium import Chromium, Page, png_size
from support.serve import Served, screen_text, start_server

pytestmark = pytest.mark.xdist_group("browser")

WIDTH, HEIGHT = 1280, 800


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The server's working directory: where a session would write, were it to write."""
    return tmp_path_factory.mktemp("served")


@pytest.fixture(scope="module")
def served(workdir: Path) -> Iterator[Served]:
    server = start_server(str(FIXTURES / "article.json"), str(FIXTURES / "hostile.json"), cwd=workdir)
    yield server
    status, said = server.stop()
    assert status == 0, said


@pytest_asyncio.fixture
async def page(browser: Chromium) -> AsyncIterator[Page]:
    opened = await browser.page(WIDTH, HEIGHT)
    yield opened
    await opened.close()


async def _open(page: Page, served: Served) -> None:
    """The address the server printed, then the terminal until the case list is drawn."""
    await page.goto(f"{served.base}/?token={served.token}")
    await page.wait_for("document.body.classList.contains('-first-byte')")
    await _drawn(page, "one-field-request")
    # The keyboard's focus on the terminal, as a click on it gives (a headless window has no focus to give).
    await page.evaluate("document.querySelector('.xterm-helper-textarea').focus()")


async def _drawn(page: Page, needle: str, since: int = 0, timeout: float = 20) -> None:
    import asyncio
    import time

    deadline = time.monotonic() + timeout
    while needle not in screen_text(page.terminal_bytes(since)):
        assert time.monotonic() < deadline, f"{needle!r} not drawn: {screen_text(page.terminal_bytes(since))[-500:]}"
        await asyncio.sleep(0.02)


async def _settled(page: Page, quiet: float = 0.4) -> None:
    """Until the terminal received nothing for ``quiet`` seconds (the screen is complete)."""
    import asyncio

    count = -1
    while count != len(page.frames):
        count = len(page.frames)
        await asyncio.sleep(quiet)


class TestThePage:
    async def test_draws_the_inspector_a_key_moves_to_the_next_case_nothing_else_asked(
            self, page: Page, served: Served, tmp_path: Path) -> None:
        await _open(page, served)
        await _settled(page)
        shot = await page.screenshot(tmp_path / "served.png")
        assert png_size(shot) == (WIDTH, HEIGHT)
        # The terminal's text and colours: a blank page (or the start dialog, or an error's
        # line of text) compresses to a few kilobytes at this size, the inspector's screen to some 100.
        assert len(shot) > 50_000
        title = await page.evaluate("document.title")
        assert title == "inspector open"
        assert await page.evaluate("document.querySelectorAll('.xterm canvas').length") >= 1
        since = len(page.frames)
        await page.key("j")
        await _drawn(page, "reordered-claims", since)  # the second case, now the current one
        # and the page asked nothing of anyone but the server (its own assets, the websocket)
        assert page.requests
        assert all(url.startswith(served.base + "/") for url in page.requests), page.requests
        assert page.dialogs == []


def _hostile_strings() -> set[str]:
    """Every string of the hostile suite long enough to be told apart (ids, values, quotes, texts, answers)."""
    found: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            if len(value) >= 8:
                found.add(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(key)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    suite = json.loads((FIXTURES / "hostile.json").read_text("utf-8"))
    walk(suite["cases"])
    walk(suite["sources"])
    return found - {"description", "expected", "read_timeout_ms", "retry_enabled", "environment", "supplied",
                    "payments", "prod-v2"}


class TestSaving:
    async def test_the_labs_save_is_a_download_and_nothing_is_written_on_the_server(
            self, page: Page, served: Served, workdir: Path, tmp_path: Path) -> None:
        import asyncio

        from inspector.suites.load import load_suite

        await page.send("Browser.setDownloadBehavior", behavior="allow", downloadPath=str(tmp_path),
                        eventsEnabled=True)
        await _open(page, served)
        await page.key("s")  # the save form, on the case as shown
        await _drawn(page, "counterexamples.json")
        since = len(page.frames)
        await page.key("Enter", "\r")
        await _drawn(page, "as a download: counterexamples.json", since)
        for _ in range(200):
            if (tmp_path / "counterexamples.json").exists():
                break
            await asyncio.sleep(0.05)
        suite = load_suite(tmp_path / "counterexamples.json")
        assert [case.id for case in suite.cases] == ["complete-answer.copy"]
        assert list(workdir.iterdir()) == []


class TestTheHostileSuite:
    async def test_walked_in_the_browser_nothing_is_interpreted(self, page: Page, served: Served,
                                                                tmp_path: Path) -> None:
        await _open(page, served)
        before = await page.evaluate("document.documentElement.outerHTML")
        await page.key("G")  # the last case: the hostile suite's
        for key in ["n", "n", "n", "k", "n", "k", "k", "n", "]", "k", "k", "k", "n", "f"] * 2:
            await page.key(key)
        await _settled(page)
        await page.screenshot(tmp_path / "hostile.png")
        drawn = screen_text(page.terminal_bytes())
        assert "hostile" in drawn and "/49" in drawn  # the hostile suite's cases were drawn
        after = await page.evaluate("document.documentElement.outerHTML")
        reached = [text for text in _hostile_strings() if text in after]
        assert reached == []
        assert page.dialogs == []
        assert all(url.startswith(served.base + "/") for url in page.requests), page.requests
        # the page's elements are the page's: the terminal adds its own, no fixture's
        # (two scripts, the server's: textual.js and the websocket's address)
        assert await page.evaluate("[...document.scripts].map(script => script.getAttribute('src'))") == [
            "static/js/textual.js", "static/js/websocket.js"]
        assert await page.evaluate("document.querySelectorAll('img, iframe, object, embed, a[href^=javascript]')"
                                   ".length") == 0
        assert before.count("<script") == after.count("<script")


class TestBehindATlsProxy:
    async def test_the_page_over_https_connects_its_websocket_over_tls(
            self, page: Page, served: Served, tmp_path: Path) -> None:
        """A TLS proxy in front (what docs/serve.md recommends for another host): the page is https://, so
        its websocket must be wss:// through the proxy (ws:// is mixed content, and not the proxy's)."""
        import asyncio
        import ssl
        import subprocess

        key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                        "-nodes", "-keyout", str(key), "-out", str(cert), "-days", "1", "-subj", "/CN=127.0.0.1"],
                       check=True, capture_output=True, timeout=30)
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)
        upstream = served.port
        tunnels: list[asyncio.StreamWriter] = []

        async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                while data := await reader.read(65536):
                    writer.write(data)
                    await writer.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                writer.close()

        async def tunnel(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", upstream)
            tunnels.extend((writer, up_writer))
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))

        proxy = await asyncio.start_server(tunnel, "127.0.0.1", 0, ssl=context)
        try:
            port = proxy.sockets[0].getsockname()[1]
            await page.send("Security.setIgnoreCertificateErrors", ignore=True)
            await page.goto(f"https://127.0.0.1:{port}{served.path}/?token={served.token}")
            await page.wait_for("document.body.classList.contains('-first-byte')")
            await _drawn(page, "one-field-request")
            url = await page.evaluate("document.getElementById('terminal').dataset.sessionWebsocketUrl")
            assert url == f"wss://127.0.0.1:{port}{served.path}/ws"
        finally:
            proxy.close()
            for writer in tunnels:
                writer.close()
