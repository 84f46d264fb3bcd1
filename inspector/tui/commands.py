"""Command palette providers: keys, jump to a case, filter the list, open a file.

Case ids, suite names and paths are untrusted: hits are built as ``Content``
from ``safe`` (the palette parses plain strings as markup), and match
highlighting is applied to the shown form, escapes included.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Matcher, Provider
from textual.content import Content

from ..contract.checks import CHECKS, STATUSES
from ..suites.load import bundled_suite_paths
from ..suites.reading import is_regular_file
from . import keys, safe

if TYPE_CHECKING:
    from .app import InspectorApp

__all__ = ["CaseCommands", "FilterCommands", "KeyCommands", "OpenCommands"]

MAX_CASE_HITS = 40
MAX_FILE_HITS = 50


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


class _InspectorProvider(Provider):
    @property
    def inspector(self) -> InspectorApp:
        return self.app  # type: ignore[return-value]

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        """(shown text, callback, help) for search and discovery."""
        return []

    async def discover(self) -> Hits:
        for text, callback, help_text in self._commands():
            yield DiscoveryHit(Content(text), callback, text=text, help=Content(help_text))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for text, callback, help_text in self._commands():
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, highlight(matcher, text), callback, text=text, help=Content(help_text))


class KeyCommands(_InspectorProvider):
    """Every key binding, from the same declarations as the footer and the help screen."""

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        return [
            (f"{key.description.capitalize()}  ·  {key.display}", partial(self.app.run_action, key.action), key.help)
            for key in keys.KEYS
            if key.action != "command_palette"
        ]


class CaseCommands(_InspectorProvider):
    """Jump to a case by id (substring match, so ten thousand cases stay quick)."""

    async def search(self, query: str) -> Hits:
        needle = query.casefold().strip()
        if not needle:
            return
        app = self.inspector
        session = app.session
        found = 0
        matcher = self.matcher(query)
        for entry in session.entries:
            case_id = entry.id
            at = case_id.casefold().find(needle)
            if at < 0:
                continue
            shown = safe.display(case_id)
            score = 1.0 if at == 0 else 0.8
            where = safe.display(entry.suite.name)
            yield Hit(score, highlight_substring(matcher, shown, query.strip(), "case: "),
                      partial(app.open_case, entry.number),
                      text=f"case: {shown}", help=Content(f"{where} · expected {entry.expected or '—'}"))
            found += 1
            if found >= MAX_CASE_HITS:
                return


class FilterCommands(_InspectorProvider):
    """Show only the cases with a verdict, a first failing check, or a differing label."""

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        app = self.inspector
        commands: list[tuple[str, Callable[[], object], str]] = []
        for status in STATUSES:
            commands.append((f"Filter: verdict {status}", partial(self._by_status, status),
                             f"Only the cases whose verdict is {status}."))
        commands.append(("Filter: verdict ERROR (could not be loaded)", partial(self._by_status, "ERROR"),
                         "Only the cases that could not be loaded."))
        for check in CHECKS:
            commands.append((f"Filter: first failing check {check.id} ({check.title})",
                             partial(self._by_check, check.id),
                             f"Only the cases whose first failure is {check.title} ({check.code})."))
        commands.append(("Filter: verdict differs from the frozen label", self._mismatched,
                         "Only the cases whose verdict is not their frozen label."))
        commands.append(("Filter: label lens says ANSWER, contract rejects", self._lens_disagrees,
                         "Only the cases the weaker per-claim label lens would answer and the contract rejects."))
        if app.filter_text or app.filter_label:
            commands.append(("Filter: clear", app.action_clear_filter, "Show every case again."))
        return commands

    def _by_status(self, status: str) -> None:
        app = self.inspector
        app.choose_cases(app.session.with_status(status), f"verdict {status}")

    def _by_check(self, check_id: str) -> None:
        app = self.inspector
        app.choose_cases(app.session.failing_at(check_id), f"first failure {check_id}")

    def _mismatched(self) -> None:
        app = self.inspector
        app.choose_cases(app.session.mismatched(), "label differs")

    def _lens_disagrees(self) -> None:
        app = self.inspector
        app.choose_cases(app.session.lens_disagreements(), "lens ANSWER, contract rejects")


class OpenCommands(_InspectorProvider):
    """Open another suite file: the bundled ones, JSON files here, or a typed path.

    Only regular files are offered (symbolic links followed): a FIFO or a link to
    a device named ``*.json`` is not a suite, and the loader would refuse it."""

    def _candidates(self) -> list[Path]:
        loaded = {suite.path.resolve() for suite in self.inspector.session.suites}
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
        return partial(self.inspector.open_suite_file, path)

    def _commands(self) -> list[tuple[str, Callable[[], object], str]]:
        return [(f"Open: {safe.display(str(path))}", self._open(path), "Load this suite file into the list.")
                for path in self._candidates()]

    async def search(self, query: str) -> Hits:
        async for hit in super().search(query):
            yield hit
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
                          help=Content("Load this suite file into the list."))
