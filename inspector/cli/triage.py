"""``inspector triage``: verify and group logs of answers; the headless summary with ``--summary``.

The command's arguments and its run; the summary's text is ``triage_report``'s.
The counting is ``inspector.triage``'s; this module only reads arguments and
prints.  rich is imported lazily, for the progress bar on standard error (shown
only when that is a terminal); the inspector (the terminal UI) only when it opens.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..contract.text import json_dumps, visible
from ..io.writing import WriteError
from ..suites.load import load_registry
from .output import EXIT_ACCEPT, EXIT_BROKEN, EXIT_INTERNAL, EXIT_INTERRUPTED, error, isatty, served
from .triage_engine import add_engine_arguments, engine_of, engine_problem, expand
from .triage_html import html_problem, write_html
from .triage_report import print_summary

if TYPE_CHECKING:
    from ..triage.job import JobResult, TriageJob
    from ..triage.run import Progress
    from ..triage.summary import Summary

__all__ = ["add_parser", "run"]

# The bounds said here are the engine's (triage.tally.BY_VALUES, triage.badlines.KEPT,
# triage.run.MAX_WORKERS: a test holds them equal), written out so that building the
# parser imports no engine (every command starts 60 ms sooner).
MAX_WORKERS = 64
REQUEST_EXTRA = ("strict", "ignore")  # triage.mapping.REQUEST_EXTRA
EPILOG = """\
groups (copy a name into --export GROUP):
  ACCEPT, VALUE_MISMATCH, ...           by verdict status
  reason:INVALID_JSON/SYNTAX            by sub-reason
  claim:CHECK/FIELD/DOC                 by the failing claim's field and cited source
  scope:SERVICE/ENVIRONMENT/REVISION    by the request's scope
  PATH=VALUE                            by a metadata member given with --by PATH
                                        (metadata.model=gpt-x; --by file: file=LOG)
  other:KEY                             the records of KEY's other values: past 10,000 values,
                                        the heaviest 10,000 are groups (--by id: a value a record)
  blame:retrieval, category:wrong_scope, rung:citation_only, false_accept:citation_only, bad

members: where each is in a line (default: the top-level raw, request, ts and id):
  --raw response.choices.0.message.content --request ctx.request --ts created --by model
A PATH is dotted, a number indexing an array (and naming a key on an object), or a JSON
pointer when it starts with / (/metadata/prompt.version, for keys holding dots; ~1 is /,
~0 is ~). A raw or request missing at its path is a bad line naming the path and where it
stopped. An answer logged as JSON (an object or an array, not a string) is verified on its
exact bytes; its records' metadata says "raw_logged_as": "json". --request-extra ignore
accepts requests with members the request schema does not know (kept as metadata,
request.NAME); the request's own members stay strictly validated. --log-format FILE keeps
the same in TOML, its keys the options' names (flags beside it win; a --by replaces its by):
  raw = "llm.raw"
  request = "llm.request"
  ts = "@timestamp"
  by = ["metadata.model", "/metadata/prompt.version"]
  request_extra = "ignore"

