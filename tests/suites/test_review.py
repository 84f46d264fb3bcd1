"""suites.review and presentation.review: decisions pending beside a suite, applied into it."""

from __future__ import annotations

import json
import os
from pathlib import Path

import msgspec
import pytest

from inspector.contract.version import VERIFIER
from inspector.reports.audit import audit
from inspector.suites.load import load_suite
from inspector.suites.review import (
    REVIEW_SCHEMA,
    ReviewError,
    apply_review,
    case_sha256,
    discard,
    load_pending,
    pending_files,
    pending_path,
)
from support import tree
from support.together import run_together
from support.review import CLOCK, RELABELLED, relabelled_article, review_of


@pytest.fixture
def suite_path(tmp_path: Path) -> Path:
    return relabelled_article(tmp_path)


def decided(path: Path) -> Path:
    """Accept the first relabelled case, reject the second, skip the third, label two claims."""
    review = review_of(path)
    first, second, third, _ = review.queue
    review.decide(first, "accept", "the label was wrong")
    review.decide(second, "reject", "a real regression")
    review.decide(third, "skip")
    review.label(first, 0, "SUPPORTED")
    review.label(first, 1, "NOT_ASSESSABLE", "the source is ambiguous")
    return review.pending_paths[0]


class TestReviewSession:
    def test_the_queue_is_the_cases_that_differ_and_nothing_is_written_before_a_decision(self, suite_path):
        review = review_of(suite_path)
        assert [review.session.ids[n] for n in review.queue] == list(RELABELLED)
        assert review.header() == "review · 4 left of 4 · alice"
        assert review.pending_paths == [] and pending_files(suite_path) == []

    def test_each_decision_is_written_at_once_and_the_suite_never(self, suite_path):
        before = suite_path.read_bytes()
        review = review_of(suite_path)
        first = review.queue[0]
        review.decide(first, "accept", "looks right")
        path = suite_path.with_name("article.review.json")
        assert review.pending_paths == [path]
        stored = json.loads(path.read_text("utf-8"))
        assert stored["schema"] == REVIEW_SCHEMA and stored["suite"] == "article.json"
        assert stored["reviewer"] == "alice" and stored["verifier"] == VERIFIER
        assert stored["decisions"] == [{
            "case": "complete-answer", "decision": "accept", "verdict": "ACCEPT", "expected": "VALUE_MISMATCH",
            "sha256": case_sha256(review.session.frozen(first).case), "reviewer": "alice", "at": CLOCK,
            "verifier": VERIFIER, "note": "looks right", "labels": None, "policy": None}]
        assert suite_path.read_bytes() == before
        assert review.header() == "review · 3 left of 4 · alice"
        assert review.next_left(first) == review.queue[1]

    def test_a_later_decision_replaces_the_earlier_and_a_skip_leaves_the_case_to_decide(self, suite_path):
        review = review_of(suite_path)
        first = review.queue[0]
        review.decide(first, "accept")
        review.decide(first, "skip", "later")
        assert review.decision(first).decision == "skip" and review.left == 4
        assert len(load_pending(review.pending_paths[0]).content.decisions) == 1

    def test_a_session_continues_from_its_pending_file(self, suite_path):
        decided(suite_path)
        again = review_of(suite_path)
        assert again.left == 2 and again.decided == 2
        assert again.human_labels(again.queue[0]) == {0: "SUPPORTED", 1: "NOT_ASSESSABLE"}

    def test_a_case_edited_in_the_lab_or_a_claim_out_of_range_cannot_be_decided(self, suite_path):
        from inspector.lab.history import Change

        review = review_of(suite_path)
        first = review.queue[0]
        with pytest.raises(ValueError, match="no claims\\[5\\]"):
            review.label(first, 5, "SUPPORTED")
        review.session.change(first, Change('{"claims": []}', "raw edit"))
        with pytest.raises(ValueError, match="lab's changes"):
            review.decide(first, "accept")
        assert review.pending_paths == []

    def test_a_second_reviewer_gets_a_file_of_their_own(self, suite_path):
        decided(suite_path)
        bob = review_of(suite_path, "Bob Smith")
        assert bob.left == 4  # alice's decisions are hers
        bob.decide(bob.queue[3], "accept")
        assert [p.name for p in pending_files(suite_path)] == ["article.review.json", "article.review.bob-smith.json"]
        assert pending_path(suite_path, "alice").name == "article.review.json"


