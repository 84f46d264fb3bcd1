"""The cases the inspector shows and their verdicts.  No textual, no rich.

Verdicts are computed once per case and only when asked for: when a row of the
case list is drawn, when a case is opened, or by a background worker for the
summary.  ``verify`` is pure, so computing the same verdict twice (worker and
UI racing) is harmless; the cache keeps whichever lands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from ..contract.checks import CHECKS, Check
from ..contract.evidence import ANSWER
from ..contract.verify import Verdict, verify
from ..suites.audit import label_matches
from ..suites.load import Case, CaseError, Suite

__all__ = [
    "Entry",
    "Rung",
    "Session",
    "Summary",
    "failing_check",
]

CHECK_POSITION: dict[str, int] = {check.id: position for position, check in enumerate(CHECKS)}


def failing_check(verdict: Verdict) -> Check | None:
    """The check that rejected the answer (None when accepted), without building the trace."""
    return verdict.failed_check


@dataclass(frozen=True, slots=True)
class Entry:
    """One row of the case list: a loaded case, or a case that could not be loaded."""

    number: int  # position in the session, across suites
    suite: Suite
    case: Case | None = None
    error: CaseError | None = None

    @property
    def id(self) -> str:
        if self.case is not None:
            return self.case.id
        assert self.error is not None
        return self.error.id if self.error.id is not None else f"cases[{self.error.index}]"

    @property
    def index(self) -> int:
        """The case's position in its suite file."""
        return self.case.index if self.case is not None else self.error.index  # type: ignore[union-attr]

    @property
    def expected(self) -> str | None:
        return self.case.expected if self.case is not None else None

    @property
    def broken(self) -> bool:
        return self.case is None


@dataclass(frozen=True, slots=True)
class Rung:
    """One check of the ladder over a whole suite (or session)."""

    check: Check
    passed: int  # cases that got past this check (accepted, or failed later)
    failed: int  # cases whose first failure is this check


@dataclass(frozen=True, slots=True)
class Summary:
    total: int  # cases with a verdict
    broken: int  # cases that could not be loaded
    strict_json: int
    citation_only: int
    accepted: int
    labelled: int  # cases with a frozen label
    matching: int  # ... whose verdict is that label
    lens_labelled: int  # cases with claims the label lens labelled (strict JSON)
    lens_answer: int  # ... on which the lens's policy is ANSWER
    lens_disagrees: int  # ... of which the contract rejects
    rungs: tuple[Rung, ...]


