"""Two dimensions crossed (``--pivot A,B``): per pair of values, the records and
the share of them rejected.

A dimension is ``scope`` (the request's service / environment / revision) or a
``--by`` path; the tally's cells already hold each record's scope and ``--by``
members, so a pivot is a sum over them after the count, never a second pass.
Each value is named as its group is (``scope:payments/prod/v3``,
``model=gpt-x``, ``other:KEY``), so a row's two names are each a group
``--export`` takes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..contract.checks import STATUSES
from .groups import meta_name, scope_name
from .tally import Tally

__all__ = ["SCOPE", "Pivot", "PivotCell", "pivot", "pivot_problem"]

SCOPE = "scope"


@dataclass(frozen=True, slots=True)
class PivotCell:
    """The records with value ``a`` of the first dimension and ``b`` of the second."""

    a: str
    b: str
    records: int
    rejected: int
    by_check: dict[str, int]

    @property
    def rejected_rate(self) -> float:
        return self.rejected / self.records if self.records else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "records": self.records, "rejected": self.rejected,
                "rejected_rate": round(self.rejected_rate, 6), "by_check": self.by_check}


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
        return f"--pivot takes two dimensions, A,B (scope or a --by path): not {text!r}"
    if keys[0] == keys[1]:
        return f"--pivot: {keys[0]!r} twice; cross two different dimensions"
    return None


def pivot(tally: Tally, keys: tuple[str, str]) -> Pivot:
    """The records of ``tally`` per pair of values of ``keys`` (each ``SCOPE`` or
    one of the tally's ``by_keys``), with their rejections by check."""
    def namer(key: str) -> Any:
        if key == SCOPE:
            return lambda scope, values: scope_name(scope)
        where = tally.by_keys.index(key)
        return lambda scope, values: meta_name(key, values[where])

    first, second = namer(keys[0]), namer(keys[1])
    found: dict[tuple[str, str], tuple[int, int, dict[str, int]]] = {}
    for (verdict, scope, values), count in tally.cells.items():
        pair = (first(scope, values), second(scope, values))
        records, rejected, checks = found.get(pair, (0, 0, {}))
        status = verdict[0]
        checks[status] = checks.get(status, 0) + count
        found[pair] = (records + count, rejected + (count if status != "ACCEPT" else 0), checks)
    cells = [PivotCell(a, b, records, rejected, {status: checks[status] for status in STATUSES if status in checks})
             for (a, b), (records, rejected, checks) in found.items()]
    return Pivot(keys, sorted(cells, key=lambda cell: (-cell.records, cell.a, cell.b)))
