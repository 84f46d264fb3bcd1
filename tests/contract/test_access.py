"""Access control before grounding (inspector.contract.access and the ``authorized``
check of verify): every condition of authorize, the NOT_AUTHORIZED verdict and
its explanation, and that without a scope nothing is filtered."""

from __future__ import annotations

import itertools
import json

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector import Outcome, Registry, Scope, Source, assess, explain, load_suite, verify
from inspector.cli import main
from inspector.contract.access import CONDITIONS, authorize
from inspector.reports.case import verdict_document

from support.access import (
    LIVE,
    NOW,
    answer_of,
    answers,
    failing_conditions,
    registries,
    registry_of,
    request_of,
    requests_for,
    scope,
    source,
)
from support import ARTICLE, FIXTURES, RETRY, TIMEOUT, answer, claim, detail, spanned, step

ACCESS = FIXTURES / "access.json"
ALICE = Scope(tenant="tenant-a", user="alice", now=NOW)

# Each condition broken on its own: (condition, the broken metadata, words of the explanation).
BROKEN = [
    ("tenant", {"tenant": "tenant-b"}, "tenant tenant-b, the request's tenant is tenant-a"),
    ("approved", {"approved": False}, "not approved"),
    ("deleted", {"deleted": True}, "deleted"),
    ("expires_at", {"expires_at": 1000}, "expired at 1000, now 1500"),
    ("readers", {"readers": ["bob"]}, "alice is not among its readers (bob)"),
]
MISSING = [
    ("tenant", "no tenant recorded"),
    ("approved", "approval not recorded"),
    ("deleted", "deletion not recorded"),
    ("expires_at", "no expiry recorded"),
    ("readers", "no readers recorded"),
]


def live_source(id: str = "doc", **changes: object) -> Source:
    return msgspec.convert(source(id, **{**LIVE, **changes}), Source)


class TestAuthorize:
    def test_conditions_in_the_issues_order(self):
        assert CONDITIONS == ("tenant", "approved", "deleted", "expires_at", "readers")

    def test_live_source_is_allowed(self):
        access = authorize(live_source(), ALICE)
        assert access.allowed
        assert access.condition is None
        assert access.source == "doc"
        assert access.detail == "readable by alice in tenant-a until 2000 (now 1500)"

    @pytest.mark.parametrize(("condition", "broken", "detail"), BROKEN, ids=[b[0] for b in BROKEN])
    def test_each_condition_failing_alone(self, condition, broken, detail):
        access = authorize(live_source(**broken), ALICE)
        assert not access.allowed
        assert access.condition == condition
        assert access.detail == detail

    @pytest.mark.parametrize(("condition", "words"), MISSING, ids=[m[0] for m in MISSING])
    def test_missing_metadata_fails_closed(self, condition, words):
        access = authorize(live_source(**{condition: None}), ALICE)
        assert not access.allowed
        assert access.condition == condition
        assert words in access.detail
        assert "missing metadata fails closed" in access.detail

    def test_no_metadata_at_all_fails_on_the_tenant(self):
        bare = msgspec.convert(source("bare"), Source)
        access = authorize(bare, ALICE)
        assert (access.allowed, access.condition) == (False, "tenant")

    def test_expiring_exactly_now_is_expired(self):
        access = authorize(live_source(expires_at=NOW), ALICE)
        assert (access.allowed, access.condition) == (False, "expires_at")
        assert access.detail == "expired at 1500, now 1500"

    def test_before_expiry_is_allowed(self):
        assert authorize(live_source(expires_at=1000), Scope("tenant-a", "alice", 999)).allowed
        assert authorize(live_source(expires_at=1000), Scope("tenant-a", "alice", 999.5)).allowed

    def test_fractional_times_are_shown_as_written(self):
        access = authorize(live_source(expires_at=1000.5), Scope("tenant-a", "alice", 1500.25))
        assert access.detail == "expired at 1000.5, now 1500.25"

    def test_no_readers_at_all(self):
        access = authorize(live_source(readers=[]), ALICE)
        assert access.condition == "readers"
        assert access.detail == "alice is not among its readers (nobody)"

    def test_another_user_of_the_same_tenant(self):
        assert authorize(live_source(readers=["bob"]), Scope("tenant-a", "bob", NOW)).allowed

    def test_tenant_is_compared_exactly(self):
        for tenant in ("Tenant-A", "tenant-a ", "tenant"):
            assert authorize(live_source(tenant=tenant), ALICE).condition == "tenant"

    def test_first_failing_condition_in_order_of_precedence(self):
        """Every combination of conditions kept, broken or missing: the first broken
        or missing one in CONDITIONS order is reported."""
        wrong = {condition: broken for condition, broken, _ in BROKEN}
        for states in itertools.product(("ok", "wrong", "missing"), repeat=len(CONDITIONS)):
            changes: dict[str, object] = {}
            for condition, state in zip(CONDITIONS, states):
                if state == "wrong":
                    changes.update(wrong[condition])
                elif state == "missing":
                    changes[condition] = None
            access = authorize(live_source(**changes), ALICE)
            failing = [c for c, state in zip(CONDITIONS, states) if state != "ok"]
            assert access.allowed is (not failing), states
            assert access.condition == (failing[0] if failing else None), states

    @settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def test_agrees_with_the_issues_conditions(self, data):
        registry = Registry.coerce(data.draw(registries()))
        request = request_of(scope=data.draw(requests_for({"sources": []}, scoped=True))["scope"])
        for item in registry:
            failing = failing_conditions(item, request.scope)
            access = authorize(item, request.scope)
            assert access.allowed is (not failing)
            assert access.condition == (failing[0] if failing else None)


