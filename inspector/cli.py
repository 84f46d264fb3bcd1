"""The ``inspector`` command line.

Headless commands (``check``, ``audit``, ``mutate``, ``checks``) never import textual; the
terminal UI is imported only when ``open`` (the default) or ``screenshots`` runs.
Errors in inputs become one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import codecs
import errno
import fcntl
import io
import os
import sys
import traceback
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import __version__
from .contract.checks import CHECKS, REASONS
from .contract.text import escape_char, json_dumps, shorten, visible
from .suites.load import (
    Case,
    LoadError,
    Suite,
    bundled_suite_paths,
    load_answer,
    load_answer_stream,
    load_registry,
    load_request,
    load_suites,
)

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from .contract.verdict import Verdict
    from .lab.mutation_testing import MutantResult, MutateReport
    from .reports.audit import Audit
    from .reports.case import Rung

    # A table cell: a text, or a text and a tail kept when the text is shortened (a claim's index).
    Cell = Text | tuple[Text, Text]

EXIT_ACCEPT, EXIT_REJECT, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3

_DEBUG_HELP = "print the traceback of an internal error"


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.0%}"


def _checks_listing() -> str:
    lines = ["checks, in contract order (the first failure decides):"]
    stage = None
    for check in CHECKS:
        if check.stage != stage:
            stage = check.stage
            lines.append(f"  stage {int(stage)}, {stage.title}:")
        reasons = f" [{', '.join(check.reasons)}]" if check.reasons else ""
        lines.append(f"    {check.code:<21} {check.title}{reasons}")
        lines.append(f"    {'':<21} {check.explanation}")
    return "\n".join(lines)


def _mutations_listing() -> str:
    from .lab.mutations import MUTATIONS

    return "\n".join(f"  {mutation.name:<20} {mutation.title:<36} {'/'.join(mutation.checks) or '-'}"
                     for mutation in MUTATIONS)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="inspector",
        description="Inspect why a language model's answer was accepted or rejected by a strict "
                    "claim contract. With no command, opens the inspector on the bundled suites.",
        epilog=_checks_listing() + "\n\nexit status: 0 accepted / all labels match, "
               "1 rejected / a label differs, 2 unusable input, 3 internal error (a bug: one line "
               "says what failed; --debug or INSPECTOR_DEBUG=1 prints the traceback).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"inspector {__version__}")
    parser.add_argument("--debug", action="store_true", help=_DEBUG_HELP)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    check = commands.add_parser(
        "check", help="verify one candidate answer",
        description="Verify one candidate answer against a request and a registry.",
        epilog="exit status: 0 ACCEPT, 1 rejected, 2 unusable input, 3 internal error.",
    )
    check.add_argument("--request", required=True, metavar="R", help="request JSON file")
    check.add_argument("--registry", required=True, metavar="G", help="registry JSON file ({\"sources\": [...]})")
    check.add_argument("claims", nargs="?", default="-", metavar="CLAIMS",
                       help="the answer file, or - for standard input (default)")
    check.add_argument("--format", choices=("text", "json"), default="text")
    check.add_argument("--trace", action="store_true", help="show every step, not just the first failure")

    audit = commands.add_parser(
        "audit", help="run fixture suites and compare with their frozen labels",
        description="Run every case of the suites and compare each verdict with its frozen label.",
        epilog="exit status: 0 all labels match, 1 a label differs (or --verify found a difference), "
               "2 unusable input, 3 internal error.",
    )
    audit.add_argument("suites", nargs="*", metavar="SUITE", help="suite files (default: the bundled suites)")
    audit.add_argument("--format", choices=("text", "json"), default="text")
    audit.add_argument("--out", metavar="DIR", type=Path,
                       help="also write results.json and manifest.json into DIR (new or empty)")
    audit.add_argument("--verify", metavar="DIR", type=Path,
                       help="recompute a run written by --out and fail on any difference")

    mutate = commands.add_parser(
        "mutate", help="mutate every accepted case and count what the contract catches",
        description="Apply every mutation of the counterexample lab (every variant) to every ACCEPT "
                    "case of the suites, verify each mutant once and report: how many each verdict "
                    "code killed, the survivors, the mutation score, the mutants that slipped past "
                    "their check to another one, and which rejection codes the suites' own cases cover.",
        epilog="mutations, and the checks each is meant to trip (- harmless: stays accepted):\n" + _mutations_listing()
               + "\n\nexit status: 0 every rejection code covered, 1 a rejection code no case of the "
               "suites fails with, 2 unusable input, 3 internal error.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    mutate.add_argument("suites", nargs="*", metavar="SUITE", help="suite files (default: the bundled suites)")
    mutate.add_argument("--format", choices=("text", "json", "stryker"), default="text",
                        help="stryker: the mutation-testing-report-schema, for mutation-testing-elements")

    checks = commands.add_parser("checks", help="list the checks in contract order",
                                 description="List the contract's checks, sub-reasons and fix hints.")
    checks.add_argument("--format", choices=("text", "markdown"), default="text")

    registry = commands.add_parser("registry", help="registry tools (lint)",
                                   description="Tools for registry files.")
    registry_commands = registry.add_subparsers(dest="registry_command", metavar="COMMAND", required=True)
    lint = registry_commands.add_parser(
        "lint", help="list conflicts, duplicate ids, facts missing from texts, unreachable sources",
        description="List problems in a registry: conflicting facts within one service/environment/"
                    "revision, duplicate ids, facts whose canonical line is not in the text, and "
                    "sources no request could ever be answered from.",
        epilog="exit status: 0 nothing found, 1 findings, 2 unusable input, 3 internal error.")
    lint.add_argument("registry", metavar="G", help="registry (or suite) file")
    lint.add_argument("--format", choices=("text", "json"), default="text")

    open_ = commands.add_parser(
        "open", help="open the inspector (the terminal UI)",
        description="Open suites, or one answer with --request and --registry, in the inspector.",
        epilog="Needs a terminal on standard input and output. exit status: 0; 2 for a missing or invalid "
               "file or no terminal, before the UI starts; 3 internal error.",
    )
    open_.add_argument("paths", nargs="*", metavar="SUITE|CLAIMS")
    open_.add_argument("--request", metavar="R")
    open_.add_argument("--registry", metavar="G")

    shots = commands.add_parser("screenshots", help="regenerate the README's SVG screenshots",
                                description="Drive the real app and save SVG screenshots.")
    shots.add_argument("out", nargs="?", default="screenshots", type=Path, metavar="DIR")
    shots.add_argument("--overwrite", action="store_true", help="replace existing SVG files in DIR")
    from .triage_cli import add_parser as add_triage

    triage = add_triage(commands)
    for command in (check, audit, mutate, checks, registry, lint, open_, shots, triage):
        # Also after the command; SUPPRESS keeps a --debug given before it.
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=_DEBUG_HELP)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        problem = _stream_problem(args)
        if problem is not None:
            return _error(problem)
        status = _run(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk or a closed pipe shows here, not at exit
        return status
    except LoadError as exc:
        return _error(str(exc))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (| head); stop quietly.
        _drop_stdout()
        sys.stderr.close()
        return EXIT_REJECT
    except UnicodeEncodeError as exc:
        if not _stdout_cannot_encode(exc):
            return _internal_error(args, exc)
        _drop_stdout()
        return _error(f"standard output ({exc.encoding}) cannot encode {escape_char(exc.object[exc.start])}; "
                      "set PYTHONIOENCODING=utf-8 or use a UTF-8 locale")
    except OSError as exc:
        if exc.filename is not None:
            return _error(f"{exc.filename}: {exc.strerror or exc}")
        if exc.errno in _WRITE_ERRORS:
            # No file named: the one stream written without a name, standard output.
            _drop_stdout()
            return _error(f"cannot write to standard output: {exc.strerror or exc}")
        return _internal_error(args, exc)
    except Exception as exc:  # noqa: BLE001 - anything else is a bug: say so, in one line
        return _internal_error(args, exc)


def _run(args: argparse.Namespace) -> int:
    if args.command == "check":
        return _check(args)
    if args.command == "audit":
        return _audit(args)
    if args.command == "mutate":
        return _mutate(args)
    if args.command == "checks":
        print(checks_markdown() if args.format == "markdown" else checks_text())
        return EXIT_ACCEPT
    if args.command == "registry":
        return _lint(args)
    if args.command == "screenshots":
        return _screenshots(args)
    if args.command == "triage":
        from .triage_cli import run as triage

        return triage(args)
    return _open(getattr(args, "paths", []), getattr(args, "request", None), getattr(args, "registry", None))


# -- standard streams and internal errors ----------------------------------------


def _stream_problem(args: argparse.Namespace) -> str | None:
    """Why the standard streams cannot serve this command, before it starts."""
    if args.command in (None, "open"):
        # Textual on a pipe or /dev/null waits forever or fails deep inside.
        if not all(stream is not None and _isatty(stream) for stream in (sys.stdin, sys.stdout)):
            return "inspector open needs a terminal (standard input and output); " \
                   "for a report without one, use check or audit"
    if args.command == "check" and args.claims == "-" and sys.stdin is not None:
        try:
            flags = fcntl.fcntl(sys.stdin.fileno(), fcntl.F_GETFL)
        except io.UnsupportedOperation:
            return None  # not a file descriptor (an in-memory stream): nothing to check
        except (OSError, ValueError):
            return "standard input is closed: pass a CLAIMS file or pipe the answer in"
        if flags & os.O_ACCMODE == os.O_WRONLY:
            return "standard input is open for writing only: pass a CLAIMS file or pipe the answer in"
    return None


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (OSError, ValueError):
        return False


# What writing can fail with (a full disk, a quota, a closed pipe or descriptor, I/O).
_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EPIPE, errno.EBADF})


def _stdout_cannot_encode(exc: UnicodeEncodeError) -> bool:
    encoding = getattr(sys.stdout, "encoding", None)
    if not encoding:
        return False
    try:
        return codecs.lookup(exc.encoding).name == codecs.lookup(encoding).name
    except LookupError:
        return False


def _drop_stdout() -> None:
    """Point file descriptor 1 at /dev/null, so that what is still buffered
    for it does not fail again when Python exits (a second message, exit 120)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def _debugging(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "debug", False)) or os.environ.get("INSPECTOR_DEBUG", "") not in ("", "0")


