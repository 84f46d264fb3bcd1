"""The triage overview: a log's groups with counts and bars, filling in live.

``inspector triage LOG... --registry G`` opens here.  The screen is on at once;
verification runs in a thread worker that calls the engine (``presentation.overview.count``:
``triage.triage``, itself counting in processes on every core), and every
partial count the engine reports (``on_progress``, the counts merged so far) is
summarised in that worker by ``triage.summary`` (the one place the groups are
named and counted) and posted here, a newer snapshot replacing an older one not yet shown.  The
screen only orders, filters and draws them: a progress bar (lines, lines per
second), the groups with the summary's bars, the time histogram when records
carry ``ts``.  Esc stops the count between two of the engine's tasks and keeps
what was counted.  Enter opens a group's records in the main view
(``RecordsScreen``), read from the log only as they are shown, or the bad
lines (``BadLinesScreen``).  Each log is stamped as its counting starts
(``presentation.overview.count``); a log rewritten or rotated since is refused
when a group is opened or exported, saying so, and ``ctrl+r`` counts again.

With ``--follow`` (``TriageRun.follow``) the same worker goes on once the lines
there are counted: the engine's follower counts each line appended, and its
snapshots (at least one a second) move the counts and the histogram; the head
says it is following and how many new lines a second, and each rotation or
truncation the follower saw is said (a notice, and the head's last line).  Esc
stops following, keeping the counts; quitting stops it too.
"""

from __future__ import annotations

import threading

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.signal import Signal
from textual.widgets import Input, Static

from ...contract.text import visible
from ...presentation.annotate import AnnotationStore
from ...triage.annotations import AnnotationError
from ...presentation.bars import bar
from ...presentation.leaving import Held
from ...presentation.overview import (
    COMPARED_SORTS,
    SORTS,
    SORT_WORDS,
    Snapshot,
    TimeShown,
    TriageRun,
    count,
    log_changes,
    overview_groups,
)
from ...presentation.pivot_view import pivot_default, pivot_group
from ...presentation.record_session import open_group
from ...presentation.session import Session
from ...triage.drill import LineReader
from ...triage.groups import GroupKind, other_name
from ...triage.stamp import LogChanged
from ...triage.summary import Group
from ...triage.timeline import iso
from ..widgets.footer import KeysFooter
from .. import keys, safe
from ..tones import TEXT, Tone, strong
from ..widgets.group_table import GroupTable
from ..widgets.time_table import TimeTable, time_title
from .time_follow import FollowsTime

__all__ = ["Counted", "TriageScreen"]

_MUTED = TEXT[Tone.MUTED]
# The cells the time histogram takes beside the groups (its width and margin: inspector.tcss).
TIME_CELLS = 44
# What happened to a followed log, as the head and the notices say it (``FollowEvent.kind``).
_EVENT_WORDS = {"rotated": "rotated", "truncated": "truncated", "gone": "gone", "back": "found again",
                "unreadable": "unreadable", "ended": "ended", "broken": "broke off"}


class Counted(Message):
    """A snapshot of the counts, posted by the worker."""

    def __init__(self, snapshot: Snapshot, generation: int = 0) -> None:
        super().__init__()
        self.snapshot = snapshot
        self.generation = generation  # which count it is of (ctrl+r starts another)

    def can_replace(self, message: Message) -> bool:
        # A newer snapshot replaces an older one not yet shown; the last one stays.
        return isinstance(message, Counted) and not message.snapshot.done


