"""Helpers of the ``inspector serve`` tests: a real server in a subprocess (its
address and token read from the line it prints), its app processes found in
/proc, and a websocket reader that reads the terminal's bytes as text."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from support import ROOT

_ADDRESS = re.compile(r"(http://[^ /]+(?:/[A-Za-z0-9_-]+)?)/\?token=([A-Za-z0-9_-]+)")
_ESCAPES = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b[\]P_^][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][0-9A-Za-z]")


@dataclass
class Served:
    """A running ``inspector serve``: its process, address (``http://127.0.0.1:PORT/PATH``, everything is
    under its random path) and token."""

    process: subprocess.Popen[bytes]
    base: str
    token: str

    @property
    def port(self) -> int:
        return int(self.origin.rsplit(":", 1)[1])

    @property
    def origin(self) -> str:
        """``http://127.0.0.1:PORT``"""
        at = self.base.find("/", len("http://"))
        return self.base if at < 0 else self.base[:at]

    @property
    def path(self) -> str:
        """The random path everything is served under (``/...``, no slash at its end)."""
        return self.base[len(self.origin):]

    @property
    def cookie(self) -> dict[str, str]:
        return {f"inspector-token-{self.port}": self.token}

    @property
    def websocket(self) -> str:
        return "ws" + self.base[4:] + "/ws"

    def sessions(self) -> list[int]:
        """The app processes this server runs now."""
        return children(self.process.pid)

    def stop(self, sig: int = signal.SIGINT, timeout: float = 15) -> tuple[int, str]:
        """Stop it with ``sig``; its exit status and everything it printed after the address."""
        if self.process.poll() is None:
            self.process.send_signal(sig)
        try:
            out, _ = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            out, _ = self.process.communicate()
        return self.process.returncode, out.decode("utf-8", "replace")


def start_server(*args: str, timeout: float = 20, cwd: Path = ROOT) -> Served:
    """``python -m inspector serve --port 0 ARGS`` (run in ``cwd``), once it listens."""
    process = subprocess.Popen([sys.executable, "-m", "inspector", "serve", "--port", "0", *args], cwd=cwd,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert process.stdout is not None
    deadline = time.monotonic() + timeout
    seen = b""
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        seen += line
        found = _ADDRESS.search(line.decode("utf-8", "replace"))
        if found:
            return Served(process, found.group(1), found.group(2))
    process.kill()
    process.communicate()
    raise AssertionError(f"inspector serve did not start: {seen.decode('utf-8', 'replace')}")


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # pid (comm) state ppid ...: comm may hold spaces and parentheses
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


def screen_text(data: bytes) -> str:
    """The terminal's bytes without their escape sequences: the text drawn."""
    return _ESCAPES.sub(b"", data).decode("utf-8", "replace")


async def read_until(socket, needle: str | tuple[str, ...], timeout: float = 20) -> str:  # noqa: ANN001
    """What the server sends (the terminal's bytes, as text) until ``needle`` (or one of them) has been drawn."""
    from aiohttp import WSMsgType

    data = b""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"{needle!r} not drawn within {timeout} s; drawn: {screen_text(data)[-2000:]!r}")
        try:
            message = await asyncio.wait_for(socket.receive(), left)
        except asyncio.TimeoutError:
            continue
        if message.type == WSMsgType.BINARY:
            data += message.data
            text = screen_text(data)
            if any(one in text for one in ((needle,) if isinstance(needle, str) else needle)):
                return text
        elif message.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING, WSMsgType.ERROR):
            raise AssertionError(f"closed before {needle!r} was drawn: {screen_text(data)[-2000:]!r}")
