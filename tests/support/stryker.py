"""How Stryker's HTML report (mutation-testing-elements) reads a mutant's location,
written from its behaviour, independently of ``inspector.lab.stryker``: the tests
check the report's locations against it."""

from __future__ import annotations

__all__ = ["mutated", "reader_offset", "utf16_offset"]


def reader_offset(text: str, line: int, column: int) -> int:
    """Where mutation-testing-elements puts a (line, column) of ``text``, in UTF-16
    code units: its line starts (after CR, LF, CRLF, U+2028, U+2029, counted in
    UTF-16 units) plus the column, both from 1.  Written here from its behaviour,
    independently of ``Lines``."""
    units = text.encode("utf-16-le")
    code = [int.from_bytes(units[i:i + 2], "little") for i in range(0, len(units), 2)]
    starts, position = [0], 0
    while position < len(code):
        unit = code[position]
        position += 1
        if unit == 0x0D and position < len(code) and code[position] == 0x0A:
            position += 1
        if unit in (0x0A, 0x0D, 0x2028, 0x2029):
            starts.append(position)
    return starts[line - 1] + column - 1


def utf16_offset(text: str, offset: int) -> int:
    return len(text[:offset].encode("utf-16-le")) // 2


def mutated(source: str, mutant: dict) -> str:
    """The mutant as the report builds it: the source with the mutant's replacement
    between its start and end (line and UTF-16 column, from 1)."""
    units = source.encode("utf-16-le")
    where = mutant["location"]
    start = reader_offset(source, where["start"]["line"], where["start"]["column"])
    end = reader_offset(source, where["end"]["line"], where["end"]["column"])
    return (units[:2 * start] + mutant["replacement"].encode("utf-16-le") + units[2 * end:]).decode("utf-16-le")
