"""The main view: cases, the ladder, the request, claims, registry, answer and verdict.

The screen owns the main view's keys and its state: ``browse`` (which cases the
list shows, which one is open), ``selection`` (the case, step and claim shown),
``explore`` and ``pretty``.  Keys, clicks, palette commands and the summary all
end in a new value of one of these; the watchers hand it to the views, and each
view redraws only what changed for it.

The lab's changes are one more way to a new selection: an ``AnswerChanged``
(from the edit form, the raw editor, a mutation, a repair) is applied to the
session's history of the case, and the edited answer's report is selected like
any other case's.
"""

from __future__ import annotations

import gc
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Container, Horizontal, Vertical
from textual.content import Content
from textual.reactive import var
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Input

from ...presentation.browse import Browse
from ...presentation.editors import Change, claim_form, editable_text
from ...presentation.mutation_menu import LabCase, Next
from ...presentation.predict import PredictScore
from ...presentation.selection import Selection, select
from ...presentation.session import Session
from ...reports.case import CaseReport
from ...suites.load import LoadError, Suite, load_suite
from .. import keys, safe
from ..commands import CaseCommands, ExerciseCommands, FilterCommands, KeyCommands, OpenCommands
from ..messages import AnswerChanged, CaseChosen, CasesChosen, CheckChosen, ClaimChosen, FileChosen, MutantChosen
from ..widgets.case_list import CaseList
from ..widgets.claims import ClaimsTable
from ..widgets.ladder import Ladder
from ..widgets.raw_answer import RawAnswer
from ..widgets.registry_table import RegistryTable
from ..widgets.request_strip import RequestStrip
from ..widgets.source_text import SourceText
from ..widgets.verdict import VerdictView

if TYPE_CHECKING:
    from ...presentation.repair_view import RepairView
    from .save import Saved

__all__ = ["MainScreen"]


