"""What reading a tool's own lines costs: each line format's sample, and the same
records written as our plain lines, counted in one run.

For each preset read a line at a time (``openai-chat``, ``openai-responses``,
``langfuse``, ``langsmith``), its sample in ``fixtures/logs/formats/NAME/`` is
repeated to about ``--records`` records, and the same records (its
``expected.jsonl``, those with an answer) are written as plain lines (``raw``,
``request``, ``id``, ``ts``, ``model``).  Each is counted by ``tally_chunk`` (every
group of ``--summary``, in one process, the lines held in memory, the request
cache warmed), ``--runs`` times, best of each; the time a record and the ratio to
plain are printed.  Target: within 1.5x of plain (docs/performance.md).

    python benchmarks/bench_formats.py [--records 100000] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from inspector.suites.load import load_registry  # noqa: E402
from inspector.triage.formats.spec import preset  # noqa: E402
from inspector.triage.mapping import LogFormat  # noqa: E402
from inspector.triage.records import RequestCache  # noqa: E402
from inspector.triage.tally import Options, tally_chunk  # noqa: E402

FORMATS = ROOT / "fixtures" / "logs" / "formats"
SAMPLES = {"openai-chat": "completions.jsonl", "openai-responses": "responses.jsonl",
           "langfuse": "observations_v2.jsonl", "langsmith": "runs.jsonl"}


def best(data: bytes, options: Options, registry, runs: int) -> tuple[float, int]:
    requests = RequestCache(registry)
    tally_chunk("bench", 0, data, 1, registry, options, requests)  # warm the request cache
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        tally = tally_chunk("bench", 0, data, 1, registry, options, requests)
        times.append(time.perf_counter() - started)
    return min(times), tally.records


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    registry = load_registry(ROOT / "fixtures" / "logs" / "sample-registry.json")
    print(f"{'format':<18} {'records':>8} {'µs/record':>10} {'plain µs':>9} {'ratio':>6}")
    for name, sample in SAMPLES.items():
        lines = (FORMATS / name / sample).read_bytes().splitlines()
        expected = [json.loads(line) for line in (FORMATS / name / "expected.jsonl").read_text().splitlines()]
        answers = [record for record in expected if "raw" in record]
        plain = [json.dumps({key: record[key] for key in ("id", "ts", "model", "raw", "request") if key in record}
                            ).encode() for record in answers]
        repeat = max(1, args.records // len(expected))
        foreign = b"\n".join(lines * repeat) + b"\n"
        ours = b"\n".join(plain * max(1, args.records // len(plain))) + b"\n"
        spec = preset(name)
        seconds, records = best(foreign, Options(by=("model",), log_format=LogFormat(spec=spec)), registry, args.runs)
        plain_seconds, plain_records = best(ours, Options(by=("model",)), registry, args.runs)
        mine, theirs = seconds / records * 1e6, plain_seconds / plain_records * 1e6
        print(f"{name:<18} {records:>8,} {mine:>10.2f} {theirs:>9.2f} {mine / theirs:>5.2f}x")


if __name__ == "__main__":
    main()
