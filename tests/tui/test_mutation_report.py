"""The mutation report screen (``M``): the same report as ``inspector mutate`` (its JSON
is the one source of truth the screen is compared with), kills per verdict code, the
slipped mutants per check, each suite's uncovered codes, the survivors with their
raw text shown safely; Enter opens a mutant in the lab or lists a row's mutants;
computed in a worker, with a loading state that keeps the keys working."""

from __future__ import annotations

import io
import json
import threading
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from textual.content import Content

from support import ARTICLE, FIXTURES
from inspector.cli import main
from inspector.contract.checks import CHECKS_BY_ID
from inspector.lab.mutation_testing import REJECTIONS, MutantResult, mutate
from inspector.lab.mutations import MUTATIONS_BY_NAME, answer_of
from inspector.suites.load import load_suite
from inspector.tui import keys
from inspector.tui.app import make_app
from inspector.tui.messages import AnswerChanged
from inspector.tui.screens.help import help_markdown
from inspector.presentation import mutation_report as presentation
from inspector.presentation.mutation_report import ReportRow as Row
from inspector.tui.screens.mutation_report import MutationReportScreen
from inspector.tui.widgets.report_table import ReportTable
from inspector.tui.widgets.text_view import SafeTextView
from support.tui import (bound, declared, case_id, flowing, hidden_characters, inspecting, open_id, rendered, row_text,
                         run_from_palette, screen_text_and_styles, verdict_text, write_suite)
from support.waiting import until

SIZE = (120, 36)
HOSTILE = FIXTURES / "hostile.json"


def mutate_json(*paths: Path) -> dict:
    """What ``inspector mutate --format json`` reports on these suites."""
    out = io.StringIO()
    with redirect_stdout(out):
        main(["mutate", "--format", "json", *(str(path) for path in paths)])
    return json.loads(out.getvalue())


@pytest.fixture(scope="module")
def bundled_json(bundled) -> dict:
    return mutate_json(*(suite.path for suite in bundled))


async def report_screen(pilot) -> MutationReportScreen:  # noqa: ANN001 - textual's Pilot
    """Press M and wait for the worker: the screen with its report shown."""
    await pilot.press("M")
    screen = pilot.app.screen
    assert isinstance(screen, MutationReportScreen)
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    assert screen.prepared is not None
    return screen


def table_of(screen: MutationReportScreen) -> ReportTable:
    return screen.query_one(ReportTable)


def head(screen: MutationReportScreen) -> str:
    return rendered(screen.query_one("#report-head"))


def words(screen: MutationReportScreen) -> str:
    return rendered(screen.query_one("#report-words"))


def title(screen: MutationReportScreen) -> str:
    return Content.from_markup(screen.query_one("#report-panel").border_title).plain


def rows_of(screen: MutationReportScreen, kind: str) -> list[tuple[int, Row]]:
    return [(n, item) for n, item in enumerate(table_of(screen).items) if isinstance(item, Row) and item.kind == kind]


def mutant_rows(screen: MutationReportScreen) -> list[tuple[int, MutantResult]]:
    return [(n, item) for n, item in enumerate(table_of(screen).items) if isinstance(item, MutantResult)]


async def go_to(pilot, screen: MutationReportScreen, row: int) -> None:  # noqa: ANN001
    """Move the cursor to a row with the screen's own keys (G, PgDn, PgUp, j, k): the pages first, as a
    person would, then a row at a time."""
    table = table_of(screen)
    if row > (table.cursor or 0) + 40 and row > table.row_count - 40:
        await pilot.press("G")
    page = max(1, table.scrollable_content_region.height - 2)
    while row - (table.cursor or 0) > page:
        await pilot.press("pagedown")
    while (table.cursor or 0) - row > page:
        await pilot.press("pageup")
    while (table.cursor or 0) < row:
        await pilot.press("j")
    while (table.cursor or 0) > row:
        await pilot.press("k")
    await pilot.pause()
    assert table.cursor == row


def accepted_only(tmp_path: Path, keep: tuple[str, ...] = ()) -> Path:
    """The article's accepted cases (and the rejected ones named in ``keep``)."""
    data = json.loads(ARTICLE.read_text("utf-8"))
    data["cases"] = [c for c in data["cases"] if c["expected"] == "ACCEPT" or c["id"] in keep]
    return write_suite(tmp_path / "thin.json", data)


