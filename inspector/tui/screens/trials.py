"""The trials view (``TrialsScreen``, ``t`` on the overview) and the flips view (``FlipsScreen``, ``f``).

The trials view lists a triage's items, each within its population, with its
trials and the verdicts they had, the most unstable first
(``presentation.trials_view``: read from the count's items, nothing reread);
the head has the stability of every item (the summary's ``stability`` group
``all``).  Enter opens the item's trials in the main view, one after another,
as any group's records.  It follows the overview's count while it runs (its
``counts`` signal, as the pivot view).

With ``--against``, once both runs are counted, the flips view: the overall
flip table of the two runs (``triage.items.pair_items``), regressions first,
McNemar's p and the paired counts in the head; Enter opens the trials view of a
cell's items only, each with its verdict before.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.signal import Signal
from textual.widgets import Static

from ...contract.text import visible
from ...presentation.overview import Snapshot, TriageRun
from ...presentation.trials_view import (
    TRIAL_SORT_WORDS,
    TRIAL_SORTS,
    Trials,
    item_group,
    trial_rows,
    trials_counted,
)
from ...triage.items import ItemComparison
from ...triage.summary import Group
from .. import keys, safe
from ..tones import TEXT, Tone, strong
from ..widgets.trials_table import FlipsTable, TrialsTable
from ..widgets.footer import KeysFooter

__all__ = ["FlipsScreen", "TrialsScreen"]

_MUTED = TEXT[Tone.MUTED]


def stability_words(trials: Trials) -> Content:
    """The head's figures: items, the unstable share, pass@1 and pass^k of every item (``GroupStability``)."""
    whole = trials.whole
    if not whole.items:
        return Content.styled("no item counted", _MUTED)
    unstable = whole.unstable
    parts: list[tuple[str, str] | str] = [
        (f"{whole.items:,}", "bold"), (" items · ", _MUTED), (f"{whole.trials:,}", "bold"), (" trials · ", _MUTED),
        (f"{unstable:,}", strong(Tone.WARN) if unstable else "bold"),
        (f" unstable ({100 * unstable / whole.items:.1f}%) · pass@1 ", _MUTED),
        (f"{whole.pass_at(1):.3f}", "bold")]
    for k in whole.ks[1:]:
        parts += [(f" · pass^{k} ", _MUTED), (f"{whole.pass_hat(k):.3f}", "bold")]
    return Content.assemble(*parts)


