"""``inspector mutate``: every mutation applied to every accepted case, and what caught it.

Each mutant is verified once, with the case's own request and registry, and is
either killed (by the verdict code it gets) or a survivor (still accepted: a
harmless edit, or a hole in the contract).  The report says which code killed
how many, which mutants slipped (were killed by another check than the one
their mutation declares, which is how the contract's order shows), the mutation
score over the mutations meant to change the verdict, and the suite's coverage:
which of its own cases fail first with each rejection code and sub-reason.

A suite of 40,000 accepted cases has millions of mutants, so the figures are
counts (``Tally``), kept while ``MutationRun.stream`` verifies the mutants one
at a time: the command writes its report as the mutants come and keeps none of
them (those it lists after the figures wait in a ``Spool``, on disk past a few
MiB).  ``MutateReport``, the inspector's report screen, keeps every mutant, to
list them.

The suite's own cases are read through the audit's ``CaseReport`` and
``SuiteReport``: their first failures are computed there, once.
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Self

from ..contract.checks import CHECKS, CHECKS_BY_ID, STATUSES, Check, label_of
from ..contract.trace import plan
from ..contract.verdict import Verdict
from ..contract.verify import verify
from ..reports.audit import Audit
from ..reports.case import CaseReport
from ..suites.load import Suite
from .mutations import MUTATIONS, Mutant, answer_of, mutants_of

__all__ = ["MUTATE_SCHEMA", "REJECTIONS", "MutantResult", "MutateReport", "MutationRow", "MutationRun", "Outcome",
           "Progress", "Spool", "Tally", "mutate"]

MUTATE_SCHEMA = "inspector.mutate/2"
# Every rejection code, in contract order: what a suite's own cases should cover.
REJECTIONS: tuple[str, ...] = tuple(status for status in STATUSES if status != "ACCEPT")
# The codes whose sub-reasons are covered one by one (stages 1 and 2).
REASON_CODES = ("INVALID_JSON", "NO_CITATION")
# Told how far the report has got: (accepted cases done, accepted cases, mutants verified).
# It may raise to stop the computation (the inspector's worker does, when its screen is left).
Progress = Callable[[int, int, int], None]
# How many mutants are verified between two calls of ``progress`` within one case (a case
# over a registry of 8,000 sources has ~48,000 mutants: the caller hears from it ~47 times,
# every ~15 ms, so that a cancelled computation stops soon).
PROGRESS_EVERY = 1024
# A spool holds this many bytes in memory before it moves to a temporary file.
SPOOL_IN_MEMORY = 4 << 20


def case_name(report: CaseReport) -> str:
    """``suite/case``, as audit names a case among several suites."""
    return f"{report.suite.name}/{report.id}"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a mutant's verdict says, and nothing more: a mutant's Verdict (its
    decoded claims, its request and registry) is not kept, and equal outcomes
    are one object, so that many mutants cost little.  ``covered`` is every
    check the contract applied to the mutant, in contract order: the ones it
    passed and, last, the one that rejected it."""

    status: str
    reason: str | None
    check: Check | None
    claim: int | None
    covered: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.status == "ACCEPT"

    @property
    def label(self) -> str:
        return label_of(self.status, self.reason)


def _covered(verdict: Verdict) -> tuple[str, ...]:
    """The checks applied to a verified answer, in contract order: the trace's steps up
    to its first failure (claim after claim: an earlier claim may have passed a check
    that comes after the one a later claim failed)."""
    failure = verdict.decoded.failure
    steps = plan(len(verdict.claims) if failure is None else None, verdict.scoped)
    failing = verdict.check
    if failing is None:
        upto = len(steps)
    elif failure is not None:
        upto = next(i for i, (check, _) in enumerate(steps) if check is failing) + 1
    else:
        upto = steps.index((failing, verdict.claim)) + 1
    applied = {check.id for check, _ in steps[:upto]}
    return tuple(check.id for check in CHECKS if check.id in applied)