def _internal_error(args: argparse.Namespace, exc: BaseException) -> int:
    """A bug, not a verdict or bad input: exit 3, one line saying what failed."""
    command = " ".join(part for part in (args.command or "open", getattr(args, "registry_command", None)) if part)
    if _debugging(args):
        traceback.print_exception(exc, file=sys.stderr)
    where = ""
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        last = frames[-1]
        where = f" at {Path(last.filename).name}:{last.lineno} in {last.name}"
    hint = "" if _debugging(args) else "; rerun with --debug (or INSPECTOR_DEBUG=1) for the traceback"
    print(f"inspector: internal error in {command}: {type(exc).__name__}: {visible(shorten(str(exc), 200))}"
          f"{where} (a bug){hint}", file=sys.stderr)
    return EXIT_INTERNAL


def _error(message: str) -> int:
    print(f"inspector: error: {visible(message)}", file=sys.stderr)
    return EXIT_USAGE


# -- check -------------------------------------------------------------------


def _check(args: argparse.Namespace) -> int:
    from .contract.verify import verify

    registry = load_registry(args.registry)
    request = load_request(args.request)
    if args.claims == "-":
        if sys.stdin is None or sys.stdin.isatty():
            return _error("no answer given: pass a CLAIMS file or pipe the answer into standard input")
        raw: bytes = load_answer_stream(sys.stdin.buffer)
    else:
        raw = load_answer(args.claims)
    verdict = verify(raw, request, registry)
    if args.format == "json":
        from .reports.case import verdict_document

        print(json_dumps(verdict_document(verdict, trace=args.trace)))
    else:
        _print_verdict(verdict, trace=args.trace)
    return EXIT_ACCEPT if verdict.ok else EXIT_REJECT


