"""Stage 1: strict decoding of a candidate answer into claims.

Two paths decide the same thing.  The fast path is one typed msgspec decode plus
cheap counts.  It accepts, or decides what the typed decode proves on its own (a
decode that succeeded but left string tokens over is DUPLICATE_KEY), or hands
what it learned (a syntax error) to the slow path, which runs the sub-checks one
by one in contract order and says exactly what is wrong and where.  Messages
and positions are worked out only when someone reads them.

The duplicate-key proof: in valid JSON every key and every string value is one
string token, and a decoded object keeps one entry per distinct key.  So the text
holds a duplicate key exactly when it has more string tokens than the decoded
value has keys plus string values.  Counting tokens is a ``str.count`` (minus
escaped quotes), far cheaper than a hook-based pass; the exact position-aware scan
runs only when the counts disagree.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from functools import partial
from typing import Annotated, Any

import msgspec

from .checks import CHECKS_BY_ID, LIMITS
from .jsonscan import DuplicateKey, Path, in_string, max_depth, path_text, scan
from .models import Claim
from .text import escape_char, is_invisible, line_col, utf16_len, visible

__all__ = ["MAX_ANSWER_BYTES", "DecodeFailure", "Decoded", "decode_answer", "describe_syntax_error",
           "find_duplicate_key", "repeats_a_key"]

BOM = "\ufeff"
# Every UTF-16 unit takes at most 3 UTF-8 bytes (4 bytes make 2 units), so more
# bytes than this are too large however they decode.  Readers of answer files
# stop just past it, so a size is only known to be "at least" that.
MAX_ANSWER_BYTES = 3 * (LIMITS.MAX_INPUT + 1)
MEMBERS = ("field", "value", "doc", "quote")


class _Answer(msgspec.Struct, forbid_unknown_fields=True):
    claims: Annotated[tuple[Claim, ...], msgspec.Meta(max_length=LIMITS.MAX_CLAIMS)]


_ANSWER_DECODER = msgspec.json.Decoder(_Answer)
_MAX_INPUT = LIMITS.MAX_INPUT
_MAX_MEMBER = LIMITS.MAX_MEMBER
_ANY_DECODER = msgspec.json.Decoder()
_ENCODE = msgspec.json.Encoder().encode
_TRAILING = "JSON is malformed: trailing characters"
_BYTE_POSITION = re.compile(r"\s*\(byte (\d+)\)$")
_UNICODE_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})|\\.", re.S)


class DecodeFailure(msgspec.Struct, frozen=True):
    """Why stage 1 refused the answer.

    ``check`` is the id of the failing stage-1 check, ``reason`` the sub-reason.
    Positions are character offsets into the full text (BOM included); a failure
    found on the decoded value carries its JSON ``path`` instead, and the position
    is looked up lazily (``Decoded.locate``).
    """

    check: str
    reason: str
    message: str
    offset: int | None = None
    end: int | None = None
    path: Path | None = None
    second: tuple[int, int] | None = None  # a duplicate key's second occurrence
    # For bytes that are not UTF-8 (no text to count in): line and column of offset,
    # counted in the text decoded with U+FFFD replacements (Decoded.lossy).
    position: tuple[int, int] | None = None
    # Deciding needs only check and reason; the message and positions of some
    # failures are worked out by this thunk when someone reads them (explained()).
    explain: Callable[[], DecodeFailure] | None = None

    def explained(self) -> DecodeFailure:
        return self.explain() if self.explain is not None else self


class Decoded(msgspec.Struct, frozen=True):
    # A Struct, not a dataclass: built for every answer, and its __init__ runs in C.
    text: str | None  # the answer as text, BOM included; None when not UTF-8
    start: int  # 1 when a leading BOM was skipped
    size: int  # UTF-16 code units (a lower bound when huge)
    claims: tuple[Claim, ...] | None
    failure: DecodeFailure | None
    lossy: str | None = None  # bytes that are not UTF-8, decoded with U+FFFD, for display

    @property
    def ok(self) -> bool:
        return self.failure is None


def decode_answer(raw: str | bytes | bytearray | memoryview) -> Decoded:
    """Decode ``raw`` strictly.  Never raises for any text or bytes; anything else
    is a programming error (``TypeError``, raised where short text has been ruled
    out, so the common case pays nothing for the check)."""
    if type(raw) is bytes and len(raw) <= MAX_ANSWER_BYTES and raw.isascii():
        raw = raw.decode("ascii")
    if type(raw) is str and raw.isascii() and (size := len(raw)) <= _MAX_INPUT:
        # The common case, prepared in place: ASCII has no BOM and no surrogate,
        # and is as many UTF-16 units as characters.
        text = body = raw
        start = 0
    else:
        prepared = _prepare(raw)
        if prepared.__class__ is Decoded:
            return prepared
        text, start, body, size = prepared  # type: ignore[misc]  # not a Decoded: mypy does not narrow __class__ is

    # The fast path: a typed decode that succeeds proves syntax, depth (3) and
    # shape but for the member length limit and duplicate keys, checked here.
    try:
        claims = _ANSWER_DECODER.decode(body).claims
    except msgspec.ValidationError:
        return _decode_slow(text, start, body, size)
    except msgspec.DecodeError as exc:
        return _decode_slow(text, start, body, size, str(exc))
    except RecursionError:  # pragma: no cover - the typed shape is 3 levels deep
        return _decode_slow(text, start, body, size)
    # The decoded value holds 1 + 8n strings: the duplicate-key proof (its first
    # bound, two quotes a string, tried here: the common case makes no call).
    strings = 1 + 8 * len(claims)
    if body.count('"') != 2 * strings and _more_string_tokens(body, strings):
        return _duplicate_key(text, start, size)
    # No member is longer than the whole text: short texts skip the length check.
    if size > _MAX_MEMBER and not all(
            _member_ok(c.field) and _member_ok(c.value) and _member_ok(c.doc) and _member_ok(c.quote)
            for c in claims):
        return _decode_slow(text, start, body, size)
    return Decoded(text, start, size, claims, None)


_BYTES = (bytes, bytearray, memoryview)


def _prepare(raw: str | bytes | bytearray | memoryview) -> Decoded | tuple[str, int, str, int]:
    """(text, start, body, size) for any input but short ASCII text, or the
    failure of the checks before syntax that decide on the input as it is:
    size and encoding.  ``body`` is the text after a leading BOM (``start`` 1)."""
    if isinstance(raw, str):
        text = raw
        size = _size(text)
        if size > LIMITS.MAX_INPUT:
            return _fail(text, size, "size", "TOO_LARGE", _too_large(size, text))
        if not text.isascii():
            try:
                text.encode("utf-8")
            except UnicodeEncodeError as exc:
                return _fail(text, size, "encoding", "NOT_UTF8",
                             f"lone surrogate {escape_char(text[exc.start])} at {_at(text, exc.start)}: "
                             "text cannot be encoded as UTF-8", offset=exc.start, end=exc.start + 1)
    elif isinstance(raw, _BYTES):
        data = bytes(raw)
        if len(data) > MAX_ANSWER_BYTES:
            return _fail(None, len(data) // 3, "size", "TOO_LARGE",
                         f"at least {len(data)} bytes, so at least {len(data) // 3} UTF-16 code units "
                         f"(limit {LIMITS.MAX_INPUT})")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            lossy = data.decode("utf-8", "replace")
            size = utf16_len(lossy)
            if size > LIMITS.MAX_INPUT:
                return _fail(None, size, "size", "TOO_LARGE", _too_large(size, lossy))
            prefix = data[: exc.start].decode("utf-8", "replace")
            where = line_col(prefix, len(prefix))
            failure = DecodeFailure("encoding", "NOT_UTF8",
                                    f"byte 0x{data[exc.start]:02X} at offset {exc.start} "
                                    f"({where[0]}:{where[1]}) is not UTF-8",
                                    offset=len(prefix), end=len(prefix) + 1, position=where)
            return Decoded(None, 0, size, None, failure, lossy)
        size = _size(text)
        if size > LIMITS.MAX_INPUT:
            return _fail(text, size, "size", "TOO_LARGE", _too_large(size, text))
    else:
        raise TypeError(f"an answer is str or bytes, not {type(raw).__name__}")
    start = 1 if text.startswith(BOM) else 0
    return text, start, text[start:] if start else text, size


def _duplicate_key(text: str, start: int, size: int) -> Decoded:
    """DUPLICATE_KEY, proven by the token count; where the two keys are is looked
    up only when someone reads the message.

    Called straight from the fast path too: a typed decode that succeeded read
    every occurrence of every key against the shape, so syntax and depth are
    fine, and the decoded value holds exactly 1 + 8n strings; more string tokens
    in the text can only be a repeated key."""
    return Decoded(text, start, size, None, DecodeFailure(
        "duplicate_key", "DUPLICATE_KEY", "", explain=partial(_locate_duplicate, text, start)))


def _decode_slow(text: str, start: int, body: str, size: int, syntax_error: str | None = None) -> Decoded:
    """The sub-checks one by one, in contract order.  ``syntax_error`` is the
    message of a syntax error the typed decode already met: the typed decoder
    reads the text in order and has parsed everything before the error, so it
    is the first syntax error, the one an untyped decode would meet
    (``describe_syntax_error`` words both alike; msgspec's own words differ
    around a lone surrogate escape).

    Depth comes first in the contract but is looked at only when it can matter:
    when decoding failed, or when the decoded value is not laid out like the
    shape (``_survey``).  It is judged on the raw text, so the outcome never
    depends on the interpreter's recursion limit (msgspec raises RecursionError
    at a depth that varies by Python version; that error is caught here).
    """
    # (No closures in here: a variable a nested function reads becomes a cell,
    # and cells slow the whole function down; messages are built by helpers.)
    if syntax_error is None:
        try:
            value = _ANY_DECODER.decode(body)
        except msgspec.ValidationError:
            # Valid syntax so far, but a number msgspec cannot represent (1e400, a
            # 5000-digit integer).  Such numbers are valid JSON: finish the syntax
            # check with the standard library, keeping numbers as opaque tokens.
            too_deep = _too_deep(text, start, size, body)
            if too_deep is not None:
                return too_deep
            try:
                value = _decode_keeping_numbers(body)
            except _SyntaxProblem as problem:
                reason, message, offset = _syntax_message(body, problem.error, problem.offset)
                where = start + offset
                return _failed(text, start, size, "syntax", reason, f"{message} at {_at(text, where)}",
                               offset=where, end=where + 1)
            survey = None
        except msgspec.DecodeError as exc:
            syntax_error = str(exc)
        except RecursionError:
            return _too_deep(text, start, size, body) or _out_of_stack(text, start, size, body)
        else:
            survey = _survey(value)
    if syntax_error is not None:
        return _too_deep(text, start, size, body) or _syntax_failure(text, start, size, body, syntax_error)

    if survey is None:
        too_deep = _too_deep(text, start, size, body)
        if too_deep is not None:
            return too_deep
        if repeats_a_key(body, value):
            return _duplicate_key(text, start, size)
        shape = _shape_problem(value)
    else:
        strings, suspects = survey
        if _more_string_tokens(body, strings):
            return _duplicate_key(text, start, size)
        shape = _shape_problem(value, suspects)
    if shape is not None:
        return _shape_failure(text, start, size, value, *shape)
    claims = tuple(Claim(c["field"], c["value"], c["doc"], c["quote"]) for c in value["claims"])
    return Decoded(text, start, size, claims, None)


def _too_deep(text: str, start: int, size: int, body: str) -> Decoded | None:
    """TOO_DEEP when ``body`` nests deeper than the limit, else None."""
    # Counting every bracket is a cheap bound; the scan finds where.
    if body.count("[") + body.count("{") <= LIMITS.MAX_DEPTH:
        return None
    _, beyond = max_depth(body, LIMITS.MAX_DEPTH)
    if beyond is None:
        return None
    where = start + beyond
    return _failed(text, start, size, "depth", "TOO_DEEP",
                   f"nesting deeper than {LIMITS.MAX_DEPTH} levels at {_at(text, where)}",
                   offset=where, end=where + 1)


def _out_of_stack(text: str, start: int, size: int, body: str) -> Decoded:
    """TOO_DEEP when the parser ran out of stack on nesting within the limit:
    the caller's stack was nearly exhausted.  Located at the first bracket of
    the deepest level, where the parser was when it gave up."""
    depth, _ = max_depth(body, LIMITS.MAX_DEPTH)
    _, deepest = max_depth(body, depth - 1) if depth else (0, None)
    where = start + (deepest or 0)
    return _failed(text, start, size, "depth", "TOO_DEEP",
                   f"nesting too deep to parse at {_at(text, where)} ({depth} levels, "
                   "but the interpreter's stack ran out)", offset=where, end=where + 1)


def _survey(value: Any) -> tuple[int, list[tuple[int, dict[str, Any]]]] | None:
    """One pass over an answer laid out like the shape: an object whose members
    are scalars or a ``claims`` array of objects whose members are scalars.
    Returns its number of strings (keys and string values, for the duplicate-key
    proof) and its suspects (the claims that are not exactly four non-empty
    strings, for the shape search); its depth is at most 3.  None for any other
    layout, which the generic depth scan and count handle."""
    if value.__class__ is not dict:
        return None
    strings = len(value)
    items: Any = ()
    for key, member in value.items():
        kind = member.__class__
        if kind is str:
            strings += 1
        elif kind is list and key == "claims":
            items = member
        elif kind is dict or kind is list:
            return None
    suspects: list[tuple[int, dict[str, Any]]] = []
    for index, claim in enumerate(items):
        if claim.__class__ is not dict:
            return None
        if _plain(claim):
            strings += 8
            continue
        strings += len(claim)
        for member_value in claim.values():
            kind = member_value.__class__
            if kind is str:
                strings += 1
            elif kind is dict or kind is list:
                return None
        suspects.append((index, claim))
    return strings, suspects


def _syntax_failure(text: str, start: int, size: int, body: str, error: str) -> Decoded:
    """SYNTAX or TRAILING_DATA from msgspec's message; the message for people
    (and the position) is worked out when someone reads it."""
    reason = "TRAILING_DATA" if error.startswith(_TRAILING) else "SYNTAX"
    return Decoded(text, start, size, None, DecodeFailure(
        "syntax", reason, "", explain=partial(_explain_syntax, text, start, body, error)))


def _explain_syntax(text: str, start: int, body: str, error: str) -> DecodeFailure:
    reason, message, offset = describe_syntax_error(body, error)
    where = start + offset
    return DecodeFailure("syntax", reason, f"{message} at {_at(text, where)}", offset=where, end=where + 1)


def _shape_failure(text: str, start: int, size: int, value: Any, reason: str, path: Path) -> Decoded:
    return Decoded(text, start, size, None, DecodeFailure(
        "shape", reason, "", path=path, explain=partial(_explain_shape, value, reason, path)))


def _explain_shape(value: Any, reason: str, path: Path) -> DecodeFailure:
    return DecodeFailure("shape", reason, _shape_message(value, reason, path), path=path)


_MEMBER_SET = frozenset(MEMBERS)
_ABSENT: Any = object()
_Suspects = list[tuple[int, dict[str, Any]]]  # (index, claim) of the claims to look into


def _shape_problem(value: Any, suspects: _Suspects | None = None) -> tuple[str, Path] | None:
    """The first shape problem as (sub-reason, path), or None.  Sub-reasons are
    looked for in the order the shape check declares them (the checks table),
    each over the whole answer before the next.  ``_shape_message`` words it.
    ``suspects``: the claims that are not exactly four non-empty strings, when
    ``_survey`` found them.  Each search is safe on any value, so that any
    order of the table works.  (One function, a branch per sub-reason: a call
    per sub-reason made the shape path a twentieth slower.)"""
    top = value.__class__ is dict
    claims = value.get("claims", _ABSENT) if top else _ABSENT
    items = claims if claims.__class__ is list else ()
    # A claim with exactly the four members, all non-empty strings, can only be
    # too long; the member searches look at the others (the suspects) only.
    if suspects is None:
        suspects = _suspects(items)
    for reason in _SHAPE_ORDER:
        if reason == "WRONG_SHAPE":
            if not top:
                return reason, ()
            if claims is not _ABSENT and claims.__class__ is not list:
                return reason, ("claims",)
            for index, claim in enumerate(items):
                if claim.__class__ is not dict:
                    return reason, ("claims", index)
        elif reason == "TOO_MANY_CLAIMS":
            if len(items) > LIMITS.MAX_CLAIMS:
                return reason, ("claims",)
        elif reason == "UNKNOWN_MEMBER":
            if top and (len(value) > 1 or claims is _ABSENT):
                for key in value:
                    if key != "claims":
                        return reason, (key,)
            for index, claim in suspects:
                for key in claim:
                    if key not in _MEMBER_SET:
                        return reason, ("claims", index, key)
        elif reason == "MISSING_MEMBER":
            if top and claims is _ABSENT:
                return reason, ()
            for index, claim in suspects:
                for member in MEMBERS:
                    if member not in claim:
                        return reason, ("claims", index)
        elif reason == "NOT_A_STRING":
            for index, claim in suspects:
                for member in MEMBERS:
                    if claim.get(member, "").__class__ is not str:
                        return reason, ("claims", index, member)
        elif reason == "EMPTY_STRING":
            for index, claim in suspects:
                for member in MEMBERS:
                    if claim.get(member) == "":
                        return reason, ("claims", index, member)
        else:  # TOO_LONG
            for index, claim in enumerate(items):
                if claim.__class__ is dict:
                    for member in MEMBERS:
                        member_value = claim.get(member)
                        if member_value.__class__ is str and not _member_ok(member_value):
                            return reason, ("claims", index, member)
    return None


# The order of the search, read once from the checks table (which is fixed).  The
# sub-reasons _shape_problem has a branch for (a set: the table orders them); a
# table that declares others fails here, at import, not on some answer.
_SHAPE_ORDER = CHECKS_BY_ID["shape"].reasons
_SHAPE_SEARCHED = frozenset({"WRONG_SHAPE", "TOO_MANY_CLAIMS", "UNKNOWN_MEMBER", "MISSING_MEMBER", "NOT_A_STRING",
                             "EMPTY_STRING", "TOO_LONG"})
if set(_SHAPE_ORDER) != _SHAPE_SEARCHED:
    raise ImportError(f"the shape check declares {_SHAPE_ORDER}; decode searches for {sorted(_SHAPE_SEARCHED)}")


def _suspects(items: Any) -> _Suspects:
    return [(index, claim) for index, claim in enumerate(items) if claim.__class__ is dict and not _plain(claim)]


def _plain(claim: dict[str, Any]) -> bool:
    """Exactly the four members, each a non-empty string: nothing for the shape
    search to look at but the length limit."""
    if claim.keys() != _MEMBER_SET:
        return False
    for member_value in claim.values():
        if member_value.__class__ is not str or not member_value:
            return False
    return True


def _shape_message(value: Any, reason: str, path: Path) -> str:
    """The message for people about the shape problem at ``path``."""
    at: Any = value
    if reason != "UNKNOWN_MEMBER":  # the others' paths lead to what is wrong
        for step in path:
            at = at[step]
    where = path_text(path)
    if reason == "WRONG_SHAPE":
        if not path:
            return f"the answer is {_kind(value)}, expected an object with claims"
        if len(path) == 1:
            return f"claims is {_kind(at)}, expected an array"
        return f"{where} is {_kind(at)}, expected a claim object"
    if reason == "TOO_MANY_CLAIMS":
        return f"{len(at)} claims, at most {LIMITS.MAX_CLAIMS} allowed"
    if reason == "UNKNOWN_MEMBER":
        if len(path) == 1:
            return f"unknown top-level member {_quoted(str(path[0]))}: the answer holds only claims"
        return (f"claims[{path[1]}] has unknown member {_quoted(str(path[2]))} "
                "(a claim has exactly field, value, doc, quote)")
    if reason == "MISSING_MEMBER":
        if not path:
            return "the answer has no claims member"
        missing = next(member for member in MEMBERS if member not in at)
        return f"claims[{path[1]}] has no {missing}"
    if reason == "NOT_A_STRING":
        return f"{where} is {_kind(at)}, expected a string"
    if reason == "EMPTY_STRING":
        return f"{where} is empty"
    return f"{where} is {utf16_len(at)} UTF-16 code units long, at most {LIMITS.MAX_MEMBER} allowed"


def describe_syntax_error(body: str, error: str) -> tuple[str, str, int]:
    """Translate a msgspec error into (reason, message for people, char offset)."""
    error = error.removeprefix("JSON is malformed: ")
    found = _BYTE_POSITION.search(error)
    if found is None:
        return _syntax_message(body, error, len(body))
    error = error[: found.start()]
    # msgspec reports the byte where it stopped reading, which for some errors
    # is past the offending character; point at the character itself.
    position = max(int(found.group(1)) - _READ_PAST.get(error, 0), 0)
    return _syntax_message(body, error, len(body.encode("utf-8")[:position].decode("utf-8", "ignore")))


# How many bytes msgspec has read past the start of the offending text.
_READ_PAST = {"trailing characters": 1, "invalid escape character in string": 2,
              "invalid character in unicode escape": 1}
_SURROGATE_ERRORS = frozenset({"Input data was truncated", "invalid utf-16 surrogate pair",
                               "unexpected end of escaped utf-16 surrogate pair"})
_HEX_ESCAPE = re.compile(r"\\u[0-9a-fA-F]{0,4}")
_JSON_WHITESPACE = frozenset(" \t\n\r")
_NOT_WHITESPACE = "which JSON does not allow as whitespace (only space, tab, line feed and carriage return)"


def _syntax_message(body: str, error: str, offset: int) -> tuple[str, str, int]:
    """(reason, message, offset) for a syntax error in msgspec's words whose
    offending text starts at ``offset``."""
    char = body[offset] if offset < len(body) else ""
    if error == "trailing characters":
        named = f": {_character(char)}{_blank_note(char)}" if char and _unseen(char) else ""
        return "TRAILING_DATA", f"data after the JSON value{named}", offset
    if error in _SURROGATE_ERRORS:
        # msgspec meets a lone surrogate escape only when it reads what follows
        # it; point at the escape.
        lone = _lone_surrogate(body)
        if lone is not None and lone <= offset:
            return ("SYNTAX", f"lone surrogate escape {body[lone:lone + 6]} "
                    "(a string must hold whole characters)", lone)
    if error == "Input data was truncated":
        return "SYNTAX", "unexpected end of input", len(body)
    if error == "invalid escape character in string":
        escaped = body[offset + 1:offset + 2]
        if escaped and _unseen(escaped):
            return "SYNTAX", f"invalid escape in a string: a backslash before {_character(escaped)}", offset
        return "SYNTAX", f"invalid escape {_quoted(body[offset:offset + 2])} in a string", offset
    if error == "invalid character in unicode escape":
        start = body.rfind("\\u", 0, offset + 1)
        escape = _HEX_ESCAPE.match(body, start) if start >= 0 else None
        if escape is not None:
            return ("SYNTAX", f"invalid unicode escape {_quoted(escape.group())} "
                    "(\\u takes four hexadecimal digits)", start)
    if error == "invalid number":
        start = offset
        while start > 0 and body[start - 1] in _NUMBER_CHARS:
            start -= 1
        end = offset
        while end < len(body) and body[end] in _NUMBER_CHARS:
            end += 1
        return ("SYNTAX", f"invalid number {_quoted(body[start:end])} "
                "(no leading zeros; digits after '.', 'e' and '-')", start)
    if error == "invalid character":
        word = _word_before(body, offset)
        if word is not None:
            start, text = word
            return "SYNTAX", f"invalid literal {_quoted(text)} (JSON has only true, false and null)", start
        if not char:
            return "SYNTAX", "unexpected end of input", len(body)
        if ord(char) < 0x20 and in_string(body, offset):
            return ("SYNTAX", f"raw control character {escape_char(char)} in a string "
                    "(write it as an escape)", offset)
        outside = " outside a string" if unicodedata.category(char) == "Cc" else ""
        return "SYNTAX", f"unexpected {_character(char)}{outside}{_blank_note(char)}", offset
    if char and _unseen(char):  # "expected ...": say what is there when it cannot be seen
        return "SYNTAX", f"{error}, found {_character(char)}{_blank_note(char)}", offset
    return "SYNTAX", error, offset


def _unseen(char: str) -> bool:
    """A character that would not show as itself: a control, an invisible one or
    a blank other than the space."""
    return char != " " and (char.isspace() or is_invisible(char))


def _character(char: str) -> str:
    """``char`` named for a message, escaped and with its Unicode name when it
    would not show as itself."""
    if unicodedata.category(char) == "Cc":
        return f"control character {escape_char(char)}"
    if _unseen(char):
        name = unicodedata.name(char, "").lower()
        return f'character "{escape_char(char)}"' + (f" ({name})" if name else "")
    return f"character {_quoted(char)}"


def _blank_note(char: str) -> str:
    """Why a character people take for whitespace is refused, if it is one."""
    return f", {_NOT_WHITESPACE}" if char.isspace() and char not in _JSON_WHITESPACE else ""


_NUMBER_CHARS = frozenset("0123456789.eE+-")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
# A letter after one of these is inside a string, a number (1e5) or a longer word.
_NOT_BEFORE_A_WORD = frozenset('"._0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz')


def _word_before(body: str, offset: int) -> tuple[int, str] | None:
    """A bare word (a misspelt literal, NaN, Infinity) at or just before ``offset``."""
    for match in _WORD.finditer(body, max(offset - 8, 0), min(offset + 1, len(body))):
        before = body[match.start() - 1:match.start()]
        if match.start() <= offset <= match.end() + 1 and before not in _NOT_BEFORE_A_WORD:
            whole = _WORD.match(body, match.start())
            assert whole is not None
            return match.start(), whole.group()
    return None


class _Number:
    """A JSON number too large for msgspec, kept as its text."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


