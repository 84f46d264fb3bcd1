"""``inspector synth``: a synthetic log of answers with the known mix the tests and
benchmarks use (``inspector.triage.synth``), and with ``--registry`` the registry
it is written against.  ``--shape`` writes the same records as services log
them (an OpenAI-style chat completion, an application's envelope), for the
mapping flags of ``inspector triage`` (docs/triage.md).

Nothing is ever replaced: LOG and G must not exist.  Both are written beside
their final names, synced and linked into place together (``io.writing``), so
a full disk or an interrupted run leaves neither behind, and a file put there
meanwhile is never written through.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any, BinaryIO

from ..contract.text import visible
from ..io.writing import Contents, WriteError, create_files
from .output import EXIT_ACCEPT, error

__all__ = ["add_parser", "run"]

# The generator's shapes (triage.synth.SHAPES: a test holds them equal), written
# out so that building the parser imports no engine.
SHAPES = ("plain", "openai", "envelope")


def add_parser(commands: Any) -> argparse.ArgumentParser:
    parser = commands.add_parser(
        "synth", help="write a synthetic log of answers (the known mix the tests use)",
        description="Write a JSON-lines log of N lines from the synthetic generator the tests and "
                    "benchmarks use: about 80% of the answers strict JSON, every rejection code, one "
                    "record in ten whose retrieval missed the current document, metadata (id, ts, model, "
                    "prompt_version) and a few bad lines of every kind; the same seed gives the same "
                    "log. With --registry, also the registry the log is written against, for "
                    "inspector triage LOG --registry G. --shape writes the same records as services log "
                    "them: openai, an OpenAI-style chat completion a line (the answer at "
                    "response.choices.0.message.content, the request at ctx.request, created, id, model); "
                    "envelope, an application's envelope (@timestamp, llm.raw, the answer logged as JSON "
                    "where it is a JSON object on one line, llm.request with a trace_id, metadata.model "
                    "and metadata's prompt.version). For one seed every shape counts the same once read "
                    "with its mapping (inspector triage --log-format, docs/triage.md).",
        epilog="LOG and G must not exist: synth creates them, and never replaces or writes through a "
               "file, nor writes inside the bundled fixtures. exit status: 0 written, 2 unusable "
               "arguments (LOG or G exists or is inside the bundled fixtures, a missing or unwritable "
               "directory, N below 1), 3 internal error.")
    parser.add_argument("log", metavar="LOG", help="the log file to create (a name ending in .gz is gzipped)")
    what = parser.add_mutually_exclusive_group(required=True)
    what.add_argument("--lines", type=int, metavar="N",
                      help="lines to write, records and bad lines together (or --items)")
    what.add_argument("--items", type=int, metavar="N",
                      help="instead of --lines: N items (an item member each), every model answering each "
                           "--trials times, each model as flaky as it is (gpt-x least, llama-z most); no bad line")
    parser.add_argument("--trials", type=int, default=1, metavar="K", help="with --items: each model's trials of "
                                                                            "an item (default: 1)")
    parser.add_argument("--worse", metavar="MODEL:SHARE",
                        help="with --items: MODEL rejects SHARE of the items it usually gets right (which ones: "
                             "--seed); the same items and usual answers otherwise, to compare with --against")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="the generator's seed (default: 0)")
    parser.add_argument("--registry", metavar="G", help="also create the generator's registry file G")
    parser.add_argument("--gz", action="store_true", help="gzip the log, whatever its name")
    parser.add_argument("--shape", choices=SHAPES, default="plain",
                        help="how each line holds its record (default: plain, the members triage reads "
                             "without a mapping: raw, request, ts, id, model, prompt_version)")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    from ..triage.synth import registry_json, write_log

    from ..triage.synth import parse_worse

    worse = None
    if args.items is None:
        if args.lines < 1:
            return error(f"--lines N takes a positive N, not {args.lines}")
        if args.worse is not None or args.trials != 1:
            return error("--trials and --worse go with --items N")
    else:
        if args.items < 1 or args.trials < 1:
            return error("--items N and --trials K take positive numbers")
        if args.worse is not None:
            try:
                worse = parse_worse(args.worse)
            except ValueError as exc:
                return error(f"--worse: {exc}")
    if args.log == "-" or args.registry == "-":
        return error("synth writes files, not standard output: give LOG (and G) a file name")
    log = Path(args.log)
    registry = Path(args.registry) if args.registry is not None else None
    if registry is not None and os.path.abspath(log) == os.path.abspath(registry):
        return error(f"{log}: LOG and --registry G name the same file")
    gz = args.gz or log.name.endswith(".gz")
    mixes = []

    def write(out: BinaryIO) -> None:
        mixes.append(write_log(out, args.lines or 0, args.seed, gz=gz, shape=args.shape, items=args.items,
                               trials=args.trials, worse=worse))

    files: dict[str | Path, Contents] = {log: write}
    if registry is not None:
        files[registry] = registry_json().encode("utf-8")
    try:
        create_files(files)
    except WriteError as exc:
        return error(str(exc))
    (mix,) = mixes
    what = f"wrote {mix.lines:,} lines ({mix.records:,} records, {len(mix.bad):,} bad lines" \
           f"{', gzipped' if gz else ''}, seed {args.seed}{_shape_said(args.shape)}) to {log}"
    print(visible(what + (f"; the registry to {registry}" if registry is not None else "")))
    return EXIT_ACCEPT


def _shape_said(shape: str) -> str:
    return "" if shape == "plain" else f", the {shape} shape"
