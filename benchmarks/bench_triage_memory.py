"""Peak memory of ``inspector triage`` on hostile logs: the figures of issue 17's items 6, 8 and 9.

Each case is one fresh process, timed from its start to its exit, with the peak
RSS of the largest process of its tree (the triage's own or a worker's,
``ru_maxrss`` of the children):

- ``bad``: a plain log of ``--bad`` bad lines (``x`` a line, two bytes each),
  ``--summary``; and with ``--bad-lines FILE`` (every one written, streamed);
- ``bomb``: a ``.gz`` of ``--bomb`` empty lines (a few kilobytes that decompress
  to millions of bad lines), ``--format json``;
- ``by-id``: the generator's log of ``--lines`` lines grouped ``--by id`` (a
  value a record) against the same ``--by model``;
- ``export``: ``--export ACCEPT --limit 10`` against the plain ``--summary``, on
  the same log, and without ``--summary`` (only the export wanted: the counting
  stops at the limit).

Targets (issue 17): each within 300 MB and linear time.  The inputs are made in
``--dir`` when absent.  The machine is shared: the load average is printed.

    python benchmarks/bench_triage_memory.py [--bad 5000000] [--bomb 1000000] [--lines 300000]
                                             [--dir /tmp/triage-memory] [--only bad,bomb,by-id,export]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Runs one command and reports its wall time and the peak RSS of the largest
# process of its tree, in a wrapper of its own (whose own start is not counted).
TIMER = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "rss_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
                  "status": proc.returncode, "stderr": proc.stderr.decode("utf-8", "replace")[-400:]}))
"""


def timed(argv: list[str]) -> dict:
    proc = subprocess.run([sys.executable, "-c", TIMER, *argv], capture_output=True, text=True, cwd=ROOT,
                          check=False)
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)}: the timer failed:\n{proc.stderr}")
    return json.loads(proc.stdout)


def triage(*args: str) -> list[str]:
    return [sys.executable, "-m", "inspector", "triage", *args]


def show(name: str, found: dict) -> None:
    status = "" if found["status"] == 0 else f"  exit {found['status']}: {found['stderr'].strip()[-200:]!r}"
    print(f"{name:<44} {found['rss_kib'] / 1024:8.0f} MB {found['seconds']:8.1f} s{status}", flush=True)


def supports(option: str) -> bool:
    proc = subprocess.run(triage("--help"), capture_output=True, text=True, cwd=ROOT, check=False)
    return option in proc.stdout


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bad", type=int, default=5_000_000, help="bad lines of the plain log")
    parser.add_argument("--bomb", type=int, default=1_000_000, help="empty lines in the .gz bomb")
    parser.add_argument("--lines", type=int, default=300_000, help="lines of the generator's log")
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "triage-memory")
    parser.add_argument("--only", default="bad,bomb,by-id,export")
    args = parser.parse_args(argv)
    cases = set(args.only.split(","))
    folder = args.dir
    folder.mkdir(parents=True, exist_ok=True)
    from inspector.triage.synth import write_log, write_registry

    registry = folder / "registry.json"
    if not registry.exists():
        write_registry(registry)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; peak RSS of the largest process")
    if "bad" in cases:
        bad = folder / f"bad-{args.bad}.jsonl"
        if not bad.exists():
            bad.write_bytes(b"x\n" * args.bad)
        show(f"bad: {args.bad:,} bad lines, --summary", timed(triage(str(bad), "--registry", str(registry),
                                                                     "--summary")))
        if supports("--bad-lines"):
            out = folder / "bad-lines.jsonl"
            out.unlink(missing_ok=True)
            show("bad: the same, --bad-lines FILE", timed(triage(str(bad), "--registry", str(registry),
                                                                  "--summary", "--bad-lines", str(out))))
            with open(out, "rb") as written_lines:
                written = sum(1 for _ in written_lines)
            print(f"{'':<44} {written:,} lines written to --bad-lines ({out.stat().st_size / 1e6:,.0f} MB)")
            out.unlink()
    if "bomb" in cases:
        bomb = folder / f"bomb-{args.bomb}.jsonl.gz"
        if not bomb.exists():
            bomb.write_bytes(gzip.compress(b"\n" * args.bomb, 9))
        show(f"bomb: {bomb.stat().st_size / 1e3:,.0f} KB .gz, {args.bomb:,} empty lines",
             timed(triage(str(bomb), "--registry", str(registry), "--format", "json")))
    if {"by-id", "export"} & cases:
        log = folder / f"log-{args.lines}.jsonl"
        if not log.exists():
            print(f"generating {log} ...", flush=True)
            write_log(log, args.lines, seed=1)
        common = [str(log), "--registry", str(registry)]
        if "by-id" in cases:
            show(f"by-id: {args.lines:,} lines, --by model", timed(triage(*common, "--format", "json",
                                                                         "--by", "model")))
            show(f"by-id: {args.lines:,} lines, --by id", timed(triage(*common, "--format", "json", "--by", "id")))
        if "export" in cases:
            show(f"export: {args.lines:,} lines, --summary", timed(triage(*common, "--summary")))
            out = folder / "export.json"
            out.unlink(missing_ok=True)
            show("export: --export ACCEPT --limit 10", timed(triage(*common, "--summary", "--export", "ACCEPT",
                                                                     "--out", str(out), "--limit", "10")))
            out.unlink(missing_ok=True)
            if supports("--bad-lines"):  # the counting stops at the limit when only the export is wanted
                show("export: the same without --summary", timed(triage(*common, "--export", "ACCEPT", "--out",
                                                                        str(out), "--limit", "10")))
                out.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
