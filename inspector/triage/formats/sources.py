"""The records of a log that is one JSON document (``.json``, ``.json.gz``) or an
Inspect AI ``.eval`` zip, read in bounded memory: a 2 GB log with full
transcripts is read holding one record at a time, never the document.

``iter_document(path, records)`` streams one document with ijson (its C
backend, ``yajl2_c``, where the wheel has it: ``BACKEND`` says which was
loaded) and yields an ``Item`` for each element at ``records``, the preset's
records path (``samples[*]``, ``results.results[*]``,
``resourceSpans[*].scopeSpans[*].spans[*]``; empty: the whole document is
one record).  The parser's events are turned into Python values here, not by
ijson, so that a record can be refused while it is read: a key repeated in an
object (which of the two counts is ambiguous: Python's ``json`` keeps the
last, other readers the first), a record nested deeper than ``MAX_DEPTH``
levels, a record longer than ``MAX_RECORD_BYTES`` of JSON text (dropped as it
passes, never held).  Numbers: an integer is an ``int`` (of any size), any
other number a ``float`` (``1e400`` is ``inf``, as Python's ``json`` reads
it); ijson's ``use_float`` is not used, because yajl then refuses an integer
past 64 bits as an overflow and the whole document with it.

yajl reads escaped surrogates its own way, not as Python's ``json`` does: a lone
high one (``"\\ud800"``) becomes ``?``, two high ones a wrong character, and a
lone low one (``"\\udc00"``) stops the document (a problem, as below).  The
text of such a string cannot be trusted; this reader does not detect the first
two (no UTF-8 text holds a lone surrogate: a writer emits one only from a
broken string).

A document that stops being JSON (not JSON, truncated, not UTF-8, a gzip that
breaks) ends with one last ``Item`` whose ``problem`` says where and why
(``results.json: not JSON at byte 1,234: ...``, the byte counted from 0 in the
decompressed text), after every record complete before it.  yajl reports an
error without its position: the byte is found by parsing again up to the piece
that failed, then byte by byte through it (only when a document is broken).

``header(path, path_in_doc)`` reads one member (Inspect's ``eval``) without
building the records: the members before it are skipped as they are parsed,
and reading stops once it is read.

``iter_eval(path)`` reads Inspect AI's ``.eval`` log, a zip.  Its layout, from
the recorder that writes it (UKGovernmentBEIS/inspect_ai,
src/inspect_ai/log/_recorders/eval.py at commit
499e6152e7b8fc8cbd8ac5283536572aa6e4ab17, 2026-08-22; the same names at
44b41cd36a6bf4b63dc7dfb17554fc7e0eed3566):

- ``_journal/start.json``: ``{version, eval, plan}``, written when the run
  starts (``LogStart``);
- ``samples/<id>_epoch_<epoch>.json``: one ``EvalSample`` each, written as
  samples finish (a sample written again, requeued, is a second member of the
  same name: the last one counts, as inspect_ai's readers resolve names);
- ``_journal/summaries/<n>.json``: each flush's sample summaries;
- at the end, ``summaries.json`` (every summary), ``reductions.json`` (when
  there are reductions) and ``header.json``: ``{version, status, eval, plan,
  results, stats, error?}`` (an ``EvalLog`` without samples).

The header is ``header.json``, or for a log still being written (or stopped
before its end) ``_journal/start.json``, which has no ``status``.  The samples
are yielded in inspect_ai's own order (``sort_samples`` in
src/inspect_ai/log/_log.py: by epoch, then by id, a numeric id compared as a
number), read from the member names, each member decoded alone (memory bounded
by one sample) by the same reader as a document, so a repeated key is a
problem there too.  Members are deflate-compressed (``zipfile``) or, since
inspect_ai 0.3.206 (April 2026) by default, Zstandard-compressed (method 93,
``zipfile_zstd``), which ``zipfile`` before Python 3.14 cannot open: those are
read here from the archive's bytes with ``zstandard``, and their CRC-32 checked.
"""

from __future__ import annotations

import io
import os
import re
import struct
import zipfile
import zlib
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import ijson

from ...contract.text import shorten, visible
from ..gz import GzipBreak, Inflater

