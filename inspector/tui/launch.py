"""What the CLI calls: run the inspector, or write its screenshots."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..suites.load import Suite

if TYPE_CHECKING:
    from ..presentation.triage import TriageRun

__all__ = ["open_suites", "open_triage", "write_screenshots"]


def open_suites(suites: list[Suite]) -> int:
    """Run the inspector on these suites until the person quits; the exit status."""
    from .app import make_app

    app = make_app(suites, freeze_gc=True)
    app.run()
    return app.return_code or 0


def open_triage(run: TriageRun) -> int:
    """Run the inspector on a triage's overview until the person quits; the exit status."""
    from .app import make_triage_app

    app = make_triage_app(run)
    app.run()
    return app.return_code or 0


def write_screenshots(out_dir: Path, overwrite: bool = False) -> int:
    """Drive the real app through its main states and save an SVG of each into
    ``out_dir`` (existing ones replaced only with ``overwrite``)."""
    from .scenes import write_all

    return write_all(Path(out_dir), overwrite=overwrite)
