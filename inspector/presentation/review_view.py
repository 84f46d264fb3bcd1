"""What review mode shows, computed once for the views: each row's state in the
case list, the verdict panel's review lines, the walk's next case and its end,
a claim's human label beside the lens's, and the summary's agreement section.
No textual: the views render these values, nothing here draws.

The walk is ``cargo insta review``'s: ``a``/``r``/``s`` decide the case shown and
move on to the next case nobody decided yet (after it, wrapping); a skipped case
stays *left* (the header counts it, the next review shows it again) but the walk
does not come back to it.  When no case is undecided the walk is done, and the
end says how to apply the decisions.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..contract.evidence import CONTRADICTED, INSUFFICIENT, SUPPORTED
from ..reports.agreement import Agreement, Comparison, applied_labels
from ..reports.case import CLAIM_LABELS, CaseReport
from ..reports.tones import Tone
from ..suites.load import ACCEPT_DECISION, DECISIONS, HUMAN_LABELS, NOT_ASSESSABLE, REJECT_DECISION, SKIP_DECISION
from ..suites.reviewer import Signed, check_note
from .review import DECISION_WORDS, ReviewSession

__all__ = [
    "KNOWN_REGRESSION_MARK",
    "LABEL_CHOICES",
    "NO_LABELS",
    "REVIEW_LABEL",
    "ROW_MARKS",
    "AgreementCell",
    "AgreementSection",
    "CaseReview",
    "LabelChoice",
    "agreement_sections",
    "case_review",
    "cell_cases",
    "end_words",
    "human_label_cell",
    "human_labels_shown",
    "label_problem",
    "parse_decision",
    "row_state",
    "shown_path",
    "strip_words",
]

# The case list's title while it shows the review's queue.
REVIEW_LABEL = "review"

# A row's state in review mode: its mark and tone in the case list.
ROW_MARKS: dict[str, tuple[str, Tone]] = {
    "left": ("•", Tone.WARN),
    ACCEPT_DECISION: ("✓", Tone.GOOD),
    REJECT_DECISION: ("✗", Tone.BAD),
    SKIP_DECISION: ("»", Tone.MUTED),
}
# A known regression outside review mode: a reviewer rejected its verdict and kept the label.
KNOWN_REGRESSION_MARK: tuple[str, Tone] = ("⊘", Tone.WARN)


def row_state(review: ReviewSession, number: int) -> str | None:
    """``left`` (nobody decided), or the decision the pending file holds: accept, reject,
    skip; None for a case of a suite opened after the review started."""
    if not review.in_review(number):
        return None
    decision = review.decision(number)
    return "left" if decision is None else decision.decision


def shown_path(path: Path) -> str:
    """A pending file's path as the strip says it: relative to the current folder when under it, ``~`` for home."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        pass
    try:
        return "~/" + str(path.resolve().relative_to(Path.home().resolve()))
    except (ValueError, OSError, RuntimeError):
        return str(path)


def _pending_files(review: ReviewSession) -> list[Path]:
    """Where the decisions go: the files written so far, else where the first decision will go."""
    return review.pending_paths or [item.path for item in review.suites.values()]


def strip_words(review: ReviewSession) -> tuple[str, str]:
    """The review strip: ``review · 3 left of 5 · alice``, and where the decisions are kept."""
    paths = _pending_files(review)
    where = shown_path(paths[0]) + (f" (+{len(paths) - 1} more)" if len(paths) > 1 else "")
    written = "decisions in " if review.pending_paths else "decisions go to "
    return review.header(), written + where


def _counts(review: ReviewSession) -> dict[str, int]:
    counts = dict.fromkeys(DECISIONS, 0)
    for number in review.queue:
        decision = review.decision(number)
        if decision is not None:
            counts[decision.decision] += 1
    return counts


def _suite_args(review: ReviewSession) -> str:
    return " ".join(shown_path(item.suite.path) for item in review.suites.values() if item.content is not None) \
        or "SUITE"


def end_words(review: ReviewSession) -> str:
    """What the walk says when no case is undecided: how it went, and how to apply it."""
    if not review.queue:
        return "nothing to review: no verdict differs from its frozen label, and no case was saved or edited " \
               "since its last review"
    counts = _counts(review)
    done = (f"review done: {counts[ACCEPT_DECISION]} accepted, {counts[REJECT_DECISION]} rejected, "
            f"{counts[SKIP_DECISION]} skipped")
    if not review.pending_paths:
        return done
    return (f"{done}. Apply with: inspector review --apply {_suite_args(review)} "
            "(or --discard; skipped cases stay pending)")


