"""What opening the lab's mutation menu (``m``) and pressing a cycling mutation cost:
``menu_rows`` (every mutation's variants counted on the current claim) and
``next_variant`` (a cycling step: the variant after the one applied), on the
article's complete-answer and on a claim over a registry of 8,001 sources, where
``doc.other`` and ``quote.other_source`` give a variant per source.  The variants
of an answer are kept for the last few answers, so each is timed twice: the
first time (the variants made) and again (kept).  Prints figures; asserts
nothing.

    .venv/bin/python benchmarks/bench_lab_menu.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from inspector.lab.history import History  # noqa: E402
from inspector.lab.mutations import MUTATIONS_BY_NAME  # noqa: E402
from inspector.presentation.mutation_menu import forget_variants, menu_rows, next_variant  # noqa: E402
from inspector.suites.load import load_suite  # noqa: E402

from bench_mutate import wide_suite  # noqa: E402  (the 8,001-source suite mutate's bench uses)


def timed(function, runs: int) -> tuple[float, float]:
    """Milliseconds: the median of the first calls (nothing kept) and of the calls again."""
    first, again = [], []
    for _ in range(runs):
        forget_variants()
        start = time.perf_counter()
        function()
        first.append(time.perf_counter() - start)
        start = time.perf_counter()
        function()
        again.append(time.perf_counter() - start)
    return statistics.median(first) * 1000, statistics.median(again) * 1000


def measure(label: str, suite_path: Path, case_id: str, runs: int) -> None:
    suite = load_suite(suite_path)
    case = next(case for case in suite.cases if case.id == case_id)
    history = History(case.raw)
    request, registry = case.request, suite.registry
    doc_other = MUTATIONS_BY_NAME["doc.other"]
    first = next_variant(history, doc_other, 0, request, registry)
    assert first is not None
    cycling = history.apply(first.mutant.change())
    rows = menu_rows(history, 0, request, registry)
    variants = sum(row.variants for row in rows)
    for what, function in (
        ("menu_rows (open the menu)", lambda: menu_rows(history, 0, request, registry)),
        ("menu_rows while doc.other cycles", lambda: menu_rows(cycling, 0, request, registry)),
        ("next_variant doc.other (a cycling step)", lambda: next_variant(cycling, doc_other, 0, request, registry)),
    ):
        first, again = timed(function, runs)
        print(f"{label:<28} {what:<42} {first:>8.2f} ms {again:>8.2f} ms   ({variants:,} variants)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    print(f"{'case':<28} {'what':<42} {'first':>11} {'again':>11}")
    measure("article/complete-answer", ROOT / "fixtures" / "article.json", "complete-answer", args.runs)
    with tempfile.TemporaryDirectory() as directory:
        measure("8,001 sources", wide_suite(Path(directory)), "c0", max(3, args.runs // 3))


if __name__ == "__main__":
    main()
