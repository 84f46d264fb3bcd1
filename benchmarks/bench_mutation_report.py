"""What the mutation report screen (``M``) costs.  Prints figures; asserts nothing.

    .venv/bin/python benchmarks/bench_mutation_report.py [--presses N] [--skip-large]

On the bundled suites, then on the 8,001-source registry of ``bench_mutate.py``
(10 accepted cases, ~480,000 mutants), headless Textual at 120×36:

- ``M`` to the first frame of the screen (its loading line), and to the frame
  that shows the computed report;
- while it computes: ``j`` press to repaint, and ``Esc`` to the main view's
  frame, then how long the worker's thread takes to stop after it;
- ``M`` again once computed (the report is kept for the session);
- on the report: ``j`` press to repaint, and Enter on the largest verdict code
  (the list of the mutants it killed) to its frame.

Times are from posting the key to the first composed update Textual hands the
terminal that shows the awaited state (as ``bench_tui.py``); a frame is 16.7 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def _peak_mb() -> float:
    with open("/proc/self/status") as status:
        kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    return kb / 1024


async def measure(suites, label: str, presses: int) -> None:  # noqa: ANN001 - the suites
    from inspector.tui.app import make_app
    from inspector.tui.screens.mutation_report import MutationReportScreen, ReportTable

    app = make_app(suites, freeze_gc=True)
    # Each frame Textual hands the terminal, with what the screen was then.
    frames: list[tuple[float, str]] = []
    _display = app._display

    def display(screen, renderable):  # noqa: ANN001
        _display(screen, renderable)
        if renderable is not None:
            frames.append((time.perf_counter(), state()))

    app._display = display

    def state() -> str:
        screen = app.screen
        if isinstance(screen, MutationReportScreen):
            if screen.prepared is None:
                return "computing"
            return "listed" if screen.listed is not None else "computed"
        return "main" if screen is app.main else "other"

    async def press(key: str, wanted: str | None = None) -> float:
        """Seconds from the key to the first frame drawn in the ``wanted`` state."""
        frames.clear()
        start = time.perf_counter()
        # Not pilot.press: it waits for the process to go idle, and the worker keeps it busy.
        app.simulate_key(key)
        deadline = start + 120
        while time.perf_counter() < deadline:
            found = [t for t, drawn in frames if wanted is None or drawn == wanted]
            if found:
                return found[0] - start
            await asyncio.sleep(0.001)
        raise RuntimeError(f"{label}: {key} never drew the {wanted} state")

    def computing() -> bool:
        return state() == "computing"

    def computed() -> bool:
        return state() == "computed"

    # When each computation really ends (a cancelled worker's thread runs on until the
    # report's progress callback stops it).
    from inspector.presentation import mutation_report

    running = [0]
    mutate = mutation_report.mutate

    def timed_mutate(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        running[0] += 1
        try:
            return mutate(*args, **kwargs)
        finally:
            running[0] -= 1

    mutation_report.mutate = timed_mutate

    def workers() -> int:
        return running[0]

    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause(0.3)
        # While it computes: M, a loading line; j and Esc answer; the worker stops.
        loading = await press("M", "computing")
        print(f"{label}: M to the loading line      {1000 * loading:7.1f} ms")
        during = []
        if computing():
            for _ in range(5):
                if not computing():
                    break
                during.append(await press("j"))
        stopped_after = None
        if computing():
            escape = await press("escape", "main")
            start = time.perf_counter()
            while workers():
                await asyncio.sleep(0.005)
            stopped_after = time.perf_counter() - start
            print(f"{label}: j while computing           {1000 * statistics.median(during):7.1f} ms median "
                  f"({len(during)} presses)" if during else f"{label}: (computed before j)")
            print(f"{label}: Esc while computing         {1000 * escape:7.1f} ms to the main view; "
                  f"the worker stopped {1000 * stopped_after:.0f} ms later")
            await pilot.pause(0.3)
            frames.clear()
            start = time.perf_counter()
            app.simulate_key("M")
        else:
            start = time.perf_counter() - loading
        while not [t for t, drawn in frames if drawn == "computed"]:
            await asyncio.sleep(0.005)
        shown = next(t for t, drawn in frames if drawn == "computed") - start
        screen = app.screen
        assert isinstance(screen, MutationReportScreen) and screen.prepared is not None
        report = screen.prepared.report
        print(f"{label}: M to the report shown        {shown:7.3f} s  ({len(report.results)} mutants, "
              f"{len(report.parents)} accepted cases; peak RSS {_peak_mb():.0f} MB)")
        await pilot.pause(0.3)
        latencies = []
        for index in range(presses):
            latencies.append(await press("j" if index % 2 == 0 else "k"))
            await pilot.pause()
        print(f"{label}: j/k on the report            {1000 * statistics.median(latencies):7.1f} ms median, "
              f"p95 {1000 * sorted(latencies)[int(len(latencies) * 0.95) - 1]:.1f} ms")
        await press("escape", "main")
        await pilot.pause(0.3)
        again = await press("M", "computed")
        print(f"{label}: M again (kept)              {1000 * again:7.1f} ms")
        table = app.screen.query_one(ReportTable)
        killed_by = report.killed_by
        largest = max(killed_by, key=killed_by.__getitem__)
        row = next(n for n, item in enumerate(table.items) if getattr(item, "label", None) == largest)
        await pilot.pause(0.3)
        app.screen.action_cursor(row - (table.cursor or 0))
        await pilot.pause(0.3)
        listed = await press("enter", "listed")
        print(f"{label}: Enter on {largest} ({killed_by[largest]} mutants) {1000 * listed:7.1f} ms to the list")
    mutation_report.mutate = mutate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presses", type=int, default=30)
    parser.add_argument("--skip-large", action="store_true", help="leave out the 8,001-source registry")
    args = parser.parse_args()

    from inspector.suites.load import bundled_suite_paths, load_suite

    bundled = [load_suite(path, strict=False) for path in bundled_suite_paths()]
    asyncio.run(measure(bundled, "bundled suites", args.presses))
    if not args.skip_large:
        from bench_mutate import wide_suite

        with tempfile.TemporaryDirectory() as directory:
            suite = load_suite(wide_suite(directory), strict=False)
            asyncio.run(measure([suite], "8,001 sources", args.presses))


if __name__ == "__main__":
    main()
