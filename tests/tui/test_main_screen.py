"""The main screen driven with Pilot: its keys, the filter, explore and pretty
modes, the panels' titles, opening a file, broken suites and single answers.

State is read from the screen's reactives (``browse``, ``selection``,
``explore``, ``pretty``); what each widget draws is in its own test file, the
looks in test_tui_snapshots."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import Input

from support import ARTICLE, FIXTURES
from inspector.reports.tones import Tone
from inspector.suites.load import Suite, load_suite
from inspector.tui.messages import CasesChosen, CheckChosen, FileChosen
from inspector.tui.widgets.case_list import CaseList
from inspector.tui.widgets.checks_panel import ChecksTable
from inspector.tui.widgets.source_text import SourceText
from support.tui import (
    case_id,
    cursor_check,
    flowing,
    inspecting,
    open_id,
    panel_title,
    rendered,
    row_text,
    screen_text_and_styles,
    settled,
    step_id,
    verdict_text,
    visible_ids,
    write_suite,
)


class TestStart:
    async def test_opens_the_first_case_on_its_last_step(self, article):
        async with inspecting(article) as pilot:
            app = pilot.app
            assert case_id(app) == "complete-answer"
            assert step_id(app) == ("coverage", None)
            assert app.main.browse.visible == tuple(range(22)) and app.main.browse.current == 0
            assert app.main.query_one(CaseList).cursor == 0
            assert cursor_check(app) == "coverage"
            assert verdict_text(app).startswith(" ACCEPT ")
            assert not app.main.explore and not app.main.pretty

    async def test_empty_session(self):
        async with inspecting([]) as pilot:
            await pilot.press("j", "n", "f", "F", "r")
            assert pilot.app.main.selection is None
            assert pilot.app.main.browse.visible == ()
            assert panel_title(pilot.app, "#cases-panel") == "cases 0"
            assert pilot.app.is_running


class TestCaseKeys:
    @pytest.mark.parametrize(("forward", "back"), [("j", "k"), ("down", "up")])
    async def test_next_and_previous(self, article, forward, back):
        async with inspecting(article) as pilot:
            app = pilot.app
            await pilot.press(forward, forward)
            assert case_id(app) == "one-field-request"
            assert app.main.browse.current == 2
            assert app.main.query_one(CaseList).cursor == 2
            await pilot.press(back)
            assert case_id(app) == "reordered-claims"
            await pilot.press(back, back)
            assert case_id(app) == "complete-answer"  # stays on the first
            assert app.main.query_one(CaseList).cursor == 0

    @pytest.mark.parametrize(("first", "last"), [("g", "G"), ("home", "end")])
    async def test_first_and_last(self, article, first, last):
        async with inspecting(article) as pilot:
            app = pilot.app
            await pilot.press(last)
            assert case_id(app) == "claim-confidence-member"
            assert app.main.query_one(CaseList).cursor == 21
            await pilot.press(first)
            assert case_id(app) == "complete-answer"
            assert app.main.query_one(CaseList).cursor == 0

    async def test_opening_a_case_selects_its_first_failure(self, article):
        async with inspecting(article, "prod-v1-claims") as pilot:
            assert step_id(pilot.app) == ("revision", 0)
            assert pilot.app.main.selection.tone is Tone.BAD


class TestTraceKeys:
    @pytest.mark.parametrize(("forward", "back"), [("n", "p"), ("right", "left")])
    async def test_step_through_the_trace(self, article, forward, back):
        async with inspecting(article, "prod-v1-claims") as pilot:
            app = pilot.app
            assert step_id(app) == ("revision", 0)
            await pilot.press(back)
            assert step_id(app) == ("scope", 0)
            assert cursor_check(app) == "scope"
            await pilot.press(forward, forward)
            assert step_id(app) == ("value", 0)
            assert app.main.selection.tone is Tone.PENDING  # not reached
            assert cursor_check(app) == "value"

    async def test_ends_of_the_trace(self, article):
        async with inspecting(article) as pilot:
            main = pilot.app.main
            last = main.selection.position
            assert last == len(main.selection.steps) - 1
            await pilot.press("n")
            assert main.selection.position == last
            main.selection = main.selection.at(0)
            await pilot.press("p")
            assert main.selection.position == 0

    async def test_first_failure(self, article):
        async with inspecting(article, "quote-from-other-field") as pilot:
            main = pilot.app.main
            main.selection = main.selection.at(0)
            await pilot.press("f")
            assert step_id(pilot.app) == ("quote_supports", 0)
            assert main.selection.tone is Tone.BAD

    async def test_first_failure_on_an_accepted_answer_is_not_offered(self, article):
        async with inspecting(article) as pilot:
            main = pilot.app.main
            position = main.selection.position
            assert main.check_action("first_failure", ()) is None  # the footer greys the key out
            await pilot.press("f")
            assert main.selection.position == position
            # Nor does the palette offer it.
            from inspector.tui.commands import KeyCommands

            provider = KeyCommands(main)
            offered = [text for text, _, _ in provider._commands()]
            assert not any(text.startswith("First failure") for text in offered)
            assert any(text.startswith("Next step") for text in offered)

    async def test_explore_mode(self, article):
        async with inspecting(article, "prod-v1-claims") as pilot:
            app, main = pilot.app, pilot.app.main
            await pilot.press("F")
            assert main.explore and main.selection.explore
            assert panel_title(app, "#checks-panel") == "checks · explore"
            await pilot.press("n")
            assert step_id(app) == ("value", 0)
            step = main.selection.step
            # Evaluated although after the failure: 2000 is prod-v1's value, so it passes.
            assert not step.reached and step.outcome.value == "passed"
            table = main.query_one(ChecksTable)
            assert table.row_style(table.cursor) == "safe-table--cursor"
            await pilot.press("F")
            assert not main.explore and main.selection.step.outcome.value == "not_reached"
            assert panel_title(app, "#checks-panel") == "checks"

    async def test_explore_mode_holds_for_the_next_case(self, article):
        async with inspecting(article, "prod-v1-claims") as pilot:
            main = pilot.app.main
            await pilot.press("F", "j")
            assert case_id(pilot.app) == "quote-from-other-field"
            assert main.explore and main.selection.explore
            assert len(main.selection.steps) == len(main.selection.report.trace.explore())

    @pytest.mark.parametrize(("forward", "back"), [("right_square_bracket", "left_square_bracket")])
    async def test_claims(self, article, forward, back):
        async with inspecting(article, "complete-answer") as pilot:
            main = pilot.app.main
            main.post_message(CheckChosen("value"))
            await pilot.pause()
            assert step_id(pilot.app) == ("value", 0)
            await pilot.press(forward)
            assert step_id(pilot.app) == ("value", 1)
            assert main.selection.claim == 1
            await pilot.press(forward)
            assert main.selection.claim == 1  # the last claim
            await pilot.press(back)
            assert step_id(pilot.app) == ("value", 0)


class TestFilter:
    async def test_filter_then_enter_opens_the_first_match(self, article):
        async with inspecting(article) as pilot:
            app, main = pilot.app, pilot.app.main
            await pilot.press("slash")
            field = main.query_one("#filter", Input)
            assert field.has_focus and field.has_class("-active")
            await pilot.press(*"scope")  # no binding fires while typing
            assert visible_ids(app) == ["dev-environment-claims", "billing-service-claims"]
            assert main.query_one(CaseList).row_count == 2
            assert panel_title(app, "#cases-panel") == "cases 2/22 · filtered"
            await pilot.press("enter")
            assert case_id(app) == "dev-environment-claims"
            assert not field.has_focus
            await pilot.press("j")
            assert case_id(app) == "billing-service-claims"
            await pilot.press("escape")
            assert len(main.browse.visible) == 22 and main.query_one(CaseList).row_count == 22
            assert not field.has_class("-active")
            assert case_id(app) == "billing-service-claims"
            assert panel_title(app, "#cases-panel") == "cases 22"

    async def test_typing_q_does_not_quit(self, article):
        async with inspecting(article) as pilot:
            await pilot.press("slash", "q", "j")
            assert pilot.app.is_running and pilot.app.main.browse.text == "qj"
            assert case_id(pilot.app) == "complete-answer"

    async def test_escape_while_typing_clears(self, article):
        async with inspecting(article) as pilot:
            main = pilot.app.main
            await pilot.press("slash", "z", "z", "z")
            assert main.browse.visible == ()
            assert "no case matches" in row_text(main.query_one(CaseList), 0)
            await pilot.press("escape")
            assert len(main.browse.visible) == 22
            assert main.browse.text == "" and main.query_one("#filter", Input).value == ""

    async def test_moving_from_a_case_the_filter_hides(self, article):
        async with inspecting(article, "complete-answer") as pilot:
            await pilot.press("slash", *"scope")
            pilot.app.main.set_focus(None)  # leave the field without Enter: the open case stays
            assert case_id(pilot.app) == "complete-answer"
            await pilot.press("j")
            assert case_id(pilot.app) == "dev-environment-claims"  # the next visible case after it

    async def test_clear_filter_only_applies_with_a_filter(self, article):
        async with inspecting(article) as pilot:
            app, main = pilot.app, pilot.app.main
            assert main.check_action("clear_filter", ()) is False
            main.post_message(CasesChosen([3, 4], "two cases"))
            await pilot.pause()
            assert main.check_action("clear_filter", ()) is True
            assert case_id(app) == "real-quote-wrong-value"
            assert panel_title(app, "#cases-panel") == "cases 2/22 · two cases"
            await pilot.press("escape")
            assert not main.browse.filtered and len(main.browse.visible) == 22
            assert main.check_action("clear_filter", ()) is False


class TestPretty:
    async def test_r_toggles_raw_and_pretty(self, article):
        async with inspecting(article, "duplicate-claims-key") as pilot:
            app, main = pilot.app, pilot.app.main
            assert not main.pretty and panel_title(app, "#answer-panel") == "answer · raw"
            await pilot.press("r")
            assert main.pretty and panel_title(app, "#answer-panel") == "answer · pretty"
            await pilot.press("j")  # the mode holds for the next case
            assert main.pretty and case_id(app) == "numeric-value"
            await pilot.press("r")
            assert not main.pretty and panel_title(app, "#answer-panel") == "answer · raw"


class TestTitles:
    """Every piece of text that is joined from parts keeps its spaces."""

    async def test_the_claims_panel_names_the_case_and_its_place(self, article):
        async with inspecting(article, "prod-v1-claims") as pilot:
            assert panel_title(pilot.app, "#claims-panel") == "claims · article 8/22 · prod-v1-claims"
            assert panel_title(pilot.app, "#cases-panel") == "cases 22"
            assert panel_title(pilot.app, "#request-panel") == "request"
            assert panel_title(pilot.app, "#registry-panel") == "registry"
            assert panel_title(pilot.app, "#verdict-panel") == "verdict"


class TestLayout:
    async def test_changing_case_does_not_move_the_panels(self, article):
        # Cited documents known and unknown, sources and verdicts of every length,
        # answers of two claims: each case is a repaint of panels that stay where
        # they are (no layout pass, no jumping).  The claims panel is as tall as
        # the case has claims; these cases all have two.
        async with inspecting(article) as pilot:
            app = pilot.app
            panels = ["#answer-panel", "#answer-view", "#verdict-panel", "#verdict", "#source", "#source-view"]
            await settled(pilot, app.main.query_one("#verdict"))
            regions = None
            for case in ["invented-doc", "billing-not-supplied", "value-in-seconds", "invented-doc",
                         "billing-service-claims", "prod-v1-claims", "complete-answer"]:
                open_id(app, case)
                await settled(pilot, app.main.query_one("#verdict"))
                now = {panel: app.main.query_one(panel).region for panel in panels}
                assert regions is None or now == regions, case
                regions = now
            assert rendered(app.main.query_one(SourceText).query_one("#source-caption")).startswith("prod-v2 text")


class TestBrokenAndSingle:
    async def test_a_suite_with_broken_cases_opens(self, tmp_path: Path):
        data = json.loads(ARTICLE.read_text(encoding="utf-8"))
        data["cases"][0]["expected"] = "[bold]NOPE\x1b[/]"
        path = write_suite(tmp_path / "broken.json", data)
        async with inspecting([load_suite(path, strict=False)]) as pilot:
            app, main = pilot.app, pilot.app.main
            assert main.selection.report.broken and main.selection.steps == ()
            text = verdict_text(app)
            assert "could not be loaded" in flowing(text)
            assert "\x1b" not in text
            await pilot.press("n", "f", "F", "right_square_bracket", "r")  # nothing to step: no error
            assert app.is_running and main.selection.report.broken
            await pilot.press("j")
            assert case_id(app) == "reordered-claims"
            text, _ = screen_text_and_styles(app)
            assert "!" in text
            assert row_text(main.query_one(CaseList), 0).lstrip().startswith("!")

    async def test_single_answer_without_label(self, article):
        suite = article[0]
        case = replace(suite.cases[7], expected=None)
        single = Suite(suite.path, "answer.json", suite.registry, (case,))
        async with inspecting([single]) as pilot:
            assert "no frozen label" in verdict_text(pilot.app)
            assert step_id(pilot.app) == ("revision", 0)


class TestOpenFile:
    async def test_open_another_suite(self, article):
        async with inspecting(article, notifications=True) as pilot:
            app, main = pilot.app, pilot.app.main
            main.post_message(FileChosen(FIXTURES / "hostile.json"))
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert len(app.session.suites) == 2
            assert main.selection.report.suite.name == "hostile"
            added = len(app.session) - 22
            assert main.browse.total == len(main.browse.visible) == 22 + added
            assert main.browse.current == 22  # the new suite's first case
            assert panel_title(app, "#cases-panel") == f"cases {22 + added}"
            assert [n.message for n in app._notifications] == [f"opened hostile: {added} cases"]

    async def test_a_bad_file_is_a_notification(self, article, tmp_path: Path):
        bad = tmp_path / "bad\x1b[2J.json"
        bad.write_text("{not json", encoding="utf-8")
        async with inspecting(article, notifications=True) as pilot:
            app = pilot.app
            app.main.post_message(FileChosen(bad))
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert len(app.session.suites) == 1 and app.main.browse.total == 22
            messages = [n.message for n in app._notifications]
            assert len(messages) == 1 and "invalid JSON" in messages[0]
            assert "\x1b" not in messages[0] and "\\u001b" in messages[0]
            assert case_id(app) == "complete-answer"

