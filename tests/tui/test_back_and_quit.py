"""q means one thing on every screen (back a screen; on the first, quit), and asks before work is lost;
? opens the help at the keys of the screen it is pressed on; the footer keeps ? and q whatever the width;
a word about a change is said on the verdict panel's own line, not in a notice over the verdict."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Footer

from inspector.presentation.record_session import RecordSession
from inspector.triage.marked import marks_path
from inspector.tui.screens.bad_lines import BadLinesScreen
from inspector.tui.screens.confirm import ConfirmScreen
from inspector.tui.screens.help import HelpScreen, section_title
from inspector.tui.screens.main import MainScreen
from inspector.tui.screens.mutation_report import MutationReportScreen
from inspector.tui.screens.pivot import PivotScreen
from inspector.tui.screens.records import RecordsScreen
from inspector.tui.screens.summary import SummaryScreen
from inspector.tui.screens.triage import TriageScreen
from inspector.tui.widgets.help_text import HelpText
from inspector.triage.synth import write_log, write_registry
from support.tui import SIZE, app_for, counted, footer_followed, inspecting, rendered, select_group
from support.waiting import until


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    folder = tmp_path_factory.mktemp("back-and-quit")
    registry = write_registry(folder / "registry.json")
    log = folder / "app.jsonl"
    write_log(log, 120, seed=5)
    with log.open("ab") as out:
        out.write(b"junk\n" * 3)
    return log, registry


# -- q on every screen -------------------------------------------------------------------------


async def _summary(pilot: Pilot) -> None:
    await pilot.press("S")


async def _report(pilot: Pilot) -> None:
    await pilot.press("M")


async def _records(pilot: Pilot) -> None:
    await counted(pilot)
    await pilot.press("enter")


async def _pivot(pilot: Pilot) -> None:
    await counted(pilot)
    await pilot.press("p")


async def _bad(pilot: Pilot) -> None:
    select_group(await counted(pilot), "bad")
    await pilot.press("enter")


@dataclass(frozen=True)
class Over:
    """A screen over the first one, and how a user opens it."""

    name: str
    triage: bool  # over the triage overview, else over the main view
    opens: Callable[[Pilot], Awaitable[None]]
    screen: type


OVER = (
    Over("summary", False, _summary, SummaryScreen),
    Over("mutation report", False, _report, MutationReportScreen),
    Over("group's records", True, _records, RecordsScreen),
    Over("pivot", True, _pivot, PivotScreen),
    Over("bad lines", True, _bad, BadLinesScreen),
)


@pytest.mark.parametrize("over", OVER, ids=[over.name for over in OVER])
async def test_q_goes_back_a_screen_on_every_screen(over, made, article):
    # Before: q quit the app at once on a group's records, the pivot and the bad lines.
    app = app_for(*made, "model") if over.triage else None
    context = app.run_test(size=SIZE) if app is not None else inspecting(article)
    async with context as pilot:
        first = pilot.app.screen
        await over.opens(pilot)
        await until(pilot, lambda: isinstance(pilot.app.screen, over.screen), f"the {over.name} open")
        await pilot.press("q")
        await until(pilot, lambda: pilot.app.screen is first, "back on the first screen")
        assert pilot.app.is_running
        await pilot.press("q")  # on the first screen, q quits (nothing to lose)
        await until(pilot, lambda: not pilot.app.is_running, "the app quit")


async def test_the_footer_names_q_back_over_the_first_screen_and_quit_on_it(article):
    async with inspecting(article, size=(80, 24)) as pilot:
        await footer_followed(pilot)
        assert "q quit" in rendered_footer(pilot)
        await pilot.press("S")
        await pilot.pause()
        assert "q back" in rendered_footer(pilot)


def rendered_footer(pilot: Pilot) -> str:
    footer = pilot.app.screen.query_one(Footer)
    return " ".join(" ".join(strip.text for strip in widget.render_lines(widget.size.region))
                    for widget in footer.walk_children() if widget.display and widget.region.width)


# -- asking before work is lost ------------------------------------------------------------------


async def test_q_asks_before_quitting_with_a_lab_edit_not_saved_and_n_stays(article):
    # Before: v then q dropped to the shell, the edit lost.
    async with inspecting(article, "complete-answer") as pilot:
        await pilot.press("v", "q")
        await pilot.pause()
        asked = pilot.app.screen
        assert isinstance(asked, ConfirmScreen)
        assert "lab edits of 1 case, not saved" in rendered(asked.query_one("#confirm-lost"))
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(pilot.app.screen, MainScreen) and pilot.app.is_running
        assert pilot.app.session.unsaved_edits()  # the edit is still there
        await pilot.press("ctrl+q")  # Textual's quit key asks the same
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmScreen)
        await pilot.press("y")
        await until(pilot, lambda: not pilot.app.is_running, "the app quit")


async def test_an_edit_undone_or_saved_asks_nothing(article):
    async with inspecting(article, "complete-answer") as pilot:
        await pilot.press("v", "u", "q")
        await until(pilot, lambda: not pilot.app.is_running, "the app quit without asking")
    async with inspecting(article, "complete-answer") as pilot:
        await pilot.press("v")
        app = pilot.app
        app.session.saved(app.main.browse.current)  # as the save form's success does
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, "the app quit without asking")


async def _two_marked(pilot: Pilot, refused: Path | None = None) -> TriageScreen:
    """On the overview, a group's first two records marked (the second after ``refused``'s marks file,
    when given, was made read-only), and back on the overview."""
    overview = await counted(pilot)
    await pilot.press("enter")
    await until(pilot, lambda: isinstance(pilot.app.screen, RecordsScreen), "the records open")
    records = pilot.app.screen
    await pilot.press("space")
    if refused is not None:
        marks = marks_path(str(refused))
        assert marks is not None and marks.exists()
        marks.chmod(0o444)
    await pilot.press("j", "space")
    assert isinstance(records.session, RecordSession) and len(records.session.marks) == 2
    await pilot.press("q")  # back: the overview keeps a finished count's groups, marks and all
    await until(pilot, lambda: pilot.app.screen is overview, "back on the overview")
    return overview


def _own_log(tmp_path: Path, made: tuple[Path, Path]) -> Path:
    log = tmp_path / "app.jsonl"  # its own: marks are kept beside the log
    log.write_bytes(made[0].read_bytes())
    return log


async def test_marks_kept_beside_the_log_are_not_asked_about(tmp_path, made):
    log = _own_log(tmp_path, made)
    async with app_for(log, made[1], "model").run_test(size=SIZE) as pilot:
        await _two_marked(pilot)
        await pilot.press("q")  # the marks are in LOG.marks.jsonl: quitting loses nothing
        await until(pilot, lambda: not pilot.app.is_running, "the app quit")
    marks = marks_path(str(log))
    assert marks is not None and len(marks.read_text().splitlines()) == 1 + 2  # the header and two marks


async def test_a_mark_its_file_refused_is_asked_about_when_quitting(tmp_path, made):
    log = _own_log(tmp_path, made)
    async with app_for(log, made[1], "model").run_test(size=SIZE) as pilot:
        overview = await _two_marked(pilot, refused=log)
        await pilot.press("q")
        await pilot.pause()
        asked = pilot.app.screen
        assert isinstance(asked, ConfirmScreen)
        said = rendered(asked.query_one("#confirm-lost"))
        assert "1 marked record whose marks file could not be written" in said
        await pilot.press("escape")
        await pilot.pause()
        assert pilot.app.screen is overview and pilot.app.is_running
        await pilot.press("ctrl+q", "enter")
        await until(pilot, lambda: not pilot.app.is_running, "the app quit")


async def test_q_in_a_typed_filter_types(made):
    async with app_for(*made, "model").run_test(size=SIZE) as pilot:
        await counted(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, RecordsScreen), "the records open")
        await pilot.press("slash", "q")
        await pilot.pause()
        assert isinstance(pilot.app.screen, RecordsScreen)
        assert pilot.app.screen.query_one("#filter").value == "q"


# -- the help opens at the screen's keys -----------------------------------------------------------


def help_top(pilot: Pilot) -> str:
    """The help's first line in view."""
    help_screen = pilot.app.screen
    assert isinstance(help_screen, HelpScreen)
    text = help_screen.query_one(HelpText)
    top = int(help_screen.query_one("#help").scroll_offset.y)
    return text.render_line(top).text.strip()


