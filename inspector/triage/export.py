"""A group's records as a new suite file: ``--export GROUP --out SUITE``.

The suite holds the registry the log was triaged against, and per record a case:
its request, its raw answer exactly, its current verdict as the expected label
(a record a person annotated: the person's, ``Annotation.label``: ``ACCEPT`` for a false
rejection, null, unlabelled, for a false acceptance),
its place and metadata in the note (free text, whole) and as the structured
``metadata`` member (``suites.load.CaseMetadata``: bounded, each value a
string, a number, a boolean or null), so that ``inspector open``, ``audit``
and the lab read it like any suite (and ``audit`` finds every label matching
until the contract changes, but the annotated records the contract got wrong).  The records are the group's first ones, or a
random sample of them (``triage.sample``: ``SampleTaken`` says which, in the
suite's description).  The file is new: written whole or not at all, never
over an existing file (``io.writing``).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from ..contract.models import Registry
from ..contract.text import json_dumps
from ..io.reading import MAX_SUITE_BYTES
from ..io.writing import WriteError, check_new_file, refuse_protected, write_files
from ..suites.document import source_document  # one writing of a source into a suite file
from ..suites.load import METADATA_KEY_CHARS, METADATA_MEMBERS, METADATA_VALUE_CHARS
from .annotations import Annotation, Annotations, digest
from .mapping import DEFAULT_FORMAT, LogFormat
from .formats.reading import NoAnswer
from .parsing import decode_record
from .records import BadLine, RequestCache

__all__ = ["EXPORT_KIND", "ExportError", "SampleTaken", "check_destination", "encodable_text", "export_suite",
           "human_member", "metadata_member", "record_note", "suite_bytes", "suite_document"]

EXPORT_KIND = "triage-export"


class ExportError(Exception):
    """The suite cannot be written: the path and why, in one line."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


def _case_id(found: Any, file: str, line: int, taken: set[str]) -> str:
    """The record's id (the member at the format's id path) when it is a
    usable, unused one (a text a suite file can hold: no lone surrogate), else
    ``FILE:LINE``."""
    if isinstance(found, str) and found and found == found.strip() and found not in taken and _encodable(found):
        return found
    case_id = f"{Path(file).name}:{line}"
    while case_id in taken:
        case_id += "'"
    return case_id


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _raw_member(raw: str | bytes) -> dict[str, str]:
    """``raw`` as a case holds it.  An answer that is not UTF-8 is kept as its
    bytes, base64, and a lone surrogate (which no UTF-8 file can hold) as the
    bytes Python would write for it: not UTF-8 either, so the verdict stays
    INVALID_JSON/NOT_UTF8."""
    if isinstance(raw, bytes):
        return {"raw_base64": base64.b64encode(raw).decode("ascii")}
    if not _encodable(raw):
        return {"raw_base64": base64.b64encode(raw.encode("utf-8", "surrogatepass")).decode("ascii")}
    return {"raw": raw}


def record_note(file: str, line: int, offset: int, meta: dict[str, Any], limit: int | None = None) -> str:
    """A record's place and metadata as its case's note (an export's, and the
    inspector's drill-down into a group).  A lone surrogate in the metadata (an
    escape Python's json read) or the file's name is written as its JSON escape, ``\\ud800``: a
    suite file holds no lone surrogate, escaped or not.  With ``limit``, the
    metadata is written only that far (a drill-down's note is drawn: megabytes
    of metadata would take the screen seconds), and the note says it is cut."""
    encoder = json.JSONEncoder(ensure_ascii=False, sort_keys=True, default=str)
    if limit is None:
        metadata = encoder.encode(meta)
    else:
        chunks, size = [], 0
        for chunk in encoder.iterencode(meta):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                break
        metadata = "".join(chunks)
        if size > limit:
            metadata = f"{metadata[:limit]}… (cut at {limit:,} characters)"
    note = f"from {file}:{line} (offset {offset}); metadata {metadata}"
    return note if note.isascii() else note.encode("utf-8", "backslashreplace").decode("utf-8")


# A nested object's members are opened into dotted keys down to this many keys; deeper, and any
# array, is kept as its compact JSON text (a string).
METADATA_DEPTH = 3
# An integer outside what a suite's loader holds (a signed or unsigned 64-bit number) is kept as its text.
_INT_RANGE = range(-2**63, 2**64)


