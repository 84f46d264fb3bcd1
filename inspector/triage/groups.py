"""The groups of a triage, and their names as typed on the command line.

A group is a set of records (or the bad lines) named so that it can be copied
from the summary into ``--export GROUP``:

======================================  =============================================
``ACCEPT``, ``VALUE_MISMATCH``, ...     by verdict status (the check that failed)
``reason:INVALID_JSON/SYNTAX``          by sub-reason (INVALID_JSON, NO_CITATION)
``claim:VALUE_MISMATCH/FIELD/DOC``      by the failing claim's field and cited source
``scope:SERVICE/ENVIRONMENT/REVISION``  by the request's scope
``KEY=VALUE``                           by a metadata member (``--by KEY``)
``other:KEY``                           the values of KEY past the bound (``BY_VALUES``)
``blame:retrieval``                     by whose failure a rejection is
``category:wrong_scope``                by abstention category
``rung:citation_only``                  passing one of the article's rungs
``false_accept:citation_only``          citation-only accepts, the contract rejects
``bad``                                 the bad lines
======================================  =============================================

Beside them, groups the overview opens but the summary never lists: a pivot's
pair (``PIVOT``) and an item's trials (``ITEM``: one item's records, or a set of
items', as ``Tally.items`` keys them; ``ItemDetail``).

Names are exact: untrusted parts (fields, sources, scopes, metadata) have ``\\``,
``/``, ``=`` and ``:`` escaped with a backslash (``/`` separates nothing in a
``PATH=VALUE`` or ``other:PATH`` name, and is left as it is there:
``file=logs/a.jsonl``, ``/metadata/prompt.version=p1``) and invisible characters shown as
``\\uXXXX``, so that two groups never share a name and a name never hides
anything from the terminal it is printed on; a part that is not in Unicode NFC
has all its characters past ASCII shown so (``region=re\\u0301gion`` beside
``region=région``), so that two names never look the same either.  A metadata value that is a string
is shown bare unless it would read as another JSON value (``"3"``, ``"null"``),
then as its JSON text; a missing member and ``null`` are the group ``KEY=null``.
A value longer than ``records.GROUP_CHARS`` characters (as shown) is grouped
and named by its head, its length and a digest of the whole, as a long scope
member is (``bounded_member``).  Past ``tally.BY_VALUES`` distinct values of a key, the records of the values
not kept are the group ``other:KEY`` (their member counted as ``OTHER``): ``:``
is escaped in a key, so no ``KEY=VALUE`` name is ever one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, NamedTuple, TypeAlias

import msgspec

from ..contract.text import visible_name
from ..reports.case import RUNGS, Rung
from .mapping import FILE_KEY
from .records import GROUP_CHARS, file_member, group_text, surrogate_text

__all__ = [
    "BAD",
    "CHECK",
    "FALSE_ACCEPT",
    "KINDS",
    "OTHER",
    "BlameDetail",
    "ByDetail",
    "CategoryDetail",
    "Cell",
    "CheckDetail",
    "ClaimDetail",
    "GroupDetail",
    "GroupKind",
    "GroupMatcher",
    "ItemDetail",
    "Membership",
    "PivotDetail",
    "ReasonDetail",
    "RungDetail",
    "ScopeDetail",
    "VerdictKey",
    "bounded_member",
    "Outcome",
    "blame_name",
    "category_name",
    "cell_names",
    "claim_name",
    "claim_parts",
    "dimension_namer",
    "membership",
    "meta_name",
    "meta_text",
    "other_name",
    "pivot_name",
    "reason_name",
    "rung_name",
    "scope_name",
]



class GroupKind(StrEnum):
    """What a group is made of: the JSON's ``kind`` (each member is its string,
    so the JSON is the same), in the order the summary lists the groups; a
    pivot's pair (two dimensions' values crossed: ``triage.pivot``) last, not a
    group of the summary but one the overview opens and draws as any; an item's trials (one item's records,
    or a set of items': ``ItemDetail``) after it, never in a summary either."""

    CHECK = "check"
    REASON = "reason"
    CLAIM = "claim"
    SCOPE = "scope"
    BY = "by"
    BLAME = "blame"
    CATEGORY = "category"
    RUNG = "rung"
    FALSE_ACCEPT = "false_accept"
    BAD = "bad"
    PIVOT = "pivot"
    ITEM = "item"

    @property
    def population(self) -> bool:
        """Whether its groups are a population (a dimension's value: a scope, a --by member's): their
        rates are of their own records, the others' (a verdict, a reason, a claim, ...) of all records."""
        return self in _POPULATION

    @property
    def lines(self) -> bool:
        """Whether its group is of lines, not records (the bad lines: never verified, counted of the lines)."""
        return self is GroupKind.BAD


