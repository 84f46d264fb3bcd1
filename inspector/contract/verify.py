"""verify(): the ordered contract, its verdict and its trace.

The decision is computed eagerly and cheaply: the rules of stages 2-4, declared
in the checks table, are compiled once into one function that returns the first
failure.  The trace is derived from that decision on demand: every step before
the first failure passed, the failing one failed, every later one was not
reached.  Explaining a step (the compared values, where they are in the answer
and in the source) is formatting, done only when someone reads the trace.
``Verdict.explore()`` evaluates the steps after the first failure too, with the
same rules compiled one check at a time.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from operator import attrgetter
from types import MappingProxyType
from typing import Any

import msgspec

from .access import authorize, format_number
from .checks import CHECKS, CHECKS_BY_ID, LIMITS, REASONS, Check, Stage
from .evidence import (
    ANSWER,
    Category,
    Conflict,
    Recall,
    blame,
    category_for,
    claim_labels,
    conflicts_for,
    policy_for,
    recall_for,
)
from .decode import Decoded, DecodeFailure, decode_answer
from .jsonscan import JsonIndex, Path, path_text, scan
from .models import Claim, Registry, Request, Source, coerce_request
from .text import line_col, shorten

__all__ = ["Outcome", "Span", "Step", "Verdict", "verify"]


class Outcome(StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    NOT_REACHED = "not_reached"
    # Explore mode only: the check cannot be evaluated (e.g. the document is unknown).
    UNAVAILABLE = "unavailable"


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
    source_span: Span | None = None  # in the source's text: the quote, or the canonical line
    expected: str | None = None
    actual: str | None = None

    @property
    def code(self) -> str:
        return self.check.code

    @property
    def failed(self) -> bool:
        return self.outcome is Outcome.FAILED

    @property
    def hint(self) -> str:
        return REASONS[self.reason].hint if self.reason in REASONS else self.check.hint

    @property
    def label(self) -> str:
        """``STATUS`` or ``STATUS/REASON``, as frozen labels are written."""
        return f"{self.check.code}/{self.reason}" if self.reason else self.check.code

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
            "expected": self.expected,
            "actual": self.actual,
        }


class _Context:
    """What the stage 2-4 checks read: the claims, their cited sources, the request."""

    __slots__ = ("claims", "first_index", "registry", "request", "sources")

    def __init__(self, claims: tuple[Claim, ...], request: Request, registry: Registry) -> None:
        self.claims = claims
        self.request = request
        self.registry = registry
        get = registry.by_id.get
        self.sources: list[Source | None] = [get(claim.doc) for claim in claims]
        first: dict[str, int] = {}
        for index, claim in enumerate(claims):
            first.setdefault(claim.field, index)
        self.first_index = first  # field -> the first claim of it

    def claimed_before(self, index: int | None) -> set[str]:
        """The fields of the claims before claim ``index``; of every claim for None."""
        return {claim.field for claim in self.claims[:index]}


_UNAVAILABLE = "unavailable"
Result = str | bool | None  # None: passed; a sub-reason or True: failed; _UNAVAILABLE


def _failure_result(check: Check) -> str | bool:
    return check.reasons[0] if check.reasons else True


def _compile_evaluator(check: Check) -> Callable[[_Context, int | None], Result]:
    """One check's rule as a function of (context, claim index), for the trace and
    explore mode, where a check may be asked about a claim whose source is unknown."""
    assert check.rule is not None
    code = compile(check.rule, f"<rule {check.id}>", "eval")
    needs_source = "source" in code.co_names
    failed = _failure_result(check)

    def evaluate(ctx: _Context, index: int | None) -> Result:
        source = ctx.sources[index] if index is not None else None
        if needs_source and source is None:
            return _UNAVAILABLE
        names = {
            "claims": ctx.claims,
            "claim": ctx.claims[index] if index is not None else None,
            "index": index,
            "source": source,
            "request": ctx.request,
            "claimed": ctx.claimed_before(index),
            "authorize": authorize,
        }
        return None if eval(code, names) else failed  # noqa: S307 - rules are our own constants

    return evaluate


_DECODE_CHECKS = tuple(check for check in CHECKS if check.stage is Stage.DECODE)
_RULE_CHECKS = tuple(check for check in CHECKS if check.stage is not Stage.DECODE)
_EVALUATORS: dict[str, Callable[[_Context, Any], Result]] = {
    check.id: _compile_evaluator(check) for check in _RULE_CHECKS
}
# Stages 2-4 as (stage-wide checks, per-claim checks); within a stage the
# stage-wide checks run first, then the per-claim ones, claim by claim.
_PLAN: tuple[tuple[tuple[Check, ...], tuple[Check, ...]], ...] = tuple(
    (
        tuple(c for c in _RULE_CHECKS if c.stage is stage and not c.per_claim),
        tuple(c for c in _RULE_CHECKS if c.stage is stage and c.per_claim),
    )
    for stage in dict.fromkeys(c.stage for c in _RULE_CHECKS)
)


def _compile_decision() -> Callable[[tuple[Claim, ...], Request, Registry], tuple[int, int | None] | None]:
    """All rules fused, in table order, into one function that returns the first
    failing (position in _RULE_CHECKS, claim index), or None.

    The same rules as the evaluators, without a call per check: this is what keeps
    verify() within a small factor of a bare msgspec decode.  Within the fused
    function a rule that reads ``source`` only runs after doc_known passed.
    """
    lines = [
        "def decide(claims, request, registry):",
        "    get = registry.by_id.get",
    ]
    position = {check.id: i for i, check in enumerate(_RULE_CHECKS)}

    def reads_claimed(check: Check) -> bool:
        return "claimed" in compile(check.rule or "", "<rule>", "eval").co_names

    complete = False  # whether ``claimed`` holds every claim's field at this point
    for whole, per_claim in _PLAN:
        for check in whole:
            if reads_claimed(check) and not complete:
                lines.append("    claimed = {claim.field for claim in claims}")
                complete = True
            lines.append(f"    if not ({check.rule}):")
            lines.append(f"        return {position[check.id]}, None")
        if per_claim:
            # ``claimed`` grows as the claims pass: in the loop it holds the fields
            # of the claims before this one, after the loop every field.
            grows = any(reads_claimed(check) for check in per_claim)
            if grows:
                lines.append("    claimed = set()")
            lines.append("    for index, claim in enumerate(claims):")
            lines.append("        source = get(claim.doc)")
            for check in per_claim:
                lines.append(f"        if not ({check.rule}):")
                lines.append(f"            return {position[check.id]}, index")
            if grows:
                lines.append("        claimed.add(claim.field)")
                complete = True
    lines.append("    return None")
    namespace: dict[str, Any] = {"authorize": authorize}
    exec(compile("\n".join(lines), "<inspector contract rules>", "exec"), namespace)  # noqa: S102
    return namespace["decide"]


_decide_fused = _compile_decision()


def _plan_steps(claim_count: int | None, scoped: bool) -> list[tuple[Check, int | None]]:
    """Every (check, claim) in contract order; per-claim checks appear once with
    claim None when there are no decoded claims to run them on.  Checks that need
    an access scope are left out of requests without one."""
    steps: list[tuple[Check, int | None]] = [(check, None) for check in _DECODE_CHECKS]
    for whole, per_claim in _PLAN:
        if not scoped:
            whole = tuple(check for check in whole if not check.needs_scope)
            per_claim = tuple(check for check in per_claim if not check.needs_scope)
        steps.extend((check, None) for check in whole)
        if claim_count:
            steps.extend((check, i) for i in range(claim_count) for check in per_claim)
        else:
            steps.extend((check, None) for check in per_claim)
    return steps


_NOTHING_ACCEPTED: Mapping[str, str] = MappingProxyType({})
_CITATION = Stage.CITATION
_cache = msgspec.structs.force_setattr  # fills a Verdict's cache fields


class Verdict(msgspec.Struct, frozen=True, eq=False):
    """The outcome of the contract for one answer.

    ``status`` is ``ACCEPT`` or the failing check's code, ``reason`` its sub-reason
    (stages 1-2).  ``accepted`` maps field to value, sorted by field, and is empty on
    any rejection.  ``strict_json`` and ``citation_only`` are the article's two
    baselines: stage 1 passed, and stages 1-2 passed.  Built by ``verify``.
    """

    # A frozen Struct: one is built per answer and its __init__ runs in C.  The
    # underscored fields are caches, filled when first read.
    status: str
    reason: str | None
    strict_json: bool
    citation_only: bool
    accepted: Mapping[str, str]
    claims: tuple[Claim, ...]
    request: Request
    registry: Registry
    _decoded: Decoded
    _failure: tuple[Check, int | None, Result] | None
    _index: JsonIndex | None = None
    _trace: tuple[Step, ...] | None = None
    _first: Step | None = None
    # Beside the contract.
    _labels: tuple[str, ...] | None = None
    _conflicts: tuple[Conflict, ...] | None = None
    _recall: Recall | None = None

    # -- reading the verdict -------------------------------------------------

    @property
    def ok(self) -> bool:
        return self.status == "ACCEPT"

    @property
    def label(self) -> str:
        """``STATUS`` or ``STATUS/REASON``, as frozen labels are written."""
        return f"{self.status}/{self.reason}" if self.reason else self.status

    @property
    def text(self) -> str | None:
        """The answer as text (BOM included), or None when it was not UTF-8."""
        return self._decoded.text

    @property
    def display_text(self) -> str:
        """The answer to show: its text, or for bytes that are not UTF-8 the text
        with U+FFFD in place of the bad bytes (spans index into it either way)."""
        decoded = self._decoded
        return decoded.text if decoded.text is not None else (decoded.lossy or "")

    @property
    def size(self) -> int:
        return self._decoded.size

    @property
    def trace(self) -> tuple[Step, ...]:
        """Every check in contract order: passed, the first failure, not reached."""
        if self._trace is None:
            _cache(self, "_trace", tuple(self._steps(explore=False)))
        return self._trace

    def explore(self) -> tuple[Step, ...]:
        """Like ``trace``, but the steps after the first failure are evaluated too
        (``reached`` is False on them), so one sees what else is wrong."""
        if self.ok or self._decoded.failure is not None:
            return self.trace
        return tuple(self._steps(explore=True))

    @property
    def failed_check(self) -> Check | None:
        """The check that decided a rejection (cheap: no trace is built)."""
        if self._decoded.failure is not None:
            return CHECKS_BY_ID[self._decoded.failure.check]
        return self._failure[0] if self._failure is not None else None

    @property
    def first_failure(self) -> Step | None:
        """The failing step, explained; built on its own without the whole trace."""
        if self._first is None and not self.ok:
            if self._trace is not None:
                _cache(self, "_first", next(step for step in self._trace if step.outcome is Outcome.FAILED))
            elif self._decoded.failure is not None:
                failure = self._decoded.failure
                _cache(self, "_first", self._describe_decode_failure(CHECKS_BY_ID[failure.check], failure))
            else:
                check, claim, result = self._failure
                ctx = _Context(self.claims, self.request, self.registry)
                _cache(self, "_first", self._describe(ctx, check, claim, result, reached=True))
        return self._first

    # -- beside the contract: the label lens, conflicts, recall, blame ------------

    @property
    def labels(self) -> tuple[str, ...]:
        """Per-claim SUPPORTED / CONTRADICTED / INSUFFICIENT_EVIDENCE against the
        authorized evidence; empty unless strict decoding passed."""
        if not self.strict_json:
            return ()
        if self._labels is None:
            _cache(self, "_labels", claim_labels(self.claims, self.request, self.registry))
        return self._labels

    @property
    def policy(self) -> str:
        """ANSWER when there is a claim and every claim is SUPPORTED, else ABSTAIN."""
        return policy_for(self.labels)

    @property
    def lens_disagrees(self) -> bool:
        """The weaker label lens would answer where the contract rejects."""
        return self.policy == ANSWER and not self.ok

    @property
    def conflicts(self) -> tuple[Conflict, ...]:
        if self._conflicts is None:
            _cache(self, "_conflicts", conflicts_for(self.request, self.registry, self.claims))
        return self._conflicts

    @property
    def recall(self) -> Recall:
        if self._recall is None:
            _cache(self, "_recall", recall_for(self.request, self.registry))
        return self._recall

    @property
    def blame(self) -> str | None:
        """"retrieval" or "generation" for a rejection, None when accepted."""
        supplied_unauthorized = False
        if self.reason == "NOT_AUTHORIZED" and self._failure is not None and self._failure[1] is not None:
            supplied_unauthorized = self.claims[self._failure[1]].doc in self.request.supplied
        return blame(self.status, self.reason, self.recall, supplied_unauthorized)

    @property
    def category(self) -> Category | None:
        """The abstention category and next action of a rejection.  Conflicting
        evidence comes first when the failing claim's field (or, for INCOMPLETE, a
        missing field) is one the conflicting documents disagree on."""
        conflicted = {conflict.field for conflict in self.conflicts}
        about: set[str] = set()
        if conflicted and self._failure is not None:
            check, claim, _ = self._failure
            if claim is not None:
                about = {self.claims[claim].field}
            elif check.id == "coverage":
                about = set(self.request.fields) - {c.field for c in self.claims}
        return category_for(self.status, self.reason, bool(conflicted & about))

    @property
    def detail(self) -> str | None:
        step = self.first_failure
        return step.explanation if step else None

    def claim_span(self, index: int, member: str | None = None) -> Span | None:
        """Where claim ``index`` (or one of its members) is in the answer text."""
        path: Path = ("claims", index) if member is None else ("claims", index, member)
        return self._answer_span(path, member=False)

    def to_dict(self) -> dict[str, Any]:
        failure = self.first_failure
        category = self.category
        recall = self.recall
        return {
            "status": self.status,
            "reason": self.reason,
            "strict_json": self.strict_json,
            "citation_only": self.citation_only,
            "accepted": dict(self.accepted),
            "first_failure": None if failure is None else {
                "check": failure.check.id,
                "reason": failure.reason,
                "claim": failure.claim,
                "detail": failure.explanation,
                "hint": failure.hint,
            },
            "labels": list(self.labels),
            "policy": self.policy,
            "category": category.id if category else None,
            "next_action": category.next_action if category else None,
            "blame": self.blame,
            "recall": recall.value,
            "missing_retrieval": list(recall.missing),
            "conflicts": [conflict.describe() for conflict in self.conflicts],
        }

    def __repr__(self) -> str:
        return f"<Verdict {self.label}>"

    # -- building the trace --------------------------------------------------

    def _steps(self, explore: bool) -> list[Step]:
        decoded = self._decoded
        plan = _plan_steps(len(self.claims) if decoded.failure is None else None,
                           self.request.scope is not None)
        if decoded.failure is not None:
            failing_at = next(i for i, (check, _) in enumerate(plan) if check.id == decoded.failure.check)
        elif self._failure is not None:
            check, claim, _ = self._failure
            failing_at = plan.index((check, claim))
        else:
            failing_at = len(plan)
        ctx = _Context(self.claims, self.request, self.registry) if decoded.failure is None else None
        steps: list[Step] = []
        for position, (check, claim) in enumerate(plan):
            if position < failing_at:
                steps.append(self._describe(ctx, check, claim, None, reached=True))
            elif position == failing_at:
                if decoded.failure is not None:
                    steps.append(self._describe_decode_failure(check, decoded.failure))
                else:
                    steps.append(self._describe(ctx, check, claim, self._failure[2], reached=True))
            elif explore and ctx is not None and (claim is not None or not check.per_claim):
                steps.append(self._describe(ctx, check, claim, _EVALUATORS[check.id](ctx, claim), reached=False))
            else:
                steps.append(Step(check, claim, Outcome.NOT_REACHED,
                                  f"not reached: the contract stopped at {plan[failing_at][0].title}",
                                  reached=False))
        return steps

    def _scan(self) -> JsonIndex:
        if self._index is None:
            decoded = self._decoded
            # Only text that passed the syntax check can be scanned.
            parsed = decoded.failure is None or decoded.failure.check in ("duplicate_key", "shape")
            if parsed and decoded.text is not None:
                _cache(self, "_index", scan(decoded.text[decoded.start:]))
            else:
                _cache(self, "_index", JsonIndex())
        return self._index

    def _answer_span(self, path: Path, member: bool = True) -> Span | None:
        text = self._decoded.text
        if text is None:
            return None
        index = self._scan()
        found = index.member_span(path) if member else index.value_span(path)
        if found is None:
            return None
        start = self._decoded.start
        return Span.of(text, found[0] + start, found[1] + start)

    def _describe_decode_failure(self, check: Check, failure: DecodeFailure) -> Step:
        failure = failure.explained()
        text = self._decoded.text
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
        return Step(check, None, Outcome.FAILED, message, reason=failure.reason,
                    answer_span=span, related_spans=related or ())

    def _describe(self, ctx: _Context | None, check: Check, claim: int | None,
                  result: Result, reached: bool) -> Step:
        if result == _UNAVAILABLE:
            return Step(check, claim, Outcome.UNAVAILABLE,
                        f"cannot be evaluated: {self.claims[claim].doc!r} is not in the registry",
                        reached=reached)
        outcome = Outcome.FAILED if result else Outcome.PASSED
        reason = result if isinstance(result, str) else None
        if check.stage is Stage.DECODE:
            return Step(check, None, outcome, self._decode_passed(check), reached=reached)
        assert ctx is not None
        fields = _DESCRIBERS[check.id](ctx, claim, bool(result))
        span = None
        if claim is not None and check.claim_member is not None:
            span = self._answer_span(("claims", claim, check.claim_member), member=False)
        source = ctx.sources[claim] if claim is not None else None
        fields.setdefault("request_attribute", check.request_attribute)
        if source is not None:
            fields.setdefault("source", source.id)
            fields.setdefault("source_attribute", check.source_attribute)
        return Step(check, claim, outcome, reason=reason, reached=reached, answer_span=span, **fields)

    def _decode_passed(self, check: Check) -> str:
        decoded = self._decoded
        if check.id == "size":
            return f"{decoded.size} UTF-16 code units, limit {LIMITS.MAX_INPUT}"
        if check.id == "encoding":
            return "UTF-8" + (", leading BOM ignored" if decoded.start else "")
        if check.id == "depth":
            return f"nested within {LIMITS.MAX_DEPTH} levels"
        if check.id == "syntax":
            return "strict JSON, nothing after the value"
        if check.id == "duplicate_key":
            return "no object repeats a key"
        count = len(self.claims)
        return f"{count} claim{'s' if count != 1 else ''} of exactly field, value, doc, quote"


# -- explanations ------------------------------------------------------------
# Each describer returns the Step's explanation and locators for one check; the
# pass/fail decision was already made by the check's evaluator.


def _q(text: str) -> str:
    return '"' + shorten(text) + '"'


def _find_line(text: str, needle: str) -> Span | None:
    at = text.find(needle)
    return Span.of(text, at, at + len(needle)) if at >= 0 else None


def _nearest_line(text: str, quote: str) -> Span | None:
    lines = text.splitlines(keepends=True)
    stripped = [line.rstrip("\r\n") for line in lines]
    match = difflib.get_close_matches(quote, stripped, n=1, cutoff=0.0)
    if not match:
        return None
    offset = sum(len(line) for line in lines[: stripped.index(match[0])])
    return Span.of(text, offset, offset + len(match[0]))


def _d_has_claims(ctx: _Context, i: None, failed: bool) -> dict[str, Any]:
    if failed:
        return {"explanation": "the claims array is empty: nothing is claimed, nothing can be cited"}
    count = len(ctx.claims)
    return {"explanation": f"{count} claim{'s' if count != 1 else ''}"}


def _d_doc_known(ctx: _Context, i: int, failed: bool) -> dict[str, Any]:
    doc = ctx.claims[i].doc
    if failed:
        known = ", ".join(s.id for s in ctx.registry) or "none"
        return {"explanation": f"{_q(doc)} is not in the registry (sources: {shorten(known)})", "actual": doc}
    return {"explanation": f"{doc} is in the registry", "actual": doc}


def _d_authorized(ctx: _Context, i: int, failed: bool) -> dict[str, Any]:
    source, scope = ctx.sources[i], ctx.request.scope
    assert source is not None and scope is not None
    access = authorize(source, scope)
    return {"explanation": f"{source.id}: {access.detail}", "request_attribute": "scope",
            "source_attribute": access.condition or "tenant",
            "expected": f"tenant {scope.tenant}, reader {scope.user}, now {format_number(scope.now)}",
            "actual": access.condition}


def _d_doc_supplied(ctx: _Context, i: int, failed: bool) -> dict[str, Any]:
    doc = ctx.claims[i].doc
    supplied = ", ".join(ctx.request.supplied) or "none"
    if failed:
        exists = "exists but " if ctx.sources[i] is not None else ""
        return {"explanation": f"{_q(doc)} {exists}was not supplied (supplied: {shorten(supplied)})",
                "expected": supplied, "actual": doc}
    return {"explanation": f"{doc} was supplied", "expected": supplied, "actual": doc}


def _d_quote_found(ctx: _Context, i: int, failed: bool) -> dict[str, Any]:
    claim, source = ctx.claims[i], ctx.sources[i]
    assert source is not None
    if failed:
        near = _nearest_line(source.text, claim.quote)
        nearest = f"; nearest line {near.line}: {_q(source.text[near.start:near.end])}" if near else ""
        return {"explanation": f"quote {_q(claim.quote)} does not occur in {source.id}{nearest}",
                "source_span": near, "actual": claim.quote}
    found = _find_line(source.text, claim.quote)
    where = f" at line {found.line}" if found else ""
    return {"explanation": f"quote found in {source.id}{where}", "source_span": found, "actual": claim.quote}


def _d_unique_field(ctx: _Context, i: int, failed: bool) -> dict[str, Any]:
    field = ctx.claims[i].field
    if failed:
        first = ctx.first_index[field]
        return {"explanation": f"{_q(field)} is already claimed by claims[{first}]", "actual": field}
    return {"explanation": f"first claim of {_q(field)}", "actual": field}


def _d_requested_field(ctx: _Context, i: int, failed: bool) -> dict[str, Any]:
    field = ctx.claims[i].field
    fields = ", ".join(ctx.request.fields)
    verb = "is not" if failed else "is"
    return {"explanation": f"{_q(field)} {verb} requested (fields: {shorten(fields)})",
            "expected": fields, "actual": field}


def _d_scope(ctx: _Context, i: int, failed: bool) -> dict[str, Any]:
    source, request = ctx.sources[i], ctx.request
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


def _d_revision(ctx: _Context, i: int, failed: bool) -> dict[str, Any]:
    source, request = ctx.sources[i], ctx.request
    assert source is not None
    return {"explanation": f"request revision {request.revision}, {source.id} is {source.revision}",
            "expected": request.revision, "actual": source.revision}


def _d_value(ctx: _Context, i: int, failed: bool) -> dict[str, Any]:
    claim, source = ctx.claims[i], ctx.sources[i]
    assert source is not None
    fact = source.facts.get(claim.field)
    common = {"source_attribute": f"facts.{claim.field}", "expected": fact, "actual": claim.value}
    if fact is None:
        return {"explanation": f"claimed {_q(claim.value)}, but {source.id} has no fact {_q(claim.field)}",
                **common}
    line = _find_line(source.text, f"{claim.field}={fact}")
    return {"explanation": f"claimed {_q(claim.value)}, {source.id} has {claim.field}={shorten(fact)}",
            "source_span": line, **common}


def _d_quote_supports(ctx: _Context, i: int, failed: bool) -> dict[str, Any]:
    claim, source = ctx.claims[i], ctx.sources[i]
    canonical = f"{claim.field}={claim.value}"
    found = _find_line(source.text, claim.quote) if source is not None else None
    if failed:
        explanation = f"quote {_q(claim.quote)} is not the canonical line {_q(canonical)}"
    else:
        explanation = f"quote is the canonical line {_q(canonical)}"
    return {"explanation": explanation, "source_span": found, "expected": canonical, "actual": claim.quote}


def _d_coverage(ctx: _Context, i: None, failed: bool) -> dict[str, Any]:
    fields = ctx.request.fields
    missing = [field for field in fields if field not in ctx.first_index]
    if failed:
        return {"explanation": f"not claimed: {shorten(', '.join(missing))}",
                "expected": ", ".join(fields), "actual": ", ".join(missing)}
    return {"explanation": f"all {len(fields)} requested field{'s' if len(fields) != 1 else ''} claimed",
            "expected": ", ".join(fields)}


_DESCRIBERS: dict[str, Callable[[_Context, Any, bool], dict[str, Any]]] = {
    "has_claims": _d_has_claims,
    "doc_known": _d_doc_known,
    "authorized": _d_authorized,
    "doc_supplied": _d_doc_supplied,
    "quote_found": _d_quote_found,
    "unique_field": _d_unique_field,
    "requested_field": _d_requested_field,
    "scope": _d_scope,
    "revision": _d_revision,
    "value": _d_value,
    "quote_supports": _d_quote_supports,
    "coverage": _d_coverage,
}
assert set(_DESCRIBERS) == set(_EVALUATORS)


def verify(raw: str | bytes, request: Request | Mapping[str, Any], registry: Registry | Any) -> Verdict:
    """Run the contract on one candidate answer.  Never raises for any ``raw``.

    ``request`` and ``registry`` are trusted inputs: loaded objects, or plain
    dicts (``{"sources": [...]}`` for the registry), which are validated here and
    raise ``msgspec.ValidationError``/``ValueError`` when malformed.
    """
    if type(request) is not Request:
        request = coerce_request(request)
    if type(registry) is not Registry:
        registry = Registry.coerce(registry)
    decoded = decode_answer(raw)
    problem = decoded.failure
    if problem is not None:
        return Verdict("INVALID_JSON", problem.reason, False, False, _NOTHING_ACCEPTED, (),
                       request, registry, decoded, None)
    claims = decoded.claims
    found = _decide_fused(claims, request, registry)
    if found is None:
        # Only verified values, copied, sorted by field, read-only.
        accepted = MappingProxyType(dict(sorted(map(_FIELD_VALUE, claims))))
        return Verdict("ACCEPT", None, True, True, accepted, claims, request, registry, decoded, None)
    position, claim = found
    check, result, status, reason, citation_only = _REJECTIONS[position]
    return Verdict(status, reason, True, citation_only, _NOTHING_ACCEPTED, claims, request, registry, decoded,
                   (check, claim, result))


_FIELD_VALUE = attrgetter("field", "value")
# For each rule check, in _RULE_CHECKS order, what a rejection by it is:
# (check, result, status, reason, citation_only).
_REJECTIONS = tuple(
    (check, result, check.code, result if isinstance(result, str) else None, check.stage is not _CITATION)
    for check, result in ((check, _failure_result(check)) for check in _RULE_CHECKS)
)
