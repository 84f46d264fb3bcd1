"""The checks' rules (inspector.contract.checks) are compiled twice by verify: into
one fused decision function (the verdict) and into one evaluator per check (the
trace and explore mode).  These properties are the guard that both compiled forms
agree with the rule strings as written in CHECKS, evaluated here one by one in
contract order."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from inspector import CHECKS, Outcome, Registry, Stage, load_suite, verify
from inspector.contract.access import authorize
from inspector.contract.models import Claim, Request, Source, coerce_request

from access_builders import ENVIRONMENTS, GHOST, REVISIONS, SERVICES, answers, registries, requests_for
from conftest import SUITE_FILES, claim

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
        names = {
            "claims": self.claims,
            "claim": self.claims[index] if index is not None else None,
            "index": index,
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
        it reads the cited source and there is none."""
        if index is not None and self.sources[index] is None and "source" in check.rule:
            return Outcome.UNAVAILABLE
        return Outcome.PASSED if self.holds(check, index) else Outcome.FAILED


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
            assert verdict.failed_check is None and verdict.first_failure is None
            assert dict(verdict.accepted) == {c.field: c.value for c in verdict.claims}
            return
        check, index = expected
        assert not verdict.ok
        assert verdict.failed_check is check
        assert verdict.status == check.code
        assert verdict.reason == (check.reasons[0] if check.reasons else None)
        assert verdict.citation_only is (check.stage is not Stage.CITATION)
        assert verdict.accepted == {}
        failure = verdict.first_failure
        assert (failure.check, failure.claim, failure.outcome) == (check, index, Outcome.FAILED)

    @PROPERTY
    @given(CASES)
    def test_trace_agrees_step_by_step(self, case):
        verdict, reference = run(case)
        expected = reference.first_failure()
        trace = verdict.trace
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


class TestEvaluators:
    @PROPERTY
    @given(CASES)
    def test_explore_evaluates_each_later_rule_as_written(self, case):
        """Explore mode runs the per-check evaluators on the steps after the first
        failure: each outcome is the rule's own value (or unavailable)."""
        verdict, reference = run(case)
        steps = verdict.explore()
        assert [(s.check, s.claim) for s in steps] == [(s.check, s.claim) for s in verdict.trace]
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
                got = None if verdict.ok else (verdict.failed_check, verdict.first_failure.claim)
                assert got == expected, f"{suite.name}/{case.id}"
                deciding.add(expected[0].id if expected else "ACCEPT")
        assert deciding == {check.id for check in RULE_CHECKS} | {"ACCEPT"}
