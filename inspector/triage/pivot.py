"""Two dimensions crossed (``--pivot A,B``): per pair of values, the records and
the share of them rejected.

A dimension is ``scope`` (the request's service / environment / revision),
``check`` (the verdict's status: the check that failed first, or ACCEPT) or a
``--by`` path (a metadata member written ``scope`` or ``check`` is reached as a
pointer: ``/check``); the tally's cells already hold each record's verdict, scope
and ``--by`` members, so a pivot is a sum over them after the count, never a
second pass.  Each value is named as its group is (``scope:payments/prod/v3``,
``VALUE_MISMATCH``, ``model=gpt-x``, ``other:KEY``), so a row's two names are
each a group ``--export`` takes.  Each pair's records are given as a share of
its first value's records too (``share``: ``model,check`` says which share of
one model's answers failed at each check).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


from .groups import CHECK, SCOPE, dimension_namer, pivot_name
from .tally import TRIAGE_STATUSES, Tally

__all__ = ["CHECK", "SCOPE", "Pivot", "PivotCell", "pivot", "pivot_problem"]


@dataclass(frozen=True, slots=True)
class PivotCell:
    """The records with value ``a`` of the first dimension and ``b`` of the second."""

    a: str
    b: str
    records: int
    rejected: int
    by_check: dict[str, int]
    of: int = 0  # the records of ``a``, every value of the second dimension: what ``share`` is of

    @property
    def rejected_rate(self) -> float:
        return self.rejected / self.records if self.records else 0.0

    @property
    def share(self) -> float:
        """The pair's share of its first value's records."""
        return self.records / self.of if self.of else 0.0

    @property
    def name(self) -> str:
        return pivot_name(self.a, self.b)

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "records": self.records, "of": self.of, "share": round(self.share, 6),
                "rejected": self.rejected, "rejected_rate": round(self.rejected_rate, 6), "by_check": self.by_check}


@dataclass(frozen=True, slots=True)
class Pivot:
    keys: tuple[str, str]
    cells: list[PivotCell]  # the most records first

    def to_dict(self) -> dict[str, Any]:
        return {"keys": list(self.keys), "cells": [cell.to_dict() for cell in self.cells]}


def pivot_problem(text: str) -> str | None:
    """Why ``--pivot TEXT`` cannot be a pivot: two dimensions, different, neither empty."""
    keys = text.split(",")
    if len(keys) != 2 or not all(keys):
        return f"--pivot takes two dimensions, A,B (scope, check or a --by path): not {text!r}"
    if keys[0] == keys[1]:
        return f"--pivot: {keys[0]!r} twice; cross two different dimensions"
    return None


def pivot(tally: Tally, keys: tuple[str, str], cells: Any = None) -> Pivot:
    """The records of ``tally`` per pair of values of ``keys`` (each ``SCOPE``,
    ``CHECK`` or one of the tally's ``by_keys``), with their rejections by check.
    ``cells``: the tally's as they were at some point (a copy, while it goes on counting)."""
    first, second = (dimension_namer(key, tally.by_keys) for key in keys)
    found: dict[tuple[str, str], tuple[int, int, dict[str, int]]] = {}
    for cell, count in (tally.cells if cells is None else cells).items():
        pair = (first(cell), second(cell))
        records, rejected, checks = found.get(pair, (0, 0, {}))
        status = cell.verdict.status
        checks[status] = checks.get(status, 0) + count
        found[pair] = (records + count, rejected + (count if status != "ACCEPT" else 0), checks)
    rows: dict[str, int] = {}
    for (a, _), (records, _, _) in found.items():
        rows[a] = rows.get(a, 0) + records
    cells = [PivotCell(a, b, records, rejected, {status: checks[status] for status in TRIAGE_STATUSES if status in checks},
                       rows[a])
             for (a, b), (records, rejected, checks) in found.items()]
    return Pivot(keys, sorted(cells, key=lambda cell: (-cell.records, cell.a, cell.b)))
