"""Whole numbers typed into a form: one parser for every numeric field of the views.

``str.isdigit`` is true for ``²`` and ``٣`` and any Unicode digit, which ``int``
then refuses or reads as another number, and ``int`` refuses more than 4,300
digits (``sys.get_int_max_str_digits``) with a ValueError: a field checked with
``isdigit`` and read with ``int`` crashes the app on them.  Here a number is
ASCII digits only (``,`` and ``_`` allowed between them as separators), its
length checked before it is converted, and a number outside the field's range
is refused with a sentence saying what is allowed.
"""

from __future__ import annotations

import re

__all__ = ["NumberError", "ascii_digits", "whole_number"]

_NUMBER = re.compile(r"[0-9]+(?:[,_][0-9]+)*", re.ASCII)


class NumberError(ValueError):
    """What a field holds is not a number it allows: the sentence to show."""


def ascii_digits(text: str) -> bool:
    """Whether ``text`` is one or more of the ASCII digits 0-9 (``"²".isdigit()`` is true, this is not)."""
    return text.isascii() and text.isdigit()


def whole_number(text: str, *, least: int = 1, most: int, what: str = "a number") -> int:
    """The whole number ``text`` holds (spaces around it ignored; ``1,000`` and
    ``1_000`` are 1000), from ``least`` to ``most``; NumberError, saying what is
    allowed, for anything else: a sign, a fraction, a Unicode digit, a number
    too large to read."""
    allowed = f"{what}: a whole number from {least:,} to {most:,}"
    written = text.strip()
    if not written:
        raise NumberError(f"{allowed}; the field is empty")
    if _NUMBER.fullmatch(written) is None:
        raise NumberError(f"{allowed} (digits 0-9 only)")
    digits = written.replace(",", "").replace("_", "").lstrip("0") or "0"
    if len(digits) > len(str(most)):  # before int(): more than 4,300 digits is a ValueError there
        raise NumberError(f"{allowed}; {len(digits):,} digits is more")
    number = int(digits)
    if not least <= number <= most:
        raise NumberError(f"{allowed}; {number:,} is not")
    return number
