"""``inspector triage``: the headless summary of rejection logs (``--summary``).

The command's arguments, its run, and the text tables (fitted to the terminal
like ``audit``'s).  The counting is ``inspector.triage``'s; this module only
reads arguments and prints.  rich is imported lazily, for the tables and for the
progress bar on standard error (shown only when that is a terminal).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import cli
from .cli import EXIT_ACCEPT, TableColumn, _error, _fitted, _hanging
from .contract.text import json_dumps, visible
from .suites.load import load_registry

if TYPE_CHECKING:
    from .triage.run import Progress
    from .triage.summary import Change, Group, Summary

__all__ = ["add_parser", "run"]

SHOWN_ROWS = 20  # rows of a text table beyond which "N more" is said (the JSON has them all)
SHOWN_BAD = 20

EPILOG = """\
groups (copy a name into --export GROUP):
  ACCEPT, VALUE_MISMATCH, ...           by verdict status
  reason:INVALID_JSON/SYNTAX            by sub-reason
  claim:CHECK/FIELD/DOC                 by the failing claim's field and cited source
  scope:SERVICE/ENVIRONMENT/REVISION    by the request's scope
  KEY=VALUE                             by a metadata member given with --by KEY
  blame:retrieval, category:wrong_scope, rung:citation_only, false_accept:citation_only, bad

--since/--until take ISO 8601 (2026-12-01T10:00:00Z; no zone is UTC) or epoch seconds;
with either, records without a readable ts are left out too (counted as undated).

Without --summary, --format or --export, the inspector opens on the overview of the groups
(needs a terminal; a log file, not -): the counts fill in live, Enter opens a group's records.

