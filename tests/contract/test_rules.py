"""The checks' rules (inspector.contract.checks) and their one compiler
(inspector.contract.rules), which turns them into ``decide`` (the verdict's first
failure, every rule fused) and ``evaluate`` (every rule on every claim: the trace's
explore mode).  Each rule reads only the names ``RULE_NAMES`` documents and
declares what it reads; the properties here are the guard that both compiled
forms agree with each other and with the rule strings as written in CHECKS,
evaluated one by one in contract order."""

from __future__ import annotations

import dis
import json
from types import CodeType
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from inspector import CHECKS, Outcome, Registry, Stage, explain, load_suite, verify
from inspector.contract.access import authorize
from inspector.contract.checks import RULE_NAMES
from inspector.contract.models import Claim, Request, Source, coerce_request
from inspector.contract.rules import PLAN, RULE_CHECKS as COMPILED_CHECKS, decide, evaluate
from inspector.contract.trace import plan

from support.access import ENVIRONMENTS, GHOST, REVISIONS, SERVICES, answers, registries, requests_for
from support import REGISTRY, REQUEST, SUITE_FILES, claim

RULE_CHECKS = [check for check in CHECKS if check.rule is not None]
STAGES = list(dict.fromkeys(check.stage for check in RULE_CHECKS))
PROPERTY = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


class Reference:
    """The contract's stages 2-4, read straight from CHECKS: within a stage the
    stage-wide checks first, then the per-claim checks claim by claim; the first
    rule that is false decides."""

    def __init__(self, claims: tuple[Claim, ...], request: Request, registry: Registry) -> None:
        self.claims, self.request = claims, request
        by_id = {source.id: source for source in registry.sources}
        self.sources: list[Source | None] = [by_id.get(c.doc) for c in claims]

    def holds(self, check: Any, index: int | None) -> bool:
        # Exactly the names RULE_NAMES documents (TestRuleNames holds them equal).
        names = {
            "claims": self.claims,
            "claim": self.claims[index] if index is not None else None,
            "source": self.sources[index] if index is not None else None,
            "request": self.request,
            # The fields claimed before this claim; all of them for a stage-wide rule.
            "claimed": {c.field for c in self.claims[:index]},
            "authorize": authorize,
        }
        return bool(eval(check.rule, {}, names))  # noqa: S307 - the package's own rule strings

    def first_failure(self) -> tuple[Any, int | None] | None:
        for stage in STAGES:
            for check in (c for c in RULE_CHECKS if c.stage is stage and not c.per_claim):
                if not self.holds(check, None):
                    return check, None
            for index in range(len(self.claims)):
                for check in (c for c in RULE_CHECKS if c.stage is stage and c.per_claim):
                    if not self.holds(check, index):
                        return check, index
        return None

    def outcome(self, check: Any, index: int | None) -> Outcome:
        """What evaluating one rule on its own gives (explore mode): unavailable when
        it needs the cited source and there is none (``doc_known``, which only asks
        whether there is one, fails instead)."""
        if index is not None and self.sources[index] is None and check.needs_source:
            return Outcome.UNAVAILABLE
        return Outcome.PASSED if self.holds(check, index) else Outcome.FAILED

    def evaluation(self, check: Any, index: int | None) -> bool | None:
        """What ``rules.evaluate`` should say of one rule on one claim."""
        outcome = self.outcome(check, index)
        return None if outcome is Outcome.UNAVAILABLE else outcome is Outcome.PASSED


