"""The trace: a verdict explained step by step, derived on demand.

``verify`` decides with all rules fused and records only the first failure; the
trace follows from that: every step before it passed, the failing one failed,
every later one was not reached.  ``Trace.explore()`` evaluates the steps after
the first failure too (``rules.evaluate``).  Explaining a step (what it compared,
where that is in the answer and in the source) is each check's describer,
declared below with ``@describes``; a check of stages 2-4 without one is an
import-time error.

Every step carries its resolved targets, for whoever shows it: the request
attribute and the source attribute it compares (``facts.<field>`` for a fact),
the cited source, the spans in the answer and in the source text, and what the
source span is (``SourceSpan``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .access import authorize, format_number
from .checks import CHECKS, CHECKS_BY_ID, LIMITS, REASONS, Check, Stage, checks_for, label_of
from .decode import DecodeFailure
from .jsonscan import JsonIndex, Path, path_text, scan
from .models import Claim, Source
from .rules import PLAN, evaluate, failure_reason
from .text import line_col, nearest_line, shorten
from .verdict import Verdict

__all__ = ["Outcome", "SourceSpan", "Span", "Step", "Trace", "explain"]

_JSON_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")


class Outcome(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    NOT_REACHED = "not_reached"
    # Explore mode only: the check cannot be evaluated (e.g. the document is unknown).
    UNAVAILABLE = "unavailable"


class SourceSpan(StrEnum):
    """What a step's span in the source text is."""

    QUOTE = "quote"  # where the quote occurs
    FACT = "fact"  # the line that states the fact, field=value
    NEAREST = "nearest"  # the quote does not occur: the span, if any, is the nearest line


@dataclass(frozen=True, slots=True)
class Span:
    """A character range [start, end) of a text, with the 1-based line:column of start."""

    start: int
    end: int
    line: int
    column: int

    @classmethod
    def of(cls, text: str, start: int, end: int) -> Span:
        line, column = line_col(text, start)
        return cls(start, end, line, column)

    def to_dict(self) -> dict[str, int]:
        return {"start": self.start, "end": self.end, "line": self.line, "column": self.column}


@dataclass(frozen=True, slots=True)
class Step:
    """One check applied to the answer (or to one claim), with its evidence."""

    check: Check
    claim: int | None
    outcome: Outcome
    explanation: str
    reason: str | None = None
    # False for steps after the first failure, evaluated only in explore mode.
    reached: bool = True
    answer_span: Span | None = None  # in the raw answer text
    related_spans: tuple[Span, ...] = ()  # e.g. a duplicate key's second occurrence
    request_attribute: str | None = None  # "service", "environment", "revision", "fields", "supplied", "scope"
    source: str | None = None  # the cited source's id
    # "id", "service", "environment", "revision", "text", "facts.<field>", or for
    # access control the failing condition ("tenant", "approved", "deleted",
    # "expires_at", "readers"; access.CONDITIONS)
    source_attribute: str | None = None
    source_span: Span | None = None  # in the source's text (what it is: source_span_kind)
    source_span_kind: SourceSpan | None = None
    expected: str | None = None
    actual: str | None = None
    # The fix for this claim and source, when the check's describer knows more than
    # the check's declared hint (which it then replaces: ``hint``).  Untrusted: it
    # quotes values from the answer and the registry.
    fix: str | None = None

    @property
    def code(self) -> str:
        return self.check.code

    @property
    def failed(self) -> bool:
        return self.outcome is Outcome.FAILED

    @property
    def hint(self) -> str:
        """How to fix the failure: what this step's claim and source hold when its
        describer says (``fix``), else the sub-reason's or the check's declared hint."""
        if self.fix is not None:
            return self.fix
        return REASONS[self.reason].hint if self.reason in REASONS else self.check.hint

    @property
    def label(self) -> str:
        """``STATUS`` or ``STATUS/REASON``, as frozen labels are written."""
        return label_of(self.check.code, self.reason)

    def to_dict(self) -> dict[str, Any]:
        return {
            "check": self.check.id,
            "code": self.check.code,
            "stage": int(self.check.stage),
            "claim": self.claim,
            "outcome": self.outcome.value,
            "reached": self.reached,
            "reason": self.reason,
            "explanation": self.explanation,
            "answer_span": self.answer_span.to_dict() if self.answer_span else None,
            "related_spans": [span.to_dict() for span in self.related_spans],
            "request_attribute": self.request_attribute,
            "source": self.source,
            "source_attribute": self.source_attribute,
            "source_span": self.source_span.to_dict() if self.source_span else None,
            "source_span_kind": self.source_span_kind.value if self.source_span_kind else None,
            "expected": self.expected,
            "actual": self.actual,
        }


