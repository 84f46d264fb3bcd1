"""Triage on a Dask cluster (``--engine dask``): the same counting, on many machines.

The local engine's map and merge (``triage.run``), run by ``dask.distributed``:
each log becomes tasks that the workers count themselves, reading the log where
it lies (a path they see, or an fsspec URL: ``s3://bucket/day/*.jsonl.gz``);
only the partial tallies travel back, and they are merged here in task order,
each range's line numbers shifted by the lines before it in its log, exactly as
the local engine merges them.  So the result is the local engine's.

- Tasks: a plain log is cut into byte ranges of about ``TASK_BYTES`` (a line
  belongs to the range its first byte is in: the worker finds the line starts,
  the client reads nothing); a ``.gz`` is one task (a compressed stream cannot
  be entered in the middle).  The kind is known by the name when planning and
  checked by the magic bytes when counting: a gzip file named otherwise is
  counted whole by its first range (the others find nothing), a plain file
  named ``.gz`` is counted as plain.
- The registry's sources are scattered to every worker once (``broadcast``),
  not sent with each task; each worker thread keeps the registry and its
  ``RequestCache`` across tasks.
- Every task carries the client's verifier digest (``contract.version.VERIFIER``):
  a worker computing another refuses (``ContractMismatch``), and before any
  task is sent every worker is asked for its digest: those that differ are
  named and nothing is counted.
- Faults: a task whose worker died is run again by the scheduler elsewhere (the
  tasks are pure: counts stay exact), also one done whose result died with its
  worker before it was gathered (dask's "lost", waited for again); a log a worker cannot read (gone since it
  was listed, access denied, a corrupt ``.gz``) is counted up to where it could
  be read and listed in ``Tally.broken``, the rest counted; a cancel (or Ctrl-C)
  cancels every task not done and leaves a cluster it did not start as it was.

dask, distributed and fsspec are imported here only when this engine runs
(``pip install 'claim-inspector[dask]'``; ``s3://`` needs s3fs, ``claim-inspector[s3]``).
"""

from __future__ import annotations

import importlib.util
import logging
import os
import re
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO, TypeVar

from ..contract import version
from ..contract.models import Registry, Source
from .badlines import HeldSpill, copy_spilled
from .engines import Cancel, Interrupted, Progress, Runs, WorkerError, broken_problem, cores
from .gz import Inflater
from .logs import (
    LOG_SUFFIXES,
    STDIN,
    Chunk,
    LogError,
    StreamBroke,
    check_log,
    expand_logs,
    read_gzip,
    read_problem,
    read_range,
    size_of,
)
from .records import RequestCache
from .tally import Options, Tally, tally_chunks

if TYPE_CHECKING:
    from .gz import SeekIndex
    from .table import RecordsOut

__all__ = ["CONNECT_TIMEOUT", "INSTALL", "INSTALL_S3", "MIN_TASK_BYTES", "STORAGE_DEPTH", "STORE_TIMEOUT", "TASK_BYTES",
           "ContractMismatch", "DaskEngine", "EngineError", "check_workers", "count_task", "dashboard_of", "expand_sources", "is_url", "parse_storage_options", "plan",
           "require", "task_size", "worker_digest"]

# A plain log's range a task: ~59,000 lines of ~570 bytes, 0.6 s of counting at 10.7 µs a
# line, against ~3 ms a task for the scheduler and the merge (docs/distributed.md measures both).
TASK_BYTES = 32 * 1024 * 1024
# Smaller when the logs are few for the workers (every worker eight tasks at least, so that the
# last round leaves few idle), never below this: a task of 8 MiB is still ~0.15 s of counting.
MIN_TASK_BYTES = 8 * 1024 * 1024
TASKS_PER_WORKER = 8
# Seconds a scheduler given by --scheduler has to answer (a connection and its handshake), and a
# store to list the objects of a URL or say one's size, before the triage stops and says which
# did not answer (--timeout SECONDS sets both).  A listing of a large prefix is many requests.
CONNECT_TIMEOUT = 10.0
STORE_TIMEOUT = 60.0
# How deep --storage-option may nest (KEY's dots and VALUE's objects and arrays): fsspec's options
# nest two or three (config_kwargs.retries.max_attempts); a value nested hundreds deep cannot even be
# sent to the workers (pickle runs out of stack).
STORAGE_DEPTH = 16
INSTALL = "pip install 'claim-inspector[dask]'"
INSTALL_S3 = "pip install 'claim-inspector[s3]'"
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_GLOB_MAGIC = frozenset("*?[")
_GZIP_MAGIC = b"\x1f\x8b"
_READ_AHEAD = 8 * 1024 * 1024  # an object's bytes read at a time (its lines are read 4 MiB at a time)
# A task: (kind, log, number of the log, start, end); kind "range" (a plain log's
# byte range) or "file" (a .gz, counted whole).
_Task = tuple[str, str, int, int, int]
_T = TypeVar("_T")


