"""Speed of the contract, printed as figures (not a timed test).

    python benchmarks/bench_verify.py [SUITE ...]

Per case, over the suite's answers: a plain msgspec typed decode of the same
texts (the yardstick), our strict decoding alone, ``verify`` (the decision),
``verify`` plus reading the trace, and the obvious ``json`` object_pairs_hook
duplicate-key pass for comparison.  Then verify again, split by the outcome of
stage 1, each group against the decode of its own texts (an answer the typed
decode refuses costs it an exception too).  Every figure is the best of several
rounds measured in this one process, so the ratios compare like with like on a
noisy machine.  Then hostile answers within the size limit (each must cost
about what an ordinary answer costs: every scan is linear in the input), and
``inspector audit`` from process start to exit.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import msgspec

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from inspector import explain, load_suite, verify  # noqa: E402
from inspector.contract.decode import decode_answer  # noqa: E402
from inspector.contract.models import Claim  # noqa: E402


class _Answer(msgspec.Struct, forbid_unknown_fields=True):
    claims: list[Claim]


_PLAIN = msgspec.json.Decoder(_Answer)

# Answers within the size limit that once cost far more than their size.
HOSTILE = {
    # Issue 9: the depth scan restarted at every escaped quote (240-340 ms).
    "unterminated string, 4080 \\\" (8 KB)": '{"claims":"' + '\\"' * 4080 + "[" * 17,
    "unterminated string of 8 KB of [": '{"claims": "' + "[" * 8000,
    "8 KB of nested brackets": "[" * 8192,
}


def plain_decode(raw: str | bytes) -> None:
    try:
        _PLAIN.decode(raw)
    except (msgspec.DecodeError, RecursionError):
        pass


def _reject_duplicates(pairs: list[tuple[str, object]]) -> dict:
    result: dict = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(key)
        result[key] = value
    return result


def json_hook_pass(raw: str | bytes) -> None:
    try:
        json.loads(raw, object_pairs_hook=_reject_duplicates)
    except (ValueError, RecursionError):
        pass


def per_case_us(work: Callable[[], None], cases: int, rounds: int = 7, budget: float = 0.2) -> float:
    """Best-of-``rounds`` microseconds per case for ``work`` (one pass over the cases)."""
    loops = 1
    while True:
        start = time.perf_counter()
        for _ in range(loops):
            work()
        if time.perf_counter() - start > budget / rounds or loops > 1 << 20:
            break
        loops *= 2
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(loops):
            work()
        best = min(best, (time.perf_counter() - start) / loops)
    return best / cases * 1e6


def process_seconds(argv: list[str], runs: int = 15) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False, cwd=ROOT)
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def main(argv: list[str]) -> int:
    paths = [Path(p) for p in argv] or [ROOT / "fixtures" / "article.json"]
    suites = [load_suite(path) for path in paths]
    items = [(case.raw, case.request, suite.registry) for suite in suites for case in suite.cases]
    raws = [raw for raw, _, _ in items]
    n = len(items)

    def run_plain() -> None:
        for raw in raws:
            plain_decode(raw)

    def run_decode() -> None:
        for raw in raws:
            decode_answer(raw)

    def run_verify() -> None:
        for raw, request, registry in items:
            verify(raw, request, registry)

    def run_first() -> None:
        for raw, request, registry in items:
            explain(verify(raw, request, registry)).first_failure

    def run_trace() -> None:
        for raw, request, registry in items:
            explain(verify(raw, request, registry)).steps

    def run_hook() -> None:
        for raw in raws:
            json_hook_pass(raw)

    figures = {
        "msgspec typed decode (yardstick)": per_case_us(run_plain, n),
        "strict decoding (stage 1)": per_case_us(run_decode, n),
        "verify (verdict, baselines)": per_case_us(run_verify, n),
        "verify + first failure explained": per_case_us(run_first, n),
        "verify + full trace": per_case_us(run_trace, n),
        "json object_pairs_hook pass alone": per_case_us(run_hook, n),
    }
    base = figures["msgspec typed decode (yardstick)"]
    print(f"{n} cases from {', '.join(str(p.relative_to(ROOT)) if p.is_relative_to(ROOT) else str(p) for p in paths)}")
    print(f"{'':<36} {'µs/case':>9} {'× decode':>9}")
    for name, value in figures.items():
        print(f"{name:<36} {value:>9.2f} {value / base:>8.1f}×")

    # Where the time goes: the answers that pass strict decoding and those that
    # fail it, each against the decode of its own texts.
    print()
    print(f"{'verify, by stage-1 outcome':<36} {'µs/case':>9} {'× decode':>9}")
    for label, wanted in (("strict JSON", True), ("INVALID_JSON", False)):
        group = [item for item in items if verify(*item).strict_json is wanted]
        if not group:
            continue
        texts = [raw for raw, _, _ in group]

        def run_group_plain(texts: list[str | bytes] = texts) -> None:
            for raw in texts:
                plain_decode(raw)

        def run_group_verify(group: list = group) -> None:
            for raw, request, registry in group:
                verify(raw, request, registry)

        plain = per_case_us(run_group_plain, len(group))
        verified = per_case_us(run_group_verify, len(group))
        name = f"{len(group)} {label} answers"
        print(f"{name:<36} {verified:>9.2f} {verified / plain:>8.1f}×   (decode {plain:.2f} µs)")

    print()
    print(f"{'hostile answers':<36} {'µs/case':>9} {'× decode':>9}")
    _, request, registry = items[0]
    for name, raw in HOSTILE.items():
        plain = per_case_us(lambda raw=raw: plain_decode(raw), 1)
        verified = per_case_us(lambda raw=raw: verify(raw, request, registry), 1)
        print(f"{name:<36} {verified:>9.2f} {verified / plain:>8.1f}×   (decode {plain:.2f} µs)")

    audit_argv = [sys.executable, "-m", "inspector", "audit", *[str(p) for p in paths]]
    bare = process_seconds([sys.executable, "-c", "pass"])
    audit = process_seconds(audit_argv)
    audit_json = process_seconds([*audit_argv, "--format", "json"])
    print()
    print(f"{'process start to exit':<36} {'median':>9} {'best':>9}")
    print(f"{'python -c pass':<36} {bare[0]:>8.3f}s {bare[1]:>8.3f}s")
    print(f"{'inspector audit (tables)':<36} {audit[0]:>8.3f}s {audit[1]:>8.3f}s")
    print(f"{'inspector audit --format json':<36} {audit_json[0]:>8.3f}s {audit_json[1]:>8.3f}s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