class TestApply:
    def test_accept_relabels_with_history_reject_is_a_known_regression_skip_stays_pending(self, suite_path):
        pending = load_pending(decided(suite_path))
        applied = apply_review(pending, suite_path)
        assert (applied.accepted, applied.rejected, applied.skipped) == (
            ("complete-answer",), ("reordered-claims",), ("one-field-request",))
        assert applied.relabelled == ("complete-answer",) and applied.labels == 2
        assert not pending.path.exists()
        suite = load_suite(suite_path)
        cases = {case.id: case for case in suite.cases}
        accepted = cases["complete-answer"]
        assert accepted.expected == "ACCEPT"
        assert [(h.member, h.old, h.new, h.reviewer, h.at, h.note, h.verifier) for h in accepted.history] == [
            ("expected", "VALUE_MISMATCH", "ACCEPT", "alice", CLOCK, "the label was wrong", VERIFIER)]
        assert accepted.review.decision == "accept" and accepted.review.sha256 == case_sha256(accepted)
        assert [(label.claim, label.label, label.note) for label in accepted.human_labels] == [
            (0, "SUPPORTED", None), (1, "NOT_ASSESSABLE", "the source is ambiguous")]
        rejected = cases["reordered-claims"]
        assert rejected.expected == "VALUE_MISMATCH" and rejected.history == ()
        assert rejected.review.decision == "reject" and rejected.review.note == "a real regression"
        assert cases["one-field-request"].review is None
        summary = audit([suite]).summary
        assert [r.id for r in summary.known_regressions] == ["reordered-claims"]
        assert [r.id for r in summary.mismatched] == ["one-field-request", "real-quote-wrong-value"]
        assert [(r.id, r.pending_reason) for r in summary.pending] == [
            ("one-field-request", "differs from its frozen label"),
            ("real-quote-wrong-value", "differs from its frozen label")]

    def test_accept_takes_the_lens_where_the_case_freezes_it(self, tmp_path):
        document = json.loads((Path(__file__).parents[2] / "fixtures" / "access.json").read_text("utf-8"))
        case = next(c for c in document["cases"] if c.get("expected_labels"))
        case["expected_labels"] = ["INSUFFICIENT_EVIDENCE"] * len(case["expected_labels"])
        path = tmp_path / "access.json"
        path.write_text(json.dumps(document), "utf-8")
        review = review_of(path)
        number = review.session.find_id(case["id"])
        assert number in review.queue
        review.decide(number, "accept")
        apply_review(load_pending(review.pending_paths[0]), path)
        applied = next(c for c in load_suite(path).cases if c.id == case["id"])
        report = audit([load_suite(path)]).results[number]
        assert applied.expected_labels == report.evidence.labels and report.match
        assert [h.member for h in applied.history] == ["expected_labels"]

    def test_refused_when_the_suite_changed_since(self, suite_path):
        path = decided(suite_path)
        suite_path.write_bytes(suite_path.read_bytes() + b" ")
        with pytest.raises(ReviewError, match="changed since the decisions"):
            apply_review(load_pending(path), suite_path)
        assert path.exists() and load_suite(suite_path).cases[0].review is None
        with pytest.raises(ReviewError, match="apply or discard them first"):
            review_of(suite_path)

    def test_refused_when_the_contract_changed_since(self, suite_path):
        path = decided(suite_path)
        stored = json.loads(path.read_text("utf-8"))
        stored["decisions"][0]["verifier"] = "contract-0000000000000000"
        path.write_text(json.dumps(stored), "utf-8")
        before = suite_path.read_bytes()
        with pytest.raises(ReviewError, match="contract-0000000000000000.*review again"):
            apply_review(load_pending(path), suite_path)
        assert suite_path.read_bytes() == before
        with pytest.raises(ReviewError, match="discard them"):
            review_of(suite_path)

    def test_to_a_new_file_leaves_the_suite_and_refuses_an_existing_one(self, suite_path, tmp_path):
        path = decided(suite_path)
        before = suite_path.read_bytes()
        taken = tmp_path / "taken.json"
        taken.write_text("mine")
        with pytest.raises(ReviewError, match="exists"):
            apply_review(load_pending(path), suite_path, taken)
        assert taken.read_text() == "mine" and path.exists()
        apply_review(load_pending(path), suite_path, tmp_path / "reviewed.json")
        assert suite_path.read_bytes() == before
        assert load_suite(tmp_path / "reviewed.json").cases[0].expected == "ACCEPT"

    def test_a_bundled_suite_keeps_its_pending_file_in_the_state_folder_and_applies_only_to_a_new_file(
            self, protected_copy, tmp_path):
        before = tree(protected_copy)
        suite_path = protected_copy / "article.json"
        document = json.loads(suite_path.read_text("utf-8"))
        review = review_of(suite_path)
        assert review.queue == []  # every label matches
        review.label(0, 0, "SUPPORTED")
        path = review.pending_paths[0]
        assert Path(os.environ["XDG_STATE_HOME"]) in path.parents and path.name.startswith("article-")
        assert pending_files(suite_path) == [path]
        with pytest.raises(ReviewError, match="bundled suite.*--out"):
            apply_review(load_pending(path), suite_path)
        apply_review(load_pending(path), suite_path, tmp_path / "out.json")
        assert tree(protected_copy) == before and json.loads(suite_path.read_text("utf-8")) == document
        assert load_suite(tmp_path / "out.json").cases[0].human_labels[0].label == "SUPPORTED"


