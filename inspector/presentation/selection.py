"""What the inspector points at: a case, a step of its trace, a claim.

A ``Selection`` is an immutable snapshot built on every move.  Each view reads
from it only what it shows (the request attribute, the source row and column,
the spans in the answer and in the source text, the checks panel's rows, the step in
words) and redraws only when that changed.  Nothing here decides anything: the
trace already resolved what each step compared; this module says which of it is
current and how it reads.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..contract.access import CONDITIONS
from ..contract.checks import CHECKS_BY_ID, Check, Stage, checks_for
from ..contract.models import Claim, Source
from ..contract.trace import Outcome, SourceSpan, Span, Step
from ..reports.case import CaseReport
from ..reports.tones import Tone

__all__ = ["ACCESS_ATTRIBUTES", "MARKS", "STAGE_NAMES", "CheckRow", "Selection", "SourceCaption", "StepDetail", "select"]

# The source metadata the access check reads, in the order it checks them (the
# registry's access columns).
ACCESS_ATTRIBUTES = CONDITIONS
# The short names of the stages, for the checks panel's first column.
STAGE_NAMES = {Stage.DECODE: "decode", Stage.CITATION: "citation", Stage.CLAIM: "claim", Stage.COVERAGE: "coverage"}
MARKS = {Outcome.PASSED: "✓", Outcome.FAILED: "✗", Outcome.NOT_REACHED: "·", Outcome.UNAVAILABLE: "?"}
_MARK_TONES = {Outcome.PASSED: Tone.GOOD, Outcome.FAILED: Tone.BAD,
               Outcome.NOT_REACHED: Tone.PLAIN, Outcome.UNAVAILABLE: Tone.PLAIN}


def tone_of(step: Step | None) -> Tone:
    """A highlight's tone: what the step compared, and how it went."""
    if step is None or step.outcome is Outcome.NOT_REACHED or step.outcome is Outcome.UNAVAILABLE:
        return Tone.PENDING
    return Tone.BAD if step.outcome is Outcome.FAILED else Tone.GOOD


@dataclass(frozen=True, slots=True)
class CheckRow:
    """One row of the checks panel: a check, and its step for the current claim."""

    check: Check
    step: Step | None  # None: no step (a case that could not be loaded)
    stage: str  # the stage's name on its first rung, else ""
    first_failure: bool  # this is the step that rejected the answer

    @property
    def mark(self) -> str:
        return "–" if self.step is None else MARKS[self.step.outcome]

    @property
    def mark_tone(self) -> Tone:
        return Tone.PENDING if self.step is None else _MARK_TONES[self.step.outcome]

    @property
    def failure(self) -> str | None:
        """The sub-reason (or code) shown beside a failed rung."""
        step = self.step
        return (step.reason or step.code) if step is not None and step.failed else None

    @property
    def dim(self) -> bool:
        """Not reached, explored past the first failure, or no step at all."""
        return self.step is None or not self.step.reached

    @property
    def shown(self) -> tuple[object, ...]:
        """What the rung shows: two rungs with the same ``shown`` look the same."""
        return (self.check.id, self.stage, self.mark, self.mark_tone, self.failure, self.first_failure, self.dim)


@dataclass(frozen=True, slots=True)
class StepDetail:
    """The selected step in words: what it checked, what it found, how to fix it."""

    title: str  # mark and check title
    where: str  # " · claims[1] · explored · 7/26"
    explanation: str  # untrusted: quotes values from the answer and the registry
    label: str | None  # STATUS/REASON when the step failed
    hint: str | None  # the fix, when the step failed (untrusted: Step.fix quotes the claim's and source's values)
    tone: Tone  # of the explanation: PLAIN when passed, MUTED otherwise


@dataclass(frozen=True, slots=True)
class SourceCaption:
    """What the source text view says above the text."""

    source: str | None  # the source's id (untrusted), None when there is no text to show
    doc: str | None  # the cited id when it is not in the registry (untrusted)
    note: str  # after "<id> text": " · quote at line 3", " · quote not found · nearest line 2 marked", ...
    tone: Tone