# The registry of the verify-level tests: one live document of tenant-a and, for
# each condition, a document with the same facts that fails only that one.
REGISTRY = registry_of(
    source("a-live", **LIVE),
    source("b-live", **{**LIVE, "tenant": "tenant-b"}),
    *(source(f"a-{condition}", **{**LIVE, **broken}) for condition, broken, _ in BROKEN[1:]),
    source("a-bare"),
)
ALL_IDS = tuple(s.id for s in REGISTRY)


def scoped_run(doc: str, **scope_changes: object):
    request = request_of(supplied=ALL_IDS, scope=scope(**scope_changes))
    return verify(answer_of(doc), request, REGISTRY)


class TestNotAuthorizedVerdict:
    def test_the_live_document_is_accepted(self):
        verdict = scoped_run("a-live")
        assert verdict.label == "ACCEPT"
        assert dict(verdict.accepted) == {RETRY: "false", TIMEOUT: "5000"}

    @pytest.mark.parametrize(("doc", "condition", "words"), [
        ("b-live", "tenant", "tenant tenant-b, the request's tenant is tenant-a"),
        ("a-approved", "approved", "not approved"),
        ("a-deleted", "deleted", "deleted"),
        ("a-expires_at", "expires_at", "expired at 1000, now 1500"),
        ("a-readers", "readers", "alice is not among its readers (bob)"),
        ("a-bare", "tenant", "no tenant recorded (missing metadata fails closed)"),
    ])
    def test_rejected_naming_the_condition(self, doc, condition, words):
        verdict = scoped_run(doc)
        assert verdict.label == "NO_CITATION/NOT_AUTHORIZED"
        assert verdict.status == "NO_CITATION" and verdict.reason == "NOT_AUTHORIZED"
        assert verdict.accepted == {}
        assert not verdict.citation_only
        assert verdict.strict_json
        assert verdict.check.id == "authorized"
        failure = explain(verdict).first_failure
        assert failure.claim == 0
        assert failure.explanation == f"{doc}: {words}"
        assert detail(verdict) == f"{doc}: {words}"
        assert failure.actual == condition
        assert "user may read now" in failure.hint

    def test_json_document_names_the_condition(self):
        document = verdict_document(scoped_run("a-expires_at"))
        assert document["status"] == "NO_CITATION"
        assert document["reason"] == "NOT_AUTHORIZED"
        assert document["first_failure"]["check"] == "authorized"
        assert document["first_failure"]["detail"] == "a-expires_at: expired at 1000, now 1500"
        assert document["accepted"] == {}

    def test_the_reader_listed_is_accepted(self):
        assert scoped_run("a-readers", user="bob").ok

    def test_before_expiry_is_accepted(self):
        assert scoped_run("a-expires_at", now=999).ok

    def test_expiring_exactly_now_is_rejected(self):
        verdict = scoped_run("a-expires_at", now=1000)
        assert verdict.label == "NO_CITATION/NOT_AUTHORIZED"
        assert detail(verdict) == "a-expires_at: expired at 1000, now 1000"

    def test_the_first_unauthorized_claim_decides(self):
        raw = answer(claim(TIMEOUT, "5000", "a-live"), claim(RETRY, "false", "a-deleted"))
        verdict = verify(raw, request_of(supplied=ALL_IDS, scope=scope()), REGISTRY)
        assert verdict.label == "NO_CITATION/NOT_AUTHORIZED"
        assert explain(verdict).first_failure.claim == 1
        assert detail(verdict) == "a-deleted: deleted"

    def test_unauthorized_before_not_supplied(self):
        verdict = verify(answer_of("a-deleted"), request_of(supplied=("a-live",), scope=scope()), REGISTRY)
        assert verdict.label == "NO_CITATION/NOT_AUTHORIZED"

    def test_unknown_before_unauthorized(self):
        verdict = verify(answer_of("nowhere"), request_of(supplied=ALL_IDS, scope=scope()), REGISTRY)
        assert verdict.label == "NO_CITATION/UNKNOWN_DOC"

    @pytest.mark.parametrize("case_id", ["another-tenant-right-value", "not-approved", "deleted", "expired",
                                         "expiring-exactly-now", "reader-not-listed",
                                         "missing-metadata-fails-closed", "mixed-one-claim-unauthorized"])
    def test_fixture_cases(self, case_id):
        suite = load_suite(ACCESS)
        case = next(case for case in suite.cases if case.id == case_id)
        verdict = verify(case.raw, case.request, suite.registry)
        assert verdict.label == "NO_CITATION/NOT_AUTHORIZED" == case.expected
        doc = verdict.claims[explain(verdict).first_failure.claim].doc
        assert detail(verdict).startswith(f"{doc}: ")

    def test_fixture_expired_names_the_times(self):
        suite = load_suite(ACCESS)
        case = next(case for case in suite.cases if case.id == "expired")
        assert detail(verify(case.raw, case.request, suite.registry)) == "a-expired: expired at 1000, now 1500"

    def test_check_command_reports_the_condition(self, capsys, tmp_path):
        registry, request, claims = tmp_path / "g.json", tmp_path / "r.json", tmp_path / "c.json"
        registry.write_text(json.dumps({"sources": [source("a-old", **{**LIVE, "expires_at": 1000})]}), "utf-8")
        request.write_text(json.dumps({"service": "payments", "environment": "prod", "revision": "v2",
                                       "fields": [TIMEOUT, RETRY], "supplied": ["a-old"], "scope": scope()}),
                           "utf-8")
        claims.write_text(answer_of("a-old"), "utf-8")
        assert main(["check", "--request", str(request), "--registry", str(registry), str(claims)]) == 1
        out = capsys.readouterr().out
        assert "NO_CITATION/NOT_AUTHORIZED" in out
        assert "expired at 1000, now 1500" in out


