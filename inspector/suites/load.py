"""Loading suites, registries, requests and answers from files.

Files are trusted inputs, but people write them by hand: every problem becomes a
``LoadError`` naming the file, the place in it and what is wrong, never a
traceback and never a silently ignored key (unknown members are errors, and so
are duplicate keys, found with the same machinery as in answers).
"""

from __future__ import annotations

import base64
import binascii
import gc
import json
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any, BinaryIO, ClassVar, TypeVar

import msgspec

from ..contract.checks import CHECKS, REASONS, STATUSES
from ..contract.decode import describe_syntax_error, find_duplicate_key, repeats_a_key
from ..contract.evidence import LABELS, POLICIES
from ..contract.jsonscan import DuplicateKey, max_depth, path_text, scan
from ..contract.jsonscan import Path as JsonPath
from ..contract.models import DuplicateSourceError, Registry, Request, Source
from ..contract.text import line_col, visible
from ..io.reading import (
    ANSWER_READ_BYTES,
    MAX_REQUEST_BYTES,
    MAX_SUITE_BYTES,
    ReadError,
    read_limited,
    read_prefix,
    read_stream_prefix,
)
from ..io.writing import protect
from .reviewer import Signed

__all__ = [
    "ACCEPT_DECISION",
    "DECISIONS",
    "HUMAN_DECISIONS",
    "HUMAN_LABELS",
    "METADATA_FILE_CHARS",
    "METADATA_KEY_CHARS",
    "METADATA_MEMBERS",
    "METADATA_VALUE_CHARS",
    "NOT_ASSESSABLE",
    "REJECT_DECISION",
    "SKIP_DECISION",
    "Case",
    "CaseError",
    "CaseMetadata",
    "ClaimLabel",
    "HumanDecision",
    "LabelChange",
    "Review",
    "LoadError",
    "Provenance",
    "Suite",
    "bundled_root",
    "bundled_suite_paths",
    "collector_paused",
    "load_answer",
    "load_answer_stream",
    "load_registry",
    "load_request",
    "load_sources",
    "load_suite",
    "parse_json",
    "parse_label",
    "parse_request",
]

# Nesting levels any file may have (the top-level value is level 1).  A suite
# nests about 6 (answers are strings inside it); 64 is far beyond any real file
# and far below where anything recursive could fail.
MAX_FILE_DEPTH = 64


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


# A saved edit: a mutation's dotted name, or a repair's edit
# ({"what", "claim", "member", "old", "new"}).
_EditRecord = str | dict[str, str | int | None]


