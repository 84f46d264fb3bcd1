"""``inspector mutate``: every mutation applied to every accepted case, and what caught it.

Each mutant is verified once, with the case's own request and registry, and is
either killed (by the verdict code it gets) or a survivor (still accepted: a
harmless edit, or a hole in the contract).  The report says which code killed
how many, which mutants slipped (were killed by another check than the one
their mutation declares, which is how the contract's order shows), the mutation
score over the mutations meant to change the verdict, and the suite's coverage:
which of its own cases fail first with each rejection code and sub-reason.

The suite's own cases are read through the audit's ``CaseReport`` and
``SuiteReport``: their first failures are computed there, once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..contract.checks import CHECKS, CHECKS_BY_ID, STATUSES, Check, label_of
from ..contract.text import line_col
from ..contract.verdict import Verdict
from ..contract.verify import verify
from ..reports.audit import Audit
from ..reports.case import CaseReport
from ..suites.load import Suite
from .mutations import MUTATIONS, Mutant, answer_of, mutants_of

__all__ = ["MUTATE_SCHEMA", "REJECTIONS", "MutantResult", "Outcome", "MutateReport", "MutationRow", "Progress", "mutate"]

MUTATE_SCHEMA = "inspector.mutate/1"
# Every rejection code, in contract order: what a suite's own cases should cover.
REJECTIONS: tuple[str, ...] = tuple(status for status in STATUSES if status != "ACCEPT")
# The codes whose sub-reasons are covered one by one (stages 1 and 2).
REASON_CODES = ("INVALID_JSON", "NO_CITATION")
# The mutation-testing-report-schema's thresholds (percent): the HTML report's colours.
STRYKER_THRESHOLDS = {"high": 80, "low": 60}
# Told how far the report has got: (accepted cases done, accepted cases, mutants verified).
# It may raise to stop the computation (the inspector's worker does, when its screen is left).
Progress = Callable[[int, int, int], None]
# How many mutants are verified between two calls of ``progress`` within one case (a case
# over a registry of 8,000 sources has ~48,000 mutants: the caller hears from it ~47 times,
# every ~15 ms, so that a cancelled computation stops soon).
PROGRESS_EVERY = 1024


def case_name(report: CaseReport) -> str:
    """``suite/case``, as audit names a case among several suites."""
    return f"{report.suite.name}/{report.id}"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a mutant's verdict says, and nothing more: a mutant's Verdict (its
    decoded claims, its request and registry) is not kept, and equal outcomes
    are one object, so that many mutants cost little."""

    status: str
    reason: str | None
    check: Check | None
    claim: int | None

    @property
    def ok(self) -> bool:
        return self.status == "ACCEPT"

    @property
    def label(self) -> str:
        return label_of(self.status, self.reason)


def _outcome(verdict: Verdict, known: dict[tuple, Outcome]) -> Outcome:
    key = (verdict.status, verdict.reason, verdict.check, verdict.claim)
    found = known.get(key)
    if found is None:
        found = known[key] = Outcome(*key)
    return found


@dataclass(frozen=True, slots=True)
class MutantResult:
    """A mutant of an accepted case and what its verdict says."""

    parent: CaseReport
    mutant: Mutant
    verdict: Outcome

    @property
    def case(self) -> str:
        return case_name(self.parent)

    @property
    def killed(self) -> bool:
        return not self.verdict.ok

    @property
    def slipped(self) -> bool:
        """Killed, but by another check than the one its mutation is meant to trip."""
        check = self.verdict.check
        return self.killed and not self.mutant.harmless and check is not None and check.id != self.mutant.check

    @property
    def outcome(self) -> str:
        """What the verdict says: ``QUOTE_NOT_SUPPORTING (claims[0])`` or ``ACCEPT``."""
        where = f" (claims[{self.verdict.claim}])" if self.verdict.claim is not None else ""
        return self.verdict.label + where

    @property
    def reason(self) -> str:
        """What happened to the mutant against what it was meant for, in one sentence
        (the Stryker report's ``statusReason``, the inspector's mutation report)."""
        return _status_reason(self)

    def to_dict(self) -> dict[str, Any]:
        start, end, replacement = self.mutant.edit
        return {
            "case": self.case,
            "mutation": self.mutant.mutation,
            "variant": self.mutant.variant,
            "claim": self.mutant.claim,
            "meant": self.mutant.check,
            "verdict": self.verdict.label,
            "check": self.verdict.check.id if self.verdict.check is not None else None,
            "edit": {"start": start, "end": end, "replacement": replacement},
            "raw": self.mutant.raw,
        }


