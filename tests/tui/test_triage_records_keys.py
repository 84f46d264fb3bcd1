"""A group's records as a triage's reviewer uses them (issue 34): the keys that act there shown first
in the footer, annotated records marked in the list and found by the filter, a search that steps
with n/N without hiding any record, marks that survive a restart and are jumped between, and a
group opened while the overview follows a log growing with it."""

from __future__ import annotations

from pathlib import Path

from support.tui import SIZE, app_for, counted, row_text, select_group
from support.waiting import until
from textual.content import Content
from textual.widgets._footer import FooterKey

from inspector.suites.load import bundled_root
from inspector.triage.marked import read_marks
from inspector.triage.synth import write_log, write_registry
from inspector.tui.screens.records import RecordsScreen

SAMPLE = Path(bundled_root()) / "logs" / "sample.jsonl"
REGISTRY = Path(bundled_root()) / "logs" / "sample-registry.json"


def title(screen) -> str:
    found = screen.query_one("#cases-panel").border_title
    return (found if isinstance(found, Content) else Content.from_markup(found)).plain


def footer_keys(screen, width: int) -> list[str]:
    """The keys the footer shows whole within the terminal's width, left to right."""
    return [key.key for key in sorted(screen.query(FooterKey), key=lambda key: key.region.x)
            if key.region.width and key.region.right <= width]


async def opened(pilot, group: str) -> RecordsScreen:
    select_group(await counted(pilot), group)
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(pilot.app.screen, RecordsScreen), "the group opened")
    return pilot.app.screen


async def settled_footer(pilot, screen: RecordsScreen) -> None:
    await until(pilot, lambda: not screen.footer_pending, "the footer followed the keys", timeout=5)
    await pilot.pause()


async def matching(pilot, screen: RecordsScreen, text: str) -> str:
    screen.query_one("#filter").value = text
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    return title(screen)


async def test_the_footer_shows_a_groups_keys_and_annotated_records_are_marked_and_filtered(tmp_path):
    log = tmp_path / "app.jsonl"
    log.write_bytes(SAMPLE.read_bytes())
    async with app_for(log, REGISTRY, workers=1).run_test(size=SIZE) as pilot:
        records = await opened(pilot, "VALUE_MISMATCH")
        await settled_footer(pilot, records)
        shown = footer_keys(records, SIZE[0])
        for key in ("slash", "ctrl+f", "space", "t", "w", "a", "ctrl+e"):
            assert key in shown, (key, shown)
        assert "U" not in shown and "C" not in shown  # nothing annotated, nothing marked yet
        await pilot.press("w", "j", "t", "space")  # wrong on the first, right on the second, marked
        await settled_footer(pilot, records)
        shown = footer_keys(records, SIZE[0])
        assert "U" in shown and "C" in shown and "right_curly_bracket" in shown, shown
        rows = [row_text(records.case_list, row) for row in range(3)]
        assert [row[:3] for row in rows] == [" ◆ ", "●◇ ", "   "], rows
        assert "◆" in records.case_list.HELP and "◇" in records.case_list.HELP
        group_size = len(records.session)
        assert await matching(pilot, records, "false_rejection") == \
            f"VALUE_MISMATCH · 1 of {group_size} records match · 1 marked"
        assert records.browse.visible == (0,)
        assert await matching(pilot, records, "annotated") == \
            f"VALUE_MISMATCH · 2 of {group_size} records match · 1 marked"
        assert await matching(pilot, records, "marked true_rejection") == \
            f"VALUE_MISMATCH · 1 of {group_size} records match · 1 marked"
        assert records.browse.visible == (1,)


async def test_a_search_highlights_its_matches_and_n_and_N_step_through_them_hiding_none(tmp_path):
    log = tmp_path / "app.jsonl"
    log.write_bytes(SAMPLE.read_bytes())
    async with app_for(log, REGISTRY, "model", workers=1).run_test(size=SIZE) as pilot:
        records = await opened(pilot, "model=gpt-x")
        shown = len(records.browse.visible)
        await pilot.press("ctrl+f", *"prompt_version=p2", "enter")
        await until(pilot, lambda: records.searched is not None, "the search read the records")
        await pilot.pause()
        matches = records.searched.numbers
        assert 0 < len(matches) < shown and len(records.browse.visible) == shown  # nothing hidden
        assert f"search {len(matches)}" in title(records)
        assert records.browse.current == matches[0]  # Enter: the first match from the record shown
        await pilot.press("n")
        assert records.browse.current == matches[1]
        await pilot.press("N", "N")
        assert records.browse.current == matches[-1]  # back past the first: round to the last
        table = records.case_list
        other = next(row for row, number in enumerate(records.browse.visible[:20]) if number not in matches)
        match_row = next(row for row, number in enumerate(records.browse.visible[:20])
                         if number in matches and number != records.browse.current)
        assert table.row_style(match_row) == "safe-table--marked" and table.row_style(other) is None
        await pilot.press("escape")  # clears the search, not the list
        await pilot.pause()
        assert records.searched is None and table.row_style(match_row) is None
        assert pilot.app.screen is records and "search" not in title(records)


