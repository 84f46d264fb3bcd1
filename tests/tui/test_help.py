"""The help screen: every key of every screen (from ``keys.KEYS``), under the
screen it works on, and each panel's help."""

from __future__ import annotations

import re

import pytest
from inspector.tui import keys
from inspector.tui.screens.help import PANELS, HelpScreen, help_markdown, section_title
from inspector.tui.widgets.help_text import HelpText
from support.tui import flowing, inspecting


def sections() -> dict[str, str]:
    """The help's text per screen, by the screen's title."""
    text = help_markdown()
    found = {}
    for screen, title in keys.SCREENS.items():
        start = text.index(f"## {section_title(screen)}\n")
        rest = text[start + 1:]
        end = re.search(r"^## ", rest, re.MULTILINE)
        found[title] = rest[:end.start()] if end else rest
    return found


def line(key: keys.Key) -> str:
    return f"- `{key.display}` {key.help}\n"


def test_every_screen_has_its_keys_section():
    text = help_markdown()
    titles = re.findall(r"^## Keys: (.+)$", text, re.MULTILINE)
    assert titles == [section_title(screen).removeprefix("Keys: ") for screen in keys.SCREENS]
    assert {key.screen for key in keys.KEYS} == set(keys.SCREENS)


def test_the_section_titles_keep_the_keys_case():
    # the help lowercased its titles, naming l and n where the keys are L and N
    titles = re.findall(r"^## Keys: (.+)$", help_markdown(), re.MULTILINE)
    assert "a decision with a note (N in review mode)" in titles
    assert "a claim's human label (L in review mode)" in titles
    assert "annotating a record (a)" in titles and "the group export (^e)" in titles


@pytest.mark.parametrize("key", keys.KEYS, ids=[key.id for key in keys.KEYS])
def test_every_key_is_listed_under_its_screen(key):
    by_screen = sections()
    assert line(key) in by_screen[keys.SCREENS[key.screen]]
    for screen, title in keys.SCREENS.items():
        if screen != key.screen:
            assert line(key) not in by_screen[title]


def test_the_summary_screens_keys_are_listed():
    summary = sections()["The suite summary"]
    assert [key.id for key in keys.keys_of("summary")] == [
        "summary_down", "summary_up", "summary_first", "summary_last", "summary_page_down", "summary_page_up",
        "summary_left", "summary_right", "summary_cases", "summary_scope", "summary_back"]
    for key in keys.keys_of("summary"):
        assert line(key) in summary


def test_the_main_views_keys_are_grouped():
    main = sections()["The main view"]
    for group in ("Cases", "Trace", "View"):
        assert f"### {group}\n" in main
    assert main.index("### Cases") < main.index("`j ↓`") < main.index("### Trace") < main.index("`n →`")


def test_the_scroll_keys_are_in_the_help():
    text = help_markdown()
    assert "`^d PgDn` Scroll the verdict panel down" in text and "`^u PgUp`" in text
    assert "Scrolls with `^d` `^u`" in text


def test_every_panel_is_described():
    text = help_markdown()
    for panel in PANELS:
        assert f"- {panel.HELP}\n" in text


@pytest.mark.parametrize("key", ["question_mark", "f1"])
async def test_help_opens_and_closes(article, key):
    async with inspecting(article) as pilot:
        app = pilot.app
        await pilot.press(key)
        assert isinstance(app.screen, HelpScreen)
        await pilot.pause()
        text = app.screen.query_one(HelpText)
        shown = flowing("\n".join(strip.text for strip in text.render_lines(text.size.region)))
        for screen in keys.SCREENS:
            assert section_title(screen) in shown
        for every in keys.KEYS:
            assert flowing(every.help) in shown
        assert app.main.check_action("next_case", ()) is False  # the main keys rest under the help
        await pilot.press("escape")
        assert app.screen is app.main


async def test_the_help_closes_with_each_of_its_keys(article):
    async with inspecting(article) as pilot:
        (close,) = [key for key in keys.keys_of("help") if key.action == "dismiss"]
        for name in close.keys.split(","):
            await pilot.press("question_mark")
            assert isinstance(pilot.app.screen, HelpScreen), name
            await pilot.press(name)
            assert pilot.app.screen is pilot.app.main and pilot.app.is_running, name