class MainScreen(Screen[None]):
    BINDINGS = keys.bindings("main")
    COMMANDS = {KeyCommands, CaseCommands, FilterCommands, OpenCommands, ExerciseCommands}
    AUTO_FOCUS = ""  # nothing: the keys belong to the screen until "/" focuses the filter

    browse: var[Browse] = var(Browse(0, ()))
    selection: var[Selection | None] = var(None)
    explore: var[bool] = var(False)
    pretty: var[bool] = var(False)
    predicting: var[PredictScore] = var(PredictScore())  # predict mode and the session's score

    def __init__(self, session: Session, *, freeze_gc: bool = False) -> None:
        super().__init__()
        self.session = session
        self._freeze_gc = freeze_gc
        self._views: tuple | None = None
        self._titles: dict[str, Content] = {}
        self._binding_state: tuple | None = None
        self._bindings_timer: Timer | None = None
        self._said: str | None = None  # the verdict predicted for the change being applied
        self._revealed: object = None  # the prediction revealed last (told once)
        self._save_path: str | None = None  # the file the lab saved into last, proposed again
        self.set_reactive(MainScreen.browse, Browse.of(session))

    # -- layout -------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="left"):
                with Vertical(id="cases-panel", classes="panel"):
                    yield Input(placeholder="filter: suite, id, label or note", id="filter")
                    yield CaseList(self.session, id="cases")
                with Vertical(id="checks-panel", classes="panel"):
                    yield Ladder(id="ladder")
            with Vertical(id="right"):
                with Vertical(id="request-panel", classes="panel"):
                    yield RequestStrip(id="request")
                with Container(id="evidence"):
                    with Vertical(id="claims-panel", classes="panel"):
                        yield ClaimsTable(id="claims")
                    with Vertical(id="registry-panel", classes="panel"):
                        yield RegistryTable(id="registry")
                        yield SourceText(id="source")
                with Horizontal(id="outcome"):
                    with Vertical(id="answer-panel", classes="panel"):
                        yield RawAnswer(id="answer").data_bind(MainScreen.pretty)
                    with Vertical(id="verdict-panel", classes="panel"):
                        yield VerdictView(id="verdict")
        yield Footer()

    def on_mount(self) -> None:
        for panel, title in (("#request-panel", "request"), ("#claims-panel", "claims"),
                             ("#registry-panel", "registry"), ("#verdict-panel", "verdict")):
            self.query_one(panel).border_title = title
        self._views = (self.query_one(RequestStrip), self.query_one(ClaimsTable), self.query_one(RegistryTable),
                       self.query_one(SourceText), self.query_one(Ladder), self.query_one(RawAnswer),
                       self.query_one(VerdictView))
        if len(self.session):
            self.open_case(0)
        else:
            self._update_titles()
        if self._freeze_gc:
            # Everything built so far (Textual, the suites, the widgets) lives as long as
            # the app: keep it out of the collector's full passes, which otherwise stall
            # an occasional key press by tens of milliseconds.
            self.call_after_refresh(gc.freeze)

    @property
    def case_list(self) -> CaseList:
        return self.query_one(CaseList)

    # -- the state ------------------------------------------------------------------

    def open_case(self, number: int) -> None:
        """Show a case, its first failure selected."""
        self.browse = self.browse.at(number)
        self.selection = select(self.session.report(number), self.explore)

    def watch_browse(self, old: Browse, new: Browse) -> None:
        if self._views is None:  # not composed yet
            return
        if old.visible != new.visible or old.total != new.total:
            self.case_list.set_view(new)
        else:
            self.case_list.show_current(new)
        self._update_titles()
        self._schedule_footer()

    def watch_selection(self, selection: Selection | None) -> None:
        if selection is None or self._views is None:
            return
        claims = len(selection.claims)
        height = max(1, min(claims, 8)) + 2
        panel = self.query_one("#claims-panel")
        if panel.styles.height is None or panel.styles.height.value != height:
            panel.styles.height = height
        for view in self._views:
            view.show(selection)
        self._update_titles()
        self._schedule_footer()

    def watch_explore(self, explore: bool) -> None:
        if self.selection is not None:
            self.selection = self.selection.exploring(explore)
        self._update_titles()

    def watch_pretty(self) -> None:
        self._update_titles()

    def _schedule_footer(self) -> None:
        # The footer greys out keys that do not apply; recompute only when that can change.
        selection = self.selection
        state = (selection is not None and len(selection.claims) > 1,
                 selection is not None and bool(selection.claims),
                 selection is not None and bool(selection.steps),
                 selection is not None and selection.first_failure is not None,
                 self.browse.filtered,
                 self._history_state())
        if state != self._binding_state:
            self._binding_state = state
            # Redrawing the footer costs more than a frame: do it once the keys settle.
            if self._bindings_timer is not None:
                self._bindings_timer.stop()
            self._bindings_timer = self.set_timer(0.15, self._refresh_footer)

    def _history_state(self) -> tuple[bool, bool, bool]:
        number = self.browse.current
        history = self.session.history(number) if number is not None else None
        if history is None:
            return (False, False, False)
        return (history.can_undo, history.can_redo, history.edited)

    def _refresh_footer(self) -> None:
        if self.is_attached:
            self.refresh_bindings()

    def _update_titles(self) -> None:
        # Titles that change on every step would redraw their whole panel: the step
        # counter lives in the ladder's detail instead, the case's place in the claims title.
        if self._views is None:  # not composed yet
            return
        self._title("#cases-panel", Content(self.browse.title))
        self._title("#answer-panel", Content("answer · pretty" if self.pretty else "answer · raw"))
        self._title("#checks-panel", Content.assemble("checks", (" · explore" if self.explore else "",
                                                                  "$text-muted")))
        score = self.predicting
        self._title("#verdict-panel", Content.assemble(
            "verdict", (f" · predict {score.score}" if score.on else "", "$text-warning")))
        selection = self.selection
        if selection is None:
            return
        report = selection.report
        place: list[Content | tuple[str, str]] = []
        if report.id != report.suite.name:  # a single answer is named after its file
            place = [safe.content(report.suite.name, "$text-muted"),
                     (f" {report.index + 1}/{self.session.suite_size(report.suite)} · ", "$text-muted")]
        self._title("#claims-panel", Content.assemble(
            "claims", (" · ", "$text-muted"), *place, safe.content(report.id, "bold")))

    def _title(self, selector: str, content: Content) -> None:
        """Set a panel's title only when it changed (each change redraws the panel)."""
        if self._titles.get(selector) != content:
            self._titles[selector] = content
            self.query_one(selector).border_title = content

    # -- actions: cases ---------------------------------------------------------------

    def action_next_case(self) -> None:
        self._step_case(1)

    def action_previous_case(self) -> None:
        self._step_case(-1)

    def _step_case(self, step: int) -> None:
        number = self.browse.neighbour(step)
        if number is not None and number != self.browse.current:
            self.open_case(number)

    def action_first_case(self) -> None:
        if self.browse.first is not None:
            self.open_case(self.browse.first)

    def action_last_case(self) -> None:
        if self.browse.last is not None:
            self.open_case(self.browse.last)

    def action_filter(self) -> None:
        field = self.query_one("#filter", Input)
        field.add_class("-active")
        field.focus()

    def action_clear_filter(self) -> None:
        field = self.query_one("#filter", Input)
        with field.prevent(Input.Changed):
            field.value = ""
        field.remove_class("-active")
        self.set_focus(None)
        self.browse = self.browse.cleared(self.session)

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.browse = self.browse.searching(self.session, event.value)

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        self.set_focus(None)
        if self.browse.first is not None:
            self.open_case(self.browse.first)
        if not self.browse.text:
            self.query_one("#filter", Input).remove_class("-active")

    @on(CasesChosen)
    def _cases_chosen(self, message: CasesChosen) -> None:
        """Show only these cases (from the palette or the summary) and open the first."""
        self.browse = self.browse.choosing(self.session, message.numbers, message.description)
        if self.browse.first is not None:
            self.open_case(self.browse.first)

    @on(CaseChosen)
    def _case_chosen(self, message: CaseChosen) -> None:
        self.open_case(message.number)

    # -- the lab: changes of the current case's answer -----------------------------------

    @on(AnswerChanged)
    def _answer_changed(self, message: AnswerChanged) -> None:
        self.apply_change(message.change, replaces=message.replaces)

    def apply_change(self, change: Change, *, replaces: bool = False) -> None:
        """Apply a change to the current case's answer now (``replaces``: in place of the
        last change).  The screen's own keys call this directly rather than posting
        ``AnswerChanged`` to themselves, so that a key pressed again before a message
        would have been handled sees the change (a cycling mutation's next variant)."""
        number = self.browse.current
        history = self.session.history(number) if number is not None else None
        if number is None or history is None:
            self._said = None
            self.notify("no answer to change: this case could not be loaded", severity="warning", timeout=3)
            return
        if replaces and history.can_undo:
            self.session.undo(number)
        report = self.session.change(number, change)
        self._show_changed(report)
        if self._said is not None:
            said, self._said = self._said, None
            self.predicting = self.predicting.scored(said, report.status, change.what)

    # -- the lab: mutations and predictions ---------------------------------------------

    def _lab(self) -> LabCase | None:
        """The current case as the lab mutates it (None when it has no answer to change)."""
        number, selection = self.browse.current, self.selection
        if number is None or selection is None:
            return None
        return LabCase.of(self.session, number, selection.claim)

    def action_mutations(self) -> None:
        lab = self._lab()
        if lab is None:
            self.notify("no answer to mutate: this case could not be loaded", severity="warning", timeout=3)
            return
        report = self.selection.report  # type: ignore[union-attr]
        where = f"claims[{lab.claim}] of {report.id}" if lab.claim is not None else report.id
        from .mutations import MutationMenu

        self.app.push_screen(MutationMenu(lab.rows(), where), self._mutation_chosen)

    def _mutation_chosen(self, name: str | None) -> None:
        if name is not None:
            self.action_mutate(name)

    def action_mutate(self, name: str) -> None:
        """Apply a mutation to the current claim (again: its next variant), predicting first in predict mode."""
        lab = self._lab()
        if lab is None:
            return
        step = lab.next(name)
        if step is None:
            self.notify(f"{name}: not applicable here: {lab.why_not(name)}", severity="warning", markup=False,
                        timeout=3)
            return
        if self.predicting.on:
            from .predict import PredictScreen

            self.app.push_screen(PredictScreen(step.mutant.name, self.predicting.score),
                                 partial(self._predicted, step))
        else:
            self._apply_mutant(step)

    def _predicted(self, step: Next, said: str | None) -> None:
        if said is None:
            self.notify("no prediction: nothing applied", markup=False, timeout=2)
            return
        self._said = said
        self._apply_mutant(step)

    def _apply_mutant(self, step: Next) -> None:
        self.apply_change(step.mutant.change(), replaces=step.replaces)
        if step.count > 1:
            self.notify(f"{safe.display(step.mutant.name)} ({step.place})", markup=False, timeout=2)

    def action_predict(self) -> None:
        self.predicting = self.predicting.toggled()
        state = "on: each mutation asks for the verdict you expect" if self.predicting.on else "off"
        self.notify(f"predict mode {state} ({self.predicting.score})", markup=False, timeout=3)

    def watch_predicting(self, score: PredictScore) -> None:
        self._update_titles()
        if self._views is None:
            return
        last = score.last
        panel = self.query_one("#verdict-panel")
        if score.on and last is not None:
            tone = "$text-success" if last.right else "$text-error"
            panel.border_subtitle = Content.styled(last.words, f"bold {tone}")
            if last is not self._revealed:
                self._revealed = last
                self.notify(last.words, severity="information" if last.right else "warning", markup=False,
                            timeout=4)
        else:
            panel.border_subtitle = ""

    def action_exercise(self) -> None:
        """The article's exercise on the current accepted case (from the palette)."""
        from ...presentation.exercise import Exercise
        from .exercise import ExerciseScreen

        selection = self.selection
        if selection is None or self._lab() is None or selection.report.verdict is None \
                or not selection.report.verdict.ok:
            self.notify("the exercise starts from an accepted case", severity="warning", markup=False, timeout=3)
            return
        claim = selection.claim if selection.claim is not None else 0
        self.app.push_screen(ExerciseScreen(self, Exercise.start(selection.report, claim)))

    def action_undo(self) -> None:
        self._history_step("undo")

    def action_redo(self) -> None:
        self._history_step("redo")

    def action_reset(self) -> None:
        self._history_step("reset")

    def _history_step(self, step: str) -> None:
        number = self.browse.current
        history = self.session.history(number) if number is not None else None
        if history is None:
            return
        undone, redone = history.undone, history.redone
        if step == "undo" and undone is not None:
            self._show_changed(self.session.undo(number))
            self.notify(f"undone: {safe.display(undone.what)}", markup=False, timeout=2)
        elif step == "redo" and redone is not None:
            self._show_changed(self.session.redo(number))
            self.notify(f"redone: {safe.display(redone.what)}", markup=False, timeout=2)
        elif step == "reset" and history.edited:
            self._show_changed(self.session.reset(number))
            self.notify(f"back to the frozen case ({history.position} change{'s' if history.position != 1 else ''}"
                        " undone; ^r redoes them)", markup=False, timeout=3)

    def action_edit_claim(self) -> None:
        from .edit_claim import EditClaimScreen

        selection = self.selection
        form = claim_form(selection.report, selection.claim) if selection is not None else None
        if form is None:
            self.notify("this answer did not decode into claims: edit its text with E", severity="warning",
                        markup=False, timeout=3)
            return
        self.app.push_screen(EditClaimScreen(form), self._edited)

    def action_edit_raw(self) -> None:
        from .raw_editor import RawEditorScreen

        number = self.browse.current
        if number is None or self.session.history(number) is None:
            self.notify("no answer to edit: this case could not be loaded", severity="warning", timeout=3)
            return
        raw = editable_text(self.session.report(number))
        if raw is None:
            self.notify("this answer's bytes are not UTF-8: there is no text to edit (the raw view shows "
                        "them as \\xNN)", severity="warning", markup=False, timeout=4)
            return
        self.app.push_screen(RawEditorScreen(self.session.frozen(number), raw), self._edited)

    def _edited(self, change: Change | None) -> None:
        """The edit form or the raw editor closed: apply its change, if it made one."""
        if change is not None:
            self.apply_change(change)

    def _show_changed(self, report: CaseReport) -> None:
        """Show the case's answer as changed: its first failure, or the same claim when accepted."""
        claim = self.selection.claim if self.selection is not None else None
        selection = select(report, self.explore)
        if selection.first_failure is None and claim is not None and selection.claim is not None:
            selection = selection.with_claim(claim)
        self.selection = selection
        self.case_list.refresh_rows([self.browse.row_of(report.number)])

    def action_repair(self) -> None:
        """The smallest edits that make the case as shown ACCEPT (greyed when it is)."""
        from ...presentation.repair_view import RepairView
        from .repair import RepairScreen

        number = self.browse.current
        report = self.session.report(number) if number is not None else None
        if report is None or report.verdict is None or report.verdict.ok:
            return
        self.app.push_screen(RepairScreen(RepairView.of(report)), self._repair_closed)

    def _repair_closed(self, view: RepairView | None) -> None:
        change = view.change() if view is not None else None
        if change is not None:
            self.apply_change(change)

    def action_save(self) -> None:
        """Save the case as shown into a counterexample file (the form remembers the last file)."""
        from ...presentation.save_form import SaveForm
        from .save import SaveScreen

        number = self.browse.current
        history = self.session.history(number) if number is not None else None
        if history is None:
            return
        form = SaveForm(self.session.report(number), history)
        self.app.push_screen(SaveScreen(form, self._save_path), self._save_closed)

    def _save_closed(self, saved: Saved | None) -> None:
        if saved is None:
            return
        self._save_path = str(saved.path)
        if saved.open:
            self._add_suite(saved.suite, saved.case_id)

    # -- actions: the trace ------------------------------------------------------------

    def action_next_step(self) -> None:
        if self.selection is not None and self.selection.steps:
            self.selection = self.selection.at(self.selection.position + 1)

    def action_previous_step(self) -> None:
        if self.selection is not None and self.selection.steps:
            self.selection = self.selection.at(self.selection.position - 1)

    def action_first_failure(self) -> None:
        # Only offered when there is one (check_action): an accepted answer greys the key.
        failure = self.selection.first_failure if self.selection is not None else None
        if failure is not None:
            self.selection = self.selection.at(failure)

    def action_explore(self) -> None:
        self.explore = not self.explore

    def action_next_claim(self) -> None:
        if self.selection is not None and self.selection.claim is not None:
            self.selection = self.selection.with_claim(self.selection.claim + 1)

    def action_previous_claim(self) -> None:
        if self.selection is not None and self.selection.claim is not None:
            self.selection = self.selection.with_claim(self.selection.claim - 1)

    @on(ClaimChosen)
    def _claim_chosen(self, message: ClaimChosen) -> None:
        if self.selection is not None:
            self.selection = self.selection.with_claim(message.claim)

    @on(CheckChosen)
    def _check_chosen(self, message: CheckChosen) -> None:
        if self.selection is not None:
            self.selection = self.selection.at_check(message.check_id)

    # -- actions: views -----------------------------------------------------------------

    def action_toggle_pretty(self) -> None:
        self.pretty = not self.pretty

    def action_scroll_verdict_down(self) -> None:
        self.query_one(VerdictView).scroll_half(1)

    def action_scroll_verdict_up(self) -> None:
        self.query_one(VerdictView).scroll_half(-1)

    def action_summary(self) -> None:
        from .summary import SummaryScreen

        suite = self.selection.report.suite if self.selection is not None else None
        self.app.push_screen(SummaryScreen(self.session, suite), self._summary_closed)

    def _summary_closed(self, chosen: CasesChosen | None) -> None:
        if chosen is not None:
            self.post_message(chosen)

    def action_mutation_report(self) -> None:
        from .mutation_report import MutationReportScreen

        suite = self.selection.report.suite if self.selection is not None else None
        self.app.push_screen(MutationReportScreen(self.session, suite), self._mutation_report_closed)

    def _mutation_report_closed(self, chosen: MutantChosen | None) -> None:
        if chosen is not None:
            self.post_message(chosen)

    @on(MutantChosen)
    def _mutant_chosen(self, message: MutantChosen) -> None:
        """Open a mutant of the mutation report in the lab: its case, the mutant applied.
        A report's mutant is an edit of the frozen answer, so the case's own changes are
        set aside first (else a saved counterexample would record edits its text lacks)."""
        number = message.number
        history = self.session.history(number)
        if history is None:
            return
        self.open_case(number)
        if history.edited:
            self.session.reset(number)
            self.notify(f"{history.position} earlier change{'s' if history.position != 1 else ''} of this case "
                        "replaced by the mutant (it is an edit of the frozen case)", markup=False, timeout=4)
        self._show_changed(self.session.change(number, message.change))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.app.screen is not self:
            return False  # under the palette the main view's keys do nothing: the footer says so
        return self.applies(action)

    def applies(self, action: str) -> bool | None:
        """Whether a key's action does anything now: True, or None (shown greyed)."""
        selection = self.selection
        if action == "clear_filter":
            return self.browse.filtered or self.query_one("#filter", Input).has_class("-active")
        if action in ("next_claim", "previous_claim"):
            return (selection is not None and len(selection.claims) > 1) or None
        if action in ("next_step", "previous_step", "explore"):
            return (selection is not None and bool(selection.steps)) or None
        if action == "first_failure":
            return (selection is not None and selection.first_failure is not None) or None
        if action == "edit_claim":  # claims were decoded: the answer is strict JSON of the claims shape
            return (selection is not None and bool(selection.claims)) or None
        if action == "edit_raw":
            return (selection is not None and not selection.report.broken) or None
        if action in ("mutations", "mutate") or action.startswith("mutate("):
            return self._lab() is not None or None
        if action == "exercise":
            return (self._lab() is not None and selection is not None and selection.report.verdict is not None
                    and selection.report.verdict.ok) or None
        if action == "repair":  # a rejected answer, edited or frozen
            return (selection is not None and selection.report.verdict is not None
                    and not selection.report.verdict.ok) or None
        if action == "save":
            return (selection is not None and not selection.report.broken) or None
        if action in ("undo", "redo", "reset"):
            can_undo, can_redo, edited = self._history_state()
            return (can_undo if action == "undo" else can_redo if action == "redo" else edited) or None
        return True

    # -- opening files ------------------------------------------------------------------

    @on(FileChosen)
    def _file_chosen(self, message: FileChosen) -> None:
        self._load_suite(message.path)

    @work(thread=True, exclusive=True, group="open")
    def _load_suite(self, path: Path) -> None:
        try:
            suite = load_suite(path, strict=False)
        except LoadError as error:
            self.app.call_from_thread(self.notify, safe.display(str(error)), title="cannot open",
                                      severity="error", markup=False)
            return
        self.app.call_from_thread(self._add_suite, suite)

    def _add_suite(self, suite: Suite, case_id: str | None = None) -> None:
        """Add a suite to the session (or find it open) and open its first case,
        its first new one when the file grew (a saved counterexample), or ``case_id``."""
        before = len(self.session)
        how, numbers = self.session.open_suite(suite)
        self.browse = self.browse.grown(self.session)
        added = [n for n in numbers if n >= before]
        if numbers:
            chosen = [n for n in numbers if self.session.ids[n] == case_id]
            self.open_case(chosen[-1] if chosen else added[0] if how == "grown" else numbers[0])
        name = safe.display(suite.name)
        self.notify({
            "opened": f"opened {name}: {len(numbers)} cases",
            "already open": f"{name} is already open ({len(numbers)} cases)",
            "grown": f"{name}: {len(added)} new case{'s' if len(added) != 1 else ''} added at the end "
                     f"(the file holds {len(numbers)})",
            "opened again": f"{name} changed since it was opened: opened again below "
                            f"({len(numbers)} cases; the earlier copy stays as it was read)",
        }[how], markup=False, timeout=4)
