"""Every list screen moves its cursor with the same keys, bound by its table
(``widgets.table.CursorTable``): j k (and the arrows) a row, g G (Home End) to
the first and the last row, PgDn PgUp a page, the cursor kept within the rows."""

from __future__ import annotations

import pytest

from inspector.tui.screens.bad_lines import BadLinesScreen
from inspector.tui.screens.mutation_report import MutationReportScreen
from inspector.tui.screens.pivot import PivotScreen
from inspector.tui.screens.summary import SummaryScreen
from inspector.tui.widgets.bad_lines_table import BadLinesTable
from inspector.tui.widgets.group_table import GroupTable
from inspector.tui.widgets.pivot_table import PivotTable
from inspector.tui.widgets.report_table import ReportTable
from inspector.tui.widgets.summary_table import SummaryTable
from inspector.tui.widgets.table import CursorTable
from inspector.triage.synth import write_log, write_registry
from support.tui import SIZE, app_for, counted, inspecting, rendered, select_group


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    folder = tmp_path_factory.mktemp("list-keys")
    registry = write_registry(folder / "registry.json")
    log = folder / "app.jsonl"
    write_log(log, 300, seed=11)
    with log.open("ab") as out:  # bad lines enough for several pages
        out.write(b"junk\n" * 120)
    return log, registry


async def moves_and_clamps(pilot, table: CursorTable, *, bottom_stays: bool = True) -> None:  # noqa: ANN001
    """The movement keys on ``table`` (focused, so they reach it), as a user checks them: each moves the
    cursor, and none moves it past the first or the last row."""
    assert table.has_focus
    last = table.row_count - 1
    assert last >= 2

    def page() -> int:  # the rows in view less two, read as the key is pressed (a scrollbar can come and go)
        return max(1, table.scrollable_content_region.height - 2)

    await pilot.press("g")
    assert table.cursor == 0
    await pilot.press("k", "up")
    assert table.cursor == 0  # not past the first row
    await pilot.press("j")
    assert table.cursor == 1
    await pilot.press("down")
    assert table.cursor == 2
    await pilot.press("k")
    assert table.cursor == 1
    await pilot.press("G")
    assert table.cursor == last
    top = int(table.scroll_offset.y)
    assert top <= last < top + table.scrollable_content_region.height  # in view
    if bottom_stays:
        await pilot.press("j", "down")
        assert table.cursor == last  # not past the last row
    await pilot.press("G", "pagedown")
    assert table.cursor == last
    rows = page()
    await pilot.press("pageup")
    assert table.cursor == max(0, last - rows)
    await pilot.press("home")
    rows = page()
    await pilot.press("pagedown")
    assert table.cursor == min(last, rows)
    await pilot.press("end")
    assert table.cursor == last
    await pilot.press("g", "pageup")
    assert table.cursor == 0 and int(table.scroll_offset.y) == 0


async def test_the_triage_overview(made):
    async with app_for(*made, "model").run_test(size=SIZE) as pilot:
        screen = await counted(pilot)
        await moves_and_clamps(pilot, screen.query_one(GroupTable))
        await pilot.press("ctrl+d")  # its page keys have ctrl aliases, as before
        assert screen.query_one(GroupTable).cursor > 0


async def test_the_pivot(made):
    async with app_for(*made, "model").run_test(size=SIZE) as pilot:
        await counted(pilot)
        await pilot.press("p")
        assert isinstance(pilot.app.screen, PivotScreen)
        table = pilot.app.screen.query_one(PivotTable)
        await moves_and_clamps(pilot, table)
        # typing the dimensions takes the keys; Esc gives them back to the pairs
        await pilot.press("d", "escape")
        assert table.has_focus
        await pilot.press("j")
        assert table.cursor == 1


async def test_the_bad_lines_now_with_g_G_and_the_page_keys(made):
    async with app_for(*made).run_test(size=SIZE) as pilot:
        screen = await counted(pilot)
        select_group(screen, "bad")
        await pilot.press("enter")
        assert isinstance(pilot.app.screen, BadLinesScreen)
        table = pilot.app.screen.query_one(BadLinesTable)
        assert table.row_count > 2 * table.scrollable_content_region.height  # several pages
        await moves_and_clamps(pilot, table)


async def test_the_summary_now_with_g_G_and_the_page_keys(article):
    async with inspecting(article) as pilot:
        await pilot.press("S")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(pilot.app.screen, SummaryScreen)
        # The article has no people's labels: no matrix below, j on the last row stays there.
        await moves_and_clamps(pilot, pilot.app.screen.query_one(SummaryTable))


async def test_the_mutation_report(bundled):
    async with inspecting(bundled) as pilot:
        await pilot.press("M")
        screen = pilot.app.screen
        assert isinstance(screen, MutationReportScreen)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        table = screen.query_one(ReportTable)
        await moves_and_clamps(pilot, table)
        # The row's detail, under the table, follows the keys' moves.
        details = []
        for key in ("g", "j", "G"):
            await pilot.press(key)
            details.append(rendered(screen.query_one("#report-words")))
        assert all(details) and details[0] != details[1] != details[2]
