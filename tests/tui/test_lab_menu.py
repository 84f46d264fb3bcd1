"""The lab's mutation menu (m), its shortcut keys, predict mode (P) and the article's
exercise (from the palette) on the main screen, driven with Pilot; snapshots of each."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette
from textual.widgets import Input

from support import ARTICLE, FIXTURES
from inspector.lab.mutation_testing import mutate
from inspector.lab.mutations import MUTATIONS, MUTATIONS_BY_NAME, answer_of
from inspector.presentation.exercise import Phase
from inspector.presentation.predict import PREDICTIONS
from inspector.suites.load import load_suite
from inspector.tui import keys
from inspector.tui.app import make_app
from inspector.tui.messages import MutationChosen
from inspector.tui.scenes import steady_cursors
from inspector.tui.screens.exercise import ExerciseScreen
from inspector.tui.screens.help import HelpScreen, help_markdown
from inspector.tui.screens.mutations import MutationMenu
from inspector.tui.screens.predict import PredictScreen
from inspector.tui.widgets.mutation_table import MutationTable
from support.tui import bound, declared, footer_followed, SIZE, flowing, hidden_characters, inspecting, screen_text_and_styles, open_id, panel_title, rendered, row_text, run_from_palette, searched, \
    verdict_text

SHORTCUTS = dict(keys.MUTATION_SHORTCUTS)


@pytest.fixture(scope="module")
def suite():
    return load_suite(ARTICLE)


@pytest.fixture(scope="module")
def mutated(suite):
    """``inspector mutate``'s verdict of each mutant of complete-answer: (mutation, variant) -> label."""
    report = mutate([suite])
    return {(r.mutant.mutation, r.mutant.claim, r.mutant.variant): r.verdict.label for r in report.results
            if r.parent.id == "complete-answer"}


def _history(pilot):
    main = pilot.app.main
    return main.session.history(main.browse.current)


async def _open_menu(pilot, typed: str = "") -> MutationMenu:
    await pilot.press("m")
    await pilot.pause()
    menu = pilot.app.screen
    assert isinstance(menu, MutationMenu)
    if typed:
        await pilot.press(*typed)
        await pilot.pause()
    return menu


def _shown(menu: MutationMenu) -> list[str]:
    return [row.name for row in menu.query_one(MutationTable).rows]


