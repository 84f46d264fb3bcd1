"""Synthetic logs with a known mix, for the tests and the benchmarks.

``write_log(path, lines, seed)`` writes a JSON-lines log (``.gz`` when the name
ends so; or into an open binary stream, for a caller that places the file
itself) against the registry of ``registry_document()`` and returns the
``Mix``: what it meant every line to be (its label, blame, failing claim,
scope, metadata, timestamp, or the kind of bad line).  The answers are built
from the registry so that each one fails exactly where it is meant to, and the
tests compare the triage's counts with the mix, exactly.

The default mix: about 80% of the answers strict JSON, every rejection code of
an unscoped request, about one record in ten with a request whose retrieval
missed the current document (a rejection then is retrieval's), answers mostly
unique (values, claim order, spacing and indentation vary), about 500 bytes a
line, metadata ``id``, ``ts`` (ISO 8601, one in ten as epoch seconds, a few
missing or unreadable), ``model`` and ``prompt_version``, and a few bad lines of
every kind.  Deterministic for a seed.

The same records can be written in three shapes (``SHAPES``), as services log
them: ``plain``, the members triage reads by default (``raw``, ``request``,
``ts``, ``id``, ``model``, ``prompt_version`` at the top); ``openai``, an
OpenAI-style chat completion with the request beside it; ``envelope``, an
application's envelope with the answer logged as JSON where its text stands on
its own.  For one seed the three carry the same answers, requests, timestamps
and models and the same kinds of bad line in the same places, so a triage of
each, with its mapping (``docs/triage.md``), counts the same.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from ..io.writing import refuse_protected

__all__ = ["BAD_LINE_KINDS", "FLAKINESS", "KINDS", "SHAPES", "Mix", "parse_worse", "registry_document",
           "registry_json", "stands_alone", "write_log", "write_registry"]

SERVICES = ("payments", "billing", "search", "auth", "ledger", "notify")
ENVIRONMENTS = ("prod", "staging", "dev")
REVISIONS = ("v1", "v2", "v3")
CURRENT = "v3"
FIELDS = ("read_timeout_ms", "retry_enabled", "max_connections", "pool_size", "log_level", "region")
MODELS = (("gpt-x", 5), ("claude-y", 4), ("llama-z", 1))
PROMPTS = ("p1", "p2", "p3")
BASE_TS = 1796083200.0  # 2026-12-01T00:00:00Z

# The answers meant, with their weights (per mille) in the default mix: 80% strict JSON.
KINDS: tuple[tuple[str, int], ...] = (
    ("ACCEPT", 450), ("VALUE_MISMATCH", 80), ("STALE_REVISION", 60), ("SCOPE_MISMATCH", 30),
    ("QUOTE_NOT_SUPPORTING", 30), ("INCOMPLETE", 40), ("DUPLICATE_CLAIM", 20), ("UNREQUESTED_FIELD", 20),
    ("NO_CITATION/QUOTE_NOT_FOUND", 30), ("NO_CITATION/UNKNOWN_DOC", 15), ("NO_CITATION/NOT_SUPPLIED", 15),
    ("NO_CITATION/NO_CLAIMS", 10),
    ("INVALID_JSON/SYNTAX", 120), ("INVALID_JSON/TRAILING_DATA", 20), ("INVALID_JSON/DUPLICATE_KEY", 20),
    ("INVALID_JSON/WRONG_SHAPE", 15), ("INVALID_JSON/MISSING_MEMBER", 15), ("INVALID_JSON/NOT_A_STRING", 10),
)
# With the current document not supplied, only these can happen (retrieval's failures but the last).
STARVED_KINDS = ("STALE_REVISION", "NO_CITATION/NOT_SUPPLIED", "INVALID_JSON/SYNTAX")
BAD_LINE_KINDS = ("empty line", "not JSON", "not an object", "duplicate key", "raw missing", "raw not a string",
                  "request missing", "request unusable")


def _source_id(service: str, environment: str, revision: str) -> str:
    return f"{service}-{environment}-{revision}"


def _facts(service: str, environment: str, revision: str) -> dict[str, str]:
    rng = random.Random(f"{service}/{environment}/{revision}")
    return {
        "read_timeout_ms": str(rng.choice((500, 1000, 2000, 3000, 5000, 8000, 12000))),
        "retry_enabled": rng.choice(("true", "false")),
        "max_connections": str(rng.randrange(10, 500)),
        "pool_size": str(rng.randrange(2, 64)),
        "log_level": rng.choice(("debug", "info", "warn", "error")),
        "region": rng.choice(("eu-west-1", "us-east-1", "ap-south-1")),
    }


def registry_document() -> dict[str, Any]:
    """The generator's registry: a source per service, environment and revision."""
    sources = []
    for service in SERVICES:
        for environment in ENVIRONMENTS:
            for revision in REVISIONS:
                facts = _facts(service, environment, revision)
                text = f"# {service} / {environment} / {revision}\n" + "".join(f"{k}={v}\n" for k, v in facts.items())
                sources.append({"id": _source_id(service, environment, revision), "service": service,
                                "environment": environment, "revision": revision, "facts": facts, "text": text})
    return {"sources": sources}