@dataclass(frozen=True, slots=True)
class Selection:
    report: CaseReport
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
        return tone_of(self.step)

    @property
    def on_claim(self) -> bool:
        """True when the step is about the current claim (a per-claim step)."""
        step = self.step
        return step is not None and step.claim is not None and step.claim == self.claim

    @property
    def claims(self) -> tuple[Claim, ...]:
        verdict = self.report.verdict
        return verdict.claims if verdict is not None else ()

    # -- what the step compares -----------------------------------------------

    @property
    def claim_value(self) -> Claim | None:
        claims = self.claims
        if self.claim is None or self.claim >= len(claims):
            return None
        return claims[self.claim]

    @property
    def claim_member(self) -> str | None:
        """The claim member the step reads (field, value, doc, quote)."""
        return self.check.claim_member if self.on_claim and self.check is not None else None

    @property
    def request_attribute(self) -> str | None:
        step = self.step
        return step.request_attribute if step is not None else None

    @property
    def source(self) -> Source | None:
        """The source in question: the step's cited source, else the current claim's."""
        registry = self.report.suite.registry
        step = self.step
        if step is not None and step.source is not None:
            return registry.get(step.source)
        claim = self.claim_value
        return registry.get(claim.doc) if claim is not None else None

    @property
    def source_attribute(self) -> str | None:
        """``id``, ``service``, ``environment``, ``revision``, ``text``, ``facts.<field>``
        or an access condition: what the step compares in the source's row."""
        step = self.step
        return step.source_attribute if step is not None and self.on_claim else None

    @property
    def registry_column(self) -> str | None:
        """The registry column the step compares (a cell of the source's row); the
        source's text is not a column."""
        attribute = self.source_attribute
        return attribute if attribute != "text" else None

    @property
    def registry_columns(self) -> frozenset[str]:
        """The registry cells of the source's row to highlight: the compared column,
        and ``supplied`` when the step looks the id up in the request's supplied list."""
        column = self.registry_column
        if column is None:
            return frozenset()
        return frozenset((column, "supplied")) if self.request_attribute == "supplied" else frozenset((column,))

    @property
    def source_span(self) -> Span | None:
        step = self.step
        return step.source_span if step is not None and self.on_claim else None

    @property
    def source_span_kind(self) -> SourceSpan | None:
        step = self.step
        return step.source_span_kind if step is not None and self.on_claim else None

    @property
    def quote_missing(self) -> bool:
        """The quote is not in the cited text (the source span, if any, is the nearest line)."""
        step = self.step
        return step is not None and step.source_span_kind is SourceSpan.NEAREST

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
        trace = self.report.trace
        if trace is None or self.claim is None:
            return None
        return trace.claim_span(self.claim)

    # -- the checks panel -------------------------------------------------------

    @property
    def panel_checks(self) -> tuple[Check, ...]:
        """The checks the panel shows, in contract order (the access step only with a scope)."""
        return checks_for(self.report.scoped)

    @property
    def first_failure(self) -> int | None:
        for position, step in enumerate(self.steps):
            if step.outcome is Outcome.FAILED and step.reached:
                return position
        return None

    def check_rows(self) -> tuple[CheckRow, ...]:
        """Every check the panel shows, with its step for the current claim."""
        rows: dict[str, Step] = {}
        step: Step | None
        for step in self.steps:
            if step.claim is None or step.claim == self.claim:
                rows.setdefault(step.check.id, step)
        first = self.first_failure
        failing = self.steps[first] if first is not None else None
        result = []
        previous: Stage | None = None
        for check in self.panel_checks:
            step = rows.get(check.id)
            stage = STAGE_NAMES[check.stage] if check.stage is not previous else ""
            previous = check.stage
            result.append(CheckRow(check, step, stage, step is not None and step is failing))
        return tuple(result)

    @property
    def detail(self) -> StepDetail | None:
        """The selected step in words (None when there is no step)."""
        step = self.step
        if step is None:
            return None
        where = f" · claims[{step.claim}]" if step.claim is not None else ""
        explored = "" if step.reached or step.outcome is Outcome.NOT_REACHED else " · explored"
        count = f" · {self.position + 1}/{len(self.steps)}"
        failed = step.failed
        return StepDetail(f"{MARKS[step.outcome]} {step.check.title}", f"{where}{explored}{count}",
                          step.explanation, step.label if failed else None, step.hint if failed else None,
                          Tone.PLAIN if step.outcome is Outcome.PASSED or failed else Tone.MUTED)

    @property
    def source_caption(self) -> SourceCaption:
        source = self.source
        if source is None:
            claim = self.claim_value
            if claim is not None:
                return SourceCaption(None, claim.doc, " is not in the registry: no text to show", Tone.MUTED)
            return SourceCaption(None, None, "no cited document", Tone.MUTED)
        span, kind = self.source_span, self.source_span_kind
        if self.quote_missing:
            where = f" · nearest line {span.line} marked" if span is not None else ""
            return SourceCaption(source.id, None, f" · quote not found{where}", Tone.BAD)
        if span is not None:
            what = "the fact's line" if kind is SourceSpan.FACT else "quote"
            return SourceCaption(source.id, None, f" · {what} at line {span.line}", Tone.MUTED)
        return SourceCaption(source.id, None, "", Tone.MUTED)

    # -- moving ---------------------------------------------------------------

    def at(self, position: int) -> Selection:
        """The same case with another step selected (its claim becomes current)."""
        position = max(0, min(position, len(self.steps) - 1)) if self.steps else -1
        step = self.steps[position] if position >= 0 else None
        claim = step.claim if step is not None and step.claim is not None else self.claim
        return Selection(self.report, self.steps, position, claim, self.explore)

    def with_claim(self, claim: int) -> Selection:
        """Another claim: the same check for that claim when the step is per claim."""
        claims = self.claims
        if not claims:
            return self
        claim = max(0, min(claim, len(claims) - 1))
        step = self.step
        if step is not None and step.claim is not None:
            for position, other in enumerate(self.steps):
                if other.check is step.check and other.claim == claim:
                    return Selection(self.report, self.steps, position, claim, self.explore)
        return Selection(self.report, self.steps, self.position, claim, self.explore)

    def at_check(self, check: Check | str) -> Selection:
        """The step of this check for the current claim (or the check's only step)."""
        if isinstance(check, str):
            check = CHECKS_BY_ID[check]
        for position, step in enumerate(self.steps):
            if step.check is check and (step.claim is None or step.claim == self.claim):
                return self.at(position)
        return self

    def exploring(self, explore: bool) -> Selection:
        """Switch between the trace and the explored trace, keeping the step."""
        trace = self.report.trace
        if trace is None or explore == self.explore:
            return self
        steps = trace.explore() if explore else trace.steps
        return Selection(self.report, steps, self.position, self.claim, explore)


def select(report: CaseReport, explore: bool = False) -> Selection:
    """A freshly opened case: its first failure selected (the last step when accepted)."""
    trace = report.trace
    if trace is None:
        return Selection(report, (), -1, None, explore)
    steps = trace.explore() if explore else trace.steps
    claim = 0 if report.verdict is not None and report.verdict.claims else None
    selection = Selection(report, steps, -1, claim, explore)
    failure = selection.first_failure
    return selection.at(failure if failure is not None else len(steps) - 1)
