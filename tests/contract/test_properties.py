"""Properties of the contract core, checked with hypothesis: any input gives a
verdict with a well-formed trace; strict syntax and duplicate-key detection agree
with stdlib oracles; jsonscan's spans round-trip."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from inspector import Outcome, explain, verify
from inspector.contract.decode import (
    _ANSWER_DECODER,
    _more_string_tokens,
    _shape_problem,
    _strings_in,
    _survey,
    _unseen,
    decode_answer,
    describe_syntax_error,
    find_duplicate_key,
)
from inspector.contract.jsonscan import in_string, max_depth, scan
from inspector.reports.case import verdict_document

from support import REGISTRY, REQUEST, RETRY, TIMEOUT

settings.register_profile("inspector", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile("inspector")

# -- strategies ----------------------------------------------------------------

SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
                 "\t": "\\t"}
NO_SURROGATES = st.characters(exclude_categories=("Cs",))


@st.composite
def json_string(draw: st.DrawFn, alphabet: st.SearchStrategy[str] = NO_SURROGATES, max_size: int = 6) -> tuple[str, str]:
    """(the string, a JSON literal of it) with characters written raw, as \\uXXXX
    (astral ones as a surrogate pair of escapes) or as short escapes, at random."""
    value = draw(st.text(alphabet, max_size=max_size))
    out = []
    for ch in value:
        code = ord(ch)
        how = draw(st.sampled_from(("raw", "unicode", "short")))
        if how == "unicode":
            if code > 0xFFFF:
                code -= 0x10000
                out.append("\\u%04x\\u%04X" % (0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)))
            else:
                out.append(draw(st.sampled_from(("\\u%04x", "\\u%04X"))) % code)
        elif ch in SHORT_ESCAPES and (how == "short" or ch in '"\\' or code < 0x20):
            out.append(SHORT_ESCAPES[ch])
        elif code < 0x20:
            out.append("\\u%04x" % code)
        else:
            out.append(ch)
    return value, '"' + "".join(out) + '"'


# Keys from a small alphabet, so that generated objects often repeat a key, written differently.
KEYS = json_string(st.sampled_from('ab\u00e9"\\/\n\U0001f600'), max_size=3)
WHITESPACE = st.sampled_from(["", " ", "\n", "\t", "\r\n  "])


def json_text(keys: st.SearchStrategy[tuple[str, str]] = KEYS) -> st.SearchStrategy[str]:
    leaf = st.one_of(st.sampled_from(["1", "-0.5e3", "0", "true", "false", "null", "[]", "{}"]),
                     json_string().map(lambda pair: pair[1]))

    def extend(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        array = st.tuples(st.lists(children, max_size=4), WHITESPACE).map(
            lambda t: "[" + ("," + t[1]).join(t[0]) + "]")
        obj = st.tuples(st.lists(st.tuples(keys, children), max_size=4), WHITESPACE).map(
            lambda t: "{" + t[1] + ("," + t[1]).join(k[1] + t[1] + ":" + v for k, v in t[0]) + "}")
        return array | obj

    return st.recursive(leaf, extend, max_leaves=16)


@st.composite
def claims_answer(draw: st.DrawFn) -> str:
    """Answers of the right shape or nearly, with the registry's own words."""
    fields = st.sampled_from([TIMEOUT, RETRY, "max_connections", "mood", "x"])
    values = st.sampled_from(["5000", "false", "2000", "true", "12000", "5s", "50", "\U0001f600", 'a"b', "c\\",
                              '\\"', '""', "\x00\x1f"])
    docs = st.sampled_from(["prod-v2", "prod-v1", "dev-v2", "billing-v2", "emoji-v2", "ghost"])
    claims: list[Any] = []
    for _ in range(draw(st.integers(0, 9))):
        field, value = draw(fields), draw(values)
        item: dict[str, Any] = {
            "field": field, "value": value, "doc": draw(docs),
            "quote": draw(st.sampled_from([f"{field}={value}", "read_timeout_ms=5000", "retry_enabled=false",
                                           "# payments", "nope"])),
        }
        mutation = draw(st.integers(0, 12))
        if mutation == 0:
            item["extra"] = "x"
        elif mutation == 1:
            del item["doc"]
        elif mutation == 2:
            item["value"] = 5000
        elif mutation == 3:
            item["quote"] = ""
        claims.append(item)
    document: dict[str, Any] = {"claims": claims}
    if draw(st.integers(0, 10)) == 0:
        document["answer"] = "text"
    text = json.dumps(document, indent=draw(st.sampled_from([None, 1, "\t"])), ensure_ascii=draw(st.booleans()))
    if draw(st.integers(0, 4)) == 0:
        # A member written twice, the second time with an escape.
        member = draw(st.sampled_from(["field", "value", "doc", "quote"]))
        text = text.replace(f'"{member}": ', f'"{member}": "dup", "\\u{ord(member[0]):04x}{member[1:]}": ', 1)
    if draw(st.booleans()):
        text = draw(st.sampled_from(["", "\ufeff", " "])) + text + draw(st.sampled_from(["", "\n", " x", ","]))
    return text


