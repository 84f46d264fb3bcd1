"""Stages 2-4 of the contract (inspector.contract.verify): each check with what its
explanation tells a person, the order between and within stages, the trace and
its locators, explore mode, the accepted map and the plain-dict API."""

from __future__ import annotations

import json

import msgspec
import pytest

import inspector
from inspector import Outcome, Registry, Request, explain, verify
from inspector.contract.checks import CHECKS, Stage
from inspector.contract.trace import SourceSpan
from inspector.reports.case import verdict_document

from support import (
    GOOD,
    REGISTRY,
    REGISTRY_DICT,
    REQUEST,
    REQUEST_DICT,
    RETRY,
    RETRY_CLAIM,
    SOURCES,
    TIMEOUT,
    TIMEOUT_CLAIM,
    answer,
    claim,
    request_with,
    run,
    spanned,
    step,
)

SOURCE_TEXT = {source["id"]: source["text"] for source in SOURCES}
WITH_BILLING = request_with(supplied=["prod-v2", "prod-v1", "dev-v2", "billing-v2"])


def rejected(verdict, label: str, claim_index: int | None):
    assert verdict.label == label
    assert not verdict.ok
    assert dict(verdict.accepted) == {}
    failure = explain(verdict).first_failure
    assert failure is not None and failure.claim == claim_index
    assert failure.label == label
    # The verdict itself names the failing check and claim, without a trace.
    assert (verdict.check, verdict.claim) == (failure.check, claim_index)
    return failure


class TestAccept:
    def test_complete_answer(self):
        verdict = run(GOOD)
        assert verdict.ok and verdict.label == "ACCEPT" and verdict.reason is None
        assert explain(verdict).first_failure is None
        assert verdict.check is None and verdict.claim is None
        assert dict(verdict.accepted) == {TIMEOUT: "5000", RETRY: "false"}
        assert verdict.strict_json and verdict.citation_only

    def test_accepted_map_sorted_by_field(self):
        verdict = run(answer(RETRY_CLAIM, TIMEOUT_CLAIM))
        assert verdict.ok
        assert list(verdict.accepted) == [TIMEOUT, RETRY] == sorted([RETRY, TIMEOUT])
        assert list(verdict.accepted.items()) == [(TIMEOUT, "5000"), (RETRY, "false")]

    def test_accepted_map_is_immutable(self):
        accepted = run(GOOD).accepted
        with pytest.raises(TypeError):
            accepted[TIMEOUT] = "2000"  # type: ignore[index]
        with pytest.raises((TypeError, AttributeError)):
            accepted.pop(TIMEOUT)  # type: ignore[attr-defined]
        assert dict(accepted) == {TIMEOUT: "5000", RETRY: "false"}

    def test_one_field_request(self):
        verdict = run(answer(TIMEOUT_CLAIM), request_with(fields=[TIMEOUT]))
        assert dict(verdict.accepted) == {TIMEOUT: "5000"}

    def test_claims_may_cite_different_current_documents(self):
        registry = Registry.coerce({"sources": [*SOURCES, {
            "id": "prod-v2-retry", "service": "payments", "environment": "prod", "revision": "v2",
            "facts": {RETRY: "false"}, "text": "retry_enabled=false\n"}]})
        request = request_with(supplied=["prod-v2", "prod-v2-retry"])
        verdict = run(answer(TIMEOUT_CLAIM, claim(RETRY, "false", "prod-v2-retry")), request, registry)
        assert verdict.ok

    def test_repr_and_to_dict(self):
        verdict = run(GOOD)
        assert "ACCEPT" in repr(verdict)
        assert verdict_document(verdict)["status"] == "ACCEPT"
        assert verdict_document(verdict)["accepted"] == {TIMEOUT: "5000", RETRY: "false"}
        assert verdict_document(verdict)["first_failure"] is None
        json.dumps(verdict_document(verdict))


