"""The mutation catalogue (inspector.lab.mutations): declared once, each mutant one
named edit of its case's raw text, each meant to trip its declared check.

The article's accepted cases are the worked examples; a hypothesis property
generates other accepted answers (any strings, any JSON layout, escaped or not)
and holds every mutation to the same rules.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.contract.checks import CHECKS_BY_ID, LIMITS
from inspector.contract.models import Registry, coerce_request
from inspector.contract.text import utf16_len
from inspector.contract.verify import verify
from inspector.lab.mutations import MUTATIONS, MUTATIONS_BY_NAME, Mutant, Target, answer_of, mutants_of
from inspector.suites.load import load_suite

from support import ARTICLE

NAMES = [
    "quote.other_line", "quote.other_source", "doc.other", "doc.unknown", "value.from_source",
    "value.other_source", "value.perturb", "field.other", "field.unrequested", "claim.drop",
    "claim.duplicate", "claim.move_up", "claim.move_down", "raw.duplicate_key", "raw.unknown_member",
    "raw.answer_member", "raw.number_value", "raw.trailing", "raw.truncate", "raw.oversize_member",
    "raw.ninth_claim", "raw.whitespace", "raw.bom", "raw.escape_key",
]
# Harmless on an accepted answer: the claims' order is not part of the contract.
HARMLESS = {"raw.whitespace", "raw.bom", "raw.escape_key", "claim.move_up", "claim.move_down"}
BOM = "\ufeff"

SUITE = load_suite(ARTICLE)
ACCEPTED = [case for case in SUITE.cases if case.expected == "ACCEPT"]


def mutants(case: Any, name: str | None = None) -> list[Mutant]:
    answer = answer_of(case.raw, case.request, SUITE.registry)
    assert answer is not None
    found = list(mutants_of(answer))
    return [m for m in found if m.mutation == name] if name else found


def claims_of(raw: str) -> Any:
    return json.loads(raw.removeprefix(BOM))


# -- what each edit must leave of the answer -------------------------------------------


def assert_exact_edit(original: str, mutant: Mutant) -> None:
    """Applying the edit to the original gives the mutant's raw text, and it changes something;
    the check it is meant for is one its mutation declares."""
    declared = MUTATIONS_BY_NAME[mutant.mutation].checks
    assert mutant.check is None or mutant.check in declared, (mutant.mutation, mutant.check)
    assert mutant.original == original  # mutations change only the answer
    start, end, replacement = mutant.edit
    assert 0 <= start <= end <= len(original)
    assert original[:start] + replacement + original[end:] == mutant.raw
    assert original[start:end] != replacement


def assert_named_change(original: str, mutant: Mutant) -> None:
    """The decoded answer differs from the original by what the mutation's name says, and only that."""
    before = claims_of(original)["claims"]
    name, i = mutant.mutation, mutant.claim
    family = name.split(".")[0]
    if family in ("quote", "doc", "value", "field"):
        after = claims_of(mutant.raw)["claims"]
        assert len(after) == len(before)
        for number, (old, new) in enumerate(zip(before, after)):
            if number != i:
                assert old == new
        changed = {key for key in before[i] if before[i][key] != after[i][key]}
        assert changed == {family}, (name, changed)
        return
    after_doc = None if name in ("raw.trailing", "raw.truncate") else claims_of(mutant.raw)
    expected: Any
    if name == "claim.drop":
        expected = {"claims": before[:i] + before[i + 1:]}
    elif name == "claim.duplicate":
        expected = {"claims": before[:i + 1] + [before[i]] + before[i + 1:]}
    elif name in ("claim.move_up", "claim.move_down"):
        other = i - 1 if name == "claim.move_up" else i + 1
        swapped = list(before)
        swapped[i], swapped[other] = swapped[other], swapped[i]
        expected = {"claims": swapped}
    elif name in ("raw.whitespace", "raw.bom", "raw.escape_key", "raw.duplicate_key"):
        expected = {"claims": before}  # json keeps the last of a duplicate key: here the same value
    elif name == "raw.ninth_claim":
        expected = {"claims": before + [before[-1]] * (LIMITS.MAX_CLAIMS + 1 - len(before))}
    elif name == "raw.unknown_member":
        expected = {"claims": [{**c, "confidence": "high"} if n == i else c for n, c in enumerate(before)]}
    elif name == "raw.answer_member":
        assert set(after_doc) == {"answer", "claims"} and isinstance(after_doc["answer"], str)
        expected = {"answer": after_doc["answer"], "claims": before}
    elif name == "raw.number_value":
        expected = {"claims": [{**c, "value": json.loads(c["value"])} if n == i else c
                               for n, c in enumerate(before)]}
        assert not isinstance(after_doc["claims"][i]["value"], str)
    elif name == "raw.oversize_member":
        quote = after_doc["claims"][i]["quote"]
        assert utf16_len(quote) == LIMITS.MAX_MEMBER + 1 and quote.startswith(before[i]["quote"])
        expected = {"claims": [{**c, "quote": quote} if n == i else c for n, c in enumerate(before)]}
    elif name in ("raw.trailing", "raw.truncate"):
        with pytest.raises(json.JSONDecodeError):
            claims_of(mutant.raw)
        return
    else:  # pragma: no cover - a mutation this test does not know
        raise AssertionError(f"no expectation for {name}")
    assert after_doc == expected, name


