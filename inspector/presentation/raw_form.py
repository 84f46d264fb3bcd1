"""The raw answer as the raw editor holds it: visible, and exactly the answer again.

A text editor cannot hold every answer as it is.  A terminal must never get an
ESC, a C1 control or a bidi override from it, and Textual's TextArea splits lines
at CR, VT, FF, U+0085, U+2028 and U+2029 and joins them with one newline, so a
quote holding U+2028 would come back as a raw line break (and INVALID_JSON).  So
the editor holds the *editable form*: every control or invisible character but
the line feed and the tab written as ``\\u{XXXX}`` (its code point in hex), which
is not JSON's ``\\u001b`` (a JSON escape, the six characters it is in the
answer) and reads the same as the rest of the inspector's escapes.  A backslash
of the answer that happens to start ``\\u{`` is itself written ``\\u{5c}``, so the
form always reads back to the very answer (``from_form(to_form(raw).text) == raw``),
and typing ``\\u{1b}`` is how one writes an ESC into an answer.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from ..contract.text import is_invisible

__all__ = ["MARKER", "EditableForm", "from_form", "read_form", "to_form"]

# A marker of the editable form: the code point in hex.
MARKER = re.compile(r"\\u\{([0-9a-fA-F]{1,6})\}")
_KEPT = frozenset("\n\t")


def _finder(raw: str) -> re.Pattern[str] | None:
    """What the editable form writes as markers: the answer's control and invisible
    characters (each distinct one judged once), and a backslash starting ``\\u{``."""
    hidden = sorted(ch for ch in set(raw) if ch not in _KEPT and is_invisible(ch))
    if not hidden and "\\u{" not in raw:
        return None
    alternatives = [r"\\(?=u\{)"]
    if hidden:
        alternatives.append("[" + "".join(re.escape(ch) for ch in hidden) + "]")
    return re.compile("|".join(alternatives))


@dataclass(frozen=True, slots=True)
class EditableForm:
    """An answer's editable form, and where each marker stands: ``written`` the
    answer's offset of each character written as a marker, ``starts`` and ``ends``
    the marker's place in the form; every other character is one for one."""

    text: str
    written: tuple[int, ...] = ()
    starts: tuple[int, ...] = ()
    ends: tuple[int, ...] = ()

    def offset(self, answer_offset: int) -> int:
        """The form's offset of the answer's character ``answer_offset``."""
        before = bisect_right(self.written, answer_offset - 1)  # the markers of characters before it
        if not before:
            return answer_offset
        last = before - 1
        return self.ends[last] + (answer_offset - self.written[last] - 1)

    @property
    def markers(self) -> tuple[tuple[int, int], ...]:
        """The (start, end) of every marker in the form, to draw them as escapes."""
        return tuple(zip(self.starts, self.ends, strict=True))


def to_form(raw: str) -> EditableForm:
    """The editable form of an answer's text."""
    finder = None if raw.isascii() and raw.isprintable() and "\\u{" not in raw else _finder(raw)
    if finder is None:
        return EditableForm(raw)
    pieces: list[str] = []
    written: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    length = start = 0
    for match in finder.finditer(raw):
        index = match.start()
        if index > start:
            pieces.append(raw[start:index])
            length += index - start
        marker = f"\\u{{{ord(raw[index]):x}}}"
        written.append(index)
        starts.append(length)
        length += len(marker)
        ends.append(length)
        pieces.append(marker)
        start = index + 1
    pieces.append(raw[start:])
    return EditableForm("".join(pieces), tuple(written), tuple(starts), tuple(ends))


def read_form(text: str) -> tuple[str, EditableForm]:
    """The answer an editable form stands for (each ``\\u{XXXX}`` the character it
    names), and where its markers are."""
    if "\\u{" not in text:
        return text, EditableForm(text)
    pieces: list[str] = []
    written: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    length = start = 0
    for match in MARKER.finditer(text):
        code = int(match.group(1), 16)
        if code > 0x10FFFF:
            continue  # not a character: the text stays as typed
        pieces.append(text[start:match.start()])
        length += match.start() - start
        written.append(length)
        starts.append(match.start())
        ends.append(match.end())
        pieces.append(chr(code))
        length += 1
        start = match.end()
    pieces.append(text[start:])
    return "".join(pieces), EditableForm(text, tuple(written), tuple(starts), tuple(ends))


def from_form(text: str) -> str:
    """The answer an editable form stands for."""
    return read_form(text)[0]
