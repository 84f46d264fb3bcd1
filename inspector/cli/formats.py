"""``inspector formats``: the built-in log formats ``inspector triage --log-format
NAME`` reads, each with where its shape is documented and a sample line from the
bundled sample of it (``fixtures/logs/formats/NAME/``); ``inspector formats NAME``
prints the preset itself, to start a team's own ``--log-format FILE.toml`` from
(``preset = "NAME"`` and only what differs).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from typing import Any

from ..contract.text import visible
from .output import EXIT_ACCEPT, error

__all__ = ["add_parser", "run"]

# What a sample line is cut to when the terminal's width is unknown.
_WIDTH = 120


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "formats", help="list the log formats inspector triage --log-format NAME reads",
        description="List the built-in log formats of inspector triage --log-format NAME (OpenAI chat "
                    "completions, responses and batches, Langfuse, Phoenix, OpenTelemetry GenAI, Inspect, "
                    "promptfoo, LangSmith): how each is read, where its shape is documented, and a sample "
                    "line. With NAME, print that preset (TOML): a team's --log-format FILE.toml starts from "
                    "it with preset = \"NAME\" and says only what differs (docs/triage.md).",
        epilog="exit status: 0 listed, 2 no such format.")
    parser.add_argument("name", nargs="?", metavar="NAME", help="print this preset's TOML")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from ..triage.formats.spec import PRESETS, preset, preset_text, sample_line
    from ..triage.mapping import LogFormatError

    if args.name is not None:
        try:
            preset(args.name)
        except LogFormatError as exc:
            return error(str(exc))
        sys.stdout.write(preset_text(args.name))
        return EXIT_ACCEPT
    width = shutil.get_terminal_size((_WIDTH, 24)).columns if sys.stdout.isatty() else _WIDTH
    for name in PRESETS:
        spec = preset(name)
        reads = {"lines": "a record a line", "document": "one JSON document",
                 "eval": "a zip of samples"}[spec.reads]
        if spec.records is not None and spec.reads == "lines":
            reads = "records in each line"
        print(f"{name}  ({reads}; {', '.join('*' + suffix for suffix in spec.suffixes)})")
        print(f"  {spec.description}")
        for source in spec.sources:
            print(f"  documented: {source}")
        found = sample_line(name)
        if found is not None:
            path, line = found
            shown = visible(" ".join(line.split()))
            room = max(20, width - 4)
            print(f"  sample ({path}): {shown[:room - 1] + '…' if len(shown) > room else shown}")
        print()
    print("inspector formats NAME prints a preset; inspector triage LOG --registry G --log-format NAME reads "
          "its logs (docs/triage.md)")
    return EXIT_ACCEPT