exit status: 0 summarised (bad lines are listed, not an error), 2 unusable input (a missing
log or registry, a FIFO or directory, a bad option), 3 internal error."""


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "triage", help="verify and group a log of answers (--summary: headless)",
        description="Verify every record of JSON-lines logs ({\"raw\": ..., \"request\": {...}, ...} a line; "
                    "plain, .gz, or - for standard input) and count them by check, sub-reason, failing claim, "
                    "scope, metadata, blame, category, ladder rung and time.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("logs", nargs="+", metavar="LOG", help="log files (.gz read as such), - for standard input")
    parser.add_argument("--registry", required=True, metavar="G", help="registry JSON file")
    parser.add_argument("--summary", action="store_true", help="print the summary (headless)")
    parser.add_argument("--format", choices=("text", "json"), default=None, help="json implies --summary")
    parser.add_argument("--by", action="append", default=[], metavar="KEY",
                        help="also group by this metadata member (repeatable)")
    parser.add_argument("--since", metavar="T", help="count only records with ts >= T")
    parser.add_argument("--until", metavar="T", help="count only records with ts < T")
    parser.add_argument("--against", nargs="+", metavar="LOG", default=None,
                        help="other logs: every group side by side, sorted by the largest change")
    parser.add_argument("--export", metavar="GROUP", help="write the records of GROUP as a new suite (--out)")
    parser.add_argument("--out", metavar="SUITE", type=Path, help="the suite file --export writes (must not exist)")
    parser.add_argument("--limit", type=int, metavar="N", help="--export at most N records (the first ones)")
    parser.add_argument("--workers", type=int, metavar="N", help="processes to count in (default: every core)")
    return parser


def run(args: argparse.Namespace) -> int:
    from .triage import LogError, Options
    from .triage.export import ExportError
    from .triage.timeline import parse_time

    headless = args.summary or args.format is not None or args.export is not None
    if not headless and (problem := _inspector_problem(args)) is not None:
        return _error(problem)
    if (args.export is None) != (args.out is None):
        return _error("--export GROUP and --out SUITE go together")
    if args.limit is not None and (args.export is None or args.limit < 1):
        return _error("--limit N takes a positive N, with --export")
    if args.workers is not None and args.workers < 1:
        return _error("--workers N takes a positive N")
    window = {}
    for name in ("since", "until"):
        text = getattr(args, name)
        if text is not None:
            window[name] = parse_time(text)
            if window[name] is None:
                return _error(f"--{name}: {text!r} is neither ISO 8601 (2026-12-01T10:00:00Z) nor epoch seconds")
    if "-" in [*args.logs, *(args.against or ())]:
        if sys.stdin is None or cli._isatty(sys.stdin):
            return _error("- reads the log from standard input: pipe it in (cat app.jsonl | inspector triage - ...)")
    if "-" in args.logs and args.against and "-" in args.against:
        return _error("standard input (-) can be read only once: give it as LOG or in --against, not both")
    if args.out is not None and args.out.exists():
        return _error(f"{args.out}: already exists; refusing to overwrite (--out takes a new file)")
    registry = load_registry(args.registry)
    if not headless:
        return _inspect(args, registry, window)
    options = Options(by=tuple(dict.fromkeys(args.by)), since=window.get("since"), until=window.get("until"),
                      collect=args.export)
    try:
        summary = _summarise(args.logs, args.registry, registry, options, args.workers, "")
        baseline = None
        if args.against:
            plain = Options(by=options.by, since=options.since, until=options.until)
            baseline = _summarise(args.against, args.registry, registry, plain, args.workers, "against: ")
    except LogError as exc:
        return _error(str(exc))
    written = None
    if args.export is not None:
        from .triage.export import export_suite
        from .triage.groups import BAD

        if args.export == BAD:
            return _error("the bad lines cannot be exported as a suite: they are not records (no usable "
                          "raw or request); --format json lists every one with its file and line")
        if summary.group(args.export) is None:
            return _error(_unknown_group(args.export, summary))
        collected = summary.tally.collected[:args.limit] if args.limit else summary.tally.collected
        try:
            written = export_suite(args.out, args.export, registry, collected, args.logs)
        except ExportError as exc:
            return _error(str(exc))
    if args.format == "json":
        document = summary.to_dict()
        if baseline is not None:
            from .triage.summary import compare

            document["against"] = {"logs": list(args.against), "lines": baseline.tally.lines,
                                   "records": baseline.records, "bad_lines": baseline.tally.bad_lines,
                                   "changes": [change.to_dict() for change in compare(summary, baseline)]}
        if written is not None:
            document["export"] = {"group": args.export, "out": str(args.out), "cases": written}
        print(json_dumps(document))
    else:
        _print_summary(summary, baseline, args.against or ())
        if written is not None:
            print(visible(f"wrote {written} case(s) of {args.export} to {args.out}"))
    return EXIT_ACCEPT


def _inspector_problem(args: argparse.Namespace) -> str | None:
    """Why the inspector cannot open on these arguments (before anything is read)."""
    if "-" in args.logs:
        return ("standard input (-) is read by the headless summary only (add --summary or --format json); "
                "the inspector rereads records from their file: give the log's path")
    if args.against:
        return "--against compares in the headless summary only: add --summary (or --format json)"
    return None


def _inspect(args: argparse.Namespace, registry: Any, window: dict[str, float | None]) -> int:
    """The inspector on the triage's overview: the logs and the registry checked,
    and a terminal, before the UI starts."""
    from .triage import LogError, check_log

    try:
        for path in args.logs:
            check_log(path)
    except LogError as exc:
        return _error(str(exc))
    if not all(stream is not None and cli._isatty(stream) for stream in (sys.stdin, sys.stdout)):
        return _error("inspector triage needs a terminal (standard input and output) for the inspector; "
                      "add --summary (or --format json) for the headless report")
    from .presentation.triage import triage_run
    from .tui.launch import open_triage

    engine = {"workers": args.workers} if args.workers else {}
    return open_triage(triage_run(args.logs, registry, args.registry, args.by, window.get("since"),
                                  window.get("until"), **engine))


def _unknown_group(name: str, summary: Summary) -> str:
    import difflib

    names = [group.name for group in summary.groups]
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else \
        "; the summary lists every group's name (empty groups are not listed)"
    return f"--export: no group named {name!r} in this triage{hint}"


def _summarise(logs: Sequence[str], registry_path: str, registry: Any, options: Any, workers: int | None,
               what: str) -> Summary:
    from .triage import triage
    from .triage.summary import summarize

    with _progress_display(what) as on_progress:
        tally = triage(logs, registry, options, workers=workers, on_progress=on_progress)
    return summarize(tally, options, logs, registry_path)


class _progress_display:
    """A Rich progress bar on standard error, lines per second, while a triage
    runs; nothing when standard error is not a terminal.  Refreshed from the
    triage's callback (no refresh thread: workers are forked meanwhile)."""

    def __init__(self, what: str) -> None:
        self.what = what
        self.progress: Any = None
        self.task: Any = None

    def __enter__(self) -> Callable[[Progress], None] | None:
        if not cli._isatty(sys.stderr):
            return None
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

        self.progress = Progress(
            TextColumn(f"{self.what}triage"), BarColumn(), TaskProgressColumn(),
            TextColumn("{task.fields[lines]:,} lines · {task.fields[rate]:,.0f} lines/s"), TimeElapsedColumn(),
            console=Console(stderr=True), auto_refresh=False, transient=True)
        self.task = self.progress.add_task("triage", total=None, lines=0, rate=0.0)
        self.progress.start()
        return self.update

    def update(self, state: Progress) -> None:
        self.progress.update(self.task, completed=state.bytes_done, total=state.total_bytes, lines=state.lines,
                             rate=state.lines_per_second)
        self.progress.refresh()

    def __exit__(self, *exc: object) -> None:
        if self.progress is not None:
            self.progress.stop()