@st.composite
def repeated_member_answer(draw: st.DrawFn) -> str:
    """A well-shaped answer in which one object writes one of its keys twice
    (the name raw or escaped), or the top level writes claims twice."""
    claim = '{"field": "%s", "value": "%s", "doc": "prod-v2", "quote": "q"}'
    claims = [claim % (draw(st.sampled_from([TIMEOUT, RETRY])), draw(st.sampled_from(["5000", "a\\\"b"])))
              for _ in range(draw(st.integers(1, 3)))]
    if draw(st.booleans()):
        index = draw(st.integers(0, len(claims) - 1))
        name = draw(st.sampled_from(["field", "value", "doc", "quote"]))
        written = draw(st.sampled_from([name, "\\u%04x" % ord(name[0]) + name[1:]]))
        claims[index] = claims[index][:-1] + f', "{written}": "again"}}'
        return '{"claims": [' + ", ".join(claims) + "]}"
    return '{"claims": [' + claims[0] + '], "claims": [' + ", ".join(claims) + "]}"


@st.composite
def escaped_claims_answer(draw: st.DrawFn) -> str:
    """A claims answer whose members are written with escapes, lone surrogate
    escapes among them (the typed and the untyped decoder word those apart)."""
    pieces = st.sampled_from(["a", "\\ud800", "\\udbff", "\\udc00", "\\ud83d\\ude00", "\\n", "\\u0041", '\\"', "\\u12",
                              "\\x"])
    members = [draw(st.lists(pieces, min_size=1, max_size=4).map("".join)) for _ in range(4)]
    claim = '{"field": "%s", "value": "%s", "doc": "%s", "quote": "%s"}' % tuple(members)
    return '{"claims": [' + claim + draw(st.sampled_from(["]}", "", "]", ", 1e400]}"]))


# Text that is JSON-like or not: strings closed or not, escapes, brackets.
LEXICAL = st.lists(st.sampled_from(['"', "\\", "[", "]", "{", "}", "a", " ", "\\\"", '\\u0022']),
                   max_size=40).map("".join)

JSONISH = st.lists(st.sampled_from(
    list('{}[]":, \t\n\r\\/ab01-+.eE') + ["\\u", "d800", "dc00", "0041", "true", "null", "NaN", '"claims"',
                                         "\x00", "\x7f", "\u00e9", "\ufeff", "\u2028", "\xa0", "\U0001f600"]),
    max_size=30).map("".join)

ANY_INPUT = st.one_of(
    st.text(),
    st.text(st.characters(categories=("Cs", "Cc", "Lo", "So"))),
    st.binary(),
    JSONISH,
    JSONISH.map(lambda text: text.encode("utf-8", "surrogatepass")),
    claims_answer(),
    claims_answer().map(str.encode),
    json_text(),
    st.tuples(st.integers(0, 40), st.sampled_from(["[", "{\"a\":", "[{\"claims\":", "{\"claims\":["]),
              st.booleans()).map(lambda t: t[1] * t[0] + ("]" * t[0] if t[2] else "")),
)


# -- oracles -------------------------------------------------------------------


def _has_surrogate(text: str) -> bool:
    return any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)


def strict_json_oracle(text: str) -> bool:
    """Strict RFC 8259 per the stdlib: no NaN/Infinity, and no string holding a lone surrogate."""
    def refuse_constant(name: str) -> Any:
        raise ValueError(name)

    found_surrogate = []

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        found_surrogate.extend(key for key, _ in pairs if _has_surrogate(key))
        return dict(pairs)

    try:
        value = json.loads(text, parse_constant=refuse_constant, object_pairs_hook=pairs_hook)
    except (ValueError, RecursionError):
        return False
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str) and _has_surrogate(item):
            return False
        if isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, dict):
            pending.extend(item.values())
    return not found_surrogate


