"""Hostile text (fixtures/hostile.json) is shown literally on every panel: no
control or invisible character reaches the terminal, no markup is interpreted,
no link or click action is drawn."""

from __future__ import annotations

import pytest

from support import FIXTURES
from inspector.suites.load import Suite, load_suite
from support.tui import flowing, hidden_characters, inspecting, screen_text_and_styles, step_detail, verdict_text


@pytest.fixture(scope="module")
def hostile() -> list[Suite]:
    return [load_suite(FIXTURES / "hostile.json", strict=False)]


@pytest.mark.parametrize("case", ["click-markup-value-accepted", "osc52-quote-not-found",
                                  "markup-service-scope-mismatch", "nul-del-c1-value-accepted",
                                  "bidi-doc-id-accepted", "line-paragraph-separators-literal-accepted"])
async def test_shown_literally(hostile, case):
    async with inspecting(hostile, case) as pilot:
        for key in ("n", "p", "p", "p"):  # steps draw other highlights
            await pilot.press(key)
        text, styles = screen_text_and_styles(pilot.app)
        assert hidden_characters(text) == []
        # No link, no click action: Textual's own meta is only the offset.
        assert not any(style.link or "@click" in style.meta for style in styles)


async def test_click_markup_is_text(hostile):
    async with inspecting(hostile, "click-markup-value-accepted") as pilot:
        text, _ = screen_text_and_styles(pilot.app)
        assert "[@click=app.quit]5000[/]" in text
        assert "banner = [@click=app.quit]5000[/]" in flowing(verdict_text(pilot.app))


async def test_osc52_shown_as_escapes(hostile):
    async with inspecting(hostile, "osc52-quote-not-found") as pilot:
        assert "\\u001b]52;c;SGVsbG8=\\u0007" in step_detail(pilot.app)