__all__ = [
    "BACKEND",
    "MAX_DEPTH",
    "MAX_RECORD_BYTES",
    "Item",
    "SourceError",
    "header",
    "iter_document",
    "iter_eval",
    "parse_records",
]

BACKEND: str = ijson.backend  # "yajl2_c" where ijson's wheel has its C extension
MAX_DEPTH = 512  # nesting levels within one record
MAX_RECORD_BYTES = 64 * 1024 * 1024  # JSON text of one record (of one .eval member)
CHUNK_BYTES = 64 * 1024  # text fed to the parser at a time

_GZIP_MAGIC = b"\x1f\x8b"
_BOM = b"\xef\xbb\xbf"
_ZIP_ZSTANDARD = 93  # the zip compression method number of Zstandard (APPNOTE 4.4.5)
_SAMPLE_MEMBER = re.compile(r"samples/(.+)_epoch_(\d+)\.json")
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_\-]*")


@dataclass(frozen=True, slots=True)
class Item:
    """One record: where it is (``samples[12]``, ``samples/3_epoch_1.json``),
    and its value, or the one-line reason it could not be read (``problem``;
    ``value`` is then None)."""

    place: str
    value: Any = None
    problem: str | None = None


class SourceError(Exception):
    """An ``.eval`` file that cannot be read at all (not a zip, no header): one line."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        self.problem = problem


class _Broken(Exception):
    """The bytes under the parser stopped (a gzip break, a bad zip member): one line."""


@dataclass(frozen=True, slots=True)
class _Step:
    any: bool  # [*]: every element of an array
    key: str | None  # a member's name
    index: int | None  # a digit segment: also this element of an array


def parse_records(records: str) -> tuple[_Step, ...]:
    """A records path as steps: dotted names, each optionally followed by
    ``[*]`` (repeatable), a digit segment indexing an array; ``[*]`` alone
    first is the elements of a document that is an array; ``""`` the whole
    document.  ValueError for anything else."""
    steps: list[_Step] = []
    if not records:
        return ()
    for segment in records.split("."):
        name, stars = segment, 0
        while name.endswith("[*]"):
            name, stars = name[:-3], stars + 1
        if "[" in name or "]" in name or (not name and not (stars and not steps)):
            raise ValueError(f"records path {records!r}: {segment!r} is not a name, a number or NAME[*]")
        if name:
            steps.append(_Step(False, name, int(name) if name.isdigit() else None))
        steps.extend(_Step(True, None, None) for _ in range(stars))
    return tuple(steps)


def _key_place(place: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{place}[{key}]"
    text = key if _PLAIN_KEY.fullmatch(key) else '["' + key.replace("\\", "\\\\").replace('"', '\\"') + '"]'
    text = visible(shorten(text, 80))
    if text.startswith("["):
        return place + text
    return f"{place}.{text}" if place else text


def _number(value: Any) -> Any:
    return float(value) if type(value) is Decimal else value


class _Walker:
    """The parser's events of one document turned into records: ``feed`` takes
    a piece's events and returns the items completed in it."""

    def __init__(self, steps: tuple[_Step, ...], first_only: bool = False) -> None:
        self.steps = steps
        self.first_only = first_only
        self.frames: list[list[Any]] = []  # outside records: [is_array, key or index] per open container
        self.skip = 0  # containers open inside a value being skipped
        self.build: list[Any] = []  # inside a record: its open containers
        self.keys: list[Any] = []  # for each, the key of the member being read (None for an array)
        self.place = ""  # the record being read
        self.started_at = 0  # the text offset of the piece where it started
        self.problem: str | None = None
        self.done = False

    # -- places
    def _record_place(self) -> str:
        place = ""
        for _is_array, at in self.frames:
            place = _key_place(place, at)
        return place

    def _inner_place(self, key: str) -> str:
        """The place of member ``key`` of the innermost open object."""
        place = self.place
        for level, (container, at) in enumerate(zip(self.build, self.keys)):
            if at is None:  # an array: its last element is the one being read
                place = _key_place(place, len(container) - 1)
            elif level < len(self.build) - 1:
                place = _key_place(place, at)
        return _key_place(place, key)

    def in_record(self) -> bool:
        return bool(self.build) or self.problem is not None

    def refuse(self, problem: str) -> None:
        """Drop the record being built and skip the rest of it."""
        if self.problem is None:
            self.problem = problem
        self.skip = len(self.build)
        self.build, self.keys = [], []

    def feed(self, events: list[tuple[str, Any]], offset: int) -> list[Item]:
        # The hot loop: the innermost open container and the key being read
        # are locals (``keys[-1]`` is brought up to date when one is opened,
        # and at the end); inside a record, the commonest events come first.
        out: list[Item] = []
        steps, frames, build, keys = self.steps, self.frames, self.build, self.keys
        nsteps = len(steps)
        top: Any = build[-1] if build else None
        key: Any = keys[-1] if keys else None
        for event, value in events:
            if build:
                if event == "map_key":
                    if value in top:
                        self.refuse(f'duplicate key "{visible(shorten(value, 80))}" in '
                                    f"{self._inner_place(value)} (which one counts is ambiguous)")
                        build, keys = self.build, self.keys
                    key = value
                    continue
                if event == "string" or event == "null" or event == "boolean":
                    pass
                elif event == "number":
                    if type(value) is Decimal:
                        value = float(value)
                elif event == "start_map" or event == "start_array":
                    new: Any = {} if event == "start_map" else []
                    if key is None:
                        top.append(new)
                    else:
                        top[key] = new
                    if len(build) >= MAX_DEPTH:
                        self.refuse(f"{self.place} is nested deeper than {MAX_DEPTH} levels")
                        build, keys = self.build, self.keys
                        self.skip += 1
                        continue
                    keys[-1] = key
                    build.append(new)
                    top = new
                    key = None if event == "start_array" else ""
                    keys.append(key)
                    continue
                else:  # the end of a container
                    build.pop()
                    keys.pop()
                    if build:
                        top, key = build[-1], keys[-1]
                        continue
                    out.append(Item(self.place, top))
                    self._record_done()
                    if self.done:
                        break
                    continue
                if key is None:
                    top.append(value)
                else:
                    top[key] = value
                continue
            if self.skip:
                if event == "start_map" or event == "start_array":
                    self.skip += 1
                elif event == "end_map" or event == "end_array":
                    self.skip -= 1
                    if not self.skip and self.problem is not None:
                        out.append(Item(self.place, problem=self.problem))
                        self._record_done()
                        if self.done:
                            break
                continue
            # outside records: where the value starting now is
            if event == "map_key":
                frames[-1][1] = value
                continue
            if event == "end_map" or event == "end_array":
                frames.pop()
                continue
            depth = len(frames)
            if depth:
                frame = frames[-1]
                if frame[0]:
                    frame[1] += 1
                step = steps[depth - 1]
                at = frame[1]
                if frame[0]:
                    matches = step.any or step.index == at
                else:
                    matches = not step.any and step.key == at
                if not matches:
                    if event == "start_map" or event == "start_array":
                        self.skip = 1
                    continue
            container = event == "start_map" or event == "start_array"
            if depth == nsteps:  # a record starts
                self.place = self._record_place()
                self.started_at = offset
                if container:
                    top = {} if event == "start_map" else []
                    key = None if event == "start_array" else ""
                    build.append(top)
                    keys.append(key)
                else:
                    out.append(Item(self.place, _number(value) if event == "number" else value))
                    self._record_done()
                    if self.done:
                        break
            elif container:
                frames.append([event == "start_array", -1 if event == "start_array" else ""])
        if build:
            keys[-1] = key
        return out

    def _record_done(self) -> None:
        self.problem = None
        if self.first_only:
            self.done = True

    def check_size(self, fed: int) -> None:
        if self.build and fed - self.started_at > MAX_RECORD_BYTES:
            self.refuse(f"{self.place} is longer than {MAX_RECORD_BYTES // (1024 * 1024)} MiB of JSON text "
                        "(refused, not read)")


