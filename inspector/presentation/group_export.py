"""A group of the overview written as a suite (``triage.export``): its first
records, a sample or the ones marked, among those its list shows when narrowed,
each reread and checked to be what was counted; as a new file, or as the bytes a
served inspector offers as a download.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..triage.drill import LineReader
from ..triage.export import ExportError, SampleTaken, export_suite, suite_bytes
from ..triage.groups import GroupKind
from ..triage.logs import LogError
from ..triage.members import GroupMembers, Rereader
from ..triage.sample import sample_numbers
from ..triage.stamp import LogChanged
from ..triage.summary import Group
from .overview import Snapshot, TriageRun

__all__ = ["EXPORT_LIMIT", "Shown", "StaleExport", "export_download", "export_group", "export_path"]

# How many records an export from the overview takes unless told: the first ones.
EXPORT_LIMIT = 1000


class StaleExport(ExportError):
    """An export refused because a log is not what was counted any more (its
    ``path``): nothing was written, and counting again is the way on."""


def export_path(group: Group) -> str:
    """The file an export of the group proposes: its name, made a plain file name."""
    stem = re.sub(r"[^A-Za-z0-9._=-]+", "_", group.name).strip("._")[:80] or "group"
    return f"{stem}.json"


@dataclass(frozen=True, slots=True)
class Shown:
    """The records of a group its list shows when narrowed (``/``'s filter, a choice in the palette or the
    summary): their numbers, ascending, and how they were chosen in words (``filter model=gpt-x``).  An
    export takes what the user sees: the first ones, a sample and the marked ones are taken among these."""

    numbers: tuple[int, ...]
    words: str

    def __len__(self) -> int:
        return len(self.numbers)

    @property
    def records_words(self) -> str:
        """``records shown (filter model=gpt-x)``: what a sample is drawn from, in the suite's description."""
        return f"records shown ({self.words})"


def export_group(group: Group, snapshot: Snapshot, run: TriageRun, reader: LineReader, out: str | Path,
                 limit: int = EXPORT_LIMIT, *, numbers: Sequence[int] | None = None,
                 sample: SampleTaken | None = None, shown: Shown | None = None) -> int:
    """Write the group's first ``limit`` records, as counted in ``snapshot``, as a
    new suite file at ``out`` (``triage.export``: the file the headless
    ``--export GROUP --out SUITE --limit N`` writes); returns the cases written.
    ``numbers``: those of the group's records instead (the ones marked);
    ``sample``: a random sample of them instead, the records the headless
    ``--sample N --seed S`` writes for the same seed (``triage.sample``).
    ``shown``: the group's list is narrowed to these (a filter): the first
    ones, the sample and the marked ones are taken among them only, and the
    suite's description says so.
    Each record is reread only from a log still what was counted, and only if
    its verdict is still the one counted (``triage.members.Rereader``); the
    logs are checked once more before writing.  Raises ``ExportError`` with the
    one line to show: a group of bad lines, a log that cannot be read again or
    changed since it was counted (``StaleExport``: count again), a
    file already there, a full disk; nothing is written then."""
    collected, notes_by_log, sample, chosen = _collected(group, snapshot, run, reader, out, limit, numbers, sample, shown)
    return export_suite(out, group.name, run.registry, collected, run.logs, run.options.log_format, notes_by_log,
                        sample=sample, chosen=chosen)


def export_download(group: Group, snapshot: Snapshot, run: TriageRun, reader: LineReader, name: str,
                    limit: int = EXPORT_LIMIT, *, numbers: Sequence[int] | None = None,
                    sample: SampleTaken | None = None, shown: Shown | None = None) -> tuple[bytes, int]:
    """The suite ``export_group`` would write, as bytes (and its cases): what a served
    inspector offers as a download named ``name`` instead of writing on the server.
    Refused as ``export_group`` refuses, but for what only a file on disk can be."""
    collected, notes_by_log, sample, chosen = _collected(group, snapshot, run, reader, name, limit, numbers, sample, shown)
    return suite_bytes(name, group.name, run.registry, collected, run.logs, run.options.log_format, notes_by_log,
                       sample=sample, chosen=chosen)


def _collected(group: Group, snapshot: Snapshot, run: TriageRun, reader: LineReader, out: str | Path, limit: int,
               numbers: Sequence[int] | None, sample: SampleTaken | None, shown: Shown | None
               ) -> tuple[list[Any], Any, SampleTaken | None, str | None]:
    """The group's chosen records (among those ``shown``, when the list is narrowed) reread (each still
    what was counted), the reviewers' annotations of the logs, the sample as drawn and how the records
    were chosen otherwise, in words; ``ExportError`` naming ``out``."""
    if group.kind is GroupKind.BAD:
        raise ExportError(out, "the bad lines cannot be exported as a suite: they are not records")
    if limit < 1:
        raise ExportError(out, "the number of records to export is at least 1")
    index = snapshot.summary.tally.index
    if index is None:  # pragma: no cover - the overview always counts with the index
        raise ExportError(out, "this triage kept no index")
    members = GroupMembers(group, index, snapshot.indexed, run.options.by, reader,
                           log_format=run.options.log_format)
    rereader = Rereader(reader, run.registry, snapshot.stamps, run.options.log_format)
    collected = []
    # The records to choose from: those shown when the list is narrowed, else the whole group.
    pool: Sequence[int] = shown.numbers if shown is not None else range(len(members))
    chosen: Iterable[int] = pool[:limit]
    if numbers is not None:
        chosen = sorted(set(numbers).intersection(pool)) if shown is not None else sorted(set(numbers))
    elif sample is not None:
        members.resolve_all()
        files, file_of, offsets, found = index.files, index.file, index.offset, members.found
        if shown is None:
            chosen = sample_numbers(((files[file_of[position]], offsets[position]) for position in found),
                                    sample.size, sample.seed)
        else:  # drawn among those shown, each keyed by its place as the headless sample keys it
            pool = [number for number in pool if number < len(found)]
            sample = replace(sample, of=len(pool), among=shown.records_words)
            drawn = sample_numbers(((files[file_of[found[number]]], offsets[found[number]]) for number in pool),
                                   sample.size, sample.seed)
            chosen = [pool[number] for number in drawn]
    try:
        rereader.check()
        for number in chosen:
            position = members.position(number)
            if position is None:
                break
            file, line, offset, label = index.entry(position)
            try:
                collected.append((file, line, offset, rereader.reread(file, line, offset, label)[0], label))
            except LogChanged:
                raise
            except LogError as exc:
                raise ExportError(out, f"{file}:{line} cannot be read again: {exc.problem}; nothing was written") \
                    from None
        rereader.check()  # what was reread is what was counted, up to the last line
    except LogChanged as exc:
        raise StaleExport(exc.path, f"{exc.problem}; nothing was written") from None
    if not collected:
        raise ExportError(out, f"no record to write among the {len(shown):,} {shown.records_words}"
                          if shown is not None else "no record in this group")
    from ..triage.annotated import read_all
    from ..triage.annotations import AnnotationError

    try:  # each record's annotation, carried into its case (human)
        notes_by_log = read_all(run.logs)
    except AnnotationError as exc:
        raise ExportError(exc.path, f"{exc.problem}; nothing was written") from None
    among = f" among the {len(shown):,} {shown.records_words}" if shown is not None else ""
    chosen_words = f"the {len(collected):,} record(s) marked by hand{among}" if numbers is not None else \
        f"the first {len(collected):,} of the {len(shown):,} {shown.records_words}" \
        if shown is not None and sample is None else None
    return collected, notes_by_log, sample, chosen_words
