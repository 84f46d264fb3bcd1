"""Two triages side by side (``--against``): what changed, and whether by more than noise.

Each group present in either summary is compared on one rate, the one that
says what the group is:

- a **population** group (a dimension's value: ``scope:…``, ``model=…``,
  ``other:KEY``, ``file=…``): the share of *its* records that were rejected,
  so that one model's answers rejected more often shows, whatever its share of
  the traffic;
- a **check** group (a verdict, a reason, a failing claim, a blame, a category,
  a rung, the citation-only false accepts): its share of all the records
  counted (``bad``: of the lines read).

Whether a change is more than noise is a two-proportion z-test with a pooled
proportion, two-sided::

    p1 = x1 / n1 (before), p2 = x2 / n2 (after), p = (x1 + x2) / (n1 + n2)
    z = (p2 - p1) / sqrt(p (1 - p) (1 / n1 + 1 / n2))
    p-value = erfc(|z| / sqrt(2))

and the change is *significant* when the false discovery rate over the groups
tested in this comparison is controlled at ``FDR`` (0.01) by the
Benjamini-Hochberg procedure: the family is every group tested (below), its
``m`` p-values sorted ``p(1) <= ... <= p(m)``, each group's ``q`` (its adjusted
p-value) is ``min over j >= i of p(j) m / j`` (at most 1), and a change is
significant when its ``q`` is below ``FDR``.  A comparison tests hundreds of
groups at once: at ``p < 0.01`` each, two logs of the same mix (another seed)
showed changes that were chance; with BH at most about 1% of the changes
called significant are expected to be chance (the groups overlap, a model's
records are in check groups too: BH holds for tests positively dependent, as
these mostly are).  The test statistic and the p-value are unchanged; only the
decision uses ``q``.

A group is *tested* when the normal approximation holds: under the pooled
rate, each side expects at least ``MIN_EXPECTED`` (5) records in the group and
5 out of it (``n1 p``, ``n1 (1 - p)``, ``n2 p``, ``n2 (1 - p)`` all at least
5, the textbook success-failure condition).  Without it (a claim seen once in
2,000 records, then twice in 300) the z and p are still given, ``tested`` is
false, there is no ``q``, and the change is never called significant: a log
has hundreds of small groups, and their p-values from a handful of records
would flag noise.  With no record on a side (a population group new or
vanished) there is no rate on that side and no test: the group is called new
or vanished.  The standard library's ``math.erfc`` is the normal tail; nothing
here imports more.

The rates of a change are printed with enough decimals that two different
rates read differently (``shown_rates``: ``0.10% -> 0.13%``, never ``0.1% ->
0.1%``), by the text, the JSON's readers, the HTML report and the overview alike.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

from .groups import KINDS, GroupKind

if TYPE_CHECKING:
    from .items import ItemComparison, Paired

__all__ = ["FDR", "MIN_EXPECTED", "Comparison", "Shift", "Side", "benjamini_hochberg", "compare", "enough_records",
           "shown_rates", "two_proportion_z"]

# The false discovery rate controlled over the groups tested in one comparison (Benjamini-Hochberg): a change
# whose q is below it is more than noise.
FDR = 0.01
# The most decimals (of a percent) a rate is printed with to tell it from the other side's.
MAX_DECIMALS = 6
# The records each side must expect in the group, and out of it, under the pooled rate for the test to be used.
MIN_EXPECTED = 5.0


def two_proportion_z(x1: int, n1: int, x2: int, n2: int) -> tuple[float, float] | None:
    """The pooled two-proportion z-test of ``x1/n1`` (before) against ``x2/n2``
    (after): ``(z, two-sided p)``, ``z`` positive when the rate rose.  None
    when a side has no trial; ``(0.0, 1.0)`` when both rates are 0 or both 1
    (nothing varies, nothing changed)."""
    if n1 <= 0 or n2 <= 0:
        return None
    pooled = (x1 + x2) / (n1 + n2)
    variance = pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2)
    if variance <= 0.0:
        return (0.0, 1.0)
    z = (x2 / n2 - x1 / n1) / math.sqrt(variance)
    return (z, math.erfc(abs(z) / math.sqrt(2.0)))


def enough_records(x1: int, n1: int, x2: int, n2: int) -> bool:
    """Whether the normal approximation of ``two_proportion_z`` holds: under the
    pooled rate, each side expects at least ``MIN_EXPECTED`` records in the group and out of it."""
    if n1 <= 0 or n2 <= 0:
        return False
    pooled = (x1 + x2) / (n1 + n2)
    return min(n1, n2) * min(pooled, 1.0 - pooled) >= MIN_EXPECTED


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """The Benjamini-Hochberg adjusted p-values (``q``) of a family of tests, in the order given: with the
    ``m`` p-values sorted ascending, the ``i``-th's ``q`` is the least ``p(j) m / j`` for ``j >= i``, at most
    1.  A test whose ``q`` is below a level is significant with the false discovery rate controlled at it."""
    m = len(p_values)
    order = sorted(range(m), key=p_values.__getitem__)
    adjusted = [1.0] * m
    least = 1.0
    for rank in range(m, 0, -1):  # from the largest p down: the running minimum
        number = order[rank - 1]
        least = min(least, p_values[number] * m / rank)
        adjusted[number] = least
    return adjusted


def _percent(rate: float | None, decimals: int) -> str:
    return "-" if rate is None else f"{100 * rate:.{decimals}f}%"


def shown_rates(before: float | None, after: float | None) -> tuple[str, str]:
    """Two rates as percents, with the same decimals, as few as tell them apart (one at least, at most
    ``MAX_DECIMALS``): ``0.10%``, ``0.13%`` rather than ``0.1%`` twice; ``-`` for no rate."""
    decimals = 1
    if before is not None and after is not None and before != after:
        while decimals < MAX_DECIMALS and _percent(before, decimals) == _percent(after, decimals):
            decimals += 1
    return _percent(before, decimals), _percent(after, decimals)


@dataclass(frozen=True, slots=True)
class Side:
    """One group on one side: ``count`` of ``of`` (the rate's numerator and denominator)."""

    count: int
    of: int

    @property
    def rate(self) -> float | None:
        return self.count / self.of if self.of else None

    def to_dict(self) -> dict[str, Any]:
        rate = self.rate
        return {"count": self.count, "of": self.of, "rate": round(rate, 6) if rate is not None else None}


@dataclass(frozen=True, slots=True)
class Shift:
    """A group in two triages: its rate before (``--against``) and after (the logs
    given), the change in points, the test."""

    name: str
    kind: GroupKind
    measure: str  # "rejected" (of the group's records), "records" (of all records), "lines" (bad: of the lines)
    before: Side
    after: Side
    new: bool  # in the logs given and not in --against's
    vanished: bool  # in --against's and not in the logs given
    q: float | None = None  # the Benjamini-Hochberg adjusted p-value over the groups tested (None: not tested)

    @property
    def population(self) -> bool:
        return self.measure == "rejected"

    @property
    def change(self) -> float | None:
        """The change of rate (a fraction: 0.179 is +17.9 points); None without a rate on a side."""
        after, before = self.after.rate, self.before.rate
        return after - before if after is not None and before is not None else None

    @property
    def worse(self) -> bool:
        """Whether the change is for the worse: a rate of rejections (or of bad lines) rose, or a rung's (or
        ACCEPT's) fell; False without a change."""
        change = self.change
        if change is None or round(change, 12) == 0:
            return False
        better = self.kind is GroupKind.RUNG or self.name == "ACCEPT"
        return (change > 0) != better

    def change_words(self) -> str:
        """The change as the text and the overview say it: ``+17.9 pt``, ``new``, ``vanished``."""
        change = self.change
        if change is None:
            return "new" if self.new else "vanished"
        points = change * 100
        # a group of a few records in thousands moves by hundredths of a point: said, not rounded to 0.0
        return f"{points:+.1f} pt" if abs(points) >= 0.05 or points == 0 else f"{points:+.2g} pt"

    @property
    def test(self) -> tuple[float, float] | None:
        return two_proportion_z(self.before.count, self.before.of, self.after.count, self.after.of)

    @property
    def z(self) -> float | None:
        test = self.test
        return test[0] if test is not None else None

    @property
    def p(self) -> float | None:
        test = self.test
        return test[1] if test is not None else None

    @property
    def tested(self) -> bool:
        """Whether there are records enough on both sides for the test to say anything (``enough_records``)."""
        return enough_records(self.before.count, self.before.of, self.after.count, self.after.of)

    @property
    def significant(self) -> bool:
        """Whether the change is more than noise: tested, and its ``q`` below ``FDR``."""
        return self.q is not None and self.q < FDR and self.tested

    def rates_words(self) -> tuple[str, str]:
        """The rates before and after as printed (``shown_rates``)."""
        return shown_rates(self.before.rate, self.after.rate)

    def weight(self) -> tuple[Any, ...]:
        """The sort key: significant first, then the tested, each by the largest |z|, then the largest change,
        then by kind and name."""
        z, change = self.z, self.change
        return (not self.significant, not self.tested, -abs(z) if z is not None else 0.0,
                -abs(round(change, 12)) if change is not None else 0.0, not (self.new or self.vanished),
                KINDS.index(self.kind), self.name)

    def to_dict(self) -> dict[str, Any]:
        z, p, change = self.z, self.p, self.change
        return {"group": self.name, "kind": self.kind.value, "measure": self.measure,
                "before": self.before.to_dict(), "after": self.after.to_dict(),
                "change": round(change, 6) if change is not None else None,
                "z": round(z, 4) if z is not None else None, "p": _round_p(p), "q": _round_p(self.q),
                "tested": self.tested, "significant": self.significant, "new": self.new, "vanished": self.vanished}


def _round_p(p: float | None) -> float | None:
    """A p-value kept to 4 significant digits (a tiny one stays tiny, not 0.0)."""
    return float(f"{p:.4g}") if p is not None else None


def _side(group: Any, totals: tuple[int, int]) -> Side:
    """A group's count and denominator on one side (``group`` None: absent there)."""
    records, lines = totals
    if group is None:
        return Side(0, 0)  # a population group's absence: no records of it (a check group's: filled in below)
    if group.kind.population:
        return Side(group.rejected or 0, group.records)
    return Side(group.records, lines if group.kind.lines else records)


class Comparison(Sequence[Shift]):
    """The shifts of every group of two summaries, heaviest first (``Shift.weight``), and the family the
    false discovery rate is controlled over: the ``tested`` groups.  ``items``: the two runs item by item
    (``triage.items.ItemComparison``), when items are named; ``settings``: the two runs' generation settings
    (``triage.settings.SettingsComparison``), when counted."""

    def __init__(self, shifts: Sequence[Shift], items: ItemComparison | None = None) -> None:
        self.shifts = list(shifts)
        self.tested = sum(1 for shift in self.shifts if shift.tested)
        self.items = items
        self.settings: Any = None

    @overload
    def __getitem__(self, index: int) -> Shift: ...
    @overload
    def __getitem__(self, index: slice) -> list[Shift]: ...
    def __getitem__(self, index: int | slice) -> Shift | list[Shift]:
        return self.shifts[index]

    def __len__(self) -> int:
        return len(self.shifts)

    def __iter__(self) -> Iterator[Shift]:
        return iter(self.shifts)

    @property
    def significant(self) -> list[Shift]:
        return [shift for shift in self.shifts if shift.significant]

    def paired(self, shift: Shift) -> Paired | None:
        """A population's paired items beside its rate change (``triage.items.Paired``): the --by value's
        items in both runs, their accepted outcomes lost and gained and McNemar's p, the paired result a
        rate change of the same records cannot give; None for any other group, or when no item paired."""
        if self.items is None or shift.kind is not GroupKind.BY:
            return None
        return self.items.population(shift.name)

    @property
    def rule(self) -> str:
        """The decision rule in words, the family named: what the text, the HTML and the help say."""
        return f"q < {FDR:g}, Benjamini-Hochberg over the {self.tested:,} group(s) tested"

    def to_dict(self) -> dict[str, Any]:
        """The JSON's ``comparison``."""
        return {**({"settings": self.settings.to_dict()} if self.settings is not None else {}),
                "test": "two-proportion z-test, pooled, two-sided", "correction": "Benjamini-Hochberg",
                "fdr": FDR, "family": "every group tested: records enough on both sides", "tested": self.tested,
                "significant": len(self.significant), "groups": [self._group(shift) for shift in self.shifts],
                **({"items": self.items.to_dict()} if self.items is not None else {})}


    def _group(self, shift: Shift) -> dict[str, Any]:
        found = shift.to_dict()
        paired = self.paired(shift)
        if paired is not None:
            found["paired_items"] = paired.beside()
        return found


def compare(after: Any, before: Any) -> Comparison:
    """Every group of either summary (``triage.summary.Summary``: ``after`` the
    logs given, ``before`` ``--against``'s), heaviest first (``Shift.weight``),
    each tested one with its ``q`` over all those tested (``benjamini_hochberg``)."""
    mine = {group.name: group for group in after.groups}
    theirs = {group.name: group for group in before.groups}
    totals_after = (after.records, after.tally.lines)
    totals_before = (before.records, before.tally.lines)
    shifts = []
    for name in dict.fromkeys([*mine, *theirs]):
        a, b = mine.get(name), theirs.get(name)
        kind = (a or b).kind  # type: ignore[union-attr]  # the name is one side's at least
        measure = "rejected" if kind.population else "lines" if kind.lines else "records"
        side_a, side_b = _side(a, totals_after), _side(b, totals_before)
        if measure != "rejected":  # a check group absent on a side is 0 of that side's records
            if a is None:
                side_a = Side(0, totals_after[1] if kind.lines else totals_after[0])
            if b is None:
                side_b = Side(0, totals_before[1] if kind.lines else totals_before[0])
        shifts.append(Shift(name, kind, measure, side_b, side_a, new=b is None, vanished=a is None))
    tested = [number for number, shift in enumerate(shifts) if shift.tested]
    for number, q in zip(tested, benjamini_hochberg([shifts[number].p or 1.0 for number in tested]), strict=True):
        shifts[number] = replace(shifts[number], q=q)
    return Comparison(sorted(shifts, key=Shift.weight))