# -- text ------------------------------------------------------------------------

def _count(n: int) -> str:
    return f"{n:,}"


def _share(rate: float) -> str:
    return f"{rate:.1%}"


GROUP_COLUMNS = (
    TableColumn("group", min_width=16),
    TableColumn("records"),
    TableColumn("rate"),
    TableColumn("", priority=1, min_width=5, width=cli.BAR_WIDTH),
)
SPLIT_COLUMNS = (
    TableColumn("group", min_width=16),
    TableColumn("records"),
    TableColumn("rejected"),
    TableColumn("rate"),
    TableColumn("first checks", priority=1, min_width=12),
)
CHANGE_COLUMNS = (
    TableColumn("group", min_width=16),
    TableColumn("change"),
    TableColumn("now"),
    TableColumn("against", priority=1),
    TableColumn("records now", priority=2),
    TableColumn("records against", priority=3),
)
TIME_COLUMNS = (
    TableColumn("from"),
    TableColumn("records"),
    TableColumn("rejected"),
    TableColumn("", priority=1, min_width=5, width=cli.BAR_WIDTH),
)


def _print_summary(summary: Summary, baseline: Summary | None, against: Sequence[str]) -> None:
    from rich.text import Text

    console = cli._audit_console()
    width = console.width
    tally = summary.tally
    records = summary.records
    ladder = [f"{name} {passed:,}/{records:,}" for _, name, passed in summary.ladder]
    false_accepts = summary.group("false_accept:citation_only")
    facts = [
        ("triage", " · ", [visible(", ".join(summary.logs)), f"{tally.lines:,} lines", f"{records:,} records",
                           f"{tally.bad_lines:,} bad lines"]),
        ("ladder", " · ", [*ladder, f"citation-only false accepts {false_accepts.records if false_accepts else 0:,}"]),
        ("blame", "; ", [f"{group.detail['blame']} {group.records:,}" for group in summary.of_kind("blame")]
         or ["no rejections"]),
    ]
    if summary.options.since is not None or summary.options.until is not None:
        facts.append(("window", "; ", [f"{tally.outside:,} records outside the window left out",
                                       f"{tally.undated:,} without a readable ts left out"]))
    for label, separator, parts in facts:
        for line in _hanging(label.ljust(cli.FACT_LABEL_WIDTH), parts, width, separator):
            console.print(line)

    for kind, title in (("check", "by check (verdict status)"), ("reason", "by sub-reason"),
                        ("claim", "by failing claim: check, field, cited source"),
                        ("category", "by abstention category")):
        groups = summary.of_kind(kind)
        if groups:
            console.print(_group_table(title, groups, width))
    scopes = summary.of_kind("scope")
    if scopes:
        console.print(_split_table("by request scope: service / environment / revision", scopes, width))
    for key in summary.options.by:
        groups = [group for group in summary.of_kind("by") if group.detail["key"] == key]
        console.print(_split_table(visible(f"by {key}"), groups, width) if groups else
                      Text(visible(f"by {key}: no records")))
    if summary.histogram is not None:
        console.print(_time_table(summary, width))
    elif records:
        console.print(Text("timeline: no record has a readable ts"))
    if tally.bad:
        console.print(Text(f"{tally.bad_lines:,} bad line(s), the group bad:", "bold red"))
        for file, line, error in tally.bad[:SHOWN_BAD]:
            console.print(Text(visible(f"  {file}:{line}: {error}")))
        if tally.bad_lines > SHOWN_BAD:
            console.print(Text(f"  … {tally.bad_lines - SHOWN_BAD:,} more (--format json lists every one)", "dim"))
    if baseline is not None:
        from .triage.summary import compare

        title = visible(f"against {', '.join(against)} ({baseline.records:,} records, "
                        f"{baseline.tally.bad_lines:,} bad lines): largest change first")
        console.print(_change_table(title, compare(summary, baseline), width))


