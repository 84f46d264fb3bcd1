"""A group's records as the cases of a suite, read from the log only as they are shown.

A group can hold hundreds of thousands of records, so its records are never all
built: the engine's ``triage.members`` finds a group's lines and turns the n-th
into a ``Case`` as it is asked for.  ``RecordSession`` is a ``Session`` over that
lazy suite, so the main view and the lab work on a record exactly as on a suite's
case; ``open_group`` opens one on a group of the overview as counted.
"""

from __future__ import annotations

import operator
from collections import OrderedDict
from dataclasses import dataclass
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import compress
from typing import Any

from ..contract.checks import CHECKS, label_of
from ..reports.case import CaseReport, Comparison, versus
from ..suites.load import Case, CaseError, Suite
from ..triage.annotations import digest
from ..triage.drill import LineReader
from ..triage.groups import GroupKind, ItemDetail
from ..triage.logs import LogError
from ..triage.marked import MarkKey, MarksError, change_marks, read_marks
from ..triage.members import GroupMembers, RecordCases, place_name, record_report, record_suite
from ..triage.stamp import LogChanged, changed_logs, check_stamps
from ..triage.summary import Group
from ..triage.tally import VERDICT_LABELS
from .marks import Marks
from .numbers import NumberError, ascii_digits, whole_number
from .overview import Snapshot, TriageRun
from .session import Session

__all__ = ["RecordSession", "Trial", "open_group"]


@dataclass(frozen=True, slots=True)
class Trial:
    """A record opened among its item's trials (an item group's, in the order logged): which trial it is,
    of how many, and against the first trial (``reports.case.versus``: the lab's "was X, now Y"; None for
    the first itself, or when either cannot be read again)."""

    trial: int
    trials: int
    against: Comparison | None

    @property
    def lead(self) -> str:
        """``trial 3 of 5``."""
        return f"trial {self.trial:,} of {self.trials:,}"

class _Ids(Sequence[str]):
    """Every case id of a record suite, computed from the index when read."""

    def __init__(self, cases: RecordCases) -> None:
        self.cases = cases

    def __len__(self) -> int:
        return len(self.cases)

    def __getitem__(self, number: Any) -> Any:
        if isinstance(number, slice):
            return [self[n] for n in range(*number.indices(len(self)))]
        if number < 0:
            number += len(self)
        if not 0 <= number < len(self):
            raise IndexError(number)
        return self.cases.id_of(number)


class _Rows(Sequence[tuple[Suite, Case | None, CaseError | None]]):
    """The session's rows of a record suite, built from its lazy cases."""

    def __init__(self, suite: Suite, cases: RecordCases) -> None:
        self.suite = suite
        self.cases = cases

    def __len__(self) -> int:
        return len(self.cases)

    def __getitem__(self, number: Any) -> Any:
        case = self.cases[number]  # IndexError past the end, as the cases'

        return (self.suite, case, None) if isinstance(case, Case) else (self.suite, None, case)


class _Reports:
    """The session's computed reports, the last ``KEEP`` kept (a report is
    rebuilt if needed again: verify is pure)."""

    KEEP = 4096

    def __init__(self) -> None:
        self._kept: OrderedDict[int, Any] = OrderedDict()

    def __getitem__(self, number: int) -> Any:
        found = self._kept.get(number)
        if found is not None:
            self._kept.move_to_end(number)
        return found

    def __setitem__(self, number: int, report: Any) -> None:
        self._kept[number] = report
        if len(self._kept) > self.KEEP:
            self._kept.popitem(last=False)


_CHECK_OF_LABEL = {label_of(check.code, reason): check.id for check in CHECKS for reason in (check.reasons or (None,))}
# The label of each index code (a bad line's is BAD).
_LABELS = (*VERDICT_LABELS, "BAD")


