"""Review mode's state: which cases a reviewer walks, what they decided, how many
are left, and people's labels against the lens (``inspector review``).

The cases to review are each suite's pending ones (``CaseReport.pending_reason``:
a verdict that differs from its label with no review keeping it, a saved case
never reviewed, a review that no longer holds), plus those already decided in
the reviewer's pending file, so that a decision can be seen and changed.  Every
decision and claim label is written to the pending file at once
(``suites.review``), whole; the suite itself is never written here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..contract.version import VERIFIER
from ..reports.agreement import Agreement, agreement, applied_labels
from ..reports.case import CaseReport
from ..suites.load import ACCEPT_DECISION, DECISIONS, REJECT_DECISION, SKIP_DECISION, Suite, read_bytes
from ..suites.review import (
    Decision,
    PendingFile,
    ReviewError,
    file_sha256,
    load_pending,
    pending_path,
    record_decision,
    record_label,
    save_pending,
    start_pending,
)
from ..suites.reviewer import now_stamp
from .session import Session

__all__ = ["DECISION_WORDS", "ReviewSession", "SuiteReview"]

# How a decision reads on screen.
DECISION_WORDS = {ACCEPT_DECISION: "accepted", REJECT_DECISION: "rejected (known regression)",
                  SKIP_DECISION: "skipped"}


@dataclass(slots=True)
class SuiteReview:
    """One suite's review: where its pending file goes and what it holds so far."""

    suite: Suite
    path: Path
    content: PendingFile | None  # None until the first decision (nothing is written before)


class ReviewSession:
    """A reviewer's pass over the pending cases of a session's suites."""

    def __init__(self, session: Session, reviewer: str, clock: Callable[[], str] = now_stamp,
                 every: bool = False) -> None:
        self.session = session
        self.reviewer = reviewer
        self.clock = clock
        self.suites: dict[int, SuiteReview] = {}
        for suite in session.suites:
            self.suites[id(suite)] = self._open(suite)
        # ``every``: all the cases that loaded, to label claims of cases nothing made pending.
        self.queue: list[int] = [number for number in range(len(session))
                                 if (every and session.frozen(number).verdict is not None)
                                 or session.frozen(number).pending_reason is not None
                                 or self.decision(number) is not None]

    def _open(self, suite: Suite) -> SuiteReview:
        """The suite's pending file for this reviewer, checked (ReviewError when it
        cannot be continued: corrupt, another suite's, the suite changed, another contract)."""
        path = pending_path(suite.path, self.reviewer)
        if not path.exists():
            return SuiteReview(suite, path, None)
        pending = load_pending(path, suite)
        if file_sha256(read_bytes(suite.path)) != pending.content.suite_sha256:
            raise ReviewError(path, f"holds decisions on {suite.path} as it was before it changed: apply or "
                                    "discard them first (inspector review --apply or --discard)")
        stale = {item.verifier for item in [*pending.content.decisions, *pending.content.labels]} - {VERIFIER}
        if stale:
            raise ReviewError(path, f"holds decisions taken under the contract {sorted(stale)[0]}, and this one is "
                                    f"{VERIFIER}: discard them (inspector review --discard) and review again")
        return SuiteReview(suite, path, pending.content)

    # -- reading ------------------------------------------------------------------

    def _review_of(self, number: int) -> SuiteReview:
        return self.suites[id(self.session.frozen(number).suite)]

    def decision(self, number: int) -> Decision | None:
        """The decision the pending file holds on this case, if any."""
        content = self._review_of(number).content
        if content is None:
            return None
        case_id = self.session.frozen(number).id
        return next((d for d in reversed(content.decisions) if d.case == case_id), None)

    def is_left(self, number: int) -> bool:
        decision = self.decision(number)
        return decision is None or decision.decision == SKIP_DECISION

    @property
    def left(self) -> int:
        """Cases still to decide (skipped ones included: a skip decides nothing)."""
        return sum(1 for number in self.queue if self.is_left(number))

    @property
    def decided(self) -> int:
        return len(self.queue) - self.left

    def next_left(self, after: int | None = None) -> int | None:
        """The next case of the queue nobody decided yet, after ``after`` (wrapping); None:
        the walk is done.  A skipped case is not walked again (it still counts as left)."""
        if not self.queue:
            return None
        start = 0 if after is None else next((i + 1 for i, n in enumerate(self.queue) if n >= after), 0)
        order = self.queue[start:] + self.queue[:start]
        return next((number for number in order if number != after and self.decision(number) is None), None)

    def in_review(self, number: int) -> bool:
        """Whether the case's suite is one the review is of (not one opened after it started)."""
        return id(self.session.frozen(number).suite) in self.suites

    def human_labels(self, number: int) -> dict[int, str]:
        """People's labels of the case's claims: the suite's, then this review's on top."""
        report = self.session.frozen(number)
        labels = applied_labels(report)
        content = self._review_of(number).content
        if content is not None:
            labels.update({item.claim: item.label for item in content.labels if item.case == report.id})
        return labels

    def agreement(self, numbers: list[int] | None = None) -> Agreement:
        """People against the lens and the contract over ``numbers``, this review's pending
        labels on top for the cases of its suites."""
        numbers = list(range(len(self.session))) if numbers is None else numbers
        reports = [self.session.frozen(number) for number in numbers]
        return agreement(reports, {number: self.human_labels(number) for number in numbers
                                   if self.in_review(number)})

    def header(self) -> str:
        """``review · 3 left of 5 · alice``."""
        return f"review · {self.left} left of {len(self.queue)} · {self.reviewer}"

    @property
    def pending_paths(self) -> list[Path]:
        return [review.path for review in self.suites.values() if review.content is not None]

    # -- deciding -------------------------------------------------------------------

    def decide(self, number: int, decision: str, note: str | None = None) -> Decision:
        """Record a decision on the case (as its suite has it) and write the pending file.
        ValueError for a case that cannot be decided (not loaded, or edited in the lab)."""
        if decision not in DECISIONS:
            raise ValueError(f"unknown decision {decision!r}")
        report = self._decidable(number)
        case, evidence = report.case, report.evidence
        assert case is not None and evidence is not None
        review = self._review_of(number)
        content = review.content or start_pending(review.suite, self.reviewer)
        content = record_decision(content, case, decision, report.actual, self.reviewer, self.clock(), note,
                                  evidence.labels if case.expected_labels is not None else None,
                                  evidence.policy if case.expected_policy is not None else None)
        self._save(review, content)
        if number not in self.queue:
            self.queue = sorted({*self.queue, number})
        found = self.decision(number)
        assert found is not None
        return found

    def label(self, number: int, claim: int, label: str | None, note: str | None = None) -> None:
        """Set (or, with None, clear) a person's label of one claim, and write the pending file."""
        report = self._decidable(number)
        if claim < 0 or claim >= len(report.claim_labels):
            raise ValueError(f"the answer has no claims[{claim}]")
        case = report.case
        assert case is not None
        review = self._review_of(number)
        content = review.content or start_pending(review.suite, self.reviewer)
        self._save(review, record_label(content, case, claim, label, self.reviewer, self.clock(), note))

    def _decidable(self, number: int) -> CaseReport:
        report = self.session.frozen(number)
        if report.case is None or report.verdict is None:
            raise ValueError("this case could not be loaded: there is no verdict to decide on")
        if number in self.session.edits():
            raise ValueError("this case has the lab's changes applied: a decision is on the case as its suite has "
                             "it (R resets it)")
        return report

    def _save(self, review: SuiteReview, content: PendingFile) -> None:
        save_pending(review.path, content)  # ReviewError: nothing changed in memory either
        review.content = content