def registry_json() -> str:
    """The generator's registry as the text of a registry file."""
    return json.dumps(registry_document(), indent=1) + "\n"


def write_registry(path: str | Path) -> Path:
    path = Path(path)
    refuse_protected(path)
    path.write_text(registry_json(), encoding="utf-8")
    return path


@dataclass
class Mix:
    """What the generator wrote: counts by what each line was meant to be."""

    lines: int = 0
    records: int = 0
    labels: Counter[str] = field(default_factory=Counter)  # STATUS or STATUS/REASON
    blame: Counter[str] = field(default_factory=Counter)  # retrieval / generation, rejections only
    claims: Counter[tuple[str, str, str]] = field(default_factory=Counter)  # (status, field, doc)
    scopes: Counter[tuple[str, str, str]] = field(default_factory=Counter)
    models: Counter[tuple[str | None, str]] = field(default_factory=Counter)  # (model, status)
    prompts: Counter[str] = field(default_factory=Counter)
    bad: list[tuple[int, str]] = field(default_factory=list)  # (line, kind)
    no_ts: int = 0  # records without a readable ts
    bad_ts: int = 0  # of which with an unreadable one
    stamps: list[float | None] = field(default_factory=list)  # per record, in order

    @property
    def statuses(self) -> Counter[str]:
        found: Counter[str] = Counter()
        for label, count in self.labels.items():
            found[label.partition("/")[0]] += count
        return found


