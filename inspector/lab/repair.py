"""Repair: the smallest set of edits that makes a rejected answer ACCEPT.

Computed, not searched: the contract says exactly what an accepted answer is, so
the repair is worked out from the request and the registry.

1. Strict decoding first, on the text itself and in place: drop the trailing
   data, an occurrence of a duplicate key (the second, or the first when that
   makes the whole repair smaller), a trailing comma; insert a missing comma or
   colon (positions from the decode failure and ``jsonscan``).
   Text that is not JSON at all (other syntax errors, not UTF-8, too deep, too
   large, not the claims object) cannot be repaired in place: it is rewritten as
   ``{"claims": []}`` and the claims are added.
2. Then the claims, over the parsed value: for each requested field the eligible
   sources (``evidence.recall_for``: supplied, authorized under the scope, of the
   request's service, environment and revision, holding the fact) whose text
   states the canonical line ``field=value``.  Each claim is either kept for one
   requested field (its unknown members dropped, a missing member added, a
   number or boolean written as a string, field, value, doc and quote set from
   the chosen source) or dropped (a duplicate or unrequested claim, or not a
   claim object); a requested field no claim is kept for gets a new claim.  Which
   claim keeps which field, and from which source, is chosen for the fewest
   edits (an exact search over the assignments, claims by subsets of the at
   most eight fields an answer can cover).

When a requested field has no eligible source the answer cannot be repaired:
that rejection is retrieval's (no edit of the answer can supply a document), and
the ``Repair`` says so, naming the field.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..contract.checks import LIMITS
from ..contract.decode import MEMBERS, decode_answer
from ..contract.evidence import recall_for
from ..contract.jsonscan import Path, path_text, scan
from ..contract.models import Registry, Request, Source
from ..contract.text import line_col, utf16_len, visible
from ..contract.verdict import Verdict
from ..contract.verify import verify

__all__ = ["EMPTY_ANSWER", "Edit", "Repair", "eligible_sources", "repair"]

EMPTY_ANSWER = '{"claims": []}'
_BOM = "\ufeff"
_DECODER = json.JSONDecoder()
_WHITESPACE = " \t\n\r"

# What an edit does, in the product's words (the first column of the diff).
TRAILING = "drop trailing data"
DUPLICATE_KEY = "drop the second occurrence of a duplicate key"
DUPLICATE_KEY_FIRST = "drop the first occurrence of a duplicate key"
FIRST, SECOND = "first", "second"
TRAILING_COMMA = "drop trailing comma"
MISSING_COMMA = "insert missing comma"
MISSING_COLON = "insert missing colon"
REWRITE = "rewrite the answer"
UNKNOWN_MEMBER = "drop unknown member"
ADD_MEMBER = "add member"
AS_STRING = "write as a string"
CHANGE = "change"
DROP_CLAIM = "drop claim"
ADD_CLAIM = "add claim"


@dataclass(frozen=True, slots=True)
class Edit:
    """One edit of the answer.

    ``claim`` is the claim's index in the answer as it was (for an added claim,
    its index in the repaired answer; None for an edit of the whole text or of a
    top-level member); ``member`` the claim member or top-level key edited.
    ``old`` and ``new`` are JSON text as it stands in the answer (None for what
    is added or dropped; for trailing data and a rewrite, the answer's own
    text).  ``where`` is the line:column of a syntax repair."""

    what: str
    claim: int | None
    member: str | None
    old: str | None
    new: str | None
    where: str | None = None

    @property
    def place(self) -> str:
        if self.what == TRAILING:
            return "trailing data"
        if self.where is not None:
            return f"the answer at {self.where}"
        if self.what == REWRITE:
            return "the answer"
        path: Path = ("claims", self.claim) if self.claim is not None else ()
        if self.member is not None:
            path = (*path, self.member)
        if self.what in (DUPLICATE_KEY, DUPLICATE_KEY_FIRST):
            return f"{path_text(path)} ({FIRST if self.what == DUPLICATE_KEY_FIRST else SECOND} occurrence)"
        return path_text(path)

    def to_dict(self) -> dict[str, str | int | None]:
        """As a saved case's provenance records it."""
        record = {"what": self.what, "claim": self.claim, "member": self.member, "old": self.old, "new": self.new}
        return record if self.where is None else {**record, "where": self.where}

    def lines(self) -> tuple[str, ...]:
        """The edit as diff lines: ``- claims[0].value "5s"``, ``+ claims[0].value "5000"``."""
        out = []
        if self.old is not None:
            out.append(f"- {visible(self.place)} {visible(self.old)}")
        if self.new is not None:
            out.append(f"+ {visible(self.place)} {visible(self.new)}")
        return tuple(out)


