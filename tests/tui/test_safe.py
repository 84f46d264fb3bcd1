"""inspector.tui.safe: untrusted text is never markup and never reaches the terminal raw."""

from __future__ import annotations

import io
import json
import re
import unicodedata

import pytest
from rich.console import Console
from textual.content import Content

from hypothesis import given, settings
from hypothesis import strategies as st

from support import FIXTURES
from inspector.tui import safe
from inspector.tui.widgets.text_view import style_runs

HOSTILE = [
    "[@click=app.quit]5000[/]",
    "[bold red]x[/]",
    "[link=https://example.com]y[/link]",
    "[$accent]a[/] [BOLD]b[/BOLD] [ bold]c[/ bold]",
    "read_timeout_ms=5000\x1b]52;c;SGVsbG8=\x07",
    "\x1b[31m5000\x1b[0m",
    "a\x00b\x7fc\x85d\x9be",
    "\u202e0005",
    "line\u2028para\u2029end",
    "\U0001f469\u200d\U0001f4bb",
    "\ufffe\ue000",
]


def hidden(text: str) -> list[str]:
    return [ch for ch in text if unicodedata.category(ch) in safe.HIDDEN_CATEGORIES]


def hostile_strings() -> list[str]:
    """Every string of the hostile fixture suite (ids, values, texts, raw answers)."""
    found: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for key, item in value.items():
                found.append(key)
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(json.loads((FIXTURES / "hostile.json").read_text(encoding="utf-8")))
    return found


class TestPieces:
    def test_plain_ascii_is_one_piece(self):
        assert list(safe.pieces("read_timeout_ms=5000")) == [("read_timeout_ms=5000", False)]

    def test_empty_text_has_no_pieces(self):
        assert list(safe.pieces("")) == []

    def test_escape_between_text(self):
        assert list(safe.pieces("a\x1bb")) == [("a", False), ("\\u001b", True), ("b", False)]

    def test_line_feed_kept_only_when_asked(self):
        assert list(safe.pieces("a\nb")) == [("a", False), ("\\u000a", True), ("b", False)]
        assert list(safe.pieces("a\nb", newlines=True)) == [("a\nb", False)]

    def test_astral_and_unassigned(self):
        # U+E000 is private use (Co), U+FFFE a noncharacter (Cn): both escaped.
        assert safe.display("\ue000\ufffe") == "\\ue000\\ufffe"

    def test_raw_bytes_show_as_hex(self):
        text = b"ok\xff".decode("utf-8", "surrogateescape")
        assert "".join(p for p, _ in safe.pieces(text, raw_bytes=True)) == "ok\\xff"

    @pytest.mark.parametrize("text", HOSTILE)
    def test_shown_form_has_no_hidden_character(self, text):
        assert hidden(safe.display(text)) == []

    def test_printable_unicode_passes_through(self):
        assert safe.display("équipe-paiements 备注 👩") == "équipe-paiements 备注 👩"


class TestContent:
    @pytest.mark.parametrize("text", HOSTILE)
    def test_markup_is_literal(self, text):
        content = safe.content(text)
        assert content.plain == safe.display(text)
        # Only the escapes carry a style: no markup was interpreted.
        styled = {content.plain[span.start:span.end] for span in content.spans}
        assert all(piece.startswith("\\") for piece in styled)

    def test_click_action_is_not_a_link(self):
        content = safe.content("[@click=app.quit]5000[/]")
        assert content.plain == "[@click=app.quit]5000[/]"
        assert content.spans == []

    def test_rendered_output_has_no_control_characters(self):
        console = Console(file=io.StringIO(), force_terminal=True, width=200, color_system="truecolor")
        for text in HOSTILE:
            with console.capture() as captured:
                console.print(safe.rich_text(text))
            output = captured.get()
            # Only the console's own styling escapes (CSI ... m) may appear.
            assert hidden(re.sub(r"\x1b\[[0-9;]*m", "", output).rstrip("\n")) == []

    def test_content_of_every_hostile_fixture_string(self):
        for text in hostile_strings():
            assert hidden(safe.content(text).plain) == [], repr(text)
            assert hidden(safe.content(text, newlines=True).plain.replace("\n", "")) == [], repr(text)


