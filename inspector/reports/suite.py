"""A set of cases as every front end summarises it: ``SuiteReport``.

The article's figure (how many cases each rung lets through), the label lens,
every check with the cases it stopped, abstention categories, blame, recall and
agreement, computed once from the cases' reports.  Each row keeps the numbers of
its cases, so a view that lists "the cases behind this row" never re-derives
which they are.  ``inspector audit`` (tables and JSON) and the inspector's
summary screen both render this.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..contract.checks import Check, checks_for
from ..contract.evidence import ANSWER, GENERATION, RETRIEVAL
from .agreement import Agreement, agreement
from .case import LENS_NAME, RUNGS, CaseReport, Rung
from .labels import LabelMatch

__all__ = ["CheckRow", "RungRow", "SuiteReport"]


@dataclass(frozen=True, slots=True)
class RungRow:
    """A rung of the article's figure, or a row of the label lens."""

    id: str
    name: str
    description: str
    cases: tuple[int, ...]  # the numbers of the cases it lets through (or counts)

    @property
    def count(self) -> int:
        return len(self.cases)


@dataclass(frozen=True, slots=True)
class CheckRow:
    """A check of the contract: how many cases got past it, and those it stopped first."""

    check: Check
    passed: int
    stopped: tuple[int, ...]  # the numbers of the cases whose first failure it is

    @property
    def failed(self) -> int:
        return len(self.stopped)


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 6) if whole else None


