"""One line of a log: a record (the raw answer, its request, its metadata) or a
bad line with the reason.

A line is decoded once, in C, into its members as raw JSON (``msgspec.Raw``):
``raw`` is then decoded as a string, ``request`` is looked up by its exact bytes
(a request seen before costs a dictionary lookup; a new one is validated by
``suites.load.parse_request``, as a request file is), and every other member is
kept as the JSON text it was written as (decoded only when shown or grouped
by).  Nothing here raises for any line: a problem is the bad line's reason.

Two things msgspec refuses are not the line's fault but the answer's, and make
a record: a ``raw`` whose bytes are not UTF-8 is an answer that is not UTF-8
(verified as those bytes), and a ``raw`` escaping a lone surrogate
(``"\\ud800"``) is a text no UTF-8 can hold; the contract says what both are
(INVALID_JSON/NOT_UTF8).  A line msgspec refuses for a lone surrogate escape,
or for bytes that are not UTF-8 outside a string's value, is split into its
members by Python's ``json`` instead (``_members_slowly``), which reads both.
A UTF-8 byte order mark at the start of a line is skipped, as a suite file's
(``suites.load.parse_json``): logs concatenated with ``cat`` keep each file's
at the start of its first line.

An answer logged as JSON (an object or an array where the answer is, not a
string) is verified on its exact bytes as they stand in the line (the span
msgspec found: a repeated key or odd spacing in it still counts), never
re-serialised; its record's metadata says so (``RAW_LOGGED_AS``).

A line whose members are elsewhere (``mapping.LogFormat``: ``--raw PATH``,
``--request PATH``, ...) is read by ``parse_mapped``: the top-level members as
above, then each path through nested objects and arrays, each container
decoded once (a ``Plan`` is one tree of every path).  ``parse_line`` is the
default format's path and stays what it was: nothing of a mapping is looked at
on it.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from json.decoder import scanstring  # type: ignore[attr-defined]  # json's own, not in typeshed
from typing import Any

import msgspec

from ..contract.evidence import Recall, recall_for
from ..contract.jsonscan import max_depth
from ..contract.models import Registry, Request
from ..contract.text import shorten, visible
from ..suites.load import LoadError, parse_request
from .mapping import Plan, list_index

__all__ = [
    "BAD_KINDS",
    "CACHE_BYTES",
    "GROUP_CHARS",
    "MAX_LINE_BYTES",
    "MAX_LINE_DEPTH",
    "RAW_LOGGED_AS",
    "REQUEST_MEMBERS",
    "SHAPES",
    "BadLine",
    "KnownRequest",
    "LogRecord",
    "RequestCache",
    "file_member",
    "group_text",
    "logged_as_json",
    "member_at",
    "meta_value",
    "parse_line",
    "parse_mapped",
    "record_meta",
    "request_item",
    "request_extras",
    "without_extras",
    "scope_key",
    "surrogate_text",
]

# A line longer than this is a bad line, and is skipped without being held: an
# answer is at most 24,580 bytes before it is TOO_LARGE (a few times that once
# escaped into a JSON string), and a request file at most 1 MiB.
MAX_LINE_BYTES = 4 * 1024 * 1024

# A line nested deeper than this (its object the first level) is not JSON: judged
# on the line's brackets, so every Python says the same (msgspec stops where the
# interpreter's recursion limit does: about 1,000 levels on 3.11, over 10,000 on
# 3.13).  A request is a few levels deep; an answer logged as JSON at most 17.
MAX_LINE_DEPTH = 512
_TOO_DEEP = f"not JSON: nested too deeply (more than {MAX_LINE_DEPTH} levels)"

# What a bad line can be, in the words its reason starts with (counted by kind).
BAD_KINDS = ("empty line", "too long", "not JSON", "not an object", "duplicate key", "raw missing",
             "raw not a string", "request missing", "request unusable")

# What a RequestCache holds at most, in bytes (estimated: the request's JSON, the
# objects validated from it and the shapes of rejection kept for it); past it,
# it starts afresh.  Bounded by bytes, not entries: 600 requests of a 3 MiB
# service each are 3.6 GB, and 65,536 small ones a few tens of MB.
CACHE_BYTES = 32 * 1024 * 1024
# Shapes of rejection whose blame and category a request keeps (past this, assessed each time).
SHAPES = 4096
# A scope member (service, environment, revision) or a --by value longer than
# this many characters is grouped and named by its head, its length and a digest
# of the whole (``group_text``): distinct values stay distinct groups, and no
# count key holds megabytes.
GROUP_CHARS = 256

# A record's metadata entry saying its answer was logged as JSON (an object or
# an array), not as a string: ``{"raw_logged_as": "json"}``.  It replaces a
# top-level member of that name, as the request's extras (``request.NAME``) do.
RAW_LOGGED_AS = "raw_logged_as"
# The members a request may have (``contract.models.Request``): any other is an
# extra, a bad line unless ``--request-extra ignore``.
REQUEST_MEMBERS = frozenset(Request.__struct_fields__)

_MEMBERS = msgspec.json.Decoder(dict[str, msgspec.Raw])
# A value on the way to a nested member: an object or an array.
_CONTAINER = msgspec.json.Decoder(dict[str, msgspec.Raw] | list[msgspec.Raw])
_BOM = b"\xef\xbb\xbf"
_REPEATED = "duplicate key: the record repeats a member (which one counts is ambiguous)"
_STRING = msgspec.json.Decoder(str)
_ANY = msgspec.json.Decoder()


@dataclass(frozen=True, slots=True)
class KnownRequest:
    """A validated request with what every record of it shares: its scope, as
    grouped by (``scope_key``), its retrieval recall (which depends on the
    request only, computed as it is read) and, filled in by the counting
    (``RequestCache.remember``), per shape of its verdicts
    (``assessment_key``), the ``RequestCache.number`` of what a record of that
    shape is counted under: its verdict key (blame and category included) and
    scope (``tally``: not a verdict; every record is verified and its shape
    read off its verdict)."""

    request: Request
    scope: tuple[str, str, str]
    recall: Recall | None  # None without a registry (a record reread for display)
    assessed: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)
    # The item a record of it belongs to when nothing else names one (``tally``'s items): a digest of the
    # request's canonical form (its validated members re-encoded, however the log spelled them).
    item: bytes = field(default=b"", compare=False, repr=False)


def request_item(request: Request) -> bytes:
    """The item key of a request (``KnownRequest.item``): ``#`` and the start of the SHA-256 of its
    canonical JSON (service, environment, revision, fields, supplied, scope as validated).  No JSON text
    starts with ``#``: it never meets an item named by a member."""
    return b"#" + hashlib.sha256(msgspec.json.encode(request)).hexdigest()[:24].encode("ascii")