class _Writer:
    def __init__(self, rng: random.Random, registry: dict[str, Any]) -> None:
        self.rng = rng
        self.by_id = {source["id"]: source for source in registry["sources"]}

    def request(self, starved: bool) -> dict[str, Any]:
        rng = self.rng
        service, environment = rng.choice(SERVICES), rng.choice(ENVIRONMENTS)
        # An application asks for fixed sets of fields; retrieval varies what it supplies.
        fields = sorted(rng.sample(FIELDS, rng.choice((2, 2, 2, 3))), key=FIELDS.index)
        current = _source_id(service, environment, CURRENT)
        stale = _source_id(service, environment, "v1")
        other = _source_id(service, rng.choice([e for e in ENVIRONMENTS if e != environment]), CURRENT)
        supplied = [stale, other] if starved else [current, stale, other]
        return {"service": service, "environment": environment, "revision": CURRENT, "fields": fields,
                "supplied": supplied}

    def claim(self, field_name: str, doc: str, value: str | None = None, quote: str | None = None) -> dict[str, str]:
        fact = self.by_id[doc]["facts"][field_name] if doc in self.by_id else "1"
        value = fact if value is None else value
        return {"field": field_name, "value": value, "doc": doc,
                "quote": f"{field_name}={fact}" if quote is None else quote}

    def answer(self, kind: str, request: dict[str, Any]) -> tuple[str, tuple[str, str, str] | None]:
        """The raw answer meant to get ``kind``, and the failing claim's (status, field, doc)."""
        rng = self.rng
        service, environment, fields = request["service"], request["environment"], request["fields"]
        current = _source_id(service, environment, CURRENT)
        stale = _source_id(service, environment, "v1")
        # Without the current document supplied, the claims cite the stale one (supplied).
        base = current if current in request["supplied"] else stale
        claims = [self.claim(f, base) for f in fields]
        status = kind.partition("/")[0]
        failing = rng.randrange(len(claims))
        target = fields[failing]
        blamed: tuple[str, str, str] | None = None
        if base == stale and kind == "STALE_REVISION":
            blamed = (status, fields[0], stale)  # every claim is stale: the first fails
        elif kind == "VALUE_MISMATCH":
            right = claims[failing]["value"]
            claims[failing]["value"] = right + rng.choice(("0", "5", "00", "ms", "s"))
            blamed = (status, target, current)
        elif kind == "STALE_REVISION":
            doc = _source_id(service, environment, "v1")
            claims[failing] = self.claim(target, doc)
            blamed = (status, target, doc)
        elif kind == "SCOPE_MISMATCH":
            doc = next(d for d in request["supplied"] if self.by_id[d]["environment"] != environment)
            claims[failing] = self.claim(target, doc)
            blamed = (status, target, doc)
        elif kind == "QUOTE_NOT_SUPPORTING":
            other = rng.choice([f for f in FIELDS if f != target])
            claims[failing]["quote"] = f"{other}={self.by_id[current]['facts'][other]}"
            blamed = (status, target, current)
        elif kind == "INCOMPLETE":
            del claims[failing]
        elif kind == "DUPLICATE_CLAIM":
            claims.append(dict(claims[failing]))
            blamed = (status, target, current)
        elif kind == "UNREQUESTED_FIELD":
            extra = rng.choice([f for f in FIELDS if f not in fields])
            claims.append(self.claim(extra, current))
            blamed = (status, extra, current)
        elif kind == "NO_CITATION/QUOTE_NOT_FOUND":
            claims[failing]["quote"] = claims[failing]["quote"].replace("=", rng.choice((" = ", ": ", " is ")))
            blamed = (status, target, current)
        elif kind == "NO_CITATION/UNKNOWN_DOC":
            doc = _source_id(service, environment, rng.choice(("v4", "v9", "latest")))
            claims[failing] = self.claim(target, doc, quote=f"{target}={rng.randrange(100)}")
            blamed = (status, target, doc)
        elif kind == "NO_CITATION/NOT_SUPPLIED":
            doc = current if current not in request["supplied"] else _source_id(service, environment, "v2")
            claims[failing] = self.claim(target, doc)
            blamed = (status, target, doc)
        elif kind == "NO_CITATION/NO_CLAIMS":
            claims = []
        for claim in claims:
            if rng.random() < 0.3:  # another member order: still the same claim
                items = list(claim.items())
                rng.shuffle(items)
                claim.clear()
                claim.update(items)
        document: Any = {"claims": claims}
        if kind == "INVALID_JSON/WRONG_SHAPE":
            document = rng.choice((claims, {"claims": {"items": claims}}))
        elif kind == "INVALID_JSON/MISSING_MEMBER":
            del claims[failing]["quote"]
        elif kind == "INVALID_JSON/NOT_A_STRING":
            claims[failing]["value"] = rng.randrange(1, 10_000)  # type: ignore[assignment]  # not a string, on purpose
        text = self.dump(document)
        if kind == "INVALID_JSON/SYNTAX":
            text = rng.choice((text[:-1], text.replace('"claims"', "claims", 1), text.replace("}", "},", 1)
                               if len(claims) == 1 else text[:-2] + ",]}", "Sure! " + text))
        elif kind == "INVALID_JSON/TRAILING_DATA":
            text += rng.choice((" {}", "\n\nHope this helps.", " []"))
        elif kind == "INVALID_JSON/DUPLICATE_KEY":
            value = json.dumps(claims[failing]["value"])
            text = text.replace(f'"value": {value}', f'"value": {value}, "value": {value}', 1) \
                if f'"value": {value}' in text else text.replace(f'"value":{value}', f'"value":{value},"value":{value}', 1)
        return text, blamed

    def dump(self, document: Any) -> str:
        rng = self.rng
        indent = rng.choice((None,) * 7 + (1,))
        separators = rng.choice(((", ", ": "), (",", ":"))) if indent is None else (",", ": ")
        return json.dumps(document, indent=indent, separators=separators, ensure_ascii=False)


def _kind(rng: random.Random, starved: bool) -> str:
    if starved:
        return rng.choice(STARVED_KINDS)
    return rng.choices([k for k, _ in KINDS], [w for _, w in KINDS])[0]


