"""What the inspector points at: a case, a step of its trace, a claim.  No textual.

A ``Selection`` is an immutable snapshot built on every move; each view reads
from it only what it shows (the request attribute, the source row and column,
the spans in the answer and in the source text) and redraws only when that
changed.  Nothing here decides anything: the verdict's trace already says what
each step compared, this module only locates it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..contract.checks import CHECKS, Check
from ..contract.models import Claim, Source
from ..contract.verify import Outcome, Span, Step, Verdict
from .session import Entry

__all__ = ["Selection", "Tone", "ladder", "ladder_checks", "select"]


class Tone(StrEnum):
    """How a highlight is coloured: what the step compared, and how it went."""

    PASSED = "passed"
    FAILED = "failed"
    PENDING = "pending"  # not reached, or cannot be evaluated


@dataclass(frozen=True, slots=True)
class Selection:
    entry: Entry
    verdict: Verdict | None  # None for a case that could not be loaded
    steps: tuple[Step, ...]  # the trace, or the explored trace
    position: int  # index into steps; -1 when there are none
    claim: int | None  # the current claim, None when no claim was decoded
    explore: bool = False

    # -- the step ------------------------------------------------------------

    @property
    def step(self) -> Step | None:
        return self.steps[self.position] if 0 <= self.position < len(self.steps) else None

    @property
    def check(self) -> Check | None:
        step = self.step
        return step.check if step is not None else None

    @property
    def tone(self) -> Tone:
        step = self.step
        if step is None or step.outcome is Outcome.NOT_REACHED or step.outcome is Outcome.UNAVAILABLE:
            return Tone.PENDING
        return Tone.FAILED if step.outcome is Outcome.FAILED else Tone.PASSED

    @property
    def on_claim(self) -> bool:
        """True when the step is about the current claim (a per-claim step)."""
        step = self.step
        return step is not None and step.claim is not None and step.claim == self.claim

    # -- what the step compares -----------------------------------------------

    @property
    def claim_value(self) -> Claim | None:
        if self.verdict is None or self.claim is None or self.claim >= len(self.verdict.claims):
            return None
        return self.verdict.claims[self.claim]

    @property
    def claim_member(self) -> str | None:
        """The claim member the step reads (field, value, doc, quote)."""
        return self.check.claim_member if self.on_claim and self.check is not None else None

    @property
    def request_attribute(self) -> str | None:
        step = self.step
        if step is None:
            return None
        return step.request_attribute or step.check.request_attribute

    @property
    def source(self) -> Source | None:
        """The source in question: the step's cited source, else the current claim's."""
        if self.verdict is None:
            return None
        registry = self.verdict.registry
        step = self.step
        if step is not None and step.source is not None:
            return registry.get(step.source)
        claim = self.claim_value
        return registry.get(claim.doc) if claim is not None else None

    @property
    def source_attribute(self) -> str | None:
        """``id``, ``service``, ``environment``, ``revision``, ``text`` or ``facts.<field>``."""
        step = self.step
        if step is None or not self.on_claim:
            return None
        attribute = step.source_attribute or step.check.source_attribute
        if attribute == "fact":
            claim = self.claim_value
            return f"facts.{claim.field}" if claim is not None else None
        return attribute

    @property
    def source_span(self) -> Span | None:
        step = self.step
        return step.source_span if step is not None and self.on_claim else None

    @property
    def quote_missing(self) -> bool:
        """The quote is not in the cited text (the source span is then the nearest line)."""
        step = self.step
        return step is not None and step.check.id == "quote_found" and step.failed

    @property
    def answer_spans(self) -> tuple[Span, ...]:
        """Where the step looked in the answer: the compared member, a decode error,
        both occurrences of a duplicate key."""
        step = self.step
        if step is None or step.answer_span is None:
            return ()
        return (step.answer_span, *step.related_spans)

    @property
    def claim_span(self) -> Span | None:
        if self.verdict is None or self.claim is None:
            return None
        return self.verdict.claim_span(self.claim)

    # -- moving ---------------------------------------------------------------

    def at(self, position: int) -> Selection:
        """The same case with another step selected (its claim becomes current)."""
        position = max(0, min(position, len(self.steps) - 1)) if self.steps else -1
        step = self.steps[position] if position >= 0 else None
        claim = step.claim if step is not None and step.claim is not None else self.claim
        return Selection(self.entry, self.verdict, self.steps, position, claim, self.explore)

    def with_claim(self, claim: int) -> Selection:
        """Another claim: the same check for that claim when the step is per claim."""
        if self.verdict is None or not self.verdict.claims:
            return self
        claim = max(0, min(claim, len(self.verdict.claims) - 1))
        step = self.step
        if step is not None and step.claim is not None:
            for position, other in enumerate(self.steps):
                if other.check is step.check and other.claim == claim:
                    return Selection(self.entry, self.verdict, self.steps, position, claim, self.explore)
        return Selection(self.entry, self.verdict, self.steps, self.position, claim, self.explore)

    def at_check(self, check: Check) -> Selection:
        """The step of this check for the current claim (or the check's only step)."""
        for position, step in enumerate(self.steps):
            if step.check is check and (step.claim is None or step.claim == self.claim):
                return self.at(position)
        return self

    @property
    def first_failure(self) -> int | None:
        for position, step in enumerate(self.steps):
            if step.outcome is Outcome.FAILED and step.reached:
                return position
        return None

    def exploring(self, explore: bool) -> Selection:
        """Switch between the trace and the explored trace, keeping the step."""
        if self.verdict is None or explore == self.explore:
            return self
        steps = self.verdict.explore() if explore else self.verdict.trace
        return Selection(self.entry, self.verdict, steps, self.position, self.claim, explore)


def select(entry: Entry, verdict: Verdict | None, explore: bool = False) -> Selection:
    """A freshly opened case: its first failure selected (the last step when accepted)."""
    if verdict is None:
        return Selection(entry, None, (), -1, None, explore)
    steps = verdict.explore() if explore else verdict.trace
    claim = 0 if verdict.claims else None
    selection = Selection(entry, verdict, steps, -1, claim, explore)
    failure = selection.first_failure
    return selection.at(failure if failure is not None else len(steps) - 1)


# Checks that need an access scope are not in the trace of a request without one.
_UNSCOPED_CHECKS: tuple[Check, ...] = tuple(check for check in CHECKS if not check.needs_scope)


def ladder_checks(selection: Selection) -> tuple[Check, ...]:
    """The checks the ladder shows, in contract order: all of them when the request
    carries an access scope, else those the trace can hold (no "access allowed")."""
    case = selection.entry.case
    scoped = case is not None and case.request.scope is not None
    return CHECKS if scoped else _UNSCOPED_CHECKS


def ladder(selection: Selection) -> list[tuple[Check, Step | None]]:
    """Every check the ladder shows, in contract order, with its step for the current claim."""
    rows: dict[str, Step] = {}
    for step in selection.steps:
        if step.claim is None or step.claim == selection.claim:
            rows.setdefault(step.check.id, step)
    return [(check, rows.get(check.id)) for check in ladder_checks(selection)]