def _outcome(verdict: Verdict, known: dict[tuple[Any, ...], Outcome]) -> Outcome:
    failure = verdict.decoded.failure
    key = (verdict.status, verdict.reason, verdict.check, verdict.claim,
           len(verdict.claims) if failure is None else None, verdict.scoped)
    found = known.get(key)
    if found is None:
        found = known[key] = Outcome(*key[:4], _covered(verdict))
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
    def hole(self) -> bool:
        """Meant to be rejected, and accepted."""
        return not self.mutant.harmless and self.verdict.ok

    @property
    def stricter(self) -> bool:
        """Harmless, and rejected: the contract is stricter than intended."""
        return self.mutant.harmless and not self.verdict.ok

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
        """The mutant in the JSON report: its edit of its case's raw text says what it
        is; the whole mutated text (``raw``) only for a hole, the one to read in full."""
        start, end, replacement = self.mutant.edit
        found = {
            "case": self.case,
            "mutation": self.mutant.mutation,
            "variant": self.mutant.variant,
            "claim": self.mutant.claim,
            "meant": self.mutant.check,
            "verdict": self.verdict.label,
            "check": self.verdict.check.id if self.verdict.check is not None else None,
            "edit": {"start": start, "end": end, "replacement": replacement},
        }
        if self.hole:
            found["raw"] = self.mutant.raw
        return found


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


class Tally:
    """Every figure of a report, counted mutant by mutant: its size depends on the
    catalogue and the contract (codes, checks, mutations), never on how many
    mutants there are."""

    def __init__(self) -> None:
        self.mutants = self.killed = self.meant = self.meant_killed = 0
        self.harmless = self.stricter = self.holes = self.slipped = 0
        self.by_status: Counter[str] = Counter()  # verdict code -> mutants it killed first
        self.by_label: Counter[str] = Counter()  # verdict label -> mutants it killed first
        self.by_check: Counter[str] = Counter()  # check id -> mutants it killed
        self.slipped_by_status: Counter[str] = Counter()
        self.slipped_pairs: Counter[tuple[str, str]] = Counter()  # (stopping check, meant check) -> mutants
        # mutation name -> [mutants, killed, slipped, harmless], and its kills per verdict label
        self.rows: dict[str, list[int]] = {mutation.name: [0, 0, 0, 0] for mutation in MUTATIONS}
        self.row_labels: dict[str, Counter[str]] = {mutation.name: Counter() for mutation in MUTATIONS}

    @property
    def survivors(self) -> int:
        return self.mutants - self.killed

    def add(self, result: MutantResult) -> None:
        mutant, verdict = result.mutant, result.verdict
        row = self.rows[mutant.mutation]
        self.mutants += 1
        row[0] += 1
        harmless = mutant.harmless
        if harmless:
            self.harmless += 1
            row[3] += 1
        else:
            self.meant += 1
        if verdict.ok:
            if not harmless:
                self.holes += 1
            return
        self.killed += 1
        row[1] += 1
        self.by_status[verdict.status] += 1
        self.by_label[verdict.label] += 1
        self.row_labels[mutant.mutation][verdict.label] += 1
        if verdict.check is not None:
            self.by_check[verdict.check.id] += 1
        if harmless:
            self.stricter += 1
            return
        self.meant_killed += 1
        if verdict.check is not None and verdict.check.id != mutant.check:
            self.slipped += 1
            row[2] += 1
            self.slipped_by_status[verdict.status] += 1
            self.slipped_pairs[verdict.check.id, mutant.check] += 1  # type: ignore[index]  # a harmful mutant names its check


