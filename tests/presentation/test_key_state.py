"""Which of the main view's keys apply (``presentation.key_state``): one table, no terminal."""

from __future__ import annotations

import pytest

from support import ARTICLE
from inspector.presentation.key_state import HIDDEN, MODES, NEEDS, KeyState
from inspector.presentation.mutation_menu import LabCase
from inspector.presentation.selection import select
from inspector.presentation.session import Session
from inspector.suites.load import load_suite
from inspector.tui import keys


@pytest.fixture(scope="module")
def session() -> Session:
    return Session([load_suite(ARTICLE)])


def _state(session: Session, case_id: str, *, filtered: bool = False) -> KeyState:
    number = session.find_id(case_id)
    assert number is not None
    return KeyState.of(select(session.report(number), False), session.history(number), filtered=filtered)


class TestTable:
    def test_every_need_is_a_fact_of_the_state(self):
        facts = set(KeyState.__dataclass_fields__)
        assert set(NEEDS.values()) <= facts

    def test_every_action_in_the_table_is_a_key_of_the_main_view(self):
        actions = {key.action.partition("(")[0] for screen in ("main", "review") for key in keys.keys_of(screen)} \
            | {"exercise"}  # a palette command
        assert set(NEEDS) <= actions and HIDDEN <= set(NEEDS) and set(MODES) <= actions

    def test_review_modes_keys_and_those_they_shadow_each_apply_in_one_mode(self, session):
        number = session.find_id("complete-answer")
        selection = select(session.report(number), False)
        browsing = KeyState.of(selection, session.history(number), filtered=False)
        reviewing = KeyState.of(selection, session.history(number), filtered=False, reviewing=True)
        for action, review_only in MODES.items():
            assert (browsing.applies(action) is not False) is not review_only, action
            assert (reviewing.applies(action) is not False) is review_only, action
        assert reviewing.applies("decide('accept')") is True and reviewing.applies("label_claim") is True
        # Esc clears a filter before it leaves review mode.
        filtered = KeyState.of(selection, session.history(number), filtered=True, reviewing=True)
        assert filtered.applies("clear_filter") is True and filtered.applies("leave_review") is False

    def test_an_action_not_in_the_table_always_applies(self):
        assert KeyState().applies("next_case") is True and KeyState().applies("summary") is True


class TestApplies:
    def test_an_accepted_case(self, session):
        state = _state(session, "complete-answer")
        assert state.applies("exercise") is True and state.applies("repair") is None
        assert state.applies("mutate('quote.other_line')") is True and state.applies("mutations") is True
        assert state.applies("first_failure") is None
        assert state.applies("undo") is None and state.applies("reset") is None

    def test_a_rejected_case(self, session):
        state = _state(session, "real-quote-wrong-value")
        assert state.applies("repair") is True and state.applies("exercise") is None
        assert state.applies("first_failure") is True

    def test_clear_filter_is_hidden_not_greyed(self, session):
        assert _state(session, "complete-answer").applies("clear_filter") is False
        assert _state(session, "complete-answer", filtered=True).applies("clear_filter") is True

    def test_an_edited_case_can_be_undone_and_reset(self, session):
        number = session.find_id("complete-answer")
        lab = LabCase.of(session, number, 0)
        step = lab.next("claim.drop") if lab is not None else None
        assert step is not None
        session.change(number, step.mutant.change())
        try:
            state = _state(session, "complete-answer")
            assert state.applies("undo") is True and state.applies("reset") is True
            assert state.applies("redo") is None
        finally:
            session.reset(number)

    def test_nothing_shown(self):
        state = KeyState.of(None, None, filtered=False)
        assert state.applies("edit_claim") is None and state.applies("save") is None
