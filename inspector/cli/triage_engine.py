"""``inspector triage --engine dask``: the options of the engine that counts, checked and handed over.

The local engine (every core of this machine, ``triage.run``) is the default;
``--engine dask`` counts on a Dask cluster (``triage.distributed``): a
LocalCluster started here, or the cluster whose scheduler ``--scheduler``
names.  Its logs may be fsspec URLs (``s3://bucket/day/*.jsonl.gz``), read by
the workers, ``--storage-option KEY=VALUE`` adding to the store's own
configuration; ``--timeout SECONDS`` bounds the wait for the scheduler and
the store.  Nothing of dask is imported unless it is asked for.
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..triage.engines import Engine

__all__ = ["add_engine_arguments", "engine_of", "engine_problem", "expand"]

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")  # triage.distributed.is_url's, without importing it
# triage.distributed's CONNECT_TIMEOUT and STORE_TIMEOUT (a test holds them equal), written out so
# that building the parser imports no engine.
CONNECT_TIMEOUT = 10.0
STORE_TIMEOUT = 60.0


def add_engine_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", choices=("local", "dask"), default="local",
                        help="local: every core of this machine (default); dask: a Dask cluster (a LocalCluster "
                             "here, or --scheduler's), whose workers read the logs themselves")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="with --engine dask: the cluster's scheduler (tcp://host:8786); default: a LocalCluster")
    parser.add_argument("--storage-option", action="append", default=[], metavar="KEY=VALUE",
                        help="with --engine dask: an fsspec storage option for URLs (anon=true, "
                             "client_kwargs.endpoint_url=URL); repeatable")
    parser.add_argument("--timeout", metavar="SECONDS",
                        help=f"with --engine dask: how long the scheduler (default {CONNECT_TIMEOUT:g}) and the "
                             f"logs' store (listing, default {STORE_TIMEOUT:g}) may take to answer before the triage "
                             "stops, saying which did not")


def _urls(args: argparse.Namespace) -> list[str]:
    return [name for name in [*args.logs, *(args.against or ())] if _URL.match(name)]


def engine_problem(args: argparse.Namespace, headless: bool) -> str | None:
    """Why the engine options cannot be used as given (one line), before anything is read."""
    dask = args.engine == "dask"
    urls = [name for name in _urls(args) if not name.startswith("file://")]
    if not dask:
        if urls:
            return f"{urls[0]}: a URL is read by the workers of --engine dask; the local engine reads files"
        for option, given in (("--scheduler", args.scheduler), ("--storage-option", args.storage_option),
                              ("--timeout", args.timeout)):
            if given:
                return f"{option} is of --engine dask"
        return None
    if getattr(args, "records", None) is not None:
        return ("--records is not available with --engine dask (the cluster's workers would send every row back "
                "over the network): count with the local engine")
    from ..triage.distributed import EngineError, require

    try:
        require()
    except EngineError as exc:
        return str(exc)
    if args.follow:
        return "--follow follows logs on this machine: without --engine dask"
    if "-" in [*args.logs, *(args.against or ())]:
        return "--engine dask: standard input (-) cannot be read by the cluster's workers; give the log's path or URL"
    if args.scheduler is not None and args.workers is not None:
        return "--workers starts the LocalCluster's workers: a cluster given with --scheduler has its own"
    if urls and not headless:
        return ("the inspector rereads records from their file: logs at URLs are counted headless only "
                "(add --summary or --format json)")
    if args.timeout is not None and _timeout(args) is None:
        return f"--timeout takes seconds, a number above 0 (30, 2.5), not {args.timeout!r}"
    try:
        _storage_options(args)
    except ValueError as exc:
        return str(exc)
    return None


def _timeout(args: argparse.Namespace) -> float | None:
    """--timeout's seconds (None when not given, or not a number above 0)."""
    try:
        seconds = float(args.timeout)
    except (TypeError, ValueError):
        return None
    return seconds if math.isfinite(seconds) and seconds > 0 else None


def _storage_options(args: argparse.Namespace) -> dict[str, Any]:
    from ..triage.distributed import parse_storage_options

    return parse_storage_options(args.storage_option)


def expand(args: argparse.Namespace, names: Sequence[str], suffixes: Sequence[str] | None = None) -> list[str]:
    """The logs LOG arguments name: for the dask engine, URLs too (listed in their store).
    ``suffixes``: what a directory holds of a --log-format preset's logs."""
    if args.engine != "dask":
        from ..triage.logs import expand_logs

        return expand_logs(names, tuple(suffixes) if suffixes else None)
    from ..triage.distributed import expand_sources

    return expand_sources(names, _storage_options(args), _timeout(args))


def engine_of(args: argparse.Namespace) -> Engine:
    """The engine the flags describe: the local engine of ``--workers``, or ``--engine dask``'s cluster."""
    if args.engine != "dask":
        from ..triage.run import LocalEngine

        return LocalEngine(workers=args.workers)
    from ..triage.distributed import DaskEngine

    return DaskEngine(scheduler=args.scheduler, storage_options=_storage_options(args),
                      timeout=_timeout(args) if args.timeout is not None else None, workers=args.workers)
