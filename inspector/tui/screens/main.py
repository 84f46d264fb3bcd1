"""The main view: cases, the checks, the request, claims, registry, answer and verdict.

The screen owns the main view's keys and its state: ``browse`` (which cases the
list shows, which one is open), ``selection`` (the case, step and claim shown),
``explore`` and ``pretty``.  Keys, clicks, palette commands and the summary all
end in a new value of one of these; the watchers hand it to the views, and each
view redraws only what changed for it.

The lab's changes are one more way to a new selection: the screen's ``Lab``
(``tui/lab/``) owns the lab's keys, state and screens; the screen hands it the
lab's keys and messages (``AnswerChanged``, ``MutationChosen``, ``UndoAsked``,
``MutantChosen``), and the lab hands back the edited answer's report
(``show_changed``), selected like any other case's.  Which keys apply now is
declared with each key (``keys.Key.needs``; the palette's exercise with its
command) and read against the case's facts (``presentation.key_state``), not code here.

Review mode is one more state, ``review`` (a ``ReviewSession``, None outside the
mode): the case list shows the review's queue, each row's review state, the strip
above says how many are left, ``a``/``r``/``s`` decide the case shown and open
the next one nobody decided (``ReviewSession.next_left``); the keys
they shadow move for the mode (``keys.py``, the ``review`` screen's keys).
"""

from __future__ import annotations

import gc
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Container, Horizontal, Vertical
from textual.content import Content
from textual.css.query import NoMatches
from textual.reactive import var
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input, Static

from ...presentation.browse import Browse
from ...presentation.key_state import KeyState, Needs
from ...presentation.leaving import Held
from ...presentation.predict import PredictScore
from ...presentation.review import ReviewSession
from ...presentation.review_view import (
    REVIEW_LABEL,
    LabelChoice,
    case_review,
    end_words,
    human_labels_shown,
)
from ...presentation.selection import Selection, select
from ...presentation.session import Session
from ...reports.case import CaseReport
from ...suites.load import LoadError, Suite, load_suite
from ...suites.review import PendingDecision, ReviewError
from ...suites.reviewer import reviewer_name
from ..widgets.footer import KeysFooter
from .. import keys, safe
from ..commands import (
    SERVED_OPEN_OFF,
    CaseCommands,
    ExerciseCommands,
    FilterCommands,
    KeyCommands,
    OpenCommands,
    ReviewCommands,
)
from ..lab import Lab
from ..messages import (
    AnswerChanged,
    CaseChosen,
    CasesChosen,
    CheckChosen,
    ClaimChosen,
    FileChosen,
    MutantChosen,
    MutationChosen,
    ReviewAsked,
    ReviewLeft,
    UndoAsked,
)
from ..widgets.case_list import CaseList
from ..widgets.claims import ClaimsTable
from ..widgets.checks_panel import ChecksPanel
from ..widgets.raw_answer import RawAnswer
from ..widgets.registry_table import RegistryTable
from ..widgets.request_strip import RequestStrip
from ..widgets.review_strip import ReviewStrip
from ..widgets.source_text import SourceText
from ..widgets.verdict import VerdictView

__all__ = ["MainScreen"]