def scope_key(request: Request) -> tuple[str, str, str]:
    """The request's (service, environment, revision) as a triage groups by it:
    each member as it is, or bounded (``group_text``)."""
    return (group_text(request.service), group_text(request.environment), group_text(request.revision))


def group_text(text: str) -> str:
    """A value as a group holds it: as it is, or past ``GROUP_CHARS``
    characters its head, an ellipsis, its length and the start of the SHA-256
    of the whole (longer than any value kept as it is, so the two never meet)."""
    if len(text) <= GROUP_CHARS:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"{text[:GROUP_CHARS]}…({len(text):,} characters, sha256 {digest})"


# How msgspec says a request has a member the schema does not know.
_UNKNOWN = re.compile(r"Object contains unknown field `(.*)`", re.DOTALL)
# Estimated bytes of the objects around what a cache entry holds: the dict's
# entry, the KnownRequest, its Request, scope tuple, assessed dict and recall.
_ENTRY_BYTES = 800
_POINTER = 8


def _request_bytes(data: bytes, found: KnownRequest | str) -> int:
    """What keeping ``found`` under the key ``data`` costs, estimated from above."""
    size = sys.getsizeof(data) + _ENTRY_BYTES
    if found.__class__ is str:
        return size + sys.getsizeof(found)
    request = found.request  # type: ignore[union-attr]  # not a str: a KnownRequest
    strings = (request.service, request.environment, request.revision, *request.fields, *request.supplied,
               *found.scope)  # type: ignore[union-attr]  # not a str: a KnownRequest
    return size + sum(map(sys.getsizeof, strings)) + _POINTER * len(strings)


def _shape_bytes(shape: Any) -> int:
    """What a kept shape of rejection (``assessment_key``) holds: its claims' fields and docs."""
    claims = shape[3] if len(shape) > 3 else ()
    return 200 + sum(sys.getsizeof(part) + 2 * _POINTER for pair in claims for part in pair)


