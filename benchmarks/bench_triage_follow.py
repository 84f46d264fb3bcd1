"""Following a live log (``inspector triage LOG --follow``): how soon a line
written is counted, and what memory following costs as the log grows.

Each case runs in a fresh process (``--case``, which this script starts itself):

- ``latency``: the overview's own count (``presentation.overview.count`` on a
  ``TriageRun`` with ``follow``, the engine's default poll, every report
  summarised as the overview's worker does) follows a log of ``--start``
  lines; ``--writes`` times, at a random moment 0.05 to 0.5 s after the last,
  one line is appended, and the time from the write to the first report that
  counts it is taken.  Target (issue 18): at most 1 s.
- ``memory``: the same follows a log of ``--start`` lines that then grows by
  ``--lines`` lines (the generator's, appended ``--batch`` at a time as fast as
  they are counted); the RSS of the process once the start is counted and once
  every line is, and per line appended: the index (the overview's drill-down)
  and the counts' keys, no record held.  The first lines also fill what is
  bounded but not small (the request cache, up to 32 MiB; the reading's
  buffers), so the growth per line is also given over the second half alone.
  ``memory-headless``: the same through ``triage.follow.follow`` without the
  index, as ``--follow --format jsonl`` counts: flat once those are filled.

    python benchmarks/bench_triage_follow.py [--writes 50] [--lines 1000000] [--start 10000] [--batch 10000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# The generator's lines the memory case appends, over and over (as many as this, made once).
DISTINCT_LINES = 20_000


def rss_mib() -> float:
    """This process's resident memory now, in MiB."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise SystemExit("no VmRSS in /proc/self/status (Linux only)")


def peak_mib() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def made(folder: Path, lines: int) -> tuple[Path, list[bytes]]:
    """A registry and the generator's first ``lines`` lines (each ending with its newline)."""
    from inspector.triage.synth import write_log, write_registry

    registry = write_registry(folder / "registry.json")
    write_log(folder / "source.jsonl", lines, seed=11)
    return registry, (folder / "source.jsonl").read_bytes().splitlines(keepends=True)


class Following:
    """A follow running in a thread, as the overview's worker runs it; ``lines`` as last reported."""

    def __init__(self, log: Path, registry_path: Path, index: bool) -> None:
        from inspector.suites.load import load_registry

        self.cancel = threading.Event()
        self.reports: list[tuple[float, int]] = []
        self.lines = 0
        self.caught_up = threading.Event()
        registry = load_registry(registry_path)
        if index:
            from inspector.presentation.overview import count, triage_run

            run = triage_run([str(log)], registry, str(registry_path), follow=True, workers=1)
            target = lambda: count(run, self.snapshot, self.cancel)  # noqa: E731 - the overview's own worker
        else:
            from inspector.triage.follow import follow
            from inspector.triage.tally import Options

            target = lambda: follow([str(log)], registry, Options(), on_progress=self.snapshot,  # noqa: E731
                                    cancel=self.cancel, workers=1)
        self.thread = threading.Thread(target=target, daemon=True)
        self.thread.start()

    def snapshot(self, state) -> None:  # noqa: ANN001 - a Snapshot or a FollowProgress
        self.lines = state.lines
        self.reports.append((time.monotonic(), state.lines))
        if getattr(state, "following", False) or getattr(state, "caught_up", False):
            self.caught_up.set()

    def until(self, lines: int, timeout: float = 3600.0) -> None:
        deadline = time.monotonic() + timeout
        while self.lines < lines:
            if time.monotonic() > deadline:
                raise SystemExit(f"the follow counted {self.lines:,} of {lines:,} lines")
            time.sleep(0.005)

    def stop(self) -> None:
        self.cancel.set()
        self.thread.join(30)


