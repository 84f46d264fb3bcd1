"""The inspector on a triage: the overview of a log's groups (counts from the
engine's summary, filling in live from a worker, sortable, filterable, the time
histogram, the bad lines), and a group's records in the main view (j/k through
them, the metadata shown, the lab working, Esc back)."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest
from textual.content import Content
from textual.widgets import Input

from support import ANSWERS, FIXTURES, PAYMENTS_REGISTRY, PAYMENTS_REQUEST, decoded, one_line_error, run_cli, run_main
from inspector.lab.mutations import MUTATIONS_BY_NAME, answer_of
from inspector.suites.load import load_registry
from inspector.triage import run as engine_run
from inspector.presentation.overview import triage_run
from inspector.triage.groups import GroupKind
from inspector.triage.synth import write_log, write_registry
from inspector.triage.timeline import parse_time
from inspector.tui.app import make_triage_app
from inspector.tui import keys
from inspector.tui.messages import AnswerChanged
from inspector.tui.scenes import SteadyEngine
from inspector.tui.screens.bad_lines import BadLinesScreen
from inspector.tui.screens.records import RecordsScreen
from inspector.tui.screens.triage import TriageScreen
from inspector.tui.widgets.bad_lines_table import BadLinesTable
from inspector.tui.widgets.group_table import GroupTable
from inspector.tui.widgets.record_strip import RecordStrip
from inspector.tui.widgets.time_table import TimeTable
from inspector.tui.widgets.verdict import VerdictView
from inspector.reports.tones import Tone
from support.tui import (
    SIZE,
    app_for,
    counted,
    export_form,
    flowing,
    hidden_characters,
    registry_highlight,
    row_text,
    screen_text_and_styles,
    select_group,
    submitted,
    time_of,
)
from support.waiting import until

ESC, RLO = "\x1b", "\u202e"
SAMPLE = (FIXTURES / "logs" / "sample.jsonl", FIXTURES / "logs" / "sample-registry.json")


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    folder = tmp_path_factory.mktemp("triage-tui")
    registry = write_registry(folder / "registry.json")
    mix = write_log(folder / "app.jsonl", 600, seed=11)
    return folder, registry, mix


def record(answer: str, **meta) -> str:
    return json.dumps({**meta, "raw": (ANSWERS / answer).read_text(),
                       "request": json.loads(PAYMENTS_REQUEST.read_text())})





def drawn_verdict(screen) -> str:
    """The verdict panel's whole text as drawn (wrapping undone), whatever it is scrolled to."""
    view = screen.query_one(VerdictView)
    top = int(view.scroll_offset.y)
    return flowing(" ".join(view.render_line(y).text for y in range(-top, view.virtual_size.height - top)))


def drawn_groups(screen: TriageScreen) -> list[tuple[str, str]]:
    """(name, count) of every row as the groups table draws its cells."""
    table = screen.query_one(GroupTable)
    columns = {column.key: column for column in table.columns}
    def name(row: int) -> str:
        drawn = table.cell(row, columns["group"])
        if isinstance(drawn, list):  # a claim's check, field and document, in their columns
            return "claim:" + "/".join("".join(text for text, _ in drawn).split())
        return drawn

    return [(name(row), table.cell(row, columns["records"])[0]) for row in range(table.row_count)]


def drawn_cells(table: GroupTable, key: str) -> list[str]:
    """Every row's cell of column ``key`` as drawn on screen (each row scrolled into view in turn)."""
    index = next(i for i, column in enumerate(table.columns) if column.key == key)
    start, width = table._starts[index], table._widths[index]
    cells = []
    for row in range(table.row_count):
        table.scroll_to_row(row)
        cells.append(row_text(table, row)[start:start + width].strip())
    return cells


class TestOverviewLayout:
    """What the rows show at 120 and 80 columns, on the bundled sample log (issue 20)."""

    async def test_at_120_columns_a_claim_is_its_check_field_and_document_the_histogram_giving_way(self):
        # issue 34: "claim:STA…eout_ms/auth-prod-v1" told neither the check nor the field
        async with app_for(*SAMPLE, "model").run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            table = screen.query_one(GroupTable)
            await pilot.pause()
            assert screen.query_one("#time-panel").display is False  # its 42 columns gave way to the names
            assert [column.key for column in table.columns] == ["kind", "group", "bar", "records", "rate", "rejected"]
            names = drawn_cells(table, "group")
            assert len(set(names)) == len(names) == len(table.groups)
            assert "STALE_REVISION" in names and "model=claude-y" in names  # short names whole
            assert "reason:INVALID_JSON/MISSING_MEMBER" in names  # no name cut
            claims = [(group, drawn) for group, drawn in zip(table.groups, names, strict=True)
                      if group.kind is GroupKind.CLAIM]
            assert claims and all(drawn.split() == group.name.removeprefix("claim:").split("/")
                                  for group, drawn in claims)
            row = next(row for row, group in enumerate(table.groups)
                       if group.name == "claim:STALE_REVISION/pool_size/auth-staging-v1")
            table.scroll_to_row(row)
            await pilot.pause()
            starts = {(row_text(table, at).index(f" {field} "), row_text(table, at).index(f" {doc}"))
                      for at in (row, row + 1)
                      for _, field, doc in [table.groups[at].name.split("/")]}
            assert len(starts) == 1  # the fields and the documents start in one column
            select_group(screen, table.groups[row].name)
            await pilot.pause()
            assert screen.query_one("#groups-name").render().plain == "claim:STALE_REVISION/pool_size/auth-staging-v1"

    async def test_with_short_names_the_histogram_stays_beside_the_groups(self, tmp_path):
        log = tmp_path / "short.jsonl"
        log.write_text("\n".join(record("accept.json", ts="2026-12-01T00:00:00Z")
                                 for _ in range(5)) + "\n")
        async with app_for(log, PAYMENTS_REGISTRY).run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            await time_of(pilot, screen, screen.query_one(GroupTable).current.name)
            await pilot.pause()
            assert screen.query_one("#time-panel").display is True

    @pytest.mark.parametrize("size", [(80, 24), (60, 24)])
    async def test_narrow_every_row_shows_its_count_the_histogram_and_the_bar_give_way(self, size):
        async with app_for(*SAMPLE, "model").run_test(size=size) as pilot:
            screen = await counted(pilot)
            table = screen.query_one(GroupTable)
            assert screen.query_one("#time-panel").display is False  # the records carry ts: shown when wide
            assert "records" in table.render_line(0).text.split()  # the header
            assert drawn_cells(table, "records") == [f"{group.records:,}" for group in table.groups]
            if size[0] == 80:  # the histogram, the bar, the rate and the rejected gave way to the claims' columns
                names = drawn_cells(table, "group")
                assert len(set(names)) == len(names)
                assert "reason:INVALID_JSON/MISSING_MEMBER" in names
                assert [column.key for column in table.columns] == ["kind", "group", "records"]
                for group, drawn in zip(table.groups, names, strict=True):
                    if group.kind is GroupKind.CLAIM:  # the check and the field whole; the document's head and tail
                        check, field, doc = group.name.removeprefix("claim:").split("/")
                        shown = drawn.split()
                        assert shown[:2] == [check, field]
                        head, cut, tail = shown[2].partition("…")
                        assert shown[2] == doc or (cut and doc.startswith(head) and doc.endswith(tail)
                                                   and len(head) >= 4 and len(tail) >= 8)

    async def test_o_sorts_by_rejections_the_passing_groups_last_and_the_title_says_so(self):
        async with app_for(*SAMPLE, "model").run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            table = screen.query_one(GroupTable)
            await pilot.press("o")
            assert "by rejections" in screen.query_one("#groups-title").render().plain
            names = drawn_cells(table, "group")
            # blame:generation 143 rejected records, citation-only's false accepts 82, then model=gpt-x:
            # 78 of its 149 records rejected (above INVALID_JSON's 60, below it by count)
            assert names[:3] == ["blame:generation", "false_accept:citation_only", "model=gpt-x"]
            assert names.index("model=gpt-x") < names.index("INVALID_JSON") < names.index("scope:auth/prod/v3")
            passing = {"ACCEPT", "rung:strict_json", "rung:citation_only", "rung:contract", "bad"}
            assert set(names[-len(passing):]) == passing

    async def test_rejected_is_filled_wherever_it_means_something_and_the_help_says_what(self):
        from inspector.tui.screens.help import help_markdown

        async with app_for(*SAMPLE, "model").run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            table = screen.query_one(GroupTable)
            drawn = dict(zip(drawn_cells(table, "group"), drawn_cells(table, "rejected"), strict=True))
            assert drawn["model=gpt-x"] == "✗ 78 52%"  # 78 of its own 149 records
            assert drawn["scope:auth/prod/v3"] == "✗ 14 64%"  # 14 of 22
            assert drawn["INVALID_JSON"] == drawn["blame:generation"] == drawn["false_accept:citation_only"] == "✗ all"
            assert drawn["ACCEPT"] == "·"
            assert drawn["rung:contract"] == drawn["bad"] == ""
        assert "its rejected records and their share of *its own* records" in help_markdown()


