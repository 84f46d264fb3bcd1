"""What large, trusted-size input files cost to load, lint, audit and paint.
Prints figures; asserts nothing.

    .venv/bin/python benchmarks/bench_load.py [--megabytes N] [--fields N] [--skip-tui]

Each figure is one fresh interpreter doing one thing (so its peak resident
memory, the kernel's VmHWM, is that thing's alone; the same
interpreter with inspector imported and nothing loaded is printed as the
baseline):

1. A suite of about 33 MB (many ordinary cases) loaded as it is, and the same
   suite with one duplicate key in its last case (refused with both places).
2. A suite nested 990 and 100,000 levels deep (refused before any recursive
   step).
3. A registry of 8,000 sources with 8,000 distinct fact fields (one each, all
   in one service/environment/revision): ``registry lint``, ``audit`` of a
   suite over it, and the TUI's first paint of that suite (``run_test``, as
   benchmarks/bench_tui.py measures paint).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run in a child: the statement's wall time and the child's peak RSS.
_CHILD = r"""
import sys, time
sys.path.insert(0, {root!r})
import inspector.suites.load, inspector.suites.lint, inspector.reports.audit
{setup}
start, cpu = time.perf_counter(), time.process_time()
try:
    {statement}
except Exception as exc:
    outcome = type(exc).__name__ + ": " + str(exc)[:110]
else:
    outcome = "ok"
seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the parent across exec.
peak = next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(f"{{seconds}} {{cpu}} {{peak}} {{outcome}}")
"""


def measure(statement: str, setup: str = "") -> tuple[float, float, float, str]:
    """(wall seconds, CPU seconds, peak RSS in MB, outcome) of ``statement`` in a
    fresh interpreter (CPU time is the steadier figure on a shared machine)."""
    code = _CHILD.format(root=str(ROOT), setup=setup, statement=statement)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    seconds, cpu, rss, outcome = proc.stdout.strip().splitlines()[-1].split(" ", 3)
    return float(seconds), float(cpu), int(rss) / 1024, outcome


def report(label: str, statement: str, setup: str = "") -> None:
    seconds, cpu, peak, outcome = measure(statement, setup)
    print(f"{label:<48} {seconds * 1000:7.0f} ms (cpu {cpu * 1000:6.0f} ms)  peak {peak:5.0f} MB   {outcome}",
          flush=True)


# -- inputs ----------------------------------------------------------------------


def big_suite(folder: Path, megabytes: float) -> tuple[Path, Path]:
    """An ordinary suite of about ``megabytes`` MB, and a copy whose last case
    repeats its ``note`` key."""
    sources = [{"id": f"src-{i}", "service": "payments", "environment": "prod", "revision": "v2",
                "facts": {"read_timeout_ms": str(1000 + i), "retry_enabled": "true"},
                "text": f"read_timeout_ms={1000 + i}\nretry_enabled=true\n"} for i in range(100)]
    cases = []
    size = 0
    while size < megabytes * 1_000_000:
        n = len(cases)
        claims = [{"field": "read_timeout_ms", "value": str(1000 + n % 100), "doc": f"src-{n % 100}",
                   "quote": f"read_timeout_ms={1000 + n % 100}"},
                  {"field": "retry_enabled", "value": "true", "doc": f"src-{n % 100}", "quote": "retry_enabled=true"}]
        item = {"id": f"case-{n}", "raw": json.dumps({"claims": claims}, indent=2),
                "request": {"service": "payments", "environment": "prod", "revision": "v2",
                            "fields": ["read_timeout_ms", "retry_enabled"], "supplied": [f"src-{n % 100}"]},
                "expected": "ACCEPT", "note": f"generated case {n}"}
        cases.append(item)
        size += len(json.dumps(item, indent=2))
    text = json.dumps({"sources": sources, "cases": cases}, indent=2)
    plain = folder / "big.json"
    plain.write_text(text, "utf-8")
    last = text.rindex('"note": ')
    duplicate = folder / "big-duplicate.json"
    duplicate.write_text(text[:last] + '"note": "first",\n      ' + text[last:], "utf-8")
    return plain, duplicate


def deep_suite(folder: Path, depth: int) -> Path:
    path = folder / f"deep-{depth}.json"
    path.write_text('{"sources": [], "description": ' + "[" * depth + "]" * depth + "}", "utf-8")
    return path


def wide_registry(folder: Path, fields: int) -> tuple[Path, Path]:
    """A registry of ``fields`` sources, each with a fact field of its own, and a
    suite over it with a case per kind of outcome."""
    sources = [{"id": f"src-{i}", "service": "payments", "environment": "prod", "revision": "v2",
                "facts": {f"field_{i}": str(i)}, "text": f"field_{i}={i}\n"} for i in range(fields)]
    registry = folder / "wide-registry.json"
    registry.write_text(json.dumps({"sources": sources}), "utf-8")

    def answer(i: int, value: str) -> str:
        return json.dumps({"claims": [{"field": f"field_{i}", "value": value, "doc": f"src-{i}",
                                       "quote": f"field_{i}={i}"}]})

    last = fields - 1
    cases = [
        {"id": "accept", "raw": answer(0, "0"), "expected": "ACCEPT",
         "request": {"service": "payments", "environment": "prod", "revision": "v2",
                     "fields": ["field_0"], "supplied": ["src-0"]}},
        {"id": "value-far-right", "raw": answer(last, "x"), "expected": "VALUE_MISMATCH",
         "request": {"service": "payments", "environment": "prod", "revision": "v2",
                     "fields": [f"field_{last}"], "supplied": [f"src-{last}"]}},
    ]
    suite = folder / "wide-suite.json"
    suite.write_text(json.dumps({"sources": sources, "cases": cases}), "utf-8")
    return registry, suite


_PAINT = r"""
import asyncio, time
from inspector.suites.load import load_suite
from inspector.tui.app import make_app

async def first_paint(path):
    app = make_app([load_suite(path)], freeze_gc=True)
    painted = []
    _display = app._display
    def display(screen, renderable):
        _display(screen, renderable)
        if renderable is not None and not painted:
            painted.append(time.perf_counter())
    app._display = display
    async with app.run_test(size=(120, 36)) as pilot:
        while not painted:
            await asyncio.sleep(0.001)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--megabytes", type=float, default=30, help="about 33 MB written out")
    parser.add_argument("--fields", type=int, default=8_000)
    parser.add_argument("--skip-tui", action="store_true")
    args = parser.parse_args()

    report("baseline (inspector imported, nothing loaded)", "pass")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        plain, duplicate = big_suite(folder, args.megabytes)
        size = plain.stat().st_size / 1e6
        report(f"load a {size:.0f} MB suite", f"inspector.suites.load.load_suite({str(plain)!r})")
        report("load it with a duplicate key in the last case",
               f"inspector.suites.load.load_suite({str(duplicate)!r})")
        for depth in (990, 100_000):
            report(f"load a suite nested {depth:,} levels",
                   f"inspector.suites.load.load_suite({str(deep_suite(folder, depth))!r})")
        registry, suite = wide_registry(folder, args.fields)
        report(f"registry lint, {args.fields:,} sources x {args.fields:,} fields",
               f"inspector.suites.lint.lint_registry({str(registry)!r})")
        report("audit of a suite over that registry",
               f"inspector.reports.audit.audit([inspector.suites.load.load_suite({str(suite)!r})])")
        if not args.skip_tui:
            report("TUI: load that suite and paint the first frame",
                   f"asyncio.run(first_paint({str(suite)!r}))", setup=_PAINT)


if __name__ == "__main__":
    main()