# -- the catalogue ------------------------------------------------------------------------


class TestCatalogue:
    def test_the_names_are_the_issues_list_in_order(self):
        assert [m.name for m in MUTATIONS] == NAMES
        assert list(MUTATIONS_BY_NAME) == NAMES

    def test_each_declares_a_real_check_or_is_harmless(self):
        for mutation in MUTATIONS:
            assert mutation.check is None or mutation.check in CHECKS_BY_ID, mutation.name
            assert set(mutation.checks) <= set(CHECKS_BY_ID), mutation.name
        assert {m.name for m in MUTATIONS if m.harmless} == HARMLESS

    def test_titles_and_help_are_one_line(self):
        for mutation in MUTATIONS:
            for text in (mutation.title, mutation.help):
                assert text and "\n" not in text, mutation.name
            assert len(mutation.title) <= 40, mutation.name

    def test_targets(self):
        answer_level = {m.name for m in MUTATIONS if m.target is Target.ANSWER}
        assert answer_level == {"raw.answer_member", "raw.trailing", "raw.truncate", "raw.ninth_claim",
                                "raw.whitespace", "raw.bom", "raw.escape_key"}


# -- on the article's accepted cases -----------------------------------------------------


@pytest.mark.parametrize("case", ACCEPTED, ids=lambda case: case.id)
class TestArticleCases:
    def test_each_mutant_differs_by_exactly_its_edit(self, case):
        found = mutants(case)
        assert found
        for mutant in found:
            assert_exact_edit(case.raw, mutant)
            assert_named_change(case.raw, mutant)

    def test_the_declared_check_trips_or_the_slip_is_the_contracts_order(self, case):
        for mutant in mutants(case):
            verdict = verify(mutant.raw, case.request, SUITE.registry)
            if mutant.harmless:
                assert verdict.ok, (mutant.mutation, mutant.variant, verdict.label)
                continue
            assert not verdict.ok, (mutant.mutation, mutant.variant)
            if verdict.check.id == mutant.check:
                continue
            # The only slip on the article: another document cited with the quote kept,
            # and that document does not hold the quote, so citation (stage 2) fails
            # before the revision or scope check (stage 3) is reached.
            assert mutant.mutation == "doc.other", (mutant.mutation, mutant.variant, verdict.label)
            assert verdict.check.id == "quote_found"
            cited = SUITE.registry.get(claims_of(mutant.raw)["claims"][mutant.claim]["doc"])
            assert claims_of(case.raw)["claims"][mutant.claim]["quote"] not in cited.text

    def test_mutations_change_only_the_answer(self, case):
        request, registry = case.request, SUITE.registry
        before = (request, [s for s in registry])
        for mutant in mutants(case):
            verify(mutant.raw, request, registry)
        assert (case.request, [s for s in registry]) == before

    def test_variants_of_a_mutation_are_all_distinct(self, case):
        by_target: dict[tuple[str, int | None], list[Mutant]] = {}
        for mutant in mutants(case):
            by_target.setdefault((mutant.mutation, mutant.claim), []).append(mutant)
        for (name, claim), group in by_target.items():
            assert len({m.raw for m in group}) == len(group), name
            assert len({m.variant for m in group}) == len(group), name


