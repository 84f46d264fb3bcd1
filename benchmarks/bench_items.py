"""Items and their trials on 1,000,000 records: the figures of docs/performance.md.

Two runs of the generator's items (``inspector synth``'s ``write_log(items=...)``):
100,000 items, each answered 10 times by one model (seeds 1 and 2, the second
with the model worse on a tenth of its items), 1,000,000 records each.  Per
run, each a fresh process timed from its start to its exit:

- ``inspector triage NEW --registry G --format json --by model --item none``:
  the summary with no item kept (the plain summary);
- the same without ``--item none``: each record's item taken in the same pass,
  the stability of every item in the JSON;
- ``... NEW --against OLD --item none`` and ``... NEW --against OLD``: both runs
  counted, then (the second) every item paired, the flip table and McNemar's
  test, from the two tallies;

the ratios (items / plain; target <= 1.25x), the CPU time of every process (what
a busy machine moves least) and the peak RSS of the largest process.  The load
average before each run is printed: the machine is shared.

    python benchmarks/bench_items.py [--items 100000] [--trials 10] [--runs 1] [--dir /tmp/items-bench]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_triage import timed as timed_any  # noqa: E402  (the triage benchmark's wrapper: wall, peak RSS, CPU)


def timed(argv: list[str]) -> dict[str, float]:
    """A triage timed; exit 1 (some record rejected) is a run like 0."""
    return timed_any(argv, ok=(0, 1))


def prepare(folder: Path, items: int, trials: int) -> tuple[Path, Path, Path]:
    from inspector.triage.synth import write_log, write_registry

    folder.mkdir(parents=True, exist_ok=True)
    registry = folder / "registry.json"
    if not registry.exists():
        write_registry(registry)
    logs = []
    for seed, worse in ((1, None), (2, ("gpt-x", 0.1))):
        log = folder / f"items-{items}x{trials}-seed{seed}.jsonl"
        if not log.exists():
            print(f"generating {log} ...", flush=True)
            write_log(log, 0, seed, items=items, trials=trials, worse=worse, models=("gpt-x",))
        logs.append(log)
    return registry, logs[1], logs[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/items-bench"))
    args = parser.parse_args()
    registry, new, old = prepare(args.dir, args.items, args.trials)
    print(f"{new}: {args.items:,} items x {args.trials} trials, {new.stat().st_size / 1e6:.0f} MB; "
          f"{os.cpu_count()} cores")
    triage = [sys.executable, "-m", "inspector", "triage", "--registry", str(registry), "--format", "json",
              "--by", "model"]
    for run in range(1, args.runs + 1):
        load = os.getloadavg()[0]
        found = {"plain": timed([*triage, str(new), "--item", "none"]), "items": timed([*triage, str(new)]),
                 "against plain": timed([*triage, str(new), "--against", str(old), "--item", "none"]),
                 "against items": timed([*triage, str(new), "--against", str(old)])}
        print(f"run {run}: load {load:4.1f}")
        for name, figures in found.items():
            print(f"  {name:<14} {figures['seconds']:6.2f} s  CPU {figures['cpu']:6.1f} s  "
                  f"peak RSS {figures['rss_kib'] / 1024:4.0f} MB", flush=True)
        for items, plain in (("items", "plain"), ("against items", "against plain")):
            print(f"  {items} / {plain}: {found[items]['seconds'] / found[plain]['seconds']:.2f}x wall, "
                  f"{found[items]['cpu'] / found[plain]['cpu']:.2f}x CPU   target <= 1.25x")
        time.sleep(1)


if __name__ == "__main__":
    main()
