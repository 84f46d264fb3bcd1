"""The lab's two editors: ``e`` (a claim's members in a form) and ``E`` (the raw
answer's text, verified as you type), what they write into the answer, and how
every panel follows the edited answer."""

from __future__ import annotations

import json
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.content import Content

from support import ARTICLE, FIXTURES
from inspector.contract.decode import MEMBERS, decode_answer
from inspector.contract.text import is_invisible
from inspector.lab.edit import claim_edit, members_of
from inspector.lab.mutations import answer_of, encode_string
from inspector.presentation.raw_form import from_form, read_form, to_form
from inspector.reports.tones import Tone
from inspector.suites.load import load_suite
from inspector.tui import keys
from inspector.tui.screens.edit_claim import EditClaimScreen
from inspector.tui.screens.help import help_markdown
from inspector.tui.screens.raw_editor import RawEditorScreen
from inspector.tui.tones import TEXT_HIGHLIGHT
from inspector.tui.widgets.safe_input import SafeInput
from support.tui import (bound, declared, cursor_check, flowing, hidden_characters, inspecting, marked, registry_highlight,
                         run_from_palette, screen_text_and_styles, text_view, verdict_text, write_suite)
from support.waiting import until

HOSTILE = FIXTURES / "hostile.json"
FAILED = TEXT_HIGHLIGHT[Tone.BAD]


@pytest.fixture(scope="module")
def hostile() -> list:
    return [load_suite(HOSTILE)]


def form_values(app) -> dict[str, str]:  # noqa: ANN001
    screen = app.screen
    assert isinstance(screen, EditClaimScreen)
    return {member: screen.query_one(f"#edit-{member}", SafeInput).value for member in MEMBERS}


def status(app) -> str:  # noqa: ANN001
    """The raw editor's status line: the verdict now, where it failed."""
    assert isinstance(app.screen, RawEditorScreen)
    return flowing(app.screen.query_one("#raw-status").render().plain)


def notifications(app) -> list[str]:  # noqa: ANN001
    return [notification.message for notification in app._notifications]


# -- the edit's splice, headless -----------------------------------------------------


class TestClaimEdit:
    def _answer(self, case_id: str = "complete-answer"):
        suite = load_suite(ARTICLE)
        case = next(case for case in suite.cases if case.id == case_id)
        return answer_of(case.raw, case.request, suite.registry)

    @pytest.mark.parametrize("member", MEMBERS)
    @pytest.mark.parametrize("claim", [0, 1])
    def test_only_the_members_token_changes(self, claim, member):
        answer = self._answer()
        values = {**members_of(answer, claim), member: "new \u202e value"}
        change = claim_edit(answer, claim, values)
        assert change is not None
        start, end = answer.span(("claims", claim, member))
        new = encode_string("new \u202e value")
        assert new == '"new \\u202e value"'  # an invisible character is written escaped
        assert change.raw == answer.text[:start] + new + answer.text[end:]  # the rest byte for byte
        decoded = decode_answer(change.raw)
        assert getattr(decoded.claims[claim], member) == "new \u202e value"
        assert [c for i, c in enumerate(decoded.claims) if i != claim] == \
            [c for i, c in enumerate(answer.claims) if i != claim]
        assert change.records == ({"what": "edit", "claim": claim, "member": member,
                                   "old": answer.token(("claims", claim, member)), "new": new},)

    def test_two_members_are_two_records_and_the_rest_is_untouched(self):
        answer = self._answer()
        change = claim_edit(answer, 0, {**members_of(answer, 0), "value": "5001", "quote": "read_timeout_ms=5001"})
        assert change.raw == answer.text.replace('"5000"', '"5001"').replace(
            '"read_timeout_ms=5000"', '"read_timeout_ms=5001"')
        assert [record["member"] for record in change.records] == ["value", "quote"]
        assert change.what == ('edit claims[0].value "5000" → "5001", '
                               'claims[0].quote "read_timeout_ms=5000" → "read_timeout_ms=5001"')

    def test_nothing_edited_is_no_change(self):
        answer = self._answer()
        assert claim_edit(answer, 1, members_of(answer, 1)) is None

    def test_the_words_are_short_and_show_invisible_characters(self):
        answer = self._answer()
        change = claim_edit(answer, 0, {**members_of(answer, 0), "quote": "\x1b[2J" + "x" * 100})
        assert "\x1b" not in change.what and "\\u001b[2J" in change.what
        assert len(change.what) < 120 and "…" in change.what
        assert change.records[0]["new"].startswith('"\\u001b[2J')  # the token written in full


