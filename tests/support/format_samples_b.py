"""Sample logs in four real tools' shapes, built from fixtures/logs/sample.jsonl: Arize
Phoenix's span list (``GET /v1/projects/{id}/spans``), OpenTelemetry GenAI spans as the
collector's file exporter writes them (OTLP JSON, a batch a line), an Inspect AI eval
log (the ``.json`` document and the ``.eval`` zip, holding the same samples) and a
promptfoo ``results.json`` (``promptfoo eval -o results.json``).

Each format directory under ``fixtures/logs/formats/`` gets the tool's file(s), the
canonical record lines a reader of that file must produce (``expected.jsonl``, in the
order the file holds the records), the proposed preset (``preset.toml``) and
``SOURCE.md``. ``build(root)`` writes all of them; every byte follows from the sample
log, so a test compares the committed files with a rebuild. The shapes, and where each
was taken from, are in each ``SOURCE.md``; answers keep the sample's bytes wherever the
tool keeps a string."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

SAMPLE = Path("fixtures/logs/sample.jsonl")
OUT = Path("fixtures/logs/formats")

REFUSAL_TEXT = "I'm sorry, but I can't help with that request."
RATE_LIMIT = ("Error code: 429 - {'error': {'message': 'Rate limit reached for requests', "
              "'type': 'requests', 'param': None, 'code': 'rate_limit_exceeded'}}")
SYSTEM_PROMPT = ("You answer configuration questions from the supplied documents only. Reply with "
                 "JSON: {\"claims\": [{\"field\", \"value\", \"doc\", \"quote\"}]}, one claim per "
                 "requested field, quoting the line of the document that states it.")
# The generation settings each model was called with (the sample log has none).
SETTINGS = {"gpt-x": (0.0, 1024), "claude-y": (0.2, 1024), "llama-z": (0.7, 768)}
PROVIDER = {"gpt-x": "openai", "claude-y": "anthropic", "llama-z": "aws.bedrock"}
KEY_ORDER = ("id", "ts", "model", "item", "raw", "no_answer", "no_answer_detail", "request")


# --------------------------------------------------------------------------- sample

def _load(root: Path) -> list[dict[str, Any]]:
    """The sample's lines (``None`` for a line that is not a JSON object), each record
    with ``ts`` made a UTC datetime: a number is epoch seconds, a missing time is one
    second after the line before (the tools always hold a time)."""
    rows: list[dict[str, Any] | None] = []
    last = datetime(2026, 12, 1, tzinfo=UTC)
    for number, line in enumerate((root / SAMPLE).read_text(encoding="utf-8").splitlines(), start=1):
        try:
            record = json.loads(line)
        except ValueError:
            rows.append(None)
            continue
        if not isinstance(record, dict):
            rows.append(None)
            continue
        when = _when(record.get("ts")) or last + timedelta(seconds=1)
        record["when"] = last = when
        record["line"] = number  # ids repeat in the sample: spans are keyed by line
        rows.append(record)
    return rows


def _when(ts: Any) -> datetime | None:
    """A readable sample time as a UTC datetime, else None (the sample has three that
    are not: missing, null, or text such as ``yesterday``)."""
    try:
        if isinstance(ts, str):
            return datetime.fromisoformat(ts.replace("Z", "+00:00")).astimezone(UTC)
        if isinstance(ts, (int, float)) and not isinstance(ts, bool):
            return datetime.fromtimestamp(ts, UTC)
    except (ValueError, OverflowError, OSError):
        pass
    return None


def _usable(record: dict[str, Any] | None) -> bool:
    return (record is not None and isinstance(record.get("raw"), str)
            and isinstance(record.get("request"), dict)
            and set(record["request"]) <= {"service", "environment", "revision", "fields",
                                           "supplied", "scope"})


def _plain(rows: list[dict[str, Any] | None]) -> list[dict[str, Any]]:
    """The span and row formats' mix: every usable record of lines 1-60 (line 37's answer
    is cut short: marked truncated), then line 125's request failing with an error and
    line 229's answered with an empty string."""
    chosen = [dict(r, kind="answer") for r in rows[:60] if _usable(r)]
    for record in chosen:
        if record["line"] == 37:
            record["kind"] = "truncated"
    chosen.append(dict(rows[124], kind="error"))
    chosen.append(dict(rows[228], kind="empty", raw=""))
    return chosen


def _pairs(rows: list[dict[str, Any] | None], count: int) -> list[tuple[dict, dict]]:
    """The first ``count`` pairs of usable records asking the same request (two trials of
    one question: Inspect's epochs, promptfoo's two providers)."""
    seen: dict[str, dict] = {}
    pairs: list[tuple[dict, dict]] = []
    for record in rows:
        if not _usable(record):
            continue
        key = json.dumps(record["request"], sort_keys=True)
        if key in seen:
            if seen[key] is not None:
                pairs.append((seen[key], record))
                seen[key] = None  # type: ignore[assignment]
        else:
            seen[key] = record
    return pairs[:count]


def _hex(*parts: object, size: int = 16) -> str:
    return hashlib.sha256(":".join(map(str, parts)).encode()).hexdigest()[:size]


def _uuid(*parts: object) -> str:
    h = _hex(*parts, size=32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:32]}"


def _short(*parts: object) -> str:
    """A 22-character id like Inspect's shortuuid ones."""
    alphabet = "23456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    n = int(_hex(*parts, size=32), 16)
    out = ""
    for _ in range(22):
        n, r = divmod(n, len(alphabet))
        out += alphabet[r]
    return out


