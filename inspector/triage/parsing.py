"""How a log's line is read: the parser a format asks for, and a record decoded
whole (a drill-down's, an export's, an annotation's reread).

``parser_for`` picks, once per plan, what the per-line loop calls: our own lines'
fast path (``records.parse_line``), a mapped line's (``records.parse_mapped``),
a preset's foreign line (``formats.reading.parse_foreign``) or a staged format's
canonical line (``formats.reading.parse_staged``).

Pure: no textual, no rich.
"""

from __future__ import annotations

from typing import Any

from .formats.reading import parse_foreign, parse_staged
from .formats.spec import envelope_reason
from .mapping import DEFAULT_FORMAT, LogFormat, Plan, compile_format
from .records import BadLine, LogRecord, RequestCache, parse_line, parse_mapped, record_meta

__all__ = ["decode_record", "parser_for"]


def parser_for(plan: Plan, counting: bool = False) -> Any:
    """What reads a line for ``plan``: ``(raw, request, members)``, a bad line's
    reason, or (through a format) a ``formats.Skipped`` row.  ``counting``: the
    plain fast path only where the counting needs nothing else (``Plan.counting_trivial``)."""
    log_format = plan.log_format
    if log_format.spec is not None:
        spec = log_format.spec
        return lambda line, requests: parse_foreign(line, requests, spec)
    if log_format.staged:
        return parse_staged
    if plan.counting_trivial if counting else plan.trivial:
        return parse_line
    return lambda line, requests: parse_mapped(line, requests, plan)


def decode_record(line: bytes, file: str, number: int, offset: int, requests: RequestCache | None = None,
                  log_format: LogFormat = DEFAULT_FORMAT) -> LogRecord | BadLine:
    """The record on one line, read as ``log_format`` says, metadata decoded, or
    the bad line and its reason.  Its metadata and id: ``records.record_meta``,
    with ``raw_warning`` when its answer is a chat message, not the answer."""
    requests = requests if requests is not None else RequestCache()
    plan = compile_format(log_format, (), True)
    parsed = parser_for(plan)(line, requests)
    if isinstance(parsed, str):  # a skipped row too (formats.Skipped): not a record
        return BadLine(file, number, offset, parsed)
    raw, known, members = parsed
    meta, ident = record_meta(members, plan)
    if raw.__class__ is str and (warning := envelope_reason(raw)) is not None:
        meta.setdefault("raw_warning", warning)
    return LogRecord(file, number, offset, raw, known.request, meta, ident)
