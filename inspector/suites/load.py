"""Loading suites, registries, requests and answers from files.

Files are trusted inputs, but people write them by hand: every problem becomes a
``LoadError`` naming the file, the place in it and what is wrong, never a
traceback and never a silently ignored key (unknown members are errors, and so
are duplicate keys, found with the same machinery as in answers).
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

import msgspec

from ..contract.checks import CHECKS, REASONS, STATUSES
from ..contract.decode import describe_syntax_error, find_duplicate_key
from ..contract.jsonscan import path_text
from ..contract.models import DuplicateSourceError, Registry, Request, Source
from ..contract.text import line_col, visible
from .reading import (
    ANSWER_READ_BYTES,
    MAX_REQUEST_BYTES,
    MAX_SUITE_BYTES,
    ReadError,
    read_limited,
    read_prefix,
    read_stream_prefix,
)

__all__ = [
    "Case",
    "CaseError",
    "LoadError",
    "Suite",
    "bundled_suite_paths",
    "load_answer",
    "load_answer_stream",
    "load_registry",
    "load_request",
    "load_sources",
    "load_suite",
    "parse_label",
]

class LoadError(Exception):
    """A file that cannot be used: which file, where in it, what is wrong."""

    def __init__(self, path: str | Path, problem: str, place: str | None = None) -> None:
        self.path = str(path)
        self.place = place
        self.problem = problem
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"{self.path}: {self.place}" if self.place else self.path
        return visible(f"{where}: {self.problem}")


class _CaseFile(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    request: Request
    expected: str
    raw: str | None = None
    raw_base64: str | None = None
    note: str | None = None
    expected_labels: list[str] | None = None
    expected_policy: str | None = None


class _SuiteFile(msgspec.Struct, forbid_unknown_fields=True):
    sources: list[Source]
    cases: list[Any] = []
    kind: str | None = None
    description: str | None = None


@dataclass(frozen=True, slots=True)
class Case:
    """One frozen case: the exact answer text, the request, the expected label."""

    suite: str
    index: int
    id: str
    raw: str | bytes
    request: Request
    expected: str | None  # None for a single answer opened without a frozen label
    note: str | None = None
    expected_labels: tuple[str, ...] | None = None
    expected_policy: str | None = None


@dataclass(frozen=True, slots=True)
class CaseError:
    """A case that could not be loaded; the rest of its suite still can be."""

    suite: str
    index: int
    id: str | None
    place: str
    problem: str

    def __str__(self) -> str:
        return visible(f"{self.place}: {self.problem}")


@dataclass(frozen=True, slots=True)
class Suite:
    path: Path
    name: str
    registry: Registry
    cases: tuple[Case, ...]
    broken: tuple[CaseError, ...] = ()
    kind: str | None = None
    description: str | None = None


def parse_label(label: str) -> tuple[str, str | None]:
    """``"STATUS"`` or ``"STATUS/REASON"`` -> (status, reason); ValueError if unknown."""
    status, _, reason = label.partition("/")
    if status not in STATUSES:
        raise ValueError(f"unknown status {status!r} (known: {', '.join(STATUSES)})")
    if reason:
        allowed = {r for check in CHECKS if check.code == status for r in check.reasons}
        if reason not in REASONS or reason not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            raise ValueError(f"{reason!r} is not a sub-reason of {status} (known: {known})")
    return status, reason or None


def read_bytes(path: str | Path, limit: int = MAX_SUITE_BYTES, what: str = "suite or registry") -> bytes:
    """A whole input file: a regular file (never a FIFO or device), at most ``limit`` bytes."""
    try:
        return read_limited(path, limit, what)
    except ReadError as exc:
        raise LoadError(path, exc.problem) from None


def _parse_json(path: str | Path, data: bytes) -> Any:
    """Untyped strict decode of a whole file, duplicate keys refused."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LoadError(path, f"byte 0x{data[exc.start]:02X} at offset {exc.start} is not UTF-8") from None
    try:
        value = msgspec.json.decode(text)
    except msgspec.DecodeError as exc:
        # The same translation answers get: the offending text, in people's words.
        _, message, offset = describe_syntax_error(text, str(exc))
        message = message.replace("end of input", "end of file")
        line, column = line_col(text, offset)
        raise LoadError(path, f"invalid JSON: {message}", f"{line}:{column}") from None
    except RecursionError:
        raise LoadError(path, "invalid JSON: nested too deeply") from None
    duplicate = find_duplicate_key(text, value)
    if duplicate is not None:
        line, column = line_col(text, duplicate.second[0])
        first_line, first_column = line_col(text, duplicate.first[0])
        raise LoadError(path, f"duplicate key {duplicate.key!r} in {path_text(duplicate.object_path, 'the top-level object')} "
                              f"(first at {first_line}:{first_column})", f"{line}:{column}")
    return value


def _validation_place(exc: msgspec.ValidationError, prefix: str = "") -> tuple[str | None, str]:
    message, _, where = str(exc).partition(" - at `")
    place = where.rstrip("`").removeprefix("$") if where else ""
    place = (prefix + place).lstrip(".") or None
    return place, message


def _check_request(request: Request) -> tuple[str, str] | None:
    """(place, problem) for a request that no answer could satisfy sensibly."""
    if not request.fields:
        return "fields", "no field requested"
    seen: set[str] = set()
    for index, field in enumerate(request.fields):
        if not field:
            return f"fields[{index}]", "empty field name"
        if field in seen:
            return f"fields[{index}]", f"field {field!r} requested twice"
        seen.add(field)
    return None


def _registry(path: str | Path, sources: list[Source]) -> Registry:
    try:
        return Registry(sources)
    except DuplicateSourceError as exc:
        raise LoadError(path, f"duplicate source id {exc.source_id!r} (first at sources[{exc.first}])",
                        f"sources[{exc.second}].id") from None