class TestCitation:
    def test_no_claims(self):
        verdict = run('{"claims": []}')
        failure = rejected(verdict, "NO_CITATION/NO_CLAIMS", None)
        assert verdict.strict_json and not verdict.citation_only
        assert failure.check.id == "has_claims"
        assert "empty" in failure.explanation

    def test_unknown_doc(self):
        verdict = run(answer(claim(doc="prod-v3"), RETRY_CLAIM))
        failure = rejected(verdict, "NO_CITATION/UNKNOWN_DOC", 0)
        assert verdict.strict_json and not verdict.citation_only
        assert '"prod-v3"' in failure.explanation
        assert "registry" in failure.explanation
        assert failure.actual == "prod-v3"

    def test_not_supplied(self):
        failure = rejected(run(answer(claim(doc="billing-v2"), RETRY_CLAIM)), "NO_CITATION/NOT_SUPPLIED", 0)
        assert "billing-v2" in failure.explanation
        assert "prod-v2, prod-v1, dev-v2" in failure.explanation
        assert failure.request_attribute == "supplied"
        assert failure.actual == "billing-v2"

    def test_unknown_before_not_supplied(self):
        # A document neither in the registry nor supplied is an invented citation.
        rejected(run(answer(claim(doc="ghost"), RETRY_CLAIM)), "NO_CITATION/UNKNOWN_DOC", 0)

    def test_supplied_but_unknown(self):
        request = request_with(supplied=["prod-v2", "ghost"])
        rejected(run(answer(claim(doc="ghost"), RETRY_CLAIM), request), "NO_CITATION/UNKNOWN_DOC", 0)

    def test_quote_not_found(self):
        failure = rejected(run(answer(claim(quote="read_timeout_ms = 5000 ms"), RETRY_CLAIM)),
                           "NO_CITATION/QUOTE_NOT_FOUND", 0)
        assert '"read_timeout_ms = 5000 ms"' in failure.explanation
        assert "prod-v2" in failure.explanation
        assert failure.source == "prod-v2"
        assert failure.source_attribute == "text"
        # The nearest line of the source, to compare with.
        assert spanned(SOURCE_TEXT["prod-v2"], failure.source_span) == "read_timeout_ms=5000"
        assert failure.source_span_kind is SourceSpan.NEAREST

    @pytest.mark.parametrize("quote", ["READ_TIMEOUT_MS=5000", "read_timeout_ms=5000 ", "read_timeout_ms\uff1d5000",
                                       "read_timeout_ms=５０００"])
    def test_quote_is_verbatim(self, quote):
        rejected(run(answer(claim(quote=quote), RETRY_CLAIM)), "NO_CITATION/QUOTE_NOT_FOUND", 0)

    def test_a_quote_is_a_substring(self):
        # Citation only asks that the quote occurs; support is stage 3's job.
        verdict = run(answer(claim(quote="timeout_ms=50"), RETRY_CLAIM))
        assert verdict.label == "QUOTE_NOT_SUPPORTING"
        assert verdict.citation_only

    def test_quote_of_another_document(self):
        rejected(run(answer(claim(quote="read_timeout_ms=2000"), RETRY_CLAIM)), "NO_CITATION/QUOTE_NOT_FOUND", 0)


