"""A triage group's records: which lines of the index it holds, reread from the
log as they are asked for, and as the cases of an in-memory suite.

``GroupMembers`` finds a group's lines among what was counted (a byte per line
of the index, ``bytes.find`` over it) and rereads each from its offset
(``Rereader``: only from a log still what was counted, each line still of the
verdict counted, else ``LogChanged``);
``RecordCases`` builds a record's ``Case`` when it is asked for (the last few
kept); ``record_suite`` makes them a suite the inspector opens like a file's.
"""

from __future__ import annotations

from array import array
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress
from pathlib import Path
from typing import Any, overload

from ..contract.models import Registry, Request
from ..contract.verdict import Verdict
from ..contract.verify import verify
from ..reports.case import CaseReport
from ..suites.load import Case, CaseError, Suite
from .annotations import digest
from .drill import LineReader
from .export import record_note
from .groups import GroupKind
from .logs import LogError
from .mapping import DEFAULT_FORMAT, LogFormat
from .formats.reading import answer_text, verdict_of
from .parsing import decode_record
from .records import BadLine, LogRecord, RequestCache
from .stamp import LogChanged, LogStamp, live_stamps
from .summary import Group
from .tally import BAD_CODE, Index

__all__ = ["GroupMembers", "Record", "RecordCases", "Rereader", "case_id", "place_name", "record_report",
           "record_suite"]


def _marks(group: Group, index: Index, length: int, by: Sequence[str], start: int = 0) -> bytes:
    """A byte per line of the index's lines ``start`` to ``length``: 1 where the line is in the group."""
    if group.kind is GroupKind.BAD:
        table = bytes(1 if code == BAD_CODE else 0 for code in range(256))
        return bytes(index.code[start:length]).translate(table)
    column, holds = group.membership(by)
    values = index.keys[column][0]
    ids = frozenset(number for number, value in enumerate(values) if number and holds(value))
    return bytes(map(ids.__contains__, index.column(column)[start:length]))


@dataclass(frozen=True, slots=True)
class Record:
    """One line of a group, reread: what its case is made of."""

    file: str
    line: int
    offset: int
    label: str  # its verdict when counted
    raw: str | bytes | None = None  # bytes: an answer that is not UTF-8
    request: Request | None = None
    meta: dict[str, Any] | None = None
    problem: str | None = None  # why it could not be read again (the log changed or went away)
    verdict: Verdict | None = None  # its verdict as reread (checked to be the one counted), when checked
    sha256: str | None = None  # of its line's bytes as reread: what a reviewer's annotation is keyed by


class Rereader:
    """Lines of the index read again from their logs, each only if it is still
    what was counted: its log still the file stamped when the counting started
    (``stamps``: identity, size, mtime) and the record reread still of the
    verdict the index holds for it (verified against ``registry``).  Else
    ``LogChanged``: a rewritten log holds other records at the same offsets, and
    they must not be shown or exported as the ones counted.  Without stamps or a
    registry, that check is not made.  ``log_format``: how the lines were read
    when counted (a record is decoded as it was counted)."""

    def __init__(self, reader: LineReader, registry: Registry | None = None,
                 stamps: Mapping[str, LogStamp] | None = None, log_format: LogFormat = DEFAULT_FORMAT) -> None:
        self.reader = reader
        self.registry = registry
        self.stamps = stamps if stamps is not None else {}
        self.log_format = log_format
        self.requests = RequestCache()

    def check(self) -> None:
        """LogChanged for the first stamped log that changed (all of them: before writing what was reread);
        a generation gone refuses only its own lines (``reread``)."""
        for stamp in live_stamps(self.stamps):
            stamp.check()

    def reread(self, file: str, line: int, offset: int, label: str) -> tuple[bytes, LogRecord, Verdict | None]:
        """The line at ``offset``, its record and its verdict now (None without a registry);
        LogChanged (or LogError: unreadable) if it is not the record counted there with ``label``."""
        stamp = self.stamps.get(file)
        if stamp is not None:
            stamp.check()
        text = self.reader.line_at(file, offset)
        found = decode_record(text, file, line, offset, self.requests, self.log_format)
        if isinstance(found, BadLine):
            raise LogChanged(file, f"line {line:,} is not a record any more: {found.error}")
        verdict = None
        if self.registry is not None:
            verdict = verdict_of(found.raw, found.request, self.registry)
            if verdict.label != label:
                raise LogChanged(file, f"line {line:,} is {verdict.label} now, {label} when counted")
        return text, found, verdict