def metadata_member(file: str, line: int, offset: int, meta: Mapping[str, Any]) -> dict[str, Any]:
    """``{"metadata": {...}}``: the record's place and metadata as its case carries them
    (``suites.load.CaseMetadata``): a nested object opened into dotted keys (``metadata.model``, as
    ``--by`` names them), each value a string, a number, a boolean or null (anything else its compact
    JSON text), at most ``METADATA_MEMBERS`` of them (``more`` counts the rest), a string cut to
    ``METADATA_VALUE_CHARS`` (ending in ``…``).  A lone surrogate is written as its escape, ``\\ud800``:
    a suite file holds none."""
    members: dict[str, Any] = {}
    more = 0
    for key, value in _leaves(meta, ()):
        key = encodable_text(key)
        if len(members) >= METADATA_MEMBERS or key in members or len(key) > METADATA_KEY_CHARS:
            more += 1
            continue
        members[key] = _scalar(value)
    found: dict[str, Any] = {"file": encodable_text(file), "line": line, "offset": offset, "members": members}
    if more:
        found["more"] = more
    return {"metadata": found}


def _leaves(value: Mapping[str, Any], path: tuple[str, ...]) -> Iterator[tuple[str, Any]]:
    for key, member in value.items():
        inner = (*path, str(key))
        if isinstance(member, dict) and member and len(inner) < METADATA_DEPTH:
            yield from _leaves(member, inner)
        else:
            yield ".".join(inner), member


def _scalar(value: Any) -> str | int | float | bool | None:
    if value is None or isinstance(value, (bool, float)):
        return value
    if isinstance(value, int):
        return value if value in _INT_RANGE else str(value)
    if not isinstance(value, str):
        value = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)
    text = encodable_text(value)
    return text if len(text) <= METADATA_VALUE_CHARS else text[:METADATA_VALUE_CHARS - 1] + "…"


def encodable_text(text: str) -> str:
    """``text`` as a UTF-8 file can hold it: a lone surrogate (an escape
    Python's json read, a file name's byte that is not UTF-8) written as its
    escape, the six characters ``\\ud800``; any other text as it is."""
    return text if _encodable(text) else text.encode("utf-8", "backslashreplace").decode("utf-8")


@dataclass(frozen=True, slots=True)
class SampleTaken:
    """How an export's records were chosen at random: ``size`` asked, with ``seed``, of the group's ``of``
    (``among``: of those of its records shown, in words, ``records shown (filter model=gpt-x)``)."""

    size: int
    seed: int
    of: int
    among: str | None = None

    @property
    def all(self) -> bool:
        """Whether the group holds no more records than asked: every one is written."""
        return self.of <= self.size

    def words(self) -> str:
        if self.among is not None:
            if self.all:
                return (f"the {self.of:,} {self.among}, no more than the sample of {self.size:,} asked: "
                        "all of them written")
            return f"a random sample of {self.size:,} of the {self.of:,} {self.among}, seed {self.seed}"
        if self.all:
            return (f"the group holds {self.of:,} record(s), no more than the sample of {self.size:,} asked: "
                    "all of them written")
        return f"a random sample of {self.size:,} of the group's {self.of:,} records, seed {self.seed}"


def _annotation(annotations: Mapping[str, Annotations] | None, file: str, line: int, offset: int,
                text: bytes) -> Annotation | None:
    """The record's annotation (None: none, or only a stale one)."""
    log_notes = annotations.get(file) if annotations else None
    return log_notes.find(line, offset, digest(text)) if log_notes is not None else None


def human_member(annotations: Mapping[str, Annotations] | None, file: str, line: int, offset: int,
                 text: bytes) -> dict[str, Any]:
    """``{"human": {...}}``: the reviewer's decision on the record (``triage.annotations``), as its
    case carries it (``suites.load.HumanDecision``); ``{}`` when it has none (or only a stale one)."""
    found = _annotation(annotations, file, line, offset, text)
    if found is None:
        return {}
    human = {"decision": found.decision, "note": found.note, "reviewer": found.reviewer, "at": found.at,
             "verifier": found.verifier}
    return {"human": {key: value for key, value in human.items() if value is not None}}