class TestEditableForm:
    @settings(max_examples=200)
    @given(st.text(alphabet=st.sampled_from(["a", "\\", "u", "{", "}", "1", "b", "\n", "\t", "\r", "\x1b",
                                             "\u202e", "\u2028", "\x85", "\ud800", "é", "\U0001f600"])))
    def test_the_form_reads_back_to_the_very_answer(self, raw):
        form = to_form(raw)
        assert from_form(form.text) == raw
        assert read_form(form.text)[1] == form
        # Nothing but the line feed and the tab reaches the editor as an invisible character.
        assert not [ch for ch in form.text if is_invisible(ch) and ch not in "\n\t"]
        for offset, ch in enumerate(raw):
            at = form.offset(offset)
            assert form.text[at] == ch or form.text.startswith(f"\\u{{{ord(ch):x}}}", at)
        assert form.offset(len(raw)) == len(form.text)

    def test_typing_a_marker_writes_the_character(self):
        assert from_form('{"q": "\\u{1b}[2J \\u{202E}"}') == '{"q": "\x1b[2J \u202e"}'
        assert from_form("\\u{110000}") == "\\u{110000}"  # not a character: left as typed
        assert to_form('"\\u0066"').text == '"\\u0066"'  # a JSON escape stays what it is


# -- e: the claim edit form -----------------------------------------------------------


async def test_the_form_is_prefilled_with_the_claims_members(article):
    async with inspecting(article, "complete-answer") as pilot:
        app = pilot.app
        await pilot.press("]", "e")
        assert form_values(app) == {"field": "retry_enabled", "value": "false", "doc": "prod-v2",
                                    "quote": "retry_enabled=false"}
        assert "edit claims[1] of complete-answer" in flowing(screen_text_and_styles(app)[0])
        assert app.focused is app.screen.query_one("#edit-field")
        await pilot.press("tab")
        assert app.focused is app.screen.query_one("#edit-value")


async def test_changing_the_value_flips_the_verdict_records_the_edit_and_every_panel_follows(article):
    async with inspecting(article, "complete-answer") as pilot:
        app, main = pilot.app, pilot.app.main
        number = main.browse.current
        await pilot.press("e", "tab", "end", "backspace", "1", "enter")
        await pilot.pause()
        assert app.screen is main
        report = main.selection.report
        assert report.actual == "VALUE_MISMATCH" and report.parent is not None
        history = app.session.history(number)
        assert history.records == ({"what": "edit", "claim": 0, "member": "value", "old": '"5000"', "new": '"5001"'},)
        assert history.applied[0].what == 'edit claims[0].value "5000" → "5001"'
        text = flowing(verdict_text(app))
        assert "was ACCEPT, now VALUE_MISMATCH (claims[0])" in text
        assert "citation-only still accepts" in text
        # the checks, the registry and the raw answer follow the edited answer
        assert cursor_check(app) == "value"
        assert registry_highlight(app) == ("prod-v2", frozenset({"facts.read_timeout_ms"}), Tone.BAD)
        assert marked(text_view(app, "#answer-view"), FAILED) == ['"5001"']
        await pilot.press("u")
        assert main.selection.report.actual == "ACCEPT"