class Provenance(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Where a saved counterexample came from (``inspector.lab.save``): the parent
    suite and case, the sha256 of the parent's raw answer, the edits and
    mutations applied to it in order, and the inspector version that saved it."""

    parent_suite: str
    parent_case: str
    parent_sha256: str
    edits: tuple[_EditRecord, ...]
    inspector_version: str
    verifier: str | None = None  # contract.version.VERIFIER when saved (absent in files saved before it)


# What a reviewer may decide about a case's verdict against its frozen label
# (``inspector review``): accept (the verdict becomes the label) or reject (the
# label stays: the case is a known regression).  A skip is never written into a suite.
ACCEPT_DECISION, REJECT_DECISION, SKIP_DECISION = "accept", "reject", "skip"
DECISIONS = (ACCEPT_DECISION, REJECT_DECISION, SKIP_DECISION)
# A claim's human label: the label lens's three, and one for a claim a person cannot judge.
NOT_ASSESSABLE = "NOT_ASSESSABLE"
HUMAN_LABELS = ("SUPPORTED", "CONTRADICTED", "INSUFFICIENT_EVIDENCE", NOT_ASSESSABLE)


class Review(Signed, frozen=True, forbid_unknown_fields=True):
    """The last review decision applied to a case (signed: ``Signed``): the verdict
    they saw, and the case's digest (``case_sha256``) once applied, so that a case
    edited since is pending again."""

    decision: str  # accept or reject
    verdict: str
    sha256: str

    # As suites have always had it: the verdict and digest between the verifier and the note.
    FILE_ORDER: ClassVar[tuple[str, ...]] = ("decision", "reviewer", "at", "verifier", "verdict", "sha256", "note")


class LabelChange(Signed, frozen=True, forbid_unknown_fields=True):
    """One relabelling of a case, kept in its ``history`` (signed: ``Signed``): the old and new label."""

    old: str
    new: str
    member: str = "expected"  # or expected_labels / expected_policy (joined with commas)

    FILE_ORDER: ClassVar[tuple[str, ...]] = ("old", "new", "reviewer", "at", "verifier", "member", "note")


class ClaimLabel(Signed, frozen=True, forbid_unknown_fields=True):
    """A person's label of one claim of a case's answer (by its index), signed (``Signed``)."""

    claim: int
    label: str


_SHA256 = re.compile(r"[0-9a-f]{64}")

# A reviewer's decision on a case (a triage record's annotation, carried by its export).
HUMAN_DECISIONS = ("true_rejection", "false_rejection", "true_acceptance", "false_acceptance")


class HumanDecision(Signed, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """What a reviewer decided about a case's verdict (``triage.annotations``): the contract was right
    (``true_rejection``, ``true_acceptance``) or wrong (``false_rejection``, ``false_acceptance``), signed
    (``Signed``: who and when, under which ``verifier``, why)."""

    decision: str

    def __post_init__(self) -> None:
        if self.decision not in HUMAN_DECISIONS:
            raise ValueError(f"{self.decision!r} is not a decision: one of {', '.join(HUMAN_DECISIONS)}")


# A triage record's metadata as its exported case carries it (``CaseMetadata``): at most this many
# members, each key and each string value at most this many characters (a log's line can hold megabytes).
METADATA_MEMBERS = 100
METADATA_KEY_CHARS = 256
METADATA_VALUE_CHARS = 1024
METADATA_FILE_CHARS = 4096


class CaseMetadata(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Where an exported triage record came from (its log as the triage named it, its line, the byte offset
    the line starts at) and its metadata (``members``: every member of the line but the answer and the request,
    a nested object's members named by their dotted path, each value a string, a number, a boolean or null;
    ``more``: how many members past ``METADATA_MEMBERS`` were left out).  The note has the whole metadata, as
    free text; this is the structured copy that ``audit`` and the inspector show."""

    file: str
    line: int
    offset: int
    members: dict[str, str | int | float | bool | None] = {}
    more: int = 0


def _check_metadata(metadata: CaseMetadata) -> tuple[str, str] | None:
    """(place, problem) for a metadata member past its bounds or with a place no log line has."""
    if not metadata.file or len(metadata.file) > METADATA_FILE_CHARS:
        return "metadata.file", f"a log's name of 1 to {METADATA_FILE_CHARS:,} characters"
    if metadata.line < 1:
        return "metadata.line", "a line number is 1 or more"
    if metadata.offset < 0:
        return "metadata.offset", "a byte offset is 0 or more"
    if metadata.more < 0:
        return "metadata.more", "a count is 0 or more"
    if len(metadata.members) > METADATA_MEMBERS:
        return "metadata.members", f"{len(metadata.members):,} members, more than {METADATA_MEMBERS}"
    for key, value in metadata.members.items():
        if not key or len(key) > METADATA_KEY_CHARS:
            return "metadata.members", f"a key of 1 to {METADATA_KEY_CHARS} characters, not {len(key):,}"
        if isinstance(value, str) and len(value) > METADATA_VALUE_CHARS:
            return f"metadata.members.{key}", f"{len(value):,} characters, more than {METADATA_VALUE_CHARS:,}"
    return None


class _CaseFile(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    request: Request
    expected: str | None  # null: unlabelled, only in a case a person annotated (human)
    raw: str | None = None
    raw_base64: str | None = None
    note: str | None = None
    expected_labels: list[str] | None = None
    expected_policy: str | None = None
    provenance: Provenance | None = None
    review: Review | None = None
    history: list[LabelChange] | None = None
    human_labels: list[ClaimLabel] | None = None
    human: HumanDecision | None = None
    metadata: CaseMetadata | None = None


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
    expected: str | None  # None for a single answer opened without a frozen label, or unlabelled (human)
    note: str | None = None
    expected_labels: tuple[str, ...] | None = None
    expected_policy: str | None = None
    provenance: Provenance | None = None  # a saved counterexample's origin
    review: Review | None = None  # the last review decision applied (inspector review --apply)
    history: tuple[LabelChange, ...] = ()  # its relabellings, oldest first
    human_labels: tuple[ClaimLabel, ...] = ()  # people's labels of its claims
    human: HumanDecision | None = None  # a reviewer's decision on it (an annotated triage record's)
    metadata: CaseMetadata | None = None  # an exported triage record's place and metadata


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
    """``"STATUS"`` or ``"STATUS/REASON"`` -> (status, reason); ValueError if unknown,
    if the reason is not one of that status's sub-reasons, or if it is empty."""
    status, slash, reason = label.partition("/")
    if status not in STATUSES:
        raise ValueError(f"unknown status {status!r} (known: {', '.join(STATUSES)})")
    if slash:
        allowed = {r for check in CHECKS if check.code == status for r in check.reasons}
        known = ", ".join(sorted(allowed)) or "none"
        if not reason:
            hint = f"known: {known}; {status} alone matches any" if allowed else f"{status} has none: write {status}"
            raise ValueError(f"empty sub-reason after {status}/ ({hint})")
        if reason not in REASONS or reason not in allowed:
            raise ValueError(f"{reason!r} is not a sub-reason of {status} (known: {known})")
    return status, reason or None


def read_bytes(path: str | Path, limit: int = MAX_SUITE_BYTES, what: str = "suite or registry") -> bytes:
    """A whole input file: a regular file (never a FIFO or device), at most ``limit`` bytes."""
    try:
        return read_limited(path, limit, what)
    except ReadError as exc:
        raise LoadError(path, exc.problem) from None


def parse_json(path: str | Path, data: bytes) -> Any:
    """Untyped strict decode of a whole file: UTF-8, at most ``MAX_FILE_DEPTH``
    levels, numbers in range, duplicate keys refused; each problem a ``LoadError``
    with the file and its line:column.

    Suites, registries and requests go through here, and so should every JSON
    file inspector reads (run manifests and results too:
    ``msgspec.convert(parse_json(path, data), TheirStruct)``): the depth is bounded
    before anything recursive sees the file.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LoadError(path, f"byte 0x{data[exc.start]:02X} at offset {exc.start} is not UTF-8") from None
    _check_depth(path, text)
    try:
        value = msgspec.json.decode(data)
    except msgspec.DecodeError as exc:
        if _is_out_of_range(exc):
            raise _out_of_range(path, data, text) from None
        # The same translation answers get: the offending text, in people's words.
        _, message, offset = describe_syntax_error(text, str(exc))
        message = message.replace("end of input", "end of file")
        line, column = line_col(text, offset)
        raise LoadError(path, f"invalid JSON: {message}", f"{line}:{column}") from None
    if repeats_a_key(text, value):
        duplicate = _duplicate_key(data, text)
        line, column = line_col(text, duplicate.second[0])
        first_line, first_column = line_col(text, duplicate.first[0])
        raise LoadError(path, f"duplicate key {duplicate.key!r} in {path_text(duplicate.object_path, 'the top-level object')} "
                              f"(first at {first_line}:{first_column})", f"{line}:{column}")
    return value


def _check_depth(path: str | Path, text: str) -> None:
    """Refuse nesting past ``MAX_FILE_DEPTH``, counting only the brackets outside
    strings, in linear time: the strings are cut out and the brackets summed in C
    (a 30 MB suite takes a fraction of a second); ``max_depth`` then finds the
    place of a file found too deep."""
    if text.count("[") + text.count("{") <= MAX_FILE_DEPTH:
        return
    brackets = _NOT_A_BRACKET.sub("", _STRING_TO_END.sub("", text))
    if max(accumulate(map(_NESTING.__getitem__, brackets)), default=0) <= MAX_FILE_DEPTH:
        return
    _, beyond = max_depth(text, MAX_FILE_DEPTH)
    line, column = line_col(text, beyond if beyond is not None else len(text))
    raise LoadError(path, f"nested deeper than {MAX_FILE_DEPTH} levels", f"{line}:{column}")


# A string, or an unterminated one to the end of the text (no bracket in it counts).
_STRING_TO_END = re.compile(r'"[^"\\]*+(?:\\.[^"\\]*+)*+"?', re.S)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_NESTING = {"[": 1, "{": 1, "]": -1, "}": -1}


# -- finding the place of a problem in a large file ------------------------------
#
# The position-aware scan (jsonscan.scan) records a span for every value: on a
# 30 MB suite that is seconds and a gigabyte.  A file's problem lies in one of its
# members, so we descend through arrays and objects with msgspec's Raw (the exact
# bytes of each member, in C) to the smallest member that has the problem, and
# scan only that.

_SCAN_WHOLE = 1 << 16  # bytes: a member this small is scanned at once
_RAW_ITEMS = msgspec.json.Decoder(list[msgspec.Raw])
_RAW_MEMBERS = msgspec.json.Decoder(dict[str, msgspec.Raw])
_BLANK = re.compile(rb"[ \t\n\r]*")
_KEY = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)

_Found = TypeVar("_Found")


def _locate(data: bytes, look: Callable[[str], _Found | None], start: int = 0, end: int | None = None,
            path: JsonPath = ()) -> tuple[int, JsonPath, _Found] | None:
    """(byte offset, path) of the member of the JSON value ``data[start:end]`` in
    which ``look`` finds something, and what it found in that member's text."""
    end = len(data) if end is None else end
    if end - start > _SCAN_WHOLE and data[start] in b"[{":
        members = _members(data, start, end)
        if members is not None:
            for part, member_start, member_end in members:
                found = _locate(data, look, member_start, member_end, (*path, part))
                if found is not None:
                    return found
            return None
    result = look(data[start:end].decode("utf-8"))
    return (start, path, result) if result is not None else None


def _members(data: bytes, start: int, end: int) -> list[tuple[str | int, int, int]] | None:
    """(key or index, start, end) of each member of the array or object
    ``data[start:end]``; None when the bytes do not walk back exactly (an object
    repeating one of its own keys: msgspec kept only one of them)."""
    view = memoryview(data)[start:end]
    is_object = data[start] == ord("{")
    try:
        members = _RAW_MEMBERS.decode(view).items() if is_object else enumerate(_RAW_ITEMS.decode(view))
    except msgspec.DecodeError:
        return None
    found: list[tuple[str | int, int, int]] = []
    position = start + 1
    for part, raw in members:
        position = _after_blanks(data, position)
        if found:
            if data[position] != ord(","):
                return None
            position = _after_blanks(data, position + 1)
        if is_object:
            key = _KEY.match(data, position)
            if key is None or _key_text(key.group()) != part:
                return None
            position = _after_blanks(data, key.end())
            if data[position] != ord(":"):
                return None
            position = _after_blanks(data, position + 1)
        raw_view = memoryview(raw)
        if memoryview(data)[position:position + len(raw_view)] != raw_view:
            return None
        found.append((part, position, position + len(raw_view)))
        position += len(raw_view)
    return found if _after_blanks(data, position) == end - 1 else None


def _after_blanks(data: bytes, position: int) -> int:
    return _BLANK.match(data, position).end()  # type: ignore[union-attr]  # matches the empty string too


def _key_text(token: bytes) -> str:
    return json.loads(token) if b"\\" in token else token[1:-1].decode("utf-8")


def _char_offset(data: bytes, byte_offset: int) -> int:
    return len(data[:byte_offset].decode("utf-8"))


def _duplicate_key(data: bytes, text: str) -> DuplicateKey:
    """The first repeated key of a file known to repeat one, with both places."""
    found: tuple[int, JsonPath, DuplicateKey | None] | None = _locate(
        data, lambda member: find_duplicate_key(member, msgspec.json.decode(member)))
    if found is None:  # pragma: no cover - the count proved there is one
        found = (0, (), scan(text).duplicate)
    start, prefix, duplicate = found
    assert duplicate is not None
    shift = _char_offset(data, start)
    return DuplicateKey(duplicate.key, (*prefix, *duplicate.object_path),
                        (duplicate.first[0] + shift, duplicate.first[1] + shift),
                        (duplicate.second[0] + shift, duplicate.second[1] + shift))


def _out_of_range(path: str | Path, data: bytes, text: str) -> LoadError:
    """A number msgspec cannot hold (1e400, or an integer of thousands of digits),
    with its line:column and its path in the file."""
    found = _locate(data, _number_out_of_range)
    if found is None:  # pragma: no cover - msgspec refused one
        return LoadError(path, "a number is out of range")
    start, prefix, (offset, where, number) = found
    line, column = line_col(text, _char_offset(data, start) + offset)
    shown = number if len(number) <= 24 else f"{number[:20]}... ({len(number)} characters)"
    why = "beyond a 64-bit float" if any(c in number for c in ".eE") else "too many digits"
    return LoadError(path, f"number {shown} is out of range in {path_text((*prefix, *where), 'the file')} ({why})",
                     f"{line}:{column}")


def _is_out_of_range(exc: msgspec.DecodeError) -> bool:
    # "Number out of range - at `$[...][0]`", "Integer value out of range"
    return str(exc).partition(" - at ")[0].endswith("out of range")


def _number_out_of_range(text: str) -> tuple[int, JsonPath, str] | None:
    """(offset, path, text) of the first number in ``text`` that msgspec refuses.

    msgspec stops at that number, so the text before it is valid JSON: its tokens
    are read in order, and the path comes from scanning only that far (whatever
    follows, even broken, is never read)."""
    try:
        msgspec.json.decode(text)
    except msgspec.DecodeError as exc:
        if not _is_out_of_range(exc):
            return None
    else:
        return None
    for match in _STRING_OR_NUMBER.finditer(text):
        token = match.group()
        if token[0] != '"' and not _fits(token):
            spans = scan(text[:match.end()]).values
            where = next((path for path, span in spans.items() if span == match.span()), ())
            return match.start(), where, token
    return None  # pragma: no cover - msgspec refused one


def _fits(number: str) -> bool:
    try:
        msgspec.json.decode(number)
    except msgspec.DecodeError:
        return False
    return True


_STRING_OR_NUMBER = re.compile(_STRING_TO_END.pattern + r"|-?[0-9][0-9.eE+-]*", re.S)


def validation_place(exc: msgspec.ValidationError, prefix: str = "") -> tuple[str | None, str]:
    message, _, where = str(exc).partition(" - at `")
    located = where.rstrip("`").removeprefix("$") if where else ""
    place = (prefix + located).lstrip(".") or None
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


def _check_expectations(case: _CaseFile) -> tuple[str, str] | None:
    """(place, problem) for a frozen label lens value that no verdict can have:
    it would only ever show up as a mismatch."""
    for index, label in enumerate(case.expected_labels or ()):
        if label not in LABELS:
            return f"expected_labels[{index}]", f"unknown label {label!r} (known: {', '.join(LABELS)})"
    if case.expected_policy is not None and case.expected_policy not in POLICIES:
        return "expected_policy", f"unknown policy {case.expected_policy!r} (known: {', '.join(POLICIES)})"
    provenance = case.provenance
    if provenance is not None:
        if _SHA256.fullmatch(provenance.parent_sha256) is None:
            return "provenance.parent_sha256", "expected 64 lowercase hexadecimal digits"
        for member in ("parent_suite", "parent_case", "inspector_version"):
            if not getattr(provenance, member):
                return f"provenance.{member}", "empty"
    if case.metadata is not None and (problem := _check_metadata(case.metadata)) is not None:
        return problem
    return _check_review(case)


def _check_review(case: _CaseFile) -> tuple[str, str] | None:
    """(place, problem) for a review member, a history entry or a human label no review could have written."""
    review = case.review
    if review is not None:
        if review.decision not in (ACCEPT_DECISION, REJECT_DECISION):
            return "review.decision", f"unknown decision {review.decision!r} (known: accept, reject)"
        if _SHA256.fullmatch(review.sha256) is None:
            return "review.sha256", "expected 64 lowercase hexadecimal digits"
        try:
            parse_label(review.verdict)
        except ValueError as exc:
            return "review.verdict", str(exc)
    seen: set[int] = set()
    for index, label in enumerate(case.human_labels or ()):
        here = f"human_labels[{index}]"
        if label.label not in HUMAN_LABELS:
            return f"{here}.label", f"unknown label {label.label!r} (known: {', '.join(HUMAN_LABELS)})"
        if label.claim < 0:
            return f"{here}.claim", "a claim's index is 0 or more"
        if label.claim in seen:
            return f"{here}.claim", f"claim {label.claim} is labelled twice"
        seen.add(label.claim)
    return None


def _registry(path: str | Path, sources: list[Source]) -> Registry:
    try:
        return Registry(sources)
    except DuplicateSourceError as exc:
        raise LoadError(path, f"duplicate source id {exc.source_id!r} (first at sources[{exc.first}])",
                        f"sources[{exc.second}].id") from None


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a file becomes objects: a large suite is
    a million new objects that no cycle holds, and the collector's passes over
    them were a third of its load time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def load_suite(path: str | Path, strict: bool = True, data: bytes | None = None) -> Suite:
    """Load a suite file (or ``data``, the bytes a suite file at ``path`` would hold:
    what a writer checks before it writes them).

    With ``strict`` (the default) any broken case raises ``LoadError``; without it,
    broken cases are collected in ``Suite.broken`` and the others load.
    """
    with collector_paused():
        return _load_suite(Path(path), strict, data)


def _load_suite(path: Path, strict: bool, data: bytes | None = None) -> Suite:
    value = parse_json(path, read_bytes(path) if data is None else data)
    if not isinstance(value, dict):
        raise LoadError(path, "expected a JSON object with sources and cases")
    cases_value = value.get("cases", [])
    try:
        suite_file = msgspec.convert({**value, "cases": []}, _SuiteFile)
    except msgspec.ValidationError as exc:
        place, message = validation_place(exc)
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
        place, message = validation_place(exc, here)
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
    if case.expected is None:
        # An exported record a person called a false acceptance: it should have been rejected,
        # with which code the person did not say (``triage.annotations.person_label``).
        if case.human is None or case.human.decision != "false_acceptance":
            raise _CaseProblem(case.id, f"{here}.expected", "null (unlabelled) only in a case a person "
                                                            "annotated as a false acceptance (human)")
    else:
        try:
            parse_label(case.expected)
        except ValueError as exc:
            raise _CaseProblem(case.id, f"{here}.expected", str(exc)) from None
    problem = _check_request(case.request)
    if problem is not None:
        raise _CaseProblem(case.id, f"{here}.request.{problem[0]}", problem[1])
    problem = _check_expectations(case)
    if problem is not None:
        raise _CaseProblem(case.id, f"{here}.{problem[0]}", problem[1])
    return Case(suite, index, case.id, raw, case.request, case.expected, case.note,
                tuple(case.expected_labels) if case.expected_labels is not None else None,
                case.expected_policy, case.provenance, case.review, tuple(case.history or ()),
                tuple(case.human_labels or ()), case.human, case.metadata)


def load_sources(path: str | Path) -> list[Source]:
    """The sources of a registry (or suite) file, as written: ids not yet checked unique."""
    path = Path(path)
    with collector_paused():
        value = parse_json(path, read_bytes(path))
        if not isinstance(value, dict):
            raise LoadError(path, 'expected a JSON object {"sources": [...]}')
        try:
            registry_file = msgspec.convert({**value, "cases": []}, _SuiteFile)
        except msgspec.ValidationError as exc:
            place, message = validation_place(exc)
            raise LoadError(path, message, place) from None
    return registry_file.sources


def load_registry(path: str | Path) -> Registry:
    """A registry file: ``{"sources": [...]}`` (a suite file works too; its cases are ignored)."""
    return _registry(path, load_sources(path))


def load_request(path: str | Path) -> Request:
    path = Path(path)
    return parse_request(path, read_bytes(path, MAX_REQUEST_BYTES, "request"))


def parse_request(path: str | Path, data: bytes) -> Request:
    """A request from its JSON bytes, validated as a request file is (strict JSON,
    no unknown or duplicate keys, no field requested twice); ``path`` names where
    the bytes came from in a ``LoadError`` (a log line's request goes through here)."""
    value = parse_json(path, data)
    try:
        request = msgspec.convert(value, Request)
    except msgspec.ValidationError as exc:
        place, message = validation_place(exc)
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


HEADLINE_SUITE = "article.json"  # the article's 22 cases: what the inspector opens on


def bundled_root() -> Path | None:
    """The folder of the suites shipped with inspector: the checkout's fixtures/,
    else the package's copy; None when neither holds a suite."""
    here = Path(__file__).resolve().parent.parent
    for folder in (here.parent / "fixtures", here / "bundled"):
        if next(folder.glob("*.json"), None) is not None:
            return folder
    return None


def bundled_suite_paths() -> list[Path]:
    """The suites shipped with inspector (``bundled_root``).

    The article's suite comes first, since it is the headline (the inspector opens on
    its first case), then the others by file name, so the order never depends on the
    file system."""
    root = bundled_root()
    if root is None:
        return []
    return sorted(root.glob("*.json"), key=lambda path: (path.name != HEADLINE_SUITE, path.name))


# Nothing inspector writes may land in the bundled tree (its answers/, registries/
# and payments/ folders included): a suite put there is one that plain ``inspector``,
# ``audit`` and ``mutate`` load.  Declared here, where the tree is found; refused
# by io.writing, below every writer.  (Importing ``inspector`` imports this module,
# so the rule holds for whatever writes.)
_BUNDLED = bundled_root()
if _BUNDLED is not None:
    protect(_BUNDLED, "the bundled fixtures")


def load_suites(paths: Iterable[str | Path], strict: bool = True) -> list[Suite]:
    return [load_suite(path, strict=strict) for path in paths]