def plan(claim_count: int | None, scoped: bool) -> list[tuple[Check, int | None]]:
    """Every (check, claim) of a trace in contract order.  Per-claim checks
    appear once with claim None when there are no decoded claims to run them on."""
    applicable = frozenset(check.id for check in checks_for(scoped))
    steps: list[tuple[Check, int | None]] = [(c, None) for c in CHECKS if c.stage is Stage.DECODE]
    for whole, per_claim in PLAN:
        steps.extend((check, None) for check in whole if check.id in applicable)
        per_claim = tuple(check for check in per_claim if check.id in applicable)
        if claim_count:
            steps.extend((check, i) for i in range(claim_count) for check in per_claim)
        else:
            steps.extend((check, None) for check in per_claim)
    return steps


class Trace:
    """A verdict explained: ``steps`` in contract order, ``first_failure``,
    ``explore()``, and where each claim is in the answer.  Built by ``explain``;
    everything is computed when first read and kept."""

    __slots__ = ("_first", "_index", "_steps", "verdict")

    def __init__(self, verdict: Verdict) -> None:
        self.verdict = verdict
        self._steps: tuple[Step, ...] | None = None
        self._first: Step | None = None
        self._index: JsonIndex | None = None

    @property
    def steps(self) -> tuple[Step, ...]:
        """Every check in contract order: passed, the first failure, not reached."""
        if self._steps is None:
            self._steps = tuple(self._build(explore=False))
        return self._steps

    def explore(self) -> tuple[Step, ...]:
        """Like ``steps``, but the steps after the first failure are evaluated too
        (``reached`` is False on them), so one sees what else is wrong."""
        verdict = self.verdict
        if verdict.ok or not verdict.strict_json:
            return self.steps
        return tuple(self._build(explore=True))

    @property
    def first_failure(self) -> Step | None:
        """The failing step, explained; built on its own without the whole trace."""
        verdict = self.verdict
        if self._first is None and not verdict.ok:
            if self._steps is not None:
                self._first = next(step for step in self._steps if step.outcome is Outcome.FAILED)
            elif verdict.decoded.failure is not None:
                self._first = self._decode_failure(verdict.decoded.failure)
            else:
                assert verdict.check is not None
                self._first = self._describe(verdict.check, verdict.claim, False, reached=True)
        return self._first

    def claim_span(self, index: int, member: str | None = None) -> Span | None:
        """Where claim ``index`` (or one of its members) is in the answer text."""
        path: Path = ("claims", index) if member is None else ("claims", index, member)
        return self._answer_span(path, member=False)

    # -- building the steps ---------------------------------------------------

    def _build(self, explore: bool) -> list[Step]:
        verdict = self.verdict
        decoded = verdict.decoded
        steps_planned = plan(len(verdict.claims) if decoded.failure is None else None, verdict.scoped)
        failing = verdict.check
        if failing is None:
            failing_at = len(steps_planned)
        elif decoded.failure is not None:
            failing_at = next(i for i, (check, _) in enumerate(steps_planned) if check is failing)
        else:
            failing_at = steps_planned.index((failing, verdict.claim))
        results = evaluate(verdict.claims, verdict.request, verdict.registry) \
            if explore and decoded.failure is None else None
        stopped_at = steps_planned[failing_at][0].title if failing_at < len(steps_planned) else ""
        steps: list[Step] = []
        for position, (check, claim) in enumerate(steps_planned):
            if position < failing_at:
                steps.append(self._describe(check, claim, True, reached=True))
            elif position == failing_at:
                steps.append(self._decode_failure(decoded.failure) if decoded.failure is not None
                             else self._describe(check, claim, False, reached=True))
            elif results is not None and (claim is not None or not check.per_claim):
                passed = results[check.id, claim]
                if passed is None:
                    steps.append(Step(check, claim, Outcome.UNAVAILABLE,
                                      f"cannot be evaluated: {verdict.claims[claim].doc!r} is not in the registry",  # type: ignore[index]  # a missing doc is a claim's
                                      reached=False, **self._targets(check, claim)))
                else:
                    steps.append(self._describe(check, claim, passed, reached=False))
            else:
                steps.append(Step(check, claim, Outcome.NOT_REACHED,
                                  f"not reached: the contract stopped at {stopped_at}",
                                  reached=False, **self._targets(check, claim)))
        return steps

    def _targets(self, check: Check, claim: int | None) -> dict[str, Any]:
        """What a step of ``check`` on ``claim`` compares, before any describer
        refines it: the request attribute, the cited source and its attribute."""
        targets: dict[str, Any] = {"request_attribute": check.request_attribute}
        if claim is None or check.stage is Stage.DECODE:
            return targets
        the_claim = self.verdict.claims[claim]
        source = self.verdict.registry.get(the_claim.doc)
        if source is not None:
            attribute = check.source_attribute
            targets["source"] = source.id
            targets["source_attribute"] = f"facts.{the_claim.field}" if attribute == "fact" else attribute
        return targets

    def _describe(self, check: Check, claim: int | None, passed: bool, reached: bool) -> Step:
        outcome = Outcome.PASSED if passed else Outcome.FAILED
        if check.stage is Stage.DECODE:
            return Step(check, None, outcome, _DECODE_PASSED[check.id](self.verdict), reached=reached)
        verdict = self.verdict
        the_claim = verdict.claims[claim] if claim is not None else None
        source = verdict.registry.get(the_claim.doc) if the_claim is not None else None
        fields = self._targets(check, claim)
        fields.update(_DESCRIBERS[check.id](_Facts(verdict, the_claim, claim, source), not passed))
        span = None
        if claim is not None and check.claim_member is not None:
            span = self._answer_span(("claims", claim, check.claim_member), member=False)
        return Step(check, claim, outcome, reason=None if passed else failure_reason(check),
                    reached=reached, answer_span=span, **fields)

    def _decode_failure(self, failure: DecodeFailure) -> Step:
        decoded = self.verdict.decoded
        failure = failure.explained()
        text = decoded.text
        span = related = None
        message = failure.message
        if failure.path is not None:
            span = self._answer_span(failure.path) or self._answer_span(failure.path[:-1])
            if span is None and not failure.path:
                span = self._answer_span(())
            if span is not None:
                message = f"{message} (at {span.line}:{span.column})"
        elif failure.offset is not None and text is not None:
            span = Span.of(text, failure.offset, failure.end or failure.offset + 1)
        elif failure.offset is not None:
            line, column = failure.position or (0, 0)
            span = Span(failure.offset, failure.end or failure.offset + 1, line, column)
        if failure.second is not None and text is not None:
            related = (Span.of(text, *failure.second),)
        return Step(CHECKS_BY_ID[failure.check], None, Outcome.FAILED, message, reason=failure.reason,
                    answer_span=span, related_spans=related or (), fix=self._not_a_string_fix(failure))

    def _not_a_string_fix(self, failure: DecodeFailure) -> str | None:
        """NOT_A_STRING's hint with this answer's member, when it is a number or a
        boolean (what a claim member is most often written as by mistake): the
        declared hint's example ("5000", "false") made this claim's."""
        if failure.reason != "NOT_A_STRING" or failure.path is None or len(failure.path) != 3:
            return None
        decoded = self.verdict.decoded
        found = self._scan().value_span(failure.path)
        if found is None or decoded.text is None:
            return None
        written = decoded.text[decoded.start:][found[0]:found[1]]
        if written not in ("true", "false") and _JSON_NUMBER.fullmatch(written) is None:
            return None
        shown = shorten(written, 20)
        return f'Write {path_text(failure.path)} as a JSON string: "{shown}", not {shown}.'

    def _scan(self) -> JsonIndex:
        if self._index is None:
            decoded = self.verdict.decoded
            # Only text that passed the syntax check can be scanned.
            parsed = decoded.failure is None or decoded.failure.check in ("duplicate_key", "shape")
            self._index = scan(decoded.text[decoded.start:]) if parsed and decoded.text is not None \
                else JsonIndex()
        return self._index

    def _answer_span(self, path: Path, member: bool = True) -> Span | None:
        decoded = self.verdict.decoded
        if decoded.text is None:
            return None
        index = self._scan()
        found = index.member_span(path) if member else index.value_span(path)
        if found is None:
            return None
        return Span.of(decoded.text, found[0] + decoded.start, found[1] + decoded.start)


