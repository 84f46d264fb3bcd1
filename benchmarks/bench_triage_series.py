"""``--pivot`` and ``--series`` against the summary they add to: the figures of docs/performance.md.

A log of the generator's default mix (seed 1, ``inspector.triage.synth``); per
run, each a fresh process timed from its start to its exit, in an order that
changes from run to run (the machine drifts):

- ``inspector triage LOG --registry G --format json --by model`` (the summary);
- the same with ``--pivot model,check`` (a sum over the count's cells after the count);
- the same with ``--series`` (each dated record's minute kept with its count
  cell while counting, every group's series summed after it);
- both;

and each one's ratio to the summary of the same run (target: at most 1.10).
The load average before each run is printed (the machine is shared).

    python benchmarks/bench_triage_series.py [--lines 1000000] [--runs 3] [--dir /tmp/triage-series-bench]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TIMER = """
import json, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
if proc.returncode:
    sys.exit(proc.stderr.decode()[-2000:])
print(json.dumps({"seconds": time.perf_counter() - start, "bytes": len(proc.stdout)}))
"""

VARIANTS = {
    "summary": [],
    "--pivot model,check": ["--pivot", "model,check"],
    "--series": ["--series"],
    "--pivot and --series": ["--pivot", "model,check", "--series"],
}


def timed(argv: list[str]) -> tuple[float, int]:
    proc = subprocess.run([sys.executable, "-c", TIMER, *argv], capture_output=True, text=True, cwd=ROOT)
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)} failed:\n{proc.stderr}")
    found = json.loads(proc.stdout)
    return found["seconds"], found["bytes"]


def prepare(folder: Path, lines: int) -> tuple[Path, Path]:
    from inspector.triage.synth import write_log, write_registry

    folder.mkdir(parents=True, exist_ok=True)
    registry = folder / "registry.json"
    if not registry.exists():
        write_registry(registry)
    log = folder / f"log-{lines}.jsonl"
    if not log.exists():
        print(f"generating {log} ...", flush=True)
        write_log(log, lines, seed=1)
    return registry, log


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/triage-series-bench"))
    args = parser.parse_args()
    registry, log = prepare(args.dir, args.lines)
    triage = [sys.executable, "-m", "inspector", "triage", str(log), "--registry", str(registry), "--format", "json",
              "--by", "model"]
    print(f"{os.cpu_count()} cores; a log of {args.lines:,} lines, {log.stat().st_size / 1e6:.0f} MB")
    ratios: dict[str, list[float]] = {name: [] for name in VARIANTS if name != "summary"}
    names = list(VARIANTS)
    for run in range(1, args.runs + 1):
        load = os.getloadavg()[0]
        order = names[run % len(names):] + names[:run % len(names)]
        seconds, sizes = {}, {}
        for name in order:
            seconds[name], sizes[name] = timed([*triage, *VARIANTS[name]])
        base = seconds["summary"]
        words = "  ".join(f"{name} {seconds[name]:5.2f} s" + ("" if name == "summary" else
                                                                f" ({seconds[name] / base:.2f}x)")
                          for name in names)
        for name in ratios:
            ratios[name].append(seconds[name] / base)
        print(f"  run {run}: load {load:4.1f}  {words}", flush=True)
        if run == 1:
            print("         JSON: " + ", ".join(f"{name} {sizes[name] / 1e3:,.0f} kB" for name in names))
    for name, found in ratios.items():
        print(f"  {name}: median {statistics.median(found):.2f}x the summary (range {min(found):.2f}-{max(found):.2f})"
              "   target <= 1.10x")


if __name__ == "__main__":
    main()
