"""In a triage group (issue 20), in the inspector: ``/`` filters the records by metadata and by the
answer's text (the title says how many match, a filter that cannot be read says why), space marks
records (a column, counted in the title), ``C`` clears them, ``ctrl+e`` exports the marked ones or a
sample drawn as the headless ``--sample N --seed S`` draws it; an exported case's metadata shows in
the verdict panel of ``inspector open``.  The filter, the marks and the form are tested headless in
tests/presentation/test_record_filter.py; these check the screen's wiring."""

from __future__ import annotations

import json
from pathlib import Path

from support import run_main
from support.tui import SIZE, app_for, counted, flowing, inspecting, row_text, select_group, submitted, verdict_text
from textual.content import Content

from inspector.suites.load import bundled_root, load_suite
from inspector.tui.screens.export import ExportScreen
from inspector.tui.screens.records import RecordsScreen

SAMPLE = Path(bundled_root()) / "logs" / "sample.jsonl"
REGISTRY = Path(bundled_root()) / "logs" / "sample-registry.json"


def title(screen: RecordsScreen) -> str:
    found = screen.query_one("#cases-panel").border_title
    return (found if isinstance(found, Content) else Content.from_markup(found)).plain


async def filtered(pilot, screen: RecordsScreen, *keys: str, text: str | None = None) -> str:
    """The title once the filter typed (``keys``, or ``text`` put in the field at once) has read."""
    await pilot.press(*keys)
    if text is not None:
        screen.query_one("#filter").value = text
        await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    return title(screen)


async def test_filter_mark_and_export_a_groups_records(tmp_path, capsys):
    app = app_for(SAMPLE, REGISTRY, "model", workers=1)  # a 300-line log: no worker to fork
    async with app.run_test(size=SIZE) as pilot:
        select_group(await counted(pilot), "model=gpt-x")
        await pilot.press("enter")
        records = pilot.app.screen
        assert isinstance(records, RecordsScreen)
        assert await filtered(pilot, records, "slash", *"model=gpt-x") == "model=gpt-x · 149 of 149 records match"
        said = await filtered(pilot, records, text="prompt_version=p2")
        assert said == "model=gpt-x · 42 of 149 records match"
        assert len(records.browse.visible) == 42
        await pilot.press("enter", "ctrl+e")  # what the list shows is exported (before: the group's first 5)
        await pilot.pause()
        form = pilot.app.screen
        assert isinstance(form, ExportScreen) and form.value("limit") == "42"
        assert "42 of the group's 149 records shown (filter prompt_version=p2)" in form.head().plain
        form.query_one("#export-path").value = str(tmp_path / "filtered.json")
        form.query_one("#export-limit").value = "5"
        assert "wrote 5 cases" in await submitted(pilot, form)
        await pilot.press("escape", "slash")  # the form closed; back in the filter, as typed
        filtered_cases = load_suite(tmp_path / "filtered.json").cases
        assert [case.metadata.members["prompt_version"] for case in filtered_cases] == ["p2"] * 5
        assert [f"sample.jsonl:{case.metadata.line}" for case in filtered_cases] == \
            [records.session.ids[number] for number in records.browse.visible[:5]]
        said = await filtered(pilot, records, text="prompt_version=p2 raw:read_timeout_ms")  # in the answer too
        assert said == f"model=gpt-x · {len(records.browse.visible)} of 149 records match"
        assert 0 < len(records.browse.visible) < 42
        assert all("read_timeout_ms" in records.session.report(number).case.raw for number in records.browse.visible)
        said = await filtered(pilot, records, text="prompt_version=p2 nothing-like-it")
        assert said == "model=gpt-x · no record of 149 matches"
        said = await filtered(pilot, records, *' "x')
        assert said.startswith("model=gpt-x · filter: a quote is not closed")
        await pilot.press("enter")  # the list stays as it was; Esc clears the filter
        await pilot.press("escape")
        await pilot.pause()
        assert title(records) == "model=gpt-x · cases 149" and len(records.browse.visible) == 149

        await pilot.press("space", "j", "j", "space")
        await pilot.pause()
        assert title(records) == "model=gpt-x · cases 149 · 2 marked"
        rows = [row_text(records.case_list, row) for row in range(3)]
        assert [row.startswith("●") for row in rows] == [True, False, True]
        marked = [records.session.ids[number] for number in records.session.marks]

        await pilot.press("ctrl+e")
        await pilot.pause()
        form = pilot.app.screen
        assert isinstance(form, ExportScreen) and form.value("take") == "marked"
        form.query_one("#export-path").value = str(tmp_path / "marked.json")
        assert flowing(await submitted(pilot, form)).startswith(f"wrote 2 cases into {tmp_path / 'marked.json'} "
                                                                "the 2 record(s) marked")
        await pilot.press("escape")
        await pilot.press("ctrl+e")
        await pilot.pause()
        form = pilot.app.screen
        for field, value in (("path", str(tmp_path / "sample.json")), ("take", "sample"), ("limit", "5"),
                             ("seed", "7")):
            form.query_one(f"#export-{field}").value = value
        assert "a random sample of 5 of the group's 149 records, seed 7" in await submitted(pilot, form)
        await pilot.press("escape", "C")
        await pilot.pause()
        assert title(records) == "model=gpt-x · cases 149" and not records.session.marks

    assert [f"sample.jsonl:{case.metadata.line}" for case in load_suite(tmp_path / "marked.json").cases] == marked
    status, _, err = run_main(capsys, "triage", SAMPLE, "--registry", REGISTRY, "--by", "model", "--export",
                              "model=gpt-x", "--out", tmp_path / "headless.json", "--sample", "5", "--seed", "7")
    assert status == 0, err
    headless = [case["id"] for case in json.loads((tmp_path / "headless.json").read_text())["cases"]]
    assert [case.id for case in load_suite(tmp_path / "sample.json").cases] == headless


async def test_an_exported_cases_metadata_shows_in_the_verdict_panel(tmp_path, capsys):
    log = tmp_path / "hostile.jsonl"
    record = json.loads(SAMPLE.read_bytes().split(b"\n")[0])
    record["model"] = "[bold]x\x1b[2J"
    log.write_text(json.dumps(record) + "\n")
    status, _, err = run_main(capsys, "triage", log, "--registry", REGISTRY, "--export", "scope:" + "/".join(
        record["request"][key] for key in ("service", "environment", "revision")), "--out", tmp_path / "a.json")
    assert status == 0, err
    # A reviewer's decision on the record (an annotation carried into the case: human), its words untrusted too.
    document = json.loads((tmp_path / "a.json").read_text())
    document["cases"][0]["human"] = {"decision": "false_rejection", "reviewer": "bob\x1b[2J", "at":
                                     "2026-12-02T10:00:00Z", "verifier": "contract-0", "note": "[red]the quote is fine"}
    (tmp_path / "b.json").write_text(json.dumps(document))
    suite = load_suite(tmp_path / "b.json")
    async with inspecting([suite], suite.cases[0].id) as pilot:
        text = flowing(verdict_text(pilot.app))
        assert "reviewed false rejection by bob\\u001b[2J · 2026-12-02T10:00:00Z · [red]the quote is fine" in text
        assert "metadata /" in text and f"hostile.jsonl:1 · offset 0 · id {record['id']}" in text
        assert 'model "[bold]x\\u001b[2J"' in text and "\x1b" not in text  # quoted: it starts as JSON would
