"""Where a triaged line's time goes: each stage of the per-line path, in one process.

The lines of the generator's log (the default mix, as ``bench_triage.py``
uses) are read into memory first, so that only the stages are timed; each row
adds one stage to the one before, through the product's own functions, and
prints microseconds a line and the ratio to the floor (a bare msgspec decode
of the line into Python objects, what ``bench_triage.py``'s floor does):

1. the line's members as raw JSON (``dict[str, msgspec.Raw]``, as
   ``parse_line`` decodes a line);
2. ``parse_line``: the raw answer as text, the request looked up by its bytes
   (validated once per distinct request), the duplicate-member proof;
3. + ``verify`` on every record: the contract, strict decoding included;
4. ``tally_chunk``: everything ``inspector triage --summary`` counts (verdict,
   reason, field and document, scope, ``--by model --by prompt_version``,
   blame, category, the minute histogram), from the chunk's bytes;
5. the same with the index the inspector keeps for drilling down.

Best of ``--runs`` with the collector paused, as the counting runs.  Each
core of a 2-core machine runs one worker of such a loop, so the wall time of
``bench_triage.py`` is about row 4 over 2, plus the start and the file reading.

    python benchmarks/bench_triage_stages.py [--lines 100000] [--runs 5] [--dir /tmp/triage-bench]
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402

from inspector.contract.verify import verify  # noqa: E402
from inspector.suites.load import load_registry  # noqa: E402
from inspector.triage.records import RequestCache, parse_line  # noqa: E402
from inspector.triage.synth import write_log, write_registry  # noqa: E402
from inspector.triage.tally import Options, tally_chunk  # noqa: E402

BY = ("model", "prompt_version")


def best(run: Callable[[], object], runs: int) -> float:
    """The fastest of ``runs`` runs, in seconds, the collector paused."""
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
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/triage-bench"))
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    registry_path, log = args.dir / "registry.json", args.dir / f"stages-{args.lines}.jsonl"
    if not registry_path.exists():
        write_registry(registry_path)
    if not log.exists():
        write_log(log, args.lines, seed=1)
    registry = load_registry(registry_path)
    data = log.read_bytes()
    lines = data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    # Every distinct request validated once before timing: the steady state of a long log.
    requests = RequestCache(registry)
    records = [parsed for line in lines if (parsed := parse_line(line, requests)).__class__ is not str]

    def floor() -> None:
        decode = msgspec.json.decode
        for line in lines:
            try:
                decode(line)
            except msgspec.DecodeError:
                pass

    def members() -> None:
        decode = msgspec.json.Decoder(dict[str, msgspec.Raw]).decode  # as parse_line decodes a line
        for line in lines:
            try:
                decode(line)
            except msgspec.DecodeError:
                pass

    def parsed() -> None:
        for line in lines:
            parse_line(line, requests)

    def verified() -> None:
        for line in lines:
            found = parse_line(line, requests)
            if found.__class__ is not str:
                verify(found[0], found[1].request, registry)  # type: ignore[index]

    def counted() -> None:
        tally_chunk(str(log), 0, data, 1, registry, Options(by=BY), requests)

    def indexed() -> None:
        tally_chunk(str(log), 0, data, 1, registry, Options(by=BY, index=True), requests)

    rows = [
        ("floor: msgspec.json.decode(line)", floor),
        ("1. the line's members, as raw JSON", members),
        ("2. parse_line (raw, request, duplicate members)", parsed),
        ("3. + verify", verified),
        ("4. tally_chunk: every group of --summary", counted),
        ("5. tally_chunk with the inspector's index", indexed),
    ]
    print(f"{log}: {len(lines):,} lines, {len(data) / len(lines):.0f} bytes a line, "
          f"{len(records):,} records, {len(requests.known):,} distinct requests; best of {args.runs}")
    floor_line = None
    before = None
    for title, run in rows:
        per_line = best(run, args.runs) / len(lines) * 1e6
        floor_line = floor_line or per_line
        step = "" if before is None or title.startswith("5") else f"  (+{per_line - before:.2f})"
        print(f"{title:50s} {per_line:6.2f} us a line  {per_line / floor_line:5.2f}x the floor{step}")
        if not title.startswith("5"):
            before = per_line if title[0].isdigit() else None


if __name__ == "__main__":
    main()