class MainScreen(Screen[None]):
    # Review mode's keys first: where a key is both (a, r, s), the mode decides which applies.
    BINDINGS = [*keys.bindings("review"), *keys.bindings("main")]
    KEY_SCREENS: tuple[str, ...] = ("review", "main")  # whose declared keys the palette lists (keys.KEYS)
    COMMANDS = {KeyCommands, CaseCommands, FilterCommands, OpenCommands, ExerciseCommands, ReviewCommands}
    # What each action needs to do something, from its keys' declarations (and the palette's exercise's).
    NEEDS: dict[str, Needs] = {**keys.needs_by_action("review", "main"), "exercise": ExerciseCommands.NEEDS}
    can_review = True  # the palette offers review mode (not on a triage group's records)
    AUTO_FOCUS = ""  # nothing: the keys belong to the screen until "/" focuses the filter

    browse: var[Browse] = var(Browse(0, ()))
    selection: var[Selection | None] = var(None)
    explore: var[bool] = var(False)
    pretty: var[bool] = var(False)
    review: var[ReviewSession | None] = var(None)

    def __init__(self, session: Session, *, freeze_gc: bool = False, review: ReviewSession | None = None) -> None:
        super().__init__()
        self.session = session
        self._start_review = review
        self._freeze_gc = freeze_gc
        self._views: tuple | None = None
        self._titles: dict[str, Content] = {}
        self._binding_state: KeyState | None = None
        self._bindings_timer: Timer | None = None
        self.lab = Lab(self)  # the lab's keys, state and screens
        self.set_reactive(MainScreen.browse, Browse.of(session))

    # -- layout -------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield ReviewStrip(id="review-strip")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                with Vertical(id="cases-panel", classes="panel"):
                    yield Input(placeholder="filter: suite, id, label or note", id="filter")
                    yield CaseList(self.session, id="cases")
                with Vertical(id="checks-panel", classes="panel"):
                    yield ChecksPanel(id="checks")
            with Vertical(id="right"):
                with Vertical(id="request-panel", classes="panel"):
                    yield from self.compose_request_head()
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
                        yield Static("", id="verdict-said", markup=False)
                        yield VerdictView(id="verdict")
        yield KeysFooter()

    def compose_request_head(self) -> ComposeResult:
        """What the request panel shows above the request (a triage record's place and metadata)."""
        yield from ()

    def on_mount(self) -> None:
        try:
            panels = [(self.query_one(panel), title) for panel, title in (
                ("#request-panel", "request"), ("#claims-panel", "claims"),
                ("#registry-panel", "registry"), ("#verdict-panel", "verdict"))]
            views = (self.query_one(RequestStrip), self.query_one(ClaimsTable), self.query_one(RegistryTable),
                     self.query_one(SourceText), self.query_one(ChecksPanel), self.query_one(RawAnswer),
                     self.query_one(VerdictView))
        except NoMatches:
            # The app quit while this screen was being mounted (a served tab closed as its session
            # started): its panels are being removed, some or all of them, and there is nothing to set up.
            return
        for widget, title in panels:
            widget.border_title = title
        self._views = views
        if self._start_review is not None:
            self.review = self._start_review
        elif len(self.session):
            self.open_case(0)
        # Also when a case was opened before the screen was mounted (the selection is then
        # unchanged and its watcher does not run): the titles once the panels exist.
        self._update_titles()
        if self._freeze_gc:
            # Everything built so far (Textual, the suites, the widgets) lives as long as
            # the app: keep it out of the collector's full passes, which otherwise stall
            # an occasional key press by tens of milliseconds.
            self.call_after_refresh(gc.freeze)

    @property
    def case_list(self) -> CaseList:
        return self.query_one(CaseList)

    @property
    def help_at(self) -> str:
        """The help opens at review mode's keys in review mode, else at the main view's (``?``)."""
        return "review" if self.review is not None else "main"

    def held(self, quitting: bool) -> Held:
        """What leaving the view loses (the app asks first, ``q``): its lab edits not saved, the review's walk."""
        return Held((self.session,), self.review)

    # -- the state ------------------------------------------------------------------

    def open_case(self, number: int) -> None:
        """Show a case, its first failure selected."""
        if number != self.browse.current:
            self.tell("")  # the verdict panel's word was about the case before
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
        self._hand_review(selection)
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
        state = self.key_state()
        if state != self._binding_state:
            self._binding_state = state
            # Redrawing the footer costs more than a frame: do it once the keys settle.
            if self._bindings_timer is not None:
                self._bindings_timer.stop()
            self._bindings_timer = self.set_timer(0.15, self._refresh_footer)

    def _refresh_footer(self) -> None:
        self._bindings_timer = None
        if self.is_attached:
            self.refresh_bindings()

    @property
    def footer_pending(self) -> bool:
        """Whether the footer is still to follow the keys (it waits for them to settle)."""
        return self._bindings_timer is not None

    def _update_titles(self) -> None:
        # Titles that change on every step would redraw their whole panel: the step
        # counter lives in the checks panel's detail instead, the case's place in the claims title.
        if self._views is None:  # not composed yet
            return
        self._title("#cases-panel", Content(self.browse.title))
        self._title("#answer-panel", Content("answer · pretty" if self.pretty else "answer · raw"))
        self._title("#checks-panel", Content.assemble("checks", (" · explore" if self.explore else "",
                                                                  "$text-muted")))
        score = self.lab.predicting
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

    # -- review mode ------------------------------------------------------------------

    @property
    def reviewing(self) -> bool:
        return self.review is not None

    def _review_browse(self, review: ReviewSession) -> Browse:
        return Browse.of(self.session).choosing(self.session, review.queue, REVIEW_LABEL)

    def watch_review(self, review: ReviewSession | None) -> None:
        if self._views is None:  # not composed yet: on_mount sets it again
            return
        self.case_list.review = review
        self.query_one(ReviewStrip).show_review(review)
        field = self.query_one("#filter", Input)
        with field.prevent(Input.Changed):
            field.value = ""
        field.remove_class("-active")
        if review is None:
            self.browse = self.browse.cleared(self.session)
            self.case_list.refresh_all()
            if self.selection is not None:
                self._show(self.selection)
            return
        self.browse = self._review_browse(review)
        self.case_list.refresh_all()
        first = review.next_left(None)
        if first is None and review.queue:
            first = review.queue[0]
        if first is not None:
            self.open_case(first)
        elif self.selection is not None:
            self._show(self.selection)
        # A walk with nothing left: the strip says how it went (review_strip), in place of a notice over the view.

    def _hand_review(self, selection: Selection) -> None:
        """Give the verdict and claims panels the case's review (before they draw it)."""
        report = selection.report
        self.query_one(VerdictView).review = case_review(report, self.review)
        self.query_one(ClaimsTable).show_human(human_labels_shown(report, self.review))

    def _show(self, selection: Selection) -> None:
        """Draw the selection again (its review changed: a decision or a label)."""
        self._hand_review(selection)
        self.query_one(VerdictView).show(selection)
        self._schedule_footer()

    @on(ReviewAsked)
    def _review_asked(self, message: ReviewAsked) -> None:
        if self.review is not None:
            return
        try:
            review = ReviewSession(self.session, reviewer_name(message.reviewer))
        except (ReviewError, ValueError) as error:
            self.notify(safe.file_error(error, self.app.is_web), title="cannot review", severity="error",
                        markup=False)
            return
        if not review.queue:
            self.notify(end_words(review), markup=False, timeout=6)
            return
        self.review = review

    @on(ReviewLeft)
    def _review_left(self, message: ReviewLeft) -> None:
        self.review = None

    def action_leave_review(self) -> None:
        self.review = None

    def action_decide(self, decision: str) -> None:
        review, number = self.review, self.browse.current
        if review is None or number is None or not self._reviewable(number):
            return
        try:
            review.decide(number, decision)
        except (ReviewError, ValueError) as error:
            self.notify(safe.file_error(error, self.app.is_web), title="not decided", severity="error",
                        markup=False)
            return
        self._decided(number)

    def action_decide_with_note(self) -> None:
        from .decide import DecideScreen

        if self.review is None or self.selection is None or not self._reviewable(self.selection.report.number):
            return
        number = self.selection.report.number
        self.app.push_screen(DecideScreen(self.review, self.session.frozen(number)),
                             lambda decision: self._note_decided(number, decision))

    def _note_decided(self, number: int, decision: PendingDecision | None) -> None:
        if decision is not None and self.review is not None:
            self._decided(number)

    def _reviewable(self, number: int) -> bool:
        """Whether the review is of this case's suite (else it says so: a suite opened since)."""
        assert self.review is not None
        if self.review.in_review(number):
            return True
        self.notify("this case's suite was opened after the review started: leave review mode (Esc) and enter it "
                    "again to review it", title="not in this review", severity="warning", markup=False)
        return False

    def _decided(self, number: int) -> None:
        """A decision was kept: redraw its row and the strip, then on to the next case nobody decided."""
        review = self.review
        assert review is not None
        self._tell_news(review)
        # The save read the pending file again: decisions another session took meanwhile are shown too.
        self.case_list.refresh_rows(self.browse.row_of(n) for n in review.queue)
        self.query_one(ReviewStrip).show_review(review)
        following = review.next_left(number)
        if following is not None:
            self.open_case(following)
            return
        if self.selection is not None:
            self._show(self.selection)
        # the walk is done: the strip says how it went and how to apply it (a notice covered the summary's matrix)

    def action_label_claim(self) -> None:
        from .label import LabelScreen

        review, selection = self.review, self.selection
        if review is None or selection is None or selection.claim is None or not selection.claims \
                or not self._reviewable(selection.report.number):
            return
        report, claim = selection.report, selection.claim
        decoded = selection.claims[claim]
        lens = report.claim_labels[claim] if claim < len(report.claim_labels) else None
        current = review.human_labels(report.number).get(claim)
        self.app.push_screen(LabelScreen(claim, decoded.field, decoded.value, lens, current),
                             lambda choice: self._labelled(report.number, claim, choice))

    def _labelled(self, number: int, claim: int, choice: LabelChoice | None) -> None:
        if choice is None or self.review is None:
            return
        try:
            self.review.label(number, claim, choice.label, choice.note)
        except (ReviewError, ValueError) as error:
            self.notify(safe.file_error(error, self.app.is_web), title="not labelled", severity="error",
                        markup=False)
            return
        self._tell_news(self.review)
        self.query_one(ReviewStrip).show_review(self.review)
        if self.selection is not None:
            self._show(self.selection)
        self.tell(f"claims[{claim}]: {choice.label or 'label cleared'}")

    def _tell_news(self, review: ReviewSession) -> None:
        """Say whose decision the last save replaced, when another session took one meanwhile."""
        if review.news is not None:
            self.notify(safe.display(review.news), title="decided meanwhile elsewhere", severity="warning",
                        markup=False, timeout=8)

    def action_review_pretty(self) -> None:
        self.action_toggle_pretty()

    def action_review_save(self) -> None:
        self.action_save()

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
        # In review mode the list goes back to the review's cases, not to every case.
        review = self.review
        self.browse = self.browse.cleared(self.session) if review is None else \
            self._review_browse(review).at(self.browse.current) if self.browse.current is not None \
            else self._review_browse(review)

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.filter_typed(event.value)

    def filter_typed(self, text: str) -> None:
        """The filter's text changed: the cases holding it (a triage group's records filter their own way)."""
        self.browse = self.browse.searching(self.session, text)

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

    # -- the lab: its keys and messages, handed to the lab ----------------------------

    def action_mutations(self) -> None:
        self.lab.mutations()

    def action_mutate(self, name: str) -> None:
        self.lab.mutate(name)

    def action_predict(self) -> None:
        self.lab.predict()

    def action_exercise(self) -> None:
        self.lab.exercise()

    def action_undo(self) -> None:
        self.lab.undo()

    def action_redo(self) -> None:
        self.lab.redo()

    def action_reset(self) -> None:
        self.lab.reset()

    def action_edit_claim(self) -> None:
        self.lab.edit_claim()

    def action_edit_raw(self) -> None:
        self.lab.edit_raw()

    def action_repair(self) -> None:
        self.lab.repair()

    def action_save(self) -> None:
        self.lab.save()

    def action_mutation_report(self) -> None:
        self.lab.mutation_report()

    @on(AnswerChanged)
    def _answer_changed(self, message: AnswerChanged) -> None:
        self.lab.apply_change(message.change, replaces=message.replaces)

    @on(MutationChosen)
    def _mutation_chosen(self, message: MutationChosen) -> None:
        self.lab.mutate(message.name)

    @on(UndoAsked)
    def _undo_asked(self, message: UndoAsked) -> None:
        self.lab.undo_asked()

    @on(MutantChosen)
    def _mutant_chosen(self, message: MutantChosen) -> None:
        self.lab.open_mutant(message.number, message.change)

    # -- what the lab asks of the view ----------------------------------------------------

    def show_changed(self, report: CaseReport) -> None:
        """Show the case's answer as changed: its first failure, or the same claim when accepted."""
        claim = self.selection.claim if self.selection is not None else None
        selection = select(report, self.explore)
        if selection.first_failure is None and claim is not None and selection.claim is not None:
            selection = selection.with_claim(claim)
        self.tell("")  # a word about the change before this one is not about this one
        self.selection = selection
        self.case_list.refresh_rows([self.browse.row_of(report.number)])

    def tell(self, words: str | Content) -> None:
        """A word about what a key just did to the case (a mutation's variant, undone, redone, a prediction's
        outcome), on the verdict panel's own first line, over the verdict: a notice would cover the verdict it
        is about for seconds (at 80 columns, all of it).  Empty: the line goes."""
        if self._views is None:
            return
        said = self.query_one("#verdict-said", Static)
        said.update(safe.content(words, "$text-muted") if isinstance(words, str) else words)
        said.set_class(bool(words), "-on")

    def show_score(self, score: PredictScore) -> None:
        """The lab's predict score in the verdict panel's title, the last prediction on its first line."""
        self._update_titles()
        if self._views is None:
            return
        last = score.last
        if score.on and last is not None:
            tone = "$text-success" if last.right else "$text-error"
            self.tell(Content.styled(last.words, f"bold {tone}"))

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
            self.selection = self.selection.at(failure)  # type: ignore[union-attr]  # a failure: a selection

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
        self.app.push_screen(SummaryScreen(self.session, suite, self.review), self._summary_closed)

    def _summary_closed(self, chosen: CasesChosen | None) -> None:
        if chosen is not None:
            self.post_message(chosen)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.app.screen is not self:
            return False  # under the palette the main view's keys do nothing: the footer says so
        return self.applies(action)

    def applies(self, action: str) -> bool | None:
        """Whether a key's action does anything now: True, or None (shown greyed), or False (not shown).
        ``action`` may carry its parameters (``mutate('quote.other_line')``, as the palette has it)."""
        needs = self.NEEDS.get(action.partition("(")[0])
        return self.key_state().applies(needs) if needs is not None else True

    def key_state(self) -> KeyState:
        """What the keys depend on now: the facts of the case shown (``presentation.key_state``)."""
        number = self.browse.current
        history = self.session.history(number) if number is not None else None
        filtering = self._views is not None and self.query_one("#filter", Input).has_class("-active")
        review = self.review
        # In review mode the review's own list is not a filter to clear: Esc then leaves the mode.
        filtered = self.browse.filtered if review is None else bool(self.browse.text) or \
            self.browse.label != REVIEW_LABEL
        return KeyState.of(self.selection, history, filtered=filtered or filtering, reviewing=review is not None)

    # -- opening files ------------------------------------------------------------------

    @on(FileChosen)
    def _file_chosen(self, message: FileChosen) -> None:
        if self.app.is_web:  # served: a session reads only what inspector serve was started with
            self.notify(SERVED_OPEN_OFF, title="cannot open", severity="error", markup=False)
            return
        self._load_suite(message.path)

    @work(thread=True, exclusive=True, group="open")
    def _load_suite(self, path: Path) -> None:
        try:
            suite = load_suite(path, strict=False)
        except LoadError as error:
            self.app.call_from_thread(self.notify, safe.file_error(error, self.app.is_web), title="cannot open",
                                      severity="error", markup=False)
            return
        self.app.call_from_thread(self.add_suite, suite)

    def add_suite(self, suite: Suite, case_id: str | None = None) -> None:
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
        cases = f"{len(numbers)} case{'s' if len(numbers) != 1 else ''}"
        self.notify({
            "opened": f"opened {name}: {cases}",
            "already open": f"{name} is already open ({cases})",
            "grown": f"{name}: {len(added)} new case{'s' if len(added) != 1 else ''} added at the end "
                     f"(the file holds {len(numbers)})",
            "opened again": f"{name} changed since it was opened: opened again below "
                            f"({cases}; the earlier copy stays as it was read)",
        }[how], markup=False, timeout=4)
