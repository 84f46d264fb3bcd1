"""The cases the inspector shows, across suites, and their reports.

A case's report (and so its verdict) is computed when first asked for: when a
row of the case list is drawn, when a case is opened, or by a worker for the
summary.  ``verify`` is pure, so computing the same report twice (worker and
UI racing) is harmless; the cache keeps whichever lands.

The lab's edits live here too, one ``History`` per edited case: a case's report
is its edited answer's while a change is applied, and the frozen one's after
undo or reset.  Moving to another case and back keeps each case's edits.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Protocol

from ..lab.history import Change, History
from ..reports.case import CaseReport
from ..reports.suite import SuiteReport
from ..suites.load import Case, CaseError, Suite

if TYPE_CHECKING:
    from ..contract.checks import Check

__all__ = ["ReportCache", "Session"]


class ReportCache(Protocol):
    """Where a session keeps the reports it computed: a list, or a bounded cache."""

    def __getitem__(self, number: int, /) -> CaseReport | None: ...
    def __setitem__(self, number: int, report: CaseReport | None, /) -> None: ...


class Session:
    """Every case of the loaded suites, in file order, suite after suite.

    A session over one suite too large to hold a row per case (a triage group's
    records) is made with ``rows``, ``ids`` and ``reports``: sequences built as
    they are read and a bounded report cache; such a session holds that suite alone."""

    def __init__(self, suites: Iterable[Suite] = (), *,
                 rows: Sequence[tuple[Suite, Case | None, CaseError | None]] | None = None,
                 ids: Sequence[str] | None = None, reports: ReportCache | None = None) -> None:
        self.suites: list[Suite] = []
        self._rows: Sequence[tuple[Suite, Case | None, CaseError | None]] = [] if rows is None else rows
        self._reports: ReportCache = [] if reports is None else reports
        self._haystacks: list[str] = []
        self.ids: Sequence[str] = [] if ids is None else ids  # every case's id, by number
        self._sizes: dict[int, int] = {}
        self._histories: dict[int, History] = {}
        self._edited: dict[int, CaseReport] = {}  # the report of each edited case's current answer
        self._saved: dict[int, History] = {}  # each saved case's history as it was saved
        self._fixed = rows is not None
        if self._fixed:
            self.suites = list(suites)
            if len(self.suites) != 1 or ids is None or reports is None:
                raise ValueError("a session over built-as-read rows holds one suite, with its ids and reports")
            self._sizes[id(self.suites[0])] = len(self._rows)
            return
        for suite in suites:
            self.add_suite(suite)

    def __len__(self) -> int:
        return len(self._rows)

    def add_suite(self, suite: Suite) -> range:
        """Append a suite's cases (and its broken ones, in file order); returns their numbers."""
        if self._fixed:
            raise TypeError(f"{self.suites[0].name}: a triage group's records cannot be mixed with suites: "
                            "open the suite on its own")
        start = len(self._rows)
        rows: list[tuple[int, Case | None, CaseError | None]] = [(c.index, c, None) for c in suite.cases]
        rows += [(e.index, None, e) for e in suite.broken]
        rows.sort(key=lambda row: row[0])
        self.suites.append(suite)
        self._sizes[id(suite)] = len(rows)
        for _, case, error in rows:
            self._append(suite, case, error)
        return range(start, len(self._rows))

    def _append(self, suite: Suite, case: Case | None, error: CaseError | None) -> None:
        """One more row: a case of ``suite`` (or one that could not be loaded)."""
        assert isinstance(self._rows, list) and isinstance(self._reports, list) and isinstance(self.ids, list)
        self._rows.append((suite, case, error))
        self._reports.append(None)
        case_id = case.id if case is not None else (error.id if error and error.id is not None
                                                    else f"cases[{error.index if error else 0}]")
        self.ids.append(case_id)
        self._haystacks.append(" ".join(filter(None, (
            suite.name, case_id, case.expected if case else None, case.note if case else None))).casefold())

    def open_suite(self, suite: Suite) -> tuple[str, list[int]]:
        """Add a suite read from a file, minding a copy of that file already open:
        (what happened, the numbers of its cases now in the session).

        - ``"opened"``: the file was not open; its cases are added.
        - ``"already open"``: it is, with the same cases and sources; nothing is added.
        - ``"grown"``: it is, and the file holds the same cases and sources plus
          more after them (a counterexample saved into it): the open copy
          becomes this one and only the new cases are added, at the end.
        - ``"opened again"``: it is, but the file changed otherwise; its cases are
          added as a second copy (the first stays as it was read)."""
        if self._fixed:
            self.add_suite(suite)  # refused
        earlier = self._open_copy(suite)
        if earlier is None:
            return "opened", list(self.add_suite(suite))
        known = len(earlier.cases)
        if earlier.registry.sources != suite.registry.sources or earlier.broken != suite.broken \
                or suite.cases[:known] != earlier.cases:
            return "opened again", list(self.add_suite(suite))
        numbers = self.numbers_of(earlier)
        if len(suite.cases) == known:
            return "already open", numbers
        # The open copy becomes the file as it is now: the same cases (their reports made
        # again, of this suite, an edited one's too, its edits kept), then the new ones.
        self.suites[self.suites.index(earlier)] = suite
        self._sizes[id(suite)] = len(suite.cases) + len(suite.broken)
        fresh = {case.index: case for case in suite.cases}
        for number in numbers:
            _, case, error = self._rows[number]
            # reopened: a session of suites, whose rows are a list (a record session opens nothing again)
            self._rows[number] = (suite, fresh[case.index] if case is not None else None, error)  # type: ignore[index]
            self._reports[number] = None
            if number in self._edited:
                self._set_history(number, self._histories[number])
        start = len(self._rows)
        for case in suite.cases[known:]:
            self._append(suite, case, None)
        return "grown", [*numbers, *range(start, len(self._rows))]

    def _open_copy(self, suite: Suite) -> Suite | None:
        """The suite already open from the same file as ``suite`` (the last one), if any."""
        for earlier in reversed(self.suites):
            try:
                if earlier.path.resolve() == suite.path.resolve():
                    return earlier
            except (OSError, RuntimeError, AttributeError):  # no path, or one that cannot be resolved
                continue
        return None

    def suite_size(self, suite: Suite) -> int:
        """How many cases the suite file holds, broken ones included."""
        return self._sizes[id(suite)]

    # -- reports ---------------------------------------------------------------

    def report(self, number: int) -> CaseReport:
        """The case's report as shown: its edited answer's while the lab has changes
        applied to it, else the frozen case's (computed on first use)."""
        edited = self._edited.get(number)
        return edited if edited is not None else self.frozen(number)

    def frozen(self, number: int) -> CaseReport:
        """The report of the case as its suite has it."""
        report = self._reports[number]
        if report is None:
            suite, case, error = self._rows[number]
            report = CaseReport.of(number, suite, case) if case is not None else CaseReport(number, suite, None, error)
            self._reports[number] = report
        return report

    # -- the lab's edits -------------------------------------------------------

    def history(self, number: int) -> History | None:
        """The case's edits (None for a case that could not be loaded)."""
        history = self._histories.get(number)
        if history is None:
            case = self._rows[number][1]
            if case is None:
                return None
            history = History(case.raw)
        return history

    def edits(self) -> list[int]:
        """The cases with a change applied, by number."""
        return sorted(self._edited)

    def saved(self, number: int) -> None:
        """The case's answer as shown was saved (the lab's save form): its edits so far are kept in a file."""
        history = self._histories.get(number)
        if history is not None:
            self._saved[number] = history

    def unsaved_edits(self) -> list[int]:
        """The cases with a change applied that were not saved as they are now (quitting would lose them)."""
        return [number for number in sorted(self._edited) if self._saved.get(number) != self._histories[number]]

    def change(self, number: int, change: Change) -> CaseReport:
        """Apply a change to the case's answer; returns the report shown now."""
        history = self.history(number)
        if history is None:
            raise ValueError(f"case {self.ids[number]} could not be loaded: there is no answer to change")
        return self._set_history(number, history.apply(change))

    def undo(self, number: int) -> CaseReport:
        history = self.history(number)
        return self._set_history(number, history.undo()) if history is not None else self.report(number)

    def redo(self, number: int) -> CaseReport:
        history = self.history(number)
        return self._set_history(number, history.redo()) if history is not None else self.report(number)

    def reset(self, number: int) -> CaseReport:
        """Back to the frozen case (redo brings the changes back)."""
        history = self.history(number)
        return self._set_history(number, history.reset()) if history is not None else self.report(number)

    def _set_history(self, number: int, history: History) -> CaseReport:
        self._histories[number] = history
        if history.edited:
            self._edited[number] = self.frozen(number).edited(history.raw, history.applied)
        else:
            self._edited.pop(number, None)
        return self.report(number)

    def summary(self, numbers: Iterable[int] | None = None) -> SuiteReport:
        """The article's figure and the rest of the summary for these cases (all by default)."""
        numbers = range(len(self)) if numbers is None else numbers
        return SuiteReport([self.report(n) for n in numbers])

    # -- finding cases ---------------------------------------------------------

    def search(self, text: str, among: Sequence[int] | None = None) -> list[int]:
        """Cases whose suite, id, frozen label or note contains ``text`` (case-insensitive)."""
        numbers = range(len(self)) if among is None else among
        needle = text.casefold().strip()
        if not needle:
            return list(numbers)
        haystacks = self._haystacks
        return [n for n in numbers if needle in haystacks[n]]

    def with_status(self, status: str) -> list[int]:
        """Cases whose verdict has this status (``ERROR`` for cases that could not be loaded)."""
        return [n for n in range(len(self)) if self.report(n).status == status]

    def failing_at(self, check_id: str) -> list[int]:
        """Cases whose first failure is this check."""
        return [n for n in range(len(self))
                if (check := self._check(n)) is not None and check.id == check_id]

    def mismatched(self) -> list[int]:
        """Cases whose frozen expectations do not hold (or that could not be loaded), known
        regressions left out: a reviewer already rejected their verdict and kept the label,
        as the suite summary's and the audit's mismatches leave them out."""
        return [n for n in range(len(self)) if (report := self.report(n)).differs and not report.known_regression]

    def known_regressions(self) -> list[int]:
        """Cases a reviewer rejected the verdict of, keeping the label (it still differs, knowingly)."""
        return [n for n in range(len(self)) if self.report(n).known_regression]

    def lens_disagreements(self) -> list[int]:
        """Cases the label lens would ANSWER and the contract rejects."""
        return list(self.summary().rung("lens_disagrees").cases)

    def numbers_of(self, suite: Suite) -> list[int]:
        """The cases of one suite."""
        return [n for n, (owner, _, _) in enumerate(self._rows) if owner is suite]

    def find_id(self, case_id: str) -> int | None:
        try:
            return self.ids.index(case_id)
        except ValueError:
            return None

    def ids_containing(self, text: str) -> Iterator[int]:
        """The cases whose id contains ``text`` (case-insensitive), in order, as they are found."""
        needle = text.casefold()
        return (number for number, case_id in enumerate(self.ids) if needle in case_id.casefold())

    def _check(self, number: int) -> Check | None:
        verdict = self.report(number).verdict
        return verdict.check if verdict is not None else None
