"""Annotating a triage group's record in the inspector (issue 19): w marks the contract wrong,
N opens the form (a hostile note shown literally, never as markup), U clears, and the
overview's annotated column follows.  One app for the whole story."""

from __future__ import annotations

from pathlib import Path

from msgspec.structs import replace

from support.tui import SIZE, app_for, counted, select_group
from support.waiting import until

from inspector.suites.load import bundled_root
from inspector.triage.annotations import annotate, annotations_path, read_annotations
from inspector.tui.screens.annotate import AnnotateScreen
from inspector.tui.screens.records import RecordsScreen
from inspector.tui.widgets.group_table import GroupTable
from inspector.tui.widgets.record_strip import RecordStrip

REGISTRY = Path(bundled_root()) / "logs" / "sample-registry.json"
NOTE = "[bold]loud[/bold] \x1b[31mred"


async def test_annotating_a_record_shows_in_its_strip_and_the_overview(tmp_path):
    log = tmp_path / "app.jsonl"
    log.write_bytes((Path(bundled_root()) / "logs" / "sample.jsonl").read_bytes())
    async with app_for(log, REGISTRY, workers=1).run_test(size=SIZE) as pilot:
        overview = await counted(pilot)
        table = overview.query_one(GroupTable)
        assert table.columns[-1].key != "annotated"  # nothing annotated yet: no column
        select_group(overview, "VALUE_MISMATCH")
        await pilot.press("enter")
        records = pilot.app.screen
        assert isinstance(records, RecordsScreen)
        await pilot.press("w")  # the contract was wrong: a false rejection
        await pilot.pause()
        log_notes = read_annotations(str(log))
        assert [found.decision for found in log_notes] == ["false_rejection"]
        assert "false_rejection" in records.query_one(RecordStrip).render().plain
        # Another process annotates the same record meanwhile (issue 29): the next key replaces it, and says so.
        mine = next(iter(log_notes))
        theirs = replace(mine, decision="true_rejection", reviewer="Bo", at="2026-12-02T06:30:00Z")
        annotate(str(log), theirs)
        await pilot.press("w")
        await pilot.pause()
        assert [(found.decision, found.reviewer) for found in read_annotations(str(log))] == [
            ("false_rejection", mine.reviewer)]
        assert any("replaced Bo's true_rejection" in str(note.message) for note in pilot.app._notifications)
        await pilot.press("a")  # the form with a note (N is the previous search match here)
        await pilot.pause()
        form = pilot.app.screen
        assert isinstance(form, AnnotateScreen)
        assert form.value("decision") == "false_rejection"
        form.input("decision").value = "true_acceptance"  # not of a rejected record's pair: refused in the form
        await pilot.press("enter")
        await pilot.pause()
        assert pilot.app.screen is form and "true_acceptance" not in [a.decision for a in read_annotations(str(log))]
        form.input("decision").value = "false"
        form.input("note").value = NOTE
        await pilot.press("enter")
        await until(pilot, lambda: pilot.app.screen is records, "the form closed on the records", timeout=5)
        assert [found.note for found in read_annotations(str(log))] == [NOTE]
        strip = records.query_one(RecordStrip).render().plain
        assert "[bold]loud[/bold]" in strip and "\\u001b[31mred" in strip and "\x1b" not in strip
        await pilot.press("j", "t")  # the next record: the contract was right
        await pilot.pause()
        assert sorted(found.decision for found in read_annotations(str(log))) == ["false_rejection",
                                                                                    "true_rejection"]
        # A read-only annotations file (issue 29) is refused in a notice, and kept as it was.
        path = annotations_path(str(log))
        path.chmod(0o444)
        before = path.read_bytes()
        await pilot.press("w")
        await pilot.pause()
        assert any(note.title == "cannot annotate" and "is read-only" in str(note.message)
                   for note in pilot.app._notifications)
        assert path.read_bytes() == before
        path.chmod(0o644)
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is overview
        assert table.columns[-1].key == "annotated"
        group = next(group for group in table.groups if group.name == "VALUE_MISMATCH")
        assert (group.annotated, group.false_rejections) == (2, 1)
        row = next(row for row, found in enumerate(table.groups) if found is group)
        assert table.cell(row, table.columns[-1]) == ("2 · 1 false", table.cell(row, table.columns[-1])[1])
        select_group(overview, "VALUE_MISMATCH")
        await pilot.press("enter")
        records = pilot.app.screen
        await pilot.press("g", "U")  # the first record's annotation cleared (the group reopens where it was left)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert (group.annotated, group.false_rejections) == (1, 0)
        assert annotations_path(str(log)).exists()


def typed_at_once(app, keys: str | list[str]) -> None:  # noqa: ANN001 - a running app
    """Keys as a fast typist (or a paste) sends them: every event queued before any is handled."""
    from textual import events

    for key in keys:
        char = key if len(key) == 1 else None
        name = {" ": "space"}.get(key, key)
        app._driver.send_message(events.Key(name, char))


async def test_typed_fast_tab_moves_to_the_note_before_the_next_key(tmp_path):
    log = tmp_path / "app.jsonl"
    log.write_bytes((Path(bundled_root()) / "logs" / "sample.jsonl").read_bytes())
    async with app_for(log, REGISTRY, workers=1).run_test(size=SIZE) as pilot:
        overview = await counted(pilot)
        select_group(overview, "VALUE_MISMATCH")
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        form = pilot.app.screen
        assert isinstance(form, AnnotateScreen) and form.value("decision") == ""
        typed_at_once(pilot.app, [*"false", "tab", *"off by one"])
        await pilot.pause()
        await pilot.pause()
        assert (form.value("decision"), form.value("note")) == ("false", "off by one")
        typed_at_once(pilot.app, ["shift+tab", *"!"])
        await pilot.pause()
        await pilot.pause()
        assert (form.value("decision"), form.value("note")) == ("false!", "off by one")