@dataclass(frozen=True)
class _Broken:
    """A bad line made from a record: ``record`` (changed to be bad) written in the
    log's shape; with ``repeat``, the top-level member that holds the answer is
    written twice."""

    record: dict[str, Any]
    repeat: bool = False


def _bad_line(rng: random.Random, kind: str, good: dict[str, Any], shape: _Shape) -> str | _Broken:
    """A bad line of ``kind``: its text when no shape can make it a record, else the
    record it is made from.  The draws from ``rng`` are the same in every shape."""
    if kind == "empty line":
        return rng.choice(("", "   "))
    if kind == "not JSON":
        return rng.choice(('{"raw": "x", "request": ', "ERROR 2026-12-01 timeout", '{"raw": nan}'))
    if kind == "not an object":
        return rng.choice(("[1, 2]", '"a string"', "42", "null"))
    if kind == "duplicate key":
        return _Broken(good, repeat=True)
    if kind == "raw missing":
        return _Broken({key: value for key, value in good.items() if key != "raw"})
    if kind == "raw not a string":
        return _Broken({**good, "raw": rng.choice((7, None, True, 2.5))})
    if kind == "request missing":
        return _Broken({key: value for key, value in good.items() if key != "request"})
    assert kind == "request unusable"
    request = dict(good["request"])
    choice = rng.randrange(3)
    if choice == 0:
        request["fields"] = [request["fields"][0], request["fields"][0]]
    elif choice == 1 and not shape.ignores_extra:
        request["color"] = "blue"
    elif choice == 1:  # a member the request does not know is no fault where it is read with ignore
        request["fields"] = ", ".join(request["fields"])
    else:
        del request["revision"]
    return _Broken({**good, "request": request})


# The shapes a log's records can be written in.  A shape turns a record as the
# generator makes it (the plain members: id, ts, model, prompt_version, raw,
# request; any of them missing in a bad line) and the instant its ts says (None:
# missing or unreadable) into the members of its line and the instant they say.


def _plain(record: dict[str, Any], stamp: float | None) -> tuple[dict[str, Any], float | None]:
    return record, stamp