class SuiteReport:
    """The summary of some cases (a suite, several, a session).  Cases that could
    not be loaded are counted apart (``broken``) and are in no rung."""

    def __init__(self, reports: Sequence[CaseReport]) -> None:
        loaded = [report for report in reports if report.verdict is not None]
        self.reports: tuple[CaseReport, ...] = tuple(loaded)
        self.broken: tuple[int, ...] = tuple(report.number for report in reports if report.verdict is None)
        self.total = len(loaded)
        self.scoped = any(report.scoped for report in loaded)

        def numbers(test: Any) -> tuple[int, ...]:
            return tuple(report.number for report in loaded if test(report))

        self.rungs: tuple[RungRow, ...] = tuple(
            RungRow(rung.id, rung.name, rung.description, numbers(lambda r, rung=rung: rung.passes(r.verdict)))
            for rung in RUNGS)
        self.citation_false_accepts: tuple[int, ...] = numbers(lambda r: r.citation_false_accept)
        # The label lens: only answers that passed strict decoding have claims it can label.
        self.lens_labelled = sum(1 for report in loaded if report.evidence.labels)  # type: ignore[union-attr, misc]  # loaded: evidence set (misc: sum, after that)
        self.lens: tuple[RungRow, ...] = (
            RungRow("lens_answer", f"{LENS_NAME} says ANSWER", "the label lens would answer",
                    numbers(lambda r: r.evidence.policy == ANSWER)),
            RungRow("lens_disagrees", "⚠ the contract rejects", "the label lens says ANSWER, the contract rejects",
                    numbers(lambda r: r.evidence.lens_disagrees)),
        )
        stopped: dict[str, list[int]] = {}
        for report in loaded:
            check = report.verdict.check  # type: ignore[union-attr]  # loaded: verdict and evidence set
            if check is not None:
                stopped.setdefault(check.id, []).append(report.number)
        rows, remaining = [], self.total
        for check in checks_for(self.scoped):
            cases = tuple(stopped.get(check.id, ()))
            remaining -= len(cases)
            rows.append(CheckRow(check, remaining, cases))
        self.checks: tuple[CheckRow, ...] = tuple(rows)
        self.labelled = sum(1 for report in loaded if report.expected is not None)
        self.matching = sum(1 for report in loaded
                            if report.expected is not None and report.label_match is LabelMatch.MATCHES)
        # A known regression (a reviewer rejected its verdict and kept the label) is not a plain mismatch.
        self.mismatched: tuple[CaseReport, ...] = tuple(
            report for report in loaded if report.match is False and not report.known_regression)
        self.known_regressions: tuple[CaseReport, ...] = tuple(report for report in loaded if report.known_regression)
        # An exported record a person annotated as a false acceptance: no label says which rejection
        # is right, and the verdict cannot be said to match (``triage.annotations.person_label``).
        self.unlabelled: tuple[CaseReport, ...] = tuple(
            report for report in loaded if report.expected is None and report.case is not None
            and report.case.human is not None)
        self.pending: tuple[CaseReport, ...] = tuple(report for report in loaded if report.pending_reason is not None)
        self.categories: Counter[str] = Counter(
            category.id for report in loaded if (category := report.category) is not None)
        rejected = [report for report in loaded if not report.verdict.ok]  # type: ignore[union-attr]  # loaded: verdict and evidence set
        self.blame: dict[str, int] = {
            who: sum(1 for report in rejected if report.evidence.blame == who)  # type: ignore[union-attr, misc]  # loaded: evidence set (misc: sum, after that)
            for who in (RETRIEVAL, GENERATION)}
        recalls = [value for report in loaded if (value := report.evidence.recall.value) is not None]  # type: ignore[union-attr]  # loaded: verdict and evidence set
        self.mean_recall: float | None = round(sum(recalls) / len(recalls), 6) if recalls else None
        self.conflicted = sum(1 for report in loaded if report.conflicts)
        self._agreement: Agreement | None = None

    # -- reading it ----------------------------------------------------------

    def rung(self, rung: Rung | str) -> RungRow:
        wanted = rung if isinstance(rung, str) else rung.id
        return next(row for row in (*self.rungs, *self.lens) if row.id == wanted)

    @property
    def accepted(self) -> int:
        return self.rung("contract").count

    @property
    def first_failures(self) -> dict[str, int]:
        """Check id -> how many cases it stopped first (checks that stopped none left out)."""
        return {row.check.id: row.failed for row in self.checks if row.failed}

    @property
    def agreement(self) -> Agreement:
        """People's claim labels (the suite's own) against the lens and the contract."""
        if self._agreement is None:
            self._agreement = agreement(self.reports)
        return self._agreement

    @property
    def verdict_agreement(self) -> float | None:
        """Of the cases with a frozen label, the share whose verdict has it."""
        return _rate(self.matching, self.labelled)

    @property
    def lens_agreement(self) -> float | None:
        """Of all cases, the share where the lens answers exactly when the contract accepts."""
        agree = sum(1 for report in self.reports  # type: ignore[misc]  # sum's overloads, after the union-attr below
                    if (report.evidence.policy == ANSWER) == report.verdict.ok)  # type: ignore[union-attr]  # loaded: verdict and evidence set
        return _rate(agree, self.total)

    def to_dict(self) -> dict[str, Any]:
        """The ``summary`` of ``inspector audit --format json`` (schema inspector.audit/1)."""
        return {
            "cases": self.total,
            "strict_json": self.rung("strict_json").count,
            "citation_only": self.rung("citation_only").count,
            "accepted": self.accepted,
            "citation_only_false_accepts": len(self.citation_false_accepts),
            "label_mismatches": len(self.mismatched),
            "mismatched_cases": [_name(r) for r in self.mismatched],
            "known_regressions": [_name(r) for r in self.known_regressions],
            # Only when a case is unlabelled (a person's false acceptance): the JSON of other suites is as it was.
            **({"unlabelled_cases": [_name(r) for r in self.unlabelled]} if self.unlabelled else {}),
            "pending_review": [{"case": _name(r), "why": r.pending_reason} for r in self.pending],
            "ladder": [{"check": row.check.id, "code": row.check.code, "passed": row.passed}
                       for row in self.checks],
            "first_failures": dict(sorted(self.first_failures.items())),
            "categories": dict(sorted(self.categories.items())),
            "blame": dict(self.blame),
            "mean_recall": self.mean_recall,
            "conflicted_cases": self.conflicted,
            "lens_answer_contract_reject": self.rung("lens_disagrees").count,
            "agreement": {
                "verdict_vs_frozen_label": self.verdict_agreement,
                "lens_vs_contract": self.lens_agreement,
                "human": self.agreement.to_dict(self.reports) if self.agreement.any else None,
            },
        }


def _name(report: CaseReport) -> str:
    return f"{report.suite.name}/{report.id}"
