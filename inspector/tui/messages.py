"""Messages the views, the palette and the lab's screens send to the main screen.

Nobody but the main screen changes what is shown: a click, a palette command or
the summary's Enter asks with a message, the main screen decides and shows the
new selection everywhere at once.  The lab's requests (a change, a mutation, an
undo, a mutant of the report) are handed to its ``Lab``, which applies them to
the case shown; no screen calls another screen's actions.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textual.message import Message

from ..lab.history import Change

__all__ = ["AnswerChanged", "CaseChosen", "CasesChosen", "CheckChosen", "ClaimChosen", "FileChosen", "MutantChosen",
           "MutationChosen", "RecordAnnotated", "ReviewAsked", "ReviewLeft", "UndoAsked"]


@dataclass
class CaseChosen(Message):
    """Open this case (its number in the session)."""

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


@dataclass
class FileChosen(Message):
    """Load this suite file into the session (from the palette)."""

    path: Path


@dataclass
class AnswerChanged(Message):
    """Apply this change to the current case's answer (an edit, a mutation, a repair).
    ``replaces``: it takes the place of the latest change (a cycling mutation's next
    variant), so that undo goes back to the answer before the cycle."""

    change: Change
    replaces: bool = False


@dataclass
class MutantChosen(Message):
    """Open this case (its number in the session) with this change of its frozen answer
    applied: a mutant chosen in the mutation report, opened in the lab."""

    number: int
    change: Change


@dataclass
class MutationChosen(Message):
    """Apply this mutation (its dotted name) to the current claim, again: its next variant
    (the mutation menu's Enter; in predict mode the lab asks for a prediction first)."""

    name: str


@dataclass
class UndoAsked(Message):
    """Undo the latest change of the current case's answer (the exercise's restore step)."""


@dataclass
class RecordAnnotated(Message):
    """A triage record's annotation was kept or cleared (its number in the group's session): the
    overview's counts are joined again when it is shown."""

    number: int


@dataclass
class ReviewAsked(Message):
    """Enter review mode on the open suites (the palette's "Review pending cases"), as
    ``reviewer`` (None: ``suites.reviewer.reviewer_name()``)."""

    reviewer: str | None = None


@dataclass
class ReviewLeft(Message):
    """Leave review mode: every case again (the decisions stay in the pending file)."""
