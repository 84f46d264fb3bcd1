"""The request strip: the request as drawn, its access scope only when it has one,
and the attribute the current step compares highlighted in the step's tone."""

from __future__ import annotations

import pytest

from inspector.reports.tones import Tone
from inspector.tui.widgets.request_strip import RequestStrip
from support.tui import inspecting, on_shared_app, open_id, rendered, reopened, request_highlight


@on_shared_app
@pytest.mark.parametrize(("suite", "case", "attribute"), [
    ("article", "dev-environment-claims", "environment"),
    ("article", "billing-service-claims", "service"),
    ("article", "prod-v1-claims", "revision"),
    ("article", "billing-not-supplied", "supplied"),
    ("access", "expired", "scope"),
])
async def test_the_compared_attribute_is_highlighted_in_the_failure_tone(shared_app, suite, case, attribute):
    pilot = await reopened(shared_app, case, suite)
    selection = pilot.app.main.selection
    assert (selection.request_attribute, selection.tone) == (attribute, Tone.BAD)
    assert request_highlight(pilot.app) == (attribute, Tone.BAD)


async def test_a_passed_step_is_highlighted_in_the_pass_tone(article):
    async with inspecting(article, "complete-answer") as pilot:
        main = pilot.app.main
        main.selection = main.selection.at_check("scope")
        await pilot.pause()
        assert main.selection.step.outcome.value == "passed"
        assert main.selection.request_attribute == "environment"
        assert request_highlight(pilot.app) == ("environment", Tone.GOOD)


@on_shared_app
async def test_the_scope_only_when_the_request_has_one(shared_app):
    pilot = await reopened(shared_app, "expired", "access")
    app = pilot.app
    strip = app.main.query_one(RequestStrip)
    assert "scope tenant tenant-a, user alice, now 1500" in rendered(strip)
    # The article's requests have no scope.
    open_id(app, "prod-v1-claims", "article")
    await pilot.pause()
    text = rendered(strip)
    assert "scope" not in text
    assert text.startswith("service payments  environment prod  revision v2  fields ")
