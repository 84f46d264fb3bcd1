"""A triage as the inspector shows it: the overview's rows, and a group's records
as the cases of a suite, read from the log only as they are shown.

The counts are the engine's (``triage.summary``): the overview only orders and
filters its groups.  A group can hold hundreds of thousands of records, so its
records are never all built: ``GroupMembers`` finds which lines of the index a
group holds as they are asked for (from the index's columns alone, each value
named as the summary names its groups), and
``RecordCases`` turns the n-th of them into a ``Case`` (the raw answer, the
request, the record's current verdict as the expected label, its place and
metadata in the note), keeping the last few hundred.  ``RecordSession`` is a
``Session`` over that lazy suite, so the main view and the lab work on a record
exactly as on a suite's case.
"""

from __future__ import annotations

import operator
import re
import threading
from array import array
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import compress
from pathlib import Path
from typing import Any, overload

from ..contract.checks import CHECKS, label_of
from ..contract.models import Registry, Request
from ..suites.load import Case, CaseError, Suite
from ..triage.drill import LineReader
from ..triage.export import ExportError, export_suite, record_note
from ..triage.groups import claim_name, meta_name, scope_name, verdict_names
from ..triage.logs import LogError
from ..triage.records import BadLine, RequestCache, decode_record
from ..triage.summary import Group, Summary, summarize
from ..triage.tally import BAD_CODE, VERDICT_LABELS, Index, Options, Tally
from ..triage.timeline import MAX_BUCKETS, Histogram, iso
from .session import Session

__all__ = [
    "EXPORT_LIMIT",
    "SORTS",
    "TASK_BYTES",
    "ExportError",
    "Group",
    "GroupMembers",
    "Histogram",
    "LineReader",
    "MAX_BUCKETS",
    "RecordCases",
    "RecordSession",
    "Snapshot",
    "Summary",
    "TriageRun",
    "count",
    "export_group",
    "export_path",
    "iso",
    "open_group",
    "overview_groups",
    "record_suite",
    "triage_run",
]

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


# -- a triage run, and what it has counted so far --------------------------------------

# The overview's tasks are smaller than the headless summary's: the first counts
# are drawn after one task (4 MiB, ~7,000 lines: 0.5 s on the 1M-line log against
# 2.9 s with 16 MiB, the same busy machine) and Esc is answered within one task.
TASK_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class TriageRun:
    """What to triage and how: the logs, the registry (and its path, as the
    summary names it), the options, and the engine's run arguments (``workers``,
    ``task_bytes``, ``progress_every``...)."""

    logs: tuple[str, ...]
    registry: Registry
    registry_path: str
    options: Options = Options(index=True)
    engine: dict[str, Any] = field(default_factory=dict)


def triage_run(logs: Sequence[str], registry: Registry, registry_path: str | Path, by: Sequence[str] = (),
               since: float | None = None, until: float | None = None, **engine: Any) -> TriageRun:
    """A triage for the overview: always with the index (a group opens from it)."""
    engine.setdefault("task_bytes", TASK_BYTES)
    return TriageRun(tuple(logs), registry, str(registry_path),
                     Options(by=tuple(dict.fromkeys(by)), since=since, until=until, index=True), engine)


@dataclass
class Snapshot:
    """The counts so far (or in the end), summarised, with how far the run is."""

    summary: Summary
    indexed: int  # lines in the index when summarised: what a group opened now holds
    bad: list[tuple[str, int, str]]  # every bad line so far: (file, line, reason)
    lines: int
    bytes_done: int
    total_bytes: int | None
    seconds: float
    done: bool = False
    cancelled: bool = False
    failed: str | None = None  # why a log could not be read at all

    @property
    def records_per_second(self) -> float:
        return self.summary.records / self.seconds if self.seconds > 0 else 0.0


def count(run: TriageRun, report: Callable[[Snapshot], None], cancel: threading.Event) -> None:
    """Triage ``run`` (the engine, on every core), calling ``report`` with each
    partial count the engine hands over, summarised here, in the caller's thread
    (the counts go on changing once the engine carries on: they are summarised
    before), and once more at the end (``done``; ``cancelled`` if ``cancel`` was
    set).  A log that cannot be read at all ends it with ``failed``."""
    from ..triage.run import triage

    last: list[Snapshot] = []

    def progress(state: Any) -> None:
        tally = state.tally
        snapshot = Snapshot(summarize(tally, run.options, run.logs, run.registry_path),
                            len(tally.index) if tally.index is not None else 0, list(tally.bad),
                            state.lines, state.bytes_done, state.total_bytes, state.seconds)
        last[:] = [snapshot]
        report(snapshot)

    try:
        triage(list(run.logs), run.registry, run.options, on_progress=progress, cancel=cancel, **run.engine)
    except LogError as exc:
        report(Snapshot(summarize(Tally(), run.options, run.logs, run.registry_path), 0, [], 0, 0, None, 0.0,
                        done=True, failed=str(exc)))
        return
    final = last[0]  # the engine reports once at the end, always
    report(Snapshot(final.summary, final.indexed, final.bad, final.lines, final.bytes_done, final.total_bytes,
                    final.seconds, done=True, cancelled=cancel.is_set()))