def _iso_z(when: datetime) -> str:
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _ns(when: datetime) -> int:
    return int((when - datetime(1970, 1, 1, tzinfo=UTC)) / timedelta(microseconds=1)) * 1000


def _latency(record: dict[str, Any]) -> int:
    """A deterministic call time in milliseconds."""
    return 600 + int(_hex("latency", record["line"], size=4), 16) % 2400


def _user_prompt(request: dict[str, Any]) -> str:
    return (f"Service: {request['service']}\nEnvironment: {request['environment']}\n"
            f"Revision: {request['revision']}\nFields: {', '.join(request['fields'])}\n"
            f"Supplied documents: {', '.join(request['supplied'])}")


def _tokens(record: dict[str, Any], text: str) -> tuple[int, int]:
    return 180 + 9 * len(record["request"]["fields"]), max(1, len(text) // 4) if text else 0


def _canonical(values: dict[str, Any], keep: dict[str, Any]) -> dict[str, Any]:
    line = {key: values[key] for key in KEY_ORDER if key in values}
    line.update(keep)
    if "truncated" in values:
        line["truncated"] = values["truncated"]
    return line


def _jsonl(lines: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)


# --------------------------------------------------------------------------- phoenix

def _phoenix(rows: list[dict[str, Any] | None]) -> dict[str, str]:
    """Phoenix's ``GET /v1/projects/{project}/spans`` answer: one page, newest span first
    (the handler orders by row id descending), attributes flattened with
    ``flatten(..., recurse_on_sequence=True)`` (lists of objects get index keys, lists of
    strings stay lists), ``openinference.span.kind`` moved out to ``span_kind``, times
    ``datetime.isoformat()``. The app wraps each request in ``using_metadata({"request":
    ...})``, so every span of the trace, the LLM span included, holds the request under
    ``metadata`` (JSON text on the wire, parsed at ingestion, flattened on the way out)."""
    spans: list[dict[str, Any]] = []  # in insertion (end) order
    expected: list[dict[str, Any]] = []
    for n, record in enumerate(_plain(rows)):
        model, request, when = record["model"], record["request"], record["when"]
        trace_id = _hex("phoenix-trace", record["line"], size=32)
        root_id, llm_id = _hex("phoenix-chain", record["line"]), _hex("phoenix-llm", record["line"])
        temperature, max_tokens = SETTINGS[model]
        meta = {"metadata.request." + k: v for k, v in request.items()}
        meta["metadata.app.record_id"] = record["id"]
        start = when
        end = start + timedelta(milliseconds=_latency(record))
        kind = record["kind"]
        raw = record.get("raw") if kind != "error" else None
        prompt_tokens, completion_tokens = _tokens(record, raw or "")
        attrs: dict[str, Any] = {
            "input.mime_type": "application/json",
            "input.value": json.dumps({"messages": [
                {"role": "system", "content": SYSTEM_PROMPT},
                {"role": "user", "content": _user_prompt(request)}],
                "model": model, "temperature": temperature, "max_tokens": max_tokens}),
            "llm.input_messages.0.message.content": SYSTEM_PROMPT,
            "llm.input_messages.0.message.role": "system",
            "llm.input_messages.1.message.content": _user_prompt(request),
            "llm.input_messages.1.message.role": "user",
            "llm.invocation_parameters": json.dumps({"temperature": temperature,
                                                     "max_tokens": max_tokens}),
            "llm.model_name": model,
            "llm.prompt_template.version": record["prompt_version"],
            "llm.provider": PROVIDER[model].split(".")[-1],
            **meta,
        }
        status, message, events = "OK", "", []
        if kind == "error":
            status, message = "ERROR", f"RateLimitError: {RATE_LIMIT}"
            events = [{"name": "exception", "timestamp": end.isoformat(), "attributes": {
                "exception.message": RATE_LIMIT, "exception.type": "openai.RateLimitError",
                "exception.escaped": "False",
                "exception.stacktrace": "Traceback (most recent call last):\n  ...\n"
                                        f"openai.RateLimitError: {RATE_LIMIT}\n"}}]
        else:
            finish = "length" if kind == "truncated" else "stop"
            attrs.update({
                "llm.finish_reason": finish,
                "llm.output_messages.0.message.content": raw,
                "llm.output_messages.0.message.role": "assistant",
                "llm.token_count.completion": completion_tokens,
                "llm.token_count.prompt": prompt_tokens,
                "llm.token_count.total": prompt_tokens + completion_tokens,
                "output.mime_type": "application/json",
                "output.value": json.dumps({
                    "id": "chatcmpl-" + _hex("phoenix-resp", record["line"]), "object": "chat.completion",
                    "model": model, "choices": [{"index": 0, "finish_reason": finish, "message": {
                        "role": "assistant", "content": raw}}]}, ensure_ascii=False),
            })
        chain_attrs = {"input.mime_type": "application/json", "input.value": json.dumps(request),
                       **meta}
        if raw is not None:
            chain_attrs.update({"output.value": raw})
        if n % 3 == 0:
            ret_id = _hex("phoenix-retriever", record["line"])
            ret_attrs: dict[str, Any] = {"input.value": _user_prompt(request), **meta}
            for i, doc in enumerate(request["supplied"]):
                ret_attrs[f"retrieval.documents.{i}.document.id"] = doc
                ret_attrs[f"retrieval.documents.{i}.document.score"] = round(0.9 - 0.1 * i, 2)
            spans.append(_phoenix_span("retrieve_documents", trace_id, ret_id, root_id, "RETRIEVER",
                                       start - timedelta(milliseconds=40),
                                       start - timedelta(milliseconds=5), "OK", "", ret_attrs, []))
        name = {"openai": "ChatCompletion", "anthropic": "Messages", "bedrock": "Converse"}[
            PROVIDER[model].split(".")[-1]]
        spans.append(_phoenix_span(name, trace_id, llm_id, root_id, "LLM", start, end, status,
                                   message, attrs, events))
        spans.append(_phoenix_span("answer_request", trace_id, root_id, None, "CHAIN",
                                   start - timedelta(milliseconds=60),
                                   end + timedelta(milliseconds=3), status, message, chain_attrs,
                                   []))
        values: dict[str, Any] = {"id": llm_id, "ts": _iso_z(start), "model": model,
                                  "request": request}
        if kind == "error":
            values.update(no_answer="ERROR", no_answer_detail=message)
        elif raw == "":
            values.update(no_answer="EMPTY")
        else:
            values["raw"] = raw
        if kind == "truncated":
            values["truncated"] = "length"
        expected.append(_canonical(values, {"temperature": temperature, "max_tokens": max_tokens,
                                            "prompt_version": record["prompt_version"]}))
    for rowid, span in enumerate(spans, start=1):
        span["id"] = base64.b64encode(f"Span:{rowid}".encode()).decode()
    page = {"data": [dict(s) for s in reversed(spans)], "next_cursor": None}
    order = {line["id"]: line for line in expected}
    expected_in_file = [order[s["context"]["span_id"]] for s in page["data"] if s["span_kind"] == "LLM"]
    return {"spans.json": json.dumps(page, ensure_ascii=False, indent=2) + "\n",
            "expected.jsonl": _jsonl(expected_in_file)}


def _phoenix_span(name: str, trace_id: str, span_id: str, parent: str | None, kind: str,
                  start: datetime, end: datetime, status: str, message: str,
                  attributes: dict[str, Any], events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": "", "name": name, "context": {"trace_id": trace_id, "span_id": span_id},
            "span_kind": kind, "parent_id": parent, "start_time": start.isoformat(),
            "end_time": end.isoformat(), "status_code": status, "status_message": message,
            "attributes": dict(sorted(attributes.items())), "events": events}


# --------------------------------------------------------------------------- otel

def _kv(key: str, value: Any) -> dict[str, Any]:
    """One OTLP JSON KeyValue (int64 as a decimal string, as protojson writes it)."""
    if isinstance(value, bool):
        any_value: dict[str, Any] = {"boolValue": value}
    elif isinstance(value, int):
        any_value = {"intValue": str(value)}
    elif isinstance(value, float):  # protojson writes an integral double without ".0"
        any_value = {"doubleValue": int(value) if value.is_integer() else value}
    elif isinstance(value, list):
        any_value = {"arrayValue": {"values": [_kv("", v)["value"] for v in value]}}
    else:
        any_value = {"stringValue": value}
    return {"key": key, "value": any_value}


def _otel(rows: list[dict[str, Any] | None]) -> dict[str, str]:
    """The collector's file exporter (``format: json``): one ExportTraceServiceRequest a
    line, the spans of a batch grouped by resource and scope, batches cut in the order
    spans end (a chat span ends before its app span, so a parent may come a line later).
    The chat span follows the GenAI semantic conventions with content capture on
    (``gen_ai.output.messages`` as JSON text, as SDKs without structured attributes
    record it); the request the app answers is a JSON text attribute of its own parent
    span (``app.request``)."""
    plain = _plain(rows)
    refusal = dict(rows[62], kind="refusal")
    plain.insert(len(plain) - 2, refusal)  # before the error and the empty answer
    ended: list[tuple[int, str, dict[str, Any]]] = []  # (end ns, scope, span)
    expected: dict[str, dict[str, Any]] = {}
    parent_of: dict[str, str] = {}
    for n, record in enumerate(plain):
        model, request, when, kind = record["model"], record["request"], record["when"], record["kind"]
        trace_id = _hex("otel-trace", record["line"], size=32)
        app_id, chat_id = _hex("otel-app", record["line"]), _hex("otel-chat", record["line"])
        temperature, max_tokens = SETTINGS[model]
        start = when
        end = start + timedelta(milliseconds=_latency(record))
        raw = record.get("raw") if kind in ("answer", "truncated", "empty") else None
        input_tokens, output_tokens = _tokens(record, raw or "")
        finish = {"truncated": "length", "refusal": "content_filter"}.get(kind, "stop")
        attrs = [
            _kv("gen_ai.operation.name", "chat"),
            _kv("gen_ai.provider.name", PROVIDER[model]),
            _kv("gen_ai.request.model", model),
            _kv("gen_ai.request.temperature", temperature),
            _kv("gen_ai.request.max_tokens", max_tokens),
            _kv("server.address", {"openai": "api.openai.com", "anthropic": "api.anthropic.com",
                                   "aws.bedrock": "bedrock-runtime.us-east-1.amazonaws.com"}[
                PROVIDER[model]]),
            _kv("gen_ai.input.messages", json.dumps([
                {"role": "system", "parts": [{"type": "text", "content": SYSTEM_PROMPT}]},
                {"role": "user", "parts": [{"type": "text", "content": _user_prompt(request)}]}])),
        ]
        status: dict[str, Any] = {}
        events: list[dict[str, Any]] = []
        if kind == "error":
            attrs.append(_kv("error.type", "RateLimitError"))
            status = {"message": RATE_LIMIT, "code": 2}
            events = [{"timeUnixNano": str(_ns(end)), "name": "exception", "attributes": [
                _kv("exception.type", "openai.RateLimitError"), _kv("exception.message", RATE_LIMIT)]}]
        else:
            parts = ([{"type": "refusal", "content": REFUSAL_TEXT}] if kind == "refusal"
                     else [{"type": "text", "content": raw}])
            attrs += [
                _kv("gen_ai.response.id", "chatcmpl-" + _hex("otel-resp", record["line"])),
                _kv("gen_ai.response.model", model),
                _kv("gen_ai.response.finish_reasons", [finish]),
                _kv("gen_ai.usage.input_tokens", input_tokens),
                _kv("gen_ai.usage.output_tokens", output_tokens),
                _kv("gen_ai.output.messages", json.dumps(
                    [{"role": "assistant", "parts": parts, "finish_reason": finish}],
                    ensure_ascii=False)),
            ]
        chat = {"traceId": trace_id, "spanId": chat_id, "parentSpanId": app_id, "flags": 257,
                "name": f"chat {model}", "kind": 3, "startTimeUnixNano": str(_ns(start)),
                "endTimeUnixNano": str(_ns(end)), "attributes": attrs}
        if events:
            chat["events"] = events
        chat["status"] = status
        app_start, app_end = start - timedelta(milliseconds=70), end + timedelta(milliseconds=4)
        app = {"traceId": trace_id, "spanId": app_id, "flags": 1, "name": "POST /v1/answer",
               "kind": 2, "startTimeUnixNano": str(_ns(app_start)),
               "endTimeUnixNano": str(_ns(app_end)), "attributes": [
                   _kv("http.request.method", "POST"), _kv("http.route", "/v1/answer"),
                   _kv("app.record_id", record["id"]), _kv("app.prompt_version", record["prompt_version"]),
                   _kv("app.request", json.dumps(request)),
                   _kv("http.response.status_code", 502 if kind == "error" else 200)],
               "status": {"code": 2} if kind == "error" else {}}
        if n % 4 == 1:
            emb_id = _hex("otel-embed", record["line"])
            e_start = app_start + timedelta(milliseconds=10)
            emb = {"traceId": trace_id, "spanId": emb_id, "parentSpanId": app_id, "flags": 257,
                   "name": "embeddings text-embed-x", "kind": 3,
                   "startTimeUnixNano": str(_ns(e_start)),
                   "endTimeUnixNano": str(_ns(e_start + timedelta(milliseconds=45))),
                   "attributes": [_kv("gen_ai.operation.name", "embeddings"),
                                  _kv("gen_ai.provider.name", "openai"),
                                  _kv("gen_ai.request.model", "text-embed-x"),
                                  _kv("gen_ai.usage.input_tokens", 24)],
                   "status": {}}
            ended.append((_ns(e_start + timedelta(milliseconds=45)), "genai", emb))
        parent_of[chat_id] = app_id
        ended.append((_ns(end), "genai", chat))
        ended.append((_ns(app_end), "app", app))
        values: dict[str, Any] = {"id": chat_id, "ts": _iso_z(start), "model": model,
                                  "request": request}
        if kind == "error":
            values.update(no_answer="ERROR", no_answer_detail=RATE_LIMIT)
        elif kind == "refusal":
            values.update(no_answer="REFUSAL", no_answer_detail=REFUSAL_TEXT)
        elif raw == "":
            values.update(no_answer="EMPTY")
        else:
            values["raw"] = raw
        if kind == "truncated":
            values["truncated"] = "length"
        kept_temperature = int(temperature) if temperature.is_integer() else temperature
        expected[chat_id] = _canonical(values, {"temperature": kept_temperature, "max_tokens": max_tokens,
                                                "prompt_version": record["prompt_version"]})
    ended.sort(key=lambda item: item[0])
    resource = {"attributes": [_kv("service.name", "claims-api"), _kv("service.version", "2.4.1"),
                               _kv("deployment.environment.name", "prod"),
                               _kv("telemetry.sdk.language", "python"),
                               _kv("telemetry.sdk.name", "opentelemetry"),
                               _kv("telemetry.sdk.version", "1.38.0")]}
    scopes = {"app": {"name": "claims_api.handlers", "version": "2.4.1"},
              "genai": {"name": "opentelemetry.instrumentation.openai_v2", "version": "2.3b0"}}
    lines: list[str] = []
    order: list[str] = []
    line_of: dict[str, int] = {}
    for first in range(0, len(ended), 7):
        batch = ended[first:first + 7]
        scope_spans = []
        for scope in ("app", "genai"):
            spans = [span for _, s, span in batch if s == scope]
            if spans:
                scope_spans.append({"scope": scopes[scope], "spans": spans,
                                    "schemaUrl": "https://opentelemetry.io/schemas/1.37.0"})
                for span in spans:
                    if span["spanId"] in expected:
                        order.append(span["spanId"])
                        line_of[span["spanId"]] = len(lines)
        lines.append(json.dumps({"resourceSpans": [{"resource": resource, "scopeSpans": scope_spans,
                                                    "schemaUrl": "https://opentelemetry.io/schemas/1.37.0"}]},
                                ensure_ascii=False, separators=(",", ":")) + "\n")
    # The exporter's queue has several consumers: batches reach the file out of order
    # ("There is no guarantee that the data in the file is ordered"). Two swaps put some
    # children after, and some before, the line holding their parent.
    parent_line = {span["spanId"]: first // 7 for first in range(0, len(ended), 7)
                   for _, _, span in ended[first:first + 7]}
    split = sorted({line_of[i] for i in order
                    if parent_line[parent_of[i]] == line_of[i] + 1})
    batches = list(range(len(lines)))
    for a in (split[1], split[-2]):
        batches[a], batches[a + 1] = batches[a + 1], batches[a]
    ids = [[i for i in order if line_of[i] == b] for b in batches]
    return {"traces.jsonl": "".join(lines[b] for b in batches),
            "expected.jsonl": _jsonl([expected[i] for chunk in ids for i in chunk])}


# --------------------------------------------------------------------------- inspect

INSPECT_TASK = "config_claims"
INSPECT_MODEL = "openai/gpt-x"
INSPECT_CREATED = datetime(2026, 12, 1, 0, 0, 0, tzinfo=UTC)


def _inspect_samples(rows: list[dict[str, Any] | None]) -> tuple[list[dict], list[dict]]:
    """25 questions answered twice (epochs 1 and 2: two records of the sample with the same
    request), a question whose first answer was cut at the token limit and whose second
    failed with an error, and one answered once with an empty completion and once with a
    content-filter refusal. Samples in Inspect's order: (epoch, id)."""
    trials: list[tuple[str, dict, int, dict[str, Any]]] = []  # (sample id, request record, epoch, outcome)
    for first, second in _pairs(rows, 25):
        trials.append((first["id"], first, 1, {"kind": "answer", "record": first}))
        trials.append((first["id"], first, 2, {"kind": "answer", "record": second}))
    cut, empty = rows[36], rows[228]
    trials.append((cut["id"], cut, 1, {"kind": "truncated", "record": cut}))
    trials.append((cut["id"], cut, 2, {"kind": "error", "record": dict(cut, when=cut["when"] + timedelta(seconds=41))}))
    trials.append((empty["id"], empty, 1, {"kind": "empty", "record": empty}))
    trials.append((empty["id"], empty, 2, {"kind": "refusal", "record": dict(empty, when=empty["when"] + timedelta(seconds=37))}))
    trials.sort(key=lambda t: (t[2], t[0]))
    samples, expected = [], []
    temperature, max_tokens = 0.0, 1024
    for sample_id, asked, epoch, outcome in trials:
        record, kind = outcome["record"], outcome["kind"]
        request = asked["request"]
        start = record["when"]
        total = _latency(record) / 1000
        raw = {"answer": record.get("raw"), "truncated": record.get("raw"), "empty": "",
               "refusal": REFUSAL_TEXT, "error": None}[kind]
        uuid = _short("inspect", sample_id, epoch)
        system = {"id": _short("sys", sample_id, epoch), "content": SYSTEM_PROMPT, "role": "system"}
        user = {"id": _short("user", sample_id, epoch), "content": _user_prompt(request),
                "source": "input", "role": "user"}
        in_tok, out_tok = _tokens(record, raw or "")
        usage = {"input_tokens": in_tok, "output_tokens": out_tok, "total_tokens": in_tok + out_tok}
        sample: dict[str, Any] = {"id": sample_id, "epoch": epoch, "input": _user_prompt(request),
                                  "target": ""}
        if kind == "error":
            sample["messages"] = [system, user]
            sample["output"] = {"model": "", "choices": [], "completion": ""}
            sample["metadata"] = {"request": request, "prompt_version": asked["prompt_version"]}
        else:
            message = {"id": _short("out", sample_id, epoch), "content": raw, "source": "generate",
                       "role": "assistant", "model": "gpt-x"}
            stop = {"truncated": "max_tokens", "refusal": "content_filter"}.get(kind, "stop")
            sample["messages"] = [system, user, message]
            sample["output"] = {"model": "gpt-x", "choices": [{"message": message, "stop_reason": stop}],
                                "completion": raw, "usage": usage, "time": round(total - 0.05, 3)}
            if kind == "refusal":
                sample["output"]["error"] = REFUSAL_TEXT
            sample["scores"] = {"valid_json": {"value": "C" if _parses(raw) else "I",
                                               "answer": raw[:40]}}
            sample["metadata"] = {"request": request, "prompt_version": asked["prompt_version"]}
        sample["store"] = {}
        sample["events"] = []
        if kind != "error":
            sample["model_usage"] = {INSPECT_MODEL: usage}
        sample["started_at"] = start.isoformat()
        sample["completed_at"] = (start + timedelta(seconds=total)).isoformat()
        sample["total_time"] = total
        sample["working_time"] = round(total - 0.02, 3)
        sample["uuid"] = uuid
        if kind == "error":
            sample["error"] = {"message": f"RateLimitError({RATE_LIMIT})",
                               "traceback": "Traceback (most recent call last):\n  ...\n"
                                            f"openai.RateLimitError: {RATE_LIMIT}\n",
                               "traceback_ansi": f"openai.RateLimitError: {RATE_LIMIT}"}
        sample["error_retries"] = []
        sample["attachments"] = {}
        samples.append(sample)
        values: dict[str, Any] = {"id": uuid, "ts": _iso_z(start), "model": INSPECT_MODEL,
                                  "item": sample_id, "request": request}
        if kind == "error":
            values.update(no_answer="ERROR", no_answer_detail=sample["error"]["message"])
        elif kind == "refusal":
            values.update(no_answer="REFUSAL", no_answer_detail=REFUSAL_TEXT)
        elif raw == "":
            values.update(no_answer="EMPTY")
        else:
            values["raw"] = raw
        if kind == "truncated":
            values["truncated"] = "max_tokens"
        expected.append(_canonical(values, {"epoch": epoch, "temperature": temperature,
                                            "max_tokens": max_tokens,
                                            "prompt_version": asked["prompt_version"]}))
    return samples, expected


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _inspect(rows: list[dict[str, Any] | None]) -> dict[str, str | bytes]:
    """Inspect's two log formats holding the same samples: the ``.json`` EvalLog (indent 2,
    None members left out) and the ``.eval`` zip (``_journal/start.json``,
    ``samples/{id}_epoch_{epoch}.json``, ``_journal/summaries/1.json``,
    ``summaries.json``, ``reductions.json``, ``header.json``; members written compact)."""
    samples, expected = _inspect_samples(rows)
    ids = sorted({s["id"] for s in samples})
    completed = sum(1 for s in samples if "error" not in s)
    eval_spec = {
        "eval_set_id": None, "eval_id": _short("eval", INSPECT_TASK), "run_id": _short("run", INSPECT_TASK),
        "created": INSPECT_CREATED.isoformat(), "task": INSPECT_TASK, "task_id": _short("task", INSPECT_TASK),
        "task_version": 0, "task_file": "evals/config_claims.py", "task_registry_name": INSPECT_TASK,
        "task_attribs": {}, "task_args": {}, "task_args_passed": {},
        "dataset": {"name": "claims", "location": "data/claims.jsonl", "samples": len(ids),
                    "sample_ids": ids, "shuffled": False},
        "model": INSPECT_MODEL, "model_generate_config": {"temperature": 0.0, "max_tokens": 1024},
        "model_args": {}, "model_roles": {},
        "config": {"epochs": 2, "epochs_reducer": ["mean"], "fail_on_error": False,
                   "sandbox_cleanup": True, "log_samples": True, "log_realtime": True,
                   "log_images": True, "score_display": True},
        "revision": {"type": "git", "origin": "https://example.com/claims-evals.git", "commit": "3f2c1a9"},
        "packages": {"inspect_ai": "0.3.260"},
        "scorers": [{"name": "valid_json", "options": {}, "metrics": [
            {"name": "inspect_ai/accuracy", "options": {}}, {"name": "inspect_ai/stderr", "options": {}}],
            "metadata": {}}],
    }
    eval_spec = {k: v for k, v in eval_spec.items() if v is not None}
    plan = {"name": "plan", "steps": [
        {"solver": "system_message", "params": {"template": SYSTEM_PROMPT}},
        {"solver": "generate", "params": {}}], "config": {}}
    scored = [s for s in samples if "scores" in s]
    accuracy = sum(s["scores"]["valid_json"]["value"] == "C" for s in scored) / len(scored)
    results = {"total_samples": len(samples), "completed_samples": completed, "scores": [{
        "name": "valid_json", "scorer": "valid_json", "params": {}, "metrics": {
            "accuracy": {"name": "accuracy", "value": accuracy, "params": {}},
            "stderr": {"name": "stderr", "value": 0.0, "params": {}}}}]}
    tokens_in = sum(s["output"].get("usage", {}).get("input_tokens", 0) for s in samples)
    tokens_out = sum(s["output"].get("usage", {}).get("output_tokens", 0) for s in samples)
    stats = {"started_at": INSPECT_CREATED.isoformat(),
             "completed_at": (max(datetime.fromisoformat(s["completed_at"]) for s in samples)).isoformat(),
             "model_usage": {INSPECT_MODEL: {"input_tokens": tokens_in, "output_tokens": tokens_out,
                                             "total_tokens": tokens_in + tokens_out}}}
    header = {"version": 2, "status": "success", "eval": eval_spec, "plan": plan, "results": results,
              "stats": stats, "invalidated": False, "tags": [], "metadata": {}}
    reductions = [{"scorer": "valid_json", "reducer": "mean", "samples": [
        {"value": sum(1.0 for s in scored if s["id"] == sid and s["scores"]["valid_json"]["value"] == "C")
                  / max(1, sum(1 for s in scored if s["id"] == sid)),
         "sample_id": sid} for sid in ids]}]
    document = dict(header, samples=samples, reductions=reductions)
    summaries = [_summary(s) for s in samples]

    def compact(value: Any) -> bytes:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    members = [("_journal/start.json", compact({"version": 2, "eval": eval_spec, "plan": plan}))]
    members += [(f"samples/{s['id']}_epoch_{s['epoch']}.json", compact(s)) for s in samples]
    members += [("_journal/summaries/1.json", compact(summaries)), ("summaries.json", compact(summaries)),
                ("reductions.json", compact(reductions)), ("header.json", compact(header))]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=(2026, 12, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o600 << 16
            archive.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=5)
    stem = INSPECT_TASK  # Inspect itself names them {created}_{task}_{eval_id}.json / .eval
    return {f"{stem}.json": json.dumps(document, ensure_ascii=False, indent=2) + "\n",
            f"{stem}.eval": buffer.getvalue(), "expected.jsonl": _jsonl(expected)}


def _summary(sample: dict[str, Any]) -> dict[str, Any]:
    summary = {"id": sample["id"], "epoch": sample["epoch"], "input": sample["input"],
               "target": sample["target"], "metadata": sample["metadata"]}
    for key in ("scores", "model_usage", "started_at", "completed_at", "total_time", "working_time", "uuid"):
        if key in sample:
            summary[key] = sample[key]
    if "error" in sample:
        summary["error"] = sample["error"]["message"]
    summary["completed"] = True
    summary["message_count"] = len(sample["messages"])
    return summary


# --------------------------------------------------------------------------- promptfoo

PF_VERSION = "0.123.0"
PF_PROVIDERS = [
    {"id": "openai:chat:gpt-x", "label": "gpt-x", "config": {
        "temperature": 0, "max_tokens": 1024,
        "response_format": {"type": "json_schema", "json_schema": {"name": "claims", "strict": True,
                                                                   "schema": {"type": "object"}}}}},
    {"id": "anthropic:messages:claude-y", "label": "claude-y",
     "config": {"temperature": 0.2, "max_tokens": 1024}},
]
PF_PROMPT = {"raw": SYSTEM_PROMPT + "\n\nService: {{service}}\nEnvironment: {{environment}}\n"
             "Revision: {{revision}}\nFields: {{fields}}\nSupplied documents: {{supplied}}",
             "label": "prompts/claims_p2.txt"}
PF_CREATED = datetime(2026, 12, 1, 0, 0, 0, tzinfo=UTC)


def _pf_output(provider: int, raw: str) -> Any:
    """What the provider hands back: openai with ``response_format.type == 'json_schema'``
    runs ``JSON.parse`` on the text and keeps the object when it parses (the answer's
    bytes are gone), the string when it does not; anthropic without it keeps the text."""
    if provider == 0:
        try:
            return json.loads(raw, parse_constant=_reject)
        except ValueError:
            return raw
    return raw


def _reject(name: str) -> Any:
    raise ValueError(name)  # JSON.parse knows no NaN or Infinity


def _promptfoo(rows: list[dict[str, Any] | None]) -> dict[str, str]:
    """``promptfoo eval -o results.json`` (``writeJsonOutputSafely``: ``JSON.stringify(
    createOutputData(...), null, 2)``): one test a CSV row (the request's lists as
    comma-separated strings), each test run by two providers (promptIdx 0 and 1)."""
    tests: list[tuple[dict, list[tuple[str, dict]]]] = []
    for first, second in _pairs(rows, 25):
        tests.append((first, [("answer", first), ("answer", second)]))
    cut, empty = rows[36], rows[228]
    tests.append((cut, [("truncated", cut), ("error", cut)]))
    tests.append((empty, [("refusal", empty), ("empty", empty)]))
    results, expected = [], []
    stats = {"successes": 0, "failures": 0, "errors": 0}
    for test_idx, (asked, outcomes) in enumerate(tests):
        request = asked["request"]
        vars_ = {"service": request["service"], "environment": request["environment"],
                 "revision": request["revision"], "fields": ",".join(request["fields"]),
                 "supplied": ",".join(request["supplied"])}
        test_case = {"vars": vars_, "description": asked["id"],
                     "assert": [{"type": "is-json"}], "options": {}, "metadata": {}}
        rendered = SYSTEM_PROMPT + "\n\n" + _user_prompt(request)
        for prompt_idx, (kind, record) in enumerate(outcomes):
            provider = PF_PROVIDERS[prompt_idx]
            latency = _latency(record) + 13 * prompt_idx
            result_id = _uuid("promptfoo", test_idx, prompt_idx)
            raw = {"answer": record.get("raw"), "truncated": record.get("raw"), "empty": "",
                   "refusal": REFUSAL_TEXT, "error": None}[kind]
            in_tok, out_tok = _tokens(record, raw or "")
            usage = {"total": in_tok + out_tok, "prompt": in_tok, "completion": out_tok,
                     "cached": 0, "numRequests": 1}
            error = None
            if kind == "error":
                error = "API error: 429 Too Many Requests\n{\"type\":\"error\",\"error\":{\"type\":" \
                        "\"rate_limit_error\",\"message\":\"Number of requests has exceeded your rate limit\"}}"
                response: dict[str, Any] = {"error": error}
            else:
                response = {"output": raw if kind == "refusal" else _pf_output(prompt_idx, raw),
                            "tokenUsage": usage, "cached": False, "latencyMs": latency}
                if kind == "refusal":
                    response["isRefusal"] = True
                    response["guardrails"] = {"flagged": True}
                response["finishReason"] = {"truncated": "length", "refusal": "content_filter"}.get(kind, "stop")
                response["cost"] = round((in_tok * 2.5 + out_tok * 10) / 1_000_000, 8)
            passed = kind not in ("error",) and _parses(raw or "")
            if kind == "error":
                stats["errors"] += 1
                grading = None
            else:
                stats["successes" if passed else "failures"] += 1
                reason = "Assertion passed" if passed else "Expected output to be valid JSON"
                grading = {"pass": passed, "score": 1 if passed else 0, "reason": reason,
                           "namedScores": {}, "tokensUsed": {"total": 0, "prompt": 0, "completion": 0,
                                                             "cached": 0, "numRequests": 0},
                           "componentResults": [{"pass": passed, "score": 1 if passed else 0,
                                                 "reason": reason, "assertion": {"type": "is-json"}}],
                           "assertion": None}
            result: dict[str, Any] = {"cost": response.get("cost", 0)}
            if error:
                result["error"] = error
            result.update({
                "gradingResult": grading, "id": result_id, "latencyMs": latency, "namedScores": {},
                "prompt": {"raw": rendered, "label": PF_PROMPT["label"]},
                "promptId": _hex("promptfoo-prompt", size=64), "promptIdx": prompt_idx,
                "provider": {"id": provider["id"], "label": provider["label"]},
                "response": response, "score": 1 if passed else 0, "success": passed,
                "testCase": test_case, "testIdx": test_idx,
                "tokenUsage": {"prompt": in_tok if kind != "error" else 0,
                               "completion": out_tok if kind != "error" else 0, "cached": 0,
                               "total": (in_tok + out_tok) if kind != "error" else 0, "numRequests": 1,
                               "completionDetails": {"reasoning": 0, "acceptedPrediction": 0,
                                                     "rejectedPrediction": 0},
                               "assertions": {"total": 0, "prompt": 0, "completion": 0, "cached": 0,
                                              "numRequests": 0 if kind == "error" else 1,
                                              "completionDetails": {"reasoning": 0, "acceptedPrediction": 0,
                                                                    "rejectedPrediction": 0}}},
                "vars": vars_, "metadata": {}, "failureReason": 2 if kind == "error" else (0 if passed else 1),
            })
            results.append(result)
            values: dict[str, Any] = {"id": result_id, "ts": _iso_z(PF_CREATED),
                                      "model": provider["id"], "item": asked["id"], "request": request}
            if kind == "error":
                values.update(no_answer="ERROR", no_answer_detail=error)
            elif kind == "refusal":
                values.update(no_answer="REFUSAL", no_answer_detail=REFUSAL_TEXT)
            elif raw == "":
                values.update(no_answer="EMPTY")
            else:
                output = response["output"]
                values["raw"] = output if isinstance(output, str) else json.dumps(
                    output, ensure_ascii=False, separators=(",", ":"))
            if kind == "truncated":
                values["truncated"] = "length"
            expected.append(_canonical(values, {"prompt_version": PF_PROMPT["label"]}))
    total_in = sum(r["tokenUsage"]["prompt"] for r in results)
    total_out = sum(r["tokenUsage"]["completion"] for r in results)
    prompts = []
    for idx, provider in enumerate(PF_PROVIDERS):
        mine = [r for r in results if r["promptIdx"] == idx]
        prompts.append({"raw": PF_PROMPT["raw"], "label": PF_PROMPT["label"], "id": _hex("promptfoo-prompt", size=64),
                        "provider": provider["label"], "metrics": {
                            "score": sum(r["score"] for r in mine),
                            "testPassCount": sum(r["success"] for r in mine),
                            "testFailCount": sum(not r["success"] and r["failureReason"] == 1 for r in mine),
                            "testErrorCount": sum(r["failureReason"] == 2 for r in mine),
                            "assertPassCount": sum(r["success"] for r in mine),
                            "assertFailCount": sum(r["failureReason"] == 1 for r in mine),
                            "totalLatencyMs": sum(r["latencyMs"] for r in mine),
                            "tokenUsage": {"total": sum(r["tokenUsage"]["total"] for r in mine),
                                           "prompt": sum(r["tokenUsage"]["prompt"] for r in mine),
                                           "completion": sum(r["tokenUsage"]["completion"] for r in mine),
                                           "cached": 0, "numRequests": len(mine)},
                            "namedScores": {}, "namedScoresCount": {},
                            "cost": round(sum(r["cost"] for r in mine), 8)}})
    summary = {"version": 3, "timestamp": "2026-12-01T00:00:00.000Z",
               "prompts": prompts, "results": results,
               "stats": {**stats, "tokenUsage": {"prompt": total_in, "completion": total_out, "cached": 0,
                                                 "total": total_in + total_out, "numRequests": len(results),
                                                 "completionDetails": {"reasoning": 0, "acceptedPrediction": 0,
                                                                       "rejectedPrediction": 0},
                                                 "assertions": {"total": 0, "prompt": 0, "completion": 0,
                                                                "cached": 0, "numRequests": len(results) - 1}},
                         "durationMs": 412_337}}
    config = {"description": "Config claims grounded in the supplied documents",
              "prompts": ["file://prompts/claims_p2.txt"], "providers": PF_PROVIDERS,
              "tests": "file://tests.csv", "outputPath": ["results.json"], "sharing": False,
              "defaultTest": {"assert": [{"type": "is-json"}]}}
    document = {"evalId": "eval-Q3k-2026-12-01T00:00:00", "results": summary, "config": config,
                "shareableUrl": None, "metadata": {
                    "promptfooVersion": PF_VERSION, "nodeVersion": "v22.22.0", "platform": "linux",
                    "arch": "x64", "exportedAt": "2026-12-01T00:07:12.480Z",
                    "evaluationCreatedAt": "2026-12-01T00:00:00.000Z"}}
    return {"results.json": json.dumps(document, ensure_ascii=False, indent=2),
            "expected.jsonl": _jsonl(expected)}


# --------------------------------------------------------------------------- build

def build(root: Path) -> None:
    """Write every format's sample file(s) and expected.jsonl under ``root``'s
    fixtures/logs/formats/ (``preset.toml`` and ``SOURCE.md`` are written by hand and
    left alone), from ``root``'s fixtures/logs/sample.jsonl."""
    rows = _load(root)
    for name, files in (("phoenix", _phoenix(rows)), ("otel-genai", _otel(rows)),
                        ("inspect", _inspect(rows)), ("promptfoo", _promptfoo(rows))):
        folder = root / OUT / name
        folder.mkdir(parents=True, exist_ok=True)
        for filename, content in files.items():
            path = folder / filename
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8", newline="\n")


if __name__ == "__main__":
    build(Path(__file__).resolve().parents[2])