async def test_esc_cancels_without_a_change(article):
    async with inspecting(article, "complete-answer") as pilot:
        app, main = pilot.app, pilot.app.main
        frozen = main.selection.report
        await pilot.press("e", "tab", "backspace", "escape")
        await pilot.pause()
        assert app.screen is main and main.selection.report is frozen
        assert not app.session.history(main.browse.current).changes


async def test_an_edit_that_changes_nothing_makes_no_change(article):
    async with inspecting(article, "complete-answer", notifications=True) as pilot:
        app, main = pilot.app, pilot.app.main
        frozen = main.selection.report
        # typed and typed back: the members are what they were
        await pilot.press("e", "tab", "end", "backspace", "0", "enter")
        # the form closes, then the notice (on a busy machine, a few frames later)
        await until(pilot, lambda: "nothing changed: the answer stays as it was" in notifications(app),
                    "the notice that nothing changed", timeout=5)
        assert app.screen is main and main.selection.report is frozen
        assert not app.session.history(main.browse.current).changes
        assert "nothing changed: the answer stays as it was" in notifications(app)


async def test_hostile_members_are_shown_escaped_and_kept_as_they_are(hostile):
    async with inspecting(hostile, "osc52-value-accepted") as pilot:
        app, main = pilot.app, pilot.app.main
        await pilot.press("e")
        values = form_values(app)
        assert values["value"] == "\x1b]52;c;SGVsbG8=\x07"  # the value itself, to edit
        text, _ = screen_text_and_styles(app)
        assert not hidden_characters(text)  # no ESC or BEL reaches the terminal
        assert "\\u001b]52;c;SGVsbG8=\\u0007" in text
        field = app.screen.query_one("#edit-value", SafeInput)
        field.focus()
        await pilot.press("home", "right")
        assert field.cursor_position == 1  # one step over the whole escape
        assert field.cursor_screen_offset.x - field.content_region.x == 6
        await pilot.press("delete")  # the "]" after the ESC
        await pilot.pause()
        assert not hidden_characters(screen_text_and_styles(app)[0])
        await pilot.press("enter")
        await pilot.pause()
        history = app.session.history(main.browse.current)
        # The value rewritten with its controls escaped; the quote's token untouched.
        assert history.records[0]["new"] == '"\\u001b52;c;SGVsbG8=\\u0007"'
        assert '"quote":"clipboard=\\u001b]52;c;SGVsbG8=\\u0007"' in main.selection.report.case.raw


async def test_e_is_greyed_when_the_answer_did_not_decode_into_claims(article):
    async with inspecting(article, "trailing-second-object", notifications=True) as pilot:
        app, main = pilot.app, pilot.app.main
        assert main.applies("edit_claim") is None and main.applies("edit_raw") is True
        await pilot.press("e")
        assert app.screen is main
        main.action_edit_claim()  # as the palette would, were it offered there
        await pilot.pause()
        assert app.screen is main
        assert "this answer did not decode into claims: edit its text with E" in notifications(app)


# -- E: the raw editor ------------------------------------------------------------------


async def test_typing_marks_the_decode_error_live_and_shows_the_verdict(article):
    async with inspecting(article, "complete-answer") as pilot:
        app = pilot.app
        await pilot.press("E")
        editor = app.screen.editor
        assert editor.text == app.main.selection.report.case.raw
        assert status(app) == "still ACCEPT" and editor.marks == ()
        await pilot.press("down", "down", "end", "x")  # '    {x'
        await pilot.pause()
        assert status(app) == ("was ACCEPT, now INVALID_JSON/SYNTAX at 3:6 · object keys must be strings "
                               "at 3:6")
        assert editor.marks == (((2, 5), (2, 6)),)
        failed = editor.get_component_rich_style("raw-text--failed")
        line = editor.get_line(2)
        assert [line.plain[span.start:span.end] for span in line.spans if span.style == failed] == ["x"]
        await pilot.press("backspace")
        await pilot.pause()
        assert status(app) == "still ACCEPT" and editor.marks == ()


