"""The claims table: the current claim, the member the step reads highlighted, and
the label lens's label of each claim (as a word, or a mark when narrow)."""

from __future__ import annotations

import pytest

from inspector.presentation.review import ReviewSession
from inspector.presentation.session import Session
from inspector.reports.tones import Tone
from inspector.suites.load import load_suite
from inspector.tui.app import make_review_app
from inspector.tui.messages import CheckChosen
from inspector.tui.tones import TABLE_HIGHLIGHT
from inspector.tui.widgets.claims import ClaimsTable
from support.review import relabelled_article
from support.tui import cells_styled, inspecting, on_shared_app, open_id, reopened, row_text, step_id


def label_cell(claims: ClaimsTable, row: int):  # noqa: ANN201 - a table cell
    return claims.cell(row, claims.columns[-1])


async def test_the_next_claim_moves_the_highlight(article):
    async with inspecting(article, "complete-answer") as pilot:
        main = pilot.app.main
        claims = main.query_one(ClaimsTable)
        main.post_message(CheckChosen("value"))
        await pilot.pause()
        assert cells_styled(claims, TABLE_HIGHLIGHT[Tone.GOOD]) == {(0, "value")}
        await pilot.press("right_square_bracket")
        assert step_id(pilot.app) == ("value", 1)
        assert claims.cursor == 1
        assert (main.selection.claim, main.selection.claim_member, main.selection.tone) == (1, "value", Tone.GOOD)
        assert cells_styled(claims, TABLE_HIGHLIGHT[Tone.GOOD]) == {(1, "value")}
        await pilot.press("left_square_bracket")
        assert claims.cursor == 0 and cells_styled(claims, TABLE_HIGHLIGHT[Tone.GOOD]) == {(0, "value")}


async def test_a_step_about_the_whole_answer_highlights_no_member(article):
    async with inspecting(article, "complete-answer") as pilot:
        claims = pilot.app.main.query_one(ClaimsTable)
        assert step_id(pilot.app) == ("coverage", None)
        assert claims.cursor == 0
        assert not any(cells_styled(claims, component) for component in TABLE_HIGHLIGHT.values())


async def test_no_claims_says_why(article):
    async with inspecting(article, "trailing-second-object") as pilot:
        claims = pilot.app.main.query_one(ClaimsTable)
        assert claims.row_count == 0
        assert "no claims: the answer did not pass strict decoding" in row_text(claims, 0)


@on_shared_app
async def test_labels_of_the_label_lens(shared_app):
    pilot = await reopened(shared_app, "expired", "access")
    app = pilot.app
    claims = app.main.query_one(ClaimsTable)
    assert app.main.selection.report.claim_labels == ("INSUFFICIENT_EVIDENCE", "INSUFFICIENT_EVIDENCE")
    assert row_text(claims, 0).rstrip().endswith("INSUFFICIENT")
    assert row_text(claims, 1).rstrip().endswith("INSUFFICIENT")
    open_id(app, "contradicting-value", "access")
    await pilot.pause()
    assert app.main.selection.report.claim_labels == ("CONTRADICTED", "SUPPORTED")
    assert label_cell(claims, 0) == ("CONTRADICTED", "safe-table--bad")
    assert label_cell(claims, 1) == ("SUPPORTED", "safe-table--good")
    assert row_text(claims, 0).rstrip().endswith("CONTRADICTED")


@on_shared_app
async def test_every_claim_supported_on_a_stale_revision(shared_app):
    pilot = await reopened(shared_app, "stale-but-supported", "access")
    claims = pilot.app.main.query_one(ClaimsTable)
    assert pilot.app.main.selection.report.claim_labels == ("SUPPORTED", "SUPPORTED")
    assert [label_cell(claims, row) for row in (0, 1)] == [("SUPPORTED", "safe-table--good")] * 2


@on_shared_app
async def test_a_conflict_side_is_contradicted(shared_app):
    pilot = await reopened(shared_app, "conflict-wrong-side", "conflicts")
    claims = pilot.app.main.query_one(ClaimsTable)
    assert pilot.app.main.selection.report.claim_labels == ("SUPPORTED", "CONTRADICTED")
    assert [label_cell(claims, row)[0] for row in (0, 1)] == ["SUPPORTED", "CONTRADICTED"]


async def test_a_narrow_table_shows_the_label_as_a_mark(bundled):
    async with inspecting(bundled, "contradicting-value", "access", size=(80, 24)) as pilot:
        claims = pilot.app.main.query_one(ClaimsTable)
        assert claims.columns[-1].key == "mark"
        assert label_cell(claims, 0) == ("✗", "safe-table--bad")
        assert label_cell(claims, 1) == ("✓", "safe-table--good")
        assert row_text(claims, 0).rstrip().endswith("✗")


# -- what is cut: doc and quote give way before the field and the compared value -------

async def test_at_80x24_the_field_and_the_value_are_whole(bundled):
    async with inspecting(bundled, "prod-v1-claims", "article", size=(80, 24)) as pilot:
        claims = pilot.app.main.query_one(ClaimsTable)
        first = row_text(claims, 0)
        assert "read_timeout_ms 2000" in " ".join(first.split())
        assert "retry_enabled true" in " ".join(row_text(claims, 1).split())
        assert "…" in first  # the doc or the quote was cut instead


async def test_a_long_value_is_whole_and_the_quote_gives_way(bundled):
    async with inspecting(bundled, "ansi-color-value-mismatch", "hostile", size=(120, 36)) as pilot:
        claims = pilot.app.main.query_one(ClaimsTable)
        text = row_text(claims, 0)
        assert "read_timeout_ms" in text and "\\u001b[31m5000\\u001b[0m" in text


@pytest.mark.parametrize(("size", "column"), [((120, 36), "human"), ((80, 24), "human_mark")])
async def test_in_review_mode_the_person_column_does_not_squeeze_the_field(tmp_path, size, column):
    suite = load_suite(relabelled_article(tmp_path, labels={"complete-answer": "VALUE_MISMATCH"}))
    session = Session([suite])
    app = make_review_app(session, ReviewSession(session, "alice"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        claims = app.main.query_one(ClaimsTable)
        assert claims.columns[-1].key == column
        assert "read_timeout_ms" in row_text(claims, 0) and "retry_enabled" in row_text(claims, 1)