def duplicate_keys_oracle(text: str) -> set[str]:
    """Every key some object of ``text`` repeats, per json.loads' pairs hook."""
    repeated: set[str] = set()

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                repeated.add(key)
            seen.add(key)
        return dict(pairs)

    json.loads(text, object_pairs_hook=pairs_hook)
    return repeated


def at_path(value: Any, path: tuple) -> Any:
    for part in path:
        value = value[part]
    return value


# -- properties ----------------------------------------------------------------


def assert_ladder(steps: tuple) -> None:
    failed = [i for i, s in enumerate(steps) if s.outcome is Outcome.FAILED]
    assert len(failed) <= 1
    end = failed[0] if failed else len(steps)
    assert all(s.outcome is Outcome.PASSED and s.reached for s in steps[:end])
    assert all(s.outcome is Outcome.NOT_REACHED and not s.reached for s in steps[end + 1:])


class TestAnyInput:
    @given(ANY_INPUT)
    def test_gives_a_verdict_and_never_raises(self, raw):
        verdict = verify(raw, REQUEST, REGISTRY)
        assert verdict.status in ("ACCEPT", "INVALID_JSON", "NO_CITATION", "DUPLICATE_CLAIM", "UNREQUESTED_FIELD",
                                  "SCOPE_MISMATCH", "STALE_REVISION", "VALUE_MISMATCH", "QUOTE_NOT_SUPPORTING",
                                  "INCOMPLETE")
        trace = explain(verdict).steps
        assert_ladder(trace)
        failure = explain(verdict).first_failure
        if verdict.ok:
            assert failure is None and verdict.check is None and verdict.claim is None
            assert list(verdict.accepted) == sorted(verdict.accepted)
            assert set(verdict.accepted) == set(REQUEST.fields)
        else:
            assert failure is not None and failure.code == verdict.status and failure.reason == verdict.reason
            assert (failure.check, failure.claim) == (verdict.check, verdict.claim)
            assert dict(verdict.accepted) == {}
            assert "truncated" not in failure.explanation.lower()
        assert verdict.citation_only <= verdict.strict_json
        for s in trace:
            assert s.explanation
            json.dumps(s.to_dict())
        json.dumps(verdict_document(verdict, trace=True))
        explored = explain(verdict).explore()
        assert [(s.check.id, s.claim) for s in explored] == [(s.check.id, s.claim) for s in trace]
        for s in explored:
            s.to_dict()

    @given(st.one_of(JSONISH, claims_answer(), json_text(), st.text()))
    def test_str_and_utf8_bytes_agree(self, text):
        assume(not _has_surrogate(text))
        as_text, as_bytes = verify(text, REQUEST, REGISTRY), verify(text.encode(), REQUEST, REGISTRY)
        assert as_text.label == as_bytes.label
        assert explain(as_text).first_failure == explain(as_bytes).first_failure

    @given(st.integers(0, 8192), st.sampled_from(["[", "{", "{\"a\":", "[\"", "\"["]))
    def test_deep_nesting(self, depth, unit):
        verdict = verify(unit * depth, REQUEST, REGISTRY)
        assert verdict.status == "INVALID_JSON"

    @given(st.lists(st.sampled_from(["\\ud800", "\\udbff", "\\udc00", "\\udfff", "\\u0041", "a", '"', "\\", "[", "]",
                                     "{", "}", ":", ",", "\\n", "\U0001f600"]), max_size=25).map("".join))
    def test_lone_surrogate_escapes_are_syntax(self, text):
        verdict = verify(text, REQUEST, REGISTRY)
        failure = explain(verdict).first_failure
        if failure is not None and failure.reason == "SYNTAX":
            assert "truncated" not in failure.explanation.lower()


class TestStrictSyntax:
    @given(st.one_of(JSONISH, json_text()))
    def test_agrees_with_stdlib(self, text):
        decoded = decode_answer(text)
        reason = decoded.failure.reason if decoded.failure else None
        assume(reason not in ("TOO_DEEP", "TOO_LARGE", "NOT_UTF8"))
        body = text[1:] if text.startswith("\ufeff") else text
        assert (reason not in ("SYNTAX", "TRAILING_DATA")) == strict_json_oracle(body), reason


