"""Triage of rejection logs: a JSON-lines log of answers, verified and grouped.

Pure (no textual, no rich).  A log has one record a line, ``{"raw": "...",
"request": {...}}`` plus any other members (``id``, ``ts``, ``model``, ...), kept as
metadata; a line that is not a usable record is a bad line, counted (by kind) and
listed with its file, line number and reason (the first ``BAD_KEPT``; every
one with ``bad_lines``), never dropped.  Logs are plain files,
``.gz`` files or ``-`` (standard input).

The engine, for the headless summary and the inspector's overview alike::

    from inspector.triage import Options, triage, tally_range, merge, read_record
    tally = triage(["app.jsonl", "old.jsonl.gz"], registry, Options(by=("model",), index=True),
                   on_progress=print, cancel=event)     # every core; cancellable
    part = tally_range("app.jsonl", start, end, registry, Options())   # one byte range
    merge(part_a, part_b)      # associative, Tally() is the identity
    tally.index.entry(n)       # (file, line, offset, label) of the n-th line
    read_record(file, offset)  # the LogRecord (or BadLine) reread from its offset
    summarize(tally, options)  # the groups, named as --export takes them, and the JSON

- ``records``: one line -> ``LogRecord`` (raw, request, metadata) or ``BadLine``;
  ``RequestCache`` validates each distinct request once (by its exact bytes).
- ``mapping``: where a line's members are (``LogFormat``: ``--raw PATH``, ...,
  ``--log-format FILE``), compiled once into the ``Plan`` the per-line loop reads.
- ``logs``: bounded reading (regular files or ``-``; ranges of complete lines; ``.gz``);
  ``expand_logs``, the LOG arguments' globs and directories.
- ``gz``: a ``.gz`` decompressed in bounded pieces (nothing before a break lost:
  ``Tally.broken`` says where a log broke off), and its restart points
  (``SeekIndex``) for rereading at an offset.
- ``drill``: records reread from their offsets (``LineReader``, many in a row).
- ``tally``: ``Tally`` (counts that merge), ``Index`` (per line: file, line,
  offset, label code, in arrays), ``tally_range`` / ``tally_chunk``, ``merge``.
- ``job``: one triage run (``TriageJob``: logs, ``--against``'s, registry, options,
  engine) and ``run_job``, which counts it and returns its ``JobResult`` (summary,
  baseline, comparison, stamps): what the command, the overview and the HTML report run.
- ``run``: ``triage`` over every core (``LocalEngine``), with ``Progress`` and cancel;
  ``triage_runs`` counts several sets of logs (``--against``'s two) in one pool, a tally each.
- ``engines``: what the engines share (``Engine``, ``Progress``, ``WorkerError``).
- ``distributed``: the same count on a Dask cluster (``DaskEngine``), logs read by
  the workers from paths or fsspec URLs; dask is imported only when it counts.
- ``follow``: logs followed as they grow (``Follower.poll``, ``follow``): appended
  lines counted, rotations and truncations noticed (``FollowEvent``), the
  headless ``inspector.triage.follow/1`` objects.
- ``badlines``: every bad line written as found (``--bad-lines``), through a
  spill per task copied in order; a tally keeps the first ``BAD_KEPT``.
- ``groups``: group names (``VALUE_MISMATCH``, ``reason:NO_CITATION/QUOTE_NOT_FOUND``,
  ``model=gpt-x``, ``bad``...) and which records a name holds.
- ``timeline``: ``ts`` (ISO 8601 or epoch seconds), the histogram and its bucket.
- ``summary``: the summary (``inspector.triage/1``): the groups, their rates (a
  population group's rejected share).
- ``compare``: two summaries side by side (``--against``): per group the rate
  before and after, a two-proportion z-test, significant by the false discovery
  rate over the groups tested (Benjamini-Hochberg), new and vanished groups.
- ``export``: a group's records as a new suite file.
- ``stamp``: each log as it was when counted (``LogStamp``); ``LogChanged`` when
  a reread finds it rewritten, rotated or grown (``members.Rereader`` checks it);
  a followed log's stamp accepts growth.
- ``synth``: synthetic logs with a known mix, for tests and benchmarks.
"""

from .drill import read_record
from .groups import GroupMatcher
from .logs import STDIN, LogError, check_log
from .mapping import DEFAULT_FORMAT, LogFormat
from .parsing import decode_record
from .records import BadLine, LogRecord, RequestCache
from .run import Progress, triage, triage_runs
from .tally import BAD_CODE, VERDICT_LABELS, Index, Options, Tally, merge, tally_chunk, tally_range

__all__ = [
    "BAD_CODE",
    "DEFAULT_FORMAT",
    "STDIN",
    "VERDICT_LABELS",
    "BadLine",
    "GroupMatcher",
    "Index",
    "LogError",
    "LogFormat",
    "LogRecord",
    "Options",
    "Progress",
    "RequestCache",
    "Tally",
    "check_log",
    "decode_record",
    "merge",
    "read_record",
    "tally_chunk",
    "tally_range",
    "triage",
    "triage_runs",
]