def _openai(record: dict[str, Any], stamp: float | None) -> tuple[dict[str, Any], float | None]:
    """An OpenAI-style chat completion: the answer at
    ``response.choices.0.message.content``, the request at ``ctx.request``, the
    time in whole epoch seconds at ``created`` (an unreadable ts as it was)."""
    members: dict[str, Any] = {}
    if "id" in record:
        members["id"] = f"chatcmpl-{record['id']}"
    members["object"] = "chat.completion"
    if stamp is not None:
        members["created"] = math.floor(stamp)
        stamp = float(members["created"])
    elif "ts" in record:
        members["created"] = record["ts"]
    if "model" in record:
        members["model"] = record["model"]
    message: dict[str, Any] = {"role": "assistant"}
    if "raw" in record:
        message["content"] = record["raw"]
    members["response"] = {"choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}
    members["ctx"] = {"request": record["request"]} if "request" in record else {}
    return members, stamp


def _envelope(record: dict[str, Any], stamp: float | None) -> tuple[dict[str, Any], float | None]:
    """An application's envelope: ``@timestamp`` in ISO 8601 (an unreadable ts as it
    was), the answer at ``llm.raw`` (logged as JSON where its text stands on its
    own, ``stands_alone``), the request at ``llm.request`` with the service's
    ``trace_id`` added, the model and prompt version under ``metadata`` (the
    latter as ``prompt.version``, a key with a dot)."""
    members: dict[str, Any] = {}
    if stamp is not None:
        members["@timestamp"] = record["ts"] if isinstance(record["ts"], str) else _iso(stamp)
        stamp = _parse_iso(members["@timestamp"])
    elif "ts" in record:
        members["@timestamp"] = record["ts"]
    members["level"] = "info"
    llm: dict[str, Any] = {}
    if "raw" in record:
        raw = record["raw"]
        llm["raw"] = _Verbatim(raw) if isinstance(raw, str) and stands_alone(raw) else raw
    if "request" in record:
        trace = hashlib.sha256(str(record.get("id")).encode("utf-8")).hexdigest()[:32]
        llm["request"] = {**record["request"], "trace_id": trace}
    members["llm"] = llm
    metadata = {"model": record.get("model"), "prompt.version": record.get("prompt_version")}
    members["metadata"] = {key: value for key, value in metadata.items() if value is not None}
    return members, stamp


@dataclass(frozen=True)
class _Shape:
    """How a shape writes a record: ``members`` (above); ``answer``, the top-level
    member holding the answer (written twice in a "duplicate key" line);
    ``ignores_extra``: read with ``request_extra = "ignore"``, so that a member the
    request does not know makes no bad line in it; ``embeds``: it may log an
    answer as JSON (``_Verbatim``)."""

    members: Callable[[dict[str, Any], float | None], tuple[dict[str, Any], float | None]]
    answer: str
    ignores_extra: bool = False
    embeds: bool = False

    def line(self, record: dict[str, Any], stamp: float | None, ensure_ascii: bool) -> tuple[str, float | None]:
        """The line of a record, and the instant it says."""
        members, written = self.members(record, stamp)
        return self.dump(members, ensure_ascii), written

    def bad(self, made: str | _Broken, stamp: float | None) -> str:
        """A bad line's text (``stamp``: that of the record it is made from)."""
        if isinstance(made, str):
            return made
        members, _ = self.members(made.record, stamp)
        text = self.dump(members, True)
        if made.repeat:
            text = text[:-1] + f", {json.dumps(self.answer)}: {self.dump(members[self.answer], True)}}}"
        return text

    def dump(self, value: Any, ensure_ascii: bool) -> str:
        return _dumps(value, ensure_ascii) if self.embeds else json.dumps(value, ensure_ascii=ensure_ascii)


_SHAPES = {"plain": _Shape(_plain, "raw"), "openai": _Shape(_openai, "response"),
           "envelope": _Shape(_envelope, "llm", ignores_extra=True, embeds=True)}
SHAPES = tuple(_SHAPES)


class _Verbatim(str):
    """A JSON text written into the line as it stands (an answer logged as JSON)."""


def _dumps(value: Any, ensure_ascii: bool) -> str:
    """``json.dumps(value)`` with its default separators, but a ``_Verbatim`` in an
    object written as the text it is, not as a string."""
    if value.__class__ is _Verbatim:
        return str.__str__(value)
    if value.__class__ is dict:
        return "{" + ", ".join(f"{json.dumps(key, ensure_ascii=ensure_ascii)}: {_dumps(item, ensure_ascii)}"
                               for key, item in value.items()) + "}"
    return json.dumps(value, ensure_ascii=ensure_ascii)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


# Python's json as a line's reader takes it: NaN and Infinity are not JSON.
_STRICT = json.JSONDecoder(parse_constant=_refuse_constant)


def stands_alone(text: str) -> bool:
    """Whether an answer's text can be logged as the JSON value it is rather than
    as a string, its exact characters kept: a JSON object (starts with ``{``, ends
    with ``}``, parses with Python's json, NaN refused), on one line (no line
    break: a log line holds none), and text UTF-8 can hold (no lone surrogate,
    written or escaped)."""
    if not (text.startswith("{") and text.endswith("}")) or "\n" in text or "\r" in text:
        return False
    try:
        value = _STRICT.decode(text)
        json.dumps(value, ensure_ascii=False).encode("utf-8")
        text.encode("utf-8")
    except (ValueError, RecursionError):  # UnicodeEncodeError is a ValueError
        return False
    return True


def _lines(count: int, seed: int, mix: Mix, bad_per_kind: int | None, long_lines: int,
           span_seconds: float, shape: _Shape) -> Iterator[str]:
    rng = random.Random(seed)
    writer = _Writer(rng, registry_document())
    bad_per_kind = max(1, count // 5000) if bad_per_kind is None else bad_per_kind
    bad_total = bad_per_kind * len(BAD_LINE_KINDS) + long_lines
    # Where the bad lines go: spread over the log, deterministic.
    places = rng.sample(range(1, max(count, bad_total) + 1), bad_total) if count >= bad_total else \
        list(range(1, bad_total + 1))
    kinds = [kind for kind in BAD_LINE_KINDS for _ in range(bad_per_kind)] + ["too long"] * long_lines
    bad_at = dict(zip(sorted(places), rng.sample(kinds, len(kinds))))
    step = span_seconds / max(1, count)
    # What a bad line is made from before the first record: a record of its own.
    template_request = writer.request(False)
    last_good: dict[str, Any] = {"id": "template", "raw": writer.answer("ACCEPT", template_request)[0],
                                 "request": template_request}
    last_stamp: float | None = None
    for number in range(1, count + 1):
        kind_of_bad = bad_at.get(number)
        if kind_of_bad is not None:
            mix.bad.append((number, kind_of_bad))
            mix.lines += 1
            if kind_of_bad == "too long":  # too long in any shape: the same line
                yield json.dumps({"raw": "x" * (4 * 1024 * 1024 + 10), "request": {}})
            else:
                yield shape.bad(_bad_line(rng, kind_of_bad, last_good, shape), last_stamp)
            continue
        starved = rng.random() < 0.1
        request = writer.request(starved)
        kind = _kind(rng, starved)
        raw, blamed = writer.answer(kind, request)
        model = rng.choices([m for m, _ in MODELS], [w for _, w in MODELS])[0]
        prompt = rng.choice(PROMPTS)
        record: dict[str, Any] = {"id": f"{seed}-{number:07d}"}
        stamp: float | None
        stamp = BASE_TS + number * step + rng.random() * step
        draw = rng.random()
        if draw < 0.01:
            stamp = None
        elif draw < 0.012:
            record["ts"] = rng.choice(("yesterday", "2026-13-45T00:00:00Z", True))
            stamp = None
        elif draw < 0.1:
            stamp = record["ts"] = round(stamp, 3)
        else:
            record["ts"] = _iso(stamp)
            stamp = _parse_iso(record["ts"])  # what the text says, to the microsecond
        record.update({"model": model, "prompt_version": prompt, "raw": raw, "request": request})
        status = kind.partition("/")[0]
        mix.lines += 1
        mix.records += 1
        mix.labels[kind] += 1
        if status not in ("ACCEPT",):
            blame = "generation" if status == "INVALID_JSON" or not starved else "retrieval"
            mix.blame[blame] += 1
        if blamed is not None:
            mix.claims[blamed] += 1
        mix.scopes[(request["service"], request["environment"], request["revision"])] += 1
        mix.models[(model, status)] += 1
        mix.prompts[prompt] += 1
        if stamp is None:
            mix.no_ts += 1
            mix.bad_ts += "ts" in record
        line, written = shape.line(record, stamp, ensure_ascii=False)
        mix.stamps.append(written)
        last_good, last_stamp = record, stamp
        yield line


# Items (``write_log(items=N, trials=K)``): each item answered by every model K times.  How often a model's trial
# of an item strays from what it answers that item most of the time (its flakiness), and how often that usual
# answer is accepted.
FLAKINESS = {"gpt-x": 0.05, "claude-y": 0.15, "llama-z": 0.35}
ITEM_ACCEPTED = 0.7


def _item_lines(items: int, trials: int, seed: int, mix: Mix, worse: tuple[str, float] | None, span_seconds: float,
                shape: _Shape, models: tuple[str, ...] | None = None) -> Iterator[str]:
    """Every item (``item-000001``...) answered by every model ``trials`` times, no bad line.  An item's
    request and each model's usual answer to it are the item's whatever the seed (two runs pair); the seed
    draws each trial (a model strays from its usual answer with its ``FLAKINESS``) and, with ``worse``
    (model, share), which share of the model's items it answers with a rejection in this run.
    ``models``: those of ``MODELS`` that answer (default: every one)."""
    rng = random.Random(seed)
    writer = _Writer(rng, registry_document())
    answering = [model for model, _ in MODELS if models is None or model in models]
    step = span_seconds / max(1, items * len(answering) * trials)
    number = 0
    for item in range(1, items + 1):
        fixed = random.Random(f"item-{item}")  # the item's own: the same in every run
        writer.rng = fixed
        request = writer.request(False)
        usual = {model: "ACCEPT" if fixed.random() < ITEM_ACCEPTED else _kind(fixed, False) for model, _ in MODELS}
        writer.rng = rng
        if worse is not None and worse[0] in usual and rng.random() < worse[1] and usual[worse[0]] == "ACCEPT":
            usual[worse[0]] = "VALUE_MISMATCH"
        for model in answering:
            for trial in range(1, trials + 1):
                number += 1
                kind = _kind(rng, False) if rng.random() < FLAKINESS.get(model, 0.0) else usual[model]
                raw, blamed = writer.answer(kind, request)
                stamp = _parse_iso(_iso(BASE_TS + number * step))
                record = {"id": f"{seed}-{number:07d}", "ts": _iso(stamp), "item": f"item-{item:06d}",
                          "trial": trial, "model": model, "prompt_version": PROMPTS[0], "raw": raw,
                          "request": request}
                status = kind.partition("/")[0]
                mix.lines += 1
                mix.records += 1
                mix.labels[kind] += 1
                if blamed is not None:
                    mix.claims[blamed] += 1
                mix.scopes[(request["service"], request["environment"], request["revision"])] += 1
                mix.models[(model, status)] += 1
                mix.prompts[PROMPTS[0]] += 1
                line, written = shape.line(record, stamp, ensure_ascii=False)
                mix.stamps.append(written)
                yield line


def parse_worse(text: str) -> tuple[str, float]:
    """``MODEL:SHARE`` (``--worse``): the model and the share of its items (0 to 1) it gets worse on;
    ValueError with a one-line reason."""
    model, colon, share = text.rpartition(":")
    try:
        value = float(share)
    except ValueError:
        value = -1.0
    if not colon or not model or not 0.0 <= value <= 1.0:
        raise ValueError(f"{text!r} is not MODEL:SHARE (a model and a share from 0 to 1: gpt-x:0.2)")
    if model not in FLAKINESS:
        raise ValueError(f"no model {model!r} in the generator: one of {', '.join(FLAKINESS)}")
    return model, value


def _iso(stamp: float) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _parse_iso(text: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(text).timestamp()


def write_log(target: str | Path | BinaryIO, lines: int, seed: int = 0, *, gz: bool | None = None,
              bad_per_kind: int | None = None, long_lines: int = 0, span_seconds: float = 86400.0,
              shape: str = "plain", items: int | None = None, trials: int = 1,
              worse: tuple[str, float] | None = None, models: tuple[str, ...] | None = None) -> Mix:
    """Write a log of ``lines`` lines to ``target`` and return its mix.

    ``target`` is a path (gzip when it ends in ``.gz``) or a binary stream, written
    into and left open (gzip when ``gz``, which also overrides a path's name).  The
    gzip header carries no name and no time: the same seed gives the same bytes.
    ``bad_per_kind``: bad lines of each kind (default one per 5,000 lines, at least
    one); ``long_lines``: lines past the line limit (4 MiB each); ``span_seconds``:
    how long the timestamps run; ``shape``: one of ``SHAPES``, the same records
    in each (the mix is the same but for ``stamps``, as each shape's lines say
    them: an ``openai`` line's in whole seconds).  ``items``: instead, that many
    items, each answered ``trials`` times by every model (``_item_lines``:
    ``lines`` is not read), ``worse`` (model, share) making that model reject a
    share of the items it usually gets right, ``models`` the models that answer (default: all)."""
    if shape not in _SHAPES:
        raise ValueError(f"no shape {shape!r}: one of {', '.join(SHAPES)}")
    mix = Mix()
    produced = _lines(lines, seed, mix, bad_per_kind, long_lines, span_seconds, _SHAPES[shape]) if items is None else \
        _item_lines(items, trials, seed, mix, worse, span_seconds, _SHAPES[shape], models)
    if isinstance(target, (str, Path)):
        path = Path(target)
        refuse_protected(path)  # a helper that rewrites in place, but never inside the bundled fixtures
        with open(path, "wb") as out:
            _write(out, produced, path.name.endswith(".gz") if gz is None else gz)
    else:
        _write(target, produced, bool(gz))
    return mix


def _write(out: BinaryIO, lines: Iterator[str], gz: bool) -> None:
    packed = gzip.GzipFile(fileobj=out, mode="wb", filename="", mtime=0) if gz else None
    text = io.TextIOWrapper(packed or out, encoding="utf-8", newline="\n")
    try:
        for line in lines:
            text.write(line + "\n")
        text.flush()
    finally:
        text.detach()  # the stream stays open: it is the caller's
        if packed is not None:
            packed.close()  # the gzip trailer; a GzipFile never closes the file it was handed
