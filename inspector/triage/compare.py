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

and the change is *significant* when the p-value is below ``THRESHOLD``
(0.01) and the normal approximation holds: under the pooled rate, each side
expects at least ``MIN_EXPECTED`` (5) records in the group and 5 out of it
(``n1 p``, ``n1 (1 - p)``, ``n2 p``, ``n2 (1 - p)`` all at least 5, the
textbook success-failure condition).  Without it (a claim seen once in 2,000
records, then twice in 300) the z and p are still given, ``tested`` is false,
and the change is never called significant: a log has hundreds of small
groups, and their p-values from a handful of records would flag noise.  With no record on a side (a population group new or vanished) there
is no rate on that side and no test: the group is called new or vanished.  The
standard library's ``math.erfc`` is the normal tail; nothing here imports more.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .groups import KINDS
from .summary import POPULATION_KINDS

__all__ = ["MIN_EXPECTED", "THRESHOLD", "Shift", "Side", "compare", "enough_records", "two_proportion_z"]

# Below this two-sided p-value a change is more than noise.
THRESHOLD = 0.01
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
    kind: str
    measure: str  # "rejected" (of the group's records), "records" (of all records), "lines" (bad: of the lines)
    before: Side
    after: Side
    new: bool  # in the logs given and not in --against's
    vanished: bool  # in --against's and not in the logs given

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
        better = self.kind == "rung" or self.name == "ACCEPT"
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
        p = self.p
        return p is not None and p < THRESHOLD and self.tested

    def weight(self) -> tuple[Any, ...]:
        """The sort key: significant first, then the tested, each by the largest |z|, then the largest change,
        then by kind and name."""
        z, change = self.z, self.change
        return (not self.significant, not self.tested, -abs(z) if z is not None else 0.0,
                -abs(round(change, 12)) if change is not None else 0.0, not (self.new or self.vanished),
                KINDS.index(self.kind), self.name)

    def to_dict(self) -> dict[str, Any]:
        z, p, change = self.z, self.p, self.change
        return {"group": self.name, "kind": self.kind, "measure": self.measure,
                "before": self.before.to_dict(), "after": self.after.to_dict(),
                "change": round(change, 6) if change is not None else None,
                "z": round(z, 4) if z is not None else None, "p": _round_p(p),
                "tested": self.tested, "significant": self.significant, "new": self.new, "vanished": self.vanished}


def _round_p(p: float | None) -> float | None:
    """A p-value kept to 4 significant digits (a tiny one stays tiny, not 0.0)."""
    return float(f"{p:.4g}") if p is not None else None


def _side(group: Any, totals: tuple[int, int]) -> Side:
    """A group's count and denominator on one side (``group`` None: absent there)."""
    records, lines = totals
    if group is None:
        return Side(0, 0)  # a population group's absence: no records of it (a check group's: filled in below)
    if group.kind in POPULATION_KINDS:
        return Side(group.rejected or 0, group.records)
    return Side(group.records, lines if group.kind == "bad" else records)


def compare(after: Any, before: Any) -> list[Shift]:
    """Every group of either summary (``triage.summary.Summary``: ``after`` the
    logs given, ``before`` ``--against``'s), heaviest first (``Shift.weight``)."""
    mine = {group.name: group for group in after.groups}
    theirs = {group.name: group for group in before.groups}
    totals_after = (after.records, after.tally.lines)
    totals_before = (before.records, before.tally.lines)
    shifts = []
    for name in dict.fromkeys([*mine, *theirs]):
        a, b = mine.get(name), theirs.get(name)
        kind = (a or b).kind
        measure = "rejected" if kind in POPULATION_KINDS else "lines" if kind == "bad" else "records"
        side_a, side_b = _side(a, totals_after), _side(b, totals_before)
        if measure != "rejected":  # a check group absent on a side is 0 of that side's records
            if a is None:
                side_a = Side(0, totals_after[1] if kind == "bad" else totals_after[0])
            if b is None:
                side_b = Side(0, totals_before[1] if kind == "bad" else totals_before[0])
        shifts.append(Shift(name, kind, measure, side_b, side_a, new=b is None, vanished=a is None))
    return sorted(shifts, key=Shift.weight)
