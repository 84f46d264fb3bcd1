"""The inspector app driven with Pilot: every key binding, the mouse, and what each
view highlights on a case that fails each check.  Asserts on state; the looks are
in test_tui_snapshots."""

from __future__ import annotations

import io
import json
import unicodedata
from contextlib import redirect_stdout
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console
from textual.command import CommandPalette
from textual.content import Content
from textual.widgets import Input

from conftest import ARTICLE, FIXTURES
from inspector.cli import main
from inspector.contract.checks import CHECKS
from inspector.suites.load import Suite, load_suite
from inspector.tui import keys
from inspector.tui.app import InspectorApp, make_app
from inspector.tui.scenes import load_bundled
from inspector.tui.screens.help import HelpScreen, help_markdown
from inspector.tui.screens.summary import SummaryScreen, SummaryTable
from inspector.tui.selection import Tone
from inspector.tui.widgets.case_list import CaseList
from inspector.tui.widgets.claims import ClaimsTable
from inspector.tui.widgets.ladder import Ladder, LadderTable
from inspector.tui.widgets.raw_answer import RawAnswer
from inspector.tui.widgets.registry_table import RegistryTable
from inspector.tui.widgets.request_strip import RequestStrip
from inspector.tui.widgets.source_text import SourceText
from inspector.tui.widgets.verdict import LENS_CALLOUT, VerdictView

SIZE = (120, 36)
HIDDEN = {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}


@pytest.fixture(scope="module")
def bundled() -> list[Suite]:
    return load_bundled()


@pytest.fixture(scope="module")
def article() -> list[Suite]:
    return [load_suite(ARTICLE)]


def open_id(app: InspectorApp, case_id: str, suite: str | None = None) -> None:
    number = next(e.number for e in app.session.entries if e.id == case_id and suite in (None, e.suite.name))
    app.open_case(number)


async def run_from_palette(pilot, search: str) -> None:  # noqa: ANN001 - textual's Pilot
    """Open the command palette, type ``search`` and run the best match."""
    await pilot.press("ctrl+p")
    assert isinstance(pilot.app.screen, CommandPalette)
    await pilot.press(*search)
    await pilot.pause(0.3)
    await pilot.press("enter")
    await pilot.pause()


async def settled(pilot, widget) -> None:  # noqa: ANN001 - textual's Pilot and a widget
    """Pause until ``widget`` keeps its size over a few refreshes (layout is done)."""
    size, steady = widget.size, 0
    for _ in range(100):
        await pilot.pause(0.02)
        steady = steady + 1 if widget.size == size else 0
        size = widget.size
        if steady >= 5:
            return
    raise AssertionError(f"{widget!r} kept changing size")


def case_id(app: InspectorApp) -> str:
    assert app.selection is not None
    return app.selection.entry.id


def step_id(app: InspectorApp) -> tuple[str, int | None]:
    assert app.selection is not None and app.selection.step is not None
    return app.selection.step.check.id, app.selection.step.claim


