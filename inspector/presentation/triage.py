"""A triage as the inspector shows it: the overview's rows, and a group's records
as the cases of a suite, read from the log only as they are shown.

The counts are the engine's (``triage.summary``): the overview only orders and
filters its groups.  A group can hold hundreds of thousands of records, so its
records are never all built: ``GroupMembers`` finds which lines of the index a
group holds as they are asked for (from the label codes alone for a group that
the verdict decides; else each candidate line reread and matched by the
engine's ``GroupMatcher``, the one definition of a group's records), and
``RecordCases`` turns the n-th of them into a ``Case`` (the raw answer, the
request, the record's current verdict as the expected label, its place and
metadata in the note), keeping the last few hundred.  ``RecordSession`` is a
``Session`` over that lazy suite, so the main view and the lab work on a record
exactly as on a suite's case.
"""

from __future__ import annotations

from array import array
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, overload

from ..contract.checks import CHECKS, label_of
from ..contract.evidence import Assessment
from ..contract.models import Registry
from ..contract.verify import verify
from ..suites.load import Case, CaseError, Suite
from ..triage.drill import LineReader
from ..triage.export import record_note
from ..triage.groups import GroupMatcher
from ..triage.logs import LogError
from ..triage.records import KnownRequest, RequestCache, meta_value, parse_line
from ..triage.summary import Group, Summary
from ..triage.tally import BAD_CODE, VERDICT_LABELS, Index
from .session import Session

__all__ = ["SORTS", "GroupMembers", "RecordCases", "RecordSession", "overview_groups", "record_suite"]

# How the overview orders its groups: as the summary lists them (by kind, the
# largest first), by count across kinds, or by name.
SORTS = ("kind", "count", "name")
SORT_WORDS = {"kind": "by kind", "count": "by count", "name": "by name"}


def overview_groups(summary: Summary, sort: str = "kind", text: str = "") -> list[Group]:
    """The summary's groups whose name contains ``text`` (case-insensitive), in ``sort`` order."""
    needle = text.casefold().strip()
    groups = [group for group in summary.groups if needle in group.name.casefold()] if needle else \
        list(summary.groups)
    if sort == "count":
        groups.sort(key=lambda group: (-group.records, group.name))
    elif sort == "name":
        groups.sort(key=lambda group: group.name.casefold())
    return groups


# -- which lines a group holds -----------------------------------------------------------

_REJECTIONS = frozenset(code for code, label in enumerate(VERDICT_LABELS) if label != "ACCEPT")
_EVERY = frozenset(range(len(VERDICT_LABELS)))


def _codes_of(group: Group) -> tuple[frozenset[int], bool]:
    """The label codes a group's records can have, and whether the code alone
    decides (else each candidate is matched)."""
    kind, name = group.kind, group.name
    if kind == "check":
        return frozenset(c for c, label in enumerate(VERDICT_LABELS) if label.partition("/")[0] == name), True
    if kind == "reason":
        label = name.partition(":")[2]
        return frozenset(c for c, found in enumerate(VERDICT_LABELS) if found == label), True
    if kind == "bad":
        return frozenset({BAD_CODE}), True
    if name == "rung:contract":
        return frozenset({VERDICT_LABELS.index("ACCEPT")}), True
    if kind == "claim":
        status = group.detail.get("check")
        return frozenset(c for c, label in enumerate(VERDICT_LABELS) if label.partition("/")[0] == status), False
    if kind in ("blame", "category", "false_accept"):
        return _REJECTIONS, False
    return _EVERY, False


@dataclass(frozen=True, slots=True)
class Record:
    """One line of a group, reread: what its case is made of."""

    file: str
    line: int
    offset: int
    label: str  # its verdict when counted
    raw: str | None = None
    known: KnownRequest | None = None
    members: dict[str, Any] | None = None  # every member, as its JSON text
    problem: str | None = None  # why it could not be read again (the log changed or went away)


