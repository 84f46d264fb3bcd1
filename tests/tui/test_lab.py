"""The lab on the main screen: a change of the answer re-verifies at once, every panel
follows, and undo, redo and reset walk the case's history (kept per case)."""

from __future__ import annotations

from support import ARTICLE
from inspector.lab.mutations import MUTATIONS_BY_NAME, answer_of
from inspector.suites.load import load_suite
from inspector.tui.messages import AnswerChanged
from support.tui import flowing, inspecting, number_of, verdict_text, visible_ids


def _mutant(report, name: str, claim: int | None = 0):
    answer = answer_of(report.case.raw, report.case.request, report.suite.registry)
    return next(MUTATIONS_BY_NAME[name].mutants(answer, claim))


async def test_a_mutation_flips_the_verdict_and_undo_redo_reset_walk_back():
    async with inspecting([load_suite(ARTICLE)], "complete-answer") as pilot:
        main = pilot.app.main
        frozen = main.selection.report
        main.post_message(AnswerChanged(_mutant(frozen, "quote.other_line").change()))
        await pilot.pause()
        report = main.selection.report
        assert report.actual == "QUOTE_NOT_SUPPORTING"
        assert main.selection.step.check.id == "quote_supports" and main.selection.claim == 0
        text = flowing(verdict_text(pilot.app))
        assert "was ACCEPT, now QUOTE_NOT_SUPPORTING (claims[0])" in text
        assert "citation-only still accepts" in text and "contract now rejects" in text
        assert "frozen label ACCEPT" in text
        await pilot.press("u")
        assert main.selection.report is frozen and "was ACCEPT" not in verdict_text(pilot.app)
        await pilot.press("ctrl+r")
        assert main.selection.report.actual == "QUOTE_NOT_SUPPORTING"
        await pilot.press("R")
        assert main.selection.report is frozen
        await pilot.press("ctrl+r")
        assert main.selection.report.actual == "QUOTE_NOT_SUPPORTING"


async def test_each_case_keeps_its_edits_while_others_are_opened():
    async with inspecting([load_suite(ARTICLE)], "complete-answer") as pilot:
        main = pilot.app.main
        number = main.browse.current
        main.post_message(AnswerChanged(_mutant(main.selection.report, "value.perturb").change()))
        await pilot.pause()
        edited = main.selection.report
        assert edited.actual.startswith("VALUE_MISMATCH")
        await pilot.press("j")
        assert main.browse.current != number and main.selection.report.parent is None
        await pilot.press("k")
        assert main.browse.current == number and main.selection.report is edited
        # the case list marks the edited case and shows its edited verdict
        from inspector.tui.widgets.case_list import CaseList
        table = pilot.app.screen.query_one(CaseList)
        row = main.browse.row_of(number)
        assert table.cell(row, table.columns[0]) == ("✎", table.cell(row, table.columns[0])[1])
        assert visible_ids(pilot.app)[row] == "complete-answer"


async def test_undo_is_greyed_until_there_is_a_change():
    async with inspecting([load_suite(ARTICLE)], "complete-answer") as pilot:
        main = pilot.app.main
        assert main.applies("undo") is None and main.applies("reset") is None
        main.post_message(AnswerChanged(_mutant(main.selection.report, "claim.drop").change()))
        await pilot.pause()
        assert main.applies("undo") is True and main.applies("redo") is None
        assert number_of(pilot.app, "complete-answer") == main.browse.current


async def test_a_mutation_key_pressed_twice_at_once_walks_to_the_next_variant():
    """Two presses that arrive together (a terminal delivers them in one read) must see
    each other: the second is the next variant, not the first variant again on top."""
    async with inspecting([load_suite(ARTICLE)], "complete-answer") as pilot:
        main = pilot.app.main
        main.action_mutate("quote.other_line")
        main.action_mutate("quote.other_line")
        await pilot.pause()
        history = pilot.app.session.history(main.browse.current)
        assert history.position == 1
        assert "retry_enabled=false" in history.changes[0].what