class Session:
    """Every case of the loaded suites, in file order, suite after suite."""

    def __init__(self, suites: Iterable[Suite] = ()) -> None:
        self.suites: list[Suite] = []
        self.entries: list[Entry] = []
        self._verdicts: list[Verdict | None] = []
        self._haystacks: list[str] = []
        for suite in suites:
            self.add_suite(suite)

    def __len__(self) -> int:
        return len(self.entries)

    def add_suite(self, suite: Suite) -> range:
        """Append a suite's cases; returns the numbers of the new entries."""
        start = len(self.entries)
        rows: list[tuple[int, Case | None, CaseError | None]] = [(c.index, c, None) for c in suite.cases]
        rows += [(e.index, None, e) for e in suite.broken]
        rows.sort(key=lambda row: row[0])
        self.suites.append(suite)
        for offset, (_, case, error) in enumerate(rows):
            entry = Entry(start + offset, suite, case, error)
            self.entries.append(entry)
            self._verdicts.append(None)
            self._haystacks.append(
                " ".join(filter(None, (suite.name, entry.id, entry.expected,
                                       case.note if case is not None else None))).casefold()
            )
        return range(start, len(self.entries))

    # -- verdicts ------------------------------------------------------------

    def verdict(self, number: int) -> Verdict | None:
        """The case's verdict, computed on first use; None for a broken case."""
        verdict = self._verdicts[number]
        if verdict is None:
            entry = self.entries[number]
            if entry.case is None:
                return None
            verdict = verify(entry.case.raw, entry.case.request, entry.suite.registry)
            self._verdicts[number] = verdict
        return verdict

    def cached(self, number: int) -> Verdict | None:
        """The verdict if already computed, else None (never computes)."""
        return self._verdicts[number]

    def compute_all(self, cancelled: Callable[[], bool] = lambda: False) -> bool:
        """Compute every verdict (for a worker).  False if cancelled before the end."""
        for number in range(len(self.entries)):
            if cancelled():
                return False
            self.verdict(number)
        return True

    @property
    def complete(self) -> bool:
        return all(v is not None or e.case is None for v, e in zip(self._verdicts, self.entries, strict=True))

    def actual(self, number: int) -> str:
        """The label the contract gives (``ERROR`` for a broken case)."""
        verdict = self.verdict(number)
        return "ERROR" if verdict is None else verdict.label

    def differs(self, number: int) -> bool:
        """True when the case has a frozen label and the verdict is not it (or the case is broken)."""
        entry = self.entries[number]
        if entry.case is None:
            return True
        if entry.expected is None:
            return False
        verdict = self.verdict(number)
        # The audit's rule: a bare STATUS label matches whatever the sub-reason.
        return verdict is None or not label_matches(entry.expected, verdict)

    # -- finding cases -------------------------------------------------------

    def search(self, text: str, among: Sequence[int] | None = None) -> list[int]:
        """Cases whose suite, id, frozen label or note contains ``text`` (case-insensitive)."""
        numbers = range(len(self.entries)) if among is None else among
        needle = text.casefold().strip()
        if not needle:
            return list(numbers)
        haystacks = self._haystacks
        return [n for n in numbers if needle in haystacks[n]]

    def with_status(self, status: str) -> list[int]:
        """Cases whose verdict has this status (``ERROR`` for broken cases)."""
        return [n for n in range(len(self.entries)) if self._status(n) == status]

    def with_label(self, label: str) -> list[int]:
        return [n for n in range(len(self.entries)) if self.actual(n) == label]

    def failing_at(self, check_id: str) -> list[int]:
        """Cases whose first failure is this check."""
        found = []
        for n in range(len(self.entries)):
            verdict = self.verdict(n)
            if verdict is not None:
                check = failing_check(verdict)
                if check is not None and check.id == check_id:
                    found.append(n)
        return found

    def mismatched(self) -> list[int]:
        return [n for n in range(len(self.entries)) if self.differs(n)]

    def lens_disagreements(self) -> list[int]:
        """Cases the label lens would ANSWER and the contract rejects."""
        return [n for n in range(len(self.entries)) if (v := self.verdict(n)) is not None and v.lens_disagrees]

    def numbers_of(self, suite: Suite) -> list[int]:
        """The entries of one suite."""
        return [entry.number for entry in self.entries if entry.suite is suite]

    def find_id(self, case_id: str) -> int | None:
        for entry in self.entries:
            if entry.id == case_id:
                return entry.number
        return None

    def _status(self, number: int) -> str:
        verdict = self.verdict(number)
        return "ERROR" if verdict is None else verdict.status

    # -- the ladder over all cases ------------------------------------------

    def summary(self, numbers: Iterable[int] | None = None) -> Summary:
        """The article's figure for these cases (all by default): how many pass each rung."""
        numbers = range(len(self.entries)) if numbers is None else numbers
        total = broken = strict = citation = accepted = labelled = matching = 0
        lens_labelled = lens_answer = lens_disagrees = 0
        scoped = False
        failed_at = [0] * len(CHECKS)
        for n in numbers:
            verdict = self.verdict(n)
            if verdict is None:
                broken += 1
                continue
            total += 1
            scoped = scoped or verdict.request.scope is not None
            strict += verdict.strict_json
            citation += verdict.citation_only
            accepted += verdict.ok
            lens_labelled += bool(verdict.labels)
            lens_answer += verdict.policy == ANSWER
            lens_disagrees += verdict.lens_disagrees
            expected = self.entries[n].expected
            if expected is not None:
                labelled += 1
                matching += bool(label_matches(expected, verdict))
            check = failing_check(verdict)
            if check is not None:
                failed_at[CHECK_POSITION[check.id]] += 1
        rungs = []
        remaining = total
        for check, failed in zip(CHECKS, failed_at, strict=True):
            if check.needs_scope and not scoped:
                continue  # no case has an access scope: the step is in no trace
            remaining -= failed
            rungs.append(Rung(check, remaining, failed))
        return Summary(total, broken, strict, citation, accepted, labelled, matching,
                       lens_labelled, lens_answer, lens_disagrees, tuple(rungs))