def _print_verdict(verdict: Verdict, trace: bool) -> None:
    from rich.console import Console
    from rich.text import Text

    from .contract.trace import Outcome, explain
    from .reports.case import CITATION_CALLOUT, RUNGS

    console = Console(highlight=False, soft_wrap=True)
    style = "bold green" if verdict.ok else "bold red"
    console.print(Text.assemble(("verdict  ", "bold"), (visible(verdict.label), style)))
    explained = explain(verdict)
    failure = explained.first_failure
    if failure is not None:
        where = f"claims[{failure.claim}]: " if failure.claim is not None else ""
        console.print(Text.assemble(("failed   ", "bold"), f"{failure.check.title} ({where.rstrip(': ') or 'answer'})"))
        console.print(Text.assemble(("why      ", "bold"), visible(where + failure.explanation)))
        console.print(Text.assemble(("fix      ", "bold"), visible(failure.hint)))
    yes_no = {True: ("yes", "green"), False: ("no", "red")}
    baselines: list[str | tuple[str, str]] = [("baselines", "bold")]
    for rung in RUNGS:
        baselines += [f"  {rung.name} ", yes_no[rung.passes(verdict)]]
    console.print(Text.assemble(*baselines))
    if verdict.citation_only and not verdict.ok:
        console.print(Text("         " + CITATION_CALLOUT.removeprefix("⚠ "), style="yellow"))
    if verdict.ok:
        console.print(Text("accepted", style="bold"))
        for field, value in verdict.accepted.items():
            console.print(Text(f"  {visible(field)} = {visible(value)}"))
    if trace:
        marks = {Outcome.PASSED: ("✓", "green"), Outcome.FAILED: ("✗", "bold red"),
                 Outcome.NOT_REACHED: ("·", "dim"), Outcome.UNAVAILABLE: ("?", "dim")}
        console.print(Text("trace", style="bold"))
        for step in explained.steps:
            mark, mark_style = marks[step.outcome]
            claim = f"[{step.claim}]" if step.claim is not None else ""
            console.print(Text.assemble(
                "  ", (mark, mark_style), f" {step.check.title}{claim}: ",
                (visible(step.explanation), "dim" if step.outcome is Outcome.NOT_REACHED else "")))


# -- audit -------------------------------------------------------------------


