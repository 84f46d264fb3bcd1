"""inspector.contract.text: the nearest line of a quote that was not found, bounded; names that
look different when they differ (``visible_name``)."""

from __future__ import annotations

import difflib
import json
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import FIXTURES, SOURCES

from inspector.contract import text as text_module
from inspector.contract.text import (
    NEAREST_CANDIDATES,
    NEAREST_CHARACTERS,
    is_invisible,
    nearest_line,
    visible_name,
)


def difflib_nearest(text: str, quote: str) -> tuple[int, int] | None:
    """The search the explanation used before it was bounded: every line, no cutoff."""
    lines = text.splitlines(keepends=True)
    stripped = [line.rstrip("\r\n") for line in lines]
    match = difflib.get_close_matches(quote, stripped, n=1, cutoff=0.0)
    if not match:
        return None
    offset = sum(len(line) for line in lines[: stripped.index(match[0])])
    return offset, offset + len(match[0])


def fixture_texts_and_quotes() -> tuple[list[str], list[str]]:
    """Every source text of the bundled fixtures and every quote their answers make."""
    texts = [source["text"] for source in SOURCES]
    quotes: list[str] = []
    # fixtures/logs/ holds the sample log's registry: 54 generated texts of the same
    # few lines, seconds of difflib that check nothing the suites' texts do not.
    paths = sorted(path for path in FIXTURES.rglob("*.json") if path.parent != FIXTURES / "logs")
    for path in paths:
        document = json.loads(path.read_text("utf-8"))
        for source in document.get("sources", []) if isinstance(document, dict) else []:
            texts.append(source.get("text", ""))
        answers = [case.get("raw", "") for case in document.get("cases", [])] if isinstance(document, dict) else []
        if "answers" in path.parts:
            answers.append(path.read_text("utf-8"))
        for raw in answers:
            try:
                claims = json.loads(raw)["claims"]
                quotes.extend(claim["quote"] for claim in claims if isinstance(claim.get("quote"), str))
            except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
                continue
    return texts, sorted(set(quotes))


class TestNearestLine:
    def test_same_line_as_difflib_on_every_fixture_text_and_quote(self):
        texts, quotes = fixture_texts_and_quotes()
        assert len(texts) > 10 and len(quotes) > 20
        for text in texts:
            for quote in quotes:
                assert nearest_line(text, quote) == difflib_nearest(text, quote), (text, quote)

    def test_empty_text_has_no_nearest_line(self):
        assert nearest_line("", "read_timeout_ms=5000") is None

    def test_ties_go_to_the_first_occurrence(self):
        text = "a=1\nread_timeout_ms=5000\nb=2\nread_timeout_ms=5000\n"
        assert nearest_line(text, "read_timeout_ms=500") == (4, 24)

    @settings(max_examples=150, deadline=None)
    @given(st.lists(st.text(alphabet="ab=\r\n\u2028 x", max_size=12), max_size=30),
           st.text(alphabet="ab= x", max_size=12))
    def test_small_sources_exactly_as_difflib(self, lines, quote):
        text = "\n".join(lines)
        assert nearest_line(text, quote) == difflib_nearest(text, quote)

    def test_a_near_miss_among_ten_thousand_lines(self):
        text = "\n".join(f"field_{i:05d}=value_{i * 7 % 1000}" for i in range(10_000)) + "\nread_timeout_ms=5000\n"
        start, end = nearest_line(text, "read_timeout_ms=2500")
        assert text[start:end] == "read_timeout_ms=5000"

    @pytest.mark.parametrize("shape", ["many short lines", "long lines", "two letters"])
    def test_the_work_is_bounded(self, shape, monkeypatch):
        # Structural, not timed: how many lines difflib compares and how long they are.
        rng = random.Random(3)
        if shape == "many short lines":
            text, quote = "\n".join(f"key_{i}=value_{i}" for i in range(50_000)), "key_77=value_7"
        elif shape == "long lines":
            text = "\n".join("".join(rng.choice(string.ascii_letters) for _ in range(2000)) for _ in range(300))
            quote = text[100:1900] + "x"
        else:
            text = "\n".join("".join(rng.choice("ab") for _ in range(2000)) for _ in range(100))
            quote = "".join(rng.choice("ab") for _ in range(150))
        compared: list[int] = []
        set_seq1 = difflib.SequenceMatcher.set_seq1

        def counted(matcher, line):
            compared.append(len(line))
            set_seq1(matcher, line)

        monkeypatch.setattr(difflib.SequenceMatcher, "set_seq1", counted)
        counted_lines: list[int] = []
        best_match = text_module._best_match

        def candidates(lines, quote):
            counted_lines.append(len(lines))
            counted_lines.append(sum(map(len, lines)))
            return best_match(lines, quote)

        monkeypatch.setattr(text_module, "_best_match", candidates)
        assert nearest_line(text, quote) is not None
        number, characters = counted_lines
        assert number <= NEAREST_CANDIDATES
        assert characters <= max(NEAREST_CHARACTERS, 2000)
        assert sum(compared) <= NEAREST_CHARACTERS

    def test_explanation_names_the_nearest_line_of_a_large_source(self):
        from inspector import explain, verify

        text = "\n".join(f"field_{i:05d}=value_{i}" for i in range(10_000)) + "\nread_timeout_ms=5000\n"
        registry = {"sources": [{"id": "big", "service": "payments", "environment": "prod", "revision": "v2",
                                 "facts": {"read_timeout_ms": "5000"}, "text": text}]}
        request = {"service": "payments", "environment": "prod", "revision": "v2",
                   "fields": ["read_timeout_ms"], "supplied": ["big"]}
        raw = json.dumps({"claims": [{"field": "read_timeout_ms", "value": "5000", "doc": "big",
                                      "quote": "read_timeout_ms=2500"}]})
        failure = explain(verify(raw, request, registry)).first_failure
        assert failure.check.id == "quote_found"
        assert 'nearest line 10001: "read_timeout_ms=5000"' in failure.explanation


class TestVisibleName:
    @pytest.mark.parametrize("text, shown", [("r\u00e9gion", "r\u00e9gion"), ("re\u0301gion", "re\\u0301gion"),
                                             ("\u212b", "\\u212b"), ("\u00c5", "\u00c5"), ("plain", "plain"),
                                             ("e\u0301\u202e", "e\\u0301\\u202e"), ("\u00e9\u202e", "\u00e9\\u202e"),
                                             ("\u1112\u1161\u11ab", "\\u1112\\u1161\\u11ab"), ("\ud55c", "\ud55c")])
    def test_a_text_not_in_nfc_has_its_characters_past_ascii_escaped(self, text, shown):
        assert visible_name(text) == shown

    @settings(max_examples=200, deadline=None)
    @given(st.text(alphabet=st.sampled_from("ae\u0301\u0308\u00e9\u00e4\u212b\u00c5\u1112\u1161\ud55c\\u\u202e"),
                   max_size=8))
    def test_two_spellings_of_one_text_never_look_the_same(self, text):
        import unicodedata

        nfc = unicodedata.normalize("NFC", text)
        if nfc != text:
            assert visible_name(text) != visible_name(nfc)
        assert not any(is_invisible(ch) for ch in visible_name(text))
