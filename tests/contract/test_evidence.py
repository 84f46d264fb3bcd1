"""What the evidence says beside the verdict (inspector.contract.evidence, and the
Assessment of one verdict built on it): the label lens and answer policy,
conflicts, retrieval recall, blame and abstention categories."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector import Registry, assess, explain, load_suite, verify
from inspector.contract.checks import CHECKS
from inspector.contract.evidence import (
    CATEGORIES,
    Assessment,
    assessment_key,
    Conflict,
    FieldRecall,
    Recall,
    blame,
    category_for,
    claim_labels,
    conflicts_for,
    policy_for,
    recall_for,
    registry_conflicts,
)

from support.access import (
    LIVE,
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
from inspector.reports.case import verdict_document

from support import FIXTURES, RETRY, TIMEOUT, answer, claim

S, C, I = "SUPPORTED", "CONTRADICTED", "INSUFFICIENT_EVIDENCE"

# Two current prod v2 documents that disagree on retry_enabled, an old revision and
# a dev document (no access metadata: for requests without a scope).
OPS = source("ops", facts={TIMEOUT: "5000", RETRY: "false"})
WIKI = source("wiki", facts={TIMEOUT: "5000", RETRY: "true"})
OLD = source("old", revision="v1", facts={TIMEOUT: "2000", RETRY: "true"})
DEV = source("dev", environment="dev", facts={TIMEOUT: "12000", RETRY: "true"})
REGISTRY = registry_of(OPS, WIKI, OLD, DEV)
EVERYTHING = ("ops", "wiki", "old", "dev")


def case(suite_name: str, case_id: str):
    suite = load_suite(FIXTURES / f"{suite_name}.json")
    found = next(c for c in suite.cases if c.id == case_id)
    return found, verify(found.raw, found.request, suite.registry)


def seed_labels(raw: str, request: dict, registry: dict) -> tuple[str, ...]:
    """Seed 003's verifyClaims, ported: filter the sources by access (when there is
    a scope), then compare each claim's value with the cited source's fact."""
    claims = json.loads(raw)["claims"]
    sources = Registry.coerce(registry).sources
    if request.get("scope") is not None:
        request_scope = request_of(scope=request["scope"]).scope
        sources = tuple(s for s in sources if not failing_conditions(s, request_scope))
    labels = []
    for item in claims:
        evidence = next((s for s in sources if s.id == item["doc"]), None)
        fact = evidence.facts.get(item["field"]) if evidence is not None else None
        labels.append(I if fact is None else S if fact == item["value"] else C)
    return tuple(labels)


class TestLabels:
    def test_supported_contradicted_insufficient(self):
        raw = answer(claim(TIMEOUT, "5000", "ops"), claim(RETRY, "true", "ops"), claim("max_connections", "50", "ops"),
                     claim(TIMEOUT, "5000", "nowhere"))
        verdict = verify(raw, request_of(supplied=EVERYTHING), REGISTRY)
        assert assess(verdict).labels == (S, C, I, I)
        assert assess(verdict).policy == "ABSTAIN"

    def test_all_supported_answers(self):
        verdict = verify(answer_of("ops"), request_of(supplied=EVERYTHING), REGISTRY)
        assert verdict.ok
        assert assess(verdict).labels == (S, S)
        assert assess(verdict).policy == "ANSWER"

    def test_one_insufficient_claim_abstains(self):
        raw = answer(claim(TIMEOUT, "5000", "ops"), claim("colour", "blue", "ops"))
        assert assess(verify(raw, request_of(supplied=EVERYTHING), REGISTRY)).policy == "ABSTAIN"

    def test_unauthorized_evidence_is_insufficient(self):
        registry = registry_of(source("mine", **LIVE), source("gone", **{**LIVE, "deleted": True}))
        raw = answer(claim(TIMEOUT, "5000", "mine"), claim(RETRY, "false", "gone"))
        verdict = verify(raw, request_of(supplied=("mine", "gone"), scope=scope()), registry)
        assert assess(verdict).labels == (S, I)
        assert assess(verdict).policy == "ABSTAIN"

    def test_without_scope_the_same_evidence_supports(self):
        registry = registry_of(source("mine", **LIVE), source("gone", **{**LIVE, "deleted": True}))
        raw = answer(claim(TIMEOUT, "5000", "mine"), claim(RETRY, "false", "gone"))
        assert assess(verify(raw, request_of(supplied=("mine", "gone")), registry)).labels == (S, S)

    def test_lens_ignores_revision_supply_and_quotes(self):
        stale = verify(answer_of("old", {TIMEOUT: "2000", RETRY: "true"}), request_of(supplied=EVERYTHING), REGISTRY)
        assert stale.status == "STALE_REVISION"
        assert assess(stale).labels == (S, S)
        unsupplied = verify(answer_of("ops"), request_of(supplied=()), REGISTRY)
        assert unsupplied.label == "NO_CITATION/NOT_SUPPLIED"
        assert assess(unsupplied).labels == (S, S)
        raw = answer(claim(TIMEOUT, "5000", "ops", quote="# payments"), claim(RETRY, "false", "ops"))
        misquoted = verify(raw, request_of(supplied=EVERYTHING), REGISTRY)
        assert misquoted.status == "QUOTE_NOT_SUPPORTING"
        assert assess(misquoted).labels == (S, S)

    @pytest.mark.parametrize("raw", [
        "not json",
        '{"claims": [], "claims": []}',
        '{"claims": {}}',
        '{"claims": [{"field": "read_timeout_ms", "value": 5000, "doc": "ops", "quote": "read_timeout_ms=5000"}]}',
        '{"claims": [{"field": "read_timeout_ms", "value": "5000", "doc": "ops", "quote": "read_timeout_ms=5000"}]} x',
        b'{"claims": ["\xff"]}',
    ], ids=["syntax", "duplicate-key", "wrong-shape", "not-a-string", "trailing-data", "not-utf8"])
    def test_invalid_json_has_no_labels_and_abstains(self, raw):
        verdict = verify(raw, request_of(supplied=EVERYTHING), REGISTRY)
        assert verdict.status == "INVALID_JSON"
        assert assess(verdict).labels == ()
        assert assess(verdict).policy == "ABSTAIN"
        assert not assess(verdict).lens_disagrees
        document = verdict_document(verdict)
        assert (document["labels"], document["policy"]) == ([], "ABSTAIN")

    def test_no_claims_abstains(self):
        verdict = verify('{"claims": []}', request_of(supplied=EVERYTHING), REGISTRY)
        assert verdict.label == "NO_CITATION/NO_CLAIMS"
        assert assess(verdict).labels == ()
        assert assess(verdict).policy == "ABSTAIN"

    @pytest.mark.parametrize(("labels", "policy"), [
        ((), "ABSTAIN"), ((S,), "ANSWER"), ((S, S, S), "ANSWER"), ((S, C), "ABSTAIN"), ((I, S), "ABSTAIN"),
        ((C,), "ABSTAIN"), ((I,), "ABSTAIN"),
    ])
    def test_policy_for(self, labels, policy):
        assert policy_for(labels) == policy

    def test_claim_labels_directly(self):
        verdict = verify(answer(claim(TIMEOUT, "5000", "wiki"), claim(RETRY, "false", "wiki")),
                         request_of(supplied=EVERYTHING), REGISTRY)
        assert claim_labels(verdict.claims, verdict.request, REGISTRY) == (S, C)

    @pytest.mark.parametrize("suite_name", ["access", "conflicts"])
    def test_fixture_labels_are_the_frozen_ones(self, suite_name):
        suite = load_suite(FIXTURES / f"{suite_name}.json")
        for item in suite.cases:
            verdict = verify(item.raw, item.request, suite.registry)
            assert assess(verdict).labels == item.expected_labels, item.id
            assert assess(verdict).policy == item.expected_policy, item.id

    @settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def test_agrees_with_seed_003(self, data):
        registry = data.draw(registries())
        request = data.draw(requests_for(registry))
        raw = data.draw(answers(registry))
        verdict = verify(raw, request, Registry.coerce(registry))
        expected = seed_labels(raw, request, registry)
        assert assess(verdict).labels == expected
        assert assess(verdict).policy == ("ANSWER" if expected and all(x == S for x in expected) else "ABSTAIN")
        # The contract never accepts what the lens would not answer.
        assert not verdict.ok or assess(verdict).policy == "ANSWER"


class TestLensDisagrees:
    def test_stale_revision_with_matching_values(self):
        registry = registry_of(source("v2"), source("v1", revision="v1"))
        verdict = verify(answer_of("v1"), request_of(supplied=("v1", "v2")), registry)
        assert verdict.status == "STALE_REVISION"
        assert assess(verdict).policy == "ANSWER"
        assert assess(verdict).lens_disagrees
        assert verdict_document(verdict)["policy"] == "ANSWER"

    def test_fixture_stale_but_supported(self):
        _, verdict = case("access", "stale-but-supported")
        assert verdict.status == "STALE_REVISION" and assess(verdict).lens_disagrees

    def test_accepted_answer_agrees(self):
        verdict = verify(answer_of("ops"), request_of(supplied=EVERYTHING), REGISTRY)
        assert verdict.ok and not assess(verdict).lens_disagrees

    def test_contradicted_value_agrees(self):
        raw = answer(claim(TIMEOUT, "9", "ops", quote="read_timeout_ms=5000"), claim(RETRY, "false", "ops"))
        verdict = verify(raw, request_of(supplied=EVERYTHING), REGISTRY)
        assert verdict.status == "VALUE_MISMATCH"
        assert assess(verdict).policy == "ABSTAIN" and not assess(verdict).lens_disagrees

    def test_unauthorized_right_value_agrees(self):
        _, verdict = case("access", "another-tenant-right-value")
        assert not verdict.ok and not assess(verdict).lens_disagrees


# -- conflicts ----------------------------------------------------------------------


def scoped_conflict_registry(wiki_access: dict) -> Registry:
    return registry_of(source("ops", facts={RETRY: "false"}, **LIVE),
                       source("wiki", facts={RETRY: "true"}, **{**LIVE, **wiki_access}),
                       source("intranet", facts={RETRY: "true"}, **{**LIVE, "tenant": "tenant-b"}))


class TestRegistryConflicts:
    def test_fixture_conflict(self):
        registry = load_suite(FIXTURES / "conflicts.json").registry
        (conflict,) = registry_conflicts(registry)
        assert (conflict.service, conflict.environment, conflict.revision, conflict.field) == \
            ("payments", "prod", "v2", RETRY)
        assert conflict.values == (("ops-prod-v2", "false"), ("wiki-prod-v2", "true"))
        assert conflict.sources == ("ops-prod-v2", "wiki-prod-v2")
        assert conflict.describe() == \
            "payments/prod/v2 retry_enabled: ops-prod-v2 says false, wiki-prod-v2 says true"

    def test_agreeing_and_missing_facts_do_not_conflict(self):
        registry = registry_of(source("a", facts={TIMEOUT: "5000"}), source("b", facts={TIMEOUT: "5000", RETRY: "x"}))
        assert registry_conflicts(registry) == ()

    def test_other_revision_or_environment_or_service_does_not_conflict(self):
        for other in ({"revision": "v1"}, {"environment": "dev"}, {"service": "billing"}):
            registry = registry_of(source("a"), source("b", facts={TIMEOUT: "1", RETRY: "true"}, **other))
            assert registry_conflicts(registry) == (), other

    def test_one_conflict_per_field_with_every_value_in_registry_order(self):
        registry = registry_of(source("a", facts={TIMEOUT: "1", RETRY: "x"}), source("b", facts={TIMEOUT: "2"}),
                               source("c", facts={TIMEOUT: "1", RETRY: "y"}))
        conflicts = registry_conflicts(registry)
        assert [(c.field, c.values) for c in conflicts] == [
            (TIMEOUT, (("a", "1"), ("b", "2"), ("c", "1"))),
            (RETRY, (("a", "x"), ("c", "y"))),
        ]

    def test_registry_level_ignores_access(self):
        registry = scoped_conflict_registry({"deleted": True})
        (conflict,) = registry_conflicts(registry)
        assert conflict.sources == ("ops", "wiki", "intranet")


class TestConflictsFor:
    ASKED = request_of(fields=(TIMEOUT, RETRY), supplied=EVERYTHING)

    def test_touched_by_the_request(self):
        # Nothing cites ops or wiki, but the request asks for retry_enabled of prod v2.
        conflicts = conflicts_for(self.ASKED, REGISTRY, ())
        assert [c.field for c in conflicts] == [RETRY]
        verdict = verify(answer_of("dev", {TIMEOUT: "12000", RETRY: "true"}), self.ASKED, REGISTRY)
        assert [c.describe() for c in assess(verdict).conflicts] == [
            "payments/prod/v2 retry_enabled: ops says false, wiki says true"]

    def test_touched_by_a_citation(self):
        # The request is for another revision, but a claim cites wiki for retry_enabled.
        request = request_of(revision="v1", fields=(RETRY,), supplied=EVERYTHING)
        verdict = verify(answer(claim(RETRY, "true", "wiki")), request, REGISTRY)
        assert [c.sources for c in assess(verdict).conflicts] == [("ops", "wiki")]

    def test_not_touched(self):
        request = request_of(fields=(TIMEOUT,), supplied=EVERYTHING)
        verdict = verify(answer(claim(TIMEOUT, "5000", "ops")), request, REGISTRY)
        assert verdict.ok
        assert assess(verdict).conflicts == ()
        # Citing a conflicting source for a field it agrees on does not touch it either.
        request = request_of(revision="v1", fields=(TIMEOUT,), supplied=EVERYTHING)
        assert assess(verify(answer(claim(TIMEOUT, "5000", "wiki")), request, REGISTRY)).conflicts == ()

    def test_fixture_cases(self):
        for case_id, touched in [("conflict-cite-ops", True), ("conflict-cite-wiki", True),
                                 ("conflict-wrong-side", True), ("conflict-not-touched", False)]:
            _, verdict = case("conflicts", case_id)
            assert bool(assess(verdict).conflicts) is touched, case_id

    def test_flagged_on_an_accepted_answer(self):
        _, verdict = case("conflicts", "conflict-cite-ops")
        assert verdict.ok
        assert verdict_document(verdict)["conflicts"] == [
            "payments/prod/v2 retry_enabled: ops-prod-v2 says false, wiki-prod-v2 says true"]

    def test_a_conflict_whose_other_side_is_unauthorized_disappears(self):
        for wiki_access in ({"deleted": True}, {"approved": False}, {"expires_at": 1000}, {"readers": ["bob"]},
                            {"tenant": "tenant-b"}, {"tenant": None}):
            registry = scoped_conflict_registry(wiki_access)
            request = request_of(fields=(RETRY,), supplied=("ops", "wiki"), scope=scope())
            verdict = verify(answer(claim(RETRY, "false", "ops")), request, registry)
            assert verdict.ok
            assert assess(verdict).conflicts == (), wiki_access

    def test_scope_keeps_only_the_authorized_sides(self):
        registry = scoped_conflict_registry({})
        request = request_of(fields=(RETRY,), supplied=("ops", "wiki"), scope=scope())
        (conflict,) = assess(verify(answer(claim(RETRY, "false", "ops")), request, registry)).conflicts
        assert conflict.values == (("ops", "false"), ("wiki", "true"))
        assert "intranet" not in conflict.describe()

    def test_without_scope_every_side_counts(self):
        registry = scoped_conflict_registry({"deleted": True})
        request = request_of(fields=(RETRY,), supplied=("ops", "wiki"))
        (conflict,) = assess(verify(answer(claim(RETRY, "false", "ops")), request, registry)).conflicts
        assert conflict.sources == ("ops", "wiki", "intranet")

    def test_citing_an_unauthorized_side_does_not_touch(self):
        registry = registry_of(source("ops", revision="v1", facts={RETRY: "false"}, **LIVE),
                               source("wiki", revision="v1", facts={RETRY: "true"}, **LIVE),
                               source("gone", revision="v1", facts={RETRY: "maybe"}, **{**LIVE, "deleted": True}))
        request = request_of(fields=(RETRY,), supplied=("gone",), scope=scope())
        claims = verify(answer(claim(RETRY, "maybe", "gone")), request, registry).claims
        assert conflicts_for(request, registry, claims) == ()
        assert conflicts_for(request_of(fields=(RETRY,), supplied=("gone",)), registry, claims) != ()


# -- recall and blame ------------------------------------------------------------


class TestRecall:
    def test_all_relevant_supplied(self):
        recall = recall_for(request_of(supplied=("ops", "wiki")), REGISTRY)
        assert recall.value == 1.0
        assert recall.counts == (2, 2)
        assert recall.missing == ()
        assert recall.fields == (FieldRecall(TIMEOUT, ("ops", "wiki"), ("ops", "wiki")),
                                 FieldRecall(RETRY, ("ops", "wiki"), ("ops", "wiki")))

    def test_half_supplied(self):
        recall = recall_for(request_of(supplied=("ops", "dev")), REGISTRY)
        assert recall.value == 0.5
        assert recall.counts == (1, 2)
        assert recall.missing == ()

    def test_nothing_relevant_supplied(self):
        recall = recall_for(request_of(supplied=("old", "dev")), REGISTRY)
        assert recall.value == 0.0
        assert recall.counts == (0, 2)
        assert recall.missing == (TIMEOUT, RETRY)

    def test_distinct_sources_not_pairs(self):
        # seed 003: supplied relevant ids / relevant ids, each id once
        registry = registry_of(source("a", facts={TIMEOUT: "1", RETRY: "x"}), source("b", facts={TIMEOUT: "1"}))
        recall = recall_for(request_of(supplied=("a",)), registry)
        assert recall.value == 0.5  # {a} of {a, b}; not 2/3 (pairs), not 0.75 (mean per field)
        assert recall.counts == (1, 2)
        assert recall.missing == ()

    def test_only_the_field_without_a_supplied_source_is_missing(self):
        registry = registry_of(source("a", facts={TIMEOUT: "1"}), source("b", facts={RETRY: "x"}))
        recall = recall_for(request_of(supplied=("a",)), registry)
        assert recall.missing == (RETRY,)
        assert recall.value == 0.5

    def test_no_relevant_source_is_none(self):
        recall = recall_for(request_of(service="billing", supplied=EVERYTHING), REGISTRY)
        assert recall.value is None and recall.counts is None
        assert recall.missing == (TIMEOUT, RETRY)
        assert Recall(()).value is None and Recall(()).counts is None

    def test_scope_filters_relevant_sources(self):
        registry = registry_of(source("mine", **LIVE), source("gone", **{**LIVE, "deleted": True}))
        assert recall_for(request_of(supplied=("mine",)), registry).value == 0.5
        assert recall_for(request_of(supplied=("mine",), scope=scope()), registry).value == 1.0
        only_gone = recall_for(request_of(supplied=("gone",), scope=scope()), registry)
        assert only_gone.value == 0.0
        assert only_gone.missing == (TIMEOUT, RETRY)

    def test_fixture_values(self):
        for suite_name, case_id, value, missing in [
            ("access", "authorized-accept", 1.0, []),
            ("access", "retrieval-missed-current-revision", 0.0, [TIMEOUT, RETRY]),
            ("conflicts", "retrieval-partial-recall", 0.5, []),
            ("conflicts", "retrieval-supplied-nothing-relevant", 0.0, [TIMEOUT, RETRY]),
        ]:
            _, verdict = case(suite_name, case_id)
            document = verdict_document(verdict)
            assert (document["recall"], document["missing_retrieval"]) == (value, missing), case_id


class TestAssessment:
    def test_one_object_for_one_verdict(self):
        verdict = verify(answer_of("old", {TIMEOUT: "2000", RETRY: "true"}), request_of(supplied=("old",)), REGISTRY)
        evidence = assess(verdict)
        assert isinstance(evidence, Assessment) and evidence.verdict is verdict
        assert (evidence.labels, evidence.policy, evidence.lens_disagrees) == ((S, S), "ANSWER", True)
        assert evidence.blame == "retrieval"
        assert evidence.recall.counts == (0, 2) and evidence.recall.missing == (TIMEOUT, RETRY)
        assert evidence.category.id == "wrong_scope"
        # Each part is computed once and kept.
        assert evidence.labels is evidence.labels
        assert evidence.recall is evidence.recall
        assert evidence.conflicts is evidence.conflicts

    def test_the_assessment_does_not_touch_the_verdict(self):
        raw = answer(claim(TIMEOUT, "5000", "ops"), claim(RETRY, "true", "ops", quote="retry_enabled=false"))
        verdict = verify(raw, request_of(supplied=EVERYTHING), REGISTRY)
        before = (verdict.status, verdict.reason, dict(verdict.accepted), verdict.check, verdict.claim)
        evidence = assess(verdict)
        assert evidence.conflicts and evidence.category.id == "conflicting_evidence"
        assert (verdict.status, verdict.reason, dict(verdict.accepted), verdict.check, verdict.claim) == before


class TestBlame:
    FULL, GAP = Recall((FieldRecall(TIMEOUT, ("a",), ("a",)),)), Recall((FieldRecall(TIMEOUT, ("a",), ()),))

    def test_rules(self):
        assert blame("ACCEPT", None, self.GAP, False) is None
        assert blame("INVALID_JSON", "SYNTAX", self.GAP, False) == "generation"
        assert blame("VALUE_MISMATCH", None, self.GAP, False) == "retrieval"
        assert blame("VALUE_MISMATCH", None, self.FULL, False) == "generation"
        assert blame("NO_CITATION", "NOT_AUTHORIZED", self.FULL, True) == "retrieval"
        assert blame("NO_CITATION", "NOT_AUTHORIZED", self.FULL, False) == "generation"
        assert blame("NO_CITATION", "UNKNOWN_DOC", self.FULL, True) == "generation"

    def test_accepted_has_no_blame(self):
        assert assess(verify(answer_of("ops"), request_of(supplied=EVERYTHING), REGISTRY)).blame is None

    def test_model_chose_the_stale_document(self):
        verdict = verify(answer_of("old", {TIMEOUT: "2000", RETRY: "true"}), request_of(supplied=EVERYTHING), REGISTRY)
        assert verdict.status == "STALE_REVISION"
        assert assess(verdict).blame == "generation"

    def test_retrieval_supplied_only_the_stale_document(self):
        verdict = verify(answer_of("old", {TIMEOUT: "2000", RETRY: "true"}), request_of(supplied=("old",)), REGISTRY)
        assert verdict.status == "STALE_REVISION"
        assert assess(verdict).blame == "retrieval"

    def test_malformed_output_is_generations_even_without_evidence(self):
        verdict = verify("{", request_of(supplied=()), REGISTRY)
        assert assess(verdict).recall.missing
        assert assess(verdict).blame == "generation"

    def test_unauthorized_document_supplied_is_retrievals(self):
        registry = registry_of(source("mine", **LIVE), source("gone", **{**LIVE, "deleted": True}))
        verdict = verify(answer_of("gone"), request_of(supplied=("mine", "gone"), scope=scope()), registry)
        assert verdict.reason == "NOT_AUTHORIZED"
        assert assess(verdict).blame == "retrieval"

    def test_unauthorized_document_not_supplied_is_generations(self):
        registry = registry_of(source("mine", **LIVE), source("gone", **{**LIVE, "deleted": True}))
        verdict = verify(answer_of("gone"), request_of(supplied=("mine",), scope=scope()), registry)
        assert verdict.reason == "NOT_AUTHORIZED"
        assert assess(verdict).blame == "generation"

    def test_fixture_blame(self):
        for suite_name, case_id, expected in [
            ("access", "contradicting-value", "generation"),
            ("access", "retrieval-missed-current-revision", "retrieval"),
            ("access", "another-tenant-right-value", "retrieval"),
            ("access", "unknown-doc-under-scope", "generation"),
            ("conflicts", "retrieval-supplied-nothing-relevant", "retrieval"),
            ("conflicts", "retrieval-partial-recall", "generation"),
            ("conflicts", "conflict-cite-ops", None),
        ]:
            _, verdict = case(suite_name, case_id)
            assert assess(verdict).blame == expected, case_id
            assert verdict_document(verdict)["blame"] == expected


# -- abstention categories ------------------------------------------------------------

# Every status and sub-reason, and the category it abstains as (seed 002's list).
CATEGORY_OF = {
    **{f"INVALID_JSON/{reason}": "malformed_output"
       for check in CHECKS if check.code == "INVALID_JSON" for reason in check.reasons},
    "NO_CITATION/NO_CLAIMS": "no_evidence",
    "NO_CITATION/UNKNOWN_DOC": "no_evidence",
    "NO_CITATION/NOT_AUTHORIZED": "unauthorized_evidence",
    "NO_CITATION/NOT_SUPPLIED": "no_evidence",
    "NO_CITATION/QUOTE_NOT_FOUND": "no_evidence",
    "DUPLICATE_CLAIM": "malformed_output",
    "UNREQUESTED_FIELD": "malformed_output",
    "SCOPE_MISMATCH": "wrong_scope",
    "STALE_REVISION": "wrong_scope",
    "VALUE_MISMATCH": "contradicted",
    "QUOTE_NOT_SUPPORTING": "unsupported_citation",
    "INCOMPLETE": "insufficient_evidence",
}


def split(label: str) -> tuple[str, str | None]:
    status, _, reason = label.partition("/")
    return status, reason or None


class TestCategories:
    def test_the_issues_categories(self):
        assert {c.title for c in CATEGORIES.values()} == {
            "no evidence", "insufficient evidence", "wrong scope", "contradicted", "unsupported citation",
            "malformed output", "unauthorized evidence", "conflicting evidence"}
        for category in CATEGORIES.values():
            assert category.id == category.title.replace(" ", "_")
            assert category.next_action

    def test_every_status_and_sub_reason_is_covered(self):
        labels = {f"{c.code}/{r}" for c in CHECKS for r in c.reasons} | {c.code for c in CHECKS if not c.reasons}
        assert labels == set(CATEGORY_OF)

    @pytest.mark.parametrize(("label", "category"), sorted(CATEGORY_OF.items()))
    def test_category_for(self, label, category):
        assert category_for(*split(label), conflicted=False).id == category

    def test_accepted_has_no_category(self):
        assert category_for("ACCEPT", None, conflicted=False) is None
        assert category_for("ACCEPT", None, conflicted=True) is None

    @pytest.mark.parametrize("label", sorted(CATEGORY_OF))
    def test_conflicted(self, label):
        status, reason = split(label)
        # An unrequested field is the generator's problem whatever the registry says.
        plain = status in ("INVALID_JSON", "NO_CITATION", "UNREQUESTED_FIELD")
        expected = CATEGORY_OF[label] if plain else "conflicting_evidence"
        assert category_for(status, reason, conflicted=True).id == expected

    def test_every_category_is_reachable(self):
        reached = {category_for(*split(label), conflicted=c).id for label in CATEGORY_OF for c in (False, True)}
        assert reached == set(CATEGORIES)

    @pytest.mark.parametrize(("suite_name", "case_id", "category"), [
        ("access", "authorized-accept", None),
        ("access", "deleted", "unauthorized_evidence"),
        ("access", "contradicting-value", "contradicted"),
        ("access", "stale-but-supported", "wrong_scope"),
        ("access", "unknown-doc-under-scope", "no_evidence"),
        ("access", "authorized-but-not-supplied", "no_evidence"),
        ("conflicts", "conflict-wrong-side", "conflicting_evidence"),
        ("conflicts", "retrieval-partial-recall", "contradicted"),
        ("conflicts", "retrieval-supplied-nothing-relevant", "wrong_scope"),
    ])
    def test_fixture_categories(self, suite_name, case_id, category):
        _, verdict = case(suite_name, case_id)
        found = assess(verdict).category
        assert (found.id if found else None) == category
        document = verdict_document(verdict)
        assert document["category"] == category
        assert document["next_action"] == (CATEGORIES[category].next_action if category else None)


class TestConflictingEvidenceCategory:
    ASKED = request_of(fields=(TIMEOUT, RETRY), supplied=EVERYTHING)

    def test_failing_claim_on_the_conflicted_field(self):
        raw = answer(claim(TIMEOUT, "5000", "ops"), claim(RETRY, "true", "ops", quote="retry_enabled=false"))
        verdict = verify(raw, self.ASKED, REGISTRY)
        assert verdict.status == "VALUE_MISMATCH" and explain(verdict).first_failure.claim == 1
        assert assess(verdict).category.id == "conflicting_evidence"

    def test_failing_claim_on_another_field_while_a_conflict_is_touched(self):
        verdict = verify(answer(claim(TIMEOUT, "9", "ops", quote="read_timeout_ms=5000"), claim(RETRY, "false", "ops")),
                         self.ASKED, REGISTRY)
        assert assess(verdict).conflicts
        assert verdict.status == "VALUE_MISMATCH" and explain(verdict).first_failure.claim == 0
        assert assess(verdict).category.id == "contradicted"

    def test_incomplete_missing_the_conflicted_field(self):
        verdict = verify(answer(claim(TIMEOUT, "5000", "ops")), self.ASKED, REGISTRY)
        assert verdict.status == "INCOMPLETE"
        assert assess(verdict).category.id == "conflicting_evidence"

    def test_incomplete_missing_another_field(self):
        verdict = verify(answer(claim(RETRY, "false", "ops")), self.ASKED, REGISTRY)
        assert verdict.status == "INCOMPLETE"
        assert assess(verdict).conflicts
        assert assess(verdict).category.id == "insufficient_evidence"

    def test_not_when_the_conflict_is_filtered_out_by_scope(self):
        registry = scoped_conflict_registry({"deleted": True})
        request = request_of(fields=(RETRY,), supplied=("ops", "wiki"), scope=scope())
        verdict = verify(answer(claim(RETRY, "true", "ops", quote="retry_enabled=false")), request, registry)
        assert verdict.status == "VALUE_MISMATCH"
        assert assess(verdict).category.id == "contradicted"

    def test_unauthorized_stays_unauthorized(self):
        registry = scoped_conflict_registry({})
        request = request_of(fields=(RETRY,), supplied=("ops", "wiki", "intranet"), scope=scope())
        verdict = verify(answer(claim(RETRY, "true", "intranet")), request, registry)
        assert assess(verdict).conflicts
        assert assess(verdict).category.id == "unauthorized_evidence"

    def test_citation_failures_stay_no_evidence(self):
        verdict = verify(answer(claim(RETRY, "true", "wiki")), request_of(supplied=("ops",)), REGISTRY)
        assert verdict.label == "NO_CITATION/NOT_SUPPLIED"
        assert assess(verdict).conflicts
        assert assess(verdict).category.id == "no_evidence"

    def test_malformed_output_stays_malformed(self):
        verdict = verify('{"claims": [{"field": "retry_enabled"}]}', self.ASKED, REGISTRY)
        assert assess(verdict).category.id == "malformed_output"

    def test_touching_is_not_enough(self):
        # the conflict is touched by the request; the failure is the scope of a timeout claim
        verdict = verify(answer_of("dev", {TIMEOUT: "12000", RETRY: "true"}), self.ASKED, REGISTRY)
        assert assess(verdict).conflicts
        assert verdict.status == "SCOPE_MISMATCH" and explain(verdict).first_failure.claim == 0
        assert assess(verdict).category.id == "wrong_scope"

    def test_conflict_dataclass_describe(self):
        conflict = Conflict("s", "e", "r", "f", (("a", "1"), ("b", "2"), ("c", "3")))
        assert conflict.sources == ("a", "b", "c")
        assert conflict.describe() == "s/e/r f: a says 1, b says 2, c says 3"


class TestAssessmentKey:
    """``assessment_key``: what a triage keeps blame and category by, per request.
    Two verdicts of one request with the same key must be assessed alike."""

    def test_status_and_reason_decide_the_check(self):
        # The key leaves the check out because the status (or its reason) names it.
        checks = {}
        for check in CHECKS:
            for reason in check.reasons or (None,):
                assert checks.setdefault((check.code, reason), check.id) == check.id

    @settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def test_same_key_same_blame_and_category(self, data):
        registry = data.draw(registries())
        request = data.draw(requests_for(registry))
        seen: dict = {}
        for raw in data.draw(st.lists(answers(registry), min_size=2, max_size=8)):
            verdict = verify(raw, request, registry)
            evidence = assess(verdict)
            outcome = (evidence.blame, evidence.category)
            assert seen.setdefault(assessment_key(verdict), outcome) == outcome

    def test_the_key_tells_the_failing_claim_apart(self):
        # One field conflicted (retry_enabled), one not: the same status on either claim differs.
        request = request_of(fields=(TIMEOUT, RETRY), supplied=EVERYTHING)
        timeout_wrong = claim(TIMEOUT, "1", "ops", quote="read_timeout_ms=5000")
        retry_wrong = claim(RETRY, "true", "ops", quote="retry_enabled=false")
        on_timeout = verify(answer(timeout_wrong, claim(RETRY, "false", "ops")), request, REGISTRY)
        on_retry = verify(answer(retry_wrong, claim(TIMEOUT, "5000", "ops")), request, REGISTRY)
        assert on_timeout.status == on_retry.status == "VALUE_MISMATCH"
        assert assess(on_timeout).category != assess(on_retry).category
        assert assessment_key(on_timeout) != assessment_key(on_retry)


# -- what a request costs: the looked-up answers are the definitions' -------------------


def conflicts_by_definition(request, registry, claims):
    """conflicts_for as defined: every conflict of the registry, its sides
    filtered by access over the whole registry, touched when asked for or cited."""
    evidence = {s.id for s in registry.sources
                if request.scope is None or not failing_conditions(s, request.scope)}
    group = (request.service, request.environment, request.revision)
    touched = []
    for conflict in registry_conflicts(registry):
        values = tuple((s, v) for s, v in conflict.values if s in evidence)
        if len({v for _, v in values}) < 2:
            continue
        conflict = Conflict(conflict.service, conflict.environment, conflict.revision, conflict.field, values)
        asked = (conflict.service, conflict.environment, conflict.revision) == group and \
            conflict.field in request.fields
        cited = any(c.field == conflict.field and c.doc in conflict.sources for c in claims)
        if asked or cited:
            touched.append(conflict)
    return tuple(touched)


def missing_by_definition(request, registry):
    """Recall.missing as defined: the fields none of whose relevant sources (the
    group's, authorized, with the field) was supplied."""
    group = [s for s in registry.sources if (s.service, s.environment, s.revision) ==
             (request.service, request.environment, request.revision)
             and (request.scope is None or not failing_conditions(s, request.scope))]
    return tuple(field for field in request.fields
                 if not any(field in s.facts and s.id in request.supplied for s in group))


class TestCostOfARequest:
    """Recall, conflicts and labels look up only what the request and its claims
    name (issue 17: 50k distinct requests against a 10k-source group took 121 s
    and 7.9 GB); the answers stay the definitions'."""

    @settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def test_lookups_agree_with_the_definitions(self, data):
        document = data.draw(registries())
        registry = Registry.coerce(document)
        request = verify("{}", data.draw(requests_for(document)), registry).request
        claims = verify(data.draw(answers(document)), request, registry).claims
        recall = recall_for(request, registry)
        assert recall.missing == missing_by_definition(request, registry)
        assert recall.missing == tuple(item.field for item in recall_for(request, registry).fields
                                       if not item.supplied)
        assert conflicts_for(request, registry, claims) == conflicts_by_definition(request, registry, claims)

    def test_missing_reads_no_source_the_request_does_not_name(self):
        # 2,000 sources in the request's group, none supplied: blame's question
        # (is a field missing?) is answered without computing the relevant sources.
        registry = registry_of(*(source(f"s{i}", facts={TIMEOUT: "1", RETRY: "x"}) for i in range(2000)))
        recall = recall_for(request_of(supplied=("s7",)), registry)
        assert recall.missing == ()
        assert recall._fields is None  # the group's 2,000 sources were not listed
        assert recall.counts == (1, 2000) and recall.missing == ()

    def test_a_given_recall_still_holds_its_fields(self):
        recall = Recall((FieldRecall(TIMEOUT, ("a",), ()),))
        assert recall.missing == (TIMEOUT,) and recall.value == 0.0
        assert recall == Recall((FieldRecall(TIMEOUT, ("a",), ()),))
        with pytest.raises(TypeError):
            Recall()
