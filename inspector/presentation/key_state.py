"""Which of the main view's keys do something now (``KeyState``, ``Needs``).  No textual.

``KeyState`` is what the keys depend on, computed from the case shown (its
selection, its history of changes) and the case list's filter: facts, and
nothing about any key.  What a key needs is declared with the key
(``tui.keys.Key``: ``needs``, ``hidden``, and its screen for review mode; the
palette's exercise with its command) and handed to ``applies``.  The main screen
asks it for the footer and the palette (``check_action``: True, or None for a key
shown greyed, or False for one not shown), and redraws the footer only when the
state changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..lab.history import History
from .selection import Selection

__all__ = ["ALWAYS", "Fact", "KeyState", "Needs"]

# The facts of KeyState a key can need (its members' names; a test holds the two together).
Fact = Literal["claims", "several_claims", "steps", "failure", "loaded", "changeable", "accepted", "rejected",
               "can_undo", "can_redo", "edited", "filtered", "unfiltered", "reviewing", "decidable",
               "claims_decidable", "searched", "marked", "annotated"]


@dataclass(frozen=True, slots=True)
class Needs:
    """What one key needs to do something, as declared with it."""

    fact: Fact | None = None  # the fact of KeyState it needs; None: it always applies
    hidden: bool = False  # not shown at all when the fact is false (else shown greyed)
    # Keys of one mode only: True, review mode's (a, r, s decide there); False, the keys they shadow,
    # which review mode moves (r and s to i and ^s).  Not shown at all in the other mode.
    review: bool | None = None


ALWAYS = Needs()


@dataclass(frozen=True, slots=True)
class KeyState:
    """What the main view's keys depend on, for the case shown."""

    claims: bool = False  # the answer decoded into claims
    several_claims: bool = False  # more than one: [ and ] move between them
    steps: bool = False  # the trace has steps
    failure: bool = False  # a first failure to jump to
    loaded: bool = False  # the case could be loaded: there is an answer to edit or save
    changeable: bool = False  # the lab has the case's answer to change (its history)
    accepted: bool = False  # ... and the case as shown is accepted: the exercise starts there
    rejected: bool = False  # the case as shown is rejected: repair
    can_undo: bool = False
    can_redo: bool = False
    edited: bool = False  # changed from the frozen case: reset
    filtered: bool = False  # the list is filtered, or the filter field is open
    unfiltered: bool = True  # the opposite of filtered
    reviewing: bool = False  # review mode: a, r, s decide
    decidable: bool = False  # ... and the case shown can be decided (loaded, not edited in the lab)
    claims_decidable: bool = False  # ... and it has claims to label
    # A triage group's records (set by its screen over these): a search is set (n, N step through its matches),
    # some record is marked (its marks to jump between, to clear), the record shown is annotated (to clear).
    searched: bool = False
    marked: bool = False
    annotated: bool = False

    @classmethod
    def of(cls, selection: Selection | None, history: History | None, *, filtered: bool,
           reviewing: bool = False) -> KeyState:
        if selection is None:
            return cls(filtered=filtered, unfiltered=not filtered, reviewing=reviewing)
        report = selection.report
        verdict = report.verdict
        changeable = history is not None
        decidable = reviewing and verdict is not None and report.case is not None and report.parent is None
        return cls(
            claims=bool(selection.claims),
            several_claims=len(selection.claims) > 1,
            steps=bool(selection.steps),
            failure=selection.first_failure is not None,
            loaded=not report.broken,
            changeable=changeable,
            accepted=changeable and verdict is not None and verdict.ok,
            rejected=verdict is not None and not verdict.ok,
            can_undo=history is not None and history.can_undo,
            can_redo=history is not None and history.can_redo,
            edited=history is not None and history.edited,
            filtered=filtered,
            unfiltered=not filtered,
            reviewing=reviewing,
            decidable=decidable,
            claims_decidable=decidable and bool(selection.claims),
        )

    def applies(self, needs: Needs) -> bool | None:
        """True when a key with these needs does something now; else None (greyed), or False (not shown:
        a hidden key, or a key of the other mode)."""
        if needs.review is not None and needs.review != self.reviewing:
            return False
        if needs.fact is None or getattr(self, needs.fact):
            return True
        return False if needs.hidden else None