class TestStart:
    async def test_opens_the_first_case_on_its_last_step(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert case_id(app) == "complete-answer"
            assert step_id(app) == ("coverage", None)
            assert app.query_one(CaseList).view == list(range(22))
            assert app.query_one(Ladder).selected_check == "coverage"
            assert "ACCEPT" in app.query_one(VerdictView).text

    async def test_empty_session(self):
        app = make_app([])
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("j", "n", "f", "F", "r")
            assert app.selection is None

    async def test_keys_are_declared_once(self):
        app = make_app([])
        bound = {binding.action for binding in app._bindings.key_to_bindings and
                 [b for bs in app._bindings.key_to_bindings.values() for b in bs]}
        assert {key.action for key in keys.KEYS} <= bound


class TestCaseKeys:
    @pytest.mark.parametrize(("forward", "back"), [("j", "k"), ("down", "up")])
    async def test_next_and_previous(self, article, forward, back):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press(forward, forward)
            assert case_id(app) == "one-field-request"
            assert app.query_one(CaseList).cursor == 2
            await pilot.press(back)
            assert case_id(app) == "reordered-claims"
            await pilot.press(back, back)
            assert case_id(app) == "complete-answer"  # stays on the first

    @pytest.mark.parametrize(("first", "last"), [("g", "G"), ("home", "end")])
    async def test_first_and_last(self, article, first, last):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press(last)
            assert case_id(app) == "claim-confidence-member"
            assert app.query_one(CaseList).cursor == 21
            await pilot.press(first)
            assert case_id(app) == "complete-answer"

    async def test_opening_a_case_selects_its_first_failure(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "prod-v1-claims")
            await pilot.pause()
            assert step_id(app) == ("revision", 0)

    async def test_click_a_case(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.click(CaseList, offset=(5, 4))  # header, then rows 0..: row 3
            await pilot.pause()
            assert case_id(app) == "real-quote-wrong-value"


class TestTraceKeys:
    @pytest.mark.parametrize(("forward", "back"), [("n", "p"), ("right", "left")])
    async def test_step_through_the_trace(self, article, forward, back):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "prod-v1-claims")
            await pilot.pause()
            assert step_id(app) == ("revision", 0)
            await pilot.press(back)
            assert step_id(app) == ("scope", 0)
            assert app.query_one(Ladder).selected_check == "scope"
            await pilot.press(forward, forward)
            assert step_id(app) == ("value", 0)
            assert app.selection.tone is Tone.PENDING  # not reached

    async def test_ends_of_the_trace(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            last = app.selection.position
            await pilot.press("n")
            assert app.selection.position == last
            app._show(app.selection.at(0))
            await pilot.press("p")
            assert app.selection.position == 0

    async def test_first_failure(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "quote-from-other-field")
            await pilot.pause()
            app._show(app.selection.at(0))
            await pilot.press("f")
            assert step_id(app) == ("quote_supports", 0)
            assert app.selection.tone is Tone.FAILED

    async def test_first_failure_on_an_accepted_answer_says_so(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            position = app.selection.position
            app.action_first_failure()
            await pilot.pause()
            assert app.selection.position == position
            assert [n.message for n in app._notifications] == ["accepted: no check failed"]

    async def test_explore_mode(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "prod-v1-claims")
            await pilot.pause()
            await pilot.press("F")
            assert app.explore and app.selection.explore
            await pilot.press("n")
            assert step_id(app) == ("value", 0)
            step = app.selection.step
            # Evaluated although after the failure: 2000 is prod-v1's value, so it passes.
            assert not step.reached and step.outcome.value == "passed"
            table = app.query_one(LadderTable)
            assert table.row_style(table.cursor) == "safe-table--cursor"
            await pilot.press("F")
            assert not app.explore and app.selection.step.outcome.value == "not_reached"

    @pytest.mark.parametrize(("forward", "back"), [("right_square_bracket", "left_square_bracket")])
    async def test_claims(self, article, forward, back):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "complete-answer")
            await pilot.pause()
            app._show(app.selection.at_check(CHECKS[[c.id for c in CHECKS].index("value")]))
            assert step_id(app) == ("value", 0)
            await pilot.press(forward)
            assert step_id(app) == ("value", 1)
            assert app.query_one(ClaimsTable).cursor == 1
            assert app.query_one(ClaimsTable).highlighted == (1, "value", "passed")
            await pilot.press(forward)
            assert app.selection.claim == 1  # the last claim
            await pilot.press(back)
            assert step_id(app) == ("value", 0)

    async def test_click_a_claim_and_a_check(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.click(ClaimsTable, offset=(4, 2))  # header, claim 0, claim 1
            await pilot.pause()
            assert app.selection.claim == 1
            # The article's requests have no scope: no "access allowed" rung.
            row = [c.id for c in app.query_one(LadderTable).checks].index("revision")
            await pilot.click(LadderTable, offset=(12, row))
            await pilot.pause()
            assert step_id(app) == ("revision", 1)


class TestFilter:
    async def test_filter_then_enter_opens_the_first_match(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("slash")
            field = app.query_one("#filter", Input)
            assert field.has_focus and field.has_class("-active")
            await pilot.press(*"scope")  # no binding fires while typing
            assert [app.session.entries[n].id for n in app.query_one(CaseList).view] == [
                "dev-environment-claims", "billing-service-claims"]
            await pilot.press("enter")
            assert case_id(app) == "dev-environment-claims"
            assert not field.has_focus
            await pilot.press("j")
            assert case_id(app) == "billing-service-claims"
            await pilot.press("escape")
            assert len(app.query_one(CaseList).view) == 22
            assert not field.has_class("-active")
            assert case_id(app) == "billing-service-claims"

    async def test_typing_q_does_not_quit(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("slash", "q", "j")
            assert app.is_running and app.filter_text == "qj"
            assert case_id(app) == "complete-answer"

    async def test_escape_while_typing_clears(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("slash", "z", "z", "z")
            assert app.query_one(CaseList).view == []
            await pilot.press("escape")
            assert len(app.query_one(CaseList).view) == 22
            assert app.filter_text == ""

    async def test_clear_filter_only_applies_with_a_filter(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.check_action("clear_filter", ()) is False
            app.choose_cases([3, 4], "two cases")
            await pilot.pause()
            assert app.check_action("clear_filter", ()) is True
            assert case_id(app) == "real-quote-wrong-value"


class TestViewKeys:
    async def test_raw_and_pretty(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "duplicate-claims-key")
            await pilot.pause()
            answer = app.query_one(RawAnswer)
            raw = answer.text
            assert "\n" not in raw
            await pilot.press("r")
            assert app.pretty and answer.text.startswith('{\n  "claims": [')
            marked = [answer.text[m.start:m.end] for m in answer.marks if m.component == "safe-text--failed"]
            assert marked == ['"claims"', '"claims"']
            await pilot.press("r")
            assert answer.text == raw

    async def test_summary_and_enter(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("S")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, SummaryScreen)
            table = screen.query_one(SummaryTable)
            await pilot.pause(0.1)
            assert [(r.label, r.passed, r.total) for r in table.rows[:3]] == [
                ("strict JSON", 17, 22), ("quote in supplied source", 13, 22), ("complete field contract", 3, 22)]
            assert app.check_action("next_step", ()) is False  # main keys rest under the summary
            labels = [r.label for r in table.rows]
            assert labels[3:5] == ["label lens says ANSWER", "⚠ the contract rejects"]
            assert "access allowed" not in labels  # no scope here
            revision = 5 + [c.id for c in CHECKS if not c.needs_scope].index("revision")
            for _ in range(revision):
                await pilot.press("j")
            await pilot.press("enter")
            await pilot.pause()
            assert not isinstance(app.screen, SummaryScreen)
            assert [app.session.entries[n].id for n in app.query_one(CaseList).view] == ["prod-v1-claims"]
            assert case_id(app) == "prod-v1-claims"

    @pytest.mark.parametrize("key", ["question_mark", "f1"])
    async def test_help(self, article, key):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press(key)
            assert isinstance(app.screen, HelpScreen)
            await pilot.press("escape")
            assert not isinstance(app.screen, HelpScreen)

    async def test_palette_jumps_to_a_case(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await run_from_palette(pilot, "prod-v1-claims")
            assert case_id(app) == "prod-v1-claims"

    async def test_palette_filters_by_check(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await run_from_palette(pilot, "first failing check scope")
            view = [app.session.entries[n].id for n in app.query_one(CaseList).view]
            assert view == ["dev-environment-claims", "billing-service-claims"]

    async def test_palette_filters_the_lens_disagreements(self, bundled, audit_report):
        rejects = [(c["suite"], c["id"]) for c in audit_report["cases"] if c["lens_disagrees"]]
        assert rejects
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await run_from_palette(pilot, "lens says ANSWER, contract rejects")
            entries = [app.session.entries[n] for n in app.query_one(CaseList).view]
            assert [(e.suite.name, e.id) for e in entries] == rejects
            assert app.filter_label == "lens ANSWER, contract rejects"

    async def test_quit(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("q")
        assert app.return_code == 0


# One case per check, from the bundled suites: what every view points at.
FAILING = {
    "size": ("decode", "size-8193-units-too-large"),
    "encoding": ("decode", "not-utf8-ff-byte"),
    "depth": ("decode", "depth-17-value-array-too-deep"),
    "syntax": ("article", "trailing-second-object"),
    "duplicate_key": ("article", "duplicate-claims-key"),
    "shape": ("article", "free-text-answer-member"),
    "has_claims": ("article", "empty-claims"),
    "doc_known": ("article", "invented-doc"),
    "authorized": ("access", "not-approved"),
    "doc_supplied": ("article", "billing-not-supplied"),
    "quote_found": ("article", "invented-quote"),
    "unique_field": ("article", "duplicate-timeout-claim"),
    "requested_field": ("article", "extra-max-connections-claim"),
    "scope": ("article", "dev-environment-claims"),
    "revision": ("article", "prod-v1-claims"),
    "value": ("article", "real-quote-wrong-value"),
    "quote_supports": ("article", "quote-from-other-field"),
    "coverage": ("article", "omitted-field"),
}


def test_every_check_has_a_failing_case():
    assert set(FAILING) == {check.id for check in CHECKS}


class TestHighlights:
    @pytest.mark.parametrize("check_id", list(FAILING))
    async def test_views_point_at_what_the_failing_step_compares(self, bundled, check_id):
        suite, case = FAILING[check_id]
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, case, suite)
            await pilot.pause()
            selection = app.selection
            step = selection.step
            assert step is not None and step.check.id == check_id and step.failed
            assert selection.tone is Tone.FAILED
            # The ladder selects the failing check; the detail names it with its fix.
            ladder = app.query_one(Ladder)
            assert ladder.selected_check == check_id
            assert step.label in ladder.detail_text and "fix:" in ladder.detail_text
            # The request strip highlights what the step compares, in the failure tone.
            if step.request_attribute or step.check.request_attribute:
                assert app.query_one(RequestStrip).highlighted == (selection.request_attribute, Tone.FAILED)
            # The claims table: the member read, on the failing claim.
            if step.claim is not None and step.check.claim_member:
                assert app.query_one(ClaimsTable).highlighted == (step.claim, step.check.claim_member, "failed")
            # The registry: the cited source's row and the compared cell.
            source, columns, tone = app.query_one(RegistryTable).highlighted
            if step.source is not None and step.source_attribute not in (None, "text"):
                assert source == step.source and step.source_attribute in columns and tone == "failed"
            # The answer: what the step looked at, in the failure tone.
            answer = app.query_one(RawAnswer)
            failed_marks = [(m.start, m.end) for m in answer.marks if m.component == "safe-text--failed"]
            for span in selection.answer_spans:
                assert (span.start, span.end) in failed_marks
            # The verdict agrees with the frozen label.
            assert "matches the frozen label" in app.query_one(VerdictView).text

    async def test_scope_highlights_environment(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "dev-environment-claims", "article")
            await pilot.pause()
            assert app.query_one(RegistryTable).highlighted == ("dev-v2", frozenset({"environment"}), "failed")
            assert app.query_one(RequestStrip).highlighted == ("environment", Tone.FAILED)

    async def test_scope_highlights_service(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "billing-service-claims", "article")
            await pilot.pause()
            assert app.query_one(RegistryTable).highlighted == ("billing-v2", frozenset({"service"}), "failed")

    async def test_stale_revision(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "prod-v1-claims", "article")
            await pilot.pause()
            assert app.query_one(RegistryTable).highlighted == ("prod-v1", frozenset({"revision"}), "failed")
            assert "STALE_REVISION: request revision v2, prod-v1 is v1" in app.query_one(Ladder).detail_text
            assert "Cite the current revision's document." in app.query_one(Ladder).detail_text

    async def test_value_mismatch_marks_the_fact_and_its_line(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "real-quote-wrong-value", "article")
            await pilot.pause()
            assert app.query_one(RegistryTable).highlighted == (
                "prod-v2", frozenset({"facts.read_timeout_ms"}), "failed")
            source = app.query_one(SourceText)
            text = app.selection.source.text
            assert [text[m.start:m.end] for m in source.marks] == ["read_timeout_ms=5000"]

    async def test_quote_not_found_marks_the_nearest_line(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "invented-quote", "article")
            await pilot.pause()
            source = app.query_one(SourceText)
            assert "not found" in source.caption and "nearest line" in source.caption
            assert [m.component for m in source.marks] == ["safe-text--pending"]

    async def test_quote_found_marks_the_quote(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "complete-answer", "article")
            await pilot.pause()
            app._show(app.selection.at_check(next(c for c in CHECKS if c.id == "quote_found")))
            await pilot.pause()
            source = app.query_one(SourceText)
            text = app.selection.source.text
            assert [(text[m.start:m.end], m.component) for m in source.marks] == [
                ("read_timeout_ms=5000", "safe-text--passed")]

    async def test_doc_supplied_highlights_id_and_supplied(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "billing-not-supplied", "article")
            await pilot.pause()
            assert app.query_one(RegistryTable).highlighted == (
                "billing-v2", frozenset({"id", "supplied"}), "failed")
            assert app.query_one(RequestStrip).highlighted == ("supplied", Tone.FAILED)

    async def test_citation_only_call_out(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "prod-v1-claims", "article")
            await pilot.pause()
            text = app.query_one(VerdictView).text
            assert "citation-only would have accepted this" in text
            assert "accepted nothing" in text
            open_id(app, "complete-answer", "article")
            await pilot.pause()
            text = app.query_one(VerdictView).text
            assert "citation-only would have accepted" not in text
            assert "read_timeout_ms = 5000" in text


# access.json: the case failing each access condition, and the cell it highlights.
ACCESS_FAILURES = {
    "another-tenant-right-value": ("b-prod-v2", "tenant"),
    "not-approved": ("a-unapproved", "approved"),
    "deleted": ("a-deleted", "deleted"),
    "expired": ("a-expired", "expires_at"),
    "expiring-exactly-now": ("a-expiring-now", "expires_at"),
    "reader-not-listed": ("a-bob-only", "readers"),
    "missing-metadata-fails-closed": ("a-no-metadata", "tenant"),
}
ACCESS_COLUMNS = ["tenant", "approved", "deleted", "expires_at", "readers"]


def registry_row(table: RegistryTable, source_id: str) -> int:
    return next(row for row, source in enumerate(table.registry.sources) if source.id == source_id)


def row_text(table, row: int) -> str:
    return table._render_row(row).text


class TestAccess:
    @pytest.mark.parametrize("case", list(ACCESS_FAILURES))
    async def test_the_failing_condition_is_highlighted(self, bundled, case):
        source, condition = ACCESS_FAILURES[case]
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, case, "access")
            await pilot.pause()
            assert app.query_one(Ladder).selected_check == "authorized"
            registry = app.query_one(RegistryTable)
            assert registry.highlighted == (source, frozenset({condition}), "failed")
            # In the failure colour, and only that cell of the row.
            row = registry_row(registry, source)
            styles = {column.key: registry.cell_style(row, column) for column in registry.columns}
            assert styles[condition] == "safe-table--failed"
            assert [key for key, style in styles.items() if style == "safe-table--failed"] == [condition]
            assert app.query_one(RequestStrip).highlighted == ("scope", Tone.FAILED)

    async def test_access_columns_and_scope_only_when_present(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "expired", "access")
            await pilot.pause()
            registry = app.query_one(RegistryTable)
            keys_ = [column.key for column in registry.columns]
            assert keys_[-5:] == ACCESS_COLUMNS
            assert "scope tenant tenant-a, user alice, now 1500" in str(app.query_one(RequestStrip).render())
            # The article's registry records no access metadata; its requests have no scope.
            open_id(app, "prod-v1-claims", "article")
            await pilot.pause()
            assert not set(ACCESS_COLUMNS) & {column.key for column in registry.columns}
            assert "scope" not in str(app.query_one(RequestStrip).render())

    async def test_the_access_rung_only_with_a_scope(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            ladder = app.query_one(Ladder)
            table = app.query_one(LadderTable)
            open_id(app, "expired", "access")
            await pilot.pause()
            assert [c.id for c in table.checks] == [c.id for c in CHECKS]
            assert ladder.selected_check == "authorized"
            open_id(app, "prod-v1-claims", "article")
            await pilot.pause()
            assert "authorized" not in [c.id for c in table.checks]
            assert table.row_count == len(CHECKS) - 1
            # The cursor is on the failing check's row of the shorter ladder.
            assert ladder.selected_check == "revision" == table.rows[table.cursor][0].id
            open_id(app, "no-scope-nothing-filtered", "access")
            await pilot.pause()
            assert "authorized" not in [c.id for c in table.checks]
            open_id(app, "not-approved", "access")
            await pilot.pause()
            assert ladder.selected_check == "authorized"


class TestBesideTheContract:
    async def test_labels_and_policy(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "expired", "access")
            await pilot.pause()
            claims = app.query_one(ClaimsTable)
            assert claims.labels == ("INSUFFICIENT_EVIDENCE", "INSUFFICIENT_EVIDENCE")
            assert row_text(claims, 0).rstrip().endswith("INSUFFICIENT")
            text = app.query_one(VerdictView).text
            assert "label lens    ✗ ABSTAIN" in text
            assert "label lens would answer" not in text
            open_id(app, "contradicting-value", "access")
            await pilot.pause()
            assert claims.labels == ("CONTRADICTED", "SUPPORTED")
            assert claims.cell(0, claims.columns[-1]) == ("CONTRADICTED", "safe-table--bad")
            assert claims.cell(1, claims.columns[-1]) == ("SUPPORTED", "safe-table--good")

    async def test_the_lens_would_answer_a_stale_revision(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "stale-but-supported", "access")
            await pilot.pause()
            assert app.query_one(ClaimsTable).labels == ("SUPPORTED", "SUPPORTED")
            assert app.query_one(RegistryTable).highlighted == ("a-prod-v1", frozenset({"revision"}), "failed")
            text = app.query_one(VerdictView).text
            assert LENS_CALLOUT in text
            assert "label lens    ✓ ANSWER" in text and "contract      ✗ reject" in text
            assert "wrong scope: Regenerate against the requested scope" in text
            assert "generation: the supporting evidence was supplied (recall 1/1)" in text

    async def test_a_conflict_is_flagged(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "conflict-wrong-side", "conflicts")
            await pilot.pause()
            assert app.query_one(ClaimsTable).labels == ("SUPPORTED", "CONTRADICTED")
            text = app.query_one(VerdictView).text
            assert "conflicting evidence: Resolve the registry" in text
            assert "⚠ conflict retry_enabled: ops-prod-v2 says false, wiki-prod-v2 says true" in text
            registry = app.query_one(RegistryTable)
            assert registry.conflicted == {("ops-prod-v2", "retry_enabled"), ("wiki-prod-v2", "retry_enabled")}
            # The compared cell keeps the failure colour; the other side is shaded as a conflict.
            assert registry.highlighted == ("ops-prod-v2", frozenset({"facts.retry_enabled"}), "failed")
            column = next(c for c in registry.columns if c.key == "facts.retry_enabled")
            assert registry.cell_style(registry_row(registry, "wiki-prod-v2"), column) == "registry-table--conflict"
            # A case that does not touch the conflict shades nothing.
            open_id(app, "conflict-not-touched", "conflicts")
            await pilot.pause()
            assert registry.conflicted == frozenset()
            assert "⚠ conflict" not in app.query_one(VerdictView).text

    async def test_an_accepted_case_on_a_conflict_is_flagged_too(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "conflict-cite-ops", "conflicts")
            await pilot.pause()
            text = app.query_one(VerdictView).text
            assert "ACCEPT" in text and "⚠ conflict retry_enabled" in text
            assert "generation" not in text and "retrieval" not in text  # no blame when accepted

    @pytest.mark.parametrize("case, line", [
        ("retrieval-supplied-nothing-relevant",
         "retrieval: no supplied source supports read_timeout_ms, retry_enabled (recall 0/2)"),
        ("retrieval-partial-recall", "generation: the supporting evidence was supplied (recall 1/2)"),
    ])
    async def test_whose_failure_with_the_recall(self, bundled, case, line):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, case, "conflicts")
            await pilot.pause()
            assert line in app.query_one(VerdictView).text

    async def test_retrieval_that_supplied_an_unreadable_document(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "expired", "access")
            await pilot.pause()
            text = app.query_one(VerdictView).text
            assert "unauthorized evidence: Fix access control before retrieval" in text
            assert "retrieval: it supplied a document the scope may not read (recall 1/1)" in text

    async def test_many_disagreeing_documents_are_named_in_part(self, tmp_path: Path):
        data = json.loads((FIXTURES / "conflicts.json").read_text(encoding="utf-8"))
        template = data["sources"][0]
        data["sources"] += [
            {**template, "id": f"copy-{n}", "facts": {**template["facts"], "retry_enabled": f"v{n}"},
             "text": template["text"].replace("retry_enabled=false", f"retry_enabled=v{n}")}
            for n in range(6)
        ]
        path = tmp_path / "many.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        app = make_app([load_suite(path)])
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "conflict-wrong-side")
            await pilot.pause()
            text = app.query_one(VerdictView).text
            assert "… and 4 more documents" in text  # 8 disagree, 4 are named
            assert len(app.query_one(RegistryTable).conflicted) == 8

    async def test_a_narrow_claims_table_shows_the_label_as_a_mark(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            open_id(app, "contradicting-value", "access")
            await pilot.pause()
            claims = app.query_one(ClaimsTable)
            assert claims.columns[-1].key == "mark"
            assert claims.cell(0, claims.columns[-1]) == ("✗", "safe-table--bad")
            assert claims.cell(1, claims.columns[-1]) == ("✓", "safe-table--good")


class TestVerdictView:
    async def test_another_verdict_is_a_repaint_in_a_view_of_fixed_size(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            view = app.query_one(VerdictView)
            open_id(app, "conflict-cite-ops", "conflicts")
            # Coming from the first case (two claims, one here) lays the screen out
            # once; wait until it has (a busy machine takes longer than a pause).
            await settled(pilot, view)
            size, lines = view.size, view.virtual_size.height
            open_id(app, "conflict-wrong-side", "conflicts")
            await pilot.pause(0.2)
            assert view.size == size  # the panel does not grow or shrink with the verdict
            assert view.virtual_size.height != lines
            assert view.virtual_size.height > size.height  # the rest scrolls
            assert view.text.startswith(" VALUE_MISMATCH ")

    async def test_changing_case_does_not_move_the_panels(self, article):
        # Cited documents known and unknown, sources and verdicts of every length,
        # answers of two claims: each case is a repaint of panels that stay where
        # they are (no layout pass, no jumping).  The claims panel is as tall as
        # the case has claims; these cases all have two.
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            panels = ["#answer-panel", "#answer-view", "#verdict-panel", "#verdict", "#source", "#source-view"]
            await settled(pilot, app.query_one("#verdict"))
            regions = None
            for case in ["invented-doc", "billing-not-supplied", "value-in-seconds", "invented-doc",
                         "billing-service-claims", "prod-v1-claims", "complete-answer"]:
                open_id(app, case)
                await pilot.pause(0.1)
                now = {panel: app.query_one(panel).region for panel in panels}
                assert regions is None or now == regions, case
                regions = now
            assert app.query_one(SourceText).caption.startswith("prod-v2 text")

    async def test_the_source_view_is_as_tall_as_the_suites_longest_source(self, bundled):
        def longest(name: str) -> int:
            suite = next(suite for suite in bundled if suite.name == name)
            return max(len(source.text.rstrip("\n").split("\n")) for source in suite.registry)

        assert longest("conflicts") < SourceText.MAX_ROWS < longest("article")
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            view = app.query_one("#source-view")
            open_id(app, "conflict-cite-ops", "conflicts")
            await settled(pilot, view)
            assert view.size.height == longest("conflicts")
            open_id(app, "invented-doc", "article")  # no text to show: the view keeps its place
            await settled(pilot, view)
            assert view.size.height == SourceText.MAX_ROWS  # longer texts scroll

    async def test_keys_scroll_a_verdict_longer_than_the_panel(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            view = app.query_one(VerdictView)
            open_id(app, "stale-but-supported", "access")
            await pilot.pause(0.2)
            where = (case_id(app), step_id(app))
            assert view.max_scroll_y > 0  # the rejection's verdict overflows at 120×36
            half = view.scrollable_content_region.height // 2
            await pilot.press("ctrl+d")
            assert view.scroll_offset.y == min(half, view.max_scroll_y)
            for _ in range(3):
                await pilot.press("pagedown")
            assert view.scroll_offset.y == view.max_scroll_y  # and no further
            await pilot.press("ctrl+u")
            assert view.scroll_offset.y == max(0, view.max_scroll_y - half)
            for _ in range(3):
                await pilot.press("pageup")
            assert view.scroll_offset.y == 0
            assert (case_id(app), step_id(app)) == where  # the case and the step stay
            await pilot.press("ctrl+d")
            open_id(app, "expired", "access")
            await pilot.pause()
            assert view.scroll_offset.y == 0  # another case's verdict starts at its top

    @pytest.mark.parametrize(("suite", "case"), [("decode", "syntax-missing-colon"),  # a rejection
                                                  ("article", "one-field-request")])  # an accept
    async def test_keys_leave_a_verdict_that_fits_alone(self, bundled, suite, case):
        app = make_app(bundled)
        async with app.run_test(size=(120, 48)) as pilot:  # tall enough for either verdict
            await pilot.pause()
            view = app.query_one(VerdictView)
            open_id(app, case, suite)
            await pilot.pause(0.2)
            assert view.max_scroll_y == 0
            where, text = (case_id(app), step_id(app)), view.text
            await pilot.press("ctrl+d", "pagedown", "ctrl+u", "pageup", "ctrl+d")
            assert view.scroll_offset.y == 0
            assert (case_id(app), step_id(app), view.text) == (*where, text)
            assert app.screen is app.screen_stack[0]

    async def test_the_scroll_keys_do_not_steal_from_the_filter_or_the_summary(self, bundled):
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            view = app.query_one(VerdictView)
            open_id(app, "stale-but-supported", "access")
            await pilot.pause(0.2)
            await pilot.press("slash", *"stale", "ctrl+u")
            assert app.query_one("#filter", Input).value == ""  # ^u edits the filter as it types
            assert view.scroll_offset.y == 0
            await pilot.press("escape", "S")
            await pilot.pause()
            assert isinstance(app.screen, SummaryScreen)
            assert app.check_action("scroll_verdict_down", ()) is False
            await pilot.press("ctrl+d")
            assert view.scroll_offset.y == 0

    def test_the_keys_are_in_the_help(self):
        text = help_markdown()
        assert "`^d PgDn` Scroll the verdict panel down" in text and "`^u PgUp`" in text
        assert "Scrolls with `^d` `^u`" in text


class TestJoinedText:
    """Every piece of text that is joined from parts keeps its spaces."""

    async def test_titles_captions_rows_and_verdict(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "prod-v1-claims")
            await pilot.pause()
            title = Content.from_markup(app.query_one("#claims-panel").border_title).plain
            assert title == "claims · article 8/22 · prod-v1-claims"
            assert app.query_one(SourceText).caption == "prod-v1 text"
            table = app.query_one(LadderTable)
            assert "✗ current revision  STALE_REVI…" in row_text(table, table.cursor)
            assert "accepted nothing (an empty map)" in app.query_one(VerdictView).text
            await pilot.press("S")
            await pilot.pause(0.2)
            head = str(app.screen.query_one("#summary-head").render())
            assert head.startswith("Of 22 cases, strict JSON accepts 17, ")
            assert "22/22 verdicts match their frozen labels" in head


@pytest.fixture(scope="module")
def audit_report(bundled) -> dict:
    """What ``inspector audit --format json`` reports on the bundled suites."""
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["audit", "--format", "json", *(str(suite.path) for suite in bundled)]) == 0
    return json.loads(out.getvalue())


async def summary_rows(pilot) -> SummaryTable:
    """The summary's table once its worker has filled it."""
    table = pilot.app.screen.query_one(SummaryTable)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    assert table.rows
    return table


class TestSummaryLens:
    async def test_the_lens_counts_are_the_audits(self, bundled, audit_report):
        cases = audit_report["cases"]
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            for suite in [*bundled, None]:
                mine = [c for c in cases if suite is None or c["suite"] == suite.name]
                answer = sum(c["policy"] == "ANSWER" for c in mine)
                rejects = sum(c["lens_disagrees"] for c in mine)
                if suite is None:
                    assert rejects == audit_report["summary"]["lens_answer_contract_reject"]
                open_id(app, (suite or bundled[0]).cases[0].id, (suite or bundled[0]).name)
                await pilot.press("S")
                if suite is None:
                    await pilot.press("a")  # all suites
                table = await summary_rows(pilot)
                lens = [(r.stage, r.label, r.passed, r.total, r.danger) for r in table.rows[3:5]]
                assert lens == [("lens", "label lens says ANSWER", answer, len(mine), False),
                                ("", "⚠ the contract rejects", rejects, len(mine), True)]
                head = str(app.screen.query_one("#summary-head").render())
                assert f"The label lens says ANSWER to {answer}; the contract rejects {rejects} of those." in head
                await pilot.press("escape")

    async def test_enter_lists_the_cases_the_lens_would_answer_and_the_contract_rejects(
            self, bundled, audit_report):
        rejects = [c["id"] for c in audit_report["cases"] if c["suite"] == "access" and c["lens_disagrees"]]
        app = make_app(bundled)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "expired", "access")
            await pilot.press("S")
            table = await summary_rows(pilot)
            assert table.rows[4].label == "⚠ the contract rejects"
            await pilot.press("j", "j", "j", "j", "enter")
            await pilot.pause()
            assert not isinstance(app.screen, SummaryScreen)
            view = app.query_one(CaseList).view
            assert [app.session.entries[n].id for n in view] == rejects
            assert app.filter_label == "lens ANSWER, contract rejects"
            assert case_id(app) == rejects[0]
            assert LENS_CALLOUT in app.query_one(VerdictView).text

    async def test_no_lens_rows_when_no_claim_was_labelled(self, article):
        # Only the malformed answers: the lens labels no claim, as the access
        # rung is dropped when no case has a scope.
        suite = article[0]
        malformed = tuple(case for case in suite.cases if case.expected.startswith("INVALID_JSON"))
        app = make_app([replace(suite, name="malformed.json", cases=malformed)])
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("S")
            table = await summary_rows(pilot)
            assert "lens" not in [row.stage for row in table.rows]
            assert table.rows[3].label == CHECKS[0].title
            assert "label lens" not in str(app.screen.query_one("#summary-head").render())


def screen_text_and_styles(app: InspectorApp) -> tuple[str, list]:
    console = Console(width=SIZE[0], height=SIZE[1], file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    styles = [segment.style for segment in console._record_buffer if segment.style is not None]
    return console.export_text(), styles


class TestHostile:
    @pytest.mark.parametrize("case", ["click-markup-value-accepted", "osc52-quote-not-found",
                                      "markup-service-scope-mismatch", "nul-del-c1-value-accepted",
                                      "bidi-doc-id-accepted", "line-paragraph-separators-literal-accepted"])
    async def test_shown_literally(self, case):
        app = make_app([load_suite(FIXTURES / "hostile.json", strict=False)])
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, case)
            await pilot.pause()
            for key in ("n", "p", "p", "p"):  # steps draw other highlights
                await pilot.press(key)
            text, styles = screen_text_and_styles(app)
            assert [ch for ch in text.replace("\n", "") if unicodedata.category(ch) in HIDDEN] == []
            # No link, no click action: Textual's own meta is only the offset.
            assert not any(style.link or "@click" in style.meta for style in styles)

    async def test_click_markup_is_text(self):
        app = make_app([load_suite(FIXTURES / "hostile.json", strict=False)])
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "click-markup-value-accepted")
            await pilot.pause()
            text, _ = screen_text_and_styles(app)
            assert "[@click=app.quit]5000[/]" in text
            assert "banner = [@click=app.quit]5000[/]" in app.query_one(VerdictView).text

    async def test_osc52_shown_as_escapes(self):
        app = make_app([load_suite(FIXTURES / "hostile.json", strict=False)])
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            open_id(app, "osc52-quote-not-found")
            await pilot.pause()
            assert "\\u001b]52;c;SGVsbG8=\\u0007" in app.query_one(Ladder).detail_text


class TestBrokenAndSingle:
    async def test_a_suite_with_broken_cases_opens(self, tmp_path: Path):
        data = json.loads(ARTICLE.read_text(encoding="utf-8"))
        data["cases"][0]["expected"] = "[bold]NOPE\x1b[/]"
        path = tmp_path / "broken.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        app = make_app([load_suite(path, strict=False)])
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert app.selection.entry.broken
            assert "could not be loaded" in app.query_one(VerdictView).text
            assert "\x1b" not in app.query_one(VerdictView).text
            await pilot.press("n", "f", "F", "right_square_bracket", "r")  # nothing to step: no error
            await pilot.press("j")
            assert case_id(app) == "reordered-claims"
            text, _ = screen_text_and_styles(app)
            assert "!" in text

    async def test_single_answer_without_label(self, article):
        suite = article[0]
        case = replace(suite.cases[7], expected=None)
        single = Suite(suite.path, "answer.json", suite.registry, (case,))
        app = make_app([single])
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "no frozen label" in app.query_one(VerdictView).text
            assert step_id(app) == ("revision", 0)


class TestOpenFile:
    async def test_open_another_suite(self, article):
        app = make_app(article)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            app.open_suite_file(FIXTURES / "hostile.json")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert len(app.session.suites) == 2
            assert app.selection.entry.suite.name == "hostile"

    async def test_a_bad_file_is_a_notification(self, article, tmp_path: Path):
        bad = tmp_path / "bad\x1b[2J.json"
        bad.write_text("{not json", encoding="utf-8")
        app = make_app(article)
        async with app.run_test(size=SIZE, notifications=True) as pilot:
            await pilot.pause()
            app.open_suite_file(bad)
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert len(app.session.suites) == 1
            messages = [n.message for n in app._notifications]
            assert len(messages) == 1 and "invalid JSON" in messages[0]
            assert "\x1b" not in messages[0] and "\\u001b" in messages[0]


class TestScreenshots:
    def test_write_screenshots_from_the_real_app(self, tmp_path: Path, capsys):
        from inspector.tui.scenes import SCENES, write_all

        chosen = [scene for scene in SCENES if scene.name in ("start", "hostile")]
        assert write_all(tmp_path, chosen) == 0
        written = sorted(p.name for p in tmp_path.iterdir())
        assert written == ["hostile.svg", "start.svg"]
        svg = (tmp_path / "hostile.svg").read_text(encoding="utf-8")
        assert svg.startswith('<svg xml:space="preserve" ')  # rsvg-convert keeps leading spaces
        assert [ch for ch in svg.replace("\n", "") if unicodedata.category(ch) in HIDDEN] == []
        assert "\\u001b" in svg  # the OSC 52 quote, shown as escapes

    def test_unknown_case_in_a_scene_is_an_error(self, tmp_path: Path, capsys):
        from inspector.tui.scenes import Scene, write_all

        assert write_all(tmp_path, [Scene("x", "", ("article", "no-such-case"))]) == 2
        assert "no-such-case" in capsys.readouterr().err