@dataclass(frozen=True, slots=True)
class Repair:
    """The repair of one answer: the ordered edits, the repaired raw text and its
    verdict.  ``possible`` is False when no edit of the answer can make it ACCEPT;
    then ``reason`` says why and ``field`` names the requested field (for a
    rejection that is retrieval's, ``retrieval`` is True), ``edits`` is empty and
    ``raw``/``verdict`` are the answer's own."""

    possible: bool
    edits: tuple[Edit, ...]
    raw: str | bytes
    verdict: Verdict
    reason: str | None = None
    field: str | None = None
    retrieval: bool = False

    @property
    def empty(self) -> bool:
        return not self.edits

    def diff_lines(self) -> tuple[str, ...]:
        """The claims diff as plain lines, in the order the edits apply."""
        if not self.possible:
            return (f"no repair: {visible(self.reason or '')}",)
        return tuple(line for edit in self.edits for line in edit.lines())


def eligible_sources(request: Request, registry: Registry) -> dict[str, tuple[Source, ...]]:
    """For each requested field, the sources a claim of it may cite and be
    accepted: retrieval recall's supplied supporting sources (``recall_for``)
    whose text holds the canonical line and whose id and value fit a claim."""
    found: dict[str, tuple[Source, ...]] = {}
    for item in recall_for(request, registry).fields:
        sources = []
        for source_id in item.supplied:
            source = registry.by_id[source_id]
            value = source.facts[item.field]
            if f"{item.field}={value}" in source.text and _fits(item.field, value, source.id):
                sources.append(source)
        found[item.field] = tuple(sources)
    return found


def _fits(field: str, value: str, doc: str) -> bool:
    quote = f"{field}={value}"
    return all(text and utf16_len(text) <= LIMITS.MAX_MEMBER for text in (field, value, doc, quote))


def repair(raw: str | bytes, request: Request, registry: Registry, verdict: Verdict | None = None) -> Repair:
    """The smallest repair of ``raw`` (see the module docstring).  ``verdict``, when
    given, is ``raw``'s verdict (saves verifying it again)."""
    if verdict is None:
        verdict = verify(raw, request, registry)
    if verdict.ok:
        return Repair(True, (), raw, verdict)
    eligible = eligible_sources(request, registry)
    impossible = _impossible(request, registry, eligible)
    if impossible is not None:
        reason, field, retrieval = impossible
        return Repair(False, (), raw, verdict, reason, field, retrieval)
    edits, text = _attempt(verdict.text, verdict.decoded.failure, verdict.display_text, request, eligible,
                           _DUPLICATE_BRANCHES)
    repaired = verify(text, request, registry)
    if not repaired.ok:  # e.g. the added claims make it longer than the size limit
        return Repair(False, (), raw, verdict, f"the repaired answer is still rejected ({repaired.label})")
    return Repair(True, tuple(edits), text, repaired)


def _impossible(request: Request, registry: Registry,
                eligible: dict[str, tuple[Source, ...]]) -> tuple[str, str | None, bool] | None:
    """(reason, field, retrieval's) when no answer to ``request`` can be accepted."""
    fields = tuple(dict.fromkeys(request.fields))
    if len(fields) > LIMITS.MAX_CLAIMS:
        return (f"the request asks for {len(fields)} fields and an answer holds at most "
                f"{LIMITS.MAX_CLAIMS} claims", None, False)
    where = f"{request.service}/{request.environment}/{request.revision}"
    scoped = " readable under the scope" if request.scope is not None else ""
    for item in recall_for(request, registry).fields:
        if not item.supplied:
            if item.relevant:
                were = "was" if len(item.relevant) == 1 else "were"
                held = f"{', '.join(item.relevant)} would support it but {were} not supplied"
            else:
                held = f"no source of {where}{scoped} holds it"
            return (f"no eligible source for {item.field} was supplied ({held}): the rejection is "
                    "retrieval's, no edit of the answer can fix it", item.field, True)
    for item in recall_for(request, registry).fields:
        if not eligible[item.field]:
            lines = ", ".join(f"{source} lacks {item.field}={registry.by_id[source].facts[item.field]}"
                              for source in item.supplied)
            return (f"no supplied source for {item.field} states its canonical line verbatim ({lines}): "
                    "no quote can support a claim of it", item.field, False)
    return None


