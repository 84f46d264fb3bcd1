"""The mutation catalogue: every way the lab changes one thing in an answer.

Each mutation is declared once, here, with its stable dotted name (shown in the
lab's menu, in help and in ``inspector mutate``), a title, a help line, what it
applies to (one claim, or the answer's text) and the check it is meant to trip
(None for the harmless ones, which must leave an accepted answer accepted).

A mutation never re-serialises the answer: it edits the raw text once, splicing
one JSON token (or inserting or removing one member or claim) at the positions
``jsonscan`` found, and re-encodes only the string it writes.  So a mutant differs
from its case by exactly the named edit, ``Mutant.edit`` says where, and the
rest of the text (its spacing, its escapes, the other claims) is untouched.
Mutations change only the answer, never the request or the registry.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from enum import Enum

from ..contract.access import authorize
from ..contract.checks import CHECKS_BY_ID, LIMITS
from ..contract.decode import decode_answer
from ..contract.jsonscan import JsonIndex, Path, scan
from ..contract.models import Claim, Registry, Request, Source
from ..contract.text import json_escape, shorten, utf16_len
from .history import Change

__all__ = [
    "MUTATIONS",
    "MUTATIONS_BY_NAME",
    "Answer",
    "Mutant",
    "Mutation",
    "Target",
    "Variant",
    "answer_of",
    "encode_string",
    "mutants_of",
    "replace_member",
]


class Target(Enum):
    """What a mutation is applied to: one claim (the lab's current claim) or the whole answer."""

    CLAIM = "claim"
    ANSWER = "answer"


@dataclass(frozen=True, slots=True)
class Answer:
    """An answer as the mutations read it: its text, where each member is, its claims,
    and the request and registry it is verified against (read, never changed)."""

    text: str  # the raw text, a leading BOM included
    start: int  # 1 after a leading BOM, else 0
    index: JsonIndex  # spans in ``text[start:]``; read them through ``span``
    claims: tuple[Claim, ...]
    request: Request
    registry: Registry

    def span(self, path: Path) -> tuple[int, int]:
        """Where the value at ``path`` is in ``text``."""
        start, end = self.index.values[path]
        return start + self.start, end + self.start

    def key_span(self, path: Path) -> tuple[int, int]:
        start, end = self.index.keys[path]
        return start + self.start, end + self.start

    def token(self, path: Path) -> str:
        start, end = self.span(path)
        return self.text[start:end]

    def claim_text(self, claim: int) -> str:
        return self.token(("claims", claim))

    def source(self, claim: int) -> Source | None:
        return self.registry.get(self.claims[claim].doc)


def answer_of(raw: str | bytes, request: Request, registry: Registry) -> Answer | None:
    """The answer to mutate, or None when it is not strict JSON of the claims shape
    (then there are no members to edit: the lab edits its text by hand)."""
    decoded = decode_answer(raw)
    if decoded.claims is None or decoded.text is None:
        return None
    return Answer(decoded.text, decoded.start, scan(decoded.text[decoded.start:]), decoded.claims,
                  request, registry)


@dataclass(frozen=True, slots=True)
class Variant:
    """One way of applying a mutation: a label, the edit (start, end, replacement) of
    the original text, and, when it is not the mutation's, the check this variant is
    meant to trip (``doc.other`` trips a different check for each kind of source)."""

    label: str
    start: int
    end: int
    replacement: str
    check: str | None = None
    # An equivalent mutant: the edit changes nothing the contract reads (another
    # document that holds the same fact and line, under the same request).
    harmless: bool = False


@dataclass(frozen=True, slots=True)
class Mutant:
    """An answer changed in exactly one place.

    ``edit`` is (start, end, replacement) in the original raw text: applying it
    to the original gives ``raw`` exactly.  ``check`` is the check the mutant is
    meant to trip (None: harmless, it should stay accepted).  The mutant keeps
    the original text (shared by all its case's mutants) and the edit, and
    spells its raw text out when read: a suite over a large registry has
    hundreds of thousands of mutants.
    """

    mutation: str
    variant: str
    claim: int | None
    edit: tuple[int, int, str]
    check: str | None
    original: str = dataclass_field(repr=False)

    @property
    def raw(self) -> str:
        start, end, replacement = self.edit
        return self.original[:start] + replacement + self.original[end:]

    @property
    def harmless(self) -> bool:
        return self.check is None

    @property
    def name(self) -> str:
        """The mutation and its variant: ``quote.other_line: line 3 "retry_enabled=true"``."""
        return f"{self.mutation}: {self.variant}" if self.variant else self.mutation

    def change(self) -> Change:
        """The mutant as a change of the lab's history (recorded by its dotted name)."""
        return Change(self.raw, self.name, (self.mutation,))


Generator = Callable[[Answer, "int | None"], Iterator[Variant]]


@dataclass(frozen=True, slots=True)
class Mutation:
    name: str  # stable and dotted: quote.other_line
    title: str
    help: str
    target: Target
    check: str | None  # the check id it is meant to trip; None for a harmless one
    generate: Generator
    # The checks its variants may be meant for when they differ by variant (doc.other:
    # one per kind of other source), the declared one first.
    also: tuple[str, ...] = ()
    # Why it may have no variant on a claim or answer, for the lab's menu ("" when it always has one).
    unavailable: str = ""

    @property
    def harmless(self) -> bool:
        return self.check is None

    @property
    def meant(self) -> str:
        """What it is meant to trip, in words: the check's title (``+N`` when its variants are
        meant for N more checks), or ``harmless``."""
        if self.check is None:
            return "harmless"
        return CHECKS_BY_ID[self.check].title + (f" +{len(self.also)}" if self.also else "")

    @property
    def checks(self) -> tuple[str, ...]:
        """Every check a variant of this mutation may be meant to trip."""
        return (self.check, *self.also) if self.check is not None else ()

    def mutants(self, answer: Answer, claim: int | None = None) -> Iterator[Mutant]:
        """Every variant of this mutation on ``answer``: on claim ``claim`` (every claim
        when None) for a claim mutation; on the whole answer otherwise."""
        if self.target is Target.ANSWER:
            targets: tuple[int | None, ...] = (None,)
        else:
            targets = tuple(range(len(answer.claims))) if claim is None else (claim,)
        text = answer.text
        for target in targets:
            seen: set[tuple[int, int, str]] = set()
            for variant in self.generate(answer, target):
                edit = (variant.start, variant.end, variant.replacement)
                if text[variant.start:variant.end] == variant.replacement or edit in seen:
                    continue  # a variant that changes nothing, or repeats another, is not a mutant
                seen.add(edit)
                check = None if variant.harmless else variant.check or self.check
                yield Mutant(self.name, variant.label, target, (variant.start, variant.end, variant.replacement),
                             check, text)


# -- editing the text -----------------------------------------------------------


def encode_string(value: str, like: str = "") -> str:
    """``value`` as a JSON string token, escaped as ``json.dumps`` would: with
    ``\\uXXXX`` for every non-ASCII character when the token it replaces (``like``)
    was written that way, else UTF-8 with only invisible characters escaped."""
    return json_escape(json.dumps(value, ensure_ascii=like.isascii() and "\\u" in like))


def replace_member(answer: Answer, claim: int, member: str, value: str, label: str,
                   check: str | None = None) -> Variant:
    """Replace one member's string token of a claim (the mutations and the edit form)."""
    path = ("claims", claim, member)
    start, end = answer.span(path)
    return Variant(label, start, end, encode_string(value, answer.token(path)), check)


def _separator(answer: Answer) -> str:
    """What stands between two claims in this answer (``,\\n    ``), or ``, ``."""
    if len(answer.claims) > 1:
        return answer.text[answer.span(("claims", 0))[1]:answer.span(("claims", 1))[0]]
    return ", "


def _lines(text: str) -> list[tuple[int, str]]:
    """The non-blank lines of a document, numbered from 1, each once."""
    seen: set[str] = set()
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip() and line not in seen:
            seen.add(line)
            found.append((number, line))
    return found


def _label(text: str) -> str:
    return shorten(text, 40)


# -- claim members ----------------------------------------------------------------


def _quote_other_line(answer: Answer, claim: int | None) -> Iterator[Variant]:
    assert claim is not None
    source = answer.source(claim)
    if source is None:
        return
    quote = answer.claims[claim].quote
    for number, line in _lines(source.text):
        if line != quote:
            yield replace_member(answer, claim, "quote", line, f"line {number}: {_label(line)}")


def _quote_other_source(answer: Answer, claim: int | None) -> Iterator[Variant]:
    assert claim is not None
    current = answer.claims[claim]
    cited = answer.source(claim)
    cited_text = cited.text if cited is not None else ""
    for source in answer.registry:
        if source is cited:
            continue
        # A line the cited document does not hold, the one stating this field first.
        lines = [line for _, line in _lines(source.text) if line not in cited_text]
        if not lines:
            continue
        canonical = f"{current.field}={source.facts.get(current.field)}"
        line = canonical if canonical in lines else lines[0]
        yield replace_member(answer, claim, "quote", line, f"{source.id}: {_label(line)}")


def _differences(answer: Answer, source: Source) -> tuple[list[str], str]:
    """How a source differs from what the request asks for, and the first check
    in contract order (quote aside) that the difference is meant to trip."""
    request = answer.request
    words, check = [], None
    if request.scope is not None and not authorize(source, request.scope).allowed:
        words.append("not authorized")
        check = check or "authorized"
    if source.id not in request.supplied:
        words.append("not supplied")
        check = check or "doc_supplied"
    if source.service != request.service:
        words.append("other service")
        check = check or "scope"
    if source.environment != request.environment:
        words.append("other environment")
        check = check or "scope"
    if source.revision != request.revision:
        words.append("other revision")
        check = check or "revision"
    return words or ["same service, environment and revision"], check or "value"


def _doc_other(answer: Answer, claim: int | None) -> Iterator[Variant]:
    assert claim is not None
    current = answer.claims[claim]
    for source in answer.registry:
        if source.id == current.doc:
            continue
        words, check = _differences(answer, source)
        variant = replace_member(answer, claim, "doc", source.id, f"{_label(source.id)} ({', '.join(words)})", check)
        if check == "value" and source.facts.get(current.field) == current.value and current.quote in source.text:
            variant = Variant(f"{_label(source.id)} (equivalent: the same fact and line)", variant.start,
                              variant.end, variant.replacement, harmless=True)
        yield variant


def _doc_unknown(answer: Answer, claim: int | None) -> Iterator[Variant]:
    assert claim is not None
    invented = answer.claims[claim].doc + "-unknown"
    while answer.registry.get(invented) is not None:
        invented += "-x"
    yield replace_member(answer, claim, "doc", invented, f"{_label(invented)} (not in the registry)")


def _value_from_source(answer: Answer, claim: int | None) -> Iterator[Variant]:
    assert claim is not None
    current = answer.claims[claim]
    source = answer.source(claim)
    value = source.facts.get(current.field) if source is not None else None
    if value and value != current.value:
        yield replace_member(answer, claim, "value", value, f"{_label(value)} (from {_label(source.id)})")  # type: ignore[union-attr]  # a value: its source was found


def _value_other_source(answer: Answer, claim: int | None) -> Iterator[Variant]:
    assert claim is not None
    current = answer.claims[claim]
    seen = {current.value}
    for source in answer.registry:
        value = source.facts.get(current.field)
        if value and value not in seen:
            seen.add(value)
            yield replace_member(answer, claim, "value", value, f"{_label(value)} (from {_label(source.id)})")


_FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
_LAST_NUMBER = re.compile(r"\d+(?!.*\d)", re.S)


def _plus_one(digits: str) -> str:
    """``str(int(digits) + 1)`` for decimal digits of any length and script, in
    ASCII, without ``int()`` (which refuses more than 4,300 digits: a value is
    up to an answer's size)."""
    written = "".join(str(unicodedata.decimal(digit)) for digit in digits).lstrip("0") or "0"
    body = written.rstrip("9")
    nines = len(written) - len(body)
    if not body:
        return "1" + "0" * nines
    return body[:-1] + str(int(body[-1]) + 1) + "0" * nines


def perturbations(field: str, value: str) -> list[tuple[str, str]]:
    """(label, value) for every near miss of a value: what a model writes when it
    almost copies ``5000`` or ``false``.  Each differs from ``value`` and from the others."""
    found: list[tuple[str, str]] = []
    number = _LAST_NUMBER.search(value)
    if number:
        found.append(("next number", value[:number.start()] + _plus_one(number.group()) + value[number.end():]))
    if value.isdigit() and value.isascii():
        whole = value.lstrip("0")  # the number, as int() would write it (none: 0)
        if field.endswith("_ms") and whole.endswith("000"):  # a non-zero multiple of 1000
            found.append(("in seconds", f"{whole[:-3]}s"))
        else:
            found.append(("with a unit", f"{value}ms"))
    found.append(("leading space", " " + value))
    found.append(("trailing space", value + " "))
    if value.translate(_FULL_WIDTH) != value:
        found.append(("full-width digits", value.translate(_FULL_WIDTH)))
    for label, changed in (("capitalised", value.capitalize()), ("upper case", value.upper()),
                           ("lower case", value.lower())):
        found.append((label, changed))
    unique: dict[str, str] = {}
    for label, changed in found:
        if changed != value and changed and changed not in unique:
            unique[changed] = label
    return [(label, changed) for changed, label in unique.items()]


def _value_perturb(answer: Answer, claim: int | None) -> Iterator[Variant]:
    assert claim is not None
    current = answer.claims[claim]
    for label, value in perturbations(current.field, current.value):
        yield replace_member(answer, claim, "value", value, f"{label}: {_label(value)}")


def _field_other(answer: Answer, claim: int | None) -> Iterator[Variant]:
    assert claim is not None
    current = answer.claims[claim]
    # Claims are checked one after the other: only an earlier claim of the field
    # makes this one the duplicate; otherwise its value is checked against the
    # document's fact for the new field first.
    earlier = {other.field for other in answer.claims[:claim]}
    for field in answer.request.fields:
        if field != current.field:
            check = "unique_field" if field in earlier else "value"
            yield replace_member(answer, claim, "field", field, _label(field), check)


def _field_unrequested(answer: Answer, claim: int | None) -> Iterator[Variant]:
    assert claim is not None
    requested = set(answer.request.fields)
    fields = [field for field in answer.registry.fact_fields if field not in requested]
    if not fields:
        invented = "unrequested_field"
        while invented in requested:
            invented += "_x"
        fields = [invented]
    for field in fields:
        yield replace_member(answer, claim, "field", field, _label(field))


# -- claims -------------------------------------------------------------------------


def _claim_drop(answer: Answer, claim: int | None) -> Iterator[Variant]:
    assert claim is not None
    count = len(answer.claims)
    start, end = answer.span(("claims", claim))
    if count == 1:
        yield Variant("the only claim", start, end, "", "has_claims")
    elif claim < count - 1:
        # The claim, its comma and the space before the next one.
        yield Variant(f"claims[{claim}]", start, answer.span(("claims", claim + 1))[0], "")
    else:
        yield Variant(f"claims[{claim}]", answer.span(("claims", claim - 1))[1], end, "")


def _claim_duplicate(answer: Answer, claim: int | None) -> Iterator[Variant]:
    assert claim is not None
    end = answer.span(("claims", claim))[1]
    yield Variant(f"claims[{claim}] twice", end, end, _separator(answer) + answer.claim_text(claim))


def _swap(answer: Answer, first: int, label: str) -> Variant:
    """Claims ``first`` and ``first + 1`` exchanged, the text between them kept."""
    start, middle = answer.span(("claims", first))
    after, end = answer.span(("claims", first + 1))
    between = answer.text[middle:after]
    return Variant(label, start, end, answer.claim_text(first + 1) + between + answer.claim_text(first))


def _claim_move_up(answer: Answer, claim: int | None) -> Iterator[Variant]:
    assert claim is not None
    if claim > 0:
        yield _swap(answer, claim - 1, f"claims[{claim}] before claims[{claim - 1}]")


def _claim_move_down(answer: Answer, claim: int | None) -> Iterator[Variant]:
    assert claim is not None
    if claim < len(answer.claims) - 1:
        yield _swap(answer, claim, f"claims[{claim}] after claims[{claim + 1}]")


# -- the raw text -----------------------------------------------------------------


def escape_first(key: str) -> str:
    """A key token with its first character written as a \\u escape: ``"\\u0066ield"``."""
    return '"' + f"\\u{ord(key[0]):04x}" + json.dumps(key[1:])[1:]


def _raw_duplicate_key(answer: Answer, claim: int | None) -> Iterator[Variant]:
    assert claim is not None
    end = answer.span(("claims", claim, "field"))[1]
    token = answer.token(("claims", claim, "field"))
    yield Variant("plain: \"field\" twice", end, end, f', "field": {token}')
    yield Variant("escaped: \"\\u0066ield\" beside \"field\"", end, end, f", {escape_first('field')}: {token}")


def _raw_unknown_member(answer: Answer, claim: int | None) -> Iterator[Variant]:
    assert claim is not None
    start = answer.span(("claims", claim))[0] + 1
    yield Variant("\"confidence\" in a claim", start, start, ' "confidence": "high",')


def _raw_answer_member(answer: Answer, claim: int | None) -> Iterator[Variant]:
    start = answer.span(())[0] + 1
    first = answer.claims[0] if answer.claims else None
    prose = f"The {first.field} is {first.value}." if first is not None else "Nothing to report."
    yield Variant("free-text \"answer\" beside claims", start, start,
                  f' "answer": {encode_string(prose)},')


_JSON_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")


def _raw_number_value(answer: Answer, claim: int | None) -> Iterator[Variant]:
    assert claim is not None
    value = answer.claims[claim].value
    start, end = answer.span(("claims", claim, "value"))
    if _JSON_NUMBER.fullmatch(value):
        yield Variant(f"{_label(value)} as a number", start, end, value)
    elif value in ("true", "false", "null"):
        yield Variant(f"{value} as a literal", start, end, value)


def _raw_oversize_member(answer: Answer, claim: int | None) -> Iterator[Variant]:
    assert claim is not None
    quote = answer.claims[claim].quote
    wanted = LIMITS.MAX_MEMBER + 1
    padded = quote + " " * max(0, wanted - utf16_len(quote))
    yield replace_member(answer, claim, "quote", padded, f"quote of {utf16_len(padded)} UTF-16 units")


def _raw_ninth_claim(answer: Answer, claim: int | None) -> Iterator[Variant]:
    count = len(answer.claims)
    if not count or count > LIMITS.MAX_CLAIMS:
        return
    end = answer.span(("claims", count - 1))[1]
    copies = LIMITS.MAX_CLAIMS + 1 - count
    yield Variant(f"claims[{count - 1}] copied up to {LIMITS.MAX_CLAIMS + 1} claims", end, end,
                  (_separator(answer) + answer.claim_text(count - 1)) * copies)


def _raw_trailing(answer: Answer, claim: int | None) -> Iterator[Variant]:
    end = answer.span(())[1]
    yield Variant("a second object", end, end, '\n{"claims": []}')
    yield Variant("a sentence", end, end, " Hope this helps!")


def _raw_truncate(answer: Answer, claim: int | None) -> Iterator[Variant]:
    start, end = answer.span(())
    yield Variant("the closing brace", end - 1, end, "")
    # The second half of the JSON value, and whatever follows it.
    yield Variant("the second half", (start + end) // 2, len(answer.text), "")


def _raw_whitespace(answer: Answer, claim: int | None) -> Iterator[Variant]:
    yield Variant("leading", answer.start, answer.start, " \n")
    yield Variant("trailing", len(answer.text), len(answer.text), "\n\n")
    inside = answer.span(("claims",))[0]
    yield Variant("before the claims array", inside, inside, "\n\t ")


def _raw_bom(answer: Answer, claim: int | None) -> Iterator[Variant]:
    if not answer.start:
        yield Variant("a leading BOM", 0, 0, "\ufeff")


def _raw_escape_key(answer: Answer, claim: int | None) -> Iterator[Variant]:
    keys: list[Path] = [("claims",)]
    if answer.claims:
        keys.append(("claims", 0, "field"))
    for path in keys:
        start, end = answer.key_span(path)
        name = str(path[-1])
        yield Variant(f"{escape_first(name)} for \"{name}\"", start, end, escape_first(name))


MUTATIONS: tuple[Mutation, ...] = (
    Mutation("quote.other_line", "another line of the cited document",
             "Replace the quote with another genuine line of the same document (every line in turn): "
             "citation-only still accepts, the contract does not.",
             Target.CLAIM, "quote_supports", _quote_other_line,
             unavailable="the cited document is unknown or has no other line"),
    Mutation("quote.other_source", "a line of another source",
             "Replace the quote with a line of another document, one the cited document does not hold.",
             Target.CLAIM, "quote_found", _quote_other_source,
             unavailable="no other source has a line the cited document lacks"),
    Mutation("doc.other", "cite another source",
             "Cite each other document in turn: another revision, environment or service, or one "
             "not supplied; the quote stays, so a document without it fails citation first.",
             Target.CLAIM, "revision", _doc_other, also=("authorized", "doc_supplied", "scope", "value"),
             unavailable="the registry has no other source"),
    Mutation("doc.unknown", "cite an unknown document",
             "Cite a document id the registry does not have: a hallucinated citation.",
             Target.CLAIM, "doc_known", _doc_unknown),
    Mutation("value.from_source", "the cited source's value",
             "Set the value to the cited document's value for the field, leaving the quote: "
             "nothing to change when it already is (an accepted claim).",
             Target.CLAIM, "quote_supports", _value_from_source,
             unavailable="the value already is the cited document's (or it states none for the field)"),
    Mutation("value.other_source", "another source's value",
             "Set the value to what another document says for the field (each other value in turn).",
             Target.CLAIM, "value", _value_other_source,
             unavailable="no other source states another value for the field"),
    Mutation("value.perturb", "a near-miss value",
             "Change the value slightly: 5000 to 5001, 5s, \" 5000\", full-width digits, False for false.",
             Target.CLAIM, "value", _value_perturb),
    Mutation("field.other", "claim another requested field",
             "Set the field to another requested field (each in turn): claimed twice, or a value "
             "the document does not state for it.",
             Target.CLAIM, "unique_field", _field_other, also=("value",),
             unavailable="the request asks for no other field"),
    Mutation("field.unrequested", "claim an unrequested field",
             "Set the field to one the request does not ask for (each such field of the registry).",
             Target.CLAIM, "requested_field", _field_unrequested),
    Mutation("claim.drop", "drop the claim",
             "Remove the claim: a requested field goes unclaimed (or the answer claims nothing).",
             Target.CLAIM, "coverage", _claim_drop, also=("has_claims",)),
    Mutation("claim.duplicate", "duplicate the claim",
             "Repeat the claim right after itself: one field claimed twice, even though both agree.",
             Target.CLAIM, "unique_field", _claim_duplicate),
    Mutation("claim.move_up", "move the claim up",
             "Exchange the claim with the one before it: the contract does not depend on the order "
             "of an accepted answer's claims (harmless), only on which is reported first.",
             Target.CLAIM, None, _claim_move_up,
             unavailable="the first claim cannot move up"),
    Mutation("claim.move_down", "move the claim down",
             "Exchange the claim with the one after it (harmless on an accepted answer).",
             Target.CLAIM, None, _claim_move_down,
             unavailable="the last claim cannot move down"),
    Mutation("raw.duplicate_key", "repeat a key",
             "Write the claim's \"field\" member twice, plainly and as \"\\u0066ield\" (the same key "
             "once unescaped): a parser would silently keep one.",
             Target.CLAIM, "duplicate_key", _raw_duplicate_key),
    Mutation("raw.unknown_member", "add an unknown member",
             "Add a \"confidence\" member to the claim: the contract defines exactly four.",
             Target.CLAIM, "shape", _raw_unknown_member),
    Mutation("raw.answer_member", "add a free-text answer",
             "Add a top-level \"answer\" string beside claims: free text the contract does not admit.",
             Target.ANSWER, "shape", _raw_answer_member),
    Mutation("raw.number_value", "a number, not a string",
             "Write a numeric (or true/false) value as a bare JSON literal instead of a string.",
             Target.CLAIM, "shape", _raw_number_value,
             unavailable="the value is neither a JSON number nor true, false or null"),
    Mutation("raw.trailing", "data after the object",
             "Append a second object, or a sentence, after the JSON value.",
             Target.ANSWER, "syntax", _raw_trailing),
    Mutation("raw.truncate", "truncate the text",
             "Cut the answer short: its closing brace, or its second half.",
             Target.ANSWER, "syntax", _raw_truncate),
    Mutation("raw.oversize_member", "an oversize member",
             f"Pad the claim's quote to {LIMITS.MAX_MEMBER + 1} UTF-16 units, one more than a member may hold.",
             Target.CLAIM, "shape", _raw_oversize_member),
    Mutation("raw.ninth_claim", "too many claims",
             f"Copy the last claim until the answer has {LIMITS.MAX_CLAIMS + 1} claims, one more than allowed.",
             Target.ANSWER, "shape", _raw_ninth_claim,
             unavailable="the answer has no claim to copy"),
    Mutation("raw.whitespace", "extra whitespace",
             "Add JSON whitespace before, after and inside the object (harmless).",
             Target.ANSWER, None, _raw_whitespace),
    Mutation("raw.bom", "a leading BOM",
             "Prefix a byte order mark, which strict decoding skips (harmless, though it counts "
             "towards the size limit).",
             Target.ANSWER, None, _raw_bom,
             unavailable="the answer already starts with a BOM"),
    Mutation("raw.escape_key", "an escaped key",
             "Write a member name with a \\u escape, \"\\u0063laims\" for \"claims\": the same key (harmless).",
             Target.ANSWER, None, _raw_escape_key),
)

MUTATIONS_BY_NAME: dict[str, Mutation] = {mutation.name: mutation for mutation in MUTATIONS}

def mutants_of(answer: Answer) -> Iterator[Mutant]:
    """Every variant of every mutation, on every claim, in catalogue order."""
    for mutation in MUTATIONS:
        yield from mutation.mutants(answer)
