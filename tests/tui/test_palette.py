"""The command palette: jump to a case, filter the list, run a key's action, open a
file.  Each command posts a message to the main screen."""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout

import pytest

from support import FIXTURES
from inspector.cli import main
from support.tui import case_id, inspecting, panel_title, run_from_palette, visible_ids


@pytest.fixture(scope="module")
def lens_rejects(bundled) -> list[tuple[str, str]]:
    """The cases ``inspector audit`` says the lens would answer and the contract rejects."""
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["audit", "--format", "json", *(str(suite.path) for suite in bundled)]) == 0
    return [(c["suite"], c["id"]) for c in json.loads(out.getvalue())["cases"] if c["lens_disagrees"]]


async def test_jumps_to_a_case(article):
    async with inspecting(article) as pilot:
        await run_from_palette(pilot, "prod-v1-claims")
        assert case_id(pilot.app) == "prod-v1-claims"
        assert pilot.app.main.browse.current == 7 and not pilot.app.main.browse.filtered


async def test_filters_by_check(article):
    async with inspecting(article) as pilot:
        app = pilot.app
        await run_from_palette(pilot, "first failing check scope")
        assert visible_ids(app) == ["dev-environment-claims", "billing-service-claims"]
        assert app.main.browse.label == "first failure scope"
        assert case_id(app) == "dev-environment-claims"
        assert panel_title(app, "#cases-panel") == "cases 2/22 · first failure scope"


async def test_filters_by_verdict_then_clears(article):
    async with inspecting(article) as pilot:
        app = pilot.app
        await run_from_palette(pilot, "verdict ACCEPT")
        assert visible_ids(app) == ["complete-answer", "reordered-claims", "one-field-request"]
        await run_from_palette(pilot, "filter: clear")
        assert not app.main.browse.filtered and len(app.main.browse.visible) == 22


async def test_filters_the_lens_disagreements(bundled, lens_rejects):
    assert lens_rejects
    async with inspecting(bundled) as pilot:
        app = pilot.app
        await run_from_palette(pilot, "lens says ANSWER, contract rejects")
        reports = [app.session.report(n) for n in app.main.browse.visible]
        assert [(r.suite.name, r.id) for r in reports] == lens_rejects
        assert app.main.browse.label == "lens ANSWER, contract rejects"


async def test_runs_a_keys_action(article):
    async with inspecting(article) as pilot:
        await run_from_palette(pilot, "raw/pretty")
        assert pilot.app.main.pretty
        assert panel_title(pilot.app, "#answer-panel") == "answer · pretty"


async def test_opens_a_typed_path(article):
    async with inspecting(article) as pilot:
        app = pilot.app
        await run_from_palette(pilot, f"open {FIXTURES / 'hostile.json'}")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert [suite.name for suite in app.session.suites] == ["article", "hostile"]
        assert app.main.selection.report.suite.name == "hostile"


class TestServed:
    """Served (inspector serve: Textual's web driver, ``is_web``), a session reads only what the server
    was started with: the open command is off, and a path typed or posted opens nothing."""

    @pytest.fixture
    def served(self, monkeypatch, tmp_path):
        from textual.app import App

        monkeypatch.setattr(App, "is_web", property(lambda app: True))
        secret = tmp_path / "elsewhere.json"
        secret.write_text('{"cases": "ghp_0123456789abcdefSECRET"}', "utf-8")
        return secret

    async def test_the_open_command_is_off_and_says_so(self, article, served):
        from inspector.tui.commands import OpenCommands

        async with inspecting(article, notifications=True) as pilot:
            app = pilot.app
            provider = OpenCommands(app.screen)
            offered = [hit.text async for hit in provider.discover()]
            assert offered == ["Open a file: off in a served session"]
            assert [hit async for hit in provider.search(f"open {served}")] == []
            assert [hit async for hit in provider.search(str(FIXTURES / "hostile.json"))] == []
            await run_from_palette(pilot, f"open {FIXTURES / 'hostile.json'}")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert [suite.name for suite in app.session.suites] == ["article"]

    async def test_a_file_posted_is_not_read(self, article, served):
        from inspector.tui.commands import SERVED_OPEN_OFF
        from inspector.tui.messages import FileChosen

        async with inspecting(article, notifications=True) as pilot:
            app = pilot.app
            app.main.post_message(FileChosen(served))
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert [suite.name for suite in app.session.suites] == ["article"]
            said = [notification.message for notification in app._notifications]
            assert said == [SERVED_OPEN_OFF]
            assert not any("ghp_" in message for message in said)