class GroupMembers:
    """The lines of one group among the first ``length`` lines of an index (what
    was counted when the group was opened), found in order as they are asked for.

    A group the label code decides (a verdict status, a sub-reason, the bad
    lines, the contract rung) is found with ``bytes.find`` over the codes; any
    other is matched line by line among the candidates its codes allow, each
    reread, verified and named by ``GroupMatcher``, a batch at a time."""

    BATCH = 64

    def __init__(self, group: Group, index: Index, length: int, registry: Registry, by: Sequence[str],
                 reader: LineReader | None = None) -> None:
        self.group = group
        self.index = index
        self.length = length
        self.count = group.records
        codes, self.exact = _codes_of(group)
        table = bytes(1 if code in codes else 0 for code in range(256))
        self._marks = bytes(index.code[:length]).translate(table)
        self._scan = 0
        self.found = array("q")  # index positions of the members found so far
        self.reader = reader if reader is not None else LineReader()
        self.registry = registry
        self.requests = RequestCache(registry)
        self.matcher = None if self.exact else GroupMatcher(group.name, by)
        self.read: dict[int, Record] = {}  # candidates reread while matching, until their case is built

    def __len__(self) -> int:
        return self.count

    @property
    def complete(self) -> bool:
        return self._scan >= self.length

    def position(self, number: int) -> int | None:
        """The index position of the group's ``number``-th line (None past what was counted)."""
        while len(self.found) <= number and self._scan < self.length:
            self._advance(number + 1 - len(self.found))
        return self.found[number] if number < len(self.found) else None

    def resolve_all(self) -> None:
        """Find every member (a search over the whole group needs them)."""
        while self._scan < self.length:
            self._advance(self.BATCH * 16)

    def _advance(self, wanted: int) -> None:
        find, scan = self._marks.find, self._scan
        if self.exact:
            found = self.found
            while wanted > 0:
                position = find(1, scan)
                if position < 0:
                    scan = self.length
                    break
                found.append(position)
                scan = position + 1
                wanted -= 1
            self._scan = scan
            return
        candidates = []
        while len(candidates) < max(wanted, self.BATCH):
            position = find(1, scan)
            if position < 0:
                scan = self.length
                break
            candidates.append(position)
            scan = position + 1
        self._scan = scan
        for position in candidates:
            record = self._reread(position)
            if record.problem is not None or self._matches(record):
                self.found.append(position)
                self.read[position] = record

    def _matches(self, record: Record) -> bool:
        known = record.known
        assert known is not None and record.raw is not None and self.matcher is not None
        verdict = verify(record.raw, known.request, self.registry)
        evidence = Assessment(verdict, known.recall) if verdict.status != "ACCEPT" else None
        return self.matcher.matches(verdict, known, record.members or {}, evidence)

    def _reread(self, position: int) -> Record:
        file, line, offset, label = self.index.entry(position)
        try:
            text = self.reader.line_at(file, offset)
        except LogError as exc:
            return Record(file, line, offset, label, problem=exc.problem)
        parsed = parse_line(text, self.requests)
        if isinstance(parsed, str):
            return Record(file, line, offset, label, problem=f"the log changed since it was counted: {parsed}")
        raw, known, members = parsed
        return Record(file, line, offset, label, raw, known, members)

    def record(self, number: int) -> Record | None:
        """The group's ``number``-th line, reread (None past what was counted)."""
        position = self.position(number)
        if position is None:
            return None
        record = self.read.pop(position, None)
        return record if record is not None else self._reread(position)

    def entry(self, number: int) -> tuple[str, int, int, str] | None:
        """(file, line, offset, label) of the ``number``-th line, from the index alone."""
        position = self.position(number)
        return self.index.entry(position) if position is not None else None


# -- the records as cases of a suite ----------------------------------------------------


def case_id(file: str, line: int) -> str:
    """A record's case id: where it is (its own ``id`` is metadata, and need not be unique)."""
    return f"{Path(file).name}:{line}"