class EngineError(LogError):
    """The engine cannot run here (dask missing, no scheduler, workers that
    verify with another contract): what and why, in one line."""

    def __init__(self, problem: str) -> None:
        super().__init__("--engine dask", problem)


class ContractMismatch(Exception):
    """Raised by a worker whose verifier's digest is not the client's."""

    def __init__(self, worker: str, theirs: str, ours: str) -> None:
        super().__init__(worker, theirs, ours)
        self.worker, self.theirs, self.ours = worker, theirs, ours

    def __str__(self) -> str:
        return f"worker {self.worker} verifies with {self.theirs}, the client with {self.ours}"


def is_url(name: str) -> bool:
    """Whether a LOG names an object fsspec reads (``s3://...``, ``gs://...``), not a local path."""
    return bool(_URL.match(name))


def require() -> None:
    """EngineError (saying what to install) unless dask, distributed and fsspec can be imported."""
    missing = [name for name in ("dask", "distributed", "fsspec") if _spec(name) is None]
    if missing:
        raise EngineError(f"needs {', '.join(missing)}, not installed here: {INSTALL}")


def _spec(name: str) -> Any:
    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None


# -- the logs: local paths, globs, directories and fsspec URLs ------------------------------

def _local(name: str) -> str:
    return name[len("file://"):] if name.startswith("file://") else name


def _filesystem(url: str, storage_options: Mapping[str, Any]) -> tuple[Any, str]:
    """fsspec's filesystem for ``url`` and the path in it; EngineError when its
    package is missing (s3fs for s3://)."""
    import fsspec.core

    try:
        found: tuple[Any, str] = fsspec.core.url_to_fs(url, **storage_options)
        return found
    except ImportError as exc:
        protocol = url.split("://", 1)[0]
        hint = INSTALL_S3 if protocol in ("s3", "s3a") else f"fsspec says: {exc}"
        raise EngineError(f"reading {protocol}:// needs its fsspec package, not installed here: {hint}") from None
    except ValueError as exc:  # an unknown protocol
        raise LogError(url, str(exc)) from None


def _listing_problem(exc: BaseException) -> str:
    if isinstance(exc, FileNotFoundError):
        return "no such object"
    if isinstance(exc, PermissionError):
        return f"access denied ({exc})"
    return f"cannot be listed: {type(exc).__name__}: {exc}"


def expand_sources(args: Sequence[str], storage_options: Mapping[str, Any] | None = None,
                   timeout: float | None = None) -> list[str]:
    """``logs.expand_logs`` for the workers' logs: a local path, glob or
    directory as there (``file://`` too); an fsspec URL as the objects it names:
    a glob's (sorted), a prefix's (every ``LOG_SUFFIXES`` object directly under
    it), or the object itself.  LogError for a name that matches nothing, or
    whose store does not answer within ``timeout`` seconds (default
    ``STORE_TIMEOUT``); ``Interrupted`` on Ctrl-C while it is asked."""
    storage_options = storage_options or {}
    found: list[str] = []
    for arg in args:
        if not is_url(arg) or arg.startswith("file://"):
            found += expand_logs([_local(arg)])
            continue
        found += _asked(lambda arg=arg: _listed(arg, storage_options), arg, "listing", timeout)  # type: ignore[misc]  # arg bound by default
    return list(dict.fromkeys(found))