class RequestCache:
    """Requests by the exact bytes of their JSON: validated once each.

    Bounded by bytes: a log of all-different requests (or of a few enormous
    ones) would otherwise keep every one of them; past ``limit`` bytes
    (``CACHE_BYTES``: each entry's JSON, the objects validated from it and the
    shapes of rejection kept for it, estimated from above) the cache starts
    afresh (a miss only costs a validation).  A request larger than the whole
    budget is validated each time it is seen.

    ``number`` gives a value the counting keys records by (a verdict key and a
    scope) a small number, the same for the life of the cache, and ``values``
    says what each number stands for: a number is cheaper to hash, once a
    record, than the tuples it stands for.  They are as many as the distinct
    count keys the tally holds anyway, and small: a scope is ``scope_key``'s,
    at most a few hundred characters a member."""

    __slots__ = ("_numbers", "held", "known", "limit", "registry", "values")

    def __init__(self, registry: Registry | None = None, limit: int = CACHE_BYTES) -> None:
        self.registry = registry
        self.limit = limit
        self.held = 0  # bytes of the entries in ``known``, estimated
        self.known: dict[bytes, KnownRequest | str] = {}
        self.values: list[Any] = []
        self._numbers: dict[Any, int] = {}

    def number(self, value: Any) -> int:
        """The number of ``value`` (hashable) in ``values``, added when first seen."""
        found = self._numbers.get(value)
        if found is None:
            found = self._numbers[value] = len(self.values)
            self.values.append(value)
        return found

    def get(self, data: bytes) -> KnownRequest | str:
        """The request, or why it is unusable (one line)."""
        found = self.known.get(data)
        if found is None:
            found = self._validate(data)
            cost = _request_bytes(data, found)
            if self.held + cost > self.limit:
                self.clear()
            if cost <= self.limit:
                self.known[data] = found
                self.held += cost
        return found

    def remember(self, known: KnownRequest, shape: Any, number: int) -> None:
        """Keep ``number`` for a shape of ``known``'s rejections (at most
        ``SHAPES`` a request), its bytes charged to the cache."""
        if len(known.assessed) >= SHAPES or shape in known.assessed:
            return
        cost = _shape_bytes(shape)
        if self.held + cost > self.limit:
            self.clear()  # ``known`` with the rest: its shapes are not kept either
            return
        known.assessed[shape] = number
        self.held += cost

    def clear(self) -> None:
        """Forget every request (the numbers stay: counts refer to them)."""
        self.known.clear()
        self.held = 0

    def _validate(self, data: bytes) -> KnownRequest | str:
        try:
            request = parse_request("request", data)
        except LoadError as exc:
            extra = _UNKNOWN.fullmatch(exc.problem) if not exc.place else None
            if extra is not None:  # a member of its own the service adds (trace_id): another option takes it
                return (f"request unusable: request.{visible(extra.group(1))}: a member the request schema does not "
                        "know (--request-extra ignore accepts the request and keeps it as metadata)")
            where = f"request.{exc.place}" if exc.place and not exc.place[0].isdigit() else \
                f"request at {exc.place}" if exc.place else "request"
            return f"request unusable: {where}: {exc.problem}"
        return KnownRequest(request, scope_key(request),
                            recall_for(request, self.registry) if self.registry is not None else None,
                            item=request_item(request))


@dataclass(frozen=True, slots=True)
class LogRecord:
    """A record of a log, as reread for a drill-down or an export."""

    file: str
    line: int  # 1-based
    offset: int  # of the line's first byte (in the decompressed stream for .gz)
    raw: str | bytes  # bytes: an answer that is not UTF-8
    request: Request
    meta: Mapping[str, Any]  # every other member, decoded (and the entries of RAW_LOGGED_AS, request extras)
    id: Any = None  # the member at the format's id path, decoded (None: none)


@dataclass(frozen=True, slots=True)
class BadLine:
    """A line of a log that is not a usable record, and why."""

    file: str
    line: int
    offset: int
    error: str


def _kind_of(data: bytes) -> str:
    """What a JSON value that is not an object is, in words."""
    first = data.lstrip()[:1]
    return {b"{": "an object", b"[": "an array", b'"': "a string", b"t": "a boolean", b"f": "a boolean",
            b"n": "null"}.get(first, "a number")