_POPULATION = frozenset((GroupKind.SCOPE, GroupKind.BY))
# The name of the group of the bad lines (its kind's too).
BAD = "bad"
FALSE_ACCEPT = "false_accept:citation_only"
# Every kind of group, in the order the summary lists them (the pivot's pairs last).
KINDS: tuple[GroupKind, ...] = tuple(GroupKind)


class VerdictKey(NamedTuple):
    """What a count cell keeps of a record's verdict: all its verdict-level groups are read from it
    (``verdict_names``).  Built where a verdict's shape is first seen for a request, not a record."""

    status: str
    reason: str | None
    strict_json: bool
    citation_only: bool
    blame: str | None
    category: str | None  # the abstention category's id


class Cell(NamedTuple):
    """A count cell (``Tally.cells``'s key): a record's verdict key, its request's scope (service,
    environment, revision) and the JSON bytes (or None, or ``OTHER``) of each --by member, in
    ``Tally.by_keys``' order.  Built where a count key is first seen in a chunk (``tally._Counting._cell``),
    never a line."""

    verdict: VerdictKey
    scope: tuple[str, str, str]
    meta: tuple[bytes | None, ...]


# -- what a group's name is made of (its JSON members besides group, kind and the counts) ------------------

class _Detail(msgspec.Struct, frozen=True, omit_defaults=True):
    def to_dict(self) -> dict[str, Any]:
        """The members the group's JSON object holds, in this order."""
        found: dict[str, Any] = msgspec.to_builtins(self)
        return found


class CheckDetail(_Detail, frozen=True):
    check: str


class ReasonDetail(_Detail, frozen=True):
    reason: str  # STATUS/REASON


class ClaimDetail(_Detail, frozen=True):
    check: str
    field: str
    doc: str


class ScopeDetail(_Detail, frozen=True):
    service: str
    environment: str
    revision: str


class ByDetail(_Detail, frozen=True):
    """A --by key's value as shown (``meta_text``); ``other``: the group of its values past the bound kept
    (``other:KEY``, value None)."""

    key: str
    value: str | None
    other: bool = False


class BlameDetail(_Detail, frozen=True):
    blame: str


class CategoryDetail(_Detail, frozen=True):
    category: str


class RungDetail(_Detail, frozen=True):
    rung: str


class PivotDetail(_Detail, frozen=True):
    """A pivot's pair: the two dimensions crossed (``pivot.pivot_dimensions``) and its values' names."""

    keys: tuple[str, str]
    a: str
    b: str


class ItemDetail(_Detail, frozen=True):
    """An item's trials, or a set of items': their keys as ``Tally.items`` keys them (the item member's JSON
    text or the request's digest; with --by, that and the record's joined --by members)."""

    items: frozenset[Any]


GroupDetail: TypeAlias = (CheckDetail | ReasonDetail | ClaimDetail | ScopeDetail | ByDetail | BlameDetail
                          | CategoryDetail | RungDetail | PivotDetail | ItemDetail)

# A --by member as counted when its value is past the bound of values kept: no
# JSON text (none starts with NUL), so never a member's.
OTHER = b"\x00other"

_ANY = msgspec.json.Decoder()
_ENCODE = msgspec.json.Encoder(order="sorted").encode


def _part(text: str) -> str:
    """An untrusted part of a name: separators escaped, then made visible (a
    part not in Unicode NFC with its characters past ASCII escaped too, so that
    NFC and NFD spellings of one word are two names that look different)."""
    return visible_name(text.replace("\\", "\\\\").replace("/", "\\/").replace("=", "\\=").replace(":", "\\:"))


def _meta_part(text: str) -> str:
    """``_part`` of a --by path or value: ``/`` kept (only ``=`` and ``:`` separate there)."""
    return visible_name(text.replace("\\", "\\\\").replace("=", "\\=").replace(":", "\\:"))


def reason_name(status: str, reason: str) -> str:
    return f"reason:{status}/{reason}"


def claim_name(status: str, field: str, doc: str) -> str:
    return "claim:" + "/".join(claim_parts(status, field, doc))


