"""The command line's output policy: exit codes, the standard streams, one-line errors.

Every command reports through here: an unusable input is one line on standard
error and exit status 2, a bug one line and exit status 3 (the traceback with
``--debug`` or ``INSPECTOR_DEBUG=1``), a reader that went away (``| head``) a
quiet stop.  Report tables print on ``report_console()``: as wide as the
terminal, or as ``COLUMNS`` says, or ``PIPED_WIDTH`` when piped.
"""

from __future__ import annotations

import argparse
import codecs
import errno
import os
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..contract.text import escape_char, shorten, visible
from ..reports.tones import Tone
from ..suites.load import LoadError

if TYPE_CHECKING:
    from rich.console import Console

__all__ = [
    "DEBUG_HELP",
    "EXIT_ACCEPT",
    "EXIT_BROKEN",
    "EXIT_INTERNAL",
    "EXIT_INTERRUPTED",
    "EXIT_REJECT",
    "EXIT_USAGE",
    "PIPED_WIDTH",
    "TONE_STYLES",
    "error",
    "guarded",
    "internal_error",
    "isatty",
    "WEB_DRIVER",
    "report_console",
    "served",
    "terminal_problem",
]

EXIT_ACCEPT, EXIT_REJECT, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3
# triage: an input broke off before its end (a truncated or corrupt .gz, a read
# error); everything before the break was counted and the summary says where.
EXIT_BROKEN = 4
# Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED = 130

DEBUG_HELP = "print the traceback of an internal error"

PIPED_WIDTH = 180  # piped with no COLUMNS: no terminal to fit, so wide rows rather than folded ones

# The semantic palette (reports.tones) as the command line's Rich styles.
TONE_STYLES: dict[Tone, str] = {Tone.GOOD: "green", Tone.BAD: "red", Tone.WARN: "yellow", Tone.PENDING: "dim",
                                Tone.MUTED: "dim", Tone.PLAIN: ""}

# What writing can fail with (a full disk, a quota, a closed pipe or descriptor, I/O).
WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EPIPE, errno.EBADF})


def error(message: str) -> int:
    """An unusable input: one line on standard error, exit status 2."""
    print(f"inspector: error: {visible(message)}", file=sys.stderr)
    return EXIT_USAGE


def isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (OSError, ValueError):
        return False


# The driver textual-serve (``inspector serve``) runs each app process with: its standard input
# and output are pipes to the server, which carries the frames to the browser and the keys back.
WEB_DRIVER = "textual.drivers.web_driver:WebDriver"


def served() -> bool:
    """Whether this process is an app process of ``inspector serve`` (Textual's web driver asked for)."""
    return os.environ.get("TEXTUAL_DRIVER") == WEB_DRIVER


def terminal_problem(message: str) -> str | None:
    """``message`` unless both standard input and output are terminals (what the UI needs),
    or the UI is served (the web driver speaks through pipes: no terminal is needed)."""
    if served():
        return None
    if all(stream is not None and isatty(stream) for stream in (sys.stdin, sys.stdout)):
        return None
    return message


def report_console() -> Console:
    """A console as wide as the terminal; piped, as wide as COLUMNS says, else PIPED_WIDTH."""
    from rich.console import Console

    console = Console(highlight=False)
    if not console.is_terminal and not os.environ.get("COLUMNS", "").strip().isdigit():
        console = Console(highlight=False, width=PIPED_WIDTH)
    return console


def guarded(args: argparse.Namespace, run: Callable[[argparse.Namespace], int]) -> int:
    """``run(args)``'s exit status, with every failure turned into the policy's message and status."""
    try:
        status = run(args)
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk or a closed pipe shows here, not at exit
        return status
    except LoadError as exc:
        return error(str(exc))
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (| head); stop quietly.
        _drop_stdout()
        sys.stderr.close()
        return EXIT_REJECT
    except UnicodeEncodeError as exc:
        if not _stdout_cannot_encode(exc):
            return internal_error(args, exc)
        _drop_stdout()
        return error(f"standard output ({exc.encoding}) cannot encode {escape_char(exc.object[exc.start])}; "
                     "set PYTHONIOENCODING=utf-8 or use a UTF-8 locale")
    except OSError as exc:
        if exc.filename is not None:
            return error(f"{exc.filename}: {exc.strerror or exc}")
        if exc.errno in WRITE_ERRORS:
            # No file named: the one stream written without a name, standard output.
            _drop_stdout()
            return error(f"cannot write to standard output: {exc.strerror or exc}")
        return internal_error(args, exc)
    except Exception as exc:  # noqa: BLE001 - anything else is a bug: say so, in one line
        return internal_error(args, exc)


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


def internal_error(args: argparse.Namespace, exc: BaseException) -> int:
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
