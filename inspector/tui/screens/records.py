"""A triage group's records in the main view: ``RecordsScreen``.

The main screen over a ``RecordSession`` (the group's records as the cases of
an in-memory suite, read from the log as they are shown): the registry beside
each claim, the checks, the highlights, the lab's edits, mutations and save all
work as on any case, ``j``/``k`` page through the group.  Above the request,
the record's place (file:line, byte offset) and metadata (``RecordStrip``,
bounded by ``presentation.records``), in view without scrolling; ``l`` shows
its whole log line (``LogLineScreen``).  ``t``/``w`` annotate the record (the
contract right or wrong), ``N`` with a note (``AnnotateScreen``), ``U`` clears
it: kept beside the log by the overview's ``AnnotationStore``, shown in the
strip.  ``/`` filters the records by metadata (``model=gpt-x``), by text in
the answer (``raw:TEXT``) and by place or label (``presentation.record_filter``: parsed once, matched in a thread
worker that reads the records it must from the log; the title says how many
match).  Space marks a record (``presentation.marks``, kept by the session: a
column of the list), ``C`` unmarks them all, ``ctrl+e`` exports the marked
records, the first ones or a sample (``ExportScreen``), of the records shown
when a filter narrows the list (``presentation.group_export.Shown``).  Esc goes back to the
overview (clearing a case filter first).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from textual import on, work
from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import Input
from textual.worker import get_current_worker

from ...presentation.annotate import AnnotationStore
from ...presentation.group_export import Shown
from ...presentation.leaving import Held
from ...presentation.overview import Snapshot, TriageRun
from ...presentation.record_filter import FilterError, FilterResult, RecordFilter, filter_records, parse_filter
from ...presentation.record_session import RecordSession
from ...presentation.records import record_line, record_place_of
from ...triage.annotations import Annotation, AnnotationError
from ...triage.logs import LogError
from ...triage.stamp import LogChanged
from ...presentation.selection import Selection
from ...presentation.session import Session
from ...suites.load import Suite
from ...triage.summary import Group
from .. import keys, safe
from ..messages import CasesChosen, RecordAnnotated
from ..tones import TEXT, Tone
from ..widgets.record_strip import RecordStrip
from .main import MainScreen

__all__ = ["RecordsScreen"]


# The suite summary (S) verifies every case it summarises: beyond this many
# records the overview's counts are the group's summary.
SUMMARY_LIMIT = 5000


class RecordsScreen(MainScreen):
    # The main view's keys, Esc going back (a subclass's key replaces the main view's).
    BINDINGS = keys.bindings("records")
    KEY_SCREENS = ("main", "records")
    can_review = False  # a group's records are not a suite with frozen labels to review

    def __init__(self, session: Session, group: Group, number: int = 0, store: AnnotationStore | None = None,
                 counted: tuple[Snapshot, TriageRun] | None = None) -> None:
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

    def compose_request_head(self) -> ComposeResult:
        yield RecordStrip(id="record")

    def on_mount(self) -> None:
        # Runs before the main screen's own on_mount opens the first record.
        self.query_one("#filter", Input).placeholder = "filter: model=gpt-x, key!=value, text in the answer, id, label"
        if isinstance(self.session, RecordSession):
            self.case_list.show_marks(self.session.marks)
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

    def _refused(self, exc: Exception) -> None:
        self.notify(safe.file_error(exc, self.app.is_web), title="cannot annotate", severity="error", markup=False,
                    timeout=8)

    def action_log_line(self) -> None:
        """The record's whole line, reread from its log (a log changed since it was counted: said instead)."""
        number = self.browse.current
        if number is None or not isinstance(self.session, RecordSession):
            return
        read = partial(record_line, self.session, number)
        try:
            line = read(True)
        except LogChanged as exc:
            self.notify(safe.display(f"{exc.path}: the log changed since it was counted ({exc.what}): this record's "
                                     "line is not there any more; Esc, then ctrl+r in the overview counts again"),
                        title="a log changed", severity="error", markup=False, timeout=8)
            return
        except LogError as exc:
            self.notify(safe.file_error(exc, self.app.is_web), title="the line cannot be read again", severity="error",
                        markup=False, timeout=8)
            return
        from .log_line import LogLineScreen

        self.app.push_screen(LogLineScreen(read, line))

    def action_back(self) -> None:
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
        labels = {number: self.session.report(number).actual for number in self.session.edits()}
        self._filter(parsed, self.browse.chosen, labels, self._filtering)
        self._update_titles()

    @work(thread=True, exclusive=True, group="record-filter")
    def _filter(self, parsed: RecordFilter, among: tuple[int, ...] | None, labels: dict[int, str],
                generation: int) -> None:
        worker = get_current_worker()
        assert isinstance(self.session, RecordSession)
        found = filter_records(self.session, parsed, among, cancelled=lambda: worker.is_cancelled, labels=labels)
        if found is not None and not worker.is_cancelled:
            self.app.call_from_thread(self._found, found, generation)

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
        self.session.marks.toggle(number)
        self.case_list.refresh_rows([self.browse.row_of(number)])
        self._update_titles()

    def action_clear_marks(self) -> None:
        if not isinstance(self.session, RecordSession):
            return
        cleared = self.session.marks.clear()
        self.case_list.refresh_all()
        self._update_titles()
        self.notify(f"{cleared:,} mark(s) cleared" if cleared else "no record is marked", markup=False, timeout=2)

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
            content = Content.assemble(safe.content(self.group.name, "bold"), (" · ", muted),
                                       words if words is not None else content,
                                       (f" · {marks}" if marks else "", TEXT[Tone.WARN]))
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