class TriageScreen(FollowsTime, Screen[None]):
    """The overview of a triage (the app's first screen for ``inspector triage``)."""

    BINDINGS = keys.bindings("triage")
    AUTO_FOCUS = "#groups"  # the groups' table: it owns the movement keys
    # Under 110 columns the time histogram gives way to the groups: their names and counts come first.
    HORIZONTAL_BREAKPOINTS = [(0, "-groups-only"), (110, "-with-time")]

    def __init__(self, run: TriageRun) -> None:
        super().__init__()
        self.run = run
        self.cancel = threading.Event()
        self.sorts = COMPARED_SORTS if run.against else SORTS  # comparing: by the change's weight first
        self.sort = self.sorts[0]
        self.filter_text = ""
        self.counted: Snapshot | None = None
        # Each snapshot shown, to whoever follows the count (the pivot view): it subscribes, the overview
        # never looks for it.
        self.counts: Signal[Snapshot] = Signal(self, "counts")
        self.running = True
        self.reader = LineReader()
        self._sessions: dict[str, tuple[Session, int]] = {}  # a finished triage's opened groups, with their edits
        self.generation = 0  # the count under way or shown: a snapshot of an earlier one is dropped
        self._counting = threading.Event()  # set when the last count started has returned
        self._recount_asked = False  # ctrl+r was pressed once with lab edits that counting again drops
        self._told = 0  # the number of the last event of the follow said in a notice
        self.store = AnnotationStore()  # the reviewers' annotations beside the logs (t, w, a on a record)
        self._panel_title = Content("")  # the logs and the registry (on_mount), "following" added while it is

    # -- layout -------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="triage-panel"):
            yield Static("", id="triage-head", markup=False)
            yield Static("", id="triage-progress", markup=False)
            yield Input(placeholder="filter the groups by name", id="triage-filter", select_on_focus=False)
            with Horizontal(id="triage-body"):
                with Vertical(id="groups-panel"):
                    yield Static("", id="groups-title", classes="triage-title", markup=False)
                    yield GroupTable(id="groups")
                    yield Static("", id="groups-name", markup=False)
                with Vertical(id="time-panel"):
                    yield Static("", id="time-title", classes="triage-title", markup=False)
                    yield TimeTable(id="time")
        yield KeysFooter()

    def on_mount(self) -> None:
        if not self.query("#triage-panel"):
            # The app quit while this screen was being mounted (a served tab closed as its session started):
            # its panels were removed before its mount ran, and there is nothing to set up.
            return
        names = ", ".join(self.run.names)
        against = (Content.assemble((" · against ", _MUTED), safe.content(", ".join(self.run.against)))
                   if self.run.against else "")
        self.query_one("#triage-head").set_class(bool(self.run.against), "-compared")
        self._panel_title = Content.assemble(
            "triage · ", safe.content(names), against, (" · registry ", _MUTED), safe.content(self.run.registry_path))
        self._show_panel_title()
        self._show_head()
        self._show_titles()
        self._count(self.generation, self.cancel, None, self._counting, self.reader)

    def held(self, quitting: bool) -> Held:
        """The opened groups kept with their lab edits and marks: quitting loses those not saved."""
        return Held(tuple(session for session, _ in self._sessions.values()))

    def on_unmount(self) -> None:
        self.cancel.set()  # the worker stops at the engine's next task
        self.reader.close()

    # -- the count, in a worker -----------------------------------------------------

    @work(thread=True, group="triage")
    def _count(self, generation: int, cancel: threading.Event, after: threading.Event | None,
               done: threading.Event, reader: LineReader) -> None:
        # One count at a time (the engine's workers are set up per process): a count
        # again waits for the one it stopped, which ends at the engine's next task.
        try:
            if after is not None:
                after.wait()
            if not cancel.is_set():
                count(self.run, lambda snapshot: self.post_message(Counted(snapshot, generation)), cancel, reader)
        finally:
            done.set()

    def action_recount(self) -> None:
        """Count the logs again from the start (the one before stopped, its groups and opened records dropped;
        with lab edits in them, only when pressed a second time)."""
        edited = sum(1 for session, _ in self._sessions.values() if session.edits())
        if edited and not self._recount_asked:
            self._recount_asked = True
            self.notify(f"{edited} opened group{'s' if edited != 1 else ''} hold{'s' if edited == 1 else ''} lab "
                        "edits, dropped by counting again (save them first with s in the group); ctrl+r again "
                        "counts anyway", title="count again?", severity="warning", markup=False, timeout=8)
            return
        self._recount_asked = False
        self.cancel.set()  # the count under way, if any, stops at the engine's next task
        self.cancel = threading.Event()
        self.generation += 1
        self.counted = None
        self.running = True
        self._told = 0
        self._sessions.clear()
        self.reader.close()
        self.reader = LineReader()
        for table in (self.query_one(GroupTable), self.query_one(TimeTable)):
            table.grow()
        self.query_one("#triage-progress").remove_class("-finished")
        self.query_one("#triage-progress", Static).update("", layout=False)
        self.query_one(GroupTable).chosen = False  # a new count: the cursor on the first row again
        self.query_one(GroupTable).set_groups([], 0, 0, self.sort == "kind")
        self.forget_time()
        self.show_time(TimeShown(None, None, None))
        self._show_head()
        self._show_titles()
        self.refresh_bindings()
        after, self._counting = self._counting, threading.Event()
        self._count(self.generation, self.cancel, after, self._counting, self.reader)

    @on(Counted)
    def _counted(self, posted: Counted) -> None:
        if posted.generation != self.generation:
            return  # a count stopped by ctrl+r
        if self.counted is not None and self.counted.done:
            return  # nothing after the end (a late partial snapshot)
        self.counted = snapshot = posted.snapshot
        self._tell_events(snapshot)
        if snapshot.done:
            self.running = False
            for table in (self.query_one(GroupTable), self.query_one(TimeTable)):
                table.settle()
            self.query_one("#triage-progress").add_class("-finished")
            self.refresh_bindings()
            if snapshot.failed is not None:
                self.notify(safe.file_error(snapshot.failed, self.app.is_web, "a log"), title="cannot read the log",
                            severity="error", markup=False)
            for file, line, problem in snapshot.broken:
                self.notify(visible(f"{file} broke off after line {line:,}: {problem}; every line before the "
                                    "break is counted"), title="a log broke off", severity="warning",
                            markup=False, timeout=8)
            self._join_annotations()
            for changed in snapshot.changed:
                self.notify(safe.display(f"{changed.path}: the log changed while it was counted ({changed.what}): "
                                         "the counts may mix two files; ctrl+r counts again"),
                            title="a log changed", severity="warning", markup=False, timeout=8)
        else:
            self._show_progress(snapshot)
        self.counts.publish(snapshot)  # the pivot view and a group's records, when open, follow the count
        self._show_panel_title()
        self._show_groups()
        if self.snapshot_due(snapshot):  # (FollowsTime: at most every second while counting)
            self.follow_time()
        self._show_head()

    def _tell_events(self, snapshot: Snapshot) -> None:
        """A notice for each event of the follow not said yet (a snapshot replaced by a newer one loses
        none: each holds the latest events)."""
        for event in snapshot.events:
            if event.number > self._told:
                self.notify(safe.display(event.words()), title=f"a log {_EVENT_WORDS.get(event.kind, event.kind)}",
                            severity="warning", markup=False, timeout=8)
        self._told = max(self._told, snapshot.event_count)

    # -- drawing ---------------------------------------------------------------------

    def time_snapshot(self) -> Snapshot | None:
        return self.counted

    def time_target(self) -> Group | None:
        return self.query_one(GroupTable).current

    def _show_groups(self) -> None:
        if self.counted is None:
            return
        summary = self.counted.summary
        shifts = self.counted.shifts
        groups = overview_groups(summary, self.sort, self.filter_text, shifts)
        table = self.query_one(GroupTable)
        table.set_groups(groups, summary.records, summary.tally.lines if self.counted.done else self.counted.lines,
                         self.sort == "kind", shifts, self.counted.comparison)
        table.empty_message = "no group matches the filter" if self.filter_text else \
            "counting…" if self.running else "no records"
        self._show_titles()
        self._fit_names()

    def on_resize(self) -> None:
        self._fit_names()

    def _fit_names(self) -> None:
        """The time histogram gives way when the groups' names (a claim's check, field and document) are not
        whole beside it with every count (``GroupTable.fits_names``): names before the histogram."""
        body = self.query("#triage-body")
        if not body:
            return
        beside = body.first().size.width - TIME_CELLS - 1  # (a cell for the table's scrollbar)
        self.set_class(not self.query_one(GroupTable).fits_names(beside), "-names-first")

    def _show_progress(self, snapshot: Snapshot) -> None:
        """The share of the logs' bytes read, as the summary's bars draw it (no layout: a fixed height);
        following, what is going on instead."""
        progress = self.query_one("#triage-progress", Static)
        if snapshot.following:
            progress.update(Content.assemble(("● following", strong(Tone.GOOD)),
                                             (" · every line appended is counted as it is written", _MUTED)),
                            layout=False)
            return
        total, done = snapshot.total_bytes or 0, snapshot.bytes_done
        share = f" {100 * done / total:3.0f}%" if total else ""
        width = max(10, progress.size.width - len(share))
        progress.update(Content.assemble((bar(done, total, width), "$primary"), (share, "bold")), layout=False)

    def show_time(self, shown: TimeShown) -> None:
        histogram = shown.histogram
        panel = self.query_one("#time-panel")
        panel.set_class(histogram is not None, "-shown")
        self.query_one(TimeTable).set_shown(shown)
        if histogram is not None:
            self.query_one("#time-title", Static).update(time_title(shown, "group"), layout=False)

    @on(GroupTable.Moved)
    def _show_name(self, moved: GroupTable.Moved) -> None:
        """The group under the cursor, its whole name (the table cuts a long one in the middle), and its
        records over time."""
        group = moved.group
        line = safe.content(group.name, "bold") if group is not None else Content("")
        paired = self.query_one(GroupTable).paired(group) if group is not None else None
        if paired is not None:  # said here too: the column gives way first
            line = Content.assemble(line, (" · items in both runs: ", _MUTED), paired.beside_words(),
                                    (" (lost, gained; McNemar)", _MUTED))
        self.query_one("#groups-name", Static).update(line, layout=False)
        self.time_moved()

    def _show_titles(self) -> None:
        table = self.query_one(GroupTable)
        shown = len(table.groups)
        counted = self.counted
        total = len(counted.summary.groups) + sum(1 for shift in (counted.shifts or {}).values() if shift.vanished) \
            if counted is not None else 0
        parts: list[Content | tuple[str, str] | str] = [
            "groups", (f" · {shown}/{total}" if shown != total else f" · {total}", _MUTED),
            (f" · {SORT_WORDS[self.sort]} (o)", _MUTED)]
        if self.filter_text:
            parts += [(" · filter ", _MUTED), safe.content(self.filter_text, "bold")]
        # Records whose ts is there but not read as a time: said once, here, where it is always in view.
        unread = self.counted.summary.tally.bad_ts if self.counted is not None else 0
        if unread:
            parts += [(" · ", _MUTED), (f"ts of {unread:,} record(s) not read as a time", strong(Tone.WARN))]
        # A --by key past the bound of values kept: its heaviest are groups, the rest one (other:KEY).
        for key in self.counted.summary.capped if self.counted is not None else ():
            parts += [(" · ", _MUTED), safe.content(f"--by {key}", strong(Tone.WARN)),
                      (" has more values than are kept: the rest are ", _MUTED),
                      safe.content(other_name(key), "bold")]
        self.query_one("#groups-title", Static).update(Content.assemble(*parts), layout=False)

    def _show_panel_title(self) -> None:
        """The panel's title: the logs and the registry, and following while the count follows them (and
        not once Esc stopped it)."""
        following = self.run.follow and (self.counted is None or not self.counted.done)
        title = Content.assemble(self._panel_title, (" · following", strong(Tone.GOOD)) if following else "")
        panel = self.query_one("#triage-panel")
        if panel.border_title != title:
            panel.border_title = title

    def _show_head(self) -> None:
        counted = self.counted
        head = self.query_one("#triage-head", Static)
        bold = "bold"
        if counted is None:
            head.update(Content.assemble(("verifying ", _MUTED), (f"{len(self.run.logs)} log(s)", bold),
                                         (" · Esc stops and keeps what is counted", _MUTED)), layout=False)
            return
        summary = counted.summary
        rate = counted.records_per_second
        lines = [Content.assemble(
            (f"{counted.lines:,}", bold), (" lines · ", _MUTED), (f"{summary.records:,}", bold),
            (" records · ", _MUTED), (f"{counted.bad_lines:,}", strong(Tone.BAD) if counted.bad_lines else bold),
            (" bad lines · ", _MUTED),
            *([(f"{len(counted.broken):,} log(s) broke off", strong(Tone.BAD)), (" · ", _MUTED)]
              if counted.broken else []),
            *([(f"{rate:,.0f}", bold), (" records/s · ", _MUTED)] if not self.run.follow else []),
            (f"{counted.seconds:.1f} s", bold), *self._state_words(counted))]
        if summary.records:
            accepted = summary.by_check.get("ACCEPT", 0)
            false_accepts = sum(group.records for group in summary.of_kind(GroupKind.FALSE_ACCEPT))
            lines.append(Content.assemble(
                ("ACCEPT ", _MUTED), (f"{accepted:,}", strong(Tone.GOOD)),
                (f" ({100 * accepted / summary.records:.1f}%) · rejected ", _MUTED),
                (f"{summary.records - accepted:,}", strong(Tone.BAD)),
                (" · citation-only false accepts ", _MUTED),  # (the line fits 80 columns)
                (f"{false_accepts:,}", strong(Tone.WARN) if false_accepts else bold)))
        if counted.broken:  # where the first one broke: the summary lists every one
            file, line, problem = counted.broken[0]
            more = len(counted.broken) - 1
            lines.append(Content.assemble(
                ("broke off: ", strong(Tone.BAD)), safe.content(file, bold), (f" after line {line:,}: ", _MUTED),
                safe.content(problem), (f" (and {more:,} more)" if more else "", _MUTED)))
        elif counted.events:  # the latest of what happened to a followed log (each was a notice too)
            event = counted.events[-1]
            more = counted.event_count - 1
            lines.append(Content.assemble(
                (f"{_EVENT_WORDS.get(event.kind, event.kind)}: ", strong(Tone.WARN)), safe.content(event.file, bold),
                (" ", _MUTED), safe.content(event.detail), (f" · at {iso(event.time)[11:19]}", _MUTED),
                (f" (and {more:,} before)" if more else "", _MUTED)))
        if self.run.against:
            lines.append(self._comparison_words(counted))
        broke = bool(counted.broken) or bool(counted.events)
        if head.has_class("-broken") != broke:
            head.set_class(broke, "-broken")  # one more line: the height changes once
        head.update(Content("\n").join(lines), layout=False)  # a fixed height: no layout pass

    def _comparison_words(self, counted: Snapshot) -> Content:
        """The head's line on the comparison with --against's logs."""
        baseline, shifts, compared = counted.baseline, counted.shifts, counted.comparison
        if baseline is None or shifts is None or compared is None:
            said = "counted beside the logs; compared once both are counted" if not counted.done else \
                "not compared: the count was stopped before both were counted"
            return Content.assemble(("before: ", _MUTED), (said, _MUTED))
        significant = compared.significant
        worse = sum(1 for shift in significant if shift.worse)
        new = sum(1 for shift in shifts.values() if shift.new)
        vanished = sum(1 for shift in shifts.values() if shift.vanished)
        return Content.assemble(  # (the line fits 80 columns: the help says what "beyond noise" is)
            ("before ", _MUTED), (f"{baseline.records:,}", "bold"), (" · ", _MUTED),
            (f"{len(significant):,}", strong(Tone.WARN) if significant else "bold"),
            (f" of {compared.tested:,} tested changed beyond noise", _MUTED),
            (f" ({worse:,} worse)" if significant else "", strong(Tone.BAD) if worse else _MUTED),
            (f" · {new:,} new · {vanished:,} vanished", _MUTED))

    def _state_words(self, counted: Snapshot) -> list[tuple[str, str]]:
        """Where the count is, at the end of the head's first line."""
        if counted.done:
            if not counted.cancelled:
                return [(" · done", _MUTED)]
            stopped = "following: the counts are the lines counted" if self.run.follow else \
                ": the counts are the lines verified"
            return [(f" · stopped {stopped} before Esc", strong(Tone.WARN))]
        if counted.following:
            return [(" · following: ", strong(Tone.GOOD)), (f"{counted.per_second:,.1f}", "bold"),
                    (" new lines/s · Esc stops following", _MUTED)]
        then = ", then following" if self.run.follow else ""
        return [(f" · verifying{then}… Esc stops and keeps what is counted", _MUTED)]

    # -- keys -------------------------------------------------------------------------

    def action_sort(self) -> None:
        self.sort = self.sorts[(self.sorts.index(self.sort) + 1) % len(self.sorts)]
        self._show_groups()

    def action_filter(self) -> None:
        field = self.query_one("#triage-filter", Input)
        field.add_class("-active")
        field.focus()

    def action_escape(self) -> None:
        field = self.query_one("#triage-filter", Input)
        if self.running and not field.has_focus:
            self.cancel.set()
            following = self.counted is not None and self.counted.following
            self.query_one("#triage-head", Static).update(Content.styled(
                "stopping following…" if following else "stopping after the tasks under way…", strong(Tone.WARN)),
                layout=False)
            return
        with field.prevent(Input.Changed):
            field.value = ""
        field.remove_class("-active")
        self.query_one(GroupTable).focus()
        if self.filter_text:
            self.filter_text = ""
            self._show_groups()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.app.screen is not self:
            return False
        if action == "escape":
            return (self.running or bool(self.filter_text)
                    or self.query_one("#triage-filter", Input).has_class("-active")) or None
        if action == "flips":
            return bool(self.run.against)  # two runs item by item: not offered without --against
        return True

    @on(Input.Changed, "#triage-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.filter_text = event.value
        self._show_groups()

    @on(Input.Submitted, "#triage-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        self.query_one(GroupTable).focus()
        if not self.filter_text:
            self.query_one("#triage-filter", Input).remove_class("-active")

    # -- exporting a group ----------------------------------------------------------------

    def action_export(self) -> None:
        group = self.query_one(GroupTable).current
        counted = self.counted
        if group is None or counted is None:
            return
        if group.kind is GroupKind.BAD:
            self.notify("the bad lines are not records: they cannot be a suite (Enter lists them)", markup=False,
                        timeout=3)
            return
        if not group.records:
            self.notify("no record in this group", markup=False, timeout=2)
            return
        if self._changed(counted, "exported"):
            return
        from .export import ExportScreen

        def closed(again: bool | None) -> None:
            if again:
                self.action_recount()

        self.app.push_screen(ExportScreen(group, counted, self.run), closed)

    # -- the pivot view ------------------------------------------------------------------

    async def action_pivot(self) -> None:
        """The pivot view on the counts shown; it follows those to come (``counts``).  Awaited until it
        is mounted, so that no snapshot is shown here between the one it is given and its subscription."""
        counted = self.counted
        if counted is None:
            return
        from .pivot import PivotScreen

        await self.app.push_screen(PivotScreen(self.run, counted, pivot_default(self.run),
                                               lambda crossed, cell: self._open(pivot_group(crossed, cell)), self.counts))

    # -- the trials and flips views --------------------------------------------------------

    async def action_trials(self) -> None:
        """The trials view on the counts shown; it follows those to come (``counts``), as the pivot view."""
        counted = self.counted
        if counted is None:
            return
        from .trials import TrialsScreen

        await self.app.push_screen(TrialsScreen(self.run, counted, self._open, self.counts))

    def action_flips(self) -> None:
        """The flips view: the two runs item by item, once both are counted (``--against``)."""
        counted = self.counted
        if counted is None:
            return
        from ...presentation.trials_view import flips_counted

        compared = flips_counted(counted, self.run.options)
        if compared is None:
            self.notify("not compared yet: the flips are there once both runs are counted" if counted.baseline is None
                        else "no item is named in either run: records name theirs with an item member, or count "
                        "with --item PATH", markup=False, timeout=4)
            return
        from .trials import FlipsScreen

        self.app.push_screen(FlipsScreen(self.run, counted, compared, self._open))

    def _changed(self, counted: Snapshot, doing: str) -> bool:
        """Whether a log is not what was counted any more (then said on screen, with the key that counts again)."""
        changes = log_changes(counted)
        for change in changes:
            self._tell_changed(change, doing)
        return bool(changes)

    def _tell_changed(self, change: LogChanged, doing: str) -> None:
        self.notify(safe.display(f"{change.path}: the log changed since it was counted ({change.what}): nothing "
                                 f"of it can be {doing}, the lines there would be other records; ctrl+r counts "
                                 "again"), title="a log changed", severity="error", markup=False, timeout=8)

    # -- the reviewers' annotations ------------------------------------------------------

    def _join_annotations(self) -> None:
        """Each group's annotated records, from the annotations files beside the logs (a finished count's:
        a partial one is not joined); an annotations file that cannot be read is said."""
        counted = self.counted
        if counted is None or not counted.done or counted.failed is not None:
            return
        try:
            joined = self.store.join(counted, self.run, self.reader)
        except AnnotationError as exc:
            self.notify(safe.file_error(exc, self.app.is_web), title="cannot read the annotations", severity="error",
                        markup=False, timeout=8)
            return
        if joined is not None and joined.stale:
            self.notify(f"{len(joined.stale):,} annotation(s) of lines rewritten since they were annotated: stale, "
                        "not counted", title="stale annotations", severity="warning", markup=False, timeout=6)

    # -- opening a group ----------------------------------------------------------------

    def action_open_group(self) -> None:
        group = self.query_one(GroupTable).current
        if group is not None:
            self._open(group)

    def _open(self, group: Group) -> None:
        """A group's records (a pivot pair's too) in the main view; the bad lines' list."""
        counted = self.counted
        if counted is None:
            return
        if group.kind is GroupKind.BAD:
            from ...presentation.records import bad_line_starts
            from .bad_lines import BadLinesScreen

            self.app.push_screen(BadLinesScreen(counted.bad, counted.bad_lines,
                                                bad_line_starts(counted, self.run, self.reader)))
            return
        if not group.records:
            shift = counted.shifts.get(group.name) if counted.shifts else None
            self.notify("vanished: its records were in --against's logs only, none in the logs given"
                        if shift is not None and shift.vanished else "no record in this group", markup=False,
                        timeout=3)
            return
        kept = self._sessions.get(group.name) if counted.done else None
        if kept is None:
            try:
                kept = (open_group(group, counted, self.run, self.reader), 0)
            except LogChanged as change:
                self._tell_changed(change, "opened")
                return
        else:  # its records read already stay as read, with their edits; the others are broken, saying why
            for changed in log_changes(counted):
                self.notify(safe.display(f"{changed.path}: the log changed since it was counted ({changed.what}): "
                                         "the records not read before cannot be read now; ctrl+r counts again "
                                         "(this group's edits are dropped then)"),
                            title="a log changed", severity="warning", markup=False, timeout=8)
        session, number = kept
        from .records import RecordsScreen

        screen = RecordsScreen(session, group, number, self.store, counted=(counted, self.run),
                               counts=None if counted.done else self.counts)

        def closed(current: int | None) -> None:
            if counted.done:
                self._sessions[group.name] = (session, current or 0)
            if screen.annotations_changed and counted is self.counted:
                self._join_annotations()
                self._show_groups()

        self.app.push_screen(screen, closed)