class TestMenu:
    async def test_it_lists_every_mutation_by_name_with_what_it_trips_and_its_variants(self, suite):
        async with inspecting([suite], "complete-answer", size=(120, 50)) as pilot:
            menu = await _open_menu(pilot)
            assert _shown(menu) == [mutation.name for mutation in MUTATIONS]
            table = menu.query_one(MutationTable)
            assert "claims[0] of complete-answer" in str(menu.query_one("#menu").border_title)
            first = row_text(table, 0).split()
            assert first[0] == "quote.other_line" and first[-1] == "6" and "supports" in first
            rows = {row.name: number for number, row in enumerate(table.rows)}
            assert row_text(table, rows["raw.bom"]).split()[-2:] == ["harmless", "1"]
            # no variant here: greyed, and the help line says why
            inapplicable = rows["value.from_source"]
            assert row_text(table, inapplicable).rstrip().endswith("0")
            assert table.cell(inapplicable, table.columns[0]) == ("value.from_source", "safe-table--dim")
            assert table.cell(0, table.columns[0]) == ("quote.other_line", None)
            for _ in range(inapplicable):
                await pilot.press("down")
            assert table.cursor == inapplicable
            help_line = rendered(menu.query_one("#menu-help"))
            assert "not applicable here: the value already is the cited document's" in help_line
            await pilot.press("enter")  # nothing to apply: the menu stays
            assert pilot.app.screen is menu and not _history(pilot).edited
            await pilot.press("escape")
            assert pilot.app.screen is pilot.app.main and not _history(pilot).edited

    async def test_typing_filters_by_name_title_or_help(self, suite):
        async with inspecting([suite], "complete-answer") as pilot:
            menu = await _open_menu(pilot, "perturb")
            assert _shown(menu) == ["value.perturb"]
            await pilot.press(*(["backspace"] * 7), *"hallucinated")
            assert _shown(menu) == ["doc.unknown"]  # from its help line
            await pilot.press(*(["backspace"] * 12), *"zzz")
            assert _shown(menu) == [] and "no mutation matches" in rendered(menu.query_one("#menu-help"))
            await pilot.press("enter")
            assert pilot.app.screen is menu

    async def test_enter_applies_each_mutation_as_inspector_mutate_verifies_it(self, suite, mutated):
        """Every mutation of the catalogue on an accepted case gets the verdict ``inspector mutate``
        gives the same mutant (its first variant on claims[0]): the first of each family (quote,
        doc, value, field, claim, raw) through the menu, the others through what its Enter calls."""
        async with inspecting([suite], "complete-answer") as pilot:
            main = pilot.app.main
            families: set[str] = set()
            for mutation in MUTATIONS:
                main.selection = main.selection.with_claim(0)  # R keeps the claim a change selected
                family = mutation.name.partition(".")[0]
                menu = None
                if family not in families:
                    families.add(family)
                    menu = await _open_menu(pilot)
                    menu.query_one(Input).value = mutation.name  # as typed (typing itself: the test above)
                    await pilot.pause()
                    assert _shown(menu)[0] == mutation.name
                    await pilot.press("enter")
                else:
                    main.post_message(MutationChosen(mutation.name))
                await pilot.pause()
                frozen = main.session.frozen(main.browse.current)
                answer = answer_of(frozen.case.raw, frozen.case.request, frozen.suite.registry)
                claim = 0 if mutation.target.value == "claim" else None
                variants = list(mutation.mutants(answer, claim))
                if not variants:
                    assert not _history(pilot).edited, mutation.name
                    if menu is not None:
                        assert pilot.app.screen is menu, mutation.name
                        await pilot.press("escape")
                    continue
                assert pilot.app.screen is main, mutation.name
                report = main.selection.report
                assert report.changes[-1].records == (mutation.name,)
                assert report.case.raw == variants[0].raw, mutation.name
                assert report.actual == mutated[(mutation.name, claim, variants[0].variant)], mutation.name
                if report.actual != "ACCEPT":
                    assert f"was ACCEPT, now {report.actual}" in flowing(verdict_text(pilot.app))
                main.action_reset()
                assert not _history(pilot).edited
            assert families == {"quote", "doc", "value", "field", "claim", "raw"}

    async def test_a_click_on_a_row_applies_its_mutation(self, suite):
        async with inspecting([suite], "complete-answer") as pilot:
            await _open_menu(pilot, "quote.other_line")
            await pilot.click(MutationTable, offset=(4, 1))  # under the header: the one row left
            await pilot.pause()
            assert pilot.app.screen is pilot.app.main
            assert pilot.app.main.selection.report.changes[-1].records == ("quote.other_line",)

    async def test_applying_the_same_mutation_again_walks_every_variant_then_wraps(self, suite):
        async with inspecting([suite], "complete-answer") as pilot:
            main = pilot.app.main
            frozen = main.selection.report
            answer = answer_of(frozen.case.raw, frozen.case.request, frozen.suite.registry)
            expected = [mutant.raw for mutant in MUTATIONS_BY_NAME["quote.other_line"].mutants(answer, 0)]
            seen = []
            menu = await _open_menu(pilot, "quote.other_line")
            await pilot.press("enter")
            await pilot.pause()
            seen.append(main.selection.report.case.raw)
            for _ in expected:  # the rest through the menu's shortcut key, o
                await pilot.press("o")
                await pilot.pause()
                seen.append(main.selection.report.case.raw)
            assert seen == [*expected, expected[0]] and len(set(expected)) == 6
            assert _history(pilot).position == 1  # each variant took the place of the last
            menu = await _open_menu(pilot, "other_line")
            assert row_text(menu.query_one(MutationTable), 0).rstrip().endswith("1/6")
            await pilot.press("escape", "u")
            assert main.selection.report is frozen


class TestShortcuts:
    @pytest.mark.parametrize("key, name", keys.MUTATION_SHORTCUTS)
    async def test_each_key_applies_its_mutation(self, suite, key, name):
        case = "real-quote-wrong-value" if name == "value.from_source" else "complete-answer"
        async with inspecting([suite], case) as pilot:
            main = pilot.app.main
            await pilot.press(key)
            await pilot.pause()
            report = main.selection.report
            assert report.changes and report.changes[-1].records == (name,)
            assert report.actual != report.parent.actual

    async def test_a_shortcut_with_no_variant_says_why_and_changes_nothing(self, suite):
        async with inspecting([suite], "complete-answer", notifications=True) as pilot:
            await pilot.press("V")
            await pilot.pause()
            assert not _history(pilot).edited
            messages = [n.message for n in pilot.app._notifications]
            assert any(m.startswith("value.from_source: not applicable here: the value already is") for m in messages)

    async def test_the_keys_are_in_help_and_in_the_palette(self, suite):
        text = help_markdown()
        for key, name in keys.MUTATION_SHORTCUTS:
            assert f"- `{key}` Apply {name} to the current claim" in text
        for mutation in MUTATIONS:  # the help's section of mutations, from the catalogue
            assert f"- `{mutation.name}` {mutation.title} (meant to trip: {mutation.meant}). {mutation.help}" in text
        async with inspecting([suite], "complete-answer") as pilot:
            await pilot.press("question_mark")
            assert isinstance(pilot.app.screen, HelpScreen)
            await pilot.press("escape")
            await run_from_palette(pilot, "mutate: quote.other_line")
            assert pilot.app.main.selection.report.changes[-1].records == ("quote.other_line",)