class TestSameReportAsTheCommand:
    async def test_mutants_score_and_kills_per_code(self, bundled, bundled_json):
        async with inspecting(bundled) as pilot:
            screen = await report_screen(pilot)
            document = bundled_json
            text = flowing(head(screen))
            assert f"{document['mutants']} mutants of {len(document['accepted_cases'])} accepted cases " \
                   f"(of {document['cases']})" in text
            assert f"score {document['score']:.1%} of the {document['scored_mutants']} mutants meant to change " \
                   "the verdict killed" in text
            assert f"{document['killed']} killed · {len(document['survivors'])} survived" in text
            assert f"{len(document['slipped'])} slipped to another check" in text
            assert f"harmless: {document['harmless']['accepted']} of {document['harmless']['mutants']} still " \
                   f"accepted · {len(document['harmless']['rejected'])} rejected (the contract is stricter than " \
                   "intended)" in text
            # every rejection code, in contract order, its kills as drawn
            codes = rows_of(screen, "code")
            assert [row.label for _, row in codes] == list(REJECTIONS)
            table = table_of(screen)
            for number, row in codes:
                drawn = row_text(table, number).split()
                assert row.label in drawn
                killed = document["killed_by"].get(row.label, 0)
                assert (str(killed) if killed else "·") in drawn
                slipped = document["slipped_by"].get(row.label)
                assert (f"{slipped} slipped" in row_text(table, number)) == bool(slipped)
            assert "killed" in row_text(table, codes[0][0]).split()[0]

    async def test_the_survivors_are_the_commands(self, bundled, bundled_json):
        async with inspecting(bundled) as pilot:
            screen = await report_screen(pilot)
            shown = sorted((r.case, r.mutant.mutation, list(r.mutant.edit)) for _, r in mutant_rows(screen)
                           if not r.killed)
            assert shown == sorted((s["case"], s["mutation"], [s["edit"]["start"], s["edit"]["end"],
                                                               s["edit"]["replacement"]])
                                   for s in bundled_json["survivors"])
            stricter = sorted((r.case, r.mutant.mutation, r.outcome.split()[0])
                              for _, r in mutant_rows(screen) if r.killed)
            assert stricter == sorted((s["case"], s["mutation"], s["verdict"])
                                      for s in bundled_json["harmless"]["rejected"])
            assert table_of(screen).sections[mutant_rows(screen)[0][0]] in ("hole", "stricter", "harmless")

    async def test_slipped_mutants_per_check(self, bundled, bundled_json):
        async with inspecting(bundled) as pilot:
            screen = await report_screen(pilot)
            slipped = rows_of(screen, "slipped")
            expected = bundled_json["slipped_by_check"]
            assert [row.key[0] for _, row in slipped] == list(expected)
            assert [row.count for _, row in slipped] == [sum(meant.values()) for meant in expected.values()]
            assert sum(row.count for _, row in slipped) == len(bundled_json["slipped"])
            number, row = slipped[0]
            await go_to(pilot, screen, number)
            detail = flowing(words(screen))
            for check, count in expected[row.key[0]].items():
                assert f"{CHECKS_BY_ID[check].title} {count}" in detail
            await pilot.press("enter")
            assert screen.listed is row and table_of(screen).row_count == row.count
            assert all(result.slipped and result.verdict.check.id == row.key[0]
                       for result in table_of(screen).items)


    async def test_a_hole_in_the_contract_is_listed_first_among_the_mutants(self, article, monkeypatch):
        # As in test_mutate_cli: a contract that reads "5001" as "5000" lets value.perturb through.
        import inspector.lab.mutation_testing as lab

        real = lab.verify
        monkeypatch.setattr(lab, "verify", lambda raw, request, registry: real(
            raw.replace('"5001"', '"5000"'), request, registry))
        document = mutate_json(ARTICLE)
        async with inspecting(article) as pilot:
            screen = await report_screen(pilot)
            assert f"score {document['score']:.1%}" in head(screen) and "3 holes" in head(screen)
            holes = [(n, r) for n, r in mutant_rows(screen) if not r.killed and not r.mutant.harmless]
            assert [(r.case, r.mutant.mutation) for _, r in holes] == [
                (s["case"], s["mutation"]) for s in document["survivors"] if not s["harmless"]]
            first = holes[0][0]
            assert first == mutant_rows(screen)[0][0] and table_of(screen).sections[first] == "hole"
            await go_to(pilot, screen, first)
            assert "still ACCEPT: meant to fail value matches" in words(screen)
            assert '"value": "5001"' in screen.query_one("#report-raw", SafeTextView).text


