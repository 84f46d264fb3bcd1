"""Command palette providers of the main view: keys, jump to a case, filter the
list, open a file.

A command acts by posting a message to the main screen (or running one of its
key actions), never by calling into the app.  Case ids, suite names and paths
are untrusted: hits are built as ``Content`` from ``safe`` (the palette parses
plain strings as markup), and match highlighting is applied to the shown form,
escapes included.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Protocol, cast

from textual.command import DiscoveryHit, Hit, Hits, Matcher, Provider
from textual.content import Content
from textual.message import Message

from ..io.reading import is_regular_file
from ..presentation.browse import Browse
from ..presentation.filters import CHECK_FILTERS, FILTERS, STATUS_FILTERS
from ..presentation.key_state import Needs
from ..presentation.session import Session
from ..suites.load import bundled_suite_paths
from . import keys, safe
from .messages import CaseChosen, CasesChosen, FileChosen, ReviewAsked, ReviewLeft

__all__ = ["SERVED_OPEN_OFF", "CaseCommands", "ExerciseCommands", "FilterCommands", "KeyCommands", "OpenCommands",
           "ReviewCommands"]

MAX_CASE_HITS = 40
MAX_FILE_HITS = 50
SERVED_OPEN_OFF = ("Opening a file is off in a served session: it reads only what inspector serve was started with "
                   "(and the review files beside it).")


def highlight(matcher: Matcher, shown: str, prefix: str = "") -> Content:
    """``prefix`` + ``shown`` with the matched characters styled; never markup."""
    content = Content(prefix + shown)
    _, offsets = matcher.fuzzy_search.match(matcher.query, prefix + shown)
    for offset in offsets:
        content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


def highlight_substring(matcher: Matcher, shown: str, needle: str, prefix: str = "") -> Content:
    """``prefix`` + ``shown`` with the first occurrence of ``needle`` styled (deterministic)."""
    content = Content(prefix + shown)
    at = shown.casefold().find(needle.casefold())
    if at >= 0 and needle:
        start = len(prefix) + at
        content = content.stylize(matcher.match_style, start, start + len(needle))
    return content


class _Browsing(Protocol):
    """What the providers read of the screen they were opened on (the main screen)."""

    session: Session
    browse: Browse
    reviewing: bool
    can_review: bool

    def applies(self, action: str) -> bool | None: ...


class _InspectorProvider(Provider):
    @property
    def main(self) -> _Browsing:
        return cast(_Browsing, self.screen)

    def _post(self, message: Message) -> None:
        self.screen.post_message(message)

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        """(shown text, callback, help) for search and discovery."""
        return []

    async def discover(self) -> Hits:
        for text, callback, help_text in self._commands():
            yield DiscoveryHit(Content(text), callback, text=text, help=Content(help_text))  # type: ignore[arg-type]  # Textual shows a Content help as it is

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, callback, help_text in self._commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, highlight(matcher, text), callback, text=text, help=Content(help_text))  # type: ignore[arg-type]  # Textual shows a Content help as it is


class KeyCommands(_InspectorProvider):
    """Every key binding, from the same declarations as the footer and the help screen."""

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        # Only the keys that apply now: the main screen greys out the others.
        # The screen's own keys (a triage group's records add theirs to the main view's), then the app's.
        screen = self.screen
        screens = getattr(screen, "KEY_SCREENS", ("main",))
        return [
            (f"{key.description.capitalize()}  ·  {key.display}",
             partial(self.app.run_action, key.action, screen if key.screen != "app" else None), key.help)
            for key in (*(key for name in screens for key in keys.keys_of(name)), *keys.keys_of("app"))
            if key.action != "command_palette"
            and (key.screen == "app" or self.main.applies(key.action))
        ]


class CaseCommands(_InspectorProvider):
    """Jump to a case by id (substring match, so ten thousand cases stay quick)."""

    async def search(self, query: str) -> Hits:
        needle = query.casefold().strip()
        if not needle:
            return
        session = self.main.session
        found = 0
        matcher = self.matcher(query)
        for number in session.ids_containing(needle):
            case_id = session.ids[number]
            at = case_id.casefold().find(needle)
            report = session.report(number)
            shown = safe.display(case_id)
            score = 1.0 if at == 0 else 0.8
            where = safe.display(report.suite.name)
            expected = safe.display(report.expected or "—")
            yield Hit(score, highlight_substring(matcher, shown, query.strip(), "case: "),
                      partial(self._post, CaseChosen(number)),
                      text=f"case: {shown}", help=Content(f"{where} · expected {expected}"))  # type: ignore[arg-type]  # Textual shows a Content help as it is
            found += 1
            if found >= MAX_CASE_HITS:
                return


class FilterCommands(_InspectorProvider):
    """Show only the cases with a verdict, a first failing check, or a differing label."""

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        commands: list[tuple[str, Callable[[], object], str]] = []
        for case_filter in (*STATUS_FILTERS, *CHECK_FILTERS):
            commands.append((f"Filter: {case_filter.title}", partial(self._choose, case_filter.id),
                             case_filter.help))
        if self.main.browse.filtered:
            commands.append(("Filter: clear", partial(self.app.run_action, "clear_filter", self.screen),
                             "Show every case again."))
        return commands

    def _choose(self, filter_id: str) -> None:
        case_filter = FILTERS[filter_id]
        self._post(CasesChosen(case_filter.cases(self.main.session), case_filter.description))


class ReviewCommands(_InspectorProvider):
    """Enter review mode on the open suites, or leave it."""

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        main = self.main
        if not getattr(main, "can_review", False):  # a triage group's records are not a suite to review
            return []
        if main.reviewing:
            return [("Leave review mode", partial(self._post, ReviewLeft()),
                     "Every case again; the decisions stay in the pending file until applied.")]
        return [("Review pending cases", partial(self._post, ReviewAsked()),
                 "Walk the cases whose verdict differs from the frozen label, and those saved or edited since "
                 "their last review: a accept, r reject, s skip, L labels a claim.")]


class ExerciseCommands(_InspectorProvider):
    """The article's exercise (seed 000, section 6), offered on an accepted case."""

    TEXT = "The article's exercise"
    NEEDS = Needs("accepted")  # what the exercise starts from (the main screen's check_action reads it too)

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        if not self.main.applies("exercise"):
            return []
        return [(self.TEXT, partial(self.app.run_action, "exercise", self.screen),
                 "A guided sequence on this accepted case: replace only the quote with another genuine line, "
                 "predict, run; restore it, change only the value, predict; see why the category changes.")]