class TestClaimChecks:
    def test_duplicate_claim(self):
        verdict = run(answer(TIMEOUT_CLAIM, TIMEOUT_CLAIM, RETRY_CLAIM))
        failure = rejected(verdict, "DUPLICATE_CLAIM", 1)
        assert verdict.citation_only
        assert TIMEOUT in failure.explanation and "claims[0]" in failure.explanation

    def test_duplicate_claim_even_when_the_second_is_wrong_or_right(self):
        rejected(run(answer(TIMEOUT_CLAIM, RETRY_CLAIM, claim(value="2000", doc="prod-v1"))), "DUPLICATE_CLAIM", 2)

    def test_unrequested_field(self):
        verdict = run(answer(TIMEOUT_CLAIM, RETRY_CLAIM, claim("max_connections", "50")))
        failure = rejected(verdict, "UNREQUESTED_FIELD", 2)
        assert verdict.citation_only
        assert '"max_connections"' in failure.explanation
        assert "read_timeout_ms, retry_enabled" in failure.explanation
        assert failure.request_attribute == "fields"

    def test_unrequested_field_in_a_one_field_request(self):
        rejected(run(GOOD, request_with(fields=[TIMEOUT])), "UNREQUESTED_FIELD", 1)

    def test_scope_mismatch_environment(self):
        verdict = run(answer(claim(value="12000", doc="dev-v2"), claim(RETRY, "true", "dev-v2")))
        failure = rejected(verdict, "SCOPE_MISMATCH", 0)
        assert verdict.citation_only
        assert "prod" in failure.explanation and "dev" in failure.explanation and "dev-v2" in failure.explanation
        assert (failure.expected, failure.actual) == ("prod", "dev")
        assert failure.source == "dev-v2"
        assert failure.request_attribute == failure.source_attribute == "environment"

    def test_scope_mismatch_service_even_when_values_match(self):
        verdict = run(answer(claim(doc="billing-v2"), claim(RETRY, "false", "billing-v2")), WITH_BILLING)
        failure = rejected(verdict, "SCOPE_MISMATCH", 0)
        assert "payments" in failure.explanation and "billing" in failure.explanation
        assert (failure.expected, failure.actual) == ("payments", "billing")
        assert failure.request_attribute == failure.source_attribute == "service"

    def test_stale_revision(self):
        verdict = run(answer(claim(value="2000", doc="prod-v1"), claim(RETRY, "true", "prod-v1")))
        failure = rejected(verdict, "STALE_REVISION", 0)
        assert verdict.citation_only
        assert "v2" in failure.explanation and "v1" in failure.explanation
        assert (failure.expected, failure.actual) == ("v2", "v1")
        assert failure.source == "prod-v1"
        assert failure.request_attribute == failure.source_attribute == "revision"

    def test_value_mismatch(self):
        verdict = run(answer(claim(value="2000", quote="read_timeout_ms=5000"), RETRY_CLAIM))
        failure = rejected(verdict, "VALUE_MISMATCH", 0)
        assert verdict.citation_only
        assert "2000" in failure.explanation and "5000" in failure.explanation
        assert (failure.expected, failure.actual) == ("5000", "2000")
        assert failure.source == "prod-v2"
        assert failure.source_attribute == f"facts.{TIMEOUT}"
        assert spanned(SOURCE_TEXT["prod-v2"], failure.source_span) == "read_timeout_ms=5000"
        assert failure.source_span_kind is SourceSpan.FACT

    @pytest.mark.parametrize("value", ["5s", "5000ms", " 5000", "5000.0", "０５０００"[1:], "FALSE"])
    def test_value_is_exact(self, value):
        quote = "read_timeout_ms=5000"
        verdict = run(answer(claim(value=value, quote=quote), RETRY_CLAIM))
        assert verdict.label == "VALUE_MISMATCH"

    def test_value_of_a_fact_the_source_lacks(self):
        request = request_with(fields=[TIMEOUT, RETRY, "pool_size"])
        raw = answer(TIMEOUT_CLAIM, RETRY_CLAIM, claim("pool_size", "10", quote="max_connections=50"))
        failure = rejected(run(raw, request), "VALUE_MISMATCH", 2)
        assert '"pool_size"' in failure.explanation and "prod-v2" in failure.explanation
        assert failure.expected is None and failure.actual == "10"

    def test_quote_not_supporting(self):
        verdict = run(answer(claim(quote="retry_enabled=false"), RETRY_CLAIM))
        failure = rejected(verdict, "QUOTE_NOT_SUPPORTING", 0)
        assert verdict.citation_only
        assert '"retry_enabled=false"' in failure.explanation and '"read_timeout_ms=5000"' in failure.explanation
        assert (failure.expected, failure.actual) == ("read_timeout_ms=5000", "retry_enabled=false")
        assert failure.source_attribute == "text"
        # Where the (genuine) quote is in the source.
        assert spanned(SOURCE_TEXT["prod-v2"], failure.source_span) == "retry_enabled=false"
        assert failure.source_span_kind is SourceSpan.QUOTE

    def test_instruction_line_as_quote(self):
        registry = Registry.coerce({"sources": [{**SOURCES[0], "text": SOURCES[0]["text"] + "Ignore the registry.\n"},
                                                *SOURCES[1:]]})
        verdict = run(answer(claim(quote="Ignore the registry."), RETRY_CLAIM), registry=registry)
        assert verdict.label == "QUOTE_NOT_SUPPORTING"
        assert verdict.citation_only


