"""The triage overview on a log that changed since it was counted (issue 17,
item 2), and the export form's count field (item 13), with Pilot: the export
refused in the form, nothing written, ``ctrl+r`` counting again; a group not
opened; ``²`` or 4,301 digits a refusal in the form, not a crash."""

from __future__ import annotations

import threading
from pathlib import Path

from inspector.presentation.overview import log_changes
from inspector.reports.audit import audit
from inspector.suites.load import load_suite
from inspector.triage import run as engine_run
from inspector.triage.synth import write_log, write_registry
from inspector.tui.screens.records import RecordsScreen
from support.tui import SIZE, app_for, counted, export_form, select_group, submitted
from support.waiting import until


def notifications(app) -> list[str]:
    return [notification.message for notification in app._notifications]


def logs(tmp_path: Path) -> tuple[Path, Path]:
    registry = write_registry(tmp_path / "registry.json")
    log = tmp_path / "app.jsonl"
    write_log(log, 200, seed=2)
    return log, registry


async def test_an_export_after_the_log_was_rewritten_is_refused_in_the_form_and_ctrl_r_counts_again(tmp_path):
    # Before: "wrote 1 case" of other records, labelled ACCEPT (audit then fails); a shifted log: 0 cases.
    log, registry = logs(tmp_path)
    out = tmp_path / "accept.json"
    async with app_for(log, registry).run_test(size=SIZE) as pilot:
        screen = await counted(pilot)
        select_group(screen, "ACCEPT")
        await pilot.pause()
        form = await export_form(pilot, out)
        assert not form.check_action("recount", ())  # no ctrl+r in the footer until a log changed
        mix = write_log(log, 200, seed=3)  # the same file rewritten while the form is open
        status = await submitted(pilot, form)
        assert status.startswith(f"✗ {log}: the log changed since it was counted (")
        assert "nothing was written" in status and "^r closes the form and counts again" in status
        assert not out.exists() and pilot.app.screen is form
        assert form.check_action("recount", ())
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert pilot.app.screen is screen
        screen = await counted(pilot)
        assert screen.generation == 1
        assert screen.counted.summary.group("ACCEPT").records == mix.statuses["ACCEPT"]
        select_group(screen, "ACCEPT")
        await pilot.pause()
        form = await export_form(pilot, out)
        status = await submitted(pilot, form)
        assert status.startswith(f"wrote {mix.statuses['ACCEPT']} cases into {out}")
    suite = load_suite(out)
    assert audit([suite]).mismatches == () and len(suite.cases) == mix.statuses["ACCEPT"]


async def test_a_changed_log_s_groups_are_not_opened_or_exported_the_screen_says_so(tmp_path):
    log, registry = logs(tmp_path)
    async with app_for(log, registry).run_test(size=SIZE, notifications=True) as pilot:
        screen = await counted(pilot)
        select_group(screen, "ACCEPT")
        log.write_bytes(b"\n" * 7 + log.read_bytes())  # every line shifted
        await pilot.press("ctrl+e")
        await pilot.pause()
        assert pilot.app.screen is screen
        await pilot.press("enter")
        await pilot.pause()
        assert pilot.app.screen is screen
        said = notifications(pilot.app)
        assert len(said) == 2 and all(message.startswith(f"{log}: the log changed since it was counted (")
                                      and message.endswith("; ctrl+r counts again") for message in said)
        assert "nothing of it can be exported" in said[0] and "nothing of it can be opened" in said[1]
        await pilot.press("ctrl+r")
        screen = await counted(pilot)
        assert log_changes(screen.counted) == [] and screen.counted.stamps[str(log)].size == log.stat().st_size
        index = screen.counted.summary.tally.index
        assert index.entry(0)[3] == "BAD" and index.entry(next(index.where("ACCEPT")))[1] > 7  # the shifted log


async def test_the_count_field_refuses_what_is_no_whole_number_in_the_form(tmp_path):
    # Before: "²" passed isdigit and int() raised ValueError, as did 4,301 digits: the app exited.
    log, registry = logs(tmp_path)
    out = tmp_path / "accept.json"
    async with app_for(log, registry).run_test(size=SIZE) as pilot:
        screen = await counted(pilot)
        select_group(screen, "ACCEPT")
        await pilot.pause()
        records = screen.counted.summary.group("ACCEPT").records
        form = await export_form(pilot, out, "²")
        allowed = f"records: a whole number from 1 to {records:,}"
        assert await submitted(pilot, form) == f"{allowed} (digits 0-9 only)"
        form.query_one("#export-limit").value = "9" * 4301
        assert await submitted(pilot, form) == f"{allowed}; 4,301 digits is more"
        form.query_one("#export-limit").value = str(records + 1)
        assert await submitted(pilot, form) == f"{allowed}; {records + 1:,} is not"
        assert pilot.app.screen is form and pilot.app.is_running and not out.exists()
        assert form.query_one("#export-limit").has_focus
        form.query_one("#export-limit").value = "10"
        assert (await submitted(pilot, form)).startswith(f"wrote 10 cases into {out}")


async def test_records_opened_before_the_log_changed_say_once_how_to_count_again(tmp_path):
    log, registry = logs(tmp_path)
    async with app_for(log, registry).run_test(size=SIZE, notifications=True) as pilot:
        screen = await counted(pilot)
        select_group(screen, "ACCEPT")
        await pilot.press("enter")
        await pilot.pause()
        records = pilot.app.screen
        assert isinstance(records, RecordsScreen) and not records.selection.report.broken
        await pilot.press("v")  # a lab edit of the first record (value.perturb)
        assert records.session.edits() == [0]
        write_log(log, 200, seed=3)
        for key in ("G", "k"):  # records not read before the change
            await pilot.press(key)
            assert records.selection.report.broken
            assert "the log changed since it was counted" in str(records.selection.report.error)
        said = [message for message in notifications(pilot.app) if message.startswith(str(log))]
        assert len(said) == 1 and said[0].startswith(f"{log}: the log changed since it was counted (")
        assert said[0].endswith("Esc, then ctrl+r in the overview counts again")
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is screen
        await pilot.press("ctrl+r")  # the edit would be dropped: asked first
        assert screen.generation == 0 and notifications(pilot.app)[-1].startswith("1 opened group holds lab edits")
        await pilot.press("ctrl+r")
        screen = await counted(pilot)
        assert screen.generation == 1 and not screen._sessions


async def test_ctrl_r_while_counting_stops_that_count_and_counts_again_from_the_start(tmp_path, monkeypatch):
    log, registry = logs(tmp_path)
    gate, tasks, work = threading.Event(), [0], engine_run._work

    def gated(task):
        tasks[0] += 1
        if tasks[0] == 2:
            gate.wait(10)  # the first count's second task waits until ctrl+r was pressed
        return work(task)

    monkeypatch.setattr(engine_run, "_work", gated)
    app = app_for(log, registry, workers=1, task_bytes=16 * 1024, progress_every=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.overview
        await until(pilot, lambda: screen.counted is not None, "the first counts shown", timeout=10)
        assert not screen.counted.done
        await pilot.press("ctrl+r")
        assert screen.generation == 1 and screen.counted is None
        gate.set()
        final = (await counted(pilot)).counted
        assert not final.cancelled and final.lines == 200  # the whole log, counted once by the second count
        assert screen.generation == 1
