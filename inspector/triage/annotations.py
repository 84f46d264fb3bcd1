"""A reviewer's decisions on triage records, kept beside the log: ``LOG.annotations.jsonl``.

A record opened from a triage group can be marked a true or a false rejection
(the contract was wrong to reject it), or a true or a false acceptance, with a
note.  The decision is never written into the log: it goes into a file of its
own beside it (for ``app.jsonl.gz`` too: ``app.jsonl.gz.annotations.jsonl``),
JSON lines, the first line a header::

    {"schema": "inspector.annotations/1", "log": "app.jsonl"}
    {"file": "logs/app.jsonl", "line": 12, "offset": 3071, "sha256": "…", "decision": "false_rejection",
     "verdict": "VALUE_MISMATCH", "reviewer": "Ada", "at": "2026-12-02T06:30:00Z", "verifier": "…",
     "note": "the registry was stale"}

A record is keyed by where it is and what it is: its line number, the byte
offset its line starts at (of the decompressed stream for a ``.gz``, as the
triage's index has it) and the sha256 of the line's exact bytes, so the key
survives the log being counted again, and an annotation of a line that was
rewritten since (another digest at that offset) is *stale*: reported, never
applied to the record now there.  ``file`` is the log as the triage named it,
kept for the reader; the annotations file belongs to the log it is beside, so
``./app.jsonl`` and ``app.jsonl`` are one log.  A later annotation of the same
record replaces the earlier one (last wins), and clearing removes it: every
change rewrites the whole file, whole or not at all (``io.writing``), keeping
its permission bits, and only a file this tool created (its header) is ever
replaced; never a symbolic link, never inside the bundled fixtures.  A log read
from standard input has no file beside it: annotating it is refused.

Several processes may annotate one log at once (two terminals, two served
tabs, two reviewers): each change reads the file again and writes it under the
file's lock (``io.locking``), so it adds to what is on disk and no annotation
is lost.  An annotation of a record annotated meanwhile replaces that one, and
says so: ``annotate`` hands back the one it replaced (``Annotations.replaced``).

Reading is bounded (``MAX_BYTES``); a file that is not what this module writes
(not JSON, another schema, an unknown member, a decision that is not one of the
four or not one of the record's pair) is an ``AnnotationError`` naming the
file and line.  Pure: no textual, no rich.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import msgspec

from ..contract.text import visible
from ..contract.version import VERIFIER
from ..io.locking import exclusive_as
from ..io.reading import ReadError, read_limited
from ..io.writing import WriteError, write_files
from ..suites.reviewer import MAX_NOTE, Signed, check_name, check_note, now_stamp, reviewer_name
from .logs import STDIN

__all__ = [
    "ACCEPTANCE_DECISIONS",
    "DECISIONS",
    "MAX_BYTES",
    "REJECTION_DECISIONS",
    "SCHEMA",
    "SUFFIX",
    "Annotation",
    "AnnotationError",
    "Annotations",
    "allowed_decisions",
    "annotate",
    "annotations_path",
    "clear",
    "decision_for",
    "digest",
    "new_annotation",
    "person_label",
    "read_annotations",
]

SCHEMA = "inspector.annotations/1"
SUFFIX = ".annotations.jsonl"
REJECTION_DECISIONS = ("true_rejection", "false_rejection")
ACCEPTANCE_DECISIONS = ("true_acceptance", "false_acceptance")
DECISIONS = (*REJECTION_DECISIONS, *ACCEPTANCE_DECISIONS)
# An annotation is a few hundred bytes, its note at most MAX_NOTE characters: thousands fit.
MAX_BYTES = 32 * 1024 * 1024

# What an annotation says of its record's verdict: the contract was right (true_) or wrong (false_).
RecordDecision = Literal["true_rejection", "false_rejection", "true_acceptance", "false_acceptance"]
_SHA256 = re.compile(r"[0-9a-f]{64}")


class AnnotationError(Exception):
    """An annotations file that cannot be read or written, or an annotation
    refused: the file (and line), and why, in one line."""

    def __init__(self, path: str | Path, problem: str, line: int | None = None) -> None:
        self.path = str(path)
        self.problem = problem
        self.line = line
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(visible(f"{where}: {problem}"))


class Annotation(Signed, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One decision on one record: where the record is (``file``, ``line``,
    ``offset``) and what it was (``sha256`` of its line's bytes, its ``verdict``
    label when annotated, by the ``verifier`` that gave it), what was decided,
    signed (``Signed``: who and when, why)."""

    file: str
    line: int
    offset: int
    sha256: str
    decision: RecordDecision
    verdict: str

    def __post_init__(self) -> None:
        # Raised as a ValueError here, it is a msgspec.ValidationError when a file is decoded.
        if self.line < 1:
            raise ValueError(f"line {self.line} is not a line number (from 1)")
        if self.offset < 0:
            raise ValueError(f"offset {self.offset} is negative")
        if not _SHA256.fullmatch(self.sha256):
            raise ValueError("sha256 is not 64 lowercase hexadecimal digits")
        if self.decision not in allowed_decisions(self.verdict):
            raise ValueError(f"{self.decision} is not a decision on a record whose verdict is {self.verdict} "
                             f"(one of {', '.join(allowed_decisions(self.verdict))})")
        check_name(self.reviewer)
        if self.note is not None and len(self.note) > MAX_NOTE:
            raise ValueError(f"the note is {len(self.note)} characters long (at most {MAX_NOTE})")

    @property
    def key(self) -> tuple[int, int, str]:
        """What the annotation is of, within its log: line, offset, digest."""
        return (self.line, self.offset, self.sha256)

    @property
    def is_false(self) -> bool:
        """The contract was wrong: a false rejection or a false acceptance."""
        return self.decision.startswith("false_")

    @property
    def label(self) -> str | None:
        """The verdict the person holds right, as a suite's label: the record's verdict
        when annotated for a true rejection or acceptance, ``ACCEPT`` for a false
        rejection; None (unlabelled) for a false acceptance: the person said it should
        have been rejected, not with which code."""
        return person_label(self.decision, self.verdict)


