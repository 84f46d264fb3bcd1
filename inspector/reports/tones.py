"""The semantic palette: what a thing on screen means, never how it looks.

The presentation layer gives every mark, label and highlight a ``Tone``; each
front end maps tones to its own styles once (the TUI in ``tui/tones.py``, the
command line in its table printer).
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Tone"]


class Tone(StrEnum):
    GOOD = "good"  # passed, accepted, matches
    BAD = "bad"  # failed, rejected, differs
    WARN = "warn"  # a call-out: a weaker check would have let this through
    PENDING = "pending"  # not reached, not evaluable, not known yet
    MUTED = "muted"  # context: labels, notes, explanations around the facts
    PLAIN = "plain"  # the facts themselves