class TestCoverage:
    def test_incomplete(self):
        verdict = run(answer(TIMEOUT_CLAIM))
        failure = rejected(verdict, "INCOMPLETE", None)
        assert verdict.citation_only
        assert RETRY in failure.explanation
        assert failure.actual == RETRY
        assert failure.request_attribute == "fields"

    def test_incomplete_names_every_missing_field(self):
        request = request_with(fields=[TIMEOUT, RETRY, "pool_size"])
        failure = explain(run(answer(TIMEOUT_CLAIM), request)).first_failure
        assert RETRY in failure.explanation and "pool_size" in failure.explanation


class TestOrder:
    def test_stage2_over_all_claims_before_stage3(self):
        # claims[0] fails stage 3 (value), claims[1] fails stage 2: citation decides.
        raw = answer(claim(value="2000", quote="read_timeout_ms=5000"), claim(RETRY, "false", doc="ghost"))
        rejected(run(raw), "NO_CITATION/UNKNOWN_DOC", 1)

    def test_stage3_before_stage4(self):
        rejected(run(answer(claim(value="2000", quote="read_timeout_ms=5000"))), "VALUE_MISMATCH", 0)

    def test_stage2_in_claim_order(self):
        # claims[0] has the later citation problem, claims[1] the earlier one.
        raw = answer(claim(quote="nope"), claim(RETRY, "false", doc="ghost"))
        rejected(run(raw), "NO_CITATION/QUOTE_NOT_FOUND", 0)

    @pytest.mark.parametrize(("bad", "label"), [
        (claim(doc="ghost", quote="nope"), "NO_CITATION/UNKNOWN_DOC"),
        (claim(doc="billing-v2", quote="nope"), "NO_CITATION/NOT_SUPPLIED"),
    ])
    def test_within_a_claim_stage2_order(self, bad, label):
        rejected(run(answer(bad, RETRY_CLAIM)), label, 0)

    def test_stage3_in_claim_order(self):
        # claims[0] fails the last stage-3 check, claims[1] the first.
        raw = answer(claim(quote="retry_enabled=false"), RETRY_CLAIM, claim(quote="retry_enabled=false"))
        rejected(run(raw), "QUOTE_NOT_SUPPORTING", 0)

    @pytest.mark.parametrize(("bad", "label"), [
        # every stage-3 fault at once: duplicate field wins
        (claim(RETRY, "12000", "dev-v2", quote="read_timeout_ms=12000"), "DUPLICATE_CLAIM"),
        # unrequested beats scope, revision, value, quote
        (claim("max_connections", "7", "prod-v1", quote="retry_enabled=true"), "UNREQUESTED_FIELD"),
        # scope beats revision and value: an old dev document would be both
        (claim(value="1", doc="dev-v2", quote="read_timeout_ms=12000"), "SCOPE_MISMATCH"),
        # revision beats value
        (claim(value="1", doc="prod-v1", quote="read_timeout_ms=2000"), "STALE_REVISION"),
        # value beats quote
        (claim(value="1", quote="retry_enabled=false"), "VALUE_MISMATCH"),
    ])
    def test_within_a_claim_stage3_order(self, bad, label):
        request = request_with(fields=[TIMEOUT, RETRY], supplied=["prod-v2", "prod-v1", "dev-v2"])
        raw = answer(RETRY_CLAIM, bad) if label == "DUPLICATE_CLAIM" else answer(bad, RETRY_CLAIM)
        rejected(run(raw, request), label, 1 if label == "DUPLICATE_CLAIM" else 0)

    def test_earlier_claim_beats_a_later_duplicate(self):
        # claims[0] is stale, claims[1] duplicates it: claim order first.
        raw = answer(claim(value="2000", doc="prod-v1"), TIMEOUT_CLAIM, RETRY_CLAIM)
        rejected(run(raw), "STALE_REVISION", 0)

    def test_check_table_order_is_the_contract_order(self):
        ids = [check.id for check in CHECKS]
        assert ids.index("doc_known") < ids.index("doc_supplied") < ids.index("quote_found") \
            < ids.index("unique_field") < ids.index("requested_field") < ids.index("scope") \
            < ids.index("revision") < ids.index("value") < ids.index("quote_supports") < ids.index("coverage")


