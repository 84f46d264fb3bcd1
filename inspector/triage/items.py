"""Items and their trials: how stable an answer is, and two runs item by item.

A record belongs to an item (``tally``: the ``item`` member the formats' presets
fill, or ``--item PATH``, else its request's digest); several records of one item
in one run are its *trials*.  The count keeps per item its trials by triage
status (``Tally.items``); everything here is computed after the count, from
those, never from the logs.

``stability(tally, options)``: per group (``all``, then each ``--by`` value) the
items, each within its population (its --by values: a model's trials of an
item are its trials, not another model's), trials, share accepted, items whose
verdict status is the same every time, how many distinct statuses items saw, the
share of unstable items, and pass@k and pass^k (k = 1, 2, 4, 8, where every item
of the group has at least k trials), with the unbiased estimators over an item's
``n`` trials of which ``c`` accepted, averaged over the items::

    pass@k = 1 - C(n - c, k) / C(n, k)     (at least one of k trials accepted)
    pass^k = C(c, k) / C(n, k)             (all k trials accepted)

``pair_items(after, before, options)`` (``--against``): the items of both runs
paired: overall each item whatever its population (a run of one model pairs with
a run of another), then per --by value the item within it.  An item's *outcome*
in a run is accepted when more than half its trials
were (a tie is not accepted); its *verdict* is ACCEPT then, else its most
frequent rejection status (ties: the first in contract order).  The flip table
counts the paired items by (verdict before, verdict after), each cell with its
first ``FLIP_IDS`` item keys (in byte order: the same whatever the workers);
McNemar's exact test asks whether the items accepted before and not after are
more (or fewer) than those the other way round: under no change each discordant
item is as likely one way as the other, so with ``b`` and ``c`` of them the
two-sided p is ``min(1, 2 P(X <= min(b, c)))`` for ``X ~ Binomial(b + c, 1/2)``.
Items in one run only are counted apart.  Both are said only when items are
named (a member or ``--item``): a log whose records repeat a request but name no
item is not read as trials of anything (``reported``).

Pure: no textual, no rich.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from .groups import OTHER, meta_name, meta_text
from .pvalue import p_words
from .tally import ITEM_BITS, ITEM_NONE, TRIAGE_STATUSES, Options, Tally

__all__ = ["FLIP_IDS", "KS", "ItemComparison", "Stability", "Flip", "GroupStability", "Paired", "accepted_of",
           "item_text", "mcnemar_exact", "pair_items", "pass_at_k", "pass_hat_k", "per_item", "reported", "stability",
           "statuses_seen", "unpack", "verdict_of"]

KS = (1, 2, 4, 8)  # the k of pass@k and pass^k
FLIP_IDS = 20  # the item keys a flip table's cell keeps (the first, in byte order)
_ACCEPT = TRIAGE_STATUSES.index("ACCEPT")
_MASK = (1 << ITEM_BITS) - 1
_EXACT_UP_TO = 2000  # discordant pairs up to which McNemar's tail is summed in integers (past it: in logs)


def unpack(packed: int) -> tuple[int, ...]:
    """An item's records per triage status (as ``TRIAGE_STATUSES``), from ``Tally.items``' packed int."""
    return tuple((packed >> (ITEM_BITS * code)) & _MASK for code in range(len(TRIAGE_STATUSES)))


def statuses_seen(counts: Sequence[int]) -> int:
    """How many distinct verdict statuses an item's trials had (1: stable, the same every time)."""
    return sum(1 for count in counts if count)


def accepted_of(counts: Sequence[int]) -> int:
    """An item's accepted trials, from its counts by status (``unpack``)."""
    return counts[_ACCEPT]


