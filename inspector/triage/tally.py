"""Partial counts of a log that merge associatively: ``Tally``.

``tally_range(path, start, end, registry, options)`` counts the lines of a plain
log that begin in the byte range ``[start, end)``; ``tally_chunk`` counts a chunk
of complete lines handed over by a stream reader (``.gz``, standard input).
``merge(a, b)`` adds two tallies, ``a`` covering lines before ``b``'s; ``Tally()``
is its identity.  So any split of a log, counted piece by piece and merged in
order, equals one pass over it (a property test holds it), and that is how the
counting runs on every core (``triage.run``) or would be mapped over a bucket of
logs by a distributed engine.

What is counted per record is what the contract and the evidence say:
``verify`` for the verdict and ``evidence.Assessment`` for blame and abstention
category (with the request's recall, computed once per distinct request).
Nothing is memoised per answer: every record is verified.  Blame and category
are kept per request and shape of rejection (``KnownRequest.assessed``): the
shape, ``evidence.assessment_key``, is all that ``Assessment`` reads of a
verdict beside its request, so a shape seen before costs a lookup and
``Assessment`` stays the one place for the rules.
"""

from __future__ import annotations

from array import array
from collections import Counter as _Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

import msgspec

from ..contract.checks import CHECKS, STATUSES, label_of
from ..contract.evidence import Assessment, assessment_key
from ..contract.models import Registry
from ..suites.load import collector_paused  # one pause of the collector, as loading does
from .badlines import KEPT as BAD_KEPT
from .badlines import Spill
from .groups import OTHER, Cell, GroupMatcher, VerdictKey, bounded_member
from .logs import Chunk, count_lines, range_chunks
from .mapping import DEFAULT_FORMAT, FILE_KEY, LogFormat, compile_format
from .formats.reading import verdict_of
from .formats.spec import NO_ANSWER, NO_ANSWER_REASONS, Skipped, envelope_reason
from .parsing import parser_for
from .records import BAD_KINDS, GROUP_CHARS, RequestCache, file_member
from .sample import Reservoir
from .table import RowSpill, record_row
from .timeline import parse_ts

__all__ = [
    "BAD_CODE",
    "BAD_KEPT",
    "BY_VALUES",
    "ITEMS_KEPT",
    "ITEM_BITS",
    "ITEM_MEMBER",
    "ITEM_NONE",
    "ITEM_REQUEST",
    "SETTINGS",
    "SETTINGS_KEPT",
    "OTHER",
    "TRIAGE_STATUSES",
    "VERDICT_LABELS",
    "Counter",
    "Index",
    "Options",
    "Tally",
    "add_items",
    "merge",
    "tally_chunk",
    "tally_chunks",
    "tally_range",
    "trials_of",
]

# Every label a verdict can have (STATUS, or STATUS/REASON for the checks with
# sub-reasons), in contract order, ACCEPT last; the index stores a record's label
# as its position here, and a bad line as BAD_CODE.
VERDICT_LABELS: tuple[str, ...] = (
    *(label_of(NO_ANSWER, reason) for reason in NO_ANSWER_REASONS),
    *dict.fromkeys(label for check in CHECKS
                   for label in ([label_of(check.code, r) for r in check.reasons] or [check.code])),
    "ACCEPT",
)
BAD_CODE = len(VERDICT_LABELS)
_CODES = {label: code for code, label in enumerate(VERDICT_LABELS)}
_ACCEPTED = VerdictKey("ACCEPT", None, True, True, None, None)  # the verdict key of every accepted record
_ACCEPT_SHAPE = ("ACCEPT",)  # where a request keeps the number of its accepted records' cell
# The rejections of an answer that may be a chat message (role, content, parts...) a raw path stopped at.
_ENVELOPE_REASONS = frozenset(("WRONG_SHAPE", "UNKNOWN_MEMBER", "MISSING_MEMBER", "NOT_A_STRING"))
# The statuses a triage counts: the contract's, after NO_ANSWER (a record that holds no answer to verify).
TRIAGE_STATUSES: tuple[str, ...] = (NO_ANSWER, *STATUSES)
_STATUS_CODES = {status: code for code, status in enumerate(TRIAGE_STATUSES)}
_STATUS_COUNT = len(TRIAGE_STATUSES)
# In a flat count key, the --by members' JSON texts are joined with NUL, which
# no JSON text holds, and a member the record does not have is b"" (a member's
# JSON text is never empty): one bytes object, cheaper to build and hash than a
# tuple of them.
_SEPARATOR = b"\x00"
_MISSING = msgspec.Raw(b"")
# Distinct values of one --by key a tally keeps (``--by id``: a value a record):
# past it, a record's member is counted as OTHER, "the other values", in its
# cells (``groups.OTHER``, the group ``other:KEY``).
BY_VALUES = 10_000
# The cells an index's counting keeps built, by flat key (a cache: rebuilt when cleared).
_BUILT_CELLS = 65536
# Items (an item within a population: its --by values) a tally keeps the trials of (``Tally.items``):
# past it, a record of an item not already kept is counted as untracked (``Tally.items_untracked``).
# About 150 bytes an item kept: at most some 30 MB a tally.
ITEMS_KEPT = 200_000
# ``--item request``: every record's item is its request (a digest of its canonical form), whatever members it has.
ITEM_REQUEST = "request"
# ``--item none``: no items kept (no stability, no pairing): the count as it was before items.
ITEM_NONE = "none"
# The member that names a record's item by default (the canonical record's ``item``; the formats' presets fill it).
ITEM_MEMBER = "item"
# The generation settings a record may carry (the canonical record's top-level members: the presets map the
# tools' own names to these), counted per run with Options.settings (``--against``: ``triage.settings``).
SETTINGS = ("model", "provider", "prompt_name", "prompt_version", "temperature", "top_p", "max_tokens",
            "max_completion_tokens", "max_output_tokens", "seed", "service_tier", "schema_digest", "verifier_version")
