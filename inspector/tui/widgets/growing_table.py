"""A table whose rows grow while a count runs (``GrowingTable``): the triage
overview's groups and time histogram."""

from __future__ import annotations

from textual.geometry import Size

from .table import SafeTable

__all__ = ["GrowingTable"]


class GrowingTable(SafeTable):
    """A table whose rows grow while the count runs: its scrollable height is
    rounded up to ``reserve`` rows meanwhile (the rows past the last drawn
    blank), so that a snapshot with one more group or one more bucket repaints
    rows instead of laying the screen out again (tens of milliseconds, a key
    press waiting behind it); exact again once the count is done."""

    reserve = 1

    def _update_virtual_size(self) -> None:
        total = sum(self._widths) + self.gap * max(0, len(self._widths) - 1)
        rows = -(-self.row_count // self.reserve) * self.reserve
        self.virtual_size = Size(total, rows + (1 if self.show_header else 0))

    def settle(self) -> None:
        """The count is done: the exact height."""
        self.reserve = 1
        self._update_virtual_size()

    def grow(self) -> None:
        """A count starts again: rows grow again (the class's reserve)."""
        self.reserve = type(self).reserve
        self._update_virtual_size()