async def test_a_check_failing_after_decoding_marks_the_member_it_compared(article):
    async with inspecting(article, "complete-answer") as pilot:
        app = pilot.app
        await pilot.press("E")
        editor = app.screen.editor
        start = editor.text.index("5000")
        location = editor.document.get_location_from_index(start)
        editor.replace("5001", location, (location[0], location[1] + 4))
        await pilot.pause()
        assert status(app).startswith("was ACCEPT, now VALUE_MISMATCH (claims[0]) at 5:16")
        (first, last), = editor.marks
        assert editor.document.get_text_range(first, last) == '"5001"'


async def test_ctrl_z_and_ctrl_y_walk_the_editors_own_history(article):
    async with inspecting(article, "complete-answer") as pilot:
        app = pilot.app
        await pilot.press("E")
        editor = app.screen.editor
        original = editor.text
        editor.insert("x", (0, 0))  # a programmatic edit keeps the undo history
        await pilot.pause()
        assert "INVALID_JSON" in status(app)
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert editor.text == original and status(app) == "still ACCEPT"
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert editor.text == "x" + original and "INVALID_JSON" in status(app)


async def test_ctrl_s_applies_the_text_and_esc_asks_before_discarding(article):
    async with inspecting(article, "complete-answer") as pilot:
        app, main = pilot.app, pilot.app.main
        await pilot.press("E")
        editor = app.screen.editor
        start = editor.document.get_location_from_index(editor.text.index("5000"))
        editor.replace("5001", start, (start[0], start[1] + 4))
        await pilot.pause()
        await pilot.press("escape")  # edits not applied: the first Esc says so
        assert isinstance(app.screen, RawEditorScreen)
        assert "unapplied edits: Esc again discards them" in status(app)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is main
        report = main.selection.report
        assert report.actual == "VALUE_MISMATCH" and '"value": "5001"' in report.case.raw
        history = app.session.history(main.browse.current)
        assert history.records == ({"what": "text", "claim": None, "member": None, "old": "0", "new": "1",
                                    "where": "5:20"},)
        assert history.applied[0].what == 'raw edit at 5:20: "0" → "1"'
        assert "was ACCEPT, now VALUE_MISMATCH (claims[0])" in flowing(verdict_text(app))
        assert marked(text_view(app, "#answer-view"), FAILED) == ['"5001"']
        # a second edit starts from the edited answer; Esc twice discards it
        await pilot.press("E", "x", "escape", "escape")
        await pilot.pause()
        assert app.screen is main and main.selection.report is report


async def test_hostile_text_reaches_the_editor_as_markers_and_comes_back_the_same(hostile):
    async with inspecting(hostile, "line-paragraph-separators-literal-accepted") as pilot:
        app, main = pilot.app, pilot.app.main
        raw = main.selection.report.case.raw
        assert "\u2028" in raw
        await pilot.press("E")
        text, _ = screen_text_and_styles(app)
        assert not hidden_characters(text) and "\\u{2028}" in text
        assert status(app) == "still ACCEPT"
        assert from_form(app.screen.editor.text) == raw
        await pilot.press("ctrl+s")  # nothing edited: nothing applied
        await pilot.pause()
        assert app.screen is main and not app.session.history(main.browse.current).changes


async def test_an_answer_that_is_not_utf8_is_refused(bundled):
    async with inspecting(bundled, "not-utf8-ff-byte", "decode", notifications=True) as pilot:
        app, main = pilot.app, pilot.app.main
        assert isinstance(main.selection.report.case.raw, bytes)
        await pilot.press("E")
        await pilot.pause()
        assert app.screen is main
        assert any("not UTF-8" in message for message in notifications(app))


