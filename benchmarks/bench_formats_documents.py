"""Reading one large JSON document record by record (``triage.formats.sources``):
throughput and peak memory, the figures of issue 31's documents.

The document is an Inspect AI log as its ``.json`` recorder writes it: ``eval``
first, then ``samples``, each sample ~10 KB (an input, a transcript of chat
messages, the output, its usage, scores and metadata), ``--megabytes`` of it in
all, written once in ``--dir`` (streamed: the writer holds one sample) and
reused; ``--gzip`` also reads it gzip-compressed.  Each reading is one fresh
process, which takes every sample at ``samples[*]`` and drops it; it prints the
seconds, MB/s of JSON text and its peak RSS (``ru_maxrss``), next to the RSS of
the same process before reading (Python, ijson and the inspector imported).
The machine is shared: the load average is printed.

    python benchmarks/bench_formats_documents.py [--megabytes 500] [--dir /tmp/formats-documents] [--gzip]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

READER = """
import json, resource, sys, time
from inspector.triage.formats.sources import BACKEND, iter_document
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
count = problems = 0
for item in iter_document(sys.argv[1], "samples[*]"):
    count += 1
    problems += item.problem is not None
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "records": count, "problems": problems, "backend": BACKEND,
                  "rss_before_kib": before, "rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def sample(number: int) -> dict:
    """One Inspect-shaped sample, ~10 KB as JSON."""
    words = f"sample {number} asks about the claims of a service revision; " * 8
    messages = [{"id": f"m{number}-{turn}", "role": role, "source": "generate" if role == "assistant" else "input",
                 "content": words + f"turn {turn}"} for turn, role in
                enumerate(["system", "user", "assistant", "user", "assistant", "user", "assistant", "user"])]
    answer = json.dumps({"service": "billing", "claims": [{"field": f"f{i}", "value": i} for i in range(40)]})
    return {
        "id": number, "epoch": 1, "input": words, "target": "ACCEPT",
        "messages": messages,
        "output": {"model": "openai/gpt-4o", "choices": [{"message": {"role": "assistant", "content": answer},
                                                          "stop_reason": "stop"}],
                   "completion": answer, "usage": {"input_tokens": 812, "output_tokens": 311, "total_tokens": 1123},
                   "time": 1.25},
        "scores": {"verify": {"value": "C", "answer": "ACCEPT", "explanation": words[:300]}},
        "metadata": {"request": {"service": "billing", "environment": "prod", "revision": "r7",
                                 "fields": [f"f{i}" for i in range(12)], "supplied": ["f0", "f1"]},
                     "temperature": 0.2, "max_tokens": 1024},
        "store": {}, "events": [], "model_usage": {}, "total_time": 2.5, "working_time": 2.1,
        "uuid": f"{number:032x}", "attachments": {},
    }


def build(path: Path, megabytes: int, compress: bool) -> int:
    """The document, written a sample at a time; its size in bytes (of JSON text)."""
    target = megabytes * 1_000_000
    temporary = path.with_name(path.name + ".part")
    opener = gzip.open if compress else open
    written = 0
    with opener(temporary, "wt", encoding="utf-8") as out:  # type: ignore[operator]
        head = '{"version": 2, "status": "success", "eval": {"model": "openai/gpt-4o", "task": "claims"}, "samples": ['
        out.write(head)
        written += len(head)
        number = 0
        while written < target:
            text = ("," if number else "") + json.dumps(sample(number))
            out.write(text)
            written += len(text)
            number += 1
        out.write("]}")
        written += 2
    temporary.rename(path)
    return written


def measure(path: Path) -> dict:
    proc = subprocess.run([sys.executable, "-c", READER, str(path)], capture_output=True, text=True, cwd=ROOT,
                          check=False)
    if proc.returncode:
        raise SystemExit(f"reading {path} failed:\n{proc.stderr}")
    return json.loads(proc.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=int, default=500, help="the document's size in MB of JSON text")
    parser.add_argument("--dir", default=os.path.join("/tmp", "formats-documents"), help="where it is written")
    parser.add_argument("--gzip", action="store_true", help="also read it gzip-compressed (.json.gz)")
    args = parser.parse_args()
    where = Path(args.dir)
    where.mkdir(parents=True, exist_ok=True)
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    cases = [where / f"inspect-{args.megabytes}mb.json"]
    if args.gzip:
        cases.append(where / f"inspect-{args.megabytes}mb.json.gz")
    size = 0
    for path in cases:
        if not path.exists():
            print(f"writing {path} ...", flush=True)
            size = build(path, args.megabytes, path.suffix == ".gz")
        size = size or (path.stat().st_size if path.suffix != ".gz" else cases[0].stat().st_size)
        found = measure(path)
        print(f"{path.name}: {found['records']:,} records ({found['problems']} problems) "
              f"in {found['seconds']:.1f} s, {size / 1e6 / found['seconds']:.0f} MB/s of JSON text; "
              f"peak RSS {found['rss_kib'] / 1024:.0f} MB (before reading {found['rss_before_kib'] / 1024:.0f} MB); "
              f"file {path.stat().st_size / 1e6:.0f} MB; ijson backend {found['backend']}")


if __name__ == "__main__":
    main()
