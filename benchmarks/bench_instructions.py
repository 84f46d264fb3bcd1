"""Instructions per ``verify`` on the article's suite, counted by valgrind's callgrind.

Wall-clock figures move by tens of percent on a busy machine; instruction
counts do not (the same binary, inputs and hash seed give the same count).  So
"no slower than before" is checked here: each tree is run twice under callgrind,
with 0 and with N rounds over the 22 answers, and the difference divided by the
answers verified.  ``--vs PATH`` counts another checkout (its ``inspector``
package and ``fixtures``) the same way, for a before/after in one run.

    python benchmarks/bench_instructions.py [--rounds 300] [--vs /path/to/other/checkout]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROGRAM = """
import sys
root, rounds = sys.argv[1], int(sys.argv[2])
sys.path.insert(0, root)
from inspector import load_suite, verify
suite = load_suite(root + "/fixtures/article.json")
items = [(case.raw, case.request, suite.registry) for case in suite.cases]
for _ in range(rounds):
    for raw, request, registry in items:
        verify(raw, request, registry)
"""


def instructions(root: Path, rounds: int) -> int:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", PROGRAM,
             str(root), str(rounds)],
            capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}, check=True)
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no count:\n{proc.stderr[-2000:]}")
    return int(found.group(1))


def per_verify(root: Path, rounds: int) -> float:
    cases = 22  # the article's suite
    return (instructions(root, rounds) - instructions(root, 0)) / (rounds * cases)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--vs", type=Path, help="another checkout to count the same way")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed: apt-get install valgrind")
    here = per_verify(ROOT, args.rounds)
    print(f"{'this tree':<40} {here:10,.0f} instructions per verify")
    if args.vs is not None:
        other = per_verify(args.vs.resolve(), args.rounds)
        print(f"{str(args.vs):<40} {other:10,.0f} instructions per verify")
        print(f"{'this tree / the other':<40} {here / other:10.3f}")


if __name__ == "__main__":
    main()
