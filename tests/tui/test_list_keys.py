"""Every list screen moves its cursor with the same keys, bound by its table
(``widgets.table.CursorTable``): j k (and the arrows) a row, g G (Home End) to
the first and the last row, PgDn PgUp a page, the cursor kept within the rows."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from textual.widgets import Input

from inspector.presentation.review import ReviewSession
from inspector.presentation.session import Session
from inspector.suites.load import load_suite
from inspector.tui.app import make_review_app
from inspector.tui.screens.bad_lines import BadLinesScreen
from inspector.tui.screens.label import LabelScreen
from inspector.tui.screens.mutations import MutationMenu
from inspector.tui.screens.records import RecordsScreen
from inspector.tui.screens.mutation_report import MutationReportScreen
from inspector.tui.screens.pivot import PivotScreen
from inspector.tui.screens.summary import SummaryScreen
from inspector.tui.widgets.agreement_table import AgreementTable
from inspector.tui.widgets.bad_lines_table import BadLinesTable
from inspector.tui.widgets.case_list import CaseList
from inspector.tui.widgets.group_table import GroupTable
from inspector.tui.widgets.label_choices import LabelChoices
from inspector.tui.widgets.mutation_table import MutationTable
from inspector.tui.widgets.pivot_table import PivotTable
from inspector.tui.widgets.report_table import ReportTable
from inspector.tui.widgets.summary_table import SummaryTable
from inspector.tui.widgets.table import CursorTable
from inspector.triage.synth import write_log, write_registry
from support.tui import SIZE, app_for, counted, inspecting, rendered, select_group
from support.waiting import until
from support.review import relabelled_article


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    folder = tmp_path_factory.mktemp("list-keys")
    registry = write_registry(folder / "registry.json")
    log = folder / "app.jsonl"
    write_log(log, 300, seed=11)
    with log.open("ab") as out:  # bad lines enough for several pages
        out.write(b"junk\n" * 120)
    return log, registry


# The keys of a list, as a user presses them: a row down and up, the first and the last row (each by
# its two keys); the page keys are PgDn and PgUp everywhere.  A list whose filter field keeps the
# focus (the mutation menu) moves by the keys that type nothing, as Textual's command palette.
LIST_KEYS = {"down": ("j", "down"), "up": ("k", "up"), "first": ("g", "home"), "last": ("G", "end")}
TYPING_KEYS = {"down": ("down", "down"), "up": ("up", "up"), "first": ("ctrl+home",) * 2, "last": ("ctrl+end",) * 2}


@dataclass(frozen=True)
class Cursor:
    """Where a list's cursor is, as its highlighted row shows it."""

    at: Callable[[], int | None]  # the highlighted row
    count: int
    page: Callable[[], int]  # the rows a page key moves, read as the key is pressed (a scrollbar can come and go)
    in_view: Callable[[int], bool]


def table_cursor(table: CursorTable) -> Cursor:
    def in_view(row: int) -> bool:
        top = int(table.scroll_offset.y)
        return top <= row < top + table.scrollable_content_region.height

    return Cursor(lambda: table.cursor, table.row_count, lambda: max(1, table.scrollable_content_region.height - 2),
                  in_view)


def reviewing(folder):  # noqa: ANN001, ANN201 - the app in review mode, its review
    """Review mode on the article, three of its labels changed (three cases pending, as test_review's)."""
    suite = load_suite(relabelled_article(folder, labels={
        "complete-answer": "VALUE_MISMATCH", "reordered-claims": "VALUE_MISMATCH", "real-quote-wrong-value": "ACCEPT"}))
    session = Session([suite])
    review = ReviewSession(session, "alice", clock=lambda: "2026-12-02T06:30:00Z")
    return make_review_app(session, review), review