class TestAnotherTenant:
    def test_right_value_from_another_tenant_is_not_accepted(self):
        verdict = scoped_run("b-live")
        assert not verdict.ok
        assert assess(verdict).labels == ("INSUFFICIENT_EVIDENCE", "INSUFFICIENT_EVIDENCE")
        assert assess(verdict).policy == "ABSTAIN"

    def test_even_when_its_text_and_facts_are_identical(self):
        same = {"facts": {TIMEOUT: "5000"}, "text": "read_timeout_ms=5000\n"}
        registry = registry_of(source("mine", **LIVE, **same), source("theirs", **{**LIVE, "tenant": "tenant-b"},
                                                                           **same))
        request = request_of(fields=(TIMEOUT,), supplied=("mine", "theirs"), scope=scope())
        assert verify(answer(claim(TIMEOUT, "5000", "mine")), request, registry).ok
        verdict = verify(answer(claim(TIMEOUT, "5000", "theirs")), request, registry)
        assert verdict.label == "NO_CITATION/NOT_AUTHORIZED"

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def test_never_accepted(self, data):
        """Whatever the answer, if a claim cites a document of another tenant, the
        contract rejects and the lens does not label that claim SUPPORTED."""
        registry_value = data.draw(registries())
        request_value = data.draw(requests_for(registry_value, scoped=True))
        raw = data.draw(answers(registry_value))
        registry = Registry.coerce(registry_value)
        verdict = verify(raw, request_value, registry)
        tenant = request_value["scope"]["tenant"]
        foreign = [i for i, c in enumerate(verdict.claims)
                   if (s := registry.get(c.doc)) is not None and s.tenant != tenant]
        if foreign:
            assert not verdict.ok
            assert all(assess(verdict).labels[i] == "INSUFFICIENT_EVIDENCE" for i in foreign)
            assert assess(verdict).policy == "ABSTAIN"


