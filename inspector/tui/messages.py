"""Messages the views send to the app when someone clicks in them.

The views never change the selection themselves: they ask, the app decides
and shows the new selection everywhere at once.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

__all__ = ["CaseChosen", "CasesChosen", "CheckChosen", "ClaimChosen"]


@dataclass
class CaseChosen(Message):
    """Open this case (an entry number of the session)."""

    number: int


@dataclass
class ClaimChosen(Message):
    """Make this claim (its index in the answer) the current one."""

    claim: int


@dataclass
class CheckChosen(Message):
    """Select this check's step for the current claim."""

    check_id: str


@dataclass
class CasesChosen(Message):
    """Show only these cases in the list (from the summary or the palette)."""

    numbers: list[int]
    description: str
