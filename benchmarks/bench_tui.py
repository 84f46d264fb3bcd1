"""How fast the inspector feels.  Prints figures; asserts nothing.

    .venv/bin/python benchmarks/bench_tui.py [--presses N] [--cases N] [--sources N]

1. Process start to first full paint on the bundled suites (goal: under 1 s):
   a fresh interpreter imports inspector, loads the suites, builds the app and
   runs it headless until the first frame has been composed.
2. Key press to repaint for n, p, j, k (goal: one frame, 16 ms): the time from
   posting the key to the composed update (the frame Textual hands the terminal),
   plus that update rendered to terminal bytes; median and p95.  Also how many
   whole-screen layout passes the presses caused (the goal is none: a layout pass
   costs more than a frame here, and it is a count, not a noisy time).
3. The same with a generated suite of 10,000 cases over 1,000 sources: time to
   open (load + first paint, in-process) and the per-key figures.

Headless Textual composes exactly what it would send to a terminal but skips
the write; the bytes are rendered here too so the figure includes them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

STARTUP = r"""
import time, sys
from inspector.suites.load import bundled_suite_paths, load_suite
from inspector.tui.app import make_app

app = make_app([load_suite(p, strict=False) for p in bundled_suite_paths()], freeze_gc=True)
_display = app._display
def display(screen, renderable):
    _display(screen, renderable)
    if renderable is not None and not getattr(app, "_painted", False):
        app._painted = True
        print("painted", flush=True)
        app.exit()