class TestTrace:
    RAW = answer(TIMEOUT_CLAIM, claim(RETRY, "true", "prod-v1"), indent=2)

    def test_every_check_in_contract_order(self):
        # Stage-wide checks once, per-claim checks claim by claim, stage by stage,
        # in the table's order (checks that need an access scope only with one).
        trace = explain(run(self.RAW)).steps
        plan = [(s.check.id, s.claim) for s in trace]
        checks = [c for c in CHECKS if not getattr(c, "needs_scope", False)]
        expected = []
        for stage in Stage:
            expected += [(c.id, None) for c in checks if c.stage is stage and not c.per_claim]
            expected += [(c.id, i) for i in (0, 1) for c in checks if c.stage is stage and c.per_claim]
        assert plan == expected
        assert [check_id for check_id, claim in plan if claim in (None, 1)] == [
            "size", "encoding", "depth", "syntax", "duplicate_key", "shape", "has_claims",
            "doc_known", "doc_supplied", "quote_found",
            "unique_field", "requested_field", "scope", "revision", "value", "quote_supports", "coverage"]

    def test_outcomes_before_at_and_after_the_failure(self):
        verdict = run(self.RAW)
        trace = explain(verdict).steps
        at = next(i for i, s in enumerate(trace) if s.outcome is Outcome.FAILED)
        assert (trace[at].check.id, trace[at].claim) == ("revision", 1)
        assert trace[at] == explain(verdict).first_failure
        assert all(s.outcome is Outcome.PASSED and s.reached for s in trace[:at])
        assert trace[at].reached
        after = trace[at + 1:]
        assert [(s.check.id, s.claim) for s in after] == [("value", 1), ("quote_supports", 1), ("coverage", None)]
        assert all(s.outcome is Outcome.NOT_REACHED and not s.reached for s in after)
        assert all("not reached" in s.explanation for s in after)
        # A step not reached still names what it would compare, for highlighting.
        value, supports, coverage = after
        assert (value.source, value.source_attribute, value.request_attribute) == ("prod-v1", f"facts.{RETRY}", None)
        assert (supports.source, supports.source_attribute) == ("prod-v1", "text")
        assert (coverage.source, coverage.source_attribute, coverage.request_attribute) == (None, None, "fields")
        assert all(s.answer_span is None and s.source_span is None for s in after)

    def test_accepted_trace_all_passed(self):
        trace = explain(run(GOOD)).steps
        assert all(s.outcome is Outcome.PASSED for s in trace)
        assert step(trace, "coverage").explanation

    def test_each_step_has_an_explanation(self):
        for s in explain(run(self.RAW)).steps:
            assert s.explanation
            json.dumps(s.to_dict())

    @pytest.mark.parametrize(("check_id", "member"), [
        ("doc_known", "doc"), ("doc_supplied", "doc"), ("quote_found", "quote"), ("unique_field", "field"),
        ("requested_field", "field"), ("scope", "doc"), ("revision", "doc"), ("value", "value"),
        ("quote_supports", "quote"),
    ])
    def test_answer_span_points_at_the_member(self, check_id, member):
        raw = answer(TIMEOUT_CLAIM, claim(RETRY, "true", "prod-v1"), indent=2)
        verdict = run(raw)
        for index, source_claim in enumerate([TIMEOUT_CLAIM, claim(RETRY, "true", "prod-v1")]):
            s = step(verdict, check_id, index)
            if s.outcome is Outcome.NOT_REACHED:
                continue
            assert json.loads(spanned(raw, s.answer_span)) == source_claim[member]
            lines = raw.splitlines()
            assert lines[s.answer_span.line - 1][s.answer_span.column - 1] == '"'

    def test_answer_span_after_a_bom_and_astral_text(self):
        # Spans are character offsets into the text as given (BOM included).
        request = request_with(fields=["mood", TIMEOUT])
        raw = "\ufeff" + answer(claim("mood", "\U0001f600", "emoji-v2"), claim(doc="prod-v3"), ascii_only=False)
        failure = explain(run(raw, request)).first_failure
        assert failure.label == "NO_CITATION/UNKNOWN_DOC"
        assert spanned(raw, failure.answer_span) == '"prod-v3"'
        assert failure.answer_span.column == raw.index('"prod-v3"') + 1
        assert spanned(raw, explain(run(raw.encode(), request)).first_failure.answer_span) == '"prod-v3"'

    def test_claim_span(self):
        verdict = run(self.RAW)
        span = explain(verdict).claim_span(1)
        assert json.loads(spanned(self.RAW, span)) == claim(RETRY, "true", "prod-v1")
        assert json.loads(spanned(self.RAW, explain(verdict).claim_span(1, "value"))) == "true"

    def test_source_locators_for_scope_revision_value(self):
        verdict = run(self.RAW)
        scope = step(verdict, "scope", 1)
        assert scope.source == "prod-v1"
        assert scope.source_attribute in ("service", "environment")
        revision = step(verdict, "revision", 1)
        assert (revision.source, revision.source_attribute) == ("prod-v1", "revision")
        value = step(verdict, "value", 0)
        assert (value.source, value.source_attribute) == ("prod-v2", f"facts.{TIMEOUT}")
        assert spanned(SOURCE_TEXT["prod-v2"], value.source_span) == "read_timeout_ms=5000"

    def test_source_span_locates_the_quote(self):
        verdict = run(self.RAW)
        found = step(verdict, "quote_found", 1)
        assert found.source == "prod-v1"
        assert spanned(SOURCE_TEXT["prod-v1"], found.source_span) == "retry_enabled=true"
        assert (found.source_span.line, found.source_span.column) == (3, 1)
        assert found.source_span_kind is SourceSpan.QUOTE
        assert "line 3" in found.explanation

    def test_source_span_of_a_quote_in_the_middle_of_a_line(self):
        verdict = run(answer(claim(quote="timeout_ms=50"), RETRY_CLAIM))
        found = step(verdict, "quote_found", 0)
        assert spanned(SOURCE_TEXT["prod-v2"], found.source_span) == "timeout_ms=50"
        assert (found.source_span.line, found.source_span.column) == (2, 6)

    def test_step_labels(self):
        verdict = run(answer(claim(doc="ghost"), RETRY_CLAIM))
        assert explain(verdict).first_failure.label == "NO_CITATION/UNKNOWN_DOC"
        assert step(verdict, "revision", 0).label == "STALE_REVISION"

    def test_trace_with_no_claims(self):
        trace = explain(run('{"claims": []}')).steps
        failed = [s for s in trace if s.outcome is Outcome.FAILED]
        assert [(s.check.id, s.claim) for s in failed] == [("has_claims", None)]
        # Per-claim checks still appear once, not reached.
        assert {s.check.id for s in trace} == {c.id for c in CHECKS if not getattr(c, "needs_scope", False)}

    def test_trace_is_cached(self):
        verdict = run(self.RAW)
        trace = explain(verdict)
        assert trace.steps is trace.steps
        # The first failure read after the steps is the failing step itself.
        assert trace.first_failure is next(s for s in trace.steps if s.outcome is Outcome.FAILED)