def _audit(args: argparse.Namespace) -> int:
    from .reports.audit import audit
    from .suites.manifest import RunError, verify_run, write_run

    if args.verify is not None:
        if args.suites or args.out:
            return _error("--verify DIR takes no suites and no --out: it rereads the run's own inputs")
        try:
            differences, notes = verify_run(
                args.verify, lambda paths: audit(load_suites(paths)).to_dict(__version__), __version__)
        except RunError as exc:
            return _error(str(exc))
        for note in notes:
            print(f"note: {visible(note)}")
        for difference in differences:
            print(f"differs: {visible(difference)}")
        if differences:
            print(f"{args.verify}: {len(differences)} difference(s)")
            return EXIT_REJECT
        print(f"{args.verify}: verified, inputs and results unchanged")
        return EXIT_ACCEPT

    paths = [Path(p) for p in args.suites] or bundled_suite_paths()
    if not paths:
        return _error("no suite given and no bundled suites found")
    suites = load_suites(paths)
    result = audit(suites)
    document = result.to_dict(__version__)
    if args.out is not None:
        try:
            write_run(args.out, paths, document, __version__)
        except RunError as exc:
            return _error(str(exc))
    if args.format == "json":
        print(json_dumps(document))
    else:
        _print_audit(suites, result)
        if args.out is not None:
            print(f"wrote {args.out / 'results.json'} and {args.out / 'manifest.json'}")
    return EXIT_REJECT if result.mismatches else EXIT_ACCEPT


# -- audit tables: columns that give way on a narrow terminal ------------------

PIPED_WIDTH = 180  # piped with no COLUMNS: no terminal to fit, so wide rows rather than folded ones
BAR_WIDTH = 30  # the ladder's bar at full width; it shrinks with the terminal
STACK_INDENT = 2  # a cell moved under another one is indented, so each row's first line stands out


@dataclass(frozen=True, slots=True)
class TableColumn:
    """A column of a text table and how it gives way when the width runs short.

    Priority 0 columns are always shown; the others are added in rising priority, each
    one if it still fits beside those before it (they are never squeezed for it). A
    column with a ``min_width`` holds prose and may be shortened down to it with an
    ellipsis; one without holds codes, ids or yes/no and is shown whole or not at all,
    since half a code reads as another code. ``under`` names the column whose cell this
    one moves into, on a second line, when the priority-0 columns do not fit side by
    side. ``width`` is the natural width of a column whose cells are drawn to fit it
    (a bar) rather than measured.
    """

    header: str
    priority: int = 0
    min_width: int | None = None
    under: str | None = None
    width: int | None = None


@dataclass(frozen=True, slots=True)
class TableLayout:
    """The columns shown, in display order, with their content widths."""

    widths: dict[str, int]
    under: dict[str, str]  # a column moved into another one's cell: column -> host
    folded: bool  # even stacked, the essential columns are wider than the terminal


def table_width(widths: Iterable[int]) -> int:
    """The printed width of a table of these content widths: Rich's default box puts
    one rule between and around the columns and one space of padding each side."""
    widths = list(widths)
    return sum(widths) + 3 * len(widths) + 1


def fit_columns(columns: Sequence[TableColumn], natural: Mapping[str, int], width: int) -> TableLayout:
    """Which columns to show in ``width`` and how wide, from each column's natural width.

    The essential columns side by side, else with the ``under`` columns stacked into
    their hosts; then the others in priority order, each taking what is left (down to
    its minimum if it may be shortened). Only when even the stacked essentials are wider
    than the terminal is anything folded: the widest of them, since nothing else can
    give way.
    """
    under: dict[str, str] = {}
    widths = {c.header: natural[c.header] for c in columns if c.priority == 0}
    if table_width(widths.values()) > width and any(c.under in widths for c in columns):
        under = {c.header: c.under for c in columns if c.under in widths}
        for moved, host in under.items():
            widths[host] = max(widths[host], widths.pop(moved) + STACK_INDENT)
    folded = table_width(widths.values()) > width
    if folded:
        widest = max(widths, key=lambda header: widths[header])
        widths[widest] = max(1, widths[widest] - (table_width(widths.values()) - width))
    else:
        for column in sorted((c for c in columns if c.priority and c.header not in under), key=lambda c: c.priority):
            room = width - table_width([*widths.values(), 0])
            wanted = natural[column.header]
            least = wanted if column.min_width is None else min(wanted, column.min_width)
            if room >= least:
                widths[column.header] = min(wanted, room)
    order = [c.header for c in columns]
    return TableLayout({h: widths[h] for h in order if h in widths}, under, folded)


def _cell_width(cell: Cell) -> int:
    if isinstance(cell, tuple):
        head, tail = cell
        return head.cell_len + tail.cell_len
    return max((line.cell_len for line in cell.split("\n")), default=0)


