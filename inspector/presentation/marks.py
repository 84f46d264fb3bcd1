"""Records marked by hand in a triage group (``space`` on a record), for an export of just those.

A ``RecordSession`` keeps its ``Marks``: a group opened again has its marks
still (as it has its lab edits), until the overview counts again.
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = ["Marks"]


class Marks:
    """The numbers of the records marked (a session's, in its numbering)."""

    def __init__(self) -> None:
        self._numbers: set[int] = set()

    def toggle(self, number: int) -> bool:
        """Mark the record, or unmark it when it was; whether it is marked now."""
        if number in self._numbers:
            self._numbers.discard(number)
            return False
        self._numbers.add(number)
        return True

    def clear(self) -> int:
        """Unmark every record; how many were marked."""
        count = len(self._numbers)
        self._numbers.clear()
        return count

    def numbers(self) -> list[int]:
        """The marked records, ascending (log order)."""
        return sorted(self._numbers)

    def __contains__(self, number: object) -> bool:
        return number in self._numbers

    def __len__(self) -> int:
        return len(self._numbers)

    def __iter__(self) -> Iterator[int]:
        return iter(self.numbers())

    @property
    def words(self) -> str:
        """``3 marked`` (empty when none is)."""
        return f"{len(self._numbers):,} marked" if self._numbers else ""
