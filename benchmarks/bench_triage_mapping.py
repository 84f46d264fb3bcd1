"""What mapping the members costs: the same records written plainly and nested, counted in one run.

``inspector synth`` writes the generator's records (the default mix, seed 1) in
its three shapes (``inspector.triage.synth.SHAPES``), each read as
docs/triage.md reads it:

- plain: top-level ``raw``, ``request``, ``ts``, ``model``: the default members,
  the fast path;
- openai: an OpenAI-style chat completion, read with ``fixtures/logs/openai.toml``
  (``--raw response.choices.0.message.content --request ctx.request --ts
  created --id id``);
- envelope: an application envelope, the answer logged as JSON where it stands
  on its own and a ``trace_id`` added to each request, read with
  ``fixtures/logs/envelope.toml`` (``--raw llm.raw --request llm.request --ts
  @timestamp --id llm.request.trace_id --request-extra ignore``).

Each is grouped by its model (``--by model``, ``--by metadata.model``).  For one
seed the shapes carry the same records, so the three count the same records and
verdicts (said on the last line).  Each shape is counted by ``tally_chunk``
(every group of ``--summary``, in one process, the lines held in memory, the
request cache warmed: the steady state of a long log), the three in turn,
``--runs`` times, best of each; lines a second and the ratio to plain are
printed.  Target: the nested shapes within 1.3x of plain.

    python benchmarks/bench_triage_mapping.py [--lines 100000] [--runs 5] [--dir /tmp/triage-bench]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from inspector.suites.load import load_registry  # noqa: E402
from inspector.triage.mapping import LogFormat, load_log_format  # noqa: E402
from inspector.triage.records import RequestCache  # noqa: E402
from inspector.triage.synth import SHAPES as SYNTH_SHAPES  # noqa: E402
from inspector.triage.synth import write_log, write_registry  # noqa: E402
from inspector.triage.tally import Options, tally_chunk  # noqa: E402

LOGS = ROOT / "fixtures" / "logs"


def formats() -> dict[str, tuple[LogFormat, tuple[str, ...]]]:
    """Each shape's reading: the default members, or its mapping file's, grouped by its model."""
    found: dict[str, tuple[LogFormat, tuple[str, ...]]] = {"plain": (LogFormat(), ("model",))}
    for shape in ("openai", "envelope"):
        log_format, by = load_log_format(LOGS / f"{shape}.toml")
        found[shape] = (log_format, tuple(path for path in by if path.endswith("model")))
    assert set(found) == set(SYNTH_SHAPES)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/triage-bench"))
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    registry_path = args.dir / "registry.json"
    if not registry_path.exists():
        write_registry(registry_path)
    registry = load_registry(registry_path)
    shapes = formats()
    data: dict[str, bytes] = {}
    for shape in shapes:
        log = args.dir / f"mapping-{shape}-{args.lines}.jsonl"
        if not log.exists():
            write_log(log, args.lines, seed=1, shape=shape)
        data[shape] = log.read_bytes()
    lines = data["plain"].count(b"\n")
    caches = {shape: RequestCache(registry) for shape in shapes}
    options = {shape: Options(by=by, log_format=log_format) for shape, (log_format, by) in shapes.items()}

    def count(shape: str) -> Any:
        return tally_chunk(shape, 0, data[shape], 1, registry, options[shape], caches[shape])

    tallies = {shape: count(shape) for shape in shapes}  # the caches warmed: the steady state
    times: dict[str, list[float]] = {shape: [] for shape in shapes}
    for _ in range(args.runs):
        for shape in shapes:
            start = time.perf_counter()
            count(shape)
            times[shape].append(time.perf_counter() - start)
    load = os.getloadavg()[0]
    print(f"{lines:,} lines of the generator's mix, in memory; best of {args.runs}; load {load:.1f} "
          f"({os.cpu_count()} cores)")
    base = min(times["plain"])
    for shape in shapes:
        best = min(times[shape])
        print(f"{shape:9s} {len(data[shape]) / lines:5.0f} bytes a line  {lines / best:9,.0f} lines/s  "
              f"{best / lines * 1e6:6.2f} us a line  {best / base:5.2f}x plain"
              + ("   target <= 1.3x" if shape != "plain" else ""))
    same = all(tally.records == tallies["plain"].records and tally.verdicts == tallies["plain"].verdicts
               for tally in tallies.values())
    print(f"records {', '.join(f'{shape} {tally.records:,}' for shape, tally in tallies.items())}: "
          f"{'the same records and verdicts' if same else 'NOT the same counts'}")


if __name__ == "__main__":
    main()
