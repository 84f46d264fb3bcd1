"""The help screen, built from the live key declarations and each panel's HELP.

It opens at the keys of the screen it was asked from (``help_section``: the
screen's ``help_at``, else the part of ``keys.SCREENS`` its own keys are
declared for), the rest above and below it.
``help_markdown`` is the help's text, built once; ``widgets.help_text`` shows it
as one ``Content`` laid out once per width (a Textual ``Markdown`` widget makes a
widget per block, and with some two hundred blocks it took seconds to open).
"""

from __future__ import annotations

from functools import lru_cache

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen

from ...presentation.mutation_menu import catalogue
from .. import keys
from ..widgets.case_list import CaseList
from ..widgets.claims import ClaimsTable
from ..widgets.help_text import HelpText, help_content
from ..widgets.checks_panel import ChecksPanel
from ..widgets.raw_answer import RawAnswer
from ..widgets.record_strip import RecordStrip
from ..widgets.registry_table import RegistryTable
from ..widgets.group_table import GroupTable
from ..widgets.request_strip import RequestStrip
from ..widgets.source_text import SourceText
from ..widgets.trials_table import TrialsTable
from ..widgets.verdict import VerdictView

__all__ = ["HelpScreen", "help_markdown", "help_section", "mutations_markdown", "section_title"]

PANELS = (CaseList, RecordStrip, RequestStrip, ClaimsTable, RegistryTable, SourceText, ChecksPanel, RawAnswer,
          VerdictView, GroupTable, TrialsTable)

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


def section_title(screen: str) -> str:
    """The help's title of a screen's keys: ``Keys: the main view``, only the first letter lowered, so that
    the keys it names keep their case (``N in review mode``, ``L``)."""
    title = keys.SCREENS[screen]
    return f"Keys: {title[:1].lower()}{title[1:]}"


def help_section(screen: object) -> str:
    """Which screen's keys the help opens at, for ``screen``: its ``help_at`` (the main view says review mode
    when in it), else the screen its own keys are declared for (found from its class's ``BINDINGS``, so that a
    screen added later is found without code of its own), else ``app``."""
    chosen = getattr(screen, "help_at", None)
    if isinstance(chosen, str) and chosen in keys.SCREENS:
        return chosen
    declared = {key.id: key.screen for key in keys.KEYS}
    for cls in type(screen).__mro__:
        for binding in cls.__dict__.get("BINDINGS", ()):
            found = declared.get(getattr(binding, "id", None) or "")
            if found is not None and found != "app":
                return found
    return "app"


@lru_cache(maxsize=1)
def help_markdown() -> str:
    parts = [INTRO]
    for screen in keys.SCREENS:
        declared = keys.keys_of(screen)
        parts.append(f"## {section_title(screen)}\n\n")
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


class HelpScreen(ModalScreen[None]):
    BINDINGS = keys.bindings("help")

    def __init__(self, section: str = "main") -> None:
        super().__init__()
        self.section = section  # the screen whose keys the help opens at (keys.SCREENS)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield HelpText(help_markdown())

    def on_mount(self) -> None:
        help_view = self.query_one("#help")
        help_view.border_title = Content.assemble("help · ", (keys.SCREENS[self.section], "$text-muted"))
        help_view.focus()  # so the arrow and page keys scroll it
        self.call_after_refresh(self._open_at_section)

    def _open_at_section(self) -> None:
        """Scroll the section's title to the top (once laid out: its line depends on the width)."""
        text = self.query_one(HelpText)
        lines = help_content(text.text, text.size.width).split("\n", allow_blank=True)
        title = section_title(self.section)
        line = next((number for number, content in enumerate(lines) if content.plain == title), 0)
        self.query_one("#help", VerticalScroll).scroll_to(y=line, animate=False, immediate=True)