def item_text(key: bytes) -> str:
    """An item key as shown: the member's value (``groups.meta_text``), or ``request #digest`` for an item
    that is its request.  Untrusted text: shown through ``contract.text.visible``."""
    if key[:1] == b"#":
        return f"request {key.decode('ascii', 'replace')}"
    return meta_text(key)


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased estimate that at least one of ``k`` trials is accepted, from ``n`` trials, ``c`` accepted."""
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """The unbiased estimate that all ``k`` trials are accepted, from ``n`` trials, ``c`` accepted."""
    return math.comb(c, k) / math.comb(n, k) if c >= k else 0.0


def reported(tally: Tally, options: Options) -> bool:
    """Whether the items are said: some record named its item (a member, ``--item``), or ``--item`` was given
    (but ``none``)."""
    return options.item != ITEM_NONE and (bool(tally.items_named) or options.item is not None)


@dataclass
class GroupStability:
    """The stability of one group's items (``all``, or a --by value's: the items within that population)."""

    group: str
    items: int = 0
    trials: int = 0
    accepted: int = 0
    stable: int = 0  # items whose trials all had one status
    distinct: dict[int, int] = field(default_factory=dict)  # items by how many statuses their trials had
    least_trials: int = 0
    _pass1: float = 0.0
    _at: dict[int, float] = field(default_factory=dict)  # sums over items, averaged in to_dict
    _hat: dict[int, float] = field(default_factory=dict)

    def add(self, counts: Sequence[int], items: int = 1) -> None:
        """Add ``items`` items whose trials had these counts by status (many items have the same)."""
        n = sum(counts)
        if not n:
            return
        c = accepted_of(counts)
        self.least_trials = n if not self.items else min(self.least_trials, n)
        self.items += items
        self.trials += n * items
        self.accepted += c * items
        seen = statuses_seen(counts)
        self.distinct[seen] = self.distinct.get(seen, 0) + items
        if seen == 1:
            self.stable += items
        self._pass1 += c / n * items
        for k in KS:
            if k <= n:
                self._at[k] = self._at.get(k, 0.0) + pass_at_k(n, c, k) * items
                self._hat[k] = self._hat.get(k, 0.0) + pass_hat_k(n, c, k) * items

    def add_all(self, packed: Iterable[int]) -> None:
        """Add every item of packed counts (``Tally.items``' values), each distinct count once."""
        for value, items in sorted(Counter(packed).items()):
            self.add(unpack(value), items)

    @property
    def unstable(self) -> int:
        return self.items - self.stable

    @property
    def ks(self) -> tuple[int, ...]:
        """The k every item of the group has enough trials for."""
        return tuple(k for k in KS if k <= self.least_trials)

    def pass_at(self, k: int) -> float:
        return self._at.get(k, 0.0) / self.items if self.items else 0.0

    def pass_hat(self, k: int) -> float:
        return self._hat.get(k, 0.0) / self.items if self.items else 0.0

    def to_dict(self) -> dict[str, Any]:
        items = self.items
        return {"group": self.group, "items": items, "trials": self.trials, "least_trials": self.least_trials,
                "accepted": self.accepted, "accepted_rate": round(self.accepted / self.trials, 6) if self.trials else 0.0,
                "stable_items": self.stable, "unstable_items": self.unstable,
                "unstable_rate": round(self.unstable / items, 6) if items else 0.0,
                "distinct_verdicts": {str(seen): count for seen, count in sorted(self.distinct.items())},
                "pass_at_1": round(self._pass1 / items, 6) if items else 0.0,
                "pass_at_k": {str(k): round(self.pass_at(k), 6) for k in self.ks},
                "pass_hat_k": {str(k): round(self.pass_hat(k), 6) for k in self.ks}}


@dataclass
class Stability:
    """Every group's stability (``all`` first, then each --by value's, the most items first), and what was not
    kept: ``untracked`` records (items past ``tally.ITEMS_KEPT``), ``without_item`` records (without the
    ``--item`` path given: each its own item, not kept)."""

    item: str
    groups: list[GroupStability]
    untracked: int
    without_item: int

    def to_dict(self) -> dict[str, Any]:
        return {"item": self.item, "verdict": "the triage status (ACCEPT or the first failing check)",
                "untracked_records": self.untracked, "records_without_item": self.without_item,
                "groups": [group.to_dict() for group in self.groups]}


def _item_words(options: Options) -> str:
    if options.item is None:
        return "the item member, else the request"
    return "the request" if options.item == "request" else options.item


def _units(tally: Tally) -> Iterable[tuple[bytes, bytes | None, int]]:
    """(item key, joined --by members or None, packed counts) of every item kept."""
    for key, packed in tally.items.items():
        if key.__class__ is tuple:
            yield key[0], key[1], packed
        else:
            yield key, None, packed


def _population(joined: bytes | None, position: int) -> bytes | None:
    """A --by member of a joined key (``tally``'s flat key: NUL between members, b"" for none)."""
    if joined is None:
        return None
    parts = joined.split(b"\x00")
    return (parts[position] or None) if position < len(parts) else None


def _per_item(tally: Tally, position: int | None = None, kept: Any = None) -> dict[Any, int]:
    """Packed counts per item (``position`` None), or per (--by value at ``position``, item); a value not
    in ``kept`` (the key's values the tally kept: ``Tally.by_values``) is ``OTHER``, as in the groups."""
    found: dict[Any, int] = {}
    get = found.get
    for item, joined, packed in _units(tally):
        if position is None:
            key: Any = item
        else:
            value = _population(joined, position)
            key = (value if kept is None or value in kept else OTHER, item)
        found[key] = get(key, 0) + packed
    return found


def per_item(tally: Tally) -> dict[bytes, int]:
    """Packed counts per item, whatever its population (what the overall flip table pairs)."""
    return _per_item(tally)


def stability(tally: Tally, options: Options) -> Stability | None:
    """The stability of ``tally``'s items, or None when there is nothing to say: no item named
    (``reported``), or no item with two trials."""
    if not reported(tally, options) or not tally.items:
        return None
    whole = GroupStability("all")
    whole.add_all(tally.items.values())  # each item within its population: its --by values
    if whole.items == whole.trials:  # one trial an item: nothing is repeated
        return None
    groups = [whole]
    for position, key in enumerate(options.by):
        per_value: dict[bytes | None, list[int]] = {}
        for (value, _), packed in _per_item(tally, position, tally.by_values.get(key)).items():
            per_value.setdefault(value, []).append(packed)
        found = []
        for value, packed_counts in per_value.items():
            group = GroupStability(meta_name(key, value))
            group.add_all(packed_counts)
            found.append(group)
        groups += sorted(found, key=lambda group: (-group.items, group.group))
    return Stability(_item_words(options), groups, tally.items_untracked, tally.items_missing)


def verdict_of(counts: Sequence[int]) -> str:
    """An item's verdict in a run: ACCEPT when more than half its trials were accepted, else its most
    frequent rejection status (ties: the first in contract order)."""
    n = sum(counts)
    if 2 * counts[_ACCEPT] > n:
        return "ACCEPT"
    best = max((count, -code) for code, count in enumerate(counts) if code != _ACCEPT)
    return TRIAGE_STATUSES[-best[1]]


def mcnemar_exact(b: int, c: int) -> float:
    """McNemar's exact test of ``b`` items accepted before and not after against ``c`` the other way round:
    the two-sided binomial p, ``min(1, 2 P(X <= min(b, c)))``, ``X ~ Binomial(b + c, 1/2)``; 1 with none."""
    n = b + c
    if not n:
        return 1.0
    low = min(b, c)
    if n <= _EXACT_UP_TO:
        tail = sum(math.comb(n, i) for i in range(low + 1))
        return min(1.0, float(2 * tail / 2 ** n))
    logs = [math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) - n * math.log(2) for i in range(low + 1)]
    top = max(logs)
    return min(1.0, 2 * math.exp(top) * sum(math.exp(value - top) for value in logs))


