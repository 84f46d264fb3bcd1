"""``inspector screenshots``: the SVG screenshots of the README and docs/, from the real app."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser("screenshots", help="regenerate the SVG screenshots of the README and docs",
                                 description="Drive the real app and save SVG screenshots.")
    parser.add_argument("out", nargs="?", default="screenshots", type=Path, metavar="DIR")
    parser.add_argument("--overwrite", action="store_true", help="replace existing SVG files in DIR")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from ..tui.launch import write_screenshots

    return write_screenshots(args.out, overwrite=args.overwrite)
