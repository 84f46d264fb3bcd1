"""The one way untrusted text reaches the screen.

Every string that comes from a suite, a registry, a request or an answer goes
through here.  It is never parsed as markup (it becomes the plain text of a
``Content`` or a rich ``Text``), and every control or invisible character
(Unicode Cc, Cf, Cs, Co, Zl, Zp, plus unassigned Cn, whose width no terminal
agrees on) is replaced by a visibly styled ``\\uXXXX``, so an ESC, an OSC 52
sequence, a NUL or a bidi override never reaches the terminal as itself.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from functools import lru_cache

from rich.style import Style as RichStyle
from rich.text import Text
from textual.content import Content
from textual.style import Style

from ..contract.text import INVISIBLE_CATEGORIES, escape_char

__all__ = [
    "ESCAPE_STYLE",
    "content",
    "display",
    "is_hidden",
    "pieces",
    "rich_text",
]

# Cn is added to the contract's set: an unassigned code point has no agreed width.
HIDDEN_CATEGORIES = INVISIBLE_CATEGORIES | {"Cn"}

# How an escape looks in Content (theme variables resolve when rendered).
ESCAPE_STYLE = "bold $text-warning on $warning-muted"
# For rich Text outside a widget's component styles (e.g. screenshots of errors).
ESCAPE_RICH_STYLE = RichStyle(bold=True, color="black", bgcolor="yellow")


@lru_cache(maxsize=4096)
def is_hidden(ch: str) -> bool:
    return unicodedata.category(ch) in HIDDEN_CATEGORIES


def _escape(ch: str, raw_bytes: bool) -> str:
    code = ord(ch)
    if raw_bytes and 0xDC80 <= code <= 0xDCFF:
        # A byte that is not UTF-8, carried through surrogateescape decoding.
        return f"\\x{code - 0xDC00:02x}"
    return escape_char(ch)


def pieces(text: str, *, newlines: bool = False, raw_bytes: bool = False) -> Iterator[tuple[str, bool]]:
    """Split ``text`` into runs of shown text and escapes: ``(piece, is_escape)``.

    With ``newlines`` a line feed stays a line feed (multi-line views); otherwise it
    is escaped like any other control character.  With ``raw_bytes`` the surrogates
    of surrogateescape decoding show as ``\\xNN``.
    """
    if text.isascii() and text.isprintable():
        if text:
            yield text, False
        return
    start = 0
    for index, ch in enumerate(text):
        if (ch == "\n" and newlines) or not is_hidden(ch):
            continue
        if index > start:
            yield text[start:index], False
        yield _escape(ch, raw_bytes), True
        start = index + 1
    if start < len(text):
        yield text[start:], False


def display(text: str, *, newlines: bool = False) -> str:
    """The shown form as a plain string (for notifications, search text, titles)."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(piece for piece, _ in pieces(text, newlines=newlines))


def content(text: str, style: str | Style = "", *, newlines: bool = False,
            escape_style: str | Style = ESCAPE_STYLE) -> Content:
    """Untrusted text as Content: literal, never markup, escapes styled."""
    parts = [(piece, escape_style if escaped else style) for piece, escaped in pieces(text, newlines=newlines)]
    return Content.assemble(*parts, strip_control_codes=False)


def rich_text(text: str, style: RichStyle | str = "", *, newlines: bool = False, raw_bytes: bool = False,
              escape_style: RichStyle | str = ESCAPE_RICH_STYLE) -> Text:
    """Untrusted text as a rich Text (for line-API widgets): literal, escapes styled."""
    result = Text(style=style, no_wrap=True, end="")
    for piece, escaped in pieces(text, newlines=newlines, raw_bytes=raw_bytes):
        result.append(piece, escape_style if escaped else None)
    return result

