"""What the counting engines share: ``Engine`` (what counts the runs of a triage),
``Progress`` (how far a triage is), ``WorkerError`` (a counting worker died),
``Interrupted`` (Ctrl-C while waiting on another machine), ``cores`` and the words
for a stream that broke off.

The engines, each its settings a frozen dataclass with ``count_runs``: every core
of this machine (``run.LocalEngine``) and a Dask cluster (``distributed.DaskEngine``).
A triage is given one (``run.triage_runs``, ``job.run_job``), as a database
client is given an adapter; none is picked by name.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO, Protocol

from .logs import LogError, StreamBroke
from .tally import Options, Tally

if TYPE_CHECKING:
    from ..contract.models import Registry
    from .gz import SeekIndex
    from .table import RecordsOut

__all__ = ["Cancel", "Engine", "Interrupted", "Progress", "Runs", "WorkerError", "broken_problem", "cores"]

# The runs of a triage: each its logs (in order) and the options they are counted with
# (``--against``: the logs, then the logs compared with).
Runs = Sequence[tuple[Sequence[str], Options]]


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
        """The records merged so far a second (the tally's: the first run's, in task order)."""
        return self.tally.records / self.seconds if self.seconds > 0 else 0.0


def broken_problem(exc: StreamBroke, handed: int) -> str:
    """Why a stream broke off, and the bytes of the line it cut off (not counted as a line)."""
    cut = exc.produced - handed
    if cut > 0:
        return f"{exc.problem}; the {cut:,} byte(s) of a line cut off after it are not counted"
    return exc.problem


class Cancel(Protocol):
    """What stops a count between its tasks: a ``threading.Event``, or anything with its ``is_set``."""

    def is_set(self) -> bool: ...


class Engine(Protocol):
    """What counts a triage: its settings (a frozen dataclass, ``task_bytes`` among
    them: None for the engine's default) and ``count_runs``."""

    @property
    def task_bytes(self) -> int | None: ...

    def count_runs(self, runs: Runs, registry: Registry, *,
                   on_progress: Callable[[Progress], None] | None = None, cancel: Cancel | None = None,
                   on_notice: Callable[[str], None] | None = None, bad_lines: BinaryIO | None = None,
                   spill_dir: str | os.PathLike[str] | None = None, records: RecordsOut | None = None,
                   stdin: BinaryIO | None = None, indexes: dict[str, SeekIndex] | None = None,
                   ends: Mapping[str, int] | None = None) -> list[Tally]:
        """Count every line of each run's logs into a tally a run (``run.LocalEngine.count_runs`` says how);
        ValueError for what this engine cannot do (``records``, ``stdin``, ``ends`` on a cluster)."""
        ...