class GroupMembers:
    """The lines of one group among the first ``length`` lines of an index (what
    was counted when the group was opened), found in order as they are asked for
    (``bytes.find`` over a byte per line), and reread from their offsets.  ``by``:
    the metadata paths the triage grouped by (the order of a count cell's members);
    ``registry`` and ``stamps``: what a reread is checked against, and
    ``log_format`` how it is read (``Rereader``)."""

    def __init__(self, group: Group, index: Index, length: int, by: Sequence[str] = (),
                 reader: LineReader | None = None, *, registry: Registry | None = None,
                 stamps: Mapping[str, LogStamp] | None = None, log_format: LogFormat = DEFAULT_FORMAT) -> None:
        self.group = group
        self.index = index
        self.length = length
        self.count = group.records
        self.by = tuple(by)
        self._marks = _marks(group, index, length, by)
        self._scan = 0
        self.found = array("q")  # index positions of the members found so far
        self.reader = reader if reader is not None else LineReader()
        self.rereader = Rereader(self.reader, registry, stamps, log_format)

    def __len__(self) -> int:
        return self.count

    def grow(self, group: Group, length: int) -> None:
        """The group's lines among the index's first ``length`` now (a followed log counted further: the
        index grew, ``group`` is the group as a later summary counts it); those found stay as they are."""
        if length <= self.length:
            return
        self._marks += _marks(group, self.index, length, self.by, self.length)
        self.group, self.length, self.count = group, length, group.records

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
            text, found, verdict = self.rereader.reread(file, line, offset, label)
        except LogError as exc:  # LogChanged among them
            return Record(file, line, offset, label, problem=exc.problem)
        return Record(file, line, offset, label, found.raw, found.request, dict(found.meta), verdict=verdict,
                      sha256=digest(text))

    def entry(self, number: int) -> tuple[str, int, int, str] | None:
        """(file, line, offset, label) of the ``number``-th line, from the index alone."""
        position = self.position(number)
        return self.index.entry(position) if position is not None else None

    def line(self, number: int) -> tuple[str, int, int, bytes] | None:
        """(file, line, offset, the line's bytes) of the group's ``number``-th
        record, reread as its case is (``Rereader.reread``: LogChanged when it
        is not the record counted there any more, LogError when unreadable);
        None past what was counted."""
        position = self.position(number)
        if position is None:
            return None
        file, line, offset, label = self.index.entry(position)
        text, _, _ = self.rereader.reread(file, line, offset, label)
        return file, line, offset, text

    def decoded(self, number: int, reader: LineReader, requests: RequestCache) -> LogRecord | None:
        """The group's ``number``-th record decoded, not verified (a filter reads its answer and
        metadata), through ``reader`` and ``requests`` (a thread's own: neither is shared between
        threads), only from a log still what was counted (LogChanged; LogError when unreadable); None
        past what was counted or when the line is not a record any more.  ``resolve_all`` first when
        another thread reads too: finding the members is what changes this object."""
        place = self._checked_place(number)
        if place is None:
            return None
        file, line, offset = place
        found = decode_record(reader.line_at(file, offset), file, line, offset, requests, self.rereader.log_format)
        return found if isinstance(found, LogRecord) else None

    def start(self, number: int, limit: int) -> tuple[str, int, int, bytes, bool] | None:
        """(file, line, offset, its first ``limit`` bytes, whether it goes on)
        of the group's ``number``-th line, a record or a bad line: a preview,
        read only from a log still what was counted (LogChanged; LogError when
        unreadable), never more than ``limit`` bytes of a long line
        (``LineReader.line_start``); None past what was counted."""
        place = self._checked_place(number)
        if place is None:
            return None
        file, line, offset = place
        data, more = self.reader.line_start(file, offset, limit)
        return file, line, offset, data, more

    def _checked_place(self, number: int) -> tuple[str, int, int] | None:
        """(file, line, offset) of the group's ``number``-th line, its log checked to be still what was
        counted (``LogChanged`` if not); None past what was counted."""
        position = self.position(number)
        if position is None:
            return None
        file, line, offset, _ = self.index.entry(position)
        stamp = self.rereader.stamps.get(file)
        if stamp is not None:
            stamp.check()
        return file, line, offset