def _natural_widths(columns: Sequence[TableColumn], rows: Sequence[Mapping[str, Cell]]) -> dict[str, int]:
    """Each column's width with nothing shortened: its widest cell or its header."""
    return {column.header: column.width if column.width is not None else max(
        [len(column.header), *(_cell_width(row[column.header]) for row in rows if column.header in row)])
        for column in columns}


def _shorten(cell: Cell, width: int) -> Text:
    """The cell in ``width`` cells: a shortened text ends with an ellipsis, before its tail."""
    from rich.text import Text

    head, tail = cell if isinstance(cell, tuple) else (cell, Text())
    if head.cell_len + tail.cell_len <= width:
        return Text.assemble(head, tail)
    head = head.copy()
    head.truncate(max(1, width - tail.cell_len), overflow="ellipsis")
    return Text.assemble(head, tail)


def _render_table(title: str | Text, columns: Sequence[TableColumn], layout: TableLayout,
                  rows: Sequence[Mapping[str, Cell]]) -> Table:
    """A Rich table of ``rows`` (cells by header) laid out as ``layout`` says."""
    from rich.table import Table
    from rich.text import Text

    by_header = {column.header: column for column in columns}
    stacked = {host: [moved for moved, into in layout.under.items() if into == host] for host in layout.widths}
    table = Table(title=title, title_justify="left")
    for header, width in layout.widths.items():
        whole = by_header[header].min_width is None
        table.add_column(Text("\n".join([header, *stacked[header]])), width=width,
                         no_wrap=not (layout.folded and whole), overflow="fold" if whole else "ellipsis")
    for row in rows:
        cells = []
        for header, width in layout.widths.items():
            shortenable = by_header[header].min_width is not None
            cell = _shorten(row.get(header, Text()), width) if shortenable else row.get(header, Text())
            for moved in stacked[header]:
                cell = Text.assemble(cell, "\n", " " * STACK_INDENT, row.get(moved, Text()))
            cells.append(cell)
        table.add_row(*cells)
    return table


def _fitted(title: str | Text, columns: Sequence[TableColumn], rows: Sequence[Mapping[str, Cell]],
            width: int) -> Table:
    return _render_table(title, columns, fit_columns(columns, _natural_widths(columns, rows), width), rows)


def _pack(parts: Sequence[str], width: int, separator: str) -> list[str]:
    """The parts joined on as few lines as fit in ``width``, breaking only between
    parts, so that "quote exists 13/22" never loses its figure to the next line; a part
    wider than the width is wrapped at its spaces."""
    import textwrap

    from rich.cells import cell_len

    lines: list[str] = []
    for part in parts:
        if lines and cell_len(lines[-1]) + cell_len(separator) + cell_len(part) <= width:
            lines[-1] += separator + part
        else:
            lines.extend(textwrap.wrap(part, width, break_long_words=False, break_on_hyphens=False) or [""])
    return lines


FACT_LABEL_WIDTH = 9  # "summary  ", "abstain  ": the labels of the lines under the tables


def _hanging(lead: str, parts: Sequence[str], width: int, separator: str, indent: str = " " * FACT_LABEL_WIDTH,
             lead_style: str = "bold") -> list[Text]:
    """The parts led by ``lead`` and continued after ``indent`` (a hanging indent)."""
    from rich.text import Text

    lines = _pack(parts, max(1, width - max(len(lead), len(indent))), separator)
    return [Text.assemble((lead if number == 0 else indent, lead_style), line) for number, line in enumerate(lines)]


def _baseline_rungs() -> tuple[Rung, ...]:
    """The rungs the audit table shows as columns: all but the contract's, which is the
    actual label itself."""
    from .reports.case import RUNGS

    return tuple(rung for rung in RUNGS if rung.id != "contract")


def audit_columns(labels_differ: bool = False) -> tuple[TableColumn, ...]:
    """The audit's per-case table, in display order.

    Beyond case, actual and match, the columns that say what the label does not come
    first: the failing check and claim, then the expected label, the lens, the blame.
    When a label in the table differs from its verdict the expected label is what the
    reader looks for, so it comes before the first failure; when none does it repeats
    the actual one. The rungs go first, the lowest first: strict JSON is "no" exactly
    when the label is INVALID_JSON, and citation-only and the category follow from the
    label's check in nearly every case.
    """
    expected, first_failure = (1, 2) if labels_differ else (2, 1)
    return (
        TableColumn("case"),
        TableColumn("expected", priority=expected),
        TableColumn("actual", under="case"),
        TableColumn("match"),
        *(TableColumn(rung.name, priority=7 - number) for number, rung in enumerate(_baseline_rungs())),
        TableColumn("first failure", priority=first_failure, min_width=18),
        TableColumn("lens", priority=3),
        TableColumn("category", priority=5, min_width=12),
        TableColumn("blame", priority=4),
    )


