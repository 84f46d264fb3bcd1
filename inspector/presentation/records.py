"""A triage record beside its case, as the inspector shows it: its place and
metadata (the records view's strip), its whole log line (``l``), and the bad
lines' starts.  No textual.

Everything here is bounded, whatever the log holds: a record's metadata is cut
to ``MEMBERS_SHOWN`` members of ``KEY_CHARS`` and ``VALUE_CHARS`` characters
("+N more" says the rest), a line is shown up to ``LINE_BYTES`` (the note says
how much is cut), and a bad line's start is read ``START_BYTES`` at a time,
never the whole of a 4 MiB line.  The text stays untrusted: the widgets show it
through ``tui.safe`` (control characters and bytes that are not UTF-8 as
escapes), never as markup.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from ..contract.text import shorten
from ..suites.load import CaseMetadata
from ..triage.drill import LineReader
from ..triage.groups import BAD
from ..triage.logs import LogError
from ..triage.members import GroupMembers, Record
from ..triage.stamp import LogChanged
from .overview import Snapshot, TriageRun
from .pretty import reindent
from .record_session import RecordSession

__all__ = [
    "GAP",
    "KEY_CHARS",
    "LINE_BYTES",
    "LINE_CHARS",
    "MEMBERS_SHOWN",
    "NESTED_DEPTH",
    "START_BYTES",
    "VALUE_CHARS",
    "BadLineStarts",
    "CaseMetadataShown",
    "LineStart",
    "LogLine",
    "RecordPlace",
    "bad_line",
    "bad_line_starts",
    "case_metadata",
    "fit",
    "log_line",
    "meta_members",
    "record_line",
    "record_place",
    "record_place_of",
]

# A metadata member as the strip shows it: its key (a dotted path into nested
# objects, NESTED_DEPTH keys at most) and its value, each cut to these.
KEY_CHARS = 32
VALUE_CHARS = 64
NESTED_DEPTH = 3
# Members the strip holds at most (it shows those that fit its lines).
MEMBERS_SHOWN = 16
# Cells between two items of the strip.
GAP = 2

# A line is shown up to LINE_BYTES of it (a record's line is at most 4 MiB: drawn
# whole, it would take the screen seconds), its re-indented text up to LINE_CHARS.
LINE_BYTES = 64 * 1024
LINE_CHARS = 150_000

# A bad line's start: the bytes read of it (a row shows what fits its column).
START_BYTES = 256
# Starts kept (the rows drawn lately: scrolling back reads nothing again).
STARTS_KEPT = 512


# -- the strip: where the record is, and its metadata ------------------------------------


@dataclass(frozen=True, slots=True)
class RecordPlace:
    """A record's place (its file as given, line, byte offset) and its metadata,
    bounded: ``members`` are the first (key, value) pairs as shown, ``more``
    how many others there are; ``problem`` says why the metadata is not known
    (the record could not be read again)."""

    file: str
    line: int
    offset: int
    members: tuple[tuple[str, str], ...] = ()
    more: int = 0
    problem: str | None = None
    # A reviewer's annotation of the record, in words (``presentation.annotate``), and whether it
    # says the contract was right ("true"), wrong ("false"), or cannot be applied ("stale").
    annotation: str | None = None
    annotation_state: str | None = None

    @property
    def place(self) -> str:
        """``FILE:LINE · offset N`` (the byte the line starts at, from 0), digits without separators, to copy."""
        return f"{self.file}:{self.line} · offset {self.offset}"


def record_place(record: Record) -> RecordPlace:
    """The strip of a record reread (or of one that could not be)."""
    if record.problem is not None or record.meta is None:
        return RecordPlace(record.file, record.line, record.offset,
                           problem=record.problem or "its metadata could not be read")
    members, more = meta_members(record.meta)
    return RecordPlace(record.file, record.line, record.offset, members, more)


@dataclass(frozen=True, slots=True)
class CaseMetadataShown:
    """An exported record's ``metadata`` member (``suites.load.CaseMetadata``) as audit and the verdict
    panel say it: its place (``FILE:LINE · offset N``) and its members as the strip shows a record's,
    ``more`` counting those not shown (and those the export left out)."""

    place: str
    members: tuple[tuple[str, str], ...]
    more: int

    def words(self) -> list[str]:
        """The place, then each member as ``key value``, then ``+N more``: untrusted, to be shown escaped."""
        return [self.place, *(f"{key} {value}" for key, value in self.members),
                *([f"+{self.more} more"] if self.more else [])]


def case_metadata(metadata: CaseMetadata, shown: int = MEMBERS_SHOWN) -> CaseMetadataShown:
    """How a case's structured metadata is shown (cut as the strip cuts a record's)."""
    members, more = meta_members(metadata.members, shown)
    return CaseMetadataShown(f"{metadata.file}:{metadata.line} · offset {metadata.offset}", members,
                             more + metadata.more)


def meta_members(meta: Mapping[str, Any], shown: int = MEMBERS_SHOWN) -> tuple[tuple[tuple[str, str], ...], int]:
    """The first ``shown`` members of a record's metadata, in the line's order,
    as (key, value) texts, and how many more there are.  An object is opened
    into its members (``metadata.model``: the path ``--by`` takes) down to
    ``NESTED_DEPTH`` keys; a string is shown bare unless it would read as
    another JSON value (``"3"``, ``"null"``, ``""``), anything else as compact
    JSON; each cut to ``KEY_CHARS`` / ``VALUE_CHARS`` characters.  Only the
    members shown are written out: a 4 MiB member costs its cut."""
    leaves = _leaves(meta, ())
    members = tuple((shorten(".".join(path), KEY_CHARS), _value_text(value)) for path, value in islice(leaves, shown))
    return members, sum(1 for _ in leaves)


def _leaves(value: Mapping[str, Any], path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], Any]]:
    for key, member in value.items():
        inner = (*path, str(key))
        if isinstance(member, dict) and member and len(inner) < NESTED_DEPTH:
            yield from _leaves(member, inner)
        else:
            yield inner, member


def _value_text(value: Any) -> str:
    if isinstance(value, str):
        return shorten(json.dumps(value, ensure_ascii=False) if _reads_as_json(value) else value, VALUE_CHARS)
    if isinstance(value, (list, dict)):
        return shorten(_compact(value, VALUE_CHARS + 1), VALUE_CHARS)
    return shorten(json.dumps(value, ensure_ascii=False, default=str), VALUE_CHARS)


def _compact(value: Any, limit: int) -> str:
    """At least the first ``limit`` characters of ``value``'s compact JSON (all of it
    when shorter), written only that far: a list of a million members costs its head."""
    out: list[str] = []
    size = 0
    for chunk in json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "), default=str).iterencode(value):
        out.append(chunk)
        size += len(chunk)
        if size >= limit:
            break
    return "".join(out)


def _reads_as_json(text: str) -> bool:
    """Whether a string shown bare could be taken for another JSON value (``3``, ``null``)."""
    if not text or text != text.strip() or text[0] in '"[{':
        return True
    if text[0] not in "-0123456789tfn" or len(text) > 64:
        return False
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def fit(widths: Sequence[int], room: int, lines: int, more_width: Callable[[int], int],
        hidden: int = 0) -> tuple[list[list[int]], int]:
    """Lay items of these widths (cells) out on at most ``lines`` lines of
    ``room`` cells, ``GAP`` apart, each whole (one wider than a line alone on
    its line, to be cut there), the first one always shown.  Every line but the
    last takes the items in order, as many as fit; the last takes the rest when
    they fit, else those that fit beside the marker saying how many are left
    out (``more_width(n)`` cells; ``hidden``: more that were never items), so a
    long value does not hide the short ones after it.  Returns the items of
    each line and the count the marker says (0: no marker)."""
    lines = max(1, lines)
    rows: list[list[int]] = []
    rest = list(range(len(widths)))
    while rest and len(rows) < lines - 1:
        row, used = [rest[0]], widths[rest[0]]
        del rest[0]
        while rest and used + GAP + widths[rest[0]] <= room:
            used += GAP + widths[rest[0]]
            row.append(rest.pop(0))
        rows.append(row)
    if not rest and not hidden:
        return rows, 0
    if not rest and len(rows) < lines:
        return [*rows, []], hidden  # the marker alone on a line of its own
    if not rest:  # the marker at the end of the last line, its items making room
        last = rows[-1]
        while last and last != [0] and \
                sum(widths[number] for number in last) + GAP * len(last) + more_width(hidden) > room:
            last.pop()
            hidden += 1
        return rows, hidden
    if sum(widths[number] for number in rest) + GAP * (len(rest) - 1) <= room and not hidden:
        return [*rows, rest], 0
    marker = GAP + more_width(len(rest) + hidden)  # at its widest: fewer left out is no wider
    row, used = [], -GAP
    for number in rest:
        if used + GAP + widths[number] + marker <= room:
            row.append(number)
            used += GAP + widths[number]
    if not rows and not row:
        row = [rest[0]]  # the first item is always shown (the record's place)
    return [*rows, row], len(rest) - len(row) + hidden


def record_place_of(session: RecordSession, number: int) -> RecordPlace | None:
    """The strip of the session's ``number``-th record: from the record its case
    was built from (None when it is not found again)."""
    try:
        record = session.cases.record(number)
    except IndexError:
        return None
    return record_place(record) if record is not None else None


# -- the whole line ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LogLine:
    """A record's line as the line view shows it: ``text`` (re-indented when
    ``pretty``, else exactly as written), bytes that are not UTF-8 carried as
    surrogates when ``raw_bytes`` (shown as ``\\xNN``), and how much of the line
    that is (``shown`` of ``size`` bytes; ``note`` says what is cut)."""

    file: str
    line: int
    offset: int
    size: int
    text: str
    raw_bytes: bool
    pretty: bool
    shown: int
    note: str | None = None
    whole: bool = True  # False: the line goes on past ``size`` bytes (a bad line, read only so far)

    @property
    def cut(self) -> int:
        """Bytes of the line not shown."""
        return self.size - self.shown


def log_line(file: str, line: int, offset: int, data: bytes, pretty: bool = True) -> LogLine:
    """The line's bytes as shown: at most ``LINE_BYTES`` of them (cut at a
    character, and said), decoded as UTF-8 with every byte that is not kept as
    itself (``surrogateescape``), and re-indented when ``pretty`` (the same
    tokens, only the whitespace between them changed: every key in its order, a
    repeated key twice, every escape as written; ``presentation.pretty``), the
    re-indented text at most ``LINE_CHARS`` characters (deep nesting indents)."""
    size = len(data)
    head = data[:LINE_BYTES]
    if size > LINE_BYTES:
        head = head[:_whole_characters(head)]
    try:
        raw, raw_bytes = head.decode("utf-8"), False
    except UnicodeDecodeError:
        raw, raw_bytes = head.decode("utf-8", "surrogateescape"), True
    text, shown = raw, len(head)
    found = reindent(raw, limit=LINE_BYTES) if pretty else None
    if found is not None:
        text = found.text
        if len(text) > LINE_CHARS:
            kept = bisect_right(found.offsets, LINE_CHARS) - 1  # raw characters the first LINE_CHARS hold
            text, shown = text[:found.offsets[kept]], len(_encoded(raw[:kept]))
    note = f"the first {shown:,} bytes of {size:,} shown ({size - shown:,} cut)" if shown < size else None
    return LogLine(file, line, offset, size, text, raw_bytes, found is not None, shown, note)


def _whole_characters(data: bytes) -> int:
    """The length of ``data`` without a UTF-8 character cut at its end (a
    continuation byte is 0b10xxxxxx; the lead byte says how many it needs)."""
    end = len(data)
    for back in range(1, min(4, end) + 1):
        byte = data[end - back]
        if byte & 0xC0 != 0x80:
            need = 1 if byte < 0x80 else 2 if byte >> 5 == 0b110 else 3 if byte >> 4 == 0b1110 else 4
            return end if need <= back else end - back
    return end


def _encoded(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def record_line(session: RecordSession, number: int, pretty: bool = True) -> LogLine:
    """The session's ``number``-th record's line, reread from its log as its case
    is (LogChanged when it is not the record counted there any more; LogError
    when unreadable, or not found again)."""
    members = session.cases.members
    found = members.line(number)
    if found is None:
        entry = members.entry(number)
        raise LogChanged(entry[0] if entry is not None else "log", f"record {number + 1} is not found again")
    return log_line(*found, pretty=pretty)


# -- the bad lines' starts ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LineStart:
    """The start of a line as read (``START_BYTES`` at most, decoded keeping
    each byte that is not UTF-8 as a surrogate), whether the line goes on, or
    why it could not be read."""

    text: str = ""
    cut: bool = False
    problem: str | None = None


class BadLineStarts:
    """The start of each bad line listed (``bad``: the first ones, in order,
    as the tally kept them), read from its log when its row is drawn, at most
    ``START_BYTES`` a line, the last ``STARTS_KEPT`` kept.  The bad lines'
    offsets are in the index (``members``: the group of bad lines); a log that
    changed since it was counted is read no more (each row says so)."""

    def __init__(self, bad: Sequence[tuple[str, int, str]], members: GroupMembers | None) -> None:
        self.bad = bad
        self.members = members
        self._kept: OrderedDict[int, LineStart] = OrderedDict()

    def __getitem__(self, row: int) -> LineStart:
        found = self._kept.get(row)
        if found is not None:
            self._kept.move_to_end(row)
            return found
        found = self._kept[row] = self._read(row)
        if len(self._kept) > STARTS_KEPT:
            self._kept.popitem(last=False)
        return found

    def _read(self, row: int) -> LineStart:
        if self.members is None:
            return LineStart(problem="not read: no index of this triage")
        try:
            found = self.members.start(row, START_BYTES)
        except LogChanged as exc:
            return LineStart(problem=f"not read: the log changed since it was counted ({exc.what})")
        except LogError as exc:
            return LineStart(problem=f"cannot be read: {exc.problem}")
        file, line, _ = self.bad[row]
        if found is None or found[:2] != (file, line):  # pragma: no cover - the index holds every bad line
            return LineStart(problem="not found in the index")
        data, more = found[3], found[4]
        return LineStart(data.decode("utf-8", "surrogateescape"), more)



def bad_line(starts: BadLineStarts, row: int, pretty: bool = True) -> LogLine:
    """The ``row``-th bad line listed as the line view shows it: read again from its log, at most
    ``LINE_BYTES`` of it (a bad line may be of any length: never read whole), re-indented when it is JSON
    text and ``pretty``.  LogChanged when its log is not what was counted any more, LogError when it
    cannot be read (or there is no index to find it by)."""
    file, line, _ = starts.bad[row]
    if starts.members is None:
        raise LogError(file, "not read: no index of this triage")
    found = starts.members.start(row, LINE_BYTES)
    if found is None or found[:2] != (file, line):  # pragma: no cover - the index holds every bad line
        raise LogError(file, f"line {line} is not found in the index")
    _, _, offset, data, more = found
    shown = log_line(file, line, offset, data, pretty)
    if not more:
        return shown
    return LogLine(file, line, offset, shown.size, shown.text, shown.raw_bytes, shown.pretty, shown.shown,
                   f"the first {shown.shown:,} bytes shown (the line goes on)", whole=False)


def bad_line_starts(snapshot: Snapshot, run: TriageRun, reader: LineReader) -> BadLineStarts:
    """The starts of the bad lines ``snapshot`` lists, read through the overview's reader."""
    group = snapshot.summary.group(BAD)
    index = snapshot.summary.tally.index
    members = None
    if group is not None and index is not None:
        members = GroupMembers(group, index, snapshot.indexed, run.options.by, reader, stamps=snapshot.stamps)
    return BadLineStarts(snapshot.bad, members)
