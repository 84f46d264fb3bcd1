"""``inspector review`` headless (--status, --apply, --discard) and the review's state in ``inspector audit``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.contract.version import VERIFIER
from inspector.suites.load import load_suite
from support import decoded, one_line_error, run_cli
from support.review import relabelled_article, review_of


@pytest.fixture
def suite_path(tmp_path: Path) -> Path:
    return relabelled_article(tmp_path)


def inspector(capsys, *args: object) -> tuple[int, str, str]:
    status = main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    return status, out, err


def decide(suite_path: Path, reviewer: str = "alice", note: str | None = "kept: [bold]x[/] \x1b[31m") -> Path:
    review = review_of(suite_path, reviewer)
    review.decide(review.queue[0], "accept")
    review.decide(review.queue[1], "reject", note)
    review.label(review.queue[0], 0, "SUPPORTED")
    return review.pending_paths[-1]


class TestStatus:
    def test_text_lists_the_cases_to_review_and_the_decisions_to_apply(self, suite_path, capsys):
        status, out, _ = inspector(capsys, "review", "--status", suite_path)
        assert status == 0
        assert out.splitlines()[0] == "4 case(s) to review: 4 unreviewed mismatch(es), 0 known regression(s)"
        assert "article/real-quote-wrong-value: differs from its frozen label (expected ACCEPT, got VALUE_MISMATCH)" \
            in out
        pending = decide(suite_path)
        _, out, _ = inspector(capsys, "review", "--status", suite_path)
        assert (f"pending file {pending} (alice): 2 decision(s) and 1 claim label(s) to apply "
                f"(inspector review --apply {suite_path})") in out
        # The two decided (not yet applied) are decided, not unreviewed; each says how.
        assert out.splitlines()[0] == ("4 case(s) to review: 2 unreviewed mismatch(es), 2 decided (to apply), "
                                       "0 known regression(s)")
        assert sum("; decided: accept by alice, to apply" in line for line in out.splitlines()) == 1
        assert sum("; decided: reject by alice, to apply" in line for line in out.splitlines()) == 1

    def test_a_skipped_case_is_still_unreviewed(self, suite_path, capsys):
        review = review_of(suite_path)
        review.decide(review.queue[0], "skip")
        document = json.loads(inspector(capsys, "review", "--status", "--format", "json", suite_path)[1])
        assert (document["unreviewed_mismatches"], document["decided_mismatches"]) == (4, 0)

    def test_json(self, suite_path, capsys):
        pending = decide(suite_path)
        _, out, _ = inspector(capsys, "review", "--status", "--format", "json", suite_path)
        document = json.loads(out)
        assert document["verifier"] == VERIFIER and document["to_review"] == 4
        assert document["pending_decisions"] == 3
        assert document["pending_files"] == [{"suite": str(suite_path), "path": str(pending), "reviewer": "alice",
                                              "decisions": 2, "labels": 1}]


class TestApply:
    def test_apply_writes_the_suite_says_what_it_did_and_removes_the_pending_file(self, suite_path, capsys):
        pending = decide(suite_path)
        status, out, err = inspector(capsys, "review", "--apply", suite_path)
        assert (status, err) == (0, "")
        assert out == (f"applied {pending} to {suite_path}: 1 accepted (1 relabelled), 1 rejected as known "
                       f"regressions, 1 claim label(s); removed {pending}\n")
        assert not pending.exists()
        assert load_suite(suite_path).cases[0].expected == "ACCEPT"
        status, out, _ = inspector(capsys, "audit", suite_path)
        assert status == 1  # two relabelled cases are still unreviewed
        assert "✗ known regression" in out and "1 known regression(s): rejected in review, the label kept:" in out
        # the note is shown escaped, never acted on
        assert "reordered-claims: expected VALUE_MISMATCH, got ACCEPT (rejected by alice" in out
        assert "kept: [bold]x[/] \\u001b[31m" in out and "\x1b" not in out

    def test_audit_passes_once_every_mismatch_is_decided(self, suite_path, capsys):
        review = review_of(suite_path)
        for number in review.queue:
            review.decide(number, "reject")
        inspector(capsys, "review", "--apply", suite_path)
        status, out, _ = inspector(capsys, "audit", suite_path)
        assert status == 0 and "4 known regression(s)" in out
        assert "every other verdict matches its frozen label" in out

    def test_apply_to_a_new_file(self, suite_path, tmp_path, capsys):
        decide(suite_path)
        before = suite_path.read_bytes()
        status, out, _ = inspector(capsys, "review", "--apply", suite_path, "--out", tmp_path / "new.json")
        assert status == 0 and suite_path.read_bytes() == before
        assert load_suite(tmp_path / "new.json").cases[0].review.decision == "accept"

    def test_discard(self, suite_path, capsys):
        pending = decide(suite_path)
        before = suite_path.read_bytes()
        status, out, _ = inspector(capsys, "review", "--discard", suite_path)
        assert status == 0 and not pending.exists() and suite_path.read_bytes() == before
        assert out == f"discarded {pending} (2 decision(s), 1 claim label(s)); {suite_path} is as it was\n"

    def test_two_reviewers_files_need_pending(self, suite_path, capsys):
        decide(suite_path)
        bobs = decide(suite_path, "bob")
        status, _, err = inspector(capsys, "review", "--apply", suite_path)
        assert status == 2
        one_line_error(err, "2 pending review files", "--pending FILE")
        status, out, _ = inspector(capsys, "review", "--apply", suite_path, "--pending", bobs)
        assert status == 0 and "applied" in out
        status, _, err = inspector(capsys, "review", "--apply", suite_path)
        assert status == 2 and "changed since the decisions" in err  # alice's were taken on the suite before


class TestRefusals:
    @pytest.mark.parametrize(("args", "message"), [
        (["--apply"], "give the SUITE"),
        (["--out", "x.json", "SUITE"], "--out and --pending go with --apply"),
        (["--format", "json", "SUITE"], "--format json goes with --status"),
        (["--apply", "SUITE", "SUITE", "--out", "x.json"], "give one SUITE"),
        (["--status", "--reviewer", " ", "SUITE"], "--reviewer: the reviewer's name is empty"),
        (["--apply", "SUITE"], "has no pending review decisions"),
    ])
    def test_one_line_and_exit_2(self, suite_path, capsys, args, message):
        args = [str(suite_path) if arg == "SUITE" else arg for arg in args]
        status, _, err = inspector(capsys, "review", *args)
        assert status == 2
        one_line_error(err, message)

    def test_a_corrupt_pending_file_names_it_and_applies_nothing(self, suite_path, capsys):
        pending = decide(suite_path)
        pending.write_text("{}")
        before = suite_path.read_bytes()
        status, _, err = inspector(capsys, "review", "--apply", suite_path)
        assert status == 2 and suite_path.read_bytes() == before
        one_line_error(err, str(pending), "not a pending review file")

    def test_an_out_that_exists(self, suite_path, tmp_path, capsys):
        decide(suite_path)
        (tmp_path / "taken.json").write_text("mine")
        status, _, err = inspector(capsys, "review", "--apply", suite_path, "--out", tmp_path / "taken.json")
        assert status == 2 and (tmp_path / "taken.json").read_text() == "mine"
        one_line_error(err, "already exists")

    def test_walking_needs_a_terminal(self, suite_path):
        status = run_cli("review", suite_path)
        _, err = decoded(status)
        assert status.returncode == 2
        one_line_error(err, "needs a terminal", "--status, --apply and --discard work without one")


class TestAudit:
    def test_json_and_the_manifest_carry_the_review(self, suite_path, tmp_path, capsys):
        pending = decide(suite_path)
        status, out, _ = inspector(capsys, "audit", "--format", "json", suite_path, "--out", tmp_path / "run")
        document = json.loads(out)
        assert document["verifier"] == VERIFIER
        assert document["review"]["pending_files"][0]["path"] == str(pending)
        assert (document["review"]["unreviewed_mismatches"], document["review"]["decided_mismatches"]) == (2, 2)
        manifest = json.loads((tmp_path / "run" / "manifest.json").read_text("utf-8"))
        assert manifest["review"] == document["review"]
        results = json.loads((tmp_path / "run" / "results.json").read_text("utf-8"))
        assert results == document and results["verifier"] == VERIFIER
        status, out, _ = inspector(capsys, "audit", "--verify", tmp_path / "run")
        assert status == 0, out

    def test_text_says_what_is_pending(self, suite_path, capsys):
        pending = decide(suite_path)
        _, out, _ = inspector(capsys, "audit", suite_path)
        assert ("review 4 case(s) to review: 2 unreviewed mismatch(es), 2 decided (to apply), 0 known "
                "regression(s)") in " ".join(out.split())  # wrapped to the terminal's width
        assert f"pending file {pending} (alice): 2 decision(s)" in out

    def test_a_corrupt_pending_file_is_reported_not_fatal(self, suite_path, capsys):
        decide(suite_path).write_text("[")
        status, out, _ = inspector(capsys, "audit", suite_path)
        assert status == 1 and "unusable: not a pending review file" in out

    def test_agreement_of_applied_labels(self, suite_path, capsys):
        review = review_of(suite_path)
        review.label(0, 0, "SUPPORTED")
        review.label(0, 1, "CONTRADICTED")
        inspector(capsys, "review", "--apply", suite_path)
        _, out, _ = inspector(capsys, "audit", suite_path)
        assert "people   2 claim(s) labelled by people (0 not assessable); people/lens 50% of 2, kappa 0.00" in out
        _, out, _ = inspector(capsys, "audit", "--format", "json", suite_path)
        human = json.loads(out)["summary"]["agreement"]["human"]
        assert human["human_vs_lens"]["matrix"]["CONTRADICTED"]["SUPPORTED"] == 1


class TestDecidingHeadless:
    def test_accept_and_reject_record_as_the_keys_do(self, suite_path, capsys):
        status, out, _ = inspector(capsys, "review", suite_path, "--reviewer", "carol",
                                   "--accept", "real-quote-wrong-value", "--reject", "complete-answer",
                                   "--note", "checked by hand")
        pending = suite_path.with_name("article.review.json")
        assert status == 0
        assert out == (f"recorded 2 decision(s) in {pending} (2 left of 4); inspector review --apply {suite_path} "
                       "writes them into the suite\n")
        decisions = {d["case"]: d for d in json.loads(pending.read_text("utf-8"))["decisions"]}
        assert decisions["real-quote-wrong-value"]["decision"] == "accept"
        assert decisions["complete-answer"]["note"] == "checked by hand"
        assert decisions["complete-answer"]["reviewer"] == "carol"

    def test_all_takes_the_cases_left(self, suite_path, capsys):
        inspector(capsys, "review", suite_path, "--accept", "complete-answer")
        status, out, _ = inspector(capsys, "review", suite_path, "--reject-all")
        assert status == 0 and "recorded 3 decision(s)" in out and "(0 left of 4)" in out

    @pytest.mark.parametrize(("args", "message"), [
        (["--accept", "nope"], "no case 'nope'"),
        (["--accept", "empty-claims"], "'empty-claims' has nothing to review"),
        (["--accept", "complete-answer", "--reject", "complete-answer"], "both accepted and rejected"),
        (["--accept-all", "--reject-all"], "choose one"),
        (["--note", "x"], "--note goes with"),
        (["--accept-all", "--status"], "apply them in a second step"),
    ])
    def test_refusals(self, suite_path, capsys, args, message):
        status, _, err = inspector(capsys, "review", suite_path, *args)
        assert status == 2 and not suite_path.with_name("article.review.json").exists()
        one_line_error(err, message)


def test_nothing_left_to_decide(suite_path, capsys):
    inspector(capsys, "review", suite_path, "--reject-all")
    status, out, _ = inspector(capsys, "review", suite_path, "--accept-all")
    assert status == 0 and out == "nothing to decide: no case is left to review (4 decided, waiting for --apply)\n"


def test_all_goes_with_no_other_action(suite_path, capsys):
    status, _, err = inspector(capsys, "review", "--all", "--status", suite_path)
    assert status == 2
    one_line_error(err, "--all walks every case")


class TestApplyKeepsTheWork:
    """Issue 29 at the command line: a bad pending file, a read-only suite, a suite reached through a link."""

    def test_a_decision_naming_an_unknown_label_is_one_line_and_writes_nothing(self, suite_path, capsys):
        pending = decide(suite_path)
        stored = json.loads(pending.read_text("utf-8"))
        stored["decisions"][0]["verdict"] = "ACCEPT"
        stored["decisions"][0]["labels"] = ["SUPPORTED", "MAYBE"]
        pending.write_text(json.dumps(stored), "utf-8")
        os.chmod(suite_path, 0o600)
        before = suite_path.read_bytes()
        status, out, err = inspector(capsys, "review", "--apply", suite_path)
        assert (status, out) == (2, "")
        one_line_error(err, str(pending), "decisions[0] (case 'complete-answer').labels[1]: unknown label 'MAYBE'")
        assert suite_path.read_bytes() == before and os.stat(suite_path).st_mode & 0o777 == 0o600
        assert pending.exists()

    def test_a_read_only_suite_is_refused_before_anything_is_written(self, suite_path, capsys):
        pending = decide(suite_path)
        os.chmod(suite_path, 0o444)
        before = suite_path.read_bytes()
        status, _, err = inspector(capsys, "review", "--apply", suite_path)
        assert status == 2 and suite_path.read_bytes() == before and pending.exists()
        one_line_error(err, str(suite_path), "read-only", "--out NEW")

    def test_a_read_only_pending_file_is_refused_in_one_line(self, suite_path, capsys):
        pending = decide(suite_path)
        os.chmod(pending, 0o444)
        before = pending.read_bytes()
        status, out, err = inspector(capsys, "review", "--reviewer", "alice", "--reject", "one-field-request",
                                     suite_path)
        assert (status, out) == (2, "")
        one_line_error(err, str(pending), "decisions not saved: is read-only")
        assert pending.read_bytes() == before and os.stat(pending).st_mode & 0o777 == 0o444

    def test_a_linked_suite_is_applied_to_its_target(self, tmp_path, capsys):
        (tmp_path / "real").mkdir()
        target = relabelled_article(tmp_path / "real")
        link = tmp_path / "article.json"
        link.symlink_to(target)
        pending = decide(link)
        status, out, err = inspector(capsys, "review", "--apply", link)
        assert (status, err) == (0, "")
        assert out.startswith(f"applied {pending} to {target}: 1 accepted")
        assert link.is_symlink() and load_suite(link).cases[0].expected == "ACCEPT"
