"""The inspector on a 1,000,000-line log: how soon the overview is there, and
how a key feels while the worker verifies.  Prints figures; asserts nothing.

    .venv/bin/python benchmarks/bench_triage_tui.py [--lines 1000000] [--dir /tmp/triage-tui-bench]
                                                     [--runs 3] [--presses 40]

1. Process start to the overview on screen (goal: within 1 s): a fresh
   interpreter builds the app on the log (``inspector triage LOG --registry G``)
   and runs it headless until the overview's first frame; then, in the same
   process, until the first partial counts are drawn and until everything is
   counted (both cores: the engine's processes).
2. Key press to repaint while the worker runs (goal: one frame, 16 ms): the
   overview's movement keys (j k G g PgDn PgUp) and o, each timed from posting
   the key to the composed update plus its rendering to terminal bytes (as
   ``bench_tui.py``); only presses made while the worker was still counting are
   kept.  And the time histogram following the selected group: from a j to the
   group's histogram drawn (a worker sweeps the snapshot's series), while
   counting and once counted; p to the pivot view's first frame, j there.
3. A group opened (Enter to the records' first frame) once counted: the largest
   (ACCEPT, ~450,000 records) and a metadata group (model=llama-z), j in the
   records view (each press a record reread from its offset), G on each, and
   the case filter typed over the whole group (/ then each letter).
4. Peak memory of the process (ru_maxrss; the engine's workers are apart).

The log is made by ``inspector.triage.synth`` (the default mix, ~570 bytes a
line) into ``--dir`` when absent.  The machine is shared: the load average
before each part is printed, and figures taken above a load of 2 are someone
else's too.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

STARTUP = r"""
import sys, time
start = float(sys.argv[3])
from inspector.suites.load import load_registry
from inspector.tui.app import make_triage_app
from inspector.presentation.overview import triage_run

app = make_triage_app(triage_run([sys.argv[1]], load_registry(sys.argv[2]), sys.argv[2], ("model",)))
_display = app._display
marks = {}
def display(screen, renderable):
    _display(screen, renderable)
    if renderable is None:
        return
    now = time.time()
    overview = app.overview
    if "painted" not in marks and overview.is_mounted:
        marks["painted"] = now
    if "partial" not in marks and overview.counted is not None:
        marks["partial"] = now
    if overview.counted is not None and overview.counted.done:
        marks["done"] = now
        print(" ".join(f"{key}={value - start:.3f}" for key, value in marks.items()),
              overview.counted.lines, flush=True)
        app.exit()
