"""Hostile text (fixtures/hostile.json) is shown literally on every panel: no
control or invisible character reaches the terminal, no markup is interpreted,
no link or click action is drawn."""

from __future__ import annotations

import pytest
import pytest_asyncio

from support import FIXTURES
from inspector.suites.load import Suite, load_suite
from support.tui import flowing, hidden_characters, inspecting, on_shared_app, reopened, screen_text_and_styles, step_detail, \
    verdict_text


@pytest.fixture(scope="module")
def hostile() -> list[Suite]:
    return [load_suite(FIXTURES / "hostile.json", strict=False)]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_app(hostile):
    """The inspector on the hostile suite alone, for the tests that open a case and read."""
    async with inspecting(hostile) as pilot:
        yield pilot


@on_shared_app
@pytest.mark.parametrize("case", ["click-markup-value-accepted", "osc52-quote-not-found",
                                  "markup-service-scope-mismatch", "nul-del-c1-value-accepted",
                                  "bidi-doc-id-accepted", "line-paragraph-separators-literal-accepted"])
async def test_shown_literally(shared_app, case):
    pilot = await reopened(shared_app, case)
    for key in ("n", "p", "p", "p"):  # steps draw other highlights
        await pilot.press(key)
    text, styles = screen_text_and_styles(pilot.app)
    assert hidden_characters(text) == []
    # No link, no click action: Textual's own meta is only the offset.
    assert not any(style.link or "@click" in style.meta for style in styles)


@on_shared_app
async def test_click_markup_is_text(shared_app):
    pilot = await reopened(shared_app, "click-markup-value-accepted")
    text, _ = screen_text_and_styles(pilot.app)
    assert "[@click=app.quit]5000[/]" in text
    assert "banner = [@click=app.quit]5000[/]" in flowing(verdict_text(pilot.app))


@on_shared_app
async def test_osc52_shown_as_escapes(shared_app):
    pilot = await reopened(shared_app, "osc52-quote-not-found")
    assert "\\u001b]52;c;SGVsbG8=\\u0007" in step_detail(pilot.app)
