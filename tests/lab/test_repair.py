"""Repair: the smallest set of edits that makes a rejected answer ACCEPT, or the
reason no edit of the answer can (a rejection that is retrieval's)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector import assess, verify
from inspector.lab.repair import (
    ADD_CLAIM,
    AS_STRING,
    CHANGE,
    DROP_CLAIM,
    DUPLICATE_KEY,
    DUPLICATE_KEY_FIRST,
    EMPTY_ANSWER,
    MISSING_COMMA,
    REWRITE,
    TRAILING,
    TRAILING_COMMA,
    UNKNOWN_MEMBER,
    eligible_sources,
    repair,
)
from inspector.suites.load import load_suite

from support import GOOD, REGISTRY, REQUEST, RETRY, RETRY_CLAIM, SUITE_FILES, TIMEOUT, TIMEOUT_CLAIM, answer, claim, \
    request_with


def fixed(raw: str | bytes, request=REQUEST, registry=REGISTRY):
    result = repair(raw, request, registry)
    assert result.possible, result.reason
    assert verify(result.raw, request, registry).ok
    return result


@pytest.mark.parametrize("path", SUITE_FILES, ids=lambda path: path.stem)
def test_every_rejected_bundled_case_is_repaired_or_declared_retrievals(path):
    suite = load_suite(path)
    rejected = 0
    for case in suite.cases:
        verdict = verify(case.raw, case.request, suite.registry)
        result = repair(case.raw, case.request, suite.registry, verdict)
        if verdict.ok:
            assert result.possible and result.empty and result.raw == case.raw, case.id
            continue
        rejected += 1
        if result.possible:
            assert result.edits, case.id
            assert verify(result.raw, case.request, suite.registry).ok, (case.id, result.raw)
            assert result.verdict.ok
        else:
            # The only answers no edit can fix are retrieval's, for the field it missed.
            missing = assess(verdict).recall.missing
            assert result.retrieval, (case.id, result.reason)
            assert result.field == missing[0], case.id
            assert result.field in result.reason and "retrieval" in result.reason
            assert assess(verdict).blame == "retrieval"
            assert result.edits == () and result.raw == case.raw
    assert rejected


# The fewest edits for each rejected article case, worked out by hand: one per
# wrong member, a wrong claim of two or three wrong members cheaper dropped and
# added again (dev, prod-v1), one per missing claim.
ARTICLE_EDITS = {
    "real-quote-wrong-value": 1, "value-in-seconds": 1, "dev-environment-claims": 4, "billing-service-claims": 2,
    "prod-v1-claims": 4, "quote-from-other-field": 1, "instruction-line-as-quote": 1, "omitted-field": 1,
    "duplicate-timeout-claim": 1, "extra-max-connections-claim": 1, "billing-not-supplied": 1, "invented-doc": 1,
    "invented-quote": 1, "empty-claims": 2, "free-text-answer-member": 1, "duplicate-claims-key": 1,
    "numeric-value": 1, "trailing-second-object": 1, "claim-confidence-member": 1,
}


def test_the_article_cases_take_the_fewest_edits():
    suite = load_suite(SUITE_FILES[0].parent / "article.json")
    counts = {case.id: len(repair(case.raw, case.request, suite.registry).edits) for case in suite.cases
              if not verify(case.raw, case.request, suite.registry).ok}
    assert counts == ARTICLE_EDITS


def test_the_article_suites_retrieval_cases_are_named():
    suite = load_suite(SUITE_FILES[0].parent / "citation_and_order.json")
    case = next(c for c in suite.cases if c.id == "not-supplied-correct-doc")
    result = repair(case.raw, case.request, suite.registry)
    assert not result.possible and result.retrieval and result.field == "read_timeout_ms"
    assert "prod-v2 would support it but was not supplied" in result.reason
    assert result.diff_lines() == (f"no repair: {result.reason}",)


def test_repair_of_an_accepted_answer_is_empty():
    result = repair(GOOD, REQUEST, REGISTRY)
    assert result.possible and result.empty and result.raw == GOOD and result.diff_lines() == ()


def test_a_single_wrong_value_is_one_edit():
    raw = answer(claim(value="5s", quote="read_timeout_ms=5000"), RETRY_CLAIM)
    assert verify(raw, REQUEST, REGISTRY).status == "VALUE_MISMATCH"
    result = fixed(raw)
    assert [(e.what, e.claim, e.member, e.old, e.new) for e in result.edits] == [
        (CHANGE, 0, "value", '"5s"', '"5000"')]
    assert result.diff_lines() == ('- claims[0].value "5s"', '+ claims[0].value "5000"')
    # Only the value changed in the text: the rest is the answer as written.
    assert result.raw == raw.replace('"5s"', '"5000"')


def test_value_and_quote_come_from_the_cited_source():
    raw = answer(claim(value="2000"), RETRY_CLAIM)  # prod-v1's value, quoted as such
    result = fixed(raw)
    assert [(e.member, e.new) for e in result.edits] == [("value", '"5000"'), ("quote", '"read_timeout_ms=5000"')]


def test_a_wrong_document_is_one_edit_when_the_rest_is_right():
    raw = answer(claim(doc="billing-v2"), RETRY_CLAIM)
    request = request_with(supplied=["prod-v2", "billing-v2"])
    assert verify(raw, request, REGISTRY).status == "SCOPE_MISMATCH"
    result = fixed(raw, request)
    assert result.diff_lines() == ('- claims[0].doc "billing-v2"', '+ claims[0].doc "prod-v2"')


def test_duplicate_and_unrequested_claims_are_dropped():
    raw = answer(TIMEOUT_CLAIM, claim(field="max_connections", value="50"), RETRY_CLAIM, TIMEOUT_CLAIM)
    result = fixed(raw)
    assert [(e.what, e.claim) for e in result.edits] == [(DROP_CLAIM, 1), (DROP_CLAIM, 3)]
    assert json.loads(result.raw) == json.loads(GOOD)


def test_a_missing_field_gets_a_claim_from_its_eligible_source():
    result = fixed(answer(TIMEOUT_CLAIM))
    (edit,) = result.edits
    assert (edit.what, edit.claim, edit.old) == (ADD_CLAIM, 1, None)
    assert json.loads(edit.new) == RETRY_CLAIM
    assert fixed(answer()).diff_lines()[0].startswith("+ claims[0] ")


def test_invalid_json_is_repaired_in_the_text_first():
    # A number as a string: one edit.
    result = fixed(answer(claim(value=5000, quote="read_timeout_ms=5000"), RETRY_CLAIM))
    assert result.diff_lines() == ("- claims[0].value 5000", '+ claims[0].value "5000"')
    assert result.edits[0].what == AS_STRING
    # Trailing data: dropped, the answer is otherwise as written.
    result = fixed(GOOD + ' {"claims": []}')
    assert [e.what for e in result.edits] == [TRAILING] and result.raw.rstrip() == GOOD
    # An unknown member, at the top level and in a claim.
    result = fixed(answer(TIMEOUT_CLAIM, RETRY_CLAIM, answer="5 seconds"))
    assert result.diff_lines() == ('- answer "5 seconds"',)
    result = fixed(answer(claim(confidence="high"), RETRY_CLAIM))
    assert [(e.what, e.claim, e.member) for e in result.edits] == [(UNKNOWN_MEMBER, 0, "confidence")]


def test_a_duplicate_key_loses_its_second_occurrence():
    raw = '{"claims": [{"field": "read_timeout_ms", "value": "5000", "value": "5s", "doc": "prod-v2", ' \
          '"quote": "read_timeout_ms=5000"}, ' + json.dumps(RETRY_CLAIM) + "]}"
    result = fixed(raw)
    assert [(e.what, e.claim, e.member, e.old) for e in result.edits] == [(DUPLICATE_KEY, 0, "value", '"5s"')]
    assert fixed(raw).diff_lines() == ('- claims[0].value (second occurrence) "5s"',)
    # Escaped keys are the same key.
    raw = raw.replace('"value": "5s"', '"\\u0076alue": "5s"')
    assert [e.what for e in fixed(raw).edits] == [DUPLICATE_KEY]


def test_the_first_occurrence_is_dropped_when_that_is_the_smaller_repair():
    # A parser keeping the last claims would accept: dropping the first is one edit,
    # dropping the second would need the value fixed and a claim added.
    wrong = json.dumps([claim(value="2000", quote="read_timeout_ms=5000")])
    raw = '{"claims": ' + wrong + ', "claims": ' + json.dumps([TIMEOUT_CLAIM, RETRY_CLAIM]) + "}"
    result = fixed(raw)
    assert [(e.what, e.member) for e in result.edits] == [(DUPLICATE_KEY_FIRST, "claims")]
    assert result.diff_lines() == (f"- claims (first occurrence) {wrong.replace(' ', '')}",)
    assert json.loads(result.raw) == json.loads(GOOD)


def test_a_missing_member_is_added_and_a_bom_kept():
    raw = "\ufeff" + json.dumps({"claims": [{"field": TIMEOUT, "value": "5000", "doc": "prod-v2"}, RETRY_CLAIM]})
    result = fixed(raw)
    assert result.diff_lines() == ('+ claims[0].quote "read_timeout_ms=5000"',)
    assert result.raw.startswith("\ufeff")


def test_a_syntax_slip_is_mended_in_place():
    trailing = GOOD[:-2] + ",]}"
    result = fixed(trailing)
    assert [(e.what, e.where) for e in result.edits] == [(TRAILING_COMMA, f"1:{len(GOOD) - 1}")]
    assert result.raw == GOOD and result.diff_lines() == (f'- the answer at 1:{len(GOOD) - 1} ","',)
    missing = GOOD.replace("}, {", "} {")
    assert [e.what for e in fixed(missing).edits] == [MISSING_COMMA]
    assert fixed(GOOD.replace('"claims":', '"claims"')).diff_lines() == ('+ the answer at 1:10 ":"',)
    # A slip and trailing data: both mended.
    result = fixed(GOOD[:-2] + ",]} // a comment")
    assert [e.what for e in result.edits] == [TRAILING_COMMA, TRAILING]
    # A slip before an error no edit mends: a rewrite, with no moot edits.
    result = fixed('{"claims": [' + json.dumps(TIMEOUT_CLAIM) + ',], "n": NaN}')
    assert [e.what for e in result.edits] == [REWRITE, ADD_CLAIM, ADD_CLAIM]


def test_text_that_is_not_json_is_rewritten():
    for raw in ("Sure! The timeout is 5000.", b"\xff\xfe", "[" * 40, "[]", '{"claims": {}}'):
        result = fixed(raw)
        assert result.edits[0].what == REWRITE and result.edits[0].new == EMPTY_ANSWER
        assert [e.what for e in result.edits[1:]] == [ADD_CLAIM, ADD_CLAIM]
        assert result.diff_lines()[0].startswith("- the answer ")


def test_hostile_text_in_the_diff_is_made_visible():
    raw = answer(claim(value="50\x1b[2J00", quote="read_timeout_ms=5000"), RETRY_CLAIM, ascii_only=False)
    lines = fixed(raw).diff_lines()
    assert all("\x1b" not in line for line in lines)


def test_no_eligible_source_is_retrievals_with_the_field_named():
    request = request_with(supplied=["prod-v2"], fields=[TIMEOUT, RETRY, "mood"])
    result = repair(answer(TIMEOUT_CLAIM, RETRY_CLAIM), request, REGISTRY)
    assert not result.possible and result.retrieval and result.field == "mood"
    assert "emoji-v2 would support it but was not supplied" in result.reason
    # Supplied, but the source does not state the canonical line: not retrieval's.
    registry = {"sources": [{"id": "s", "service": "payments", "environment": "prod", "revision": "v2",
                             "facts": {TIMEOUT: "5000"}, "text": "timeout is 5000"}]}
    from inspector.contract.models import Registry
    result = repair(answer(), request_with(supplied=["s"], fields=[TIMEOUT]), Registry.coerce(registry))
    assert not result.possible and not result.retrieval and result.field == TIMEOUT


def test_eligible_sources_reuse_recall():
    eligible = eligible_sources(REQUEST, REGISTRY)
    assert {field: [s.id for s in sources] for field, sources in eligible.items()} == {
        TIMEOUT: ["prod-v2"], RETRY: ["prod-v2"]}


# -- property: a possible repair always verifies ACCEPT ----------------------------------

_FIELDS = st.sampled_from([TIMEOUT, RETRY, "max_connections", "mood", "read_timeout"])
_VALUES = st.sampled_from(["5000", "2000", "false", "true", "5s", "12000", "\U0001f600", " 5000"])
_DOCS = st.sampled_from(["prod-v2", "prod-v1", "dev-v2", "billing-v2", "emoji-v2", "nope"])


def _rarely(draw, odds: int = 8) -> bool:
    """One draw in ``odds``: each defect is rare, so that many answers decode and
    reach the later checks.  (1, not a bound: hypothesis favours the bounds.)"""
    return draw(st.integers(0, odds - 1)) == 1


@st.composite
def _claims(draw):
    field, value = draw(_FIELDS), draw(_VALUES)
    quote = draw(st.sampled_from([f"{field}={value}", f"{field}={value}", f"{TIMEOUT}=5000", "# payments prod v2"]))
    member: dict = {"field": field, "value": value, "doc": draw(_DOCS), "quote": quote}
    if _rarely(draw, 24):
        member["value"] = draw(st.sampled_from([5000, False, None, ""]))
    if _rarely(draw, 24):
        member.pop(draw(st.sampled_from(["field", "value", "doc", "quote"])))
    if _rarely(draw, 24):
        member["confidence"] = "high"
    return member


# Genuine claims of the registry (a source's fact, quoted): they pass the citation
# checks when supplied, and fail the later ones (scope, revision, duplicate,
# unrequested, coverage) or none.
_GENUINE = st.sampled_from([claim(field, value, source.id) for source in REGISTRY.sources
                            for field, value in source.facts.items()])


@st.composite
def _answers(draw):
    claims = draw(st.lists(st.one_of(_claims(), _GENUINE, _GENUINE), max_size=9))
    extra = {"answer": "free text"} if _rarely(draw) else {}
    raw = json.dumps({"claims": claims, **extra}, indent=draw(st.sampled_from([None, 2])))
    if claims and _rarely(draw):  # a syntax slip: a trailing comma
        raw = raw[: raw.rindex("]")] + ",]" + raw[raw.rindex("]") + 1:]
    tail = draw(st.sampled_from([" trailing", "\n{}"])) if _rarely(draw) else ""
    return raw + tail, len(claims)


_REQUESTS = st.sampled_from([
    REQUEST,
    request_with(fields=[TIMEOUT]),
    request_with(fields=[RETRY, TIMEOUT, "mood"]),
    request_with(supplied=["prod-v1", "prod-v2"]),
    request_with(supplied=["prod-v1"]),
])


@settings(max_examples=150, deadline=None)
@given(_answers(), _REQUESTS)
def test_a_possible_repair_always_verifies_accept(generated, request):
    raw, claims = generated
    verdict = verify(raw, request, REGISTRY)
    result = repair(raw, request, REGISTRY, verdict)
    if verdict.ok:
        assert result.empty
        return
    if not result.possible:
        assert result.retrieval and result.field in assess(verdict).recall.missing
        return
    assert verify(result.raw, request, REGISTRY).ok, (raw, result.raw)
    # Repaired once is repaired: nothing is left to do.
    assert repair(result.raw, request, REGISTRY).empty
    # Never more claim edits than dropping every claim and adding every field.
    stage1 = (TRAILING, TRAILING_COMMA, DUPLICATE_KEY, DUPLICATE_KEY_FIRST, REWRITE)
    of_claims = [e for e in result.edits if e.what not in stage1
                 and not (e.what == UNKNOWN_MEMBER and e.claim is None)]
    assert len(of_claims) <= claims + len(request.fields)