def parse_line(line: bytes, requests: RequestCache) -> tuple[str | bytes, KnownRequest, dict[str, msgspec.Raw]] | str:
    """(raw answer, request, members) of a record line, or the reason it is a bad line.

    The raw answer is a ``str``, or ``bytes`` when what ``raw`` holds is not UTF-8."""
    if len(line) > MAX_LINE_BYTES:
        return f"too long: more than {MAX_LINE_BYTES // (1024 * 1024)} MiB on one line (not read)"
    if line[:3] == _BOM:
        line = line[3:]
    # Nested deeper, a line opens and closes more than MAX_LINE_DEPTH brackets: a
    # shorter one is deep only if it is broken off (then _refused judges it).
    if len(line) > 2 * MAX_LINE_DEPTH and _too_deep(line):
        return _TOO_DEEP
    members: dict[str, msgspec.Raw] | str
    try:
        members = _MEMBERS.decode(line)
    except (msgspec.DecodeError, RecursionError) as exc:
        members = _refused(line, exc)
        if isinstance(members, str):
            return members
    raw_member = members.get("raw")
    if raw_member is None:
        return _REPEATED if _repeats(line, members) else "raw missing: the record has no raw member"
    raw: str | bytes | None
    try:
        raw = _STRING.decode(raw_member)
    except msgspec.DecodeError as exc:  # not a string, or not one msgspec holds
        raw, reason = _refused_raw(raw_member, "raw", exc)
        if reason is not None:
            return _REPEATED if _repeats(line, members) else reason
    request_member = members.get("request")
    if request_member is None:
        return _REPEATED if _repeats(line, members) else "request missing: the record has no request member"
    key = bytes(request_member)
    request = requests.known.get(key) or requests.get(key)
    if request.__class__ is str:
        return _REPEATED if _repeats(line, members) else request
    if line.count(b'"') != 2 * len(members) + b"".join(members.values()).count(b'"') and \
            _top_level_repeats(line):  # _repeats, inline: every record asks
        return _REPEATED
    return raw, request, members  # type: ignore[return-value]  # raw and request read by here


def _repeats(line: bytes, members: dict[str, msgspec.Raw]) -> bool:
    """Whether the line's object repeats a top-level key (msgspec keeps the
    last): asked before anything is said of a member, which would otherwise be
    said of the last copy only.  The quotes of a JSON text are those of its
    string tokens, so the line has two per key plus those inside the members'
    values when no key is repeated, and a repeated member brings at least its
    key's two more.  Only when the counts differ (a repeat, or a key written
    with an escaped quote) does the exact, slow look at the keys run."""
    return line.count(b'"') != 2 * len(members) + b"".join(members.values()).count(b'"') and \
        _top_level_repeats(line)


def parse_mapped(line: bytes, requests: RequestCache,
                 plan: Plan) -> tuple[str | bytes, KnownRequest, dict[Any, msgspec.Raw]] | str:
    """``parse_line`` for a line whose members are where ``plan`` says.

    The top-level members are decoded as ``parse_line`` decodes them; then each
    container on the way to a nested member (an object or an array) is decoded
    once, for every path through it.  A raw or a request missing at its path
    is a bad line naming the path and where it stopped.  A member repeated in
    any object on the way to raw or request is a bad line too (which one
    counts would be ambiguous), said as such whatever the last copy holds
    (``_repeat_on_the_way``).  With ``request_extra``
    "ignore", a request's members the schema does not know are set aside and
    the rest validated as strictly as ever.  The nested ts and --by members
    are added to the members returned, each under its path's tuple of segments
    (``Plan.outputs``)."""
    if len(line) > MAX_LINE_BYTES:
        return f"too long: more than {MAX_LINE_BYTES // (1024 * 1024)} MiB on one line (not read)"
    if line[:3] == _BOM:
        line = line[3:]
    # Nested deeper, a line opens and closes more than MAX_LINE_DEPTH brackets: a
    # shorter one is deep only if it is broken off (then _refused judges it).
    if len(line) > 2 * MAX_LINE_DEPTH and _too_deep(line):
        return _TOO_DEEP
    members: dict[str, msgspec.Raw] | str
    try:
        members = _MEMBERS.decode(line)
    except (msgspec.DecodeError, RecursionError) as exc:
        members = _refused(line, exc)
        if isinstance(members, str):
            return members
    holders: list[Any] = [members]
    holders += [None] * len(plan.containers)
    for number, parent, segment, index in plan.containers:
        holder = holders[parent]
        if holder is None:
            continue
        if holder.__class__ is dict:
            child = holder.get(segment)
        else:
            child = holder[index] if 0 <= index < len(holder) else None
        if child is not None:
            holders[number] = _container(child)
    raw_member = _member(holders, plan.raw_at)
    request_member = _member(holders, plan.request_at)
    # A repeat on the way is said before anything else is: what msgspec kept is the last copy only.
    if raw_member is None:
        return _repeat_on_the_way(line, holders, plan, raw_member, request_member) or _missing(members, plan, "raw")
    raw: str | bytes | None
    try:
        raw = _STRING.decode(raw_member)
    except msgspec.DecodeError as exc:  # not a string, or not one msgspec holds
        raw, reason = _refused_raw(raw_member, plan.where("raw"), exc)
        if reason is not None:
            return _repeat_on_the_way(line, holders, plan, raw_member, request_member) or reason
    if request_member is None:
        return _repeat_on_the_way(line, holders, plan, raw_member, request_member) or \
            _missing(members, plan, "request")
    key = bytes(request_member)
    request = requests.known.get(key)
    if request is None:
        request = without_extras(key, requests) if plan.ignore_extra else requests.get(key)
    if request.__class__ is str:
        return _repeat_on_the_way(line, holders, plan, raw_member, request_member) or \
            (request if plan.request == ("request",) else _request_at(request, plan))
    repeated = _repeat_on_the_way(line, holders, plan, raw_member, request_member)
    if repeated is not None:
        return repeated
    for name, parent, segment, index in plan.outputs:
        found = _member(holders, (parent, segment, index))
        if found is not None:
            members[name] = found
    return raw, request, members  # type: ignore[return-value]  # raw and request read by here


