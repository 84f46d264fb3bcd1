"""A triage group's records in the main view: ``RecordsScreen``.

The main screen over a ``RecordSession`` (the group's records as the cases of
an in-memory suite, read from the log as they are shown): the registry beside
each claim, the checks, the highlights, the lab's edits, mutations and save all
work as on any case, ``j``/``k`` page through the group.  Above the request,
the record's place (file:line, byte offset) and metadata (``RecordStrip``,
bounded by ``presentation.records``), in view without scrolling; ``l`` shows
its whole log line (``LogLineScreen``).  ``t``/``w`` annotate the record (the
contract right or wrong), ``a`` with a note (``AnnotateScreen``), ``U`` clears
it: kept beside the log by the overview's ``AnnotationStore``, shown in the
strip and in the list (``◆`` wrong, ``◇`` right).  ``/`` filters the records by metadata (``model=gpt-x``), by text in
the answer (``raw:TEXT``) and by place or label (``presentation.record_filter``: parsed once, matched in a thread
worker that reads the records it must from the log; the title says how many
match).  ``ctrl+f`` searches with the same terms without hiding any record: the
matches highlighted in the list, ``n``/``N`` step through them (as less and lnav
do; the trace steps on the arrows here).  Space marks a record (``presentation.marks``,
kept beside the log by the session, ``triage.marked``: a column of the list), ``}``/``{``
go to the next or previous mark, ``C`` unmarks them all, ``ctrl+e`` exports the marked
records, the first ones or a sample (``ExportScreen``), of the records shown
when a filter narrows the list (``presentation.group_export.Shown``).  While the
overview follows a log (``--follow``), the group grows as it is counted (its
``counts``, as the pivot's): the title says following, ``G`` goes to the newest,
and the newest stays shown while the group grows (as ``tail -f``) until another record is opened.
Esc goes back to the overview (clearing a search, then a case filter first).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import partial

from textual import on, work
from textual.app import ComposeResult
from textual.content import Content
from textual.screen import Screen
from textual.signal import Signal
from textual.widgets import Input
from textual.worker import get_current_worker

from ...presentation.annotate import AnnotationStore
from ...presentation.key_state import KeyState
from ...presentation.group_export import Shown
from ...presentation.leaving import Held
from ...presentation.overview import Snapshot, TriageRun
from ...presentation.record_filter import FilterError, FilterResult, RecordFilter, filter_records, parse_filter
from ...presentation.record_session import RecordSession
from ...presentation.records import record_line, record_place_of
from ...triage.annotations import Annotation, AnnotationError
from ...triage.logs import LogError
from ...presentation.selection import Selection
from ...presentation.session import Session
from ...suites.load import Suite
from ...triage.summary import Group
from .. import keys, safe
from ..messages import CasesChosen, RecordAnnotated
from ..tones import TEXT, Tone
from ..widgets.record_strip import RecordStrip
from ..widgets.verdict import VerdictView
from .log_line import show_log_line
from .main import MainScreen

__all__ = ["RecordsScreen"]


# The suite summary (S) verifies every case it summarises: beyond this many
# records the overview's counts are the group's summary.
SUMMARY_LIMIT = 5000

# What a filter or a search matches beside the log: edited records' labels, annotated records' decisions, marks.
_Flags = tuple[dict[int, str], dict[int, str], frozenset[int]]


class RecordsScreen(MainScreen, inherit_bindings=False):
    # Its own keys first (the footer shows them first), then the main view's it leaves (review mode's are
    # not: a group's records are not reviewed), then the screen's own (Tab).
    BINDINGS = [*keys.bindings_over("records", "main"), *Screen.BINDINGS]
    KEY_SCREENS = ("main", "records")
    NEEDS = {**MainScreen.NEEDS, **keys.needs_by_action("records")}
    can_review = False  # a group's records are not a suite with frozen labels to review

    def __init__(self, session: Session, group: Group, number: int = 0, store: AnnotationStore | None = None,
                 counted: tuple[Snapshot, TriageRun] | None = None, counts: Signal[Snapshot] | None = None) -> None:
        super().__init__(session)
        self.group = group
        self._start = number
        self._warned_changed = False
        self.store = store if store is not None else AnnotationStore()  # the overview's: its counts follow
        self.annotations_changed = False
        self.counted = counted  # what the group was counted in, and how: what an export rereads
        self.filtered: FilterResult | None = None  # the records the typed filter found (None: no filter)
        self.filter_problem: str | None = None  # why the typed filter cannot be read
        self._filtering = 0  # the typed filter's generation: a worker's result for an older one is dropped
        self._open_found = False  # Enter was pressed while the filter read: open the first record found
        self.annotated: dict[int, bool] = {}  # each annotated record: whether the contract was wrong
        self.searched: FilterResult | None = None  # the records the search found, among those shown
        self.search_problem: str | None = None
        self._searching = 0  # the search's generation, as the filter's
        self._go_found = False  # Enter was pressed while the search read: go to the first match once found
        self.counts = counts  # the overview's snapshots as it counts on (following a log): the group grows
        self.following = bool(counted is not None and counted[0].following)
        self._told_marks = False  # why the marks are not kept beside the log was said

    def _hand_review(self, selection: Selection) -> None:
        """The main view's, and for an item's trials, which trial the record is, against the first."""
        super()._hand_review(selection)
        session = self.session
        self.query_one(VerdictView).trial = session.trial(selection.report.number) \
            if isinstance(session, RecordSession) else None

    def compose_request_head(self) -> ComposeResult:
        yield RecordStrip(id="record")

    def on_mount(self) -> None:
        # Runs before the main screen's own on_mount opens the first record.
        self.query_one("#filter", Input).placeholder = "filter: model=gpt-x, key!=value, text in the answer, id, label"
        self.query_one("#cases-panel").mount(
            Input(placeholder="search (n N step): model=gpt-x, raw:text, annotated, marked, id, label", id="search"),
            after="#filter")
        if isinstance(self.session, RecordSession):
            for problem in self.session.restore_marks():
                self.notify(safe.display(problem), title="the marks cannot be read", severity="warning",
                            markup=False, timeout=8)
            self.case_list.show_marks(self.session.marks)
            self._show_annotated()
        if self.counts is not None:
            self.counts.subscribe(self, self.update_snapshot)
        if self._start:
            self.call_after_refresh(self.open_case, min(self._start, len(self.session) - 1))

    def open_case(self, number: int) -> None:
        super().open_case(number)
        # A record that cannot be reread because its log changed: say once how to go on.
        if not self._warned_changed and self.selection is not None and self.selection.report.broken:
            session = self.session
            changes = session.log_changes() if isinstance(session, RecordSession) else []
            if changes:
                self._warned_changed = True
                change = changes[0]
                self.notify(safe.display(f"{change.path}: the log changed since it was counted ({change.what}): "
                                         "its records not read before cannot be read now; Esc, then ctrl+r in the "
                                         "overview counts again"),
                            title="a log changed", severity="error", markup=False, timeout=8)

    def watch_selection(self, selection: Selection | None) -> None:
        super().watch_selection(selection)
        if selection is None or self._views is None or not isinstance(self.session, RecordSession):
            return
        self._title("#request-panel", Content.assemble("record", (" · l: its whole log line", TEXT[Tone.MUTED])))
        self._show_strip(selection.report.number)

    def _show_strip(self, number: int) -> None:
        assert isinstance(self.session, RecordSession)
        self.query_one(RecordStrip).show(self.store.place(self.session, number,
                                                         record_place_of(self.session, number)))

    # -- annotating the record (t, w, N, U): kept beside the log by the store ------------------------

    def action_annotate(self, right: bool) -> None:
        """The contract was right (``t``) or wrong (``w``) on this record; its note stays."""
        # the records of a group: a RecordSession (_show_strip asserts it)
        self._annotating(lambda store, number: store.annotate(self.session, number, right, keep_note=True))  # type: ignore[arg-type]

    def action_clear_annotation(self) -> None:
        self._annotating(lambda store, number: store.clear(self.session, number))  # type: ignore[arg-type]  # a RecordSession

    def action_annotate_form(self) -> None:
        number = self.browse.current
        if number is None or not isinstance(self.session, RecordSession):
            return
        try:
            record = self.store.record(self.session, number)
        except (AnnotationError, LogError) as exc:
            self._refused(exc)
            return
        from .annotate import AnnotateScreen

        def closed(annotation: Annotation | None) -> None:
            if annotation is not None:
                self._annotated(number, annotation)

        self.app.push_screen(AnnotateScreen(self.store, self.session, number, record), closed)

    def _annotating(self, act: Callable[[AnnotationStore, int], Annotation | bool]) -> None:
        number = self.browse.current
        if number is None or not isinstance(self.session, RecordSession):
            return
        try:
            done = act(self.store, number)
        except (AnnotationError, LogError, ValueError) as exc:
            self._refused(exc)
            return
        self._annotated(number, done)

    def _annotated(self, number: int, done: Annotation | bool) -> None:
        if isinstance(done, bool):
            words = "annotation cleared" if done else "the record had no annotation"
        else:
            words = f"annotated {done.decision}"
        self.tell(words)  # the strip above shows the annotation; a notice would cover the verdict
        if not isinstance(done, bool) and self.store.news is not None:
            self.notify(safe.display(self.store.news), title="annotated meanwhile elsewhere", severity="warning",
                        markup=False, timeout=8)
        self.post_message(RecordAnnotated(number))

    @on(RecordAnnotated)
    def _record_annotated(self, message: RecordAnnotated) -> None:
        self.annotations_changed = True  # the overview joins its counts again when it is back
        if self.browse.current == message.number:
            self._show_strip(message.number)
        self._show_annotated()

    def _show_annotated(self) -> None:
        """The list's marker of each annotated record (and the keys that depend on it)."""
        if isinstance(self.session, RecordSession):
            self.annotated = {number: annotation.is_false
                              for number, annotation in self.store.of_records(self.session).items()}
            self.case_list.show_annotated(self.annotated)
            self._schedule_footer()

    def key_state(self) -> KeyState:
        marks = self.session.marks if isinstance(self.session, RecordSession) else ()
        return replace(super().key_state(), searched=self.searched is not None and bool(self.searched.numbers),
                       marked=bool(marks), annotated=self.browse.current in self.annotated)

    def _refused(self, exc: Exception) -> None:
        self.notify(safe.file_error(exc, self.app.is_web), title="cannot annotate", severity="error", markup=False,
                    timeout=8)

    def action_log_line(self) -> None:
        """The record's whole line, reread from its log (a log changed since it was counted: said instead)."""
        number = self.browse.current
        if number is None or not isinstance(self.session, RecordSession):
            return
        show_log_line(self, partial(record_line, self.session, number), "this record's line")

    def action_back(self) -> None:
        if self.searched is not None or self.search_problem is not None or \
                self.query_one("#search").has_class("-active"):
            self._clear_search()
            return
        if self.browse.filtered or self.query_one("#filter").has_class("-active"):
            self.action_clear_filter()
            return
        self.leave()

    def leave(self) -> None:
        """Back to the overview (``q``, and Esc once no filter is set), with the record it was on."""
        self.dismiss(self.browse.current)  # type: ignore[arg-type]  # the record it was on (MainScreen is a Screen[None])

    @property
    def help_at(self) -> str:
        return "records"  # the help opens at a group's keys

    def held(self, quitting: bool) -> Held:
        """The group's lab edits not saved and its marks: lost by quitting, and by going back while the overview
        is still counting (it keeps an opened group's records only once its count is done)."""
        kept = self.counted is not None and self.counted[0].done
        return Held((self.session,)) if quitting or not kept else Held()

    # -- the filter: metadata and the answer's text, read from the log in a worker ---------------

    def filter_typed(self, text: str) -> None:
        if not isinstance(self.session, RecordSession):
            super().filter_typed(text)
            return
        self._filtering += 1
        self.workers.cancel_group(self, "record-filter")
        try:
            parsed = parse_filter(text)
        except FilterError as exc:
            self.filter_problem, self.filtered = str(exc), None
            self._update_titles()
            return
        self.filter_problem = None
        if parsed.empty:
            self.filtered = None
            self.browse = self.browse.searching(self.session, "")
            return
        self.session.cases.members.resolve_all()  # here, in the thread that draws: the worker only reads them
        self._filter(parsed, self.browse.chosen, self._flags(), self._filtering)
        self._update_titles()

    def _flags(self) -> _Flags:
        """What a filter or a search is matched with beside the log: the labels of the records edited in the
        lab, each annotated record's decision, the records marked (read here, in the thread that draws)."""
        assert isinstance(self.session, RecordSession)
        labels = {number: self.session.report(number).actual for number in self.session.edits()}
        decisions: dict[int, str] = {number: annotation.decision
                                     for number, annotation in self.store.of_records(self.session).items()}
        return labels, decisions, frozenset(self.session.marks)

    @work(thread=True, exclusive=True, group="record-filter")
    def _filter(self, parsed: RecordFilter, among: tuple[int, ...] | None, flags: _Flags, generation: int) -> None:
        found = self._matching(parsed, among, flags)
        if found is not None:
            self.app.call_from_thread(self._found, found, generation)

    def _matching(self, parsed: RecordFilter, among: tuple[int, ...] | None, flags: _Flags) -> FilterResult | None:
        """The records ``parsed`` matches among ``among`` (in a worker: None when it was stopped)."""
        worker = get_current_worker()
        assert isinstance(self.session, RecordSession)
        labels, decisions, marked = flags
        found = filter_records(self.session, parsed, among, cancelled=lambda: worker.is_cancelled, labels=labels,
                               decisions=decisions, marked=marked)
        return None if found is None or worker.is_cancelled else found

    def _found(self, found: FilterResult, generation: int) -> None:
        if generation != self._filtering or not self.is_attached:
            return  # a newer filter was typed meanwhile
        self.filtered = found
        self.browse = self.browse.found(found.filter.text, found.numbers)
        self._update_titles()
        if self._open_found:
            self._open_found = False
            if self.browse.first is not None:
                self.open_case(self.browse.first)

    @on(CasesChosen)
    def _records_chosen(self, message: CasesChosen) -> None:
        # The main view narrows the list to these records (the palette, the summary) with its own search of the
        # typed text: the typed filter is matched again among them, as a record filter.
        text = self.query_one("#filter", Input).value
        if text.strip():
            self.call_after_refresh(self.filter_typed, text)

    @on(Input.Submitted, "#filter")
    def _records_filter_submitted(self, event: Input.Submitted) -> None:
        # The main view's handler opens the first case listed; a filter still reading opens it once done.
        if self.filtered is None or self.filtered.filter.text != event.value:
            self._open_found = bool(event.value.strip()) and self.filter_problem is None

    def action_clear_filter(self) -> None:
        self._filtering += 1
        self.workers.cancel_group(self, "record-filter")
        self.filtered, self.filter_problem, self._open_found = None, None, False
        super().action_clear_filter()

    def _filter_words(self) -> Content | None:
        """What the title says of the typed filter: how many match, that it is reading, or what is wrong."""
        if self.filter_problem is not None:
            return Content.assemble(("filter: ", TEXT[Tone.BAD]), safe.content(self.filter_problem, TEXT[Tone.BAD]))
        text = self.query_one("#filter", Input).value if self._views is not None else ""
        if not text.strip() or self.filter_problem is not None:
            return None
        if self.filtered is None or self.filtered.filter.text != text:
            return Content.styled("filtering…", TEXT[Tone.MUTED])
        return Content.styled(self.filtered.words, TEXT[Tone.BAD] if not self.filtered.numbers else "")

    # -- marks: space, C, and ctrl+e exports them -----------------------------------------------

    def action_mark(self) -> None:
        number = self.browse.current
        if number is None or not isinstance(self.session, RecordSession):
            return
        self._marks_not_kept(self.session.toggle_mark(number))
        self.case_list.refresh_rows([self.browse.row_of(number)])
        self._update_titles()
        self._schedule_footer()

    def action_clear_marks(self) -> None:
        if not isinstance(self.session, RecordSession):
            return
        cleared, problem = self.session.clear_marks()
        self._marks_not_kept(problem)
        self.case_list.refresh_all()
        self._update_titles()
        self._schedule_footer()
        self.notify(f"{cleared:,} mark(s) cleared" if cleared else "no record is marked", markup=False, timeout=2)

    def _marks_not_kept(self, problem: str | None) -> None:
        """Say once why the marks are not kept beside the log (they are, for this session, all the same)."""
        if problem is not None and not self._told_marks:
            self._told_marks = True
            self.notify(safe.file_error(problem, self.app.is_web, "the marks file"),
                        title="marked here, not kept beside the log", severity="warning", markup=False, timeout=6)

    def action_next_mark(self) -> None:
        self._go_among(self.session.marks if isinstance(self.session, RecordSession) else (), 1, "no record shown is marked")

    def action_previous_mark(self) -> None:
        self._go_among(self.session.marks if isinstance(self.session, RecordSession) else (), -1,
                       "no record shown is marked")

    def _go_among(self, numbers: Iterable[int], step: int, none: str) -> None:
        """Open the next (``step`` 1) or previous (-1) record of the list among ``numbers``, from the one
        shown, going round past either end."""
        wanted = set(numbers)
        rows = [row for row, number in enumerate(self.browse.visible) if number in wanted]
        if not rows:
            self.notify(none, markup=False, timeout=2)
            return
        here = self.browse.row_of(self.browse.current)
        if here is None:
            chosen = rows[0] if step > 0 else rows[-1]
        elif step > 0:
            chosen = next((row for row in rows if row > here), rows[0])
        else:
            chosen = next((row for row in reversed(rows) if row < here), rows[-1])
        self.open_case(self.browse.visible[chosen])

    # -- the search (ctrl+f): the filter's terms, nothing hidden, n and N step --------------------

    def action_search(self) -> None:
        field = self.query_one("#search", Input)
        field.add_class("-active")
        field.focus()

    @on(Input.Changed, "#search")
    def _search_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.search_typed(event.value)

    def search_typed(self, text: str) -> None:
        """Search the records shown for ``text`` (in a worker: the title says how many match)."""
        self._searching += 1
        self.workers.cancel_group(self, "record-search")
        try:
            parsed = parse_filter(text)
        except FilterError as exc:
            self.search_problem, self.searched = str(exc), None
            self._show_matches()
            return
        self.search_problem = None
        if parsed.empty:
            self.searched = None
            self._show_matches()
            return
        self.session.cases.members.resolve_all()  # type: ignore[attr-defined]  # a RecordSession: only its screen searches
        self._search(parsed, self.browse.visible, self._flags(), self._searching)
        self._update_titles()

    @work(thread=True, exclusive=True, group="record-search")
    def _search(self, parsed: RecordFilter, among: tuple[int, ...], flags: _Flags, generation: int) -> None:
        found = self._matching(parsed, among, flags)
        if found is not None:
            self.app.call_from_thread(self._searched, found, generation)

    def _searched(self, found: FilterResult, generation: int) -> None:
        if generation != self._searching or not self.is_attached:
            return
        self.searched = found
        self._show_matches()
        if self._go_found:
            self._go_found = False
            self._go_match(0)

    @on(Input.Submitted, "#search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.set_focus(None)
        if not event.value.strip():
            self._clear_search()
        elif self.searched is not None and self.searched.filter.text == event.value:
            self._go_match(0)
        else:
            self._go_found = self.search_problem is None  # still reading: once found

    def action_next_match(self) -> None:
        self._go_match(1)

    def action_previous_match(self) -> None:
        self._go_match(-1)

    def _go_match(self, step: int) -> None:
        """The next match after the record shown (``step`` 1), the previous (-1), or the first at or after it (0)."""
        if self.searched is None:
            self.notify("no search: ctrl+f searches", markup=False, timeout=2)
            return
        current = self.browse.current
        if step == 0 and current is not None and current in self.searched.numbers:
            return
        if step == 0 and current is not None:
            here = self.browse.row_of(current)
            current = self.browse.visible[here - 1] if here else None
            step = 1
        self._go_among(self.searched.numbers, step, f"no record shown matches {self.searched.filter.text}")

    def _clear_search(self) -> None:
        self._searching += 1
        self.workers.cancel_group(self, "record-search")
        field = self.query_one("#search", Input)
        with field.prevent(Input.Changed):
            field.value = ""
        field.remove_class("-active")
        self.set_focus(None)
        self.searched, self.search_problem, self._go_found = None, None, False
        self._show_matches()

    def _show_matches(self) -> None:
        self.case_list.show_matches(frozenset(self.searched.numbers) if self.searched is not None else ())
        self._update_titles()
        self._schedule_footer()

    def _search_words(self) -> Content | None:
        """What the title says of the search: how many records shown it matches, or what is wrong."""
        if self.search_problem is not None:
            return Content.assemble(("search: ", TEXT[Tone.BAD]), safe.content(self.search_problem, TEXT[Tone.BAD]))
        text = self.query_one("#search", Input).value if self._views is not None else ""
        if not text.strip():
            return None
        if self.searched is None or self.searched.filter.text != text:
            return Content.styled("searching…", TEXT[Tone.MUTED])
        found = len(self.searched.numbers)
        return Content.styled(f"search {found:,}" if found else "search: none",
                              TEXT[Tone.WARN] if found else TEXT[Tone.BAD])

    # -- following a log: the group grows as the overview counts it ---------------------------

    def update_snapshot(self, snapshot: Snapshot) -> None:
        """The overview counted more: the group's records counted since are added to its list (a count
        started again holds another index: the group opened stays as it was)."""
        if not isinstance(self.session, RecordSession) or not self.is_attached:
            return
        if snapshot.summary.tally.index is not self.session.cases.members.index:
            return
        if self.following != snapshot.following:
            self.following = snapshot.following
            self._update_titles()
        # On the newest record while following (G), the newest stays shown as the group grows, as tail -f.
        tailing = self.following and self.browse.current is not None and self.browse.current == self.browse.last
        if not self.session.grow(snapshot):
            return
        if self.counted is not None:
            self.counted = (snapshot, self.counted[1])  # an export rereads what is counted now
        text = self.query_one("#filter", Input).value
        if text.strip():
            self.filter_typed(text)  # the new records filtered too
        else:
            self.browse = self.browse.grown(self.session)
            if tailing and self.browse.last is not None and self.browse.last != self.browse.current:
                self.open_case(self.browse.last)
        if self.searched is not None:
            self.search_typed(self.query_one("#search", Input).value)  # the new records searched too
        self._update_titles()

    def action_export(self) -> None:
        if self.counted is None or not isinstance(self.session, RecordSession):
            self.notify("this group's records were not opened from a triage's overview: nothing to export from",
                        markup=False, timeout=3)
            return
        from .export import ExportScreen

        # What the list shows is what is exported: a filter narrowing it must have found its records.
        browse, shown = self.browse, None
        if self.filter_problem is not None:
            self.notify(safe.display(f"the filter cannot be read ({self.filter_problem}): correct it, or Esc "
                                     "clears it, before exporting"), severity="warning", markup=False, timeout=4)
            return
        text = self.query_one("#filter", Input).value.strip()
        if text and (self.filtered is None or self.filtered.filter.text.strip() != text):
            self.notify("the filter is still reading the records: export once it says how many match",
                        severity="warning", markup=False, timeout=4)
            return
        if browse.filtered:
            if not browse.visible:
                self.notify("no record is shown: nothing to export (Esc clears the filter)", markup=False,
                            timeout=3)
                return
            words = " and ".join(part for part in (f"filter {browse.text}" if browse.text else "",
                                                   browse.label or "") if part)
            shown = Shown(browse.visible, words)
        snapshot, run = self.counted

        def closed(again: bool | None) -> None:
            if again:
                self.notify("a log changed since it was counted: Esc, then ctrl+r in the overview counts again",
                            title="a log changed", severity="warning", markup=False, timeout=8)

        self.app.push_screen(ExportScreen(self.group, snapshot, run, self.session.marks.numbers(), shown), closed)

    def _title(self, selector: str, content: Content) -> None:
        # The case list's title names the group first (set only when it changes, like every title), then what
        # the typed filter found and how many records are marked.
        if selector == "#cases-panel":
            muted = TEXT[Tone.MUTED]
            words = self._filter_words()
            marks = self.session.marks.words if isinstance(self.session, RecordSession) else ""
            search = self._search_words()
            content = Content.assemble(safe.content(self.group.name, "bold"), (" · ", muted),
                                       words if words is not None else content,
                                       (f" · {marks}" if marks else "", TEXT[Tone.WARN]),
                                       *((" · ", muted), search) if search is not None else (),
                                       (" · following" if self.following else "", TEXT[Tone.GOOD]))
        super()._title(selector, content)

    def action_summary(self) -> None:
        if len(self.session) > SUMMARY_LIMIT:
            self.notify(f"this group holds {len(self.session):,} records: the suite summary rereads and verifies "
                        f"each (up to {SUMMARY_LIMIT:,}); the overview (Esc) has the group's counts",
                        markup=False, timeout=4)
            return
        super().action_summary()

    def add_suite(self, suite: Suite, case_id: str | None = None) -> None:
        # A saved counterexample file, or one chosen in the palette: another session's.
        self.notify(f"{safe.display(str(suite.path))}: a triage group's records are not mixed with a suite; "
                    "open it with inspector open", severity="warning", markup=False, timeout=4)
