"""The ways to narrow the case list to a kind of case, declared once.

The palette offers them; each names itself for the palette (``title``, ``help``)
and for the case list's title (``description``), and finds its cases in a
session.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..contract.checks import CHECKS, STATUSES
from .session import Session

__all__ = ["CHECK_FILTERS", "FILTERS", "STATUS_FILTERS", "CaseFilter"]


@dataclass(frozen=True, slots=True)
class CaseFilter:
    id: str
    title: str  # "verdict ACCEPT", as the palette lists it
    help: str
    description: str  # as the case list's title says it
    cases: Callable[[Session], list[int]]


def _status(status: str, title: str, help_text: str) -> CaseFilter:
    return CaseFilter(f"status:{status}", title, help_text, f"verdict {status}",
                      lambda session: session.with_status(status))


def _check(check_id: str, title: str, code: str) -> CaseFilter:
    return CaseFilter(f"check:{check_id}", f"first failing check {check_id} ({title})",
                      f"Only the cases whose first failure is {title} ({code}).", f"first failure {check_id}",
                      lambda session: session.failing_at(check_id))


STATUS_FILTERS: tuple[CaseFilter, ...] = (
    *(_status(status, f"verdict {status}", f"Only the cases whose verdict is {status}.") for status in STATUSES),
    _status("ERROR", "verdict ERROR (could not be loaded)", "Only the cases that could not be loaded."),
)
CHECK_FILTERS: tuple[CaseFilter, ...] = (
    *(_check(check.id, check.title, check.code) for check in CHECKS),
    CaseFilter("mismatched", "verdict differs from the frozen label",
               "Only the cases whose verdict is not their frozen label (known regressions left out: a reviewer "
               "kept their label knowingly).", "label differs",
               lambda session: session.mismatched()),
    CaseFilter("known_regressions", "known regressions (rejected in review)",
               "Only the cases a reviewer rejected the verdict of, keeping the label: they differ, knowingly.",
               "known regressions", lambda session: session.known_regressions()),
    CaseFilter("lens_disagrees", "label lens says ANSWER, contract rejects",
               "Only the cases the weaker per-claim label lens would answer and the contract rejects.",
               "lens ANSWER, contract rejects", lambda session: session.lens_disagreements()),
)
FILTERS: dict[str, CaseFilter] = {f.id: f for f in (*STATUS_FILTERS, *CHECK_FILTERS)}