def _request_at(reason: str, plan: Plan) -> str:
    """A request's reason (``RequestCache``'s, which calls it ``request``) said of the request at its path."""
    given = plan.where("request")
    head = "request unusable: request"
    if given.startswith("/") or not reason.startswith(head):
        return f"{reason} (the request at {given})"
    return f"request unusable: {given}{reason[len(head):]}"


def _member(holders: list[Any], step: tuple[int, str, int]) -> msgspec.Raw | None:
    """The member a step leads to among a line's decoded containers (None: not there)."""
    holder = holders[step[0]]
    if holder is None:
        return None
    if holder.__class__ is dict:
        return holder.get(step[1])
    index = step[2]
    return holder[index] if 0 <= index < len(holder) else None


def _container(member: msgspec.Raw) -> dict[str, msgspec.Raw] | list[msgspec.Raw] | None:
    """A value on the way to a nested member, decoded one level: an object's
    members or an array's elements, each as the bytes it was written as; None
    for anything else.  Python's json reads one msgspec refuses (a lone
    surrogate escape, bytes that are not UTF-8 in a key), as a line's."""
    try:
        return _CONTAINER.decode(member)
    except msgspec.ValidationError:
        return None
    except (msgspec.DecodeError, RecursionError):
        data = bytes(member)
        if data[:1] == b"[":
            return _elements_slowly(data)
        slow = _members_slowly(data, repeats=True)
        return slow if slow.__class__ is dict else None


def _elements_slowly(data: bytes) -> list[msgspec.Raw] | None:
    """``_members_slowly`` for an array: its elements as the bytes each was written as."""
    text = data.decode("utf-8", "surrogateescape")
    elements: list[msgspec.Raw] = []
    try:
        at = _blanks(text, 1)
        while text[at:at + 1] != "]" or elements:
            _, end = _PYTHON.scan_once(text, at)  # type: ignore[attr-defined]  # set by JSONDecoder(), not in typeshed
            elements.append(msgspec.Raw(text[at:end].encode("utf-8", "surrogateescape")))
            at = _blanks(text, end)
            if text[at:at + 1] == "]":
                break
            if text[at:at + 1] != ",":
                return None
            at = _blanks(text, at + 1)
    except (ValueError, StopIteration, RecursionError):
        return None
    return elements


def member_at(members: Mapping[str, Any], path: tuple[str, ...]) -> msgspec.Raw | None:
    """The member at ``path`` among a line's top-level members, found one
    container at a time (for a record decoded whole; the counting walks a
    ``Plan``'s tree instead)."""
    found = members.get(path[0]) if len(path) == 1 else _walk(members, path)
    return found if found.__class__ is msgspec.Raw else None


