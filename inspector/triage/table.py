"""Every record counted, as a table: ``--records FILE`` (JSON lines) or ``FILE.csv``.

One row a record the triage counted (a bad line is not a record, and a record
outside ``--since``/``--until`` is not counted), in log order, the columns
``COLUMNS``: where the record is, what it is (its id, item, time, model and the
rest of its metadata) and what the contract said of it.  Every value is read
off what the counting already has, never worked out a second time:

- ``file``, ``line``, ``offset``: the line's place, as the index and
  ``--bad-lines`` have it (the offset of the decompressed stream for ``.gz``);
- ``id``, ``meta``: ``records.record_meta``, the reading a drill-down and an
  export make (``meta`` without the members shown in columns of their own:
  ``id`` at the top level, ``item``, ``model`` and a readable ``ts``);
- ``ts``: the time the window and the histogram read (``timeline.parse_ts``),
  as ISO 8601 UTC, to the microsecond when it has one;
- ``verdict``, ``reason``, ``check``, ``claim_field``, ``claim_doc``: the
  verdict (``verify``): its status, sub-reason, the failing check's id and the
  failing claim's field and cited document (what ``claim:`` groups are named by);
- ``blame``, ``category``: the count key the tally filed the record under
  (``evidence.Assessment``, kept per request and shape of rejection);
- ``rungs``: each of the article's rungs (``reports.case.RUNGS``) passed or not, read off the
  count key as the summary reads them;
- ``label``: the label lens's policy, ANSWER or ABSTAIN (``Assessment.policy``:
  the weaker lens that ignores scope, revision, supply and quotes).

The counting runs in tasks (``triage.run``), in worker processes: each task
spills its rows, already encoded as JSON lines, into a file of its own
(``RowSpill``, as ``badlines.Spill`` spills bad lines), and the driver copies
the spills into the output in task order (``RecordsOut``): the memory stays
one batch, whatever the records.  A range of a plain log is handed out with
the number of its first line (the driver counts the newlines before it, in C,
as it hands the ranges out), so a task writes its rows whole, JSON or CSV,
with their line numbers, and the driver copies bytes.

Text is untrusted: JSON lines are written as the tool writes JSON (every
invisible character escaped, ``contract.text.json_escape``; a lone surrogate
as its escape's six characters, ``export.encodable_text``); a CSV cell that a
spreadsheet would take for a formula (starting with ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return), or that starts with ``'``, gets one ``'`` before it
(``csv_cell``): removing the first ``'`` of a cell that starts with one gives the
value back.  Pure: no textual, no rich.
"""

from __future__ import annotations

import csv
import io
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

import msgspec

from ..contract.checks import NO_ANSWER
from ..contract.evidence import Assessment
from ..contract.text import json_escape
from ..reports.case import RUNGS
from .export import encodable_text
from .badlines import SpillFile
from .groups import Outcome, VerdictKey
from .records import KnownRequest, record_meta
from .timeline import iso

__all__ = ["BATCH", "COLUMNS", "CSV_SUFFIX", "RecordRow", "RecordsOut", "RowSpill", "csv_cell", "is_csv",
           "record_row", "rows_name"]

COLUMNS = ("file", "line", "offset", "id", "item", "ts", "model", "verdict", "reason", "check", "claim_field",
           "claim_doc", "blame", "category", "rungs", "label", "meta")
# A records file whose name ends so is written as CSV (any case); any other name, and -, as JSON lines.
CSV_SUFFIX = ".csv"
# Rows a spill holds before writing them out.
BATCH = 4096
# Each rung passed or not, per (strict_json, citation_only, contract) of a count key: read off
# the key as the summary's rungs are (``groups.Outcome``), one dict each, shared by the rows.
_RUNGS: dict[tuple[bool, bool, bool], dict[str, bool]] = {}
_READ = 4 * 1024 * 1024


class RecordRow(msgspec.Struct):
    """A row of ``--records``: its members are ``COLUMNS``, in that order."""

    file: str
    line: int
    offset: int
    id: Any
    item: Any
    ts: str | None
    model: Any
    verdict: str
    reason: str | None
    check: str | None
    claim_field: str | None
    claim_doc: str | None
    blame: str | None
    category: str | None
    rungs: dict[str, bool]
    label: str
    meta: dict[str, Any]

_ENCODE_LINES = msgspec.json.Encoder().encode_lines
_ENCODE = msgspec.json.Encoder().encode


def is_csv(path: str | Path) -> bool:
    """Whether ``--records PATH`` writes CSV (by its suffix)."""
    return str(path).lower().endswith(CSV_SUFFIX)


def rows_name(kind: str, log: int, place: int) -> str:
    """The name of a task's row spill in the spill directory (unique per task, beside ``badlines.spill_name``'s)."""
    return f"rows-{kind}-{log}-{place}"