class MutationRun:
    """The accepted cases of some suites, the coverage of the suites' own cases, and
    every figure of the mutants, counted as ``stream`` verifies them one at a time."""

    def __init__(self, suites: Iterable[Suite]) -> None:
        self.audit = Audit(suites)
        self.summary = self.audit.summary
        self.parents: tuple[CaseReport, ...] = tuple(r for r in self.summary.reports if r.verdict.ok)  # type: ignore[union-attr]  # a loaded case: its verdict is set
        self.coverage, self.coverage_reasons = self._coverage()
        self.tally = Tally()
        self._streamed = False

    def stream(self, progress: Progress | None = None) -> Iterator[MutantResult]:
        """Every mutant of every accepted case, verified, in case and catalogue order,
        each counted as it is yielded (once: the figures are complete when it ends)."""
        if self._streamed:
            raise RuntimeError("the mutants of a run are verified once")
        self._streamed = True
        outcomes: dict[tuple[Any, ...], Outcome]
        tally, outcomes = self.tally, {}
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
                result = MutantResult(parent, mutant, _outcome(verdict, outcomes))
                tally.add(result)
                yield result
                if progress is not None and count % PROGRESS_EVERY == 0:
                    progress(done, total, tally.mutants)
            if progress is not None:
                progress(done + 1, total, tally.mutants)

    # -- figures ---------------------------------------------------------------

    @property
    def score(self) -> float | None:
        """Killed / mutants over the mutations meant to change the verdict."""
        tally = self.tally
        return round(tally.meant_killed / tally.meant, 6) if tally.meant else None

    @property
    def killed_by(self) -> dict[str, int]:
        """Verdict code -> mutants it killed first, in contract order."""
        counts = self.tally.by_status
        return {code: counts[code] for code in REJECTIONS if counts[code]}

    @property
    def killed_by_reason(self) -> dict[str, int]:
        counts = self.tally.by_label
        return dict(sorted(counts.items(), key=lambda item: (REJECTIONS.index(item[0].split("/")[0]), item[0])))

    @property
    def slipped_by(self) -> dict[str, int]:
        """Verdict code -> how many of the mutants it killed first were meant for another check."""
        counts = self.tally.slipped_by_status
        return {code: counts[code] for code in REJECTIONS if counts[code]}

    @property
    def slipped_by_check(self) -> dict[str, dict[str, int]]:
        """The contract's order made visible: the check that stopped slipped mutants ->
        the check each was meant for -> how many, both in contract order."""
        pairs = self.tally.slipped_pairs
        return {stopper.id: {meant.id: pairs[stopper.id, meant.id] for meant in CHECKS if pairs[stopper.id, meant.id]}
                for stopper in CHECKS if any(pairs[stopper.id, meant.id] for meant in CHECKS)}

    @property
    def by_check(self) -> dict[str, dict[str, int]]:
        """Check id -> the mutants it killed, and of those how many were meant for another check."""
        killed = self.tally.by_check
        slipped = Counter(stopper for stopper, _ in self.tally.slipped_pairs.elements())
        return {check.id: {"killed": killed[check.id], "slipped_in": slipped[check.id]}
                for check in CHECKS if killed[check.id]}

    @property
    def mutations(self) -> tuple[MutationRow, ...]:
        tally = self.tally
        # a row is its four counts (mutants, killed, slipped, harmless), which mypy cannot count in a list
        return tuple(MutationRow(mutation.name, mutation.check, *tally.rows[mutation.name],  # type: ignore[call-arg, arg-type]
                                 dict(sorted(tally.row_labels[mutation.name].items())))
                     for mutation in MUTATIONS)

    @property
    def uncovered(self) -> tuple[str, ...]:
        """The rejection codes none of the suites' own cases fails first with."""
        return tuple(code for code in REJECTIONS if not self.coverage[code])

    @property
    def uncovered_by_suite(self) -> dict[str, list[str]]:
        """Per suite, the rejection codes none of its own cases fails first with
        (``--require-coverage`` reads the union, ``uncovered``)."""
        covered: dict[str, set[str]] = {suite.name: set() for suite in self.audit.suites}
        for report in self.summary.reports:
            if not report.verdict.ok:  # type: ignore[union-attr]  # a loaded case: its verdict is set
                covered[report.suite.name].add(report.verdict.status)  # type: ignore[union-attr]  # a loaded case: its verdict is set
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
                    reasons[f"{check.code}/{report.verdict.reason}"].append(case_name(report))  # type: ignore[union-attr]  # a loaded case: its verdict is set
        return codes, reasons

    def figures(self, version: str) -> dict[str, Any]:
        """The ``--format json`` document's counts, in its order, the lists of mutants
        aside (``mutation_json`` writes those as they come back from their spools)."""
        tally = self.tally
        return {
            "schema": MUTATE_SCHEMA,
            "inspector_version": version,
            "cases": self.summary.total,
            "accepted_cases": [case_name(r) for r in self.parents],
            "mutants": tally.mutants,
            "killed": tally.killed,
            "killed_by": self.killed_by,
            "killed_by_reason": self.killed_by_reason,
            "survivors": None,
            "score": self.score,
            "scored_mutants": tally.meant,
            "holes": tally.holes,
            "harmless": {"mutants": tally.harmless, "accepted": tally.harmless - tally.stricter, "rejected": None},
            "slipped": None,
            "slipped_by": self.slipped_by,
            "slipped_by_check": self.slipped_by_check,
            "by_check": self.by_check,
            "by_mutation": {row.name: row.to_dict() for row in self.mutations},
            "coverage": self.coverage,
            "coverage_reasons": self.coverage_reasons,
            "uncovered": list(self.uncovered),
            "uncovered_by_suite": self.uncovered_by_suite,
        }


