"""Lines read through a format: what the per-line loop gets for each.

``parse_foreign`` reads a line a tool wrote (a preset read line by line: OpenAI
chat completions and responses, Langfuse, LangSmith) into what
``records.parse_line`` gives for our own lines, ``(raw, request, members)``, or a
bad line's reason, or a ``Skipped`` row; ``parse_staged`` reads the canonical
lines a staged format was turned into (``stage``), whose bad records and skipped
rows are lines of their own.  A record without an answer has a ``NoAnswer`` for
its raw, and ``verdict_of`` gives its verdict: status ``NO_ANSWER``, its reason
``REFUSAL``, ``ERROR`` or ``EMPTY``.

Pure: no textual, no rich.
"""

from __future__ import annotations

from typing import Any

import msgspec

from ...contract.checks import CHECKS_BY_ID
from ...contract.decode import decode_answer
from ...contract.models import Registry, Request
from ...contract.verdict import Verdict
from ...contract.verify import verify
from ..records import MAX_LINE_BYTES, RequestCache, without_extras, parse_line
from .paths import RepeatedKey, decode_json
from .spec import NO_ANSWER, FormatSpec, Skipped, convert

__all__ = ["NoAnswer", "answer_text", "parse_foreign", "parse_staged", "to_parsed", "verdict_of"]

_BOM = b"\xef\xbb\xbf"
_MEMBERS = msgspec.json.Decoder(dict[str, msgspec.Raw])
_encode = msgspec.json.encode
# What a record without an answer has for its decoded answer: nothing, which strict decoding refuses
# (so the checks panel shows the contract stopping at its first check, the rest not reached).
_EMPTY = decode_answer("")
_EMPTY_CHECK = CHECKS_BY_ID[_EMPTY.failure.check] if _EMPTY.failure is not None else None


class NoAnswer:
    """A record's raw when it holds no answer: why (``reason``) and what the log says (``detail``)."""

    __slots__ = ("detail", "reason")

    def __init__(self, reason: str, detail: str = "") -> None:
        self.reason = reason
        self.detail = detail

    def __repr__(self) -> str:
        return f"NoAnswer({self.reason!r}, {self.detail!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NoAnswer) and (self.reason, self.detail) == (other.reason, other.detail)

    def __hash__(self) -> int:
        return hash((self.reason, self.detail))


def answer_text(raw: Any) -> str | bytes:
    """A record's answer as text: "" for a record without one (its case in the
    inspector starts from nothing, to write an answer into and see its verdict)."""
    return "" if raw.__class__ is NoAnswer else raw


def verdict_of(raw: Any, request: Request, registry: Registry) -> Verdict:
    """The verdict of a record: the contract's on its answer, or NO_ANSWER with its reason."""
    if raw.__class__ is NoAnswer:
        return Verdict(NO_ANSWER, raw.reason, False, False, (), request, registry, _EMPTY, _EMPTY_CHECK)
    return verify(raw, request, registry)


def to_parsed(canonical: dict[str, Any], requests: RequestCache, ignore_extra: bool = False) -> Any:
    """A canonical record (``spec.convert``) as the per-line loop takes it."""
    request = canonical.pop("request")
    key = request if request.__class__ is msgspec.Raw else _encode(request)
    key = bytes(key)
    known = requests.known.get(key)
    if known is None:
        known = without_extras(key, requests) if ignore_extra else requests.get(key)
    if known.__class__ is str:
        return known
    reason = canonical.get("no_answer")
    if reason is not None:
        raw: Any = NoAnswer(reason, canonical.get("no_answer_detail", ""))
    else:
        raw = canonical.pop("raw")
        if raw.__class__ is not str:
            raw = _encode(raw)
            canonical["raw_logged_as"] = "json"
    members = {name: msgspec.Raw(_encode(value)) for name, value in canonical.items()}
    return raw, known, members


def parse_foreign(line: bytes, requests: RequestCache, spec: FormatSpec) -> Any:
    """One line a tool wrote, read through its preset."""
    if len(line) > MAX_LINE_BYTES:
        return f"too long: more than {MAX_LINE_BYTES // (1024 * 1024)} MiB on one line (not read)"
    if line[:3] == _BOM:
        line = line[3:]
    if not line.strip():
        return "empty line"
    try:
        value = decode_json(line)
    except RepeatedKey as exc:
        return f"duplicate key: {exc}"
    except ValueError as exc:
        return f"not JSON: {exc}"
    canonical = convert(spec, value)
    if canonical.__class__ is not dict:
        return canonical
    return to_parsed(canonical, requests, spec.request_extra == "ignore")


def parse_staged(line: bytes, requests: RequestCache) -> Any:
    """A canonical line of a staged format: a record, a bad record (``@bad``) or a skipped row (``@skip``)."""
    parsed = parse_line(line, requests)
    if parsed.__class__ is not str or not parsed.startswith("raw missing"):
        return parsed
    members = _MEMBERS.decode(line)
    if "@skip" in members:
        return Skipped(msgspec.json.decode(members["@skip"]))
    if "@bad" in members:
        return msgspec.json.decode(members["@bad"])
    if "no_answer" in members:
        canonical = {name: msgspec.json.decode(value) for name, value in members.items()}
        canonical["request"] = members["request"]
        return to_parsed(canonical, requests)
    return parsed