def open_group(group: Group, snapshot: Snapshot, run: TriageRun, reader: LineReader) -> RecordSession:
    """A session over the group's records as counted in ``snapshot``."""
    index = snapshot.summary.tally.index
    if index is None:  # pragma: no cover - the overview always counts with the index
        raise ValueError("this triage kept no index")
    members = GroupMembers(group, index, snapshot.indexed, run.options.by, reader)
    return RecordSession(record_suite(group, members, run.logs, run.registry))


# -- a group written as a suite ------------------------------------------------------------

# How many records an export from the overview takes unless told: the first ones.
EXPORT_LIMIT = 1000


def export_path(group: Group) -> str:
    """The file an export of the group proposes: its name, made a plain file name."""
    stem = re.sub(r"[^A-Za-z0-9._=-]+", "_", group.name).strip("._")[:80] or "group"
    return f"{stem}.json"


def export_group(group: Group, snapshot: Snapshot, run: TriageRun, reader: LineReader, out: str | Path,
                 limit: int = EXPORT_LIMIT) -> int:
    """Write the group's first ``limit`` records, as counted in ``snapshot``, as a
    new suite file at ``out`` (``triage.export``: the file the headless
    ``--export GROUP --out SUITE --limit N`` writes); returns the cases written.
    Raises ``ExportError`` with the one line to show: a group of bad lines, a
    log that cannot be read again, a file already there, a full disk."""
    if group.kind == "bad":
        raise ExportError(out, "the bad lines cannot be exported as a suite: they are not records")
    if limit < 1:
        raise ExportError(out, "the number of records to export is at least 1")
    index = snapshot.summary.tally.index
    if index is None:  # pragma: no cover - the overview always counts with the index
        raise ExportError(out, "this triage kept no index")
    members = GroupMembers(group, index, snapshot.indexed, run.options.by, reader)
    collected = []
    for number in range(min(limit, len(members))):
        position = members.position(number)
        if position is None:
            break
        file, line, offset, label = index.entry(position)
        try:
            collected.append((file, line, offset, reader.line_at(file, offset), label))
        except LogError as exc:
            raise ExportError(out, f"{file}:{line} cannot be read again: {exc.problem}; nothing was written") \
                from None
    if not collected:
        raise ExportError(out, "no record in this group")
    return export_suite(out, group.name, run.registry, collected, run.logs)


# -- which lines a group holds -----------------------------------------------------------


def _column_of(group: Group, by: Sequence[str]) -> tuple[str, Callable[[Any], bool]]:
    """The index column that decides a group, and whether one of its values is in
    it, each value named as the summary names its groups (``triage.groups``): the
    failing claim, or the record's count cell (verdict key, scope, ``--by`` members)."""
    name = group.name
    if group.kind == "claim":
        return "claim", lambda claim: claim_name(*claim) == name
    if group.kind == "scope":
        return "cell", lambda cell: scope_name(cell[1]) == name
    if group.kind == "by":
        key = group.detail["key"]
        at = list(by).index(key)
        return "cell", lambda cell: meta_name(key, cell[2][at]) == name
    # check, sub-reason, blame, category, rungs, false accepts: the verdict key decides
    return "cell", lambda cell: any(found == name for _, found in verdict_names(*cell[0]))


def _marks(group: Group, index: Index, length: int, by: Sequence[str]) -> bytes:
    """A byte per line of the index's first ``length``: 1 where the line is in the group."""
    if group.kind == "bad":
        table = bytes(1 if code == BAD_CODE else 0 for code in range(256))
        return bytes(index.code[:length]).translate(table)
    column, holds = _column_of(group, by)
    values = index.keys[column][0]
    ids = frozenset(number for number, value in enumerate(values) if number and holds(value))
    return bytes(map(ids.__contains__, index.column(column)[:length]))


@dataclass(frozen=True, slots=True)
class Record:
    """One line of a group, reread: what its case is made of."""

    file: str
    line: int
    offset: int
    label: str  # its verdict when counted
    raw: str | None = None
    request: Request | None = None
    meta: dict[str, Any] | None = None
    problem: str | None = None  # why it could not be read again (the log changed or went away)