# -- stage 1: the text --------------------------------------------------------------


def _attempt(text: str | None, failure: Any, original: str, request: Request,
             eligible: dict[str, tuple[Source, ...]], branches: int) -> tuple[list[Edit], str]:
    """The edits and the repaired text from ``text`` (whose stage-1 ``failure`` is
    given): the text edits, then the claims'.  Text that cannot be mended in
    place is rewritten from ``EMPTY_ANSWER`` (``original`` is what it replaces).

    Of a duplicate key either occurrence may be the one to drop: both are
    tried (the first ``branches`` times a key repeats), and the repair with
    fewer edits kept; on a tie, the one without the second occurrence."""
    edits: list[Edit] = []
    # Each pass drops text or mends one syntax slip (at most _MAX_SYNTAX_EDITS).
    for _ in range(LIMITS.MAX_INPUT + _MAX_SYNTAX_EDITS):
        if text is None or failure is None:
            break
        if failure.reason == "TRAILING_DATA":
            offset = failure.explained().offset
            assert offset is not None
            edits.append(Edit(TRAILING, None, None, text[offset:], None))
            text = text[:offset]
        elif failure.reason == "DUPLICATE_KEY":
            if branches > 0:
                options = []
                for occurrence in (SECOND, FIRST):
                    edit, dropped = _drop_duplicate(text, occurrence)
                    rest, repaired = _attempt(dropped, decode_answer(dropped).failure, original, request,
                                              eligible, branches - 1)
                    moot = bool(rest) and rest[0].what == REWRITE
                    options.append((rest if moot else [*edits, edit, *rest], repaired))
                return min(options, key=lambda option: len(option[0]))
            edit, text = _drop_duplicate(text, SECOND)
            edits.append(edit)
        else:
            mended = _repair_syntax(text, failure.explained(), edits) if failure.reason == "SYNTAX" else None
            if mended is None or len(edits) > _MAX_SYNTAX_EDITS:
                break
            text = mended
        failure = decode_answer(text).failure
    if text is None or (failure is not None and failure.check != "shape") or _claims_object(text) is None:
        # The text is rewritten whole: its edits so far are moot.
        edits = [Edit(REWRITE, None, None, original, EMPTY_ANSWER)]
        text = EMPTY_ANSWER
    return edits, _repair_claims(text, request, eligible, edits)


# How many times a repeated key is tried both ways (each doubles the work).
_DUPLICATE_BRANCHES = 3


_MAX_SYNTAX_EDITS = 16  # beyond a few slips the text is not an answer that went a little wrong


def _repair_syntax(text: str, failure: Any, edits: list[Edit]) -> str | None:
    """The text with one syntax slip mended (a trailing comma, a missing comma or
    colon), or None for any other syntax error (the text is then rewritten)."""
    offset = failure.offset
    if offset is None:
        return None
    message = failure.message
    if message.startswith("trailing comma"):
        comma = offset - 1
        while comma > 0 and text[comma] in _WHITESPACE:
            comma -= 1
        if text[comma] != ",":
            return None
        edits.append(Edit(TRAILING_COMMA, None, None, '","', None, _line_col(text, comma)))
        return text[:comma] + text[comma + 1:]
    for expected, what, mark in (("expected ','", MISSING_COMMA, ","), ("expected ':'", MISSING_COLON, ":")):
        if message.startswith(expected):
            at = offset
            while at > 0 and text[at - 1] in _WHITESPACE:
                at -= 1
            edits.append(Edit(what, None, None, None, f'"{mark}"', _line_col(text, at)))
            return text[:at] + mark + text[at:]
    return None


def _line_col(text: str, offset: int) -> str:
    line, column = line_col(text, offset)
    return f"{line}:{column}"


