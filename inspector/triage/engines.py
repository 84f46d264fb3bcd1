"""What the counting engines share: ``Progress`` (how far a triage is), ``WorkerError``
(a counting worker died), ``Interrupted`` (Ctrl-C while waiting on another machine),
``cores`` and the words for a stream that broke off.

The engines: every core of this machine (``triage.run``) and a Dask cluster
(``triage.distributed``), which ``run.triage_sides`` hands a count to when asked.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .logs import LogError, StreamBroke
from .tally import Tally

__all__ = ["Interrupted", "Progress", "WorkerError", "broken_problem", "cores"]


class WorkerError(LogError):
    """A counting worker process died while counting ``path``: how, in one line."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C while an engine waited on another machine (a scheduler, a store,
    the workers): ``what`` it was doing, in words ("while listing s3://..."),
    for the one line the command says before it exits."""

    def __init__(self, what: str) -> None:
        super().__init__(what)
        self.what = what


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


@dataclass(frozen=True, slots=True)
class Progress:
    """How far a triage is: lines and bytes counted (of ``total_bytes`` when the
    inputs have known sizes: a ``.gz`` counts compressed bytes read), seconds
    since it started, and the counts so far (without the index)."""

    lines: int
    bytes_done: int
    total_bytes: int | None
    seconds: float
    tally: Tally
    # On a cluster (``triage.distributed``): the tasks done, of ``tasks``.
    tasks_done: int | None = None
    tasks: int | None = None

    @property
    def lines_per_second(self) -> float:
        return self.lines / self.seconds if self.seconds > 0 else 0.0

    @property
    def records_per_second(self) -> float:
        """The records merged so far a second (the tally's: the first side's, in task order)."""
        return self.tally.records / self.seconds if self.seconds > 0 else 0.0


def broken_problem(exc: StreamBroke, handed: int) -> str:
    """Why a stream broke off, and the bytes of the line it cut off (not counted as a line)."""
    cut = exc.produced - handed
    if cut > 0:
        return f"{exc.problem}; the {cut:,} byte(s) of a line cut off after it are not counted"
    return exc.problem
