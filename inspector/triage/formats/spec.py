"""A log format: where a tool keeps the answer, its request, time, id, model and
settings, which rows are not answers, and what a missing answer looks like.

Built-in presets (``presets/NAME.toml``, one per tool, each citing the documents
its shape comes from) and a team's own ``--log-format FILE.toml`` (which may start
from one: ``preset = "openai-batch"``) are read by ``load_spec`` into a
``FormatSpec``; ``convert`` turns one foreign record into the canonical record
the triage counts (``{"raw", "request", "id", "ts", "model", ...}``), a
``Skipped`` row (not a model answer), or the one-line reason it is a bad record.

The canonical record's members: ``raw`` (the answer's exact text; an answer the
tool keeps as an object is re-encoded, said in ``raw_bytes``), or ``no_answer``
(``REFUSAL``, ``ERROR``, ``EMPTY``) and ``no_answer_detail``; ``request``; ``id``,
``ts`` (ISO 8601, UTC), ``model``, ``item``; each ``keep`` member; ``truncated``
(the tool's reason) for an answer cut short; ``raw_warning`` when the answer found
is a chat envelope rather than the answer.

Pure: no textual, no rich.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path as FilePath
from typing import Any

import msgspec

from ...contract.checks import NO_ANSWER, NO_ANSWER_REASONS
from ...contract.text import visible
from ..mapping import FORMAT_KEYS, LogFormatError, read_format_file
from .paths import Missing, Path, RepeatedKey, parse

__all__ = [
    "NO_ANSWER",
    "NO_ANSWER_REASONS",
    "PRESETS",
    "FormatSpec",
    "Skipped",
    "convert",
    "is_spec_file",
    "load_spec",
    "preset",
    "preset_names",
]

READS = ("lines", "document", "eval")
TS_UNITS = ("auto", "s", "ms", "us", "ns", "iso")
_UNIT_SECONDS = {"s": 1, "ms": 1e3, "us": 1e6, "ns": 1e9}
# The keys a format file may hold beyond the plain ones (mapping.FORMAT_KEYS).
SPEC_KEYS = ("preset", "name", "description", "source", "sample", "reads", "suffixes", "records", "records_as",
             "ts_unit", "item", "model",
             "keep", "skip", "no_answer", "truncated", "join", "parent", "header")
REQUEST_MEMBERS = ("service", "environment", "revision", "fields", "supplied", "scope")
SCOPE_MEMBERS = ("tenant", "user", "now")
# The name a related record is reached by when its table gives no ``as``.
_ALIASES = {"join": "input", "parent": "parent", "header": "header"}
_ENVELOPE_KEYS = ("role", "parts", "choices", "output", "content")


@dataclass(frozen=True, slots=True)
class Rule:
    """A condition on a record's member at ``path``: present and not null (the
    default), ``equals`` a value (or one of a list's), ``differs`` from a value
    (present, and not it: an HTTP status that is not 200), or ``absent`` (missing
    or null)."""

    path: tuple[str | None, Path]
    equals: Any = None
    differs: Any = None
    absent: bool = False

    def matches(self, record: Any, related: Mapping[str, Any]) -> bool:
        found = _at(self.path, record, related)
        if found.__class__ is Missing or found is None:
            return self.absent
        if self.absent:
            return False
        if self.differs is not None:
            return bool(found != self.differs)
        if self.equals is None:
            return True
        if self.equals.__class__ is tuple:
            return found in self.equals
        return bool(found == self.equals)


@dataclass(frozen=True, slots=True)
class NoAnswerRule:
    reason: str
    when: Rule
    detail: tuple[str | None, Path] | None = None


@dataclass(frozen=True, slots=True)
class Member:
    """A request member: at a path (``split``: a text of items, ``"a,b"``), or a constant."""

    name: str
    path: tuple[str | None, Path] | None
    split: str | None = None
    value: Any = None
    parts: tuple[Member, ...] = ()  # the scope's tenant, user and now, each a member of its own


@dataclass(frozen=True, slots=True)
class Related:
    """Another record a record's paths may reach under ``name``: a joined file's
    record with the same key (``file``, ``on``), the parent in the same file
    (``id``, ``parent``), or the document's header (``path``)."""

    name: str
    file: str | None = None
    on: Path | None = None
    id: Path | None = None
    parent: Path | None = None
    path: Path | None = None


@dataclass(frozen=True, slots=True)
class FormatSpec:
    name: str
    description: str = ""
    sources: tuple[str, ...] = ()
    reads: str = "lines"
    suffixes: tuple[str, ...] = (".jsonl", ".jsonl.gz")
    records: Path | None = None
    raw: tuple[str | None, Path] | None = None
    request: tuple[str | None, Path] | None = None
    request_members: tuple[Member, ...] = ()
    request_extra: str = "strict"
    ts: tuple[str | None, Path] | None = None
    ts_unit: str = "auto"
    id: tuple[str | None, Path] | None = None
    item: tuple[str | None, Path] | None = None
    model: tuple[str | None, Path] | None = None
    keep: tuple[tuple[str, tuple[str | None, Path]], ...] = ()
    by: tuple[str, ...] = ()
    skip_when: tuple[Rule, ...] = ()
    skip_unless: tuple[Rule, ...] = ()
    no_answer: tuple[NoAnswerRule, ...] = ()
    truncated: tuple[tuple[Rule, tuple[str | None, Path] | None], ...] = ()
    join: Related | None = None
    parent: Related | None = None
    header: Related | None = None
    constant_request: bytes | None = None  # --request-file: the same request for every answer
    constant_scope: tuple[str, str] | None = None  # --scope TENANT/USER: every request's, now its record's time
    enclosing: tuple[str, ...] = ()  # records_as: a name for the element each [*] of records takes before the last
    origin: str = ""  # the preset or file it was read from

    @property
    def staged(self) -> bool:
        """Whether its records are not one a line (documents, several a line,
        another file or another record needed): read whole before counting."""
        return self.reads != "lines" or self.records is not None or self.join is not None or self.parent is not None

    @property
    def related_names(self) -> tuple[str, ...]:
        return tuple(related.name for related in (self.join, self.parent, self.header) if related is not None)

    def with_request_file(self, data: bytes) -> FormatSpec:
        return replace(self, constant_request=data)

    def with_scope(self, tenant: str, user: str) -> FormatSpec:
        return replace(self, constant_scope=(tenant, user))


class Skipped(str):
    """A row that is not a model answer: what it is (counted, not a bad line)."""


def _at(where: tuple[str | None, Path], record: Any, related: Mapping[str, Any]) -> Any:
    root, path = where
    if root is None:
        return path.walk(record)
    base = related.get(root)
    if base is None:
        return Missing(root, "no related record")
    return path.walk(base)


# -- loading ---------------------------------------------------------------------------


def preset_names() -> tuple[str, ...]:
    folder = resources.files(__package__).joinpath("presets")
    return tuple(sorted(item.name[:-5] for item in folder.iterdir() if item.name.endswith(".toml")))


PRESETS = preset_names()


def is_spec_file(document: Mapping[str, Any]) -> bool:
    """Whether a format file needs a spec (any key the plain format has not, or a request table)."""
    return any(key not in FORMAT_KEYS for key in document) or isinstance(document.get("request"), dict)


def preset(name: str) -> FormatSpec:
    """The built-in preset ``name`` (LogFormatError naming the presets for another)."""
    if name not in PRESETS:
        raise LogFormatError(f"--log-format {visible(name)!r}: no such format (the built-in ones are "
                             f"{', '.join(PRESETS)}; a file ends in .toml)")
    text = resources.files(__package__).joinpath("presets", f"{name}.toml").read_text("utf-8")
    return _spec(tomllib.loads(text), name, f"preset {name}")


def preset_text(name: str) -> str:
    """The TOML of the built-in preset ``name``, as shipped."""
    return resources.files(__package__).joinpath("presets", f"{name}.toml").read_text("utf-8")


def sample_line(name: str) -> tuple[str, str] | None:
    """(path, first line) of the bundled sample of preset ``name``: its ``sample``,
    under the bundled ``logs/formats`` (the checkout's fixtures, or the package's
    copy); None when there is none."""
    sample = tomllib.loads(preset_text(name)).get("sample")
    if not isinstance(sample, str):
        return None
    here = FilePath(__file__).resolve().parents[3]
    for root in (here / "fixtures", here / "inspector" / "bundled"):
        path = root / "logs" / "formats" / sample
        if path.is_file():
            if path.suffix == ".eval":
                return str(path), "(a zip: header.json, samples/ID_epoch_N.json, ...)"
            try:
                with path.open("rb") as handle:
                    # a line of a log, or the start of a document (indented: its first lines, joined)
                    first = handle.readline(4096) if path.suffix != ".json" else handle.read(1024)
            except OSError:
                return None
            return str(path), " ".join(first.decode("utf-8", "replace").split())
    return None


def load_spec(document: Mapping[str, Any], origin: str) -> FormatSpec:
    """A team's format file (its TOML document), on top of its ``preset`` if it names one."""
    base: dict[str, Any] = {}
    if "preset" in document:
        name = document["preset"]
        if not isinstance(name, str) or name not in PRESETS:
            raise LogFormatError(f"{origin}: preset {visible(str(name))!r} is not a built-in format "
                                 f"({', '.join(PRESETS)})")
        base = tomllib.loads(resources.files(__package__).joinpath("presets", f"{name}.toml").read_text("utf-8"))
    merged = {**base, **{key: value for key, value in document.items() if key != "preset"}}
    if isinstance(base.get("keep"), dict) and isinstance(document.get("keep"), dict):
        merged["keep"] = {**base["keep"], **document["keep"]}  # the preset's settings kept, and the team's
    if "request" in document and "request" in base:
        merged["request"] = document["request"]
    return _spec(merged, str(merged.get("name", FilePath(origin).stem)), origin)


def _spec(document: Mapping[str, Any], name: str, origin: str) -> FormatSpec:
    def fail(message: str) -> LogFormatError:
        return LogFormatError(f"{visible(origin)}: {message}")

    for key in document:
        if key not in FORMAT_KEYS and key not in SPEC_KEYS:
            raise fail(f"unknown key {visible(str(key))!r} (the keys are {', '.join((*FORMAT_KEYS, *SPEC_KEYS))})")
    related: dict[str, Related] = {}

    def text(key: str, value: Any) -> str:
        if not isinstance(value, str):
            raise fail(f"{key} is {_kind(value)}, not a string")
        return value

    def compiled(key: str, value: Any, records: bool = False) -> Path:
        try:
            return parse(text(key, value), records)
        except ValueError as exc:
            raise fail(f"{key}: {exc}") from None

    def where(key: str, value: Any) -> tuple[str | None, Path]:
        path = compiled(key, value)
        first = path.steps[0] if path.steps else None
        if first is not None and first[0] == "key" and first[1] in related and len(path.steps) > 1:
            return first[1], type(path)(path.text, path.steps[1:])
        return None, path

    def table(key: str, value: Any, keys: tuple[str, ...]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise fail(f"{key} is {_kind(value)}, not a table")
        for inner in value:
            if inner not in keys:
                raise fail(f"{key}: unknown key {visible(str(inner))!r} (the keys are {', '.join(keys)})")
        return value

    def rule(key: str, value: Any) -> Rule:
        found = table(key, value, ("path", "equals", "differs", "present", "absent"))
        if "path" not in found:
            raise fail(f"{key} has no path")
        if sum(name in found for name in ("equals", "differs", "absent")) > 1:
            raise fail(f"{key} takes one of equals, differs and absent")
        for name in ("present", "absent"):
            if name in found and not isinstance(found[name], bool):
                raise fail(f"{key}.{name} is {_kind(found[name])}, not true or false")
        equals = found.get("equals")
        return Rule(where(f"{key}.path", found["path"]), tuple(equals) if isinstance(equals, list) else equals,
                    found.get("differs"), bool(found.get("absent", False)) or found.get("present") is False)

    enclosing = document.get("records_as", [])
    if not isinstance(enclosing, list) or not all(isinstance(name, str) and name for name in enclosing):
        raise fail("records_as is not an array of names")
    for name in enclosing:
        related[name] = Related(name)
    for key in ("join", "parent", "header"):
        if key in document:
            found = table(key, document[key], {"join": ("file", "on", "as"), "parent": ("id", "parent", "as"),
                                               "header": ("path", "as")}[key])
            alias = text(f"{key}.as", found.get("as", _ALIASES[key]))
            if key == "join":
                if "file" not in found or "on" not in found:
                    raise fail("join needs file and on")
                related[alias] = Related(alias, file=text("join.file", found["file"]),
                                         on=compiled("join.on", found["on"]))
            elif key == "parent":
                if "id" not in found or "parent" not in found:
                    raise fail("parent needs id and parent")
                related[alias] = Related(alias, id=compiled("parent.id", found["id"]),
                                         parent=compiled("parent.parent", found["parent"]))
            else:
                if "path" not in found:
                    raise fail("header needs path")
                related[alias] = Related(alias, path=compiled("header.path", found["path"]))
    reads = document.get("reads", "lines")
    if reads not in READS:
        raise fail(f"reads is {visible(str(reads))!r}, not one of {', '.join(READS)}")
    unit = document.get("ts_unit", "auto")
    if unit not in TS_UNITS:
        raise fail(f"ts_unit is {visible(str(unit))!r}, not one of {', '.join(TS_UNITS)}")
    extra = document.get("request_extra", "strict")
    if extra not in ("strict", "ignore"):
        raise fail(f"request_extra is {visible(str(extra))!r}, neither strict nor ignore")
    members: list[Member] = []
    request = document.get("request", "request")
    request_at = None
    if isinstance(request, dict):
        for member, value in table("request", request, REQUEST_MEMBERS).items():
            if isinstance(value, str):
                members.append(Member(member, where(f"request.{member}", value)))
            elif member == "scope" and isinstance(value, dict) and "path" not in value and "value" not in value:
                parts = []
                for part, given in table("request.scope", value, SCOPE_MEMBERS).items():
                    if isinstance(given, str):
                        parts.append(Member(part, where(f"request.scope.{part}", given)))
                    elif isinstance(given, dict) and list(given) == ["value"]:
                        parts.append(Member(part, None, value=given["value"]))
                    else:
                        raise fail(f"request.scope.{part} takes a path or {{value = ...}}")
                if not {"tenant", "user"} <= {part.name for part in parts}:
                    raise fail("request.scope needs tenant and user (now is the record's time unless given)")
                members.append(Member("scope", None, parts=tuple(parts)))
            else:
                found = table(f"request.{member}", value, ("path", "split", "value"))
                if ("path" in found) == ("value" in found):
                    raise fail(f"request.{member} takes a path or a value")
                split = found.get("split")
                if split is not None and (not isinstance(split, str) or not split):
                    raise fail(f"request.{member}.split is not a text")
                members.append(Member(member, where(f"request.{member}.path", found["path"]) if "path" in found
                                      else None, split, found.get("value")))
    else:
        request_at = where("request", request)
    keep = document.get("keep", {})
    kept = tuple((str(key), where(f"keep.{key}", value)) for key, value in table("keep", keep, tuple(keep)).items())
    by = document.get("by", [])
    if not isinstance(by, list) or not all(isinstance(item, str) for item in by):
        raise fail("by is not an array of strings")
    skip = table("skip", document.get("skip", {}), ("when", "unless"))

    def rules(key: str, value: Any) -> tuple[Rule, ...]:
        return tuple(rule(key, item) for item in (value if isinstance(value, list) else [value]))

    no_answer = []
    for number, item in enumerate(document.get("no_answer", [])):
        found = table(f"no_answer[{number}]", item, ("reason", "when", "detail"))
        if found.get("reason") not in NO_ANSWER_REASONS:
            raise fail(f"no_answer[{number}].reason is not one of {', '.join(NO_ANSWER_REASONS)}")
        if "when" not in found:
            raise fail(f"no_answer[{number}] has no when")
        no_answer.append(NoAnswerRule(found["reason"], rule(f"no_answer[{number}].when", found["when"]),
                                      where(f"no_answer[{number}].detail", found["detail"])
                                      if "detail" in found else None))
    truncated = []
    for number, item in enumerate(document.get("truncated", [])):
        found = table(f"truncated[{number}]", item, ("when", "detail"))
        if "when" not in found:
            raise fail(f"truncated[{number}] has no when")
        truncated.append((rule(f"truncated[{number}].when", found["when"]),
                          where(f"truncated[{number}].detail", found["detail"]) if "detail" in found else None))
    sources = document.get("source", [])
    suffixes = document.get("suffixes", [".jsonl", ".jsonl.gz"] if reads == "lines" else [".json"])

    def optional(key: str, default: str | None) -> tuple[str | None, Path] | None:
        value = document.get(key, default)
        return where(key, value) if value is not None else None

    return FormatSpec(
        name=name, description=str(document.get("description", "")),
        sources=tuple(sources if isinstance(sources, list) else [sources]), reads=reads,
        suffixes=tuple(suffixes), records=compiled("records", document["records"], True)
        if "records" in document else None,
        raw=where("raw", document.get("raw", "raw")), request=request_at, request_members=tuple(members),
        request_extra=extra, ts=optional("ts", "ts"), ts_unit=unit, id=optional("id", "id"),
        item=optional("item", None), model=optional("model", None), keep=kept, by=tuple(by),
        skip_when=rules("skip.when", skip["when"]) if "when" in skip else (),
        skip_unless=rules("skip.unless", skip["unless"]) if "unless" in skip else (),
        no_answer=tuple(no_answer), truncated=tuple(truncated), enclosing=tuple(enclosing),
        join=related.get(_alias(document, "join")),
        parent=related.get(_alias(document, "parent")), header=related.get(_alias(document, "header")),
        origin=origin)


def _alias(document: Mapping[str, Any], key: str) -> str:
    found = document.get(key)
    if not isinstance(found, dict):
        return ""
    return str(found.get("as", _ALIASES[key]))


def _kind(value: Any) -> str:
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array",
            dict: "a table"}.get(type(value), "a date or time")


# -- one record ------------------------------------------------------------------------


def timestamp(value: Any, unit: str) -> str | None:
    """A record's time as ISO 8601 UTC text (None: not read): epoch numbers or
    digit strings in ``unit`` (``auto``: a number is seconds), or ISO 8601 text
    (Langfuse's ``2026-12-01 10:00:00.123456`` included; no zone is UTC)."""
    seconds = epoch_seconds(value, unit)
    if seconds is None:
        return None
    moment = datetime.fromtimestamp(seconds, UTC)
    return moment.isoformat(timespec="microseconds" if moment.microsecond else "seconds").replace("+00:00", "Z")


def epoch_seconds(value: Any, unit: str) -> float | None:
    """``timestamp``'s instant as epoch seconds (None: not read, or outside the years 1 to 9999)."""
    try:
        if value.__class__ is str:
            text = value.strip()
            if unit in _UNIT_SECONDS and text.isascii() and text.isdigit():
                seconds = int(text) / _UNIT_SECONDS[unit]
            else:
                moment = datetime.fromisoformat(text.replace("Z", "+00:00") if text.endswith("Z") else text)
                if moment.tzinfo is None:
                    moment = moment.replace(tzinfo=UTC)
                seconds = moment.timestamp()
        elif value.__class__ in (int, float):
            seconds = value / _UNIT_SECONDS.get(unit, 1)
        else:
            return None
        datetime.fromtimestamp(seconds, UTC)  # within the years a time can be written in
    except (ValueError, OverflowError, OSError):
        return None
    return float(seconds)


def envelope_reason(raw: Any) -> str | None:
    """Why the answer found looks like a chat envelope, not the answer (None: it does not)."""
    value = raw
    if raw.__class__ is str:
        text = raw.lstrip()
        if not text.startswith(("{", "[")) or '"claims"' in text:  # an answer, or not a message: no decoding
            return None
        try:
            value = msgspec.json.decode(text)
        except (msgspec.DecodeError, RecursionError):
            return None
    if value.__class__ is list and value and value[0].__class__ is dict:
        value = value[0]
    if value.__class__ is dict and "claims" not in value:
        keys = [key for key in _ENVELOPE_KEYS if key in value]
        if keys:
            return (f"the raw path reaches a chat message ({', '.join(keys)}), not the answer: try a path into "
                    f"its {'content' if 'content' in keys else keys[0]}, or a --log-format preset (inspector formats)")
    return None


def convert(spec: FormatSpec, record: Any, related: Mapping[str, Any] | None = None) -> dict[str, Any] | str:
    """The canonical record of one foreign record, a ``Skipped`` row, or the
    reason it is a bad record (a ``str`` that is not ``Skipped``)."""
    related = related or {}
    try:
        return _convert(spec, record, related)
    except RepeatedKey as exc:
        return f"duplicate key: {exc}"


def _convert(spec: FormatSpec, record: Any, related: Mapping[str, Any]) -> dict[str, Any] | str:
    if record.__class__ is not dict:
        return f"not an object: the record is {_kind(record)}"
    rule: Rule | NoAnswerRule
    for rule in spec.skip_when:
        if rule.matches(record, related):
            return Skipped(_what(rule, record, related))
    for rule in spec.skip_unless:
        if not rule.matches(record, related):
            return Skipped(_what(rule, record, related))
    out: dict[str, Any] = {}
    for name, where in (("id", spec.id), ("model", spec.model), ("item", spec.item)):
        if where is not None:
            found = _at(where, record, related)
            if found.__class__ is not Missing and found is not None:
                out[name] = found if found.__class__ is str else msgspec.json.encode(found).decode()
    if spec.ts is not None:
        found = _at(spec.ts, record, related)
        if found.__class__ is not Missing and found is not None:
            out["ts"] = timestamp(found, spec.ts_unit) or found
    for name, where in spec.keep:
        found = _at(where, record, related)
        if found.__class__ is not Missing:
            out[name] = found
    for rule, detail in spec.truncated:
        if rule.matches(record, related):
            found = _at(detail, record, related) if detail is not None else None
            out["truncated"] = found if found.__class__ is str else str(rule.equals or "yes")
            break
    request = _request(spec, record, related)
    if request.__class__ is str:
        return request
    for rule in spec.no_answer:
        if rule.when.matches(record, related):
            out["no_answer"] = rule.reason
            detail = _at(rule.detail, record, related) if rule.detail is not None else None
            if detail is not None and detail.__class__ is not Missing:
                out["no_answer_detail"] = detail if detail.__class__ is str else msgspec.json.encode(detail).decode()
            out["request"] = request
            return out
    raw = _at(spec.raw, record, related) if spec.raw is not None else Missing("", "no raw path")
    if raw.__class__ is Missing:
        if raw.why == "no such member" and spec.no_answer:
            out["no_answer"] = "EMPTY"
            out["no_answer_detail"] = f"nothing at {raw.where}"
            out["request"] = request
            return out
        return f"raw missing: {raw}"
    if raw is None or raw == "":
        out["no_answer"] = "EMPTY"
        out["no_answer_detail"] = "the answer is null" if raw is None else "the answer is empty"
        out["request"] = request
        return out
    if raw.__class__ is not str:
        if raw.__class__ not in (dict, list):
            return f"raw not a string: {spec.raw[1].text} is {_kind(raw)}"  # type: ignore[index]  # raw was read: its path is set
        out["raw_bytes"] = "re-encoded: the log keeps the answer as parsed JSON, not its text"
        raw = msgspec.json.encode(raw).decode()
    warning = envelope_reason(raw)
    if warning is not None:
        out["raw_warning"] = warning
    out["raw"] = raw
    out["request"] = request
    return out


def _what(rule: Rule, record: Any, related: Mapping[str, Any]) -> str:
    """What a skipped row is, as the summary counts it: the value that tells it
    apart (``SPAN``, ``retriever``, ``embeddings``), or which member it lacks."""
    found = _at(rule.path, record, related)
    if found.__class__ is Missing or found is None:
        steps = rule.path[1].steps
        named = [step[2] for step in steps if step[0] == "select"] or [step[1] for step in steps if step[0] == "key"]
        return f"no {named[-1] if named else rule.path[1].text}"
    return found if found.__class__ is str else msgspec.json.encode(found).decode()


def _request(spec: FormatSpec, record: Any, related: Mapping[str, Any]) -> Any:
    """The request object (a dict or raw JSON bytes), or a bad record's reason."""
    if spec.constant_request is not None or spec.request is not None:
        if spec.constant_request is not None:
            if spec.constant_scope is None:
                return msgspec.Raw(spec.constant_request)
            found = msgspec.json.decode(spec.constant_request)
        else:
            found = _at(spec.request, record, related)  # type: ignore[arg-type]  # no constant request: a path
            if found.__class__ is Missing:
                return f"request missing: {found}"
        if spec.constant_scope is not None and found.__class__ is dict and "scope" not in found:
            tenant, user = spec.constant_scope
            scope = _scope(spec, (Member("tenant", None, value=tenant), Member("user", None, value=user)), record,
                           related)
            if scope.__class__ is str:
                return scope
            found = {**found, "scope": scope}
        return found
    request: dict[str, Any] = {}
    for member in spec.request_members:
        if member.parts:
            scope = _scope(spec, member.parts, record, related)
            if scope.__class__ is str:
                return scope
            request["scope"] = scope
            continue
        if member.path is None:
            request[member.name] = member.value
            continue
        found = _at(member.path, record, related)
        if found.__class__ is Missing:
            if member.name == "scope":
                continue
            return f"request missing: request.{member.name}: {found}"
        if member.split is not None:
            if found.__class__ is not str:
                return f"request unusable: request.{member.name}: {_kind(found)} at {member.path[1].text}, " \
                       f"not a text to split on {member.split!r}"
            found = [item.strip() for item in found.split(member.split) if item.strip()]
        request[member.name] = found
    if spec.constant_scope is not None and "scope" not in request:
        tenant, user = spec.constant_scope
        scope = _scope(spec, (Member("tenant", None, value=tenant), Member("user", None, value=user)), record,
                       related)
        if scope.__class__ is str:
            return scope
        request["scope"] = scope
    return request


def _scope(spec: FormatSpec, parts: tuple[Member, ...], record: Any, related: Mapping[str, Any]) -> Any:
    """A request's access scope from its parts: tenant and user (paths or constants), and
    now, the record's own time unless a path says otherwise (the reason when unusable)."""
    scope: dict[str, Any] = {}
    for part in parts:
        found = part.value if part.path is None else _at(part.path, record, related)
        if found.__class__ is Missing:
            return f"request missing: request.scope.{part.name}: {found}"
        scope[part.name] = found
    now = scope.get("now") if "now" in scope else (_at(spec.ts, record, related) if spec.ts is not None else None)
    seconds = epoch_seconds(now, spec.ts_unit) if now is not None and now.__class__ is not Missing else None
    if seconds is None:
        return "request unusable: request.scope.now: the record has no readable time to grant access at"
    scope["now"] = seconds
    return scope


def load_format(argument: str) -> FormatSpec | None:
    """``--log-format``'s argument: a preset's name, or a file (None: a plain
    format file, which ``mapping.load_log_format`` reads as it always has)."""
    if argument in PRESETS:
        return preset(argument)
    if not argument.endswith(".toml") and "/" not in argument and not FilePath(argument).exists():
        preset(argument)  # raises, naming the presets
    document = read_format_file(argument)
    if not is_spec_file(document):
        return None
    return load_spec(document, argument)


__all__ += ["envelope_reason", "epoch_seconds", "load_format", "preset_text", "sample_line", "timestamp"]