# Distinct combinations of settings a tally keeps (``Tally.settings``): past it, a record of another is counted
# in ``Tally.settings_other``.
SETTINGS_KEPT = 1000
_NO_SETTINGS = tuple(_MISSING for _ in SETTINGS)
# An item's trials are kept as one int: per triage status (its position in TRIAGE_STATUSES), a field of this many
# bits holding how many of its records had it; adding two ints adds their counts (a field never reaches 2**32).
ITEM_BITS = 32


@dataclass(frozen=True, slots=True)
class Options:
    """What to count beyond the verdicts.

    ``log_format``: where a line's members are (``mapping.LogFormat``; the
    default, today's top-level members, is the fast path).  ``by``: the paths
    of the metadata members to group by, as given (``file``: the record's log
    file).  ``since``/``until`` (epoch seconds,
    ``until`` exclusive) narrow the counts to records whose ``ts`` is in the
    window; with either given, a record without a readable ``ts`` is left out
    too (and counted as ``undated``).  ``index``: keep the compact index of every
    line.  ``collect``: the name of a group whose records' lines are kept (an
    export), at most ``limit`` of them (the first ones); with ``stop_at_limit``
    the counting stops once ``limit`` are kept (only the export is wanted: the
    counts are then of the lines up to there).  ``sample``: instead, a random
    sample of that many of the group's records, drawn with ``seed``
    (``triage.sample``: the same records for a seed, whatever the workers).
    ``series``: count each dated record by minute and cell too (``Tally.series``),
    so that every group can be drawn over time (``--series``, the overview's
    histogram of the selected group).  ``item``: the path of the member that
    names a record's item (``--item``; ``ITEM_REQUEST``: the request;
    ``ITEM_NONE``: none kept); None: the ``item`` member, else the request
    (``Tally.items``).  ``settings``: count the records by their generation
    settings (``Tally.settings``: what ``--against`` sets side by side)."""

    by: tuple[str, ...] = ()
    since: float | None = None
    until: float | None = None
    index: bool = False
    collect: str | None = None
    limit: int | None = None
    stop_at_limit: bool = False
    log_format: LogFormat = DEFAULT_FORMAT
    sample: int | None = None
    seed: int = 0
    series: bool = False
    item: str | None = None
    settings: bool = False

    @property
    def windowed(self) -> bool:
        return self.since is not None or self.until is not None


class Counter(dict):  # type: ignore[type-arg]  # a dict subclass of any key
    """A dict of counts that adds another one in place."""

    def add(self, other: dict[Any, int]) -> None:
        get = self.get
        for key, count in other.items():
            self[key] = get(key, 0) + count