def _first_line(exc: Exception) -> str:
    text = str(exc)
    if text[:2] in ("b'", 'b"'):  # yajl's message as the repr of bytes
        text = text[2:].replace("\\n", "\n")
    lines = text.strip().splitlines()
    return visible(shorten(lines[0] if lines else type(exc).__name__, 120))


class _Text:
    """Bytes read up to ``size`` at a time, ``b""`` at the end; ``_Broken`` at a break."""

    def read(self, size: int) -> bytes:
        raise NotImplementedError

    def close(self) -> None:
        pass


_Opener = Callable[[], _Text]


def _error_offset(open_text: _Opener, start: int) -> int:
    """Where yajl stops (it does not say): the text parsed again, in pieces up
    to ``start`` (the offset of the piece that failed), then byte by byte."""
    try:
        text = open_text()
    except _Broken:
        return start
    events = ijson.sendable_list()
    coro = ijson.basic_parse_coro(events)
    at = 0
    try:
        while piece := text.read(CHUNK_BYTES):
            if at == 0 and piece.startswith(_BOM):
                piece, at = piece[3:], 3
            if at + len(piece) <= start:
                coro.send(piece)
                events.clear()
                at += len(piece)
                continue
            for i in range(len(piece)):
                coro.send(piece[i:i + 1])
                events.clear()
                at += 1
        return at
    except (ijson.JSONError, UnicodeDecodeError, _Broken):
        return at
    finally:
        text.close()


