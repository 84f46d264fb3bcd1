"""The help screen, built from the live key declarations and each panel's HELP.

``help_markdown`` is the help's text.  The screen shows it as one ``Content``,
laid out once per width and cached: a Textual ``Markdown`` widget makes a widget
per block, and with some two hundred blocks it took seconds to open every time.
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.widget import Widget

from ...presentation.mutation_menu import catalogue
from .. import keys, safe
from ..widgets.case_list import CaseList
from ..widgets.claims import ClaimsTable
from ..widgets.checks_panel import ChecksPanel
from ..widgets.raw_answer import RawAnswer
from ..widgets.registry_table import RegistryTable
from ..widgets.request_strip import RequestStrip
from ..widgets.source_text import SourceText
from ..widgets.verdict import VerdictView

__all__ = ["HelpScreen", "HelpText", "help_content", "help_markdown", "mutations_markdown"]

PANELS = (CaseList, RequestStrip, ClaimsTable, RegistryTable, SourceText, ChecksPanel, RawAnswer, VerdictView)

INTRO = (
    "# inspector\n\n"
    "Why was this answer accepted or rejected? Each case is checked by the claim contract, "
    "check by check, in order; the first failure decides. Step through the trace and every panel "
    "highlights what the step compares.\n"
)

SAFETY = (
    "## Untrusted text\n\n"
    "Everything from a suite, a registry or an answer is shown literally, never as markup. Control "
    "and invisible characters (ESC, NUL, DEL, C1 controls, bidi overrides, zero-width joiners, line "
    "and paragraph separators) appear as a highlighted `\\uXXXX` instead of reaching the terminal.\n"
)


def mutations_markdown() -> str:
    """Every mutation of the catalogue, by its dotted name (the menu's, and ``inspector mutate``'s)."""
    parts = ["## Mutations\n\n",
             "`m` lists them for the current claim; applying one again walks to its next variant. "
             "Each says which check it is meant to trip.\n\n"]
    parts.extend(f"- `{mutation.name}` {mutation.title} (meant to trip: {mutation.meant}). {mutation.help}\n"
                 for mutation in catalogue())
    parts.append("\n")
    return "".join(parts)


def help_markdown() -> str:
    parts = [INTRO]
    for screen, screen_title in keys.SCREENS.items():
        declared = keys.keys_of(screen)
        parts.append(f"## Keys: {screen_title.lower()}\n\n")
        for group, title in keys.GROUPS.items():
            rows = [key for key in declared if key.group == group]
            if not rows:
                continue
            if screen == "main":
                parts.append(f"### {title}\n\n")
            parts.extend(f"- `{key.display}` {key.help}\n" for key in rows)
            parts.append("\n")
    parts.append("The mouse works too: click a case, a claim or a check.\n\n")
    parts.append(mutations_markdown())
    parts.append("## Panels\n\n")
    parts.extend(f"- {panel.HELP}\n" for panel in PANELS)
    parts.append("\n")
    parts.append(SAFETY)
    return "".join(parts)


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
def help_content(width: int) -> Content:
    """``help_markdown`` laid out in ``width`` cells: headings styled, list items
    with their key in a column and the rest wrapped beside it."""
    width = max(width, 16)  # before the first layout a widget is 0 wide
    rows = help_markdown().splitlines()
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
                column = max(Content(match.group(1)).cell_length for match in run) + 3
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

    def render(self) -> Content:
        return help_content(self.size.width)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(help_content(width).split("\n", allow_blank=True))


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll {
        width: 90%;
        max-width: 110;
        height: 90%;
        border: round $primary;
        background: $surface;
        padding: 0 1;
    }
    """

    BINDINGS = keys.bindings("help")

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield HelpText()

    def on_mount(self) -> None:
        help_view = self.query_one("#help")
        help_view.border_title = "help"
        help_view.focus()  # so the arrow and page keys scroll it