class Index:
    """Per line of the logs (records and bad lines, in order): its file, line
    number, byte offset and label code, in compact arrays (16 bytes a line, not
    the records).  A drill-down rereads a record with ``read_record``.

    And what every group of a record is decided by, dictionary-encoded (4 bytes
    a line per column; id 0 is none: a bad line, or a rejection without a failing
    claim): ``cell``, the record's count key (verdict key, scope, ``--by``
    members: ``Tally.cells``), ``claim`` (status, field, cited doc) and ``item``
    (its item's key as ``Tally.items`` keys it: with --by, within its population;
    none when items are not kept, ``--item none``, or past the first ``ITEMS_KEPT``
    items), each an array of ids into its table of values (``keys``).  So which lines a group
    holds is found from the index alone, for any group (the inspector's
    drill-down), never by rereading the log."""

    __slots__ = ("cell", "claim", "code", "file", "files", "item", "keys", "line", "offset")

    COLUMNS = ("cell", "claim", "item")

    def __init__(self) -> None:
        self.files: list[str] = []
        self.file = array("H")
        self.line = array("q")
        self.offset = array("q")
        self.code = array("B")
        self.cell = array("I")
        self.claim = array("I")
        self.item = array("I")
        # Per column: its values, id -> value (id 0 is none), and value -> id.
        self.keys: dict[str, tuple[list[Any], dict[Any, int]]] = {column: ([None], {}) for column in self.COLUMNS}

    def __len__(self) -> int:
        return len(self.code)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Index):
            return NotImplemented
        return [self.files[i] for i in self.file] == [other.files[i] for i in other.file] and \
            self.line == other.line and self.offset == other.offset and self.code == other.code and \
            all(self.values(column) == other.values(column) for column in self.COLUMNS)

    def column(self, name: str) -> array[int]:
        """The ids of a column (``cell``, ``claim`` or ``item``)."""
        return self.cell if name == "cell" else self.claim if name == "claim" else self.item

    def values(self, name: str) -> list[Any]:
        """A column decoded: each line's value (None for none)."""
        table = self.keys[name][0]
        return [table[i] for i in self.column(name)]

    def _id(self, name: str, value: Any) -> int:
        table, ids = self.keys[name]
        found = ids.get(value)
        if found is None:
            if name == "item" and len(table) > ITEMS_KEPT:
                return 0  # at most the items a tally keeps (the first seen): memory bounded, as theirs
            found = ids[value] = len(table)
            table.append(value)
        return found

    def describe(self, cell: Any, claim: Any, item: Any = None) -> None:
        """A record's group keys (after its file, line, offset and code)."""
        self.cell.append(self._id("cell", cell))
        self.claim.append(self._id("claim", claim) if claim is not None else 0)
        self.item.append(self._id("item", item) if item is not None else 0)

    def describe_bad(self) -> None:
        self.cell.append(0)
        self.claim.append(0)
        self.item.append(0)

    def file_number(self, path: str) -> int:
        """The number of ``path`` in ``files`` (a log is added when first seen)."""
        try:
            return self.files.index(path)  # a handful of logs
        except ValueError:
            self.files.append(path)
            return len(self.files) - 1

    def entry(self, number: int) -> tuple[str, int, int, str]:
        """(file, line, offset, label) of the ``number``-th line; label ``BAD`` for a bad line."""
        code = self.code[number]
        return (self.files[self.file[number]], self.line[number], self.offset[number],
                VERDICT_LABELS[code] if code < BAD_CODE else "BAD")

    def where(self, label: str) -> Iterator[int]:
        """The positions of the lines with this label (``BAD`` for bad lines)."""
        code = BAD_CODE if label == "BAD" else _CODES[label]
        return (number for number, found in enumerate(self.code) if found == code)

    def demote(self, demote: Any) -> None:
        """Replace every cell ``demote`` changes (a --by value now counted as
        OTHER) by what it returns, in place: the lines keep their ids, two ids may
        then stand for one cell; when those are most of the table, it is
        rebuilt (each line's id renumbered, in C)."""
        table, ids = self.keys["cell"]
        for number in range(1, len(table)):
            value = table[number]
            changed = demote(value)
            if changed != value:
                table[number] = changed
                if ids.get(value) == number:
                    del ids[value]
                ids.setdefault(changed, number)
        if len(table) - 1 - len(ids) > max(_BUILT_CELLS, len(table) // 2):
            fresh: list[Any] = [None]
            numbers: dict[Any, int] = {}
            remap = [0] * len(table)
            for number in range(1, len(table)):
                value = table[number]
                found = numbers.get(value)
                if found is None:
                    found = numbers[value] = len(fresh)
                    fresh.append(value)
                remap[number] = found
            self.keys["cell"] = (fresh, numbers)
            self.cell = array("I", map(remap.__getitem__, self.cell))

    def add(self, other: Index, demote: Any = None) -> None:
        """Append ``other``'s lines (they follow this index's); ``demote``, if
        given, maps each of ``other``'s cells to this one's (``Tally.add``)."""
        remap = [self.file_number(path) for path in other.files]
        if remap == list(range(len(other.files))):
            self.file.extend(other.file)
        else:
            self.file.extend(remap[number] for number in other.file)
        self.line.extend(other.line)
        self.offset.extend(other.offset)
        self.code.extend(other.code)
        for name, (table, _) in other.keys.items():
            change = demote if name == "cell" and demote is not None else None
            mine = [0, *(self._id(name, change(value) if change is not None else value) for value in table[1:])]
            column = other.column(name)
            if mine == list(range(len(table))):
                self.column(name).extend(column)
            else:
                self.column(name).extend(map(mine.__getitem__, column))


@dataclass(eq=True)
class Tally:
    """Counts of some lines of some logs.  Keys hold what was found (statuses,
    reasons, fields, sources, metadata as its JSON bytes); naming and ordering
    them is the summary's job.

    - ``cells``: per ``groups.Cell`` (verdict, scope, meta) the records, where
      verdict is a ``groups.VerdictKey`` (status, reason, strict_json,
      citation_only, blame, category id), scope (service, environment,
      revision) and meta the JSON bytes (or None) of each ``by_keys`` member:
      one count a record, from which ``verdicts``, ``scopes`` and ``by`` are summed
    - ``claims``: (status, field, cited doc) of rejections by a per-claim check
    - ``minutes``: (minute since the epoch, status) of records with a readable ts
    - ``series`` (``Options.series``): per cell, the records with a readable ts
      per minute, and ``claim_series`` per failing claim (as in ``claims``): what
      a group's records are over time, for any group (``triage.series``)
    - ``bad_lines``: how many bad lines, ``bad_kinds`` how many of each kind,
      and ``bad`` (file, line, reason) of the first ``BAD_KEPT``, in order
      (``--bad-lines`` writes every one: ``triage.badlines``)
    - ``by_values``: per ``--by`` key, the records of each member value kept:
      at most ``BY_VALUES``, the heaviest (the first seen among equals), cut
      down to that after each chunk and each merge; a record whose value is
      not kept has ``OTHER`` for it in its cell
    - ``collected``: (file, line, offset, line bytes, label) of the records of
      the group ``Options.collect`` names, the first ``collect_limit``;
      ``sampled``, with ``Options.sample``: a random sample of them instead
    - ``broken``: (file, line after which it broke, why) of every log that broke
      off before its end (a truncated or corrupt ``.gz``, a read error): not a
      bad line, the end of what could be read of that log
    - ``items``: per item, its records (its trials) by triage status, packed in
      one int (``ITEM_BITS`` a status: ``triage.items.unpack``).  An item is a
      key: the JSON text of the member naming it (bounded as a --by member), or
      its request's digest (``records.request_item``, starting ``#``); with
      --by, the key and the record's --by members (as in its flat count key:
      the item within its population).  At most ``ITEMS_KEPT`` items, the first
      seen: a record of any other is counted in ``items_untracked``.
      ``items_named``: the records whose item a member named;
      ``items_missing``: those without the ``--item`` path given (each its own
      item: not kept)
    - ``settings`` (``Options.settings``): the records per combination of their
      generation settings (the ``SETTINGS`` members' JSON texts joined, as the
      --by members are), at most ``SETTINGS_KEPT`` combinations, the first
      seen; ``settings_other`` the records of any other

    Merging keeps what one pass keeps: the first bad lines and collected
    records, every count.  So do the kept --by values while a key has at most
    ``BY_VALUES`` of them, or when each value is one record's (``--by id``);
    past the bound otherwise, a value dropped by one part and kept by another
    has its first records in OTHER: the totals stay exact, and a kept value's
    count is at least the records counted while it was kept.
    """

    lines: int = 0
    records: int = 0
    by_keys: tuple[str, ...] = ()
    cells: Counter = field(default_factory=Counter)
    claims: Counter = field(default_factory=Counter)
    minutes: Counter = field(default_factory=Counter)
    series: dict[Any, dict[int, int]] = field(default_factory=dict)
    claim_series: dict[Any, dict[int, int]] = field(default_factory=dict)
    no_ts: int = 0  # counted records without a readable ts
    bad_ts: int = 0  # of which the ts member was there but unreadable
    outside: int = 0  # records left out by --since/--until: ts outside the window
    undated: int = 0  # records left out by --since/--until: no readable ts
    bad_lines: int = 0
    bad_kinds: Counter = field(default_factory=Counter)
    skipped: Counter = field(default_factory=Counter)  # rows a format says are not model answers, by what they are
    envelopes: int = 0  # records whose answer is a chat message the raw path stopped at, not the answer
    bad: list[tuple[str, int, str]] = field(default_factory=list)
    broken: list[tuple[str, int, str]] = field(default_factory=list)
    by_values: dict[str, dict[bytes | None, int]] = field(default_factory=dict)
    index: Index | None = None
    collected: list[tuple[str, int, int, bytes, str]] = field(default_factory=list)
    collect_limit: int | None = None
    sampled: Reservoir | None = None  # with Options.sample: the sample of the group's records, in place of collected
    items: Counter = field(default_factory=Counter)
    items_named: int = 0
    items_missing: int = 0
    items_untracked: int = 0
    settings: Counter = field(default_factory=Counter)
    settings_other: int = 0

    @property
    def bad_more(self) -> int:
        """Bad lines counted but not kept in ``bad``."""
        return self.bad_lines - len(self.bad)

    def note_bad(self, file: str, line: int, reason: str, kind: str) -> None:
        """Count one bad line of this kind (kept if among the first ``BAD_KEPT``)."""
        self.bad_lines += 1
        if len(self.bad) < BAD_KEPT:
            self.bad.append((file, line, reason))
        self.bad_kinds[kind] = self.bad_kinds.get(kind, 0) + 1

    @property
    def capped(self) -> dict[str, int]:
        """Per --by key with more values than ``BY_VALUES``: the records counted as OTHER."""
        found: dict[str, int] = {}
        for cell, count in self.cells.items():
            for key, value in zip(self.by_keys, cell.meta):
                if value == OTHER:
                    found[key] = found.get(key, 0) + count
        return found

    @property
    def verdicts(self) -> Counter:
        """Records per (status, reason, strict_json, citation_only, blame, category id)."""
        found = Counter()
        for cell, count in self.cells.items():
            verdict = cell.verdict
            found[verdict] = found.get(verdict, 0) + count
        return found

    @property
    def scopes(self) -> Counter:
        """Records per ((service, environment, revision), status)."""
        found = Counter()
        for cell, count in self.cells.items():
            key = (cell.scope, cell.verdict.status)
            found[key] = found.get(key, 0) + count
        return found

    @property
    def by(self) -> dict[str, Counter]:
        """Per metadata key: records per (the member's JSON bytes or None, status)."""
        found = {key: Counter() for key in self.by_keys}
        for cell, count in self.cells.items():
            status = cell.verdict.status
            for key, value in zip(self.by_keys, cell.meta):
                counts = found[key]
                pair = (value, status)
                counts[pair] = counts.get(pair, 0) + count
        return found

    def add(self, other: Tally) -> Tally:
        """Add ``other`` (lines after this tally's) in place; returns self."""
        if other.cells and self.cells and other.by_keys != self.by_keys:
            raise ValueError(f"tallies grouped by {self.by_keys} and {other.by_keys} do not add up")
        if other.by_keys:
            self.by_keys = other.by_keys
        self.lines += other.lines
        self.records += other.records
        dropped = self._add_values(other)
        demote = _demoter(dropped) if dropped else None
        if demote is not None:
            self.cells = _demoted(self.cells, demote)
            self.cells.add(_demoted(other.cells, demote))
            if self.series or other.series:
                self.series = _demoted_series(self.series, demote)
                _add_series(self.series, _demoted_series(other.series, demote))
        else:
            self.cells.add(other.cells)
            _add_series(self.series, other.series)
        self.claims.add(other.claims)
        self.minutes.add(other.minutes)
        _add_series(self.claim_series, other.claim_series)
        self.no_ts += other.no_ts
        self.bad_ts += other.bad_ts
        self.outside += other.outside
        self.undated += other.undated
        self.bad_lines += other.bad_lines
        self.bad_kinds.add(other.bad_kinds)
        self.skipped.add(other.skipped)
        self.envelopes += other.envelopes
        self.bad.extend(other.bad[:max(0, BAD_KEPT - len(self.bad))])
        self.broken.extend(other.broken)
        if other.index is not None or (demote is not None and self.index is not None):
            if self.index is None:
                self.index = Index()
            if demote is not None:
                self.index.demote(demote)
            if other.index is not None:
                self.index.add(other.index, demote)
        limits = [limit for limit in (self.collect_limit, other.collect_limit) if limit is not None]
        self.collect_limit = min(limits) if limits else None
        if self.collect_limit is None:
            self.collected.extend(other.collected)
        else:
            self.collected.extend(other.collected[:max(0, self.collect_limit - len(self.collected))])
        if other.sampled is not None:
            self.sampled = other.sampled.copy() if self.sampled is None else self.sampled.merge(other.sampled)
        self.items_named += other.items_named
        self.items_missing += other.items_missing
        self.items_untracked += other.items_untracked + add_items(self.items, other.items)
        self.settings_other += other.settings_other + _add_bounded(self.settings, other.settings, SETTINGS_KEPT)
        return self

    def _add_values(self, other: Tally) -> dict[int, set[bytes | None]]:
        """Add ``other``'s kept --by values to this tally's, then ``_drop_values``."""
        for key, theirs in other.by_values.items():
            mine = self.by_values.setdefault(key, {})
            get = mine.get
            for value, count in theirs.items():
                mine[value] = get(value, 0) + count
        return self._drop_values()

    def _drop_values(self) -> dict[int, set[bytes | None]]:
        """Where a --by key has more than ``BY_VALUES`` values kept, keep the
        heaviest (the first seen among equals).  Returns the values no longer
        kept, per member position (the caller makes them OTHER in the cells)."""
        dropped: dict[int, set[bytes | None]] = {}
        for position, key in enumerate(self.by_keys):
            mine = self.by_values.get(key)
            if mine is not None and len(mine) > BY_VALUES:
                heaviest = sorted(mine.items(), key=lambda item: -item[1])  # stable: first seen first
                gone = {value for value, _ in heaviest[BY_VALUES:]}
                self.by_values[key] = {value: count for value, count in mine.items() if value not in gone}
                dropped[position] = gone
        return dropped

    def bound_values(self) -> bool:
        """Keep at most ``BY_VALUES`` values of each --by key (the heaviest), the
        records of the others counted as OTHER in the cells and the index;
        whether any was dropped."""
        dropped = self._drop_values()
        if dropped:
            demote = _demoter(dropped)
            self.cells = _demoted(self.cells, demote)
            if self.series:
                self.series = _demoted_series(self.series, demote)
            if self.index is not None:
                self.index.demote(demote)
        return bool(dropped)

    def shift(self, lines: int) -> Tally:
        """Renumber this tally's lines (all of one log) ``lines`` further on, in place."""
        if lines:
            self.bad = [(file, line + lines, reason) for file, line, reason in self.bad]
            self.broken = [(file, line + lines, problem) for file, line, problem in self.broken]
            self.collected = [(file, line + lines, *rest) for file, line, *rest in self.collected]  # type: ignore[misc]  # rest: offset, text, label
            if self.sampled is not None:
                self.sampled.shift(lines)
            if self.index is not None:
                self.index.line = array("q", (line + lines for line in self.index.line))
        return self


def _demoter(dropped: dict[int, set[bytes | None]]) -> Any:
    """A cell with each dropped --by value (per member position) made OTHER."""

    def demote(cell: Cell) -> Cell:
        values = cell.meta
        if any(position < len(values) and values[position] in gone for position, gone in dropped.items()):
            return cell._replace(meta=tuple(OTHER if position in dropped and value in dropped[position] else value
                                            for position, value in enumerate(values)))
        return cell

    return demote


def _demoted(cells: dict[Any, int], demote: Any) -> Counter:
    found = Counter()
    get = found.get
    for cell, count in cells.items():
        cell = demote(cell)
        found[cell] = get(cell, 0) + count
    return found


def _add_series(mine: dict[Any, dict[int, int]], theirs: dict[Any, dict[int, int]]) -> None:
    """Add per-key minute counts (``Tally.series``) in place; ``theirs`` is not changed."""
    for key, minutes in theirs.items():
        found = mine.get(key)
        if found is None:
            mine[key] = dict(minutes)
            continue
        get = found.get
        for minute, count in minutes.items():
            found[minute] = get(minute, 0) + count


def _demoted_series(series: dict[Any, dict[int, int]], demote: Any) -> dict[Any, dict[int, int]]:
    found: dict[Any, dict[int, int]] = {}
    for cell, minutes in series.items():
        _add_series(found, {demote(cell): minutes})
    return found


def add_items(mine: dict[Any, int], theirs: dict[Any, int]) -> int:
    """Add per-item packed counts (``Tally.items``) in place, at most ``ITEMS_KEPT`` items kept (those
    already there first); returns the records of the items not kept."""
    get = mine.get
    left = ITEMS_KEPT - len(mine)
    untracked = 0
    for key, packed in theirs.items():
        found = get(key)
        if found is not None:
            mine[key] = found + packed
        elif left > 0:
            mine[key] = packed
            left -= 1
        else:
            untracked += trials_of(packed)
    return untracked


def _add_bounded(mine: dict[Any, int], theirs: dict[Any, int], bound: int) -> int:
    """Add counts in place, at most ``bound`` keys kept (those already there first); returns the count of
    the keys not kept."""
    left = bound - len(mine)
    dropped = 0
    for key, count in theirs.items():
        if key in mine:
            mine[key] += count
        elif left > 0:
            mine[key] = count
            left -= 1
        else:
            dropped += count
    return dropped


def trials_of(packed: int) -> int:
    """An item's records, from its packed counts (``Tally.items``)."""
    mask = (1 << ITEM_BITS) - 1
    total = 0
    while packed:
        total += packed & mask
        packed >>= ITEM_BITS
    return total


def merge(a: Tally, b: Tally) -> Tally:
    """A new tally of ``a``'s lines followed by ``b``'s (associative; ``Tally()`` is
    the identity)."""
    return Tally().add(a).add(b)


class _Counting:
    """The per-line loop of one piece of a log, and what it keeps between chunks."""

    def __init__(self, registry: Registry, options: Options, requests: RequestCache | None = None,
                 spill: Spill | None = None, rows: RowSpill | None = None) -> None:
        self.registry = registry
        self.options = options
        self.requests = requests if requests is not None else RequestCache(registry)
        self.spill = spill
        self.rows = rows
        self.tally = Tally(by_keys=options.by, index=Index() if options.index else None,
                           collect_limit=options.limit if options.collect is not None else None,
                           sampled=Reservoir(options.sample, options.seed)
                           if options.collect is not None and options.sample is not None else None)
        # Per --by key, the records of each value kept (Tally.by_values), in the order of the members.
        self._kept = [self.tally.by_values.setdefault(key, {}) for key in options.by]
        self._cells: dict[Any, Cell] = {}
        self.full = False  # the export's limit is collected and the counting may stop
        # Where each member is: the default's fast path unless the format moves one.
        self.plan = plan = compile_format(options.log_format, options.by)
        self.parse: Any = parser_for(plan, counting=True)
        # Where a record's item is named: the item member, or the --item path (read with the --by paths: the
        # parse then finds it too, nested or not), or nowhere (--item request).
        self.item_key: Any = ITEM_MEMBER
        self.item_required = False
        self.items = options.item != ITEM_NONE
        if options.item in (ITEM_REQUEST, ITEM_NONE):
            self.item_key = None
        elif options.item is not None:
            item_plan = compile_format(options.log_format, (*options.by, options.item))
            self.item_key, self.item_required = item_plan.by_keys[-1], True
            self.parse = parser_for(item_plan, counting=True)
        if options.collect is not None:
            self.matcher: Any = GroupMatcher(options.collect, options.by, plan.by_keys)
        else:
            self.matcher = None

    def chunk(self, file: str, offset: int, data: bytes | None, length: int, line: int) -> int:
        """Count a chunk's lines (``line``: the number of its first); returns how many."""
        tally = self.tally
        if data is None:  # one line too long to hold
            self._bad(file, line, offset, f"too long: {length} bytes on one line (not read)")
            tally.lines += 1
            return 1
        lines = data.split(b"\n")
        if data.endswith(b"\n"):
            lines.pop()
        cells: list[Any] = []
        minutes: list[int | None] = []
        failures: list[tuple[str, str, str]] = []
        failure_minutes: list[int | None] | None = [] if self.options.series else None
        items: list[tuple[Any, int]] = []
        settings: list[bytes] | None = [] if self.options.settings else None
        with collector_paused():
            self._lines(lines, file, offset, line, cells, minutes, failures, items, failure_minutes, settings)
        self._fold(cells, minutes, failures, items, failure_minutes)
        if settings:
            tally.settings_other += _add_bounded(tally.settings, _Counter(settings), SETTINGS_KEPT)
        if any(len(kept) > BY_VALUES for kept in self._kept) and tally.bound_values():
            self._kept = [tally.by_values[key] for key in self.options.by]
            self._cells.clear()
        tally.lines += len(lines)
        return len(lines)

    def _fold(self, cells: list[Any], minutes: list[int | None], failures: list[tuple[str, str, str]],
              items: list[tuple[Any, int]], failure_minutes: list[int | None] | None = None) -> None:
        """Add a chunk's records, listed under their flat keys (``_lines``), to
        the tally's cells, minutes, failing claims and items: counted here, in C.  With
        ``failure_minutes`` (``Options.series``) the minutes are aligned with the
        cells, and those with the failures: the pairs are counted too (the series)."""
        tally = self.tally
        found = tally.cells
        get = found.get
        kept = self._kept
        cell_of: dict[Any, Any] = {}
        for flat, count in _Counter(cells).items():
            cell = cell_of[flat] = self._cell(flat)
            found[cell] = get(cell, 0) + count
            if kept:
                for values, value in zip(kept, cell.meta):
                    if value != OTHER:
                        values[value] += count
        histogram = tally.minutes
        get = histogram.get
        for code, count in _Counter(minutes).items():
            if code is None:
                continue  # (aligned with the cells: a record without a readable ts)
            minute, status = divmod(code, _STATUS_COUNT)
            key = (minute, TRIAGE_STATUSES[status])
            histogram[key] = get(key, 0) + count
        tally.claims.add(_Counter(failures))
        mine: dict[Any, int] = {}  # this chunk's items, packed, in the order first seen
        for (key, status), count in _Counter(items).items():
            mine[key] = mine.get(key, 0) + (count << (ITEM_BITS * status))
        tally.items_untracked += add_items(tally.items, mine)
        if failure_minutes is None:
            return
        for pairs, into, key_of in ((zip(minutes, cells), tally.series, cell_of),
                                    (zip(failure_minutes, failures), tally.claim_series, None)):
            for (code, flat), count in _Counter(pairs).items():
                if code is None:
                    continue
                key = key_of[flat] if key_of is not None else flat
                found_minutes = into.get(key)
                if found_minutes is None:
                    found_minutes = into[key] = {}
                minute = code // _STATUS_COUNT
                found_minutes[minute] = found_minutes.get(minute, 0) + count

    def _cell(self, flat: Any) -> Cell:
        """A flat count key as ``Tally.cells`` keys it: a ``Cell`` (verdict key, scope, metadata), built
        once a chunk per distinct key (``_fold``), not a line."""
        if flat.__class__ is int:
            key, scope = self.requests.values[flat]
            return Cell(key, scope, ())
        number, joined = flat
        key, scope = self.requests.values[number]
        members = []
        for kept, value in zip(self._kept, joined.split(_SEPARATOR)):
            value = value or None
            if value not in kept:
                kept[value] = 0  # counted in _fold; past BY_VALUES, the lightest are dropped after the chunk
            members.append(value)
        return Cell(key, scope, tuple(members))

    def _indexed_cell(self, flat: Any) -> Cell:
        """``_cell``, kept a while: an index asks for every record's."""
        cell = self._cells.get(flat)
        if cell is None:
            if len(self._cells) >= _BUILT_CELLS:  # --by id: a flat key a record
                self._cells.clear()
            cell = self._cells[flat] = self._cell(flat)
        return cell

    def _lines(self, lines: list[bytes], file: str, offset: int, number: int,
               cells: list[Any], minutes: list[int | None], failures: list[tuple[str, str, str]],
               items: list[tuple[Any, int]], failure_minutes: list[int | None] | None = None,
               settings: list[bytes] | None = None) -> None:
        """The per-line loop: everything it touches is a local.

        A record is listed under a flat key: the number of its (verdict key,
        scope), kept per request and shape of its verdict (``assessed``), and
        with ``--by`` the members' JSON texts joined; its minute with its status
        as one number.  Both are cheaper to build and hash than the tuples they
        stand for, and the lists are counted once a chunk, in C (``_fold``), as
        are its item (with --by, within its population) and status.  A
        line's byte offset is the chunk's plus the lengths before it, summed
        once per chunk in C (``starts``), when an index, an export or a bad line
        asks for one."""
        tally = self.tally
        registry = self.registry
        requests = self.requests
        number_of = requests.number
        options = self.options
        windowed, since, until = options.windowed, options.since, options.until
        plan = self.plan
        parse, ts_key, by = self.parse, plan.ts_key, plan.by_keys
        # What a --by member is when the record has none: b"" (``_MISSING``), and for --by file the file.
        missing = tuple(msgspec.Raw(file_member(file)) if key is FILE_KEY else _MISSING for key in by)
        join = _SEPARATOR.join
        add_cell, add_minute, add_failure, add_item = cells.append, minutes.append, failures.append, items.append
        item_key, item_required, status_codes, track = self.item_key, self.item_required, _STATUS_CODES, self.items
        named = no_item = 0
        add_setting = settings.append if settings is not None else None
        # With Options.series, ``minutes`` holds every record's minute (None: none), aligned with ``cells``, and
        # ``failure_minutes`` every failing claim's, aligned with ``failures``: the fold pairs them in C.
        aligned = failure_minutes is not None
        add_failure_minute = failure_minutes.append if failure_minutes is not None else None
        index, matcher = tally.index, self.matcher if not self.full else None
        add_row = self.rows.add if self.rows is not None else None  # --records: a row a record counted
        values = requests.values
        collected, limit, sampled = tally.collected, tally.collect_limit, tally.sampled
        if matcher is not None and limit is not None and len(collected) >= limit:
            matcher = None
        if index is not None:
            file_number = index.file_number(file)
            index_file, index_line, index_offset, index_code = index.file, index.line, index.offset, index.code
        # Where each line starts: offset + the lengths of the lines before it + one newline each.
        starts = _starts(lines, offset) if index is not None or matcher is not None or add_row is not None else None
        records = no_ts = bad_ts = 0
        for position, text in enumerate(lines):
            parsed = parse(text, requests)
            if parsed.__class__ is str:
                if starts is None:
                    starts = _starts(lines, offset)
                self._bad(file, number + position, starts[position] + position, parsed)
                continue
            if parsed.__class__ is Skipped:  # a row a format says is not a model answer: counted apart
                tally.skipped[parsed] = tally.skipped.get(parsed, 0) + 1
                continue
            raw, known, members = parsed
            ts_member = members.get(ts_key)
            stamp = parse_ts(ts_member) if ts_member is not None else None
            if windowed and (stamp is None or (since is not None and stamp < since)
                             or (until is not None and stamp >= until)):
                if stamp is None:
                    tally.undated += 1
                else:
                    tally.outside += 1
                continue
            verdict = verdict_of(raw, known.request, registry)
            status = verdict.status
            if status == "INVALID_JSON" and verdict.reason in _ENVELOPE_REASONS and envelope_reason(raw) is not None:
                tally.envelopes += 1  # never silently wrong: the raw path reaches a chat message
            assessed = known.assessed
            evidence = failing = None
            if status == "ACCEPT":
                prefix = assessed.get(_ACCEPT_SHAPE)
                if prefix is None:
                    prefix = assessed[_ACCEPT_SHAPE] = number_of((_ACCEPTED, known.scope))
            else:
                shape = assessment_key(verdict)
                prefix = assessed.get(shape)
                if prefix is None or matcher is not None:
                    evidence = Assessment(verdict, known.recall)
                    category = evidence.category
                    prefix = number_of((VerdictKey(status, verdict.reason, verdict.strict_json,
                                                   verdict.citation_only, evidence.blame,
                                                   category.id if category is not None else None),
                                        known.scope))
                    requests.remember(known, shape, prefix)
                claim = verdict.claim
                if claim is not None:
                    cited = verdict.claims[claim]
                    failing = (status, cited.field, cited.doc)
                    add_failure(failing)
            if by:
                joined = join(map(members.get, by, missing))
                if len(joined) > GROUP_CHARS:  # a member may be long: each counted bounded (groups.bounded_member)
                    joined = join([bounded_member(bytes(member)) for member in map(members.get, by, missing)])
                flat = (prefix, joined)
            else:
                flat = prefix
            add_cell(flat)
            if track:
                item = members.get(item_key) if item_key is not None else None
                if item is not None and len(item) == 4 and bytes(item) == b"null":
                    item = None  # (an item member of null names none)
                if item is None:
                    if item_required:
                        no_item += 1  # its own item: counted, not kept
                    else:
                        item = known.item
                else:
                    named += 1
                    item = bytes(item) if len(item) <= GROUP_CHARS else bounded_member(bytes(item))
                if item is not None:
                    item = (item, joined) if by else item
                    add_item((item, status_codes[status]))
            else:
                item = None
            if add_setting is not None:
                setting = join(map(members.get, SETTINGS, _NO_SETTINGS))
                if len(setting) > GROUP_CHARS:  # each bounded, as a --by member
                    setting = join([bounded_member(bytes(member)) for member in map(members.get, SETTINGS, _NO_SETTINGS)])
                add_setting(setting)
            if stamp is not None:
                code = int(stamp // 60) * _STATUS_COUNT + _STATUS_CODES[status]
                add_minute(code)
                if aligned and failing is not None:
                    add_failure_minute(code)  # type: ignore[misc]  # aligned: set
            else:
                no_ts += 1
                if ts_member is not None:
                    bad_ts += 1
                if aligned:  # the minutes stay aligned with the cells (and the claims'): none
                    add_minute(None)
                    if failing is not None:
                        add_failure_minute(None)  # type: ignore[misc]  # aligned: set
            records += 1
            if add_row is not None:
                add_row(record_row(file, number + position, starts[position] + position,  # type: ignore[index]  # starts: computed when rows are written
                                   verdict, known, members, plan, stamp, values[prefix][0], failing))
            if index is not None:
                index_file.append(file_number)
                index_line.append(number + position)
                index_offset.append(starts[position] + position)  # type: ignore[index]  # starts: computed for an index
                index_code.append(_CODES[label_of(status, verdict.reason)])
                index.describe(self._indexed_cell(flat), failing, item)
            if matcher is not None and matcher.matches(verdict, known, members, evidence, file):
                if sampled is not None:
                    at = starts[position] + position  # type: ignore[index]  # starts: computed for a matcher
                    sampled.offer(file, at, (file, number + position, at, text, verdict.label))
                    continue
                collected.append((file, number + position, starts[position] + position,  # type: ignore[index]  # starts: computed for a matcher
                                  text, verdict.label))
                if limit is not None and len(collected) >= limit:
                    matcher = None  # the rest need not be matched
                    if options.stop_at_limit:
                        self.full = True
                        break
        tally.records += records
        tally.no_ts += no_ts
        tally.bad_ts += bad_ts
        tally.items_named += named
        tally.items_missing += no_item

    def _bad(self, file: str, line: int, offset: int, reason: str) -> None:
        tally = self.tally
        tally.note_bad(file, line, reason, next((kind for kind in BAD_KINDS if reason.startswith(kind)), "other"))
        if self.spill is not None:
            self.spill.add(line, offset, reason)
        if tally.index is not None:
            tally.index.file.append(tally.index.file_number(file))
            tally.index.line.append(line)
            tally.index.offset.append(offset)
            tally.index.code.append(BAD_CODE)
            tally.index.describe_bad()


def _starts(lines: list[bytes], offset: int) -> list[int]:
    """``offset`` plus the lengths of the lines before each (add its position for the newlines)."""
    return list(accumulate(map(len, lines), initial=offset))


def tally_chunks(file: str, chunks: Iterable[Chunk], registry: Registry, options: Options,
                 first_line: int = 1, requests: RequestCache | None = None, spill: Spill | None = None,
                 rows: RowSpill | None = None) -> Tally:
    """Count chunks of complete lines of ``file`` (in order, the first chunk's
    first line being number ``first_line``).  ``spill``: where every bad line
    is written too (``--bad-lines``; the tally keeps the first ``BAD_KEPT``);
    ``rows``: where a row of every record counted is written (``--records``,
    ``triage.table``)."""
    counting = _Counting(registry, options, requests, spill, rows)
    line = first_line
    try:
        for offset, data, length in chunks:
            line += counting.chunk(file, offset, data, length, line)
            if counting.full:
                break
    finally:
        try:
            if spill is not None:
                spill.close()
        finally:
            if rows is not None:
                rows.close()
    return counting.tally


def tally_chunk(file: str, offset: int, data: bytes, first_line: int, registry: Registry, options: Options,
                requests: RequestCache | None = None, spill: Spill | None = None,
                rows: RowSpill | None = None) -> Tally:
    """Count one chunk of complete lines of ``file`` beginning at ``offset`` (its
    first line being number ``first_line``): what a stream's reader hands out."""
    return tally_chunks(file, [(offset, data, len(data))], registry, options, first_line, requests, spill, rows)


def tally_range(path: str, start: int, end: int, registry: Registry, options: Options,
                requests: RequestCache | None = None, first_line: int | None = None,
                spill: Spill | None = None, rows: RowSpill | None = None) -> Tally:
    """Count the lines of the plain log ``path`` that begin in ``[start, end)``.

    Any ``start`` and ``end`` will do: a line belongs to the range its first byte
    is in.  Line numbers are counted from the file's start (the newlines before
    the first owned line are counted, in C), unless ``first_line`` says what the
    first owned line's number is: a driver that splits a file into many ranges
    passes 1 and shifts each range's numbers by the lines before it
    (``Tally.shift``), instead of counting the same prefix again and again."""
    chunks = range_chunks(path, start, end)
    first = next(chunks, None)
    if first is None:
        return tally_chunks(path, (), registry, options, spill=spill, rows=rows)
    if first_line is None:
        first_line = count_lines(path, first[0]) + 1

    def every() -> Iterator[Chunk]:
        yield first
        yield from chunks

    return tally_chunks(path, every(), registry, options, first_line, requests, spill, rows)
