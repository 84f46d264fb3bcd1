"""Which of the main view's keys apply (``presentation.key_state``): the facts of the case shown, read
against what each key declares it needs (``tui.keys.Key``), no terminal."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from typing import get_args

import pytest

from support import ARTICLE
from inspector.presentation.key_state import ALWAYS, Fact, KeyState, Needs
from inspector.presentation.mutation_menu import LabCase
from inspector.presentation.selection import select
from inspector.presentation.session import Session
from inspector.suites.load import load_suite
from inspector.tui import keys
from inspector.tui.commands import ExerciseCommands
from inspector.tui.screens.main import MainScreen

SCREENS = ("review", "main")  # the main view binds both


@pytest.fixture(scope="module")
def session() -> Session:
    return Session([load_suite(ARTICLE)])


def _state(session: Session, case_id: str, *, filtered: bool = False) -> KeyState:
    number = session.find_id(case_id)
    assert number is not None
    return KeyState.of(select(session.report(number), False), session.history(number), filtered=filtered)


def applies(state: KeyState, action: str) -> bool | None:
    """As the main screen asks it (``MainScreen.applies``): the action's declared needs against the state."""
    return state.applies(MainScreen.NEEDS.get(action.partition("(")[0], ALWAYS))


class TestDeclarations:
    def test_the_facts_a_key_can_need_are_the_states_facts(self):
        assert set(get_args(Fact)) == {field.name for field in dataclasses.fields(KeyState)}

    def test_the_keys_of_one_action_declare_the_same_needs(self):
        declared = defaultdict(set)
        for screen in (*SCREENS, "records"):  # a group's records: the main view's keys and its own
            for key in keys.keys_of(screen):
                declared[key.action.partition("(")[0]].add(key.when)
        assert {action: needs for action, needs in declared.items() if len(needs) > 1} == {}
        assert declared["mutate"] == {Needs("changeable")}  # the six mutation shortcuts

    def test_the_main_screen_reads_every_main_view_keys_declaration_and_the_palettes_exercise(self):
        assert MainScreen.NEEDS == {**keys.needs_by_action(*SCREENS), "exercise": ExerciseCommands.NEEDS}
        assert ExerciseCommands.NEEDS == Needs("accepted")

    def test_only_the_main_views_keys_need_anything(self):
        assert all(key.when == ALWAYS for key in keys.KEYS if key.screen not in (*SCREENS, "records"))

    def test_a_groups_records_read_their_own_keys_declarations_over_the_main_views(self):
        from inspector.tui.screens.records import RecordsScreen

        assert RecordsScreen.NEEDS == {**MainScreen.NEEDS, **keys.needs_by_action("records")}
        assert RecordsScreen.NEEDS["next_match"] == Needs("searched", hidden=True)
        assert RecordsScreen.NEEDS["clear_annotation"] == Needs("annotated", hidden=True)

    def test_review_modes_keys_and_those_they_shadow_each_apply_in_one_mode(self, session):
        number = session.find_id("complete-answer")
        selection = select(session.report(number), False)
        browsing = KeyState.of(selection, session.history(number), filtered=False)
        reviewing = KeyState.of(selection, session.history(number), filtered=False, reviewing=True)
        review_only = {key.action.partition("(")[0] for key in keys.keys_of("review")}
        shadowed = {key.action for key in keys.keys_of("main") if key.shadowed}
        assert review_only == {"decide", "decide_with_note", "label_claim", "leave_review", "review_pretty",
                               "review_save"}
        assert shadowed == {"toggle_pretty", "save"}  # r and s: review mode's reject and skip
        for action in review_only | shadowed:
            assert (applies(browsing, action) is not False) is (action in shadowed), action
            assert (applies(reviewing, action) is not False) is (action in review_only), action
        assert applies(reviewing, "decide('accept')") is True and applies(reviewing, "label_claim") is True
        # Esc clears a filter before it leaves review mode.
        filtered = KeyState.of(selection, session.history(number), filtered=True, reviewing=True)
        assert applies(filtered, "clear_filter") is True and applies(filtered, "leave_review") is False

    def test_a_key_that_needs_nothing_always_applies(self):
        assert applies(KeyState(), "next_case") is True and applies(KeyState(), "summary") is True
        assert KeyState().applies(ALWAYS) is True


class TestApplies:
    def test_an_accepted_case(self, session):
        state = _state(session, "complete-answer")
        assert applies(state, "exercise") is True and applies(state, "repair") is None
        assert applies(state, "mutate('quote.other_line')") is True and applies(state, "mutations") is True
        assert applies(state, "first_failure") is None
        assert applies(state, "undo") is None and applies(state, "reset") is None

    def test_a_rejected_case(self, session):
        state = _state(session, "real-quote-wrong-value")
        assert applies(state, "repair") is True and applies(state, "exercise") is None
        assert applies(state, "first_failure") is True

    def test_clear_filter_is_hidden_not_greyed(self, session):
        assert applies(_state(session, "complete-answer"), "clear_filter") is False
        assert applies(_state(session, "complete-answer", filtered=True), "clear_filter") is True

    def test_an_edited_case_can_be_undone_and_reset(self, session):
        number = session.find_id("complete-answer")
        lab = LabCase.of(session, number, 0)
        step = lab.next("claim.drop") if lab is not None else None
        assert step is not None
        session.change(number, step.mutant.change())
        try:
            state = _state(session, "complete-answer")
            assert applies(state, "undo") is True and applies(state, "reset") is True
            assert applies(state, "redo") is None
        finally:
            session.reset(number)

    def test_nothing_shown(self):
        state = KeyState.of(None, None, filtered=False)
        assert applies(state, "edit_claim") is None and applies(state, "save") is None
