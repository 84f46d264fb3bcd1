"""The mutation report: ``inspector mutate``'s report of the loaded suites, as a screen.

The same ``MutateReport`` as the command (``lab.mutation_testing.mutate``), rendered and
never recomputed: the mutants and the score; how many mutants each verdict code
killed first, as bars (the summary's); the slipped mutants per check that stopped
them, which is how the contract's order shows; each suite's uncovered rejection
codes; then the mutants themselves: the holes (meant to be rejected, accepted),
the harmless ones that were rejected (the contract is stricter than intended) and
the harmless survivors.  The row under the cursor is detailed underneath: a
mutant with what it was meant for and its whole raw text, the edit marked.

Enter on a mutant goes back to the main view with that mutant applied to its
case, in the lab (the screen dismisses with a ``MutantChosen``, as the summary
does with its ``CasesChosen``).  Enter on a code, a check or a suite's uncovered
codes lists the mutants that row counts; Esc goes back from the list to the
report, and from the report to the main view.

The report takes 0.3 s on the bundled suites and seconds over a large registry:
it is computed in a thread worker, its progress shown as it goes, and stopped
when the screen is left.  A computed report is kept for the session (per set of
suites: the suites' frozen cases are what it mutates, so the lab's edits do not
change it), with the row the user was on, so ``M`` after opening a mutant comes
back at once to where it was.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass, field

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import get_current_worker

from ...presentation.mutation_report import (
    Item,
    ReportRow,
    ReportRows,
    Words,
    compute,
    edit_span,
    mutant_words,
)
from ...lab.mutation_testing import MutantResult
from ...presentation.session import Session
from ...suites.load import Suite
from ..widgets.footer import KeysFooter
from .. import keys, safe
from ..messages import MutantChosen
from ..tones import TEXT, Tone, strong
from ..widgets.report_table import ReportTable
from ..widgets.table import CursorTable, SafeTable
from ..widgets.text_view import Mark, SafeTextView

__all__ = ["MutationReportScreen"]

_MUTED = TEXT[Tone.MUTED]
_BOLD = "bold"
# How often the worker tells the screen how far it got (at most).
_PROGRESS_SECONDS = 0.1


def _content(words: Words) -> Content:
    """Words of the presentation layer on screen: every piece shown safely."""
    return Content.assemble(*(safe.content(text, strong(tone) if bold else TEXT[tone]) for text, tone, bold in words))


def _lines(lines: Sequence[Words]) -> Content:
    return Content("\n").join(_content(words) for words in lines)


# -- remembered per session -----------------------------------------------------------


@dataclass(slots=True)
class _Place:
    """Where the user was in one report: the report's row, and the list open (a row's
    index and the list's row)."""

    cursor: int = 0
    listed: int | None = None
    listed_cursor: int = 0


@dataclass(slots=True)
class _Memory:
    all_suites: bool = True
    reports: dict[tuple[int, ...], ReportRows] = field(default_factory=dict)
    places: dict[tuple[int, ...], _Place] = field(default_factory=dict)

    # Reports kept: the scopes last computed (this suite and all of them, say).  A
    # report of 8,001 sources holds about 200 MB, so an older scope is computed again.
    KEPT = 2

    def keep(self, key: tuple[int, ...], prepared: ReportRows) -> None:
        self.reports.pop(key, None)
        self.reports[key] = prepared
        while len(self.reports) > self.KEPT:
            del self.reports[next(iter(self.reports))]


# The session's computed reports and places, dropped with the session.
_MEMORY: weakref.WeakKeyDictionary[Session, _Memory] = weakref.WeakKeyDictionary()


def _memory(session: Session) -> _Memory:
    memory = _MEMORY.get(session)
    if memory is None:
        memory = _MEMORY[session] = _Memory()
    return memory


# -- the worker's messages --------------------------------------------------------------


class _Stopped(Exception):
    """Raised from the progress callback when the worker was cancelled."""


@dataclass
class _Progress(Message):
    key: tuple[int, ...]
    done: int
    total: int
    mutants: int


@dataclass
class _Computed(Message):
    key: tuple[int, ...]
    prepared: ReportRows


@dataclass
class _Failed(Message):
    key: tuple[int, ...]
    error: str


# -- the screen ----------------------------------------------------------------------------