class TestPredict:
    async def test_predict_mode_asks_scores_right_and_wrong(self, suite):
        async with inspecting([suite], "complete-answer") as pilot:
            main = pilot.app.main
            await pilot.press("P")
            await pilot.pause()
            assert "predict 0/0 right" in panel_title(pilot.app, "#verdict-panel")
            await pilot.press("o")
            await pilot.pause()
            prompt = pilot.app.screen
            assert isinstance(prompt, PredictScreen) and not _history(pilot).edited  # asked before applying
            shown = rendered(prompt.query_one("#predict-keys"))
            for key, status in PREDICTIONS:
                assert f"{key} {status}" in shown
            await pilot.press("s")  # QUOTE_NOT_SUPPORTING
            await pilot.pause()
            assert main.selection.report.actual == "QUOTE_NOT_SUPPORTING"
            assert main.lab.predicting.score == "1/1 right"
            assert "predict 1/1 right" in panel_title(pilot.app, "#verdict-panel")
            said = rendered(main.query_one("#verdict-said"))  # the verdict panel's own line, not a notice over it
            assert "you said QUOTE_NOT_SUPPORTING, it is QUOTE_NOT_SUPPORTING: right" in said
            await pilot.press("R", "v", "a")  # a near-miss value, predicted ACCEPT
            await pilot.pause()
            assert main.selection.report.status == "VALUE_MISMATCH" and main.lab.predicting.score == "1/2 right"
            assert "you said ACCEPT, it is VALUE_MISMATCH: wrong" in rendered(main.query_one("#verdict-said"))
            # Esc at the question: nothing is applied, nothing is scored
            await pilot.press("R", "m", *"claim.drop", "enter")
            await pilot.pause()
            assert isinstance(pilot.app.screen, PredictScreen)
            await pilot.press("escape")
            assert not _history(pilot).edited and main.lab.predicting.total == 2
            # off: mutations apply at once, the score is kept for the session
            await pilot.press("P", "c")
            await pilot.pause()
            assert pilot.app.screen is main and main.selection.report.status == "INCOMPLETE"
            assert main.lab.predicting.score == "1/2 right" and "predict" not in panel_title(pilot.app, "#verdict-panel")


class TestExercise:
    async def test_the_article_exercise_end_to_end(self, suite):
        async with inspecting([suite], "complete-answer") as pilot:
            main = pilot.app.main
            frozen = main.selection.report
            await run_from_palette(pilot, "The article's exercise")
            screen = pilot.app.screen
            assert isinstance(screen, ExerciseScreen)
            body = lambda: rendered(screen.query_one("#exercise-body"))  # noqa: E731
            assert "quote.other_line: line 3: retry_enabled=false" in body()
            assert "citation-only: y accepts  n rejects" in body() and "s QUOTE_NOT_SUPPORTING" in body()
            await pilot.press("y", "s")  # citation-only accepts, the contract rejects
            await pilot.pause()
            assert screen.exercise.phase is Phase.RESULT
            assert main.selection.report.actual == "QUOTE_NOT_SUPPORTING"
            assert "✓ right  citation-only accepts" in body() and "category: unsupported citation" in body()
            await pilot.press("enter")
            assert "u undoes the step 1 change" in body()
            await pilot.press("u")  # restore the quote
            await pilot.pause()  # the undo is asked of the lab by message
            assert main.selection.report is frozen and screen.exercise.phase is Phase.CHOOSE
            assert "1 value.perturb: next number: 5001" in body()
            await pilot.press("1", "y", "v")
            await pilot.pause()
            assert main.selection.report.actual == "VALUE_MISMATCH"
            text = flowing(body())
            assert "Why the category changes" in text and "unsupported citation" in text and "contradicted" in text
            await pilot.press("enter")
            text = body()
            assert "✓ frozen label ACCEPT, unchanged" in text and "✓ the frozen case still verifies ACCEPT" in text
            assert "✓ article.json is the same bytes" in text
            assert main.session.frozen(main.browse.current).expected == "ACCEPT"
            await pilot.press("enter")
            assert "Done: 4/4 predictions right" in body()
            await pilot.press("enter")
            assert pilot.app.screen is main

    async def test_esc_leaves_and_a_wrong_prediction_is_marked(self, suite):
        async with inspecting([suite], "complete-answer") as pilot:
            pilot.app.main.action_exercise()
            await pilot.pause()
            screen = pilot.app.screen
            await pilot.press("n", "a")
            await pilot.pause()
            assert "✗ wrong  citation-only accepts: you said it rejects" in rendered(screen.query_one("#exercise-body"))
            await pilot.press("escape")
            assert pilot.app.screen is pilot.app.main

    async def test_offered_only_on_an_accepted_case(self, suite):
        async with inspecting([suite], "real-quote-wrong-value") as pilot:
            await pilot.press("ctrl+p")
            await pilot.press(*"article's exercise")
            palette = await searched(pilot)
            from textual.command import CommandList
            shown = [str(option.prompt) for option in palette.query_one(CommandList).options]
            assert not any("The article's exercise" in text for text in shown)
            assert pilot.app.main.applies("exercise") is None


