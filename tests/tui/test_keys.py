"""Every key is declared once (``keys.KEYS``) with its screen, and each screen
binds exactly its own keys; the app-wide keys work from the main view."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette

from inspector.tui import keys
from inspector.tui.screens.help import HelpScreen
from inspector.tui.screens.summary import SummaryScreen
from inspector.tui.widgets.agreement_table import AgreementTable
from inspector.tui.widgets.summary_table import SummaryTable
from support.tui import TEXTUAL_KEYS, bound, declared, inspecting


# Textual's own bindings of apps and screens (^q, ^c, tab...), which no screen of ours rebinds.

def test_key_ids_are_unique_and_every_screen_is_known():
    assert len({key.id for key in keys.KEYS}) == len(keys.KEYS)
    assert {key.screen for key in keys.KEYS} <= set(keys.SCREENS)
    assert {key.group for key in keys.KEYS} <= set(keys.GROUPS)


@pytest.mark.parametrize("screen", ["main", "review", "summary", "help", "label", "decide", "triage", "pivot",
                                    "bad", "mutation_report", "mutations"])
def test_no_key_is_bound_twice_on_a_screen(screen):
    for on in ("screen", "table", "matrix"):
        names = [name for key in keys.keys_of(screen) if on in key.on.split() for name in key.keys.split(",")]
        assert len(names) == len(set(names)), on


def test_every_list_binds_the_same_movement_keys():
    """j k g G PgDn PgUp (and the arrows, Home, End) on each list screen, bound by its list (the summary's
    agreement matrices too); the mutation report leaves ^d and ^u to its detail.  The mutation menu, whose
    filter field keeps the focus, binds those that type nothing on the screen, before the field."""
    moves = {"j", "down", "k", "up", "g", "home", "G", "end", "pagedown", "pageup"}
    lists = {"triage": "table", "pivot": "table", "bad": "table", "summary": "table matrix",
             "mutation_report": "table", "label": "table"}
    for screen, widgets in lists.items():
        for on in widgets.split():
            table = set(declared(screen, on=on))
            assert moves <= table, (screen, on)
            assert table - moves <= {"ctrl+d", "ctrl+u", "h", "left", "l", "right"}, (screen, on)
        assert not moves & set(declared(screen)), screen  # none left on the screen itself
    menu = {key.keys: key.action for key in keys.keys_of("mutations") if key.priority and key.action.startswith("table(")}
    assert menu == {"down": "table('cursor_down')", "up": "table('cursor_up')", "ctrl+home": "table('first')",
                    "ctrl+end": "table('last')", "pagedown": "table('page_down')", "pageup": "table('page_up')"}


async def test_each_screen_binds_its_declared_keys(article):
    async with inspecting(article) as pilot:
        app = pilot.app
        assert TEXTUAL_KEYS.isdisjoint(name for screen in keys.SCREENS for name in declared(screen))
        assert bound(app) == declared("app")
        # The main view binds its keys and review mode's (which apply only in the mode: Key.when).
        both = declared("main")
        for name, actions in declared("review").items():
            both.setdefault(name, set()).update(actions)
        assert bound(app.main) == both
        await pilot.press("S")
        assert isinstance(app.screen, SummaryScreen)
        assert bound(app.screen) == declared("summary")
        # Its list table binds the movement keys, the agreement's matrices theirs (Key.on).
        assert bound(app.screen.query_one(SummaryTable)) == declared("summary", on="table")
        assert bound(app.screen.query_one(AgreementTable)) == declared("summary", on="matrix")
        await pilot.press("escape", "question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert bound(app.screen) == declared("help")


async def test_the_palette_key_opens_the_palette(article):
    async with inspecting(article) as pilot:
        await pilot.press("ctrl+p")
        assert isinstance(pilot.app.screen, CommandPalette)
        await pilot.press("escape")
        assert pilot.app.screen is pilot.app.main


async def test_quit(article):
    async with inspecting(article) as pilot:
        await pilot.press("q")
    assert pilot.app.return_code == 0
