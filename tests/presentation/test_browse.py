"""The case list's state as a value (``Browse``), without a terminal: which cases
are visible, which is current, where the next and previous keys lead, and what
the list's title says."""

from __future__ import annotations

import pytest

from support import ARTICLE, FIXTURES
from inspector.presentation.browse import Browse
from inspector.presentation.session import Session
from inspector.suites.load import load_suite

# The article's cases that mention a scope: the scope-mismatch pair.
SCOPE = ["dev-environment-claims", "billing-service-claims"]


@pytest.fixture(scope="module")
def session() -> Session:
    return Session([load_suite(ARTICLE)])


def number(session: Session, case_id: str) -> int:
    found = session.find_id(case_id)
    assert found is not None
    return found


def ids(session: Session, browse: Browse) -> list[str]:
    return [session.ids[n] for n in browse.visible]


class TestEverything:
    def test_every_case_is_visible_and_none_is_open(self, session):
        browse = Browse.of(session)
        assert browse.visible == tuple(range(22)) and browse.total == 22
        assert browse.current is None and not browse.filtered
        assert (browse.first, browse.last) == (0, 21)
        assert browse.title == "cases 22"
        assert Browse(9547, tuple(range(2147))).title == "cases 2,147/9,547"  # a log's group: read at a glance

    def test_with_nothing_open_next_is_the_first_and_previous_the_last(self, session):
        browse = Browse.of(session)
        assert browse.neighbour(1) == 0
        assert browse.neighbour(-1) == 21

    def test_neighbours_stop_at_the_ends(self, session):
        browse = Browse.of(session)
        assert browse.at(0).neighbour(-1) == 0
        assert browse.at(0).neighbour(1) == 1
        assert browse.at(21).neighbour(1) == 21
        assert browse.at(5).neighbour(-2) == 3

    def test_an_empty_session(self):
        browse = Browse.of(Session([]))
        assert browse.visible == () and browse.first is None and browse.last is None
        assert browse.neighbour(1) is None and browse.neighbour(-1) is None
        assert browse.row_of(0) is None
        assert browse.title == "cases 0"


class TestFilter:
    def test_searching_keeps_the_matches_in_order(self, session):
        browse = Browse.of(session).searching(session, "scope")
        assert ids(session, browse) == SCOPE
        assert browse.filtered and browse.text == "scope"
        assert browse.first == number(session, SCOPE[0]) and browse.last == number(session, SCOPE[1])
        assert browse.title == "cases 2/22 · filtered"

    def test_search_ignores_case_and_surrounding_spaces(self, session):
        assert Browse.of(session).searching(session, "  SCOPE ").visible == \
            Browse.of(session).searching(session, "scope").visible

    def test_nothing_matches(self, session):
        browse = Browse.of(session).at(3).searching(session, "zzz")
        assert browse.visible == () and browse.first is None and browse.last is None
        assert browse.neighbour(1) is None and browse.neighbour(-1) is None
        assert browse.current == 3  # the open case stays open
        assert browse.title == "cases 0/22 · filtered"

    def test_the_neighbour_of_a_case_filtered_out_is_where_it_would_be(self, session):
        browse = Browse.of(session).choosing(session, [3, 9, 15], "three").at(6)
        assert browse.row_of(6) is None
        assert browse.neighbour(1) == 9  # the next visible case after it
        assert browse.neighbour(-1) == 3  # the previous visible case before it
        assert browse.at(0).neighbour(1) == 3 and browse.at(0).neighbour(-1) == 3  # nothing before it
        assert browse.at(21).neighbour(1) == 15 and browse.at(21).neighbour(-1) == 15  # nothing after it
        dev, billing = number(session, SCOPE[0]), number(session, SCOPE[1])
        typed = Browse.of(session).searching(session, "scope")
        assert typed.at(0).neighbour(1) == dev and typed.at(21).neighbour(-1) == billing

    def test_the_neighbour_of_a_visible_case_is_the_next_row(self, session):
        dev, billing = number(session, SCOPE[0]), number(session, SCOPE[1])
        browse = Browse.of(session).searching(session, "scope").at(dev)
        assert browse.row_of(dev) == 0 and browse.row_of(billing) == 1
        assert browse.neighbour(1) == billing and browse.neighbour(-1) == dev
        assert browse.at(billing).neighbour(1) == billing

    def test_clearing_shows_everything_and_keeps_the_open_case(self, session):
        browse = Browse.of(session).at(7).searching(session, "scope").choosing(session, [1, 2], "two")
        cleared = browse.cleared(session)
        assert cleared == Browse.of(session).at(7)
        assert not cleared.filtered and cleared.title == "cases 22"


class TestChosen:
    def test_choosing_shows_those_cases_sorted_with_their_description(self, session):
        browse = Browse.of(session).choosing(session, [9, 3, 4], "first failure revision")
        assert browse.visible == (3, 4, 9) and browse.chosen == (3, 4, 9)
        assert browse.filtered and browse.label == "first failure revision"
        assert browse.title == "cases 3/22 · first failure revision"

    def test_the_typed_filter_narrows_the_chosen_cases(self, session):
        dev = number(session, SCOPE[0])
        chosen = Browse.of(session).choosing(session, [0, dev], "two cases")
        narrowed = chosen.searching(session, "scope")
        assert narrowed.visible == (dev,)
        assert narrowed.title == "cases 1/22 · two cases"  # the chosen filter names itself
        assert narrowed.searching(session, "").visible == (0, dev)  # the choice outlives the text

    def test_choosing_keeps_the_typed_filter(self, session):
        dev = number(session, SCOPE[0])
        browse = Browse.of(session).searching(session, "scope").choosing(session, [0, dev], "two cases")
        assert browse.visible == (dev,) and browse.text == "scope"

    def test_choosing_every_case_still_names_the_choice(self, session):
        browse = Browse.of(session).choosing(session, range(22), "everything")
        assert browse.visible == tuple(range(22))
        assert browse.title == "cases 22 · everything"


class TestGrown:
    def test_a_new_suite_keeps_the_filter_over_all_cases(self, session):
        grown_session = Session([load_suite(ARTICLE)])
        browse = Browse.of(grown_session).searching(grown_session, "scope").at(3)
        added = grown_session.add_suite(load_suite(FIXTURES / "access.json"))
        grown = browse.grown(grown_session)
        assert grown.total == 22 + len(added)
        assert grown.current == 3 and grown.text == "scope"
        assert grown.visible == tuple(grown_session.search("scope"))
        assert any(n in added for n in grown.visible)  # the access suite's cases match "scope" too
