"""``inspector mutate --format stryker``: the mutation-testing-report-schema, for
Stryker's HTML report (mutation-testing-elements), written as the mutants come.

Each accepted case is a file whose source is its raw answer; each of the
contract's checks is a test (``testFiles``), and a mutant names the checks that
were applied to it (``coveredBy``) and, when rejected, the one that rejected it
(``killedBy``), so the report's Tests view shows which check killed what.

The project's outcomes in the schema's statuses (docs/mutate.md says the same):

- meant to be rejected, and rejected: ``Killed``, by the check that failed first;
- meant to be rejected, and accepted (a hole in the contract): ``Survived``;
- harmless, and rejected (the contract is stricter than intended): ``Survived``,
  with a ``statusReason`` saying so.  It did not get past the checks, but it is a
  defect of the contract the score must show, not hide (``Ignored`` would);
- harmless, and accepted, as intended: ``Ignored`` (an equivalent mutant, outside
  the score).

Locations are where the report's readers look: lines break at CR, LF, CRLF,
U+2028 and U+2029, and columns count UTF-16 code units, both from 1
(``Lines.position``).  One mutant is one line of the file, without spaces:
over a large registry there are millions.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from typing import Any

from ..contract.checks import CHECKS
from ..io.json_stream import Items, Write, compact, write_json
from .mutation_testing import MutantResult, MutationRun, case_name

__all__ = ["STRYKER_THRESHOLDS", "TEST_FILE", "TEST_IDS", "Lines", "status_of", "write_stryker"]

# The mutation-testing-report-schema's thresholds (percent): the HTML report's colours.
STRYKER_THRESHOLDS = {"high": 80, "low": 60}
# The contract's checks as the report's tests: one test file, a test per check, in
# contract order.  Short ids ("1" ... "18"), since every mutant lists those covering it.
TEST_FILE = "inspector/contract/checks.py"
TEST_IDS: dict[str, str] = {check.id: str(number) for number, check in enumerate(CHECKS, 1)}

_BREAK = re.compile("\r\n|[\r\n\u2028\u2029]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


class Lines:
    """A source as the report's readers count it: the offsets (code points) where its
    lines start, after each CR, LF, CRLF, U+2028 and U+2029, and where its characters
    beyond U+FFFF are (each is two UTF-16 code units)."""

    __slots__ = ("astral", "starts")

    def __init__(self, text: str) -> None:
        self.starts = [0, *(match.end() for match in _BREAK.finditer(text))]
        self.astral = [match.start() for match in _ASTRAL.finditer(text)] if not text.isascii() else []

    def position(self, offset: int) -> dict[str, int]:
        """The schema's 1-based ``{"line", "column"}`` of a code point offset, the column
        in UTF-16 code units from the line's start."""
        line = bisect_right(self.starts, offset) - 1
        start = self.starts[line]
        column = offset - start
        if self.astral:
            column += bisect_left(self.astral, offset) - bisect_left(self.astral, start)
        return {"line": line + 1, "column": column + 1}


def status_of(result: MutantResult) -> str:
    """The schema's status of a mutant (see the module's docstring)."""
    if result.mutant.harmless:
        return "Survived" if result.killed else "Ignored"
    return "Killed" if result.killed else "Survived"


def _mutant(number: int, result: MutantResult, lines: Lines) -> dict[str, Any]:
    start, end, replacement = result.mutant.edit
    found: dict[str, Any] = {
        "id": str(number),
        "mutatorName": result.mutant.mutation,
        "description": result.mutant.variant,
        "replacement": replacement,
        "location": {"start": lines.position(start), "end": lines.position(end)},
        "status": status_of(result),
        "statusReason": result.reason,
        "coveredBy": [TEST_IDS[check] for check in result.verdict.covered],
    }
    check = result.verdict.check
    if check is not None and not result.mutant.harmless:
        found["killedBy"] = [TEST_IDS[check.id]]
    return found


def _names(run: MutationRun) -> list[str]:
    """Each accepted case's file name, ``suite/case.json``; a name given twice (the
    same suite twice) gets `` (2)``, so that no file's mutants land in another's."""
    seen: set[str] = set()
    names = []
    for parent in run.parents:
        name, number = f"{case_name(parent)}.json", 1
        while name in seen:
            number += 1
            name = f"{case_name(parent)} ({number}).json"
        seen.add(name)
        names.append(name)
    return names


def write_stryker(run: MutationRun, write: Write, version: str) -> None:
    """Verify every mutant of ``run`` and write its report with ``write``, file by file."""
    results = run.stream()
    pending: list[MutantResult] = []  # the first mutant of the next case, read one too far

    def mutants_of(index: int, lines: Lines) -> Any:
        parent = run.parents[index]
        while True:
            result = pending.pop() if pending else next(results, None)
            if result is None:
                return
            if result.parent is not parent:
                pending.append(result)
                return
            yield _mutant(run.tally.mutants, result, lines)

    def files() -> Any:
        for index, (name, parent) in enumerate(zip(_names(run), run.parents, strict=True)):
            source = parent.verdict.text or ""  # type: ignore[union-attr]  # a loaded case: its verdict is set
            yield name, {"language": "json", "source": source,
                         "mutants": Items(mutants_of(index, Lines(source)), compact)}

    write('{\n  "schemaVersion": "1",\n  "thresholds": ')
    write_json(write, dict(STRYKER_THRESHOLDS), 1)
    write(',\n  "framework": ')
    write_json(write, {"name": "inspector mutate", "version": version}, 1)
    write(',\n  "testFiles": ')
    write_json(write, {TEST_FILE: {"tests": [{"id": TEST_IDS[check.id], "name": f"{check.id}: {check.title} "
                                              f"({check.code})"} for check in CHECKS]}}, 1)
    write(',\n  "files": {')
    first = True
    for name, file in files():
        write(("\n" if first else ",\n") + "    " + compact(name) + ": ")
        write_json(write, file, 2)
        first = False
    for result in results:  # pragma: no cover - every mutant belongs to an accepted case
        raise AssertionError(f"a mutant of no accepted case: {result.case}")
    write("\n  }\n}\n" if not first else "}\n}\n")