def record_row(file: str, line: int, offset: int, verdict: Any, known: KnownRequest, members: Mapping[Any, Any],
               plan: Any, stamp: float | None, key: VerdictKey,
               failing: tuple[str, str, str] | None) -> RecordRow:
    """The row of one counted record, from what the counting has of it: its
    ``verdict``, request, line's ``members`` (read as ``plan`` says), time
    (``stamp``, epoch seconds, None when unreadable), verdict key (``key``) and failing claim
    (``failing``: status, field, cited document, or None)."""
    meta, ident = record_meta(members, plan)
    source = meta.get("source")
    if source.__class__ is dict and source.get("file").__class__ is str:
        file = source["file"]  # a staged format's record: the log it was read from (and where, in meta.source)
    if len(plan.id) == 1:
        meta.pop(plan.id[0], None)
    if stamp is not None and len(plan.ts) == 1:
        meta.pop(plan.ts[0], None)
    # A record without an answer failed no check of the contract (its verdict's check is what stops its empty
    # answer, for the checks panel): NO_ANSWER's column is empty.
    check = verdict.check if verdict.status != NO_ANSWER else None
    flags = (key.strict_json, key.citation_only, key.status == "ACCEPT")
    rungs = _RUNGS.get(flags)
    if rungs is None:
        rungs = _RUNGS[flags] = {rung.id: rung.passes(Outcome(*flags)) for rung in RUNGS}
    return RecordRow(file, line, offset, ident, meta.pop("item", None),
                     iso(stamp, fraction=True) if stamp is not None else None, meta.pop("model", None),
                     verdict.status, verdict.reason, check.id if check is not None else None,
                     failing[1] if failing is not None else None, failing[2] if failing is not None else None,
                     key.blame, key.category, rungs, Assessment(verdict, known.recall).policy, meta)


def _encodable(value: Any) -> Any:
    """``value`` with every string (and key) a UTF-8 file can hold (``encodable_text``)."""
    if isinstance(value, str):
        return encodable_text(value)
    if isinstance(value, dict):
        return {encodable_text(str(key)): _encodable(member) for key, member in value.items()}
    if isinstance(value, list):
        return [_encodable(member) for member in value]
    if isinstance(value, RecordRow):
        return RecordRow(*(_encodable(getattr(value, name)) for name in COLUMNS))
    return value


def _encode_rows(rows: list[RecordRow]) -> bytes:
    """Rows as JSON lines, the tool's escaping: one encoding in C, a row holding
    a lone surrogate (which UTF-8 cannot) made encodable first."""
    try:
        data = _ENCODE_LINES(rows)
    except UnicodeEncodeError:
        data = b"".join(_ENCODE(_encodable(row)) + b"\n" for row in rows)
    if data.isascii():
        return data
    return json_escape(data.decode("utf-8")).encode("utf-8")


class RowSpill(SpillFile):
    """The rows of one task (``badlines.SpillFile``): JSON lines, or with
    ``as_csv`` CSV rows, as the output holds them (the workers do the writing;
    the driver only copies)."""

    batch = BATCH

    def __init__(self, path: str | Path, as_csv: bool = False) -> None:
        super().__init__(path)
        self.csv = as_csv

    def add(self, row: RecordRow) -> None:
        self.append(row)

    def encode(self, batch: list[Any]) -> bytes:
        return _csv_rows([csv_cell(getattr(row, name)) for name in COLUMNS] for row in batch) if self.csv \
            else _encode_rows(batch)


def csv_cell(value: Any) -> str:
    """A value as a CSV cell: null empty, a string as it is, anything else its
    JSON text (``rungs``, ``meta``, a number); a cell a spreadsheet would read
    as a formula (``=``, ``+``, ``-``, ``@``, tab, carriage return first), or
    starting with ``'``, with one ``'`` before it."""
    if value is None:
        return ""
    if isinstance(value, str):
        text = encodable_text(value)
    else:
        try:
            text = _ENCODE(value).decode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate in an object's text
            text = _ENCODE(_encodable(value)).decode("utf-8")
    if text and text[0] in "=+-@\t\r'":
        return "'" + text
    return text


def _csv_rows(rows: Any) -> bytes:
    """Rows of cells as CSV (quoted where needed, CRLF after each, as RFC 4180 has it), UTF-8."""
    text = io.StringIO()
    csv.writer(text, lineterminator="\r\n").writerows(rows)
    return text.getvalue().encode("utf-8")


class RecordsOut:
    """Where the spills are copied to, in task order: ``out`` (binary), JSON
    lines or, with ``as_csv``, CSV after a header row (written at once).  A
    task's rows are spilled with their line numbers (``triage.run`` numbers a
    range's lines as it hands it out), so a copy is of bytes."""

    def __init__(self, out: BinaryIO, as_csv: bool = False) -> None:
        self.out = out
        self.csv = as_csv
        if as_csv:
            out.write(_csv_rows([COLUMNS]))

    def copy(self, path: str | Path) -> None:
        """Copy the spill at ``path`` (a few megabytes at a time)."""
        with open(path, "rb") as spill:
            shutil.copyfileobj(spill, self.out, _READ)
