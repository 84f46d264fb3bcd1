"""The overview's pivot: two dimensions a triage counted crossed (``triage.pivot``:
per pair of values, the records and the share of them rejected), laid out as a
grid (``pivot_grid``: the first dimension's values down, the second's across, as
VisiData's pivot and a spreadsheet do, the rows in the order chosen), and a pair
opened as a group (``pivot_group``: its records, its bars over time, its export,
as any group's).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..triage.groups import GroupKind, PivotDetail
from ..triage.pivot import CHECK, SCOPE, Pivot, PivotCell, pivot, pivot_problem
from ..triage.summary import Group
from .overview import Snapshot, TriageRun

__all__ = [
    "PIVOT_SORTS",
    "PivotGrid",
    "grid_words",
    "pivot_counted",
    "pivot_default",
    "pivot_dimensions",
    "pivot_grid",
    "pivot_group",
    "pivot_keys",
]

# How the pivot view orders its rows: the most records first, the largest rejected share, the largest share in
# the selected column, or by name.
PIVOT_SORTS = ("records", "rejected", "share", "name")


@dataclass(frozen=True)
class PivotGrid:
    """A pivot as rows by columns: the first dimension's values down (``rows``, in the order chosen), the
    second's across (``columns``, the most records first), each pair (``cells``) where they cross, and
    each row's records and rejected."""

    keys: tuple[str, str]
    rows: tuple[str, ...]
    columns: tuple[str, ...]
    cells: dict[tuple[str, str], PivotCell]
    totals: dict[str, int]
    rejected: dict[str, int]

    def at(self, row: int, column: int) -> PivotCell | None:
        """The pair at this row and column (None where no record has both values)."""
        if not (0 <= row < len(self.rows) and 0 <= column < len(self.columns)):
            return None
        return self.cells.get((self.rows[row], self.columns[column]))


def pivot_grid(crossed: Pivot, sort: str = "records", column: str | None = None) -> PivotGrid:
    """The pivot's pairs as a grid, its rows in ``sort`` order (``PIVOT_SORTS``: ``share`` by their share
    in ``column``, a value of the second dimension; the most records first without one)."""
    cells = {(cell.a, cell.b): cell for cell in crossed.cells}
    totals: dict[str, int] = {}
    rejected: dict[str, int] = {}
    across: dict[str, int] = {}
    for cell in crossed.cells:
        totals[cell.a] = totals.get(cell.a, 0) + cell.records
        rejected[cell.a] = rejected.get(cell.a, 0) + cell.rejected
        across[cell.b] = across.get(cell.b, 0) + cell.records
    rows = sorted(totals, key=lambda a: (-totals[a], a))
    if sort == "rejected":
        rows.sort(key=lambda a: (-rejected[a] / totals[a] if totals[a] else 0.0, -totals[a], a))
    elif sort == "share" and column is not None:
        rows.sort(key=lambda a: (-(cells[a, column].share if (a, column) in cells else 0.0), -totals[a], a))
    elif sort == "name":
        rows.sort(key=lambda a: (a.casefold(), a))
    columns = sorted(across, key=lambda b: (-across[b], b))
    return PivotGrid(crossed.keys, tuple(rows), tuple(columns), cells, totals, rejected)


def grid_words(cell: PivotCell | None) -> str:
    """A grid cell as shown: the pair's share of its row and its records (``·`` for none)."""
    if cell is None or not cell.records:
        return "·"
    return f"{100 * cell.share:.1f}% {cell.records:,}"


def pivot_dimensions(by: Sequence[str]) -> tuple[str, ...]:
    """What a triage counted by ``by`` can cross: the scope, the check, each --by path."""
    return (SCOPE, CHECK, *by)


def pivot_default(run: TriageRun) -> tuple[str, str]:
    """The pivot view's dimensions at first: --pivot's, else the first --by path's by check, else the scope's."""
    by = run.options.by
    return run.pivot or ((by[0], CHECK) if by else (SCOPE, CHECK))


def pivot_keys(text: str, by: Sequence[str]) -> tuple[str, str]:
    """The two dimensions ``A,B`` names, each one this triage counted; ValueError with the line to show."""
    problem = pivot_problem(text.strip())
    if problem is not None:
        raise ValueError(problem.removeprefix("--pivot "))
    first, second = (key.strip() for key in text.split(","))
    dimensions = pivot_dimensions(by)
    for key in (first, second):
        if key not in dimensions:
            raise ValueError(f"{key!r} was not counted: count with --by {key} (here: {', '.join(dimensions)})")
    if first == second:
        raise ValueError(f"{first!r} twice; cross two different dimensions")
    return first, second


def pivot_group(crossed: Pivot, cell: PivotCell) -> Group:
    """A pair of the pivot as a group: its records open (``open_group``) and are drawn over time (``time_shown``)
    as any group's (``Group.membership``)."""
    return Group(cell.name, GroupKind.PIVOT, cell.records, cell.share, cell.rejected,
                 detail=PivotDetail(crossed.keys, cell.a, cell.b))



def pivot_counted(snapshot: Snapshot, dimensions: tuple[str, str]) -> Pivot:
    """The snapshot's counts crossed by ``dimensions`` (``triage.pivot``), its cells as summarised."""
    return pivot(snapshot.summary.tally, dimensions, snapshot.cells())
