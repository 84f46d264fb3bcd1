"""What the mutation report screen (``M``) costs.  Prints figures; asserts nothing.

    .venv/bin/python benchmarks/bench_mutation_report.py [--presses N] [--skip-bundled] [--skip-large]

On the bundled suites, then on the 8,001-source registry of ``bench_mutate.py``
(10 accepted cases, ~480,000 mutants), headless Textual at 120×36, each from a
fresh app:

- ``M`` to the first frame of the screen (its loading line), and to the frame
  that shows the computed report (the peak resident memory of the process then);
- on the report: ``j``/``k`` press to repaint, ``M`` again once it is kept, and
  Enter on the verdict code that killed most to the frame of its list;
- when the computation takes over a second: ``j``/``k`` press to repaint while it
  runs, and ``Esc`` to the main view's frame, then how long the computation
  takes to stop after it (it checks every 1,024 mutants).

Times are from posting the key to the first composed update Textual hands the
terminal in the awaited state (as ``bench_tui.py``); a frame is 16.7 ms.
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


class Probe:
    """The inspector headless at 120×36, every frame it draws logged with what the
    screen was then; keys posted without waiting (``pilot.press`` waits for the
    process to go idle, and a computing worker keeps it busy)."""

    def __init__(self, suites) -> None:  # noqa: ANN001 - the suites
        from inspector.tui.app import make_app

        self.app = make_app(suites, freeze_gc=True)
        self.log: list[tuple[float, str]] = []
        display = self.app._display

        def logged(screen, renderable):  # noqa: ANN001
            display(screen, renderable)
            if renderable is not None:
                self.log.append((time.perf_counter(), self.state()))

        self.app._display = logged

    def state(self) -> str:
        from inspector.tui.screens.mutation_report import MutationReportScreen

        screen = self.app.screen
        if isinstance(screen, MutationReportScreen):
            if screen.prepared is None:
                return "computing"
            return "listed" if screen.listed is not None else "computed"
        return "main" if screen is self.app.main else "other"

    async def press(self, key: str, wanted: tuple[str, ...] | None = None) -> float:
        """Seconds from the key to the first frame drawn in one of the ``wanted`` states."""
        start = time.perf_counter()
        self.app.simulate_key(key)
        return await self.drawn(start, wanted)

    async def drawn(self, since: float, wanted: tuple[str, ...] | None = None) -> float:
        while time.perf_counter() < since + 300:
            found = [t for t, state in self.log if t >= since and (wanted is None or state in wanted)]
            if found:
                return found[0] - since
            await asyncio.sleep(0.001)
        raise RuntimeError(f"no frame in the {wanted} state")


def _running():  # noqa: ANN202 - a counter of computations under way
    """Count the computations under way: a cancelled worker's thread runs on until
    the report's progress callback stops it."""
    from inspector.presentation import mutation_report

    running = [0]
    mutate = mutation_report.mutate

    def counted(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        running[0] += 1
        try:
            return mutate(*args, **kwargs)
        finally:
            running[0] -= 1

    mutation_report.mutate = counted
    return running


async def measure(suites, label: str, presses: int) -> None:  # noqa: ANN001 - the suites
    from inspector.tui.widgets.report_table import ReportTable

    running = _running()
    # M, and the frames that follow: the loading line, then the report.
    probe = Probe(suites)
    async with probe.app.run_test(size=(120, 36)) as pilot:
        await pilot.pause(0.3)
        start = time.perf_counter()
        loading = await probe.press("M", ("computing", "computed"))
        shown = await probe.drawn(start, ("computed",))
        report = probe.app.screen.prepared.report
        print(f"{label}: M to the loading line          {1000 * loading:8.1f} ms")
        print(f"{label}: M to the report drawn          {1000 * shown:8.1f} ms  ({len(report.results)} mutants of "
              f"{len(report.parents)} accepted cases; peak RSS {_peak_mb():.0f} MB)")
        await pilot.pause(0.3)
        latencies = []
        for index in range(presses):
            latencies.append(await probe.press("j" if index % 2 == 0 else "k"))
            await pilot.pause()
        latencies.sort()
        print(f"{label}: j/k on the report              {1000 * statistics.median(latencies):8.1f} ms median, "
              f"p95 {1000 * latencies[max(0, int(len(latencies) * 0.95) - 1)]:.1f} ms")
        await probe.press("escape", ("main",))
        await pilot.pause(0.3)
        again = await probe.press("M", ("computed",))
        print(f"{label}: M again (the report kept)      {1000 * again:8.1f} ms")
        table = probe.app.screen.query_one(ReportTable)
        killed_by = report.killed_by
        largest = max(killed_by, key=killed_by.__getitem__)
        row = next(n for n, item in enumerate(table.items) if getattr(item, "label", None) == largest)
        table.go_to(row)
        await pilot.pause(0.3)
        listed = await probe.press("enter", ("listed",))
        print(f"{label}: Enter on {largest} ({killed_by[largest]} mutants) to its list {1000 * listed:.1f} ms")
    if shown < 1:
        return
    # A long computation: keys while it runs, and Esc, which stops it.
    probe = Probe(suites)
    async with probe.app.run_test(size=(120, 36)) as pilot:
        await pilot.pause(0.3)
        await probe.press("M", ("computing",))
        await asyncio.sleep(1)
        during = [await probe.press(key) for key in "jkjkjkjk"]
        escape = await probe.press("escape", ("main",))
        start = time.perf_counter()
        while running[0]:
            await asyncio.sleep(0.002)
        stopped = time.perf_counter() - start
        print(f"{label}: j/k while it computes          {1000 * statistics.median(during):8.1f} ms median, "
              f"slowest {1000 * max(during):.1f} ms")
        print(f"{label}: Esc while it computes          {1000 * escape:8.1f} ms to the main view; the "
              f"computation stopped {1000 * stopped:.0f} ms after")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presses", type=int, default=30)
    parser.add_argument("--skip-bundled", action="store_true", help="only the 8,001-source registry")
    parser.add_argument("--skip-large", action="store_true", help="leave out the 8,001-source registry")
    args = parser.parse_args()

    from inspector.suites.load import bundled_suite_paths, load_suite

    bundled = [load_suite(path, strict=False) for path in bundled_suite_paths()]
    if not args.skip_bundled:
        asyncio.run(measure(bundled, "bundled suites", args.presses))
    if not args.skip_large:
        from bench_mutate import wide_suite

        with tempfile.TemporaryDirectory() as directory:
            suite = load_suite(wide_suite(directory), strict=False)
            asyncio.run(measure([suite], "8,001 sources", args.presses))


if __name__ == "__main__":
    main()