def _listed(arg: str, storage_options: Mapping[str, Any]) -> list[str]:
    """The objects a URL names, as its store lists them."""
    fs, path = _filesystem(arg, storage_options)
    try:
        if _GLOB_MAGIC & set(path):
            names = sorted(name for name, info in fs.glob(path, detail=True).items()
                           if info.get("type") != "directory")
            if not names:
                raise LogError(arg, "no object matches this pattern")
        elif fs.isdir(path):
            names = sorted(info["name"] for info in fs.ls(path, detail=True)
                           if info.get("type") != "directory" and info["name"].endswith(LOG_SUFFIXES)
                           and not info["name"].rsplit("/", 1)[-1].startswith("."))
            if not names:
                raise LogError(arg, f"holds no log ({', '.join('*' + end for end in LOG_SUFFIXES)})")
        else:
            fs.info(path)
            names = [path]
    except LogError:
        raise
    except Exception as exc:  # noqa: BLE001 - a store's errors are its own (botocore's, gcsfs')
        raise LogError(arg, _listing_problem(exc)) from None
    return [fs.unstrip_protocol(name) for name in names]


def _asked(call: Callable[[], _T], url: str, doing: str, timeout: float | None) -> _T:
    """``call()`` (a question to the store of ``url``), waited for at most
    ``timeout`` seconds (default ``STORE_TIMEOUT``).  It runs in a thread of
    its own: a store's client may retry a silent endpoint for minutes, in its
    own event loop, and this thread must stay free to give up (LogError saying
    the store did not answer) and to take Ctrl-C (``Interrupted``, saying what
    was asked).  A call given up on is left to end by itself (a daemon thread)."""
    seconds = timeout or STORE_TIMEOUT
    done = threading.Event()
    answer: list[Any] = []

    def ask() -> None:
        try:
            answer.append((True, call()))
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            answer.append((False, exc))
        finally:
            done.set()

    started = time.monotonic()
    threading.Thread(target=ask, name=f"inspector-store-{doing}", daemon=True).start()
    try:
        answered = done.wait(seconds)
    except KeyboardInterrupt:
        raise Interrupted(f"while {doing} {url} (the store had not answered after "
                          f"{time.monotonic() - started:.1f} s)") from None
    if not answered:
        raise LogError(url, f"the store did not answer within {seconds:g} s ({doing} it; --timeout SECONDS "
                            "waits longer)")
    ok, value = answer[0]
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]  # the worker's answer


def _size(name: str, storage_options: Mapping[str, Any], timeout: float | None = None) -> int:
    """The size of a log, asked here (a stat, or the store's listing): LogError if it cannot be."""
    if not is_url(name):
        check_log(name)
        return size_of(name)
    return _asked(lambda: _object_size(name, storage_options), name, "asking the size of", timeout)


def _object_size(name: str, storage_options: Mapping[str, Any]) -> int:
    fs, path = _filesystem(name, storage_options)
    try:
        info = fs.info(path)
    except Exception as exc:  # noqa: BLE001 - as above
        raise LogError(name, _listing_problem(exc)) from None
    if info.get("type") == "directory":
        raise LogError(name, "is a directory (a prefix), not a log")
    return int(info.get("size") or 0)


