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
    def verdict_match(self) -> bool | None:
        return label_matches(self.case.expected, self.verdict)

    @property
    def lens_match(self) -> bool | None:
        """Whether the per-claim labels and policy are the frozen ones (None if not frozen)."""
        case, verdict = self.case, self.verdict
        if case.expected_labels is None and case.expected_policy is None:
            return None
        return (case.expected_labels is None or tuple(case.expected_labels) == verdict.labels) and (
            case.expected_policy is None or case.expected_policy == verdict.policy
        )

    @property
    def match(self) -> bool | None:
        """Every frozen expectation holds (None when nothing is frozen)."""
        checks = [m for m in (self.verdict_match, self.lens_match) if m is not None]
        return all(checks) if checks else None

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
            "labels": list(verdict.labels),
            "policy": verdict.policy,
            "expected_labels": list(self.case.expected_labels) if self.case.expected_labels is not None else None,
            "expected_policy": self.case.expected_policy,
            "lens_disagrees": verdict.lens_disagrees,
            "category": category.id if (category := verdict.category) else None,
            "blame": verdict.blame,
            "recall": verdict.recall.value,
            "conflicts": [conflict.describe() for conflict in verdict.conflicts],
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
        scoped = any(result.case.request.scope is not None for result in self.results)
        rungs, stopped = [], 0
        for check in CHECKS:
            if check.needs_scope and not scoped:
                continue
            stopped += failed_at.get(check.id, 0)
            rungs.append((check, total - stopped))
        return rungs

    def first_failures(self) -> Counter[str]:
        return Counter(result.first_failure_check.id for result in self.results
                       if result.first_failure_check is not None)

    def summary(self) -> dict[str, Any]:
        results = self.results
        rejected = [r for r in results if not r.verdict.ok]
        recalls = [value for r in results if (value := r.verdict.recall.value) is not None]
        labelled = [r.verdict_match for r in results if r.verdict_match is not None]
        categories = Counter(c.id for r in results if (c := r.verdict.category) is not None)
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
            "categories": dict(sorted(categories.items())),
            "blame": {
                "retrieval": sum(r.verdict.blame == "retrieval" for r in rejected),
                "generation": sum(r.verdict.blame == "generation" for r in rejected),
            },
            "mean_recall": round(sum(recalls) / len(recalls), 6) if recalls else None,
            "conflicted_cases": sum(bool(r.verdict.conflicts) for r in results),
            "lens_answer_contract_reject": sum(r.verdict.lens_disagrees for r in results),
            "agreement": {
                "verdict_vs_frozen_label": round(sum(labelled) / len(labelled), 6) if labelled else None,
                "lens_vs_contract": round(
                    sum((r.verdict.policy == "ANSWER") == r.verdict.ok for r in results) / len(results), 6
                ) if results else None,
            },
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
