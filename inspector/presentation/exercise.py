"""The article's exercise (seed 000, section 6) as a guided sequence on an accepted case.

1. Replace only a valid quote with another genuine line of the same source
   (``quote.other_line``, preferring another field's canonical ``field=value``
   line); predict first what citation-only and the contract say, then run it.
2. Restore the quote (undo), change only the value (``value.perturb`` or
   ``value.other_source``), predict again; the exercise explains why the
   rejection category changes, in the words of ``contract.evidence``'s
   categories (``CaseReport.category``).
3. The archived labels stay intact: the frozen label is unchanged, the frozen
   case still verifies to it, and the suite file is the same bytes as when the
   exercise started.

``Exercise`` is a value, one per phase: each transition returns the next one,
and a transition that does not apply in the current phase raises
``ExerciseError`` (the screen only offers the keys that apply).  The screen
applies the changes and feeds the reports back (``ran``, ``restored``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from enum import Enum
from pathlib import Path

from ..contract.checks import CHECKS
from ..contract.evidence import Category
from ..lab.mutations import Mutant
from ..reports.case import CaseReport
from .predict import KEY_OF

__all__ = ["QUOTE_MUTATION", "VALUE_MUTATIONS", "Exercise", "ExerciseError", "LabelCheck", "Outcome", "Phase",
           "file_digest", "pick_quote_variant"]

QUOTE_MUTATION = "quote.other_line"
# Step 2's choices: (key, mutation), as the screen offers them.
VALUE_MUTATIONS: tuple[tuple[str, str], ...] = (("1", "value.perturb"), ("2", "value.other_source"))
STEPS = 3
_ORDER = {check.title: position for position, check in enumerate(CHECKS)}


class ExerciseError(ValueError):
    """A transition that does not apply in the exercise's current phase."""


class Phase(Enum):
    PREDICT = "predict"  # say what citation-only and the contract will do; then the change runs
    RESULT = "result"  # what they did, against what was said
    RESTORE = "restore"  # step 2: undo the quote change first
    CHOOSE = "choose"  # step 2: which value change
    LABELS = "labels"  # step 3: the archived labels, checked
    DONE = "done"


def file_digest(path: Path) -> str | None:
    """The sha256 of a suite file's bytes (None when it cannot be read)."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def pick_quote_variant(mutants: list[Mutant], facts: dict[str, str], field: str) -> Mutant | None:
    """The article's variant of ``quote.other_line``: another field's canonical line of the
    same document (``retry_enabled=false`` for the timeout claim), else the first line."""
    lines = {f"{other}={value}" for other, value in facts.items() if other != field}
    for mutant in mutants:
        if any(mutant.variant.endswith(f": {line}") for line in lines):
            return mutant
    return mutants[0] if mutants else None


@dataclass(frozen=True, slots=True)
class Outcome:
    """One step's change and what happened, against what was predicted."""

    mutation: str
    what: str  # the mutant's name
    said_citation: bool  # citation-only accepts, as predicted
    citation: bool  # citation-only accepts, as it is
    said: str  # the verdict predicted
    status: str
    label: str  # ``QUOTE_NOT_SUPPORTING (claims[0])``
    check: str | None  # the title of the check that failed first
    explanation: str | None
    category: Category | None

    @property
    def citation_right(self) -> bool:
        return self.said_citation == self.citation

    @property
    def verdict_right(self) -> bool:
        return self.said == self.status

    @property
    def right(self) -> int:
        return self.citation_right + self.verdict_right

    @property
    def category_words(self) -> str:
        return self.category.title if self.category is not None else "none (accepted)"


@dataclass(frozen=True, slots=True)
class LabelCheck:
    """Step 3: the archived case, after the exercise's changes."""

    expected: str | None  # the frozen label now
    was: str | None  # the frozen label when the exercise started
    verifies: str  # what the frozen case verifies to now
    matches: bool | None  # the frozen case still has its frozen expectations (None: nothing frozen)
    file_unchanged: bool | None  # the suite file's bytes are the same (None: it cannot be read)

    @property
    def intact(self) -> bool:
        return self.expected == self.was and self.matches is not False and self.file_unchanged is not False


def _say(ok: bool) -> str:
    return "accepts" if ok else "rejects"