@st.composite
def near_misses(draw: st.DrawFn) -> tuple[dict, dict, str]:
    """A registry, a request and an answer that the contract would accept, then
    zero to three small mutations: so that the late checks decide often too."""
    registry = draw(registries())
    good = draw(st.sampled_from(registry["sources"]))
    if not good["facts"]:
        good["facts"] = {"max_connections": "50"}
    facts = good["facts"]
    # every fact of the cited document is quotable (a generated text may miss one)
    good["text"] += "".join(f"{k}={v}\n" for k, v in facts.items())
    fields = draw(st.lists(st.sampled_from(sorted(facts)), min_size=1, unique=True))
    ids = [s["id"] for s in registry["sources"]]
    request: dict[str, Any] = {
        "service": good["service"], "environment": good["environment"], "revision": good["revision"],
        "fields": fields, "supplied": [good["id"], *draw(st.lists(st.sampled_from([*ids, GHOST]), max_size=2))],
    }
    if draw(st.booleans()):
        request["scope"] = {"tenant": good.get("tenant") or "tenant-a",
                            "user": (good.get("readers") or ["alice"])[0],
                            "now": draw(st.sampled_from((900, 1000, 1500)))}
        if draw(st.integers(0, 3)):
            # mostly, the cited document is readable in that scope
            good.update(tenant=request["scope"]["tenant"], readers=[request["scope"]["user"]], approved=True,
                        deleted=False, expires_at=2000)
    claims = [claim(field, facts[field], good["id"]) for field in fields]
    for _ in range(draw(st.sampled_from((1, 2, 0, 3)))):
        mutation = draw(st.sampled_from(("value", "doc", "quote", "drop", "duplicate", "unrequested", "swap",
                                         "supplied", "scope-user", "service", "environment",
                                         "revision")))
        if mutation == "drop" and claims:
            claims.pop(draw(st.integers(0, len(claims) - 1)))
        elif mutation == "duplicate" and claims:
            claims.append(dict(draw(st.sampled_from(claims))))
        elif mutation == "unrequested":
            claims.append(claim("colour", "blue", good["id"], quote="# header"))
        elif mutation == "swap" and len(claims) > 1:
            claims.reverse()
        elif mutation == "supplied":
            request["supplied"] = [i for i in request["supplied"] if i != good["id"]]
        elif mutation == "scope-user" and "scope" in request:
            request["scope"]["user"] = "mallory"
        elif mutation in ("service", "environment", "revision"):
            request[mutation] = draw(st.sampled_from({"service": SERVICES, "environment": ENVIRONMENTS,
                                                      "revision": REVISIONS}[mutation]))
        elif claims:
            target = claims[draw(st.integers(0, len(claims) - 1))]
            if mutation == "value":
                target["value"] = draw(st.sampled_from(("5000", "false", "50", "5s")))
            elif mutation == "doc":
                target["doc"] = draw(st.sampled_from([*ids, GHOST]))
            else:
                target["quote"] = draw(st.sampled_from(["# header", "not in any text",
                                                        *filter(None, good["text"].splitlines()[1:])]))
    return registry, request, json.dumps({"claims": claims[:8]})


@st.composite
def random_cases(draw: st.DrawFn) -> tuple[dict, dict, str]:
    registry = draw(registries())
    return registry, draw(requests_for(registry)), draw(answers(registry))


CASES = st.one_of(near_misses(), near_misses(), random_cases())


def run(case: tuple[dict, dict, str]):
    registry_value, request_value, raw = case
    registry, request = Registry.coerce(registry_value), coerce_request(request_value)
    verdict = verify(raw, request, registry)
    assert verdict.strict_json, raw  # the strategies only write well-formed answers
    return verdict, Reference(verdict.claims, request, registry)


class TestFusedDecision:
    @PROPERTY
    @given(CASES)
    def test_verdict_is_the_first_rule_that_fails(self, case):
        verdict, reference = run(case)
        expected = reference.first_failure()
        event(f"{'scoped' if verdict.request.scope else 'unscoped'} {expected[0].id if expected else 'ACCEPT'}")
        if expected is None:
            assert verdict.ok
            assert verdict.check is None and verdict.claim is None and explain(verdict).first_failure is None
            assert dict(verdict.accepted) == {c.field: c.value for c in verdict.claims}
            return
        check, index = expected
        assert not verdict.ok
        assert (verdict.check, verdict.claim) == (check, index)
        assert verdict.status == check.code
        assert verdict.reason == (check.reasons[0] if check.reasons else None)
        assert verdict.citation_only is (check.stage is not Stage.CITATION)
        assert verdict.accepted == {}
        failure = explain(verdict).first_failure
        assert (failure.check, failure.claim, failure.outcome) == (check, index, Outcome.FAILED)

    @PROPERTY
    @given(CASES)
    def test_trace_agrees_step_by_step(self, case):
        verdict, reference = run(case)
        expected = reference.first_failure()
        trace = explain(verdict).steps
        assert ("authorized" in {s.check.id for s in trace}) is (verdict.request.scope is not None)
        failed = [i for i, s in enumerate(trace) if s.outcome is Outcome.FAILED]
        if expected is None:
            assert failed == []
            assert all(s.outcome is Outcome.PASSED for s in trace)
            return
        (at,) = failed
        assert (trace[at].check, trace[at].claim) == expected
        for item in trace[:at]:
            assert item.outcome is Outcome.PASSED
            if item.check.rule is not None:
                assert reference.holds(item.check, item.claim), item.label
        assert all(s.outcome is Outcome.NOT_REACHED for s in trace[at + 1:])


