"""Where an HTML report goes (``audit`` and ``triage`` with ``--format html``): the new
file ``--out FILE`` names, written whole or not at all and never over anything
(``io.writing.create_files``), or standard output."""

from __future__ import annotations

import sys
from pathlib import Path

from ..contract.text import visible
from ..io.writing import WriteError, check_new_file, create_files

__all__ = ["out_problem", "write_report"]


def out_problem(out: Path | None) -> str | None:
    """Why ``--out FILE`` cannot take the page (checked before the work): it exists, its folder does not."""
    if out is None:
        return None
    try:
        check_new_file(out)
    except WriteError as exc:
        return f"--out {exc.path}: {exc.reason} (with --format html, --out takes a new file)"
    except ValueError as exc:
        return f"--out {out}: {exc}"
    return None


def write_report(out: Path | None, page: str) -> str | None:
    """The page into the new file ``out`` (one line says so) or onto standard output; the problem, if any."""
    if out is None:
        sys.stdout.write(page)
        return None
    try:
        create_files({out: page.encode("utf-8")})
    except WriteError as exc:
        return f"--out {exc.path}: {exc.reason}; nothing was written"
    print(visible(f"wrote {out}"))
    return None
