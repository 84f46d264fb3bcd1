"""The one way untrusted text reaches the screen.

Every string that comes from a suite, a registry, a request or an answer goes
through here.  It is never parsed as markup (it becomes the plain text of a
``Content`` or a rich ``Text``), and every control or invisible character
(``contract.text.is_invisible``: Unicode Cc, Cf, Cs, Co, Cn, Zl, Zp and the
default-ignorable letters and blanks such as U+3164 HANGUL FILLER) is replaced by
a visibly styled ``\\uXXXX``, so an ESC, an OSC 52 sequence, a NUL or a bidi
override never reaches the terminal as itself, and no blank passes for nothing.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from functools import lru_cache

from rich.style import Style as RichStyle
from rich.text import Text
from textual.content import Content
from textual.style import Style

from ..contract.text import INVISIBLE_CATEGORIES, escape_char, is_invisible

__all__ = [
    "ESCAPE_STYLE",
    "content",
    "display",
    "file_error",
    "is_hidden",
    "pieces",
    "rich_text",
]

# The contract's own definition: the TUI, the CLI's text and JSON escape alike.
HIDDEN_CATEGORIES = INVISIBLE_CATEGORIES
is_hidden = is_invisible

# How an escape looks in Content (theme variables resolve when rendered).
ESCAPE_STYLE = "bold $text-warning on $warning-muted"
# For rich Text outside a widget's component styles (e.g. screenshots of errors).
ESCAPE_RICH_STYLE = RichStyle(bold=True, color="black", bgcolor="yellow")


@lru_cache(maxsize=4096)
def _escape(ch: str, raw_bytes: bool) -> str:
    code = ord(ch)
    if raw_bytes and 0xDC80 <= code <= 0xDCFF:
        # A byte that is not UTF-8, carried through surrogateescape decoding.
        return f"\\x{code - 0xDC00:02x}"
    return escape_char(ch)


@lru_cache(maxsize=256)
def _finder(hidden: frozenset[str]) -> re.Pattern[str]:
    return re.compile("[" + "".join(sorted(re.escape(ch) for ch in hidden)) + "]")


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
    # Each distinct character is judged once, then a regular expression finds them
    # (an answer of 50,000 escapes is one pass in C, not 50,000 lookups in Python).
    hidden = frozenset(ch for ch in set(text) if is_hidden(ch) and not (ch == "\n" and newlines))
    if not hidden:
        yield text, False
        return
    start = 0
    for match in _finder(hidden).finditer(text):
        index = match.start()
        if index > start:
            yield text[start:index], False
        yield _escape(match.group(), raw_bytes), True
        start = index + 1
    if start < len(text):
        yield text[start:], False


def display(text: str, *, newlines: bool = False) -> str:
    """The shown form as a plain string (for notifications, search text, titles)."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(piece for piece, _ in pieces(text, newlines=newlines))


def file_error(error: Exception | str, served: bool, what: str = "the file") -> str:
    """What a notice says of a file that cannot be used: its one-line error, shown escaped.

    Served (``inspector serve``), a reason can quote the file (a JSON literal, a key) and the browser
    is not the server's terminal: the notice names the file only, and the whole error goes to
    standard error, which the server puts in its log.  An error about no file (a ``ValueError`` of
    a typed name) is shown as it is."""
    said = str(error)
    path = error if isinstance(error, str) else getattr(error, "path", None)
    if not served or path is None:
        return display(said)
    # The process's own standard error (Textual captures sys.stderr while the app runs).
    print(display(said), file=sys.__stderr__, flush=True)
    if isinstance(error, str):
        return f"{what} cannot be used: why is in inspector serve's log (a reason may quote the file)"
    return display(f"{path}: cannot be used: why is in inspector serve's log (a reason may quote the file)")


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