class _SyntaxProblem(Exception):
    """A syntax error in msgspec's words (``_syntax_message``) at the offending text."""

    def __init__(self, error: str, offset: int) -> None:
        super().__init__(error)
        self.error, self.offset = error, offset


def _reject_constant(name: str) -> Any:
    raise ValueError(name)


def _decode_keeping_numbers(body: str) -> Any:
    """Strict decode with the standard library (depth is already bounded).  Its
    syntax errors are raised in msgspec's words, so that both decoders' errors
    read the same."""
    if _lone_surrogate(body) is not None:
        raise _SyntaxProblem("invalid utf-16 surrogate pair", len(body))
    try:
        return json.loads(body, parse_int=_Number, parse_float=_Number, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise _SyntaxProblem(_STDLIB_ERRORS.get(exc.msg, exc.msg[:1].lower() + exc.msg[1:]), exc.pos) from None
    except ValueError as exc:  # NaN, Infinity, -Infinity: the word, after any sign
        word = str(exc).lstrip("-")
        raise _SyntaxProblem("invalid character", max(body.find(word, body.find(str(exc))), 0)) from None


# The standard library's syntax errors in msgspec's words, each raised at the
# offending text.
_STDLIB_ERRORS = {
    "Expecting value": "invalid character",
    "Expecting ',' delimiter": "expected ','",
    "Expecting ':' delimiter": "expected ':'",
    "Expecting property name enclosed in double quotes": "object keys must be strings",
    "Invalid control character at": "invalid character",
    "Unterminated string starting at": "Input data was truncated",
    "Invalid \\escape": "invalid escape character in string",
    "Invalid \\uXXXX escape": "invalid character in unicode escape",
    "Extra data": "trailing characters",
}


def _lone_surrogate(body: str) -> int | None:
    """Offset of the first ``\\uD800``-style escape that is not half of a pair."""
    if "\\" not in body:
        return None
    pending: int | None = None  # offset of a high surrogate escape awaiting its pair
    last_end = -1
    for match in _UNICODE_ESCAPE.finditer(body):
        hexa = match.group(1)
        code = int(hexa, 16) if hexa else None
        adjacent = match.start() == last_end
        if pending is not None and not (adjacent and code is not None and 0xDC00 <= code <= 0xDFFF):
            return pending
        if pending is not None:
            pending = None
        elif code is not None and 0xD800 <= code <= 0xDBFF:
            pending = match.start()
        elif code is not None and 0xDC00 <= code <= 0xDFFF:
            return match.start()
        last_end = match.end()
    return pending


def _size(text: str) -> int:
    # len() is a lower bound of the UTF-16 length; skip the exact count when huge.
    if len(text) > LIMITS.MAX_INPUT:
        return utf16_len(text) if len(text) <= 1 << 20 else len(text)
    return utf16_len(text)


def _too_large(size: int, text: str) -> str:
    measure = f"{size} UTF-16 code units" if len(text) <= 1 << 20 else f"at least {size} UTF-16 code units"
    return f"{measure}, limit {LIMITS.MAX_INPUT}"


def _fail(text: str | None, size: int, check: str, reason: str, message: str, **where: Any) -> Decoded:
    return Decoded(text, 0, size, None, DecodeFailure(check, reason, message, **where))


def _failed(text: str, start: int, size: int, check: str, reason: str, message: str, **where: Any) -> Decoded:
    return Decoded(text, start, size, None, DecodeFailure(check, reason, message, **where))


def _member_ok(value: str) -> bool:
    # A string no longer than MAX_MEMBER // 2 characters cannot exceed MAX_MEMBER units.
    return len(value) <= LIMITS.MAX_MEMBER // 2 or utf16_len(value) <= LIMITS.MAX_MEMBER


def _more_string_tokens(body: str, strings: int) -> bool:
    """Whether valid JSON ``body`` has more string tokens than its decoded value
    has ``strings`` (keys and string values): the duplicate-key proof (see the
    module docstring).  The text has at least ``2 * strings`` unescaped quotes
    and at most as many as it has quotes, so escaped quotes are looked for only
    when these bounds differ and there is a backslash."""
    quotes = body.count('"')
    if quotes == 2 * strings:
        return False
    if "\\" in body:
        quotes -= _escaped_quotes(body)
    return quotes != 2 * strings


def _escaped_quotes(text: str) -> int:
    """How many ``\\"`` escapes valid JSON ``text`` holds.  Backslashes pair up from
    the left within a string, so dropping every ``\\\\`` pair leaves exactly the
    escaped quotes as ``\\"`` (and is far cheaper than listing every escape)."""
    return text.replace("\\\\", "").count('\\"')


def _strings_in(value: Any) -> int:
    """Keys plus string values in a decoded JSON value (iterative: any depth)."""
    try:
        # Re-encoding in C and counting its string tokens is the fast way; the
        # decoded value has no duplicate keys, so this is its exact count.
        encoded = _ENCODE(value)
    except TypeError:
        pass  # opaque big numbers from the fallback decoder: walk instead
    else:
        quotes = encoded.count(b'"')
        if 0x5C in encoded:  # a backslash (an int needle skips the buffer protocol)
            quotes -= encoded.replace(b"\\\\", b"").count(b'\\"')  # as _escaped_quotes
        return quotes // 2
    count = 0
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            count += 1
        elif isinstance(item, dict):
            count += len(item)
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return count


def _locate_duplicate(text: str, start: int) -> DecodeFailure:
    """The DUPLICATE_KEY failure with the key and both positions."""
    duplicate = scan(text[start:]).duplicate
    if duplicate is None:  # pragma: no cover - the count proved there is one
        return DecodeFailure("duplicate_key", "DUPLICATE_KEY", "an object repeats a key")
    first = (start + duplicate.first[0], start + duplicate.first[1])
    second = (start + duplicate.second[0], start + duplicate.second[1])
    return DecodeFailure(
        "duplicate_key", "DUPLICATE_KEY",
        f"key {_quoted(duplicate.key)} appears twice in {path_text(duplicate.object_path)}: "
        f"at {_at(text, first[0])} and at {_at(text, second[0])}",
        offset=first[0], end=first[1], second=second)


def find_duplicate_key(text: str, value: Any) -> DuplicateKey | None:
    """The first repeated key of valid JSON ``text`` that decoded to ``value``.

    Exact: the cheap token count proves most texts duplicate-free; the
    position-aware scan runs only when the counts disagree.
    """
    return scan(text).duplicate if repeats_a_key(text, value) else None


def repeats_a_key(text: str, value: Any) -> bool:
    """Whether valid JSON ``text``, decoded to ``value``, repeats a key in some
    object: exact and cheap (the token count of the module docstring)."""
    return _more_string_tokens(text, _strings_in(value))


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float, _Number)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _quoted(text: str) -> str:
    return '"' + visible(text) + '"'


def _at(text: str, offset: int) -> str:
    line, column = line_col(text, offset)
    return f"{line}:{column}"
