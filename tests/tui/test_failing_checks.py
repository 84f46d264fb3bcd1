"""A case failing each check of the contract (``scenes.FAILING``): every view points
at what the failing step compares, in the failure tone."""

from __future__ import annotations

import pytest

from inspector.contract.checks import CHECKS
from inspector.reports.labels import LabelMatch
from inspector.reports.tones import Tone
from inspector.tui.scenes import FAILING
from inspector.tui.tones import TABLE_HIGHLIGHT, TEXT_HIGHLIGHT
from inspector.tui.widgets.claims import ClaimsTable
from support.tui import (
    cells_styled,
    cursor_check,
    flowing,
    on_shared_app,
    registry_highlight,
    reopened,
    request_highlight,
    step_detail,
    text_view,
    verdict_lines,
)


def test_every_check_has_a_failing_case():
    assert set(FAILING) == {check.id for check in CHECKS}


@on_shared_app
@pytest.mark.parametrize("check_id", list(FAILING))
async def test_views_point_at_what_the_failing_step_compares(shared_app, check_id):
    suite, case = FAILING[check_id]
    pilot = await reopened(shared_app, case, suite)
    app = pilot.app
    selection = app.main.selection
    step = selection.step
    assert step is not None and step.check.id == check_id and step.failed
    assert selection.tone is Tone.BAD
    # The checks panel's cursor is on the failing check; the detail names it with its fix.
    assert cursor_check(app) == check_id
    detail = step_detail(app)
    assert step.label in detail and "fix:" in detail
    # The request strip highlights what the step compares, in the failure tone.
    if step.request_attribute or step.check.request_attribute:
        assert selection.request_attribute is not None
        assert request_highlight(app) == (selection.request_attribute, Tone.BAD)
    # The claims table: the member read, on the failing claim.
    if step.claim is not None and step.check.claim_member:
        assert (selection.claim, selection.claim_member) == (step.claim, step.check.claim_member)
        claims = app.main.query_one(ClaimsTable)
        assert cells_styled(claims, TABLE_HIGHLIGHT[Tone.BAD]) == {(step.claim, step.check.claim_member)}
    # The registry: the cited source's row and the compared cell.
    source, columns, tone = registry_highlight(app)
    if step.source is not None and step.source_attribute not in (None, "text"):
        assert source == step.source and step.source_attribute in columns and tone is Tone.BAD
    # The answer: what the step looked at, in the failure tone.
    failed_marks = [(m.start, m.end) for m in text_view(app, "#answer-view").marks
                    if m.component == TEXT_HIGHLIGHT[Tone.BAD]]
    assert len(failed_marks) == len(selection.answer_spans)
    for span in selection.answer_spans:
        assert (span.start, span.end) in failed_marks
    # The verdict agrees with the frozen label.
    assert selection.report.label_match is LabelMatch.MATCHES
    assert "✓ matches the frozen label" in verdict_lines(app)
    assert "≠ frozen label" not in flowing("\n".join(verdict_lines(app)))
