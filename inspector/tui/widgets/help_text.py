"""The help's text on screen: a little Markdown (headings, list items with a key,
`code`, **bold**, *italic*) laid out as one ``Content`` per width, cached."""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget

from .. import safe

__all__ = ["HelpText", "help_content"]


# How the help's few marks look.  The text is the code's own (key declarations,
# the mutation catalogue, the panels' HELP), and still only these marks are read
# from it: a heading's or a list item's start, `code`, **bold** and *italic*.  No
# style comes from the text, and every piece goes through ``safe.content``.
_TITLE, _HEADING, _GROUP = "bold $primary", "underline $primary", "bold $primary"
_BULLET, _CODE = "$text-primary", "bold $text-accent"
_INLINE = re.compile(r"(`[^`]+`|\*\*[^*]+\*\*|\*[^*\s][^*]*\*)")
_ITEM = re.compile(r"- `([^`]+)` (.*)")


def _inline(text: str) -> Content:
    parts = []
    for piece in _INLINE.split(text):
        if piece.startswith("`") and piece.endswith("`") and len(piece) > 1:
            parts.append(safe.content(piece[1:-1], _CODE))
        elif piece.startswith("**") and piece.endswith("**") and len(piece) > 3:
            parts.append(safe.content(piece[2:-2], "bold"))
        elif piece.startswith("*") and piece.endswith("*") and len(piece) > 1:
            parts.append(safe.content(piece[1:-1], "italic"))
        elif piece:
            parts.append(safe.content(piece))
    return Content.assemble(*parts)


def _hanging(head: Content, body: Content, indent: int, width: int) -> list[Content]:
    """``head`` then ``body`` wrapped beside it, its later lines indented under its first."""
    lines = body.wrap(max(width - indent, 8))
    return [head + lines[0], *(Content(" " * indent) + line for line in lines[1:])]


@lru_cache(maxsize=8)
def help_content(text: str, width: int) -> Content:
    """The help's ``text`` laid out in ``width`` cells: headings styled, list items
    with their key in a column and the rest wrapped beside it."""
    width = max(width, 16)  # before the first layout a widget is 0 wide
    rows = text.splitlines()
    items = [_ITEM.fullmatch(row) for row in rows]
    lines: list[Content] = []

    def blank() -> None:
        if lines and lines[-1].plain:
            lines.append(Content(""))

    for number, row in enumerate(rows):
        if row.startswith("#"):
            level, _, title = row.partition(" ")
            blank()
            lines.append(safe.content(title, _TITLE).center(width).rstrip() if level == "#" else
                         safe.content(title, _HEADING if level == "##" else _GROUP))
            blank()
        elif (item := items[number]) is not None:
            if number == 0 or items[number - 1] is None:  # a list starts: its keys' column
                run = itertools.takewhile(lambda match: match is not None, items[number:])
                column = max(Content(match.group(1)).cell_length for match in run) + 3  # type: ignore[union-attr]  # run: not None
            key, text = item.groups()
            head = Content.assemble(("• ", _BULLET), safe.content(key, _CODE))
            lines += _hanging(head.pad_right(column - head.cell_length), _inline(text), column, width)
        elif row.startswith("- "):
            lines += _hanging(Content.styled("• ", _BULLET), _inline(row[2:]), 2, width)
        elif row:
            lines += _inline(row).wrap(width)
        else:
            blank()
    while lines and not lines[-1].plain:
        lines.pop()
    return Content("\n").join(lines)


class HelpText(Widget):
    """The help, laid out for the widget's width (once per width, then cached)."""

    DEFAULT_CSS = "HelpText { height: auto; }"

    def __init__(self, text: str, *, id: str | None = None, classes: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id, classes=classes)
        self.text = text

    def render(self) -> Content:
        return help_content(self.text, self.size.width)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(help_content(self.text, width).split("\n", allow_blank=True))
