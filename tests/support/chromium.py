"""Headless Chromium, driven through the Chrome DevTools protocol over aiohttp's
websocket: a browser already on the machine (``find_browser``: the one
``INSPECTOR_CHROMIUM`` names, else the first on ``PATH`` or in the usual places;
``.ci/run`` installs Debian's), never one downloaded at run time.

A small client rather than Playwright: aiohttp comes with the serve extra
anyway, the protocol's few commands used here (open a page, read the DOM,
type a key, list the requests, catch a dialog, take a screenshot) are a page of
code, and nothing is pinned to a browser build (Playwright's driver expects its
own Chromium's protocol version and brings a Node runtime).

``Chromium`` is the browser process (one per test module: ``start``/``stop``);
``Page`` a tab with its own connection, opened in the test's event loop.  Every
request the page makes and every dialog it opens are recorded.
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# What find_browser looks for: the variable, then these commands on PATH, then these files.
ENVIRONMENT = "INSPECTOR_CHROMIUM"
COMMANDS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
USUAL = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/snap/bin/chromium",
         "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable", "/opt/google/chrome/chrome",
         "/Applications/Chromium.app/Contents/MacOS/Chromium",
         "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome")
# Without the background-networking flags Chromium floods the (closed) network at start.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-extensions", "--mute-audio", "--hide-scrollbars",
         "--remote-debugging-port=0", "--remote-allow-origins=*")
_LISTENING = re.compile(r"DevTools listening on (ws://\S+)")

# One line: how to get a browser (tests/conftest.py's ``browser`` skips with it, or fails where CI is set).
MISSING = (f"no Chromium found, the browser tests are skipped: install one (Debian: apt-get install chromium; "
           f"Fedora: dnf install chromium; macOS: brew install --cask chromium) or name it in {ENVIRONMENT}")


class BrowserMissing(Exception):
    """No browser to start: the one line says which and how to get one."""


def find_browser(environ: Mapping[str, str] = os.environ) -> str:
    """The browser the tests start: ``INSPECTOR_CHROMIUM`` when set (then it must run),
    else the first of ``COMMANDS`` on ``PATH``, else the first of ``USUAL`` that exists.
    ``BrowserMissing`` when there is none."""
    named = environ.get(ENVIRONMENT, "")
    if named:
        found = shutil.which(named)
        if found is None:
            raise BrowserMissing(f"{ENVIRONMENT}={named}: no such program (a Chromium or Chrome to run headless)")
        return found
    for command in COMMANDS:
        found = shutil.which(command, path=environ.get("PATH", os.defpath))
        if found is not None:
            return found
    for path in USUAL:
        if os.access(path, os.X_OK) and os.path.isfile(path):
            return path
    raise BrowserMissing(MISSING)


class CdpError(Exception):
    pass


@dataclass
class Chromium:
    process: subprocess.Popen[bytes]
    endpoint: str  # the browser's DevTools websocket
    profile: str

    @classmethod
    def start(cls, browser: str | None = None, timeout: float = 30) -> Chromium:
        """``browser`` (default: ``find_browser``'s), headless, once it listens."""
        browser = browser or find_browser()
        profile = tempfile.mkdtemp(prefix="inspector-chromium-")
        log = Path(profile) / "stderr.log"  # a file, not a pipe: nothing has to keep reading it
        with log.open("wb") as stderr:
            process = subprocess.Popen([browser, *FLAGS, f"--user-data-dir={profile}/data", "about:blank"],
                                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=stderr)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and process.poll() is None:
            found = _LISTENING.search(log.read_text("utf-8", "replace"))
            if found:
                return cls(process, found.group(1), profile)
            time.sleep(0.05)
        process.kill()
        said = log.read_text("utf-8", "replace")[-3000:]
        shutil.rmtree(profile, ignore_errors=True)
        raise AssertionError(f"{browser} did not start: {said}")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)

    async def page(self, width: int = 1280, height: int = 800) -> Page:
        """A new tab of this size, its events recorded from the start."""
        import aiohttp

        client = aiohttp.ClientSession()
        socket = await client.ws_connect(self.endpoint, max_msg_size=0)
        page = Page(client, socket)
        page.reader = asyncio.create_task(page._read())
        target = await page.send("Target.createTarget", url="about:blank")
        attached = await page.send("Target.attachToTarget", targetId=target["targetId"], flatten=True)
        page.session = attached["sessionId"]
        page.target = target["targetId"]
        for domain in ("Page", "Runtime", "Network"):
            await page.send(f"{domain}.enable")
        await page.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                        mobile=False)
        return page