logs: a LOG (and each of --against's) is a file, -, a quoted glob ('logs/*.jsonl', its
files sorted) or a directory (every *.jsonl, *.jsonl.gz, *.ndjson, *.ndjson.gz directly in
it, sorted); each record keeps its file (--by file groups by it).

rates: a scope's or --by value's group is a population: its rejected share is of its own records
(model=llama-z: 77.5% of its answers rejected); any other group's rate is its share of all records.
--against compares each group's rate before (its logs) and after (LOG): the change in points and a
two-proportion z-test (pooled, two-sided); a group is tested when each side expects at least 5
records in it and 5 out of it, and a change is significant when its q (Benjamini-Hochberg, over
the groups tested) is below 0.01: at most about 1% of the changes called significant are chance.
Rates are printed with the decimals that tell them apart (0.10% -> 0.13%); significant changes
first, new and vanished groups said.

The summary lists the first 1,000 bad lines (and the count of each kind); --bad-lines FILE
writes every one, a JSON object a line: {"file", "line", "offset", "reason"}.

records: --records FILE writes a row of every record counted (not the bad lines, not the
records outside --since/--until), in log order: JSON lines, or CSV with a header row when FILE
ends in .csv; columns file, line, offset, id, item, ts, model, verdict, reason, check,
claim_field, claim_doc, blame, category, rungs, label (the label lens: ANSWER or ABSTAIN), meta
(the other metadata members; in CSV, rungs and meta are JSON text, and a cell starting with
= + - @ ' a tab or CR gets a ' before it). Alone, it is headless: one line says what was
written. --records - writes JSON lines to standard output, then nothing else may print there
(no --summary, --format, --export). With --against, the rows are LOG's only; not with --follow
or --engine dask.

time: a ts member that is a JSON number is epoch seconds; a string is ISO 8601 only
(2026-12-01T10:00:00Z, an offset, no zone is UTC, a date alone), never a number ("1796119200",
"1e5" are unreadable); years 1 to 9999 in UTC. --since/--until take the same, written bare:
1796119200 (a number) or 2026-12-01T10:00:00Z. With either, records without a readable ts are
left out too (counted as undated). Records far from the bulk of the others (by ts) are counted
before or after the histogram's range, not drawn.

export: --export GROUP --out SUITE writes the group's records as a new suite (each case with its
record's place and metadata, the metadata member); --limit N the first N, --sample N a random
sample of N in log order (--seed S: the same records every time, whatever --workers; without it
a seed is picked and printed; a group of N records or fewer is written whole, and said).

Without --summary, --format or --export, the inspector opens on the overview of the groups
(needs a terminal; a log file, not -): the counts fill in live, Enter opens a group's records.

--follow: the logs are followed as they grow (as tail -F follows them): the lines already
there are counted, then every line appended, within a second; a last line waits for its
newline; a log renamed and replaced is read to its end and the new file from its start, one
truncated in place is counted again from its start, and each is said. A .gz cannot be followed.
The overview says it is following and how many new lines a second; Esc stops. Headless,
--follow --format jsonl prints one JSON object a line every --every SECONDS (default 10),
flushed: {"schema": "inspector.triage.follow/1", "time", "final", "caught_up" (the lines already
there all read), "existing" (their "bytes", "bytes_read", "lines_read", "all_read"), "total" (since
the start) and "interval" (since the object before), each {"lines", "records", "bad_lines",
"by_label": {LABEL: n, every label}}, "events" (rotations, truncations since the object before),
"logs"}. On SIGINT or SIGTERM it prints the last object ("final": true) and exits 0; - (standard
input) is followed the same way, its end the final object. --follow takes no --against,
--export, --bad-lines, --summary or --format json (a followed log is never finished).

--workers N: at most the cores and the work (a small log is counted in one process); N is
1 to 64.  When the system refuses to start them, the count runs in one process (a note says so).

--engine dask: the same count on a Dask cluster (pip install 'claim-inspector[dask]'): a LocalCluster of
--workers processes here, or --scheduler ADDRESS's; a LOG may be an fsspec URL
('s3://bucket/day/*.jsonl.gz', read by the workers; claim-inspector[s3]), configured as AWS and fsspec
are, --storage-option KEY=VALUE beside; --timeout SECONDS: how long the scheduler (10) and the store
(60, each listing) may take to answer. Not with - or --follow (docs/distributed.md).

exit status: 0 summarised (bad lines are listed, not an error; --follow: stopped by SIGINT or
SIGTERM, or standard input ended), 2 unusable input (a missing log or registry, a FIFO or
directory, a .gz to follow, standard input closed or write-only, a bad option, an --out,
--bad-lines or --records folder that is missing or not writable, a name taken: found before
counting), 3 a counting worker died (killed: out of memory, say) or an internal error, 4
summarised but an input broke off before its end (a truncated or corrupt .gz, a bad CRC,
garbage after its end, a read error): every line before the break is counted and the summary
says which log broke off, after which line and why."""


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "triage", help="verify and group a log of answers (--summary: headless)",
        description="Verify every record of JSON-lines logs ({\"raw\": ..., \"request\": {...}, ...} a line; "
                    "plain, .gz, or - for standard input) and count them by check, sub-reason, failing claim, "
                    "scope, metadata, blame, category, rung and time.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("logs", nargs="+", metavar="LOG",
                        help="log files (.gz read as such), quoted globs, directories; - for standard input")
    parser.add_argument("--registry", required=True, metavar="G", help="registry JSON file")
    parser.add_argument("--summary", action="store_true", help="print the summary (headless)")
    parser.add_argument("--format", choices=("text", "json", "jsonl", "html"), default=None,
                        help="json implies --summary; jsonl (with --follow): one summary object a line; html: "
                             "one self-contained page (on standard output, or into --out FILE)")
    parser.add_argument("--by", action="append", default=[], metavar="PATH",
                        help="also group by the member at PATH (repeatable; file: by the record's log file)")
    for member, default in (("raw", "the answer"), ("request", "its request"), ("ts", "its time"),
                            ("id", "its id (an exported case's id)")):
        parser.add_argument(f"--{member}", metavar="PATH",
                            help=f"where {default} is in a line (default {member}): dotted (a.b.0.c) "
                                 "or a JSON pointer (/a/b.c)")
    parser.add_argument("--request-extra", choices=REQUEST_EXTRA, default=None,
                        help="ignore: accept a request with members the schema does not know (kept as metadata); "
                             "default strict: a bad line")
    parser.add_argument("--log-format", metavar="NAME|FILE",
                        help="a built-in format (inspector formats lists them: openai-chat, openai-responses, "
                             "openai-batch, langfuse, phoenix, otel-genai, inspect, promptfoo, langsmith) or a TOML "
                             "file (the members' paths, or a preset = NAME and where the request is); flags beside it "
                             "win")
    parser.add_argument("--request-file", type=Path, metavar="R.json",
                        help="with --log-format: the request every answer of the log answers (a request file)")
    parser.add_argument("--scope", metavar="TENANT/USER",
                        help="with --log-format: every request's access scope, at its record's time (access "
                             "control before grounding)")
    parser.add_argument("--item", metavar="PATH",
                        help="the member naming a record's item (its records in a run are its trials): default the "
                             "item member (the formats' presets fill it), else the request; 'request': always the "
                             "request (a digest of it); 'none': no items kept")
    parser.add_argument("--since", metavar="T", help="count only records with ts >= T")
    parser.add_argument("--until", metavar="T", help="count only records with ts < T")
    parser.add_argument("--against", nargs="+", metavar="LOG", default=None,
                        help="other logs (before), counted beside LOG (after): every group compared, significant "
                             "changes first (a two-proportion z-test), first in the text")
    parser.add_argument("--pivot", metavar="A,B",
                        help="cross two dimensions (scope, check or a --by path, added to --by): per pair of "
                             "values, the records, their share of A's and the share of them rejected")
    parser.add_argument("--series", action="store_true",
                        help="in the JSON, each group's records and rejected per bar of the time histogram "
                             "(--format json)")
    parser.add_argument("--export", metavar="GROUP", help="write the records of GROUP as a new suite (--out)")
    parser.add_argument("--out", metavar="SUITE", type=Path,
                        help="the suite file --export writes (must not exist, nor be inside the bundled fixtures)")
    parser.add_argument("--limit", type=int, metavar="N",
                        help="--export at most N records (the first ones); without --summary or --format, "
                             "the counting stops there and only the export is reported")
    parser.add_argument("--sample", metavar="N",
                        help="--export a random sample of N of the group's records (in log order; all of them when "
                             "it holds fewer), the same records for the same --seed")
    parser.add_argument("--seed", metavar="S",
                        help="with --sample: the seed, a whole number (default: one is picked and printed)")
    parser.add_argument("--bad-lines", type=Path, metavar="FILE",
                        help="write every bad line to FILE, a new file (JSON lines: file, line, offset, reason); "
                             "the summary lists the first 1,000")
    parser.add_argument("--records", type=Path, metavar="FILE",
                        help="write a row of every record counted to FILE, a new file: JSON lines, CSV when FILE "
                             "ends in .csv; -: JSON lines on standard output")
    parser.add_argument("--follow", action="store_true",
                        help="follow the logs as they grow, as tail -F does (the overview; headless with "
                             "--format jsonl)")
    parser.add_argument("--every", metavar="SECONDS",
                        help="with --follow --format jsonl: print an object every SECONDS (default 10)")
    parser.add_argument("--workers", type=int, metavar="N",
                        help=f"processes to count in, 1 to {MAX_WORKERS} (default and at most: every core)")
    add_engine_arguments(parser)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from ..triage import LogError, Options
    from ..triage.engines import Interrupted
    from ..triage.export import ExportError, check_destination
    from ..triage.run import WorkerError
    from ..triage.timeline import parse_time
    from .triage_follow import follow_problem

    headless = args.summary or args.format is not None or args.export is not None or args.records is not None
    if (problem := engine_problem(args, headless)) is not None:
        return error(problem)
    try:
        spec = _spec(args)
        suffixes = spec.suffixes if spec is not None else None
        args.logs = expand(args, args.logs, suffixes)
        if args.against:
            args.against = expand(args, args.against, suffixes)
        log_format, by = _log_format(args, spec)
    except (LogError, ValueError) as exc:
        return error(str(exc))
    except Interrupted as exc:
        return _interrupted(exc)
    pivot_keys: tuple[str, str] | None = None
    if args.pivot is not None:
        from ..triage.pivot import CHECK, SCOPE, pivot_problem

        if (problem := pivot_problem(args.pivot)) is not None:
            return error(problem)
        if headless and (args.follow or not (args.summary or args.format == "json")):
            return error("--pivot crosses two dimensions in the summary (--summary or --format json, without "
                         "--follow) or in the inspector (p on the overview)")
        first, second = args.pivot.split(",")
        pivot_keys = (first, second)
        try:
            from ..triage.mapping import BY_FILE, parse_path

            for key in pivot_keys:
                if key not in (SCOPE, CHECK, BY_FILE):
                    parse_path(key)
        except ValueError as exc:
            return error(f"--pivot: {exc}")
        by = tuple(dict.fromkeys([*by, *(key for key in pivot_keys if key not in (SCOPE, CHECK))]))
    if args.item is not None and (problem := _item_problem(args.item)) is not None:
        return error(problem)
    if args.series and (args.format not in ("json", "html") or args.follow):
        return error("--series adds each group's records over time to the JSON: add --format json (or html: "
                     "drawn; without --follow); the inspector's overview draws the selected group's")
    if (problem := follow_problem(args)) is not None:
        return error(problem)
    if not headless and (problem := _inspector_problem(args)) is not None:
        return error(problem)
    html = args.format == "html"
    if html and (problem := html_problem(args)) is not None:
        return error(problem)
    if not html and (args.export is None) != (args.out is None):
        return error("--export GROUP and --out SUITE go together")
    if args.limit is not None and (args.export is None or args.limit < 1):
        return error("--limit N takes a positive N, with --export")
    sample = seed = None
    if args.sample is not None or args.seed is not None:
        from ..triage.sample import parse_sample, parse_seed, pick_seed

        if args.sample is None:
            return error("--seed S is the seed of --sample N: give --sample too")
        if args.export is None:
            return error("--sample N samples the records --export GROUP writes: give --export and --out too")
        if args.limit is not None:
            return error("--sample N takes N records at random, --limit N the first N: give one of them")
        try:
            sample = parse_sample(args.sample)
        except ValueError as exc:
            return error(f"--sample: {exc}")
        try:
            seed = parse_seed(args.seed) if args.seed is not None else pick_seed()
        except ValueError as exc:
            return error(f"--seed: {exc}")
    if args.workers is not None and not 1 <= args.workers <= MAX_WORKERS:
        return error(f"--workers N takes an N between 1 and {MAX_WORKERS} (more than the cores are not used)")
    window = {}
    for name in ("since", "until"):
        text = getattr(args, name)
        if text is not None:
            window[name] = parse_time(text)
            if window[name] is None:
                return error(f"--{name}: {text!r} is neither ISO 8601 (2026-12-01T10:00:00Z) nor epoch seconds "
                             "(a number: 1796119200), from the year 1 to 9999 in UTC")
    if "-" in [*args.logs, *(args.against or ())]:
        from ..triage.logs import check_stdin

        try:
            check_stdin(sys.stdin)
        except LogError as exc:
            return error(str(exc))
        if isatty(sys.stdin):
            return error("- reads the log from standard input: pipe it in (cat app.jsonl | inspector triage - ...)")
    if "-" in args.logs and args.against and "-" in args.against:
        return error("standard input (-) can be read only once: give it as LOG or in --against, not both")
    if args.out is not None and args.out.exists():
        return error(f"{args.out}: already exists; refusing to overwrite (--out takes a new file)")
    if args.export is not None and (problem := _export_problem(args.export)) is not None:
        return error(problem)
    if args.bad_lines is not None:
        if not headless:
            return error("--bad-lines writes the bad lines of the headless summary: add --summary (or --format json)")
        if (problem := _new_file_problem(args.bad_lines, "--bad-lines")) is not None:
            return error(problem)
        if args.out is not None and args.out.absolute() == args.bad_lines.absolute():
            return error("--bad-lines and --out name the same file")
    if args.records is not None and (problem := _records_problem(args)) is not None:
        return error(problem)
    if args.out is not None and not html:
        try:
            check_destination(args.out)  # before the count, not after it
        except ExportError as exc:
            return error(f"--out {exc}")
    registry = load_registry(args.registry)
    if not headless:
        return _inspect(args, registry, window, log_format, by)
    # Only the export (or the rows) is wanted (no --summary, no --format): one line says what was written,
    # and with --limit (and no other file to write) the counting stops there.
    quiet = not args.summary and args.format is None  # no summary: a line says what was written
    export_only = args.export is not None and quiet
    stop_at_limit = export_only and args.limit is not None and args.bad_lines is None and args.records is None
    options = Options(by=by, since=window.get("since"), until=window.get("until"),
                      collect=args.export, limit=args.limit, stop_at_limit=stop_at_limit, log_format=log_format,
                      sample=sample, seed=seed or 0, series=args.series, item=args.item,
                      index=html)  # the HTML report rereads a few records of the largest groups
    if args.follow:
        from .triage_follow import follow_jsonl

        return follow_jsonl(args, registry, options, _notice)
    from ..triage.annotated import apply_annotations, join_annotations, read_all
    from ..triage.annotations import AnnotationError

    try:  # the reviewers' annotations beside the logs: a corrupt file is said before the count
        notes_by_log = read_all(args.logs)
    except AnnotationError as exc:
        return error(str(exc))
    from ..triage.job import TriageJob

    # --against's logs are counted beside the logs, in the same workers (not one count after the other);
    # a quiet export has no use for them.  A staged format's logs are counted from their staged copies:
    # the summaries name the logs given.  The HTML report rereads records: its logs are stamped.
    against = args.against and not (export_only or (quiet and args.records is not None))
    given_logs, given_against = getattr(args, "given_logs", None), getattr(args, "given_against", None)
    job = TriageJob(tuple(args.logs), registry, args.registry, options, tuple(args.against) if against else (),
                    engine_of(args), tuple(given_logs) if given_logs is not None else None,
                    tuple(given_against) if given_against is not None else None, stamp=html)
    try:
        result, rows = _summarise_to(args.bad_lines, args.records, job)
        summary, baseline = result.summary, result.baseline
        if any(log_notes.exists for log_notes in notes_by_log.values()):
            apply_annotations(summary, join_annotations(summary, registry, notes_by_log, options))
    except WorkerError as exc:
        error(str(exc))
        return EXIT_INTERNAL
    except LogError as exc:
        return error(str(exc))
    except Interrupted as exc:
        return _interrupted(exc)
    except WriteError as exc:
        return error(f"{getattr(exc, 'option', '--bad-lines')} {exc.path}: {exc.reason}; nothing was written")
    written = None
    sampled = summary.tally.sampled
    said = ""  # how the records written were chosen, when at random
    if args.export is not None:
        from ..triage.export import SampleTaken, export_suite

        collected = summary.tally.collected if sampled is None else sampled.items()
        if not collected:  # the group's records are collected as they are counted: none, no such group
            return error(_unknown_group(args.export, summary))
        taken = SampleTaken(sample, seed or 0, sampled.seen) if sampled is not None and sample is not None else None
        try:
            written = export_suite(args.out, args.export, registry, collected, args.logs, log_format, notes_by_log,
                                   sample=taken)
        except ExportError as exc:
            return error(str(exc))
        if taken is not None:
            said = f": {taken.words()}"
            if args.seed is None and not taken.all:
                said += f"; the seed was picked: --sample {sample} --seed {seed} draws the same records again"
    if quiet and (args.export is not None or args.records is not None):
        stopped = " (the first ones: the counting stopped there)" if stop_at_limit and written == args.limit else ""
        if args.bad_lines is not None:  # (beside --records -, on standard error: the rows are on standard output)
            print(visible(f"wrote every bad line ({summary.tally.bad_lines:,}) to {args.bad_lines}"),
                  file=sys.stderr if args.records is not None and _stdout(args.records) else sys.stdout)
        if args.records is not None and not _stdout(args.records):
            print(visible(f"wrote every record ({rows:,}) to {args.records}"))
        if args.export is not None:
            print(visible(f"wrote {written} case(s) of {args.export} to {args.out}{stopped}{said}"))
        return _exit(summary, baseline)
    if html:
        status = write_html(args, summary, baseline, registry, result.stamps, result.comparison)
        return status if status is not None else _exit(summary, baseline)
    crossed = None
    if pivot_keys is not None:
        from ..triage.pivot import pivot

        crossed = pivot(summary.tally, pivot_keys)
    if args.format == "json":
        document = summary.to_dict()
        if crossed is not None:
            document["pivot"] = crossed.to_dict()
        if args.series:
            _add_series(document, summary, crossed)
        if baseline is not None and result.comparison is not None:
            from ..triage.summary import broken_document

            document["against"] = {"logs": list(args.against), "lines": baseline.tally.lines,
                                   "records": baseline.records, "bad_lines": baseline.tally.bad_lines,
                                   "broken": broken_document(baseline.tally)}
            document["comparison"] = result.comparison.to_dict()
        if written is not None:
            document["export"] = {"group": args.export, "out": str(args.out), "cases": written}
            if sampled is not None:
                document["export"]["sample"] = {"size": sample, "seed": seed, "of": sampled.seen}
        if args.bad_lines is not None:
            document["bad_lines_file"] = str(args.bad_lines)
        if args.records is not None:
            document["records_file"] = {"path": str(args.records), "rows": rows}
        print(json_dumps(document))
    else:
        print_summary(summary, baseline, args.against or (), crossed, result.comparison)
        if args.bad_lines is not None:
            print(visible(f"wrote every bad line ({summary.tally.bad_lines:,}) to {args.bad_lines}"))
        if args.records is not None:
            print(visible(f"wrote every record ({rows:,}) to {args.records}"))
        if written is not None:
            print(visible(f"wrote {written} case(s) of {args.export} to {args.out}{said}"))
    return _exit(summary, baseline)


def _add_series(document: dict[str, Any], summary: Summary, crossed: Any) -> None:
    """--series: each group's (and pivot cell's) records per bar of the time histogram, beside its counts."""
    from ..triage.groups import GroupKind, PivotDetail
    from ..triage.series import Buckets, series_document

    buckets = Buckets(summary)
    every = buckets.every()
    nothing = buckets.drawn()  # a group without a dated record: every bar empty
    for entry in document["groups"]:
        found = every.get(entry["group"], nothing) if entry["kind"] != GroupKind.BAD else None
        if found is not None:
            entry["series"] = series = series_document(found)
            # its records without a readable ts (not drawn)
            series["undated"] = entry["records"] - sum(bar.records for bar in found.bars) - found.outliers
    if crossed is not None and buckets.frame is not None:
        from ..triage.summary import Group

        for entry, cell in zip(document["pivot"]["cells"], crossed.cells, strict=True):
            found = buckets.of(Group(cell.name, GroupKind.PIVOT, cell.records, 0.0,
                                     detail=PivotDetail(crossed.keys, cell.a, cell.b)))
            if found is not None:
                entry["series"] = series_document(found)


def _exit(summary: Summary, baseline: Summary | None) -> int:
    """The exit status of a finished count: 4 when a log broke off (each said on standard error), else 0."""
    broken = [*summary.tally.broken, *(baseline.tally.broken if baseline is not None else ())]
    if broken:
        for file, line, problem in broken:
            print(visible(f"inspector: warning: {file} broke off after line {line:,}: {problem}"), file=sys.stderr)
        return EXIT_BROKEN
    return EXIT_ACCEPT


def _spec(args: argparse.Namespace) -> Any:
    """The format --log-format names when it is a preset or a spec file (None: the
    plain format, or a file of its paths), with --request-file's request.
    ValueError (one line) for a name, a file or a request that cannot be used."""
    from ..triage.formats.spec import load_format
    from ..triage.mapping import LogFormatError

    spec = load_format(args.log_format) if args.log_format is not None else None
    if args.request_file is not None:
        if spec is None:
            raise LogFormatError("--request-file gives the request of a --log-format NAME or spec file's answers: "
                                 "add --log-format")
        from ..io.reading import ReadError, read_limited
        from ..triage.records import RequestCache

        try:
            data = read_limited(args.request_file, 1024 * 1024, "--request-file")
        except ReadError as exc:
            raise LogFormatError(str(exc)) from None
        found = RequestCache().get(data.strip())
        if isinstance(found, str):
            raise LogFormatError(f"--request-file {args.request_file}: {found}")
        spec = spec.with_request_file(data.strip())
    if args.scope is not None:
        tenant, slash, user = args.scope.partition("/")
        if spec is None:
            raise LogFormatError("--scope gives the access scope of a --log-format NAME or spec file's requests: "
                                 "add --log-format")
        if not slash or not tenant or not user or "/" in user:
            raise LogFormatError(f"--scope takes TENANT/USER (acme/alice), not {visible(args.scope)!r}")
        spec = spec.with_scope(tenant, user)
    if spec is not None and spec.staged and args.engine == "dask":
        raise LogFormatError(f"--log-format {spec.name}: its logs are read whole here (a document, or records that "
                             "need others) before they are counted, and --engine dask has its workers read the logs: "
                             "count them with the local engine")
    if spec is not None and spec.staged and args.follow:
        raise LogFormatError(f"--log-format {spec.name}: its logs are read whole (a document, or records that need "
                             "others) before they are counted, and --follow reads lines as they are appended: drop "
                             "--follow")
    if spec is not None and spec.staged and "-" in [*args.logs, *(args.against or ())]:
        raise LogFormatError(f"--log-format {spec.name}: its logs are read from files (a document, or records that "
                             "need others), not from standard input")
    return spec


def _log_format(args: argparse.Namespace, spec: Any = None) -> tuple[Any, tuple[str, ...]]:
    """The format the lines are read with, and the --by paths: the --log-format
    file's, the flags given beside it replacing its values (a --by on the
    command line its whole list).  A preset's logs that are not a record a line
    are staged here (``formats.stage``), and the logs become the staged ones.
    ValueError (one line) for a file or a path that cannot be used."""
    from ..triage.mapping import BY_FILE, DEFAULT_FORMAT, LogFormat, LogFormatError, load_log_format, parse_path

    by: Sequence[str]
    log_format, by = DEFAULT_FORMAT, ()
    if spec is not None:
        if spec.staged:
            from ..triage.formats.stage import stage

            args.given_logs, args.given_against = list(args.logs), list(args.against) if args.against else None
            args.logs = stage(args.logs, spec).logs
            if args.against:
                args.against = stage(args.against, spec).logs
            log_format, by = LogFormat(staged=True), spec.by
        else:
            log_format, by = LogFormat(spec=spec), spec.by
    elif args.log_format is not None:
        log_format, by = load_log_format(args.log_format)
    try:
        log_format = log_format.changed(raw=args.raw, request=args.request, ts=args.ts, id=args.id,
                                        request_extra=args.request_extra)
    except LogFormatError as exc:  # a flag's path ("raw: the path is empty"), or raw and request overlapping
        said = str(exc)
        raise LogFormatError(f"--{said}" if said.partition(":")[0] in ("raw", "request", "ts", "id") else said) \
            from None
    if args.by:
        by = tuple(args.by)
    for path in by:
        if path != BY_FILE:
            try:
                parse_path(path)
            except ValueError as exc:
                raise LogFormatError(f"--by: {exc}") from None
    return log_format, tuple(dict.fromkeys(by))


def _export_problem(group: str) -> str | None:
    """Why ``--export GROUP`` cannot be a suite, known before counting."""
    from ..triage.groups import BAD

    if group == BAD:
        return ("the bad lines cannot be exported as a suite: they are not records (no usable raw or request); "
                "--bad-lines FILE writes every one with its file, line and offset")
    if group == "NO_ANSWER" or group.startswith("reason:NO_ANSWER/"):
        return (f"--export: {group} holds records without an answer (refusals, errors, nothing), and a suite's case "
                "is an answer to verify; --records FILE lists them with their reasons")
    if group.startswith("other:"):
        return (f"--export: {group} is the values past the bound of values kept, known only once the whole log is "
                "counted: export one value's group (KEY=VALUE), or narrow the log with --since/--until")
    return None


def _stdout(path: Path) -> bool:
    """``--records -``: the rows on standard output."""
    return str(path) == "-"


def _records_problem(args: argparse.Namespace) -> str | None:
    """Why ``--records FILE`` cannot be written as given (before anything is counted)."""
    if _stdout(args.records):
        if args.summary or args.format is not None or args.export is not None:
            return ("--records - writes the rows on standard output, where --summary, --format and --export print "
                    "too: give --records a FILE")
        return None
    if (problem := _new_file_problem(args.records, "--records")) is not None:
        return problem
    for option, other in (("--out", args.out), ("--bad-lines", args.bad_lines)):
        if other is not None and other.absolute() == args.records.absolute():
            return f"--records and {option} name the same file"
    return None


def _new_file_problem(path: Path, option: str) -> str | None:
    """Why ``path`` cannot be created (checked before counting): it exists, its
    directory does not, or it may not be written in."""
    from ..io.writing import check_new_file

    try:
        check_new_file(path)
    except WriteError as exc:
        return f"{option} {exc.path}: {exc.reason} ({option} takes a new file)"
    except ValueError as exc:
        return f"{option} {path}: {exc}"
    return None


def _item_problem(item: str) -> str | None:
    """Why ``--item PATH`` cannot be counted (before anything is read): the summary's and the overview's alike."""
    from ..triage.mapping import BY_FILE, parse_path
    from ..triage.tally import ITEM_NONE, ITEM_REQUEST

    if item == BY_FILE:
        return "--item file: a log file is not an item; give the path of the member that names the item"
    if item not in (ITEM_REQUEST, ITEM_NONE):
        try:
            parse_path(item)
        except ValueError as exc:
            return f"--item: {exc}"
    return None


def _inspector_problem(args: argparse.Namespace) -> str | None:
    """Why the inspector cannot open on these arguments (before anything is read)."""
    if "-" in args.logs:
        return ("standard input (-) is read by the headless summary only (add --summary or --format json); "
                "the inspector rereads records from their file: give the log's path")
    if args.against and "-" in args.against:
        return ("standard input (-) is read by the headless summary only (add --summary or --format json): "
                "give --against's log by its path")
    if args.against and args.follow:
        return "--against compares two counts: without --follow"
    return None


def _inspect(args: argparse.Namespace, registry: Any, window: dict[str, float | None], log_format: Any,
             by: Sequence[str]) -> int:
    """The inspector on the triage's overview: the logs and the registry checked,
    and a terminal, before the UI starts."""
    from ..triage import LogError, check_log
    from ..triage.follow import check_followable

    try:
        for path in [*args.logs, *(args.against or ())]:
            check_log(path)
            if args.follow:
                check_followable(path)
    except LogError as exc:
        return error(str(exc))
    if getattr(args, "check_only", False):  # inspector serve: the inputs are usable, nothing opens here
        return EXIT_ACCEPT
    # Served (inspector serve), Textual's web driver speaks through pipes: no terminal is needed.
    if not served() and not all(stream is not None and isatty(stream) for stream in (sys.stdin, sys.stdout)):
        return error("inspector triage needs a terminal (standard input and output) for the inspector; "
                      "add --summary (or --format json) for the headless report")
    from ..presentation.overview import triage_run
    from ..tui.launch import open_triage

    pivot = tuple(args.pivot.split(",")) if args.pivot is not None else None
    return open_triage(triage_run(args.logs, registry, args.registry, by, window.get("since"),
                                  window.get("until"), log_format, follow=args.follow, pivot=pivot,
                                  against=args.against or (), given=getattr(args, "given_logs", None),
                                  engine=engine_of(args), item=args.item))


def _unknown_group(name: str, summary: Summary) -> str:
    import difflib

    names = [group.name for group in summary.groups]
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else \
        "; the summary lists every group's name (empty groups are not listed)"
    return f"--export: no group named {name!r} in this triage{hint}"


def _summarise_to(bad_lines: Path | None, records: Path | None, job: TriageJob) -> tuple[JobResult, int | None]:
    """``job`` run (``triage.job.run_job``, a progress bar on a terminal), every
    bad line written to the new file ``bad_lines`` as it is found, and a row of
    every record to ``records`` (``triage.table``; ``-``: standard output), and
    how many rows: the count runs inside the writes (``io.writing``), so each
    file appears whole once the count is done, or not at all (a log that cannot
    be read, a full disk, an interrupt)."""
    from ..io.writing import write_files
    from ..triage.job import run_job
    from ..triage.table import RecordsOut, is_csv

    done: list[JobResult] = []
    streams: dict[str, Any] = {}
    first = bad_lines or records
    # The tasks' spills go beside an output (a cluster's tasks send their bad lines back).
    spill = first.parent if first is not None and not _stdout(first) else None

    def count() -> None:
        with _progress_display("") as on_progress:
            done.append(run_job(job, progress=on_progress, on_notice=_notice, bad_lines=streams.get("bad_lines"),
                                records=streams.get("records"), spill_dir=spill))

    def writing(path: Path, name: str, inner: Callable[[], None]) -> Callable[[], None]:
        """``inner`` run inside the write of the new file ``path``, the stream it writes to as ``name``."""
        def write(stream: Any) -> None:
            streams[name] = stream if name == "bad_lines" else RecordsOut(stream, is_csv(path))
            inner()

        def step() -> None:
            try:
                write_files(path.parent, {path.name: write}, overwrite=False)
            except WriteError as exc:
                if not hasattr(exc, "option"):
                    exc.option = f"--{name.replace('_', '-')}"  # type: ignore[attr-defined]  # the flag the error is about, read by its caller
                raise
        return step

    step = count
    if records is not None and _stdout(records):
        sys.stdout.flush()
        streams["records"] = RecordsOut(sys.stdout.buffer)
    elif records is not None:
        step = writing(records, "records", step)
    if bad_lines is not None:
        step = writing(bad_lines, "bad_lines", step)
    step()
    if records is not None and _stdout(records):
        sys.stdout.buffer.flush()
    rows = done[0].summary.tally.records if records is not None else None  # a row each record counted
    return done[0], rows


def _interrupted(exc: Any) -> int:
    """Ctrl-C while the engine waited on another machine: what it was waiting for, one line, exit 130."""
    print(f"inspector: interrupted {visible(exc.what)}", file=sys.stderr, flush=True)
    return EXIT_INTERRUPTED


def _notice(message: str) -> None:
    """What the engine did differently from what was asked (and why), on standard error."""
    print(f"inspector: note: {visible(message)}", file=sys.stderr, flush=True)


class _progress_display:
    """A Rich progress bar on standard error, lines per second, while a triage
    runs; nothing when standard error is not a terminal.  Refreshed from the
    triage's callback (no refresh thread: workers are forked meanwhile)."""

    def __init__(self, what: str = "") -> None:
        self.what = what
        self.progress: Any = None
        self.task: Any = None

    def __enter__(self) -> Callable[[Progress], None] | None:
        if not isatty(sys.stderr):
            return None
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

        self.progress = Progress(
            TextColumn(f"{self.what}triage"), BarColumn(), TaskProgressColumn(),
            TextColumn("{task.fields[lines]:,} lines · {task.fields[rate]:,.0f} lines/s"), TimeElapsedColumn(),
            console=Console(stderr=True), auto_refresh=False, transient=True)
        self.cluster_column = TextColumn("{task.fields[lines]:,} lines · {task.fields[records]:,.0f} records/s · "
                                         "{task.fields[tasks]} tasks")
        self.task = self.progress.add_task("triage", total=None, lines=0, rate=0.0, records=0.0, tasks="")
        self.progress.start()
        return self.update

    def update(self, state: Progress) -> None:
        if state.tasks is not None and self.progress.columns[-2] is not self.cluster_column:  # on a cluster
            self.progress.columns = (*self.progress.columns[:-2], self.cluster_column, self.progress.columns[-1])
        self.progress.update(self.task, completed=state.bytes_done, total=state.total_bytes, lines=state.lines,
                             rate=state.lines_per_second, records=state.records_per_second,
                             tasks=f"{state.tasks_done:,}/{state.tasks:,}" if state.tasks is not None else "")
        self.progress.refresh()

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()