async def test_a_long_answer_is_not_wrapped_and_is_verified_after_the_keystroke(tmp_path):
    data = json.loads(ARTICLE.read_text(encoding="utf-8"))
    case = next(case for case in data["cases"] if case["id"] == "complete-answer")
    answer = json.loads(case["raw"])
    answer["claims"][0]["quote"] = "\u202e" * 5_000  # 40,000 characters in the editor, on one line
    data["cases"] = [{**case, "id": "long", "raw": json.dumps(answer, ensure_ascii=False),
                      "expected": "NO_CITATION"}]
    suite = load_suite(write_suite(tmp_path / "long.json", data))
    async with inspecting([suite], "long") as pilot:
        app = pilot.app
        await pilot.press("E")
        editor = app.screen.editor
        assert not editor.soft_wrap and len(editor.text) > 32_768
        title = Content.from_markup(app.screen.query_one("#raw-panel").border_title).plain
        assert "lines over 4,096 characters are not wrapped" in title
        before = status(app)
        await pilot.press("x")
        await pilot.pause()
        assert status(app) != before and "INVALID_JSON/SYNTAX at 1:1" in status(app)
        assert not hidden_characters(screen_text_and_styles(app)[0])


async def test_the_palette_opens_both_editors(article):
    async with inspecting(article, "complete-answer") as pilot:
        await run_from_palette(pilot, "edit raw")
        assert isinstance(pilot.app.screen, RawEditorScreen)
        await pilot.press("escape")
        await pilot.pause()
        await run_from_palette(pilot, "edit  ·  e")
        assert isinstance(pilot.app.screen, EditClaimScreen)


# -- keys and help ----------------------------------------------------------------------------


async def test_each_editor_binds_its_declared_keys_and_help_lists_them(article):
    async with inspecting(article, "complete-answer") as pilot:
        app = pilot.app
        await pilot.press("e")
        assert isinstance(app.screen, EditClaimScreen) and bound(app.screen) == declared("edit_claim")
        await pilot.press("escape", "E")
        assert isinstance(app.screen, RawEditorScreen) and bound(app.screen) == declared("raw_editor")
    text = help_markdown()
    for screen in ("edit_claim", "raw_editor"):
        assert f"## Keys: {keys.SCREENS[screen].lower()}" in text
        for key in keys.keys_of(screen):
            assert f"- `{key.display}` {key.help}" in text


# -- how they look ------------------------------------------------------------------------------


async def _open(keys_pressed: tuple[str, ...], case_id: str, pilot) -> None:  # noqa: ANN001
    from support.tui import footer_followed, open_id

    await pilot.pause()
    open_id(pilot.app, case_id)
    await pilot.pause()
    for key in keys_pressed:
        await pilot.press(key)
        await pilot.pause()
    for field in pilot.app.screen.query(SafeInput):
        field.cursor_blink = False
    editors = list(pilot.app.screen.query("RawTextArea"))
    for editor in editors:
        editor.cursor_blink = False
    await footer_followed(pilot)


def test_snapshot_the_edit_form(snap_compare):
    from inspector.tui.app import make_app

    app = make_app([load_suite(ARTICLE)])
    assert snap_compare(app, terminal_size=(120, 36),
                        run_before=partial(_open, ("e", "tab", "end", "backspace", "1"), "complete-answer"))


def test_snapshot_the_raw_editor_with_an_error_marked(snap_compare):
    from inspector.tui.app import make_app

    app = make_app([load_suite(ARTICLE)])
    assert snap_compare(app, terminal_size=(120, 36),
                        run_before=partial(_open, ("E", "down", "down", "end", "x"), "complete-answer"))


def test_snapshot_a_hostile_claim_in_the_edit_form(snap_compare):
    from inspector.tui.app import make_app

    app = make_app([load_suite(HOSTILE)])
    assert snap_compare(app, terminal_size=(120, 36), run_before=partial(_open, ("e",), "osc52-value-accepted"))