@dataclass
class Page:
    client: Any
    socket: Any
    session: str | None = None
    target: str | None = None
    reader: asyncio.Task[None] | None = None
    requests: list[str] = field(default_factory=list)  # every URL the page asked for
    dialogs: list[str] = field(default_factory=list)  # every alert, confirm, prompt opened
    console: list[str] = field(default_factory=list)
    # What the page's websockets received: (when, opcode, bytes); a binary frame's bytes are a terminal's.
    frames: list[tuple[float, int, bytes]] = field(default_factory=list)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _waiting: dict[int, asyncio.Future[Any]] = field(default_factory=dict)
    _listeners: list[tuple[str, asyncio.Future[Any], Callable[[dict[str, Any]], bool]]] = field(default_factory=list)

    async def send(self, method: str, **params: Any) -> Any:
        number = next(self._ids)
        message: dict[str, Any] = {"id": number, "method": method, "params": params}
        if self.session is not None and not method.startswith("Target."):
            message["sessionId"] = self.session
        done = asyncio.get_running_loop().create_future()
        self._waiting[number] = done
        await self.socket.send_str(json.dumps(message))
        return await asyncio.wait_for(done, 30)

    def expect(self, method: str, test: Callable[[dict[str, Any]], bool] = lambda params: True
               ) -> asyncio.Future[Any]:
        """A future set by the next event ``method`` whose params pass ``test`` (register before acting)."""
        found = asyncio.get_running_loop().create_future()
        self._listeners.append((method, found, test))
        return found

    async def _read(self) -> None:
        from aiohttp import WSMsgType

        async for message in self.socket:
            if message.type != WSMsgType.TEXT:
                continue
            data = json.loads(message.data)
            if "id" in data:
                done = self._waiting.pop(data["id"], None)
                if done is not None and not done.done():
                    if "error" in data:
                        done.set_exception(CdpError(f"{data['error']}"))
                    else:
                        done.set_result(data.get("result", {}))
                continue
            method, params = data.get("method"), data.get("params", {})
            if method == "Network.requestWillBeSent":
                self.requests.append(params["request"]["url"])
            elif method == "Page.javascriptDialogOpening":
                self.dialogs.append(params.get("message", ""))
                asyncio.ensure_future(self.send("Page.handleJavaScriptDialog", accept=False))
            elif method == "Network.webSocketFrameReceived":
                response = params["response"]
                payload = response["payloadData"]
                data = base64.b64decode(payload) if response["opcode"] == 2 else payload.encode("utf-8")
                self.frames.append((time.perf_counter(), response["opcode"], data))
            elif method == "Runtime.consoleAPICalled":
                self.console.append(" ".join(str(arg.get("value", "")) for arg in params.get("args", [])))
            for listener in list(self._listeners):
                name, found, test = listener
                if name == method and not found.done() and test(params):
                    found.set_result(params)
                    self._listeners.remove(listener)

    def terminal_bytes(self, since: int = 0) -> bytes:
        """The bytes the page's terminal received over its websocket, from frame ``since`` on."""
        return b"".join(data for _, opcode, data in self.frames[since:] if opcode == 2)

    async def goto(self, url: str, timeout: float = 30) -> None:
        loaded = self.expect("Page.loadEventFired")
        await self.send("Page.navigate", url=url)
        await asyncio.wait_for(loaded, timeout)

    async def evaluate(self, expression: str) -> Any:
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise CdpError(str(result["exceptionDetails"]))
        return result["result"].get("value")

    async def wait_for(self, expression: str, timeout: float = 30, every: float = 0.02) -> Any:
        """Poll ``expression`` until it is truthy; its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = await self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(f"not true within {timeout} s: {expression}")
            await asyncio.sleep(every)

    async def key(self, key: str, text: str | None = None) -> None:
        """A key typed as a person types it: down (with its text), up."""
        text = key if text is None and len(key) == 1 else text
        down: dict[str, Any] = {"type": "keyDown", "key": key}
        if text:
            down.update(text=text, unmodifiedText=text)
        await self.send("Input.dispatchKeyEvent", **down)
        await self.send("Input.dispatchKeyEvent", type="keyUp", key=key)

    async def screenshot(self, path: Path | None = None, full_page: bool = False) -> bytes:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            metrics = await self.send("Page.getLayoutMetrics")
            size = metrics["cssContentSize"]
            params.update(captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1})
        data = base64.b64decode((await self.send("Page.captureScreenshot", **params))["data"])
        if path is not None:
            path.write_bytes(data)
        return data

    async def close(self) -> None:
        try:
            if self.target is not None:
                self.session = None
                await self.send("Target.closeTarget", targetId=self.target)
        finally:
            await self.socket.close()
            await self.client.close()
            if self.reader is not None:
                self.reader.cancel()


async def timed(action: Awaitable[Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    value = await action
    return value, time.perf_counter() - start


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
