"""A reviewer's annotations as the inspector shows and makes them: ``AnnotationStore``.

One store a triage overview: it reads each log's annotations file
(``triage.annotations``) when it is asked for and keeps it until the file
changes, says what a record's annotation is (the strip above its request:
``RecordPlace.annotation``), annotates or clears a record of a group opened
(its line reread as its case is: only from a log still what was counted), and
joins the annotations to the overview's groups (``triage.annotated``).  No
textual; everything a note holds stays untrusted text (the widgets draw it
through ``tui.safe``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any

from ..contract.text import shorten
from ..suites.load import Case, HumanDecision
from ..triage.annotated import AnnotationCounts, apply_annotations, join_annotations
from ..triage.annotations import (
    DECISIONS,
    Annotation,
    AnnotationError,
    Annotations,
    allowed_decisions,
    annotate,
    annotations_path,
    clear,
    decision_for,
    digest,
    new_annotation,
    person_label,
    read_annotations,
)
from ..triage.drill import LineReader
from ..triage.logs import LogError
from ..triage.stamp import LogChanged
from .overview import Snapshot, TriageRun
from .record_session import RecordSession
from .records import RecordPlace

__all__ = ["DECISIONS", "NOTE_SHOWN", "AnnotationStore", "LabelOrigin", "RecordAnnotation",
           "annotation_words", "label_origin", "parse_decision"]

# A note's characters the strip shows at most (the line says the rest is cut).
NOTE_SHOWN = 160


@dataclass(frozen=True, slots=True)
class RecordAnnotation:
    """The record a decision is about, as the annotate form shows it: its place, verdict, the two
    decisions it may get, and its annotation now (None: none)."""

    file: str
    line: int
    offset: int
    verdict: str
    choices: tuple[str, str]
    current: Annotation | None


@dataclass(frozen=True, slots=True)
class LabelOrigin:
    """Where an exported record's frozen label came from, as the verdict panel says it: ``words``
    (written here), then the person's decision when the record is annotated (``human``: its
    reviewer and time are untrusted); ``unlabelled``: the case has no label for it."""

    words: str
    human: HumanDecision | None = None
    unlabelled: bool = False


def label_origin(case: Case | None) -> LabelOrigin | None:
    """Where ``case``'s label came from, for an exported triage record (None for any other case:
    its label is the suite's).  The contract's own verdict, when exported, matches it by
    construction; an annotated record's is the person's (``triage.annotations.person_label``): ACCEPT
    for a false rejection, none for a false acceptance.  An export written before labels came from
    annotations holds the contract's verdict beside a person's false decision: said so."""
    if case is None or (case.metadata is None and case.human is None):
        return None
    human = case.human
    if human is None:
        return LabelOrigin("label frozen from the contract's verdict when exported")
    if case.expected is None:
        return LabelOrigin("unlabelled: a person's annotation says", human, unlabelled=True)
    if case.expected == person_label(human.decision, case.expected):
        return LabelOrigin("label from a person's annotation:", human)
    return LabelOrigin("label frozen from the contract's verdict; annotated:", human)


def parse_decision(text: str, verdict: str) -> str:
    """A decision as typed in the form: its name, or ``true``/``false`` (``t``/``f``) for the
    record's pair.  ValueError (one line) otherwise."""
    typed = text.strip().casefold()
    if typed in ("t", "true", "right"):
        return decision_for(verdict, True)
    if typed in ("f", "false", "w", "wrong"):
        return decision_for(verdict, False)
    if typed in DECISIONS:
        return typed
    raise ValueError(f"type one of {', '.join(allowed_decisions(verdict))} (or true, false)")


def annotation_words(annotation: Annotation) -> str:
    """``false_rejection · Ada · 2026-12-02T06:30:00Z · the note`` (the note cut to ``NOTE_SHOWN``)."""
    parts = [annotation.decision, annotation.reviewer, annotation.at]
    if annotation.note:
        parts.append(shorten(annotation.note, NOTE_SHOWN))
    return " · ".join(parts)


