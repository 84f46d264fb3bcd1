"""Formats whose records are not one a line, turned into canonical lines first.

A document (Inspect's ``.json`` and ``.eval``, promptfoo's ``results.json``,
Phoenix's spans), several records a line (an OTLP batch of spans), a record whose
request is in another file (OpenAI Batch's input, joined on ``custom_id``) or in
another record (a span's parent, in whatever order they come) cannot be counted a
line at a time.  ``stage`` reads such logs record by record (``sources``: in
bounded memory) and writes each as one canonical line (``spec.convert``) into a
private temporary folder; the triage then counts those lines as it counts its
own (``LogFormat(staged=True)``: ``reading.parse_staged``).  Every staged line
says where its record came from (``source``: ``spans.json data[12]``,
``traces.jsonl:3 resourceSpans[0].scopeSpans[0].spans[1]``); a record that is not
usable is a line of its own, ``{"@bad": reason}``, and a row that is not a model
answer ``{"@skip": what}``, so that the counts, bad lines included, are the
triage's as for any log.  The folder is removed when the process ends.

Pure: no textual, no rich.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec

from ...contract.text import visible
from ..logs import LogError, is_gzip, range_chunks, size_of, stream_chunks
from .paths import Missing, RepeatedKey, decode_json
from .spec import FormatSpec, Skipped, convert

__all__ = ["Staged", "stage"]

_encode = msgspec.json.encode
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


@dataclass
class Staged:
    """The canonical logs written, each with the log it was read from."""

    folder: str
    logs: list[str] = field(default_factory=list)
    origins: dict[str, str] = field(default_factory=dict)
    records: int = 0
    skipped: int = 0
    bad: int = 0


def _chunks(path: str) -> Iterator[tuple[int, bytes | None, int]]:
    """A log's lines in chunks: a ``.gz`` decompressed (by its magic bytes), a plain file as it is."""
    if is_gzip(path):
        yield from stream_chunks(path)
        return
    size = size_of(path)
    yield from range_chunks(path, 0, size)


def _records(path: str, spec: FormatSpec) -> Iterator[tuple[str, Any, str | None]]:
    """(where in the log, record, problem) of every record of one log, in order:
    ``3`` (a line), ``3 resourceSpans[0].scopeSpans[0].spans[1]`` (in a line),
    ``samples[12]`` (in a document), ``samples/3_epoch_1.json`` (in a zip)."""
    if path.endswith(".eval"):
        from .sources import SourceError, iter_eval

        try:
            _, items = iter_eval(path)
        except SourceError as exc:
            raise LogError(path, str(exc)) from None
        for item in items:
            yield item.place, item.value, item.problem
        return
    if spec.reads == "document" or path.endswith((".json", ".json.gz")):
        from .sources import iter_document

        records = spec.records.text if spec.records is not None else ""
        found = False
        for item in iter_document(path, records):
            found = found or item.problem is None
            yield item.place, item.value, item.problem
        if not found:
            yield "", None, f"no records: nothing at {records or 'the top'} in this document"
        return
    number = 0
    for _, data, length in _chunks(path):
        if data is None:
            number += 1
            yield str(number), None, f"too long: {length} bytes on one line (not read)"
            continue
        lines = data.split(b"\n")
        if data.endswith(b"\n"):
            lines.pop()
        for line in lines:
            number += 1
            where = str(number)
            if not line.strip():
                yield where, None, "empty line"
                continue
            try:
                value = decode_json(line)
            except RepeatedKey as exc:
                yield where, None, f"duplicate key: {exc}"
                continue
            except ValueError as exc:
                yield where, None, f"not JSON: {exc}"
                continue
            if spec.records is None:
                yield where, value, None
                continue
            found = False
            for place, record, enclosing in spec.records.expand(value):
                found = True
                if spec.enclosing:  # the records' enclosing elements, each under its name (records_as)
                    record = _Enclosed(record, dict(zip(spec.enclosing, enclosing)))
                yield f"{where} {place}", record, None
            if not found:  # not a line of this format: said, never counted as nothing
                yield where, None, f"no records: nothing at {spec.records.text} in this line"


class _Enclosed:
    """A record with the elements that enclose it in its line (``records_as``)."""

    __slots__ = ("around", "record")

    def __init__(self, record: Any, around: dict[str, Any]) -> None:
        self.record = record
        self.around = around


def _bare(record: Any) -> Any:
    return record.record if record.__class__ is _Enclosed else record