app._display = display
app.run(headless=True, size=(120, 36))
"""


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load {one:.2f} (5 min {five:.2f})"


def prepare(folder: Path, lines: int) -> tuple[Path, Path]:
    from inspector.triage.synth import write_log, write_registry

    folder.mkdir(parents=True, exist_ok=True)
    registry = folder / "registry.json"
    if not registry.exists():
        write_registry(registry)
    log = folder / f"log-{lines}.jsonl"
    if not log.exists():
        started = time.perf_counter()
        part = log.with_suffix(".part")
        write_log(part, lines, seed=0)
        part.rename(log)
        print(f"wrote {log} ({log.stat().st_size / 1e6:.0f} MB) in {time.perf_counter() - started:.0f} s")
    return log, registry


def startup(log: Path, registry: Path, runs: int) -> None:
    for run in range(runs):
        before = load()
        start = time.time()
        proc = subprocess.run([sys.executable, "-c", STARTUP, str(log), str(registry), repr(start)],
                              capture_output=True, text=True, cwd=ROOT)
        if proc.returncode:
            raise SystemExit(proc.stderr[-2000:])
        marks, _, lines = proc.stdout.strip().rpartition(" ")
        figures = dict(part.split("=") for part in marks.split())
        print(f"run {run + 1}: overview on screen {1000 * float(figures['painted']):.0f} ms from process start · "
              f"first counts drawn {float(figures['partial']):.2f} s · all {int(lines):,} lines counted "
              f"{float(figures['done']):.2f} s  ({before})")


async def keys(log: Path, registry: Path, presses: int) -> None:
    from rich.console import Console
    from textual.screen import Screen

    from inspector.suites.load import load_registry
    from inspector.tui.app import make_triage_app
    from inspector.tui.screens.records import RecordsScreen
    from inspector.presentation.overview import triage_run
    from inspector.tui.widgets.group_table import GroupTable
    from inspector.tui.widgets.time_table import TimeTable

    app = make_triage_app(triage_run([str(log)], load_registry(registry), str(registry), ("model",)))
    frames: list[float] = []
    render_costs: list[float] = []
    console = Console(width=120, height=36, force_terminal=True, color_system="truecolor",
                      file=open(os.devnull, "w"))  # noqa: SIM115 - for the process's life
    _display = app._display

    def display(screen, renderable):  # noqa: ANN001
        _display(screen, renderable)
        if renderable is not None:
            start = time.perf_counter()
            renderable.render_segments(console)
            render_costs.append(time.perf_counter() - start)
            frames.append(time.perf_counter())

    app._display = display
    layouts = [0]
    refresh_layout = Screen._refresh_layout

    def counted_layout(screen, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
        layouts[0] += 1
        return refresh_layout(screen, *args, **kwargs)

    Screen._refresh_layout = counted_layout

    async def press(pilot, key: str) -> float | None:  # noqa: ANN001
        frames.clear()
        render_costs.clear()
        start = time.perf_counter()
        await pilot.press(key)
        deadline = start + 2.0
        while not frames and time.perf_counter() < deadline:
            await asyncio.sleep(0)
        return frames[0] - start + render_costs[0] if frames else None

    def figures(latencies: list[float]) -> str:
        latencies = sorted(latencies)
        if not latencies:
            return "no presses"
        p95 = latencies[max(0, int(len(latencies) * 0.95) - 1)]
        return (f"median {1000 * statistics.median(latencies):5.1f} ms  p95 {1000 * p95:5.1f} ms  "
                f"max {1000 * latencies[-1]:5.1f} ms ({len(latencies)} presses)")

    async with app.run_test(size=(120, 36)) as pilot:
        screen = app.overview
        while screen.counted is None:
            await pilot.pause(0.01)
        print(f"keys on the overview while the worker counts ({load()}):")
        moves = ("j", "k", "G", "g", "pagedown", "pageup", "o")
        by_key: dict[str, list[float]] = {key: [] for key in moves}
        layouts[0] = 0
        for index in range(presses):
            if screen.counted.done:
                break
            key = moves[index % len(moves)]
            found = await press(pilot, key)
            if found is not None and not screen.counted.done:
                by_key[key].append(found)
            await pilot.pause(0.05)
        for key, latencies in by_key.items():
            print(f"  {key:8} press to repaint  {figures(latencies)}")
        print(f"  {layouts[0]} layout passes")
        table = screen.query_one(GroupTable)
        time_table = screen.query_one(TimeTable)

        shown_at: dict[str, float] = {}
        set_shown = time_table.set_shown

        def noted(shown):  # noqa: ANN001
            set_shown(shown)
            if shown.group is not None:
                shown_at[shown.group] = time.perf_counter()

        time_table.set_shown = noted

        async def follow() -> float | None:
            """j, then until the histogram shows the group the cursor went to (timed when it is set, not
            when the Pilot's press returns: that waits for the app to be idle)."""
            shown_at.clear()
            start = time.perf_counter()
            await pilot.press("j")
            while time.perf_counter() - start < 5.0:
                current = table.current
                if current is not None and current.name in shown_at:
                    return shown_at[current.name] - start
                await asyncio.sleep(0.002)
            return None

        table.move_cursor(0)
        drawn = []
        for _ in range(presses // 4):
            if screen.counted.done:
                break
            found = await follow()
            if found is not None and not screen.counted.done:
                drawn.append(found)
            await pilot.pause(0.2)
        print(f"  j to the group's time histogram drawn, while counting  {figures(drawn)}")
        while not screen.counted.done:
            await pilot.pause(0.05)
        table.move_cursor(0)
        await pilot.pause(0.5)
        drawn = []
        for _ in range(presses // 2):
            found = await follow()
            if found is not None:
                drawn.append(found)
        print(f"  j to the group's time histogram drawn, once counted  {figures(drawn)}")
        started = time.perf_counter()
        opened = await press(pilot, "p")
        print(f"  p to the pivot view's first frame {1000 * (opened or 0):.0f} ms")
        await pilot.pause(0.5)
        latencies = []
        for _ in range(presses // 2):
            found = await press(pilot, "j")
            if found is not None:
                latencies.append(found)
            await pilot.pause(0.02)
        print(f"  j in the pivot view  {figures(latencies)}")
        await pilot.press("escape")
        await pilot.pause(0.2)
        print(f"  counted {screen.counted.lines:,} lines in {screen.counted.seconds:.2f} s "
              f"({screen.counted.lines / screen.counted.seconds:,.0f} lines/s)")
        table = screen.query_one(GroupTable)
        for name in ("ACCEPT", "model=llama-z"):
            table.move_cursor(next(row for row, group in enumerate(table.groups) if group.name == name))
            await pilot.pause(0.1)
            opened = await press(pilot, "enter")
            while not isinstance(app.screen, RecordsScreen):
                await pilot.pause(0.01)
            await pilot.pause(0.3)
            records = app.screen
            print(f"group {name} ({len(records.session):,} records): Enter to the first frame "
                  f"{1000 * (opened or 0):.0f} ms  ({load()})")
            latencies = []
            for _ in range(presses):
                found = await press(pilot, "j")
                if found is not None:
                    latencies.append(found)
                await pilot.pause(0.02)
            print(f"  j (a record not seen before) press to repaint  {figures(latencies)}")
            started = time.perf_counter()
            last = await press(pilot, "G")
            print(f"  G (the group's last record) {1000 * (last or time.perf_counter() - started):.0f} ms")
            # The case filter over the whole group: each letter a search of every record (by label
            # for "v", "va", ...; ":1" can be in a place, so each record's place is looked at too).
            for typed in ((("a", "ac") if name == "ACCEPT" else ("v", "va", "val")), (":", ":1")):
                await pilot.press("slash")
                await pilot.pause(0.1)
                for text in typed:
                    started = time.perf_counter()
                    await pilot.press(text[-1])
                    while records.browse.text != text and time.perf_counter() < started + 10:
                        await asyncio.sleep(0)
                    searched = time.perf_counter()  # the filter applied (the search runs in the handler)
                    frames.clear()
                    render_costs.clear()
                    while not frames and time.perf_counter() < searched + 0.25:
                        await asyncio.sleep(0)
                    drawn = f", drawn {1000 * (frames[0] - started + render_costs[0]):.0f} ms" if frames else ""
                    print(f"  filter {text!r}: press to the filter applied {1000 * (searched - started):.0f} ms"
                          f"{drawn}, {len(records.browse.visible):,} records shown")
                await pilot.press("escape")  # the filter cleared
                await pilot.pause(0.2)
            await pilot.press("escape")
            await pilot.pause(0.2)
    Screen._refresh_layout = refresh_layout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/triage-tui-bench"))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--presses", type=int, default=40)
    args = parser.parse_args()
    log, registry = prepare(args.dir, args.lines)
    print(f"{log} · {log.stat().st_size / 1e6:.0f} MB · {os.cpu_count()} cores")
    startup(log, registry, args.runs)
    asyncio.run(keys(log, registry, args.presses))
    print(f"peak memory of the inspector's process {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