class TestDuplicateKeys:
    @given(json_text())
    def test_find_duplicate_key_agrees_with_stdlib(self, text):
        value = msgspec.json.decode(text)
        repeated = duplicate_keys_oracle(text)
        found = find_duplicate_key(text, value)
        assert (found is not None) == bool(repeated)
        if found is not None:
            assert found.key in repeated
            # Both occurrences are keys of the same object, written either way.
            first, second = text[found.first[0]:found.first[1]], text[found.second[0]:found.second[1]]
            assert json.loads(first) == json.loads(second) == found.key
            assert found.first[0] < found.second[0]

    @given(json_text())
    def test_verify_agrees_with_stdlib(self, text):
        verdict = verify(text, REQUEST, REGISTRY)
        assume(verdict.reason not in ("TOO_DEEP", "TOO_LARGE"))
        assert (verdict.reason == "DUPLICATE_KEY") == bool(duplicate_keys_oracle(text))
        if verdict.reason == "DUPLICATE_KEY":
            failure = explain(verdict).first_failure
            (second,) = failure.related_spans
            assert json.loads(text[failure.answer_span.start:failure.answer_span.end]) == \
                json.loads(text[second.start:second.end])

    @given(claims_answer())
    def test_verify_agrees_with_stdlib_on_claims(self, text):
        verdict = verify(text, REQUEST, REGISTRY)
        assume(verdict.strict_json or explain(verdict).first_failure.check.id in ("duplicate_key", "shape"))
        assert (verdict.reason == "DUPLICATE_KEY") == bool(duplicate_keys_oracle(text.removeprefix("\ufeff")))

    @given(st.data())
    def test_claim_members_written_with_escapes(self, data):
        # A claim whose member names are written raw or escaped, sometimes twice.
        names = data.draw(st.lists(st.sampled_from(["field", "value", "doc", "quote"]), min_size=4, max_size=6))
        members = []
        for name in names:
            escaped = "".join(data.draw(st.sampled_from([ch, "\\u%04x" % ord(ch), "\\u%04X" % ord(ch)]))
                              for ch in name)
            members.append(f'"{escaped}": "v"')
        text = '{"claims": [{' + ", ".join(members) + "}]}"
        verdict = verify(text, REQUEST, REGISTRY)
        if len(set(names)) < len(names):
            assert verdict.reason == "DUPLICATE_KEY"
        else:
            assert verdict.reason != "DUPLICATE_KEY"
        assert (verdict.reason == "DUPLICATE_KEY") == bool(duplicate_keys_oracle(text))


class TestScan:
    @given(json_text(), WHITESPACE, WHITESPACE)
    def test_value_spans_round_trip(self, text, before, after):
        assume(not duplicate_keys_oracle(text))
        text = before + text + after
        value = json.loads(text)
        index = scan(text)
        assert index.duplicate is None
        assert index.value_span(()) == (len(before), len(text) - len(after))
        for path, (start, end) in index.values.items():
            assert json.loads(text[start:end]) == at_path(value, path)
        for path, (start, end) in index.keys.items():
            assert json.loads(text[start:end]) == path[-1]
            assert index.member_span(path)[0] == start

    @given(json_text())
    def test_every_value_indexed(self, text):
        assume(not duplicate_keys_oracle(text))
        value = json.loads(text)
        paths = set()
        pending: list[tuple[tuple, Any]] = [((), value)]
        while pending:
            path, item = pending.pop()
            paths.add(path)
            if isinstance(item, dict):
                pending.extend(((*path, key), child) for key, child in item.items())
            elif isinstance(item, list):
                pending.extend(((*path, i), child) for i, child in enumerate(item))
        assert set(scan(text).values) == paths


def lexical_oracle(text: str, limit: int) -> tuple[tuple[int, int | None], list[bool]]:
    """Character by character: the depth of the brackets outside strings (as
    max_depth reports it) and, for each character, whether it is inside a string."""
    depth = deepest = 0
    beyond: int | None = None
    inside, escaped, flags = False, False, []
    for offset, ch in enumerate(text):
        flags.append(inside)
        if inside:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                inside = False
        elif ch == '"':
            inside = True
        elif ch in "[{":
            depth += 1
            if depth > deepest and beyond is None:
                deepest = depth
                if deepest > limit:
                    beyond = offset
        elif ch in "]}":
            depth -= 1
    return (deepest, beyond), flags


