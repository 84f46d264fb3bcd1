"""The cited source's text: what the step found in it marked, the caption above
it, and a height that follows the suite's longest source, not each case."""

from __future__ import annotations

from inspector.reports.tones import Tone
from inspector.tui.tones import TEXT_HIGHLIGHT
from inspector.tui.widgets.source_text import SourceText
from support.tui import inspecting, marked, on_shared_app, open_id, rendered, reopened, settled, text_view


def caption(app) -> str:  # noqa: ANN001 - the app
    return rendered(app.main.query_one(SourceText).query_one("#source-caption"))


@on_shared_app
async def test_a_value_mismatch_marks_the_facts_line(shared_app):
    pilot = await reopened(shared_app, "real-quote-wrong-value", "article")
    view = text_view(pilot.app, "#source-view")
    assert view.text == pilot.app.main.selection.source.text
    assert marked(view) == ["read_timeout_ms=5000"]
    assert marked(view, TEXT_HIGHLIGHT[Tone.BAD]) == ["read_timeout_ms=5000"]
    assert caption(pilot.app) == "prod-v2 text · the fact's line at line 2"


@on_shared_app
async def test_a_quote_not_found_marks_the_nearest_line(shared_app):
    pilot = await reopened(shared_app, "invented-quote", "article")
    app = pilot.app
    assert app.main.selection.source_caption.tone is Tone.BAD
    text = caption(app)
    assert "not found" in text and "nearest line" in text
    view = text_view(app, "#source-view")
    # The nearest line is not what the step found: pending, not failed.
    assert [m.component for m in view.marks] == [TEXT_HIGHLIGHT[Tone.PENDING]]


@on_shared_app
async def test_a_quote_found_is_marked_in_the_pass_tone(shared_app):
    pilot = await reopened(shared_app, "complete-answer", "article")
    main = pilot.app.main
    main.selection = main.selection.at_check("quote_found")
    await pilot.pause()
    view = text_view(pilot.app, "#source-view")
    assert view.text == main.selection.source.text
    assert [(view.text[m.start:m.end], m.component) for m in view.marks] == [
        ("read_timeout_ms=5000", TEXT_HIGHLIGHT[Tone.GOOD])]
    assert caption(pilot.app) == "prod-v2 text · quote at line 2"


async def test_the_caption_keeps_its_spaces(article):
    async with inspecting(article, "prod-v1-claims") as pilot:
        assert caption(pilot.app) == "prod-v1 text"


async def test_an_unknown_document_has_no_text(article):
    async with inspecting(article, "invented-doc") as pilot:
        assert text_view(pilot.app, "#source-view").text == ""
        assert caption(pilot.app).endswith(" is not in the registry: no text to show")
        assert caption(pilot.app).startswith("cited document ")


async def test_the_view_is_as_tall_as_the_suites_longest_source(bundled):
    def longest(name: str) -> int:
        suite = next(suite for suite in bundled if suite.name == name)
        return max(len(source.text.rstrip("\n").split("\n")) for source in suite.registry)

    assert longest("conflicts") < SourceText.MAX_ROWS < longest("article")
    async with inspecting(bundled) as pilot:
        app = pilot.app
        view = app.main.query_one("#source-view")
        open_id(app, "conflict-cite-ops", "conflicts")
        await settled(pilot, view)
        assert view.size.height == longest("conflicts")
        open_id(app, "invented-doc", "article")  # no text to show: the view keeps its place
        await settled(pilot, view)
        assert view.size.height == SourceText.MAX_ROWS  # longer texts scroll