class TestNoScope:
    def test_nothing_is_filtered(self):
        request = request_of(supplied=ALL_IDS)
        for doc in ALL_IDS:
            verdict = verify(answer_of(doc), request, REGISTRY)
            assert verdict.label == "ACCEPT", doc
            assert assess(verdict).labels == ("SUPPORTED", "SUPPORTED")

    def test_a_scope_turns_filtering_on_for_a_registry_without_metadata(self):
        registry = registry_of(source("plain"))
        assert verify(answer_of("plain"), request_of(supplied=("plain",)), registry).ok
        verdict = verify(answer_of("plain"), request_of(supplied=("plain",), scope=scope()), registry)
        assert verdict.label == "NO_CITATION/NOT_AUTHORIZED"

    def test_fixture_case_without_scope(self):
        suite = load_suite(ACCESS)
        case = next(case for case in suite.cases if case.id == "no-scope-nothing-filtered")
        assert case.request.scope is None
        assert verify(case.raw, case.request, suite.registry).ok

    def test_the_article_suite_keeps_its_labels(self):
        suite = load_suite(ARTICLE)
        assert len(suite.cases) == 22
        for case in suite.cases:
            assert case.request.scope is None
            verdict = verify(case.raw, case.request, suite.registry)
            status, _, reason = case.expected.partition("/")
            assert verdict.status == status and (not reason or verdict.reason == reason), case.id
            assert verdict.reason != "NOT_AUTHORIZED"