class MutateReport(MutationRun):
    """Every mutant of the accepted cases of some suites, verified and kept (the
    inspector's report screen lists them and opens them in the lab), with the
    same figures as the command's."""

    def __init__(self, suites: Iterable[Suite], progress: Progress | None = None) -> None:
        super().__init__(suites)
        results = tuple(self.stream(progress))
        self.results: tuple[MutantResult, ...] = results
        self.meant = tuple(r for r in results if not r.mutant.harmless)
        self.harmless = tuple(r for r in results if r.mutant.harmless)
        self.survivors = tuple(r for r in results if not r.killed)
        self.holes = tuple(r for r in self.meant if not r.killed)  # meant to be rejected, accepted
        self.stricter = tuple(r for r in self.harmless if r.killed)  # harmless, yet rejected
        self.slipped = tuple(r for r in self.meant if r.slipped)
        self._killed_index: dict[str, tuple[MutantResult, ...]] | None = None

    @property
    def killed(self) -> int:
        return self.tally.killed

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


class Spool:
    """Mutants put aside while a report streams, read back in order once the figures
    before them are written: a line of JSON each, in memory up to a few MiB and in a
    temporary file past that (deleted when closed), so that listing a million
    survivors costs disk, not memory."""

    def __init__(self, parents: Iterable[CaseReport]) -> None:
        self.parents = tuple(parents)
        self._numbers = {id(parent): number for number, parent in enumerate(self.parents)}
        # Closed by close() (or the with statement): the spool outlives this call.
        self._file = tempfile.SpooledTemporaryFile(  # noqa: SIM115
            SPOOL_IN_MEMORY, mode="w+", encoding="utf-8", newline="\n")
        self.count = 0

    def add(self, result: MutantResult) -> None:
        mutant, verdict = result.mutant, result.verdict
        self._file.write(json.dumps([
            self._numbers[id(result.parent)], mutant.mutation, mutant.variant, mutant.claim, mutant.edit,
            mutant.check, verdict.status, verdict.reason, verdict.check.id if verdict.check else None,
            verdict.claim, verdict.covered], ensure_ascii=False) + "\n")
        self.count += 1

    def __iter__(self) -> Iterator[MutantResult]:
        self._file.flush()
        self._file.seek(0)
        outcomes: dict[tuple[Any, ...], Outcome] = {}
        for line in self._file:
            number, mutation, variant, claim, edit, meant, status, reason, check, where, covered = json.loads(line)
            parent = self.parents[number]
            key = (status, reason, check, where, tuple(covered))
            outcome = outcomes.get(key)
            if outcome is None:
                outcome = outcomes[key] = Outcome(status, reason, CHECKS_BY_ID[check] if check else None, where,
                                                  tuple(covered))
            mutant = Mutant(mutation, variant, claim, tuple(edit), meant, parent.verdict.text or "")
            yield MutantResult(parent, mutant, outcome)
        self._file.seek(0, 2)

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _status_reason(result: MutantResult) -> str:
    mutant = result.mutant
    if mutant.harmless:
        if result.killed:
            return f"harmless, yet rejected as {result.outcome}: the contract is stricter than intended"
        return "harmless: still ACCEPT"
    if not result.killed:
        # a harmful mutation names its check; a slipped mutant's verdict names the check that failed
        return f"still ACCEPT: meant to fail {CHECKS_BY_ID[mutant.check].title}"  # type: ignore[index]
    if result.slipped:
        return (f"{result.outcome}: meant for {CHECKS_BY_ID[mutant.check].title}, "  # type: ignore[index]  # a harmful mutant names its check
                f"{result.verdict.check.title} failed first")  # type: ignore[union-attr]  # a slipped mutant's verdict names the check that failed
    return result.outcome


def mutate(suites: Iterable[Suite], progress: Progress | None = None) -> MutateReport:
    return MutateReport(suites, progress)
