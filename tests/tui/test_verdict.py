"""The verdict panel: the outcome and the frozen label, the baselines and the label
lens, call-outs, category, blame with the recall, conflicts; a view of fixed size
that scrolls with ^d ^u.  Read as the panel draws it (wrapped to its width)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input

from support import ARTICLE
from inspector.reports.case import CITATION_CALLOUT, LENS_CALLOUT
from inspector.reports.labels import LabelMatch
from inspector.suites.load import load_suite
from inspector.tui.screens.summary import SummaryScreen
from inspector.tui.widgets.case_list import CaseList
from inspector.tui.widgets.verdict import VerdictView
from support.tui import (
    many_conflicts_suite,
    case_id,
    flowing,
    inspecting,
    on_shared_app,
    open_id,
    reopened,
    row_text,
    settled,
    step_id,
    verdict_lines,
    verdict_text,
    write_suite,
)
from support.waiting import until


def says(app, *phrases: str) -> bool:  # noqa: ANN001 - the app
    """Whether the verdict panel says each phrase (its wrapping undone)."""
    text = flowing(verdict_text(app))
    return all(phrase in text for phrase in phrases)


class TestFrozenLabel:
    async def test_a_bare_status_matches_any_sub_reason_in_the_list_and_the_verdict(self, tmp_path: Path):
        # The verdict is INVALID_JSON/DUPLICATE_KEY; the frozen label says only INVALID_JSON.
        data = json.loads(ARTICLE.read_text(encoding="utf-8"))
        cases = {case["id"]: case for case in data["cases"]}
        cases["duplicate-claims-key"]["expected"] = "INVALID_JSON"
        cases["numeric-value"]["expected"] = "NO_CITATION"  # a bare status that does not match
        path = write_suite(tmp_path / "bare.json", data)
        async with inspecting([load_suite(path)], "duplicate-claims-key") as pilot:
            app = pilot.app
            report = app.main.selection.report
            assert (report.expected, report.actual) == ("INVALID_JSON", "INVALID_JSON/DUPLICATE_KEY")
            assert report.label_match is LabelMatch.MATCHES and not report.differs
            # The case list: no ≠ mark, the one label.
            listed = app.main.query_one(CaseList)
            row = row_text(listed, app.main.browse.row_of(report.number))
            assert "≠" not in row and "!" not in row
            assert row.split()[0].startswith("duplicate-claims")  # no mark before the id
            assert row.split()[-1] == "DUPLICATE_KEY"  # one label: expected and actual agree
            # The verdict panel agrees.
            lines = verdict_lines(app)
            assert lines[:2] == [" INVALID_JSON/DUPLICATE_KEY", "✓ matches the frozen label"]
            assert "≠ frozen label" not in verdict_text(app)
            # A bare status that is not the verdict's differs in both.
            open_id(app, "numeric-value")
            await pilot.pause()
            assert app.main.selection.report.label_match is LabelMatch.DIFFERS
            row = row_text(listed, app.main.browse.row_of(app.main.selection.report.number))
            assert row.split()[:2] == ["≠", "numeric-value"] and "NO_CITATION ≠ NOT" in row
            assert verdict_lines(app)[1] == "≠ frozen label NO_CITATION"
            assert "✓ matches the frozen label" not in verdict_text(app)

    async def test_a_label_that_differs_is_marked_in_the_list_and_the_verdict(self, tmp_path: Path):
        data = json.loads(ARTICLE.read_text(encoding="utf-8"))
        data["cases"][3]["expected"] = "ACCEPT"  # real-quote-wrong-value is a VALUE_MISMATCH
        path = write_suite(tmp_path / "wrong.json", data)
        async with inspecting([load_suite(path)], "real-quote-wrong-value") as pilot:
            app = pilot.app
            assert app.main.selection.report.label_match is LabelMatch.DIFFERS
            assert verdict_lines(app)[1] == "≠ frozen label ACCEPT"
            row = row_text(app.main.query_one(CaseList), 3)
            assert row.split()[0] == "≠" and " ACCEPT ≠ VALUE_MI" in row


class TestBaselines:
    @on_shared_app
    async def test_citation_only_call_out(self, shared_app):
        pilot = await reopened(shared_app, "prod-v1-claims", "article")
        app = pilot.app
        assert app.main.selection.report.citation_callout == CITATION_CALLOUT
        assert says(app, "citation-only would have accepted this", "accepted nothing (an empty map)")
        open_id(app, "complete-answer", "article")
        await pilot.pause()
        assert not says(app, "citation-only would have accepted")
        assert "  read_timeout_ms = 5000" in verdict_lines(app)

    @on_shared_app
    async def test_the_label_lens_abstains_on_insufficient_evidence(self, shared_app):
        pilot = await reopened(shared_app, "expired", "access")
        app = pilot.app
        assert "label lens    ✗ ABSTAIN" in verdict_lines(app)
        assert app.main.selection.report.lens_callout is None
        assert not says(app, "label lens would answer")

    @on_shared_app
    async def test_the_lens_would_answer_a_stale_revision(self, shared_app):
        pilot = await reopened(shared_app, "stale-but-supported", "access")
        app = pilot.app
        assert app.main.selection.report.lens_callout == LENS_CALLOUT
        lines = verdict_lines(app)
        assert "label lens    ✓ ANSWER" in lines and "contract      ✗ reject" in lines
        assert says(app, LENS_CALLOUT, "wrong scope: Regenerate against the requested scope",
                    "generation: the supporting evidence was supplied (recall 1/1)")


class TestBeside:
    @on_shared_app
    async def test_a_conflict_is_flagged(self, shared_app):
        pilot = await reopened(shared_app, "conflict-wrong-side", "conflicts")
        app = pilot.app
        assert says(app, "conflicting evidence: Resolve the registry",
                    "⚠ conflict retry_enabled: ops-prod-v2 says false, wiki-prod-v2 says true")
        # A case that does not touch the conflict names none.
        open_id(app, "conflict-not-touched", "conflicts")
        await pilot.pause()
        assert app.main.selection.report.conflicts == ()
        assert not says(app, "⚠ conflict")

    @on_shared_app
    async def test_an_accepted_case_on_a_conflict_is_flagged_too(self, shared_app):
        pilot = await reopened(shared_app, "conflict-cite-ops", "conflicts")
        app = pilot.app
        assert verdict_lines(app)[0].startswith(" ACCEPT ")
        assert says(app, "⚠ conflict retry_enabled")
        assert app.main.selection.report.blame is None
        assert not says(app, "generation") and not says(app, "retrieval")  # no blame when accepted

    @on_shared_app
    @pytest.mark.parametrize(("case", "line"), [
        ("retrieval-supplied-nothing-relevant",
         "retrieval: no supplied source supports read_timeout_ms, retry_enabled (recall 0/2)"),
        ("retrieval-partial-recall", "generation: the supporting evidence was supplied (recall 1/2)"),
    ])
    async def test_whose_failure_with_the_recall(self, shared_app, case, line):
        pilot = await reopened(shared_app, case, "conflicts")
        assert says(pilot.app, line)

    @on_shared_app
    async def test_retrieval_that_supplied_an_unreadable_document(self, shared_app):
        pilot = await reopened(shared_app, "expired", "access")
        assert says(pilot.app, "unauthorized evidence: Fix access control before retrieval",
                    "retrieval: it supplied a document the scope may not read (recall 1/1)")

    async def test_many_disagreeing_documents_are_named_in_part(self, tmp_path: Path):
        async with inspecting([many_conflicts_suite(tmp_path)], "conflict-wrong-side") as pilot:
            app = pilot.app
            assert says(app, "… and 4 more documents")  # 8 disagree, 4 are named
            (conflict,) = app.main.selection.report.conflicts
            assert len(conflict.sources) == 8


class TestView:
    async def test_another_verdict_is_a_repaint_in_a_view_of_fixed_size(self, bundled):
        async with inspecting(bundled) as pilot:
            app = pilot.app
            view = app.main.query_one(VerdictView)
            open_id(app, "conflict-cite-ops", "conflicts")
            # Coming from the first case (two claims, one here) lays the screen out
            # once; wait until it has (a busy machine takes longer than a pause).
            await settled(pilot, view)
            size, lines = view.size, view.virtual_size.height
            open_id(app, "conflict-wrong-side", "conflicts")
            await until(pilot, lambda: view.virtual_size.height != lines, "the other verdict laid out", timeout=5)
            assert view.size == size  # the panel does not grow or shrink with the verdict
            assert view.virtual_size.height != lines
            assert view.virtual_size.height > size.height  # the rest scrolls
            assert verdict_lines(app)[0] == " VALUE_MISMATCH"

    async def test_keys_scroll_a_verdict_longer_than_the_panel(self, bundled):
        async with inspecting(bundled, "stale-but-supported", "access") as pilot:
            app = pilot.app
            view = app.main.query_one(VerdictView)
            # the rejection's verdict overflows at 120×36
            await until(pilot, lambda: view.max_scroll_y > 0, "the verdict overflowing its panel", timeout=5)
            where = (case_id(app), step_id(app))
            half = view.scrollable_content_region.height // 2
            top = view.render_line(0).text
            await pilot.press("ctrl+d")
            assert view.scroll_offset.y == min(half, view.max_scroll_y)
            assert view.render_line(0).text != top  # the panel draws the lines further down
            for _ in range(3):
                await pilot.press("pagedown")
            assert view.scroll_offset.y == view.max_scroll_y  # and no further
            await pilot.press("ctrl+u")
            assert view.scroll_offset.y == max(0, view.max_scroll_y - half)
            for _ in range(3):
                await pilot.press("pageup")
            assert view.scroll_offset.y == 0
            assert view.render_line(0).text == top
            assert (case_id(app), step_id(app)) == where  # the case and the step stay
            await pilot.press("ctrl+d")
            open_id(app, "expired", "access")
            await pilot.pause()
            assert view.scroll_offset.y == 0  # another case's verdict starts at its top

    @pytest.mark.parametrize(("suite", "case"), [("decode", "syntax-missing-colon"),  # a rejection
                                                  ("article", "one-field-request")])  # an accept
    async def test_keys_leave_a_verdict_that_fits_alone(self, bundled, suite, case):
        async with inspecting(bundled, case, suite, size=(120, 48)) as pilot:  # tall enough for either
            app = pilot.app
            view = app.main.query_one(VerdictView)
            await settled(pilot, view)
            assert view.max_scroll_y == 0
            where, text = (case_id(app), step_id(app)), verdict_lines(app)
            await pilot.press("ctrl+d", "pagedown", "ctrl+u", "pageup", "ctrl+d")
            assert view.scroll_offset.y == 0
            assert (case_id(app), step_id(app), verdict_lines(app)) == (*where, text)
            assert app.screen is app.main

    async def test_the_scroll_keys_do_not_steal_from_the_filter_or_the_summary(self, bundled):
        async with inspecting(bundled, "stale-but-supported", "access") as pilot:
            app = pilot.app
            view = app.main.query_one(VerdictView)
            await settled(pilot, view)
            await pilot.press("slash", *"stale", "ctrl+u")
            assert app.main.query_one("#filter", Input).value == ""  # ^u edits the filter as it types
            assert view.scroll_offset.y == 0
            await pilot.press("escape", "S")
            await pilot.pause()
            assert isinstance(app.screen, SummaryScreen)
            assert app.main.check_action("scroll_verdict_down", ()) is False
            await pilot.press("ctrl+d")
            assert view.scroll_offset.y == 0


# -- where an exported record's label came from ------------------------------------------------

def _exported(folder: Path) -> Path:
    """The article's first three cases as exported triage records: the contract's verdict as the
    label, a person's false rejection (its label ACCEPT), a person's false acceptance (no label)."""
    from support.tui import write_suite

    document = json.loads(ARTICLE.read_text(encoding="utf-8"))
    cases = document["cases"][:4]
    human = {"reviewer": "Ada \x1b[31m", "at": "2026-12-02T06:30:00Z", "verifier": "contract-x"}
    for number, case in enumerate(cases):
        case["metadata"] = {"file": "app.jsonl", "line": number + 1, "offset": 0}
    cases[1]["human"] = {"decision": "false_acceptance", **human}
    cases[1]["expected"] = None
    cases[3] = document["cases"][3] | {"human": {"decision": "false_rejection", **human}, "expected": "ACCEPT"}
    return write_suite(folder / "exported.json", {**document, "cases": cases})


async def test_the_panel_says_where_an_exported_records_label_came_from(tmp_path):
    suite = load_suite(_exported(tmp_path))
    async with inspecting([suite], "complete-answer") as pilot:
        app = pilot.app
        text = flowing(verdict_text(app))
        assert "✓ matches the frozen label label frozen from the contract's verdict when exported" in text
        open_id(app, "reordered-claims")
        await pilot.pause()
        text = flowing(verdict_text(app))
        assert "matches the frozen label" not in text and "no frozen label" not in text
        assert ("unlabelled: a person's annotation says false acceptance by Ada \\u001b[31m · "
                "2026-12-02T06:30:00Z (which rejection is right is not said)") in text
        assert row_text(app.main.query_one(CaseList), 1).startswith("? reordered-claims")  # marked in the list
        open_id(app, "real-quote-wrong-value")
        await pilot.pause()
        text = flowing(verdict_text(app))
        assert "≠ frozen label ACCEPT label from a person's annotation: false rejection by Ada" in text


async def _the_unlabelled_record(pilot) -> None:  # noqa: ANN001 - the snapshot's pilot
    from inspector.tui.scenes import keep_toasts

    keep_toasts(pilot.app)
    await pilot.pause()
    open_id(pilot.app, "reordered-claims")
    await pilot.pause()


@pytest.mark.parametrize("size", [(120, 36), (80, 24)], ids=["120x36", "80x24"])
def test_snapshot_an_exported_record_a_person_called_a_false_acceptance(snap_compare, tmp_path, size):
    from inspector.tui.app import make_app

    app = make_app([load_suite(_exported(tmp_path))])
    assert snap_compare(app, terminal_size=size, run_before=_the_unlabelled_record)
