"""Where a member is in a foreign record: the path language of ``--log-format``
presets and files.

A path is dotted, or an RFC 6901 JSON pointer when it starts with ``/`` (keys that
hold dots: ``/attributes/output.value``), with three additions:

- ``|json`` after a segment: the member is JSON text (OpenAI's string-valued
  metadata, Langfuse's ``output``, OpenTelemetry's ``gen_ai.output.messages``),
  decoded and walked into: ``metadata.request|json``, ``output|json.content``;
- ``[key=value]`` after a segment: in the array there, the first element whose
  member ``key`` is the string ``value``: ``output[type=message]``,
  ``attributes[key=gen_ai.output.messages]`` (the value may hold dots);
- ``[*]``, in a ``records`` path only: every element of the array, each a record
  (``resourceSpans[*].scopeSpans[*].spans[*]``).

A digit segment indexes an array (and is a key on an object), as in ``--raw``'s
paths.  ``parse`` compiles a path into steps once; ``walk`` follows them through a
decoded value, and says where it stopped when the member is not there.

Pure: no textual, no rich.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec

from ...contract.text import visible
from ..mapping import list_index, parse_path

__all__ = ["Missing", "Path", "RepeatedKey", "decode_json", "parse"]

_SELECT = re.compile(r"\[([^\[\]=]+)=([^\[\]]*)\]|\[\*\]")


class RepeatedKey(ValueError):
    """A JSON text repeats a key in one object: which copy counts is ambiguous."""


@dataclass(frozen=True, slots=True)
class Missing:
    """Where a walk stopped: the part of the path walked and why."""

    where: str
    why: str

    def __str__(self) -> str:
        return f"nothing at {self.where} ({self.why})" if self.where else f"nothing there ({self.why})"


# A step: ("key", name, index-on-an-array or -1) | ("select", key, value) | ("each",) | ("json",)
Step = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class Path:
    """A compiled path: its text as given and its steps."""

    text: str
    steps: tuple[Step, ...]

    @property
    def each(self) -> bool:
        return any(step[0] == "each" for step in self.steps)

    def walk(self, value: Any) -> Any:
        """The member this path reaches in ``value``, or ``Missing`` (RepeatedKey
        when a ``|json`` text on the way repeats a key).  The way down is walked
        without keeping where it is (a record walks a dozen paths); a miss is
        walked again to say where it stopped."""
        start = value
        for step in self.steps:
            kind = step[0]
            if kind == "key":
                cls = value.__class__
                if cls is dict:
                    value = value.get(step[1], _NONE)
                    if value is _NONE:
                        return self._missing(start)
                elif cls is list and 0 <= step[2] < len(value):
                    value = value[step[2]]
                else:
                    return self._missing(start)
            elif kind == "json":
                if value.__class__ is not str:
                    return self._missing(start)
                try:
                    value = _decoded(value)
                except RepeatedKey:
                    return self._missing(start)  # raises it again, naming where
                if value is _NONE:
                    return self._missing(start)
            elif kind == "select":
                if value.__class__ is not list:
                    return self._missing(start)
                key, wanted = step[1], step[2]
                for element in value:
                    if element.__class__ is dict and element.get(key) == wanted:
                        value = element
                        break
                else:
                    return self._missing(start)
            else:
                raise ValueError("[*] is for records paths")  # parse refuses it elsewhere
        return value

    def _missing(self, value: Any) -> Missing:
        """Where the walk of ``value`` stops, and why (RepeatedKey as ``walk``)."""
        walked: list[str] = []
        for step in self.steps:
            kind = step[0]
            if kind == "json":
                if value.__class__ is not str:
                    return Missing(".".join(walked), f"{_kind(value)}, not JSON text")
                try:
                    value = decode_json(value)
                except RepeatedKey as exc:
                    raise RepeatedKey(f"{'.'.join(walked)}|json: {exc}") from None
                except ValueError:
                    return Missing(".".join(walked), "text that is not JSON")
                walked[-1:] = [walked[-1] + "|json"] if walked else ["|json"]
                continue
            if kind == "key":
                name, index = step[1], step[2]
                if value.__class__ is dict:
                    found = value.get(name, _NONE)
                elif value.__class__ is list and index >= 0:
                    found = value[index] if index < len(value) else _NONE
                    if found is _NONE:
                        return Missing(".".join(walked), f"an array of {len(value)} element(s), none at {index}")
                else:
                    return Missing(".".join(walked), f"{_kind(value)}, not an object or an array")
                if found is _NONE:
                    return Missing(".".join(walked + [name]), "no such member")
                walked.append(name)
                value = found
                continue
            key, wanted = step[1], step[2]
            if value.__class__ is not list:
                return Missing(".".join(walked), f"{_kind(value)}, not an array")
            for element in value:
                if element.__class__ is dict and element.get(key) == wanted:
                    value = element
                    break
            else:
                return Missing(".".join(walked) + f"[{key}={wanted}]", "no element has it")
            walked[-1:] = [(walked[-1] if walked else "") + f"[{key}={wanted}]"]
        return Missing(".".join(walked), "found")  # pragma: no cover - only a miss is described

    def expand(self, value: Any, place: str = "") -> Iterator[tuple[str, Any, tuple[Any, ...]]]:
        """Every (place, value, enclosing) this path reaches, ``[*]`` taking each
        element (a records path), ``enclosing`` the element each ``[*]`` before the
        last took (an OTLP span's resource and scope); a member missing on the way
        reaches nothing."""
        yield from _expand(self.steps, value, place, ())


_NONE = object()
_UNSEEN = object()
# JSON texts decoded on the way (a request logged as JSON text is the same text for many records):
# the latest, by text; a text that is not JSON is kept as _NONE, one that repeats a key raises each time.
_DECODED: dict[str, Any] = {}
_DECODED_KEPT = 1024
_DECODED_CHARS = 4096


def _decoded(text: str) -> Any:
    found = _DECODED.get(text, _UNSEEN)
    if found is not _UNSEEN:
        return found
    try:
        found = decode_json(text)
    except RepeatedKey:
        raise
    except ValueError:
        found = _NONE
    if len(text) <= _DECODED_CHARS:
        if len(_DECODED) >= _DECODED_KEPT:
            _DECODED.clear()
        _DECODED[text] = found
    return found


def _expand(steps: tuple[Step, ...], value: Any, place: str,
            enclosing: tuple[Any, ...]) -> Iterator[tuple[str, Any, tuple[Any, ...]]]:
    for number, step in enumerate(steps):
        if step[0] == "each":
            if value.__class__ is not list:
                return
            rest = steps[number + 1:]
            last = not any(later[0] == "each" for later in rest)
            for index, element in enumerate(value):
                yield from _expand(rest, element, f"{place}[{index}]", enclosing if last else (*enclosing, element))
            return
        found = Path(place, (step,)).walk(value)
        if found.__class__ is Missing:
            return
        value = found
        if step[0] == "key":
            place = f"{place}.{step[1]}" if place else step[1]
        elif step[0] == "select":
            place = f"{place}[{step[1]}={step[2]}]"
    yield place, value, enclosing


def _kind(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "a number",
            float: "a number", type(None): "null"}.get(type(value), "a value")


def parse(text: str, records: bool = False) -> Path:
    """The compiled path (ValueError with a one-line reason for one that is not
    one; ``[*]`` only where ``records``)."""
    if not isinstance(text, str):
        raise ValueError(f"a path is a text, not {type(text).__name__}")
    steps: list[Step] = []
    if text.startswith("/"):
        for segment in parse_path(text):
            name, marker, rest = segment.partition("|json")
            steps.append(("key", name, list_index(name)))
            if marker:
                steps.append(("json",))
                if rest:  # a pointer's last key, then a dotted way into its JSON: /attributes/a.b|json.temperature
                    if not rest.startswith("."):
                        raise ValueError(f"the pointer {visible(text)!r}: |json is followed by a dotted path")
                    steps.extend(parse(rest[1:]).steps)
        return Path(text, tuple(steps))
    if not text:
        raise ValueError("the path is empty")
    for segment in _segments(text):
        name, suffix = _split_suffix(segment, text)
        if name:
            steps.append(("key", name, list_index(name)))
        elif not steps and not suffix:
            raise ValueError(f"the path {visible(text)!r} has an empty segment")
        for match in _SELECT.finditer(suffix.split("|")[0]):
            if match.group(0) == "[*]":
                if not records:
                    raise ValueError(f"[*] in {visible(text)!r}: every element is for the records path only")
                steps.append(("each",))
            else:
                steps.append(("select", match.group(1), match.group(2)))
        if suffix.endswith("|json"):
            steps.append(("json",))
    return Path(text, tuple(steps))


def _segments(text: str) -> list[str]:
    """The dotted segments, a dot inside ``[...]`` kept (``attributes[key=a.b]``)."""
    segments, depth, start = [], 0, 0
    for at, character in enumerate(text):
        if character == "[":
            depth += 1
        elif character == "]":
            depth = max(0, depth - 1)
        elif character == "." and depth == 0:
            segments.append(text[start:at])
            start = at + 1
    segments.append(text[start:])
    if "" in segments:
        raise ValueError(f"the path {visible(text)!r} has an empty segment (a key that holds a dot is written "
                         "in a JSON pointer: /attributes/output.value)")
    return segments


def _split_suffix(segment: str, text: str) -> tuple[str, str]:
    """A segment's name and what follows it: selectors, then ``|json``."""
    at = len(segment)
    for marker in ("[", "|"):
        found = segment.find(marker)
        if found >= 0:
            at = min(at, found)
    name, suffix = segment[:at], segment[at:]
    rest = suffix
    if rest.endswith("|json"):
        rest = rest[:-5]
    if _SELECT.sub("", rest):
        raise ValueError(f"the path {visible(text)!r}: {visible(suffix)!r} is neither [key=value], [*] nor |json")
    return name, suffix


def decode_json(text: str | bytes) -> Any:
    """A JSON text decoded (ValueError if it is not JSON, RepeatedKey naming the
    key when an object in it repeats one).  msgspec decodes in C and keeps a
    repeated key's last copy: the text's quotes are then more than its value's,
    which is counted in C too, and only then found slowly."""
    data: bytes = text.encode("utf-8", "surrogatepass") if text.__class__ is str else text  # type: ignore[assignment]  # else bytes
    try:
        value = msgspec.json.decode(data)
    except (msgspec.DecodeError, RecursionError) as exc:
        raise ValueError(str(exc)) from None
    # A repeated key's copies that msgspec dropped leave the text with more quote characters than its
    # value written again (two a key at least): exact where the text has no \u escape, which could
    # write a quote (\u0022) or a backslash (\u005c) another way; such a text is looked at slowly.
    if b"\\u" in data or data.count(b'"') != msgspec.json.encode(value).count(b'"'):
        _find_repeat(data)
    return value


def _find_repeat(data: bytes) -> None:
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        seen: set[str] = set()
        for key, _ in items:
            if key in seen:
                raise RepeatedKey(f"the key {visible(key)!r} is repeated in one object (which copy counts is "
                                  "ambiguous)")
            seen.add(key)
        return dict(items)

    try:
        json.loads(data, object_pairs_hook=pairs)
    except RepeatedKey:
        raise
    except (ValueError, RecursionError):
        return