class TestEvaluate:
    @PROPERTY
    @given(CASES)
    def test_explore_evaluates_each_later_rule_as_written(self, case):
        """Explore mode reads ``evaluate`` for the steps after the first failure:
        each outcome is the rule's own value (or unavailable)."""
        verdict, reference = run(case)
        trace = explain(verdict)
        steps = trace.explore()
        assert [(s.check, s.claim) for s in steps] == [(s.check, s.claim) for s in trace.steps]
        for item in steps:
            if item.reached or item.outcome is Outcome.NOT_REACHED:
                continue
            assert item.check.rule is not None
            assert item.outcome is reference.outcome(item.check, item.claim), item.label
            if item.outcome is Outcome.FAILED:
                assert item.reason == (item.check.reasons[0] if item.check.reasons else None)


class TestFixtureSuites:
    def test_every_fixture_case_agrees(self):
        """Every frozen case of every fixture suite: the fused decision is the
        reference's, and between them the suites make every rule decide once."""
        deciding = set()
        for path in SUITE_FILES:
            suite = load_suite(path)
            for case in suite.cases:
                verdict = verify(case.raw, case.request, suite.registry)
                if not verdict.strict_json:
                    continue
                expected = Reference(verdict.claims, case.request, suite.registry).first_failure()
                got = None if verdict.ok else (verdict.check, verdict.claim)
                assert got == expected, f"{suite.name}/{case.id}"
                if expected is not None:
                    assert (explain(verdict).first_failure.check, explain(verdict).first_failure.claim) == expected
                assert_decide_is_evaluates_first_failure(verdict.claims, case.request, suite.registry)
                deciding.add(expected[0].id if expected else "ACCEPT")
        assert deciding == {check.id for check in RULE_CHECKS} | {"ACCEPT"}


# -- what a rule reads -------------------------------------------------------------


def names_read(code: CodeType) -> set[str]:
    """The variables a compiled rule reads (not attribute names, which co_names
    lists too), in nested code objects (a comprehension) as well."""
    read = {i.argval for i in dis.get_instructions(code) if i.opname in ("LOAD_NAME", "LOAD_GLOBAL", "LOAD_DEREF")}
    for const in code.co_consts:
        if isinstance(const, CodeType):
            read |= names_read(const)
    return read


def uses_of_source(code: CodeType) -> tuple[bool, bool]:
    """(reads it, uses it for more than ``source is (not) None``).  Only a rule that
    uses the source itself needs it to exist: ``doc_known`` asks whether it does,
    and explore mode reports its failure as the failure it is."""
    instructions = [i for i in dis.get_instructions(code) if i.opname not in ("CACHE", "RESUME")]
    reads = beyond_none = False
    for at, instruction in enumerate(instructions):
        if instruction.opname in ("LOAD_NAME", "LOAD_GLOBAL") and instruction.argval == "source":
            reads = True
            following = instructions[at + 1:at + 3]
            none_test = [i.opname for i in following] == ["LOAD_CONST", "IS_OP"] and following[0].argval is None
            beyond_none = beyond_none or not none_test
    return reads, beyond_none


def compiled(check: Any) -> CodeType:
    return compile(check.rule, f"<rule {check.id}>", "eval")


