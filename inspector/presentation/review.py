"""Review mode's state: which cases a reviewer walks, what they decided, how many
are left, and people's labels against the lens (``inspector review``).

The cases to review are each suite's pending ones (``CaseReport.pending_reason``:
a verdict that differs from its label with no review keeping it, a saved case
never reviewed, a review that no longer holds), plus those already decided in
the reviewer's pending file, so that a decision can be seen and changed.  Every
decision and claim label is written to the pending file at once
(``suites.review``), whole; the suite itself is never written here.  Each write
adds to the pending file as it is on disk (``change_pending``), so decisions
taken meanwhile in another session (another terminal, another served tab,
another reviewer) are kept and then shown here too; a decision that replaces
one taken meanwhile on the same case says whose (``ReviewSession.news``).
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
    PendingDecision,
    PendingFile,
    PendingLabel,
    ReviewError,
    change_pending,
    effective_decisions,
    effective_labels,
    file_sha256,
    load_pending,
    pending_path,
    record_decision,
    record_label,
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
    started: str  # the suite's digest when the review started: decisions are on the suite as it was then


class ReviewSession:
    """A reviewer's pass over the pending cases of a session's suites."""

    def __init__(self, session: Session, reviewer: str, clock: Callable[[], str] = now_stamp,
                 every: bool = False) -> None:
        self.session = session
        self.reviewer = reviewer
        self.clock = clock
        self.suites: dict[int, SuiteReview] = {}
        # What the last save found: the decision or label taken meanwhile elsewhere that it replaced (None: none).
        self.news: str | None = None
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
        # A suite held only in memory (the screenshot scenes') has no digest: a save
        # reads the file again and says it is missing, so nothing is written.
        started = file_sha256(read_bytes(suite.path)) if Path(suite.path).exists() else ""
        if not path.exists():
            return SuiteReview(suite, path, None, started)
        pending = load_pending(path, suite)
        if started != pending.content.suite_sha256:
            raise ReviewError(path, f"holds decisions on {suite.path} as it was before it changed: apply or "
                                    "discard them first (inspector review --apply or --discard)")
        signed: list[PendingDecision | PendingLabel] = [*pending.content.decisions, *pending.content.labels]
        stale = {item.verifier for item in signed} - {VERIFIER}
        if stale:
            raise ReviewError(path, f"holds decisions taken under the contract {sorted(stale)[0]}, and this one is "
                                    f"{VERIFIER}: discard them (inspector review --discard) and review again")
        return SuiteReview(suite, path, pending.content, started)

    # -- reading ------------------------------------------------------------------

    def _review_of(self, number: int) -> SuiteReview:
        return self.suites[id(self.session.frozen(number).suite)]

    def decision(self, number: int) -> PendingDecision | None:
        """The decision the pending file holds on this case, if any."""
        content = self._review_of(number).content
        if content is None:
            return None
        return effective_decisions(content).get(self.session.frozen(number).id)

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
            labels.update({claim: item.label for (case, claim), item in effective_labels(content).items()
                           if case == report.id})
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

    def decide(self, number: int, decision: str, note: str | None = None) -> PendingDecision:
        """Record a decision on the case (as its suite has it) and write the pending file.
        ValueError for a case that cannot be decided (not loaded, or edited in the lab)."""
        if decision not in DECISIONS:
            raise ValueError(f"unknown decision {decision!r}")
        report = self._decidable(number)
        case, evidence = report.case, report.evidence
        assert case is not None and evidence is not None
        review = self._review_of(number)
        at = self.clock()
        labels = evidence.labels if case.expected_labels is not None else None
        policy = evidence.policy if case.expected_policy is not None else None
        known = self.decision(number)
        before = self._save(review, lambda content: record_decision(content, case, decision, report.actual,
                                                                    self.reviewer, at, note, labels, policy))
        replaced = effective_decisions(before).get(case.id) if before is not None else None
        if replaced is not None and replaced != known:
            self.news = (f"replaced {replaced.reviewer}'s decision on {case.id} ({replaced.decision}, "
                         f"{replaced.at}) taken meanwhile")
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
        at = self.clock()
        known = self._pending_label(review.content, case.id, claim)
        before = self._save(review, lambda content: record_label(content, case, claim, label, self.reviewer, at,
                                                                 note))
        found = self._pending_label(before, case.id, claim)
        if found is not None and found != known:
            self.news = (f"replaced {found.reviewer}'s label of {case.id} claims[{claim}] ({found.label}, "
                         f"{found.at}) taken meanwhile")

    @staticmethod
    def _pending_label(content: PendingFile | None, case_id: str, claim: int) -> PendingLabel | None:
        return effective_labels(content).get((case_id, claim)) if content is not None else None

    def _decidable(self, number: int) -> CaseReport:
        report = self.session.frozen(number)
        if report.case is None or report.verdict is None:
            raise ValueError("this case could not be loaded: there is no verdict to decide on")
        if number in self.session.edits():
            raise ValueError("this case has the lab's changes applied: a decision is on the case as its suite has "
                             "it (R resets it)")
        return report

    def _save(self, review: SuiteReview, change: Callable[[PendingFile], PendingFile]) -> PendingFile | None:
        """Make ``change`` to the pending file as it is on disk now, and show what was written (decisions
        taken meanwhile elsewhere included); returns what the file held before (None: nothing)."""
        self.news = None
        written, before = change_pending(review.path, review.suite, review.started, self.reviewer, change)
        review.content = written  # ReviewError above: nothing changed in memory either
        return before

