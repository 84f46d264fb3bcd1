"""Triage of a 1,000,000-line log, from process start: the figures of docs/performance.md.

Per run, each a fresh process timed from its start to its exit:

- the floor: one process that only decodes every line with msgspec (and reads
  the file in chunks and splits it into lines, as any reader must);
- ``inspector triage LOG --registry G --summary --format json --by model --by
  prompt_version``: every group of the summary, on every core;
- the same on the ``.gz`` of the log;

- with ``--records``, the same triage writing a row of every record
  (``--records rows.jsonl``, then ``rows.csv``), and its cost over the plain
  triage, in wall time and in CPU time (user and system, every process: what
  a busy machine moves least), the file removed after each run;

and the ratios within the run (triage / floor, gz / plain), the peak RSS of the
largest process (the triage's own or a worker's, ``ru_maxrss`` of the
children), and the load average before the run (the machine is shared: a load
above 2 on 2 cores means the figures are someone else's too).  The log and its
registry are made by ``inspector.triage.synth`` (the default mix) in ``--dir``
when absent.  Targets: <= 4 s, <= 2.5x the floor, <= 300 MB, gz <= 1.5x plain.

    python benchmarks/bench_triage.py [--lines 1000000] [--runs 3] [--dir /tmp/triage-bench]
                                      [--instructions [--at 90000]] [--records]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FLOOR = """
import sys, msgspec
decode = msgspec.json.decode
lines = 0
with open(sys.argv[1], "rb") as log:
    rest = b""
    while chunk := log.read(4 << 20):
        chunk = rest + chunk
        cut = chunk.rfind(b"\\n") + 1
        rest = chunk[cut:]
        for line in chunk[:cut].split(b"\\n")[:-1]:
            lines += 1
            try:
                decode(line)
            except (msgspec.DecodeError, RecursionError):
                pass
print(lines)
"""

# Runs one command and reports its wall time from start to exit, the peak RSS
# of the largest process of its tree and the CPU time of the tree (user and system), in a wrapper of its own (whose own start is
# not counted).
TIMER = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
ok = [int(code) for code in sys.argv[1].split(",")]
proc = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
seconds = time.perf_counter() - start
if proc.returncode not in ok:
    sys.exit(proc.stderr.decode()[-2000:])
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"seconds": seconds, "rss_kib": usage.ru_maxrss, "cpu": usage.ru_utime + usage.ru_stime}))
"""


def timed(argv: list[str], ok: tuple[int, ...] = (0,)) -> dict[str, float]:
    """``argv`` run once in the wrapper: its seconds, peak RSS (KiB) and CPU; any exit status not in ``ok`` fails."""
    proc = subprocess.run([sys.executable, "-c", TIMER, ",".join(map(str, ok)), *argv], capture_output=True,
                          text=True, cwd=ROOT)
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)} failed:\n{proc.stderr}")
    return json.loads(proc.stdout)


def prepare(folder: Path, lines: int) -> tuple[Path, Path, Path]:
    from inspector.triage.synth import write_log, write_registry

    folder.mkdir(parents=True, exist_ok=True)
    registry = folder / "registry.json"
    log = folder / f"log-{lines}.jsonl"
    packed = folder / f"log-{lines}.jsonl.gz"
    if not registry.exists():
        write_registry(registry)
    if not log.exists():
        print(f"generating {log} ...", flush=True)
        write_log(log, lines, seed=1)
    if not packed.exists():
        with open(log, "rb") as source, gzip.open(packed, "wb", compresslevel=6) as target:
            shutil.copyfileobj(source, target, 4 << 20)
    return registry, log, packed


CLI = """
import contextlib, io, sys
from inspector.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    main(sys.argv[1:])
"""


def instructions(argv: list[str]) -> int:
    """Instructions a command runs, counted by valgrind's callgrind (the same on
    a busy machine as on a quiet one)."""
    import re
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        proc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/out", *argv],
                              capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": "0"})
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode or found is None:
        raise SystemExit(f"callgrind failed:\n{proc.stderr[-2000:]}")
    return int(found.group(1))


