"""The case list's state, as a value: which cases are visible and which is current.

The main screen keeps one ``Browse`` and replaces it on every filter or move;
the case list only draws it.  Pure, so the rules of moving through a filtered
list (the neighbour of a case that was filtered out, the first match) are
tested without a terminal.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .session import Session

__all__ = ["Browse"]


@dataclass(frozen=True, slots=True)
class Browse:
    total: int  # every case of the session
    visible: tuple[int, ...]  # the cases the list shows, ascending
    current: int | None = None  # the open case (it may be filtered out of view)
    text: str = ""  # the typed filter
    label: str | None = None  # a filter chosen in the palette or the summary, in words
    chosen: tuple[int, ...] | None = None  # the cases that filter chose

    @classmethod
    def of(cls, session: Session) -> Browse:
        return cls(len(session), tuple(range(len(session))))

    @property
    def filtered(self) -> bool:
        return bool(self.text or self.label)

    @property
    def title(self) -> str:
        count = f"cases {len(self.visible):,}/{self.total:,}" if len(self.visible) != self.total \
            else f"cases {self.total:,}"
        if self.label:
            return f"{count} · {self.label}"
        return f"{count} · filtered" if self.text else count

    def row_of(self, number: int | None) -> int | None:
        """The row of a case in the list, None when it is not visible."""
        if number is None:
            return None
        row = bisect_left(self.visible, number)
        return row if row < len(self.visible) and self.visible[row] == number else None

    def neighbour(self, step: int) -> int | None:
        """The case ``step`` rows away from the current one (from where it would be
        when it is filtered out); None when nothing is visible."""
        visible = self.visible
        if not visible:
            return None
        if self.current is None:
            return visible[0 if step > 0 else -1]
        row = bisect_left(visible, self.current)
        if row < len(visible) and visible[row] == self.current:
            row += step
        else:  # filtered out: it sits between visible[row - 1] and visible[row]
            row += step - 1 if step > 0 else step
        return visible[max(0, min(row, len(visible) - 1))]

    @property
    def first(self) -> int | None:
        return self.visible[0] if self.visible else None

    @property
    def last(self) -> int | None:
        return self.visible[-1] if self.visible else None

    def at(self, number: int) -> Browse:
        return replace(self, current=number)

    def grown(self, session: Session) -> Browse:
        """The same filter over a session that gained cases (a suite was opened)."""
        return replace(self, total=len(session), visible=tuple(session.search(self.text, self.chosen)))

    def searching(self, session: Session, text: str) -> Browse:
        return replace(self, text=text, visible=tuple(session.search(text, self.chosen)))

    def found(self, text: str, numbers: Sequence[int]) -> Browse:
        """The cases a filter of ``text`` found elsewhere (a triage group's records, read from the log)."""
        return replace(self, text=text, visible=tuple(sorted(numbers)))

    def choosing(self, session: Session, numbers: Sequence[int], label: str) -> Browse:
        chosen = tuple(sorted(numbers))
        return replace(self, label=label, chosen=chosen, visible=tuple(session.search(self.text, chosen)))

    def cleared(self, session: Session) -> Browse:
        return Browse(len(session), tuple(range(len(session))), self.current)
