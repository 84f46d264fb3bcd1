"""What ``inspector mutate`` costs from process start to exit (goal: under 2 s on
the bundled suites).  Prints figures; asserts nothing.

    .venv/bin/python benchmarks/bench_mutate.py [--runs N]

Each run is a fresh ``python -m inspector mutate`` process (this interpreter,
so this environment's inspector), its output sent to /dev/null; the median and the
slowest of N runs are printed for the text, JSON and Stryker formats, beside
``python -c pass`` and ``inspector checks`` (the cost of starting at all), with
the number of mutants verified.  Then, once (``--skip-large`` to leave it out), a
large input: 10 accepted cases over a registry of 8,001 sources, where the
cycling mutations (``doc.other``, ``quote.other_source``) each give a mutant per
source: wall time and the peak resident memory of that process.

Then (``--skip-streaming`` to leave it out) the report streamed out: for each
format, over a tall suite (the article's three accepted cases copied
``--copies`` times: 6,000 accepted cases, ~356,000 mutants by default) and a
wide one (``--wide-cases`` cases over ``--wide-sources`` sources), the CPU
seconds, the peak resident memory and the bytes written, one process each.
The memory stays flat while the output grows with the mutants.  With
``PYTHONPATH=<another checkout>`` the commands measured are that checkout's.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INSPECTOR = [sys.executable, "-m", "inspector"]


def wall(argv: list[str], runs: int) -> tuple[float, float]:
    """(median, slowest) wall seconds of ``argv``, process start to exit."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                       env={"PATH": "/usr/bin:/bin", "COLUMNS": "180"})
        times.append(time.perf_counter() - start)
    return statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--skip-large", action="store_true", help="leave out the 8,001-source registry")
    parser.add_argument("--skip-streaming", action="store_true", help="leave out the tall and wide suites")
    parser.add_argument("--only-streaming", action="store_true", help="only the tall and wide suites")
    parser.add_argument("--copies", type=int, default=2000, help="copies of the article's accepted cases")
    parser.add_argument("--wide-cases", type=int, default=20)
    parser.add_argument("--wide-sources", type=int, default=2000)
    args = parser.parse_args()
    if args.only_streaming:
        streaming(args.copies, args.wide_cases, args.wide_sources)
        return

    document = json.loads(subprocess.run([*INSPECTOR, "mutate", "--format", "json"], cwd=ROOT,
                                         capture_output=True, text=True).stdout)
    print(f"bundled suites: {document['cases']} cases, {len(document['accepted_cases'])} accepted, "
          f"{document['mutants']} mutants, score {document['score']}")
    rows = [
        ("python -c pass", [sys.executable, "-c", "pass"]),
        ("inspector checks", [*INSPECTOR, "checks"]),
        ("inspector mutate (text)", [*INSPECTOR, "mutate"]),
        ("inspector mutate --format json", [*INSPECTOR, "mutate", "--format", "json"]),
        ("inspector mutate --format stryker", [*INSPECTOR, "mutate", "--format", "stryker"]),
        ("inspector mutate fixtures/article.json", [*INSPECTOR, "mutate", "fixtures/article.json"]),
    ]
    print(f"{'command':<42} {'median':>8} {'slowest':>8}   ({args.runs} runs, process start to exit)")
    for name, argv in rows:
        median, slowest = wall(argv, args.runs)
        goal = "  (goal < 2 s)" if name.startswith("inspector mutate") and "article" not in name else ""
        print(f"{name:<42} {median:>7.3f}s {slowest:>7.3f}s{goal}")
    if not args.skip_large:
        large()
    if not args.skip_streaming:
        streaming(args.copies, args.wide_cases, args.wide_sources)


def wide_suite(directory: str | Path, cases: int = 10, others: int = 8000) -> Path:
    """Writes ``wide.json`` into ``directory``: 10 accepted cases over a registry of
    8,001 sources (also the mutation report screen's benchmark)."""
    sources = [{"id": "prod-v2", "service": "payments", "environment": "prod", "revision": "v2",
                "facts": {"a": "1", "b": "2"}, "text": "a=1\nb=2\n"}]
    sources += [{"id": f"s{i}", "service": "payments", "environment": "prod", "revision": f"v{i % 5}",
                 "facts": {"a": str(i), "b": str(i + 1)}, "text": f"# s{i}\na={i}\nb={i + 1}\n"}
                for i in range(others)]
    request = {"service": "payments", "environment": "prod", "revision": "v2", "fields": ["a", "b"],
               "supplied": ["prod-v2"]}
    raw = json.dumps({"claims": [{"field": "a", "value": "1", "doc": "prod-v2", "quote": "a=1"},
                                 {"field": "b", "value": "2", "doc": "prod-v2", "quote": "b=2"}]})
    found = [{"id": f"c{n}", "raw": raw, "request": request, "expected": "ACCEPT"} for n in range(cases)]
    suite = Path(directory) / "wide.json"
    suite.write_text(json.dumps({"sources": sources, "cases": found}), "utf-8")
    return suite