def explain(verdict: Verdict) -> Trace:
    """The verdict's trace (computed as it is read)."""
    return Trace(verdict)


# -- what each check says -------------------------------------------------------
# A describer words one step of its check and locates what it compared; the
# pass/fail decision was already made by the rules.  It returns Step fields.


@dataclass(frozen=True, slots=True)
class _Facts:
    """What a describer reads: the verdict, the claim (and its index), its source."""

    verdict: Verdict
    claim: Claim | None
    index: int | None
    source: Source | None


_Describer = Callable[[_Facts, bool], dict[str, Any]]
_DESCRIBERS: dict[str, _Describer] = {}
_DECODE_PASSED: dict[str, Callable[[Verdict], str]] = {}


def describes(check_id: str) -> Callable[[_Describer], _Describer]:
    """Declare the describer of a check of stages 2-4."""
    def register(describer: _Describer) -> _Describer:
        assert check_id in CHECKS_BY_ID and check_id not in _DESCRIBERS, check_id
        _DESCRIBERS[check_id] = describer
        return describer
    return register


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'s' if count != 1 else ''}"


_DECODE_PASSED.update({
    "size": lambda v: f"{v.size} UTF-16 code units, limit {LIMITS.MAX_INPUT}",
    "encoding": lambda v: "UTF-8" + (", leading BOM ignored" if v.decoded.start else ""),
    "depth": lambda v: f"nested within {LIMITS.MAX_DEPTH} levels",
    "syntax": lambda v: "strict JSON, nothing after the value",
    "duplicate_key": lambda v: "no object repeats a key",
    "shape": lambda v: f"{_plural(len(v.claims), 'claim')} of exactly field, value, doc, quote",
})