class TestOverview:
    async def test_its_counts_are_the_headless_summary(self, made, capsys):
        folder, registry, mix = made
        status, out, err = run_main(capsys, "triage", folder / "app.jsonl", "--registry", registry, "--by", "model",
                                    "--format", "json")
        assert status == 0, err
        document = json.loads(out)
        app = app_for(folder / "app.jsonl", registry, "model")
        async with app.run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            assert drawn_groups(screen) == [(group["group"], f"{group['records']:,}") for group in document["groups"]]
            head = screen.query_one("#triage-head").render().plain
            assert f"{document['lines']:,} lines" in head and f"{document['records']:,} records" in head
            assert f"{document['bad_lines']:,} bad lines" in head and "done" in head
            assert f"ACCEPT {document['by_check']['ACCEPT']:,}" in head
            assert f"citation-only false accepts {document['citation_only_false_accepts']:,}" in head
            # every kind of group the issue names is there
            kinds = {group.kind for group in screen.query_one(GroupTable).groups}
            assert kinds == {"check", "reason", "claim", "scope", "by", "blame", "category", "rung",
                             "false_accept", "bad"}
            assert mix.records == document["records"]

    async def test_sorted_by_kind_count_or_name_and_filtered_after_slash(self, made):
        folder, registry, _ = made
        async with app_for(folder / "app.jsonl", registry, "model").run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            table = screen.query_one(GroupTable)
            by_kind = [group.name for group in table.groups]
            assert by_kind[0] == "INVALID_JSON" and by_kind[-1] == "bad"
            await pilot.press("o")
            assert "by rejections" in screen.query_one("#groups-title").render().plain
            await pilot.press("o")
            counts = [group.records for group in table.groups]
            assert counts == sorted(counts, reverse=True)
            assert "by count" in screen.query_one("#groups-title").render().plain
            await pilot.press("o")
            names = [group.name for group in table.groups]
            assert names == sorted(names, key=str.casefold)
            await pilot.press("o")
            assert [group.name for group in table.groups] == by_kind
            # a letter is not the filter (G is "last", as on every screen): / starts it
            await pilot.press("slash", "m", "o", "d", "e", "l", "=")
            assert [group.name for group in table.groups] == ["model=gpt-x", "model=claude-y", "model=llama-z"]
            assert "filter model=" in screen.query_one("#groups-title").render().plain
            await pilot.press("enter")  # back to the groups: j and k move again
            await pilot.press("j")
            assert table.current.name == "model=claude-y"
            await pilot.press("escape")
            assert [group.name for group in table.groups] == by_kind
            await pilot.press("slash", "x", "y", "z", "q")
            assert table.groups == [] and row_text(table, 0).strip().startswith("no group matches")

    async def test_the_movement_keys_of_every_screen(self, made):
        folder, registry, _ = made
        async with app_for(folder / "app.jsonl", registry, "model").run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            table = screen.query_one(GroupTable)
            last = len(table.groups) - 1
            await pilot.press("G")
            assert table.cursor == last and table.current.name == "bad"
            assert not screen.filter_text and not screen.query_one("#triage-filter").has_focus
            await pilot.press("g")
            assert table.cursor == 0
            page = table.scrollable_content_region.height - 2
            await pilot.press("pagedown")
            assert table.cursor == page
            await pilot.press("ctrl+d", "ctrl+d", "ctrl+d", "ctrl+d", "ctrl+d")
            assert table.cursor == min(last, 6 * page)
            await pilot.press("pageup")
            assert table.cursor == max(0, min(last, 6 * page) - page)
            await pilot.press("end")
            assert table.cursor == last
            top = int(table.scroll_offset.y)
            assert top <= last < top + table.scrollable_content_region.height  # the cursor is in view
            await pilot.press("home")
            assert table.cursor == 0 and int(table.scroll_offset.y) == 0

    async def test_the_bad_lines_are_a_group_listing_file_line_and_reason(self, made):
        folder, registry, mix = made
        async with app_for(folder / "app.jsonl", registry).run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            bad = screen.query_one(GroupTable).groups[-1]
            assert (bad.name, bad.records) == ("bad", len(mix.bad))
            select_group(screen, "bad")
            await pilot.press("enter")
            assert isinstance(pilot.app.screen, BadLinesScreen)
            table = pilot.app.screen.query_one(BadLinesTable)
            assert [(file, line) for file, line, _ in table.bad] == [(str(folder / "app.jsonl"), line)
                                                                    for line, _ in mix.bad]
            first_line, first_kind = mix.bad[0]
            drawn = row_text(table, 0)
            assert "app.jsonl" in drawn and f"{first_line:,}" in drawn and first_kind in drawn
            await pilot.press("escape")
            assert pilot.app.screen is screen

    async def test_past_the_bounds_the_overview_says_how_many_and_where_the_rest_are(self, made, tmp_path,
                                                                                    monkeypatch):
        # issue 17: the first 1,000 bad lines listed (the count says every one); --by id past its bound
        from inspector.triage import tally

        folder, registry, mix = made
        monkeypatch.setattr(tally, "BY_VALUES", 5)
        log = tmp_path / "hostile.jsonl"
        log.write_bytes((folder / "app.jsonl").read_bytes() + b"junk\n" * 1200)
        every = len(mix.bad) + 1200
        async with app_for(log, registry, "id").run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            assert f"{every:,} bad lines" in str(screen.query_one("#triage-head").render())
            title = str(screen.query_one("#groups-title").render())
            assert "--by id has more values than are kept: the rest are other:id" in title
            other = next(group for group in screen.query_one(GroupTable).groups if group.name == "other:id")
            assert other.records == mix.records - 5
            select_group(screen, "bad")
            await pilot.press("enter")
            assert isinstance(pilot.app.screen, BadLinesScreen)
            assert len(pilot.app.screen.query_one(BadLinesTable).bad) == 1000
            assert f"bad lines · {every:,} (counted, never dropped) · the first 1,000 listed" in \
                str(pilot.app.screen.query_one("#bad-panel").border_title)
            await pilot.press("escape")
            select_group(screen, "other:id")
            await pilot.press("enter")
            assert isinstance(pilot.app.screen, RecordsScreen)
            assert len(pilot.app.screen.session) == mix.records - 5

    async def test_the_time_histogram_follows_the_selected_group_and_none_without_timestamps(self, made, tmp_path,
                                                                                            capsys):
        folder, registry, mix = made
        status, out, _ = run_main(capsys, "triage", str(folder / "app.jsonl"), "--registry", str(registry),
                                  "--format", "json", "--series")
        headless = {group["group"]: group for group in json.loads(out)["groups"]}
        # (wide enough for the claims' columns beside the histogram: at 120 it gives way to them)
        async with app_for(folder / "app.jsonl", registry).run_test(size=(160, 36)) as pilot:
            screen = await counted(pilot)
            assert screen.query_one("#time-panel").has_class("-shown")
            table = screen.query_one(TimeTable)
            for name in ("VALUE_MISMATCH", "model=gpt-x" if "model=gpt-x" in headless else "ACCEPT", "ACCEPT"):
                if name not in headless:
                    continue
                select_group(screen, name)
                shown = await time_of(pilot, screen, name)
                assert [(bar.records, bar.rejected) for bar in shown.histogram.bars] == \
                    list(zip(headless[name]["series"]["records"], headless[name]["series"]["rejected"]))
                title = screen.query_one("#time-title").render().plain
                assert title.startswith("time · group · per hour · 12-01 – 12-02")
            first = next(row for row in range(table.row_count) if shown.histogram.bars[row].records)
            whole = shown.whole.bars[first].records
            assert row_text(table, first).rstrip().endswith(f"{round(100 * shown.histogram.bars[first].records / whole)}%")
            select_group(screen, "bad")  # the bad lines have no time: every record's histogram
            shown = await time_of(pilot, screen, None)
            assert sum(b.records for b in shown.histogram.bars) == mix.records - mix.no_ts
            assert screen.query_one("#time-title").render().plain.startswith("time · all · per hour")
            assert row_text(table, 0).startswith("12-01 00:00")
        plain = tmp_path / "no-ts.jsonl"
        plain.write_text(record("accept.json", id="a") + "\n" + record("value-mismatch.json") + "\n")
        async with app_for(plain, PAYMENTS_REGISTRY).run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            assert screen.counted.summary.records == 2
            assert not screen.query_one("#time-panel").has_class("-shown")
            assert "from (UTC)" not in screen_text_and_styles(pilot.app)[0]

    async def test_an_empty_log_is_zero_records(self, tmp_path):
        empty = tmp_path / "empty.jsonl"
        empty.write_bytes(b"")
        async with app_for(empty, PAYMENTS_REGISTRY).run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            assert "0 lines" in screen.query_one("#triage-head").render().plain
            assert all(group.records == 0 for group in screen.query_one(GroupTable).groups)
            await pilot.press("enter")  # the first group (a rung) holds nothing: nothing opens
            assert pilot.app.screen is screen