def case_named(case_id: str) -> Any:
    return next(case for case in SUITE.cases if case.id == case_id)


class TestCyclingVariants:
    def test_quote_other_line_tries_every_other_genuine_line(self):
        case = case_named("complete-answer")
        found = [m for m in mutants(case, "quote.other_line") if m.claim == 0]
        text = SUITE.registry.get("prod-v2").text
        lines = [line for line in text.splitlines() if line.strip() and line != "read_timeout_ms=5000"]
        assert [claims_of(m.raw)["claims"][0]["quote"] for m in found] == lines
        # The article's exercise: each is a genuine line (citation-only accepts), the contract rejects.
        for mutant in found:
            verdict = verify(mutant.raw, case.request, SUITE.registry)
            assert verdict.citation_only and verdict.status == "QUOTE_NOT_SUPPORTING"

    def test_doc_other_cycles_through_every_other_source(self):
        case = case_named("complete-answer")
        found = [m for m in mutants(case, "doc.other") if m.claim == 0]
        assert [claims_of(m.raw)["claims"][0]["doc"] for m in found] == ["prod-v1", "dev-v2", "billing-v2"]
        labels = [m.variant for m in found]
        assert "other revision" in labels[0] and "other environment" in labels[1]
        assert "not supplied" in labels[2] and "other service" in labels[2]
        assert [m.check for m in found] == ["revision", "scope", "doc_supplied"]

    def test_value_perturb_gives_the_near_misses(self):
        case = case_named("complete-answer")
        timeout = [claims_of(m.raw)["claims"][0]["value"] for m in mutants(case, "value.perturb") if m.claim == 0]
        for near in ("5001", "5s", " 5000", "5000 ", "５０００"):
            assert near in timeout
        retry = [claims_of(m.raw)["claims"][1]["value"] for m in mutants(case, "value.perturb") if m.claim == 1]
        assert "False" in retry and "FALSE" in retry and "false" not in retry

    def test_value_other_source_takes_each_other_value_once(self):
        case = case_named("complete-answer")
        values = [claims_of(m.raw)["claims"][0]["value"] for m in mutants(case, "value.other_source")
                  if m.claim == 0]
        assert values == ["2000", "12000"]  # billing's 5000 is this value: not a mutation

    def test_the_full_width_value_is_written_as_utf8_unless_the_answer_escapes(self):
        case = case_named("complete-answer")
        full = next(m for m in mutants(case, "value.perturb") if m.claim == 0 and "full-width" in m.variant)
        assert full.edit[2] == '"５０００"'
        escaped_raw = json.dumps(claims_of(case.raw)).replace('"5000"', '"\\u0035000"')
        escaped = answer_of(escaped_raw, case.request, SUITE.registry)
        full = next(m for m in MUTATIONS_BY_NAME["value.perturb"].mutants(escaped, 0) if "full-width" in m.variant)
        assert full.edit[2] == '"\\uff15\\uff10\\uff10\\uff10"'


class TestEncoding:
    def test_a_written_string_never_carries_an_invisible_character_raw(self):
        from inspector.lab.mutations import encode_string

        assert encode_string("a\x7fb\u202ec") == '"a\\u007fb\\u202ec"'
        assert json.loads(encode_string("a\x7fb\u202ec")) == "a\x7fb\u202ec"
        assert encode_string("５") == '"５"'
        assert encode_string("５", like='"\\u0035"') == '"\\uff15"'


