"""What leaving a screen, or quitting, would lose: the words of the question ``q`` and ``^q`` ask.

Each screen says what it holds that is kept nowhere else (``Held``): the sessions
whose lab edits are not saved and whose marks could not be kept beside the log
(their marks file refused them; the others are in it already), a review with
cases left to decide (its decisions are in the pending file already: what is
lost is the walk, not a decision), and anything else in its own words (the raw
editor's unapplied text).  ``lost_words`` counts them,
a session held by two screens (an opened group kept by the overview) once.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .record_session import RecordSession
from .review import ReviewSession
from .session import Session

__all__ = ["Held", "lost_words"]


@dataclass(frozen=True, slots=True)
class Held:
    """What one screen holds that leaving it loses."""

    sessions: tuple[Session, ...] = ()
    review: ReviewSession | None = None
    others: tuple[str, ...] = ()  # already in words


def _plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def lost_words(held: Iterable[Held]) -> tuple[str, ...]:
    """What would be lost, a phrase each (nothing: leaving loses nothing, ask nothing)."""
    sessions: dict[int, Session] = {}
    reviews: dict[int, ReviewSession] = {}
    others: list[str] = []
    for one in held:
        sessions.update((id(session), session) for session in one.sessions)
        if one.review is not None:
            reviews[id(one.review)] = one.review
        others.extend(one.others)
    words: list[str] = []
    edited = [(session, len(session.unsaved_edits())) for session in sessions.values()]
    edited = [(session, count) for session, count in edited if count]
    if edited:
        records = all(isinstance(session, RecordSession) for session, _ in edited)
        count = sum(count for _, count in edited)
        groups = f" in {_plural(len(edited), 'group')}" if records and len(edited) > 1 else ""
        words.append(f"lab edits of {_plural(count, 'record' if records else 'case')}{groups}, not saved "
                     "(s saves one as a counterexample)")
    marked = [session.unkept_marks() for session in sessions.values() if isinstance(session, RecordSession)]
    marked = [count for count in marked if count]
    if marked:
        groups = f" in {_plural(len(marked), 'group')}" if len(marked) > 1 else ""
        words.append(f"{_plural(sum(marked), 'marked record')}{groups} whose marks file could not be written "
                     "(ctrl+e exports them)")
    for review in reviews.values():
        if review.left:
            words.append(f"the review's walk: {review.left:,} of {len(review.queue):,} cases left to decide (the "
                         f"{_plural(review.decided, 'decision')} taken stay in the pending file)")
    words.extend(others)
    return tuple(words)
