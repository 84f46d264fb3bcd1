"""Paging backward through a ``.gz`` group (k in the records view): each k
rereads the previous record from its offset in the decompressed stream.
Prints figures; asserts nothing.

    .venv/bin/python benchmarks/bench_triage_gz.py [--lines 300000] [--dir /tmp/triage-gz-bench] [--presses 20]

The log is made by ``inspector synth LOG --lines N --gz`` (the generator's mix,
~570 bytes a line) into ``--dir`` when absent, and counted once with the index,
as the overview counts.  Then the ACCEPT group is paged from its last record
backward, ``--presses`` records one after the other:

- before: ``gzip.GzipFile.seek`` to each offset (what ``LineReader`` did: a
  backward seek decompresses from byte 0 each time);
- after, index kept by the count: the ``LineReader`` whose ``SeekIndex`` the
  overview's count filled (``triage(..., indexes=reader.indexes)``), so each k
  decompresses at most one interval (4 MiB of output) from a restart point;
- after, index built lazily: a fresh ``LineReader`` (the first read goes
  forward to the last record, adding points, then k as above);

and the points kept, with their memory (each a copy of zlib's state, ~48 KB),
and the count's time with and without keeping points.  Time per k grows with
the offset before and stays flat after: the figure for a log N times larger is
about N times the "before" one and the same "after" one.
"""

from __future__ import annotations

import argparse
import gzip
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def make(folder: Path, lines: int) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    log, registry = folder / f"log-{lines}.jsonl.gz", folder / "registry.json"
    if not log.exists():
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "inspector", "synth", str(log), "--lines", str(lines), "--gz",
                        *(["--registry", str(registry)] if not registry.exists() else [])], check=True, cwd=ROOT)
        print(f"made {log} in {time.perf_counter() - started:.1f} s")
    return log, registry


def before_line(path: str, offset: int) -> bytes:
    """The old drill-down: one GzipFile kept open, seek and readline."""
    stream = _OLD.get(path)
    if stream is None:
        stream = _OLD[path] = gzip.open(path, "rb")
    stream.seek(offset)
    return stream.readline()


_OLD: dict[str, gzip.GzipFile] = {}


def page_back(read, path: str, offsets: list[int]) -> list[float]:
    read(path, offsets[0])  # the last record: where k starts from
    times = []
    for offset in offsets[1:]:
        started = time.perf_counter()
        read(path, offset)
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=300_000)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/triage-gz-bench"))
    parser.add_argument("--presses", type=int, default=20)
    args = parser.parse_args()

    from inspector.suites.load import load_registry
    from inspector.triage import Options, triage
    from inspector.triage.drill import LineReader

    log, registry_path = make(args.dir, args.lines)
    registry = load_registry(registry_path)
    path = str(log)
    with gzip.open(path, "rb") as stream:
        decompressed = sum(len(piece) for piece in iter(lambda: stream.read(1 << 22), b""))
    print(f"log: {args.lines:,} lines, {os.path.getsize(path) / 1e6:.1f} MB gz, {decompressed / 1e6:.0f} MB "
          f"decompressed; load average {os.getloadavg()[0]:.1f}")

    options = Options(index=True)
    started = time.perf_counter()
    tally = triage([path], registry, options, workers=1)
    plain_count = time.perf_counter() - started
    reader = LineReader()
    started = time.perf_counter()
    tally = triage([path], registry, options, workers=1, indexes=reader.indexes)
    indexed_count = time.perf_counter() - started
    index = reader.indexes[path]
    print(f"count (one process): {plain_count:.2f} s without keeping points, {indexed_count:.2f} s keeping "
          f"{len(index)} points every {index.spacing / 2**20:.0f} MiB (~{len(index) * 48 / 1024:.1f} MB)")

    accepted = list(tally.index.where("ACCEPT"))
    offsets = [tally.index.offset[n] for n in accepted[-1:-args.presses - 2:-1]]
    print(f"paging back from ACCEPT's last record (at {offsets[0] / 1e6:.0f} MB of output), {args.presses} k's:")
    rows = [("before: GzipFile.seek", page_back(before_line, path, offsets)),
            ("after: index from the count", page_back(reader.line_at, path, offsets))]
    lazy = LineReader()
    started = time.perf_counter()
    lazy.line_at(path, offsets[0])
    first = time.perf_counter() - started
    rows.append(("after: index built lazily", page_back(lazy.line_at, path, offsets)))
    for name, times in rows:
        print(f"  {name:30s} median {statistics.median(times) * 1000:8.1f} ms   max {max(times) * 1000:8.1f} ms")
    print(f"  (the lazy reader's first read, forward to the last record: {first:.2f} s, as before)")
    reader.close()
    lazy.close()


if __name__ == "__main__":
    main()