class TestRawMutations:
    def test_duplicate_key_plain_and_escaped(self):
        case = case_named("complete-answer")
        found = [m for m in mutants(case, "raw.duplicate_key") if m.claim == 0]
        assert [m.edit[2] for m in found] == [', "field": "read_timeout_ms"', ', "\\u0066ield": "read_timeout_ms"']
        for mutant in found:
            assert verify(mutant.raw, case.request, SUITE.registry).label == "INVALID_JSON/DUPLICATE_KEY"

    def test_each_raw_mutation_gets_its_sub_reason(self):
        case = case_named("complete-answer")
        expected = {
            "raw.unknown_member": "INVALID_JSON/UNKNOWN_MEMBER", "raw.answer_member": "INVALID_JSON/UNKNOWN_MEMBER",
            "raw.number_value": "INVALID_JSON/NOT_A_STRING", "raw.trailing": "INVALID_JSON/TRAILING_DATA",
            "raw.truncate": "INVALID_JSON/SYNTAX", "raw.oversize_member": "INVALID_JSON/TOO_LONG",
            "raw.ninth_claim": "INVALID_JSON/TOO_MANY_CLAIMS",
        }
        for name, label in expected.items():
            found = mutants(case, name)
            assert found, name
            assert {verify(m.raw, case.request, SUITE.registry).label for m in found} == {label}, name

    def test_number_value_writes_the_bare_literal(self):
        case = case_named("complete-answer")
        found = {m.claim: m.edit[2] for m in mutants(case, "raw.number_value")}
        assert found == {0: "5000", 1: "false"}

    def test_a_bom_is_not_added_twice(self):
        raw = BOM + case_named("complete-answer").raw
        answer = answer_of(raw, case_named("complete-answer").request, SUITE.registry)
        assert list(MUTATIONS_BY_NAME["raw.bom"].mutants(answer)) == []

    def test_claim_drop_of_the_only_claim_is_no_claims(self):
        case = case_named("one-field-request")
        (mutant,) = mutants(case, "claim.drop")
        assert mutant.check == "has_claims"
        assert verify(mutant.raw, case.request, SUITE.registry).label == "NO_CITATION/NO_CLAIMS"


class TestOnRejectedCases:
    def test_value_from_source_copies_the_cited_documents_value(self):
        # Nothing to do on an accepted claim; on the article's wrong value it is the repair.
        assert not mutants(case_named("complete-answer"), "value.from_source")
        case = case_named("real-quote-wrong-value")
        (mutant,) = mutants(case, "value.from_source")
        assert claims_of(mutant.raw)["claims"][0]["value"] == "5000"
        assert verify(mutant.raw, case.request, SUITE.registry).ok

    def test_an_answer_that_does_not_decode_has_no_mutants(self):
        case = case_named("trailing-second-object")
        assert answer_of(case.raw, case.request, SUITE.registry) is None


# -- the property: any accepted answer ---------------------------------------------------

_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6)


@st.composite
def accepted_answers(draw: Any) -> tuple[str, Any, Registry]:
    """An accepted answer in any layout, its request and a registry with a stale source beside."""
    fields = draw(st.lists(_TEXT, min_size=1, max_size=3, unique=True))
    values = [draw(_TEXT) for _ in fields]
    lines = [f"{field}={value}" for field, value in zip(fields, values)]
    stale_values = [value + "0" for value in values]
    sources = [
        {"id": "doc-a", "service": "s", "environment": "prod", "revision": "r2",
         "facts": dict(zip(fields, values)), "text": "# a\n" + "\n".join(lines) + "\n"},
        {"id": "doc-b", "service": "s", "environment": "prod", "revision": "r1",
         "facts": dict(zip(fields, stale_values)),
         "text": "# b\n" + "\n".join(f"{f}={v}" for f, v in zip(fields, stale_values)) + "\n"},
    ]
    request = coerce_request({"service": "s", "environment": "prod", "revision": "r2", "fields": fields,
                              "supplied": ["doc-a", "doc-b"]})
    claims = [{"field": f, "value": v, "doc": "doc-a", "quote": line} for f, v, line in zip(fields, values, lines)]
    order = draw(st.permutations(claims))
    raw = json.dumps({"claims": list(order)}, indent=draw(st.sampled_from([None, 0, 2, "\t"])),
                     ensure_ascii=draw(st.booleans()),
                     separators=draw(st.sampled_from([None, (",", ":"), (" , ", " : ")])))
    return raw, request, Registry.coerce({"sources": sources})


class TestProperty:
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(accepted_answers())
    def test_every_mutant_is_its_named_edit_and_meant_ones_are_rejected(self, generated):
        raw, request, registry = generated
        assert verify(raw, request, registry).ok
        answer = answer_of(raw, request, registry)
        assert answer is not None
        seen: dict[tuple[str, int | None], set[str]] = {}
        for mutant in mutants_of(answer):
            assert_exact_edit(raw, mutant)
            assert_named_change(raw, mutant)
            group = seen.setdefault((mutant.mutation, mutant.claim), set())
            assert mutant.raw not in group
            group.add(mutant.raw)
            verdict = verify(mutant.raw, request, registry)
            assert verdict.ok is mutant.harmless, (mutant.mutation, mutant.variant, verdict.label)