def latency(args: argparse.Namespace) -> dict:
    with tempfile.TemporaryDirectory(prefix="follow-latency-") as folder:
        registry, lines = made(Path(folder), args.start + args.writes)
        log = Path(folder) / "app.jsonl"
        log.write_bytes(b"".join(lines[:args.start]))
        following = Following(log, registry, index=True)
        following.caught_up.wait(600)
        following.until(args.start)
        rng = random.Random(3)
        delays = []
        for number in range(args.writes):
            time.sleep(rng.uniform(0.05, 0.5))
            wanted = args.start + number + 1
            with open(log, "ab") as out:
                out.write(lines[args.start + number])
            written = time.monotonic()
            following.until(wanted)
            counted = next(at for at, seen in following.reports if seen >= wanted)
            delays.append(counted - written)
        following.stop()
    delays.sort()
    return {"writes": len(delays), "median_ms": 1000 * statistics.median(delays),
            "p95_ms": 1000 * delays[int(0.95 * (len(delays) - 1))], "max_ms": 1000 * delays[-1]}


def memory(args: argparse.Namespace, index: bool) -> dict:
    with tempfile.TemporaryDirectory(prefix="follow-memory-") as folder:
        registry, lines = made(Path(folder), max(args.start, DISTINCT_LINES))
        log = Path(folder) / "app.jsonl"
        log.write_bytes(b"".join(lines[:args.start]))
        following = Following(log, registry, index=index)
        following.caught_up.wait(600)
        following.until(args.start)
        time.sleep(0.5)
        before = rss_mib()
        half = args.lines // 2
        halfway = None
        appended = 0
        with open(log, "ab") as out:
            while appended < args.lines:
                batch = min(args.batch, args.lines - appended)
                out.write(b"".join(lines[(appended + n) % len(lines)] for n in range(batch)))
                out.flush()
                appended += batch
                following.until(args.start + appended - 5 * args.batch)  # the writer a few batches ahead at most
                if halfway is None and following.lines >= args.start + half:
                    halfway, half = rss_mib(), following.lines - args.start
        following.until(args.start + args.lines)
        after = rss_mib()
        size = log.stat().st_size
        following.stop()
    halfway = halfway if halfway is not None else before
    return {"lines": args.lines, "log_mb": size / 1e6, "rss_before_mib": before, "rss_halfway_mib": halfway,
            "rss_after_mib": after, "bytes_a_line": (after - before) * 1024 * 1024 / args.lines,
            "slope_bytes_a_line": (after - halfway) * 1024 * 1024 / max(1, args.lines - half),
            "peak_mib": peak_mib()}


def case(args: argparse.Namespace) -> dict:
    if args.case == "latency":
        return latency(args)
    return memory(args, index=args.case == "memory")


def fresh(args: argparse.Namespace, name: str) -> dict:
    argv = [sys.executable, __file__, "--case", name, "--writes", str(args.writes), "--lines", str(args.lines),
            "--start", str(args.start), "--batch", str(args.batch)]
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, check=False)
    if proc.returncode:
        raise SystemExit(f"{name}: failed:\n{proc.stderr}")
    return json.loads(proc.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--writes", type=int, default=50, help="lines written one at a time (latency)")
    parser.add_argument("--lines", type=int, default=1_000_000, help="lines the log grows by (memory)")
    parser.add_argument("--start", type=int, default=10_000, help="lines in the log when following starts")
    parser.add_argument("--batch", type=int, default=10_000, help="lines appended at a time (memory)")
    parser.add_argument("--case", choices=("latency", "memory", "memory-headless"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case is not None:
        print(json.dumps(case(args)))
        return
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores")
    found = fresh(args, "latency")
    print(f"a line written to counted, {found['writes']} writes: median {found['median_ms']:.0f} ms, "
          f"p95 {found['p95_ms']:.0f} ms, max {found['max_ms']:.0f} ms (target: 1,000 ms)")
    for name, what in (("memory", "the overview (index kept)"), ("memory-headless", "headless (no index)")):
        found = fresh(args, name)
        print(f"{what}: {found['lines']:,} lines appended ({found['log_mb']:,.0f} MB): RSS "
              f"{found['rss_before_mib']:.0f} -> {found['rss_halfway_mib']:.0f} (halfway) -> "
              f"{found['rss_after_mib']:.0f} MiB: {found['bytes_a_line']:.1f} bytes a line overall, "
              f"{found['slope_bytes_a_line']:.1f} over the second half; peak {found['peak_mib']:.0f} MiB")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