def per_line_instructions(log: Path, registry: Path, folder: Path, at: int = 10_000) -> None:
    """Instructions per line, triage (one process, every group) and the floor:
    the difference between the first ``at`` and the first ``at`` + 10,000 lines
    of the log, so that start-up cancels out.  First-seen requests (a
    validation, a recall, new shapes of rejection) do not: the generator's log
    has about 2,500 distinct requests, most seen within 100,000 lines, so
    ``--at 90000`` is the steady state of a million-line log and the default
    10,000 overstates it."""
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    parts = []
    with open(log, "rb") as source:
        head = [source.readline() for _ in range(at + 10_000)]
    for count in (at, at + 10_000):
        part = folder / f"head-{count}.jsonl"
        part.write_bytes(b"".join(head[:count]))
        parts.append(part)
    triage = [sys.executable, "-c", CLI, "triage", "--registry", str(registry), "--format", "json", "--by", "model",
              "--by", "prompt_version", "--workers", "1"]
    floor = [instructions([sys.executable, "-c", FLOOR, str(part)]) for part in parts]
    mine = [instructions([*triage, str(part)]) for part in parts]
    floor_line, triage_line = (floor[1] - floor[0]) / 10_000, (mine[1] - mine[0]) / 10_000
    print(f"instructions a line (callgrind, lines {at + 1:,}-{at + 10_000:,}): floor {floor_line:,.0f}, triage {triage_line:,.0f} "
          f"({triage_line / floor_line:.2f}x: on 2 cores about {triage_line / floor_line / 2:.2f}x the floor's time)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/triage-bench"))
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions a line with callgrind instead (figures a busy machine cannot move)")
    parser.add_argument("--at", type=int, default=10_000,
                        help="with --instructions: count the 10,000 lines after the first AT (90000: the steady state)")
    parser.add_argument("--records", action="store_true",
                        help="also time the triage with --records (JSON lines, then CSV) and its cost over the plain")
    args = parser.parse_args()
    registry, log, packed = prepare(args.dir, args.lines)
    if args.instructions:
        per_line_instructions(log, registry, args.dir, args.at)
        return
    size = log.stat().st_size
    print(f"{log}: {args.lines:,} lines, {size / 1e6:.0f} MB ({size / args.lines:.0f} bytes a line); "
          f"{packed.name} {packed.stat().st_size / 1e6:.0f} MB; {os.cpu_count()} cores")
    triage = [sys.executable, "-m", "inspector", "triage", "--registry", str(registry), "--summary",
              "--format", "json", "--by", "model", "--by", "prompt_version"]
    rows = []
    for run in range(1, args.runs + 1):
        load = os.getloadavg()[0]
        floor = timed([sys.executable, "-c", FLOOR, str(log)])
        plain = timed([*triage, str(log)])
        zipped = timed([*triage, str(packed)])
        tables = {}
        for suffix in (("jsonl", "csv") if args.records else ()):
            out = args.dir / f"rows.{suffix}"
            out.unlink(missing_ok=True)
            tables[suffix] = timed([*triage, str(log), "--records", str(out)])
            tables[suffix]["bytes"] = out.stat().st_size
            out.unlink()
        rows.append((load, floor, plain, zipped, tables))
        print(f"run {run}: load {load:4.1f}  floor {floor['seconds']:5.2f} s  triage {plain['seconds']:5.2f} s "
              f"({plain['seconds'] / floor['seconds']:.2f}x the floor, {plain['rss_kib'] / 1024:.0f} MB)  "
              f".gz {zipped['seconds']:5.2f} s ({zipped['seconds'] / plain['seconds']:.2f}x plain, "
              f"{zipped['rss_kib'] / 1024:.0f} MB)", flush=True)
        for suffix, found in tables.items():
            print(f"       --records rows.{suffix}: {found['seconds']:5.2f} s ({found['seconds'] / plain['seconds']:.2f}x "
                  f"the triage; CPU {found['cpu']:.1f} s, {found['cpu'] / plain['cpu']:.2f}x the triage's "
                  f"{plain['cpu']:.1f} s; {found['rss_kib'] / 1024:.0f} MB, the file {found['bytes'] / 1e6:.0f} MB)",
                  flush=True)
        time.sleep(1)

    def spread(values: list[float], unit: str = " s") -> str:
        return f"{min(values):.2f}-{max(values):.2f}{unit} (median {statistics.median(values):.2f})"

    print()
    print(f"decode floor          {spread([r[1]['seconds'] for r in rows])}")
    print(f"triage, every group   {spread([r[2]['seconds'] for r in rows])}   target <= 4 s")
    print(f"triage / floor        {spread([r[2]['seconds'] / r[1]['seconds'] for r in rows], 'x')}   target <= 2.5x")
    print(f"triage .gz            {spread([r[3]['seconds'] for r in rows])}")
    print(f".gz / plain           {spread([r[3]['seconds'] / r[2]['seconds'] for r in rows], 'x')}   target <= 1.5x")
    print(f"peak RSS (largest)    {max(max(r[2]['rss_kib'], r[3]['rss_kib']) for r in rows) / 1024:.0f} MB"
          "   target <= 300 MB")
    for suffix in rows[0][4]:
        print(f"--records rows.{suffix:<6}{spread([r[4][suffix]['seconds'] for r in rows])}, "
              f"{spread([r[4][suffix]['seconds'] / r[2]['seconds'] for r in rows], 'x')} the triage; CPU "
              f"{spread([r[4][suffix]['cpu'] / r[2]['cpu'] for r in rows], 'x')} the triage's; peak RSS "
              f"{max(r[4][suffix]['rss_kib'] for r in rows) / 1024:.0f} MB")
    print(f"load average          {spread([r[0] for r in rows], '')}  (2 cores)")


if __name__ == "__main__":
    main()