class TestLexicalScan:
    """The depth check and the messages read any text lexically: strings (closed
    or not) hide their brackets, nothing else does."""

    @given(st.one_of(LEXICAL, JSONISH, json_text()), st.integers(0, 6))
    def test_depth_agrees_with_a_character_by_character_count(self, text, limit):
        assert max_depth(text, limit) == lexical_oracle(text, limit)[0]

    @given(st.one_of(LEXICAL, JSONISH, json_text()))
    def test_in_string_agrees_with_a_character_by_character_reading(self, text):
        flags = lexical_oracle(text, len(text))[1]
        assert [in_string(text, offset) for offset in range(len(text))] == flags


class TestMessagesAreVisible:
    @given(st.one_of(JSONISH, st.text(st.characters(categories=("Zs", "Cc", "Cf", "Zl", "Zp"))).map(
        lambda blanks: blanks + '{"claims": []}'), escaped_claims_answer()))
    def test_a_syntax_message_shows_no_character_as_itself_that_cannot_be_seen(self, text):
        failure = explain(verify(text, REQUEST, REGISTRY)).first_failure
        if failure is not None and failure.reason in ("SYNTAX", "TRAILING_DATA"):
            assert not any(_unseen(ch) for ch in failure.explanation), failure.explanation
            assert failure.answer_span is not None


class TestShortcutsAreSound:
    """Strict decoding takes shortcuts for speed; each must decide exactly what
    the long way decides."""

    @given(st.one_of(JSONISH, claims_answer(), json_text(), escaped_claims_answer()))
    def test_a_typed_syntax_error_is_the_untyped_one(self, text):
        # The typed decode's syntax error is reported without a second decode:
        # it is the untyped one, in the same words for people at the same place
        # (msgspec's own words differ around a lone surrogate escape).
        try:
            _ANSWER_DECODER.decode(text)
        except msgspec.ValidationError:
            return
        except msgspec.DecodeError as typed:
            with pytest.raises(msgspec.DecodeError) as untyped:
                msgspec.json.decode(text)
            assert not isinstance(untyped.value, msgspec.ValidationError)
            event("same words" if str(untyped.value) == str(typed) else "msgspec words differ")
            assert describe_syntax_error(text, str(typed)) == describe_syntax_error(text, str(untyped.value))
        except RecursionError:  # pragma: no cover - the typed shape is three levels deep
            raise AssertionError("a typed decode of the claims shape cannot recurse") from None

    @given(st.one_of(claims_answer(), repeated_member_answer()))
    def test_typed_success_and_more_strings_is_a_duplicate_key(self, text):
        # A typed decode that succeeds with more string tokens than 1 + 8n is
        # reported DUPLICATE_KEY straight away.
        body = text.removeprefix("\ufeff")
        try:
            answer = _ANSWER_DECODER.decode(body)
        except (msgspec.DecodeError, RecursionError):
            return
        repeated = bool(duplicate_keys_oracle(body))
        event("repeats a key" if repeated else "no repeated key")
        assert _more_string_tokens(body, 1 + 8 * len(answer.claims)) == repeated

    @given(st.one_of(claims_answer(), json_text()))
    def test_the_survey_agrees_with_the_generic_passes(self, text):
        try:
            value = msgspec.json.decode(text.removeprefix("\ufeff"))
        except (msgspec.DecodeError, RecursionError):
            return
        survey = _survey(value)
        event("surveyed" if survey is not None else "generic")
        if survey is None:
            return
        strings, suspects = survey
        assert strings == _strings_in(value)
        assert _depth(value) <= 3
        assert _shape_problem(value, suspects) == _shape_problem(value)


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


class TestEscapedQuotes:
    @given(st.text(alphabet='\\"ab', max_size=40))
    def test_dropping_backslash_pairs_counts_the_escaped_quotes(self, text):
        # Each backslash escapes the character after it, left to right: the
        # escaped quotes are the \" pairs of that reading.
        from inspector.contract.decode import _escaped_quotes

        count, position = 0, 0
        while position < len(text):
            if text[position] == "\\":
                count += text[position + 1:position + 2] == '"'
                position += 2
            else:
                position += 1
        assert _escaped_quotes(text) == count