@pytest.mark.parametrize("where", ["main", "summary", "triage", "records", "pivot"])
async def test_help_opens_at_the_keys_of_the_screen_it_is_asked_on(where, made, article):
    # Before: ? on the overview opened at the main view's keys, the overview's twelve sections later.
    triage = where in ("triage", "records", "pivot")
    context = app_for(*made, "model").run_test(size=SIZE) if triage else inspecting(article)
    async with context as pilot:
        if triage:
            await counted(pilot)
            if where != "triage":
                await pilot.press("enter" if where == "records" else "p")
                await pilot.pause()
        elif where == "summary":
            await pilot.press("S")
            await pilot.pause()
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(pilot.app.screen, HelpScreen) and help_top(pilot) == section_title(where),
                    f"the help at {where}'s keys")


# -- the footer keeps ? and q ----------------------------------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_the_footer_keeps_help_and_q_whatever_the_width(size, article, made):
    # Before: at 80x24 the main view's footer was cut before "? help".
    async with inspecting(article, size=size) as pilot:
        await footer_followed(pilot)
        shown = rendered_footer(pilot)
        assert "? help" in shown and "q quit" in shown
    async with app_for(*made, "model").run_test(size=size) as pilot:
        await counted(pilot)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(pilot.app.screen, RecordsScreen), "the records open")
        await pilot.pause(0.3)
        shown = rendered_footer(pilot)
        assert "? help" in shown and "q back" in shown