async def moves_and_clamps(pilot, cursor: Cursor | CursorTable, keys: dict[str, tuple[str, str]] = LIST_KEYS, *,  # noqa: ANN001
                           bottom_stays: bool = True) -> None:
    """The movement keys on a list (focused, or its screen's), as a user checks them: each moves the
    cursor, and none moves it past the first or the last row."""
    if isinstance(cursor, CursorTable):
        assert cursor.has_focus
        cursor = table_cursor(cursor)
    at = cursor.at
    last = cursor.count - 1
    assert last >= 2
    down, down_too = keys["down"]
    up, up_too = keys["up"]
    first, first_too = keys["first"]
    end, end_too = keys["last"]

    await pilot.press(first)
    assert at() == 0
    await pilot.press(up, up_too)
    assert at() == 0  # not past the first row
    await pilot.press(down)
    assert at() == 1
    await pilot.press(down_too)
    assert at() == 2
    await pilot.press(up)
    assert at() == 1
    await pilot.press(end)
    assert at() == last and cursor.in_view(last)
    if bottom_stays:
        await pilot.press(down, down_too)
        assert at() == last  # not past the last row
    await pilot.press(end, "pagedown")
    assert at() == last
    rows = cursor.page()
    await pilot.press("pageup")
    assert at() == max(0, last - rows)
    await pilot.press(first_too)
    rows = cursor.page()
    await pilot.press("pagedown")
    assert at() == min(last, rows)
    await pilot.press(end_too)
    assert at() == last
    await pilot.press(first, "pageup")
    assert at() == 0 and cursor.in_view(0)


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
        await moves_and_clamps(pilot, table)  # a row (a model) at a time
        # and a column (a check) at a time, kept within the columns
        await pilot.press("l", "right")
        assert table.column == 2
        await pilot.press("h", "left", "left")
        assert table.column == 0
        # typing the dimensions takes the keys; Esc gives them back to the grid
        await pilot.press("d", "escape")
        assert table.has_focus
        await pilot.press("g", "j", "l")
        assert (table.cursor, table.column) == (1, 1)


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    """Two runs of the same items (the second worse for one model): the trials and flips views have rows."""
    folder = tmp_path_factory.mktemp("list-keys-items")
    registry = write_registry(folder / "registry.json")
    write_log(folder / "old.jsonl", 0, 1, items=40, trials=3)
    write_log(folder / "new.jsonl", 0, 2, items=40, trials=3, worse=("llama-z", 0.5))
    return folder / "new.jsonl", folder / "old.jsonl", registry


async def test_the_trials_and_the_flips(two_runs):
    from inspector.presentation.overview import triage_run
    from inspector.suites.load import load_registry
    from inspector.tui.app import make_triage_app
    from inspector.tui.screens.trials import FlipsScreen, TrialsScreen
    from inspector.tui.widgets.trials_table import FlipsTable, TrialsTable

    new, old, registry = two_runs
    run = triage_run([str(new)], load_registry(registry), str(registry), ("model",), against=[str(old)])
    async with make_triage_app(run).run_test(size=SIZE) as pilot:
        overview = await counted(pilot)
        await pilot.press("t")
        assert isinstance(pilot.app.screen, TrialsScreen)
        await moves_and_clamps(pilot, pilot.app.screen.query_one(TrialsTable))
        await pilot.press("escape")
        assert pilot.app.screen is overview
        await pilot.press("f")
        assert isinstance(pilot.app.screen, FlipsScreen)
        await moves_and_clamps(pilot, pilot.app.screen.query_one(FlipsTable))


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


