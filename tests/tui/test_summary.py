"""The suite summary screen: n/N per rung and for the label lens (the same counts
as ``inspector audit``), first failures per check, and Enter, which goes back
listing the row's cases (the screen dismisses with a ``CasesChosen``)."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from dataclasses import replace

import pytest
from textual.content import Content

from inspector.cli import main
from inspector.contract.checks import CHECKS
from inspector.reports.case import LENS_CALLOUT
from inspector.tui.messages import CasesChosen
from inspector.tui.screens.summary import SummaryScreen
from inspector.tui.widgets.summary_table import SummaryTable
from support.tui import case_id, flowing, inspecting, open_id, panel_title, rendered, verdict_text, visible_ids


@pytest.fixture(scope="module")
def audit_report(bundled) -> dict:
    """What ``inspector audit --format json`` reports on the bundled suites."""
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["audit", "--format", "json", *(str(suite.path) for suite in bundled)]) == 0
    return json.loads(out.getvalue())


async def summary_rows(pilot) -> SummaryTable:  # noqa: ANN001 - textual's Pilot
    """The summary's table once its worker has filled it."""
    table = pilot.app.screen.query_one(SummaryTable)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    assert table.rows
    return table


def title(app) -> str:  # noqa: ANN001 - the app
    return Content.from_markup(app.screen.query_one("#summary-panel").border_title).plain


def head(app) -> str:  # noqa: ANN001 - the app
    return rendered(app.screen.query_one("#summary-head"))


class TestRows:
    async def test_the_article_rungs_then_the_lens_then_the_checks(self, article):
        async with inspecting(article) as pilot:
            app = pilot.app
            await pilot.press("S")
            assert isinstance(app.screen, SummaryScreen)
            table = await summary_rows(pilot)
            assert [(r.label, r.passed, r.total) for r in table.rows[:3]] == [
                ("strict JSON", 17, 22), ("citation-only", 13, 22), ("contract", 3, 22)]
            assert app.main.check_action("next_step", ()) is False  # main keys rest under the summary
            labels = [r.label for r in table.rows]
            assert labels[3:5] == ["label lens says ANSWER", "⚠ the contract rejects"]
            assert "access allowed" not in labels  # no scope here
            assert labels[5:] == [c.title for c in CHECKS if not c.needs_scope]
            text = head(app)
            assert text.startswith("Of 22 cases, strict JSON accepts 17, citation-only 13 (the quote exists in a "
                                   "supplied source), the contract 3.")
            assert "22/22 verdicts match their frozen labels" in text
            assert title(app) == "summary · all suites (article)"

    async def test_a_suite_or_all_of_them(self, bundled):
        async with inspecting(bundled, "expired", "access") as pilot:
            app = pilot.app
            await pilot.press("S")
            table = await summary_rows(pilot)
            assert title(app) == "summary · access"
            access = next(suite for suite in bundled if suite.name == "access")
            assert table.rows[0].total == len(access.cases)
            assert "access allowed" in [r.label for r in table.rows]  # the access suite has scopes
            await pilot.press("a")
            table = await summary_rows(pilot)
            names = ", ".join(suite.name for suite in bundled)
            assert title(app) == f"summary · all suites ({names})"
            assert table.rows[0].total == sum(len(suite.cases) for suite in bundled)

    async def test_enter_lists_a_rows_cases(self, article):
        async with inspecting(article) as pilot:
            app = pilot.app
            await pilot.press("S")
            await summary_rows(pilot)
            revision = 5 + [c.id for c in CHECKS if not c.needs_scope].index("revision")
            for _ in range(revision):
                await pilot.press("j")
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is app.main
            assert visible_ids(app) == ["prod-v1-claims"]
            assert app.main.browse.label == "first failure revision"
            assert case_id(app) == "prod-v1-claims"

    async def test_a_click_on_a_row_lists_its_cases(self, article):
        async with inspecting(article) as pilot:
            app = pilot.app
            await pilot.press("S")
            table = await summary_rows(pilot)
            await pilot.click(SummaryTable, offset=(12, 1))  # under the header: the first row, strict JSON
            await pilot.pause()
            assert app.screen is app.main
            assert app.main.browse.label == table.rows[0].description

    async def test_escape_goes_back_unchanged(self, article):
        async with inspecting(article, "prod-v1-claims") as pilot:
            app = pilot.app
            await pilot.press("S")
            await summary_rows(pilot)
            await pilot.press("j", "escape")
            await pilot.pause()
            assert app.screen is app.main
            assert not app.main.browse.filtered and case_id(app) == "prod-v1-claims"

    async def test_dismissed_with_the_cases_chosen(self, article):
        async with inspecting(article) as pilot:
            app = pilot.app
            results: list[object] = []
            app.push_screen(SummaryScreen(app.session, None), results.append)
            await pilot.pause()
            await summary_rows(pilot)
            await pilot.press("enter")  # the first row: strict JSON accepts
            await pilot.pause()
            (chosen,) = results
            assert isinstance(chosen, CasesChosen)
            assert chosen.description == "strict JSON accepts" and len(chosen.numbers) == 17


class TestLens:
    async def test_the_lens_counts_are_the_audits(self, bundled, audit_report):
        cases = audit_report["cases"]
        async with inspecting(bundled) as pilot:
            app = pilot.app
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
                assert (f"The label lens says ANSWER to {answer}; the contract rejects {rejects} of those."
                        in head(app))
                await pilot.press("escape")

    async def test_enter_lists_the_cases_the_lens_would_answer_and_the_contract_rejects(
            self, bundled, audit_report):
        rejects = [c["id"] for c in audit_report["cases"] if c["suite"] == "access" and c["lens_disagrees"]]
        assert rejects
        async with inspecting(bundled, "expired", "access") as pilot:
            app = pilot.app
            await pilot.press("S")
            table = await summary_rows(pilot)
            assert table.rows[4].label == "⚠ the contract rejects"
            await pilot.press("j", "j", "j", "j", "enter")
            await pilot.pause()
            assert not isinstance(app.screen, SummaryScreen)
            assert visible_ids(app) == rejects
            assert app.main.browse.label == "lens ANSWER, contract rejects"
            assert panel_title(app, "#cases-panel") == f"cases {len(rejects)}/{len(app.session)} · " \
                                                       "lens ANSWER, contract rejects"
            assert case_id(app) == rejects[0]
            assert LENS_CALLOUT in flowing(verdict_text(app))

    async def test_no_lens_rows_when_no_claim_was_labelled(self, article):
        # Only the malformed answers: the lens labels no claim, as the access
        # rung is dropped when no case has a scope.
        suite = article[0]
        malformed = tuple(case for case in suite.cases if case.expected.startswith("INVALID_JSON"))
        async with inspecting([replace(suite, name="malformed.json", cases=malformed)]) as pilot:
            await pilot.press("S")
            table = await summary_rows(pilot)
            assert "lens" not in [row.stage for row in table.rows]
            assert table.rows[3].label == CHECKS[0].title
            assert "label lens" not in head(pilot.app)