def _walk(name: str, open_text: _Opener, steps: tuple[_Step, ...], first_only: bool = False) -> Generator[Item]:
    """The items of the document ``open_text()`` reads, the last one a problem
    if the document stops being JSON (its message starts with ``name``)."""
    walker = _Walker(steps, first_only)
    events = ijson.sendable_list()
    coro = ijson.basic_parse_coro(events)
    fed = 0  # text given to the parser
    quiet = 0  # text given since the last event (a single token being read)
    seen = False  # any event

    def ended(problem: str) -> Item:
        inside = f" (inside {walker.place})" if walker.in_record() and walker.place else ""
        return Item(walker.place if walker.in_record() else "", problem=f"{name}: {problem}{inside}")

    try:
        text = open_text()
    except _Broken as exc:
        yield ended(str(exc))
        return
    try:
        while not walker.done:
            try:
                piece = text.read(CHUNK_BYTES)
            except _Broken as exc:
                yield ended(f"{exc} (after {fed:,} bytes of JSON text)")
                return
            if not piece:
                break
            if fed == 0 and piece.startswith(_BOM):
                piece, fed = piece[3:], 3
            try:
                coro.send(piece)
            except (ijson.JSONError, UnicodeDecodeError) as exc:
                yield from walker.feed(events, fed)
                if not walker.done:
                    if isinstance(exc, UnicodeDecodeError):  # yajl decodes "\\udc00" to bytes Python refuses
                        reason = "a string escapes a lone low surrogate (\\udc00-\\udfff)"
                    else:
                        reason = _first_line(exc)
                    kind = "not UTF-8" if "UTF8" in reason else "not JSON"
                    yield ended(f"{kind} at byte {_error_offset(open_text, fed):,}: {reason}")
                return
            had = bool(events)
            seen = seen or had
            done = walker.feed(events, fed)
            events.clear()
            fed += len(piece)
            quiet = 0 if had else quiet + len(piece)
            walker.check_size(fed)
            yield from done
            if quiet > MAX_RECORD_BYTES:
                yield ended(f"a single value longer than {MAX_RECORD_BYTES // (1024 * 1024)} MiB at byte "
                            f"{fed - quiet:,} (refused: reading stopped)")
                return
        if walker.done:
            return
        try:
            coro.close()
        except (ijson.JSONError, UnicodeDecodeError):  # the text ended before the document did
            yield from walker.feed(events, fed)
            yield ended("empty: no JSON document" if not seen and not events
                        else f"truncated at byte {fed:,}: the JSON document is not complete")
            return
        yield from walker.feed(events, fed)
    finally:
        text.close()


