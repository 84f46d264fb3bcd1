"""Audit: run every case of some suites through the contract and compare with the
frozen labels, the way the article reports it (the ladder of admission checks and
the citation-only false accepts).  What each case and the whole set mean is the
presentation layer's (``CaseReport``, ``SuiteReport``); the audit gathers them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..contract.version import VERIFIER
from ..suites.load import SKIP_DECISION, Suite
from ..suites.review import ReviewError, load_pending, pending_files
from .case import CaseReport
from .suite import SuiteReport

__all__ = ["AUDIT_SCHEMA", "Audit", "audit", "decided_cases", "review_status"]

AUDIT_SCHEMA = "inspector.audit/1"


class Audit:
    """Every case of the audited suites, in order, and their summary."""

    def __init__(self, suites: Iterable[Suite]) -> None:
        self.suites: tuple[Suite, ...] = tuple(suites)
        reports: list[CaseReport] = []
        for suite in self.suites:
            for case in suite.cases:
                reports.append(CaseReport.of(len(reports), suite, case))
        self.results: tuple[CaseReport, ...] = tuple(reports)
        self.summary = SuiteReport(reports)

    @property
    def mismatches(self) -> tuple[CaseReport, ...]:
        return self.summary.mismatched

    def to_dict(self, version: str) -> dict[str, Any]:
        return {
            "schema": AUDIT_SCHEMA,
            "inspector_version": version,
            "verifier": VERIFIER,
            "cases": [result.to_dict() for result in self.results],
            "summary": self.summary.to_dict(),
        }


def audit(suites: Iterable[Suite]) -> Audit:
    return Audit(suites)


def _key(report: CaseReport) -> tuple[str, str]:
    return (str(report.suite.path), report.id)


def decided_cases(suites: Iterable[Suite]) -> dict[tuple[str, str], str]:
    """(suite path, case id) -> ``accept by alice`` for each case a pending file beside its suite holds a
    decision on (a skip is none); a pending file that cannot be read decides nothing (``review_status``
    says it is unusable)."""
    decided: dict[tuple[str, str], str] = {}
    for suite in suites:
        for path in pending_files(suite.path):
            try:
                pending = load_pending(path, suite)
            except ReviewError:
                continue
            for case_id, decision in pending.decisions.items():
                if decision.decision != SKIP_DECISION:
                    decided[(str(suite.path), case_id)] = f"{decision.decision} by {decision.reviewer}"
    return decided


def review_status(suites: Iterable[Suite], result: Audit) -> dict[str, Any]:
    """What a review has left: the cases to review, the decisions waiting in pending
    files beside the suites (not yet in them), the known regressions.  Read from the
    pending files as they are now, so it is not part of the audit's results (which
    ``--verify`` recomputes from the suites alone); ``audit --out`` records it in the
    manifest."""
    summary = result.summary
    files: list[dict[str, Any]] = []
    decided = decided_cases(suites)
    for suite in suites:
        for path in pending_files(suite.path):
            entry: dict[str, Any] = {"suite": str(suite.path), "path": str(path)}
            try:
                pending = load_pending(path, suite)
            except ReviewError as exc:
                entry["problem"] = exc.problem
            else:
                entry.update(reviewer=pending.content.reviewer,
                             decisions=sum(1 for d in pending.decisions.values() if d.decision != SKIP_DECISION),
                             labels=len(pending.labels))
            files.append(entry)
    return {
        "verifier": VERIFIER,
        "to_review": len(summary.pending),
        # A mismatch decided in a pending file (accepted or rejected, not yet applied) is decided, not unreviewed.
        "unreviewed_mismatches": sum(1 for report in summary.mismatched if report.case is not None
                                     and report.case.review is None and _key(report) not in decided),
        "decided_mismatches": sum(1 for report in summary.mismatched if report.case is not None
                                  and report.case.review is None and _key(report) in decided),
        "known_regressions": len(summary.known_regressions),
        "pending_decisions": sum(entry.get("decisions", 0) + entry.get("labels", 0) for entry in files),
        "pending_files": files,
    }
