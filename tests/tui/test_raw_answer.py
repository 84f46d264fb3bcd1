"""The answer as received or re-indented (the main screen's ``pretty``), with what
the step points at marked."""

from __future__ import annotations

from inspector.reports.tones import Tone
from inspector.tui.tones import TEXT_HIGHLIGHT
from support.tui import inspecting, marked, text_view

FAILED = TEXT_HIGHLIGHT[Tone.BAD]


async def test_raw_and_pretty_mark_both_duplicate_keys(article):
    async with inspecting(article, "duplicate-claims-key") as pilot:
        app = pilot.app
        view = text_view(app, "#answer-view")
        raw = view.text
        assert raw == app.main.selection.report.case.raw and "\n" not in raw
        assert marked(view, FAILED) == ['"claims"', '"claims"']
        await pilot.press("r")
        assert app.main.pretty and view.text.startswith('{\n  "claims": [')
        assert marked(view, FAILED) == ['"claims"', '"claims"']  # the same keys, re-indented
        assert "".join(view.text.split()) == "".join(raw.split())  # the same characters
        await pilot.press("r")
        assert view.text == raw
        assert marked(view, FAILED) == ['"claims"', '"claims"']


async def test_the_current_claim_is_shaded(article):
    async with inspecting(article, "real-quote-wrong-value") as pilot:
        app = pilot.app
        view = text_view(app, "#answer-view")
        span = app.main.selection.claim_span
        assert [(m.start, m.end) for m in view.marks if m.component == "safe-text--soft"] == [(span.start, span.end)]
        assert marked(view, "safe-text--soft") == [view.text[span.start:span.end]]
        assert marked(view, FAILED) == ['"2000"']  # the claimed value the step compares


async def test_pretty_of_trailing_data_keeps_the_error_position(article):
    async with inspecting(article, "trailing-second-object") as pilot:
        view = text_view(pilot.app, "#answer-view")
        assert marked(view, FAILED) == ["{"]  # where the second object starts
        await pilot.press("r")
        assert pilot.app.main.pretty
        assert marked(view, FAILED) == ["{"]
        assert view.marks[0].start > view.text.index("}")  # still the second object's brace


async def test_at_80x24_the_answer_has_room_and_wraps_between_tokens(article):
    async with inspecting(article, "real-quote-wrong-value", size=(80, 24)) as pilot:
        view = text_view(pilot.app, "#answer-view")
        rows = [view.render_line(y).text.rstrip() for y in range(view.size.height)]
        assert view.size.width >= 22 and not view.line_numbers  # no gutter: its cells are the text's
        assert rows[:4] == ['{"claims":[{"field":', '"read_timeout_ms",', '"value":"2000","doc":', '"prod-v2","quote":']
        # Every row ends between two tokens: no key, value or string is split.
        joined = "".join(rows)
        assert view.text.startswith(joined[:60]) and all(row[-1] in ",:[{" for row in rows[:4])


async def test_a_token_longer_than_the_row_is_cut_but_not_an_escape(tmp_path):
    from inspector.tui.widgets.text_view import SafeTextView
    from textual.app import App

    class One(App[None]):
        def compose(self):  # noqa: ANN202 - Textual's
            yield SafeTextView(line_numbers=False)

    app = One()
    async with app.run_test(size=(12, 12)) as pilot:
        view = app.query_one(SafeTextView)
        view.set_text('["abcdefghijklmnopqrstuvwxyz","\x1b\x1b\x1b"]')
        await pilot.pause()
        rows = [view.render_line(y).text.rstrip() for y in range(view.size.height)]
        width = view.scrollable_content_region.width
        assert rows[0] == '[' and rows[1] == '"abcdefghijklmnopqrstuvwxyz",'[:width]
        assert all(row.count("\\") == row.count("\\u001b") for row in rows)  # no escape split
        assert "".join(rows) == '["abcdefghijklmnopqrstuvwxyz","\\u001b\\u001b\\u001b"]'