def _q(text: str) -> str:
    return '"' + shorten(text) + '"'


def _find_line(text: str, needle: str) -> Span | None:
    at = text.find(needle)
    return Span.of(text, at, at + len(needle)) if at >= 0 else None


@describes("has_claims")
def _has_claims(f: _Facts, failed: bool) -> dict[str, Any]:
    if failed:
        return {"explanation": "the claims array is empty: nothing is claimed, nothing can be cited"}
    return {"explanation": _plural(len(f.verdict.claims), "claim")}


@describes("doc_known")
def _doc_known(f: _Facts, failed: bool) -> dict[str, Any]:
    assert f.claim is not None
    doc = f.claim.doc
    if failed:
        known = ", ".join(s.id for s in f.verdict.registry) or "none"
        return {"explanation": f"{_q(doc)} is not in the registry (sources: {shorten(known)})", "actual": doc}
    return {"explanation": f"{doc} is in the registry", "actual": doc}


@describes("authorized")
def _authorized(f: _Facts, failed: bool) -> dict[str, Any]:
    source, scope = f.source, f.verdict.request.scope
    assert source is not None and scope is not None
    access = authorize(source, scope)
    return {"explanation": f"{source.id}: {access.detail}", "source_attribute": access.condition or "tenant",
            "expected": f"tenant {scope.tenant}, reader {scope.user}, now {format_number(scope.now)}",
            "actual": access.condition}


@describes("doc_supplied")
def _doc_supplied(f: _Facts, failed: bool) -> dict[str, Any]:
    assert f.claim is not None
    doc = f.claim.doc
    supplied = ", ".join(f.verdict.request.supplied) or "none"
    if failed:
        exists = "exists but " if f.source is not None else ""
        return {"explanation": f"{_q(doc)} {exists}was not supplied (supplied: {shorten(supplied)})",
                "expected": supplied, "actual": doc}
    return {"explanation": f"{doc} was supplied", "expected": supplied, "actual": doc}


@describes("quote_found")
def _quote_found(f: _Facts, failed: bool) -> dict[str, Any]:
    claim, source = f.claim, f.source
    assert claim is not None and source is not None
    if failed:
        near = nearest_line(source.text, claim.quote)  # bounded: milliseconds on any source
        span = Span.of(source.text, *near) if near else None
        nearest = f"; nearest line {span.line}: {_q(source.text[span.start:span.end])}" if span else ""
        return {"explanation": f"quote {_q(claim.quote)} does not occur in {source.id}{nearest}",
                "source_span": span, "source_span_kind": SourceSpan.NEAREST,
                "actual": claim.quote}
    found = _find_line(source.text, claim.quote)
    where = f" at line {found.line}" if found else ""
    return {"explanation": f"quote found in {source.id}{where}", "source_span": found,
            "source_span_kind": SourceSpan.QUOTE if found else None, "actual": claim.quote}


