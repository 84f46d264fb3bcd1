"""What hostile text costs to show and to explain.  Prints figures; asserts nothing.

    .venv/bin/python benchmarks/bench_render.py [--escapes N ...] [--presses N]

1. Answers full of characters the inspector shows escaped (U+202E): for each
   count, a suite of that answer and a plain one is opened in the app (headless,
   120×36); the figure is open to first frame (goal: under 1 s at 50,000) and the
   press of ``k``/``j`` that brings the answer back, posting to composed frame
   (goal: one frame, ~16 ms); median and max.  0 is the yardstick (an empty
   quote: what changing case costs anyway).  8,000 fits the contract's size
   limit (the answer decodes, then fails on its shape); the others are TOO_LARGE
   and shown whole in the raw view.
2. The "nearest line" of a QUOTE_NOT_FOUND explanation: today's difflib search
   (every line, no cutoff) against the bounded one in ``contract.text``, on a
   10,000-line source, 2,000 lines of 2,000 characters, and a few-letter
   alphabet (difflib's worst case); best of several runs, the same process.
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import json
import random
import statistics
import string
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from inspector.contract.text import nearest_line  # noqa: E402

SOURCE = {"id": "prod-v2", "service": "payments", "environment": "prod", "revision": "v2",
          "facts": {"read_timeout_ms": "5000"}, "text": "# payments\nread_timeout_ms=5000\n"}
REQUEST = {"service": "payments", "environment": "prod", "revision": "v2", "fields": ["read_timeout_ms"],
           "supplied": ["prod-v2"]}
PLAIN = {"claims": [{"field": "read_timeout_ms", "value": "5000", "doc": "prod-v2",
                     "quote": "read_timeout_ms=5000"}]}


def escape_suite(folder: Path, escapes: int) -> Path:
    """The answer with ``escapes`` U+202E in its quote first, a plain answer second."""
    quote = "\u202e" * escapes
    raw = json.dumps({"claims": [{**PLAIN["claims"][0], "quote": quote}]}, ensure_ascii=False)
    cases = [{"id": f"escapes-{escapes}", "raw": raw, "request": REQUEST, "expected": "INVALID_JSON"},
             {"id": "plain", "raw": json.dumps(PLAIN), "request": REQUEST, "expected": "ACCEPT"}]
    path = folder / f"escapes-{escapes}.json"
    path.write_text(json.dumps({"sources": [SOURCE], "cases": cases}, ensure_ascii=False), "utf-8")
    return path


async def open_and_press(path: Path, presses: int) -> tuple[float, list[float]]:
    """Seconds to the first frame, and per press of k (back onto the answer) to its frame."""
    from inspector.suites.load import load_suite
    from inspector.tui.app import make_app

    t0 = time.perf_counter()
    app = make_app([load_suite(path, strict=False)], freeze_gc=True)
    frames: list[float] = []
    _display = app._display

    def display(screen, renderable):  # noqa: ANN001
        _display(screen, renderable)
        if renderable is not None:
            frames.append(time.perf_counter())

    app._display = display
    latencies: list[float] = []
    async with app.run_test(size=(120, 36)) as pilot:
        while not frames:
            await asyncio.sleep(0.001)
        first = frames[0] - t0
        await pilot.pause(0.3)
        for _ in range(presses):
            await pilot.press("j")  # to the plain answer
            await pilot.pause()
            frames.clear()
            start = time.perf_counter()
            await pilot.press("k")  # back to the escapes
            deadline = start + 60.0
            while not frames and time.perf_counter() < deadline:
                await asyncio.sleep(0)
            if frames:
                latencies.append(frames[0] - start)
            await pilot.pause()
    return first, latencies


def old_nearest_line(text: str, quote: str) -> tuple[int, int] | None:
    """The search as it was: difflib over every line, no cutoff."""
    lines = text.splitlines(keepends=True)
    stripped = [line.rstrip("\r\n") for line in lines]
    match = difflib.get_close_matches(quote, stripped, n=1, cutoff=0.0)
    if not match:
        return None
    offset = sum(len(line) for line in lines[: stripped.index(match[0])])
    return offset, offset + len(match[0])


def best_of(work: Callable[[], object], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def nearest_cases() -> list[tuple[str, str, str]]:
    rng = random.Random(9)
    config = "\n".join(f"field_{i:05d}=value_{i * 7 % 1000}" for i in range(10_000)) + "\nread_timeout_ms=5000\n"
    wide = "\n".join("".join(rng.choice(string.ascii_letters) for _ in range(2000)) for _ in range(2000))
    ab = "\n".join("".join(rng.choice("ab") for _ in range(2000)) for _ in range(200))
    return [
        ("10,000 config lines, a near miss", config, "read_timeout_ms=2500"),
        ("2,000 lines of 2,000 letters, a short quote", wide, "read_timeout_ms=5000"),
        ("2,000 lines of 2,000 letters, a 1,800-letter quote", wide, wide[100:1900] + "x"),
        ("200 lines of 2,000 a/b, a 150-letter a/b quote", ab, "".join(rng.choice("ab") for _ in range(150))),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--escapes", type=int, nargs="*", default=[0, 8_000, 20_000, 50_000])
    parser.add_argument("--presses", type=int, default=7)
    parser.add_argument("--old", action="store_true", help="also time today's difflib search (slow: seconds)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        for count in args.escapes:
            first, latencies = asyncio.run(open_and_press(escape_suite(Path(folder), count), args.presses))
            press = (f"median {1000 * statistics.median(latencies):6.1f} ms  max {1000 * max(latencies):6.1f} ms"
                     if latencies else "no frame")
            print(f"{count:>6,} escapes: open to first frame {1000 * first:6.0f} ms;  k press to frame {press}")

    for label, text, quote in nearest_cases():
        new = best_of(lambda: nearest_line(text, quote), 5)
        line = f"nearest line, {label}: bounded {1000 * new:6.2f} ms"
        if args.old:
            old = best_of(lambda: old_nearest_line(text, quote), 1)
            same = "same line" if old_nearest_line(text, quote) == nearest_line(text, quote) else "another line"
            line += f"  difflib {1000 * old:8.1f} ms  ({same})"
        print(line)


if __name__ == "__main__":
    main()
