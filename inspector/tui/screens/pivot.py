"""The pivot view of a triage (``PivotScreen``, ``p`` on the overview): two dimensions crossed.

Two dimensions (the scope, the check, a --by path: ``model,check`` is which
check each model's answers fail at) as a grid, the first's values down and the
second's across, each cell the pair's share of its row and its records
(``presentation.pivot_view.pivot_grid``: the engine's ``triage.pivot``, a sum over
the count's cells).  The cursor is a cell (j/k a row, h/l a column); the time
histogram beside it follows the selected pair, as the overview's follows its
group; Enter opens the pair's records in the main view, as a group's; ``o``
orders the rows.  ``d``
changes the dimensions; the pairs follow the overview's count while it runs (its
``counts`` signal, subscribed to while the pivot is open).
"""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.signal import Signal
from textual.widgets import Input, Static

from ...presentation.overview import Snapshot, TimeShown, TriageRun
from ...presentation.pivot_view import (
    PIVOT_SORTS,
    pivot_counted,
    pivot_dimensions,
    pivot_grid,
    pivot_group,
    pivot_keys,
)
from ...triage.pivot import Pivot, PivotCell
from ...triage.summary import Group
from ..widgets.footer import KeysFooter
from .. import keys, safe
from ..tones import TEXT, Tone
from ..widgets.pivot_table import PivotTable
from ..widgets.time_table import TimeTable, time_title
from .time_follow import FollowsTime

__all__ = ["PivotScreen"]

_MUTED = TEXT[Tone.MUTED]
_SORT_WORDS = {"records": "rows by records", "rejected": "rows by rejected share",
               "share": "rows by the column's share", "name": "rows by name"}


class PivotScreen(FollowsTime, Screen[None]):
    """Two dimensions of a triage crossed; Enter opens a pair's records (``open_pair``, the overview's)."""

    BINDINGS = keys.bindings("pivot")
    AUTO_FOCUS = "#pairs"  # the pairs' table: it owns the movement keys
    HORIZONTAL_BREAKPOINTS = [(0, "-pairs-only"), (110, "-with-time")]

    def __init__(self, run: TriageRun, snapshot: Snapshot, dimensions: tuple[str, str],
                 open_pair: Callable[[Pivot, PivotCell], None], counts: Signal[Snapshot] | None = None) -> None:
        """``counts``: the overview's snapshots as it counts on (``TriageScreen.counts``), which the pairs follow."""
        super().__init__()
        self.run = run
        self.snapshot = snapshot
        self.counts = counts
        self.dimensions = dimensions
        self.open_pair = open_pair
        self.sort = PIVOT_SORTS[0]
        self.crossed: Pivot | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="pivot-panel"):
            yield Static("", id="pivot-head", markup=False)
            yield Input(placeholder="A,B: two of " + ", ".join(pivot_dimensions(self.run.options.by)),
                        id="pivot-keys", select_on_focus=False)
            with Horizontal(id="pivot-body"):
                with Vertical(id="pairs-panel"):
                    yield PivotTable(id="pairs")
                    yield Static("", id="pair-name", markup=False)
                with Vertical(id="pivot-time-panel"):
                    yield Static("", id="pivot-time-title", markup=False)
                    yield TimeTable(id="pivot-time")
        yield KeysFooter()

    def on_mount(self) -> None:
        if self.counts is not None:
            self.counts.subscribe(self, self.update_snapshot)
        self._cross()

    # -- the pairs -------------------------------------------------------------------

    def update_snapshot(self, snapshot: Snapshot) -> None:
        """The overview counted more (or counted again): the pairs follow."""
        self.snapshot = snapshot
        self._cross()

    def _cross(self) -> None:
        self.crossed = crossed = pivot_counted(self.snapshot, self.dimensions)
        table = self.query_one(PivotTable)
        names = table.names
        grid = pivot_grid(crossed, self.sort, names[1] if names is not None else None)
        table.set_grid(grid)
        a, b = self.dimensions
        self.query_one("#pivot-panel").border_title = Content.assemble(
            "pivot · ", safe.content(a, "bold"), (" down × ", _MUTED), safe.content(b, "bold"), (" across", _MUTED))
        records = self.snapshot.summary.records
        state = "" if self.snapshot.done else " · counting…"
        self.query_one("#pivot-head", Static).update(Content.assemble(
            (f"{len(grid.rows):,}", "bold"), (" × ", _MUTED), (f"{len(grid.columns):,}", "bold"),
            (" values · ", _MUTED), (f"{records:,}", "bold"),
            (f" records · cell: share of its row, records · {_SORT_WORDS[self.sort]} (o) · d: other dimensions"
             f"{state}", _MUTED)), layout=False)
        if self.snapshot_due(self.snapshot):
            self.follow_time()

    @on(PivotTable.Moved)
    def _moved(self, moved: PivotTable.Moved) -> None:
        names, cell = moved.names, moved.cell
        line = Content("") if names is None else Content.assemble(
            safe.content(names[0], "bold"), (" × ", _MUTED), safe.content(names[1], "bold"),
            (f" · {cell.records:,} records, {100 * cell.share:.1f}% of the row's · ✗ {cell.rejected:,}"
             if cell is not None else " · no record", _MUTED))
        self.query_one("#pair-name", Static).update(line, layout=False)
        self.time_moved()

    # -- the selected pair over time ------------------------------------------------------

    def time_snapshot(self) -> Snapshot | None:
        return self.snapshot

    def time_target(self) -> Group | None:
        crossed, cell = self.crossed, self.query_one(PivotTable).current
        return pivot_group(crossed, cell) if crossed is not None and cell is not None else None

    def show_time(self, shown: TimeShown) -> None:
        histogram = shown.histogram
        self.query_one("#pivot-time-panel").set_class(histogram is not None, "-shown")
        self.query_one(TimeTable).set_shown(shown)
        self.query_one("#pivot-time-title", Static).update(time_title(shown, "pair"), layout=False)

    # -- keys ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.app.screen is self or None

    def action_sort(self) -> None:
        self.sort = PIVOT_SORTS[(PIVOT_SORTS.index(self.sort) + 1) % len(PIVOT_SORTS)]
        self._cross()

    def action_open_pair(self) -> None:
        table = self.query_one(PivotTable)
        cell = table.current
        if self.crossed is None or table.names is None:
            return
        if cell is None:
            self.notify("no record has both values", markup=False, timeout=3)
            return
        self.open_pair(self.crossed, cell)

    def action_dimensions(self) -> None:
        field = self.query_one("#pivot-keys", Input)
        field.value = ",".join(self.dimensions)
        field.add_class("-active")
        field.focus()

    def action_back(self) -> None:
        field = self.query_one("#pivot-keys", Input)
        if field.has_class("-active"):
            field.remove_class("-active")
            self.query_one(PivotTable).focus()
            return
        self.dismiss(None)

    @on(Input.Submitted, "#pivot-keys")
    def _dimensions_given(self, event: Input.Submitted) -> None:
        try:
            dimensions = pivot_keys(event.value, self.run.options.by)
        except ValueError as exc:
            self.notify(safe.display(str(exc)), title="cannot cross these", severity="error", markup=False,
                        timeout=6)
            return
        event.input.remove_class("-active")
        self.query_one(PivotTable).focus()
        self.dimensions = dimensions
        self._cross()
