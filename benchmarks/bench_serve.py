"""``inspector serve`` in headless Chromium: how soon the page shows the inspector,
and how a key feels through the browser.  Prints figures; asserts nothing.

    .venv/bin/python benchmarks/bench_serve.py [--runs 5] [--presses 40]

1. Page load to the first full screen (each run a fresh tab, so a new session:
   a new ``inspector open`` process): from ``Page.navigate`` to the page's load
   event, to the first terminal byte over the websocket, and to the whole first
   screen received (the case list's last row and the verdict panel) and painted (one
   animation frame after it).
2. A key press's round trip in the browser (goal: under 50 ms on loopback):
   ``j`` and ``k`` alternately, each from the key event dispatched into the page
   to the first frame of the new screen back on the page's websocket, and to the
   whole update received (the next case's id drawn) and painted (an animation
   frame after it, asked for over the protocol: what that costs with nothing to
   draw is printed beside it).

The browser is Debian's ``/usr/bin/chromium``, driven over the DevTools protocol
(``tests/support/chromium.py``); the article's suite is served on a free port.
The machine is shared: the load average before each part is printed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support.chromium import Chromium, Page  # noqa: E402
from support.serve import screen_text, start_server  # noqa: E402

IDS = ["complete-answer", "reordered-claims"]
# Drawn last of the first screen at 1280 x 800: the case list's last row, the verdict panel.
SCREEN = ("omitted-field", "every check passed")


def _load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {statistics.median(ordered) * 1000:7.1f} ms  p95 {p95 * 1000:7.1f} ms  " \
           f"min {ordered[0] * 1000:7.1f} ms  max {ordered[-1] * 1000:7.1f} ms"


async def _until(test, timeout: float = 30) -> float:  # noqa: ANN001 - a callable
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            raise TimeoutError
        await asyncio.sleep(0.001)
    return time.perf_counter()


async def _painted(page: Page) -> float:
    await page.evaluate("new Promise(done => requestAnimationFrame(() => done(true)))")
    return time.perf_counter()


async def first_screen(browser: Chromium, url: str) -> dict[str, float]:
    page = await browser.page(1280, 800)
    try:
        start = time.perf_counter()
        loaded = page.expect("Page.loadEventFired")
        await page.send("Page.navigate", url=url)
        await asyncio.wait_for(loaded, 30)
        load = time.perf_counter()
        first = await _until(lambda: page.terminal_bytes() != b"")
        full = await _until(lambda: all(word in screen_text(page.terminal_bytes())
                                        for word in SCREEN))
        painted = await _painted(page)
        return {"load event": load - start, "first byte": first - start, "full screen received": full - start,
                "full screen painted": painted - start}
    finally:
        await page.close()


async def presses(browser: Chromium, url: str, count: int
                  ) -> tuple[list[float], list[float], list[float], list[float]]:
    page = await browser.page(1280, 800)
    first_frames, updates, paints, idle = [], [], [], []
    try:
        await page.goto(url)
        await _until(lambda: all(word in screen_text(page.terminal_bytes()) for word in SCREEN))
        await page.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
        await asyncio.sleep(1.0)
        for _ in range(count):  # what asking for a painted frame costs by itself, nothing to draw
            start = time.perf_counter()
            idle.append(await _painted(page) - start)
        for number in range(count):
            key, target = ("j", IDS[1]) if number % 2 == 0 else ("k", IDS[0])
            since = len(page.frames)
            start = time.perf_counter()
            await page.key(key)
            first = await _until(lambda: any(opcode == 2 for _, opcode, _ in page.frames[since:]))
            received = await _until(lambda: target in screen_text(page.terminal_bytes(since)))
            painted = await _painted(page)
            first_frames.append(first - start)
            updates.append(received - start)
            paints.append(painted - start)
            await asyncio.sleep(0.15)  # the screen settled before the next key
        return first_frames, updates, paints, idle
    finally:
        await page.close()


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--presses", type=int, default=40)
    args = parser.parse_args()
    served = start_server("--max-sessions", "2", "fixtures/article.json")
    browser = Chromium.start()
    url = f"{served.base}/?token={served.token}"
    try:
        print(f"1. page load to the first full screen, {args.runs} fresh tabs ({_load()})")
        runs = [await first_screen(browser, url) for _ in range(args.runs)]
        for name in runs[0]:
            print(f"   {name:<22} {_ms([run[name] for run in runs])}")
        print(f"2. a key's round trip in the browser, {args.presses} presses of j and k ({_load()})")
        first, received, painted, idle = await presses(browser, url, args.presses)
        print(f"   first frame back       {_ms(first)}")
        print(f"   update received        {_ms(received)}")
        print(f"   update painted         {_ms(painted)}")
        print(f"   (a painted frame asked for with nothing to draw: {_ms(idle)})")
    finally:
        browser.stop()
        served.stop()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