# -- the verdict panel's review lines --------------------------------------------------


class Said(Signed, frozen=True):
    """One human decision as the verdict panel says it: in words, in a tone, signed as it was
    (``Signed``; every string untrusted but the words)."""

    words: str  # "accepted", "rejected (known regression)", "relabelled ACCEPT → VALUE_MISMATCH"
    tone: Tone


@dataclass(frozen=True, slots=True)
class CaseReview:
    """A case's review as the verdict panel shows it."""

    pending: str | None  # why the case is in the review (None: it is not pending)
    decision: Said | None  # this review's decision, pending in the review file
    applied: Said | None  # the suite's own review member
    history: tuple[Said, ...]  # the suite's relabellings, oldest first
    known_regression: bool


_DECISION_TONES = {ACCEPT_DECISION: Tone.GOOD, REJECT_DECISION: Tone.BAD, SKIP_DECISION: Tone.MUTED}


def case_review(report: CaseReport, review: ReviewSession | None) -> CaseReview | None:
    """What the verdict panel says of the case's review (None: nothing to say)."""
    case = report.case
    if case is None or report.parent is not None:  # an edited case: the lab's comparison is shown instead
        return None
    if review is not None and not review.in_review(report.number):
        review = None
    decision = None
    if review is not None:
        pending = review.decision(report.number)
        if pending is not None:
            decision = Said(DECISION_WORDS[pending.decision], _DECISION_TONES[pending.decision],
                            **pending.signature())
    applied = None
    if case.review is not None:
        words = {ACCEPT_DECISION: f"accepted {case.review.verdict}",
                 REJECT_DECISION: f"rejected {case.review.verdict}: a known regression"}.get(case.review.decision,
                                                                                         case.review.decision)
        applied = Said(words, _DECISION_TONES.get(case.review.decision, Tone.MUTED), **case.review.signature())
    history = tuple(Said(f"{change.member} {change.old} → {change.new}", Tone.MUTED, **change.signature())
                    for change in case.history)
    pending_reason = report.pending_reason if review is not None else None
    if pending_reason is None and decision is None and applied is None and not history:
        return None
    return CaseReview(pending_reason, decision, applied, history, report.known_regression)


# -- deciding and labelling ------------------------------------------------------------

_DECISION_NAMES = {"a": ACCEPT_DECISION, "r": REJECT_DECISION, "s": SKIP_DECISION,
                   **{name: name for name in DECISIONS}}


def parse_decision(text: str) -> str:
    """A typed decision: accept, reject or skip (or a, r, s); ValueError otherwise."""
    found = _DECISION_NAMES.get(text.strip().casefold())
    if found is None:
        raise ValueError(f"not a decision: {text.strip()!r}; type accept, reject or skip (a, r, s)")
    return found


@dataclass(frozen=True, slots=True)
class LabelChoice:
    """A person's label of a claim as the label form hands it back (None: clear it)."""

    label: str | None
    note: str | None = None


# The label form's choices, in order: the key, the label (None: clear), its words.
LABEL_CHOICES: tuple[tuple[str, str | None, str], ...] = (
    ("1", SUPPORTED, "SUPPORTED: the quoted source states this value for this field"),
    ("2", CONTRADICTED, "CONTRADICTED: the source states another value"),
    ("3", INSUFFICIENT, "INSUFFICIENT_EVIDENCE: the sources do not say"),
    ("4", NOT_ASSESSABLE, "NOT_ASSESSABLE: cannot be judged (a note says why)"),
    ("0", None, "clear: no human label"),
)


def label_problem(label: str | None, note: str | None) -> str | None:
    """Why this label and note cannot be kept (None: they can)."""
    if label is not None and label not in HUMAN_LABELS:
        return f"unknown label {label!r}"
    try:
        kept = check_note(note)
    except ValueError as exc:
        return str(exc)
    if label == NOT_ASSESSABLE and kept is None:
        return "NOT_ASSESSABLE needs a note: say why the claim cannot be judged"
    return None