class AnnotationStore:
    """The annotations of one triage's logs: read when asked for, kept until their file changes."""

    def __init__(self) -> None:
        self._notes_by_log: dict[str, tuple[Any, Annotations]] = {}
        # What the last annotate found: the annotation of the record taken meanwhile elsewhere that it replaced.
        self.news: str | None = None

    def notes_of(self, log: str) -> Annotations:
        """The annotations of ``log`` (AnnotationError: standard input, or a file that cannot be read)."""
        path = annotations_path(log)
        try:
            found = os.stat(path, follow_symlinks=False)
            stamp: Any = (found.st_dev, found.st_ino, found.st_size, found.st_mtime_ns)
        except (OSError, ValueError):
            stamp = None
        kept = self._notes_by_log.get(log)
        if kept is not None and kept[0] == stamp and stamp is not None:
            return kept[1]
        log_notes = read_annotations(log)
        self._notes_by_log[log] = (stamp, log_notes)
        return log_notes

    # -- a record's --------------------------------------------------------------------

    def place(self, session: RecordSession, number: int, place: RecordPlace | None) -> RecordPlace | None:
        """The strip's ``place`` with the record's annotation (or why it cannot be known)."""
        if place is None or place.problem is not None:
            return place
        record = session.cases.record(number)
        if record is None or record.sha256 is None:
            return place
        try:
            log_notes = self.notes_of(record.file)
        except AnnotationError as exc:
            return replace(place, annotation=f"annotations unreadable: {exc}", annotation_state="stale")
        found = log_notes.find(record.line, record.offset, record.sha256)
        if found is not None:
            return replace(place, annotation=annotation_words(found),
                           annotation_state="false" if found.is_false else "true")
        if log_notes.stale_at(record.line, record.offset, record.sha256):
            return replace(place, annotation="an annotation of another line at this offset (the log was "
                           "rewritten): stale, not applied", annotation_state="stale")
        return place

    def of_records(self, session: RecordSession) -> dict[int, Annotation]:
        """The annotation of each annotated record of the group, by its number (the list's marker, the
        filter's ``annotated`` terms): each annotation's line read again, a stale one left out, a file that
        cannot be read too (the strip says why)."""
        by_place: dict[tuple[str, int, int, str], Annotation] = {}
        for log in dict.fromkeys(session.cases.members.index.files):
            try:
                log_notes = self.notes_of(log)
            except AnnotationError:
                continue
            for annotation in log_notes:
                by_place[(log, annotation.line, annotation.offset, annotation.sha256)] = annotation
        return {number: by_place[place] for place, number in session.find_places(by_place).items()}

    def record(self, session: RecordSession, number: int) -> RecordAnnotation:
        """The ``number``-th record as the form asks about it.  AnnotationError, LogChanged
        or LogError (one line) when it cannot be annotated."""
        file, line, offset, text, verdict = self._line(session, number)
        current = self.notes_of(file).find(line, offset, digest(text))
        return RecordAnnotation(file, line, offset, verdict, allowed_decisions(verdict), current)

    def annotate(self, session: RecordSession, number: int, decision: str | bool, note: str | None = None, *,
                 keep_note: bool = False, reviewer: str | None = None) -> Annotation:
        """Mark the ``number``-th record: ``decision`` by name, or True (the contract was right) / False
        (wrong); ``keep_note``: the note of its annotation now (a decision changed with a key).  Returns the
        annotation kept.  AnnotationError, ValueError, LogChanged or LogError (one line) when refused."""
        file, line, offset, text, verdict = self._line(session, number)
        kept = self._notes_by_log.get(file)  # what was last shown of this log, before anything is read again
        known = kept[1].find(line, offset, digest(text)) if kept is not None else None
        if isinstance(decision, bool):
            decision = decision_for(verdict, decision)
        if keep_note:
            current = self.notes_of(file).find(line, offset, digest(text))
            note = current.note if current is not None else None
        annotation = new_annotation(file, line, offset, text, verdict, decision, note, reviewer)
        self.news = None
        log_notes = annotate(file, annotation)
        self._notes_by_log[file] = (None, log_notes)
        replaced = log_notes.replaced
        if replaced is not None and replaced != known:
            self.news = (f"replaced {replaced.reviewer}'s {replaced.decision} of line {line} ({replaced.at}) "
                         "taken meanwhile")
        return annotation

    def clear(self, session: RecordSession, number: int) -> bool:
        """Remove the ``number``-th record's annotation; whether it had one."""
        file, line, offset, text, _ = self._line(session, number)
        log_notes, removed = clear(file, line, offset, digest(text))
        self._notes_by_log[file] = (None, log_notes)
        return removed

    def _line(self, session: RecordSession, number: int) -> tuple[str, int, int, bytes, str]:
        members = session.cases.members
        entry = members.entry(number)
        if entry is None:
            raise LogChanged("log", f"record {number + 1} is not found again")
        annotations_path(entry[0])  # standard input: refused before anything is read
        found = members.line(number)  # reread as its case is: LogChanged when it is not the record counted
        if found is None:  # pragma: no cover - entry() found it
            raise LogChanged(entry[0], f"record {number + 1} is not found again")
        file, line, offset, text = found
        return file, line, offset, text, entry[3]

    # -- the overview's --------------------------------------------------------------------

    def join(self, snapshot: Snapshot, run: TriageRun, reader: LineReader | None = None) -> AnnotationCounts | None:
        """Every group of ``snapshot`` with its annotated counts (``triage.annotated``), None when no log
        has annotations.  AnnotationError for a file that cannot be read."""
        notes_by_log = {log: self.notes_of(log) for log in dict.fromkeys(run.logs)}
        if not any(log_notes.exists for log_notes in notes_by_log.values()):
            return None
        counts = join_annotations(snapshot.summary, run.registry, notes_by_log, run.options, reader)
        apply_annotations(snapshot.summary, counts)
        return counts