@describes("unique_field")
def _unique_field(f: _Facts, failed: bool) -> dict[str, Any]:
    assert f.claim is not None
    field = f.claim.field
    if failed:
        first = next(i for i, claim in enumerate(f.verdict.claims) if claim.field == field)
        return {"explanation": f"{_q(field)} is already claimed by claims[{first}]", "actual": field}
    return {"explanation": f"first claim of {_q(field)}", "actual": field}


@describes("requested_field")
def _requested_field(f: _Facts, failed: bool) -> dict[str, Any]:
    assert f.claim is not None
    field = f.claim.field
    fields = ", ".join(f.verdict.request.fields)
    verb = "is not" if failed else "is"
    return {"explanation": f"{_q(field)} {verb} requested (fields: {shorten(fields)})",
            "expected": fields, "actual": field}


@describes("scope")
def _scope(f: _Facts, failed: bool) -> dict[str, Any]:
    source, request = f.source, f.verdict.request
    assert source is not None
    attribute = "service" if source.service != request.service else "environment"
    wanted, got = getattr(request, attribute), getattr(source, attribute)
    if failed:
        explanation = f"request {attribute} {wanted}, {source.id} is {got}"
    else:
        explanation = (f"request {request.service}/{request.environment}, "
                       f"{source.id} is {source.service}/{source.environment}")
    return {"explanation": explanation, "request_attribute": attribute, "source_attribute": attribute,
            "expected": wanted, "actual": got}


@describes("revision")
def _revision(f: _Facts, failed: bool) -> dict[str, Any]:
    source, request = f.source, f.verdict.request
    assert source is not None
    return {"explanation": f"request revision {request.revision}, {source.id} is {source.revision}",
            "expected": request.revision, "actual": source.revision}


@describes("value")
def _value(f: _Facts, failed: bool) -> dict[str, Any]:
    claim, source = f.claim, f.source
    assert claim is not None and source is not None
    fact = source.facts.get(claim.field)
    common = {"expected": fact, "actual": claim.value}
    if fact is None:
        fix = f"{source.id} states no {_q(claim.field)}: cite one that does, or do not claim it."
        return {"explanation": f"claimed {_q(claim.value)}, but {source.id} has no fact {_q(claim.field)}",
                **common, **({"fix": fix} if failed else {})}
    line = _find_line(source.text, f"{claim.field}={fact}")
    # The declared hint's example ("5s" is not "5000"), made this claim's and this source's;
    # short, for the checks panel's few lines.
    fix = f"Copy {source.id}'s {shorten(claim.field, 40)} exactly: {_q(fact)}, not {_q(claim.value)}."
    return {"explanation": f"claimed {_q(claim.value)}, {source.id} has {claim.field}={shorten(fact)}",
            "source_span": line, "source_span_kind": SourceSpan.FACT if line else None, **common,
            **({"fix": fix} if failed else {})}


@describes("quote_supports")
def _quote_supports(f: _Facts, failed: bool) -> dict[str, Any]:
    claim, source = f.claim, f.source
    assert claim is not None
    canonical = f"{claim.field}={claim.value}"
    found = _find_line(source.text, claim.quote) if source is not None else None
    if failed:
        explanation = f"quote {_q(claim.quote)} is not the canonical line {_q(canonical)}"
    else:
        explanation = f"quote is the canonical line {_q(canonical)}"
    return {"explanation": explanation, "source_span": found, "source_span_kind": SourceSpan.QUOTE if found else None,
            "expected": canonical, "actual": claim.quote}


@describes("coverage")
def _coverage(f: _Facts, failed: bool) -> dict[str, Any]:
    fields = f.verdict.request.fields
    claimed = {claim.field for claim in f.verdict.claims}
    if failed:
        missing = [field for field in fields if field not in claimed]
        return {"explanation": f"not claimed: {shorten(', '.join(missing))}",
                "expected": ", ".join(fields), "actual": ", ".join(missing)}
    return {"explanation": f"all {_plural(len(fields), 'requested field')} claimed", "expected": ", ".join(fields)}


_MISSING = {check.id for check in CHECKS if check.stage is not Stage.DECODE} - set(_DESCRIBERS)
_MISSING |= {check.id for check in CHECKS if check.stage is Stage.DECODE} - set(_DECODE_PASSED)
if _MISSING:  # pragma: no cover - a new check without its describer
    raise ImportError(f"checks without a describer: {', '.join(sorted(_MISSING))}")