def _walk(members: Mapping[str, Any], path: tuple[str, ...]) -> msgspec.Raw | tuple[int, str]:
    """The member at ``path``, or (how many segments were found, why the next one was not)."""
    holder: Any = members
    for depth, segment in enumerate(path):
        if holder.__class__ is dict:
            child = holder.get(segment)
            if child is None:
                return depth, f"has no member {visible(segment)!r}"
        else:
            index = list_index(segment)
            if index < 0:
                return depth, f"is an array, and {visible(segment)!r} is not an index"
            if index >= len(holder):
                return depth, f"is an array of {len(holder):,} element(s), none at {index}"
            child = holder[index]
        if depth == len(path) - 1:
            return child  # type: ignore[no-any-return]  # a decoded JSON value
        holder = _container(child)
        if holder is None:
            return depth + 1, f"is {_kind_of(bytes(child))}, not an object or an array"
    raise AssertionError("a path has at least one segment")  # pragma: no cover


def _missing(members: Mapping[str, Any], plan: Plan, name: str) -> str:
    """Why the member ``name`` (raw or request) is not at its path: where the walk stopped."""
    path = getattr(plan, name)
    if path == (name,):  # where it always was
        return f"{name} missing: the record has no {name} member"
    found = _walk(members, path)
    depth, why = found if found.__class__ is tuple else (0, "has it")
    return f"{name} missing: nothing at {plan.where(name)} ({plan.where(name, depth) if depth else 'the record'} {why})"


def _repeat_on_the_way(line: bytes, holders: list[Any], plan: Plan, raw_member: msgspec.Raw | None,
                       request_member: msgspec.Raw | None) -> str | None:
    """The reason of a key repeated in an object on the way to raw or request,
    or None.  The quotes of the line are those of the keys of these objects,
    two each, and of every value beside the way, and of raw and request (those
    found: a member missing only makes the line's quotes more), unless a key
    repeats (or is written with an escaped quote); only then are the keys of
    each object looked at, exactly."""
    keys = 0
    parts = [member for member in (raw_member, request_member) if member is not None]
    for number, skip in plan.checked:
        holder = holders[number]
        if holder.__class__ is dict:
            keys += len(holder)
            parts += [value for name, value in holder.items() if name not in skip]
        elif holder is not None:
            parts += [value for at, value in enumerate(holder) if at not in skip]
    if line.count(b'"') == 2 * keys + b"".join(parts).count(b'"'):
        return None
    return _repeated_on_the_way(line, holders, plan)


def _repeated_on_the_way(line: bytes, holders: list[Any], plan: Plan) -> str | None:
    """The exact look for a key repeated in an object on the way to raw or
    request: the reason of the first (outermost) one, None when none is (a key
    written with an escaped quote made the quotes differ)."""
    if _top_level_repeats(line):
        return _REPEATED
    places = {number: (parent, segment, index) for number, parent, segment, index in plan.containers}
    for number, _ in plan.checked:
        if number and holders[number].__class__ is dict:
            member = _member(holders, places[number])
            if member is not None and _top_level_repeats(bytes(member)):
                depth, at = 0, number
                while at:
                    depth, at = depth + 1, places[at][0]
                name = "raw" if plan.raw[:depth] == _path_of(places, number) else "request"
                return (f"duplicate key: the record repeats a member at {plan.where(name, depth)} "
                        "(which one counts is ambiguous)")
    return None


def _path_of(places: dict[int, tuple[int, str, int]], number: int) -> tuple[str, ...]:
    segments: list[str] = []
    while number:
        parent, segment, _ = places[number]
        segments.append(segment)
        number = parent
    return tuple(reversed(segments))


def without_extras(data: bytes, requests: RequestCache) -> KnownRequest | str:
    """The request of ``data`` with the members the schema does not know set
    aside (``--request-extra ignore``): its own members, as the bytes each was
    written as, are validated (and cached) as a request of those members alone,
    as strictly as any; a request that is not an object, or repeats a member,
    is validated as it stands (and refused so)."""
    try:
        members = _MEMBERS.decode(data)
    except (msgspec.DecodeError, RecursionError):
        return requests.get(data)
    if all(name in REQUEST_MEMBERS for name in members):
        return requests.get(data)
    if data.count(b'"') != 2 * len(members) + b"".join(members.values()).count(b'"') and _top_level_repeats(data):
        return requests.get(data)
    own = b"{" + b",".join(b'"%s":%s' % (name.encode(), bytes(value))
                           for name, value in members.items() if name in REQUEST_MEMBERS) + b"}"
    return requests.get(own)