class TestPendingFiles:
    @pytest.mark.parametrize(("content", "problem"), [
        (b"{", "not a pending review file"),
        (b'{"schema": "inspector.audit/1"}', "schema 'inspector.audit/1'"),
        (b'[1]', "schema None"),
    ])
    def test_a_file_that_is_not_one(self, tmp_path, content, problem):
        path = tmp_path / "x.review.json"
        path.write_bytes(content)
        with pytest.raises(ReviewError, match=problem) as caught:
            load_pending(path)
        assert str(path) in str(caught.value)

    @pytest.mark.parametrize(("change", "problem"), [
        (lambda d: d["decisions"][0].update(decision="maybe"),
         "decisions\\[0\\] \\(case 'complete-answer'\\)\\.decision: unknown decision 'maybe'"),
        (lambda d: d["decisions"][0].update(verdict="NOPE"),
         "decisions\\[0\\] \\(case 'complete-answer'\\)\\.verdict: unknown status"),
        (lambda d: d["labels"][0].update(label="TRUE"),
         "labels\\[0\\] \\(case 'complete-answer'\\)\\.label: unknown label 'TRUE'"),
        (lambda d: d["labels"][0].update(claim=-1),
         "labels\\[0\\] \\(case 'complete-answer'\\)\\.claim: a claim's index"),
        (lambda d: d.update(extra=1), "unknown field `extra`"),
        (lambda d: d.update(suite_sha256="abc"), "suite_sha256"),
        (lambda d: d.update(suite="other.json"), "for the suite 'other.json', not 'article.json'"),
        (lambda d: d["decisions"][0].update(case="gone"), "names the case 'gone', which article.json no longer has"),
    ])
    def test_a_corrupt_one_or_one_for_another_suite_is_refused_naming_it(self, suite_path, change, problem):
        path = decided(suite_path)
        stored = json.loads(path.read_text("utf-8"))
        change(stored)
        path.write_text(json.dumps(stored), "utf-8")
        with pytest.raises(ReviewError, match=problem):
            load_pending(path, load_suite(suite_path))

    def test_a_foreign_file_or_a_link_at_the_pending_name_is_never_replaced(self, suite_path, tmp_path):
        target = suite_path.with_name("article.review.json")
        target.write_text('{"mine": true}')
        review = review_of(suite_path, "carol")  # the shared name is not a pending file: carol's own name
        review.decide(review.queue[0], "accept")
        assert target.read_text() == '{"mine": true}'
        own = review.pending_paths[0]
        own.unlink()
        elsewhere = tmp_path / "elsewhere.json"
        elsewhere.write_text("keep")
        own.symlink_to(elsewhere)
        with pytest.raises(ReviewError, match="symbolic link"):
            review.decide(review.queue[0], "reject")
        assert elsewhere.read_text() == "keep"

    def test_a_read_only_pending_file_is_refused_and_kept(self, suite_path):
        """Issue 29, "refuse what the user cannot write": a pending file made read-only (by its
        reviewer, or by whoever froze the review) is never replaced, even by root."""
        path = decided(suite_path)
        os.chmod(path, 0o444)
        before = path.read_bytes()
        review = review_of(suite_path)
        with pytest.raises(ReviewError, match="decisions not saved: is read-only"):
            review.decide(review.queue[1], "reject")
        assert path.read_bytes() == before and os.stat(path).st_mode & 0o777 == 0o444

    def test_discard_removes_only_a_pending_file(self, suite_path, tmp_path):
        path = decided(suite_path)
        other = tmp_path / "not.json"
        other.write_text("{}")
        with pytest.raises(ReviewError):
            discard(other)
        assert other.exists()
        discard(path)
        assert not path.exists()