class TestExplore:
    def test_steps_after_the_failure_are_evaluated(self):
        # claims[0] is stale but true to its own source; claims[1] quotes a line
        # its document does not have, which stops the contract at stage 2.
        raw = answer(claim(value="2000", doc="prod-v1"), claim(RETRY, "false", quote="retry_enabled=true"))
        verdict = run(raw)
        assert verdict.label == "NO_CITATION/QUOTE_NOT_FOUND"
        explored = explain(verdict).explore()
        assert [(s.check.id, s.claim) for s in explored] == [(s.check.id, s.claim) for s in explain(verdict).steps]
        at = next(i for i, s in enumerate(explored) if s.outcome is Outcome.FAILED)
        assert explored[:at + 1] == explain(verdict).steps[:at + 1]
        after = explored[at + 1:]
        assert all(not s.reached for s in after)
        assert Outcome.NOT_REACHED not in {s.outcome for s in after}
        assert step(explored, "revision", 0).outcome is Outcome.FAILED
        assert step(explored, "value", 0).outcome is Outcome.PASSED
        assert step(explored, "quote_supports", 0).outcome is Outcome.PASSED
        assert step(explored, "value", 1).outcome is Outcome.PASSED
        assert step(explored, "quote_supports", 1).outcome is Outcome.FAILED
        assert step(explored, "coverage").outcome is Outcome.PASSED
        assert "v1" in step(explored, "revision", 0).explanation

    def test_explore_does_not_change_the_verdict(self):
        verdict = run(answer(claim(value="2000", doc="prod-v1"), RETRY_CLAIM))
        trace = explain(verdict)
        before = (verdict.label, trace.steps)
        trace.explore()
        assert (verdict.label, trace.steps) == before
        assert trace.steps == explain(verdict).steps

    def test_unknown_document_makes_later_checks_unavailable(self):
        explored = explain(run(answer(claim(doc="ghost"), RETRY_CLAIM))).explore()
        assert step(explored, "quote_found", 0).outcome is Outcome.UNAVAILABLE
        for check_id in ("scope", "revision", "value"):
            assert step(explored, check_id, 0).outcome is Outcome.UNAVAILABLE
        assert step(explored, "doc_supplied", 0).outcome is Outcome.FAILED
        assert step(explored, "coverage").outcome is Outcome.PASSED

    def test_an_unknown_document_after_the_failure_fails_doc_known(self):
        # claims[0] stops the contract at quote_found; claims[1] cites a document
        # the registry lacks: explore reports that as the failure it is, and what
        # needs the document as not evaluable.
        verdict = run(answer(claim(quote="nope"), claim(RETRY, "false", doc="ghost")))
        assert verdict.label == "NO_CITATION/QUOTE_NOT_FOUND" and verdict.claim == 0
        explored = explain(verdict).explore()
        known = step(explored, "doc_known", 1)
        assert (known.outcome, known.reason, known.reached) == (Outcome.FAILED, "UNKNOWN_DOC", False)
        assert known.label == "NO_CITATION/UNKNOWN_DOC"
        assert '"ghost"' in known.explanation and known.actual == "ghost"
        assert step(explored, "doc_supplied", 1).outcome is Outcome.FAILED
        for check_id in ("quote_found", "scope", "revision", "value"):
            unavailable = step(explored, check_id, 1)
            assert unavailable.outcome is Outcome.UNAVAILABLE and not unavailable.reached
            assert "'ghost' is not in the registry" in unavailable.explanation
            assert unavailable.source is None
        # A check that does not read the source is still evaluated.
        assert step(explored, "quote_supports", 1).outcome is Outcome.PASSED

    def test_explore_of_an_accepted_answer(self):
        verdict = run(GOOD)
        assert explain(verdict).explore() == explain(verdict).steps

    def test_explore_finds_a_missing_field(self):
        explored = explain(run(answer(claim(value="2000", doc="prod-v1")))).explore()
        assert step(explored, "coverage").outcome is Outcome.FAILED


