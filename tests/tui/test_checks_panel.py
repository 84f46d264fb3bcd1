"""The checks panel: its checks (the access check only with a scope), the cursor on
the selected step's check, clicking a check, and the step in words under it."""

from __future__ import annotations

from inspector.contract.checks import CHECKS
from inspector.tui.widgets.claims import ClaimsTable
from inspector.tui.widgets.checks_panel import ChecksTable
from support.tui import cursor_check, inspecting, on_shared_app, open_id, reopened, row_text, step_detail, step_id


class TestRungs:
    @on_shared_app
    async def test_the_access_rung_only_with_a_scope(self, shared_app):
        pilot = await reopened(shared_app, "expired", "access")
        app = pilot.app
        table = app.main.query_one(ChecksTable)
        assert [row.check.id for row in table.rows] == [c.id for c in CHECKS]
        assert table.row_count == len(CHECKS)
        assert cursor_check(app) == "authorized"
        open_id(app, "prod-v1-claims", "article")
        await pilot.pause()
        assert "authorized" not in [row.check.id for row in table.rows]
        assert table.row_count == len(CHECKS) - 1
        # The cursor is on the failing check's row of the shorter panel.
        assert cursor_check(app) == "revision" == app.main.selection.check.id
        open_id(app, "no-scope-nothing-filtered", "access")
        await pilot.pause()
        assert "authorized" not in [row.check.id for row in table.rows]
        open_id(app, "not-approved", "access")
        await pilot.pause()
        assert cursor_check(app) == "authorized"
        assert "access allowed" in row_text(table, table.cursor)

    async def test_the_failing_rung_reads_with_its_reason(self, article):
        async with inspecting(article, "prod-v1-claims") as pilot:
            table = pilot.app.main.query_one(ChecksTable)
            assert "✗ current revision  STALE_REVI…" in row_text(table, table.cursor)


class TestDetail:
    @on_shared_app
    async def test_a_stale_revision_says_what_and_how_to_fix_it(self, shared_app):
        pilot = await reopened(shared_app, "prod-v1-claims", "article")
        detail = step_detail(pilot.app)
        assert "STALE_REVISION: request revision v2, prod-v1 is v1" in detail
        assert "Cite the current revision's document." in detail
        assert " · claims[0] · " in detail.split("\n")[0]

    @on_shared_app
    async def test_a_value_mismatch_says_this_claims_and_sources_values(self, shared_app):
        """The hint check prints, from the same step (Step.fix), shown safely."""
        pilot = await reopened(shared_app, "value-in-seconds", "article")
        assert step_detail(pilot.app).split("\n")[-1] == 'fix: Copy prod-v2\'s read_timeout_ms exactly: "5000", not "5s".'
        open_id(pilot.app, "ansi-color-value-mismatch", "hostile")
        await pilot.pause()
        fix = step_detail(pilot.app).split("\n")[-1]
        assert fix == 'fix: Copy prod-v2\'s read_timeout_ms exactly: "5000", not "\\u001b[31m5000\\u001b[0m".'
        assert "\x1b" not in fix

    async def test_an_explored_step_says_so(self, article):
        async with inspecting(article, "prod-v1-claims") as pilot:
            await pilot.press("F", "n")
            assert step_detail(pilot.app).split("\n") == [
                "✓ value matches · claims[0] · explored · 18/26",
                'claimed "2000", prod-v1 has read_timeout_ms=2000']


class TestClicks:
    async def test_click_a_claim_and_a_check(self, article):
        async with inspecting(article) as pilot:
            app = pilot.app
            await pilot.click(ClaimsTable, offset=(4, 2))  # header, claim 0, claim 1
            await pilot.pause()
            assert app.main.selection.claim == 1
            # The article's requests have no scope: no "access allowed" rung.
            row = [r.check.id for r in app.main.query_one(ChecksTable).rows].index("revision")
            await pilot.click(ChecksTable, offset=(12, row))
            await pilot.pause()
            assert step_id(app) == ("revision", 1)
            assert cursor_check(app) == "revision"