def claim_parts(status: str, field: str, doc: str) -> tuple[str, str, str]:
    """A claim group's check, field and document as its name spells them (``claim:`` and the three
    joined by ``/``): what the overview shows in columns."""
    return status, _part(field), _part(doc)


def scope_name(scope: tuple[str, str, str]) -> str:
    return "scope:" + "/".join(_part(part) for part in scope)


def blame_name(blame: str) -> str:
    return f"blame:{blame}"


def category_name(category: str) -> str:
    return f"category:{category}"


def rung_name(rung: Rung) -> str:
    return f"rung:{rung.id}"


def meta_text(member: bytes | None) -> str:
    """A metadata value as shown: a plain string bare, anything else as JSON text
    (``null`` when the member is missing).

    A string escaping a lone surrogate is a string (the surrogate is then shown
    as ``\\uXXXX``, as every invisible character is); what msgspec cannot
    decode otherwise (a number out of range, bytes that are not UTF-8) is its
    JSON text, bytes that are not UTF-8 as U+FFFD."""
    if member is None:
        return "null"
    text = None
    try:
        value = _ANY.decode(member)
    except (msgspec.DecodeError, RecursionError):
        text = value = surrogate_text(member)
        if text is None:
            return member.decode("utf-8", "replace")
    if isinstance(value, str):
        if not _reads_as_json(value):
            return value
        if text is not None:  # (msgspec encodes no lone surrogate)
            return json.dumps(value, ensure_ascii=False)
    return _ENCODE(value).decode("utf-8")


def bounded_member(member: bytes) -> bytes:
    """A --by member as its group holds it: as it is, or when the value shown
    (``meta_text``) is longer than ``GROUP_CHARS`` characters, the JSON string
    of its bounded text (``records.group_text``: its head, length and digest),
    shown as that text.  What a count key holds is then at most a few hundred
    bytes, however long the logged value."""
    if len(member) <= GROUP_CHARS:  # no value shown is longer than its JSON text
        return member
    text = meta_text(member)
    if len(text) <= GROUP_CHARS:
        return member
    return json.dumps(group_text(text)).encode("ascii")


def _reads_as_json(text: str) -> bool:
    """Whether a string shown bare could be taken for another JSON value."""
    if not text or text != text.strip() or text[0] in '"[{':
        return True
    try:
        _ANY.decode(text)
    except (msgspec.DecodeError, RecursionError, UnicodeEncodeError):  # (a lone surrogate reads as nothing)
        return False
    return True


def meta_name(key: str, member: bytes | None) -> str:
    if member == OTHER:
        return other_name(key)
    return f"{_meta_part(key)}={_meta_part(meta_text(member))}"