class RecordCases(Sequence[Case | CaseError]):
    """The records of a group as cases, built as they are asked for, the last
    ``KEEP`` kept.  A record that cannot be read again is a ``CaseError``."""

    KEEP = 512

    def __init__(self, suite_name: str, members: GroupMembers) -> None:
        self.suite_name = suite_name
        self.members = members
        self._built: OrderedDict[int, Case | CaseError] = OrderedDict()

    def __len__(self) -> int:
        return len(self.members)

    @overload
    def __getitem__(self, number: int) -> Case | CaseError: ...
    @overload
    def __getitem__(self, number: slice) -> list[Case | CaseError]: ...

    def __getitem__(self, number: int | slice) -> Any:
        if isinstance(number, slice):
            return [self[n] for n in range(*number.indices(len(self)))]
        if number < 0:
            number += len(self)
        if not 0 <= number < len(self):
            raise IndexError(number)
        built = self._built.get(number)
        if built is not None:
            self._built.move_to_end(number)
            return built
        built = self._build(number)
        self._built[number] = built
        if len(self._built) > self.KEEP:
            self._built.popitem(last=False)
        return built

    def __iter__(self) -> Iterator[Case | CaseError]:
        return (self[n] for n in range(len(self)))

    def _build(self, number: int) -> Case | CaseError:
        record = self.members.record(number)
        if record is None:
            return CaseError(self.suite_name, number, None, f"record {number + 1}",
                             "not found again in the log: it changed since it was counted")
        if record.problem is not None or record.known is None or record.raw is None:
            return CaseError(self.suite_name, number, case_id(record.file, record.line),
                             f"{record.file}:{record.line}", record.problem or "unreadable")
        meta = {key: meta_value(value) for key, value in (record.members or {}).items()
                if key not in ("raw", "request")}
        return Case(self.suite_name, number, case_id(record.file, record.line), record.raw, record.known.request,
                    record.label, record_note(record.file, record.line, record.offset, meta))

    def id_of(self, number: int) -> str:
        """The case id of the ``number``-th record, from the index (no reread)."""
        entry = self.members.entry(number)
        return case_id(entry[0], entry[1]) if entry is not None else f"record {number + 1}"

    def label_of(self, number: int) -> str:
        entry = self.members.entry(number)
        return entry[3] if entry is not None else "ERROR"


class _Ids(Sequence[str]):
    """Every case id of a record suite, computed from the index when read."""

    def __init__(self, cases: RecordCases) -> None:
        self.cases = cases

    def __len__(self) -> int:
        return len(self.cases)

    def __getitem__(self, number: Any) -> Any:
        if isinstance(number, slice):
            return [self[n] for n in range(*number.indices(len(self)))]
        return self.cases.id_of(number)


class _Rows(Sequence[tuple[Suite, Case | None, CaseError | None]]):
    """The session's rows of a record suite, built from its lazy cases."""

    def __init__(self, suite: Suite, cases: RecordCases) -> None:
        self.suite = suite
        self.cases = cases

    def __len__(self) -> int:
        return len(self.cases)

    def __getitem__(self, number: Any) -> Any:
        case = self.cases[number]
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


def record_suite(group: Group, members: GroupMembers, logs: Sequence[str], registry: Registry) -> Suite:
    """The group's records as an in-memory suite named after the log(s), against ``registry``."""
    name = " + ".join(Path(log).name for log in logs) or "log"
    cases = RecordCases(name, members)
    return Suite(Path(logs[0]) if logs else Path(name), name, registry, cases,  # type: ignore[arg-type]
                 kind="triage", description=f"the records of {group.name}")


_CHECK_OF_LABEL = {label_of(check.code, reason): check.id for check in CHECKS for reason in (check.reasons or (None,))}


class RecordSession(Session):
    """A session over one record suite, without building a row per record:
    rows, ids and reports come from the lazy cases; a search, a verdict filter
    and a check filter read the labels the index holds (an edited record's from
    its report)."""

    def __init__(self, suite: Suite) -> None:
        super().__init__()
        cases = suite.cases
        assert isinstance(cases, RecordCases)
        self.cases = cases
        self.suites = [suite]
        self._rows = _Rows(suite, cases)  # type: ignore[assignment]
        self._reports = _Reports()  # type: ignore[assignment]
        self.ids = _Ids(cases)  # type: ignore[assignment]
        self._sizes = {id(suite): len(cases)}

    def __len__(self) -> int:
        return len(self.cases)

    def add_suite(self, suite: Suite) -> range:
        raise TypeError("a triage group's records cannot be mixed with suites: open the suite on its own")

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
        self.cases.members.resolve_all()
        ids = self.ids
        return [n for n in numbers if needle in ids[n].casefold() or needle in self._label(n).casefold()]

    def with_status(self, status: str) -> list[int]:
        self.cases.members.resolve_all()
        return [n for n in range(len(self)) if self._label(n).partition("/")[0] == status]

    def failing_at(self, check_id: str) -> list[int]:
        self.cases.members.resolve_all()
        return [n for n in range(len(self)) if _CHECK_OF_LABEL.get(self._label(n)) == check_id]

    def mismatched(self) -> list[int]:
        # Every record's expected label is its verdict when counted: only an edit can differ.
        return [n for n in self.edits() if self.report(n).differs]

    def numbers_of(self, suite: Suite) -> list[int]:
        return list(range(len(self))) if suite is self.suites[0] else []

    def find_id(self, case_id: str) -> int | None:
        self.cases.members.resolve_all()
        return next((n for n in range(len(self)) if self.ids[n] == case_id), None)