def quadratic_style_runs(length, spans):
    """How SafeTextView cut a line before: every cut against every span."""
    cuts = sorted({0, length, *(a for a, _, _ in spans), *(b for _, b, _ in spans)})
    return [(a, b, tuple(c for x, y, c in spans if x <= a and b <= y)) for a, b in zip(cuts, cuts[1:])]


class CountedSpans(list):
    """Spans that count how often a span is looked up by position."""

    lookups = 0

    def __getitem__(self, index):
        CountedSpans.lookups += 1
        return super().__getitem__(index)


class TestStyleRuns:
    """The raw answer and source views cut each line where its style changes."""

    def test_marks_under_escapes(self):
        # "ab\u202ecd" shown: a mark over [1, 9), an escape at [2, 8) on top of it.
        spans = [(1, 9, "safe-text--failed"), (2, 8, "safe-text--escape")]
        assert style_runs(11, spans) == [
            (0, 1, ()), (1, 2, ("safe-text--failed",)), (2, 8, ("safe-text--failed", "safe-text--escape")),
            (8, 9, ("safe-text--failed",)), (9, 11, ())]

    @settings(max_examples=150, deadline=None)
    @given(st.integers(1, 60).flatmap(lambda length: st.tuples(
        st.just(length),
        st.lists(st.tuples(st.integers(0, length - 1), st.integers(1, 8),
                           st.sampled_from(["safe-text--passed", "safe-text--failed", "safe-text--soft"])),
                 max_size=4),
        st.lists(st.integers(0, length - 1), max_size=12, unique=True))))
    def test_same_runs_and_styles_as_before(self, drawn):
        # A mixed line: a few marks (overlapping, in any order) and disjoint escapes.
        length, marks, escape_starts = drawn
        spans = [(a, min(length, a + width), component) for a, width, component in marks]
        taken = set()
        for start in sorted(escape_starts):
            if start not in taken and start + 1 <= length:
                spans.append((start, start + 1, "safe-text--escape"))
                taken.add(start)
        assert style_runs(length, spans) == quadratic_style_runs(length, spans)

    def test_fifty_thousand_escapes_are_one_sweep(self):
        # Structural, not timed: the work follows the spans, not spans × runs.
        count = 50_000
        spans = CountedSpans([(0, 6 * count, "safe-text--pending"), (10, 40, "safe-text--failed")])
        spans.extend((6 * i, 6 * i + 6, "safe-text--escape") for i in range(count))
        CountedSpans.lookups = 0
        runs = style_runs(6 * count + 1, spans)
        assert len(runs) == count + 3
        assert runs[0] == (0, 6, ("safe-text--pending", "safe-text--escape"))
        assert runs[2] == (10, 12, ("safe-text--pending", "safe-text--failed", "safe-text--escape"))
        assert runs[-1] == (6 * count, 6 * count + 1, ())
        assert CountedSpans.lookups <= 3 * len(runs)


def test_content_is_textual_content():
    assert isinstance(safe.content("x"), Content)


class TestFileError:
    """A notice of a file that cannot be used: whole in a terminal; served, the file named and the
    reason (which can quote the file) on standard error, for the server's log."""

    @pytest.fixture
    def error(self, tmp_path):
        from inspector.suites.load import LoadError, load_suite

        path = tmp_path / "token.txt"
        path.write_text("ghp_0123456789abcdefSECRET\n", "utf-8")
        with pytest.raises(LoadError) as raised:
            load_suite(path, strict=False)
        assert "ghp_0123456789abcdefSECRET" in str(raised.value)  # the loader quotes the literal
        return raised.value

    def test_in_a_terminal_the_whole_error(self, error):
        from inspector.tui.safe import file_error

        assert file_error(error, served=False) == str(error)

    def test_served_the_file_named_and_nothing_of_its_content(self, error, capfd):
        from inspector.tui.safe import file_error

        said = file_error(error, served=True)
        assert "ghp_" not in said
        assert said.startswith(f"{error.path}: cannot be used") and "inspector serve's log" in said
        assert "ghp_0123456789abcdefSECRET" in capfd.readouterr().err  # for the server's log

    def test_served_a_string_and_an_error_of_no_file(self, capfd):
        from inspector.tui.safe import file_error

        said = file_error("x.jsonl: 1:1: invalid literal \"ghp_SECRET\"", served=True, what="a log")
        assert "ghp_" not in said and said.startswith("a log cannot be used")
        assert file_error(ValueError("a reviewer's name is one line"), served=True) == \
            "a reviewer's name is one line"
