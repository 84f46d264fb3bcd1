"""``--against`` against the two summaries it compares: the figure of docs/performance.md.

Two logs of the generator's default mix (seeds 1 and 2, ``inspector synth``'s
``write_log``) of each size given; per run, each a fresh process timed from its
start to its exit:

- ``inspector triage A --registry G --format json --by model`` and the same of B,
  one after the other (what the two summaries cost);
- ``inspector triage A --registry G --format json --by model --against B`` (both
  counted in one pool of workers, ``triage.run.triage_runs``, and compared);

and the ratio of the second to the sum of the first two (target: <= 1.0).  A
log under 8 MiB is counted in one process alone; two of them side by side fill
two cores.  The load average before each run is printed (the machine is shared).

    python benchmarks/bench_triage_against.py [--lines 20000 200000] [--runs 3] [--dir /tmp/triage-against-bench]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TIMER = """
import json, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
if proc.returncode:
    sys.exit(proc.stderr.decode()[-2000:])
print(json.dumps({"seconds": time.perf_counter() - start}))
"""


def timed(argv: list[str]) -> float:
    proc = subprocess.run([sys.executable, "-c", TIMER, *argv], capture_output=True, text=True, cwd=ROOT)
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)} failed:\n{proc.stderr}")
    return json.loads(proc.stdout)["seconds"]


def prepare(folder: Path, lines: int) -> tuple[Path, Path, Path]:
    from inspector.triage.synth import write_log, write_registry

    folder.mkdir(parents=True, exist_ok=True)
    registry = folder / "registry.json"
    if not registry.exists():
        write_registry(registry)
    logs = []
    for seed in (1, 2):
        log = folder / f"log-{lines}-seed{seed}.jsonl"
        if not log.exists():
            print(f"generating {log} ...", flush=True)
            write_log(log, lines, seed=seed)
        logs.append(log)
    return registry, logs[0], logs[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, nargs="+", default=[20_000, 200_000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/triage-against-bench"))
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores")
    for lines in args.lines:
        registry, a, b = prepare(args.dir, lines)
        triage = [sys.executable, "-m", "inspector", "triage", "--registry", str(registry), "--format", "json",
                  "--by", "model"]
        print(f"two logs of {lines:,} lines, {a.stat().st_size / 1e6:.1f} and {b.stat().st_size / 1e6:.1f} MB")
        ratios, sums, againsts = [], [], []
        for run in range(1, args.runs + 1):
            load = os.getloadavg()[0]
            one, other = timed([*triage, str(a)]), timed([*triage, str(b)])
            against = timed([*triage, str(a), "--against", str(b)])
            sums.append(one + other)
            againsts.append(against)
            ratios.append(against / (one + other))
            print(f"  run {run}: load {load:4.1f}  summaries {one:5.2f} + {other:5.2f} = {one + other:5.2f} s  "
                  f"--against {against:5.2f} s  ({ratios[-1]:.2f}x)", flush=True)
            time.sleep(1)
        print(f"  median: two summaries {statistics.median(sums):.2f} s, --against {statistics.median(againsts):.2f} s, "
              f"ratio {statistics.median(ratios):.2f}x (range {min(ratios):.2f}-{max(ratios):.2f})   target <= 1.0x")


if __name__ == "__main__":
    main()