@pytest.mark.parametrize("case", ["osc52-value-accepted", "click-markup-value-accepted"])
async def test_hostile_text_in_the_menu_the_prompt_and_the_exercise_is_shown_literally(case):
    """The mutants' names carry registry lines and ids: never markup, no control character drawn."""
    hostile = [load_suite(FIXTURES / "hostile.json", strict=False)]

    def literal(pilot) -> None:
        text, styles = screen_text_and_styles(pilot.app)
        assert hidden_characters(text) == []
        assert not any(style.link or "@click" in style.meta for style in styles)

    async with inspecting(hostile, case) as pilot:
        await pilot.press("m", *"doc.other")
        await pilot.pause()
        literal(pilot)
        await pilot.press("escape", "P", "o")
        await pilot.pause()
        assert isinstance(pilot.app.screen, PredictScreen)
        literal(pilot)
        await pilot.press("escape", "P")
        pilot.app.main.action_exercise()
        await pilot.pause()
        literal(pilot)
        await pilot.press("y", "s")
        await pilot.pause()
        literal(pilot)
        assert pilot.app.is_running  # no [@click=app.quit] ran


@pytest.mark.parametrize("screen", ["mutations", "predict", "exercise"])
def test_no_key_is_bound_twice_on_a_lab_screen(screen):
    names = [name for key in keys.keys_of(screen) for name in key.keys.split(",")]
    assert len(names) == len(set(names))
    if screen != "mutations":  # one key per verdict, from the contract's codes
        said = [key.action for key in keys.keys_of(screen) if key.action.startswith("say(")]
        assert said == [f"say('{status}')" for _, status in PREDICTIONS]


async def test_each_lab_screen_binds_its_declared_keys(suite):
    async with inspecting([suite], "complete-answer") as pilot:
        app = pilot.app
        await pilot.press("m")
        assert bound(app.screen) == declared("mutations")
        await pilot.press("escape", "P", "o")
        assert isinstance(app.screen, PredictScreen) and bound(app.screen) == declared("predict")
        await pilot.press("escape", "P")
        app.main.action_exercise()
        await pilot.pause()
        assert isinstance(app.screen, ExerciseScreen) and bound(app.screen) == declared("exercise")


# -- snapshots ---------------------------------------------------------------------------------

def _app(suite):
    return make_app([suite])


async def _settled(pilot) -> None:
    """Workers done, the footer caught up (it follows the keys once they settle) and every cursor
    steady (a blinking one is drawn or not by the time the picture is taken): one picture per state."""
    steady_cursors(pilot.app)
    await pilot.app.workers.wait_for_complete()
    await footer_followed(pilot)


def test_snapshot_menu_filtered(snap_compare, suite):
    async def run_before(pilot):
        open_id(pilot.app, "complete-answer")
        await pilot.pause()
        await pilot.press("m", *"value")
        await _settled(pilot)
    assert snap_compare(_app(suite), terminal_size=SIZE, run_before=run_before)


def test_snapshot_predict_prompt(snap_compare, suite):
    async def run_before(pilot):
        open_id(pilot.app, "complete-answer")
        await pilot.pause()
        await pilot.press("P", "o")
        await _settled(pilot)
    assert snap_compare(_app(suite), terminal_size=SIZE, run_before=run_before)


def test_snapshot_exercise_step(snap_compare, suite):
    async def run_before(pilot):
        open_id(pilot.app, "complete-answer")
        await pilot.pause()
        pilot.app.main.action_exercise()
        await pilot.pause()
        await pilot.press("y", "s")
        await _settled(pilot)
    assert snap_compare(_app(suite), terminal_size=SIZE, run_before=run_before)
