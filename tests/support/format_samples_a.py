"""Sample logs in five real tools' record shapes, built from ``fixtures/logs/sample.jsonl`` (issue 31).

Each format gets a directory ``fixtures/logs/formats/<name>/`` holding what the tool writes (its own
member names, nesting, timestamp forms and non-answer rows, as its documentation and source show:
see the ``SOURCE.md`` beside each) and ``expected.jsonl``, the canonical record line each record
should stage into, in the order the tool's file holds them (no ``source`` member).  The answers and
requests are the sample's, their raw text byte-exact; a few records are turned into what the tool
writes for a refusal, an error, an empty answer or a truncated one, so that every format shows them.

Everything here is deterministic (ids and token counts are hashes or sums of the sample's own
members, never random), so a test can check that the committed files equal a rebuild::

    .venv/bin/python tests/support/format_samples_a.py        # rewrites the files under fixtures/

``build(root)`` writes under ``root`` (the repository, or a temporary copy of the one input).
The module needs only the standard library, so it runs as a script or as ``support.format_samples_a``.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

__all__ = ["FORMATS", "build", "load_pool"]

SAMPLE = Path("fixtures/logs/sample.jsonl")
OUT = Path("fixtures/logs/formats")
FORMATS = ("openai-chat", "openai-responses", "openai-batch", "langfuse", "langsmith")

# The five keys every sample request has (one line adds an unexpected member: a deliberately bad line).
REQUEST_KEYS = ("service", "environment", "revision", "fields", "supplied")

REFUSAL = "I'm sorry, but I can't help with that request."
SYSTEM = ("Answer with JSON only: {\"claims\": [{\"field\", \"value\", \"doc\", \"quote\"}]}, "
          "citing only the supplied sources.")


# -- the sample ------------------------------------------------------------------------------------

def load_pool(root: Path) -> list[dict[str, Any]]:
    """The sample's well-formed records, in log order, each with its ``ts`` as an aware datetime.

    Left out: the deliberately bad lines (not JSON, not an object, no string ``raw``, no request
    object, a request with a member the contract does not know) and records without a time, which
    none of these tools can write (each stamps every record)."""
    pool = []
    for line in (root / SAMPLE).read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if not isinstance(record, dict) or not isinstance(record.get("raw"), str):
            continue
        request = record.get("request")
        if not isinstance(request, dict) or tuple(request) != REQUEST_KEYS or record.get("ts") is None:
            continue
        try:
            moment = _when(record["ts"])
        except (TypeError, ValueError):  # a deliberately bad time ("yesterday")
            continue
        pool.append({**record, "ts": moment})
    return pool


def _when(ts: str | float) -> datetime:
    """A sample time (ISO 8601 with Z, or epoch seconds) as an aware UTC datetime to the microsecond."""
    if isinstance(ts, bool) or not isinstance(ts, (str, int, float)):
        raise TypeError(f"not a time: {ts!r}")
    if isinstance(ts, str):
        return datetime.fromisoformat(ts.replace("Z", "+00:00")).astimezone(timezone.utc)
    micros = round(ts * 1_000_000)
    return datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(microseconds=micros)


def iso_z(moment: datetime) -> str:
    """The canonical ``ts``: ISO 8601 UTC ending in Z, the fraction only when there is one (6 digits)."""
    text = moment.strftime("%Y-%m-%dT%H:%M:%S")
    return text + (f".{moment.microsecond:06d}" if moment.microsecond else "") + "Z"


def _seconds(moment: datetime) -> int:
    """Whole epoch seconds (what OpenAI's ``created`` / ``created_at`` hold)."""
    return int(moment.timestamp())


def _at_second(moment: datetime) -> datetime:
    return moment.replace(microsecond=0)


def _hex(label: str, sid: str, size: int) -> str:
    """A deterministic hex id for ``sid`` (the sample's record id) in the namespace ``label``."""
    return hashlib.sha256(f"{label}:{sid}".encode()).hexdigest()[:size]


def _uuid(label: str, sid: str) -> str:
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"inspector-samples:{label}:{sid}"))


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _tokens(text: str | None) -> int:
    """A stand-in token count: a quarter of the characters (deterministic, plausible)."""
    return max(1, len(text or "") // 4)


def _prompt(request: dict[str, Any]) -> str:
    """The user message an application would send for ``request``."""
    return (f"Service {request['service']}, environment {request['environment']}, revision "
            f"{request['revision']}. Report {', '.join(request['fields'])} from the sources "
            f"{', '.join(request['supplied'])}.")


def _is_cut_off(raw: str) -> bool:
    """A sample answer that stops before its closing brace: what a length-capped model writes."""
    return raw.lstrip().startswith("{") and raw.rstrip().endswith("]")


def _pick(records: list[dict[str, Any]], roles: dict[str, int], *,
          also: dict[str, Callable[[dict[str, Any]], bool]] | None = None) -> dict[str, str]:
    """Which sample record plays which role (refusal, error, ...) in a format: role -> record id.

    ``roles`` gives each role its first position in ``records``; ``truncated`` is always the first
    record whose answer is cut off; ``also`` adds roles taken by the first record (from position 0)
    meeting a condition.  A record plays one role at most: a taken position moves on to the next."""
    taken: dict[str, str] = {}
    used: set[str] = set()
    taken["truncated"] = next(r["id"] for r in records if _is_cut_off(r["raw"]))
    used.add(taken["truncated"])
    for role, start in roles.items():
        for record in records[start:] + records[:start]:
            if record["id"] not in used and not _is_cut_off(record["raw"]):
                taken[role] = record["id"]
                used.add(record["id"])
                break
    for role, test in (also or {}).items():
        for record in records:
            if record["id"] not in used and not _is_cut_off(record["raw"]) and test(record):
                taken[role] = record["id"]
                used.add(record["id"])
                break
    return taken


def _canonical(*, id: str, ts: datetime | None, model: str | None, item: str | None = None,
               raw: str | None = None, no_answer: str | None = None, detail: str | None = None,
               truncated: str | None = None, request: dict[str, Any], keep: dict[str, Any]) -> dict[str, Any]:
    """One expected canonical record line (common brief): answer or no_answer, request, kept members."""
    line: dict[str, Any] = {"id": id}
    if ts is not None:
        line["ts"] = iso_z(ts)
    if model is not None:
        line["model"] = model
    if item is not None:
        line["item"] = item
    if no_answer is not None:
        line["no_answer"] = no_answer
        if detail is not None:
            line["no_answer_detail"] = detail
    else:
        line["raw"] = raw
        if truncated is not None:
            line["truncated"] = truncated
    line["request"] = request
    line.update(keep)
    return line


def _write_lines(path: Path, rows: Iterable[Any], dump: Callable[[Any], str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(dump(row) + "\n" for row in rows), encoding="utf-8")


def _expected(path: Path, lines: list[dict[str, Any]]) -> None:
    _write_lines(path, lines, lambda line: json.dumps(line, ensure_ascii=False))


# -- 1. openai-chat: stored Chat Completions (GET /v1/chat/completions), one ChatCompletion a line ---

def _chat_completion(record: dict[str, Any], *, content: str | None, refusal: str | None,
                     finish_reason: str, metadata: dict[str, str] | None) -> dict[str, Any]:
    """The ChatCompletion object as the API returns it (openai-python types/chat/chat_completion.py)."""
    sid, request = record["id"], record["request"]
    prompt_tokens = 60 + _tokens(SYSTEM) + _tokens(_prompt(request))
    completion_tokens = _tokens(content if content is not None else refusal)
    completion: dict[str, Any] = {
        "id": f"chatcmpl-{sid}",
        "object": "chat.completion",
        "created": _seconds(record["ts"]),
        "model": record["model"],
        "choices": [{
            "index": 0,
            "message": {"role": "assistant", "content": content, "refusal": refusal, "annotations": []},
            "logprobs": None,
            "finish_reason": finish_reason,
        }],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
            "prompt_tokens_details": {"cached_tokens": 0, "audio_tokens": 0},
            "completion_tokens_details": {"reasoning_tokens": 0, "audio_tokens": 0,
                                          "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0},
        },
        "service_tier": "default",
        "system_fingerprint": f"fp_{_hex('fp', record['model'], 10)}",
    }
    if metadata is not None:
        completion["metadata"] = metadata
    return completion


def build_openai_chat(pool: list[dict[str, Any]], out: Path) -> None:
    """``completions.jsonl``: the stored completions, oldest first (the list API's default order asc).

    The trusted request rides in the completion's ``metadata`` (string values only): its JSON text
    under ``request``, beside ``prompt_version``.  Stored completions hold no failed calls, so this
    format has no ERROR record."""
    records = sorted(pool[0:50], key=lambda r: (_seconds(r["ts"]), r["id"]))
    roles = _pick(records, {"refusal": 5, "empty": 17})
    lines, expected = [], []
    for record in records:
        sid, request = record["id"], record["request"]
        metadata = {"request": _compact(request), "prompt_version": record["prompt_version"]}
        keep = {"prompt_version": record["prompt_version"], "service_tier": "default"}
        common = {"id": f"chatcmpl-{sid}", "ts": _at_second(record["ts"]), "model": record["model"],
                  "request": request, "keep": keep}
        if sid == roles["refusal"]:
            lines.append(_chat_completion(record, content=None, refusal=REFUSAL, finish_reason="stop",
                                          metadata=metadata))
            expected.append(_canonical(**common, no_answer="REFUSAL", detail=REFUSAL))
        elif sid == roles["empty"]:
            lines.append(_chat_completion(record, content="", refusal=None, finish_reason="stop",
                                          metadata=metadata))
            expected.append(_canonical(**common, no_answer="EMPTY"))
        elif sid == roles["truncated"]:
            lines.append(_chat_completion(record, content=record["raw"], refusal=None, finish_reason="length",
                                          metadata=metadata))
            expected.append(_canonical(**common, raw=record["raw"], truncated="length"))
        else:
            lines.append(_chat_completion(record, content=record["raw"], refusal=None, finish_reason="stop",
                                          metadata=metadata))
            expected.append(_canonical(**common, raw=record["raw"]))
    _write_lines(out / "completions.jsonl", lines, _compact)
    _expected(out / "expected.jsonl", expected)


# -- 2. openai-responses: Response objects (GET /v1/responses/{id}), one a line -------------------------

def _reasoning_model(record: dict[str, Any]) -> bool:
    """In these samples ``gpt-x`` is the reasoning model: its output starts with a reasoning item."""
    return record["model"] == "gpt-x"


def _response(record: dict[str, Any], *, kind: str) -> dict[str, Any]:
    """The Response object (openai-python types/responses/response.py) for one sample record.

    ``kind``: answer | refusal | empty | truncated (max_output_tokens mid-answer) | reasoning_only
    (max_output_tokens spent while reasoning: no message item) | failed (status failed, error)."""
    sid, request = record["id"], record["request"]
    reasoning = _reasoning_model(record)
    max_output_tokens = 4096 if reasoning else 1024
    output: list[dict[str, Any]] = []
    if reasoning and kind != "failed":
        output.append({"id": f"rs_{_hex('rs', sid, 48)}", "type": "reasoning", "summary": []})
    text = {"answer": record["raw"], "truncated": record["raw"], "empty": ""}.get(kind)
    if kind in ("answer", "truncated", "empty", "refusal"):
        content = ([{"type": "refusal", "refusal": REFUSAL}] if kind == "refusal" else
                   [{"type": "output_text", "annotations": [], "logprobs": [], "text": text}])
        output.append({"id": f"msg_{_hex('msg', sid, 48)}", "type": "message",
                       "status": "incomplete" if kind == "truncated" else "completed",
                       "content": content, "role": "assistant"})
    reasoning_tokens = 0 if not reasoning else 128 + len(sid) * 8
    visible = {"answer": _tokens(text), "truncated": _tokens(text), "empty": 0,
               "refusal": _tokens(REFUSAL)}.get(kind, 0)
    if kind == "reasoning_only":
        reasoning_tokens = max_output_tokens
    if kind == "truncated":
        max_output_tokens = reasoning_tokens + visible
    input_tokens = 40 + _tokens(SYSTEM) + _tokens(_prompt(request))
    usage = None if kind == "failed" else {
        "input_tokens": input_tokens,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": reasoning_tokens + visible,
        "output_tokens_details": {"reasoning_tokens": reasoning_tokens},
        "total_tokens": input_tokens + reasoning_tokens + visible,
    }
    status = {"failed": "failed", "truncated": "incomplete", "reasoning_only": "incomplete"}.get(kind, "completed")
    return {
        "id": f"resp_{_hex('resp', sid, 48)}",
        "object": "response",
        "created_at": _seconds(record["ts"]),
        "status": status,
        "background": False,
        "error": ({"code": "server_error",
                   "message": "The server had an error processing your request. Sorry about that! You can "
                              "retry your request, or contact us through our help center if the error persists."}
                  if kind == "failed" else None),
        "incomplete_details": {"reason": "max_output_tokens"} if status == "incomplete" else None,
        "instructions": SYSTEM,
        "max_output_tokens": max_output_tokens,
        "max_tool_calls": None,
        "model": record["model"],
        "output": output,
        "parallel_tool_calls": True,
        "previous_response_id": None,
        "prompt_cache_key": None,
        "reasoning": {"effort": "medium" if reasoning else None, "summary": None},
        "safety_identifier": None,
        "service_tier": "default",
        "store": True,
        "temperature": 1.0 if reasoning else 0.2,
        "text": {"format": {"type": "text"}, "verbosity": "medium"},
        "tool_choice": "auto",
        "tools": [],
        "top_logprobs": 0,
        "top_p": 1.0,
        "truncation": "disabled",
        "usage": usage,
        "user": None,
        "metadata": {
            "service": request["service"],
            "environment": request["environment"],
            "revision": request["revision"],
            "fields": ",".join(request["fields"]),
            "supplied": ",".join(request["supplied"]),
            "prompt_version": record["prompt_version"],
        },
    }


def build_openai_responses(pool: list[dict[str, Any]], out: Path) -> None:
    """``responses.jsonl``: one retrieved Response a line, in the order they were created.

    The request is spread over ``metadata`` members (string values; lists comma separated)."""
    records = pool[50:100]
    roles = _pick(records, {"refusal": 5, "failed": 11, "empty": 17},
                  also={"reasoning_only": _reasoning_model})
    kind_of = {sid: role for role, sid in roles.items()}
    lines, expected = [], []
    for record in records:
        kind = kind_of.get(record["id"], "answer")
        response = _response(record, kind=kind)
        lines.append(response)
        keep = {"temperature": response["temperature"], "max_output_tokens": response["max_output_tokens"],
                "prompt_version": record["prompt_version"]}
        common = {"id": response["id"], "ts": _at_second(record["ts"]), "model": record["model"],
                  "request": record["request"], "keep": keep}
        if kind == "refusal":
            expected.append(_canonical(**common, no_answer="REFUSAL", detail=REFUSAL))
        elif kind == "failed":
            expected.append(_canonical(**common, no_answer="ERROR", detail=response["error"]["message"]))
        elif kind == "empty":
            expected.append(_canonical(**common, no_answer="EMPTY"))
        elif kind == "reasoning_only":
            expected.append(_canonical(**common, no_answer="EMPTY", detail="max_output_tokens"))
        elif kind == "truncated":
            expected.append(_canonical(**common, raw=record["raw"], truncated="max_output_tokens"))
        else:
            expected.append(_canonical(**common, raw=record["raw"]))
    _write_lines(out / "responses.jsonl", lines, _compact)
    _expected(out / "expected.jsonl", expected)


# -- 3. openai-batch: the Batch API's input, output and error files -------------------------------------

def build_openai_batch(pool: list[dict[str, Any]], out: Path) -> None:
    """``batch_input.jsonl`` (what was uploaded), ``batch_output.jsonl`` (every request that got an HTTP
    200, in the service's order, not the input's) and ``batch_errors.jsonl`` (the failed ones: an HTTP
    400 with its error body, and one the batch expired before running: ``response`` null, ``error``).

    The request lives in the input line's ``body.metadata.request`` (JSON text: metadata values are
    strings), found through ``custom_id``; the output lines carry only the completion."""
    records = pool[130:180]
    roles = _pick(records, {"refusal": 5, "bad_request": 11, "empty": 17, "expired": 29})
    kind_of = {sid: role for role, sid in roles.items()}
    inputs, outputs, errors = [], [], []
    expected_out: dict[str, dict[str, Any]] = {}
    expected_err: dict[str, dict[str, Any]] = {}
    for record in records:
        sid, request, model = record["id"], record["request"], record["model"]
        kind = kind_of.get(sid, "answer")
        temperature = 0.2 if model == "gpt-x" else 0.0
        max_completion_tokens = 0 if kind == "bad_request" else 1024
        inputs.append({"custom_id": sid, "method": "POST", "url": "/v1/chat/completions", "body": {
            "model": model,
            "messages": [{"role": "system", "content": SYSTEM}, {"role": "user", "content": _prompt(request)}],
            "temperature": temperature,
            "max_completion_tokens": max_completion_tokens,
            "metadata": {"request": _compact(request), "prompt_version": record["prompt_version"]},
        }})
        keep = {"temperature": temperature, "max_completion_tokens": max_completion_tokens,
                "prompt_version": record["prompt_version"]}
        line_id = f"batch_req_{_hex('batch_req', sid, 32)}"
        request_id = _hex("request_id", sid, 32)
        if kind == "bad_request":
            detail = ("Invalid 'max_completion_tokens': integer below minimum value. Expected a value >= 1, "
                      "but got 0 instead.")
            errors.append({"id": line_id, "custom_id": sid, "response": {
                "status_code": 400, "request_id": request_id, "body": {"error": {
                    "message": detail, "type": "invalid_request_error", "param": "max_completion_tokens",
                    "code": "integer_below_min_value"}}}, "error": None})
            expected_err[sid] = _canonical(id=line_id, ts=None, model=model, item=sid, no_answer="ERROR",
                                           detail=detail, request=request, keep=keep)
            continue
        if kind == "expired":
            detail = "This request could not be executed before the completion window expired."
            errors.append({"id": line_id, "custom_id": sid, "response": None,
                           "error": {"code": "batch_expired", "message": detail}})
            expected_err[sid] = _canonical(id=line_id, ts=None, model=model, item=sid, no_answer="ERROR",
                                           detail=detail, request=request, keep=keep)
            continue
        content, refusal, finish = record["raw"], None, "stop"
        if kind == "refusal":
            content, refusal = None, REFUSAL
        elif kind == "empty":
            content = ""
        elif kind == "truncated":
            finish = "length"
        body = _chat_completion(record, content=content, refusal=refusal, finish_reason=finish, metadata=None)
        body["id"] = f"chatcmpl-{_hex('chatcmpl', sid, 29)}"
        outputs.append({"id": line_id, "custom_id": sid, "response": {
            "status_code": 200, "request_id": request_id, "body": body}, "error": None})
        common = {"id": line_id, "ts": _at_second(record["ts"]), "model": model, "item": sid,
                  "request": request, "keep": keep}
        if kind == "refusal":
            expected_out[sid] = _canonical(**common, no_answer="REFUSAL", detail=REFUSAL)
        elif kind == "empty":
            expected_out[sid] = _canonical(**common, no_answer="EMPTY")
        elif kind == "truncated":
            expected_out[sid] = _canonical(**common, raw=record["raw"], truncated="length")
        else:
            expected_out[sid] = _canonical(**common, raw=record["raw"])
    # The service finishes requests in its own order: here, by a hash of the line id.
    outputs.sort(key=lambda line: line["id"])
    _write_lines(out / "batch_input.jsonl", inputs, json.dumps)
    _write_lines(out / "batch_output.jsonl", outputs, json.dumps)
    _write_lines(out / "batch_errors.jsonl", errors, json.dumps)
    _expected(out / "expected.jsonl", [expected_out[line["custom_id"]] for line in outputs] +
              [expected_err[line["custom_id"]] for line in errors])


# -- 4. langfuse: the blob storage export of enriched observations (observations_v2, JSONL) -------------

def _langfuse_time(moment: datetime | None) -> str | None:
    """ClickHouse DateTime64(6) as the export writes it: ``YYYY-MM-DD HH:MM:SS.ffffff`` (UTC)."""
    return None if moment is None else moment.strftime("%Y-%m-%d %H:%M:%S.%f")


def _observation(*, id: str, trace_id: str, start: datetime, end: datetime | None, parent: str, type: str,
                 name: str, level: str = "DEFAULT", status_message: str = "", completion_start: datetime | None = None,
                 input: str = "", output: str = "", metadata: dict[str, str] | None = None,
                 model: str = "", model_parameters: str = "", usage: dict[str, int] | None = None,
                 cost: dict[str, float] | None = None, prompt: tuple[str, str, int | None] = ("", "", None),
                 trace_name: str) -> dict[str, Any]:
    """One row of ``observations_v2`` in the column order of the export's field groups (core, basic,
    time, io, metadata, model, usage, prompt, metrics, trace_context, tools; then the price columns
    the worker's enrichment adds).  Spans have empty model columns and empty usage maps."""
    latency = None if end is None else round((end - start).total_seconds(), 3)
    first_token = None if completion_start is None else round((completion_start - start).total_seconds(), 3)
    cost = cost or {}
    return {
        "id": id, "trace_id": trace_id, "start_time": _langfuse_time(start), "end_time": _langfuse_time(end),
        "project_id": "cm0sampleproject00000000", "parent_observation_id": parent, "type": type,
        "name": name, "level": level, "status_message": status_message, "version": "",
        "environment": "default", "bookmarked": False, "public": False, "user_id": "", "session_id": "",
        "is_root_observation": parent == "",
        "completion_start_time": _langfuse_time(completion_start),
        "created_at": _langfuse_time(start), "updated_at": _langfuse_time((end or start) + timedelta(seconds=2)),
        "input": input, "output": output,
        "metadata": metadata or {},
        "provided_model_name": model, "model_id": "", "model_parameters": model_parameters,
        "usage_details": usage or {}, "cost_details": cost, "total_cost": cost.get("total", 0),
        "usage_pricing_tier_id": None, "usage_pricing_tier_name": None,
        "prompt_id": prompt[0], "prompt_name": prompt[1], "prompt_version": prompt[2],
        "latency": latency, "time_to_first_token": first_token,
        "tags": [], "release": "", "trace_name": trace_name,
        "tool_definitions": {}, "tool_calls": [], "tool_call_names": [],
        "input_price": None, "output_price": None, "total_price": None,
    }


def build_langfuse(pool: list[dict[str, Any]], out: Path) -> None:
    """``observations_v2.jsonl``: per trace a root SPAN, on every third trace a RETRIEVER, and the
    GENERATION the Langfuse OpenAI integration records (``output`` = JSON text of ``{role, content}``;
    a refusal survives only as ``content: null``; a failed call is ``level: ERROR`` with its
    ``status_message``; a streamed call adds ``finish_reason`` to ``metadata``).  The application put
    the request's JSON text in the generation's ``metadata.request``."""
    records = pool[230:260]
    roles = _pick(records, {"refusal": 5, "error": 11, "empty": 17})
    kind_of = {sid: role for role, sid in roles.items()}
    rows, expected = [], []
    for number, record in enumerate(records):
        sid, request, model, ts = record["id"], record["request"], record["model"], record["ts"]
        kind = kind_of.get(sid, "answer")
        trace_id, root = _hex("trace", sid, 32), _hex("span", sid, 16)
        generation_id = _hex("generation", sid, 16)
        trace_name = "answer-config-question"
        end = ts + timedelta(milliseconds=700 + 3 * len(record["raw"]))
        rows.append(_observation(id=root, trace_id=trace_id, start=ts - timedelta(milliseconds=350),
                                 end=end + timedelta(milliseconds=20), parent="", type="SPAN", name=trace_name,
                                 input=_compact({"service": request["service"], "environment": request["environment"],
                                                 "revision": request["revision"], "fields": request["fields"]}),
                                 output=(record["raw"] if kind in ("answer", "truncated") else ""),
                                 trace_name=trace_name))
        if number % 3 == 0:
            rows.append(_observation(id=_hex("retriever", sid, 16), trace_id=trace_id,
                                     start=ts - timedelta(milliseconds=300), end=ts - timedelta(milliseconds=40),
                                     parent=root, type="RETRIEVER", name="fetch-sources",
                                     input=_compact({"service": request["service"],
                                                     "environment": request["environment"],
                                                     "revision": request["revision"]}),
                                     output=_compact(request["supplied"]), trace_name=trace_name))
        temperature, max_tokens = (0.2, 1024) if model == "gpt-x" else (0.0, 1024)
        parameters = _compact({"temperature": temperature, "max_tokens": max_tokens, "top_p": 1,
                               "frequency_penalty": 0, "presence_penalty": 0, "service_tier": "default"})
        metadata = {"request": _compact(request)}
        messages = _compact([{"role": "system", "content": SYSTEM}, {"role": "user", "content": _prompt(request)}])
        version = int(record["prompt_version"].lstrip("p"))
        prompt = (f"cm{_hex('prompt', record['prompt_version'], 23)}", "config-claims", version)
        input_tokens = 60 + _tokens(SYSTEM) + _tokens(_prompt(request))
        content: str | None = record["raw"]
        completion_start = None
        if kind == "refusal":
            content = None
        elif kind == "empty":
            content = ""
        elif kind == "truncated":
            metadata["finish_reason"] = "length"
            completion_start = ts + timedelta(milliseconds=240)
        if kind == "error":
            detail = ("Error code: 429 - {'error': {'message': 'Rate limit reached for " + model +
                      " on tokens per min (TPM): Limit 30000, Used 29871, Requested 612. Please try again in "
                      "966ms.', 'type': 'tokens', 'param': None, 'code': 'rate_limit_exceeded'}}")
            rows.append(_observation(id=generation_id, trace_id=trace_id, start=ts, end=ts + timedelta(milliseconds=180),
                                     parent=root, type="GENERATION", name="OpenAI-generation", level="ERROR",
                                     status_message=detail, input=messages, metadata=metadata, model=model,
                                     model_parameters=parameters, cost={"input": 0, "output": 0, "total": 0},
                                     prompt=prompt, trace_name=trace_name))
        else:
            output_tokens = _tokens(content)
            rows.append(_observation(id=generation_id, trace_id=trace_id, start=ts, end=end, parent=root,
                                     type="GENERATION", name="OpenAI-generation", completion_start=completion_start,
                                     input=messages, output=_compact({"role": "assistant", "content": content}),
                                     metadata=metadata, model=model, model_parameters=parameters,
                                     usage={"input": input_tokens, "output": output_tokens,
                                            "total": input_tokens + output_tokens},
                                     prompt=prompt, trace_name=trace_name))
        keep = {"temperature": temperature, "max_tokens": max_tokens, "prompt_name": "config-claims",
                "prompt_version": version}
        common = {"id": generation_id, "ts": ts, "model": model, "item": trace_id, "request": request, "keep": keep}
        if kind == "error":
            expected.append(_canonical(**common, no_answer="ERROR", detail=detail))
        elif kind in ("refusal", "empty"):
            expected.append(_canonical(**common, no_answer="EMPTY"))
        elif kind == "truncated":
            expected.append(_canonical(**common, raw=record["raw"], truncated="length"))
        else:
            expected.append(_canonical(**common, raw=record["raw"]))
    _write_lines(out / "observations_v2.jsonl", rows, _compact)
    _expected(out / "expected.jsonl", expected)


# -- 5. langsmith: runs as Client.list_runs yields them, one Run a line --------------------------------

def _langsmith_time(moment: datetime | None) -> str | None:
    """A Run's datetime as pydantic dumps the naive UTC values list_runs returns (no offset)."""
    return None if moment is None else moment.replace(tzinfo=None).isoformat(timespec="microseconds")


def _dotted(moment: datetime, run_id: str) -> str:
    return moment.strftime("%Y%m%dT%H%M%S%fZ") + run_id


def _lc_message(kind: str, content: str, **kwargs: Any) -> dict[str, Any]:
    """A LangChain message as ``dumpd`` serializes it (what the tracer stores in inputs and outputs)."""
    return {"lc": 1, "type": "constructor", "id": ["langchain", "schema", "messages", kind],
            "kwargs": {"content": content, **kwargs}}


def _run(*, id: str, name: str, start: datetime, run_type: str, end: datetime | None, metadata: dict[str, Any],
         inputs: dict[str, Any], outputs: dict[str, Any] | None, parent: str | None, trace_id: str,
         dotted_order: str, error: str | None = None, extra: dict[str, Any] | None = None,
         tokens: tuple[int, int] | None = None, first_token: datetime | None = None) -> dict[str, Any]:
    """One Run (langsmith-sdk python/langsmith/schemas.py: RunBase then Run's members, in order)."""
    events = [{"name": "start", "time": _langsmith_time(start)}]
    if end is not None:
        events.append({"name": "error" if error else "end", "time": _langsmith_time(end)})
    return {
        "id": id, "name": name, "start_time": _langsmith_time(start), "run_type": run_type,
        "end_time": _langsmith_time(end), "extra": {**(extra or {}), "metadata": metadata}, "error": error,
        "serialized": None, "events": events, "inputs": inputs, "outputs": outputs,
        "reference_example_id": None, "parent_run_id": parent, "tags": [], "attachments": {},
        "session_id": _uuid("project", "config-claims"), "child_run_ids": None, "child_runs": None,
        "feedback_stats": None, "app_path": f"/o/00000000-0000-0000-0000-000000000000/projects/p/"
                                            f"{_uuid('project', 'config-claims')}/r/{id}?trace_id={trace_id}"
                                            f"&start_time={_langsmith_time(start)}",
        "manifest_id": None, "status": "error" if error else "success",
        "prompt_tokens": tokens[0] if tokens else 0, "completion_tokens": tokens[1] if tokens else 0,
        "total_tokens": sum(tokens) if tokens else 0, "prompt_token_details": None,
        "completion_token_details": None, "first_token_time": _langsmith_time(first_token),
        "total_cost": None, "prompt_cost": None, "completion_cost": None, "prompt_cost_details": None,
        "completion_cost_details": None, "parent_run_ids": [trace_id] if parent else [],
        "trace_id": trace_id, "dotted_order": dotted_order, "in_dataset": False,
    }


def build_langsmith(pool: list[dict[str, Any]], out: Path) -> None:
    """``runs.jsonl``: per trace a ``chain`` root, on every other trace a ``retriever`` child, and the
    ``llm`` run of ChatOpenAI, dumped newest first (list_runs' order).  The llm run's answer is
    ``outputs.generations[0][0].text`` (LangChain's LLMResult, the message as ``dumpd`` keeps it;
    a refusal is ``additional_kwargs.refusal`` with empty content; ``generation_info.finish_reason``
    says ``length``); a failed call has ``error`` and no outputs.  The request is an object in
    ``extra.metadata.request`` (config metadata, inherited by every run of the trace), beside the
    ``ls_*`` members LangChain adds for chat models."""
    records = pool[260:288]
    roles = _pick(records, {"refusal": 5, "error": 11, "empty": 17})
    kind_of = {sid: role for role, sid in roles.items()}
    runs: list[tuple[datetime, int, dict[str, Any]]] = []
    expected: list[tuple[datetime, dict[str, Any]]] = []
    for number, record in enumerate(records):
        sid, request, model, ts = record["id"], record["request"], record["model"], record["ts"]
        kind = kind_of.get(sid, "answer")
        root, llm = _uuid("chain", sid), _uuid("llm", sid)
        temperature = 0.2 if model == "gpt-x" else 0.0
        config = {"request": request, "prompt_version": record["prompt_version"]}
        start = ts - timedelta(milliseconds=400)
        end = ts + timedelta(milliseconds=900 + 3 * len(record["raw"]))
        root_dotted = _dotted(start, root)
        error = None
        if kind == "error":
            error = ("RateLimitError(\"Error code: 429 - {'error': {'message': 'Rate limit reached for " + model +
                     " on requests per min (RPM): Limit 500, Used 500, Requested 1.', 'type': 'requests', "
                     "'param': None, 'code': 'rate_limit_exceeded'}}\")Traceback (most recent call last):\n\n\n"
                     "openai.RateLimitError: Error code: 429 - {'error': {'message': 'Rate limit reached for " + model +
                     " on requests per min (RPM): Limit 500, Used 500, Requested 1.', 'type': 'requests', "
                     "'param': None, 'code': 'rate_limit_exceeded'}}\n")
        answer = None if kind == "error" else ("" if kind in ("refusal", "empty") else record["raw"])
        runs.append((start, 0, _run(id=root, name="answer_config_question", start=start, run_type="chain", end=end,
                                    metadata=dict(config), inputs={"request": request},
                                    outputs=None if error else {"output": answer}, parent=None, trace_id=root,
                                    dotted_order=root_dotted, error=error)))
        if number % 2 == 0:
            retriever = _uuid("retriever", sid)
            r_start = ts - timedelta(milliseconds=350)
            runs.append((r_start, 1, _run(
                id=retriever, name="fetch_sources", start=r_start, run_type="retriever",
                end=ts - timedelta(milliseconds=30), metadata=dict(config),
                inputs={"query": f"{request['service']} {request['environment']} {request['revision']}"},
                outputs={"documents": [{"id": None, "metadata": {"doc": doc}, "page_content": f"# {doc}",
                                        "type": "Document"} for doc in request["supplied"]]},
                parent=root, trace_id=root, dotted_order=root_dotted + "." + _dotted(r_start, retriever))))
        messages = [_lc_message("SystemMessage", SYSTEM, type="system"),
                    _lc_message("HumanMessage", _prompt(request), type="human")]
        input_tokens = 60 + _tokens(SYSTEM) + _tokens(_prompt(request))
        output_tokens = 0 if error else _tokens(answer or REFUSAL)
        finish = "length" if kind == "truncated" else "stop"
        usage = {"completion_tokens": output_tokens, "prompt_tokens": input_tokens,
                 "total_tokens": input_tokens + output_tokens,
                 "completion_tokens_details": {"accepted_prediction_tokens": 0, "audio_tokens": 0,
                                               "reasoning_tokens": 0, "rejected_prediction_tokens": 0},
                 "prompt_tokens_details": {"audio_tokens": 0, "cached_tokens": 0}}
        fingerprint = f"fp_{_hex('fp', model, 10)}"
        completion_id = f"chatcmpl-{_hex('chatcmpl', sid, 29)}"
        outputs = None if error else {
            "generations": [[{
                "text": answer,
                "generation_info": {"finish_reason": finish, "logprobs": None},
                "type": "ChatGeneration",
                "message": _lc_message(
                    "AIMessage", answer,
                    additional_kwargs={"refusal": REFUSAL if kind == "refusal" else None},
                    response_metadata={"token_usage": usage, "model_name": model, "system_fingerprint": fingerprint,
                                       "id": completion_id, "service_tier": "default", "finish_reason": finish,
                                       "logprobs": None},
                    type="ai", id=f"run--{llm}-0",
                    usage_metadata={"input_tokens": input_tokens, "output_tokens": output_tokens,
                                    "total_tokens": input_tokens + output_tokens,
                                    "input_token_details": {"audio": 0, "cache_read": 0},
                                    "output_token_details": {"audio": 0, "reasoning": 0}},
                    tool_calls=[], invalid_tool_calls=[]),
            }]],
            "llm_output": {"token_usage": usage, "model_name": model, "system_fingerprint": fingerprint,
                           "id": completion_id, "service_tier": "default"},
            "run": None,
            "type": "LLMResult",
        }
        llm_metadata = {**config, "ls_provider": "openai", "ls_model_name": model, "ls_model_type": "chat",
                        "ls_temperature": temperature, "ls_max_tokens": 1024}
        invocation = {"model": model, "model_name": model, "stream": False, "n": 1, "temperature": temperature,
                      "max_tokens": 1024, "_type": "openai-chat", "stop": None}
        llm_end = ts + timedelta(milliseconds=150) if error else end - timedelta(milliseconds=15)
        runs.append((ts, 2, _run(id=llm, name="ChatOpenAI", start=ts, run_type="llm", end=llm_end,
                                 metadata=llm_metadata, inputs={"messages": [messages]}, outputs=outputs,
                                 parent=root, trace_id=root, dotted_order=root_dotted + "." + _dotted(ts, llm),
                                 error=error, tokens=None if error else (input_tokens, output_tokens),
                                 extra={"invocation_params": invocation, "options": {"stop": None},
                                        "batch_size": 1})))
        keep = {"temperature": temperature, "max_tokens": 1024, "prompt_version": record["prompt_version"]}
        common = {"id": llm, "ts": ts, "model": model, "item": root, "request": request, "keep": keep}
        if kind == "error":
            line = _canonical(**common, no_answer="ERROR", detail=error)
        elif kind == "refusal":
            line = _canonical(**common, no_answer="REFUSAL", detail=REFUSAL)
        elif kind == "empty":
            line = _canonical(**common, no_answer="EMPTY")
        elif kind == "truncated":
            line = _canonical(**common, raw=record["raw"], truncated="length")
        else:
            line = _canonical(**common, raw=record["raw"])
        expected.append((ts, line))
    # list_runs yields newest first (start_time descending).
    runs.sort(key=lambda entry: (entry[0], entry[1]), reverse=True)
    expected.sort(key=lambda entry: entry[0], reverse=True)
    _write_lines(out / "runs.jsonl", [run for _, _, run in runs], _compact)
    _expected(out / "expected.jsonl", [line for _, line in expected])


BUILDERS = {
    "openai-chat": build_openai_chat,
    "openai-responses": build_openai_responses,
    "openai-batch": build_openai_batch,
    "langfuse": build_langfuse,
    "langsmith": build_langsmith,
}


def build(root: Path) -> list[Path]:
    """Write every format's sample file(s) and ``expected.jsonl`` under ``root/fixtures/logs/formats``
    from ``root/fixtures/logs/sample.jsonl``; the files written, sorted."""
    pool = load_pool(root)
    for name, builder in BUILDERS.items():
        builder(pool, root / OUT / name)
    return sorted(path for name in BUILDERS for path in (root / OUT / name).glob("*.jsonl"))


if __name__ == "__main__":
    for written in build(Path(__file__).resolve().parents[2]):
        print(written)
