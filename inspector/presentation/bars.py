"""Bars drawn in text: a count out of a total, to an eighth of a cell.  No textual.

The suite summary, the mutation report and the triage overview draw their bars
with ``bar``; a view only styles the string it returns.
"""

from __future__ import annotations

__all__ = ["bar"]

_EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(value: int, total: int, width: int) -> str:
    """A horizontal bar of ``width`` cells filled value/total, to an eighth of a cell."""
    if total <= 0 or width <= 0:
        return " " * max(width, 0)
    eighths = round(8 * width * value / total)
    full, part = divmod(eighths, 8)
    text = "█" * full + (_EIGHTHS[part] if part else "")
    return text.ljust(width)