class OpenCommands(_InspectorProvider):
    """Open another suite file: the bundled ones, JSON files here, or a typed path.

    Only regular files are offered (symbolic links followed): a FIFO or a link to
    a device named ``*.json`` is not a suite, and the loader would refuse it.

    Served (``inspector serve``), the command is off: a browser's session reads and
    writes only what the server was started with (and the review files beside it),
    never a path typed on the server's disk; one entry says so."""

    @property
    def served(self) -> bool:
        return self.app.is_web

    def _off(self) -> None:
        self.app.notify(SERVED_OPEN_OFF, title="cannot open", severity="warning", markup=False)

    def _candidates(self) -> list[Path]:
        loaded = {suite.path.resolve() for suite in self.main.session.suites}
        paths = list(bundled_suite_paths())
        try:
            here = sorted(Path.cwd().glob("*.json"))
        except OSError:
            here = []
        paths += [path for path in here if is_regular_file(path)][:MAX_FILE_HITS]
        seen: set[Path] = set()
        result = []
        for path in paths:
            try:
                resolved = path.resolve()
            except (OSError, RuntimeError):  # a symlink loop
                continue
            if resolved in loaded or resolved in seen:
                continue
            seen.add(resolved)
            result.append(path)
        return result

    def _open(self, path: Path) -> Callable[[], object]:
        return partial(self._post, FileChosen(path))

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        if self.served:
            return [("Open a file: off in a served session", self._off, SERVED_OPEN_OFF)]
        return [(f"Open: {safe.display(str(path))}", self._open(path), "Load this suite file into the list.")
                for path in self._candidates()]

    async def search(self, query: str) -> Hits:
        async for hit in super().search(query):
            yield hit
        if self.served:
            return
        typed = query.strip()
        if typed.startswith("open "):
            typed = typed[5:].strip()
        if typed and ("/" in typed or typed.endswith(".json")):
            try:
                path = Path(typed).expanduser()
            except RuntimeError:  # ~user with no such user
                return
            shown = safe.display(str(path))
            if is_regular_file(path):
                yield Hit(1.0, Content(f"Open: {shown}"), self._open(path), text=f"Open: {shown}",
                          help=Content("Load this suite file into the list."))  # type: ignore[arg-type]  # Textual shows a Content help as it is