def _more(rows: list[dict[str, Any]], hidden: int, columns: Sequence[TableColumn]) -> None:
    from rich.text import Text

    if hidden > 0:
        rows.append({columns[0].header: Text(f"… {hidden:,} more", "dim")})


def _group_table(title: str, groups: list[Group], width: int) -> Any:
    from rich.text import Text

    top = max((group.records for group in groups), default=0)
    rows: list[dict[str, Any]] = []
    bar_width = min(cli.BAR_WIDTH, max(5, width // 4))
    for group in groups[:SHOWN_ROWS]:
        rows.append({"group": Text(group.name, "green" if group.name == "ACCEPT" else ""),
                     "records": Text(_count(group.records)), "rate": Text(_share(group.rate)),
                     "": Text("█" * (round(bar_width * group.records / top) if top else 0), "cyan")})
    _more(rows, len(groups) - SHOWN_ROWS, GROUP_COLUMNS)
    return _fitted(title, GROUP_COLUMNS, rows, width)


def _split_table(title: str, groups: list[Group], width: int) -> Any:
    from rich.text import Text

    rows: list[dict[str, Any]] = []
    for group in groups[:SHOWN_ROWS]:
        checks = sorted(((n, s) for s, n in (group.by_check or {}).items() if s != "ACCEPT"), reverse=True)
        rows.append({"group": Text(group.name), "records": Text(_count(group.records)),
                     "rejected": Text(_count(group.rejected or 0)), "rate": Text(_share(group.rate)),
                     "first checks": Text(", ".join(f"{s} {n:,}" for n, s in checks[:3]) or "-")})
    _more(rows, len(groups) - SHOWN_ROWS, SPLIT_COLUMNS)
    return _fitted(title, SPLIT_COLUMNS, rows, width)


def _change_table(title: str, changes: list[Change], width: int) -> Any:
    from rich.text import Text

    rows: list[dict[str, Any]] = []
    for change in changes[:SHOWN_ROWS]:
        worse = change.change > 0 and change.kind not in ("rung",) and change.name != "ACCEPT"
        rows.append({"group": Text(change.name),
                     "change": Text(f"{change.change * 100:+.1f} pt", "red" if worse and change.change else ""),
                     "now": Text(_share(change.rate)), "against": Text(_share(change.before_rate)),
                     "records now": Text(_count(change.records)),
                     "records against": Text(_count(change.before_records))})
    _more(rows, len(changes) - SHOWN_ROWS, CHANGE_COLUMNS)
    return _fitted(title, CHANGE_COLUMNS, rows, width)


def _time_table(summary: Summary, width: int) -> Any:
    from rich.text import Text

    from .triage.timeline import iso

    histogram = summary.histogram
    assert histogram is not None
    tally = summary.tally
    top = max((bar.records for bar in histogram.bars), default=0)
    bar_width = min(cli.BAR_WIDTH, max(5, width // 4))
    rows: list[dict[str, Any]] = []
    bars = histogram.bars
    for bar in bars:
        filled = round(bar_width * bar.records / top) if top else 0
        bad = round(filled * bar.rejected / bar.records) if bar.records else 0
        rows.append({"from": Text(iso(bar.start)), "records": Text(_count(bar.records)),
                     "rejected": Text(_count(bar.rejected)),
                     "": Text.assemble(("█" * (filled - bad), "cyan"), ("█" * bad, "red"))})
    title = f"over time, per {histogram.bucket} (rejected in red); {tally.no_ts:,} record(s) without a readable ts"
    return _fitted(title, TIME_COLUMNS, rows, width)