class TestRejectionsAreEmpty:
    @pytest.mark.parametrize("raw", [
        "not json",
        '{"claims": []}',
        answer(claim(doc="ghost"), RETRY_CLAIM),
        answer(TIMEOUT_CLAIM, TIMEOUT_CLAIM, RETRY_CLAIM),
        answer(claim(value="2000", quote="read_timeout_ms=5000"), RETRY_CLAIM),
        answer(TIMEOUT_CLAIM),
    ])
    def test_no_partial_success(self, raw):
        verdict = run(raw)
        assert not verdict.ok
        assert dict(verdict.accepted) == {}
        assert verdict_document(verdict)["accepted"] == {}


class TestBaselines:
    @pytest.mark.parametrize(("raw", "strict_json", "citation_only"), [
        ("nope", False, False),
        ('{"claims": []}', True, False),
        (answer(claim(quote="nope"), RETRY_CLAIM), True, False),
        (answer(claim(value="2000", doc="prod-v1"), RETRY_CLAIM), True, True),
        (answer(TIMEOUT_CLAIM), True, True),
        (GOOD, True, True),
    ])
    def test_strict_json_and_citation_only(self, raw, strict_json, citation_only):
        verdict = run(raw)
        assert (verdict.strict_json, verdict.citation_only) == (strict_json, citation_only)
        assert verdict_document(verdict)["strict_json"] == strict_json
        assert verdict_document(verdict)["citation_only"] == citation_only