class TestPendingAgain:
    """A review holds while the case, its verdict and the contract stay as they were."""

    def applied(self, suite_path: Path) -> Path:
        apply_review(load_pending(decided(suite_path)), suite_path)
        return suite_path

    def test_a_case_edited_since_its_review(self, suite_path):
        path = self.applied(suite_path)
        document = json.loads(path.read_text("utf-8"))
        document["cases"][1]["raw"] = document["cases"][1]["raw"].replace("5000", "5001")
        path.write_text(json.dumps(document), "utf-8")
        report = audit([load_suite(path)]).results[1]
        assert report.pending_reason == "edited since its review" and not report.known_regression

    def test_a_case_reviewed_under_another_contract(self, suite_path, monkeypatch):
        path = self.applied(suite_path)
        monkeypatch.setattr("inspector.reports.case.VERIFIER", "contract-ffffffffffffffff")
        reports = audit([load_suite(path)]).results
        assert reports[0].pending_reason == f"reviewed under another contract ({VERIFIER})"
        assert reports[1].pending_reason.startswith("reviewed under another contract")

    def test_a_saved_counterexample_never_reviewed(self, tmp_path):
        from support import save_counterexample

        suite = save_counterexample(tmp_path / "saved.json")
        assert suite.cases[0].provenance.verifier == VERIFIER
        assert audit([suite]).results[0].pending_reason == "saved, never reviewed"

    def test_the_review_member_is_validated_when_the_suite_loads(self, suite_path):
        from inspector.suites.load import LoadError

        path = self.applied(suite_path)
        document = json.loads(path.read_text("utf-8"))
        document["cases"][0]["review"]["decision"] = "skip"
        path.write_text(json.dumps(document), "utf-8")
        with pytest.raises(LoadError, match="review.decision"):
            load_suite(path)


def test_the_pending_file_is_msgspec_strict():
    from inspector.suites.review import PendingFile

    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"schema": REVIEW_SCHEMA}, PendingFile)


def test_every_case_can_be_walked_to_label_claims(tmp_path):
    from inspector.presentation.review import ReviewSession
    from inspector.presentation.session import Session
    from support import ARTICLE

    session = Session([load_suite(ARTICLE)])
    assert ReviewSession(session, "alice").queue == []  # every label matches
    every = ReviewSession(session, "alice", every=True)
    assert every.queue == list(range(22)) and every.header() == "review · 22 left of 22 · alice"


# -- issue 29: reviewers' work is never lost or corrupted ---------------------------------------


def lens_case(tmp_path: Path) -> tuple[Path, str]:
    """A copy of access.json whose first lens-freezing case's lens labels are wrong (so it is pending),
    and that case's id."""
    document = json.loads((Path(__file__).parents[2] / "fixtures" / "access.json").read_text("utf-8"))
    case = next(c for c in document["cases"] if c.get("expected_labels"))
    case["expected_labels"] = ["INSUFFICIENT_EVIDENCE"] * len(case["expected_labels"])
    path = tmp_path / "access.json"
    path.write_text(json.dumps(document), "utf-8")
    return path, case["id"]


