"""A position-aware scan of JSON text that is already known to be valid.

msgspec decodes fast but reports no positions and silently keeps the last of
duplicate keys.  This scanner is the exact, slower companion: it records where
every value and key is (so messages can say ``3:14`` and the UI can highlight a
claim's members) and finds the first repeated key with both occurrences.  It only
ever runs on text msgspec has accepted, and it is iterative: no recursion limit.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

__all__ = ["JsonIndex", "DuplicateKey", "Path", "in_string", "max_depth", "scan", "path_text"]

Path = tuple[str | int, ...]

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+', re.S)
# The lexical view of any text, valid JSON or not, that the depth check and the
# messages read: a string runs from a quote to the next quote not escaped by a
# backslash, or to the end of the text when it is never closed; outside strings
# only the brackets matter.  The closing quote is optional, so the pattern
# matches at every quote and never backtracks: the scan reads each character
# once.  (Requiring the closing quote made an unterminated string fail and be
# retried at every escaped quote inside it: quadratic, 0.3 s on 8 KB.)
_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\)?'
_BRACKET = re.compile(_STRING + r"|[\[\]{}]", re.S)
_STRINGS = re.compile(_STRING, re.S)


@dataclass(frozen=True, slots=True)
class DuplicateKey:
    key: str
    object_path: Path
    first: tuple[int, int]
    second: tuple[int, int]


@dataclass(slots=True)
class JsonIndex:
    """Spans (start, end) of values and member keys, by path, in the scanned text."""

    values: dict[Path, tuple[int, int]] = field(default_factory=dict)
    keys: dict[Path, tuple[int, int]] = field(default_factory=dict)
    duplicate: DuplicateKey | None = None

    def value_span(self, path: Path) -> tuple[int, int] | None:
        return self.values.get(path)

    def member_span(self, path: Path) -> tuple[int, int] | None:
        """From the key's opening quote to the end of the value."""
        key = self.keys.get(path)
        value = self.values.get(path)
        if key is None or value is None:
            return value
        return key[0], value[1]


def path_text(path: Path, root: str = "the answer") -> str:
    """``("claims", 1, "value")`` -> ``claims[1].value``; the empty path is ``root``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else part
    return out or root


def scan(text: str) -> JsonIndex:
    """Index valid JSON ``text``; records the first duplicate key it meets."""
    index = JsonIndex()
    values, keys = index.values, index.keys
    # A frame: [is_object, path, seen keys {key: span}, pending key, next array index, start]
    stack: list[list[Any]] = []
    key_span: tuple[int, int] | None = None

    def child_path() -> Path:
        frame = stack[-1]
        if frame[0]:
            return (*frame[1], frame[3])
        path = (*frame[1], frame[4])
        frame[4] += 1
        return path

    expect_key = False
    for match in _TOKEN.finditer(text):
        token = match.group()
        start, end = match.span()
        first = token[0]
        if first == '"' and expect_key:
            # Only a key with escapes needs unescaping to be compared.
            key = json.loads(token) if "\\" in token else token[1:-1]
            key_span = (start, end)
            frame = stack[-1]
            seen = frame[2]
            if key in seen:
                if index.duplicate is None:
                    index.duplicate = DuplicateKey(key, frame[1], seen[key], key_span)
            else:
                seen[key] = key_span
            frame[3] = key
            expect_key = False
            continue
        if first in ":,":
            if first == "," and stack and stack[-1][0]:
                expect_key = True
            continue
        if first in "}]":
            frame = stack.pop()
            values[frame[1]] = (frame[5], end)
            expect_key = False
            continue
        # A value starts here.
        path: Path = child_path() if stack else ()
        if stack and stack[-1][0]:
            keys[path] = key_span  # type: ignore[assignment]  # in an object: the key's span was read
        if first == "{":
            stack.append([True, path, {}, None, 0, start])
            expect_key = True
        elif first == "[":
            stack.append([False, path, None, None, 0, start])
        else:
            values[path] = (start, end)
    return index


def max_depth(text: str, limit: int) -> tuple[int, int | None]:
    """Nesting depth of the structural brackets of ``text``, and the offset of
    the first bracket beyond ``limit`` (None if within it); stops counting there.

    Works on any text, valid JSON or not, in one pass.  Only brackets outside
    strings count, an unterminated string's tail included (see ``_STRING``):
    every ``[`` or ``{`` opens a level and every ``]`` or ``}`` closes one.
    """
    depth = deepest = 0
    for match in _BRACKET.finditer(text):
        ch = text[match.start()]
        if ch == "[" or ch == "{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > limit:
                    return deepest, match.start()
        elif ch == "]" or ch == "}":
            depth -= 1
    return deepest, None


def in_string(text: str, offset: int) -> bool:
    """Whether the character at ``offset`` of any text is inside a string: after
    its opening quote, up to its closing quote or the end of the text when it is
    never closed (the lexical view ``max_depth`` counts with)."""
    for match in _STRINGS.finditer(text):
        if match.start() >= offset:
            return False
        if offset < match.end():
            return True
    return False
