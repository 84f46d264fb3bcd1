"""What the inspector's Pilot tests share: the app on some suites with a case open,
and ways to read what the screen shows.

The tests assert on the main screen's state (``app.main.browse``,
``app.main.selection``, both presentation values) and on what the widgets
render (a table's drawn rows, a view's drawn lines, the screen's text), never
on accessors that exist only for tests.
"""

from __future__ import annotations

import io
import json
import unicodedata
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from rich.console import Console
from rich.style import Style
from textual.app import App
from textual.binding import Binding
from textual.command import CommandPalette
from textual.content import Content
from textual.pilot import Pilot
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

from inspector.reports.tones import Tone
from inspector.tui import keys
from inspector.presentation.overview import triage_run
from inspector.suites.load import Suite, load_registry
from inspector.tui.app import InspectorApp, make_app, make_triage_app
from inspector.tui.screens.triage import TriageScreen
from inspector.tui.widgets.group_table import GroupTable
from inspector.tui.tones import HIGHLIGHT, TABLE_HIGHLIGHT
from inspector.tui.widgets.checks_panel import ChecksTable
from inspector.tui.widgets.registry_table import RegistryTable
from inspector.tui.widgets.request_strip import RequestStrip
from inspector.tui.widgets.table import SafeTable
from inspector.tui.widgets.text_view import SafeTextView
from inspector.tui.widgets.verdict import VerdictView

from .waiting import until

SIZE = (120, 36)
# Characters that must never reach the terminal as themselves.
HIDDEN = {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}


# -- the app, a case open ---------------------------------------------------------

def number_of(app: InspectorApp, case_id: str, suite: str | None = None) -> int:
    """The session number of a case, by id (and suite name when ids repeat across suites)."""
    session = app.session
    for owner in session.suites:
        if suite is not None and owner.name != suite:
            continue
        for number in session.numbers_of(owner):
            if session.ids[number] == case_id:
                return number
    raise AssertionError(f"no case {case_id!r} in {suite or 'any suite'}")


def open_id(app: InspectorApp, case_id: str, suite: str | None = None) -> None:
    app.main.open_case(number_of(app, case_id, suite))


@asynccontextmanager
async def inspecting(suites: Sequence[Suite], case: str | None = None, suite: str | None = None, *,
                     size: tuple[int, int] = SIZE, notifications: bool = False) -> AsyncIterator[Pilot]:
    """The inspector on these suites at ``size``, mounted, with ``case`` (of ``suite``) open."""
    app = make_app(suites)
    async with app.run_test(size=size, notifications=notifications) as pilot:
        await pilot.pause()
        if case is not None:
            open_id(app, case, suite)
            await pilot.pause()
        yield pilot


# -- one app shared by a module's tests that only open cases and read ------------------
#
# Starting an app costs about half a second of CPU, most of a test that only opens
# a case and reads what is drawn: such tests share their module's app
# (``shared_app`` in conftest.py), each opening its case with ``reopened``.

def on_shared_app(test: Callable[..., Any]) -> Callable[..., Any]:
    """Marks a test that runs on its module's ``shared_app``: in the module's event
    loop (the app runs in it), and on the same pytest-xdist worker as the module's
    other such tests (``--dist loadgroup``), so that the module starts one app."""
    test = pytest.mark.asyncio(loop_scope="module")(test)
    return pytest.mark.xdist_group(f"shared-app:{test.__module__}")(test)


async def reopened(pilot: Pilot, case: str, suite: str | None = None) -> Pilot:
    """The module's shared app with ``case`` (of ``suite``) open, as ``inspecting``
    would show it in an app of its own.  The app must be as it started, but for
    the open case: the main screen on top, explore off, the raw answer shown, no
    filter, nothing edited (a test that changes any of these keeps an app of its own)."""
    app = pilot.app
    assert isinstance(app, InspectorApp)
    main = app.main
    assert app.screen is main, f"a screen left open by an earlier test: {app.screen!r}"
    assert not main.explore and not main.pretty and not main.browse.filtered
    assert not app.session.edits(), "a case edited by an earlier test"
    open_id(app, case, suite)
    await pilot.pause()
    return pilot


