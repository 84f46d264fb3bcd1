"""The pivot as a grid (issue 34): the first dimension down, the second across, the rows in the order chosen."""

from __future__ import annotations

from inspector.presentation.pivot_view import grid_words, pivot_grid
from inspector.triage.pivot import Pivot, PivotCell


def cell(a: str, b: str, records: int, of: int) -> PivotCell:
    return PivotCell(a, b, records, 0 if b == "ACCEPT" else records, {b: records}, of)


CROSSED = Pivot(("model", "check"), [
    cell("model=a", "ACCEPT", 60, 100), cell("model=a", "VALUE_MISMATCH", 40, 100),
    cell("model=b", "ACCEPT", 10, 50), cell("model=b", "STALE_REVISION", 40, 50),
])


def test_rows_down_columns_across_a_cell_where_both_values_are():
    grid = pivot_grid(CROSSED)
    assert grid.rows == ("model=a", "model=b")  # the most records first
    assert grid.columns == ("ACCEPT", "STALE_REVISION", "VALUE_MISMATCH")  # the most records first, then by name
    assert grid.at(0, 2).records == 40 and grid.at(0, 1) is None and grid.at(5, 0) is None
    assert (grid.totals, grid.rejected) == ({"model=a": 100, "model=b": 50}, {"model=a": 40, "model=b": 40})
    assert grid_words(grid.at(1, 1)) == "80.0% 40" and grid_words(None) == "·"


def test_the_rows_ordered_by_rejected_share_by_a_columns_share_or_by_name():
    assert pivot_grid(CROSSED, "rejected").rows == ("model=b", "model=a")  # 80% rejected before 40%
    assert pivot_grid(CROSSED, "share", "ACCEPT").rows == ("model=a", "model=b")  # 60% before 20%
    assert pivot_grid(CROSSED, "share", "STALE_REVISION").rows == ("model=b", "model=a")
    assert pivot_grid(CROSSED, "name").rows == ("model=a", "model=b")
