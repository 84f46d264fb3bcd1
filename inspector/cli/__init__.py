"""The ``inspector`` command line: one module per command, assembled by ``parser``.

Headless commands (``check``, ``audit``, ``mutate``, ``checks``, ``registry lint``,
``triage --summary``, ``synth``) never import textual; the terminal UI is imported
only when ``open`` (the default), ``screenshots`` or the triage's inspector runs.
What a failure prints and which exit status it gives is ``output``'s: an error in
the inputs is one line on standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from . import open as open_command
from .environment import drop_unreadable_size_hints
from .output import EXIT_ACCEPT, EXIT_INTERNAL, EXIT_REJECT, EXIT_USAGE, error, guarded, served
from .parser import build_parser

__all__ = ["EXIT_ACCEPT", "EXIT_INTERNAL", "EXIT_REJECT", "EXIT_USAGE", "main", "run"]


def main(argv: Sequence[str] | None = None) -> int:
    drop_unreadable_size_hints()  # before rich or Textual read them
    parser = build_parser()
    words = list(sys.argv[1:] if argv is None else argv)
    suite_first = _suite_first(words, parser)
    if suite_first is not None:
        words.insert(suite_first, "open")
    args = parser.parse_args(words)
    if suite_first is not None:
        args.suite_first = True  # open's errors say that the file was taken for a suite
    return guarded(args, _command)


def _suite_first(words: list[str], parser: argparse.ArgumentParser) -> int | None:
    """Where ``open`` goes when the first word is a file and no command: ``inspector SUITE...`` opens it
    as ``inspector open SUITE...`` does (as ``less FILE`` shows a file).  A word that is neither a
    command nor an existing path nor a ``.json`` file stays the parser's (``invalid choice``: a typo)."""
    commands = next(action.choices for action in parser._actions
                    if isinstance(action, argparse._SubParsersAction))
    for index, word in enumerate(words):
        if word == "--":
            return None
        if word.startswith("-"):
            continue  # a global option (--debug); --help and --version end the run anyway
        if word in commands:
            return None
        return index if word.endswith(".json") or os.path.lexists(word) else None
    return None


def _command(args: argparse.Namespace) -> int:
    """The command's run, unless the standard streams cannot serve it."""
    if args.command is None:  # ``inspector`` alone is ``inspector open`` (none of open's arguments parsed)
        args.run, args.stream_problem = open_command.run, open_command.stream_problem
    stream_problem = getattr(args, "stream_problem", None)
    problem = stream_problem(args) if stream_problem is not None else None
    if problem is not None:
        return error(problem)
    if served():  # a session of inspector serve ends with its server, however the server ends
        from ..serve.watch import watch_server

        watch_server()
    return args.run(args)


def run() -> None:  # pragma: no cover - console entry point
    sys.exit(main())
