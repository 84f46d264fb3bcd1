"""The triage overview following a log (``inspector triage LOG --follow``, issue 18),
in one Pilot run: lines appended are counted and move the groups and the
histogram, the head says it is following, a rotation is said, Esc stops."""

from __future__ import annotations

import os

from inspector.triage.synth import write_log, write_registry
from inspector.tui.widgets.group_table import GroupTable
from support.tui import SIZE, app_for
from support.waiting import until


def head(screen) -> str:
    return str(screen.query_one("#triage-head").render())


def accepted(screen) -> int:
    return next(group.records for group in screen.query_one(GroupTable).groups if group.name == "ACCEPT")


async def test_the_overview_follows_appended_lines_says_so_and_says_a_rotation(tmp_path):
    registry = write_registry(tmp_path / "registry.json")
    write_log(tmp_path / "source.jsonl", 200, seed=4)
    lines = (tmp_path / "source.jsonl").read_bytes().splitlines(keepends=True)
    log = tmp_path / "app.jsonl"
    log.write_bytes(b"".join(lines[:60]))
    app = app_for(log, registry, follow=True, poll_seconds=0.05)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = app.overview
        await until(pilot, lambda: screen.counted is not None and screen.counted.following, "following")
        assert "following: " in head(screen) and " new lines/s · Esc stops following" in head(screen)
        assert screen.counted.lines == 60 and "following" in str(screen.query_one("#triage-progress").render())
        before, bars = accepted(screen), sum(bar.records for bar in screen.counted.summary.histogram.bars)
        with open(log, "ab") as out:
            out.write(b"".join(lines[60:150]))
        await until(pilot, lambda: screen.counted.lines == 150, "the appended lines counted")
        assert head(screen).startswith("150 lines · ")
        assert accepted(screen) > before  # the group table moved
        assert sum(bar.records for bar in screen.counted.summary.histogram.bars) > bars
        os.rename(log, tmp_path / "app.jsonl.1")
        log.write_bytes(b"".join(lines[160:170]))
        await until(pilot, lambda: screen.counted.events and screen.counted.lines == 160, "the rotation followed")
        said = [notification.message for notification in app._notifications]
        assert said == [f"{log}: renamed and replaced after line 150: the old file is read on to its end, the new "
                        "one from its start (line 1)"]
        assert "rotated: " in head(screen) and "renamed and replaced after line 150" in head(screen)
        await pilot.press("escape")
        await until(pilot, lambda: screen.counted.done, "stopped")
        assert screen.counted.cancelled and "stopped following: the counts are the lines counted before Esc" in \
            head(screen)


async def test_the_pivot_view_follows_the_count_while_it_is_open_and_not_once_closed(tmp_path):
    from inspector.tui.screens.pivot import PivotScreen
    from inspector.tui.widgets.pivot_table import PivotTable

    registry = write_registry(tmp_path / "registry.json")
    write_log(tmp_path / "source.jsonl", 200, seed=4)
    lines = (tmp_path / "source.jsonl").read_bytes().splitlines(keepends=True)
    log = tmp_path / "app.jsonl"
    log.write_bytes(b"".join(lines[:60]))
    app = app_for(log, registry, follow=True, poll_seconds=0.05)
    async with app.run_test(size=SIZE) as pilot:
        overview = app.overview
        await until(pilot, lambda: overview.counted is not None and overview.counted.following, "following")
        await pilot.press("p")
        pivot = app.screen
        assert isinstance(pivot, PivotScreen)
        table = pivot.query_one(PivotTable)
        assert pivot.snapshot.lines == 60
        assert sum(cell.records for cell in table.cells) == overview.counted.summary.records
        with open(log, "ab") as out:
            out.write(b"".join(lines[60:150]))
        await until(pilot, lambda: pivot.snapshot.lines == 150, "the pairs moved with the count")
        assert sum(cell.records for cell in table.cells) == pivot.snapshot.summary.records > 100
        assert "counting…" in str(pivot.query_one("#pivot-head").render())
        await pilot.press("escape")
        assert app.screen is overview
        with open(log, "ab") as out:
            out.write(b"".join(lines[150:170]))
        await until(pilot, lambda: overview.counted.lines == 170, "the overview counted on")
        assert pivot.snapshot.lines == 150  # closed: no longer told