def suite_document(group: str, registry: Registry, collected: Iterable[tuple[str, int, int, bytes, str]],
                   logs: Iterable[str], log_format: LogFormat = DEFAULT_FORMAT,
                   annotations: Mapping[str, Annotations] | None = None,
                   sample: SampleTaken | None = None, chosen: str | None = None) -> dict[str, Any]:
    """The suite of the collected lines (file, line, offset, line bytes, label), read as ``log_format`` says;
    a record a reviewer annotated (``annotations``, by log) carries the decision as its case's ``human``.
    ``sample``: the records are a random sample (said in the description), ``chosen``: how they were chosen
    otherwise, in words (the records a person marked)."""
    requests = RequestCache()
    cases = []
    taken: set[str] = set()
    without = 0
    for file, line, offset, text, label in collected:
        record = decode_record(text, file, line, offset, requests, log_format)
        if isinstance(record, BadLine):  # pragma: no cover - only records are collected
            continue
        # a record without an answer has a NoAnswer for its raw (LogRecord.raw says str | bytes: issue 32's typed records)
        if record.raw.__class__ is NoAnswer:  # type: ignore[comparison-overlap]  # a case is an answer to verify: a record without one is left out
            without += 1
            continue
        case_id = _case_id(record.id, file, line, taken)
        taken.add(case_id)
        request = {key: value for key, value in msgspec.to_builtins(record.request).items() if value is not None}
        # An annotated record's label is the person's (a false rejection's ACCEPT; null for a false
        # acceptance, whose right rejection the person did not say): the contract's own verdict would
        # match itself by construction.
        found = _annotation(annotations, file, line, offset, text)
        expected = label if found is None else found.label
        cases.append({"id": case_id, **_raw_member(record.raw), "request": request, "expected": expected,
                      "note": record_note(file, line, offset, dict(record.meta)),
                      **metadata_member(file, line, offset, record.meta),
                      **human_member(annotations, file, line, offset, text)})
    how = f" ({sample.words()})" if sample is not None else f" ({chosen})" if chosen else ""
    if without:
        how += f" ({without:,} record(s) without an answer left out: a case is an answer to verify)"
    return {
        "kind": EXPORT_KIND,
        "description": encodable_text(f"Records of the group {group}{how} exported by inspector triage from "
                                       f"{', '.join(logs)}; expected labels are their verdicts when exported, or a "
                                       f"reviewer's where one annotated the record (human)."),
        "sources": [source_document(source) for source in registry.sources],
        "cases": cases,
    }


def check_destination(out: str | Path) -> None:
    """ExportError unless ``export_suite`` could write ``out``: its folder
    exists, is a directory this process may create files in, and the name is
    free.  Cheap: asked before the count, so that a bad ``--out`` does not cost
    a day of logs counted first (``export_suite`` still writes atomically and
    refuses a name taken meanwhile)."""
    try:
        check_new_file(out)
    except WriteError as exc:
        raise ExportError(exc.path, exc.reason) from None
    except ValueError as exc:  # not a plain file name
        raise ExportError(out, str(exc)) from None


def export_suite(out: str | Path, group: str, registry: Registry,
                 collected: Iterable[tuple[str, int, int, bytes, str]], logs: Iterable[str],
                 log_format: LogFormat = DEFAULT_FORMAT, annotations: Mapping[str, Annotations] | None = None,
                 sample: SampleTaken | None = None, chosen: str | None = None) -> int:
    """Write the suite to ``out`` (which must not exist); returns the cases
    written.  ``log_format``: how the lines were read when counted;
    ``annotations``: the reviewers' decisions, by log, carried into the cases;
    ``sample`` or ``chosen``: how the records were chosen, for the description."""
    out = Path(out)
    try:
        refuse_protected(out)  # before the work of decoding every record
    except WriteError as exc:
        raise ExportError(exc.path, f"{exc.reason}; nothing was written") from None
    data, count = suite_bytes(out, group, registry, collected, logs, log_format, annotations, sample, chosen)
    try:
        write_files(out.parent, {out.name: data}, overwrite=False)
    except WriteError as exc:
        raise ExportError(exc.path, f"{exc.reason}; nothing was written") from None
    except ValueError as exc:  # not a plain file name
        raise ExportError(out, str(exc)) from None
    return count


def suite_bytes(out: str | Path, group: str, registry: Registry,
                collected: Iterable[tuple[str, int, int, bytes, str]], logs: Iterable[str],
                log_format: LogFormat = DEFAULT_FORMAT, annotations: Mapping[str, Annotations] | None = None,
                sample: SampleTaken | None = None, chosen: str | None = None) -> tuple[bytes, int]:
    """The suite file ``export_suite`` writes (and its cases): what a served inspector offers
    as a download instead.  ``ExportError`` (naming ``out``) for a suite too big to be one."""
    document = suite_document(group, registry, collected, logs, log_format, annotations, sample, chosen)
    data = (json_dumps(document) + "\n").encode("utf-8")
    if len(data) > MAX_SUITE_BYTES:
        raise ExportError(out, f"the suite would be {len(data):,} bytes ({len(document['cases']):,} cases), more "
                               f"than a suite may be ({MAX_SUITE_BYTES:,}); narrow it with --since/--until, "
                               "a smaller group or --limit")
    return data, len(document["cases"])