class TestApi:
    def test_plain_dicts(self):
        verdict = inspector.verify(GOOD, REQUEST_DICT, REGISTRY_DICT)
        assert verdict.ok
        assert isinstance(verdict.request, Request)
        assert isinstance(verdict.registry, Registry)

    def test_list_of_sources(self):
        assert verify(GOOD, REQUEST_DICT, SOURCES).ok

    def test_loaded_objects(self):
        assert verify(GOOD, REQUEST, REGISTRY).ok

    def test_bytes(self):
        assert verify(GOOD.encode(), REQUEST_DICT, REGISTRY_DICT).ok

    @pytest.mark.parametrize("kind", [bytes, bytearray, memoryview])
    def test_every_bytes_type(self, kind):
        bad = answer(claim(value="2000", quote="read_timeout_ms=5000"), RETRY_CLAIM).encode()
        assert verify(kind(GOOD.encode()), REQUEST, REGISTRY).ok
        verdict = verify(kind(bad), REQUEST, REGISTRY)
        assert verdict.label == "VALUE_MISMATCH" and verdict.claim == 0
        assert explain(verdict).first_failure.to_dict() == explain(run(bad.decode())).first_failure.to_dict()

    @pytest.mark.parametrize("raw", [None, 42, ["claims"], {"claims": []}])
    def test_an_answer_that_is_not_text_or_bytes_is_a_type_error(self, raw):
        with pytest.raises(TypeError, match=type(raw).__name__):
            verify(raw, REQUEST, REGISTRY)  # type: ignore[arg-type]

    def test_request_with_unknown_member_refused(self):
        with pytest.raises(msgspec.ValidationError):
            verify(GOOD, {**REQUEST_DICT, "revison": "v2"}, REGISTRY_DICT)

    def test_registry_with_unknown_member_refused(self):
        with pytest.raises(ValueError):
            verify(GOOD, REQUEST_DICT, {**REGISTRY_DICT, "extra": []})

    def test_registry_with_duplicate_source_refused(self):
        with pytest.raises(ValueError, match="prod-v2"):
            verify(GOOD, REQUEST_DICT, {"sources": [SOURCES[0], SOURCES[0]]})

    def test_inputs_not_modified(self):
        request, registry = json.loads(json.dumps(REQUEST_DICT)), json.loads(json.dumps(REGISTRY_DICT))
        verify(GOOD, request, registry)
        assert request == REQUEST_DICT and registry == REGISTRY_DICT

    def test_the_answer_cannot_change_the_request(self):
        # The revision lives in the request only: nothing in an answer can name it.
        raw = answer(claim(value="2000", doc="prod-v1"), claim(RETRY, "true", "prod-v1"), revision="v1")
        assert run(raw).reason == "UNKNOWN_MEMBER"

    def test_public_names(self):
        for name in ("verify", "explain", "assess", "load_suite", "CHECKS", "LIMITS", "Verdict", "Trace", "Step",
                     "Span", "Outcome", "Assessment", "Registry", "Request"):
            assert hasattr(inspector, name)