app._display = display
app.run(headless=True, size=(120, 36))
"""


def startup(runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-c", STARTUP], stdout=subprocess.PIPE, text=True, cwd=ROOT)
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.strip() == "painted":
                times.append(time.perf_counter() - start)
                break
        proc.wait()
    return times


def generated_suite(folder: Path, cases: int, sources: int) -> Path:
    """A suite of ``cases`` answers over ``sources`` sources, every verdict kind mixed."""
    source_list = []
    for i in range(sources):
        revision = "v2" if i % 3 else "v1"
        environment = "prod" if i % 5 else "dev"
        source_list.append({
            "id": f"src-{i:04d}", "service": "payments", "environment": environment, "revision": revision,
            "facts": {"read_timeout_ms": str(1000 + i), "retry_enabled": "true" if i % 2 else "false",
                      "max_connections": str(10 + i % 90)},
            "text": f"# source {i}\nread_timeout_ms={1000 + i}\nretry_enabled={'true' if i % 2 else 'false'}\n"
                    f"max_connections={10 + i % 90}\n",
        })
    case_list = []
    for n in range(cases):
        i = n % sources
        source = source_list[i]
        facts = source["facts"]
        kind = n % 6
        claims = [
            {"field": "read_timeout_ms", "value": facts["read_timeout_ms"], "doc": source["id"],
             "quote": f"read_timeout_ms={facts['read_timeout_ms']}"},
            {"field": "retry_enabled", "value": facts["retry_enabled"], "doc": source["id"],
             "quote": f"retry_enabled={facts['retry_enabled']}"},
        ]
        if kind == 1:
            claims[0]["value"] = "5s"
        elif kind == 2:
            claims[1]["quote"] = f"read_timeout_ms={facts['read_timeout_ms']}"
        elif kind == 3:
            claims[0]["doc"] = "nowhere"
        raw = json.dumps({"claims": claims}, indent=2)
        if kind == 4:
            raw = raw + " trailing"
        request = {"service": "payments", "environment": source["environment"], "revision": "v2",
                   "fields": ["read_timeout_ms", "retry_enabled"],
                   "supplied": [source["id"], source_list[(i + 1) % sources]["id"]]}
        case_list.append({"id": f"case-{n:05d}", "raw": raw, "request": request, "expected": "ACCEPT",
                          "note": f"generated case {n}"})
    path = folder / "generated.json"
    path.write_text(json.dumps({"kind": "inspector.suite/1", "description": "generated for the benchmark",
                                "sources": source_list, "cases": case_list}))
    return path


async def keys(suites, presses: int, label: str) -> None:
    from rich.console import Console

    from inspector.tui.app import make_app

    t0 = time.perf_counter()
    app = make_app(suites, freeze_gc=True)  # as the CLI runs it
    frames: list[float] = []
    render_costs: list[float] = []
    console = Console(width=120, height=36, force_terminal=True, color_system="truecolor", file=open("/dev/null", "w"))
    _display = app._display

    def display(screen, renderable):  # noqa: ANN001
        _display(screen, renderable)
        if renderable is not None:
            start = time.perf_counter()
            renderable.render_segments(console)  # the bytes a terminal would get
            render_costs.append(time.perf_counter() - start)
            frames.append(time.perf_counter())

    app._display = display
    # Count Textual's layout passes (a whole-screen reflow each): changing case should
    # repaint panels of fixed size, never lay the screen out again.
    from textual.screen import Screen

    layouts = [0]
    refresh_layout = Screen._refresh_layout

    def counted(screen, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
        layouts[0] += 1
        return refresh_layout(screen, *args, **kwargs)

    Screen._refresh_layout = counted
    async with app.run_test(size=(120, 36)) as pilot:
        while not frames:
            await asyncio.sleep(0.001)
        print(f"{label}: open (app built, mounted, first frame) {1000 * (frames[0] - t0):.0f} ms")
        await pilot.pause()
        # "j fresh": j pressed again and again, each press opening a case not seen
        # before (the others alternate, so every other press returns to a case).
        for key in ("n", "p", "j", "k", "j fresh"):
            if key in ("j", "k", "j fresh"):
                # From the middle of the list, so that every press opens another case
                # (k on the first case would do nothing and time the next footer redraw).
                app.main.open_case(len(app.session) // 2)
            await pilot.pause(0.3)  # the footer's deferred redraw lands before timing starts
            latencies = []
            layouts[0] = 0
            for index in range(presses):
                # alternate direction so every press changes something
                if key == "j fresh":
                    pressed = "j"
                else:
                    pressed = key if index % 2 == 0 else {"n": "p", "p": "n", "j": "k", "k": "j"}[key]
                frames.clear()
                render_costs.clear()
                start = time.perf_counter()
                await pilot.press(pressed)
                deadline = start + 1.0
                while not frames and time.perf_counter() < deadline:
                    await asyncio.sleep(0)
                if frames:
                    latencies.append(frames[0] - start + render_costs[0])
                await pilot.pause()
            latencies.sort()
            median = statistics.median(latencies) * 1000
            p95 = latencies[max(0, int(len(latencies) * 0.95) - 1)] * 1000
            print(f"{label}: key {key!r} press to repaint  median {median:5.1f} ms  p95 {p95:5.1f} ms  "
                  f"({len(latencies)} presses, {layouts[0]} layout passes)")
    Screen._refresh_layout = refresh_layout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presses", type=int, default=60)
    parser.add_argument("--startup-runs", type=int, default=5)
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--sources", type=int, default=1_000)
    args = parser.parse_args()

    from inspector.suites.load import bundled_suite_paths, load_suite

    times = startup(args.startup_runs)
    print(f"bundled suites: process start to first paint  median {1000 * statistics.median(times):.0f} ms  "
          f"max {1000 * max(times):.0f} ms  ({len(times)} runs)")
    bundled = [load_suite(path, strict=False) for path in bundled_suite_paths()]
    asyncio.run(keys(bundled, args.presses, "bundled suites"))

    with tempfile.TemporaryDirectory() as folder:
        path = generated_suite(Path(folder), args.cases, args.sources)
        start = time.perf_counter()
        suite = load_suite(path, strict=False)
        loaded = time.perf_counter() - start
        print(f"generated suite: {len(suite.cases)} cases over {len(suite.registry)} sources, "
              f"loaded in {1000 * loaded:.0f} ms")
        asyncio.run(keys([suite], args.presses, "generated suite"))


if __name__ == "__main__":
    main()
