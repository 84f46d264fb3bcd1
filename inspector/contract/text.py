"""Text measurements shared by the contract, the loaders and every renderer.

Sizes follow Java's String.length(): UTF-16 code units, so a character outside the
Basic Multilingual Plane counts two.  Positions shown to people are 1-based
line:column in characters.
"""

from __future__ import annotations

import unicodedata

__all__ = [
    "INVISIBLE_CATEGORIES",
    "escape_char",
    "is_invisible",
    "line_col",
    "shorten",
    "utf16_len",
    "visible",
]

# Unicode categories that must never reach a terminal as themselves: controls (ESC,
# NUL, DEL, C1), format characters (bidi overrides, zero-width joiners), surrogates,
# private use, and the line/paragraph separators.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, as Java counts it."""
    if text.isascii():
        return len(text)
    # Each code point above U+FFFF is a surrogate pair in UTF-16.
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of a character offset; column counts characters."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1


def is_invisible(ch: str) -> bool:
    return unicodedata.category(ch) in INVISIBLE_CATEGORIES


def visible(text: str) -> str:
    """Replace control and invisible characters with a literal ``\\uXXXX``.

    For plain-text outputs (the CLI, error messages).  The TUI has its own styled
    variant built on the same category set.
    """
    if text.isascii() and text.isprintable():
        return text
    return "".join(escape_char(ch) if is_invisible(ch) else ch for ch in text)


def escape_char(ch: str) -> str:
    """The literal escape shown in place of an invisible character."""
    code = ord(ch)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def shorten(text: str, width: int = 60) -> str:
    """Cut long untrusted text for one-line explanations, keeping the head."""
    if len(text) <= width:
        return text
    return text[: width - 1] + "…"
