"""The dask engine against the built-in workers: the figures of docs/distributed.md.

On one log of the generator's default mix (``--lines``, made in ``--dir`` when
absent), in this process, alternating so that both see the same machine:

- the local engine (``triage.run``) on ``--workers`` forked processes;
- the dask engine on a LocalCluster of ``--workers`` worker processes (a thread
  each), started once before the runs (its start is timed apart), with
  ``--task-mb`` MiB a task;

both with ``--by model --by prompt_version``, and the ratio dask / local (target
at most 1.25x).  Then what a task costs beside its counting:

- the scheduler's cost a task: ``--noop`` tasks that do nothing, mapped and
  gathered, per task (the round through scheduler, worker and client);
- the client's merge a task: the tallies of the run above, each added in order
  to the total, per task;
- the worker's counting a line: the local engine's wall time on one process
  over the lines.

From those, the expected wall time for 100M lines on 8, 32 and 128 workers
(``--project``): the counting spread over the workers (the last round of tasks
counted at most once more), or the client's gathering and merging, whichever is
larger, plus a cluster's scheduling round; the reasoning is in the docs.

    python benchmarks/bench_triage_dask.py [--lines 1000000] [--runs 3] [--workers 2] [--task-mb M]
                                           [--noop 2000] [--dir /tmp/triage-bench]
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def prepare(folder: Path, lines: int) -> tuple[Path, Path]:
    from inspector.triage.synth import write_log, write_registry

    folder.mkdir(parents=True, exist_ok=True)
    registry = folder / "registry.json"
    if not registry.exists():
        write_registry(registry)
    log = folder / f"app-{lines}.jsonl"
    if not log.exists():
        print(f"writing {lines:,} lines to {log} ...", flush=True)
        write_log(log, lines, seed=1)
    return log, registry


def noop(number: int) -> int:
    return number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--task-mb", type=float, default=None,
                        help="MiB a task (default: the engine's, distributed.task_size)")
    parser.add_argument("--noop", type=int, default=2000)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/triage-bench"))
    args = parser.parse_args()

    from distributed import Client, LocalCluster

    from inspector.suites.load import load_registry
    from inspector.triage import Options, Tally
    from inspector.triage import distributed as engine
    from inspector.triage.distributed import DaskEngine
    from inspector.triage.run import triage

    log, registry_path = prepare(args.dir, args.lines)
    registry = load_registry(registry_path)
    options = Options(by=("model", "prompt_version"))
    size = log.stat().st_size
    task_bytes = int(args.task_mb * 1024 * 1024) if args.task_mb else engine.task_size([size], args.workers)
    print(f"log: {args.lines:,} lines, {size / 1e6:,.0f} MB; {args.workers} workers; tasks of "
          f"{task_bytes / 1024 / 1024:.1f} MiB ({len(engine.plan([str(log)], [size], task_bytes))} tasks); "
          f"load average {os.getloadavg()[0]:.1f}")

    began = time.perf_counter()
    cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                           dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR)
    client = Client(cluster, set_as_default=False)
    print(f"LocalCluster started in {time.perf_counter() - began:.2f} s")
    try:
        local_times, dask_times = [], []
        for run in range(args.runs):
            began = time.perf_counter()
            local = triage([str(log)], registry, options, workers=args.workers)
            local_times.append(time.perf_counter() - began)
            began = time.perf_counter()
            counted = triage([str(log)], registry, options, engine=DaskEngine(client=client, task_bytes=task_bytes))
            dask_times.append(time.perf_counter() - began)
            assert counted.cells == local.cells and counted.lines == local.lines == args.lines
            print(f"run {run + 1}: local {local_times[-1]:.2f} s, dask {dask_times[-1]:.2f} s, "
                  f"dask / local {dask_times[-1] / local_times[-1]:.2f}x (load {os.getloadavg()[0]:.1f})", flush=True)
        ratios = [d / loc for d, loc in zip(dask_times, local_times)]
        print(f"local engine: median {statistics.median(local_times):.2f} s "
              f"({args.lines / statistics.median(local_times):,.0f} lines/s)")
        print(f"dask engine:  median {statistics.median(dask_times):.2f} s "
              f"({args.lines / statistics.median(dask_times):,.0f} lines/s)")
        print(f"dask / local: {min(ratios):.2f}x to {max(ratios):.2f}x (target <= 1.25x)")

        # The scheduler's cost a task: no-op tasks, mapped and gathered.
        costs = []
        for _ in range(3):
            began = time.perf_counter()
            futures = client.map(noop, range(args.noop), pure=False)
            client.gather(futures)
            costs.append((time.perf_counter() - began) / args.noop)
            del futures
        per_task = min(costs)
        print(f"scheduler, a no-op task mapped and gathered: {per_task * 1e3:.2f} ms a task "
              f"({args.noop:,} tasks on {args.workers} workers)")

        # The client's merge a task: the tallies of 4 MiB tasks added in order.
        small = 4 * 1024 * 1024
        parts = [engine.count_task(task, registry.sources, options, engine.version.VERIFIER, {})[0]
                 for task in engine.plan([str(log)], [size], small)[:8]]
        began = time.perf_counter()
        rounds = 20
        for _ in range(rounds):
            total = Tally()
            for part in parts:
                total.add(part)
        merge = (time.perf_counter() - began) / (rounds * len(parts))
        print(f"client, merging a task's tally (--by model --by prompt_version): {merge * 1e3:.2f} ms a task")

        began = time.perf_counter()
        triage([str(log)], registry, options, workers=1)
        per_line = (time.perf_counter() - began) / args.lines
        print(f"one process counting: {per_line * 1e6:.1f} µs a line ({1 / per_line:,.0f} lines/s)")

        lines = 100_000_000
        line_bytes = size / args.lines
        big = engine.task_size([int(lines * line_bytes)], 8)  # the engine's size for 100M lines
        print(f"\nexpected wall time for 100,000,000 lines (the same mix, plain, tasks of {big / 1024 / 1024:g} MiB):")
        tasks = -(-int(lines * line_bytes) // big)
        task_seconds = per_line * lines / tasks
        for workers in (8, 32, 128):
            rounds = -(-tasks // workers)
            counting = rounds * task_seconds
            client_side = tasks * (per_task + merge)
            wall = max(counting, client_side) + per_task * workers
            bound = "counting" if counting >= client_side else "the client"
            print(f"  {workers:>3} workers: {tasks:,} tasks of {task_seconds:.1f} s in {rounds} rounds: counting "
                  f"{counting:,.0f} s, client {client_side:,.1f} s -> about {wall:,.0f} s ({bound} bounds it)")
    finally:
        client.close()
        cluster.close()


if __name__ == "__main__":
    main()
