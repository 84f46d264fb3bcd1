"""A case's edits in the lab: what was changed, in order, with undo and redo.

A ``History`` is a value: the frozen case's answer, every change made to it and
how many of them are applied.  Undo and redo move that position; a new change
drops what could have been redone; reset goes back to the frozen answer and
keeps the changes, so redo brings them back.  There is no limit: each change
holds the answer's whole text after it (at most 24 KB for an answer that can
pass the size check; a mutant or an edit of a larger one is still kept whole,
since the answer is what the verdict is computed on).

``Change.records`` are what a saved counterexample's ``provenance.edits``
records for it: a mutation's dotted name, or an edit as a mapping
(``{"what", "claim", "member", "old", "new"}``, as ``repair.Edit.to_dict``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["Change", "History", "text_change"]

Record = str | Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Change:
    """One change of an answer: the whole text after it, what it was in words
    (``quote.other_line: claims[0].quote "timeout=5000"``), and its records."""

    raw: str | bytes
    what: str
    records: tuple[Record, ...] = ()


@dataclass(frozen=True, slots=True)
class History:
    """The frozen answer, the changes made to it, and how many are applied."""

    original: str | bytes
    changes: tuple[Change, ...] = ()
    position: int = 0  # changes[:position] are applied

    @property
    def raw(self) -> str | bytes:
        """The answer as the changes applied so far leave it."""
        return self.changes[self.position - 1].raw if self.position else self.original

    @property
    def edited(self) -> bool:
        """Some change is applied (the text may happen to be the frozen one again)."""
        return self.position > 0

    @property
    def applied(self) -> tuple[Change, ...]:
        return self.changes[:self.position]

    @property
    def records(self) -> tuple[Record, ...]:
        """The applied changes' records in order, as a saved case's provenance keeps them."""
        return tuple(record for change in self.applied for record in change.records)

    @property
    def can_undo(self) -> bool:
        return self.position > 0

    @property
    def can_redo(self) -> bool:
        return self.position < len(self.changes)

    @property
    def undone(self) -> Change | None:
        """The change ``undo`` would take back."""
        return self.changes[self.position - 1] if self.position else None

    @property
    def redone(self) -> Change | None:
        """The change ``redo`` would apply again."""
        return self.changes[self.position] if self.can_redo else None

    def apply(self, change: Change) -> History:
        """This history with ``change`` made now (what could have been redone is dropped)."""
        return History(self.original, (*self.changes[:self.position], change), self.position + 1)

    def undo(self) -> History:
        return History(self.original, self.changes, max(0, self.position - 1))

    def redo(self) -> History:
        return History(self.original, self.changes, min(len(self.changes), self.position + 1))

    def reset(self) -> History:
        """Back to the frozen answer; the changes stay, for redo."""
        return History(self.original, self.changes, 0)


def text_change(old: str, new: str, what: str = "raw edit") -> Change:
    """A change of the answer's text typed by hand: the smallest span that differs,
    recorded with its place (``line:column``) and both texts as they stand in the answer."""
    start = 0
    limit = min(len(old), len(new))
    while start < limit and old[start] == new[start]:
        start += 1
    end_old, end_new = len(old), len(new)
    while end_old > start and end_new > start and old[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
    line = old.count("\n", 0, start) + 1
    column = start - (old.rfind("\n", 0, start) + 1) + 1
    record = {"what": "text", "claim": None, "member": None, "old": old[start:end_old],
              "new": new[start:end_new], "where": f"{line}:{column}"}
    return Change(new, what, (record,))