def _body_start(text: str) -> int:
    return 1 if text.startswith(_BOM) else 0


def _claims_object(text: str) -> dict[str, Any] | None:
    """The parsed answer when it is an object with a claims array, else None."""
    try:
        value = json.loads(text[_body_start(text):])
    except ValueError:
        return None
    if isinstance(value, dict) and isinstance(value.get("claims"), list):
        return value
    return None


def _drop_duplicate(text: str, occurrence: str) -> tuple[Edit, str]:
    """The edit dropping the ``occurrence`` (FIRST or SECOND) of the text's first
    repeated key, and the text without it."""
    start = _body_start(text)
    body = text[start:]
    duplicate = scan(body).duplicate
    assert duplicate is not None
    key_start, key_end = duplicate.second if occurrence == SECOND else duplicate.first
    end = _value_end(body, key_end)
    path = duplicate.object_path
    claim = path[1] if len(path) == 2 and path[0] == "claims" and isinstance(path[1], int) else None
    member = duplicate.key if claim is not None or not path else path_text((*path, duplicate.key))
    value_start = body.index(":", key_end) + 1
    what = DUPLICATE_KEY if occurrence == SECOND else DUPLICATE_KEY_FIRST
    edit = Edit(what, claim, member, _compact(body[value_start:end]), None)
    return edit, text[:start] + _cut_member(body, key_start, end)


def _value_end(body: str, key_end: int) -> int:
    """The end of the value after the key ending at ``key_end`` (valid JSON)."""
    position = body.index(":", key_end) + 1
    while body[position] in _WHITESPACE:
        position += 1
    return _DECODER.raw_decode(body, position)[1]


def _cut_member(body: str, start: int, end: int) -> str:
    """``body`` without the member or element at [start, end) and one comma beside it."""
    before = start
    while body[before - 1] in _WHITESPACE:
        before -= 1
    if body[before - 1] == ",":
        return body[:before - 1] + body[end:]
    after = end
    while body[after] in _WHITESPACE:
        after += 1
    if body[after] == ",":
        after += 1
        while body[after] in _WHITESPACE:
            after += 1
        return body[:start] + body[after:]
    return body[:start] + body[end:]


# -- stages 2-4: the claims ------------------------------------------------------------


def _target(field: str, source: Source) -> dict[str, str]:
    value = source.facts[field]
    return {"field": field, "value": value, "doc": source.id, "quote": f"{field}={value}"}


def _cost(claim: Any, target: dict[str, str]) -> int:
    """The edits that make ``claim`` (a parsed claim object) the ``target`` claim."""
    unknown = sum(1 for key in claim if key not in MEMBERS)
    return unknown + sum(1 for member in MEMBERS if claim.get(member) != target[member])


def _repair_claims(text: str, request: Request, eligible: dict[str, tuple[Source, ...]],
                   edits: list[Edit]) -> str:
    value = _claims_object(text)
    assert value is not None
    start = _body_start(text)
    body = text[start:]
    # Top-level members other than claims go first: they are stage 1's.
    for key in [key for key in value if key != "claims"]:
        scanned = scan(body)
        span = scanned.member_span((key,))
        assert span is not None
        edits.append(Edit(UNKNOWN_MEMBER, None, key, _compact(body[slice(*scanned.values[(key,)])]), None))
        body = _cut_member(body, *span)
    claims = value["claims"]
    fields = tuple(dict.fromkeys(request.fields))
    plan = _assign(claims, fields, eligible)
    kept = {index: target for index, target in plan}
    # Member edits first (indices stay), then drops from the last (the earlier
    # indices stay), then the added claims at the end.
    for index, claim in enumerate(claims):
        if index in kept:
            body = _edit_claim(body, index, claim, kept[index], edits)
    drops = [index for index in range(len(claims)) if index not in kept]
    drop_edits = []
    for index in reversed(drops):
        span = scan(body).values[("claims", index)]
        drop_edits.append(Edit(DROP_CLAIM, index, None, _compact(body[span[0]:span[1]]), None))
        body = _cut_member(body, *span)
    edits.extend(reversed(drop_edits))
    covered = {target["field"] for target in kept.values()}
    count = len(kept)
    for field in fields:
        if field not in covered:
            target = _target(field, eligible[field][0])
            new = _claim_json(target)
            edits.append(Edit(ADD_CLAIM, count, None, None, new))
            body = _append_claim(body, new)
            count += 1
    return text[:start] + body