class TestAuthorizedStep:
    def test_present_with_a_scope_between_doc_known_and_doc_supplied(self):
        verdict = scoped_run("a-live")
        ids = [(s.check.id, s.claim) for s in explain(verdict).steps]
        for claim_index in (0, 1):
            assert ids.index(("doc_known", claim_index)) + 1 == ids.index(("authorized", claim_index))
            assert ids.index(("authorized", claim_index)) + 1 == ids.index(("doc_supplied", claim_index))
        assert [s.outcome for s in explain(verdict).steps] == [Outcome.PASSED] * len(explain(verdict).steps)

    def test_absent_without_a_scope(self):
        verdict = verify(answer_of("a-live"), request_of(supplied=ALL_IDS), REGISTRY)
        assert not verdict.scoped and scoped_run("a-live").scoped
        assert "authorized" not in {s.check.id for s in explain(verdict).steps}
        rejected = verify(answer_of("a-live"), request_of(supplied=()), REGISTRY)
        assert "authorized" not in {s.check.id for s in explain(rejected).explore()}

    def test_absent_without_a_scope_even_with_access_metadata(self):
        verdict = verify(answer_of("a-deleted"), request_of(supplied=ALL_IDS), REGISTRY)
        assert verdict.ok
        assert "authorized" not in {s.check.id for s in explain(verdict).steps}

    def test_one_step_per_claim_with_a_scope(self):
        raw = answer(claim(TIMEOUT, "5000", "a-live"), claim(RETRY, "false", "a-live"), claim(RETRY, "false", "a-live"))
        verdict = verify(raw, request_of(supplied=ALL_IDS, scope=scope()), REGISTRY)
        assert [s.claim for s in explain(verdict).steps if s.check.id == "authorized"] == [0, 1, 2]

    def test_passed_step(self):
        found = step(scoped_run("a-live"), "authorized", 0)
        assert found.outcome is Outcome.PASSED
        assert found.explanation == "a-live: readable by alice in tenant-a until 2000 (now 1500)"
        assert found.request_attribute == "scope"
        assert found.source == "a-live"

    @pytest.mark.parametrize(("doc", "condition"), [
        ("b-live", "tenant"), ("a-approved", "approved"), ("a-deleted", "deleted"),
        ("a-expires_at", "expires_at"), ("a-readers", "readers"), ("a-bare", "tenant"),
    ])
    def test_failing_step_names_the_condition(self, doc, condition):
        verdict = scoped_run(doc)
        found = step(verdict, "authorized", 0)
        assert found.outcome is Outcome.FAILED
        assert found.reason == "NOT_AUTHORIZED"
        assert found.label == "NO_CITATION/NOT_AUTHORIZED"
        assert found.source == doc
        assert found.source_attribute == condition
        assert found.request_attribute == "scope"
        assert found.expected == "tenant tenant-a, reader alice, now 1500"
        assert found.actual == condition
        assert spanned(verdict.text, found.answer_span) == json.dumps(doc)
        assert explain(verdict).first_failure.source_attribute == condition
        assert found.to_dict()["source_attribute"] == condition

    def test_missing_metadata_names_each_condition(self):
        for condition in CONDITIONS:
            registry = registry_of(source("doc", **{**LIVE, condition: None}))
            verdict = verify(answer_of("doc"), request_of(supplied=("doc",), scope=scope()), registry)
            assert step(verdict, "authorized", 0).source_attribute == condition

    def test_steps_after_the_failure_are_not_reached(self):
        verdict = scoped_run("a-deleted")
        trace = explain(verdict).steps
        at = trace.index(step(verdict, "authorized", 0))
        assert all(s.outcome is Outcome.PASSED for s in trace[:at])
        assert all(s.outcome is Outcome.NOT_REACHED for s in trace[at + 1:])
        assert step(verdict, "doc_supplied", 0).outcome is Outcome.NOT_REACHED

    def test_unknown_doc_leaves_it_unreached_and_unavailable_in_explore(self):
        verdict = verify(answer_of("nowhere"), request_of(supplied=ALL_IDS, scope=scope()), REGISTRY)
        assert step(verdict, "doc_known", 0).outcome is Outcome.FAILED
        assert step(verdict, "authorized", 0).outcome is Outcome.NOT_REACHED
        assert step(explain(verdict).explore(), "authorized", 0).outcome is Outcome.UNAVAILABLE

    def test_explore_shows_the_second_claims_access_too(self):
        raw = answer(claim(TIMEOUT, "5000", "a-deleted"), claim(RETRY, "false", "a-approved"))
        verdict = verify(raw, request_of(supplied=ALL_IDS, scope=scope()), REGISTRY)
        later = step(explain(verdict).explore(), "authorized", 1)
        assert later.outcome is Outcome.FAILED and not later.reached
        assert later.source_attribute == "approved"

    def test_first_failure_without_the_trace_is_the_traces(self):
        alone = explain(scoped_run("a-readers")).first_failure
        traced = scoped_run("a-readers")
        in_trace = next(s for s in explain(traced).steps if s.outcome is Outcome.FAILED)
        assert alone.to_dict() == in_trace.to_dict()
