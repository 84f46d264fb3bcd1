"""The registry beside the claims: the cited source's row marked, the cell the step
compares highlighted (red when it fails), access columns when sources record
access metadata, and the facts of a conflict shaded."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.reports.tones import Tone
from inspector.tui.tones import TABLE_HIGHLIGHT
from inspector.tui.widgets.registry_table import RegistryTable
from support.tui import many_conflicts_suite, cells_styled, cursor_check, inspecting, on_shared_app, open_id, registry_highlight, \
    reopened, request_highlight

FAILED = TABLE_HIGHLIGHT[Tone.BAD]
CONFLICT = "registry-table--conflict"

# access.json: the case failing each access condition, and the cell it highlights.
ACCESS_FAILURES = {
    "another-tenant-right-value": ("b-prod-v2", "tenant"),
    "not-approved": ("a-unapproved", "approved"),
    "deleted": ("a-deleted", "deleted"),
    "expired": ("a-expired", "expires_at"),
    "expiring-exactly-now": ("a-expiring-now", "expires_at"),
    "reader-not-listed": ("a-bob-only", "readers"),
    "missing-metadata-fails-closed": ("a-no-metadata", "tenant"),
}
ACCESS_COLUMNS = ["tenant", "approved", "deleted", "expires_at", "readers"]


def row_of(app, source_id: str) -> int:  # noqa: ANN001 - the app
    sources = app.main.selection.report.suite.registry.sources
    return next(row for row, source in enumerate(sources) if source.id == source_id)


def shaded(app) -> set[tuple[str, str]]:  # noqa: ANN001 - the app
    """The cells shaded as a conflict: (source id, column key)."""
    sources = app.main.selection.report.suite.registry.sources
    return {(sources[row].id, key) for row, key in cells_styled(app.main.query_one(RegistryTable), CONFLICT)}


def conflict_sides(app) -> set[tuple[str, str]]:  # noqa: ANN001 - the app
    """(source id, field) of every document the case's conflicts name."""
    return {(source, conflict.field) for conflict in app.main.selection.report.conflicts
            for source in conflict.sources}


@on_shared_app
@pytest.mark.parametrize(("suite", "case", "source", "columns"), [
    ("article", "dev-environment-claims", "dev-v2", {"environment"}),
    ("article", "billing-service-claims", "billing-v2", {"service"}),
    ("article", "prod-v1-claims", "prod-v1", {"revision"}),
    ("article", "real-quote-wrong-value", "prod-v2", {"facts.read_timeout_ms"}),
    ("article", "billing-not-supplied", "billing-v2", {"id", "supplied"}),
    ("access", "stale-but-supported", "a-prod-v1", {"revision"}),
])
async def test_the_compared_cell_is_highlighted(shared_app, suite, case, source, columns):
    pilot = await reopened(shared_app, case, suite)
    selection = pilot.app.main.selection
    assert selection.source.id == source and selection.tone is Tone.BAD
    assert registry_highlight(pilot.app) == (source, frozenset(columns), Tone.BAD)


@on_shared_app
@pytest.mark.parametrize("case", list(ACCESS_FAILURES))
async def test_the_failing_access_condition_is_highlighted(shared_app, case):
    source, condition = ACCESS_FAILURES[case]
    pilot = await reopened(shared_app, case, "access")
    app = pilot.app
    assert cursor_check(app) == "authorized"
    assert app.main.selection.source_attribute == condition
    assert registry_highlight(app) == (source, frozenset({condition}), Tone.BAD)
    # In the failure colour, and only that cell of the table.
    assert cells_styled(app.main.query_one(RegistryTable), FAILED) == {(row_of(app, source), condition)}
    # The request strip highlights the scope the condition was checked against.
    assert request_highlight(app) == ("scope", Tone.BAD)


@on_shared_app
async def test_access_columns_only_when_sources_record_access(shared_app):
    pilot = await reopened(shared_app, "expired", "access")
    app = pilot.app
    registry = app.main.query_one(RegistryTable)
    assert [column.key for column in registry.columns][-5:] == ACCESS_COLUMNS
    # The article's registry records no access metadata.
    open_id(app, "prod-v1-claims", "article")
    await pilot.pause()
    assert not set(ACCESS_COLUMNS) & {column.key for column in registry.columns}


@on_shared_app
async def test_a_conflict_is_shaded_beside_the_compared_cell(shared_app):
    pilot = await reopened(shared_app, "conflict-wrong-side", "conflicts")
    app = pilot.app
    assert conflict_sides(app) == {("ops-prod-v2", "retry_enabled"), ("wiki-prod-v2", "retry_enabled")}
    # The compared cell keeps the failure colour; the other side is shaded as a conflict.
    assert registry_highlight(app) == ("ops-prod-v2", frozenset({"facts.retry_enabled"}), Tone.BAD)
    assert shaded(app) == {("wiki-prod-v2", "facts.retry_enabled")}
    # A case that does not touch the conflict shades nothing.
    open_id(app, "conflict-not-touched", "conflicts")
    await pilot.pause()
    assert conflict_sides(app) == set() and shaded(app) == set()


@on_shared_app
async def test_an_accepted_case_on_a_conflict_shades_both_sides(shared_app):
    pilot = await reopened(shared_app, "conflict-cite-ops", "conflicts")
    app = pilot.app
    assert app.main.selection.report.verdict.ok
    assert shaded(app) == {("ops-prod-v2", "facts.retry_enabled"), ("wiki-prod-v2", "facts.retry_enabled")}


async def test_many_disagreeing_documents_are_all_shaded(tmp_path: Path):
    async with inspecting([many_conflicts_suite(tmp_path)], "conflict-wrong-side") as pilot:
        app = pilot.app
        assert len(conflict_sides(app)) == 8
        # Every side but the compared cell (in the failure colour) is shaded.
        assert len(shaded(app)) == 7
        assert registry_highlight(app) == ("ops-prod-v2", frozenset({"facts.retry_enabled"}), Tone.BAD)