class TestUncoveredCodes:
    async def test_a_suite_that_covers_one_code(self, tmp_path):
        suite = load_suite(accepted_only(tmp_path, keep=("invented-doc",)))
        document = mutate_json(suite.path)
        async with inspecting([suite]) as pilot:
            screen = await report_screen(pilot)
            missing = [code for code in REJECTIONS if code != "NO_CITATION"]
            assert document["uncovered_by_suite"] == {"thin": missing}
            assert f"not covered by any case: {', '.join(missing)}" in flowing(head(screen))
            ((number, row),) = rows_of(screen, "uncovered")
            assert row.label == "thin" and row.key == ("thin", *missing)
            assert table_of(screen).sections[number] == "uncovered"
            await go_to(pilot, screen, number)
            assert "no case of thin fails first with INVALID_JSON, DUPLICATE_CLAIM" in flowing(words(screen))
            # Enter lists the mutants that would cover them
            await pilot.press("enter")
            listed = table_of(screen).items
            assert len(listed) == row.count > 0
            assert {result.verdict.status for result in listed} <= set(missing)
            assert "NO_CITATION" not in {result.verdict.status for result in listed}
            assert "mutants of thin killed by a code its cases do not cover" in title(screen)

    async def test_a_suite_without_an_accepted_case(self, tmp_path):
        data = json.loads(ARTICLE.read_text("utf-8"))
        data["cases"] = [c for c in data["cases"] if c["expected"] != "ACCEPT"]
        suite = load_suite(write_suite(tmp_path / "rejected.json", data))
        document = mutate_json(suite.path)
        async with inspecting([suite], notifications=True) as pilot:
            screen = await report_screen(pilot)
            assert document["mutants"] == 0 and document["score"] is None
            text = flowing(head(screen))
            assert "0 mutants of 0 accepted cases (of 19) · 0 killed · 0 survived" in text
            assert "score - of the 0 mutants" in text
            assert "no accepted case to mutate: the suites have no ACCEPT case" in text
            assert all(row.count == 0 for _, row in rows_of(screen, "code")) and mutant_rows(screen) == []
            assert "no mutant was rejected with it" in words(screen)
            await pilot.press("enter")  # a code that killed nothing: nothing to list
            assert screen.listed is None and pilot.app.screen is screen
            assert [n.message for n in pilot.app._notifications] == ["no mutant here"]

    async def test_every_code_covered(self, article):
        async with inspecting(article) as pilot:
            screen = await report_screen(pilot)
            assert rows_of(screen, "uncovered") == []
            assert "every rejection code is covered by a case of the suites" in head(screen)