class TrialsScreen(Screen[None]):
    """A triage's items and their trials; Enter opens an item's trials (``open_items``, the overview's)."""

    BINDINGS = keys.bindings("trials")
    AUTO_FOCUS = "#items"  # the items' table: it owns the movement keys

    def __init__(self, run: TriageRun, snapshot: Snapshot, open_items: Callable[[Group], None],
                 counts: Signal[Snapshot] | None = None, only: frozenset[bytes] | None = None,
                 restricted: str | None = None) -> None:
        """``counts``: the overview's snapshots as it counts on, which the items follow; ``only``: a flip
        cell's items (``restricted``: its name), each with its verdict before."""
        super().__init__()
        self.run = run
        self.snapshot = snapshot
        self.open_items = open_items
        self.counts = counts
        self.only = only
        self.restricted = restricted
        self.sort = TRIAL_SORTS[0]
        self.trials: Trials | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="trials-panel"):
            yield Static("", id="trials-head", markup=False)
            yield TrialsTable(id="items")
            yield Static("", id="item-name", markup=False)
        yield KeysFooter()

    def on_mount(self) -> None:
        if self.counts is not None and self.only is None:
            self.counts.subscribe(self, self.update_snapshot)
        self._show()

    def update_snapshot(self, snapshot: Snapshot) -> None:
        """The overview counted more (or counted again): the items follow."""
        self.snapshot = snapshot
        self._show()

    def _show(self) -> None:
        self.trials = trials = trials_counted(self.snapshot, self.run.options, self.only, self.restricted)
        table = self.query_one(TrialsTable)
        table.set_rows(trial_rows(trials, self.sort) if trials.empty is None else [], before=self.only is not None)
        table.empty_message = trials.empty or "no item"
        title = "trials" if self.restricted is None else "trials · flipped "
        self.query_one("#trials-panel").border_title = Content.assemble(
            title, safe.content(self.restricted or "", "bold"))
        state = "" if self.snapshot.done else " · counting…"
        shown = f"{len(table.rows):,} shown · " if self.only is not None else ""
        self.query_one("#trials-head", Static).update(Content("\n").join([
            stability_words(trials),
            Content.assemble((f"{shown}{TRIAL_SORT_WORDS[self.sort]} (o) · Enter: the item's trials{state}",
                              _MUTED))]), layout=False)

    @on(TrialsTable.Moved)
    def _moved(self, moved: TrialsTable.Moved) -> None:
        row = moved.row
        line = Content.assemble(safe.content(row.text, "bold"), (" · ", _MUTED), safe.content(row.population)) \
            if row is not None else Content("")
        self.query_one("#item-name", Static).update(line, layout=False)

    # -- keys ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.app.screen is self or None

    def action_sort(self) -> None:
        self.sort = TRIAL_SORTS[(TRIAL_SORTS.index(self.sort) + 1) % len(TRIAL_SORTS)]
        self._show()

    def action_open_item(self) -> None:
        row = self.query_one(TrialsTable).current
        if row is None:
            return
        name = f"item {visible(row.text)}" + (f" · {row.population}" if row.population != "all" else "")
        self.open_items(item_group([row], name))

    def action_back(self) -> None:
        self.dismiss(None)


class FlipsScreen(Screen[None]):
    """Two runs item by item: the flip table; Enter opens a cell's items in the trials view."""

    BINDINGS = keys.bindings("flips")
    AUTO_FOCUS = "#flips"

    def __init__(self, run: TriageRun, snapshot: Snapshot, compared: ItemComparison,
                 open_items: Callable[[Group], None]) -> None:
        super().__init__()
        self.run = run
        self.snapshot = snapshot
        self.compared = compared
        self.open_items = open_items

    def compose(self) -> ComposeResult:
        with Vertical(id="flips-panel"):
            yield Static("", id="flips-head", markup=False)
            yield FlipsTable(id="flips")
        yield KeysFooter()

    def on_mount(self) -> None:
        overall = self.compared.overall
        self.query_one("#flips-panel").border_title = "flips · item by item, against the run before"
        self.query_one(FlipsTable).set_flips(overall.flips)
        regressed = overall.regressed
        self.query_one("#flips-head", Static).update(Content("\n").join([
            Content.assemble(
                (f"{overall.paired:,}", "bold"), (" items in both runs · accepted both ", _MUTED),
                (f"{overall.both:,}", "bold"), (" · regressed ", _MUTED),
                (f"{regressed:,}", strong(Tone.BAD) if regressed else "bold"), (" · fixed ", _MUTED),
                (f"{overall.fixed:,}", strong(Tone.GOOD) if overall.fixed else "bold"), (" · neither ", _MUTED),
                (f"{overall.neither:,}", "bold")),
            Content.assemble(
                ("McNemar exact p ", _MUTED), (overall.p_words, strong(Tone.WARN) if overall.p < 0.05 else "bold"),
                (f" · only before {overall.only_before:,} · only after {overall.only_after:,}", _MUTED),
                (" · an item's verdict: ACCEPT when more than half its trials were", _MUTED))]), layout=False)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.app.screen is self or None

    def action_open_flip(self) -> None:
        flip = self.query_one(FlipsTable).current
        if flip is None:
            return
        name = f"{flip.before} → {flip.after}"
        self.app.push_screen(TrialsScreen(self.run, self.snapshot, self.open_items, only=frozenset(flip.first),
                                          restricted=name))

    def action_back(self) -> None:
        self.dismiss(None)

