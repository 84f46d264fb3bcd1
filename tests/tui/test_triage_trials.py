"""The overview's trials view (t) and flips view (f): what a team evaluating a release checks by hand.

The items' rows are those of a plain count of the log's lines (each record verified on its own), the most
unstable first; Enter opens an item's trials and only them, the verdict panel naming the check that flipped
against trial 1; the flips view's cells are the JSON's ``comparison.items`` flips, a cell opening exactly its
items; an item's id is untrusted text."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from inspector.contract.text import visible
from inspector.contract.verify import verify
from inspector.presentation.overview import triage_run
from inspector.suites.load import load_registry
from inspector.triage.synth import write_log, write_registry
from inspector.triage.items import verdict_of
from inspector.triage.tally import TRIAGE_STATUSES
from inspector.tui.app import make_triage_app
from inspector.tui.screens.records import RecordsScreen
from inspector.tui.screens.trials import FlipsScreen, TrialsScreen
from inspector.tui.widgets.trials_table import FlipsTable, TrialsTable
from inspector.tui.widgets.verdict import VerdictView
from support import run_main
from inspector.tui.widgets.group_table import GroupTable
from support.tui import SIZE, app_for, cells_styled, counted, flowing, hidden_characters, row_text, select_group

ITEMS, TRIALS = 30, 4


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path, Path]:
    """Two runs of the same items: before (seed 1), after (seed 2, llama-z worse on half its good items)."""
    folder = tmp_path_factory.mktemp("trials-tui")
    registry = write_registry(folder / "registry.json")
    write_log(folder / "old.jsonl", 0, 1, items=ITEMS, trials=TRIALS)
    write_log(folder / "new.jsonl", 0, 2, items=ITEMS, trials=TRIALS, worse=("llama-z", 0.5))
    return folder / "new.jsonl", folder / "old.jsonl", registry


def by_hand(log: Path, registry: Path) -> dict[tuple[str, str], list[tuple[int, str]]]:
    """Per (item, model): (line, status) of each of its records, each verified on its own, in log order."""
    contract = load_registry(registry)
    found: dict[tuple[str, str], list[tuple[int, str]]] = defaultdict(list)
    for number, line in enumerate(log.read_text().splitlines(), 1):
        record = json.loads(line)
        status = verify(record["raw"], record["request"], contract).status
        found[(record["item"], record["model"])].append((number, status))
    return found


def drawn_verdict(screen) -> str:
    view = screen.query_one(VerdictView)
    top = int(view.scroll_offset.y)
    return flowing(" ".join(view.render_line(y).text for y in range(-top, view.virtual_size.height - top)))


async def trials_open(pilot) -> tuple[TrialsScreen, TrialsTable]:
    await counted(pilot)
    await pilot.press("t")
    screen = pilot.app.screen
    assert isinstance(screen, TrialsScreen)
    return screen, screen.query_one(TrialsTable)


class TestTrialsView:
    async def test_the_rows_are_the_items_counted_by_hand_the_most_unstable_first(self, runs):
        new, _, registry = runs
        expected = by_hand(new, registry)
        async with app_for(new, registry, "model").run_test(size=SIZE) as pilot:
            screen, table = await trials_open(pilot)
            shown = {(row.text, row.population): dict(row.verdicts) for row in table.rows}
            assert shown == {(item, f"model={model}"): dict(Counter(status for _, status in records))
                             for (item, model), records in expected.items()}
            order = [(-row.distinct, abs(row.share - 0.5), -row.trials) for row in table.rows]
            assert order == sorted(order) and table.rows[0].distinct > table.rows[-1].distinct
            unstable = sum(1 for records in expected.values() if len({status for _, status in records}) > 1)
            head = screen.query_one("#trials-head").render().plain
            assert f"{len(expected)} items · {len(expected) * TRIALS} trials · {unstable} unstable" in head
            assert "pass@1" in head and "pass^2" in head and "pass^4" in head
            first = table.rows[0]
            assert row_text(table, 0).split()[:3] == [first.text, first.population, str(TRIALS)]
            await pilot.press("o")  # by trials, then accepted, then by item
            await pilot.press("o", "o")
            assert [row.text for row in table.rows] == sorted(row.text for row in table.rows)

    async def test_enter_opens_the_item_s_trials_only_the_panel_naming_the_check_flipped_against_trial_1(
            self, runs):
        new, _, registry = runs
        expected = by_hand(new, registry)
        async with app_for(new, registry, "model").run_test(size=SIZE) as pilot:
            screen, table = await trials_open(pilot)
            # an item whose trial after the first has another verdict than the first
            row = next(row for row in table.rows if row.distinct > 1
                       and expected[(row.text, row.population.removeprefix("model="))][0][1] != "ACCEPT")
            table.move_cursor(table.rows.index(row))
            await pilot.press("enter")
            records = pilot.app.screen
            assert isinstance(records, RecordsScreen)
            trials = expected[(row.text, row.population.removeprefix("model="))]
            members = records.session.cases.members
            members.resolve_all()
            assert [members.index.line[position] for position in members.found] == [line for line, _ in trials]
            assert "trial 1 of 4 · the first" in drawn_verdict(records)
            first = trials[0][1]
            later = next(number for number, (_, status) in enumerate(trials) if status != first)
            for _ in range(later):
                await pilot.press("j")
            await pilot.pause()
            label = records.session.cases.label_of(later)
            assert label.partition("/")[0] == trials[later][1]
            first_label = records.session.cases.label_of(0)
            said = drawn_verdict(records)
            assert f"trial {later + 1} of 4 · was {first_label} (trial 1), now {label}" in said

    async def test_no_item_named_says_how(self, tmp_path):
        registry = write_registry(tmp_path / "registry.json")
        write_log(tmp_path / "plain.jsonl", 200, seed=3)
        async with app_for(tmp_path / "plain.jsonl", registry).run_test(size=SIZE) as pilot:
            _, table = await trials_open(pilot)
            assert not table.rows and "--item PATH" in table.empty_message

    async def test_an_item_id_with_markup_and_control_characters_is_shown_escaped(self, runs, tmp_path):
        new, _, registry = runs
        hostile = "[bold red]x[/]\x1b[2J\u202eitem"
        lines = []
        for line in new.read_text().splitlines()[:8]:
            record = json.loads(line)
            record["item"] = hostile
            lines.append(json.dumps(record))
        log = tmp_path / "hostile.jsonl"
        log.write_text("\n".join(lines) + "\n")
        async with app_for(log, registry).run_test(size=SIZE) as pilot:
            screen, table = await trials_open(pilot)
            drawn = row_text(table, 0)  # the item's text (JSON, as it reads as JSON), cut in the middle
            assert not hidden_characters(drawn) and drawn.startswith('"[bold') and "\\u202eitem" in drawn
            name = screen.query_one("#item-name").render().plain  # the whole of it
            assert name.startswith(visible('"[bold red]x[/]')) and "\\u202e" in name and not hidden_characters(name)


class TestFlipsView:
    async def test_the_cells_are_the_json_s_flips_a_cell_opens_exactly_its_items(self, runs, capsys):
        new, old, registry = runs
        status, out, _ = run_main(capsys, "triage", new, "--registry", registry, "--by", "model", "--against", old,
                                  "--format", "json")
        flips = json.loads(out)["comparison"]["items"]["populations"][0]
        assert flips["group"] == "all"
        run = triage_run([str(new)], load_registry(registry), str(registry), ("model",), against=[str(old)])
        async with make_triage_app(run).run_test(size=SIZE) as pilot:
            await counted(pilot)
            await pilot.press("f")
            screen = pilot.app.screen
            assert isinstance(screen, FlipsScreen)
            table = screen.query_one(FlipsTable)
            assert [(flip.before, flip.after, flip.kind, flip.items) for flip in table.flips] == \
                [(flip["before"], flip["after"], flip["kind"], flip["items"]) for flip in flips["flips"]]
            assert table.flips[0].kind == "regressed" and row_text(table, 0).lstrip().startswith("▼ regressed")
            head = screen.query_one("#flips-head").render().plain
            assert f"regressed {flips['accepted_before_only']}" in head and f"p {flips['p']:.4f}" in head
            await pilot.press("enter")  # the regression's items, with their verdict before
            trials = pilot.app.screen
            assert isinstance(trials, TrialsScreen)
            rows = trials.query_one(TrialsTable).rows
            first = flips["flips"][0]
            assert {row.text for row in rows} == set(first["first_items"]) and len(first["first_items"]) == \
                first["items"]
            # Each row is the item within one model: its verdict before is that model's, counted by hand from the
            # log before (the cell's before is the item's over every model).
            before = by_hand(old, registry)
            for row in rows:
                statuses = Counter(status for _, status in before[(row.text, row.population.removeprefix("model="))])
                assert row.before == verdict_of([statuses[status] for status in TRIAGE_STATUSES])
            assert len({row.before for row in rows}) > 1  # the models' verdicts before differ: not the cell's alone
            await pilot.press("escape")
            assert pilot.app.screen is screen

    @pytest.mark.parametrize("size", [(160, 40), (80, 24)], ids=["160x40", "80x24"])
    async def test_a_by_value_s_row_says_its_paired_items_as_the_json_does(self, runs, capsys, size):
        # The flips view has the overall pairing; the overview's row of each --by value, its own: the items
        # lost and gained beside the rate change, and McNemar's p (the column gives way at 80 columns; the
        # line under the table says it for the selected group whatever the width).
        new, old, registry = runs
        _, out, _ = run_main(capsys, "triage", new, "--registry", registry, "--by", "model", "--against", old,
                             "--format", "json")
        said = {group["group"]: group["paired_items"] for group in json.loads(out)["comparison"]["groups"]
                if "paired_items" in group}
        worse = said["model=llama-z"]
        assert worse["accepted_before_only"] > worse["accepted_after_only"]  # the run made llama-z worse
        words = (f"-{worse['accepted_before_only']} +{worse['accepted_after_only']} of {worse['paired']}, "
                 f"p {worse['p']:.4f}" if worse["p"] >= 0.0001 else "p <0.0001")
        run = triage_run([str(new)], load_registry(registry), str(registry), ("model",), against=[str(old)])
        async with make_triage_app(run).run_test(size=size) as pilot:
            overview = await counted(pilot)
            select_group(overview, "model=llama-z")
            await pilot.pause()
            table = overview.query_one(GroupTable)
            row = next(row for row, group in enumerate(table.groups) if group.name == "model=llama-z")
            table.scroll_to_row(row)
            await pilot.pause()
            assert ("paired" in [column.key for column in table.columns]) is (size[0] > 120)
            if size[0] > 120:
                assert row_text(table, row).rstrip().endswith(words)
                failed = {(table.groups[at].name, key) for at, key in cells_styled(table, "safe-table--failed")}
                assert (("model=llama-z", "paired") in failed) is (worse["p"] < 0.01)  # a loss past noise: red
            line = overview.query_one("#groups-name").render().plain
            assert line.startswith("model=llama-z · items in both runs: " + words)
            select_group(overview, "VALUE_MISMATCH")  # a check's group: no items of its own
            await pilot.pause()
            assert "items in both runs" not in overview.query_one("#groups-name").render().plain

    async def test_without_against_f_is_not_offered(self, runs):
        new, _, registry = runs
        async with app_for(new, registry).run_test(size=SIZE) as pilot:
            overview = await counted(pilot)
            assert overview.check_action("flips", ()) is False  # (False: not in the footer)
            await pilot.press("f")
            assert pilot.app.screen is overview


def test_snapshot_of_the_trials_view(snap_compare, runs, monkeypatch):
    monkeypatch.chdir(runs[0].parent)

    async def settle(pilot):
        await trials_open(pilot)
        await pilot.pause()

    app = app_for("new.jsonl", "registry.json", "model")
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)