class _FileText(_Text):
    """A file's bytes, decompressed when it starts with gzip's magic bytes (whatever its name)."""

    def __init__(self, path: str) -> None:
        try:
            self._file = open(path, "rb", buffering=0)
        except OSError as exc:
            raise _Broken(f"cannot read: {exc.strerror or exc}") from None
        self._inflater = Inflater(self._file.fileno()) if os.pread(self._file.fileno(), 2, 0) == _GZIP_MAGIC else None

    def read(self, size: int) -> bytes:
        try:
            if self._inflater is not None:
                return self._inflater.read(size)
            return self._file.read(size) or b""
        except GzipBreak as exc:
            raise _Broken(f"gzip: {exc.problem}") from None
        except OSError as exc:
            raise _Broken(f"cannot read: {exc.strerror or exc}") from None

    def close(self) -> None:
        self._file.close()


def iter_document(path: str, records: str) -> Iterator[Item]:
    """Each element at ``records`` (a records path: ``samples[*]``,
    ``a[*].b[*]``; ``""`` the whole document) of the JSON document at
    ``path`` (gzip-compressed or not), streamed; the last item a problem when
    the document stops being JSON.  ValueError for a records path that is not one."""
    steps = parse_records(records)
    return _walk(os.path.basename(path), lambda: _FileText(path), steps)


def header(path: str, path_in_doc: str) -> Item:
    """The member at ``path_in_doc`` (dotted names: ``eval``, ``eval.model``)
    of the document at ``path``, read without building anything else: an
    ``Item`` with its value, or a problem (the member is not there, or the
    document breaks before it ends).  ValueError for a path that is not one."""
    steps = parse_records(path_in_doc)
    if not steps or any(step.any for step in steps):
        raise ValueError(f"header path {path_in_doc!r}: names only, no [*]")
    name = os.path.basename(path)
    items = _walk(name, lambda: _FileText(path), steps, first_only=True)
    try:
        for item in items:
            return item
    finally:
        items.close()
    return Item(path_in_doc, problem=f"{name}: no {path_in_doc} in the document")


# -- Inspect AI's .eval

HEADER_JSON = "header.json"
START_JSON = "_journal/start.json"


class _Archive:
    """An open ``.eval``: its entries (the last of a repeated name), and each
    member's text.  The central directory is read once."""

    def __init__(self, path: str, name: str) -> None:
        try:
            self.zip = zipfile.ZipFile(path)
        except zipfile.BadZipFile as exc:
            raise SourceError(f"{name}: not a zip archive, as an Inspect .eval log is ({exc})") from None
        except OSError as exc:
            raise SourceError(f"{name}: cannot read: {exc.strerror or exc}") from None
        self.entries = {info.filename: info for info in self.zip.infolist()}
        self.fd = self.zip.fp.fileno() if self.zip.fp is not None else -1
        self._decompressor: Any = None

    def text(self, info: zipfile.ZipInfo) -> _Text:
        if max(info.file_size, info.compress_size) > MAX_RECORD_BYTES:
            raise _Broken(f"{info.file_size:,} bytes, longer than {MAX_RECORD_BYTES // (1024 * 1024)} MiB "
                          "(refused, not read)")
        if info.compress_type == _ZIP_ZSTANDARD:
            if self._decompressor is None:
                try:
                    import zstandard
                except ImportError:
                    raise _Broken("compressed with Zstandard, and the zstandard package is not installed") from None
                self._decompressor = zstandard.ZstdDecompressor()  # reused, one member after the other
            return _ZstdMember(self.fd, info, self._decompressor)
        return _DeflatedMember(self.zip, info)

    def close(self) -> None:
        self.zip.close()