class TestWorker:
    async def test_progress_fills_in_and_esc_stops_keeping_what_was_counted(self, made, monkeypatch):
        folder, registry, mix = made
        gate = threading.Event()
        tasks = [0]
        work = engine_run._work

        def gated(task):
            tasks[0] += 1
            if tasks[0] > 2:
                gate.wait(10)  # the third task waits until the test has pressed Esc
            return work(task)

        monkeypatch.setattr(engine_run, "_work", gated)
        app = app_for(folder / "app.jsonl", registry, workers=1, task_bytes=16 * 1024, progress_every=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = app.overview
            await until(pilot, lambda: screen.counted is not None, "the first counts shown", timeout=10)
            partial = screen.counted
            assert partial is not None and not partial.done and 0 < partial.lines < mix.lines
            head = screen.query_one("#triage-head").render().plain
            assert "verifying… Esc stops" in head and "records/s" in head
            progress = screen.query_one("#triage-progress")
            drawn = progress.render().plain
            share = int(drawn.rstrip("%").split()[-1])
            assert 0 < share < 100 and "█" in drawn and not progress.has_class("-finished")
            # the groups are already there, with the partial counts
            assert drawn_groups(screen)[0][0] == "INVALID_JSON"
            # a key is answered while the worker runs
            await pilot.press("o")
            assert screen.sort == "rejections"
            await pilot.press("escape")
            gate.set()
            final = (await counted(pilot)).counted
            assert final.cancelled and final.lines < mix.lines
            summary = final.summary
            assert summary.records + len(final.bad) == final.lines  # every line counted is in the counts
            assert summary.records == sum(summary.by_check.values()) > 0
            assert "stopped" in screen.query_one("#triage-head").render().plain
            assert progress.has_class("-finished")
            # and its groups open
            select_group(screen, "ACCEPT")
            await pilot.press("enter")
            assert isinstance(pilot.app.screen, RecordsScreen)
            assert len(pilot.app.screen.session) == summary.by_check["ACCEPT"]


    async def test_with_a_window_the_cursor_stays_on_the_first_row_in_view_and_enter_opens_it(self, made):
        """Issue 20: with --since, the first snapshots hold no record in the window (only the empty rungs), and
        the cursor used to stay on the group first shown there (rung:strict_json) as the groups grew around
        it: opened scrolled to the middle, the cursor off screen, Enter opening a rung."""
        folder, registry, mix = made
        lines = (folder / "app.jsonl").read_text().splitlines()
        since = next(json.loads(line)["ts"] for line in lines[len(lines) // 2:] if '"ts"' in line)
        run = triage_run([str(folder / "app.jsonl")], load_registry(registry), str(registry),
                         since=parse_time(since), workers=1, task_bytes=8 * 1024, progress_every=0)
        async with make_triage_app(run).run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            table = screen.query_one(GroupTable)
            assert screen.counted.summary.tally.outside > 0
            assert table.cursor == 0 and table.scroll_offset.y == 0
            first = table.groups[0]
            assert first.name == "INVALID_JSON" and screen.query_one("#groups-name").render().plain == first.name
            await pilot.press("enter")
            assert isinstance(pilot.app.screen, RecordsScreen) and pilot.app.screen.group.name == first.name
            await pilot.press("escape")
            await pilot.press("j", "j")  # moved: the cursor stays on its group as the counts reorder the rows
            chosen = table.current
            screen._show_groups()
            assert table.current == chosen and table.cursor == 2


class TestRecords:
    async def test_enter_opens_the_groups_records_j_k_page_metadata_shown_esc_back(self, made):
        folder, registry, mix = made
        async with app_for(folder / "app.jsonl", registry, "model").run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            select_group(screen, "VALUE_MISMATCH")
            await pilot.press("enter")
            records = pilot.app.screen
            assert isinstance(records, RecordsScreen)
            assert len(records.session) == mix.statuses["VALUE_MISMATCH"]
            assert records.session.suites[0].name == "app.jsonl"
            first = records.selection.report
            assert first.actual == first.expected == "VALUE_MISMATCH" and first.id.startswith("app.jsonl:")
            # the usual view: the registry beside the claims, the checks at the failing check
            assert records.selection.step.check.id == "value"
            claim = first.verdict.claims[records.selection.claim]
            source, cells, tone = registry_highlight(SimpleNamespace(main=records))
            assert source == claim.doc and f"facts.{claim.field}" in cells and tone is Tone.BAD
            assert "from " in first.note and f"{first.id.split(':')[1]} (offset" in first.note
            assert '"model": ' in first.note and '"ts": ' in first.note and '"id": ' in first.note
            drawn = drawn_verdict(records)
            assert "note from" in drawn and '"model": "' in drawn and '"ts": "' in drawn
            # and above the request, in view without scrolling: the place and every member (issue 18)
            strip = records.query_one(RecordStrip)
            shown = " ".join(strip.render_line(y).text for y in range(strip.size.height))
            line = first.id.split(":")[1]
            assert f"app.jsonl:{line} · offset {first.note.split('offset ')[1].split(')')[0]}" in shown
            assert all(f"{key} " in shown for key in ("id", "ts", "model", "prompt_version")) and "more" not in shown
            assert f"app.jsonl:{first.id.split(':')[1]}(offset" in drawn.replace(" ", "")  # wrapped anywhere
            cases_title = Content.from_markup(records.query_one("#cases-panel").border_title).plain
            assert cases_title.startswith("VALUE_MISMATCH · cases")
            await pilot.press("j")
            second = records.selection.report
            assert second.number == 1 and second.id != first.id and second.actual == "VALUE_MISMATCH"
            assert int(second.id.split(":")[1]) > int(first.id.split(":")[1])  # in log order
            await pilot.press("k")
            assert records.selection.report.id == first.id
            await pilot.press("G")
            assert records.selection.report.number == len(records.session) - 1
            await pilot.press("escape")
            assert pilot.app.screen is screen

    async def test_a_group_the_verdict_does_not_decide_holds_exactly_its_records(self, made):
        folder, registry, mix = made
        async with app_for(folder / "app.jsonl", registry, "model").run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            select_group(screen, "model=llama-z")
            await pilot.press("enter")
            records = pilot.app.screen
            llama = sum(count for (model, _), count in mix.models.items() if model == "llama-z")
            assert len(records.session) == llama
            for _ in range(5):
                assert '"model": "llama-z"' in records.selection.report.note
                await pilot.press("j")
            members = records.session.cases.members
            members.resolve_all()
            assert len(members.found) == llama

    async def test_a_gz_log_s_records_are_read_forward_and_back(self, tmp_path):
        registry = write_registry(tmp_path / "registry.json")
        mix = write_log(tmp_path / "app.jsonl.gz", 400, seed=5)
        async with app_for(tmp_path / "app.jsonl.gz", registry).run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            select_group(screen, "ACCEPT")
            await pilot.press("enter")
            records = pilot.app.screen
            assert len(records.session) == mix.statuses["ACCEPT"]
            seen = []
            for key in ("j", "j", "G", "k", "g"):
                await pilot.press(key)
                report = records.selection.report
                assert report.actual == "ACCEPT" and not report.broken
                seen.append(int(report.id.split(":")[1]))
            assert seen[0] < seen[1] < seen[3] < seen[2] and seen[4] < seen[0]
            assert records.selection.report.id.startswith("app.jsonl.gz:")

    async def test_a_gz_that_broke_off_is_said_in_the_head_and_its_records_open(self, tmp_path):
        import gzip

        registry = write_registry(tmp_path / "registry.json")
        write_log(tmp_path / "app.jsonl", 400, seed=5)
        packed = gzip.compress((tmp_path / "app.jsonl").read_bytes())
        log = tmp_path / "cut.jsonl.gz"
        log.write_bytes(packed[:len(packed) // 2])
        async with app_for(log, registry).run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            [(_, after, _)] = screen.counted.broken
            assert 0 < after < 400 and screen.counted.lines == after
            head = screen.query_one("#triage-head").render().plain
            assert "1 log(s) broke off" in head and f"cut.jsonl.gz after line {after:,}: truncated" in head
            assert screen.query_one("#triage-head").size.height == 3  # the line saying where is shown
            select_group(screen, "ACCEPT")
            await pilot.press("enter", "G")
            assert not pilot.app.screen.selection.report.broken  # the last record before the break reads

    async def test_a_log_changed_since_it_was_counted_shows_its_records_as_broken(self, tmp_path):
        registry = write_registry(tmp_path / "registry.json")
        log = tmp_path / "app.jsonl"
        write_log(log, 200, seed=2)
        async with app_for(log, registry).run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            select_group(screen, "ACCEPT")
            await pilot.press("enter")
            assert not pilot.app.screen.selection.report.broken
            log.write_bytes(b"")  # rotated away under the inspector
            await pilot.press("G")  # a record not read before
            report = pilot.app.screen.selection.report
            assert report.broken and "the log changed since it was counted" in str(report.error)
            await pilot.press("k")  # and the one before too, without a traceback
            assert pilot.app.screen.selection.report.broken

    async def test_the_lab_works_on_a_record(self, made):
        folder, registry, _ = made
        async with app_for(folder / "app.jsonl", registry).run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            select_group(screen, "ACCEPT")
            await pilot.press("enter")
            records = pilot.app.screen
            frozen = records.selection.report
            case = frozen.case
            mutant = next(MUTATIONS_BY_NAME["value.perturb"].mutants(
                answer_of(case.raw, case.request, frozen.suite.registry), 0))
            records.post_message(AnswerChanged(mutant.change()))
            await pilot.pause()
            edited = records.selection.report
            assert edited.parent is frozen and edited.actual.startswith("VALUE_MISMATCH")
            assert edited.comparison.headline.startswith("was ACCEPT, now VALUE_MISMATCH")
            assert records.session.mismatched() == [frozen.number]
            await pilot.press("u")
            assert records.selection.report is frozen

    async def test_repair_and_save_work_on_a_record(self, made, tmp_path):
        from textual.widgets import Input

        from inspector.tui.screens.repair import RepairScreen
        from inspector.tui.screens.save import SaveScreen

        folder, registry, _ = made
        target = tmp_path / "counterexamples.json"
        async with app_for(folder / "app.jsonl", registry).run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            select_group(screen, "VALUE_MISMATCH")
            await pilot.press("enter")
            records = pilot.app.screen
            frozen = records.selection.report
            await pilot.press("x")
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            assert isinstance(pilot.app.screen, RepairScreen)
            await pilot.press("enter")
            await pilot.pause()
            assert pilot.app.screen is records and records.selection.report.actual == "ACCEPT"
            await pilot.press("s")
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            form = pilot.app.screen
            assert isinstance(form, SaveScreen)
            form.query_one("#save-path", Input).value = str(target)
            await pilot.press("enter")
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
        (case,) = json.loads(target.read_text("utf-8"))["cases"]
        assert case["expected"] == "ACCEPT" and case["provenance"]["parent_suite"] == "app.jsonl"
        assert case["provenance"]["parent_case"] == frozen.id

    async def test_untrusted_metadata_is_shown_escaped(self, tmp_path):
        log = tmp_path / "hostile.jsonl"
        model = f"evil{ESC}[31m{RLO}x"
        log.write_text(record("accept.json", model=model, id=f"r{ESC}]52;c;AAAA\x07") + "\n"
                       + "{not json " + ESC + "[2J\n")
        async with app_for(log, PAYMENTS_REGISTRY, "model").run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            names = [group.name for group in screen.query_one(GroupTable).groups]
            assert "model=evil\\u001b[31m\\u202ex" in names  # the group's name, as --export takes it
            select_group(screen, "model=evil\\u001b[31m\\u202ex")
            await pilot.pause()
            assert screen.query_one("#groups-name").render().plain == "model=evil\\u001b[31m\\u202ex"
            text, _ = screen_text_and_styles(pilot.app)
            assert "\\u001b" in text and "\\u202e" in text and hidden_characters(text) == []
            select_group(screen, "bad")
            await pilot.press("enter")
            text, _ = screen_text_and_styles(pilot.app)
            assert hidden_characters(text) == [] and "not JSON" in text
            await pilot.press("escape")
            select_group(screen, "model=evil\\u001b[31m\\u202ex")
            await pilot.press("enter")
            records = pilot.app.screen
            assert ESC in records.selection.report.note or "\\u001b" in records.selection.report.note
            await pilot.press("ctrl+d", "ctrl+d")
            text, _ = screen_text_and_styles(pilot.app)
            assert hidden_characters(text) == []


class TestKeys:
    async def test_the_triage_screens_bind_their_declared_keys_and_help_lists_them(self, made):
        from inspector.tui.screens.help import help_markdown

        folder, registry, _ = made
        async with app_for(folder / "app.jsonl", registry).run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            bound = {binding.action for _, binding in screen._bindings}
            assert {key.action for key in keys.keys_of("triage") if key.on == "screen"} <= bound
            moves = {binding.action for _, binding in screen.query_one(GroupTable)._bindings}
            assert {key.action for key in keys.keys_of("triage") if key.on == "table"} == moves
            select_group(screen, "ACCEPT")
            await pilot.press("enter")
            records = pilot.app.screen
            escape = [binding.action for binding in records._bindings.key_to_bindings["escape"]]
            assert escape == ["back"]
        text = help_markdown()
        assert "## Keys: the triage overview" in text and "Order the groups by kind" in text
        assert "Back to the triage overview" in text


class TestCommandLine:
    def test_without_a_terminal_it_says_so_in_one_line(self, made):
        folder, registry, _ = made
        proc = run_cli("triage", folder / "app.jsonl", "--registry", registry)
        assert proc.returncode == 2
        one_line_error(decoded(proc)[1], "needs a terminal", "--summary")

    def test_standard_input_is_for_the_headless_summary_only(self, made):
        folder, registry, _ = made
        proc = run_cli("triage", "-", "--registry", registry, input=b"")
        assert proc.returncode == 2
        one_line_error(decoded(proc)[1], "standard input (-)", "--summary")

    def test_a_missing_log_or_registry_is_named_before_the_ui(self, made, tmp_path, capsys):
        folder, registry, _ = made
        status, _, err = run_main(capsys, "triage", tmp_path / "nowhere.jsonl", "--registry", registry)
        assert status == 2
        one_line_error(err, "nowhere.jsonl")
        status, _, err = run_main(capsys, "triage", folder / "app.jsonl", "--registry", tmp_path / "none.json")
        assert status == 2
        one_line_error(err, "none.json")


def steady_app(*by: str):  # noqa: ANN202 - an App
    """The overview of the folder's app.jsonl for a snapshot: counted by the screenshots' ``SteadyEngine``,
    so that the head's records/s and seconds read the same on any machine."""
    return app_for("app.jsonl", "registry.json", *by, engine=SteadyEngine())


async def settled(pilot) -> TriageScreen:
    """Everything counted (by ``SteadyEngine``: ``steady_app``), the selected group's histogram drawn."""
    screen = await counted(pilot)
    await time_of(pilot, screen, screen.query_one(GroupTable).current.name)
    return screen


def test_snapshot_of_the_overview(snap_compare, made, monkeypatch):
    monkeypatch.chdir(made[0])
    app = steady_app("model")
    assert snap_compare(app, terminal_size=SIZE, run_before=settled)


def test_snapshot_of_the_overview_at_80_columns(snap_compare, made, monkeypatch):
    # issue 34: a claim's check, field and document in columns; the rate and the rejected gave way to them
    monkeypatch.chdir(made[0])

    async def settle(pilot):
        screen = await counted(pilot)
        table = screen.query_one(GroupTable)
        claims = [group.name for group in table.groups if group.kind is GroupKind.CLAIM]
        select_group(screen, claims[10])  # ten claims above it in view
        await pilot.pause()

    app = steady_app("model")
    assert snap_compare(app, terminal_size=(80, 24), run_before=settle)


@pytest.mark.parametrize("size", [SIZE, (80, 24)], ids=["120x36", "80x24"])
@pytest.mark.parametrize("opened", [False, True], ids=["list", "line"])
def test_snapshot_of_the_bad_lines(snap_compare, made, monkeypatch, size, opened):
    # issue 34: the selected line's whole reason under the list; l: its whole line, its reason above it
    monkeypatch.chdir(made[0])

    async def settle(pilot):
        screen = await counted(pilot)
        select_group(screen, "bad")
        await pilot.press("enter", "j", "j", *(["l"] if opened else []))
        await pilot.pause()

    app = app_for("app.jsonl", "registry.json", "model")
    assert snap_compare(app, terminal_size=size, run_before=settle)


def test_snapshot_of_a_groups_records(snap_compare, made, monkeypatch):
    # The record's place and metadata above its request, in view without scrolling (issue 18).
    monkeypatch.chdir(made[0])

    async def settle(pilot):
        screen = await settled(pilot)
        select_group(screen, "VALUE_MISMATCH")
        await time_of(pilot, screen, "VALUE_MISMATCH")
        await pilot.press("enter")
        await pilot.pause()

    app = steady_app("model")
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


def test_snapshot_of_the_export_form(snap_compare, made, monkeypatch):
    monkeypatch.chdir(made[0])

    async def settle(pilot):
        screen = await settled(pilot)
        select_group(screen, "STALE_REVISION")
        await time_of(pilot, screen, "STALE_REVISION")
        await pilot.press("ctrl+e")
        await pilot.pause()
        for field in pilot.app.screen.query(Input):  # a blinking cursor makes two pictures of one state differ
            field.cursor_blink = False
        await pilot.pause()

    app = steady_app("model")
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


class TestIndex:
    def test_every_group_of_the_summary_is_found_from_the_index_alone(self, made):
        from inspector.triage.members import GroupMembers
        from inspector.triage import Options, triage
        from inspector.triage.summary import summarize

        folder, registry, _ = made
        options = Options(by=("model", "prompt_version"), index=True)
        tally = triage([str(folder / "app.jsonl")], load_registry(registry), options, workers=1,
                       task_bytes=64 * 1024)  # merged from several pieces, as on every core
        for group in summarize(tally, options).groups:
            members = GroupMembers(group, tally.index, len(tally.index), options.by)
            members.resolve_all()
            assert len(members.found) == group.records, group.name


class TestRecordSession:
    def test_its_ids_and_rows_end_where_the_group_does(self, made):
        from inspector.presentation.record_session import RecordSession
        from inspector.triage.members import GroupMembers, record_suite
        from inspector.triage import Options, triage
        from inspector.triage.summary import summarize

        folder, registry, mix = made
        options = Options(index=True)
        registry_doc = load_registry(registry)
        tally = triage([str(folder / "app.jsonl")], registry_doc, options, workers=1)
        group = summarize(tally, options).group("STALE_REVISION")
        session = RecordSession(record_suite(group, GroupMembers(group, tally.index, len(tally.index)),
                                             [str(folder / "app.jsonl")], registry_doc))
        ids = list(session.ids)  # iteration stops (the palette walks every id)
        assert len(ids) == len(session) == mix.statuses["STALE_REVISION"] and len(set(ids)) == len(ids)
        with pytest.raises(IndexError):
            session.ids[len(session)]
        assert session.search("app.jsonl:") == list(range(len(session)))
        assert session.with_status("STALE_REVISION") == list(range(len(session)))
        assert session.find_id(ids[3]) == 3 and session.mismatched() == []


class TestRecordFilters:
    """A group's search and the palette's verdict and check filters read the
    index's label codes in C; they must pick exactly the records a look at each
    record's place and label picks, an edited record by its new label."""

    @pytest.fixture
    def session(self, made):
        from inspector.presentation.record_session import RecordSession
        from inspector.triage.members import GroupMembers, record_suite
        from inspector.triage import Options, triage
        from inspector.triage.summary import summarize

        folder, registry, _ = made
        options = Options(index=True)
        registry_doc = load_registry(registry)
        tally = triage([str(folder / "app.jsonl")], registry_doc, options, workers=1)
        group = summarize(tally, options).group("rung:strict_json")  # every verdict past stage 1
        return RecordSession(record_suite(group, GroupMembers(group, tally.index, len(tally.index)),
                                          [str(folder / "app.jsonl")], registry_doc))

    @staticmethod
    def one_by_one(session, test):
        return [n for n in range(len(session)) if test(session.ids[n].casefold(), session._label(n))]

    @pytest.mark.parametrize("text", ["value", "VALUE_MIS", "accept", "app.jsonl:1", ":2", "7", "jsonl", "x:y", "/"])
    def test_search_is_a_look_at_every_record(self, session, text):
        needle = text.casefold()
        expected = self.one_by_one(session, lambda place, label: needle in place or needle in label.casefold())
        assert session.search(text) == expected
        among = list(range(0, len(session), 3))
        assert session.search(text, among) == [n for n in expected if n in set(among)]

    def test_verdict_and_check_filters(self, session):
        from inspector.presentation.record_session import _CHECK_OF_LABEL

        statuses = {session._label(n).partition("/")[0] for n in range(len(session))}
        assert {"ACCEPT", "VALUE_MISMATCH"} <= statuses
        for status in statuses:
            assert session.with_status(status) == self.one_by_one(
                session, lambda place, label: label.partition("/")[0] == status)
        for check in ("value", "revision", "doc_supplied", "coverage"):
            found = session.failing_at(check)
            assert found == self.one_by_one(session, lambda place, label: _CHECK_OF_LABEL.get(label) == check)
            assert found

    def test_an_edited_record_is_found_by_its_new_label(self, session):
        from inspector.lab.history import text_change

        accepted = session.with_status("ACCEPT")
        number = accepted[0]
        raw = session.history(number).raw
        claims = json.loads(raw)["claims"]
        edited = raw.replace(f'"value": "{claims[0]["value"]}"', '"value": "not-the-value"', 1)
        assert session.change(number, text_change(raw, edited)).actual == "VALUE_MISMATCH"
        assert number not in session.with_status("ACCEPT") and number in session.with_status("VALUE_MISMATCH")
        assert number in session.failing_at("value") and number in session.search("value_mis")
        assert session.with_status("ACCEPT") == accepted[1:]

    def test_a_record_is_found_by_its_place(self, session):
        for number in (0, 1, len(session) // 2, len(session) - 1):
            assert session.find_id(session.ids[number]) == number
        last_line = int(session.ids[len(session) - 1].rpartition(":")[2])
        assert session.find_id(f"app.jsonl:{last_line + 10_000}") is None
        assert session.find_id("other.jsonl:1") is None and session.find_id("app.jsonl:one") is None

    def test_ids_containing_is_a_look_at_every_id(self, session):
        for text in ("app.jsonl:1", ":2", "7", "VALUE", "zz"):
            expected = [n for n in range(len(session)) if text.casefold() in session.ids[n].casefold()]
            assert list(session.ids_containing(text.casefold())) == expected

    def test_search_over_two_logs_tells_their_places_apart(self, made, tmp_path):
        from inspector.presentation.record_session import RecordSession
        from inspector.triage.members import GroupMembers, record_suite
        from inspector.triage import Options, triage
        from inspector.triage.summary import summarize

        folder, registry, _ = made
        first, second = tmp_path / "app.jsonl", tmp_path / "other-2.jsonl"
        lines = (folder / "app.jsonl").read_bytes().splitlines(keepends=True)
        first.write_bytes(b"".join(lines[:150]))
        second.write_bytes(b"".join(lines[150:260]))
        options = Options(index=True)
        registry_doc = load_registry(registry)
        tally = triage([str(first), str(second)], registry_doc, options, workers=1)
        group = summarize(tally, options).group("rung:strict_json")
        session = RecordSession(record_suite(group, GroupMembers(group, tally.index, len(tally.index)),
                                             [str(first), str(second)], registry_doc))
        assert {session.ids[n].partition(":")[0] for n in range(len(session))} == {"app.jsonl", "other-2.jsonl"}
        for text in ("other", "app.jsonl:1", "2.jsonl:1", ":1", "1", "2", "jsonl:", "-2"):
            expected = [n for n in range(len(session))
                        if text in session.ids[n].casefold() or text in session._label(n).casefold()]
            assert session.search(text) == expected, text


class TestExport:
    """ctrl+e on the overview writes a group's records as a suite, as --export does."""

    @staticmethod
    async def export(pilot, path: Path, limit: str | None = None) -> str:
        return await submitted(pilot, await export_form(pilot, path, limit))

    async def test_a_group_becomes_a_suite_that_audits_with_its_verdicts(self, made, tmp_path):
        from inspector.reports.audit import audit
        from inspector.suites.load import load_suite

        folder, registry, mix = made
        app = app_for(folder / "app.jsonl", registry, "model")
        async with app.run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            select_group(screen, "STALE_REVISION")
            await pilot.pause()
            from inspector.tui.screens.export import ExportScreen

            await pilot.press("ctrl+e")
            await pilot.pause()
            form = pilot.app.screen
            assert isinstance(form, ExportScreen)
            assert form.value("path") == "STALE_REVISION.json"
            assert form.value("limit") == str(mix.statuses["STALE_REVISION"])
            await pilot.press("escape")
            await pilot.pause()
            out = tmp_path / "stale.json"
            status = await self.export(pilot, out, limit="5")
            assert status.startswith(f"wrote 5 cases into {out}") and "inspector open" in status
            await pilot.press("escape")
            await pilot.pause()
            assert pilot.app.screen is screen
        suite = load_suite(out)
        assert len(suite.cases) == 5 and all(case.expected == "STALE_REVISION" for case in suite.cases)
        assert all(case.note.startswith("from ") and "metadata" in case.note for case in suite.cases)
        assert audit([suite]).mismatches == () and len(audit([suite]).results) == 5

    async def test_served_the_group_is_a_download_and_nothing_is_written(self, made, tmp_path, monkeypatch):
        # inspector serve: Textual's web driver (is_web); the browser gets the suite, the server's disk nothing
        from textual.app import App

        from inspector.suites.load import load_suite

        delivered = []
        monkeypatch.setattr(App, "is_web", property(lambda app: True))
        monkeypatch.setattr(App, "deliver_binary", lambda app, data, **how: delivered.append((data.read(), how)))
        folder, registry, _ = made
        app = app_for(folder / "app.jsonl", registry)
        async with app.run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            select_group(screen, "STALE_REVISION")
            await pilot.pause()
            status = await self.export(pilot, tmp_path / "stale.json", limit="3")
            assert status.startswith("offered 3 cases as a download: stale.json")
        assert list(tmp_path.iterdir()) == []
        ((data, how),) = delivered
        assert how == {"save_filename": "stale.json", "open_method": "download", "mime_type": "application/json"}
        (tmp_path / "stale.json").write_bytes(data)
        suite = load_suite(tmp_path / "stale.json")
        assert [case.expected for case in suite.cases] == ["STALE_REVISION"] * 3

    async def test_an_existing_file_is_refused_and_kept(self, made, tmp_path):
        folder, registry, _ = made
        out = tmp_path / "taken.json"
        out.write_text("mine\n")
        app = app_for(folder / "app.jsonl", registry)
        async with app.run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            select_group(screen, "ACCEPT")
            await pilot.pause()
            status = await self.export(pilot, out)
            assert status.startswith("✗") and "exists" in status and "nothing was written" in status
            status = await self.export_again(pilot, "0")
            assert "records: a whole number from 1 to" in status
        assert out.read_text() == "mine\n"

    async def test_the_bundled_fixtures_are_refused_in_the_form(self, made, tmp_path, bundled_tree):
        folder, registry, _ = made
        (tmp_path / "mine").symlink_to(bundled_tree / "registries")
        app = app_for(folder / "app.jsonl", registry)
        async with app.run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            select_group(screen, "ACCEPT")
            await pilot.pause()
            for out, place in ((bundled_tree / "ACCEPT.json", "fixtures/ACCEPT.json"),
                               (tmp_path / "mine" / "ACCEPT.json", "fixtures/registries/ACCEPT.json")):
                status = await self.export(pilot, out)
                assert status.startswith("✗") and "nothing was written" in status
                assert f"is inside the bundled fixtures ({place}); write elsewhere" in status
                await pilot.press("escape")
                await pilot.pause()
                assert pilot.app.screen is screen

    @staticmethod
    async def export_again(pilot, limit: str) -> str:
        form = pilot.app.screen
        form.query_one("#export-limit").value = limit
        await pilot.press("enter")
        await pilot.pause()
        return flowing(str(form.query_one("#export-status").render()))

    async def test_the_bad_lines_are_not_a_suite(self, made):
        folder, registry, _ = made
        app = app_for(folder / "app.jsonl", registry)
        async with app.run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            select_group(screen, "bad")
            await pilot.pause()
            await pilot.press("ctrl+e")
            await pilot.pause()
            assert pilot.app.screen is screen


def test_the_proposed_export_file_is_a_plain_name_in_the_current_directory():
    from inspector.presentation.group_export import export_path

    def path_for(name: str) -> str:
        return export_path(SimpleNamespace(name=name))  # type: ignore[arg-type]

    assert path_for("claim:VALUE_MISMATCH/retry_enabled/payments-prod-v2") == \
        "claim_VALUE_MISMATCH_retry_enabled_payments-prod-v2.json"
    assert path_for('model="gpt-x"') == "model=_gpt-x.json"
    for hostile in ("../../etc/passwd", "..", "/", f"a{ESC}[2Jb", f"{RLO}x", "", "." * 5):
        found = path_for(hostile)
        assert "/" not in found and not found.startswith(".") and found.isprintable() and found.endswith(".json")
    assert len(path_for("x" * 500)) <= 85


class TestPivotView:
    async def test_p_crosses_two_dimensions_as_a_grid_a_cell_opens_its_records_and_d_changes_them(self, made, capsys):
        # issue 34: rows by columns (models down, checks across), the cursor a cell, Enter opens its records
        folder, registry, mix = made
        status, out, _ = run_main(capsys, "triage", str(folder / "app.jsonl"), "--registry", str(registry),
                                  "--format", "json", "--pivot", "model,check", "--series")
        headless = json.loads(out)["pivot"]["cells"]
        from inspector.tui.screens.pivot import PivotScreen
        from inspector.tui.widgets.pivot_table import PivotTable

        async with app_for(folder / "app.jsonl", registry, "model").run_test(size=SIZE) as pilot:
            overview = await counted(pilot)
            await pilot.press("p")
            screen = pilot.app.screen
            assert isinstance(screen, PivotScreen) and screen.dimensions == ("model", "check")
            table = screen.query_one(PivotTable)
            grid = table.grid
            assert set(grid.rows) == {cell["a"] for cell in headless}  # models down
            assert set(grid.columns) == {cell["b"] for cell in headless}  # checks across
            assert sorted((cell.a, cell.b, cell.records, cell.of) for cell in table.cells) == \
                sorted((cell["a"], cell["b"], cell["records"], cell["of"]) for cell in headless)
            header = table.render_line(0).text
            assert header.split()[:3] == ["model", "records", "✗"] and grid.columns[0] in header
            first = row_text(table, 0)
            top = grid.cells[grid.rows[0], grid.columns[0]]
            assert first.split()[0] == grid.rows[0] and f"{100 * top.share:.1f}% {top.records:,}" in first
            await pilot.press("j", "l")  # a row down, a column across
            pair = table.current
            assert (pair.a, pair.b) == (grid.rows[1], grid.columns[1])
            time_table = screen.query_one(TimeTable)
            await until(pilot, lambda: time_table.shown is not None and time_table.shown.group == pair.name,
                        "the pair's histogram drawn (in a worker)", timeout=10)
            shown = time_table.shown
            expected = next(cell for cell in headless if (cell["a"], cell["b"]) == (pair.a, pair.b))["series"]
            assert [(bar.records, bar.rejected) for bar in shown.histogram.bars] == \
                list(zip(expected["records"], expected["rejected"]))
            assert screen.query_one("#pair-name").render().plain.startswith(f"{pair.a} × {pair.b} · ")
            await pilot.press("enter")
            records = pilot.app.screen
            assert isinstance(records, RecordsScreen) and len(records.session) == pair.records
            labels = {records.session.cases.label_of(n).partition("/")[0] for n in range(len(records.session))}
            assert labels == {pair.b}
            await pilot.press("escape")
            assert pilot.app.screen is screen
            await pilot.press("h", "h")  # kept within the columns
            assert table.column == 0
            await pilot.press("o")  # the rows by rejected share: the most rejected first
            grid = table.grid
            shares = [grid.rejected[a] / grid.totals[a] for a in grid.rows]
            assert shares == sorted(shares, reverse=True)
            await pilot.press("d")
            field = screen.query_one("#pivot-keys")
            field.value = "prompt_version,check"
            await pilot.press("enter")
            assert screen.dimensions == ("model", "check")  # not counted by prompt_version: said, kept
            assert any("was not counted" in str(note.message) for note in pilot.app._notifications)
            field.value = "scope,model"
            await pilot.press("enter")
            assert screen.dimensions == ("scope", "model") and table.grid.rows[0].startswith("scope:")
            assert sum(cell.records for cell in table.cells) == overview.counted.summary.records
            await pilot.press("escape")
            assert pilot.app.screen is overview

    async def test_at_80_columns_the_grid_scrolls_sideways_keeping_the_row_names(self, made):
        from inspector.tui.widgets.pivot_table import PivotTable

        folder, registry, mix = made
        async with app_for(folder / "app.jsonl", registry, "model").run_test(size=(80, 24)) as pilot:
            await counted(pilot)
            await pilot.press("p")
            table = pilot.app.screen.query_one(PivotTable)
            grid = table.grid
            last = grid.columns[-1]
            assert last not in table.render_line(0).text  # more checks than 80 columns hold
            for _ in grid.columns:
                await pilot.press("l")
            await pilot.pause()
            assert table.column == len(grid.columns) - 1
            header, row = table.render_line(0).text, row_text(table, 0)
            assert last in header and header.split()[:3] == ["model", "records", "✗"]  # names and counts kept
            assert row.split()[0] == grid.rows[0]
            assert grid.columns[0] not in header  # scrolled past


class TestComparedOverview:
    async def test_against_shows_before_after_and_change_the_regression_first_enter_opens_the_new_records(
            self, tmp_path):
        before, now = tmp_path / "before.jsonl", tmp_path / "now.jsonl"
        before.write_text("\n".join([record("accept.json", model="gpt-x")] * 60
                                    + [record("accept.json", model="llama-z")] * 30
                                    + [record("value-mismatch.json", model="llama-z")] * 30
                                    + [record("stale-revision.json", model="old-model")] * 20) + "\n")
        now.write_text("\n".join([record("accept.json", model="gpt-x")] * 60
                                 + [record("accept.json", model="llama-z")] * 5
                                 + [record("value-mismatch.json", model="llama-z")] * 55) + "\n")
        run = triage_run([str(now)], load_registry(PAYMENTS_REGISTRY), str(PAYMENTS_REGISTRY), ("model",),
                         against=[str(before)])
        async with make_triage_app(run).run_test(size=SIZE) as pilot:
            screen = await counted(pilot)
            table = screen.query_one(GroupTable)
            assert screen.sort == "change" and "by change (o)" in screen.query_one("#groups-title").render().plain
            first = table.groups[0]
            assert first.name == "model=llama-z"  # 50.0% of its answers rejected, then 91.7%: the regression
            assert row_text(table, 0).split()[-5:] == ["60", "50.0%", "91.7%", "+41.7", "pt"]
            head = screen.query_one("#triage-head").render().plain
            assert "before 140 · 7 of 12 tested changed beyond noise (4 worse) · 0 new · 4 vanished" in head
            assert "vanished" in head and "against" in str(screen.query_one("#triage-panel").border_title)
            await pilot.press("enter")  # the group's records, from the logs given
            records = pilot.app.screen
            assert isinstance(records, RecordsScreen) and len(records.session) == 60
            await pilot.press("escape")
            vanished = next(row for row, group in enumerate(table.groups) if group.name == "model=old-model")
            assert row_text(table, vanished).rstrip().endswith("vanished")
            table.move_cursor(vanished)
            await pilot.press("enter")
            assert pilot.app.screen is screen
            assert any("vanished" in str(note.message) for note in pilot.app._notifications)
            for _ in screen.sorts[1:]:  # every other order keeps the columns; back to the change's weight
                await pilot.press("o")
            assert screen.sort == "name" and table.shifts is not None


@pytest.mark.parametrize("size", [SIZE, (80, 24)], ids=["120x36", "80x24"])
def test_snapshot_of_the_pivot_view(snap_compare, made, monkeypatch, size):
    # issue 34: models down, checks across; the cursor on a cell three columns across (scrolled at 80)
    monkeypatch.chdir(made[0])

    async def settle(pilot):
        await settled(pilot)
        await pilot.press("p", "j", "l", "l", "l")
        table = pilot.app.screen.query_one(TimeTable)
        await until(pilot, lambda: table.shown is not None and table.shown.group is not None,
                    "the pair's histogram drawn (in a worker)", timeout=10)

    app = steady_app("model")
    assert snap_compare(app, terminal_size=size, run_before=settle)


def test_snapshot_of_a_comparison(snap_compare, made, monkeypatch):
    folder = made[0]
    monkeypatch.chdir(folder)
    if not (folder / "before.jsonl").exists():
        write_log(folder / "before.jsonl", 600, seed=12)

    async def settle(pilot):
        screen = await settled(pilot)
        assert screen.counted.shifts is not None

    run = triage_run(["app.jsonl"], load_registry("registry.json"), "registry.json", ("model",),
                     against=["before.jsonl"], engine=SteadyEngine())
    assert snap_compare(make_triage_app(run), terminal_size=SIZE, run_before=settle)