# -- the records as cases of a suite ----------------------------------------------------


def case_id(file: str, line: int) -> str:
    """A record's case id: where it is (its own ``id`` is metadata, and need not be unique)."""
    return f"{place_name(file)}:{line}"


@lru_cache(maxsize=64)
def place_name(file: str) -> str:
    return Path(file).name


# The metadata a record's case note holds at most (characters of its JSON): the
# note is drawn in the verdict panel, and a line can hold 4 MiB of metadata.
NOTE_METADATA = 2000


class RecordCases(Sequence[Case | CaseError]):
    """The records of a group as cases, built as they are asked for, the last
    ``KEEP`` kept.  A record that cannot be read again is a ``CaseError``.  The
    verdict each reread was checked with is kept beside its case until a report
    takes it (``take_verdict``): a record shown is verified once, not twice."""

    KEEP = 512

    def __init__(self, suite_name: str, members: GroupMembers) -> None:
        self.suite_name = suite_name
        self.members = members
        self._built: OrderedDict[int, Case | CaseError] = OrderedDict()
        self._verdicts: dict[int, Verdict] = {}
        self._records: dict[int, Record] = {}  # what each case kept was built from: its place and metadata

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
            dropped, _ = self._built.popitem(last=False)
            self._verdicts.pop(dropped, None)
            self._records.pop(dropped, None)
        return built

    def record(self, number: int) -> Record | None:
        """The record the ``number``-th case is built from (its place, its
        metadata, or why it could not be read again), built if it is not kept;
        None when it is not found again (past what was counted)."""
        self[number]
        return self._records.get(number)

    def take_verdict(self, number: int) -> Verdict | None:
        """The verdict of the ``number``-th record as reread, once (None if not kept)."""
        return self._verdicts.pop(number, None)

    def __iter__(self) -> Iterator[Case | CaseError]:
        return (self[n] for n in range(len(self)))

    def _build(self, number: int) -> Case | CaseError:
        record = self.members.record(number)
        if record is not None:
            self._records[number] = record
        if record is None:
            return CaseError(self.suite_name, number, None, f"record {number + 1}",
                             "not found again in the log: it changed since it was counted")
        if record.problem is not None or record.request is None or record.raw is None:
            return CaseError(self.suite_name, number, case_id(record.file, record.line),
                             f"{record.file}:{record.line}", record.problem or "unreadable")
        if record.verdict is not None:
            self._verdicts[number] = record.verdict
        return Case(self.suite_name, number, case_id(record.file, record.line), answer_text(record.raw), record.request,
                    record.label, record_note(record.file, record.line, record.offset, record.meta or {},
                                              NOTE_METADATA))

    def id_of(self, number: int) -> str:
        """The case id of the ``number``-th record, from the index (no reread)."""
        entry = self.members.entry(number)
        return case_id(entry[0], entry[1]) if entry is not None else f"record {number + 1}"

    def label_of(self, number: int) -> str:
        entry = self.members.entry(number)
        return entry[3] if entry is not None else "ERROR"




def record_suite(group: Group, members: GroupMembers, logs: Sequence[str], registry: Registry) -> Suite:
    """The group's records as an in-memory suite named after the log(s), against ``registry``."""
    name = " + ".join(Path(log).name for log in logs) or "log"
    cases = RecordCases(name, members)
    return Suite(Path(logs[0]) if logs else Path(name), name, registry, cases,  # type: ignore[arg-type]  # RecordCases: the cases, read lazily
                 kind="triage", description=f"the records of {group.name}")


def record_report(suite: Suite, number: int) -> CaseReport:
    """Record ``number`` of a record suite (``record_suite``) as the case report
    the inspector shows: checked with the verdict its reread was verified with
    (``RecordCases.take_verdict``: a record shown is verified once, not twice),
    else verified now; a record that cannot be read again, its error's report."""
    cases = suite.cases
    assert isinstance(cases, RecordCases)
    case = cases[number]
    if isinstance(case, CaseError):
        return CaseReport(number, suite, None, case)
    verdict = cases.take_verdict(number)
    return CaseReport(number, suite, case, verdict=verdict) if verdict is not None else CaseReport.of(number, suite, case)
