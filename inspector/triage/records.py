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
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from json.decoder import scanstring
from typing import Any

import msgspec

from ..contract.evidence import Recall, recall_for
from ..contract.models import Registry, Request
from ..contract.text import shorten
from ..suites.load import LoadError, parse_request

__all__ = [
    "BAD_KINDS",
    "CACHE_BYTES",
    "MAX_LINE_BYTES",
    "SCOPE_CHARS",
    "SHAPES",
    "BadLine",
    "KnownRequest",
    "LogRecord",
    "RequestCache",
    "decode_record",
    "meta_value",
    "parse_line",
    "scope_key",
    "surrogate_text",
]

# A line longer than this is a bad line, and is skipped without being held: an
# answer is at most 24,580 bytes before it is TOO_LARGE (a few times that once
# escaped into a JSON string), and a request file at most 1 MiB.
MAX_LINE_BYTES = 4 * 1024 * 1024

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
# A scope member (service, environment, revision) longer than this many
# characters is grouped and named by its head, its length and a digest of the
# whole: distinct values stay distinct groups, and no count key holds megabytes.
SCOPE_CHARS = 256

_MEMBERS = msgspec.json.Decoder(dict[str, msgspec.Raw])
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


def scope_key(request: Request) -> tuple[str, str, str]:
    """The request's (service, environment, revision) as a triage groups by it:
    each member as it is, or past ``SCOPE_CHARS`` characters its head, an
    ellipsis, its length and the start of its SHA-256 (longer than any member
    kept as it is, so the two never meet)."""
    return (_scope_part(request.service), _scope_part(request.environment), _scope_part(request.revision))


def _scope_part(text: str) -> str:
    if len(text) <= SCOPE_CHARS:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"{text[:SCOPE_CHARS]}…({len(text):,} characters, sha256 {digest})"


# Estimated bytes of the objects around what a cache entry holds: the dict's
# entry, the KnownRequest, its Request, scope tuple, assessed dict and recall.
_ENTRY_BYTES = 800
_POINTER = 8


def _request_bytes(data: bytes, found: KnownRequest | str) -> int:
    """What keeping ``found`` under the key ``data`` costs, estimated from above."""
    size = sys.getsizeof(data) + _ENTRY_BYTES
    if found.__class__ is str:
        return size + sys.getsizeof(found)
    request = found.request  # type: ignore[union-attr]
    strings = (request.service, request.environment, request.revision, *request.fields, *request.supplied,
               *found.scope)  # type: ignore[union-attr]
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
            where = f"request.{exc.place}" if exc.place and not exc.place[0].isdigit() else \
                f"request at {exc.place}" if exc.place else "request"
            return f"request unusable: {where}: {exc.problem}"
        return KnownRequest(request, scope_key(request),
                            recall_for(request, self.registry) if self.registry is not None else None)


@dataclass(frozen=True, slots=True)
class LogRecord:
    """A record of a log, as reread for a drill-down or an export."""

    file: str
    line: int  # 1-based
    offset: int  # of the line's first byte (in the decompressed stream for .gz)
    raw: str | bytes  # bytes: an answer that is not UTF-8
    request: Request
    meta: Mapping[str, Any]  # every other member, decoded


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
    try:
        members = _MEMBERS.decode(line)
    except msgspec.ValidationError:
        return f"not an object: the line is {_kind_of(line)}, not a JSON object"
    except msgspec.DecodeError as exc:
        if not line.strip():
            return "empty line"
        slow = _members_slowly(line)
        if slow is None:
            return f"not JSON: {shorten(str(exc), 120)}"
        if slow.__class__ is str:
            return slow  # type: ignore[return-value]
        members = slow  # type: ignore[assignment]
    except RecursionError:
        return "not JSON: nested too deeply"
    raw_member = members.get("raw")
    if raw_member is None:
        return "raw missing: the record has no raw member"
    raw: str | bytes
    try:
        raw = _STRING.decode(raw_member)
    except msgspec.ValidationError:
        return f"raw not a string: raw is {_kind_of(bytes(raw_member))}"
    except msgspec.DecodeError as exc:  # not UTF-8, or a lone surrogate escape: the answer's problem
        try:
            raw = _loose_string(bytes(raw_member))
        except (ValueError, RecursionError):  # pragma: no cover - both JSON readers took the line
            return f"not JSON: raw: {shorten(str(exc), 120)}"
    request_member = members.get("request")
    if request_member is None:
        return "request missing: the record has no request member"
    key = bytes(request_member)
    request = requests.known.get(key) or requests.get(key)
    if request.__class__ is str:
        return request  # type: ignore[return-value]
    # Whether the line's object repeats a top-level key (msgspec keeps the last).
    # The quotes of a JSON text are those of its string tokens, so the line has
    # two per key plus those inside the members' values when no key is repeated,
    # and a repeated member brings at least its key's two more.  Only when the
    # counts differ (a repeat, or a key written with an escaped quote) does the
    # exact, slow look at the keys run.
    if line.count(b'"') != 2 * len(members) + b"".join(members.values()).count(b'"') and \
            _top_level_repeats(line):
        return _REPEATED
    return raw, request, members  # type: ignore[return-value]


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# Python's json, for the lines msgspec refuses: NaN and Infinity refused as msgspec does.
_PYTHON = json.JSONDecoder(parse_constant=_refuse_constant)
_BLANKS = re.compile(r"[ \t\n\r]*")


def _members_slowly(line: bytes) -> dict[str, msgspec.Raw] | str | None:
    """The members of a line msgspec refused, as the bytes each was written as,
    read by Python's json, which takes a lone surrogate escape and, decoded with
    ``surrogateescape``, bytes that are not UTF-8; a duplicate key is the
    reason it is a bad line.  None when Python's json refuses the line too (the
    caller says what msgspec said).  Only a line with an escape or with bytes
    that are not UTF-8 is looked at: nothing else can decode here."""
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
            _, end = _PYTHON.scan_once(text, start)
            if name in members:
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
    return _BLANKS.match(text, at).end()  # type: ignore[union-attr]


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
        return value  # type: ignore[no-any-return]
    try:
        return value.encode("utf-8", "surrogateescape")  # type: ignore[no-any-return]
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


def decode_record(line: bytes, file: str, number: int, offset: int,
                  requests: RequestCache | None = None) -> LogRecord | BadLine:
    """The record on one line, metadata decoded, or the bad line and its reason."""
    parsed = parse_line(line, requests if requests is not None else RequestCache())
    if isinstance(parsed, str):
        return BadLine(file, number, offset, parsed)
    raw, known, members = parsed
    meta = {key: meta_value(value) for key, value in members.items() if key not in ("raw", "request")}
    return LogRecord(file, number, offset, raw, known.request, meta)