def human_labels_shown(report: CaseReport, review: ReviewSession | None) -> dict[int, str] | None:
    """People's labels of the case's claims for the claims panel: in review mode the
    suite's with this review's on top (an empty dict: none yet), else the suite's own
    (None: the case has none, and the panel shows no column for them)."""
    if report.case is None:
        return None
    if review is not None and review.in_review(report.number):
        return review.human_labels(report.number)
    return applied_labels(report) or None


_HUMAN_WORDS = {NOT_ASSESSABLE: ("–", "N/A")}


def human_label_cell(human: str | None, lens: str | None) -> tuple[str, str, Tone]:
    """A claim's human label in the claims panel: (mark, word, tone); a label the lens
    disagrees with (a person's SUPPORTED, the lens's CONTRADICTED) reads ``≠`` in the warning tone."""
    if human is None:
        return "—", "—", Tone.PENDING
    if human in _HUMAN_WORDS:
        mark, word = _HUMAN_WORDS[human]
        return mark, word, Tone.MUTED
    mark, word, tone = CLAIM_LABELS.get(human, ("?", human, Tone.PLAIN))
    if lens is not None and lens != human:
        return "≠", f"≠ {word}", Tone.WARN
    return mark, word, tone


# -- the summary's agreement section -----------------------------------------------------


@dataclass(frozen=True, slots=True)
class AgreementCell:
    count: int
    cases: tuple[int, ...]  # the case numbers behind it, each once
    description: str  # as the case list's title says it
    agreed: bool  # on the diagonal


@dataclass(frozen=True, slots=True)
class AgreementSection:
    """One comparison: its line of figures and its confusion matrix (rows: people)."""

    title: str  # "people vs the label lens"
    figures: str  # "12 claims compared · agree 83% · κ 0.71 · 1 not assessable"
    rater: str  # the columns: "lens" or "contract"
    columns: tuple[str, ...]
    rows: tuple[tuple[str, tuple[AgreementCell, ...]], ...]  # (human label, a cell per column)


_SHORT = {INSUFFICIENT: "INSUFFICIENT"}


def cell_cases(items: tuple[tuple[int, int | None], ...]) -> tuple[int, ...]:
    """The case numbers of a cell's items (claims or answers), each once, ascending."""
    return tuple(sorted({number for number, _ in items}))


def _figures(comparison: Comparison, what: str, extra: str = "") -> str:
    if not comparison.compared:
        return f"no {what} compared yet{extra}"
    rate = f"{comparison.rate:.0%}" if comparison.rate is not None else "—"
    kappa = f"{comparison.kappa:.2f}" if comparison.kappa is not None else "— (one label only)"
    noun = what if comparison.compared != 1 else what.removesuffix("s")
    return f"{comparison.compared} {noun} compared · agree {rate} · Cohen's κ {kappa}{extra}"


def _section(comparison: Comparison, title: str, what: str, rater: str, extra: str = "") -> AgreementSection:
    rows = []
    for human in comparison.categories:
        cells = []
        for other in comparison.categories:
            items = comparison.cell(human, other)
            description = f"person {_SHORT.get(human, human)}, {rater} {_SHORT.get(other, other)}"
            cells.append(AgreementCell(len(items), cell_cases(items), description, human == other))
        rows.append((_SHORT.get(human, human), tuple(cells)))
    return AgreementSection(title, _figures(comparison, what, extra), rater,
                            tuple(_SHORT.get(c, c) for c in comparison.categories), tuple(rows))


def agreement_sections(agreement: Agreement) -> tuple[AgreementSection, ...]:
    """People vs the label lens (each claim), and people vs the contract (each answer
    whose every claim a person labelled); empty when nobody labelled a claim."""
    if not agreement.any:
        return ()
    apart = len(agreement.not_assessable)
    extra = f" · {apart} not assessable" if apart else ""
    if agreement.unpaired:
        extra += f" · {len(agreement.unpaired)} without a lens label"
    return (
        _section(agreement.claims, "people vs the label lens", "claims", "lens", extra),
        _section(agreement.answers, "people vs the contract", "answers", "contract",
                 " (an answer counts once a person labelled every claim: ANSWER when all are SUPPORTED)"
                 if agreement.answers.compared == 0 else ""),
    )


# The agreement section when nobody labelled a claim yet.
NO_LABELS = ("no claim labelled by a person yet: in review mode (ctrl+p, “Review pending cases”) "
             "L labels the current claim")