@dataclass
class Flip:
    """A cell of the flip table: the items whose verdict was ``before`` and is ``after``, and the first
    ``FLIP_IDS`` of their keys (byte order)."""

    before: str
    after: str
    items: int
    first: list[bytes]

    @property
    def kind(self) -> str:
        """``regressed`` (ACCEPT to a rejection), ``fixed``, ``changed`` (one rejection to another), ``same``."""
        if self.before == self.after:
            return "same"
        if self.before == "ACCEPT":
            return "regressed"
        return "fixed" if self.after == "ACCEPT" else "changed"

    def to_dict(self) -> dict[str, Any]:
        return {"before": self.before, "after": self.after, "kind": self.kind, "items": self.items,
                "first_items": [item_text(key) for key in self.first]}


_KIND_ORDER = {"regressed": 0, "fixed": 1, "changed": 2, "same": 3}


@dataclass
class Paired:
    """One population's paired items (``all``, or a --by value's): accepted before and after (``both``),
    regressed (``b``), fixed (``c``), neither; McNemar's exact p; the items of one run only."""

    group: str
    paired: int = 0
    both: int = 0
    regressed: int = 0
    fixed: int = 0
    neither: int = 0
    only_before: int = 0
    only_after: int = 0
    flips: list[Flip] = field(default_factory=list)  # regressions first (``_flips``)

    @property
    def p(self) -> float:
        return mcnemar_exact(self.regressed, self.fixed)

    def beside(self) -> dict[str, Any]:
        """The paired outcome as said beside the population's rate change (``compare.Comparison.paired``):
        the items paired, lost (accepted before, not after), gained, McNemar's p."""
        return {"paired": self.paired, "accepted_before_only": self.regressed, "accepted_after_only": self.fixed,
                "p": round(self.p, 6)}

    @property
    def p_words(self) -> str:
        """McNemar's p as the reports and the views print it (``pvalue.p_words``)."""
        return p_words(self.p)

    def beside_words(self) -> str:
        """The same in words, as the text report, the HTML page and the overview put it beside the rate
        change: ``-66 +17 of 200, p <0.0001``."""
        return f"-{self.regressed:,} +{self.fixed:,} of {self.paired:,}, p {self.p_words}"

    def to_dict(self) -> dict[str, Any]:
        paired = self.paired
        return {"group": self.group, "paired": paired, "accepted_both": self.both,
                "accepted_before_only": self.regressed, "accepted_after_only": self.fixed,
                "accepted_neither": self.neither,
                "accepted_rate_before": round((self.both + self.regressed) / paired, 6) if paired else None,
                "accepted_rate_after": round((self.both + self.fixed) / paired, 6) if paired else None,
                "p": round(self.p, 6), "only_before": self.only_before, "only_after": self.only_after,
                "flips": [flip.to_dict() for flip in self.flips]}