def _assign(claims: list[Any], fields: tuple[str, ...],
            eligible: dict[str, tuple[Source, ...]]) -> list[tuple[int, dict[str, str]]]:
    """Which claim is kept for which field, with which target claim: the fewest
    edits over all assignments (a dropped claim and an added claim cost one each;
    a kept one its member edits).  At equal cost earlier claims are kept, for the
    field requested first, citing the first eligible source."""
    # best[(i, f)]: (cost, target) of claim i kept for field f.
    best: dict[tuple[int, int], tuple[int, dict[str, str]]] = {}
    for i, claim in enumerate(claims):
        if not isinstance(claim, dict):
            continue
        for f, field in enumerate(fields):
            options = [(_cost(claim, target), n, target)
                       for n, target in enumerate(_target(field, s) for s in eligible[field])]
            cost, _, target = min(options, key=lambda option: option[:2])
            best[(i, f)] = (cost, target)
    full = (1 << len(fields)) - 1

    @lru_cache(maxsize=None)
    def solve(i: int, used: int) -> tuple[int, tuple[tuple[int, int], ...]]:
        if i == len(claims):
            return bin(full & ~used).count("1"), ()  # one added claim per field left
        options = []
        for f in range(len(fields)):
            if not used & (1 << f) and (i, f) in best:
                rest, chosen = solve(i + 1, used | (1 << f))
                options.append((best[(i, f)][0] + rest, f, ((i, f), *chosen)))
        rest, chosen = solve(i + 1, used)
        options.append((1 + rest, len(fields), chosen))  # drop claim i
        cost, _, picked = min(options, key=lambda option: option[:2])
        return cost, picked

    _, picked = solve(0, 0)
    solve.cache_clear()
    return [(i, best[(i, f)][1]) for i, f in picked]


_TOKEN_OR_BLANKS = re.compile(r'"(?:[^"\\]|\\.)*"|[^\s"]+', re.S)


def _compact(token: str) -> str:
    """JSON text without the blanks between its tokens: a dropped claim on one line."""
    return "".join(_TOKEN_OR_BLANKS.findall(token))


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _claim_json(target: dict[str, str]) -> str:
    return "{" + ", ".join(f"{_json(member)}: {_json(target[member])}" for member in MEMBERS) + "}"


def _edit_claim(body: str, index: int, claim: dict[str, Any], target: dict[str, str], edits: list[Edit]) -> str:
    for key in [key for key in claim if key not in MEMBERS]:
        found = scan(body)
        span = found.member_span(("claims", index, key))
        assert span is not None
        edits.append(Edit(UNKNOWN_MEMBER, index, key, _compact(body[slice(*found.values[("claims", index, key)])]),
                          None))
        body = _cut_member(body, *span)
    for member in MEMBERS:
        want = target[member]
        if member not in claim:
            new = _json(want)
            edits.append(Edit(ADD_MEMBER, index, member, None, new))
            body = _add_member(body, index, member, new)
            continue
        if claim[member] == want:
            continue
        start, end = scan(body).values[("claims", index, member)]
        old = body[start:end]
        what = AS_STRING if not isinstance(claim[member], str) and old == want else CHANGE
        new = _json(want)
        edits.append(Edit(what, index, member, old, new))
        body = body[:start] + new + body[end:]
    return body


def _add_member(body: str, index: int, member: str, new: str) -> str:
    """Insert ``"member": new`` as the last member of claim ``index``."""
    _, end = scan(body).values[("claims", index)]
    close = end - 1  # the claim's closing brace
    last = close
    while body[last - 1] in _WHITESPACE:
        last -= 1
    separator = "" if body[last - 1] == "{" else ", "
    return body[:last] + f"{separator}{_json(member)}: {new}" + body[last:]


def _append_claim(body: str, new: str) -> str:
    """Insert claim ``new`` at the end of the claims array."""
    _, end = scan(body).values[("claims",)]
    last = end - 1
    while body[last - 1] in _WHITESPACE:
        last -= 1
    separator = "" if body[last - 1] == "[" else ", "
    return body[:last] + separator + new + body[last:]