class TestABadPendingFileWritesNothing:
    """Every member of a decision is checked before anything is written: a bad one is refused
    naming the pending file, the case and the member, and the suite keeps its bytes and mode."""

    @pytest.mark.parametrize(("member", "value", "problem"), [
        ("labels", ["BOGUS"], "labels[0]: unknown label 'BOGUS'"),
        ("policy", "lenient-ish", "policy: unknown policy 'lenient-ish'"),
        ("expected", "NOPE", "expected: unknown status 'NOPE'"),
        ("reviewer", " ", "reviewer: the reviewer's name is empty"),
        ("sha256", "abc", "sha256: expected 64 lowercase hexadecimal digits"),
    ])
    def test_a_decision_with_a_bad_member(self, tmp_path, member, value, problem):
        path, case_id = lens_case(tmp_path)
        os.chmod(path, 0o640)
        review = review_of(path)
        review.decide(review.session.find_id(case_id), "accept")
        pending_file = review.pending_paths[0]
        stored = json.loads(pending_file.read_text("utf-8"))
        stored["decisions"][0][member] = value
        pending_file.write_text(json.dumps(stored), "utf-8")
        before = path.read_bytes()
        with pytest.raises(ReviewError) as caught:
            apply_review(load_pending(pending_file, load_suite(path)), path)
        message = str(caught.value)
        assert message.startswith(f"{pending_file}: ") and "\n" not in message
        assert f"decisions[0] (case {case_id!r}).{problem}" in message
        assert path.read_bytes() == before and os.stat(path).st_mode & 0o777 == 0o640
        assert pending_file.exists() and list(tmp_path.glob(".*.tmp")) == []

    def test_a_claim_label_with_a_bad_member(self, suite_path):
        pending_file = decided(suite_path)
        stored = json.loads(pending_file.read_text("utf-8"))
        stored["labels"][1]["reviewer"] = ""
        pending_file.write_text(json.dumps(stored), "utf-8")
        before = suite_path.read_bytes()
        with pytest.raises(ReviewError, match=r"labels\[1\] \(case 'complete-answer'\)\.reviewer: the reviewer's"):
            load_pending(pending_file)
        assert suite_path.read_bytes() == before


class TestDecidedTwice:
    def test_the_last_decision_is_the_one_shown_counted_and_applied(self, suite_path, capsys):
        review = review_of(suite_path)
        first = review.queue[0]
        review.decide(first, "accept", "first thought")
        pending_file = review.pending_paths[0]
        stored = json.loads(pending_file.read_text("utf-8"))
        second = dict(stored["decisions"][0], decision="reject", note="second thought")
        stored["decisions"].append(second)
        pending_file.write_text(json.dumps(stored), "utf-8")
        shown = review_of(suite_path)
        assert shown.decision(first).decision == "reject"
        pending = load_pending(pending_file)
        assert pending.applicable == 1
        from inspector.reports.audit import review_status

        suite = load_suite(suite_path)
        assert review_status([suite], audit([suite]))["pending_files"][0]["decisions"] == 1
        applied = apply_review(pending, suite_path)
        assert (applied.accepted, applied.rejected, applied.relabelled) == ((), ("complete-answer",), ())
        case = load_suite(suite_path).cases[0]
        assert case.expected == "VALUE_MISMATCH" and case.history == ()
        assert (case.review.decision, case.review.note) == ("reject", "second thought")
        assert case.review.sha256 == case_sha256(case)


class TestTheSuiteFileIsKept:
    def test_apply_keeps_the_suites_permission_bits(self, suite_path):
        os.chmod(suite_path, 0o600)
        apply_review(load_pending(decided(suite_path)), suite_path)
        assert os.stat(suite_path).st_mode & 0o7777 == 0o600
        assert load_suite(suite_path).cases[0].expected == "ACCEPT"

    def test_a_read_only_suite_is_refused_and_nothing_written(self, suite_path):
        pending_file = decided(suite_path)
        os.chmod(suite_path, 0o444)
        before = suite_path.read_bytes()
        with pytest.raises(ReviewError, match="read-only.*nothing applied.*--out"):
            apply_review(load_pending(pending_file), suite_path)
        assert suite_path.read_bytes() == before and os.stat(suite_path).st_mode & 0o777 == 0o444
        assert pending_file.exists()

    def test_a_folder_this_user_cannot_write_is_refused_before_anything_is_written(self, suite_path, monkeypatch):
        pending_file = decided(suite_path)
        before = suite_path.read_bytes()
        folder = str(suite_path.parent)
        access = os.access
        # The tests run as root too, whom a folder's mode does not stop: the system's answer is what is asked.
        monkeypatch.setattr(os, "access", lambda path, mode: str(path) != folder and access(path, mode))
        with pytest.raises(ReviewError, match=f"is in a folder this user cannot write \\({folder}\\); nothing"):
            apply_review(load_pending(pending_file), suite_path)
        assert suite_path.read_bytes() == before and pending_file.exists()

    def test_a_suite_reached_through_a_link_is_applied_to_its_target(self, tmp_path):
        real = tmp_path / "real"
        real.mkdir()
        target = relabelled_article(real)
        os.chmod(target, 0o640)
        link = tmp_path / "article.json"
        link.symlink_to(target)
        pending_file = decided(link)
        assert pending_file.parent == tmp_path  # the review is kept beside the name the reviewer used
        applied = apply_review(load_pending(pending_file), link)
        assert link.is_symlink() and os.readlink(link) == str(target)
        assert applied.path == target
        assert load_suite(target).cases[0].expected == "ACCEPT"
        assert os.stat(target).st_mode & 0o777 == 0o640
        assert sorted(p.name for p in real.iterdir()) == ["article.json"]


