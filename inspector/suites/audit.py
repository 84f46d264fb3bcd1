"""Audit: run every case of some suites through the contract and compare with the
frozen labels, the way the article reports it (the ladder of admission checks and
the citation-only false accepts)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..contract.checks import CHECKS, Check
from ..contract.verify import Verdict, verify
from .load import Case, Suite, parse_label

__all__ = ["AUDIT_SCHEMA", "Audit", "CaseResult", "audit", "label_matches"]

AUDIT_SCHEMA = "inspector.audit/1"


def label_matches(expected: str | None, verdict: Verdict) -> bool | None:
    """Whether a verdict has the frozen label; ``STATUS`` alone ignores the sub-reason.
    None when there is no label to compare with."""
    if expected is None:
        return None
    status, reason = parse_label(expected)
    return verdict.status == status and (reason is None or verdict.reason == reason)


@dataclass(frozen=True, slots=True)
class CaseResult:
    case: Case
    verdict: Verdict

    @property
    def match(self) -> bool | None:
        return label_matches(self.case.expected, self.verdict)

    @property
    def first_failure_check(self) -> Check | None:
        return self.verdict.failed_check

    def to_dict(self) -> dict[str, Any]:
        verdict = self.verdict
        step = verdict.first_failure
        return {
            "suite": self.case.suite,
            "id": self.case.id,
            "expected": self.case.expected,
            "actual": verdict.label,
            "match": self.match,
            "strict_json": verdict.strict_json,
            "citation_only": verdict.citation_only,
            "accepted": dict(verdict.accepted),
            "first_failure": None if step is None else {
                "check": step.check.id,
                "code": step.check.code,
                "reason": step.reason,
                "claim": step.claim,
                "detail": step.explanation,
            },
            "labels": [],
            "policy": None,
        }


@dataclass(slots=True)
class Audit:
    results: list[CaseResult] = field(default_factory=list)

    @property
    def mismatches(self) -> list[CaseResult]:
        return [result for result in self.results if result.match is False]

    def ladder(self) -> list[tuple[Check, int]]:
        """For each check in contract order, how many cases got past it."""
        total = len(self.results)
        failed_at = Counter(result.first_failure_check.id for result in self.results
                            if result.first_failure_check is not None)
        rungs, stopped = [], 0
        for check in CHECKS:
            stopped += failed_at.get(check.id, 0)
            rungs.append((check, total - stopped))
        return rungs

    def first_failures(self) -> Counter[str]:
        return Counter(result.first_failure_check.id for result in self.results
                       if result.first_failure_check is not None)

    def summary(self) -> dict[str, Any]:
        results = self.results
        return {
            "cases": len(results),
            "strict_json": sum(r.verdict.strict_json for r in results),
            "citation_only": sum(r.verdict.citation_only for r in results),
            "accepted": sum(r.verdict.ok for r in results),
            "citation_only_false_accepts": sum(r.verdict.citation_only and not r.verdict.ok for r in results),
            "label_mismatches": len(self.mismatches),
            "mismatched_cases": [f"{r.case.suite}/{r.case.id}" for r in self.mismatches],
            "ladder": [{"check": check.id, "code": check.code, "passed": passed}
                       for check, passed in self.ladder()],
            "first_failures": dict(sorted(self.first_failures().items())),
        }

    def to_dict(self, version: str) -> dict[str, Any]:
        return {
            "schema": AUDIT_SCHEMA,
            "inspector_version": version,
            "cases": [result.to_dict() for result in self.results],
            "summary": self.summary(),
        }


def audit(suites: Iterable[Suite]) -> Audit:
    result = Audit()
    for suite in suites:
        for case in suite.cases:
            result.results.append(CaseResult(case, verify(case.raw, case.request, suite.registry)))
    return result
