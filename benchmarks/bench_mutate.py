"""What ``inspector mutate`` costs from process start to exit (goal: under 2 s on
the bundled suites).  Prints figures; asserts nothing.

    .venv/bin/python benchmarks/bench_mutate.py [--runs N]

Each run is a fresh ``python -m inspector mutate`` process (this interpreter,
so this environment's inspector), its output sent to /dev/null; the median and the
slowest of N runs are printed for the text, JSON and Stryker formats, beside
``python -c pass`` and ``inspector checks`` (the cost of starting at all), with
the number of mutants verified.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
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
    args = parser.parse_args()

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


if __name__ == "__main__":
    main()
