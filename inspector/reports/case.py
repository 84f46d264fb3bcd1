"""One case as every front end shows it: ``CaseReport``.

Everything the verdict panel, the case list, ``inspector check`` and ``inspector
audit`` say about a case is computed here, once: whether the verdict has its
frozen label, the article's rungs (strict JSON, citation-only, contract) and the
label lens side by side, the call-outs, the abstention category, whose failure
it is and the recall behind that, the conflicts, the accepted map.  Views only
render these values; none of them decides anything.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Protocol

import msgspec

from ..contract.access import format_number
from ..contract.evidence import ANSWER, RETRIEVAL, Assessment, Category, Conflict, assess
from ..contract.trace import Step, Trace, explain
from ..contract.verdict import Verdict
from ..contract.verify import verify
from ..contract.version import VERIFIER
from ..suites.load import REJECT_DECISION, Case, CaseError, CaseMetadata, HumanDecision, Provenance, Suite
from ..suites.review import case_sha256
from .labels import LabelMatch, label_matches, match_of, short_label
from .tones import Tone

__all__ = [
    "CLAIM_LABELS",
    "RUNGS",
    "Baseline",
    "BaselineFlip",
    "Blame",
    "CaseReport",
    "Comparison",
    "Origin",
    "ConflictLine",
    "Rung",
    "RungFlags",
    "verdict_document",
    "versus",
]


class RungFlags(Protocol):
    """What a rung reads: a ``Verdict``, or the flags a triage's count kept of one."""

    @property
    def strict_json(self) -> bool: ...
    @property
    def citation_only(self) -> bool: ...
    @property
    def ok(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class Rung:
    """One of the article's admission rungs, named as the article names it."""

    id: str
    name: str
    description: str

    def passes(self, flags: RungFlags) -> bool:
        passed: bool = getattr(flags, _RUNG_FIELDS[self.id])
        return passed


RUNGS: tuple[Rung, ...] = (
    Rung("strict_json", "strict JSON", "strict decoding passed: strict JSON of the claims shape"),
    Rung("citation_only", "citation-only", "the quote exists in a supplied source (stages 1-2 passed)"),
    Rung("contract", "contract", "every check of the contract passed"),
)
_RUNG_FIELDS = {"strict_json": "strict_json", "citation_only": "citation_only", "contract": "ok"}

LENS_NAME = "label lens"
# The label lens's per-claim labels as shown: (mark, word, tone).  INSUFFICIENT
# stands for INSUFFICIENT_EVIDENCE; a narrow table shows the mark alone.
CLAIM_LABELS: dict[str, tuple[str, str, Tone]] = {
    "SUPPORTED": ("✓", "SUPPORTED", Tone.GOOD),
    "CONTRADICTED": ("✗", "CONTRADICTED", Tone.BAD),
    "INSUFFICIENT_EVIDENCE": ("?", "INSUFFICIENT", Tone.WARN),
}
LENS_CALLOUT = "⚠ the label lens would answer this: it ignores scope, revision, supply and quotes"
CITATION_CALLOUT = "⚠ citation-only would have accepted this"
# A registry may hold many documents that disagree: the verdict names a few.
SHOWN_CONFLICTS = 3
SHOWN_VALUES = 4


@dataclass(frozen=True, slots=True)
class Baseline:
    """One row of the baselines: a rung (or the lens) and whether it lets the answer through."""

    name: str
    accepts: bool
    yes: str = "accept"
    no: str = "reject"

    @property
    def word(self) -> str:
        return self.yes if self.accepts else self.no

    @property
    def tone(self) -> Tone:
        return Tone.GOOD if self.accepts else Tone.BAD


@dataclass(frozen=True, slots=True)
class Blame:
    """Whose failure a rejection is, and what retrieval supplied."""

    who: str  # "retrieval" or "generation"
    why: str  # words before ``missing``
    missing: tuple[str, ...]  # requested fields no supplied source supports
    recall: str  # "recall 1/2" or "recall n/a: no source states it"

    @property
    def tone(self) -> Tone:
        return Tone.WARN if self.who == RETRIEVAL else Tone.PLAIN


@dataclass(frozen=True, slots=True)
class ConflictLine:
    field: str
    values: tuple[tuple[str, str], ...]  # (source, value), the first SHOWN_VALUES
    hidden: int  # documents not shown


# How a baseline's word reads in "citation-only still accepts".
_VERBS = {"accept": "accepts", "reject": "rejects", "ANSWER": "answers", "ABSTAIN": "abstains"}


@dataclass(frozen=True, slots=True)
class BaselineFlip:
    """One baseline before and after the lab's changes."""

    was: Baseline
    now: Baseline

    @property
    def flipped(self) -> bool:
        return self.was.accepts != self.now.accepts

    @property
    def words(self) -> str:
        """``citation-only still accepts``, ``contract now rejects``."""
        return f"{self.now.name} {'now' if self.flipped else 'still'} {_VERBS[self.now.word]}"

    @property
    def tone(self) -> Tone:
        return Tone.WARN if self.flipped else Tone.MUTED


@dataclass(frozen=True, slots=True)
class Comparison:
    """An edited case against its frozen self (or one trial of an item against its first: ``versus``): the
    verdict before and after, and which baselines flipped.  ``changes`` are the lab's applied changes, in
    words; ``was_of``: what the verdict before is of, when it is another answer's (``trial 1``)."""

    was: str  # the frozen answer's label
    now: str
    claim: int | None  # the claim the edited answer was rejected on
    baselines: tuple[BaselineFlip, ...]
    changes: tuple[str, ...]
    was_of: str | None = None

    @property
    def flipped(self) -> bool:
        return self.was != self.now

    @property
    def headline(self) -> str:
        """``was ACCEPT, now QUOTE_NOT_SUPPORTING (claims[0])``, or ``still ACCEPT``; of another answer,
        ``was ACCEPT (trial 1), now ...``, or ``ACCEPT, as trial 1``."""
        now = self.now if self.claim is None else f"{self.now} (claims[{self.claim}])"
        if self.was_of is None:
            return f"was {self.was}, now {now}" if self.flipped else f"still {now}"
        return f"was {self.was} ({self.was_of}), now {now}" if self.flipped else f"{now}, as {self.was_of}"


def versus(first: CaseReport, other: CaseReport, first_of: str) -> Comparison | None:
    """``other`` against ``first``, another answer to the same question (an item's first trial: ``first_of``
    names it), as the lab compares an edited case with its frozen self; None when either has no verdict."""
    verdict = other.verdict
    if first.verdict is None or verdict is None:
        return None
    flips = tuple(BaselineFlip(was, now) for was, now in zip(first.baselines, other.baselines, strict=True))
    return Comparison(first.actual, other.actual, None if verdict.ok else verdict.claim, flips, (), first_of)


@dataclass(frozen=True, slots=True)
class Origin:
    """A saved counterexample's provenance, as shown: its parent, the edits in words."""

    parent_suite: str
    parent_case: str
    parent_sha256: str
    edits: tuple[str, ...]  # a mutation's dotted name, or an edit as "value of claims[0]"
    inspector_version: str

    @classmethod
    def of(cls, provenance: Provenance) -> Origin:
        return cls(provenance.parent_suite, provenance.parent_case, provenance.parent_sha256,
                   tuple(_edit_words(edit) for edit in provenance.edits), provenance.inspector_version)


def _edit_words(edit: str | dict[str, Any]) -> str:
    if isinstance(edit, str):
        return edit
    what, member, claim = edit.get("what"), edit.get("member"), edit.get("claim")
    place = f"claims[{claim}]" if isinstance(claim, int) else ""
    if member:
        place = f"{place}.{member}" if place else str(member)
    return f"{what} {place}".strip() if place else str(what)


class CaseReport:
    """A case of a suite (or one that could not be loaded) with its verdict, as shown.

    ``number`` is the case's place among the cases shown together (a session, an
    audit).  Computed once per case; the trace and the assessment when first read.
    A case edited in the lab is another report of the same case, its answer
    replaced, with ``parent`` the frozen case's report and ``changes`` the lab's
    applied changes (``lab.history.Change``) in order.
    """

    __slots__ = ("_evidence", "_trace", "case", "changes", "error", "number", "parent", "suite", "verdict")

    def __init__(self, number: int, suite: Suite, case: Case | None = None, error: CaseError | None = None,
                 verdict: Verdict | None = None) -> None:
        self.number = number
        self.suite = suite
        self.case = case
        self.error = error
        self.verdict = verdict
        self.parent: CaseReport | None = None
        self.changes: tuple[Any, ...] = ()
        self._trace: Trace | None = None
        self._evidence: Assessment | None = None

    @classmethod
    def of(cls, number: int, suite: Suite, case: Case) -> CaseReport:
        """The report of a loaded case, its verdict computed now."""
        return cls(number, suite, case, verdict=verify(case.raw, case.request, suite.registry))

    def edited(self, raw: str | bytes, changes: tuple[Any, ...]) -> CaseReport:
        """The report of this (frozen) case with its answer replaced by the lab's ``changes``."""
        assert self.case is not None and self.parent is None
        report = CaseReport.of(self.number, self.suite, replace(self.case, raw=raw))
        report.parent = self
        report.changes = changes
        return report

    @property
    def comparison(self) -> Comparison | None:
        """An edited case against its frozen self (None when not edited)."""
        parent, verdict = self.parent, self.verdict
        if parent is None or verdict is None:
            return None
        flips = tuple(BaselineFlip(was, now) for was, now in zip(parent.baselines, self.baselines, strict=True))
        return Comparison(parent.actual, self.actual, None if verdict.ok else verdict.claim, flips,
                          tuple(change.what for change in self.changes))

    # -- the case -------------------------------------------------------------

    @property
    def id(self) -> str:
        if self.case is not None:
            return self.case.id
        assert self.error is not None
        return self.error.id if self.error.id is not None else f"cases[{self.error.index}]"

    @property
    def index(self) -> int:
        """The case's position in its suite file."""
        return self.case.index if self.case is not None else self.error.index  # type: ignore[union-attr]  # a case or its error, always one

    @property
    def expected(self) -> str | None:
        return self.case.expected if self.case is not None else None

    @property
    def note(self) -> str | None:
        return self.case.note if self.case is not None else None

    @property
    def metadata(self) -> CaseMetadata | None:
        """An exported triage record's place and metadata (None for any other case)."""
        return self.case.metadata if self.case is not None else None

    @property
    def human(self) -> HumanDecision | None:
        """A reviewer's decision on an exported triage record's verdict (None for any other case)."""
        return self.case.human if self.case is not None else None

    @property
    def origin(self) -> Origin | None:
        """Where a saved counterexample came from (None for any other case)."""
        provenance = self.case.provenance if self.case is not None else None
        return Origin.of(provenance) if provenance is not None else None

    @property
    def broken(self) -> bool:
        return self.case is None

    @property
    def scoped(self) -> bool:
        return self.case is not None and self.case.request.scope is not None

    @property
    def request_items(self) -> tuple[tuple[str, str, str], ...]:
        """The request as shown: (attribute, label, value), the attribute being what
        a step's ``request_attribute`` names."""
        if self.case is None:
            return ()
        request = self.case.request
        items = [
            ("service", "service", request.service),
            ("environment", "environment", request.environment),
            ("revision", "revision", request.revision),
            ("fields", "fields", ", ".join(request.fields)),
            ("supplied", "supplied", ", ".join(request.supplied) or "none"),
        ]
        if request.scope is not None:
            scope = request.scope
            now = format_number(scope.now)  # an epoch stays an integer, not 1.7e+09
            items.append(("scope", "scope", f"tenant {scope.tenant}, user {scope.user}, now {now}"))
        return tuple(items)

    @property
    def claims_missing(self) -> str:
        """Why there are no claims to show."""
        verdict = self.verdict
        if verdict is None:
            return "the case could not be loaded"
        if not verdict.strict_json:
            return "no claims: the answer did not pass strict decoding"
        return "no claims: the claims array is empty"

    # -- what the contract and the evidence say --------------------------------

    @property
    def trace(self) -> Trace | None:
        if self._trace is None and self.verdict is not None:
            self._trace = explain(self.verdict)
        return self._trace

    @property
    def evidence(self) -> Assessment | None:
        if self._evidence is None and self.verdict is not None:
            self._evidence = assess(self.verdict)
        return self._evidence

    @property
    def first_failure(self) -> Step | None:
        trace = self.trace
        return trace.first_failure if trace is not None else None

    @property
    def actual(self) -> str:
        """The label the contract gives (``ERROR`` for a case that could not be loaded)."""
        return "ERROR" if self.verdict is None else self.verdict.label

    @property
    def status(self) -> str:
        return "ERROR" if self.verdict is None else self.verdict.status

    @property
    def label_match(self) -> LabelMatch:
        """The verdict against the frozen label (a bare STATUS ignores the sub-reason)."""
        return match_of(self.expected, self.verdict)

    @property
    def lens_match(self) -> bool | None:
        """Whether the per-claim labels and policy are the frozen ones (None if not frozen)."""
        case, evidence = self.case, self.evidence
        if case is None or evidence is None or (case.expected_labels is None and case.expected_policy is None):
            return None
        return (case.expected_labels is None or tuple(case.expected_labels) == evidence.labels) and (
            case.expected_policy is None or case.expected_policy == evidence.policy)

    @property
    def match(self) -> bool | None:
        """Every frozen expectation holds (None when nothing is frozen)."""
        if self.verdict is None:
            return False
        checks = [m for m in (label_matches(self.expected, self.verdict), self.lens_match) if m is not None]
        return all(checks) if checks else None

    @property
    def differs(self) -> bool:
        """A frozen expectation does not hold, or the case could not be loaded."""
        return self.match is False

    # -- its review (inspector review) ----------------------------------------------

    @property
    def pending_reason(self) -> str | None:
        """Why a reviewer should look at this case, from the suite alone (None: nothing
        to decide): its verdict differs from its label and no review kept it, it was
        saved and never reviewed, or its review no longer holds (the case was edited,
        the contract changed, or the verdict changed since it was rejected)."""
        case = self.case
        if case is None or self.verdict is None:
            return None
        review = case.review
        if review is None:
            if self.differs:
                return "differs from its frozen label"
            if case.provenance is not None:
                return "saved, never reviewed"
            return None
        if review.verifier != VERIFIER:
            return f"reviewed under another contract ({review.verifier})"
        if review.sha256 != case_sha256(case):
            return "edited since its review"
        if review.decision == REJECT_DECISION and self.differs and review.verdict != self.actual:
            return f"rejected as {review.verdict}, now {self.actual}"
        return None

    @property
    def known_regression(self) -> bool:
        """A reviewer rejected this verdict and kept the label: it differs, knowingly."""
        case = self.case
        return (case is not None and case.review is not None and case.review.decision == REJECT_DECISION
                and self.differs and self.pending_reason is None)

    @property
    def short_expected(self) -> str:
        return short_label(self.expected)

    @property
    def short_actual(self) -> str:
        return short_label(self.actual)

    @property
    def actual_tone(self) -> Tone:
        return Tone.GOOD if self.actual == "ACCEPT" else Tone.BAD if self.actual == "ERROR" else Tone.PLAIN

    # -- the verdict panel, line by line -----------------------------------------

    @property
    def baselines(self) -> tuple[Baseline, ...]:
        """The article's rungs and the label lens, side by side."""
        verdict, evidence = self.verdict, self.evidence
        if verdict is None or evidence is None:
            return ()
        rows = [Baseline(rung.name, rung.passes(verdict)) for rung in RUNGS]
        rows.insert(2, Baseline(LENS_NAME, evidence.policy == ANSWER, "ANSWER", "ABSTAIN"))
        return tuple(rows)

    @property
    def claim_labels(self) -> tuple[str, ...]:
        """The label lens's label of each claim (empty unless strict decoding passed)."""
        evidence = self.evidence
        return evidence.labels if evidence is not None else ()

    @property
    def lens_callout(self) -> str | None:
        evidence = self.evidence
        return LENS_CALLOUT if evidence is not None and evidence.lens_disagrees else None

    @property
    def citation_callout(self) -> str | None:
        return CITATION_CALLOUT if self.citation_false_accept else None

    @property
    def citation_false_accept(self) -> bool:
        """Citation-only lets the answer through and the contract rejects it."""
        verdict = self.verdict
        return verdict is not None and verdict.citation_only and not verdict.ok

    @property
    def category(self) -> Category | None:
        evidence = self.evidence
        return evidence.category if evidence is not None else None

    @property
    def blame(self) -> Blame | None:
        verdict, evidence = self.verdict, self.evidence
        if verdict is None or evidence is None:
            return None
        who = evidence.blame
        if who is None:
            return None
        recall = evidence.recall
        missing: tuple[str, ...] = ()
        if recall.missing:
            why, missing = "no supplied source supports ", recall.missing
        elif who == RETRIEVAL:
            why = "it supplied a document the scope may not read"
        elif not verdict.strict_json:
            why = "the output is malformed"
        else:
            why = "the supporting evidence was supplied"
        counts = recall.counts
        words = f"recall {counts[0]}/{counts[1]}" if counts else "recall n/a: no source states it"
        return Blame(who, why, missing, words)

    @property
    def conflicts(self) -> tuple[Conflict, ...]:
        evidence = self.evidence
        return evidence.conflicts if evidence is not None else ()

    @property
    def conflict_lines(self) -> tuple[tuple[ConflictLine, ...], int]:
        """The conflicts the verdict names (the first SHOWN_CONFLICTS) and how many more there are."""
        conflicts = self.conflicts
        lines = tuple(ConflictLine(c.field, c.values[:SHOWN_VALUES], max(0, len(c.values) - SHOWN_VALUES))
                      for c in conflicts[:SHOWN_CONFLICTS])
        return lines, max(0, len(conflicts) - SHOWN_CONFLICTS)

    # -- for machines ----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The case's entry in ``inspector audit --format json`` (schema inspector.audit/1)."""
        verdict, evidence, case = self.verdict, self.evidence, self.case
        assert verdict is not None and evidence is not None and case is not None
        step = self.first_failure
        category = evidence.category
        return {
            "suite": case.suite,
            "id": case.id,
            "expected": case.expected,
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
            "labels": list(evidence.labels),
            "policy": evidence.policy,
            "expected_labels": list(case.expected_labels) if case.expected_labels is not None else None,
            "expected_policy": case.expected_policy,
            "lens_disagrees": evidence.lens_disagrees,
            "category": category.id if category else None,
            "blame": evidence.blame,
            "recall": evidence.recall.value,
            "conflicts": [conflict.describe() for conflict in evidence.conflicts],
            "known_regression": self.known_regression,
            "pending": self.pending_reason,
            # Only a saved or reviewed case has these: the bundled suites' JSON is unchanged.
            **({"provenance": msgspec.to_builtins(case.provenance)} if case.provenance is not None else {}),
            # A signed decision's members as in its suite (``Signed.document``).
            **({"review": case.review.document()} if case.review is not None else {}),
            **({"history": [change.document() for change in case.history]} if case.history else {}),
            **({"human_labels": [label.document() for label in case.human_labels]} if case.human_labels else {}),
            # Only a case a reviewer decided on has one (an annotated triage record's export).
            **({"human": case.human.document()} if case.human is not None else {}),
            # Only an exported triage record has one: its place and metadata.
            **({"metadata": msgspec.to_builtins(case.metadata)} if case.metadata is not None else {}),
        }


def verdict_document(verdict: Verdict, trace: bool = False) -> dict[str, Any]:
    """One verdict for ``inspector check --format json``."""
    explained, evidence = explain(verdict), assess(verdict)
    failure = explained.first_failure
    category = evidence.category
    recall = evidence.recall
    document: dict[str, Any] = {
        "status": verdict.status,
        "reason": verdict.reason,
        "strict_json": verdict.strict_json,
        "citation_only": verdict.citation_only,
        "accepted": dict(verdict.accepted),
        "first_failure": None if failure is None else {
            "check": failure.check.id,
            "reason": failure.reason,
            "claim": failure.claim,
            "detail": failure.explanation,
            "hint": failure.hint,
        },
        "labels": list(evidence.labels),
        "policy": evidence.policy,
        "category": category.id if category else None,
        "next_action": category.next_action if category else None,
        "blame": evidence.blame,
        "recall": recall.value,
        "missing_retrieval": list(recall.missing),
        "conflicts": [conflict.describe() for conflict in evidence.conflicts],
    }
    if trace:
        document["trace"] = [step.to_dict() for step in explained.steps]
    return document
