"""Where a log line's members are: ``--raw PATH``, ``--request PATH``, ``--ts
PATH``, ``--id PATH``, ``--by PATH`` and ``--request-extra``, or the same kept in
a TOML file (``--log-format FILE``).

Services log their answers nested (``{"response": {"choices": [{"message":
{"content": ...}}]}}``) or in an envelope (``{"llm": {"raw": ..., "request":
...}}``); a ``LogFormat`` says where each member is, as paths:

- dotted, with list indices: ``response.choices.0.message.content`` (a digit
  segment indexes an array, and is a key on an object);
- an RFC 6901 JSON pointer when it starts with ``/``: ``/metadata/prompt.version``
  for keys that hold dots (``~1`` is ``/``, ``~0`` is ``~``).

The default format is today's top-level ``raw``, ``request``, ``ts`` and
``id``.  ``compile_format`` turns a format and its ``--by`` paths into a
``Plan``, what the per-line loop reads: whether it is the default's fast path,
the key each member is looked up by among a line's members, and the tree of
the nested paths, walked once a line (``records.parse_mapped``).

Pure: a format is a frozen dataclass (it travels to the counting workers inside
``tally.Options``); a plan is made once per process and kept.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..contract.text import visible
from ..io.reading import ReadError, read_limited

__all__ = [
    "BY_FILE",
    "DEFAULT_FORMAT",
    "FILE_KEY",
    "FORMAT_BYTES",
    "FORMAT_KEYS",
    "REQUEST_EXTRA",
    "LogFormat",
    "LogFormatError",
    "Plan",
    "compile_format",
    "list_index",
    "load_log_format",
    "parse_path",
    "path_text",
    "read_format_file",
]

# What --request-extra takes: refuse a request with members the schema does not
# know (a bad line), or accept it and keep them as metadata.
REQUEST_EXTRA = ("strict", "ignore")
# The keys of a --log-format file: the options' names.
FORMAT_KEYS = ("raw", "request", "ts", "id", "by", "request_extra")
# A --log-format file is a few lines; anything past this is not one.
FORMAT_BYTES = 64 * 1024
# A '~' that does not begin ~0 or ~1 (RFC 6901 has no other escape): '~~01' is refused, not read as '~' '~1'.
_BAD_ESCAPE = re.compile(r"~(?![01])")
# ``--by file`` groups by the record's log file, not by a member named "file"
# (``--by /file`` is that member).
BY_FILE = "file"
# The look-up key of ``--by file`` among a line's members: no member has it
# (members are str keys, nested paths tuples of two or more).
FILE_KEY = ("file",)


class LogFormatError(ValueError):
    """A format that cannot be used: which option or key and why, in one line."""


def parse_path(text: str) -> tuple[str, ...]:
    """The segments of a member's path: dotted (``a.b.0``), or an RFC 6901 JSON
    pointer when it starts with ``/`` (``/a/b.c``, ``~1`` for ``/`` and ``~0``
    for ``~``).  ValueError with a one-line reason for an empty path or segment
    (a key holding a dot is written as a pointer) or a ``~`` that is not
    ``~0`` or ``~1``."""
    if not isinstance(text, str):
        raise ValueError(f"a path is a text, not {type(text).__name__}")
    if not text:
        raise ValueError("the path is empty")
    if text.startswith("/"):
        segments = text[1:].split("/")
        for number, segment in enumerate(segments, 1):
            if not segment:
                raise ValueError(f"the pointer {visible(text)!r} has an empty segment (segment {number})")
            if _BAD_ESCAPE.search(segment):
                raise ValueError(f"the pointer {visible(text)!r} has a '~' not followed by 0 or 1 "
                                 "(RFC 6901: ~0 is '~', ~1 is '/')")
        return tuple(segment.replace("~1", "/").replace("~0", "~") for segment in segments)
    segments = text.split(".")
    if "" in segments:
        raise ValueError(f"the path {visible(text)!r} has an empty segment (a key that holds a dot is written "
                         "in a JSON pointer: /metadata/prompt.version)")
    return tuple(segments)


def path_text(segments: Sequence[str], pointer: bool) -> str:
    """Segments written back as a path: a pointer (escaped) or dotted."""
    if pointer:
        return "".join("/" + segment.replace("~", "~0").replace("/", "~1") for segment in segments)
    return ".".join(segments)


def list_index(segment: str) -> int:
    """The list index a segment stands for on an array (-1: none: not digits, or a leading zero)."""
    if segment.isascii() and segment.isdigit() and (segment == "0" or segment[0] != "0"):
        return int(segment)
    return -1


@dataclass(frozen=True, slots=True)
class LogFormat:
    """Where a line's members are, as the paths were given (``parse_path``), and
    whether a request may hold members the request schema does not know
    (``request_extra``: "strict", a bad line; "ignore", kept as metadata).
    ValueError (``LogFormatError``) for a path that is not one, a raw and a
    request at the same member or one inside the other, or another
    ``request_extra``."""

    raw: str = "raw"
    request: str = "request"
    ts: str = "ts"
    id: str = "id"
    request_extra: str = "strict"
    # A preset's (or a team's spec file's) reading of each foreign line (``formats.FormatSpec``),
    # or ``staged``: the lines are the canonical ones a staged format was turned into (``formats.stage``).
    spec: Any = None
    staged: bool = False

    def __post_init__(self) -> None:
        for name in ("raw", "request", "ts", "id"):
            try:
                parse_path(getattr(self, name))
            except ValueError as exc:
                raise LogFormatError(f"{name}: {exc}") from None
        if self.request_extra not in REQUEST_EXTRA:
            raise LogFormatError(f"request_extra: {visible(str(self.request_extra))!r} is neither "
                                 f"{' nor '.join(REQUEST_EXTRA)}")
        raw, request = parse_path(self.raw), parse_path(self.request)
        shorter = min(len(raw), len(request))
        if raw[:shorter] == request[:shorter]:
            what = "the same member" if len(raw) == len(request) else "one member inside the other"
            raise LogFormatError(f"raw ({visible(self.raw)}) and request ({visible(self.request)}) name {what}")

    def changed(self, **paths: str | None) -> LogFormat:
        """This format with the members given (not None) replaced: flags beside a --log-format file."""
        given = {name: value for name, value in paths.items() if value is not None}
        if not given:
            return self
        values = {name: getattr(self, name) for name in ("raw", "request", "ts", "id", "request_extra", "spec",
                                                         "staged")}
        return LogFormat(**{**values, **given})


DEFAULT_FORMAT = LogFormat()


def _kind_of(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array",
            dict: "a table"}.get(type(value), "a date or time")


def read_format_file(path: str | Path) -> dict[str, Any]:
    """A --log-format file's TOML document (LogFormatError: one line naming the
    file, and the byte or line and column), whichever keys it holds."""
    name = visible(str(path))
    try:
        data = read_limited(path, FORMAT_BYTES, "--log-format file")
    except ReadError as exc:
        raise LogFormatError(visible(str(exc))) from None
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise LogFormatError(f"{name}: byte 0x{data[exc.start]:02X} at offset {exc.start} is not UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        raise LogFormatError(f"{name}: not valid TOML: {visible(str(exc))}") from None
    except RecursionError:  # tomllib recurses once per nested array or inline table
        raise LogFormatError(f"{name}: not valid TOML: nested too deeply (the keys hold strings and an array "
                             "of strings)") from None


def load_log_format(path: str | Path) -> tuple[LogFormat, tuple[str, ...]]:
    """The format kept in a TOML file, and its ``by`` paths: keys ``raw``,
    ``request``, ``ts``, ``id`` (strings), ``by`` (a list of strings) and
    ``request_extra`` ("strict" or "ignore"), each optional.  LogFormatError
    (one line naming the file and the key or line) for a file that cannot be
    read, TOML that is not valid, an unknown key, a value of the wrong type or
    a path that is not one."""
    name = visible(str(path))
    document = read_format_file(path)
    for key in document:
        if key not in FORMAT_KEYS:
            raise LogFormatError(f"{name}: unknown key {visible(key)!r} (the keys are {', '.join(FORMAT_KEYS)})")
    paths: dict[str, str] = {}
    for key in ("raw", "request", "ts", "id", "request_extra"):
        if key in document:
            value = document[key]
            if not isinstance(value, str):
                raise LogFormatError(f"{name}: {key} is {_kind_of(value)}, not a string")
            paths[key] = value
    by = document.get("by", [])
    if not isinstance(by, list) or not all(isinstance(item, str) for item in by):
        what = _kind_of(by) if not isinstance(by, list) else "an array holding " + next(
            _kind_of(item) for item in by if not isinstance(item, str))
        raise LogFormatError(f"{name}: by is {what}, not an array of strings")
    for number, item in enumerate(by):
        try:
            parse_path(item)
        except ValueError as exc:
            raise LogFormatError(f"{name}: by[{number}]: {exc}") from None
    try:
        log_format = LogFormat(**paths)  # type: ignore[arg-type]  # its text fields only (raw, request, ts, id, request_extra)
    except LogFormatError as exc:
        raise LogFormatError(f"{name}: {exc}") from None
    return log_format, tuple(by)


# -- what the per-line loop reads ------------------------------------------------------


# A step to a member: (the container it is in: its number among a line's
# containers, 0 being the line's object; its key; its index on an array, -1 for none).
Step = tuple[int, str, int]


@dataclass(frozen=True, slots=True)
class Plan:
    """A format compiled for the per-line loop (``compile_format``).

    ``trivial``: raw and request are the top-level ``raw`` and ``request``,
    with extra request members refused: the default's fast path
    (``records.parse_line``).  ``counting_trivial``: that, and ``ts`` and every
    ``--by`` a top-level member (or ``file``), so that counting needs nothing
    else.  ``ts_key``, ``id_key`` and ``by_keys``: what each is looked up by
    among a line's members (a top-level member by its name; a nested path by
    its tuple of segments, which ``records.parse_mapped`` adds; ``FILE_KEY``
    for ``--by file``).

    The nested paths as one tree: ``containers``, every value decoded on the way
    to a member, parents first, each ``(number, *Step)`` (its number among the
    line's containers; 0 is the line's object); ``raw_at``/``request_at``: the
    step to each; ``checked``: the containers on their way, each with the keys
    (or indices) of its children on that way (``records.parse_mapped``'s
    repeated-member test counts their quotes in them, not in it);
    ``outputs``: ``(key, *Step)`` of each nested ts and --by path, what is
    added to a line's members under ``key``; ``id_at``: the id's step (only
    in a plan for records: the counting reads no id)."""

    log_format: LogFormat
    raw: tuple[str, ...]
    request: tuple[str, ...]
    ts: tuple[str, ...]
    id: tuple[str, ...]
    by: tuple[tuple[str, ...] | None, ...]
    trivial: bool
    counting_trivial: bool
    ts_key: Any
    id_key: Any
    by_keys: tuple[Any, ...]
    containers: tuple[tuple[int, int, str, int], ...]
    raw_at: Step
    request_at: Step
    id_at: Step | None
    checked: tuple[tuple[int, frozenset[Any]], ...]
    outputs: tuple[tuple[Any, int, str, int], ...]

    @property
    def ignore_extra(self) -> bool:
        return self.log_format.request_extra == "ignore"

    def where(self, name: str, depth: int | None = None) -> str:
        """The path of ``raw``, ``request``, ``ts`` or ``id`` (its first ``depth``
        segments), written as it was given."""
        given: str = getattr(self.log_format, name)
        if depth is None:
            return given
        return path_text(getattr(self, name)[:depth], given.startswith("/"))


def _key(path: tuple[str, ...]) -> Any:
    return path[0] if len(path) == 1 else path


@lru_cache(maxsize=64)
def compile_format(log_format: LogFormat = DEFAULT_FORMAT, by: tuple[str, ...] = (), records: bool = False) -> Plan:
    """The plan of a format and its ``--by`` paths (ValueError for a path that is
    not one).  ``records``: a plan that also finds the id (``id_at``), for a
    record decoded whole (``records.decode_record``); the counting needs no id."""
    raw, request = parse_path(log_format.raw), parse_path(log_format.request)
    ts, ident = parse_path(log_format.ts), parse_path(log_format.id)
    by_paths = tuple(None if text == BY_FILE else parse_path(text) for text in by)
    trivial = raw == ("raw",) and request == ("request",) and log_format.request_extra == "strict" and \
        log_format.spec is None and not log_format.staged
    counting_trivial = trivial and len(ts) == 1 and all(path is None or len(path) == 1 for path in by_paths)
    # The containers of every path, parents first: (number, parent, segment, index).
    containers: list[tuple[int, int, str, int]] = []
    numbers: dict[tuple[int, str], int] = {}

    def step_to(path: tuple[str, ...]) -> Step:
        at = 0
        for segment in path[:-1]:
            found = numbers.get((at, segment))
            if found is None:
                found = numbers[(at, segment)] = len(containers) + 1
                containers.append((found, at, segment, list_index(segment)))
            at = found
        return at, path[-1], list_index(path[-1])

    raw_at, request_at = step_to(raw), step_to(request)
    # The containers on the way to raw and request, and their children on it.
    skips: dict[int, set[Any]] = {0: set()}
    for path in (raw, request):
        at = 0
        for segment in path:
            skips.setdefault(at, set()).update({segment, list_index(segment)})
            at = numbers.get((at, segment), -1)
    checked = tuple((number, frozenset(skip)) for number, skip in sorted(skips.items()) if number >= 0)
    outputs = []
    for path in (ts, *(path for path in by_paths if path is not None)):
        step = step_to(path)
        if len(path) > 1:
            outputs.append((path, *step))
    id_at = step_to(ident) if records else None
    return Plan(log_format, raw, request, ts, ident, by_paths, trivial, counting_trivial, _key(ts), _key(ident),
                tuple(FILE_KEY if path is None else _key(path) for path in by_paths), tuple(containers),
                raw_at, request_at, id_at, checked, tuple(dict.fromkeys(outputs)))