class RecordSession(Session):
    """A session over one record suite, without building a row per record:
    rows, ids and reports come from the lazy cases; a search, a verdict filter
    and a check filter read the labels the index holds (an edited record's from
    its report)."""

    def __init__(self, suite: Suite) -> None:
        cases = suite.cases
        assert isinstance(cases, RecordCases)
        self.cases: RecordCases = cases
        self.marks: Marks = Marks()  # the records marked by hand (space): kept beside the log (restore_marks)
        self._mark_keys: dict[int, tuple[str, MarkKey]] = {}  # each marked record's log and key in its marks file
        super().__init__([suite], rows=_Rows(suite, cases), ids=_Ids(cases), reports=_Reports())

    def __len__(self) -> int:
        return len(self.cases)

    def suite_size(self, suite: Suite) -> int:
        # A group grows while its log is followed: its size is its records' now.
        return len(self) if suite is self.suites[0] else super().suite_size(suite)

    def frozen(self, number: int) -> CaseReport:
        report = self._reports[number]
        if report is None:
            report = record_report(self.suites[0], number)
            self._reports[number] = report
        return report

    def trial(self, number: int) -> Trial | None:
        """Record ``number`` as one of its item's trials, against the first (the frozen reports: a lab edit is
        the lab's own comparison); None unless the records are one item's trials."""
        group = self.cases.members.group
        if group.kind is not GroupKind.ITEM or not isinstance(group.detail, ItemDetail) \
                or len(group.detail.items) != 1 or not 0 <= number < len(self):
            return None
        against = versus(self.frozen(0), self.frozen(number), "trial 1") if number else None
        return Trial(number + 1, len(self), against)

    def log_changes(self) -> list[LogChanged]:
        """The logs of these records that are not what was counted any more (a stat each)."""
        return changed_logs(self.cases.members.rereader.stamps)

    def _label(self, number: int) -> str:
        if number in self._edited:
            return self.report(number).actual
        return self.cases.label_of(number)

    def search(self, text: str, among: Sequence[int] | None = None) -> list[int]:
        """Records whose place (file:line) or verdict label contains ``text``."""
        numbers: Iterable[int] = range(len(self)) if among is None else among
        needle = text.casefold().strip()
        if not needle:
            return list(numbers)
        return self._matching(numbers, [needle in label.casefold() for label in _LABELS],
                              lambda n: needle in self.ids[n].casefold() or needle in self._label(n).casefold(),
                              self._places_holding(needle))

    def ids_containing(self, text: str) -> Iterator[int]:
        needle = text.casefold()
        marks = self._places_holding(needle)
        if marks is None:
            return iter(())
        return (number for number in range(len(self))
                if (marks[number] if number < len(marks) else needle in self.ids[number].casefold()))

    def _places_holding(self, needle: str) -> bytes | None:
        """A byte per member found (1 where the record's place, its id
        ``name:line``, contains ``needle``, casefolded), worked out per file
        from what a place is made of rather than by writing every place: the
        needle within ``name:`` holds for all the file's records; a tail of
        ``name:`` then digits, for the lines whose digits start with them;
        digits alone, for the lines whose digits hold them.  None when no place
        can hold the needle."""
        members = self.cases.members
        names = [f"{place_name(file)}:".casefold() for file in members.index.files]
        # Per file: (every record holds it, the line prefixes that do, the digits a line must hold).
        rules: list[tuple[bool, tuple[str, ...], str | None]] = []
        for name in names:
            prefixes = tuple(needle[cut:] for cut in range(1, len(needle) + 1)
                             if needle[cut - 1] == ":" and name.endswith(needle[:cut])
                             and (ascii_digits(needle[cut:]) or cut == len(needle)))
            rules.append((needle in name, prefixes, needle if ascii_digits(needle) else None))
        if not any(every or prefixes or digits for every, prefixes, digits in rules):
            return None
        members.resolve_all()
        found, index = members.found, members.index
        lines = list(map(str, map(index.line.__getitem__, found)))
        marks = bytearray(len(found))
        files = list(map(index.file.__getitem__, found)) if len(names) > 1 else None  # one log: all its
        held: bytes | None
        for number, (every, prefixes, digits) in enumerate(rules):
            if every:
                held = b"\x01" * len(lines)
            else:
                held = bytes([line.startswith(prefixes) or (digits is not None and digits in line) for line in lines]) \
                    if prefixes else bytes([digits in line for line in lines]) if digits is not None else None
                if held is None:
                    continue
            if files is not None:  # only this file's records
                held = bytes(map(operator.and_, held, map(number.__eq__, files)))
            marks = bytearray(map(operator.or_, marks, held))
        return bytes(marks)

    def with_status(self, status: str) -> list[int]:
        return self._matching(range(len(self)), [label.partition("/")[0] == status for label in _LABELS],
                              lambda n: self._label(n).partition("/")[0] == status)

    def failing_at(self, check_id: str) -> list[int]:
        return self._matching(range(len(self)), [_CHECK_OF_LABEL.get(label) == check_id for label in _LABELS],
                              lambda n: _CHECK_OF_LABEL.get(self._label(n)) == check_id)

    def _matching(self, numbers: Iterable[int], by_code: list[bool], one: Callable[[int], bool],
                  also: bytes | None = None) -> list[int]:
        """The ``numbers`` that hold, in order: decided by their label code
        (``by_code``, over the index in C: a group can hold most of a million
        lines) or by ``also`` (a byte per member found: its place); an edited
        record, or one past what was found, by ``one``."""
        members = self.cases.members
        members.resolve_all()
        hits = members.codes().translate(bytes(by_code).ljust(256, b"\0"))
        if also is not None:
            hits = bytes(map(operator.or_, hits, also))
        known = len(hits)
        edited = self._edited
        if not edited and numbers.__class__ is range and numbers.step == 1 and numbers.stop <= known:
            return list(compress(numbers, memoryview(hits)[numbers.start:numbers.stop]))
        return [n for n in numbers if (one(n) if n in edited or n >= known else hits[n])]

    def mismatched(self) -> list[int]:
        # Every record's expected label is its verdict when counted: only an edit can differ.
        return [n for n in self.edits() if self.report(n).differs]

    def find_places(self, places: Iterable[tuple[str, int, int, str]]) -> dict[tuple[str, int, int, str], int]:
        """The number of each record of the group at one of these places (file, line, offset, the sha256 of
        its line's bytes: how annotations and marks key a record), found by offset in one pass over the
        group's members, its line read again and its digest compared (a line rewritten since, or a log that
        cannot be read, is not found)."""
        wanted: dict[tuple[str, int, int], str] = {(file, line, offset): sha for file, line, offset, sha in places}
        if not wanted:
            return {}
        members = self.cases.members
        members.resolve_all()
        index = members.index
        offsets = {offset for _, _, offset in wanted}
        file_names, file_of, line_of, offset_of = index.files, index.file, index.line, index.offset
        found: dict[tuple[str, int, int, str], int] = {}
        for number, position in enumerate(members.found):
            offset = offset_of[position]
            if offset not in offsets:
                continue
            place = (file_names[file_of[position]], line_of[position], offset)
            sha = wanted.get(place)
            if sha is None:
                continue
            try:
                text = members.reader.line_at(place[0], offset)
            except LogError:
                continue
            if digest(text) == sha:
                found[(*place, sha)] = number
        return found

    # -- marks, kept beside the log (triage.marked) ------------------------------------------

    def restore_marks(self) -> list[str]:
        """Mark the group's records its logs' marks files name (a mark of a line rewritten since marks
        nothing); why a file could not be read, one line each."""
        problems: list[str] = []
        places: list[tuple[str, int, int, str]] = []
        for log in dict.fromkeys(self.cases.members.index.files):
            try:
                keys, _ = read_marks(log)
            except MarksError as exc:
                problems.append(str(exc))
                continue
            places.extend((log, *key) for key in keys)
        for (log, line, offset, sha), number in self.find_places(places).items():
            if number not in self.marks:
                self.marks.toggle(number)
            self._mark_keys[number] = (log, (line, offset, sha))
        return problems

    def toggle_mark(self, number: int) -> str | None:
        """Mark the record, or unmark it, and keep that in its log's marks file; None, or why it could
        not be kept there (one line: the mark is made here all the same, for this session)."""
        marked = self.marks.toggle(number)
        kept = self._mark_keys.pop(number, None)
        try:
            if kept is None:
                found = self.cases.members.line(number)  # reread as its case is: LogChanged if not the one counted
                if found is None:
                    raise LogChanged("log", f"record {number + 1} is not found again")
                file, line, offset, text = found
                kept = (file, (line, offset, digest(text)))
            change_marks(kept[0], add=[kept[1]] if marked else [], remove=[] if marked else [kept[1]])
        except (MarksError, LogError) as exc:
            return str(exc)
        if marked:
            self._mark_keys[number] = kept
        return None

    def unkept_marks(self) -> int:
        """How many of the group's marks its marks files do not hold (their write was refused): the
        marks that quitting loses."""
        return sum(1 for number in self.marks if number not in self._mark_keys)

    def clear_marks(self) -> tuple[int, str | None]:
        """Unmark every record of the group, in the marks files too; how many were marked, and why a
        file could not be written (None: each was)."""
        by_log: dict[str, list[MarkKey]] = {}
        for number in self.marks:
            kept = self._mark_keys.get(number)
            if kept is not None:
                by_log.setdefault(kept[0], []).append(kept[1])
        problem = None
        for log, keys in by_log.items():
            try:
                change_marks(log, remove=keys)
            except MarksError as exc:
                problem = str(exc)
        self._mark_keys.clear()
        return self.marks.clear(), problem

    def grow(self, snapshot: Snapshot) -> int:
        """The group as ``snapshot`` counts it (a followed log counted further: the index's first
        ``snapshot.indexed`` lines, the group as its summary names it, the logs' stamps moved on);
        how many records it gained (none when the snapshot does not have the group)."""
        members = self.cases.members
        group = snapshot.summary.group(members.group.name)
        if group is None:
            return 0
        before = len(self)
        members.grow(group, snapshot.indexed)
        members.rereader.stamps = snapshot.stamps
        return len(self) - before

    def numbers_of(self, suite: Suite) -> list[int]:
        return list(range(len(self))) if suite is self.suites[0] else []

    def find_id(self, case_id: str) -> int | None:
        # An id is a place, name:line: looked for among the members' (file, line) in the index.
        name, _, line = case_id.rpartition(":")
        members = self.cases.members
        files = {number for number, file in enumerate(members.index.files) if place_name(file) == name}
        if not files or not ascii_digits(line):  # as ids are written: no separators
            return None
        try:  # a line number as the index holds it (a signed 64-bit array)
            wanted = whole_number(line, most=2**63 - 1, what="a line")
        except NumberError:
            return None
        members.resolve_all()
        lines, file_of = members.index.line, members.index.file
        return next((n for n, position in enumerate(members.found)
                     if lines[position] == wanted and file_of[position] in files), None)




def open_group(group: Group, snapshot: Snapshot, run: TriageRun, reader: LineReader) -> RecordSession:
    """A session over the group's records as counted in ``snapshot``; each
    record is reread only from a log still what was counted, and only if its
    verdict is still the one counted (else it is a broken case saying so).
    ``LogChanged`` when a log already changed: nothing of it can be shown."""
    index = snapshot.summary.tally.index
    if index is None:  # pragma: no cover - the overview always counts with the index
        raise ValueError("this triage kept no index")
    check_stamps(snapshot.stamps)
    members = GroupMembers(group, index, snapshot.indexed, run.options.by, reader, registry=run.registry,
                           stamps=snapshot.stamps, log_format=run.options.log_format)
    return RecordSession(record_suite(group, members, run.names, run.registry))