@dataclass
class ItemComparison:
    """Two runs item by item: the flip table (regressions first, then fixes, then changed rejections, the
    unchanged last; the largest first within each) and per population the paired outcomes and McNemar's p."""

    populations: list[Paired]
    untracked: tuple[int, int]  # (after, before)

    @property
    def overall(self) -> Paired:
        return self.populations[0]

    @property
    def flips(self) -> list[Flip]:
        """Every item's flip table (the overall population's)."""
        return self.overall.flips

    def population(self, name: str) -> Paired | None:
        """The paired items of the population a group is named for (``model=claude-y``: the summary's name of
        a --by value), None when it paired none.  Asked once a group of the comparison (thousands with
        ``--by id``): looked up by name, not searched."""
        found = self._by_name.get(name)
        return found if found is not None and found.paired else None

    @cached_property
    def _by_name(self) -> dict[str, Paired]:
        return {paired.group: paired for paired in self.populations[1:]}

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": "an item is accepted in a run when more than half its trials were",
                "verdict": "ACCEPT when accepted, else its most frequent rejection status",
                "test": "McNemar exact, two-sided (binomial on the discordant items)",
                "untracked_records": {"after": self.untracked[0], "before": self.untracked[1]},
                "populations": [population.to_dict() for population in self.populations]}


def _paired(name: str, after: dict[Any, int], before: dict[Any, int], ids: int | None = FLIP_IDS) -> Paired:
    """The paired items of one population; each flip cell keeps its first ``ids`` item keys (None: all)."""
    found = Paired(name)
    table: dict[tuple[str, str], list[Any]] = {}
    verdicts: dict[int, str] = {}  # per packed counts (many items have the same)
    for key, packed in after.items():
        old = before.get(key)
        if old is None:
            found.only_after += 1
            continue
        then, now = verdicts.get(old), verdicts.get(packed)
        if then is None:
            then = verdicts[old] = verdict_of(unpack(old))
        if now is None:
            now = verdicts[packed] = verdict_of(unpack(packed))
        found.paired += 1
        was, is_ = then == "ACCEPT", now == "ACCEPT"
        if was and is_:
            found.both += 1
        elif was:
            found.regressed += 1
        elif is_:
            found.fixed += 1
        else:
            found.neither += 1
        cell = table.get((then, now))
        if cell is None:
            cell = table[(then, now)] = [0, []]
        cell[0] += 1
        first = cell[1]
        if ids is None or len(first) < ids:
            heapq.heappush(first, _Reverse(key))
        elif key < first[0].key:
            heapq.heapreplace(first, _Reverse(key))
    found.only_before = sum(1 for key in before if key not in after)
    found.flips = [Flip(then, now, count, sorted(entry.key for entry in first))
                   for (then, now), (count, first) in table.items()]
    found.flips.sort(key=lambda flip: (_KIND_ORDER[flip.kind], -flip.items, flip.before, flip.after))
    return found


class _Reverse:
    """A key ordered backwards: a heap of them keeps the smallest keys, the largest on top."""

    __slots__ = ("key",)

    def __init__(self, key: Any) -> None:
        self.key = key

    def __lt__(self, other: _Reverse) -> bool:
        return bool(self.key > other.key)


def _by_value(counts: dict[Any, int]) -> dict[bytes | None, dict[bytes, int]]:
    """``_per_item``'s counts per (value, item) as per value, per item."""
    found: dict[bytes | None, dict[bytes, int]] = {}
    for (value, item), packed in counts.items():
        found.setdefault(value, {})[item] = packed
    return found


def pair_items(after: Tally, before: Tally, options: Options, ids: int | None = FLIP_IDS) -> ItemComparison | None:
    """``after``'s items paired with ``before``'s (``--against``), or None when neither names its items
    (``reported``).  ``ids``: the item keys each flip cell keeps (the first, in byte order; None: every one,
    as the overview's flips view opens a cell's items)."""
    if not (reported(after, options) or reported(before, options)):
        return None
    populations = [_paired("all", _per_item(after), _per_item(before), ids)]
    for position, key in enumerate(options.by):
        kept = after.by_values.get(key, {}).keys() | before.by_values.get(key, {}).keys()
        mine, theirs = _by_value(_per_item(after, position, kept)), _by_value(_per_item(before, position, kept))
        for value in sorted(mine.keys() | theirs.keys(), key=lambda value: (value == OTHER, value is None, value or b"")):
            populations.append(_paired(meta_name(key, value), mine.get(value, {}), theirs.get(value, {}), ids))
    return ItemComparison(populations, (after.items_untracked, before.items_untracked))