async def test_the_label_form_its_list_stopping_at_the_ends_rather_than_wrapping(tmp_path):
    app, review = reviewing(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("L")
        form = pilot.app.screen
        assert isinstance(form, LabelScreen)
        choices = form.query_one(LabelChoices)
        assert choices.has_focus

        def in_view(row: int) -> bool:
            top = int(choices.scroll_offset.y)
            return top <= row < top + choices.scrollable_content_region.height

        await moves_and_clamps(pilot, Cursor(lambda: choices.highlighted, choices.option_count,
                                             lambda: choices.scrollable_content_region.height, in_view))
        # Enter keeps the highlighted label: the last is "clear", the first SUPPORTED.
        await pilot.press("G", "k", "k", "k", "enter")  # CONTRADICTED
        await pilot.pause()
        assert app.screen is app.main
        assert review.human_labels(app.main.browse.current) == {0: "CONTRADICTED"}


async def test_the_mutation_menu_by_the_keys_that_type_nothing(article):
    async with inspecting(article, "complete-answer") as pilot:
        await pilot.press("m")
        menu = pilot.app.screen
        assert isinstance(menu, MutationMenu)
        field = menu.query_one("#menu-filter", Input)
        assert field.has_focus  # typing filters: j, k, g and G are typed
        table = menu.query_one(MutationTable)
        await moves_and_clamps(pilot, table_cursor(table), TYPING_KEYS)
        assert field.value == "" and field.has_focus
        # The help line under the list follows the cursor.
        await pilot.press("ctrl+home")
        assert rendered(menu.query_one("#menu-help")).startswith(table.rows[0].name)
        await pilot.press("ctrl+end")
        assert rendered(menu.query_one("#menu-help")).startswith(table.rows[-1].name)


async def test_the_agreement_matrix_rows_by_the_summary_keys_the_title_rows_passed(tmp_path):
    app, review = reviewing(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        number = app.main.browse.current
        review.label(number, 0, "SUPPORTED")
        review.label(number, 1, "CONTRADICTED")
        await pilot.press("S")
        await app.workers.wait_for_complete()
        await until(pilot, lambda: isinstance(app.screen, SummaryScreen) and app.screen.query_one(SummaryTable).rows,
                    "the summary computed")
        summary = app.screen
        table, matrix = summary.query_one(SummaryTable), summary.query_one(AgreementTable)
        people = [row for row, (_, index) in enumerate(matrix.layout_rows) if index is not None]
        titles = [row for row, (_, index) in enumerate(matrix.layout_rows) if index is None]
        assert len(titles) == 2 and len(people) > 2

        def cell() -> str:  # the highlighted cell, as its description says it
            found = matrix.current_cell()
            return found.description if found is not None else ""

        await pilot.press("G", "j")  # past the table's last row: into the matrix's first cell
        assert matrix.has_focus and matrix.cursor == people[0] and cell().startswith("person ")
        await pilot.press("l", "G")  # the column is kept
        assert matrix.current == (people[-1], 1)
        await pilot.press("j", "down", "pagedown")
        assert matrix.cursor == people[-1]  # not past the last row
        await pilot.press("g")
        assert matrix.current == (people[0], 1)
        for row in people[1:]:  # j by j, the second section's titles row passed
            await pilot.press("j")
            assert matrix.cursor == row and matrix.cursor not in titles
        await pilot.press("pageup")
        assert matrix.cursor == people[0]
        await pilot.press("end", "home")
        assert matrix.cursor == people[0] and matrix.has_focus
        await pilot.press("k")  # above the first row of cells: back to the table's last row
        assert table.has_focus and table.cursor == table.row_count - 1 and matrix.current is None


async def test_a_groups_records_j_k_g_G_stop_at_the_first_and_the_last(made):
    async with app_for(*made, "model").run_test(size=SIZE) as pilot:
        screen = await counted(pilot)
        table = screen.query_one(GroupTable)
        select_group(screen, next(group.name for group in table.groups if 2 < group.records < 200))
        await pilot.press("enter")
        records = pilot.app.screen
        assert isinstance(records, RecordsScreen)
        cases = records.query_one(CaseList)
        last = cases.row_count - 1

        def shown() -> tuple[int | None, str]:  # the list's cursor and the record open beside it
            selection = records.selection
            assert selection is not None
            return cases.cursor, selection.report.id

        ids = [shown()[1]]
        await pilot.press("k", "up")
        assert shown() == (0, ids[0])  # not before the first record
        await pilot.press("j")
        ids.append(shown()[1])
        assert shown()[0] == 1 and ids[1] != ids[0]
        await pilot.press("down", "k")
        assert shown() == (1, ids[1])
        await pilot.press("G")
        assert shown()[0] == last
        end = shown()
        await pilot.press("j", "down", "end")
        assert shown() == end  # not past the last record
        await pilot.press("g")
        assert shown() == (0, ids[0])
        await pilot.press("end", "home")
        assert shown() == (0, ids[0])