# -- notices that hide nothing ---------------------------------------------------------------------


async def test_a_mutations_variant_is_said_on_the_verdict_panel_not_over_it(article):
    # Before: "value.perturb: ... (variant 2/5)" was a notice over the verdict for two seconds (at 80x24, all of it).
    async with inspecting(article, "complete-answer", size=(80, 24), notifications=True) as pilot:
        await pilot.press("v", "v")
        await pilot.pause()
        app = pilot.app
        assert not app._notifications  # nothing over the verdict
        said = rendered(app.main.query_one("#verdict-said"))
        assert "value.perturb" in said and "variant 2/" in said
        await pilot.press("u")
        await pilot.pause()
        assert rendered(app.main.query_one("#verdict-said")).startswith("undone: value.perturb")
        assert not app._notifications
        await pilot.press("j")  # another case: the word was about the one before
        await pilot.pause()
        assert not app.main.query_one("#verdict-said").display


# -- how it looks ----------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
def test_snapshot_of_quitting_with_a_lab_edit(snap_compare, article, size):
    from inspector.tui.app import make_app

    async def edit_then_quit(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("v", "q")
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()

    assert snap_compare(make_app(article), terminal_size=size, run_before=edit_then_quit)


@pytest.mark.parametrize("size", [(80, 24), (120, 36)], ids=["80x24", "120x36"])
def test_snapshot_of_a_mutations_variant_said_on_the_verdict_panel(snap_compare, article, size):
    from inspector.tui.app import make_app

    async def mutate_twice(pilot: Pilot) -> None:
        await pilot.pause()
        await pilot.press("v", "v")
        await footer_followed(pilot)

    assert snap_compare(make_app(article), terminal_size=size, run_before=mutate_twice)