class TestConcurrentReviewers:
    """Two sessions on one suite (two terminals, two served tabs, two reviewers): each save
    re-reads the pending file under a lock and adds its decision; none is lost."""

    def test_two_sessions_of_one_reviewer_keep_each_others_decisions(self, suite_path):
        one, two = review_of(suite_path), review_of(suite_path)
        one.decide(one.queue[0], "accept")
        two.decide(two.queue[1], "reject")
        one.label(one.queue[2], 0, "SUPPORTED")
        pending = load_pending(suite_path.with_name("article.review.json"))
        assert {case: d.decision for case, d in pending.decisions.items()} == {
            "complete-answer": "accept", "reordered-claims": "reject"}
        assert list(pending.labels) == [("one-field-request", 0)]
        assert one.decision(one.queue[1]).decision == "reject"  # what the other session decided, shown
        assert one.news is None and two.news is None

    def test_two_reviewers_who_started_together_keep_both(self, suite_path):
        alice, bob = review_of(suite_path, "alice"), review_of(suite_path, "bob")
        alice.decide(alice.queue[0], "accept")
        bob.decide(bob.queue[1], "reject")
        pending = load_pending(suite_path.with_name("article.review.json"))
        assert {(d.case, d.reviewer) for d in pending.decisions.values()} == {
            ("complete-answer", "alice"), ("reordered-claims", "bob")}

    def test_the_later_decision_on_one_case_wins_and_says_whom_it_replaced(self, suite_path):
        alice, bob = review_of(suite_path, "alice"), review_of(suite_path, "bob")
        alice.decide(alice.queue[0], "accept")
        bob.decide(bob.queue[0], "reject")
        assert bob.news == ("replaced alice's decision on complete-answer (accept, 2026-12-02T09:00:00Z) "
                            "taken meanwhile")
        assert alice.decision(alice.queue[0]).decision == "accept"  # alice has not saved since
        alice.decide(alice.queue[1], "accept")
        assert alice.decision(alice.queue[0]).decision == "reject"  # her next save read bob's
        assert alice.news is None
        pending = load_pending(suite_path.with_name("article.review.json"))
        assert pending.decisions["complete-answer"].reviewer == "bob"

    def test_a_review_applied_or_discarded_meanwhile(self, suite_path):
        one, two = review_of(suite_path), review_of(suite_path)
        one.decide(one.queue[0], "accept")
        two.decide(two.queue[1], "reject")
        discard(suite_path.with_name("article.review.json"))
        one.decide(one.queue[2], "accept")  # the discarded decisions stay discarded
        pending = load_pending(suite_path.with_name("article.review.json"))
        assert list(pending.decisions) == ["one-field-request"]
        apply_review(pending, suite_path)
        with pytest.raises(ReviewError, match="changed since this review started.*review it again"):
            two.decide(two.queue[3], "accept")
        assert not suite_path.with_name("article.review.json").exists()

    def test_processes_labelling_at_once_keep_every_label(self, tmp_path):
        """Three processes, each labelling a claim of five cases of its own through ReviewSession, started
        together: all 15 labels are in the pending file."""
        from support import ARTICLE

        path = tmp_path / "article.json"
        path.write_bytes(ARTICLE.read_bytes())
        script = (
            "import sys\n"
            "from inspector.presentation.review import ReviewSession\n"
            "from inspector.presentation.session import Session\n"
            "from inspector.suites.load import load_suite\n"
            "path, first = sys.argv[1], int(sys.argv[2])\n"
            "review = ReviewSession(Session([load_suite(path)]), 'alice', every=True)\n"
            "numbers = [n for n in review.queue if review.session.frozen(n).claim_labels][first::3][:5]\n"
            "assert len(numbers) == 5, numbers\n"
            "print('ready', flush=True)\n"
            "sys.stdin.readline()\n"
            "for number in numbers:\n"
            "    review.label(number, 0, 'SUPPORTED')\n"
        )
        run_together(script, [[str(path), str(first)] for first in range(3)])
        assert len(load_pending(path.with_name("article.review.json")).labels) == 15