LADDER_COLUMNS = (
    TableColumn("check", priority=1, min_width=10),
    TableColumn("code"),
    TableColumn("passed"),
    TableColumn("", priority=2, min_width=5, width=BAR_WIDTH),
)
FIRST_FAILURE_COLUMNS = (
    TableColumn("check", priority=1, min_width=10),
    TableColumn("code"),
    TableColumn("cases"),
)


def _audit_console() -> Console:
    """A console as wide as the terminal; piped, as wide as COLUMNS says, else PIPED_WIDTH."""
    from rich.console import Console

    console = Console(highlight=False)
    if not console.is_terminal and not os.environ.get("COLUMNS", "").strip().isdigit():
        console = Console(highlight=False, width=PIPED_WIDTH)
    return console


def _print_audit(suites: list[Suite], result: Audit) -> None:
    from rich.text import Text

    console = _audit_console()
    yes_no = {True: Text("yes", "green"), False: Text("no", "red"), None: Text("-", "dim")}
    summary = result.summary
    by_suite: dict[str, list] = {}
    for item in result.results:
        by_suite.setdefault(item.suite.name, []).append(item)
    for suite in suites:
        rows = []
        for item in by_suite.get(suite.name, []):
            verdict, step, evidence = item.verdict, item.first_failure, item.evidence
            rows.append({
                "case": Text(visible(item.id)),
                "expected": Text(visible(item.expected or "-")),
                "actual": Text(verdict.label, "green" if verdict.ok else ""),
                "match": Text("✓", "green") if item.match else Text("✗ differs", "bold red")
                if item.match is False else Text("-"),
                **{rung.name: yes_no[rung.passes(verdict)] for rung in _baseline_rungs()},
                "first failure": (Text(visible(step.check.title)),
                                  Text(f" [{step.claim}]" if step.claim is not None else ""))
                if step else Text("-", "dim"),
                "lens": Text(evidence.policy, "yellow" if evidence.lens_disagrees else ""),
                "category": Text(category.title if (category := item.category) else "-"),
                "blame": Text(evidence.blame or "-", "magenta" if evidence.blame == "retrieval" else ""),
            })
        title = Text(visible(f"{suite.name} ({suite.path})"))
        labels_differ = any(item.match is False for item in by_suite.get(suite.name, []))
        console.print(_fitted(title, audit_columns(labels_differ), rows, console.width))

    total = summary.total
    ladder: list[dict[str, Cell]] = [
        {"check": Text(row.check.title), "code": Text(row.check.code), "passed": Text(f"{row.passed}/{total}")}
        for row in summary.checks]
    layout = fit_columns(LADDER_COLUMNS, _natural_widths(LADDER_COLUMNS, ladder), console.width)
    bar = layout.widths.get("", 0)  # the bar is drawn to its column's width: full width, every case passed
    for cells, row in zip(ladder, summary.checks):
        cells[""] = Text("█" * (round(bar * row.passed / total) if total else 0), "cyan")
    console.print(_render_table("the ladder: cases past each check", LADDER_COLUMNS, layout, ladder))

    if summary.first_failures:
        rows = [{"check": Text(row.check.title), "code": Text(row.check.code), "cases": Text(str(row.failed))}
                for row in summary.checks if row.failed]
        console.print(_fitted("first failures per check", FIRST_FAILURE_COLUMNS, rows, console.width))

    recall = summary.mean_recall
    facts = [
        ("summary", " · ", [
            f"{total} cases", *(f"{row.name} {row.count}/{total}" for row in summary.rungs),
            f"citation-only false accepts {len(summary.citation_false_accepts)}"]),
        ("lens", "; ", [
            f"the label lens says ANSWER where the contract rejects in {summary.rung('lens_disagrees').count} "
            f"case(s)",
            f"agreement lens/contract {_rate(summary.lens_agreement)}",
            f"verdict/frozen label {_rate(summary.verdict_agreement)}"]),
        ("blame", "; ", [
            f"rejections: {summary.blame['retrieval']} retrieval, {summary.blame['generation']} generation",
            f"mean retrieval recall {'-' if recall is None else f'{recall:.2f}'}",
            f"{summary.conflicted} case(s) touch conflicting evidence"]),
        ("abstain", ", ", [f"{name.replace('_', ' ')} {count}" for name, count in sorted(summary.categories.items())]),
    ]
    for label, separator, parts in facts:
        for line in _hanging(label.ljust(FACT_LABEL_WIDTH), parts, console.width, separator) if parts else ():
            console.print(line)
    if summary.mismatched:
        console.print(Text(f"{len(summary.mismatched)} case(s) differ from their frozen label:", "bold red"))
        for item in summary.mismatched:
            got = [f"{item.suite.name}/{item.id}: expected {item.expected}, got {item.actual}"]
            if item.lens_match is False:
                got.append(f"expected labels {item.case.expected_labels} policy {item.case.expected_policy}, "
                           f"got {list(item.evidence.labels)} {item.evidence.policy}")
            for line in _hanging("  ", [visible(part) for part in got], console.width, "; ", "    ", ""):
                console.print(line)
    else:
        console.print(Text("all verdicts match their frozen labels", "green"))


