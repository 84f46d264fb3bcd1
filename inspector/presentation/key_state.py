"""Which of the main view's keys do something now: a table, ``NEEDS``.  No textual.

``KeyState`` is what the keys depend on, computed from the case shown (its
selection, its history of changes) and the case list's filter.  ``NEEDS`` names,
for each action, the one fact it needs; an action not in the table always
applies.  The main screen asks ``applies`` for the footer and the palette
(``check_action``: True, or None for a key shown greyed, or False for one not
shown), and redraws the footer only when the state changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..lab.history import History
from .selection import Selection

__all__ = ["HIDDEN", "MODES", "NEEDS", "KeyState"]

# action -> the fact of KeyState it needs (an attribute's name).
NEEDS: dict[str, str] = {
    "clear_filter": "filtered",
    "next_claim": "several_claims", "previous_claim": "several_claims",
    "next_step": "steps", "previous_step": "steps", "explore": "steps",
    "first_failure": "failure",
    "edit_claim": "claims",  # claims were decoded: the answer is strict JSON of the claims shape
    "edit_raw": "loaded", "save": "loaded", "review_save": "loaded",
    "leave_review": "unfiltered",  # Esc clears a filter first
    "decide": "decidable", "decide_with_note": "decidable", "label_claim": "claims_decidable",
    "mutations": "changeable", "mutate": "changeable",
    "exercise": "accepted",
    "repair": "rejected",  # a rejected answer, edited or frozen
    "undo": "can_undo", "redo": "can_redo", "reset": "edited",
}
# Not shown at all when they do not apply (the others are shown greyed).
HIDDEN: frozenset[str] = frozenset({"clear_filter", "leave_review"})
# Keys of one mode only: True, review mode's (a, r, s decide there); False, the keys
# they shadow, which review mode moves (``review_pretty``, ``review_save``).  Not
# shown at all in the other mode.
MODES: dict[str, bool] = {
    "decide": True, "decide_with_note": True, "label_claim": True, "leave_review": True,
    "review_pretty": True, "review_save": True,
    "toggle_pretty": False, "save": False,
}


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

    def applies(self, action: str) -> bool | None:
        """True when the action does something now; else None (greyed), or False for the hidden ones.
        ``action`` may carry its parameters (``mutate('quote.other_line')``, as the palette has it)."""
        name = action.partition("(")[0]
        mode = MODES.get(name)
        if mode is not None and mode != self.reviewing:
            return False
        need = NEEDS.get(name)
        if need is None or getattr(self, need):
            return True
        return False if name in HIDDEN else None