def request_extras(data: bytes) -> dict[str, Any]:
    """The members of a request the schema does not know, as metadata: ``request.NAME``, decoded."""
    try:
        members = _MEMBERS.decode(data)
    except (msgspec.DecodeError, RecursionError):
        slow = _members_slowly(data, repeats=True)
        if slow.__class__ is not dict:
            return {}
        members = slow
    return {f"request.{name}": meta_value(value) for name, value in members.items() if name not in REQUEST_MEMBERS}


def _too_deep(line: bytes) -> bool:
    """Whether a line's brackets outside its strings nest deeper than ``MAX_LINE_DEPTH``
    (a byte is a character: brackets and quotes are ASCII, and no byte of a UTF-8
    sequence is).  Counted first: most lines hold far fewer brackets."""
    return (line.count(b"[") + line.count(b"{") > MAX_LINE_DEPTH
            and max_depth(line.decode("latin-1"), MAX_LINE_DEPTH)[1] is not None)


def _refused(line: bytes, exc: BaseException) -> dict[str, msgspec.Raw] | str:
    """Why msgspec refused a line (the bad line's reason), or its members read
    by Python's json when that reads it (``_members_slowly``)."""
    if isinstance(exc, msgspec.ValidationError):
        return f"not an object: the line is {_kind_of(line)}, not a JSON object"
    if isinstance(exc, RecursionError) or _too_deep(line):  # broken off deep inside: as deep on every Python
        return _TOO_DEEP
    if not line.strip():
        return "empty line"
    slow = _members_slowly(line)
    if slow is None:
        return f"not JSON: {shorten(str(exc), 120)}"
    return slow


def _refused_raw(member: msgspec.Raw, where: str, exc: msgspec.DecodeError) -> tuple[str | bytes | None, str | None]:
    """(the answer, None) of a raw member msgspec's string decoder refused, or
    (None, why the line is a bad line), ``where`` naming the member: an object
    or an array is an answer logged as JSON (``_logged_as_json``), any other
    value not an answer; a string msgspec cannot hold (not UTF-8, a lone
    surrogate escape) is the answer's problem, read by Python's json."""
    if isinstance(exc, msgspec.ValidationError):
        raw = logged_as_json(member)
        if raw is None:
            return None, f"raw not a string: {where} is {_kind_of(bytes(member))}"
        return raw, None
    try:
        return _loose_string(bytes(member)), None
    except (ValueError, RecursionError):  # pragma: no cover - both JSON readers took the line
        return None, f"not JSON: {where}: {shorten(str(exc), 120)}"


def logged_as_json(member: msgspec.Raw) -> str | bytes | None:
    """An answer logged as JSON, an object or an array: its exact bytes as they
    stand in the line, as text (bytes when they are not UTF-8); None for
    anything else (a number, a boolean, null: not an answer)."""
    data = bytes(member)
    if data[:1] not in (b"{", b"["):
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# Python's json, for the lines msgspec refuses: NaN and Infinity refused as msgspec does.
_PYTHON = json.JSONDecoder(parse_constant=_refuse_constant)
_BLANKS = re.compile(r"[ \t\n\r]*")


def _members_slowly(line: bytes, repeats: bool = False) -> dict[str, msgspec.Raw] | str | None:
    """The members of a line msgspec refused, as the bytes each was written as,
    read by Python's json, which takes a lone surrogate escape and, decoded with
    ``surrogateescape``, bytes that are not UTF-8; a duplicate key is the
    reason it is a bad line (with ``repeats``, the last one is kept, as msgspec
    keeps it: a nested object, whose repeats are looked for where they
    matter).  None when Python's json refuses the line too (the caller says
    what msgspec said).  Only a line with an escape or with bytes that are not
    UTF-8 is looked at: nothing else can decode here."""
    if b"\\u" not in line and line.isascii():
        return None
    text = line.decode("utf-8", "surrogateescape")
    members: dict[str, msgspec.Raw] = {}
    try:
        at = _blanks(text, 0)
        if text[at:at + 1] != "{":
            return None
        at = _blanks(text, at + 1)
        while text[at:at + 1] != "}" or members:
            if text[at:at + 1] != '"':
                return None
            name, at = scanstring(text, at + 1)
            at = _blanks(text, at)
            if text[at:at + 1] != ":":
                return None
            start = _blanks(text, at + 1)
            _, end = _PYTHON.scan_once(text, start)  # type: ignore[attr-defined]  # set by JSONDecoder(), not in typeshed
            if name in members and not repeats:
                return _REPEATED
            members[name] = msgspec.Raw(text[start:end].encode("utf-8", "surrogateescape"))
            at = _blanks(text, end)
            if text[at:at + 1] == "}":
                break
            if text[at:at + 1] != ",":
                return None
            at = _blanks(text, at + 1)
    except (ValueError, StopIteration, RecursionError):
        return None
    return members if not text[at + 1:].strip(" \t\n\r") else None


