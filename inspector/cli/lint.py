"""``inspector registry lint``: the problems of a registry file."""

from __future__ import annotations

import argparse
from typing import Any

from ..contract.text import json_dumps, visible
from .output import EXIT_ACCEPT, EXIT_REJECT

__all__ = ["add_parser", "run"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """``registry`` and its one tool, ``lint``."""
    registry = commands.add_parser("registry", help="registry tools (lint)",
                                   description="Tools for registry files.")
    tools = registry.add_subparsers(dest="registry_command", metavar="COMMAND", required=True)
    lint = tools.add_parser(
        "lint", help="list conflicts, duplicate ids, facts missing from texts, unreachable sources",
        description="List problems in a registry: conflicting facts within one service/environment/"
                    "revision, duplicate ids, facts whose canonical line is not in the text, and "
                    "sources no request could ever be answered from.",
        epilog="exit status: 0 nothing found, 1 findings, 2 unusable input, 3 internal error.")
    lint.add_argument("registry", metavar="G", help="registry (or suite) file")
    lint.add_argument("--format", choices=("text", "json"), default="text")
    lint.set_defaults(run=run)
    return registry


def run(args: argparse.Namespace) -> int:
    from ..suites.lint import lint_registry

    findings = lint_registry(args.registry)
    if args.format == "json":
        print(json_dumps({"registry": args.registry, "findings": [f.to_dict() for f in findings]}))
    else:
        for finding in findings:
            print(visible(f"{finding.kind:<17} {', '.join(finding.sources)}: {finding.detail}"))
        print(f"{args.registry}: {len(findings)} finding(s)" if findings else f"{args.registry}: no findings")
    return EXIT_REJECT if findings else EXIT_ACCEPT