class TestRuleNames:
    def test_the_reader_tells_names_from_attributes(self):
        code = compile("claim.source == request.claimed and all(x in claimed for x in claims)", "<t>", "eval")
        assert {"source", "claimed", "claims"} <= set(code.co_names)
        assert names_read(code) == {"claim", "request", "claimed", "claims", "all"}

    def test_every_check_of_stages_2_to_4_has_a_rule(self):
        assert [c for c in CHECKS if c.stage is not Stage.DECODE] == RULE_CHECKS == list(COMPILED_CHECKS)
        assert all(check.rule is None for check in CHECKS if check.stage is Stage.DECODE)

    @pytest.mark.parametrize("check", RULE_CHECKS, ids=[c.id for c in RULE_CHECKS])
    def test_a_rule_reads_only_the_documented_names(self, check):
        code = compiled(check)
        assert code.co_names, check.id
        # Builtins are Python's, not the contract's: only len() is used today.
        extra = names_read(code) - set(RULE_NAMES) - {"len"}
        assert not extra, f"rule of {check.id} reads {sorted(extra)}, which RULE_NAMES does not document"

    def test_the_source_reader_tells_a_none_test_from_a_use(self):
        assert uses_of_source(compile("source is not None", "<t>", "eval")) == (True, False)
        assert uses_of_source(compile("source is None or x", "<t>", "eval")) == (True, False)
        assert uses_of_source(compile("source is not None and source.text", "<t>", "eval")) == (True, True)
        assert uses_of_source(compile("authorize(source, request.scope)", "<t>", "eval")) == (True, True)
        assert uses_of_source(compile("claim.source", "<t>", "eval")) == (False, False)

    @pytest.mark.parametrize("check", RULE_CHECKS, ids=[c.id for c in RULE_CHECKS])
    def test_a_rule_declares_what_it_reads(self, check):
        code = compiled(check)
        read = names_read(code)
        reads_source, uses_source = uses_of_source(code)
        assert reads_source is ("source" in code.co_names) is ("source" in read)
        # needs_source: the rule uses the cited Source (a test for None is not a use).
        assert check.needs_source is uses_source, \
            f"rule of {check.id} {'uses' if uses_source else 'does not use'} source: " \
            f"needs_source={check.needs_source} says the opposite"
        assert check.reads_claimed is ("claimed" in read) is ("claimed" in code.co_names), \
            f"rule of {check.id} {'reads' if 'claimed' in read else 'does not read'} claimed: " \
            f"reads_claimed={check.reads_claimed} says the opposite"

    def test_only_doc_known_tests_the_source_without_using_it(self):
        # The one rule that may see no source: whether the document exists.
        testing = [check.id for check in RULE_CHECKS if uses_of_source(compiled(check)) == (True, False)]
        assert testing == ["doc_known"]

    @pytest.mark.parametrize("check", [c for c in RULE_CHECKS if not c.per_claim],
                             ids=[c.id for c in RULE_CHECKS if not c.per_claim])
    def test_a_stage_wide_rule_reads_no_claim_of_its_own(self, check):
        assert not {"claim", "source"} & names_read(compiled(check)), check.id

    def test_the_names_are_documented(self):
        assert set(RULE_NAMES) == {"claims", "claim", "source", "request", "claimed", "authorize"}
        assert all(words.strip() for words in RULE_NAMES.values())


# -- decide and evaluate agree ---------------------------------------------------------


def assert_decide_is_evaluates_first_failure(claims: tuple[Claim, ...], request: Request,
                                             registry: Registry) -> None:
    """``evaluate`` gives every (check, claim) in contract order, each the rule's own
    value; the first that is not True (False, or None: not evaluable) is ``decide``'s
    answer."""
    results = evaluate(claims, request, registry)
    planned = [(check, index) for check, index in plan(len(claims), scoped=True) if check.stage is not Stage.DECODE]
    if not claims:  # the per-claim checks have nothing to run on
        planned = [(check, index) for check, index in planned if not check.per_claim]
    assert list(results) == [(check.id, index) for check, index in planned]
    reference = Reference(claims, request, registry)
    for check, index in planned:
        assert results[check.id, index] is reference.evaluation(check, index), (check.id, index)
    first = next(((check, index) for check, index in planned if results[check.id, index] is not True), None)
    decided = decide(claims, request, registry)
    assert (None if decided is None else (COMPILED_CHECKS[decided[0]], decided[1])) == first
    assert first == reference.first_failure()


class TestDecideAndEvaluate:
    def test_the_plan_is_stage_by_stage(self):
        assert [stage for stage in STAGES] == [Stage.CITATION, Stage.CLAIM, Stage.COVERAGE]
        assert [(tuple(c.id for c in whole), tuple(c.id for c in per_claim)) for whole, per_claim in PLAN] == [
            (("has_claims",), ("doc_known", "authorized", "doc_supplied", "quote_found")),
            ((), ("unique_field", "requested_field", "scope", "revision", "value", "quote_supports")),
            (("coverage",), ()),
        ]

    def test_an_unknown_document_fails_doc_known_and_leaves_the_rest_unevaluable(self):
        claims = verify(json.dumps({"claims": [claim(doc="ghost"), claim("retry_enabled", "false")]}),
                        REQUEST, REGISTRY).claims
        results = evaluate(claims, REQUEST, REGISTRY)
        assert results["doc_known", 0] is False
        for check in RULE_CHECKS:
            if check.per_claim:
                expected = None if check.needs_source else results[check.id, 0]
                assert results[check.id, 0] is expected, check.id
        assert results["doc_supplied", 0] is False and results["quote_supports", 0] is True
        assert all(results[check.id, 1] is True for check in RULE_CHECKS if check.per_claim)
        assert decide(claims, REQUEST, REGISTRY) == (list(COMPILED_CHECKS).index(RULE_CHECKS[1]), 0)
        assert_decide_is_evaluates_first_failure(claims, REQUEST, REGISTRY)

    @PROPERTY
    @given(CASES)
    def test_on_generated_cases(self, case):
        verdict, _ = run(case)
        assert_decide_is_evaluates_first_failure(verdict.claims, verdict.request, verdict.registry)
