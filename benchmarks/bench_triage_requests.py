"""What distinct requests cost a triage (issue 17, item 7), from process start.

Three logs, each counted by ``inspector triage LOG --registry G --summary
--format json --workers 1`` in a fresh process (wall time and peak RSS):

- ``--requests`` distinct requests (each supplies one source of the group and
  one unknown id; half the answers accepted, half VALUE_MISMATCH) against a
  registry of ``--sources`` sources in one service/environment/revision, all
  with the requested fields and disagreeing on one: recall, conflicts and blame
  over a large group;
- the same requests with an access scope (each a distinct ``now``): access
  control asked of the group's conflicting sources;
- ``--huge`` requests, each with a distinct 3 MiB ``service``.

Issue 17 measured 50,000 distinct requests against 10,000 sources (121 s, 7.9
GB) and 600 requests of a 3 MiB service (3.9 GB); the defaults are a tenth of
that, to stay within a shared machine's memory.  Before the fix (main at
60ae1ba), on a 2-core machine with a load of about 9: 15.3 s / 833 MB, 367 s /
1,031 MB and 21.8 s / 1,924 MB; after it, at a load of 6: 1.1 s / 52 MB,
36 s / 54 MB (access control is still asked of each of the group's
conflicting sources, once a distinct scoped request) and 5.0 s / 118 MB.  Targets: time linear in the lines and the
distinct requests, peak RSS within 300 MB.

    python benchmarks/bench_triage_requests.py [--sources 10000] [--requests 5000] [--huge 60]
                                               [--dir /tmp/triage-requests-bench]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TIMER = """
import json, resource, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
seconds = time.perf_counter() - start
if proc.returncode:
    sys.exit(proc.stderr.decode()[-2000:])
print(json.dumps({"seconds": seconds, "rss_kib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""

FIELDS = ("read_timeout_ms", "region")


def timed(argv: list[str]) -> dict[str, float]:
    proc = subprocess.run([sys.executable, "-c", TIMER, *argv], capture_output=True, text=True, cwd=ROOT, check=False)
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)} failed:\n{proc.stderr}")
    return json.loads(proc.stdout)


def timeout(number: int) -> str:
    return str(1000 + number % 7)  # the group disagrees on read_timeout_ms


def write_registry(path: Path, sources: int) -> None:
    documents = [{"id": f"s{n}", "service": "payments", "environment": "prod", "revision": "v3",
                  "facts": {"read_timeout_ms": timeout(n), "region": "eu"},
                  "text": f"read_timeout_ms={timeout(n)}\nregion=eu", "tenant": "t", "readers": ["u"],
                  "approved": True, "deleted": False, "expires_at": 9e9} for n in range(sources)]
    path.write_text(json.dumps({"sources": documents}))


def write_requests(path: Path, sources: int, requests: int, scoped: bool) -> None:
    with open(path, "w") as out:
        for number in range(requests):
            doc = f"s{number % sources}"
            request = {"service": "payments", "environment": "prod", "revision": "v3", "fields": list(FIELDS),
                       "supplied": [doc, f"x{number}"]}
            if scoped:
                request["scope"] = {"tenant": "t", "user": "u", "now": 1000 + number}
            value = timeout(number % sources) if number % 2 else "1"
            claims = [{"field": "read_timeout_ms", "value": value, "doc": doc, "quote": f"read_timeout_ms={value}"},
                      {"field": "region", "value": "eu", "doc": doc, "quote": "region=eu"}]
            out.write(json.dumps({"raw": json.dumps({"claims": claims}), "request": request, "id": number}) + "\n")


def write_huge(path: Path, lines: int) -> None:
    claims = [{"field": "read_timeout_ms", "value": "1001", "doc": "s1", "quote": "read_timeout_ms=1001"}]
    raw = json.dumps({"claims": claims})
    with open(path, "w") as out:
        for number in range(lines):
            request = {"service": f"{number:06d}" + "x" * (3 << 20), "environment": "prod", "revision": "v3",
                       "fields": ["read_timeout_ms"], "supplied": ["s1"]}
            out.write(json.dumps({"raw": raw, "request": request}) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sources", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=5_000)
    parser.add_argument("--huge", type=int, default=60)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/triage-requests-bench"))
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    registry = args.dir / f"registry-{args.sources}.json"
    if not registry.exists():
        write_registry(registry, args.sources)
    logs = {
        f"{args.requests:,} distinct requests, {args.sources:,}-source group":
            (args.dir / f"requests-{args.sources}-{args.requests}.jsonl", write_requests, (args.sources, args.requests, False)),
        f"{args.requests:,} distinct scoped requests, {args.sources:,}-source group":
            (args.dir / f"scoped-{args.sources}-{args.requests}.jsonl", write_requests, (args.sources, args.requests, True)),
        f"{args.huge:,} requests of a distinct 3 MiB service":
            (args.dir / f"huge-{args.huge}.jsonl", write_huge, (args.huge,)),
    }
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    for title, (log, write, extra) in logs.items():
        if not log.exists():
            write(log, *extra)
        found = timed([sys.executable, "-m", "inspector", "triage", str(log), "--registry", str(registry),
                       "--summary", "--format", "json", "--workers", "1"])
        print(f"{title:55} {found['seconds']:7.2f} s  {found['rss_kib'] / 1024:6.0f} MB peak RSS", flush=True)


if __name__ == "__main__":
    main()