class MutationReportScreen(Screen[MutantChosen | None]):
    BINDINGS = keys.bindings("mutation_report")

    def __init__(self, session: Session, suite: Suite | None) -> None:
        super().__init__()
        self.session = session
        self.suite = suite
        self.memory = _memory(session)
        self.prepared: ReportRows | None = None
        self.listed: ReportRow | None = None  # the row whose mutants are listed
        self.listed_at = 0  # and where that row is in the report
        self.listing: tuple[MutantResult, ...] = ()  # its mutants

    @property
    def all_suites(self) -> bool:
        return self.memory.all_suites or self.suite is None or len(self.session.suites) == 1

    def compose(self) -> ComposeResult:
        with Vertical(id="report-panel"):
            yield Static("", id="report-head", markup=False)
            yield ReportTable(id="report-table")
            with Vertical(id="report-detail"):
                yield Static("", id="report-words", markup=False)
                yield SafeTextView(id="report-raw", line_numbers=True)
        yield KeysFooter()

    def on_mount(self) -> None:
        self.query_one("#report-raw").display = False
        self._open_scope()

    # -- the scope and its report ----------------------------------------------------

    def _suites(self) -> list[Suite]:
        if self.all_suites or self.suite is None:
            return list(self.session.suites)
        return [self.suite]

    def _key(self) -> tuple[int, ...]:
        return tuple(id(suite) for suite in self._suites())

    def _scope_name(self) -> Content:
        if self.all_suites or self.suite is None:
            names = ", ".join(suite.name for suite in self.session.suites)
            return Content.assemble("all suites (", safe.content(names), ")")
        return safe.content(self.suite.name)

    def _refresh_title(self) -> None:
        title = Content.assemble("mutation report · ", self._scope_name())
        if self.listed is not None:
            title = Content.assemble(title, " · ", safe.content(self.listed.title),
                                     f" ({len(self.listing)})")
        self.query_one("#report-panel").border_title = title

    def _open_scope(self) -> None:
        """Show the scope's report: at once when it was computed before, else computed now."""
        self.prepared, self.listed, self.listing = None, None, ()
        self._refresh_title()
        prepared = self.memory.reports.get(self._key())
        if prepared is not None:
            self.memory.keep(self._key(), prepared)  # the scope shown is the last one dropped
            self._show(prepared)
            return
        table = self.query_one(ReportTable)
        table.empty_message = "computing the mutation report…"
        table.set_items((), {}, None, listing=False)
        self._words(Content())
        self._set_head(Content.styled("computing the mutation report… (Esc stops it)", _MUTED))
        # Once the loading line is drawn: the worker's thread would compete with that frame.
        self.call_after_refresh(self._start, self._key())

    def _start(self, key: tuple[int, ...]) -> None:
        if self.is_attached and key == self._key() and self.prepared is None:  # not left or toggled meanwhile
            self._compute(key, self._suites())

    @work(thread=True, exclusive=True, group="mutation-report", exit_on_error=False)
    def _compute(self, key: tuple[int, ...], suites: list[Suite]) -> None:
        worker = get_current_worker()
        told = [0.0]

        def progress(done: int, total: int, mutants: int) -> None:
            if worker.is_cancelled:
                raise _Stopped
            now = time.monotonic()
            if now - told[0] >= _PROGRESS_SECONDS:
                told[0] = now
                self.post_message(_Progress(key, done, total, mutants))

        try:
            prepared = compute(suites, progress)
        except _Stopped:
            return
        except Exception as error:  # noqa: BLE001 - a bug in inspector: said on the screen, not a crash
            self.post_message(_Failed(key, f"{type(error).__name__}: {error}"))
            return
        if not worker.is_cancelled:
            self.post_message(_Computed(key, prepared))

    @on(_Progress)
    def _progress(self, message: _Progress) -> None:
        if message.key == self._key() and self.prepared is None:
            self._set_head(Content.assemble(
                ("computing the mutation report… ", _MUTED), (f"{message.done}/{message.total}", _BOLD),
                (" accepted cases, ", _MUTED), (f"{message.mutants}", _BOLD),
                (" mutants verified (Esc stops it)", _MUTED)))

    @on(_Computed)
    def _computed(self, message: _Computed) -> None:
        self.memory.keep(message.key, message.prepared)
        if message.key == self._key():
            self._show(message.prepared)

    @on(_Failed)
    def _failed(self, message: _Failed) -> None:
        if message.key == self._key():
            self.query_one(ReportTable).empty_message = ""
            self._set_head(Content.assemble(("could not compute the mutation report: ", strong(Tone.BAD)),
                                            safe.content(message.error)))

    def _show(self, prepared: ReportRows) -> None:
        self.prepared = prepared
        self._set_head(_lines(prepared.head))
        place = self.memory.places.setdefault(self._key(), _Place())
        if place.listed is not None and isinstance(row := prepared.items[place.listed], ReportRow):
            self._list(place.listed, row, place.listed_cursor)
        else:
            self._show_report(place.cursor)

    def _set_head(self, content: Content) -> None:
        self.query_one("#report-head", Static).update(content)

    def _show_report(self, cursor: int) -> None:
        prepared = self.prepared
        assert prepared is not None
        self.listed, self.listing = None, ()
        self._refresh_title()
        table = self.query_one(ReportTable)
        table.empty_message = "nothing to report"
        table.set_items(prepared.items, prepared.sections, cursor, listing=False)
        self._detail()

    def _list(self, at: int, row: ReportRow, cursor: int = 0) -> None:
        assert self.prepared is not None
        self.listed, self.listed_at, self.listing = row, at, row.mutants
        self._refresh_title()
        self.query_one(ReportTable).set_items(self.listing, {}, cursor, listing=True)
        self._detail()

    # -- the detail of the cursor's row ---------------------------------------------------

    def _current(self) -> Item | None:
        table = self.query_one(ReportTable)
        if table.cursor is None or not table.items:
            return None
        return table.items[table.cursor]

    def _detail(self) -> None:
        item, prepared = self._current(), self.prepared
        raw = self.query_one("#report-raw", SafeTextView)
        self._remember()
        if item is None or prepared is None:
            self._words(Content())
            raw.display = False
            return
        if isinstance(item, ReportRow):
            self._words(_content(item.detail))
            raw.display = False
            return
        table = self.query_one(ReportTable)
        place = f"mutant {(table.cursor or 0) + 1} of {len(table.items)}" if self.listed is not None else ""
        self._words(_lines(mutant_words(item, place)))
        raw.set_text(item.mutant.raw)
        span = edit_span(item)
        if span is not None:
            raw.set_marks([Mark(*span, "safe-text--soft")], focus=span[0])
        raw.display = True

    def _words(self, content: Content) -> None:
        self.query_one("#report-words", Static).update(content)

    def _remember(self) -> None:
        if self.prepared is None:
            return
        place = self.memory.places.setdefault(self._key(), _Place())
        cursor = self.query_one(ReportTable).cursor or 0
        if self.listed is None:
            place.cursor, place.listed = cursor, None
        else:
            place.listed, place.listed_cursor = self.listed_at, cursor

    # -- actions ------------------------------------------------------------------------

    @on(SafeTable.RowClicked, "#report-table")
    def _clicked(self, event: SafeTable.RowClicked) -> None:
        """A click selects a row; a click on the selected row opens it, as Enter does."""
        event.stop()
        table = self.query_one(ReportTable)
        if event.row == table.cursor:
            self.action_open_row()
        elif 0 <= event.row < len(table.items):
            table.move_cursor(event.row)
            self._detail()

    @on(CursorTable.CursorMoved, "#report-table")
    def _moved(self) -> None:
        """The table's keys moved its cursor (``CursorTable``): the row's detail follows."""
        self._detail()

    def action_scroll_detail(self, step: int) -> None:
        raw = self.query_one("#report-raw", SafeTextView)
        if raw.display:
            raw.scroll_relative(y=step * max(1, raw.size.height // 2), animate=False)

    def action_open_row(self) -> None:
        item = self._current()
        if item is None or self.prepared is None:
            return
        if isinstance(item, ReportRow):
            if not item.count:
                self.notify("no mutant here", markup=False, timeout=2)
                return
            self._list(self.query_one(ReportTable).cursor or 0, item)
            return
        number = self._number_of(item)
        if number is None:  # pragma: no cover - a report's cases are the session's
            self.notify("that case is no longer open", severity="warning", markup=False, timeout=3)
            return
        self.dismiss(MutantChosen(number, item.mutant.change()))

    def _number_of(self, result: MutantResult) -> int | None:
        """The session's number of a mutant's case (its suite is one of the session's)."""
        parent = result.parent
        return next((n for n in self.session.numbers_of(parent.suite) if self.session.ids[n] == parent.id), None)

    def action_toggle_scope(self) -> None:
        if len(self.session.suites) < 2:
            self.notify("only one suite is open", markup=False, timeout=2)
            return
        self.memory.all_suites = not self.all_suites
        self._open_scope()

    def action_back(self) -> None:
        if self.listed is not None and self.prepared is not None:
            self._show_report(self.listed_at)
            return
        self.dismiss(None)

    def leave(self) -> None:
        """``q``, as Esc: from a list of mutants to the report, from the report to the main view."""
        self.action_back()
