"""What checking a reread costs: a group's records reread from the log for the
overview's drill-down and export, each only from a log still what was counted
(its stamp: a stat) and only if its verdict is still the one counted (a verify).

Rows, on the ACCEPT group of the generator's log (the default mix):

1. the records' reports, as the records view builds one per record shown
   (``RecordSession.report``): checked (the verdict that checked a reread is
   the report's, so a record is verified once), and without the check (a
   ``GroupMembers`` with no registry nor stamps: reread, decoded, verified for
   its report);
2. ``export_group`` of ``--export`` records into a new suite file (each reread,
   checked, then written): checked, and the same records written by the
   headless ``export_suite`` from lines read without the check.

Best of ``--runs`` with the collector paused; microseconds a record.  The
machine is shared: the load average is printed, and figures taken above a
load of 2 are someone else's too.

    python benchmarks/bench_triage_reread.py [--lines 50000] [--reports 5000] [--export 1000] [--runs 3]
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from inspector.presentation.group_export import export_group  # noqa: E402
from inspector.presentation.overview import count, triage_run  # noqa: E402
from inspector.presentation.record_session import RecordSession, open_group  # noqa: E402
from inspector.suites.load import load_registry  # noqa: E402
from inspector.triage.drill import LineReader  # noqa: E402
from inspector.triage.export import export_suite  # noqa: E402
from inspector.triage.members import GroupMembers, record_suite  # noqa: E402
from inspector.triage.synth import write_log, write_registry  # noqa: E402


def best(run: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        gc.collect()
        gc.disable()
        try:
            start = time.perf_counter()
            run()
            times.append(time.perf_counter() - start)
        finally:
            gc.enable()
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=50_000)
    parser.add_argument("--reports", type=int, default=5000)
    parser.add_argument("--export", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/triage-bench"))
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    registry_path, log = args.dir / "registry.json", args.dir / f"reread-{args.lines}.jsonl"
    if not registry_path.exists():
        write_registry(registry_path)
    if not log.exists():
        write_log(log, args.lines, seed=3)
    run = triage_run([str(log)], load_registry(registry_path), str(registry_path), workers=1)
    snapshots: list = []
    count(run, snapshots.append, threading.Event())
    snapshot = snapshots[-1]
    group = snapshot.summary.group("ACCEPT")
    index = snapshot.summary.tally.index
    reports, exported = min(args.reports, group.records), min(args.export, group.records)
    print(f"{args.lines:,}-line log, ACCEPT: {group.records:,} records · load {os.getloadavg()[0]:.1f}")

    def checked_reports() -> None:
        session = open_group(group, snapshot, run, LineReader())
        for number in range(reports):
            session.report(number)

    def unchecked_reports() -> None:
        members = GroupMembers(group, index, snapshot.indexed, run.options.by, LineReader())
        session = RecordSession(record_suite(group, members, run.logs, run.registry))
        for number in range(reports):
            session.report(number)

    with tempfile.TemporaryDirectory(dir=args.dir) as folder:
        written = iter(range(10**9))

        def checked_export() -> None:
            export_group(group, snapshot, run, LineReader(), Path(folder) / f"{next(written)}.json", exported)

        def unchecked_export() -> None:
            reader = LineReader()
            members = GroupMembers(group, index, snapshot.indexed, run.options.by, reader)
            collected = []
            for number in range(exported):
                file, line, offset, label = index.entry(members.position(number))
                collected.append((file, line, offset, reader.line_at(file, offset), label))
            export_suite(Path(folder) / f"{next(written)}.json", group.name, run.registry, collected, run.logs)

        rows = [(f"{reports:,} reports, checked", checked_reports, reports),
                (f"{reports:,} reports, unchecked", unchecked_reports, reports),
                (f"export of {exported:,}, checked", checked_export, exported),
                (f"export of {exported:,}, unchecked", unchecked_export, exported)]
        for name, job, records in rows:
            seconds = best(job, args.runs)
            print(f"  {name:<28} {seconds * 1000:8.0f} ms  {seconds / records * 1e6:6.0f} µs a record")


if __name__ == "__main__":
    main()