def other_name(key: str) -> str:
    """The group of the records whose ``key`` has a value past the bound of values kept."""
    return f"other:{_meta_part(key)}"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a rung reads of a verdict, for counts that kept only these flags."""

    strict_json: bool
    citation_only: bool
    ok: bool


def verdict_names(status: str, reason: str | None, strict_json: bool, citation_only: bool, blame: str | None,
                  category: str | None) -> list[tuple[GroupKind, str]]:
    """(kind, name) of the verdict-level groups a record with this verdict (a ``VerdictKey``'s fields) is in."""
    names = [(GroupKind.CHECK, status)]
    if reason is not None:
        names.append((GroupKind.REASON, reason_name(status, reason)))
    if blame is not None:
        names.append((GroupKind.BLAME, blame_name(blame)))
    if category is not None:
        names.append((GroupKind.CATEGORY, category_name(category)))
    outcome = Outcome(strict_json, citation_only, status == "ACCEPT")
    names += [(GroupKind.RUNG, rung_name(rung)) for rung in RUNGS if rung.passes(outcome)]
    if citation_only and status != "ACCEPT":
        names.append((GroupKind.FALSE_ACCEPT, FALSE_ACCEPT))
    return names


class GroupMatcher:
    """Whether a record is in the group of a given name (for an export).
    ``by``: the --by paths as given; ``keys``: what each is looked up by among
    a line's members (``mapping.Plan.by_keys``; default: the paths themselves,
    top-level members)."""

    def __init__(self, name: str, by: Iterable[str], keys: Iterable[Any] | None = None) -> None:
        self.name = name
        self.by = tuple(by)
        self.keys = tuple(keys) if keys is not None else self.by

    def names(self, verdict: Any, known: Any, members: Mapping[Any, Any], evidence: Any,
              file: str | None = None) -> set[str]:
        """Every group name of one record (``file``: its log, for ``--by file``)."""
        category = evidence.category if evidence is not None else None
        found = {name for _, name in verdict_names(
            verdict.status, verdict.reason, verdict.strict_json, verdict.citation_only,
            evidence.blame if evidence is not None else None, category.id if category is not None else None)}
        if verdict.claim is not None and not verdict.ok:
            claim = verdict.claims[verdict.claim]
            found.add(claim_name(verdict.status, claim.field, claim.doc))
        found.add(scope_name(known.scope))
        for key, lookup in zip(self.by, self.keys):
            member = members.get(lookup) if lookup != FILE_KEY else file_member(file or "")
            found.add(meta_name(key, bounded_member(bytes(member)) if member is not None else None))
        return found

    def matches(self, verdict: Any, known: Any, members: Mapping[Any, Any], evidence: Any,
                file: str | None = None) -> bool:
        return self.name in self.names(verdict, known, members, evidence, file)


# -- which groups a count cell is in ---------------------------------------------------------
# A count cell (``Tally.cells``'s key) is a ``Cell``; a failing claim (``Tally.claims``'s) is
# (status, field, cited doc).

# The dimensions a pivot crosses besides the --by paths: the request's scope and the verdict's status.
SCOPE, CHECK = "scope", "check"


def dimension_namer(key: str, by: Sequence[str]) -> Callable[[Any], str]:
    """A count cell's value of one dimension, named as its group is: ``scope``
    (``scope:payments/prod/v3``), ``check`` (the verdict status: ``ACCEPT``,
    ``VALUE_MISMATCH``) or a --by path (``model=gpt-x``, ``other:model``)."""
    if key == SCOPE:
        return lambda cell: scope_name(cell.scope)
    if key == CHECK:
        return lambda cell: cell.verdict.status
    where = list(by).index(key)
    return lambda cell: meta_name(key, cell.meta[where])


def pivot_name(a: str, b: str) -> str:
    """A pivot cell's name, as the overview titles its records: its two groups' names."""
    return f"{a} × {b}"


def cell_names(cell: Cell, by: Sequence[str]) -> list[str]:
    """Every group a record of this count cell is in (but its failing claim's, which the cell does not hold)."""
    return [*(name for _, name in verdict_names(*cell.verdict)), scope_name(cell.scope),
            *(meta_name(key, value) for key, value in zip(by, cell.meta))]


class Membership(NamedTuple):
    """Which records are a group's: the column that decides (``claim``: a record's failing claim, as
    ``Tally.claims`` keys it; ``cell``: its count cell, a ``Cell``; ``item``: its item's key, as ``Tally.items``
    keys it) and a test of one value of it."""

    column: Literal["cell", "claim", "item"]
    holds: Callable[[Any], bool]


def membership(kind: GroupKind, name: str, detail: GroupDetail | None, by: Sequence[str]) -> Membership:
    """Which records are in the group of this kind, name and detail (``summary.Group.membership`` asks):
    each value of its column named as the summary names its groups.  A pivot's pair holds the cells whose
    two dimensions' values are its own; an item group (``ItemDetail``) the records of its items.  The bad lines
    are no records: they have none."""
    if kind is GroupKind.BAD:
        raise ValueError("the bad lines are lines, not records: no count cell holds them")
    if kind is GroupKind.CLAIM:
        return Membership("claim", lambda claim: claim_name(*claim) == name)
    if isinstance(detail, ItemDetail):
        return Membership("item", detail.items.__contains__)
    if kind is GroupKind.SCOPE:
        return Membership("cell", lambda cell: scope_name(cell.scope) == name)
    if isinstance(detail, ByDetail):
        key = detail.key
        at = list(by).index(key)
        return Membership("cell", lambda cell: meta_name(key, cell.meta[at]) == name)
    if isinstance(detail, PivotDetail):
        first, second = (dimension_namer(key, by) for key in detail.keys)
        a, b = detail.a, detail.b
        return Membership("cell", lambda cell: first(cell) == a and second(cell) == b)
    # check, sub-reason, blame, category, rungs, false accepts: the verdict key decides
    return Membership("cell", lambda cell: any(found == name for _, found in verdict_names(*cell.verdict)))
