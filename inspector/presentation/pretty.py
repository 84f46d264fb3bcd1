"""The answer's pretty view: the same tokens, re-indented.  No textual.

Only whitespace between tokens changes, so every character of the answer keeps
its exact spelling (escapes included) and a map from raw offsets to pretty
offsets carries the highlights (decode error, duplicate keys, the current claim)
over to the pretty view.  Text that is not JSON is re-indented the same lenient
way: brackets open lines, commas end them, strings are copied verbatim.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Pretty", "reindent"]

_INDENT = "  "
# Deeper nesting stops indenting further: 4000 nested arrays (a real test case)
# must not become sixteen million spaces.
_MAX_INDENT = 24
_JSON_WHITESPACE = " \t\n\r"


@dataclass(frozen=True, slots=True)
class Pretty:
    text: str
    offsets: tuple[int, ...]  # offsets[i]: where raw character i is in text; one extra for the end

    def span(self, start: int, end: int) -> tuple[int, int]:
        """A raw [start, end) range in the pretty text."""
        last = len(self.offsets) - 1
        start, end = max(0, min(start, last)), max(0, min(end, last))
        if end <= start:
            return self.offsets[start], self.offsets[start]
        return self.offsets[start], self.offsets[end - 1] + 1


def reindent(text: str, limit: int = 1 << 20) -> Pretty | None:
    """Re-indent JSON-ish text: None when it does not start with an object or an
    array (prose stays as written) or is too long to be worth it.  Whatever
    follows the first complete value is copied as it is."""
    if len(text) > limit or not text.lstrip(" \t\n\r\ufeff").startswith(("{", "[")):
        return None
    out: list[str] = []
    offsets: list[int] = []
    length = 0  # characters written so far
    depth = 0
    in_string = escaped = False
    pending_newline = False  # after an opening bracket or a comma
    just_opened = False  # ... and it was an opening bracket

    def emit(chunk: str) -> None:
        nonlocal length
        out.append(chunk)
        length += len(chunk)

    def newline() -> None:
        emit("\n" + _INDENT * min(depth, _MAX_INDENT))

    for position, ch in enumerate(text):
        if depth == 0 and out and out[-1] in ("}", "]"):
            # The first value is complete: the rest (trailing data) is copied verbatim.
            offsets.extend(range(length, length + len(text) - position))
            emit(text[position:])
            break
        if in_string:
            offsets.append(length)
            emit(ch)
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch in _JSON_WHITESPACE:
            offsets.append(length)  # dropped: points at whatever comes next
            continue
        if ch in "}]":
            depth = max(0, depth - 1)
            if pending_newline and just_opened:
                pending_newline = False  # an empty {} or []
            else:
                pending_newline = False
                newline()
            offsets.append(length)
            emit(ch)
            continue
        if pending_newline:
            pending_newline = False
            newline()
        offsets.append(length)
        if ch in "{[":
            emit(ch)
            depth += 1
            pending_newline = just_opened = True
        elif ch == ",":
            emit(ch)
            pending_newline, just_opened = True, False
        elif ch == ":":
            emit(": ")
        else:
            emit(ch)
            if ch == '"':
                in_string = True
    offsets.append(length)
    return Pretty("".join(out), tuple(offsets))
