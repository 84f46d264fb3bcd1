"""Stage 1, strict decoding (inspector.contract.decode), seen through verify():
every sub-reason, the limits at their boundaries, the messages people read and
where the trace points."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import re
import sys
import types

import pytest

from inspector import LIMITS, Outcome, explain
from inspector.contract import decode, jsonscan
from inspector.contract.checks import CHECKS, CHECKS_BY_ID, REASONS
from inspector.contract.decode import decode_answer

from support import GOOD, RETRY, RETRY_CLAIM, TIMEOUT, TIMEOUT_CLAIM, answer, claim, detail, request_with, run

LINE_COL = re.compile(r"\b(\d+):(\d+)\b")

# The check that reports each stage-1 sub-reason.
CHECK_OF = {reason: check.id for check in CHECKS for reason in check.reasons}


def padded(text: str, units: int) -> str:
    """``text`` followed by spaces up to ``units`` UTF-16 code units (ASCII padding)."""
    from inspector.contract.text import utf16_len

    missing = units - utf16_len(text)
    assert missing >= 0
    return text + " " * missing


# Issue 9: about 8 KB that took 240-340 ms (the depth scan restarted at every quote).
HOSTILE_DEPTH_SCAN = '{"claims":"' + '\\"' * 4080 + "[" * 17


def decode_with_shape_order(monkeypatch: pytest.MonkeyPatch, order: tuple[str, ...]) -> types.ModuleType:
    """A fresh instance of the decode module, imported while the checks table
    declares the shape sub-reasons in ``order``."""
    shape = CHECKS_BY_ID["shape"]
    monkeypatch.setitem(CHECKS_BY_ID, "shape", dataclasses.replace(shape, reasons=order))
    spec = importlib.util.spec_from_file_location("inspector.contract._decode_reordered", decode.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # msgspec resolves annotations there
    spec.loader.exec_module(module)
    return module


def nine_claims() -> str:
    return answer(*[claim(f"f{i}", "v", "prod-v2") for i in range(9)])


# sub-reason, a small raw answer, what it shows
INVALID = [
    ("TOO_LARGE", " " * (LIMITS.MAX_INPUT + 1), "only whitespace, one unit too many"),
    ("TOO_LARGE", GOOD + " " * LIMITS.MAX_INPUT, "a good answer padded"),
    ("NOT_UTF8", b'{"claims": "\xff"}', "a byte that is never UTF-8"),
    ("NOT_UTF8", b'{"claims": "\xc3"}', "a truncated two-byte sequence"),
    ("NOT_UTF8", b'{"claims": "\xed\xa0\x80"}', "an encoded surrogate"),
    ("NOT_UTF8", b"\xff\xfe{\x00}\x00", "UTF-16 with its BOM"),
    ("NOT_UTF8", '{"claims": "\ud800"}', "a str holding a lone surrogate code point"),
    ("TOO_DEEP", "[" * 17 + "]" * 17, "17 nested arrays"),
    ("TOO_DEEP", '{"a":' * 17 + "1" + "}" * 17, "17 nested objects"),
    ("TOO_DEEP", "[" * 5000, "unbalanced, far too deep"),
    ("SYNTAX", "", "empty input"),
    ("SYNTAX", "   \n", "only whitespace"),
    ("SYNTAX", "The timeout is 5000 ms.", "prose"),
    ("SYNTAX", '// note\n{"claims": []}', "a line comment"),
    ("SYNTAX", '/* note */ {"claims": []}', "a block comment"),
    ("SYNTAX", '{"claims": [NaN]}', "NaN"),
    ("SYNTAX", '{"claims": [Infinity]}', "Infinity"),
    ("SYNTAX", '{"claims": [-Infinity]}', "-Infinity"),
    ("SYNTAX", "{'claims': []}", "a single-quoted key"),
    ("SYNTAX", "{\"claims\": ['x']}", "a single-quoted string"),
    ("SYNTAX", '{"claims": [1,]}', "a trailing comma in an array"),
    ("SYNTAX", '{"claims": [],}', "a trailing comma in an object"),
    ("SYNTAX", '{"claims": [01]}', "a leading zero"),
    ("SYNTAX", '{"claims": [-01]}', "a leading zero after a minus"),
    ("SYNTAX", '{"claims": [1.]}', "no digit after the point"),
    ("SYNTAX", '{"claims": [.5]}', "no digit before the point"),
    ("SYNTAX", '{"claims": [1e]}', "no digit in the exponent"),
    ("SYNTAX", '{"claims": [+1]}', "a plus sign"),
    ("SYNTAX", '{"claims": [0x1]}', "a hexadecimal number"),
    ("SYNTAX", '{"claims": [tRue]}', "a misspelt literal"),
    ("SYNTAX", '{"claims": ["\\\'"]}', "the invalid escape \\'"),
    ("SYNTAX", '{"claims": ["\\x41"]}', "the invalid escape \\x"),
    ("SYNTAX", '{"claims": ["a\\\nb"]}', "a backslash-newline"),
    ("SYNTAX", '{"claims": ["\\u12"]}', "a short unicode escape"),
    ("SYNTAX", '{"claims": ["\x00"]}', "a raw NUL in a string"),
    ("SYNTAX", '{"claims": ["\x1f"]}', "a raw U+001F in a string"),
    ("SYNTAX", '{"claims": ["a\tb"]}', "a raw tab in a string"),
    ("SYNTAX", '{"claims": ["a\nb"]}', "a raw newline in a string"),
    ("SYNTAX", '{"claims": ["\\ud800"]}', "a lone high surrogate escape"),
    ("SYNTAX", '{"claims": ["\\udc00"]}', "a lone low surrogate escape"),
    ("SYNTAX", '{"claims": ["\\ud800\\u0041"]}', "a high surrogate escape then a non-surrogate"),
    ("SYNTAX", '{"claims": ["\\udc00\\ud800"]}', "a surrogate pair the wrong way round"),
    ("SYNTAX", '{"\\ud800": []}', "a lone surrogate escape in a key"),
    ("SYNTAX", '{"claims": ["\\ud800', "a lone surrogate escape, then the end"),
    ("SYNTAX", '{"claims": [', "unterminated"),
    ("SYNTAX", '{"claims" []}', "a missing colon"),
    ("SYNTAX", '{"claims": ["a" "b"]}', "a missing comma"),
    ("SYNTAX", "\ufeff\ufeff{}", "a second BOM"),
    ("TRAILING_DATA", '{"claims": []} {"claims": []}', "a second object"),
    ("TRAILING_DATA", '{"claims": []}\n{"claims": []}', "a second object on the next line"),
    ("TRAILING_DATA", '{"claims": []} // done', "a trailing comment"),
    ("TRAILING_DATA", '{"claims": []},', "a trailing comma"),
    ("TRAILING_DATA", '{"claims": []}]', "a stray bracket"),
    ("TRAILING_DATA", '{"claims": []}\x00', "a trailing NUL"),
    ("DUPLICATE_KEY", '{"claims": [], "claims": []}', "claims twice"),
    ("DUPLICATE_KEY", '{"claims": [], "\\u0063laims": []}', "claims twice, once escaped"),
    ("DUPLICATE_KEY", answer(dict(TIMEOUT_CLAIM)).replace('"doc"', '"field": "x", "doc"'),
     "a claim with field twice"),
    ("DUPLICATE_KEY", answer(TIMEOUT_CLAIM).replace('"value"', '"\\u0066ield": "x", "value"'),
     "field and \\u0066ield"),
    ("DUPLICATE_KEY", '{"claims": [], "x": {"a": 1, "a": 2}}', "a nested duplicate beats the unknown member"),
    ("WRONG_SHAPE", "[]", "an array"),
    ("WRONG_SHAPE", "null", "null"),
    ("WRONG_SHAPE", '"claims"', "a string"),
    ("WRONG_SHAPE", "5000", "a number"),
    ("WRONG_SHAPE", '{"claims": {}}', "claims is an object"),
    ("WRONG_SHAPE", '{"claims": "none"}', "claims is a string"),
    ("WRONG_SHAPE", '{"claims": [[]]}', "a claim is an array"),
    ("WRONG_SHAPE", '{"claims": ["read_timeout_ms=5000"]}', "a claim is a string"),
    ("TOO_MANY_CLAIMS", nine_claims(), "nine claims"),
    ("TOO_MANY_CLAIMS", '{"claims": [' + ", ".join(["{}"] * 9) + "]}", "nine empty claims"),
    ("UNKNOWN_MEMBER", answer(TIMEOUT_CLAIM, RETRY_CLAIM, answer="The timeout is 2 s."), "a free-text answer"),
    ("UNKNOWN_MEMBER", answer(claim(confidence="high"), RETRY_CLAIM), "a claim member beyond the four"),
    ("MISSING_MEMBER", "{}", "no claims member"),
    ("MISSING_MEMBER", answer({k: v for k, v in TIMEOUT_CLAIM.items() if k != "quote"}), "a claim without quote"),
    ("NOT_A_STRING", answer(claim(value=5000)), "a number value"),
    ("NOT_A_STRING", answer(claim(value=False)), "a boolean value"),
    ("NOT_A_STRING", answer(claim(value=None, quote="x")), "a null value"),
    ("NOT_A_STRING", answer(claim(doc=["prod-v2"])), "an array doc"),
    ("EMPTY_STRING", answer(claim(value="", quote="x")), "an empty value"),
    ("EMPTY_STRING", answer(claim(quote="")), "an empty quote"),
    ("TOO_LONG", answer(claim(quote="x" * (LIMITS.MAX_MEMBER + 1))), "a 2049-unit quote"),
]


class TestSubReasons:
    def test_table_covers_every_stage1_sub_reason(self):
        stage1 = {reason for check in CHECKS if check.stage == 1 for reason in check.reasons}
        assert {reason for reason, _, _ in INVALID} == stage1

    @pytest.mark.parametrize(("reason", "raw", "what"), INVALID, ids=[f"{r}-{w}" for r, _, w in INVALID])
    def test_refused_with_sub_reason(self, reason, raw, what):
        verdict = run(raw)
        assert verdict.status == "INVALID_JSON"
        assert verdict.reason == reason
        assert verdict.label == f"INVALID_JSON/{reason}"
        assert not verdict.strict_json and not verdict.citation_only and not verdict.ok
        assert dict(verdict.accepted) == {}
        failure = explain(verdict).first_failure
        assert failure is not None
        assert failure.check.id == CHECK_OF[reason]
        assert failure.reason == reason
        assert failure.explanation
        # The declared hint, or for a number or boolean member this answer's own (contract/test_hints.py).
        assert (failure.fix is not None) == (what in ("a number value", "a boolean value"))
        assert failure.hint == (REASONS[reason].hint if failure.fix is None else failure.fix)

    @pytest.mark.parametrize(("reason", "raw", "what"), [row for row in INVALID if row[0] not in ("TOO_LARGE", "TOO_DEEP")],
                             ids=[f"{r}-{w}" for r, _, w in INVALID if r not in ("TOO_LARGE", "TOO_DEEP")])
    def test_failure_is_located(self, reason, raw, what):
        failure = explain(run(raw)).first_failure
        assert failure.answer_span is not None
        assert LINE_COL.search(failure.explanation), failure.explanation
        if isinstance(raw, str):
            line, column = map(int, LINE_COL.findall(failure.explanation)[-1 if reason != "DUPLICATE_KEY" else 0])
            assert (failure.answer_span.line, failure.answer_span.column) == (line, column)

    @pytest.mark.parametrize("raw", ["{\"claims\": [", "x", "[]", "{\"claims\": [1,]}"])
    def test_decode_answer_agrees_with_verify(self, raw):
        decoded = decode_answer(raw)
        assert not decoded.ok
        assert decoded.failure.reason == run(raw).reason


class TestValid:
    def test_good_answer_accepted(self):
        verdict = run(GOOD)
        assert verdict.label == "ACCEPT"
        assert verdict.strict_json

    @pytest.mark.parametrize("raw", [GOOD, GOOD.encode(), bytearray(GOOD.encode()), memoryview(GOOD.encode())],
                             ids=["str", "bytes", "bytearray", "memoryview"])
    def test_str_and_bytes(self, raw):
        assert run(raw).label == "ACCEPT"

    def test_whitespace_around_the_value(self):
        assert run(" \t\r\n" + answer(TIMEOUT_CLAIM, RETRY_CLAIM, indent=4) + "\n\n ").label == "ACCEPT"

    def test_escaped_members_are_unescaped(self):
        raw = GOOD.replace('"read_timeout_ms=5000"', '"read_timeout_ms\\u003d5000"').replace('"prod-v2"', '"prod\\u002dv2"')
        assert run(raw).label == "ACCEPT"

    def test_escaped_member_names(self):
        assert run(GOOD.replace('"quote"', '"\\u0071uote"')).label == "ACCEPT"

    def test_numbers_and_literals_elsewhere_are_shape_not_syntax(self):
        assert run('{"claims": [1e5, -0.5, true, null]}').reason == "WRONG_SHAPE"


class TestBom:
    def test_one_leading_bom_ignored(self):
        verdict = run("\ufeff" + GOOD)
        assert verdict.label == "ACCEPT"
        assert verdict.text.startswith("\ufeff")

    def test_bom_in_bytes_ignored(self):
        assert run(b"\xef\xbb\xbf" + GOOD.encode()).label == "ACCEPT"

    def test_bom_is_reported(self):
        assert "BOM" in explain(run("\ufeff" + GOOD)).steps[1].explanation

    def test_second_bom_is_syntax(self):
        assert run("\ufeff\ufeff" + GOOD).reason == "SYNTAX"

    def test_bom_after_whitespace_is_syntax(self):
        assert run(" \ufeff" + GOOD).reason == "SYNTAX"

    def test_bom_alone(self):
        assert run("\ufeff").reason == "SYNTAX"

    def test_positions_count_the_bom(self):
        failure = explain(run('\ufeff{"claims": [1,]}')).first_failure
        # The BOM is character 1 of line 1; the trailing comma is at 1:16.
        assert (failure.answer_span.line, failure.answer_span.column) == (1, 16)
        assert "1:16" in failure.explanation


class TestInputSize:
    def test_limit(self):
        assert LIMITS.MAX_INPUT == 8192

    def test_8192_units_accepted(self):
        raw = padded(GOOD, 8192)
        verdict = run(raw)
        assert verdict.label == "ACCEPT"
        assert verdict.size == 8192

    def test_8193_units_too_large(self):
        verdict = run(padded(GOOD, 8193))
        assert verdict.label == "INVALID_JSON/TOO_LARGE"
        assert "8193" in detail(verdict) and "8192" in detail(verdict)

    @pytest.mark.parametrize(("units", "label"), [(8192, "ACCEPT"), (8193, "INVALID_JSON/TOO_LARGE")])
    def test_bytes_count_decoded_units(self, units, label):
        assert run(padded(GOOD, units).encode()).label == label

    def test_astral_characters_count_two(self):
        # The value and the quote each hold one astral character: len() is 2 short.
        mood = request_with(fields=["mood"])
        raw = answer(claim("mood", "\U0001f600", "emoji-v2"), ascii_only=False)
        assert run(raw, mood).label == "ACCEPT"
        raw = raw + " " * (8191 - len(raw))
        assert len(raw) == 8191
        verdict = run(raw, mood)
        assert verdict.label == "INVALID_JSON/TOO_LARGE"
        assert verdict.size == 8193
        assert "8193" in detail(verdict)
        assert run(raw[:-1], mood).label == "ACCEPT"
        assert run(raw[:-1], mood).size == 8192

    def test_astral_bytes_count_two(self):
        mood = request_with(fields=["mood"])
        raw = answer(claim("mood", "\U0001f600", "emoji-v2"), ascii_only=False)
        raw += " " * (8191 - len(raw))
        assert run(raw.encode(), mood).label == "INVALID_JSON/TOO_LARGE"
        assert run(raw[:-1].encode(), mood).label == "ACCEPT"

    def test_astral_only_text(self):
        assert run("\U0001f600" * 4096).reason == "SYNTAX"
        assert run("\U0001f600" * 4097).reason == "TOO_LARGE"
        assert run(("\U0001f600" * 4097).encode()).reason == "TOO_LARGE"

    def test_bom_counts(self):
        assert run("\ufeff" + padded(GOOD, 8191)).label == "ACCEPT"
        assert run("\ufeff" + padded(GOOD, 8192)).label == "INVALID_JSON/TOO_LARGE"
        assert run(b"\xef\xbb\xbf" + padded(GOOD, 8192).encode()).label == "INVALID_JSON/TOO_LARGE"

    def test_size_checked_before_encoding(self):
        assert run(b"\xff" * 9000).reason == "TOO_LARGE"
        assert run("\ud800" + " " * 8192).reason == "TOO_LARGE"

    def test_huge_inputs(self):
        assert run(" " * 10_000_000).reason == "TOO_LARGE"
        assert run(b"[" * 10_000_000).reason == "TOO_LARGE"


class TestEncoding:
    def test_lone_surrogate_in_str_is_located(self):
        raw = '{\n "claims": "ab\ud800"}'
        verdict = run(raw)
        failure = explain(verdict).first_failure
        assert verdict.label == "INVALID_JSON/NOT_UTF8"
        assert "2:15" in failure.explanation
        assert "\\ud800" in failure.explanation
        assert (failure.answer_span.line, failure.answer_span.column) == (2, 15)
        assert raw[failure.answer_span.start] == "\ud800"

    def test_surrogate_pair_as_two_code_points_in_str(self):
        # Python can hold both halves as separate code points; that is not UTF-8 text.
        assert run('{"claims": "\ud83d\ude00"}').reason == "NOT_UTF8"

    def test_invalid_byte_is_named_and_located(self):
        failure = explain(run(b'{\n "claims": "\xff"}')).first_failure
        assert "0xFF" in failure.explanation
        assert "2:13" in failure.explanation

    def test_invalid_byte_span_has_line_and_column(self):
        span = explain(run(b'{\n "claims": "\xff"}')).first_failure.answer_span
        assert (span.line, span.column) == (2, 13)

    def test_text_of_bytes_that_are_not_utf8(self):
        assert run(b"\xff").text is None


class TestDepth:
    def test_limit(self):
        assert LIMITS.MAX_DEPTH == 16

    def test_16_levels_parse(self):
        verdict = run("[" * 16 + "]" * 16)
        assert verdict.reason == "WRONG_SHAPE"

    def test_17_levels_too_deep(self):
        assert run("[" * 17 + "]" * 17).reason == "TOO_DEEP"

    @pytest.mark.parametrize(("inner", "reason"), [(13, "WRONG_SHAPE"), (14, "TOO_DEEP")])
    def test_inside_a_claim(self, inner, reason):
        # object, claims array, claim object, then `inner` arrays: 3 + inner levels.
        raw = answer(claim(value="VALUE")).replace('"VALUE"', "[" * inner + "]" * inner)
        assert run(raw).reason == ("NOT_A_STRING" if reason == "WRONG_SHAPE" else reason)

    def test_brackets_inside_strings_do_not_count(self):
        quote = "[" * 40 + "{" * 40
        verdict = run(answer(claim(quote=quote), RETRY_CLAIM))
        assert verdict.strict_json
        assert verdict.label == "NO_CITATION/QUOTE_NOT_FOUND"

    def test_escaped_quote_does_not_end_a_string(self):
        quote = '\\"' + "[" * 40
        assert run(answer(claim(quote=quote), RETRY_CLAIM)).strict_json

    def test_depth_checked_before_syntax(self):
        assert run("x" + "[" * 17).reason == "TOO_DEEP"

    @pytest.mark.parametrize("raw", ["[" * 8192, "{\"a\":" * 1638, "[{\"a\":" * 1000, ("[" * 4000 + "]" * 4000).encode()])
    def test_never_raises_recursion_error(self, raw):
        assert run(raw).reason == "TOO_DEEP"

    def test_brackets_in_an_unterminated_string_do_not_count(self):
        # Its nesting is 1: the brackets are the string's text, not structure.
        failure = explain(run('{"claims": "[[[[[[[[[[[[[[[[[[')).first_failure
        assert failure.reason == "SYNTAX"
        assert "unexpected end of input" in failure.explanation

    def test_unterminated_string_after_escaped_quotes(self):
        # Issue 9's input: 8 KB that the depth scan read from every escaped quote.
        assert run(HOSTILE_DEPTH_SCAN).reason == "SYNTAX"

    def test_brackets_after_a_closed_string_count(self):
        assert run('"x"' + "[" * 17).reason == "TOO_DEEP"
        assert run('"a\\\\"' + "[" * 17).reason == "TOO_DEEP"  # an escaped backslash, then the closing quote

    @pytest.mark.parametrize("raw", [HOSTILE_DEPTH_SCAN, '"' * 300 + "[" * 20, '"\\' * 300 + "[" * 20,
                                     '["a", "b\\"c", "' + "[" * 20, '{"claims": "\\'],
                             ids=["issue-9", "closed-strings", "escaped-quotes", "unterminated-after-escapes",
                                  "a-trailing-backslash"])
    def test_the_depth_scan_reads_each_character_once(self, raw):
        # Linear in the input: at every quote or bracket the scan's pattern
        # matches (a string runs to its closing quote or to the end of the
        # text), and the scan resumes after it.  A pattern that needs the
        # closing quote fails at an unterminated string and is tried again from
        # every quote inside it.  Walked here position by position, as the
        # search does: no character is read twice.
        position = read = 0
        while position < len(raw):
            if raw[position] in '"[]{}':
                match = jsonscan._BRACKET.match(raw, position)
                assert match is not None, f"the scan would read {raw[position:position + 20]!r} again"
                read += match.end() - position
                position = match.end()
            else:
                read += 1
                position += 1
        assert read == len(raw)

    def test_too_deep_is_located(self):
        failure = explain(run('{"claims": [\n' + "[" * 15 + "]" * 15 + "]}")).first_failure
        assert failure.reason == "TOO_DEEP"
        assert failure.answer_span is not None
        assert (failure.answer_span.line, failure.answer_span.column) == (2, 15)
        assert "2:15" in failure.explanation


class TestShapeLimits:
    def test_8_claims_pass_the_shape(self):
        verdict = run(answer(*[claim(f"f{i}", "v", "prod-v2") for i in range(8)]))
        assert verdict.strict_json
        assert verdict.status == "NO_CITATION"

    def test_9_claims_too_many(self):
        verdict = run(nine_claims())
        assert verdict.reason == "TOO_MANY_CLAIMS"
        assert "9" in detail(verdict) and "8" in detail(verdict)

    def test_too_many_claims_before_claim_members(self):
        assert run('{"claims": [' + ", ".join(["{}"] * 9) + "]}").reason == "TOO_MANY_CLAIMS"

    def test_member_of_2048_units(self):
        verdict = run(answer(claim(quote="x" * 2048)))
        assert verdict.strict_json

    def test_member_of_2049_units(self):
        verdict = run(answer(claim(quote="x" * 2049)))
        assert verdict.reason == "TOO_LONG"
        assert "claims[0].quote" in detail(verdict)
        assert "2049" in detail(verdict)

    def test_member_of_1024_astral_characters(self):
        # 1024 characters, 2048 UTF-16 units: allowed; one more unit is not.
        assert run(answer(claim(quote="\U0001f600" * 1024), ascii_only=False)).strict_json
        verdict = run(answer(claim(quote="\U0001f600" * 1024 + "x"), ascii_only=False))
        assert verdict.reason == "TOO_LONG"
        assert "2049" in detail(verdict)

    def test_escapes_do_not_count_towards_member_length(self):
        # 2048 units once unescaped, 2048 * 6 characters as written would exceed the input limit,
        # so escape a part only.
        quote = "x" * 2000 + "\\u0041" * 48
        raw = answer(claim(quote="QUOTE")).replace('"QUOTE"', f'"{quote}"')
        assert run(raw).strict_json
        assert run(raw.replace(quote, quote + "y")).reason == "TOO_LONG"

    @pytest.mark.parametrize("member", ["field", "value", "doc", "quote"])
    def test_every_member_limited(self, member):
        verdict = run(answer(claim(**{member: "x" * 2049}), RETRY_CLAIM))
        assert verdict.reason == "TOO_LONG"
        assert f"claims[0].{member}" in detail(verdict)


class TestShapeOrder:
    def test_unknown_member_before_missing(self):
        assert run('{"answer": "x"}').reason == "UNKNOWN_MEMBER"

    def test_top_level_answer_member_refused_even_when_claims_are_good(self):
        verdict = run(answer(TIMEOUT_CLAIM, RETRY_CLAIM, answer="Retries are enabled."))
        assert verdict.reason == "UNKNOWN_MEMBER"
        assert '"answer"' in detail(verdict)
        assert dict(verdict.accepted) == {}

    def test_declared_order(self):
        assert CHECKS_BY_ID["shape"].reasons == ("WRONG_SHAPE", "TOO_MANY_CLAIMS", "UNKNOWN_MEMBER", "MISSING_MEMBER",
                                                 "NOT_A_STRING", "EMPTY_STRING", "TOO_LONG")

    # Two faults: the later-declared one in claims[0], the earlier-declared one in
    # claims[1]; each sub-reason is looked for over the whole answer before the next.
    @pytest.mark.parametrize(("first_claim", "second_claim", "reason"), [
        (claim(quote="x" * 2049), claim(RETRY, ""), "EMPTY_STRING"),
        (claim(value=""), claim(RETRY, 5), "NOT_A_STRING"),
        (claim(value=5), {"field": RETRY}, "MISSING_MEMBER"),
        ({"field": TIMEOUT}, claim(RETRY, "false", confidence="high"), "UNKNOWN_MEMBER"),
        (claim(confidence="high"), "not a claim", "WRONG_SHAPE"),
    ], ids=["EMPTY_STRING", "NOT_A_STRING", "MISSING_MEMBER", "UNKNOWN_MEMBER", "WRONG_SHAPE"])
    def test_each_sub_reason_over_the_whole_answer(self, first_claim, second_claim, reason):
        failure = explain(run(answer(first_claim, second_claim))).first_failure
        assert failure.reason == reason
        assert "claims[1]" in failure.explanation

    # The same two-fault answers, with the shape check's order reversed in the
    # checks table: the search follows the table, so the other fault wins.
    @pytest.mark.parametrize(("first_claim", "second_claim", "reason"), [
        (claim(quote="x" * 2049), claim(RETRY, ""), "TOO_LONG"),
        (claim(value=""), claim(RETRY, 5), "EMPTY_STRING"),
        (claim(value=5), {"field": RETRY}, "NOT_A_STRING"),
        ({"field": TIMEOUT}, claim(RETRY, "false", confidence="high"), "MISSING_MEMBER"),
        (claim(confidence="high"), "not a claim", "UNKNOWN_MEMBER"),
    ], ids=["TOO_LONG", "EMPTY_STRING", "NOT_A_STRING", "MISSING_MEMBER", "UNKNOWN_MEMBER"])
    def test_the_order_is_the_checks_table(self, monkeypatch, first_claim, second_claim, reason):
        shape = CHECKS_BY_ID["shape"]
        reordered = decode_with_shape_order(monkeypatch, shape.reasons[::-1])
        failure = reordered.decode_answer(answer(first_claim, second_claim)).failure.explained()
        assert failure.reason == reason
        assert failure.path[:2] == ("claims", 0)

    @pytest.mark.parametrize("first", CHECKS_BY_ID["shape"].reasons)
    def test_any_sub_reason_can_come_first(self, monkeypatch, first):
        # Every search is safe on any value: an answer with all seven faults is
        # refused with whichever the table puts first.
        order = (first, *[reason for reason in CHECKS_BY_ID["shape"].reasons if reason != first])
        reordered = decode_with_shape_order(monkeypatch, order)
        raw = answer(claim(quote="x" * 2049), claim(value=""), claim(value=5), {"field": RETRY},
                     claim(confidence="high"), "not a claim", *[claim(f"f{i}") for i in range(3)], extra="x")
        assert reordered.decode_answer(raw).failure.reason == first
        assert reordered.decode_answer(answer(TIMEOUT_CLAIM, RETRY_CLAIM)).ok

    def test_the_search_reads_the_table(self):
        assert decode._SHAPE_ORDER is CHECKS_BY_ID["shape"].reasons

    def test_a_sub_reason_without_a_search_fails_at_import(self, monkeypatch):
        with pytest.raises(ImportError, match="NO_SUCH_REASON"):
            decode_with_shape_order(monkeypatch, (*CHECKS_BY_ID["shape"].reasons, "NO_SUCH_REASON"))

    def test_within_a_sub_reason_the_first_claim_decides(self):
        failure = explain(run(answer(claim(value=""), claim(RETRY, "")))).first_failure
        assert "claims[0].value" in failure.explanation

    def test_top_level_unknown_member_before_claim_members(self):
        raw = answer({"field": TIMEOUT, "extra": "x"}, extra="y")
        assert '"extra"' in detail(run(raw)) and "claims[0]" not in detail(run(raw))

    def test_too_many_claims_before_unknown_members(self):
        raw = answer(*[claim(f"f{i}", "v", confidence="x") for i in range(9)])
        assert run(raw).reason == "TOO_MANY_CLAIMS"

    def test_duplicate_key_before_shape(self):
        assert run('{"claims": 1, "claims": 2}').reason == "DUPLICATE_KEY"

    def test_syntax_before_duplicate_key(self):
        assert run('{"claims": [], "claims": [],}').reason == "SYNTAX"


class TestMessages:
    def test_syntax_message_has_line_and_column(self):
        raw = '{\n  "claims": [\n    {"field": NaN}\n  ]\n}'
        failure = explain(run(raw)).first_failure
        assert "3:15" in failure.explanation
        assert (failure.answer_span.line, failure.answer_span.column) == (3, 15)
        assert raw[failure.answer_span.start] == "N"

    def test_trailing_data_is_located(self):
        failure = explain(run(GOOD + "\n\n  {}")).first_failure
        assert failure.reason == "TRAILING_DATA"
        assert LINE_COL.search(failure.explanation).group(1) == "3"

    @pytest.mark.parametrize(("raw", "where"), [(GOOD + "\n\n  {}", "3:3"), ('{"claims": []}x', "1:15")],
                             ids=["second-object", "one-character"])
    def test_trailing_data_points_at_the_data(self, raw, where):
        failure = explain(run(raw)).first_failure
        assert where in failure.explanation
        assert raw[failure.answer_span.start] in "{x"

    def test_raw_control_character_is_named_visibly(self):
        failure = explain(run('{"claims": ["a\x01"]}')).first_failure
        assert "\\u0001" in failure.explanation
        assert "\x01" not in failure.explanation
        assert "1:15" in failure.explanation

    def test_bare_word_is_named_whole(self):
        failure = explain(run('{"claims": [NaN]}')).first_failure
        assert '"NaN"' in failure.explanation
        assert "1:13" in failure.explanation

    def test_unexpected_character_is_named(self):
        failure = explain(run('{"claims": [-]}')).first_failure
        assert '"]"' in failure.explanation
        assert "1:14" in failure.explanation

    def test_member_path_for_not_a_string(self):
        raw = answer(TIMEOUT_CLAIM, claim(RETRY, False), indent=2)
        failure = explain(run(raw)).first_failure
        assert "claims[1].value" in failure.explanation
        assert "boolean" in failure.explanation
        assert json.loads("{" + raw[failure.answer_span.start:failure.answer_span.end] + "}") == {"value": False}
        line, column = failure.answer_span.line, failure.answer_span.column
        assert f"{line}:{column}" in failure.explanation

    def test_member_path_for_empty_string(self):
        failure = explain(run(answer(TIMEOUT_CLAIM, claim(RETRY, "false", doc="")))).first_failure
        assert "claims[1].doc" in failure.explanation

    def test_missing_member_named(self):
        incomplete = {k: v for k, v in RETRY_CLAIM.items() if k != "doc"}
        failure = explain(run(answer(TIMEOUT_CLAIM, incomplete))).first_failure
        assert "claims[1]" in failure.explanation and "doc" in failure.explanation

    def test_unknown_member_named(self):
        failure = explain(run(answer(TIMEOUT_CLAIM, claim(RETRY, "false", confidence="high")))).first_failure
        assert "claims[1]" in failure.explanation and '"confidence"' in failure.explanation

    def test_wrong_shape_names_the_kind(self):
        assert "array" in detail(run("[]"))
        assert "claims[0]" in detail(run('{"claims": ["x"]}'))

    @pytest.mark.parametrize("raw", [
        '{"claims": ["\\ud800"]}',
        '{"claims": ["\\ud800',
        '{"claims": ["\\ud800"',
        '{"\\udbff": 1}',
        '["\\ud800\\u0041"]',
        '["abc\\udfff"]',
    ])
    def test_lone_surrogate_escape_never_reported_as_truncated(self, raw):
        failure = explain(run(raw)).first_failure
        assert failure.reason == "SYNTAX"
        assert "truncated" not in failure.explanation.lower()
        assert "surrogate" in failure.explanation
        assert LINE_COL.search(failure.explanation)

    def test_lone_surrogate_escape_located_at_the_escape(self):
        raw = '{"claims": [\n  "ok", "x\\ud800"]}'
        failure = explain(run(raw)).first_failure
        assert raw[failure.answer_span.start:failure.answer_span.start + 6] == "\\ud800"
        assert "2:11" in failure.explanation

    def test_unexpected_end(self):
        failure = explain(run('{"claims": [')).first_failure
        assert "end" in failure.explanation
        assert "truncated" not in failure.explanation.lower()

    def test_invalid_escape_names_the_escape(self):
        raw = '{"claims": ["\\\'"]}'
        failure = explain(run(raw)).first_failure
        assert "\\'" in failure.explanation
        assert failure.answer_span.start == raw.index("\\")

    def test_misspelt_literal_located_in_the_literal(self):
        raw = '{"claims": [tRue]}'
        failure = explain(run(raw)).first_failure
        assert '"]"' not in failure.explanation
        assert raw.index("tRue") <= failure.answer_span.start < raw.index("]")

    def test_parser_out_of_stack_is_located(self, monkeypatch):
        # Nesting within the limit but the parser ran out of stack (verify was
        # called with the caller's stack nearly exhausted): the message says where.
        class OutOfStack:
            def decode(self, body):
                raise RecursionError

        monkeypatch.setattr(decode, "_ANY_DECODER", OutOfStack())
        raw = '{"claims": [\n  [[1]], {"a": [2]}]}'
        failure = explain(run(raw)).first_failure
        assert failure.reason == "TOO_DEEP"
        assert failure.answer_span is not None
        assert raw[failure.answer_span.start] == "["
        assert (failure.answer_span.line, failure.answer_span.column) == (2, 4)
        assert "2:4" in failure.explanation
        assert "4 levels" in failure.explanation

    @pytest.mark.parametrize(("raw", "code", "where"), [
        ('\x0b{"claims": []}', "\\u000b", "1:1"),
        ('\x0c{"claims": []}', "\\u000c", "1:1"),
        ('\x00{"claims": []}', "\\u0000", "1:1"),
        ('{"claims":\x0b[]}', "\\u000b", "1:11"),
        ('\x1b[31m{"claims": []}', "\\u001b", "1:1"),
    ], ids=["VT", "FF", "NUL", "VT-between-tokens", "ESC"])
    def test_control_character_outside_a_string(self, raw, code, where):
        failure = explain(run(raw)).first_failure
        assert failure.reason == "SYNTAX"
        assert "in a string" not in failure.explanation
        assert f"control character {code} outside a string" in failure.explanation
        assert f"at {where}" in failure.explanation
        assert not any(ch in failure.explanation for ch in "\x00\x0b\x0c\x1b")

    @pytest.mark.parametrize("raw", ['\x0b{"claims": []}', '\x0c{"claims": []}'], ids=["VT", "FF"])
    def test_whitespace_json_does_not_allow_says_so(self, raw):
        assert "which JSON does not allow as whitespace" in explain(run(raw)).first_failure.explanation

    def test_control_character_in_a_string_is_in_a_string(self):
        failure = explain(run('{"claims": ["\x0b"]}')).first_failure
        assert "raw control character \\u000b in a string" in failure.explanation

    @pytest.mark.parametrize(("raw", "shown", "name"), [
        ('\u00a0{"claims": []}', "\\u00a0", "no-break space"),
        ('\u3000{"claims": []}', "\\u3000", "ideographic space"),
        ('\u2028{"claims": []}', "\\u2028", "line separator"),
    ], ids=["NBSP", "ideographic-space", "line-separator"])
    def test_leading_blank_is_shown_escaped_and_named(self, raw, shown, name):
        failure = explain(run(raw)).first_failure
        assert failure.explanation.startswith(f'unexpected character "{shown}" ({name})')
        assert "which JSON does not allow as whitespace" in failure.explanation
        assert "at 1:1" in failure.explanation
        assert raw[0] not in failure.explanation

    @pytest.mark.parametrize(("raw", "where"), [
        ('{"claims": []}\u00a0', "1:15"),
        ('[1\u00a0]', "1:3"),
        ('{"claims": [1,\u00a0]}', "1:15"),
    ], ids=["trailing", "instead-of-a-separator", "before-a-value"])
    def test_blank_anywhere_is_shown_escaped_and_located(self, raw, where):
        failure = explain(run(raw)).first_failure
        assert '"\\u00a0" (no-break space)' in failure.explanation
        assert "\u00a0" not in failure.explanation
        assert f"at {where}" in failure.explanation
        assert raw[failure.answer_span.start] == "\u00a0"

    @pytest.mark.parametrize("raw", [
        '{"claims": [{"field": "a\\ud800", "value": "x", "doc": "d", "quote": "q"}]}',
        '{"claims": [{"field": "a\\ud800\\n", "value": "x", "doc": "d", "quote": "q"}]}',
        '{"claims": [{"field": "\\ud800\\ud800", "value": "x", "doc": "d", "quote": "q"}]}',
        '{"claims": [1e400, "\\ud800x"]}',
    ], ids=["then-a-quote", "then-an-escape", "then-another-high", "after-a-big-number"])
    def test_lone_high_surrogate_escape_located_at_the_escape(self, raw):
        failure = explain(run(raw)).first_failure
        assert failure.reason == "SYNTAX"
        assert "lone surrogate escape \\ud800" in failure.explanation
        assert raw[failure.answer_span.start:failure.answer_span.start + 6] == "\\ud800"
        escape = raw.index("\\ud800")
        assert f"1:{escape + 1}" in failure.explanation

    def test_invalid_escape_before_a_non_ascii_character_points_at_the_backslash(self):
        raw = '{"claims": ["\\\u00e9"]}'
        failure = explain(run(raw)).first_failure
        assert failure.answer_span.start == raw.index("\\")
        assert '"\\\u00e9"' in failure.explanation

    def test_invalid_unicode_escape_is_named_at_the_escape(self):
        raw = '{"claims": ["\\u12G4"]}'
        failure = explain(run(raw)).first_failure
        assert '"\\u12"' in failure.explanation
        assert failure.answer_span.start == raw.index("\\")

    @pytest.mark.parametrize("raw", ['{"claims": [1e5,@]}', '{"claims": [1E5,\u00a0]}'])
    def test_exponent_is_not_a_misspelt_literal(self, raw):
        failure = explain(run(raw)).first_failure
        assert "invalid literal" not in failure.explanation
        assert failure.answer_span.start == raw.index(",") + 1

    @pytest.mark.parametrize(("small", "big"), [
        ('[1, "a\x01"]', '[1e400, "a\x01"]'),
        ('[1, "ab', '[1e400, "ab'),
        ('[1, "a\\x"]', '[1e400, "a\\x"]'),
        ('[1, NaN]', '[1e400, NaN]'),
        ('[1, -Infinity]', '[1e400, -Infinity]'),
        ('[1, \x0b1]', '[1e400, \x0b1]'),
        ('[1, "\\u12x"]', '[1e400, "\\u12x"]'),
        ('[1] x', '[1e400] x'),
    ], ids=["control-in-string", "unterminated", "escape", "NaN", "-Infinity", "VT", "unicode-escape", "trailing"])
    def test_a_number_too_big_for_msgspec_does_not_change_the_words(self, small, big):
        # Such answers finish their syntax check with the standard library.
        shift = len("1e400") - len("1")
        small_failure, big_failure = explain(run(small)).first_failure, explain(run(big)).first_failure
        assert big_failure.reason == small_failure.reason
        assert big_failure.answer_span.start == small_failure.answer_span.start + shift
        assert LINE_COL.sub("", big_failure.explanation) == LINE_COL.sub("", small_failure.explanation)

    def test_hostile_text_in_messages_is_visible(self):
        failure = explain(run(answer(claim(**{"\x1b[31mred\u202e": "x"})))).first_failure
        assert failure.reason == "UNKNOWN_MEMBER"
        assert "\x1b" not in failure.explanation and "\u202e" not in failure.explanation
        assert "\\u001b" in failure.explanation and "\\u202e" in failure.explanation


class TestDuplicateKeys:
    def test_both_positions_reported(self):
        raw = '{"claims": [], "claims": []}'
        failure = explain(run(raw)).first_failure
        assert failure.reason == "DUPLICATE_KEY"
        assert raw[failure.answer_span.start:failure.answer_span.end] == '"claims"'
        assert failure.answer_span.start == 1
        (second,) = failure.related_spans
        assert second.start == raw.rindex('"claims"')
        assert raw[second.start:second.end] == '"claims"'
        assert "1:2" in failure.explanation and "1:16" in failure.explanation

    def test_equal_after_unescaping(self):
        raw = answer(TIMEOUT_CLAIM).replace('"value"', '"\\u0066ield": "x", "value"')
        failure = explain(run(raw)).first_failure
        assert failure.reason == "DUPLICATE_KEY"
        assert '"field"' in failure.explanation
        assert "claims[0]" in failure.explanation
        assert raw[failure.answer_span.start:failure.answer_span.end] == '"field"'
        assert raw[failure.related_spans[0].start:failure.related_spans[0].end] == '"\\u0066ield"'

    def test_positions_on_separate_lines(self):
        raw = '{\n  "claims": [],\n  "claims": []\n}'
        failure = explain(run(raw)).first_failure
        assert (failure.answer_span.line, failure.answer_span.column) == (2, 3)
        assert (failure.related_spans[0].line, failure.related_spans[0].column) == (3, 3)
        assert "2:3" in failure.explanation and "3:3" in failure.explanation

    def test_positions_count_a_bom(self):
        failure = explain(run('\ufeff{"claims": [], "claims": []}')).first_failure
        assert failure.answer_span.start == 2
        assert failure.related_spans[0].start == 16

    def test_duplicate_with_correct_values_last_is_still_refused(self):
        # A map would keep the second, correct claims; the contract refuses the text.
        raw = ('{"claims": [' + json.dumps(claim(value="2000", quote="read_timeout_ms=5000")) + '], '
               '"claims": ' + json.dumps([TIMEOUT_CLAIM, RETRY_CLAIM]) + "}")
        verdict = run(raw)
        assert verdict.label == "INVALID_JSON/DUPLICATE_KEY"
        assert dict(verdict.accepted) == {}

    def test_same_key_in_different_objects_is_fine(self):
        assert run(answer(TIMEOUT_CLAIM, RETRY_CLAIM)).label == "ACCEPT"

    def test_keys_differing_by_normalisation_are_different(self):
        # "é" precomposed and decomposed are different keys (RFC 8259 compares code units).
        raw = '{"claims": [], "x": {"\u00e9": 1, "e\u0301": 2}}'
        assert run(raw).reason == "UNKNOWN_MEMBER"

    def test_escaped_slash(self):
        assert run('{"claims": [], "x": {"a/b": 1, "a\\/b": 2}}').reason == "DUPLICATE_KEY"

    def test_astral_key_escaped_as_a_pair(self):
        raw = '{"claims": [], "x": {"\U0001f600": 1, "\\ud83d\\ude00": 2}}'
        assert run(raw).reason == "DUPLICATE_KEY"


class TestTrace:
    def test_stage1_failure_ladder(self):
        trace = explain(run('{"claims": [1,]}')).steps
        outcomes = [(s.check.id, s.outcome) for s in trace[:6]]
        assert outcomes == [("size", Outcome.PASSED), ("encoding", Outcome.PASSED), ("depth", Outcome.PASSED),
                            ("syntax", Outcome.FAILED), ("duplicate_key", Outcome.NOT_REACHED),
                            ("shape", Outcome.NOT_REACHED)]
        assert all(s.outcome is Outcome.NOT_REACHED and not s.reached for s in trace[4:])

    def test_passed_stage1_steps_explain(self):
        trace = explain(run(GOOD)).steps
        assert "UTF-16" in trace[0].explanation and "8192" in trace[0].explanation
        assert "2 claims" in trace[5].explanation

    def test_explore_after_stage1_failure_is_the_trace(self):
        verdict = run("[")
        assert explain(verdict).explore() == explain(verdict).steps

