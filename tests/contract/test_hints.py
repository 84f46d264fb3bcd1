"""Fix hints that say what this claim and this source hold (``Step.fix``, from the
trace's describers), where the declared hint is one fixed example: VALUE_MISMATCH
("\"5s\" is not \"5000\""), and INVALID_JSON/NOT_A_STRING ("5000", "false") for a
number or a boolean member.  Every other failure keeps its declared hint."""

from __future__ import annotations

import json

import pytest

from inspector import explain, verify
from inspector.contract.checks import CHECKS_BY_ID, REASONS
from inspector.contract.models import Registry
from inspector.contract.trace import Outcome
from inspector.reports.case import verdict_document

from support import REGISTRY, REGISTRY_DICT, REQUEST, RETRY, TIMEOUT, answer, claim, request_with, run, step

DECLARED = CHECKS_BY_ID["value"].hint


def mismatch(value: str, field: str = TIMEOUT, holds: str = "5000", doc: str = "prod-v2") -> dict:
    """A claim of ``value`` quoting the source's real line: it fails at the value check."""
    return claim(field, value, doc, quote=f"{field}={holds}")


def first_failure(raw: str, request=None, registry=None):  # noqa: ANN001, ANN201
    failure = explain(run(raw, request, registry)).first_failure
    assert failure is not None
    return failure


class TestValueMismatch:
    @pytest.mark.parametrize(("claimed", "holds"), [("2000", "5000"), ("5s", "5000"), ("5000 ms", "5000")])
    def test_the_hint_says_what_the_claim_and_the_source_hold(self, claimed, holds):
        failure = first_failure(answer(mismatch(claimed), claim(RETRY, "false")))
        assert failure.check.id == "value"
        assert failure.hint == f'Copy prod-v2\'s {TIMEOUT} exactly: "{holds}", not "{claimed}".'
        assert failure.hint != DECLARED

    def test_another_field_and_another_source(self):
        """debug5 against debug: not the declared example's field or numbers."""
        registry = json.loads(json.dumps(REGISTRY_DICT))
        prod = registry["sources"][0]
        prod["facts"]["log_level"] = "debug"
        prod["text"] += "log_level=debug\n"
        failure = first_failure(answer(mismatch("debug5", "log_level", "debug")), request_with(fields=["log_level"]),
                                Registry.coerce(registry))
        assert failure.hint == 'Copy prod-v2\'s log_level exactly: "debug", not "debug5".'
        assert "5000" not in failure.hint and "5s" not in failure.hint

    def test_a_source_without_the_fact(self):
        # The emoji source (payments prod v2, supplied) states no read_timeout_ms.
        failure = first_failure(answer(claim(doc="emoji-v2", quote="mood=\U0001f600"), claim(RETRY, "false")))
        assert failure.check.id == "value"
        assert failure.hint == f'emoji-v2 states no "{TIMEOUT}": cite one that does, or do not claim it.'

    def test_a_long_value_is_shortened_as_the_explanation_is(self):
        failure = first_failure(answer(mismatch("9" * 2000), claim(RETRY, "false")))
        assert len(failure.hint) < 120 and "…" in failure.hint

    def test_only_a_failing_step_has_its_own_fix(self):
        steps = explain(run(answer(mismatch("2000"), claim(RETRY, "false")))).explore()
        assert step(steps, "value", 0).fix is not None
        passed = step(steps, "value", 1)
        assert passed.outcome is Outcome.PASSED and passed.fix is None and passed.hint == DECLARED

    def test_an_explored_failure_says_its_own_values(self):
        """After the first failure, explore mode: the later claim's mismatch names its values."""
        verdict = run(answer(claim(value="2000", doc="prod-v1"), mismatch("true", RETRY, "false")))
        assert verdict.status == "STALE_REVISION"
        explored = step(explain(verdict).explore(), "value", 1)
        assert explored.outcome is Outcome.FAILED and not explored.reached
        assert explored.hint == f'Copy prod-v2\'s {RETRY} exactly: "false", not "true".'

    def test_the_json_verdict_carries_the_same_hint(self):
        verdict = run(answer(mismatch("2000"), claim(RETRY, "false")))
        document = verdict_document(verdict, trace=False)
        assert document["first_failure"]["hint"] == explain(verdict).first_failure.hint
        assert '"2000"' in document["first_failure"]["hint"]


class TestNotAString:
    @pytest.mark.parametrize(("member", "written", "where"), [
        (5000, "5000", "claims[0].value"), (False, "false", "claims[0].value"), (-0.5, "-0.5", "claims[0].value"),
    ])
    def test_a_number_or_a_boolean_is_shown_as_its_string(self, member, written, where):
        failure = first_failure(answer(claim(value=member, quote="x")))
        assert failure.reason == "NOT_A_STRING"
        assert failure.hint == f'Write {where} as a JSON string: "{written}", not {written}.'

    def test_the_member_as_written_after_a_bom_and_in_a_later_claim(self):
        raw = "\ufeff" + answer(claim(), claim(RETRY, True, quote="x"))
        failure = first_failure(raw)
        assert failure.hint == 'Write claims[1].value as a JSON string: "true", not true.'

    def test_a_long_number_is_shortened(self):
        failure = first_failure(answer(claim(value=10 ** 500, quote="x")))
        assert failure.hint == f'Write claims[0].value as a JSON string: "{"1" + "0" * 18}…", not {"1" + "0" * 18}….'

    @pytest.mark.parametrize("member", [None, ["5000"], {"a": 1}])
    def test_null_an_array_or_an_object_keep_the_declared_hint(self, member):
        failure = first_failure(answer(claim(value=member, quote="x")))
        assert failure.reason == "NOT_A_STRING"
        assert failure.fix is None and failure.hint == REASONS["NOT_A_STRING"].hint


def test_other_failures_keep_their_declared_hints():
    cases = {
        "revision": answer(claim(doc="prod-v1", value="2000", quote=f"{TIMEOUT}=2000"), claim(RETRY, "false")),
        "coverage": answer(claim()),
        "quote_supports": answer(claim(quote="retry_enabled=false"), claim(RETRY, "false")),
    }
    for check_id, raw in cases.items():
        failure = first_failure(raw)
        assert failure.check.id == check_id
        assert failure.fix is None and failure.hint == CHECKS_BY_ID[check_id].hint
    assert verify("{", REQUEST, REGISTRY).reason == "SYNTAX"
    assert first_failure("{").hint == REASONS["SYNTAX"].hint