def write_suite(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# -- the main screen's state --------------------------------------------------------


def many_conflicts_suite(folder: Path) -> Suite:
    """conflicts.json with six more current documents that each say another
    retry_enabled: eight sources disagree on it."""
    from support import FIXTURES
    from inspector.suites.load import load_suite

    data = json.loads((FIXTURES / "conflicts.json").read_text(encoding="utf-8"))
    template = data["sources"][0]
    data["sources"] += [
        {**template, "id": f"copy-{n}", "facts": {**template["facts"], "retry_enabled": f"v{n}"},
         "text": template["text"].replace("retry_enabled=false", f"retry_enabled=v{n}")}
        for n in range(6)
    ]
    return load_suite(write_suite(folder / "many.json", data))

def case_id(app: InspectorApp) -> str:
    selection = app.main.selection
    assert selection is not None
    return selection.report.id


def step_id(app: InspectorApp) -> tuple[str, int | None]:
    selection = app.main.selection
    assert selection is not None and selection.step is not None
    return selection.step.check.id, selection.step.claim


def visible_ids(app: InspectorApp) -> list[str]:
    """The ids of the cases the list shows."""
    return [app.session.ids[n] for n in app.main.browse.visible]


# -- what is drawn --------------------------------------------------------------------

def rendered(widget: Widget) -> str:
    """The plain text a Static draws."""
    assert isinstance(widget, Static)
    return str(widget.render())


def styled(widget: Widget, style: str) -> list[str]:
    """The pieces of a Static's text drawn in ``style`` (the highlight of a request attribute)."""
    content = widget.render()
    assert isinstance(content, Content)
    return [content.plain[span.start:span.end] for span in content.spans if span.style == style]


def panel_title(app: InspectorApp, panel: str) -> str:
    return Content.from_markup(app.main.query_one(panel).border_title).plain


def row_text(table: SafeTable, row: int) -> str:
    """A table row's text as drawn on screen (the row must be in view)."""
    y = row - int(table.scroll_offset.y) + (1 if table.show_header else 0)
    assert 0 <= y < table.size.height, f"row {row} is not in view"
    return table.render_line(y).text


def cells_styled(table: SafeTable, component: str) -> set[tuple[int, str]]:
    """The cells (row, column key) drawn with a component style: a highlight or a shade."""
    return {(row, column.key) for row in range(table.row_count) for column in table.columns
            if table.cell_style(row, column) == component}


def registry_highlight(app: InspectorApp) -> tuple[str | None, frozenset[str], Tone | None]:
    """What the registry draws: the marked source (its row in the marked style), the
    columns of its cells in a highlight style, and that highlight's tone."""
    table = app.main.query_one(RegistryTable)
    sources = app.main.selection.report.suite.registry.sources
    marked = [row for row in range(table.row_count) if table.row_style(row) == "safe-table--marked"]
    assert len(marked) <= 1, marked
    lit = [(tone, cells) for tone, component in TABLE_HIGHLIGHT.items()
           if (cells := cells_styled(table, component))]
    assert len(lit) <= 1, lit  # one highlight tone at a time
    if not lit:
        return (sources[marked[0]].id if marked else None), frozenset(), None
    tone, cells = lit[0]
    assert {row for row, _ in cells} == set(marked), "the highlighted cells are on the marked row"
    return sources[marked[0]].id, frozenset(key for _, key in cells), tone


def request_highlight(app: InspectorApp) -> tuple[str | None, Tone | None]:
    """The request attribute the strip draws highlighted (named by the label before
    it), and the highlight's tone."""
    strip = app.main.query_one(RequestStrip)
    content = strip.render()
    assert isinstance(content, Content)
    items = app.main.selection.report.request_items
    lit = [(tone, span) for span in content.spans for tone, style in HIGHLIGHT.items() if span.style == style]
    if not lit:
        return None, None
    assert len(lit) == 1, lit
    tone, span = lit[0]
    before = content.plain[:span.start]
    attribute, _, value = next(item for item in items if before.endswith(f"{item[1]} "))
    assert content.plain[span.start:span.end] == value
    return attribute, tone


def cursor_check(app: InspectorApp) -> str | None:
    """The check on the ladder's cursor row, as drawn (the row in the cursor style)."""
    table = app.main.query_one(ChecksTable)
    if table.cursor is None:
        return None
    assert table.row_style(table.cursor) == "safe-table--cursor"
    return table.rows[table.cursor].check.id


def step_detail(app: InspectorApp) -> str:
    """The text under the ladder: the selected step in words."""
    return rendered(app.main.query_one("#step-detail"))


def text_view(app: InspectorApp, selector: str) -> SafeTextView:
    return app.main.query_one(selector, SafeTextView)


def marked(view: SafeTextView, component: str | None = None) -> list[str]:
    """The text under each mark of a text view (of one component style, if given)."""
    return [view.text[m.start:m.end] for m in view.marks if component is None or m.component == component]


def verdict_lines(app: InspectorApp) -> list[str]:
    """Every line the verdict panel draws, wrapped as on screen, from its top
    (whatever it is scrolled to)."""
    view = app.main.query_one(VerdictView)
    top = int(view.scroll_offset.y)
    lines = [view.render_line(y).text.rstrip() for y in range(-top, view.virtual_size.height - top)]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def verdict_text(app: InspectorApp) -> str:
    return "\n".join(verdict_lines(app))


def flowing(text: str) -> str:
    """Text with its wrapping undone: every run of spaces and line ends one space."""
    return " ".join(text.split())


def hidden_characters(text: str) -> list[str]:
    return [ch for ch in text.replace("\n", "") if unicodedata.category(ch) in HIDDEN]


def screen_text_and_styles(app: InspectorApp) -> tuple[str, list[Style]]:
    """The whole screen as the terminal gets it: its text and every segment's style."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    styles = [segment.style for segment in console._record_buffer if segment.style is not None]
    return console.export_text(), styles


# -- keys -------------------------------------------------------------------------------

async def run_from_palette(pilot: Pilot, search: str) -> None:
    """Open the command palette, type ``search`` and run the best match."""
    await pilot.press("ctrl+p")
    assert isinstance(pilot.app.screen, CommandPalette)
    await pilot.press(*search)
    await searched(pilot)
    await pilot.press("enter")
    await pilot.pause()


async def searched(pilot: Pilot) -> CommandPalette:
    """The command palette once its search for what was typed has ended (its
    matches listed, the best first)."""
    palette = pilot.app.screen
    assert isinstance(palette, CommandPalette)
    group = CommandPalette._GATHER_COMMANDS_GROUP
    await until(pilot, lambda: not any(worker.group == group and not worker.is_finished
                                       for worker in pilot.app.workers), "the palette's search ended", timeout=10)
    return palette


async def footer_followed(pilot: Pilot) -> None:
    """Pause until the main view's footer has followed the keys (``MainScreen.footer_pending``: it waits
    for them to settle) and what that schedules is drawn: a picture then shows the keys as they apply."""
    app = pilot.app
    assert isinstance(app, InspectorApp)
    await until(pilot, lambda: not app.main.footer_pending, "the footer followed the keys", timeout=5)
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


async def settled(pilot: Pilot, widget: Widget) -> None:
    """Pause until ``widget`` keeps its size over a few refreshes (layout is done)."""
    size, steady = widget.size, 0
    for _ in range(100):
        await pilot.pause(0.02)
        steady = steady + 1 if widget.size == size else 0
        size = widget.size
        if steady >= 5:
            return
    raise AssertionError(f"{widget!r} kept changing size")


# -- key bindings ----------------------------------------------------------------

# Textual's own keys (App, Screen, ModalScreen), which the declaration leaves to Textual.
TEXTUAL_KEYS = frozenset(name for base in (App, Screen, ModalScreen) for binding in base.BINDINGS
                         for name in (binding.key if isinstance(binding, Binding) else binding[0]).split(","))


def bound(node) -> dict[str, set[str]]:  # noqa: ANN001 - an app, a screen or a widget
    """Key name -> the actions a node's own bindings give it (Textual's own left out)."""
    return {key: {binding.action for binding in found} for key, found in node._bindings.key_to_bindings.items()
            if key not in TEXTUAL_KEYS}


def declared(screen: str, on: str = "screen") -> dict[str, set[str]]:
    """Key name -> the actions a screen's keys give it, or those one of its widgets binds (``Key.on``)."""
    result: dict[str, set[str]] = {}
    for key in keys.keys_of(screen):
        if on not in key.on.split():
            continue
        for name in key.keys.split(","):
            result.setdefault(name, set()).add(key.action)
    return result