class GroupMembers:
    """The lines of one group among the first ``length`` lines of an index (what
    was counted when the group was opened), found in order as they are asked for
    (``bytes.find`` over a byte per line), and reread from their offsets.  ``by``:
    the metadata keys the triage grouped by (the order of a count cell's members)."""

    def __init__(self, group: Group, index: Index, length: int, by: Sequence[str] = (),
                 reader: LineReader | None = None) -> None:
        self.group = group
        self.index = index
        self.length = length
        self.count = group.records
        self._marks = _marks(group, index, length, by)
        self._scan = 0
        self.found = array("q")  # index positions of the members found so far
        self.reader = reader if reader is not None else LineReader()
        self.requests = RequestCache()

    def __len__(self) -> int:
        return self.count

    def position(self, number: int) -> int | None:
        """The index position of the group's ``number``-th line (None past what was counted)."""
        if number >= len(self.found):
            self._advance(number + 1 - len(self.found))
        return self.found[number] if number < len(self.found) else None

    def resolve_all(self) -> None:
        """Find every member (a search over the whole group needs them): the
        rest in one sweep over the marks, in C."""
        if len(self.found) < self.count and self._scan < self.length:
            self.found.extend(compress(range(self._scan, self.length),
                                       memoryview(self._marks)[self._scan:self.length]))
            self._scan = self.length

    def codes(self) -> bytes:
        """The label code of every member found (``resolve_all`` first for all of them)."""
        return bytes(map(self.index.code.__getitem__, self.found))

    def _advance(self, wanted: int) -> None:
        find, scan, found = self._marks.find, self._scan, self.found
        while wanted > 0:
            position = find(1, scan)
            if position < 0:
                scan = self.length
                break
            found.append(position)
            scan = position + 1
            wanted -= 1
        self._scan = scan

    def record(self, number: int) -> Record | None:
        """The group's ``number``-th line, reread (None past what was counted)."""
        position = self.position(number)
        if position is None:
            return None
        file, line, offset, label = self.index.entry(position)
        try:
            text = self.reader.line_at(file, offset)
        except LogError as exc:
            return Record(file, line, offset, label, problem=exc.problem)
        found = decode_record(text, file, line, offset, self.requests)
        if isinstance(found, BadLine):
            return Record(file, line, offset, label, problem=f"the log changed since it was counted: {found.error}")
        return Record(file, line, offset, label, found.raw, found.request, dict(found.meta))

    def entry(self, number: int) -> tuple[str, int, int, str] | None:
        """(file, line, offset, label) of the ``number``-th line, from the index alone."""
        position = self.position(number)
        return self.index.entry(position) if position is not None else None


# -- the records as cases of a suite ----------------------------------------------------


def case_id(file: str, line: int) -> str:
    """A record's case id: where it is (its own ``id`` is metadata, and need not be unique)."""
    return f"{_name_of(file)}:{line}"


@lru_cache(maxsize=64)
def _name_of(file: str) -> str:
    return Path(file).name


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
        if record.problem is not None or record.request is None or record.raw is None:
            return CaseError(self.suite_name, number, case_id(record.file, record.line),
                             f"{record.file}:{record.line}", record.problem or "unreadable")
        return Case(self.suite_name, number, case_id(record.file, record.line), record.raw, record.request,
                    record.label, record_note(record.file, record.line, record.offset, record.meta or {}))

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


def record_suite(group: Group, members: GroupMembers, logs: Sequence[str], registry: Registry) -> Suite:
    """The group's records as an in-memory suite named after the log(s), against ``registry``."""
    name = " + ".join(Path(log).name for log in logs) or "log"
    cases = RecordCases(name, members)
    return Suite(Path(logs[0]) if logs else Path(name), name, registry, cases,  # type: ignore[arg-type]
                 kind="triage", description=f"the records of {group.name}")


_CHECK_OF_LABEL = {label_of(check.code, reason): check.id for check in CHECKS for reason in (check.reasons or (None,))}
# The label of each index code (a bad line's is BAD).
_LABELS = (*VERDICT_LABELS, "BAD")


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
        names = [f"{_name_of(file)}:".casefold() for file in members.index.files]
        # Per file: (every record holds it, the line prefixes that do, the digits a line must hold).
        rules: list[tuple[bool, tuple[str, ...], str | None]] = []
        for name in names:
            prefixes = tuple(needle[cut:] for cut in range(1, len(needle) + 1)
                             if needle[cut - 1] == ":" and name.endswith(needle[:cut])
                             and (needle[cut:].isdigit() or cut == len(needle)))
            rules.append((needle in name, prefixes, needle if needle.isdigit() else None))
        if not any(every or prefixes or digits for every, prefixes, digits in rules):
            return None
        members.resolve_all()
        found, index = members.found, members.index
        lines = list(map(str, map(index.line.__getitem__, found)))
        marks = bytearray(len(found))
        files = list(map(index.file.__getitem__, found)) if len(names) > 1 else None  # one log: all its
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

    def numbers_of(self, suite: Suite) -> list[int]:
        return list(range(len(self))) if suite is self.suites[0] else []

    def find_id(self, case_id: str) -> int | None:
        # An id is a place, name:line: looked for among the members' (file, line) in the index.
        name, _, line = case_id.rpartition(":")
        members = self.cases.members
        files = {number for number, file in enumerate(members.index.files) if _name_of(file) == name}
        if not files or not line.isdigit():
            return None
        members.resolve_all()
        wanted, lines, file_of = int(line), members.index.line, members.index.file
        return next((n for n, position in enumerate(members.found)
                     if lines[position] == wanted and file_of[position] in files), None)

