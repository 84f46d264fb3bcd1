"""Review mode in the inspector: a walk over the pending cases with insta's keys
(a accept, r reject, s skip; N with a note), a claim's human label (L), the
strip's count, the agreement section of the summary, entering and leaving from
the palette, and the keys review mode shadows at their two places."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.presentation.review import ReviewSession
from inspector.presentation.review_view import NO_LABELS
from inspector.presentation.session import Session
from inspector.suites.load import Suite, load_suite
from inspector.suites.review import apply_review, load_pending
from inspector.tui.app import make_review_app
from inspector.tui.screens.decide import DecideScreen
from inspector.tui.screens.label import LabelScreen
from inspector.tui.screens.save import SaveScreen
from inspector.tui.screens.summary import SummaryScreen
from inspector.tui.widgets.case_list import CaseList
from inspector.tui.widgets.claims import ClaimsTable
from support.review import relabelled_article
from support.tui import SIZE, flowing, hidden_characters, inspecting, panel_title, rendered, row_text, \
    run_from_palette, verdict_text

# The article's cases whose label the tests' copy changes: the verdict differs, they are pending.
RELABELLED = {"complete-answer": "VALUE_MISMATCH", "reordered-claims": "VALUE_MISMATCH",
              "real-quote-wrong-value": "ACCEPT"}
STAMP = "2026-12-02T06:30:00Z"


def pending_suite(folder: Path) -> Suite:
    return load_suite(relabelled_article(folder, labels=RELABELLED))


def reviewing(suite: Suite, reviewer: str = "alice"):  # noqa: ANN201 - the app, its review
    session = Session([suite])
    review = ReviewSession(session, reviewer, clock=lambda: STAMP)
    return make_review_app(session, review), review


def pending_file(folder: Path) -> dict:
    return json.loads((folder / "article.review.json").read_text(encoding="utf-8"))


def current_id(app) -> str:  # noqa: ANN001
    return app.session.ids[app.main.browse.current]


def messages(app) -> list[str]:  # noqa: ANN001
    return [str(notification.message) for notification in app._notifications]


async def test_the_walk_a_r_s_writes_each_decision_and_moves_to_the_next_case_left(tmp_path):
    app, review = reviewing(pending_suite(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        main = app.main
        assert main.reviewing and [app.session.ids[n] for n in main.browse.visible] == list(RELABELLED)
        assert panel_title(app, "#cases-panel") == "cases 3/22 · review"
        strip = rendered(main.query_one("#review-strip"))
        assert "review · 3 left of 3 · alice" in strip and "article.review.json" in strip
        assert current_id(app) == "complete-answer"
        assert "pending review: differs from its frozen label" in flowing(verdict_text(app))
        cases = main.query_one(CaseList)
        assert row_text(cases, 0).startswith("• complete-answer")
        # The footer's keys are review mode's; those they shadow are not offered (they moved: i, ^s).
        offered = {binding.action for binding, enabled in
                   ((active.binding, active.enabled) for active in main.active_bindings.values()) if enabled}
        assert {"decide('accept')", "decide('reject')", "decide('skip')", "decide_with_note", "label_claim",
                "review_pretty", "review_save", "leave_review"} <= offered
        assert not {"toggle_pretty", "save", "clear_filter"} & offered

        await pilot.press("a")
        written = pending_file(tmp_path)
        assert [(d["case"], d["decision"], d["reviewer"], d["at"]) for d in written["decisions"]] == [
            ("complete-answer", "accept", "alice", STAMP)]
        assert current_id(app) == "reordered-claims"
        assert "review · 2 left of 3 · alice" in rendered(main.query_one("#review-strip"))
        assert row_text(cases, 0).startswith("✓ complete-answer")

        # The same reviewer in a second terminal decides the case shown here meanwhile (issue 29): r here
        # replaces that decision, and says so; nothing else of either session's is lost.
        other = ReviewSession(Session([load_suite(tmp_path / "article.json")]), "alice", clock=lambda: STAMP)
        other.decide(other.session.find_id("reordered-claims"), "accept")
        await pilot.press("r")
        assert "replaced alice's decision on reordered-claims (accept, 2026-12-02T06:30:00Z) taken meanwhile" \
            in messages(app)
        assert current_id(app) == "real-quote-wrong-value"
        await pilot.press("s")
        await pilot.pause()
        decisions = {d["case"]: d["decision"] for d in pending_file(tmp_path)["decisions"]}
        assert decisions == {"complete-answer": "accept", "reordered-claims": "reject",
                             "real-quote-wrong-value": "skip"}
        assert [row_text(cases, row)[0] for row in range(3)] == ["✓", "✗", "»"]
        # Nobody left undecided: the walk stays, and says how it went and how to apply it (a skip stays left).
        assert current_id(app) == "real-quote-wrong-value"
        assert "review · 1 left of 3 · alice" in rendered(main.query_one("#review-strip"))
        end = flowing(rendered(main.query_one("#review-strip")))  # its own line, not a notice over the view
        assert "review done: 1 accepted, 1 rejected, 1 skipped" in end
        assert f"inspector review --apply {tmp_path / 'article.json'}" in end
        assert "decided skipped · alice · " + STAMP in flowing(verdict_text(app))

        # Going back to a decided case shows the decision; deciding again replaces it.
        await pilot.press("g")
        assert "decided accepted · alice" in flowing(verdict_text(app))
        await pilot.press("r")
        assert {d["case"]: d["decision"] for d in pending_file(tmp_path)["decisions"]}["complete-answer"] == "reject"
        assert review.decided == 2


async def test_a_note_on_a_decision_is_kept_as_typed_and_shown_escaped(tmp_path):
    app, _ = reviewing(pending_suite(tmp_path))
    note = "[bold]x[/] \x1b[31m red"
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("N")
        form = app.screen
        assert isinstance(form, DecideScreen)
        await pilot.press(*"maybe", "enter")
        assert "not a decision: 'maybe'" in flowing(rendered(form.query_one("#decide-status")))
        form.input("decision").value = "r"
        form.input("note").value = note
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen is app.main and current_id(app) == "reordered-claims"
        (decision,) = pending_file(tmp_path)["decisions"]
        assert (decision["case"], decision["decision"], decision["note"]) == ("complete-answer", "reject", note)
        await pilot.press("k")
        shown = flowing(verdict_text(app))
        assert "decided rejected (known regression) · alice" in shown
        assert "[bold]x[/] \\u001b[31m red" in shown
        assert not hidden_characters(verdict_text(app))


async def test_a_claim_label_is_kept_and_shown_beside_the_lens(tmp_path):
    app, review = reviewing(pending_suite(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        claims = app.main.query_one(ClaimsTable)
        assert [column.key for column in claims.columns][-2:] == ["label", "human"]
        assert row_text(claims, 0).rstrip().endswith("SUPPORTED    —")
        await pilot.press("L")
        assert isinstance(app.screen, LabelScreen)
        await pilot.press("2")  # CONTRADICTED: the lens says SUPPORTED
        await pilot.pause()
        assert app.screen is app.main
        assert review.human_labels(app.main.browse.current) == {0: "CONTRADICTED"}
        assert pending_file(tmp_path)["labels"][0]["label"] == "CONTRADICTED"
        assert row_text(claims, 0).rstrip().endswith("SUPPORTED    ≠ CONTRADICTED")

        # NOT_ASSESSABLE needs a note; the second claim, with one.
        await pilot.press("right_square_bracket", "L", "4")
        form = app.screen
        assert isinstance(form, LabelScreen)
        assert "needs a note" in rendered(form.query_one("#label-status"))
        await pilot.press(*"no source says", "enter")  # typed into the note: the digits keys are the list's
        await pilot.pause()
        assert app.screen is app.main
        assert review.human_labels(app.main.browse.current) == {0: "CONTRADICTED", 1: "NOT_ASSESSABLE"}
        assert "N/A" in row_text(claims, 1)
        labels = {label["claim"]: (label["label"], label["note"]) for label in pending_file(tmp_path)["labels"]}
        assert labels == {0: ("CONTRADICTED", None), 1: ("NOT_ASSESSABLE", "no source says")}

        # Clear (0): the label goes from the pending file.
        await pilot.press("L", "0")
        await pilot.pause()
        assert review.human_labels(app.main.browse.current) == {0: "CONTRADICTED"}


async def test_the_summary_shows_agreement_and_a_cell_opens_its_cases(tmp_path):
    app, review = reviewing(pending_suite(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("S")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, SummaryScreen)
        assert NO_LABELS in flowing(rendered(app.screen.query_one("#agreement-head")))
        await pilot.press("escape")

        number = app.main.browse.current
        review.label(number, 0, "SUPPORTED")
        review.label(number, 1, "CONTRADICTED")
        await pilot.press("S")
        await app.workers.wait_for_complete()
        await pilot.pause()
        summary = app.screen
        head = flowing(rendered(summary.query_one("#agreement-head")))
        assert "people vs the label lens: 2 claims compared · agree 50%" in head
        assert "people vs the contract: 1 answer compared · agree 0%" in head
        # j past the last row enters the matrix; l moves to the person CONTRADICTED, lens SUPPORTED cell.
        for _ in range(40):
            await pilot.press("j")
        await pilot.press("l", "h", "l")
        from inspector.tui.widgets.agreement_table import AgreementTable
        matrix = summary.query_one(AgreementTable)
        assert matrix.current is not None
        # The last person row is the contract's ABSTAIN: back up to the lens's CONTRADICTED row, first column.
        await pilot.press("k", "k", "k", "h")
        cell = matrix.current_cell()
        assert cell is not None and cell.description == "person CONTRADICTED, lens SUPPORTED"
        assert cell.cases == (number,)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.main
        assert app.main.browse.visible == (number,)
        assert panel_title(app, "#cases-panel").endswith("person CONTRADICTED, lens SUPPORTED")
        # Esc: back to the review's cases, still in review mode; Esc again leaves it.
        await pilot.press("escape")
        assert app.main.reviewing and panel_title(app, "#cases-panel") == "cases 3/22 · review"
        await pilot.press("escape")
        assert not app.main.reviewing and panel_title(app, "#cases-panel") == "cases 22"


async def test_the_palette_enters_and_leaves_review_mode_and_the_shadowed_keys_move(tmp_path, monkeypatch):
    suite = pending_suite(tmp_path)
    # A known regression: a reviewer rejected its verdict and kept the label; not pending, marked apart.
    session = Session([suite])
    ReviewSession(session, "carol", clock=lambda: STAMP).decide(3, "reject")
    apply_review(load_pending(tmp_path / "article.review.json"), suite.path)
    suite = load_suite(suite.path)
    monkeypatch.setattr("inspector.tui.screens.main.reviewer_name", lambda given=None: "bob")
    async with inspecting([suite], notifications=True) as pilot:
        app = pilot.app
        main = app.main
        cases = main.query_one(CaseList)
        assert row_text(cases, 3).startswith("⊘ real-quote-wrong-")
        assert row_text(cases, 0).startswith("≠ complete-answer")
        # Outside review mode: r is raw/pretty, s the save form, a nothing.
        await pilot.press("r")
        assert main.pretty
        await pilot.press("a")
        assert not main.reviewing and not (tmp_path / "article.review.json").exists()
        await pilot.press("s")
        assert isinstance(app.screen, SaveScreen)
        await pilot.press("escape")

        await run_from_palette(pilot, "review pending")
        assert main.reviewing
        assert [app.session.ids[n] for n in main.browse.visible] == ["complete-answer", "reordered-claims"]
        assert "review · 2 left of 2 · bob" in rendered(main.query_one("#review-strip"))
        # In review mode: i is raw/pretty, ^s the save form; r rejects.
        await pilot.press("i")
        assert not main.pretty
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SaveScreen)
        await pilot.press("escape")
        await pilot.press("r")
        assert pending_file(tmp_path)["decisions"][0]["reviewer"] == "bob"
        assert main.pretty is False

        await run_from_palette(pilot, "leave review")
        assert not main.reviewing and len(main.browse.visible) == 22
        await pilot.press("r")
        assert main.pretty

        # A pending file that cannot be continued: said as an error, review mode not entered.
        (tmp_path / "article.review.bob.json").write_text("{\"schema\": \"other\"}", encoding="utf-8")
        await run_from_palette(pilot, "review pending")
        assert not main.reviewing
        assert "not a pending review file" in messages(app)[-1]


async def test_j_and_k_cross_between_the_summary_table_and_the_matrices_each_moving_its_own_cursor(tmp_path):
    from inspector.tui.widgets.agreement_table import AgreementTable
    from inspector.tui.widgets.summary_table import SummaryTable

    app, review = reviewing(pending_suite(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        number = app.main.browse.current
        review.label(number, 0, "SUPPORTED")
        await pilot.press("S")
        await app.workers.wait_for_complete()
        await pilot.pause()
        table, matrix = app.screen.query_one(SummaryTable), app.screen.query_one(AgreementTable)
        await pilot.press("G")
        assert table.cursor == table.row_count - 1 and table.has_focus
        await pilot.press("j")  # past the last row: into the matrices' first cell, which takes the keys
        first = matrix.selectable[0]
        assert table.cursor is None and matrix.current == (first, 0) and matrix.has_focus
        await pilot.press("l", "j")
        assert matrix.current == (matrix.selectable[1], 1)
        await pilot.press("k", "k")  # above the matrices' first row: back to the table's last row
        assert matrix.current is None and table.cursor == table.row_count - 1 and table.has_focus
        await pilot.press("g")
        assert table.cursor == 0
