"""The case list: a row per visible case (the main screen's ``browse``) with its
frozen label and verdict, ≠ for a verdict that differs, ! for a case that could
not be loaded; the open case under the cursor; a click opens a case."""

from __future__ import annotations

import json
from pathlib import Path

from support import ARTICLE
from inspector.suites.load import load_suite
from inspector.tui.widgets.case_list import CaseList
from support.tui import case_id, inspecting, open_id, row_text, write_suite


async def test_click_a_case(article):
    async with inspecting(article) as pilot:
        await pilot.click(CaseList, offset=(5, 4))  # header, then rows 0..: row 3
        await pilot.pause()
        assert case_id(pilot.app) == "real-quote-wrong-value"
        assert pilot.app.main.browse.current == 3 and pilot.app.main.query_one(CaseList).cursor == 3


async def test_a_click_in_a_filtered_list_opens_the_row_shown(article):
    async with inspecting(article) as pilot:
        await pilot.press("slash", *"scope", "enter")
        await pilot.click(CaseList, offset=(5, 2))  # header, row 0, row 1
        await pilot.pause()
        assert case_id(pilot.app) == "billing-service-claims"
        assert pilot.app.main.query_one(CaseList).cursor == 1


async def test_rows_show_the_label_and_the_verdict(article):
    async with inspecting(article) as pilot:
        listed = pilot.app.main.query_one(CaseList)
        assert row_text(listed, 0).split() == ["complete-answer", "ACCEPT"]  # they agree: one label
        assert listed.row_count == 22


async def test_a_differing_verdict_and_a_broken_case_are_marked(tmp_path: Path):
    data = json.loads(ARTICLE.read_text(encoding="utf-8"))
    data["cases"][1]["expected"] = "VALUE_MISMATCH"  # reordered-claims is accepted
    data["cases"][2]["request"] = "not a request"  # one-field-request cannot be loaded
    path = write_suite(tmp_path / "marked.json", data)
    async with inspecting([load_suite(path, strict=False)]) as pilot:
        listed = pilot.app.main.query_one(CaseList)
        assert row_text(listed, 0).split() == ["complete-answer", "ACCEPT"]
        differs = row_text(listed, 1)
        assert differs.split()[0] == "≠" and "VALUE_MISMATCH ≠ " in differs
        both = listed.columns[-1]
        assert both.key == "both"  # 120 columns: expected and actual share one (truncated here)
        assert "".join(text for text, _ in listed.cell(1, both)) == "VALUE_MISMATCH ≠ ACCEPT"
        broken = row_text(listed, 2)
        assert broken.split()[0] == "!" and "ERROR" in broken


async def test_the_open_case_stays_in_view(article):
    async with inspecting(article, "claim-confidence-member") as pilot:
        listed = pilot.app.main.query_one(CaseList)
        assert listed.cursor == 21
        assert "claim-confidence" in row_text(listed, 21)  # scrolled into view
        open_id(pilot.app, "complete-answer")
        await pilot.pause()
        assert listed.cursor == 0 and "complete-answer" in row_text(listed, 0)


async def test_a_wide_list_has_a_column_each_for_the_label_and_the_verdict(tmp_path: Path):
    data = json.loads(ARTICLE.read_text(encoding="utf-8"))
    data["cases"][1]["expected"] = "VALUE_MISMATCH"
    path = write_suite(tmp_path / "wide.json", data)
    async with inspecting([load_suite(path)], size=(200, 50)) as pilot:
        listed = pilot.app.main.query_one(CaseList)
        assert [column.key for column in listed.columns] == ["mark", "id", "expected", "actual"]
        assert row_text(listed, 0).split() == ["complete-answer", "ACCEPT", "ACCEPT"]
        assert row_text(listed, 1).split() == ["≠", "reordered-claims", "VALUE_MISMATCH", "ACCEPT"]


async def test_ids_are_read_before_labels_are(article):
    """At 80×24 the id has the room the labels can spare (it tells the rows apart; the
    verdict panel has the label whole); at 120×36 the labels keep room for "expected ≠"."""
    async with inspecting(article, size=(80, 24)) as pilot:
        cases = pilot.app.main.query_one(CaseList)
        assert row_text(cases, 1).split()[0] == "reordered-claims"
        assert row_text(cases, 5).split()[0] == "dev-environment…"
        assert "VALUE_MIS" in row_text(cases, 3)  # the label still tells its code
    async with inspecting(article, size=(120, 36)) as pilot:
        cases = pilot.app.main.query_one(CaseList)
        assert row_text(cases, 1).split()[:2] == ["reordered-claims", "ACCEPT"]
        assert row_text(cases, 3).split()[:2] == ["real-quote-wrong-…", "VALUE_MISMATCH"]


async def test_opening_a_suite_of_one_case_says_one_case(tmp_path):
    data = json.loads(ARTICLE.read_text(encoding="utf-8"))
    one = write_suite(tmp_path / "one.json", {**data, "cases": data["cases"][:1]})
    async with inspecting([load_suite(ARTICLE)], notifications=True) as pilot:
        pilot.app.main.add_suite(load_suite(one))
        await pilot.pause()
        said = [str(notification.message) for notification in pilot.app._notifications]
        assert said == ["opened one: 1 case"]
        pilot.app.main.add_suite(load_suite(one))
        await pilot.pause()
        assert str(list(pilot.app._notifications)[-1].message) == "one is already open (1 case)"
