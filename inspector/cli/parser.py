"""The ``inspector`` argument parser, assembled from each command module's ``add_parser``.

A command module adds its subparser and sets its defaults: ``run`` (the command,
``args -> exit status``) and, when the standard streams may not serve it,
``stream_problem`` (``args -> message or None``, asked before it runs).
"""

from __future__ import annotations

import argparse

from .. import __version__
from . import audit, check, checks, formats, lint, mutate, review, screenshots, serve, synth, triage
from . import open as open_command
from .checks import checks_listing
from .output import DEBUG_HELP

__all__ = ["COMMANDS", "build_parser"]

# In the order ``inspector --help`` lists them.
COMMANDS = (check, audit, review, mutate, checks, lint, open_command, serve, screenshots, triage, formats, synth)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="inspector",
        description="Inspect why a language model's answer was accepted or rejected by a strict "
                    "claim contract. With no command, opens the inspector on the bundled suites.",
        epilog=checks_listing() + "\n\nexit status: 0 accepted / all labels match, "
               "1 rejected / a label differs, 2 unusable input, 3 internal error (a bug: one line "
               "says what failed; --debug or INSPECTOR_DEBUG=1 prints the traceback).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"inspector {__version__}")
    parser.add_argument("--debug", action="store_true", help=DEBUG_HELP)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(commands)
    _add_debug(commands)
    return parser


def _add_debug(commands: argparse._SubParsersAction) -> None:
    """``--debug`` after every command and subcommand too; SUPPRESS keeps a --debug given before it."""
    for command in commands.choices.values():
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=DEBUG_HELP)
        for action in command._actions:
            if isinstance(action, argparse._SubParsersAction):
                _add_debug(action)
