"""The overview on a tool's own log (--log-format NAME): records without an answer are a
group that opens, each on an empty answer with its NO_ANSWER verdict, and a staged format's
records open from their staged lines."""

from __future__ import annotations

from pathlib import Path

from inspector.presentation.overview import triage_run
from inspector.suites.load import load_registry
from inspector.triage.formats.spec import preset
from inspector.triage.formats.stage import stage
from inspector.triage.mapping import LogFormat
from inspector.tui.widgets.claims import ClaimsTable
from inspector.tui.widgets.group_table import GroupTable

from support.tui import counted, make_triage_app, select_group

ROOT = Path(__file__).resolve().parents[2]
FORMATS = ROOT / "fixtures" / "logs" / "formats"
REGISTRY = ROOT / "fixtures" / "logs" / "sample-registry.json"
SIZE = (120, 36)


def app_of(logs: list[str], log_format: LogFormat, given: list[str] | None = None):
    return make_triage_app(triage_run(logs, load_registry(REGISTRY), str(REGISTRY), (), log_format=log_format,
                                      given=given))


async def test_no_answer_is_a_group_whose_records_open_on_an_empty_answer():
    log = str(FORMATS / "openai-responses" / "responses.jsonl")
    async with app_of([log], LogFormat(spec=preset("openai-responses"))).run_test(size=SIZE) as pilot:
        screen = await counted(pilot)
        groups = {group.name: group.records for group in screen.query_one(GroupTable).groups}
        assert groups["NO_ANSWER"] == 4 and groups["reason:NO_ANSWER/REFUSAL"] == 1
        select_group(screen, "reason:NO_ANSWER/REFUSAL")
        await pilot.press("enter")
        await pilot.pause()
        main = pilot.app.screen
        assert main is not screen
        report = main.session.report(0)
        assert (report.verdict.status, report.verdict.reason) == ("NO_ANSWER", "REFUSAL")
        assert report.case.raw == ""
        assert "no_answer_detail" in report.case.note
        assert not main.query_one(ClaimsTable).row_count


async def test_a_staged_formats_records_open_from_their_staged_lines():
    log = str(FORMATS / "inspect" / "config_claims.eval")
    staged = stage([log], preset("inspect"))
    async with app_of(staged.logs, LogFormat(staged=True), [log]).run_test(size=SIZE) as pilot:
        screen = await counted(pilot)
        title = str(screen.query_one("#triage-panel").border_title)
        assert log in title and staged.folder not in title  # the log as given, not its staged copy
        groups = {group.name: group.records for group in screen.query_one(GroupTable).groups}
        assert sum(count for name, count in groups.items() if name.isupper()) == 54
        select_group(screen, "ACCEPT")
        await pilot.press("enter")
        await pilot.pause()
        report = pilot.app.screen.session.report(0)
        assert report.verdict.status == "ACCEPT"
        assert "config_claims.eval" in report.case.note and "samples/22-" in report.case.note
