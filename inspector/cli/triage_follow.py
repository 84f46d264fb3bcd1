"""``inspector triage LOG --follow --format jsonl``: the headless follow, for a pipe into alerting.

The counting is the engine's (``triage.follow.follow``: the lines already in
the logs on every core, then each line appended); this module checks the
options, prints one ``inspector.triage.follow/1`` object a line every
``--every`` seconds (``triage.follow.follow_document``), each flushed, and on
SIGINT or SIGTERM, or at the end of standard input, the final one, exit 0.
"""

from __future__ import annotations

import argparse
import json
import math
import signal
import sys
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

from ..contract.text import json_escape
from .output import EXIT_ACCEPT, EXIT_BROKEN, EXIT_INTERNAL, error

__all__ = ["EVERY", "follow_jsonl", "follow_problem"]

# --every's default: one object every this many seconds (the engine's POLL_SECONDS is the finest it follows).
EVERY = 10.0
_POLL_SECONDS = 0.25  # triage.follow.POLL_SECONDS (not imported: checking the options imports no engine)
_SLEEP = 0.05  # how long a wait sleeps at a time: a signal is answered within it


def every_seconds(args: argparse.Namespace) -> float | None:
    """``--every`` as seconds (the default when not given); None when it is no positive number."""
    if args.every is None:
        return EVERY
    try:
        seconds = float(args.every)
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and seconds > 0 else None


def follow_problem(args: argparse.Namespace) -> str | None:
    """Why ``--follow``, ``--every`` or ``--format jsonl`` cannot be used as given (before anything is read)."""
    jsonl = args.format == "jsonl"
    if jsonl and not args.follow:
        return ("--format jsonl is the headless output of --follow (one summary object a line): add --follow, "
                "or use --format json for the summary of a finished count")
    if args.every is not None and not (args.follow and jsonl):
        return "--every SECONDS says how often --follow --format jsonl prints its object: add both"
    if not args.follow:
        return None
    if args.against:
        return ("--against compares finished counts, and a followed log is never finished: drop --follow "
                "(or --against)")
    if args.export is not None:
        return ("--export writes a group's records once the log is counted, and a followed log is never finished: "
                "drop --follow (count a copy of the log), or --export")
    if args.bad_lines is not None:
        return ("--bad-lines FILE appears whole once the count ends, and a followed log never ends: drop "
                "--follow, or --bad-lines (the objects count the bad lines)")
    if getattr(args, "records", None) is not None:
        return ("--records FILE appears whole once the count ends, and a followed log never ends: drop --follow "
                "(count a copy of the log), or --records")
    if args.summary or args.format in ("text", "json"):
        return ("--follow prints a summary object a line with --format jsonl (--summary and --format json are "
                "the summary of a finished count); without --format it opens the overview")
    if jsonl and args.by:
        return ("--by groups the overview's counts; the --format jsonl objects count lines, records, bad lines and "
                "verdict labels: drop --by, or follow in the overview (without --format)")
    if "-" in args.logs and not jsonl:
        return ("standard input (-) is followed headless only: add --format jsonl (the overview rereads records "
                "from their file: give the log's path)")
    if every_seconds(args) is None:
        return f"--every SECONDS takes a positive number of seconds (0.5, 10), not {args.every!r}"
    return None


class _Stop:
    """Set by SIGINT or SIGTERM; what the follow waits on.  Not a
    ``threading.Event``: its ``set`` takes a lock that the main thread, which a
    signal handler interrupts, may be holding at that moment."""

    def __init__(self) -> None:
        self.signal: int | None = None

    def handler(self, number: int, frame: FrameType | None) -> None:
        self.signal = number

    def is_set(self) -> bool:
        return self.signal is not None

    def wait(self, timeout: float | None = None) -> bool:
        end = time.monotonic() + (timeout if timeout is not None else math.inf)
        while self.signal is None:
            left = end - time.monotonic()
            if left <= 0:
                break
            time.sleep(min(left, _SLEEP))
        return self.signal is not None


class _Printer:
    """The objects of one follow: one when each ``every`` seconds of the clock
    started with it has passed, and the final one; each says what changed
    since the one before."""

    def __init__(self, every: float) -> None:
        from ..triage.follow import Counts

        self.every = every
        self.printed = time.monotonic()  # when the last object was printed (the start, before the first)
        self.due = self.printed + every
        self.before = Counts()
        self.told = 0  # the number of the last event printed
        self.final: Any = None  # the follow's last progress

    def progress(self, progress: Any) -> None:
        if progress.done:
            self.final = progress
        elif time.monotonic() >= self.due:
            self.emit(progress)

    def emit(self, progress: Any, final: bool = False) -> None:
        from ..triage.follow import Counts, events_after, follow_document

        now = time.monotonic()
        counts = Counts.of(progress.tally)
        document = follow_document(progress, counts, self.before, now - self.printed,
                                   events_after(progress, self.told), time.time(), final)
        print(json_escape(json.dumps(document, ensure_ascii=False, separators=(",", ":"))), flush=True)
        self.before, self.printed, self.told = counts, now, progress.event_count
        while self.due <= now:  # the next tick (a late object does not make the next one early)
            self.due += self.every


def follow_jsonl(args: argparse.Namespace, registry: Any, options: Any, on_notice: Callable[[str], None]) -> int:
    """Follow ``args.logs``, printing an object every ``--every`` seconds and the final one on SIGINT or
    SIGTERM, or at the end of standard input; the exit status (4 when standard input broke off)."""
    from ..triage.job import Following, TriageJob, run_job
    from ..triage.logs import LogError
    from ..triage.run import WorkerError
    from .triage_engine import engine_of

    every = every_seconds(args)
    assert every is not None  # follow_problem refused anything else
    printer = _Printer(every)
    stop = _Stop()
    handlers = {number: signal.signal(number, stop.handler) for number in (signal.SIGINT, signal.SIGTERM)}
    try:
        poll = min(_POLL_SECONDS, every)
        stdin = sys.stdin.buffer if "-" in args.logs and sys.stdin is not None else None
        try:
            job = TriageJob(tuple(args.logs), registry, str(args.registry), options, engine=engine_of(args),
                            follow=Following(poll_seconds=poll, report_seconds=poll))
            tally = run_job(job, progress=printer.progress, cancel=stop, stdin=stdin, on_notice=on_notice).summary.tally
        except WorkerError as exc:
            error(str(exc))
            return EXIT_INTERNAL
        except LogError as exc:
            return error(str(exc))
        printer.emit(printer.final, final=True)
    finally:
        for number, handler in handlers.items():
            signal.signal(number, handler)
    return EXIT_BROKEN if tally.broken else EXIT_ACCEPT