@dataclass(frozen=True, slots=True)
class MutationRow:
    """One mutation's figures over all the accepted cases."""

    name: str
    check: str | None
    mutants: int
    killed: int
    slipped: int
    harmless: int  # its mutants meant to stay accepted (all of a harmless mutation's; equivalent variants)
    killed_by: dict[str, int]  # verdict label -> mutants

    @property
    def survived(self) -> int:
        return self.mutants - self.killed

    def to_dict(self) -> dict[str, Any]:
        return {"check": self.check, "mutants": self.mutants, "killed": self.killed, "survived": self.survived,
                "slipped": self.slipped, "harmless": self.harmless, "killed_by": self.killed_by}


class MutateReport:
    """Every mutant of the accepted cases of some suites, verified, and the coverage
    of the suites' own cases."""

    def __init__(self, suites: Iterable[Suite], progress: Progress | None = None) -> None:
        self.audit = Audit(suites)
        self.summary = self.audit.summary
        results: list[MutantResult] = []
        outcomes: dict[tuple, Outcome] = {}
        self.parents: tuple[CaseReport, ...] = tuple(r for r in self.summary.reports if r.verdict.ok)
        total = len(self.parents)
        if progress is not None:
            progress(0, total, 0)
        for done, parent in enumerate(self.parents):
            case, registry = parent.case, parent.suite.registry
            assert case is not None
            answer = answer_of(case.raw, case.request, registry)
            if answer is None:  # pragma: no cover - an accepted answer always decodes
                continue
            for count, mutant in enumerate(mutants_of(answer), 1):
                verdict = verify(mutant.raw, case.request, registry)
                results.append(MutantResult(parent, mutant, _outcome(verdict, outcomes)))
                if progress is not None and count % PROGRESS_EVERY == 0:
                    progress(done, total, len(results))
            if progress is not None:
                progress(done + 1, total, len(results))
        self.results: tuple[MutantResult, ...] = tuple(results)
        self.meant = tuple(r for r in results if not r.mutant.harmless)
        self.harmless = tuple(r for r in results if r.mutant.harmless)
        self.survivors = tuple(r for r in results if not r.killed)
        self.holes = tuple(r for r in self.meant if not r.killed)  # meant to be rejected, accepted
        self.stricter = tuple(r for r in self.harmless if r.killed)  # harmless, yet rejected
        self.slipped = tuple(r for r in self.meant if r.slipped)
        self.coverage, self.coverage_reasons = self._coverage()
        self._killed_index: dict[str, tuple[MutantResult, ...]] | None = None

    # -- figures ---------------------------------------------------------------

    @property
    def killed(self) -> int:
        return sum(1 for r in self.results if r.killed)

    @property
    def score(self) -> float | None:
        """Killed / mutants over the mutations meant to change the verdict."""
        if not self.meant:
            return None
        return round(sum(1 for r in self.meant if r.killed) / len(self.meant), 6)

    @property
    def killed_by(self) -> dict[str, int]:
        """Verdict code -> mutants it killed first, in contract order."""
        counts = Counter(r.verdict.status for r in self.results if r.killed)
        return {code: counts[code] for code in REJECTIONS if counts[code]}

    @property
    def killed_by_reason(self) -> dict[str, int]:
        counts = Counter(r.verdict.label for r in self.results if r.killed)
        return dict(sorted(counts.items(), key=lambda item: (REJECTIONS.index(item[0].split("/")[0]), item[0])))

    @property
    def slipped_by(self) -> dict[str, int]:
        """Verdict code -> how many of the mutants it killed first were meant for another check."""
        counts = Counter(r.verdict.status for r in self.slipped)
        return {code: counts[code] for code in REJECTIONS if counts[code]}

    @property
    def slipped_by_check(self) -> dict[str, dict[str, int]]:
        """The contract's order made visible: the check that stopped slipped mutants ->
        the check each was meant for -> how many, both in contract order."""
        pairs = Counter((r.verdict.check.id, r.mutant.check) for r in self.slipped if r.verdict.check is not None)
        return {stopper.id: {meant.id: pairs[stopper.id, meant.id] for meant in CHECKS if pairs[stopper.id, meant.id]}
                for stopper in CHECKS if any(pairs[stopper.id, meant.id] for meant in CHECKS)}

    def killed_with(self, codes: Iterable[str], suite: str | None = None) -> tuple[MutantResult, ...]:
        """The mutants killed first by one of these verdict codes, code after code (of one
        suite's cases, by name): for a code a suite's own cases do not cover, the
        counterexamples that would.  The mutants are grouped by code once, on first use."""
        if self._killed_index is None:
            index: dict[str, list[MutantResult]] = {code: [] for code in REJECTIONS}
            for result in self.results:
                if result.killed:
                    index[result.verdict.status].append(result)
            self._killed_index = {code: tuple(results) for code, results in index.items()}
        wanted = set(codes)
        found = [r for code in REJECTIONS if code in wanted for r in self._killed_index[code]]
        return tuple(found if suite is None else (r for r in found if r.parent.suite.name == suite))

    def slipped_at(self, check_id: str) -> tuple[MutantResult, ...]:
        """The slipped mutants this check stopped (each meant for a later one)."""
        return tuple(r for r in self.slipped if r.verdict.check is not None and r.verdict.check.id == check_id)

    @property
    def by_check(self) -> dict[str, dict[str, int]]:
        """Check id -> the mutants it killed, and of those how many were meant for another check."""
        killed = Counter(r.verdict.check.id for r in self.results if r.killed and r.verdict.check is not None)
        slipped = Counter(r.verdict.check.id for r in self.slipped if r.verdict.check is not None)
        return {check.id: {"killed": killed[check.id], "slipped_in": slipped[check.id]}
                for check in CHECKS if killed[check.id]}

    @property
    def mutations(self) -> tuple[MutationRow, ...]:
        rows = []
        for mutation in MUTATIONS:
            mine = [r for r in self.results if r.mutant.mutation == mutation.name]
            killed_by = Counter(r.verdict.label for r in mine if r.killed)
            rows.append(MutationRow(mutation.name, mutation.check, len(mine), sum(1 for r in mine if r.killed),
                                    sum(1 for r in mine if r.slipped), sum(1 for r in mine if r.mutant.harmless),
                                    dict(sorted(killed_by.items()))))
        return tuple(rows)

    @property
    def uncovered(self) -> tuple[str, ...]:
        """The rejection codes none of the suites' own cases fails first with."""
        return tuple(code for code in REJECTIONS if not self.coverage[code])

    @property
    def uncovered_by_suite(self) -> dict[str, list[str]]:
        """Per suite, the rejection codes none of its own cases fails first with (the
        exit status reads the union, ``uncovered``)."""
        covered: dict[str, set[str]] = {suite.name: set() for suite in self.audit.suites}
        for report in self.summary.reports:
            if not report.verdict.ok:
                covered[report.suite.name].add(report.verdict.status)
        return {name: [code for code in REJECTIONS if code not in codes] for name, codes in covered.items()}

    def _coverage(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        by_number = {report.number: report for report in self.summary.reports}
        codes: dict[str, list[str]] = {code: [] for code in REJECTIONS}
        reasons: dict[str, list[str]] = {}
        for row in self.summary.checks:  # the checks of this suite's requests (access only with a scope)
            check = row.check
            if check.code in REASON_CODES:
                for reason in check.reasons:
                    reasons.setdefault(f"{check.code}/{reason}", [])
            for number in row.stopped:
                report = by_number[number]
                codes[check.code].append(case_name(report))
                if check.code in REASON_CODES:
                    reasons[f"{check.code}/{report.verdict.reason}"].append(case_name(report))
        return codes, reasons

    # -- documents -------------------------------------------------------------

    def to_dict(self, version: str) -> dict[str, Any]:
        """The ``--format json`` document (schema inspector.mutate/1)."""
        return {
            "schema": MUTATE_SCHEMA,
            "inspector_version": version,
            "cases": self.summary.total,
            "accepted_cases": [case_name(r) for r in self.parents],
            "mutants": len(self.results),
            "killed": self.killed,
            "killed_by": self.killed_by,
            "killed_by_reason": self.killed_by_reason,
            "survivors": [r.to_dict() | {"harmless": r.mutant.harmless} for r in self.survivors],
            "score": self.score,
            "scored_mutants": len(self.meant),
            "holes": len(self.holes),
            "harmless": {
                "mutants": len(self.harmless),
                "accepted": len(self.harmless) - len(self.stricter),
                "rejected": [r.to_dict() for r in self.stricter],
            },
            "slipped": [r.to_dict() for r in self.slipped],
            "slipped_by": self.slipped_by,
            "slipped_by_check": self.slipped_by_check,
            "by_check": self.by_check,
            "by_mutation": {row.name: row.to_dict() for row in self.mutations},
            "coverage": self.coverage,
            "coverage_reasons": self.coverage_reasons,
            "uncovered": list(self.uncovered),
            "uncovered_by_suite": self.uncovered_by_suite,
        }

    def to_stryker(self, version: str) -> dict[str, Any]:
        """The same report in the mutation-testing-report-schema (version 1): each
        accepted case a file whose source is its raw answer, each mutant its span."""
        files: dict[str, Any] = {}
        for parent in self.parents:
            files[f"{case_name(parent)}.json"] = {"language": "json", "source": parent.verdict.text, "mutants": []}
        for number, result in enumerate(self.results, 1):
            source = result.parent.verdict.text or ""
            start, end, replacement = result.mutant.edit
            files[f"{result.case}.json"]["mutants"].append({
                "id": str(number),
                "mutatorName": result.mutant.mutation,
                "description": result.mutant.variant,
                "replacement": replacement,
                "location": {"start": _position(source, start), "end": _position(source, end)},
                "status": "Ignored" if result.mutant.harmless else "Killed" if result.killed else "Survived",
                "statusReason": result.reason,
            })
        return {
            "schemaVersion": "1",
            "thresholds": dict(STRYKER_THRESHOLDS),
            "framework": {"name": "inspector mutate", "version": version},
            "files": files,
        }


def _position(text: str, offset: int) -> dict[str, int]:
    line, column = line_col(text, offset)
    return {"line": line, "column": column}


def _status_reason(result: MutantResult) -> str:
    mutant = result.mutant
    if mutant.harmless:
        if result.killed:
            return f"harmless, yet rejected as {result.outcome}: the contract is stricter than intended"
        return "harmless: still ACCEPT"
    if not result.killed:
        return f"still ACCEPT: meant to fail {CHECKS_BY_ID[mutant.check].title}"  # type: ignore[index]
    if result.slipped:
        return f"{result.outcome}: meant for {CHECKS_BY_ID[mutant.check].title}, " \
               f"{result.verdict.check.title} failed first"  # type: ignore[index, union-attr]
    return result.outcome


def mutate(suites: Iterable[Suite], progress: Progress | None = None) -> MutateReport:
    return MutateReport(suites, progress)
