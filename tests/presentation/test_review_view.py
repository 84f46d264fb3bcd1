"""What review mode shows (``presentation.review_view``): the walk's next case and
end, each row's state, a case's review lines, typed decisions and labels, a
claim's human label beside the lens's, and the summary's agreement section."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.presentation.review import ReviewSession
from inspector.presentation.review_view import (
    NO_LABELS,
    agreement_sections,
    case_review,
    end_words,
    human_label_cell,
    human_labels_shown,
    label_problem,
    parse_decision,
    row_state,
    strip_words,
)
from inspector.presentation.session import Session
from inspector.reports.tones import Tone
from inspector.suites.load import load_suite
from inspector.suites.review import apply_review, load_pending
from support import ARTICLE
from support.review import relabelled_article

STAMP = "2026-12-02T06:30:00Z"
RELABELLED = {"complete-answer": "VALUE_MISMATCH", "reordered-claims": "VALUE_MISMATCH",
              "real-quote-wrong-value": "ACCEPT"}


def pending_session(folder: Path) -> Session:
    return Session([load_suite(relabelled_article(folder, labels=RELABELLED))])


@pytest.fixture
def review(tmp_path: Path) -> ReviewSession:
    return ReviewSession(pending_session(tmp_path), "alice", clock=lambda: STAMP)


class TestWalk:
    def test_the_next_case_is_the_next_undecided_one_wrapping(self, review):
        assert review.queue == [0, 1, 3]
        assert review.next_left(None) == 0 and review.next_left(0) == 1 and review.next_left(3) == 0
        review.decide(1, "skip")
        assert row_state(review, 1) == "skip" and row_state(review, 0) == "left"
        assert review.next_left(0) == 3  # a skipped case is not walked again
        review.decide(0, "accept")
        review.decide(3, "reject")
        assert review.next_left(3) is None and review.left == 1

    def test_the_end_says_how_it_went_and_how_to_apply(self, review, tmp_path):
        assert end_words(review) == "review done: 0 accepted, 0 rejected, 0 skipped"
        review.decide(0, "accept")
        words = end_words(review)
        assert words.startswith("review done: 1 accepted, 0 rejected, 0 skipped. Apply with: inspector review "
                                f"--apply {tmp_path / 'article.json'}")
        header, where = strip_words(review)
        assert header == "review · 2 left of 3 · alice" and where.endswith("article.review.json")
        assert where.startswith("decisions in ")

    def test_nothing_to_review(self):
        review = ReviewSession(Session([load_suite(ARTICLE)]), "alice")
        assert review.queue == [] and end_words(review).startswith("nothing to review")


class TestCaseReview:
    def test_pending_then_decided(self, review):
        report = review.session.frozen(0)
        shown = case_review(report, review)
        assert shown is not None and shown.pending == "differs from its frozen label" and shown.decision is None
        review.decide(0, "reject", "[bold]kept[/]")
        shown = case_review(report, review)
        assert shown.decision.words == "rejected (known regression)" and shown.decision.tone is Tone.BAD
        assert (shown.decision.reviewer, shown.decision.at, shown.decision.note) == ("alice", STAMP, "[bold]kept[/]")
        assert case_review(report, None) is None  # outside review mode a pending case says nothing more

    def test_the_suites_own_review_and_history(self, review, tmp_path):
        review.decide(0, "accept", "the label was wrong")
        review.decide(1, "reject")
        apply_review(load_pending(tmp_path / "article.review.json"), tmp_path / "article.json")
        session = Session([load_suite(tmp_path / "article.json")])
        accepted = case_review(session.frozen(0), None)
        assert accepted.applied.words == "accepted ACCEPT" and accepted.applied.note == "the label was wrong"
        assert [said.words for said in accepted.history] == ["expected VALUE_MISMATCH → ACCEPT"]
        rejected = case_review(session.frozen(1), None)
        assert rejected.known_regression and rejected.applied.words == "rejected ACCEPT: a known regression"
        assert session.mismatched() == [3] and session.known_regressions() == [1]


class TestTyped:
    @pytest.mark.parametrize(("typed", "decision"), [("a", "accept"), (" Reject ", "reject"), ("s", "skip")])
    def test_decisions(self, typed, decision):
        assert parse_decision(typed) == decision

    def test_an_unknown_decision(self):
        with pytest.raises(ValueError, match="not a decision: 'maybe'"):
            parse_decision("maybe")

    def test_labels(self):
        assert label_problem("SUPPORTED", None) is None and label_problem(None, None) is None
        assert "needs a note" in label_problem("NOT_ASSESSABLE", "  ")
        assert label_problem("NOT_ASSESSABLE", "no source says") is None
        assert "unknown label" in label_problem("MAYBE", None)
        assert "characters long" in label_problem("SUPPORTED", "x" * 5000)


class TestHumanLabels:
    def test_cells(self):
        assert human_label_cell(None, "SUPPORTED") == ("—", "—", Tone.PENDING)
        assert human_label_cell("SUPPORTED", "SUPPORTED") == ("✓", "SUPPORTED", Tone.GOOD)
        assert human_label_cell("CONTRADICTED", "SUPPORTED") == ("≠", "≠ CONTRADICTED", Tone.WARN)
        assert human_label_cell("NOT_ASSESSABLE", "SUPPORTED") == ("–", "N/A", Tone.MUTED)

    def test_shown_in_review_mode_always_else_when_the_suite_has_some(self, review):
        report = review.session.frozen(0)
        assert human_labels_shown(report, None) is None and human_labels_shown(report, review) == {}
        review.label(0, 1, "CONTRADICTED")
        assert human_labels_shown(report, review) == {1: "CONTRADICTED"}


class TestAgreement:
    def test_none_labelled(self, review):
        assert agreement_sections(review.agreement()) == () and "L labels the current claim" in NO_LABELS

    def test_sections_and_cells(self, review):
        review.label(0, 0, "SUPPORTED")
        review.label(0, 1, "CONTRADICTED")
        review.label(1, 0, "NOT_ASSESSABLE", "cannot tell")
        claims, answers = agreement_sections(review.agreement())
        assert claims.figures == "2 claims compared · agree 50% · Cohen's κ 0.00 · 1 not assessable"
        assert claims.columns == ("SUPPORTED", "CONTRADICTED", "INSUFFICIENT")
        human, cells = claims.rows[1]
        assert human == "CONTRADICTED" and [cell.count for cell in cells] == [1, 0, 0]
        assert cells[0].cases == (0,) and cells[0].description == "person CONTRADICTED, lens SUPPORTED"
        assert not cells[0].agreed and claims.rows[0][1][0].agreed
        assert answers.figures.startswith("1 answer compared · agree 0%")
        assert answers.rows[1][1][0].cases == (0,)  # person ABSTAIN, contract ANSWER


class TestASuiteOpenedSince:
    def test_its_cases_are_outside_the_review(self, review):
        session = review.session
        (added,) = [n for n in session.add_suite(load_suite(ARTICLE)) if session.ids[n] == "complete-answer"]
        assert not review.in_review(added) and review.in_review(0)
        assert row_state(review, added) is None and case_review(session.frozen(added), review) is None
        assert human_labels_shown(session.frozen(added), review) is None
        review.label(0, 0, "SUPPORTED")
        assert review.agreement(list(range(len(session)))).claims.compared == 1
