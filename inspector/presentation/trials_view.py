"""The overview's trials view: each item of a triage with its trials, the most unstable first.

An item's trials are its records in one run (``triage.items``: the item member,
``--item PATH``, else the request); the count keeps per item its trials by
status (``Tally.items``), and everything here is read from those, with the
definitions of ``triage.items`` (what a stable item is, its share accepted,
the group's pass@k): nothing is reread from the logs.  An item row opens as a
group (``item_group``: ``GroupKind.ITEM``, found in the index's ``item``
column), its trials one after another in the main view.

With ``--against``, the flips view: the overall flip table of the two runs
(``triage.items.pair_items``, every item key of a cell kept), a cell opening
the trials view restricted to its items, each with its verdict before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..triage.groups import GroupKind, ItemDetail, meta_name
from ..triage.items import (
    GroupStability,
    ItemComparison,
    accepted_of,
    item_text,
    pair_items,
    reported,
    statuses_seen,
    unpack,
    verdict_of,
)
from ..triage.summary import Group
from ..triage.tally import TRIAGE_STATUSES, Options, Tally
from .overview import Snapshot

__all__ = [
    "TRIAL_SORTS",
    "TRIAL_SORT_WORDS",
    "ItemRow",
    "Trials",
    "flips_counted",
    "item_group",
    "trials_counted",
    "trial_rows",
    "verdict_strip",
]

# How the trials view orders its items: the most unstable first (more distinct verdicts, then a share accepted
# nearer one half, then more trials), the most trials, the largest share accepted, or by item.
TRIAL_SORTS = ("unstable", "trials", "accepted", "item")
TRIAL_SORT_WORDS = {"unstable": "most unstable first", "trials": "most trials first",
                    "accepted": "most accepted first", "item": "by item"}


@dataclass(frozen=True)
class ItemRow:
    """One item within its population: its key (as ``Tally.items`` keys it), the item as shown (untrusted),
    its population (its --by values' group names), its trials by status (as ``TRIAGE_STATUSES``), and with
    ``--against`` its verdict before in the same population (``triage.items.verdict_of``), when it was there."""

    key: Any
    item: bytes
    text: str
    population: str
    counts: tuple[int, ...]
    before: str | None = None

    @property
    def trials(self) -> int:
        return sum(self.counts)

    @property
    def accepted(self) -> int:
        return accepted_of(self.counts)

    @property
    def share(self) -> float:
        """The share of its trials accepted."""
        return self.accepted / self.trials if self.trials else 0.0

    @property
    def distinct(self) -> int:
        """How many distinct verdicts its trials had (1: stable)."""
        return statuses_seen(self.counts)

    @property
    def verdicts(self) -> list[tuple[str, int]]:
        """(status, trials) of each verdict its trials had, the most frequent first (ties: contract order)."""
        seen = [(status, count) for status, count in zip(TRIAGE_STATUSES, self.counts) if count]
        return sorted(seen, key=lambda pair: -pair[1])


def verdict_strip(row: ItemRow) -> str:
    """``ACCEPT 3 · QUOTE_NOT_SUPPORTING 2``: the verdicts an item's trials had, compactly."""
    return " · ".join(f"{status} {count}" for status, count in row.verdicts)


@dataclass(frozen=True)
class Trials:
    """A triage's items as the trials view shows them: the rows, the stability of all of them (``whole``, as
    the summary's ``stability`` group ``all``), and why there is nothing to show (``empty``)."""

    rows: list[ItemRow]
    whole: GroupStability
    empty: str | None = None
    restricted: str | None = None  # a flip cell's name when only its items are shown


def _population(by: Sequence[str], joined: bytes | None) -> str:
    """An item's population: its --by values named as their groups (``model=gpt-x``), or ``all``."""
    if joined is None or not by:
        return "all"
    parts = joined.split(b"\x00")
    return " · ".join(meta_name(key, (parts[at] or None) if at < len(parts) else None) for at, key in enumerate(by))


def _rows(items: Mapping[Any, int], by: Sequence[str], only: frozenset[bytes] | None = None,
          before: Mapping[Any, int] | None = None) -> list[ItemRow]:
    rows = []
    for key, packed in items.items():
        item, joined = (key[0], key[1]) if key.__class__ is tuple else (key, None)
        if only is not None and item not in only:
            continue
        old = before.get(key) if before is not None else None  # the same item in the same population
        rows.append(ItemRow(key, item, item_text(item), _population(by, joined), unpack(packed),
                            verdict_of(unpack(old)) if old is not None else None))
    return rows


def trials_counted(snapshot: Snapshot, options: Options, only: Iterable[bytes] | None = None,
                   restricted: str | None = None) -> Trials:
    """The items of ``snapshot``'s count (as summarised: ``Snapshot.items``), unordered (``trial_rows``), and
    the stability of them all.  ``only``: just these items (a flip cell's, overall keys: whatever their
    population), each with its verdict in --against's count (``restricted``: the cell's name)."""
    tally = snapshot.summary.tally
    items = snapshot.items()
    whole = GroupStability("all")
    whole.add_all(items.values())
    if not reported(tally, options):
        return Trials([], whole, "no item is named: records name theirs with an item member, or count with "
                                 "--item PATH (the member that names it)")
    if not items:
        return Trials([], whole, "no item counted yet" if not snapshot.done else "no item counted")
    # Each row's verdict before is its own population's (the item and its --by values, keyed as here); the
    # flip cell that chose the items is the items' overall verdicts (``per_item``), whatever their population.
    before = snapshot.baseline.tally.items if only is not None and snapshot.baseline is not None else None
    rows = _rows(items, options.by, frozenset(only) if only is not None else None, before)
    if only is not None:  # the stability of these items only
        whole = GroupStability(restricted or "items")
        for row in rows:
            whole.add(row.counts)
    if only is None and whole.items == whole.trials:
        return Trials(rows, whole, "every item has one trial: nothing repeated, nothing to compare (an item's "
                                   "trials are its records in one run)")
    return Trials(rows, whole, None, restricted)


def trial_rows(trials: Trials, sort: str = "unstable") -> list[ItemRow]:
    """The items in ``sort`` order (``TRIAL_SORTS``), the key last (the same order whatever the workers)."""
    rows = list(trials.rows)
    if sort == "trials":
        rows.sort(key=lambda row: (-row.trials, -row.distinct, row.key))
    elif sort == "accepted":
        rows.sort(key=lambda row: (-row.share, -row.trials, row.key))
    elif sort == "item":
        rows.sort(key=lambda row: (row.text.casefold(), row.key))
    else:
        rows.sort(key=lambda row: (-row.distinct, abs(row.share - 0.5), -row.trials, row.key))
    return rows


def item_group(rows: Sequence[ItemRow], name: str) -> Group:
    """These items' trials as a group (``GroupKind.ITEM``): opened from the index (``open_group``) as any."""
    records = sum(row.trials for row in rows)
    accepted = sum(row.accepted for row in rows)
    return Group(name, GroupKind.ITEM, records, 0.0, records - accepted,
                 detail=ItemDetail(frozenset(row.key for row in rows)), total=records)


def flips_counted(snapshot: Snapshot, options: Options) -> ItemComparison | None:
    """The two runs item by item (``pair_items`` on the two counts, every item key of a cell kept), once both
    are counted; None before, or when neither names its items."""
    baseline = snapshot.baseline
    if baseline is None or not snapshot.done:
        return None
    after: Tally = snapshot.summary.tally
    return pair_items(after, baseline.tally, options, ids=None)
