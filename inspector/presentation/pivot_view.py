"""The overview's pivot: two dimensions a triage counted crossed (``triage.pivot``:
per pair of values, the records and the share of them rejected), the pairs in
the order chosen, and a pair opened as a group (``pivot_group``: its records,
its bars over time, its export, as any group's).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..triage.groups import GroupKind, PivotDetail
from ..triage.pivot import CHECK, SCOPE, Pivot, PivotCell, pivot, pivot_problem
from ..triage.summary import Group
from .overview import Snapshot, TriageRun

__all__ = [
    "PIVOT_SORTS",
    "pivot_counted",
    "pivot_default",
    "pivot_dimensions",
    "pivot_group",
    "pivot_keys",
    "pivot_rows",
]

# How the pivot view orders its pairs: the most records first, the largest rejected share, the largest share of
# its row, or by name.
PIVOT_SORTS = ("records", "rejected", "share", "name")


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


def pivot_rows(crossed: Pivot, sort: str = "records") -> list[PivotCell]:
    """The pivot's pairs in ``sort`` order (``PIVOT_SORTS``)."""
    cells = list(crossed.cells)
    if sort == "rejected":
        cells.sort(key=lambda cell: (-cell.rejected_rate, -cell.records, cell.a, cell.b))
    elif sort == "share":
        cells.sort(key=lambda cell: (-cell.share, -cell.records, cell.a, cell.b))
    elif sort == "name":
        cells.sort(key=lambda cell: (cell.a.casefold(), cell.b.casefold()))
    return cells


def pivot_group(crossed: Pivot, cell: PivotCell) -> Group:
    """A pair of the pivot as a group: its records open (``open_group``) and are drawn over time (``time_shown``)
    as any group's (``Group.membership``)."""
    return Group(cell.name, GroupKind.PIVOT, cell.records, cell.share, cell.rejected,
                 detail=PivotDetail(crossed.keys, cell.a, cell.b))



def pivot_counted(snapshot: Snapshot, dimensions: tuple[str, str]) -> Pivot:
    """The snapshot's counts crossed by ``dimensions`` (``triage.pivot``), its cells as summarised."""
    return pivot(snapshot.summary.tally, dimensions, snapshot.cells())
