"""The ``inspector`` command line: one module per command, assembled by ``parser``.

Headless commands (``check``, ``audit``, ``mutate``, ``checks``, ``registry lint``,
``triage --summary``, ``synth``) never import textual; the terminal UI is imported
only when ``open`` (the default), ``screenshots`` or the triage's inspector runs.
What a failure prints and which exit status it gives is ``output``'s: an error in
the inputs is one line on standard error and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import open as open_command
from .environment import drop_unreadable_size_hints
from .output import EXIT_ACCEPT, EXIT_INTERNAL, EXIT_REJECT, EXIT_USAGE, error, guarded, served
from .parser import build_parser

__all__ = ["EXIT_ACCEPT", "EXIT_INTERNAL", "EXIT_REJECT", "EXIT_USAGE", "main", "run"]


def main(argv: Sequence[str] | None = None) -> int:
    drop_unreadable_size_hints()  # before rich or Textual read them
    args = build_parser().parse_args(argv)
    return guarded(args, _command)


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