def load_suite(path: str | Path, strict: bool = True) -> Suite:
    """Load a suite file.

    With ``strict`` (the default) any broken case raises ``LoadError``; without it,
    broken cases are collected in ``Suite.broken`` and the others load.
    """
    path = Path(path)
    value = _parse_json(path, read_bytes(path))
    if not isinstance(value, dict):
        raise LoadError(path, "expected a JSON object with sources and cases")
    cases_value = value.get("cases", [])
    try:
        suite_file = msgspec.convert({**value, "cases": []}, _SuiteFile)
    except msgspec.ValidationError as exc:
        place, message = _validation_place(exc)
        raise LoadError(path, message, place) from None
    if not isinstance(cases_value, list):
        raise LoadError(path, "expected an array", "cases")
    registry = _registry(path, suite_file.sources)
    name = path.stem
    cases: list[Case] = []
    broken: list[CaseError] = []
    ids: dict[str, int] = {}
    for index, item in enumerate(cases_value):
        try:
            cases.append(_case(name, index, item, ids))
        except _CaseProblem as problem:
            error = CaseError(name, index, problem.case_id, problem.place, problem.problem)
            if strict:
                raise LoadError(path, error.problem, error.place) from None
            broken.append(error)
    return Suite(path, name, registry, tuple(cases), tuple(broken), suite_file.kind, suite_file.description)


class _CaseProblem(Exception):
    def __init__(self, case_id: str | None, place: str, problem: str) -> None:
        super().__init__(problem)
        self.case_id, self.place, self.problem = case_id, place, problem


def _case(suite: str, index: int, item: Any, ids: dict[str, int]) -> Case:
    here = f"cases[{index}]"
    case_id = item.get("id") if isinstance(item, dict) and isinstance(item.get("id"), str) else None
    try:
        case = msgspec.convert(item, _CaseFile)
    except msgspec.ValidationError as exc:
        place, message = _validation_place(exc, here)
        raise _CaseProblem(case_id, place or here, message) from None
    if case.id in ids:
        raise _CaseProblem(case.id, f"{here}.id", f"duplicate case id {case.id!r} (first at cases[{ids[case.id]}])")
    ids[case.id] = index
    if (case.raw is None) == (case.raw_base64 is None):
        raise _CaseProblem(case.id, here, "exactly one of raw and raw_base64 is required")
    raw: str | bytes
    if case.raw is not None:
        raw = case.raw
    else:
        try:
            raw = base64.b64decode(case.raw_base64 or "", validate=True)
        except (binascii.Error, ValueError):
            raise _CaseProblem(case.id, f"{here}.raw_base64", "not valid base64") from None
    try:
        parse_label(case.expected)
    except ValueError as exc:
        raise _CaseProblem(case.id, f"{here}.expected", str(exc)) from None
    problem = _check_request(case.request)
    if problem is not None:
        raise _CaseProblem(case.id, f"{here}.request.{problem[0]}", problem[1])
    return Case(suite, index, case.id, raw, case.request, case.expected, case.note,
                tuple(case.expected_labels) if case.expected_labels is not None else None,
                case.expected_policy)


def load_sources(path: str | Path) -> list[Source]:
    """The sources of a registry (or suite) file, as written: ids not yet checked unique."""
    path = Path(path)
    value = _parse_json(path, read_bytes(path))
    if not isinstance(value, dict):
        raise LoadError(path, 'expected a JSON object {"sources": [...]}')
    try:
        registry_file = msgspec.convert({**value, "cases": []}, _SuiteFile)
    except msgspec.ValidationError as exc:
        place, message = _validation_place(exc)
        raise LoadError(path, message, place) from None
    return registry_file.sources


def load_registry(path: str | Path) -> Registry:
    """A registry file: ``{"sources": [...]}`` (a suite file works too; its cases are ignored)."""
    return _registry(path, load_sources(path))


def load_request(path: str | Path) -> Request:
    path = Path(path)
    value = _parse_json(path, read_bytes(path, MAX_REQUEST_BYTES, "request"))
    try:
        request = msgspec.convert(value, Request)
    except msgspec.ValidationError as exc:
        place, message = _validation_place(exc)
        raise LoadError(path, message, place) from None
    problem = _check_request(request)
    if problem is not None:
        raise LoadError(path, problem[1], problem[0])
    return request


def load_answer(path: str | Path) -> bytes:
    """The candidate answer's exact bytes (decoding them is the contract's job).

    Only as much as could pass the size check is read, and a little more: an
    answer longer than that is TOO_LARGE whatever follows, so a huge file (or a
    symlink to ``/dev/zero``) costs no more than a small one."""
    try:
        return read_prefix(path, ANSWER_READ_BYTES)
    except ReadError as exc:
        raise LoadError(path, exc.problem) from None


def load_answer_stream(stream: BinaryIO, name: str = "standard input") -> bytes:
    """An answer from standard input, with the same bound as an answer file."""
    try:
        return read_stream_prefix(stream, ANSWER_READ_BYTES, name)
    except ReadError as exc:
        raise LoadError(name, exc.problem) from None


def bundled_suite_paths() -> list[Path]:
    """The suites shipped with inspector: the checkout's fixtures/, else the package's copy."""
    here = Path(__file__).resolve().parent.parent
    for folder in (here.parent / "fixtures", here / "bundled"):
        paths = sorted(folder.glob("*.json"))
        if paths:
            return paths
    return []


def load_suites(paths: Iterable[str | Path], strict: bool = True) -> list[Suite]:
    return [load_suite(path, strict=strict) for path in paths]
