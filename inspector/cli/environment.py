"""The terminal-size hints of the environment, made safe to read.

``COLUMNS`` and ``LINES`` are read by rich (every report table's console, and
the console Textual keeps for the inspector) with ``str.isdigit`` then ``int``:
``COLUMNS=²`` passes the first and fails the second, as do 4,301 digits, and
the command stopped with "internal error" before doing anything.  They are
hints: one that is not a plain number of the ASCII digits is dropped from this
process's environment (the terminal's own size, or the piped width, is used
then), before anything reads it.
"""

from __future__ import annotations

import os

from ..presentation.numbers import ascii_digits

__all__ = ["SIZE_HINTS", "drop_unreadable_size_hints"]

SIZE_HINTS = ("COLUMNS", "LINES")
# More digits than any terminal has columns or lines.
_MAX_DIGITS = 6


def drop_unreadable_size_hints() -> list[str]:
    """Drop ``COLUMNS``/``LINES`` when they are not ASCII digits (at most six);
    returns the names dropped."""
    dropped = []
    for name in SIZE_HINTS:
        value = os.environ.get(name)
        if value is not None and not (ascii_digits(value.strip()) and len(value.strip()) <= _MAX_DIGITS):
            del os.environ[name]
            dropped.append(name)
    return dropped