async def test_marks_are_kept_beside_the_log_and_jumped_between(tmp_path):
    log = tmp_path / "app.jsonl"
    log.write_bytes(SAMPLE.read_bytes())
    async with app_for(log, REGISTRY, workers=1).run_test(size=SIZE) as pilot:
        records = await opened(pilot, "INVALID_JSON")
        await pilot.press("j", "space", "j", "j", "j", "space", "g")
        await pilot.pause()
        marked = records.session.marks.numbers()
        assert marked == [1, 4]
    assert len(read_marks(str(log))[0]) == 2
    async with app_for(log, REGISTRY, workers=1).run_test(size=SIZE) as pilot:  # the inspector started again
        records = await opened(pilot, "INVALID_JSON")
        assert records.session.marks.numbers() == [1, 4] and title(records).endswith("· 2 marked")
        await pilot.press("right_curly_bracket")
        assert records.browse.current == 1
        await pilot.press("right_curly_bracket")
        assert records.browse.current == 4
        await pilot.press("right_curly_bracket")
        assert records.browse.current == 1  # round past the last
        await pilot.press("left_curly_bracket")
        assert records.browse.current == 4
        await pilot.press("C")
        await pilot.pause()
        assert not records.session.marks
    assert read_marks(str(log)) == ([], True)


async def test_a_group_opened_while_following_grows_and_G_goes_to_the_newest(tmp_path):
    registry = write_registry(tmp_path / "registry.json")
    write_log(tmp_path / "source.jsonl", 400, seed=4)
    lines = (tmp_path / "source.jsonl").read_bytes().splitlines(keepends=True)
    log = tmp_path / "app.jsonl"
    log.write_bytes(b"".join(lines[:100]))
    app = app_for(log, registry, follow=True, poll_seconds=0.05)
    async with app.run_test(size=SIZE) as pilot:
        overview = app.overview
        await until(pilot, lambda: overview.counted is not None and overview.counted.following, "following")
        select_group(overview, "INVALID_JSON")
        await pilot.press("enter")
        records = app.screen
        assert isinstance(records, RecordsScreen)
        before = len(records.session)
        assert title(records).endswith("· following")
        with open(log, "ab") as out:
            out.write(b"".join(lines[100:300]))
        await until(pilot, lambda: overview.counted.lines == 300, "the appended lines counted")
        await until(pilot, lambda: len(records.session) > before, "the group grew")
        grown = overview.counted.summary.group("INVALID_JSON").records
        assert len(records.session) == grown and title(records).startswith(f"INVALID_JSON · cases {grown}")
        await pilot.press("G")
        assert records.browse.current == grown - 1
        assert records.selection.report.id == records.session.ids[grown - 1]
        assert f"{grown}/{grown}" in str(records.query_one("#claims-panel").border_title)
        with open(log, "ab") as out:  # on the newest, as tail -f: the newest stays shown as the group grows
            out.write(b"".join(lines[300:]))
        await until(pilot, lambda: len(records.session) > grown, "the group grew again")
        newest = len(records.session) - 1
        await until(pilot, lambda: records.browse.current == newest, "the newest shown")
        assert records.selection.report.id == records.session.ids[newest]
        await pilot.press("k")  # another record opened: it stays, the group growing under it
        kept = records.browse.current
        with open(log, "ab") as out:
            out.write(b"".join(lines[300:]))
        await until(pilot, lambda: len(records.session) > newest + 1, "the group grew a third time")
        assert records.browse.current == kept
        await pilot.press("escape")
        assert app.screen is overview
        assert "following" in str(overview.query_one("#triage-panel").border_title)
        await pilot.press("escape")  # stops following: the title says so no more
        await until(pilot, lambda: overview.counted.done, "stopped")
        assert "following" not in str(overview.query_one("#triage-panel").border_title)


def _records_scene(folder: Path, size: tuple[int, int]):
    """The app and what to do before a picture: a group's records with two records marked, one annotated
    wrong and one right (signed and dated as given: the picture does not depend on when it is taken), and a
    search highlighting its matches."""
    from inspector.triage.annotations import annotate, new_annotation

    (folder / "app.jsonl").write_bytes(SAMPLE.read_bytes())

    async def settle(pilot):
        records = await opened(pilot, "VALUE_MISMATCH")
        members = records.session.cases.members
        for number, decision in ((0, "false_rejection"), (2, "true_rejection")):
            file, line, offset, text = members.line(number)
            annotate(file, new_annotation(file, line, offset, text, members.entry(number)[3], decision,
                                          "seen", reviewer="Ada", at="2026-12-02T06:30:00Z"))
        records._show_annotated()
        await pilot.press("space", "j", "j", "space", "g", "ctrl+f", *"raw:max_connections", "enter")
        await until(pilot, lambda: records.searched is not None, "the search read the records")
        await settled_footer(pilot, records)
        await pilot.press("j")
        records.query_one("#search").cursor_blink = False
        await settled_footer(pilot, records)

    return app_for("app.jsonl", REGISTRY, workers=1), settle


def test_snapshot_of_a_groups_records_marked_annotated_and_searched(snap_compare, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app, settle = _records_scene(tmp_path, SIZE)
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


def test_snapshot_of_a_groups_records_marked_annotated_and_searched_at_80x24(snap_compare, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app, settle = _records_scene(tmp_path, (80, 24))
    assert snap_compare(app, terminal_size=(80, 24), run_before=settle)