def tall_suite(directory: str | Path, copies: int) -> Path:
    """Writes ``tall.json`` into ``directory``: the article's suite with its three
    accepted cases copied ``copies`` times (its rejected ones once)."""
    article = json.loads((ROOT / "fixtures" / "article.json").read_text("utf-8"))
    accepted = [case for case in article["cases"] if case["expected"] == "ACCEPT"]
    cases = [{**case, "id": f"{case['id']}-{n}"} for n in range(copies) for case in accepted]
    cases += [case for case in article["cases"] if case["expected"] != "ACCEPT"]
    suite = Path(directory) / "tall.json"
    suite.write_text(json.dumps({"sources": article["sources"], "cases": cases}), "utf-8")
    return suite


# Runs the command in this process with standard output counted, not kept: its CPU
# seconds, its peak RSS (VmHWM of this process alone) and the bytes it wrote.
STREAM_PROBE = """
import io, os, sys
class Counted(io.RawIOBase):
    written = 0
    def writable(self): return True
    def write(self, data):
        Counted.written += len(data)
        return len(data)
sys.stdout = io.TextIOWrapper(io.BufferedWriter(Counted(), 1 << 16), encoding="utf-8")
from inspector.cli import main
status = main(sys.argv[1:])
sys.stdout.flush()
times = os.times()
peak = next(l.split()[1] for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(status, times.user + times.system, peak, Counted.written, file=sys.stderr)
"""


def streaming(copies: int, wide_cases: int, wide_sources: int) -> None:
    """Each format over the tall and the wide suite: CPU s, peak RSS, bytes written."""
    import os

    from inspector.lab.mutation_testing import mutate
    from inspector.suites.load import load_suite

    # PYTHONPATH=<another checkout> measures that checkout's inspector (before and after).
    env = {"PATH": "/usr/bin:/bin", "COLUMNS": "180"} | (
        {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {})

    with tempfile.TemporaryDirectory() as directory:
        suites = [(f"tall: {3 * copies:,} accepted cases", tall_suite(directory, copies)),
                  (f"wide: {wide_cases} cases x {wide_sources + 1:,} sources",
                   wide_suite(directory, wide_cases, wide_sources))]
        print(f"{'suite':<36} {'format':<8} {'mutants':>10} {'CPU':>8} {'peak RSS':>9} {'written':>10}")
        for label, suite in suites:
            mutants = len(mutate([load_suite(suite)]).results)
            for form in ("text", "json", "stryker"):
                proc = subprocess.run([sys.executable, "-c", STREAM_PROBE, "mutate", "--format", form, str(suite)],
                                      cwd=directory, capture_output=True, text=True, check=False,
                                      env=env)
                _, cpu, peak, written = proc.stderr.split()[-4:]
                print(f"{label:<36} {form:<8} {mutants:>10,} {float(cpu):>7.1f}s {int(peak) / 1024:>6.0f} MB "
                      f"{int(written) / 1e6:>7.1f} MB")


def large() -> None:
    """One run of ``mutate --format json`` over a wide registry, with its peak RSS."""
    with tempfile.TemporaryDirectory() as directory:
        suite = wide_suite(directory)
        # VmHWM of the child itself (ru_maxrss would carry the parent's over across exec).
        probe = ("import runpy, sys, io, contextlib\n"
                 "sys.argv = ['inspector', 'mutate', '--format', 'json', sys.argv[1]]\n"
                 "out = io.StringIO()\n"
                 "with contextlib.redirect_stdout(out):\n"
                 "    from inspector.cli import main; main(sys.argv[1:])\n"
                 "import json; mutants = json.loads(out.getvalue())['mutants']\n"
                 "peak = next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM:'))\n"
                 "print(mutants, peak)\n")
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-c", probe, str(suite)], cwd=ROOT, capture_output=True, text=True,
                              check=True)
        seconds = time.perf_counter() - start
    mutants, peak = proc.stdout.split()
    print(f"{'mutate --format json, 10 cases x 8,001 sources':<42} {seconds:>7.3f}s   "
          f"{int(mutants):,} mutants, peak RSS {int(peak) / 1024:.0f} MB")


if __name__ == "__main__":
    main()