class _Header(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    schema: str
    log: str | None = None


_HEADER = msgspec.json.Decoder(_Header)
_ANNOTATION = msgspec.json.Decoder(Annotation)
_ENCODE = msgspec.json.Encoder().encode


def allowed_decisions(verdict: str) -> tuple[str, str]:
    """The decisions a record with this verdict label may get: an accepted one's
    acceptance pair, a rejected one's rejection pair."""
    return ACCEPTANCE_DECISIONS if verdict == "ACCEPT" else REJECTION_DECISIONS


def person_label(decision: str, verdict: str) -> str | None:
    """``Annotation.label`` of a ``decision`` on a record whose verdict label was ``verdict``."""
    if decision == "false_rejection":
        return "ACCEPT"
    if decision == "false_acceptance":
        return None
    return verdict


def decision_for(verdict: str, contract_right: bool) -> str:
    """The decision that says the contract was right (``true_...``) or wrong (``false_...``) on this verdict."""
    true, false = allowed_decisions(verdict)
    return true if contract_right else false


def digest(line: bytes) -> str:
    """The sha256 of a line's exact bytes (without its newline), hexadecimal."""
    return hashlib.sha256(line).hexdigest()


def annotations_path(log: str) -> Path:
    """The annotations file of ``log``: beside it, its name and ``SUFFIX``.
    AnnotationError for standard input, which has no file to be beside."""
    if log == STDIN:
        raise AnnotationError("standard input", "a log read from standard input has no file to keep annotations "
                              "beside; triage the log's file to annotate its records")
    return Path(log).with_name(Path(log).name + SUFFIX)


@dataclass
class Annotations:
    """The annotations of one log, as read (``exists``: the file was there).

    ``entries``: by key (line, offset, digest), the last of each; ``replaced``:
    after ``annotate``, the annotation of the same record it replaced (None: none)."""

    log: str
    path: Path
    exists: bool = False
    entries: dict[tuple[int, int, str], Annotation] = field(default_factory=dict)
    replaced: Annotation | None = None

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[Annotation]:
        return iter(self.entries.values())

    def find(self, line: int, offset: int, sha256: str) -> Annotation | None:
        """The annotation of the record at (``line``, ``offset``) whose line has this digest."""
        return self.entries.get((line, offset, sha256))

    def stale_at(self, line: int, offset: int, sha256: str) -> list[Annotation]:
        """Annotations at (``line``, ``offset``) of another line than the one there now (its digest ``sha256``)."""
        return [found for key, found in self.entries.items() if key[:2] == (line, offset) and key[2] != sha256]

    def with_annotation(self, annotation: Annotation) -> Annotations:
        entries = {key: value for key, value in self.entries.items() if key != annotation.key}
        entries[annotation.key] = annotation
        return Annotations(self.log, self.path, self.exists, entries)

    def without(self, key: tuple[int, int, str]) -> Annotations:
        return Annotations(self.log, self.path, self.exists,
                           {found: value for found, value in self.entries.items() if found != key})

    def document(self) -> bytes:
        """The file's bytes: the header, then each annotation a line, in the order they were made."""
        header = {"schema": SCHEMA, "log": Path(self.log).name}
        return b"".join([_ENCODE(header), b"\n", *(_ENCODE(entry) + b"\n" for entry in self.entries.values())])


def read_annotations(log: str) -> Annotations:
    """The annotations of ``log`` (none when its file does not exist).
    AnnotationError for standard input, a file that is not a regular file (a
    symbolic link included), too large, or not an annotations file: which line and why."""
    path = annotations_path(log)
    try:
        data = read_limited(path, MAX_BYTES, "file of annotations", follow_symlinks=False)
    except ReadError as exc:
        if exc.problem == "no such file":
            return Annotations(log, path)
        raise AnnotationError(path, exc.problem) from None
    return Annotations(log, path, True, dict(_entries(path, data)))


def _entries(path: Path, data: bytes) -> Iterable[tuple[tuple[int, int, str], Annotation]]:
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    if not lines:
        raise AnnotationError(path, f'empty: not a file of annotations (its first line is {{"schema": "{SCHEMA}"}})',
                              1)
    try:
        header = _HEADER.decode(lines[0])
    except (msgspec.DecodeError, RecursionError) as exc:
        raise AnnotationError(path, f'not a file of annotations: its first line is not {{"schema": "{SCHEMA}"}} '
                              f"({_problem(exc)})", 1) from None
    if header.schema != SCHEMA:
        raise AnnotationError(path, f"schema {header.schema!r}: this inspector reads {SCHEMA}", 1)
    found: dict[tuple[int, int, str], Annotation] = {}
    for number, text in enumerate(lines[1:], 2):
        try:
            annotation = _ANNOTATION.decode(text)
        except (msgspec.DecodeError, RecursionError) as exc:
            raise AnnotationError(path, _problem(exc), number) from None
        found.pop(annotation.key, None)  # last wins, in the place of the last
        found[annotation.key] = annotation
    return found.items()


def _problem(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    text = str(exc)
    if isinstance(exc, msgspec.ValidationError):
        return f"not an annotation: {text}"
    return f"not JSON: {text}" if not text.startswith("JSON") else text


def new_annotation(file: str, line: int, offset: int, text: bytes, verdict: str, decision: str,
                   note: str | None = None, reviewer: str | None = None, at: str | None = None) -> Annotation:
    """The annotation of the record whose line (its bytes ``text``) is at ``file``:``line``, byte ``offset``,
    its verdict label ``verdict``.  ValueError (one line) for a decision not of
    the record's pair, a note too long, an unusable reviewer's name."""
    if decision not in DECISIONS:
        raise ValueError(f"{decision!r} is not a decision: one of {', '.join(DECISIONS)}")
    allowed = allowed_decisions(verdict)
    if decision not in allowed:
        kind = "accepted" if verdict == "ACCEPT" else "rejected"
        raise ValueError(f"the record is {kind} ({verdict}): it is a {' or a '.join(allowed)}, not a {decision}")
    return Annotation(file, line, offset, digest(text), decision, verdict,  # type: ignore[arg-type]  # decision: one of allowed, checked above
                      reviewer=reviewer_name(reviewer), at=at or now_stamp(), verifier=VERIFIER, note=check_note(note))


def annotate(log: str, annotation: Annotation) -> Annotations:
    """Keep ``annotation`` in ``log``'s annotations file (replacing one of the
    same record), rewriting the file whole under its lock; returns the annotations
    now, with the one it replaced (``replaced``)."""
    with _locked(annotations_path(log)):
        found = read_annotations(log)
        written = _write(found.with_annotation(annotation))
    written.replaced = found.find(*annotation.key)
    return written


def clear(log: str, line: int, offset: int, sha256: str) -> tuple[Annotations, bool]:
    """Remove the annotation of that record (if any); returns the annotations
    now and whether there was one to remove (nothing is written when not)."""
    with _locked(annotations_path(log)):
        found = read_annotations(log)
        key = (line, offset, sha256)
        if key not in found.entries:
            return found, False
        return _write(found.without(key)), True


def _locked(path: Path) -> AbstractContextManager[None]:
    """Hold the annotations file's lock: AnnotationError when it cannot be had."""
    return exclusive_as(path, lambda where, reason: AnnotationError(where, f"{reason}; the annotation was not kept"))


def _write(annotations: Annotations) -> Annotations:
    path = annotations.path
    try:
        # Replacing only what this module wrote and read back (its header); creating, never over anything.
        write_files(path.parent, {path.name: annotations.document()}, overwrite=annotations.exists, keep_mode=True)
    except WriteError as exc:
        raise AnnotationError(exc.path, f"{exc.reason}; the annotation was not kept") from None
    except (OSError, ValueError) as exc:
        raise AnnotationError(path, f"{getattr(exc, 'strerror', None) or exc}; the annotation was not kept") \
            from None
    return Annotations(annotations.log, path, True, annotations.entries)