def _blanks(text: str, at: int) -> int:
    """Where the JSON whitespace from ``at`` ends."""
    return _BLANKS.match(text, at).end()  # type: ignore[union-attr]  # the pattern matches the empty string


def _loose_string(member: bytes) -> str | bytes:
    """A JSON string msgspec refuses to decode: the text, lone surrogates and all,
    or, when its bytes are not UTF-8, the bytes it stands for (each byte that is
    not UTF-8 as itself, every escape as its character's UTF-8)."""
    value = json.loads(member.decode("utf-8", "surrogateescape"))
    try:
        member.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return value  # type: ignore[no-any-return]  # a JSON string: a str
    try:
        return value.encode("utf-8", "surrogateescape")  # type: ignore[no-any-return]  # a JSON string: a str
    except UnicodeEncodeError:  # an escaped lone surrogate too: written as Python would
        return b"".join(ch.encode("utf-8", "surrogateescape" if "\udc80" <= ch <= "\udcff" else "surrogatepass")
                        for ch in value)


def _top_level_repeats(line: bytes) -> bool:
    """The exact, slow answer: the keys of the top-level object, as written."""
    outermost: list[list[tuple[str, Any]]] = []

    def pairs(items: list[tuple[str, Any]]) -> None:
        outermost[:] = [items]  # objects close inside out: the last one is the line's

    try:  # (bytes that are not UTF-8 inside a value: msgspec kept them as they are)
        json.loads(line.decode("utf-8", "surrogateescape"), object_pairs_hook=pairs)
    except (ValueError, RecursionError):  # pragma: no cover - msgspec decoded it
        return False
    keys = [key for key, _ in outermost[0]] if outermost else []
    return len(keys) != len(set(keys))


def file_member(file: str) -> bytes:
    """A log's name as ``--by file`` counts it: the JSON text of a member holding
    it (ASCII: a name that is not UTF-8 has its bytes escaped as surrogates)."""
    return json.dumps(file).encode("ascii")


def meta_value(member: msgspec.Raw | bytes | None) -> Any:
    """A metadata member as a Python value (None when missing)."""
    if member is None:
        return None
    try:
        return _ANY.decode(member)
    except (msgspec.DecodeError, RecursionError):
        text = surrogate_text(bytes(member))
        # out-of-range numbers and bytes that are not UTF-8 stay JSON text
        return text if text is not None else bytes(member).decode("utf-8", "replace")


def surrogate_text(member: bytes) -> str | None:
    """The text of a JSON string that msgspec cannot decode because it escapes a
    lone surrogate (the surrogate and all); None for any other member."""
    if member[:1] != b'"' or not member.isascii() and not _is_utf8(member):
        return None
    try:
        value = json.loads(member)
    except (ValueError, RecursionError):  # pragma: no cover - the line was read as JSON
        return None
    return value if isinstance(value, str) else None


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def record_meta(members: Mapping[Any, Any], plan: Plan) -> tuple[dict[str, Any], Any]:
    """A record's metadata and id, decoded, from its line's members (as
    ``parse_line``/``parse_mapped`` hand them out) read as ``plan`` says: the
    one reading of them, for a record reread (``decode_record``) and for a
    row of ``--records`` (``triage.table``).

    Its metadata: every top-level member but those holding raw and request
    (by the first segment of their paths), with ``RAW_LOGGED_AS`` when the
    answer was logged as JSON and the request's extras (``request.NAME``,
    with ``--request-extra ignore``); its id, the member at the id path
    (None: none)."""
    holding = (plan.raw[0], plan.request[0])
    meta = {key: meta_value(value) for key, value in members.items() if key.__class__ is str and key not in holding}
    raw_member = member_at(members, plan.raw)
    if raw_member is not None and logged_as_json(raw_member) is not None:
        meta[RAW_LOGGED_AS] = "json"
    if plan.ignore_extra:
        request_member = member_at(members, plan.request)
        if request_member is not None:
            meta.update(request_extras(bytes(request_member)))
    ident = member_at(members, plan.id)
    return meta, meta_value(ident) if ident is not None else None