@dataclass(frozen=True, slots=True)
class Exercise:
    number: int  # the case's number in the session
    case_id: str
    claim: int
    start_raw: str | bytes  # the accepted answer the exercise started from
    was: str | None  # its frozen label
    path: Path  # its suite file
    digest: str | None  # the suite file's sha256 at the start
    step: int = 1
    phase: Phase = Phase.PREDICT
    mutation: str = QUOTE_MUTATION
    said_citation: bool | None = None
    said: str | None = None
    outcomes: tuple[Outcome, ...] = ()
    labels: LabelCheck | None = None

    @classmethod
    def start(cls, report: CaseReport, claim: int) -> Exercise:
        """The exercise on an accepted case's answer as it is now (claim ``claim``)."""
        if report.case is None or report.verdict is None or not report.verdict.ok:
            raise ExerciseError("the exercise starts from an accepted case")
        return cls(report.number, report.id, claim, report.case.raw, report.expected, report.suite.path,
                   file_digest(report.suite.path))

    def _require(self, *phases: Phase) -> None:
        if self.phase not in phases:
            raise ExerciseError(f"not now: the exercise is at {self.phase.value}")

    # -- predicting ---------------------------------------------------------------

    def say_citation(self, accepts: bool) -> Exercise:
        self._require(Phase.PREDICT)
        return replace(self, said_citation=accepts)

    def say(self, status: str) -> Exercise:
        self._require(Phase.PREDICT)
        if status not in KEY_OF:
            raise ExerciseError(f"{status!r} is not a verdict")
        return replace(self, said=status)

    @property
    def ready(self) -> bool:
        """Both predictions are in: the change can run."""
        return self.phase is Phase.PREDICT and self.said_citation is not None and self.said is not None

    def ran(self, report: CaseReport, what: str) -> Exercise:
        """The change ran and the case now shows ``report``."""
        if not self.ready:
            raise ExerciseError("predict both before running the change")
        verdict = report.verdict
        assert verdict is not None and self.said is not None and self.said_citation is not None
        step = report.first_failure
        where = f" (claims[{verdict.claim}])" if not verdict.ok and verdict.claim is not None else ""
        outcome = Outcome(self.mutation, what, self.said_citation, verdict.citation_only, self.said, verdict.status,
                          report.actual + where, step.check.title if step is not None else None,
                          step.explanation if step is not None else None, report.category)
        return replace(self, phase=Phase.RESULT, outcomes=(*self.outcomes, outcome))

    # -- moving on -------------------------------------------------------------------

    def next(self) -> Exercise:
        """From a step's result to the next step."""
        self._require(Phase.RESULT)
        if self.step == 1:
            return replace(self, step=2, phase=Phase.RESTORE, said=None, said_citation=None)
        return replace(self, step=3, phase=Phase.LABELS)

    def restored(self, raw: str | bytes) -> Exercise:
        """The answer after an undo: the quote is restored when it is the starting answer again."""
        self._require(Phase.RESTORE)
        return replace(self, phase=Phase.CHOOSE) if raw == self.start_raw else self

    def choose(self, mutation: str) -> Exercise:
        self._require(Phase.CHOOSE)
        if mutation not in dict((name, key) for key, name in VALUE_MUTATIONS):
            raise ExerciseError(f"step 2 changes only the value: {mutation} is not one of its mutations")
        return replace(self, phase=Phase.PREDICT, mutation=mutation)

    def checked(self, frozen: CaseReport, digest: str | None) -> Exercise:
        """Step 3: the frozen case as the session has it now, and the suite file's digest now."""
        self._require(Phase.LABELS)
        unchanged = None if digest is None or self.digest is None else digest == self.digest
        labels = LabelCheck(frozen.expected, self.was, frozen.actual, frozen.match, unchanged)
        return replace(self, labels=labels)

    def finish(self) -> Exercise:
        self._require(Phase.LABELS)
        if self.labels is None:
            raise ExerciseError("check the labels first")
        return replace(self, phase=Phase.DONE)

    # -- what the exercise says ----------------------------------------------------------

    @property
    def right(self) -> int:
        return sum(outcome.right for outcome in self.outcomes)

    @property
    def predicted(self) -> int:
        return 2 * len(self.outcomes)

    @property
    def score(self) -> str:
        return f"{self.right}/{self.predicted} predictions right"

    @property
    def last(self) -> Outcome | None:
        return self.outcomes[-1] if self.outcomes else None

    def result_lines(self, outcome: Outcome) -> tuple[tuple[str, bool | None], ...]:
        """A step's result as (text, right): right None for a line that is not a prediction."""
        lines: list[tuple[str, bool | None]] = [
            (f"{outcome.what}", None),
            (f"citation-only {_say(outcome.citation)}: you said it {_say(outcome.said_citation)}",
             outcome.citation_right),
            (f"contract: {outcome.label}: you said {outcome.said}", outcome.verdict_right),
        ]
        if outcome.check is not None:
            lines.append((f"first failure: {outcome.check}. {outcome.explanation}", None))
        if outcome.category is not None:
            lines.append((f"category: {outcome.category.title}. {outcome.category.next_action}", None))
        return tuple(lines)

    @property
    def why(self) -> str | None:
        """Why the rejection category changed from step 1 to step 2 (after step 2)."""
        if len(self.outcomes) < 2:
            return None
        quote, value = self.outcomes[0], self.outcomes[1]
        if quote.category == value.category:
            return (f"The category stays {quote.category_words}: changing the quote and changing the value "
                    f"fail the same way here ({quote.label}, then {value.label}).")
        words = [f"The category follows the check that fails first. With another genuine line as the quote "
                 f"and the value kept, \"{quote.check or 'no check'}\" failed: {quote.status}, "
                 f"{quote.category_words}. With the canonical quote back and only the value changed, "
                 f"\"{value.check or 'no check'}\" fails: {value.status}, {value.category_words}."]
        if quote.check in _ORDER and value.check in _ORDER and _ORDER[value.check] < _ORDER[quote.check]:
            words.append(f"The contract compares the value with the cited document's fact (\"{value.check}\") "
                         f"before it reads the quote (\"{quote.check}\"): a genuine line does not make a wrong "
                         "value right, the evidence contradicts it.")
        if quote.citation and value.citation:
            words.append("Citation-only accepted both: the quote exists in a supplied source either way.")
        return " ".join(words)
