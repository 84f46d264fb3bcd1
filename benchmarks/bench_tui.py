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
4. Edit → repaint (goal: one frame): a claim's value changed as ``e`` changes it,
   posted as ``AnswerChanged``, to the frame that shows the re-verified case, on
   the article's accepted case and on an accepted case of the generated suite
   (each edit undone, untimed, before the next: every edit is the case's first);
   then a change that drops a claim, whose resized claims panel costs a layout
   pass (counted, the undo's too).
5. The raw editor (``E``): open, and a keystroke to its repaint, each keystroke
   verified again, on a normal answer, a 24 KB one-line answer (the size limit),
   and answers of 8,000 and 50,000 characters the editor shows escaped.

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
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

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


class Instrumented:
    """An app whose frames are timed and whose layout passes are counted.

    ``frames`` gets the time of each composed update (the frame Textual hands the
    terminal) and ``render_costs`` what rendering it to terminal bytes took;
    ``layouts[0]`` counts Textual's whole-screen layout passes."""

    def __init__(self, app) -> None:  # noqa: ANN001
        from rich.console import Console
        from textual.screen import Screen

        self.frames: list[float] = []
        self.render_costs: list[float] = []
        self.screens: list[str] = []  # the screen each frame showed
        self.layouts = [0]
        console = Console(width=120, height=36, force_terminal=True, color_system="truecolor",
                          file=open("/dev/null", "w"))
        _display = app._display

        def display(screen, renderable):  # noqa: ANN001
            _display(screen, renderable)
            if renderable is not None:
                start = time.perf_counter()
                renderable.render_segments(console)  # the bytes a terminal would get
                self.render_costs.append(time.perf_counter() - start)
                self.frames.append(time.perf_counter())
                self.screens.append(type(screen).__name__)

        app._display = display
        # Count Textual's layout passes (a whole-screen reflow each): changing case should
        # repaint panels of fixed size, never lay the screen out again.
        self._refresh_layout = refresh_layout = Screen._refresh_layout
        layouts = self.layouts

        def counted(screen, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
            layouts[0] += 1
            return refresh_layout(screen, *args, **kwargs)

        Screen._refresh_layout = counted

    def restore(self) -> None:
        from textual.screen import Screen

        Screen._refresh_layout = self._refresh_layout

    async def time_to_frame(self, pilot, act) -> float | None:  # noqa: ANN001
        """Seconds from ``act()`` to the next composed frame, its bytes included."""
        self.frames.clear()
        self.render_costs.clear()
        start = time.perf_counter()
        await act()
        deadline = start + 10.0
        while not self.frames and time.perf_counter() < deadline:
            await asyncio.sleep(0)
        latency = self.frames[0] - start + self.render_costs[0] if self.frames else None
        await pilot.pause()
        return latency


def figures(latencies: list[float]) -> str:
    latencies = sorted(latencies)
    median = statistics.median(latencies) * 1000
    p95 = latencies[max(0, int(len(latencies) * 0.95) - 1)] * 1000
    return f"median {median:5.1f} ms  p95 {p95:5.1f} ms"


async def keys(suites, presses: int, label: str) -> None:
    from inspector.tui.app import make_app

    t0 = time.perf_counter()
    app = make_app(suites, freeze_gc=True)  # as the CLI runs it
    timed = Instrumented(app)
    frames, layouts = timed.frames, timed.layouts
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
                latency = await timed.time_to_frame(pilot, partial(pilot.press, pressed))
                if latency is not None:
                    latencies.append(latency)
            print(f"{label}: key {key!r} press to repaint  {figures(latencies)}  "
                  f"({len(latencies)} presses, {layouts[0]} layout passes)")
    timed.restore()


async def edits(suites, presses: int, label: str, case_id: str) -> None:
    """Edit → repaint: a change of the current claim applied as ``e`` applies it (the
    form's ``ClaimForm.change``, posted as ``AnswerChanged``), to the frame that shows it;
    the value alternates so that every change changes the verdict's inputs.  Then a
    change that drops a claim, which resizes the claims panel: a layout pass, counted."""
    from inspector.lab.mutations import MUTATIONS_BY_NAME
    from inspector.presentation.editors import claim_form
    from inspector.tui.app import make_app
    from inspector.tui.messages import AnswerChanged

    app = make_app(suites, freeze_gc=True)
    timed = Instrumented(app)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        main = app.main
        main.open_case(app.session.find_id(case_id))
        await pilot.pause(0.3)
        form = claim_form(main.selection.report, 0)  # what e opens
        changes = [form.change({**form.values, "value": form.values["value"] + suffix}) for suffix in ("1", "2")]
        drop = next(MUTATIONS_BY_NAME["claim.drop"].mutants(form.answer, 0)).change()
        for name, chosen in (("value edited", changes), ("claim dropped", [drop])):
            latencies = []
            timed.layouts[0] = 0
            for index in range(presses):
                change = chosen[index % len(chosen)]
                latency = await timed.time_to_frame(pilot, partial(_post, main, AnswerChanged(change)))
                if latency is not None:
                    latencies.append(latency)
                main.action_undo()  # back to the frozen case: each edit is the case's first
                await pilot.pause()
            print(f"{label}: edit → repaint ({name}, {case_id})  {figures(latencies)}  "
                  f"({len(latencies)} edits, {timed.layouts[0]} layout passes, the undos' included)")
    timed.restore()


async def _post(main, message) -> None:  # noqa: ANN001
    main.post_message(message)


async def raw_editor(path: Path, presses: int, label: str) -> None:
    """The raw editor (``E``): opening it, and a keystroke to its repaint (typing a
    character and deleting it in turn, each verified again)."""
    from inspector.suites.load import load_suite
    from inspector.tui.app import make_app

    app = make_app([load_suite(path, strict=False)], freeze_gc=True)
    timed = Instrumented(app)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        timed.screens.clear()
        timed.frames.clear()
        start = time.perf_counter()
        await pilot.press("E")
        while "RawEditorScreen" not in timed.screens:  # the editor's first frame
            await asyncio.sleep(0)
        opened = timed.frames[timed.screens.index("RawEditorScreen")] - start
        await pilot.pause(0.3)
        size = len(app.screen.editor.text)
        latencies = []
        timed.layouts[0] = 0
        for index in range(presses):
            latency = await timed.time_to_frame(pilot, partial(pilot.press, "x" if index % 2 == 0 else "backspace"))
            if latency is not None:
                latencies.append(latency)
        print(f"{label}: raw editor ({size:,} characters) open {1000 * opened:.0f} ms, "
              f"keystroke to repaint  {figures(latencies)}  ({len(latencies)} keys, {timed.layouts[0]} layout passes)")
    timed.restore()


def raw_answers(folder: Path) -> list[tuple[str, Path]]:
    """Answers for the raw editor: the article's accepted case, one of the size limit
    (a one-line answer of 24 KB), and answers of 8,000 and 50,000 characters it shows escaped."""
    from bench_render import REQUEST, SOURCE, escape_suite

    plain = ROOT / "fixtures" / "article.json"
    data = json.loads(plain.read_text(encoding="utf-8"))
    data["cases"] = [case for case in data["cases"] if case["id"] == "complete-answer"]
    normal = folder / "normal.json"
    normal.write_text(json.dumps(data), encoding="utf-8")
    claim = {"field": "read_timeout_ms", "value": "5000", "doc": "prod-v2", "quote": "read_timeout_ms=5000"}
    padding = 24_000 - len(json.dumps({"claims": [claim]}))
    raw = json.dumps({"claims": [{**claim, "quote": claim["quote"] + " " * padding}]})
    limit = folder / "limit.json"
    limit.write_text(json.dumps({"sources": [SOURCE], "cases": [
        {"id": "limit", "raw": raw, "request": REQUEST, "expected": "QUOTE_NOT_SUPPORTING"}]}), encoding="utf-8")
    return [("a normal answer", normal), ("24 KB on one line", limit),
            ("8,000 escapes", escape_suite(folder, 8_000)), ("50,000 escapes", escape_suite(folder, 50_000))]


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
    asyncio.run(edits(bundled, args.presses, "bundled suites", "complete-answer"))

    with tempfile.TemporaryDirectory() as folder:
        path = generated_suite(Path(folder), args.cases, args.sources)
        start = time.perf_counter()
        suite = load_suite(path, strict=False)
        loaded = time.perf_counter() - start
        print(f"generated suite: {len(suite.cases)} cases over {len(suite.registry)} sources, "
              f"loaded in {1000 * loaded:.0f} ms")
        asyncio.run(keys([suite], args.presses, "generated suite"))
        asyncio.run(edits([suite], args.presses, "generated suite", f"case-{args.cases // 2 // 6 * 6:05d}"))

    with tempfile.TemporaryDirectory() as folder:
        for label, path in raw_answers(Path(folder)):
            asyncio.run(raw_editor(path, min(args.presses, 20), label))


if __name__ == "__main__":
    main()