def plan(logs: Sequence[str], sizes: Sequence[int], task_bytes: int = TASK_BYTES) -> list[_Task]:
    """The tasks of ``logs`` (of ``sizes`` bytes), in order: a ``.gz`` (by its
    name) one task, a plain log ranges of about ``task_bytes``."""
    tasks: list[_Task] = []
    for number, (name, size) in enumerate(zip(logs, sizes)):
        if name.endswith(".gz") or size <= task_bytes:
            tasks.append(("file", name, number, 0, size))
            continue
        parts = -(-size // task_bytes)
        tasks += [("range", name, number, size * part // parts, size * (part + 1) // parts) for part in range(parts)]
    return tasks


def task_size(sizes: Sequence[int], workers: int) -> int:
    """The bytes of a plain log's range a task: ``TASK_BYTES``, or less so
    that every worker has ``TASKS_PER_WORKER`` tasks, at least ``MIN_TASK_BYTES``."""
    return max(MIN_TASK_BYTES, min(TASK_BYTES, -(-sum(sizes) // (TASKS_PER_WORKER * max(1, workers)))))


# -- on a worker --------------------------------------------------------------------------

# Per scattered registry and worker thread: (the sources, the registry, its RequestCache).
_HELD: dict[tuple[int, int], tuple[Any, Registry, RequestCache]] = {}
_HELD_LOCK = threading.Lock()


def _worker_registry(sources: tuple[Source, ...]) -> tuple[Registry, RequestCache]:
    key = (id(sources), threading.get_ident())
    with _HELD_LOCK:
        held = _HELD.get(key)
        if held is None or held[0] is not sources:
            if len(_HELD) >= 16:
                _HELD.clear()
            registry = Registry(sources)
            held = _HELD[key] = (sources, registry, RequestCache(registry))
    return held[1], held[2]


def _worker_name() -> str:
    try:
        from distributed import get_worker

        return str(get_worker().address)
    except (ImportError, ValueError):
        return f"pid {os.getpid()}"


def worker_digest() -> str:
    """This process's verifier digest (asked of every worker before counting)."""
    return version.VERIFIER


class _Source:
    """A log opened on a worker: ``pread(size, offset)`` and its ``size``."""

    def __init__(self, name: str, storage_options: Mapping[str, Any]) -> None:
        self.file: Any = None
        self.fd: int | None = None
        if is_url(name):
            fs, path = _filesystem(name, storage_options)
            self.file = fs.open(path, "rb", block_size=_READ_AHEAD, cache_type="readahead")
            self.size = int(self.file.size)
        else:
            from ..io.reading import ReadError, open_regular

            try:
                self.fd = open_regular(name)
            except ReadError as exc:
                raise LogError(name, exc.problem) from None
            self.size = os.fstat(self.fd).st_size

    def pread(self, size: int, offset: int) -> bytes:
        if self.fd is not None:
            return os.pread(self.fd, size, offset)
        self.file.seek(offset)
        return bytes(self.file.read(size))

    def close(self) -> None:
        if self.fd is not None:
            os.close(self.fd)
        elif self.file is not None:
            self.file.close()


def count_task(task: _Task, sources: tuple[Source, ...], options: Options, digest: str,
               storage_options: Mapping[str, Any], spill: bool = False) -> tuple[Tally, bytes | None]:
    """Count one task on a worker: its tally (line numbers from 1 in its range)
    and, with ``spill``, its bad lines as a spill's bytes.  ``ContractMismatch``
    when this worker's verifier is not ``digest``."""
    mine = version.VERIFIER
    if mine != digest:
        raise ContractMismatch(_worker_name(), mine, digest)
    registry, requests = _worker_registry(sources)
    kind, name, _, start, end = task
    held = HeldSpill() if spill else None
    broke: list[str] = []
    try:
        source = _Source(name, storage_options)
    except LogError as exc:
        return _unreadable(name, exc.problem, held)
    except Exception as exc:  # noqa: BLE001 - a store's errors are its own
        return _unreadable(name, _listing_problem(exc), held)
    try:
        try:
            gzipped = source.pread(2, 0) == _GZIP_MAGIC
        except Exception as exc:  # noqa: BLE001
            return _unreadable(name, read_problem(exc), held)
        if gzipped:
            if start > 0:  # a gzip log planned as ranges (by its name): its first range counts it
                return Tally(), None
            inflater = Inflater(-1, pread=source.pread, size=lambda: source.size)
            chunks = read_gzip(name, inflater)
        else:
            chunks = read_range(source.pread, start, end)  # the size listed: what the local engine counts
        tally = tally_chunks(name, _until_broken(chunks, broke), registry, options, 1, requests, held)
    finally:
        source.close()
    if broke:
        tally.broken.append((name, tally.lines, broke[0]))
    return tally, bytes(held.data) if held is not None and held.data else None


def _unreadable(name: str, problem: str, held: HeldSpill | None) -> tuple[Tally, bytes | None]:
    tally = Tally()
    tally.broken.append((name, 0, f"cannot be read: {problem}"))
    return tally, None


def _until_broken(chunks: Iterator[Chunk], broke: list[str]) -> Iterator[Chunk]:
    """``chunks`` until the log breaks off (a corrupt ``.gz``, a read error): why is put in ``broke``."""
    handed = 0  # the offset just past the lines handed out
    try:
        for chunk in chunks:
            yield chunk
            offset, data, length = chunk
            handed = offset + length + (1 if data is None else 0)
    except StreamBroke as exc:
        broke.append(broken_problem(exc, handed))
    except LogError as exc:
        broke.append(exc.problem)
    except Exception as exc:  # noqa: BLE001 - a store's read errors (OSError, botocore's)
        broke.append(f"cannot read further: {read_problem(exc)}")


# -- the client ----------------------------------------------------------------------------

class _Connection:
    """A client on the cluster at ``scheduler``, or on a LocalCluster started
    here (``workers`` processes, a thread each); the LocalCluster is closed at
    the end, a cluster given is left as it was (only this run's tasks and data
    go with the client)."""

    def __init__(self, client: Any, scheduler: str | None, workers: int | None, dashboard: bool,
                 timeout: float | None = None) -> None:
        self.given = client
        self.scheduler = scheduler
        self.workers = workers
        self.dashboard = dashboard
        self.timeout = timeout or CONNECT_TIMEOUT
        self.client: Any = None
        self.cluster: Any = None

    def __enter__(self) -> Any:
        if self.given is not None:
            return self.given
        require()
        from distributed import Client, LocalCluster

        if self.scheduler is not None:
            try:
                self.client = _bounded_client(self.scheduler, self.timeout)
            except KeyboardInterrupt:
                raise Interrupted(f"while waiting for the scheduler at {self.scheduler} to answer") from None
            except TimeoutError:
                refused = _refused(self.scheduler)
                if refused is not None:
                    raise EngineError(f"cannot connect to the scheduler at {self.scheduler}: {refused} (tried for "
                                      f"{self.timeout:g} s)") from None
                raise EngineError(f"the scheduler at {self.scheduler} did not answer within {self.timeout:g} s "
                                  "(--timeout SECONDS waits longer)") from None
            except (OSError, ValueError) as exc:
                raise EngineError(f"cannot connect to the scheduler at {self.scheduler}: {exc}") from None
            return self.client
        # The scheduler's HTTP server always runs: on a free port, never a fixed one that another
        # cluster on this machine holds.
        logging.getLogger("distributed").setLevel(logging.ERROR)
        _start_resource_tracker()
        self.cluster = LocalCluster(n_workers=self.workers or cores(), threads_per_worker=1, processes=True,
                                    dashboard_address="127.0.0.1:0", silence_logs=logging.ERROR)
        self.client = Client(self.cluster, set_as_default=False)
        return self.client

    def __exit__(self, *exc: object) -> None:
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _bounded_client(address: str, seconds: float) -> Any:
    """A client of the scheduler at ``address``, connected within ``seconds``
    or TimeoutError.  distributed bounds the connection by its ``timeout`` but
    then waits for the scheduler's handshake without one: the whole start is
    bounded here (``Client.start`` hands ``callback_timeout`` to
    ``distributed.utils.sync``, which cancels the start when it runs out)."""
    from distributed import Client

    class BoundedClient(Client):
        def start(self, **kwargs: Any) -> None:
            super().start(callback_timeout=seconds, **kwargs)  # type: ignore[no-untyped-call]  # distributed's, unannotated

    return BoundedClient(address, timeout=seconds, set_as_default=False)  # type: ignore[no-untyped-call]  # Client's __init__


def _refused(address: str) -> str | None:
    """Why a TCP connection to a scheduler's ``tcp://`` address cannot be made
    (None when one can: the scheduler is there, and silent; or another kind of
    address).  Asked once its start ran out of time, to say which it was."""
    import socket

    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme != "tcp":
            return None
        host, port = parse_host_port(location)
        socket.create_connection((host, port), timeout=2).close()
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    except ValueError:
        return None
    return None


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker (the LocalCluster's worker
    processes need it) with a real standard error: it passes on the
    descriptor, and under the inspector's UI standard error is Textual's
    capture, whose descriptor is -1 (the workers would fail to start)."""
    from multiprocessing import resource_tracker

    stderr = sys.stderr
    try:
        if stderr is not None and stderr.fileno() >= 0:
            return
    except (OSError, ValueError, AttributeError):
        pass
    sys.stderr = sys.__stderr__
    try:
        resource_tracker.ensure_running()
    finally:
        sys.stderr = stderr


def dashboard_of(client: Any) -> str | None:
    """The cluster's dashboard address, when it has one."""
    try:
        if "dashboard" not in client.scheduler_info().get("services", {}):
            return None
        # The scheduler's HTTP server runs without bokeh, with no dashboard pages to link to.
        if not client.run_on_scheduler(lambda: importlib.util.find_spec("bokeh") is not None):
            return None
        link: str | None = client.dashboard_link
        return link
    except Exception:  # noqa: BLE001 - a link is a courtesy
        return None


def check_workers(client: Any, digest: str) -> None:
    """EngineError naming every worker that cannot count for this client: one
    that verifies with another contract, or cannot run inspector at all."""
    try:
        found = client.run(worker_digest, on_error="return")
    except Exception as exc:  # noqa: BLE001 - the cluster's own failure
        raise EngineError(f"the workers cannot run inspector's counting ({type(exc).__name__}: {exc}); "
                          f"install inspector, the same version as here, on every worker") from None
    if not found:
        raise EngineError("the cluster has no worker")
    broken = {worker: answer for worker, answer in found.items() if not isinstance(answer, str)}
    if broken:
        worker, answer = sorted(broken.items())[0]
        raise EngineError(f"{len(broken)} worker(s) cannot run inspector's counting ({worker}: "
                          f"{type(answer).__name__}: {answer}); install inspector on every worker, the same version "
                          "as here; nothing was counted")
    other = {worker: answer for worker, answer in found.items() if answer != digest}
    if other:
        raise EngineError(_mismatch(other, digest))


def _mismatch(other: Mapping[str, str], digest: str) -> str:
    said = ", ".join(f"{worker} verifies with {theirs}" for worker, theirs in sorted(other.items()))
    return (f"{said}; this client verifies with {digest}: every worker must run the same contract "
            "(install the same inspector everywhere); nothing was counted")


@dataclass(frozen=True)
class DaskEngine:
    """A Dask cluster (``--engine dask``): ``scheduler``, the address of a running
    cluster's scheduler (``tcp://host:8786``); without it (and without ``client``,
    a ``distributed.Client`` to use as it is), a LocalCluster of ``workers``
    processes (default: every core) is started here and closed at the end.
    ``storage_options``: fsspec's options for the logs at URLs (``--storage-option``).
    ``timeout``: the seconds the scheduler (default ``CONNECT_TIMEOUT``) and the
    store of a URL (default ``STORE_TIMEOUT``) each have to answer before the
    triage stops saying which did not (EngineError, LogError).  ``task_bytes``: a
    plain log's range a task (default ``TASK_BYTES``, less when that would leave
    a worker fewer than eight tasks: ``task_size``).  ``dashboard``: whether the
    dashboard's address is told (``on_notice``)."""

    scheduler: str | None = None
    storage_options: Mapping[str, Any] = field(default_factory=dict)
    timeout: float | None = None
    workers: int | None = None
    client: Any = None
    dashboard: bool = True
    task_bytes: int | None = None
    progress_every: float = 0.25

    def count_runs(self, runs: Runs, registry: Registry, *,
                   on_progress: Callable[[Progress], None] | None = None, cancel: Cancel | None = None,
                   on_notice: Callable[[str], None] | None = None, bad_lines: BinaryIO | None = None,
                   spill_dir: str | os.PathLike[str] | None = None, records: RecordsOut | None = None,
                   stdin: BinaryIO | None = None, indexes: dict[str, SeekIndex] | None = None,
                   ends: Mapping[str, int] | None = None) -> list[Tally]:
        """``run.LocalEngine.count_runs`` on the cluster: the same tallies.  The bad
        lines (``bad_lines``) come back with each task's tally (``spill_dir`` is not
        needed); a ``.gz``'s restart points (``indexes``) stay where the workers
        decompressed it.  ValueError for ``records``, ``stdin`` or ``ends`` (the
        local engine's only).  Ctrl-C raises ``Interrupted``, which says what the
        engine was waiting for; a cluster started here is closed and the tasks not
        done are cancelled first."""
        if records is not None:
            raise ValueError("the dask engine writes no records' rows (--records): count with the local engine")
        if stdin is not None or ends is not None:
            raise ValueError("the dask engine reads files and URLs: no standard input, no ends")
        return _count_runs(runs, registry, scheduler=self.scheduler, client=self.client, workers=self.workers,
                           on_progress=on_progress, cancel=cancel, task_bytes=self.task_bytes,
                           progress_every=self.progress_every, bad_lines=bad_lines,
                           storage_options=self.storage_options, on_notice=on_notice, dashboard=self.dashboard,
                           timeout=self.timeout)


def _count_runs(runs: Runs, registry: Registry, *, scheduler: str | None, client: Any, workers: int | None,
                on_progress: Callable[[Progress], None] | None, cancel: Cancel | None,
                task_bytes: int | None, progress_every: float, bad_lines: BinaryIO | None,
                storage_options: Mapping[str, Any], on_notice: Callable[[str], None] | None, dashboard: bool,
                timeout: float | None) -> list[Tally]:
    """``DaskEngine.count_runs`` with its settings."""
    storage_options = dict(storage_options or {})
    logs = [name for run_logs, _ in runs for name in run_logs]
    run_of = [number for number, (run_logs, _) in enumerate(runs) for _ in run_logs]
    options_of = [run_options for run_logs, run_options in runs for _ in run_logs]
    options = runs[0][1]
    if STDIN in logs:
        raise EngineError("standard input (-) cannot be read by the cluster's workers: give the log's path or URL, "
                          "or count it with the local engine")
    logs = [_local(name) for name in logs]
    sizes = [_size(name, storage_options, timeout) for name in logs]
    tasks: list[_Task] = []
    total = sum(sizes)
    digest = version.VERIFIER
    started = time.monotonic()
    results = [Tally() for _ in runs]
    result = results[0]
    spilling = len(runs[0][0])
    limit = options.limit if options.stop_at_limit else None
    counted = {"lines": 0, "bytes": 0, "tasks": 0}
    place = [-1, 0]  # the log being merged, and its lines so far

    def report(now: float) -> None:
        if on_progress is not None:
            on_progress(Progress(counted["lines"], counted["bytes"], total, now - started, result,
                                 tasks_done=counted["tasks"], tasks=len(tasks)))

    def take(task: _Task, tally: Tally, spilled: bytes | None) -> None:
        if task[2] != place[0]:
            place[0], place[1] = task[2], 0
        shift = place[1]
        if spilled is not None and bad_lines is not None:
            copy_spilled(spilled, task[1], shift, bad_lines)
        tally.shift(shift)
        place[1] += tally.lines
        results[run_of[task[2]]].add(tally)

    connection = _Connection(client, scheduler, workers, dashboard, timeout)
    # What the engine is doing, for the line Ctrl-C is said with.
    doing = ["starting a LocalCluster here" if client is None and scheduler is None else
             f"waiting for the scheduler at {scheduler}" if client is None else "asking the cluster for its workers"]
    try:
        with connection as client:
            doing[0] = "asking the cluster for its workers and their contract"
            link = dashboard_of(client) if connection.dashboard else None
            if link and on_notice is not None:
                on_notice(f"the cluster's dashboard: {link}")
            check_workers(client, digest)
            tasks += plan(logs, sizes, task_bytes or task_size(sizes, len(client.scheduler_info()["workers"])))
            run = uuid.uuid4().hex[:12]
            doing[0] = "sending the registry to the workers"
            scattered = client.scatter([registry.sources], broadcast=True, hash=False)[0]
            futures: dict[str, tuple[int, Any]] = {}
            doing[0] = "counting on the cluster"
            try:
                # One message for every task (a submit each costs a round of the client's loop).
                submitted = client.map(count_task, tasks, [scattered] * len(tasks),
                                       [options_of[task[2]] for task in tasks], [digest] * len(tasks),
                                       [storage_options] * len(tasks),
                                       [bad_lines is not None and task[2] < spilling for task in tasks],
                                       key=[f"inspector-triage-{run}-{number}" for number in range(len(tasks))],
                                       pure=False)
                futures.update((future.key, (number, future)) for number, future in enumerate(submitted))
                del submitted
                with client.as_current():  # distributed.wait asks for the current client
                    _collect(client, tasks, futures, take, counted, report, progress_every, cancel,
                             lambda: limit is not None and len(result.collected) >= limit)
            finally:
                if futures:  # cancelled, stopped at the limit, interrupted or failed: the rest go
                    client.cancel([future for _, future in futures.values()])
                futures.clear()
                client.cancel([scattered])
    except Interrupted:
        raise
    except KeyboardInterrupt:
        counting = doing[0] == "counting on the cluster"
        raise Interrupted(f"while {doing[0]}" + (f": {counted['tasks']:,} of {len(tasks):,} tasks done, the others "
                                                  "cancelled" if counting else "")) from None
    report(time.monotonic())
    return results


def _collect(client: Any, tasks: Sequence[_Task], futures: dict[str, tuple[int, Any]],
             take: Callable[[_Task, Tally, bytes | None], None], counted: dict[str, int],
             report: Callable[[float], None], progress_every: float, cancel: Cancel | None,
             full: Callable[[], bool]) -> None:
    """Gather the tasks' results as they complete and merge them in task order."""
    from distributed import wait

    done: dict[int, tuple[Tally, bytes | None]] = {}
    merged = 0
    reported = time.monotonic()
    while futures:
        if cancel is not None and cancel.is_set():
            return
        try:
            finished = wait([future for _, future in futures.values()], timeout=max(progress_every, 0.05),
                            return_when="FIRST_COMPLETED").done
        except TimeoutError:
            finished = set()
        # A result lost with its worker since the wait ("lost"; "pending" once dask retries it) is
        # computed again by the scheduler: still to come, waited for in the next round.
        good = [future for future in finished if future.status == "finished"]
        for future in finished:
            if future.status in ("error", "cancelled"):
                _failed(future, tasks[futures[future.key][0]], [future for _, future in futures.values()])
        for future, answer in zip(good, client.gather(good) if good else ()):
            number, _ = futures.pop(future.key)
            done[number] = answer
            counted["tasks"] += 1
            counted["lines"] += answer[0].lines
            counted["bytes"] += tasks[number][4] - tasks[number][3]
        while merged in done:
            take(tasks[merged], *done.pop(merged))
            merged += 1
            if full():
                return
        now = time.monotonic()
        if now - reported >= progress_every:
            reported = now
            report(now)


def _failed(future: Any, task: _Task, every: Sequence[Any]) -> None:
    """Why a task did not finish, raised: a worker with another contract
    (every worker that said so named), a worker that died too often, or the error itself."""
    from distributed import KilledWorker

    exc = future.exception() if future.status == "error" else None
    if isinstance(exc, ContractMismatch):
        others = {exc.worker: exc.theirs}
        for other in every:
            if other.status == "error" and isinstance(other.exception(), ContractMismatch):
                found = other.exception()
                others[found.worker] = found.theirs
        raise EngineError(_mismatch(others, exc.ours)) from None
    if isinstance(exc, KilledWorker):
        last = getattr(exc.last_worker, "address", exc.last_worker)
        raise WorkerError(task[1], f"the workers counting it died again and again (the last {last}, past "
                                   f"{exc.allowed_failures} failures, dask's distributed.scheduler.allowed-failures); "
                                   "nothing is reported: give the workers more memory") from None
    if exc is not None:
        raise exc
    raise EngineError(f"a task of {task[1]} was cancelled on the cluster (by someone else?); nothing is reported")


def parse_storage_options(items: Sequence[str]) -> dict[str, Any]:
    """``--storage-option KEY=VALUE`` as fsspec's storage options: a value read
    as JSON when it is JSON (``true``, ``5``, ``{"a": 1}``), else the text;
    a dotted KEY nests (``client_kwargs.endpoint_url=...``).  ValueError for
    an item without ``=``, or nesting deeper than ``STORAGE_DEPTH`` levels
    (KEY's dots and VALUE's objects and arrays together)."""
    import json

    from ..contract.text import shorten, visible

    found: dict[str, Any] = {}
    for item in items:
        key, equals, text = item.partition("=")
        if not equals or not key:
            raise ValueError(f"--storage-option {item!r}: write KEY=VALUE (anon=true, "
                             "client_kwargs.endpoint_url=http://127.0.0.1:9000)")
        *parents, last = key.split(".")
        try:
            value = json.loads(text)
        except RecursionError:
            value = None
            depth = STORAGE_DEPTH + 1
        except ValueError:
            value = text
            depth = 0
        else:
            depth = _depth(value)
        if len(parents) + depth > STORAGE_DEPTH:
            raise ValueError(f"--storage-option {shorten(visible(key), 80)}: nested deeper than {STORAGE_DEPTH} "
                             "levels (KEY's dots and VALUE's objects and arrays); fsspec's options nest a few")
        where = found
        for parent in parents:
            where = where.setdefault(parent, {})
            if not isinstance(where, dict):
                raise ValueError(f"--storage-option {item!r}: {parent} is already a value")
        where[last] = value
    return found


def _depth(value: Any) -> int:
    """How many objects and arrays deep a decoded JSON value is (iteratively: no stack to run out of)."""
    deepest = 0
    waiting = [(value, 0)]
    while waiting:
        value, depth = waiting.pop()
        if isinstance(value, dict | list):
            depth += 1
            deepest = max(deepest, depth)
            waiting += [(child, depth) for child in (value.values() if isinstance(value, dict) else value)]
    return deepest