def _header(path: str, spec: FormatSpec) -> Any:
    if spec.header is None or spec.header.path is None:
        return None
    if path.endswith(".eval"):
        from .sources import SourceError, iter_eval

        try:
            header, _ = iter_eval(path)
        except SourceError as exc:
            raise LogError(path, str(exc)) from None
        found = spec.header.path.walk(header)
        return None if found.__class__ is Missing else found
    from .sources import header as read_header

    item = read_header(path, spec.header.path.text)
    return item.value if item.problem is None else None


def _joined(path: str, spec: FormatSpec) -> dict[str, bytes]:
    """The joined file's records by key (each kept as its JSON bytes, decoded when its record comes)."""
    assert spec.join is not None and spec.join.file is not None and spec.join.on is not None
    other = os.path.join(os.path.dirname(path), spec.join.file)
    if not os.path.isfile(other):
        raise LogError(path, f"the join file {visible(spec.join.file)} is not beside it ({visible(other)})")
    found: dict[str, bytes] = {}
    for _, data, _length in _chunks(other):
        if data is None:
            continue
        for line in data.split(b"\n"):
            if not line.strip():
                continue
            try:
                value = decode_json(line)
            except ValueError:
                continue
            key = spec.join.on.walk(value)
            if key.__class__ is str:
                found[key] = line
    return found


def stage(logs: list[str], spec: FormatSpec, progress: Callable[[int], None] | None = None) -> Staged:
    """Each log's records as canonical lines in a new private folder (removed at exit)."""
    folder = tempfile.mkdtemp(prefix="inspector-formats-")
    atexit.register(shutil.rmtree, folder, True)
    staged = Staged(folder)
    parents: dict[str, Any] = {}
    if spec.parent is not None and spec.parent.id is not None and spec.parent.parent is not None:
        wanted: set[str] = set()
        for path in logs:
            for _, record, problem in _records(path, spec):
                if problem is None:
                    parent = spec.parent.parent.walk(_bare(record))
                    if parent.__class__ is str and parent:
                        wanted.add(parent)
        for path in logs:
            for _, record, problem in _records(path, spec):
                if problem is None:
                    ident = spec.parent.id.walk(_bare(record))
                    if ident.__class__ is str and ident in wanted:
                        parents[ident] = _bare(record)
    if spec.join is not None and spec.join.file is not None:
        # A directory or glob given as LOG holds the joined file too: it is not a log of answers.
        logs = [path for path in logs if os.path.basename(path) != spec.join.file] or logs
    for number, path in enumerate(logs, 1):
        # Named as the log it was read from (a folder a log: two logs may share a name), so that
        # what the summary says of a staged log reads as of that log; each record's source is exact.
        os.mkdir(os.path.join(folder, str(number)))
        out = os.path.join(folder, str(number), os.path.basename(path) or "log")
        joined = _joined(path, spec) if spec.join is not None else None
        header = _header(path, spec)
        # A new file (O_EXCL) in the private folder mkdtemp made: nothing else's, never written through.
        with os.fdopen(os.open(out, _NEW_FILE, 0o600), "wb") as handle:
            for place, record, problem in _records(path, spec):
                related: dict[str, Any] = {}
                if record.__class__ is _Enclosed:
                    related.update(record.around)
                    record = record.record
                if header is not None and spec.header is not None:
                    related[spec.header.name] = header
                if problem is None and joined is not None and spec.join is not None and spec.join.on is not None:
                    key = spec.join.on.walk(record)
                    line = joined.get(key) if key.__class__ is str else None
                    if line is not None:
                        related[spec.join.name] = decode_json(line)
                if problem is None and spec.parent is not None and spec.parent.parent is not None:
                    parent = spec.parent.parent.walk(record)
                    if parent.__class__ is str and parent in parents:
                        related[spec.parent.name] = parents[parent]
                outcome: Any = problem if problem is not None else convert(spec, record, related)
                source = {"file": path, "at": place}
                if outcome.__class__ is Skipped:
                    handle.write(_encode({"@skip": str(outcome), "source": source}) + b"\n")
                    staged.skipped += 1
                elif outcome.__class__ is str:
                    where = f"{path}:{place}" if place.isdigit() else f"{path} {place}".rstrip()
                    handle.write(_encode({"@bad": f"{outcome} ({where})", "source": source}) + b"\n")
                    staged.bad += 1
                else:
                    outcome["source"] = source
                    handle.write(_encode(outcome) + b"\n")
                    staged.records += 1
                if progress is not None:
                    progress(1)
        staged.logs.append(out)
        staged.origins[out] = path
    return staged
