"""``inspector checks``: the contract's checks in contract order (text, or the README's table)."""

from __future__ import annotations

import argparse
from typing import Any

from ..contract.checks import CHECKS, REASONS
from .output import EXIT_ACCEPT

__all__ = ["add_parser", "checks_listing", "checks_markdown", "checks_text", "run"]


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser("checks", help="list the checks in contract order",
                                 description="List the contract's checks, sub-reasons and fix hints.")
    parser.add_argument("--format", choices=("text", "markdown"), default="text")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    print(checks_markdown() if args.format == "markdown" else checks_text())
    return EXIT_ACCEPT


def checks_listing() -> str:
    """The checks as ``inspector --help`` lists them, stage by stage."""
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
    """The table of checks of the README and docs/contract.md (a test keeps both in step with it)."""
    def cell(text: str) -> str:
        return text.replace("|", "\\|")

    lines = ["| # | stage | check | fails as | what passes | rule |", "|---|---|---|---|---|---|"]
    for number, check in enumerate(CHECKS, 1):
        fails = check.code + (f" ({', '.join(check.reasons)})" if check.reasons else "")
        rule = f"`{cell(check.rule)}`" if check.rule else ""
        lines.append(f"| {number} | {int(check.stage)} {check.stage.title} | {check.title} | {fails} | "
                     f"{cell(check.explanation)} | {rule} |")
    return "\n".join(lines)