class _DeflatedMember(_Text):
    """A stored or deflated member, read by ``zipfile``."""

    def __init__(self, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
        try:
            self._stream = archive.open(info)
        except (OSError, zipfile.BadZipFile, NotImplementedError, RuntimeError, ValueError) as exc:
            raise _Broken(f"cannot be opened: {exc}") from None

    def read(self, size: int) -> bytes:
        try:
            return self._stream.read(size)
        except (OSError, zipfile.BadZipFile, zlib.error, EOFError, ValueError) as exc:
            raise _Broken(f"cannot be decompressed: {exc}") from None

    def close(self) -> None:
        self._stream.close()


class _ZstdMember(_Text):
    """A Zstandard member, read from the archive's bytes: its local header
    skipped, its data decompressed (every frame), its size and CRC-32 checked."""

    def __init__(self, fd: int, info: zipfile.ZipInfo, decompressor: Any) -> None:
        self._info = info
        local = os.pread(fd, 30, info.header_offset)
        if len(local) < 30 or local[:4] != b"PK\x03\x04":
            raise _Broken("its local header is not where the central directory says")
        name_length, extra_length = struct.unpack("<HH", local[26:30])
        start = info.header_offset + 30 + name_length + extra_length
        packed = os.pread(fd, info.compress_size, start)  # at most MAX_RECORD_BYTES (_Archive.text)
        if len(packed) < info.compress_size:
            raise _Broken("the archive ends inside it")
        self._reader = decompressor.stream_reader(io.BytesIO(packed), read_across_frames=True)
        self._crc = self._size = 0

    def read(self, size: int) -> bytes:
        try:
            data: bytes = self._reader.read(size)
        except _zstd_error() as exc:
            raise _Broken(f"not valid Zstandard data: {exc}") from None
        if data:
            self._crc = zlib.crc32(data, self._crc)
            self._size += len(data)
            if self._size > self._info.file_size:
                raise _Broken(f"longer than the {self._info.file_size:,} bytes its entry says")
        elif self._size != self._info.file_size:
            raise _Broken(f"{self._size:,} bytes, not the {self._info.file_size:,} its entry says")
        elif self._crc != self._info.CRC:
            raise _Broken("bad CRC-32")
        return data


def _zstd_error() -> type[Exception]:
    import zstandard

    return zstandard.ZstdError


def _sample_order(name: str) -> tuple[int, int, str]:
    match = _SAMPLE_MEMBER.fullmatch(name)
    assert match is not None
    sample, epoch = match.groups()
    return (int(epoch), 0, sample.zfill(20)) if sample.isdigit() else (int(epoch), 1, sample)


def _read_member(name: str, archive: _Archive, member: str) -> Item:
    """One member decoded alone: its value, or its problem."""
    info = archive.entries[member]
    items = _walk(f"{name}: {member}", lambda: archive.text(info), ())
    try:
        found = list(items)
    finally:
        items.close()
    problems = [item.problem for item in found if item.problem is not None]
    if problems:  # a broken member, a repeated key, text after the document
        problem = problems[-1]
        return Item(member, problem=problem if problem.startswith(f"{name}: ") else f"{name}: {member}: {problem}")
    return Item(member, found[0].value)


def iter_eval(path: str) -> tuple[dict[str, Any], Iterator[Item]]:
    """The header of the Inspect AI ``.eval`` log at ``path`` (``header.json``,
    or ``_journal/start.json`` for a log not finished) and its samples, one
    ``Item`` per ``samples/<id>_epoch_<n>.json`` member (the place is the
    member's name), in inspect_ai's order (by epoch, then id), read when the
    iterator is.  SourceError when the file is not a zip or has no header."""
    name = os.path.basename(path)
    archive = _Archive(path, name)
    try:
        entries = archive.entries
        member = HEADER_JSON if HEADER_JSON in entries else START_JSON if START_JSON in entries else None
        if member is None:
            raise SourceError(f"{name}: neither {HEADER_JSON} nor {START_JSON} in it: not an Inspect .eval log")
        found = _read_member(name, archive, member)
        if found.problem is not None:
            raise SourceError(found.problem)
        if not isinstance(found.value, dict):
            raise SourceError(f"{name}: {member} is not a JSON object")
        samples = sorted((entry for entry in entries if _SAMPLE_MEMBER.fullmatch(entry)), key=_sample_order)
    finally:
        archive.close()

    def each() -> Iterator[Item]:
        try:
            archive = _Archive(path, name)  # the file as it is now (the header's archive is closed)
        except SourceError as exc:
            yield Item("", problem=exc.problem)
            return
        try:
            for sample in samples:
                if sample in archive.entries:
                    yield _read_member(name, archive, sample)
                else:
                    yield Item(sample, problem=f"{name}: {sample}: gone (the file changed since its header was read)")
        finally:
            archive.close()

    return found.value, each()