# -- mutate ------------------------------------------------------------------


def _mutate(args: argparse.Namespace) -> int:
    from .lab.mutation_testing import mutate

    paths = [Path(p) for p in args.suites] or bundled_suite_paths()
    if not paths:
        return _error("no suite given and no bundled suites found")
    report = mutate(load_suites(paths))
    if args.format == "json":
        print(json_dumps(report.to_dict(__version__)))
    elif args.format == "stryker":
        print(json_dumps(report.to_stryker(__version__)))
    else:
        _print_mutate(report)
    return EXIT_REJECT if report.uncovered else EXIT_ACCEPT


MUTATION_COLUMNS = (
    TableColumn("mutation"),
    TableColumn("meant for", priority=2, min_width=12),
    TableColumn("mutants"),
    TableColumn("killed"),
    TableColumn("survived"),
    TableColumn("slipped", priority=1),
    TableColumn("killed first by", priority=3, min_width=16),
)
KILLED_COLUMNS = (TableColumn("code"), TableColumn("mutants"), TableColumn("of which slipped", priority=1))
COVERAGE_COLUMNS = (TableColumn("code"), TableColumn("cases"), TableColumn("first of them", priority=1, min_width=12))


def _print_mutate(report: MutateReport) -> None:
    from rich.text import Text

    from .lab.mutation_testing import REJECTIONS
    from .lab.mutations import MUTATIONS_BY_NAME

    console = _audit_console()
    width = console.width
    rows: list[dict[str, Cell]] = []
    for row in report.mutations:
        # A mutation whose variants are meant for several checks (doc.other) says how many more.
        meant = MUTATIONS_BY_NAME[row.name].meant
        rows.append({
            "mutation": Text(row.name),
            "meant for": Text(meant, "" if row.check else "dim"),
            "mutants": Text(str(row.mutants)),
            "killed": Text(str(row.killed)),
            "survived": Text(str(row.survived), "bold red" if row.survived > row.harmless else ""),
            "slipped": Text(str(row.slipped), "yellow" if row.slipped else ""),
            "killed first by": Text(", ".join(f"{label} {n}" for label, n in row.killed_by.items()) or "-"),
        })
    console.print(_fitted("mutations: every variant on every accepted case", MUTATION_COLUMNS, rows, width))

    slipped_by_code = report.slipped_by
    killed = [{"code": Text(code), "mutants": Text(str(n)), "of which slipped": Text(str(slipped_by_code.get(code, 0)))}
              for code, n in report.killed_by.items()]
    if killed:
        console.print(_fitted("mutants killed first, per verdict code", KILLED_COLUMNS, killed, width))

    coverage: list[dict[str, Cell]] = []
    for code in REJECTIONS:
        cases = report.coverage[code]
        coverage.append({"code": Text(code), "cases": Text(str(len(cases)), "" if cases else "bold red"),
                         "first of them": Text(visible(", ".join(cases[:3])) or "not covered",
                                               "" if cases else "bold red")})
    for key, cases in report.coverage_reasons.items():
        coverage.append({"code": Text("  " + key, "dim"), "cases": Text(str(len(cases)), "" if cases else "yellow"),
                         "first of them": Text(visible(", ".join(cases[:3])) or "-")})
    console.print(_fitted("coverage: the suites' own cases failing first with each code", COVERAGE_COLUMNS,
                          coverage, width))

    score = "-" if report.score is None else f"{report.score:.1%}"
    facts = [
        ("mutants", " · ", [f"{len(report.results)} mutants of {len(report.parents)} accepted case(s) "
                            f"(of {report.summary.total})", f"{report.killed} killed",
                            f"{len(report.survivors)} survived"]),
        ("score", "; ", [f"{score} of the {len(report.meant)} mutants meant to change the verdict killed",
                         f"{len(report.slipped)} slipped to another check"]),
        ("harmless", "; ", [f"{len(report.harmless) - len(report.stricter)} of {len(report.harmless)} "
                            "harmless mutants still accepted",
                            f"{len(report.stricter)} rejected (the contract is stricter than intended)"]),
    ]
    for label, separator, parts in facts:
        for line in _hanging(label.ljust(FACT_LABEL_WIDTH), parts, width, separator):
            console.print(line)
    if report.uncovered:
        console.print(Text(f"not covered by any case: {', '.join(report.uncovered)}", "bold red"))
    else:
        console.print(Text("every rejection code is covered by a case of the suites", "green"))
    gaps = {name: codes for name, codes in report.uncovered_by_suite.items() if codes}
    if len(report.audit.suites) > 1 and gaps:
        parts = [visible(f"{name} lacks {', '.join(codes)}") for name, codes in gaps.items()]
        for line in _hanging("per suite".ljust(FACT_LABEL_WIDTH + 1), parts, width, "; ", lead_style="dim"):
            console.print(line)

    for title, results, style in (
            ("survivors meant to be rejected (holes in the contract)", report.holes, "bold red"),
            ("harmless mutants rejected (the contract is stricter than intended)", report.stricter, "yellow")):
        if not results:
            continue
        console.print(Text(f"{len(results)} {title}:", style))
        for result in results:
            _print_mutant(console, result, full=result in report.holes)
    harmless_kept = [result for result in report.survivors if result.mutant.harmless]
    if harmless_kept:
        console.print(Text(f"{len(harmless_kept)} harmless survivor(s), as intended:", "bold"))
        for result in harmless_kept:
            _print_mutant(console, result, full=False)


