"""The inspector app, and ``make_app``, the one factory the CLI, tests and screenshots use.

The app owns the selection (case, step, claim, explore mode) and nothing else
decides it: keys, clicks and palette commands all end in ``_show``, which hands
the new ``Selection`` to every view; each view redraws only what changed for it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable
from pathlib import Path

from textual import on, work
from textual.app import App, ComposeResult
from textual.containers import Container, Horizontal, Vertical
from textual.timer import Timer
from textual.content import Content
from textual.widgets import Footer, Input

from ..suites.load import LoadError, Suite, load_suite
from . import keys, safe
from .commands import CaseCommands, FilterCommands, KeyCommands, OpenCommands
from .messages import CaseChosen, CasesChosen, CheckChosen, ClaimChosen
from .selection import Selection, select
from .session import Session
from .widgets.case_list import CaseList
from .widgets.claims import ClaimsTable
from .widgets.ladder import Ladder
from .widgets.raw_answer import RawAnswer
from .widgets.registry_table import RegistryTable
from .widgets.request_strip import RequestStrip
from .widgets.source_text import SourceText
from .widgets.verdict import VerdictView

__all__ = ["InspectorApp", "make_app"]


_MAIN_ACTIONS = frozenset(key.action for key in keys.KEYS) - {"help", "quit", "command_palette"}


class InspectorApp(App[int]):
    CSS_PATH = "inspector.tcss"
    TITLE = "inspector"
    AUTO_FOCUS = None
    BINDINGS = keys.BINDINGS
    COMMANDS = App.COMMANDS | {KeyCommands, CaseCommands, FilterCommands, OpenCommands}
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-normal"), (160, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]

    def __init__(self, session: Session, *, freeze_gc: bool = False) -> None:
        super().__init__()
        self.session = session
        self._freeze_gc = freeze_gc
        self.selection: Selection | None = None
        self.explore = False
        self.pretty = False
        self.filter_text = ""
        self.filter_label: str | None = None  # a filter chosen in the palette or the summary
        self._chosen: list[int] | None = None
        self._views: tuple | None = None
        self._binding_state: tuple | None = None
        self._titles: dict[str, Content] = {}
        self._bindings_timer: Timer | None = None

    # -- layout -----------------------------------------------------------------

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
                        yield RawAnswer(id="answer")
                    with Vertical(id="verdict-panel", classes="panel"):
                        yield VerdictView(id="verdict")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#request-panel").border_title = "request"
        self.query_one("#claims-panel").border_title = "claims"
        self.query_one("#registry-panel").border_title = "registry"
        self.query_one("#answer-panel").border_title = "answer · raw"
        self.query_one("#verdict-panel").border_title = "verdict"
        self.query_one("#checks-panel").border_title = "checks"
        if len(self.session):
            self.open_case(0)
        else:
            self._update_titles()
        if self._freeze_gc:
            # Everything built so far (Textual, the suites, the widgets) lives as long as
            # the app: keep it out of the collector's full passes, which otherwise stall
            # an occasional key press by tens of milliseconds.
            self.call_after_refresh(gc.freeze)

    # -- the selection --------------------------------------------------------------

    @property
    def case_list(self) -> CaseList:
        return self.query_one(CaseList)

    def open_case(self, number: int) -> None:
        """Show a case, its first failure selected."""
        entry = self.session.entries[number]
        verdict = self.session.verdict(number)
        self.case_list.show_current(number)
        self._show(select(entry, verdict, self.explore))

    def _show(self, selection: Selection) -> None:
        self.selection = selection
        views = self._views
        if views is None:
            views = self._views = (
                self.query_one(RequestStrip), self.query_one(ClaimsTable), self.query_one(RegistryTable),
                self.query_one(SourceText), self.query_one(Ladder), self.query_one(RawAnswer),
                self.query_one(VerdictView),
            )
        claims_count = len(selection.verdict.claims) if selection.verdict is not None else 0
        height = max(1, min(claims_count, 8)) + 2
        panel = self.query_one("#claims-panel")
        if panel.styles.height is None or panel.styles.height.value != height:
            panel.styles.height = height
        for view in views:
            view.show(selection)
        self._update_titles()
        # The footer greys out keys that do not apply; recompute only when that can change.
        state = (claims_count > 1, bool(selection.steps), selection.first_failure is not None,
                 bool(self.filter_text or self.filter_label))
        if state != self._binding_state:
            self._binding_state = state
            # Redrawing the footer costs more than a frame: do it once the keys settle.
            if self._bindings_timer is not None:
                self._bindings_timer.stop()
            self._bindings_timer = self.set_timer(0.15, self._refresh_footer)

    def _update_titles(self) -> None:
        # Titles that change on every step would redraw their whole panel: the step
        # counter lives in the ladder's detail instead, the case's place in the claims title.
        selection = self.selection
        view = self.case_list.view
        total = len(self.session)
        count = f"cases {len(view)}/{total}" if len(view) != total else f"cases {total}"
        if self.filter_label:
            count += f" · {self.filter_label}"
        elif self.filter_text:
            count += " · filtered"
        self._title("#cases-panel", Content(count))
        self._title("#answer-panel", Content("answer · pretty" if self.pretty else "answer · raw"))
        self._title("#checks-panel", Content.assemble("checks", (" · explore" if self.explore else "", "$text-muted")))
        if selection is None:
            return
        entry = selection.entry
        place: list[Content | tuple[str, str]] = []
        if entry.id != entry.suite.name:  # a single answer is named after its file
            place = [safe.content(entry.suite.name, "$text-muted"),
                     (f" {entry.index + 1}/{self._suite_size(entry.suite)} · ", "$text-muted")]
        self._title("#claims-panel", Content.assemble(
            "claims", (" · ", "$text-muted"), *place, safe.content(entry.id, "bold")))

    def _refresh_footer(self) -> None:
        if self.is_running and self.screen_stack:
            self.refresh_bindings()

    def _title(self, selector: str, content: Content) -> None:
        """Set a panel's title only when it changed (each change redraws the panel)."""
        if self._titles.get(selector) != content:
            self._titles[selector] = content
            self.query_one(selector).border_title = content

    def _suite_size(self, suite: Suite) -> int:
        return len(suite.cases) + len(suite.broken)

    # -- actions: cases ---------------------------------------------------------------

    def _current(self) -> int | None:
        return self.selection.entry.number if self.selection is not None else None

    def action_next_case(self) -> None:
        self._step_case(1)

    def action_previous_case(self) -> None:
        self._step_case(-1)

    def _step_case(self, step: int) -> None:
        number = self.case_list.neighbour(self._current(), step)
        if number is not None and number != self._current():
            self.open_case(number)

    def action_first_case(self) -> None:
        if self.case_list.view:
            self.open_case(self.case_list.view[0])

    def action_last_case(self) -> None:
        if self.case_list.view:
            self.open_case(self.case_list.view[-1])

    def action_filter(self) -> None:
        field = self.query_one("#filter", Input)
        field.add_class("-active")
        field.focus()

    def action_clear_filter(self) -> None:
        field = self.query_one("#filter", Input)
        self.filter_text = ""
        self.filter_label = None
        self._chosen = None
        with field.prevent(Input.Changed):
            field.value = ""
        field.remove_class("-active")
        self.set_focus(None)
        self._apply_filter()

    @on(Input.Changed, "#filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.filter_text = event.value
        self._apply_filter()

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        self.set_focus(None)
        view = self.case_list.view
        if view:
            self.open_case(view[0])
        if not self.filter_text:
            self.query_one("#filter", Input).remove_class("-active")

    def _apply_filter(self) -> None:
        among = self._chosen
        numbers = self.session.search(self.filter_text, among)
        self.case_list.set_view(numbers)
        self._update_titles()
        self.refresh_bindings()

    def choose_cases(self, numbers: list[int], description: str) -> None:
        """Show only these cases (from the palette or the summary) and open the first."""
        self._chosen = sorted(numbers)
        self.filter_label = description
        self._apply_filter()
        if self.case_list.view:
            self.open_case(self.case_list.view[0])

    @on(CasesChosen)
    def _cases_chosen(self, message: CasesChosen) -> None:
        self.choose_cases(message.numbers, message.description)

    @on(CaseChosen)
    def _case_chosen(self, message: CaseChosen) -> None:
        self.open_case(message.number)

    # -- actions: the trace ------------------------------------------------------------

    def action_next_step(self) -> None:
        if self.selection is not None and self.selection.steps:
            self._show(self.selection.at(self.selection.position + 1))

    def action_previous_step(self) -> None:
        if self.selection is not None and self.selection.steps:
            self._show(self.selection.at(self.selection.position - 1))

    def action_first_failure(self) -> None:
        if self.selection is None:
            return
        failure = self.selection.first_failure
        if failure is None:
            self.notify("accepted: no check failed", markup=False, timeout=2)
            return
        self._show(self.selection.at(failure))

    def action_explore(self) -> None:
        self.explore = not self.explore
        if self.selection is not None:
            self._show(self.selection.exploring(self.explore))

    def action_next_claim(self) -> None:
        if self.selection is not None and self.selection.claim is not None:
            self._show(self.selection.with_claim(self.selection.claim + 1))

    def action_previous_claim(self) -> None:
        if self.selection is not None and self.selection.claim is not None:
            self._show(self.selection.with_claim(self.selection.claim - 1))

    @on(ClaimChosen)
    def _claim_chosen(self, message: ClaimChosen) -> None:
        if self.selection is not None:
            self._show(self.selection.with_claim(message.claim))

    @on(CheckChosen)
    def _check_chosen(self, message: CheckChosen) -> None:
        if self.selection is None:
            return
        from ..contract.checks import CHECKS_BY_ID

        self._show(self.selection.at_check(CHECKS_BY_ID[message.check_id]))

    # -- actions: views -----------------------------------------------------------------

    def action_toggle_pretty(self) -> None:
        self.pretty = not self.pretty
        self.query_one(RawAnswer).set_pretty(self.pretty, self.selection)
        self._update_titles()

    def action_scroll_verdict_down(self) -> None:
        self.query_one(VerdictView).scroll_half(1)

    def action_scroll_verdict_up(self) -> None:
        self.query_one(VerdictView).scroll_half(-1)

    def action_summary(self) -> None:
        from .screens.summary import SummaryScreen

        suite = self.selection.entry.suite if self.selection is not None else None
        self.push_screen(SummaryScreen(self.session, suite))

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        self.push_screen(HelpScreen())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in _MAIN_ACTIONS and len(self.screen_stack) > 1:
            return False  # the keys of the main view do nothing over help, summary or palette
        selection = self.selection
        if action == "clear_filter":
            return bool(self.filter_text or self.filter_label
                        or self.query_one("#filter", Input).has_class("-active"))
        if action in ("next_claim", "previous_claim"):
            return (selection is not None and selection.verdict is not None
                    and len(selection.verdict.claims) > 1) or None
        if action in ("next_step", "previous_step", "explore"):
            return (selection is not None and bool(selection.steps)) or None
        if action == "first_failure":
            return (selection is not None and selection.first_failure is not None) or None
        return True

    # -- opening files ------------------------------------------------------------------

    def open_suite_file(self, path: str | Path) -> None:
        """Load another suite (from the palette) and show its first case."""
        self._load_suite(Path(path))

    @work(thread=True, exclusive=True, group="open")
    def _load_suite(self, path: Path) -> None:
        try:
            suite = load_suite(path, strict=False)
        except LoadError as error:
            self.call_from_thread(self.notify, safe.display(str(error)), title="cannot open",
                                  severity="error", markup=False)
            return
        self.call_from_thread(self._add_suite, suite)

    def _add_suite(self, suite: Suite) -> None:
        added = self.session.add_suite(suite)
        case_list = self.case_list
        case_list.set_view(self.session.search(self.filter_text, self._chosen))
        if len(added):
            self.open_case(added.start)
        self.notify(f"opened {safe.display(suite.name)}: {len(added)} cases", markup=False, timeout=3)


def make_app(suites: Iterable[Suite], *, freeze_gc: bool = False) -> InspectorApp:
    """The inspector on these suites (the CLI, the tests and the screenshots all start here).

    ``freeze_gc``: once mounted, move every object to the collector's permanent
    generation (``gc.freeze``), for a process that runs only the app (the CLI);
    tests leave it off so that one app's objects do not outlive it."""
    return InspectorApp(Session(suites), freeze_gc=freeze_gc)