# -- the triage overview --------------------------------------------------------


def app_for(log: Path | str, registry: Path | str, *by: str, **engine: Any) -> App:
    """The inspector on the overview of one log, grouped also ``by`` these members."""
    return make_triage_app(triage_run([str(log)], load_registry(registry), str(registry), by, **engine))


async def counted(pilot: Pilot, timeout: float = 20.0) -> TriageScreen:
    """Pause until the overview has counted everything."""
    screen = pilot.app.overview  # type: ignore[attr-defined]
    await until(pilot, lambda: screen.counted is not None and screen.counted.done, "the triage finished",
                timeout=timeout)
    return screen


async def time_of(pilot, screen: TriageScreen, group: str | None):
    """What the time histogram shows once drawn for ``group`` (None: every record), drawn in a worker."""
    from inspector.tui.widgets.time_table import TimeTable

    table = screen.query_one(TimeTable)
    await until(pilot, lambda: table.shown is not None and table.shown.group == group and table.histogram is not None,
                f"the histogram drawn for {group}", timeout=10)
    return table.shown


def select_group(screen: TriageScreen, name: str) -> None:
    """Put the overview's cursor on the group ``name``."""
    table = screen.query_one(GroupTable)
    table.move_cursor(next(row for row, group in enumerate(table.groups) if group.name == name))


async def export_form(pilot: Pilot, out: Path, limit: str | None = None) -> Screen:
    """ctrl+e on the overview, the form filled in with ``out`` (and ``limit``), not submitted."""
    from inspector.tui.screens.export import ExportScreen

    await pilot.press("ctrl+e")
    await pilot.pause()
    form = pilot.app.screen
    assert isinstance(form, ExportScreen)
    form.query_one("#export-path").value = str(out)
    if limit is not None:
        form.query_one("#export-limit").value = limit
    return form


async def submitted(pilot: Pilot, form: Screen) -> str:
    """Enter in the export form, then its status once the export has run."""
    await pilot.press("enter")
    await until(pilot, lambda: not form.busy, "the export ran", timeout=10)  # type: ignore[attr-defined]
    return flowing(str(form.query_one("#export-status").render()))
