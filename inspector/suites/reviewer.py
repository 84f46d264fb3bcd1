"""Who decided, and when: the name and time stamped on every human decision
(a suite review's decisions and claim labels, a triage record's annotation).

The name is the one given (``--reviewer``), else git's ``user.name``, else the
login; the time is UTC to the second, ISO 8601 with a ``Z``.
"""

from __future__ import annotations

import getpass
import os
import subprocess
from datetime import UTC, datetime

__all__ = ["MAX_NAME", "MAX_NOTE", "check_name", "check_note", "now_stamp", "reviewer_name"]

MAX_NAME = 200
MAX_NOTE = 4000  # characters: a note is a sentence or a paragraph, not a file


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