class TestOpeningAMutant:
    async def test_enter_on_a_code_lists_its_mutants_and_on_a_mutant_opens_it(self, article):
        async with inspecting(article, "one-field-request") as pilot:
            app = pilot.app
            screen = await report_screen(pilot)
            number = next(n for n, row in rows_of(screen, "code") if row.label == "QUOTE_NOT_SUPPORTING")
            await go_to(pilot, screen, number)
            await pilot.press("enter")
            listed = table_of(screen).items
            assert listed and all(r.verdict.status == "QUOTE_NOT_SUPPORTING" for r in listed)
            assert title(screen).endswith(f"killed first by QUOTE_NOT_SUPPORTING ({len(listed)})")
            chosen = listed[0]
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is app.main
            report = app.main.selection.report
            assert f"{report.suite.name}/{report.id}" == chosen.case
            assert report.actual == "QUOTE_NOT_SUPPORTING" and report.verdict.text == chosen.mutant.raw
            assert "was ACCEPT, now QUOTE_NOT_SUPPORTING" in flowing(verdict_text(app))
            assert app.session.history(app.main.browse.current).records == (chosen.mutant.mutation,)
            await pilot.press("u")  # the lab's undo takes it back
            assert app.main.selection.report.parent is None

    async def test_a_harmless_survivor_stays_accepted(self, article):
        async with inspecting(article) as pilot:
            app = pilot.app
            screen = await report_screen(pilot)
            number, survivor = next((n, r) for n, r in mutant_rows(screen) if r.mutant.mutation == "raw.bom")
            await go_to(pilot, screen, number)
            assert "harmless: still ACCEPT" in words(screen)
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is app.main and case_id(app) == survivor.parent.id
            assert "still ACCEPT" in flowing(verdict_text(app))
            assert app.main.selection.report.verdict.text == survivor.mutant.raw

    async def test_a_cases_own_edits_are_replaced_not_recorded(self, article):
        async with inspecting(article, "complete-answer") as pilot:
            app = pilot.app
            report = app.main.selection.report
            answer = answer_of(report.case.raw, report.case.request, report.suite.registry)
            app.main.post_message(AnswerChanged(next(MUTATIONS_BY_NAME["claim.drop"].mutants(answer, 0)).change()))
            await pilot.pause()
            screen = await report_screen(pilot)
            number, chosen = next((n, r) for n, r in mutant_rows(screen) if r.parent.id == "complete-answer")
            await go_to(pilot, screen, number)
            await pilot.press("enter")
            await pilot.pause()
            history = app.session.history(app.main.browse.current)
            assert history.records == (chosen.mutant.mutation,)
            assert app.main.selection.report.verdict.text == chosen.mutant.raw

    async def test_back_at_the_same_place_without_computing_again(self, article, monkeypatch):
        async with inspecting(article) as pilot:
            app = pilot.app
            screen = await report_screen(pilot)
            number = next(n for n, row in rows_of(screen, "code") if row.label == "VALUE_MISMATCH")
            await go_to(pilot, screen, number)
            await pilot.press("enter", "j", "j")
            chosen = table_of(screen).items[2]
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is app.main

            def fail(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
                raise AssertionError("computed again")

            monkeypatch.setattr(presentation, "mutate", fail)
            await pilot.press("M")
            again = app.screen
            assert isinstance(again, MutationReportScreen) and again.prepared is not None
            assert table_of(again).items[table_of(again).cursor] is chosen
            await pilot.press("escape")  # from the list back to the report, on its row
            assert table_of(again).cursor == number and again.listed is None


    async def test_a_click_selects_a_row_and_a_second_opens_it(self, article):
        async with inspecting(article) as pilot:
            screen = await report_screen(pilot)
            table = table_of(screen)
            await pilot.click(ReportTable, offset=(12, 3))  # the header, then the third row
            assert table.cursor == 2 and screen.listed is None
            await pilot.click(ReportTable, offset=(12, 3))
            assert screen.listed is not None and screen.listed.label == REJECTIONS[2]
            assert title(screen).endswith(f"killed first by {REJECTIONS[2]} ({len(screen.listing)})")


class TestBack:
    @pytest.mark.parametrize("key", ["escape", "M", "q"])
    async def test_back_to_the_main_view_unchanged(self, article, key):
        async with inspecting(article, "prod-v1-claims") as pilot:
            app = pilot.app
            await report_screen(pilot)
            await pilot.press("j", key)
            await pilot.pause()
            assert app.screen is app.main and case_id(app) == "prod-v1-claims"
            assert app.session.edits() == []

    async def test_escape_leaves_a_list_first(self, article):
        async with inspecting(article) as pilot:
            screen = await report_screen(pilot)
            await pilot.press("enter")  # INVALID_JSON's mutants
            assert screen.listed is not None and table_of(screen).columns == ReportTable.LIST_COLUMNS
            await pilot.press("escape")
            assert pilot.app.screen is screen and screen.listed is None and table_of(screen).cursor == 0
            await pilot.press("escape")
            assert pilot.app.screen is pilot.app.main


class TestComputing:
    async def test_a_loading_line_at_once_keys_work_then_the_report(self, article, monkeypatch):
        release, started = threading.Event(), threading.Event()

        def slow(suites, progress=None):  # noqa: ANN001, ANN202
            progress(0, 3, 0)
            started.set()
            assert release.wait(10)
            return mutate(suites, progress)

        monkeypatch.setattr(presentation, "mutate", slow)
        async with inspecting(article) as pilot:
            await pilot.press("M")
            screen = pilot.app.screen
            assert isinstance(screen, MutationReportScreen)
            assert started.wait(5)
            await until(pilot, lambda: head(screen).startswith("computing the mutation report…"),
                        "the head saying the report is computed", timeout=5)
            assert "Esc stops it" in head(screen)
            table = table_of(screen)
            assert row_text(table, 0).strip() == "computing the mutation report…"
            await pilot.press("j", "k", "a", "G")  # nothing to move yet; the screen stays and answers
            assert pilot.app.screen is screen and screen.prepared is None
            release.set()
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            assert screen.prepared is not None and "mutants of 3 accepted cases" in head(screen)

    async def test_progress_is_shown(self, article, monkeypatch):
        release = threading.Event()

        def slow(suites, progress=None):  # noqa: ANN001, ANN202
            progress(2, 3, 140)
            assert release.wait(10)
            return mutate(suites, progress)

        monkeypatch.setattr(presentation, "mutate", slow)
        async with inspecting(article) as pilot:
            await pilot.press("M")
            await until(pilot, lambda: "2/3 accepted cases, 140 mutants verified" in flowing(head(pilot.app.screen)),
                        "the progress shown in the head", timeout=5)
            release.set()
            await pilot.app.workers.wait_for_complete()

    async def test_escape_while_computing_stops_the_worker(self, article, monkeypatch):
        release, started, stopped = threading.Event(), threading.Event(), threading.Event()

        def slow(suites, progress=None):  # noqa: ANN001, ANN202
            progress(0, 3, 0)
            started.set()
            assert release.wait(10)
            try:
                progress(1, 3, 10)
            except Exception:
                stopped.set()
                raise
            return mutate(suites, progress)

        monkeypatch.setattr(presentation, "mutate", slow)
        async with inspecting(article, "prod-v1-claims") as pilot:
            await pilot.press("M")
            assert started.wait(5)
            await pilot.press("escape")
            assert pilot.app.screen is pilot.app.main and case_id(pilot.app) == "prod-v1-claims"
            release.set()
            assert stopped.wait(5)  # the cancelled worker's next progress call ends it
            await pilot.app.workers.wait_for_complete()

    async def test_an_internal_error_is_one_line_on_the_screen(self, article, monkeypatch):
        def broken(suites, progress=None):  # noqa: ANN001, ANN202
            raise RuntimeError("a bug \x1b[2J here")

        monkeypatch.setattr(presentation, "mutate", broken)
        async with inspecting(article) as pilot:
            await pilot.press("M")
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            text = head(pilot.app.screen)
            assert text == "could not compute the mutation report: RuntimeError: a bug \\u001b[2J here"

    def test_mutate_tells_its_progress_and_stops_when_told(self, article):
        calls = []
        report = mutate(article, lambda *args: calls.append(args))
        assert calls[0] == (0, 3, 0) and calls[-1] == (3, 3, len(report.results))
        assert [done for done, _, _ in calls] == sorted(done for done, _, _ in calls)

        class Stop(Exception):
            pass

        def stop(done, total, mutants):  # noqa: ANN001, ANN202
            if done:
                raise Stop

        with pytest.raises(Stop):
            mutate(article, stop)


class TestScope:
    async def test_all_suites_or_the_current_cases_suite(self, bundled):
        async with inspecting(bundled, "bidi-value-accepted", "hostile") as pilot:
            screen = await report_screen(pilot)
            names = ", ".join(suite.name for suite in bundled)
            assert title(screen) == f"mutation report · all suites ({names})"
            await pilot.press("a")
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            assert title(screen) == "mutation report · hostile"
            document = mutate_json(HOSTILE)
            assert f"{document['mutants']} mutants of {len(document['accepted_cases'])} accepted cases" \
                   in head(screen)
            assert {r.parent.suite.name for _, r in mutant_rows(screen)} == {"hostile"}
            await pilot.press("a")
            assert title(screen) == f"mutation report · all suites ({names})"
            assert screen.prepared is not None  # computed before: shown at once


class TestUntrustedText:
    async def test_a_hostile_survivors_raw_text_is_shown_safely(self):
        async with inspecting([load_suite(HOSTILE, strict=False)]) as pilot:
            app = pilot.app
            screen = await report_screen(pilot)
            number, survivor = next((n, r) for n, r in mutant_rows(screen)
                                    if r.parent.id == "nul-del-c1-value-accepted" and not r.killed)
            assert "\x7f" in survivor.mutant.raw and "\x9b" in survivor.mutant.raw
            await go_to(pilot, screen, number)
            raw = screen.query_one("#report-raw", SafeTextView)
            assert raw.display and raw.text == survivor.mutant.raw
            text, _ = screen_text_and_styles(app)
            assert "\\u007f" in text and "\\u009b" in text
            assert hidden_characters(text) == []
            # a doc id with an ESC in a mutation's variant, in the table
            number, result = next((n, r) for n, r in mutant_rows(screen) if "\x1b" in r.mutant.variant)
            await go_to(pilot, screen, number)
            assert "esc-\\u001b[2J-v2" in row_text(table_of(screen), number)
            text, _ = screen_text_and_styles(app)
            assert hidden_characters(text) == [] and "\x1b[2J" not in text

    async def test_markup_in_a_raw_text_is_literal(self):
        async with inspecting([load_suite(HOSTILE, strict=False)]) as pilot:
            screen = await report_screen(pilot)
            number, survivor = next((n, r) for n, r in mutant_rows(screen)
                                    if r.parent.id == "click-markup-value-accepted" and not r.killed)
            await go_to(pilot, screen, number)
            assert "[@click" in survivor.mutant.raw
            text, _ = screen_text_and_styles(pilot.app)
            assert "[@click" in text


class TestKeys:
    async def test_the_screen_binds_its_declared_keys(self, article):
        async with inspecting(article) as pilot:
            screen = await report_screen(pilot)
            assert bound(screen) == declared("mutation_report")
            assert pilot.app.main.check_action("mutation_report", ()) is False  # main keys rest under it

    async def test_the_palette_opens_it_too(self, article):
        async with inspecting(article) as pilot:
            await run_from_palette(pilot, "mutation report")
            assert isinstance(pilot.app.screen, MutationReportScreen)
            await pilot.app.workers.wait_for_complete()

    def test_help_lists_them_under_the_screen(self):
        text = help_markdown()
        section = text.split("## Keys: the mutation report\n", 1)[1].split("\n## ", 1)[0]
        declared_keys = keys.keys_of("mutation_report")
        assert [key.id for key in declared_keys][:2] == ["report_down", "report_up"]
        for key in declared_keys:
            assert f"- `{key.display}` {key.help}\n" in section
        assert "M" in next(key for key in declared_keys if key.id == "report_back").display.split()


# -- how it looks ---------------------------------------------------------------------


def test_snapshot_the_report(snap_compare, bundled):
    async def run_before(pilot) -> None:  # noqa: ANN001
        await pilot.pause()
        open_id(pilot.app, "complete-answer", "article")
        await report_screen(pilot)
        await pilot.press("j", "j")  # a code's detail: its kills per sub-reason

    assert snap_compare(make_app(bundled), terminal_size=SIZE, run_before=run_before)


def test_snapshot_a_hostile_survivor(snap_compare):
    async def run_before(pilot) -> None:  # noqa: ANN001
        await pilot.pause()
        screen = await report_screen(pilot)
        number = next(n for n, r in mutant_rows(screen) if r.parent.id == "bidi-value-accepted"
                      and r.mutant.mutation == "raw.whitespace")
        await go_to(pilot, screen, number)

    assert snap_compare(make_app([load_suite(HOSTILE, strict=False)]), terminal_size=SIZE, run_before=run_before)


def test_the_reports_kept_are_the_scopes_last_shown():
    # A report of 8,001 sources holds about 200 MB: only the last two scopes are kept.
    from inspector.tui.screens.mutation_report import _Memory

    memory = _Memory()
    for key in ((1,), (2,), (1,), (3,)):
        memory.keep(key, f"report {key}")  # type: ignore[arg-type]
    assert list(memory.reports) == [(1,), (3,)]