def _print_mutant(console: Console, result: MutantResult, full: bool) -> None:
    """One mutant: its case, mutation and variant, what it got, and its edit, or its
    whole raw text, every character shown safely."""
    from rich.text import Text

    from .contract.text import line_col

    mutant = result.mutant
    start, end, replacement = mutant.edit
    line, column = line_col(result.parent.verdict.text or "", start)
    removed = (result.parent.verdict.text or "")[start:end]
    # ‹ › bound the text (it has quotes and spaces of its own); visible() shows what a terminal would hide.
    edit = f"at {line}:{column}: " + (f"‹{shorten(removed, 40)}› -> " if removed else "insert ") \
        + f"‹{shorten(replacement, 60)}›"
    console.print(Text.assemble("  ", (visible(result.case), "bold"), f"  {mutant.mutation}  ",
                                visible(mutant.variant), f"  -> {result.outcome}"))
    console.print(Text("    " + visible(edit), "dim"))
    if full:
        for raw_line in mutant.raw.split("\n"):
            console.print(Text("    | " + visible(raw_line)))


def checks_text() -> str:
    lines = []
    for check in CHECKS:
        lines.append(f"{check.code:<21} stage {int(check.stage)}, {check.title}")
        lines.append(f"{'':<21} checks: {check.explanation}")
        if check.rule:
            lines.append(f"{'':<21} rule:   {check.rule}")
        lines.append(f"{'':<21} fix:    {check.hint}")
        for reason in check.reasons:
            lines.append(f"{'':<21} {reason:<16} {REASONS[reason].title}")
    return "\n".join(lines)


def checks_markdown() -> str:
    """The README's table of checks (a test keeps the README in step with it)."""
    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    lines = ["| # | stage | check | fails as | what passes | rule |", "|---|---|---|---|---|---|"]
    for number, check in enumerate(CHECKS, 1):
        fails = check.code + (f" ({', '.join(check.reasons)})" if check.reasons else "")
        rule = f"`{cell(check.rule)}`" if check.rule else ""
        lines.append(f"| {number} | {int(check.stage)} {check.stage.title} | {check.title} | {fails} | "
                     f"{cell(check.explanation)} | {rule} |")
    return "\n".join(lines)


def _lint(args: argparse.Namespace) -> int:
    from .suites.lint import lint_registry

    findings = lint_registry(args.registry)
    if args.format == "json":
        print(json_dumps({"registry": args.registry, "findings": [f.to_dict() for f in findings]}))
    else:
        for finding in findings:
            print(visible(f"{finding.kind:<17} {', '.join(finding.sources)}: {finding.detail}"))
        print(f"{args.registry}: {len(findings)} finding(s)" if findings else f"{args.registry}: no findings")
    return EXIT_REJECT if findings else EXIT_ACCEPT


# -- the terminal UI -----------------------------------------------------------


def _open(paths: list[str], request: str | None, registry: str | None) -> int:
    if (request is None) != (registry is None):
        return _error("--request and --registry go together (with one CLAIMS file)")
    if request is not None and registry is not None:
        if len(paths) != 1:
            return _error("with --request and --registry, give exactly one CLAIMS file")
        suites = [_single_answer(Path(paths[0]), request, registry)]
    else:
        suite_paths = [Path(p) for p in paths] or bundled_suite_paths()
        if not suite_paths:
            return _error("no suite given and no bundled suites found")
        suites = load_suites(suite_paths, strict=False)
    from .tui.launch import open_suites

    return open_suites(suites)


def _single_answer(claims: Path, request_path: str, registry_path: str) -> Suite:
    registry = load_registry(registry_path)
    request = load_request(request_path)
    raw = load_answer(claims)
    case = Case(claims.name, 0, claims.name, raw, request, None)
    return Suite(claims, claims.name, registry, (case,))


def _screenshots(args: argparse.Namespace) -> int:
    from .tui.launch import write_screenshots

    return write_screenshots(args.out, overwrite=args.overwrite)


def run() -> None:  # pragma: no cover - console entry point
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    run()
