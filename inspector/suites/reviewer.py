"""Who decided, and when: the name and time stamped on every human decision
(a suite review's decisions and claim labels, a triage record's annotation).

The name is the one given (``--reviewer``), else git's ``user.name``, else the
login; the time is UTC to the second, ISO 8601 with a ``Z``.

``Signed`` is the signature every human decision carries (who, when, under which
verifier, why), declared once: a suite's ``review``, ``history`` and
``human_labels`` members and its exported ``human`` (``suites.load``), a pending
review's decisions and labels (``suites.review``), a triage record's annotation
(``triage.annotations``) and the verdict panel's lines (``presentation.review_view``)
inherit it, so that their JSON stays flat: the same members, under the same keys.
"""

from __future__ import annotations

import getpass
import os
import subprocess
from datetime import UTC, datetime
from typing import Any, ClassVar

import msgspec

__all__ = ["MAX_NAME", "MAX_NOTE", "Signed", "check_name", "check_note", "now_stamp", "reviewer_name"]

MAX_NAME = 200
MAX_NOTE = 4000  # characters: a note is a sentence or a paragraph, not a file


class Signed(msgspec.Struct, frozen=True, kw_only=True):
    """Who decided (``reviewer``), when (``at``, ``now_stamp``'s form), under which
    verifier (``verifier``: ``contract.version.VERIFIER`` then) and why (``note``,
    None: none given): the signature of every human decision.

    A kind of decision inherits it and declares what was decided.  The four members
    are keyword-only, so msgspec places them after the kind's own positional members
    (``decision``, ``claim``...) and before its keyword-only ones, which is where
    every file has them.  A kind whose files interleave its own members with these
    (a suite's ``review`` and ``history``) names that order in ``FILE_ORDER``, and
    is written by ``document()``."""

    reviewer: str
    at: str
    verifier: str
    note: str | None = None

    # The order of the members in the kind's files, where it is not msgspec's (empty: msgspec's).
    FILE_ORDER: ClassVar[tuple[str, ...]] = ()

    def signature(self) -> dict[str, Any]:
        """The four members, to sign another decision as this one is: ``Review(..., **decision.signature())``."""
        return {"reviewer": self.reviewer, "at": self.at, "verifier": self.verifier, "note": self.note}

    def document(self) -> dict[str, Any]:
        """The decision as its files and JSON outputs hold it: ``msgspec.to_builtins``, its
        members in ``FILE_ORDER`` where the kind declares one (any other member after them)."""
        found: dict[str, Any] = msgspec.to_builtins(self)
        if not self.FILE_ORDER:
            return found
        return {**{key: found[key] for key in self.FILE_ORDER if key in found}, **found}


def reviewer_name(given: str | None = None) -> str:
    """The reviewer's name: ``given``, else git's ``user.name``, else the login,
    else ``"unknown"`` (never empty).  ValueError for a given name that is unusable."""
    if given is not None:
        return check_name(given)
    for candidate in (_git_user_name(), _login()):
        if candidate:
            try:
                return check_name(candidate)
            except ValueError:
                continue
    return "unknown"


def check_name(name: str) -> str:
    """A reviewer's name as stored: stripped, non-empty, one line, at most ``MAX_NAME`` characters."""
    name = name.strip()
    if not name:
        raise ValueError("the reviewer's name is empty")
    if len(name) > MAX_NAME:
        raise ValueError(f"the reviewer's name is {len(name)} characters long (at most {MAX_NAME})")
    if any(char in name for char in "\n\r"):
        raise ValueError("the reviewer's name has a line break")
    return name


def check_note(note: str | None) -> str | None:
    """A note as stored: None for an empty one, ValueError past ``MAX_NOTE`` characters."""
    if note is None or not note.strip():
        return None
    if len(note) > MAX_NOTE:
        raise ValueError(f"the note is {len(note)} characters long (at most {MAX_NOTE})")
    return note


def now_stamp(moment: datetime | None = None) -> str:
    """``2026-12-02T06:30:00Z``: UTC, to the second."""
    moment = moment or datetime.now(UTC)
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _git_user_name() -> str | None:
    try:
        done = subprocess.run(["git", "config", "user.name"], capture_output=True, text=True, timeout=5,
                              stdin=subprocess.DEVNULL, env={**os.environ, "GIT_TERMINAL_PROMPT": "0"})
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _login() -> str | None:
    try:
        return getpass.getuser()
    except (OSError, KeyError, ImportError):
        return None
