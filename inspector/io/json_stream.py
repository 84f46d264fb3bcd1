"""A JSON document written in pieces: the arrays too long to hold, item by item.

``inspector mutate`` writes reports whose arrays have as many items as there are
mutants (millions over a large suite): the document is never built as one
object nor as one string.  ``write_json`` writes a value as ``json_dumps`` would
(indented, invisible characters escaped), except that each ``Items`` in it is
written as an array one item at a time, as its iterable yields them, and that a
dict holding one is written member by member.  The text written is valid JSON,
and the same document that ``json_dumps`` writes for the same values.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any

from ..contract.text import json_escape

__all__ = ["Items", "compact", "write_json"]

Write = Callable[[str], object]


def _indented(value: Any, level: int) -> str:
    """``value`` as ``json_dumps`` writes it, nested ``level`` deep (a JSON string
    never holds a raw newline, so every newline of the text is its layout)."""
    text = json_escape(json.dumps(value, indent=2, ensure_ascii=False))
    return text.replace("\n", "\n" + "  " * level) if level else text


def compact(value: Any, level: int = 0) -> str:
    """``value`` on one line, without spaces: an item of a very long array."""
    return json_escape(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


class Items:
    """A JSON array to write item by item, as ``items`` yields them (once).
    ``encode`` writes one item at its nesting level (``compact`` keeps each on one line)."""

    __slots__ = ("encode", "items")

    def __init__(self, items: Iterable[Any], encode: Callable[[Any, int], str] = _indented) -> None:
        self.items = items
        self.encode = encode


def _streams(value: Any) -> bool:
    if isinstance(value, Items):
        return True
    if isinstance(value, dict):
        return any(_streams(member) for member in value.values())
    return False


def write_json(write: Write, value: Any, level: int = 0) -> None:
    """Write ``value`` with ``write`` (a text stream's ``write``), its ``Items`` one by one."""
    pad = "  " * level
    if isinstance(value, Items):
        empty = True
        for item in value.items:
            write(("[\n" if empty else ",\n") + pad + "  " + value.encode(item, level + 1))
            empty = False
        write("[]" if empty else "\n" + pad + "]")
    elif isinstance(value, dict) and _streams(value):
        separator = "{\n"
        for key, member in value.items():
            write(separator + pad + "  " + json_escape(json.dumps(str(key), ensure_ascii=False)) + ": ")
            write_json(write, member, level + 1)
            separator = ",\n"
        write("\n" + pad + "}")
    else:
        write(_indented(value, level))
