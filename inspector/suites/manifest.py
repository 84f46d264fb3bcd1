"""Audit runs on disk: ``results.json`` plus a ``manifest.json`` that pins every
input by sha256 and records the versions that produced them.  ``verify_run``
recomputes everything and lists each difference.

A run directory appears whole or not at all (see ``writing``) and is never
written into once it holds anything.  Verifying trusts nothing in it: both files
are decoded into strict Structs (a malformed one is a ``RunError`` naming the
place), outputs must be plain files of the run directory, inputs regular files,
all read with the same bounds as any input; and the stored results must be,
byte for byte, what the inputs give today.
"""

from __future__ import annotations

import hashlib
import platform
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from ..io.reading import MAX_RUN_FILE_BYTES, MAX_SUITE_BYTES, ReadError, read_limited
from ..io.writing import WriteError, write_new_directory
from .load import LoadError, validation_place, parse_json

__all__ = ["MANIFEST_SCHEMA", "RunError", "verify_run", "write_run"]

MANIFEST_SCHEMA = "inspector.manifest/1"
RESULTS = "results.json"
MANIFEST = "manifest.json"
# A stored value quoted in a difference is cut to this many characters.
SHOWN = 200


class RunError(Exception):
    """An output or run directory that cannot be used."""


class _Input(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    path: str
    sha256: str
    bytes: int
    resolved: str | None = None


class _Output(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    path: str
    sha256: str
    bytes: int


class _Versions(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    inspector: str
    python: str
    implementation: str
    msgspec: str


class _Manifest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    schema: str
    versions: _Versions
    inputs: list[_Input]
    outputs: list[_Output]
    # The review's state when the run was made (decisions pending beside the suites,
    # mismatches no one reviewed): recorded, not recomputed by --verify.
    review: dict[str, Any] | None = None


class _StoredResults(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The envelope of ``results.json``; each case and the summary are compared,
    key by key, with the recomputed ones (which define what belongs in them)."""

    schema: str
    inspector_version: str
    cases: list[dict[str, Any]]
    summary: dict[str, Any]
    verifier: str | None = None  # absent in runs written before the verifier had a version
    # The review's state when the run was made: read from pending files beside the
    # suites, so recorded, not recomputed (the manifest records it too).
    review: dict[str, Any] | None = None


_T = TypeVar("_T")


def _versions(inspector_version: str) -> dict[str, str]:
    return {
        "inspector": inspector_version,
        "python": platform.python_version(),
        "implementation": sys.implementation.name,
        "msgspec": msgspec.__version__,
    }


def _dump(document: Any) -> bytes:
    from ..contract.text import json_dumps  # invisible characters escaped, as in every JSON output

    return (json_dumps(document) + "\n").encode("utf-8")


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_input(path: Path) -> bytes:
    """An input's bytes, read as the loader reads suites (regular file, bounded)."""
    return read_limited(path, MAX_SUITE_BYTES, "suite")


def write_run(out_dir: Path, inputs: Sequence[Path], results: dict[str, Any], inspector_version: str,
              review: dict[str, Any] | None = None) -> None:
    """Write ``results.json`` and ``manifest.json`` into the new or empty ``out_dir``."""
    results_bytes = _dump(results)
    pinned = []
    for path in inputs:
        try:
            data = _read_input(path)
        except ReadError as exc:
            raise RunError(str(exc)) from None
        # The path as given, and resolved, so --verify works from any directory.
        pinned.append({"path": str(path), "resolved": str(path.resolve()), "sha256": _sha256(data),
                       "bytes": len(data)})
    manifest = {
        "schema": MANIFEST_SCHEMA,
        "versions": _versions(inspector_version),
        "inputs": pinned,
        "outputs": [{"path": RESULTS, "sha256": _sha256(results_bytes), "bytes": len(results_bytes)}],
        **({"review": review} if review is not None else {}),
    }
    try:
        write_new_directory(out_dir, {RESULTS: results_bytes, MANIFEST: _dump(manifest)})
    except WriteError as exc:
        raise RunError(str(exc)) from None


# -- verifying ---------------------------------------------------------------


def _decode(path: Path, data: bytes, kind: type[_T]) -> _T:
    """Strictly decode a run file into ``kind``, as the loader reads suites (depth
    bounded, duplicate keys refused); RunError naming the file and the place."""
    try:
        value = parse_json(path, data)
    except LoadError as exc:
        raise RunError(str(exc)) from None
    try:
        return msgspec.convert(value, kind)
    except msgspec.ValidationError as exc:
        place, message = validation_place(exc)
        raise RunError(str(LoadError(path, message, place))) from None


def _read_run_file(run_dir: Path, name: str) -> bytes:
    """A file of the run directory itself: a plain file there, not a link elsewhere."""
    path = run_dir / name
    try:
        return read_limited(path, MAX_RUN_FILE_BYTES, "run file", follow_symlinks=False)
    except ReadError as exc:
        if exc.problem == "no such file":
            raise RunError(f"{path}: missing; is {run_dir} an audit output directory?") from None
        raise RunError(str(exc)) from None


def _check_outputs(manifest_path: Path, outputs: list[_Output]) -> None:
    """Outputs name files of the run directory itself: no path, no '..', once each."""
    seen: set[str] = set()
    for index, output in enumerate(outputs):
        name = output.path
        if not name or name in (".", "..", MANIFEST) or "/" in name or "\\" in name or "\0" in name:
            raise RunError(f"{manifest_path}: outputs[{index}].path: {name!r} is not a file of the run "
                           "directory")
        if name in seen:
            raise RunError(f"{manifest_path}: outputs[{index}].path: {name!r} listed twice")
        seen.add(name)
    if RESULTS not in seen:
        raise RunError(f"{manifest_path}: outputs: does not list {RESULTS}")


def verify_run(run_dir: Path, recompute: Callable[[list[Path]], dict[str, Any]],
               inspector_version: str) -> tuple[list[str], list[str]]:
    """Check a run directory; returns (differences, notes).  Differences fail;
    a directory that is not a readable run is a RunError."""
    run_dir = Path(run_dir)
    manifest_path, results_path = run_dir / MANIFEST, run_dir / RESULTS
    manifest = _decode(manifest_path, _read_run_file(run_dir, MANIFEST), _Manifest)
    if manifest.schema != MANIFEST_SCHEMA:
        raise RunError(f"{manifest_path}: schema: not an {MANIFEST_SCHEMA} manifest")
    _check_outputs(manifest_path, manifest.outputs)
    stored_bytes = _read_run_file(run_dir, RESULTS)
    stored = _decode(results_path, stored_bytes, _StoredResults)

    differences: list[str] = []
    notes: list[str] = []
    for output in manifest.outputs:
        try:
            data = stored_bytes if output.path == RESULTS else read_limited(
                run_dir / output.path, MAX_RUN_FILE_BYTES, "run file", follow_symlinks=False)
        except ReadError as exc:
            differences.append(str(exc))
            continue
        differences.extend(_pinned(output.path, data, output.sha256, output.bytes))
    inputs = []
    inputs_differ = False
    for item in manifest.inputs:
        found = _find_input(item)
        if isinstance(found, str):
            differences.append(found)
            inputs_differ = True
            continue
        path, data = found
        changed = _pinned(str(path), data, item.sha256, item.bytes)
        differences.extend(changed)
        inputs_differ |= bool(changed)
        inputs.append(path)
    now = _versions(inspector_version)
    for name, version in msgspec.structs.asdict(manifest.versions).items():
        if version == now[name]:
            continue
        if name == "inspector":
            differences.append(f"the run was made by inspector {version}, this is inspector {now[name]}")
        else:
            notes.append(f"{name} was {version}, now {now[name]}")
    if inputs_differ:
        return differences, notes  # other inputs: recomputing would only repeat that
    try:
        fresh = recompute(inputs)
    except LoadError as exc:
        differences.append(str(exc))
        return differences, notes
    if stored.review is not None:
        fresh = {**fresh, "review": stored.review}
    if stored_bytes != _dump(fresh):
        differences.extend(_compare(stored, fresh) or [
            f"{RESULTS}: not byte for byte the recomputed results, though every value is the same "
            "(reformatted, or a key repeated)"])
    return differences, notes


def _find_input(item: _Input) -> tuple[Path, bytes] | str:
    """An input as given (relative to where the run was made) or else as resolved
    then: (path, bytes), or the difference to report."""
    candidates = [item.path] + ([item.resolved] if item.resolved and item.resolved != item.path else [])
    problem = f"{item.path}: input missing"
    for candidate in candidates:
        try:
            return Path(candidate), _read_input(Path(candidate))
        except ReadError as exc:
            if exc.problem != "no such file":
                problem = str(exc)
                break
    return problem


def _pinned(name: str, data: bytes, sha256: str, size: int) -> list[str]:
    actual = _sha256(data)
    if actual != sha256:
        return [f"{name}: sha256 {actual} differs from the manifest's {sha256}"]
    if len(data) != size:
        return [f"{name}: {len(data)} bytes, the manifest says {size}"]
    return []


def _same(old: Any, new: Any) -> bool:
    """Equal as JSON values: 1, 1.0 and true differ.  Recurses only as deep as
    ``new`` (the recomputed value), however deeply ``old`` nests."""
    if type(old) is not type(new):
        return False
    if isinstance(new, dict):
        return old.keys() == new.keys() and all(_same(old[key], value) for key, value in new.items())
    if isinstance(new, list):
        return len(old) == len(new) and all(_same(a, b) for a, b in zip(old, new))
    return bool(old == new)


def _shown(value: Any) -> str:
    """A stored value in a difference: as JSON, cut short."""
    try:
        text = msgspec.json.encode(value).decode("utf-8")
    except (RecursionError, msgspec.EncodeError, UnicodeDecodeError):
        return "(a value nested too deeply to show)"
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def _compare_keys(where: str, old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    out = []
    for name in sorted(old.keys() | new.keys()):
        if name not in new:
            out.append(f"{where}: unknown key {_shown(name)} in the stored results")
        elif name not in old:
            out.append(f"{where}: {name} missing from the stored results")
        elif not _same(old[name], new[name]):
            out.append(f"{where}: {name} was {_shown(old[name])}, now {_shown(new[name])}")
    return out


def _case_key(case: dict[str, Any]) -> str:
    return f"{case.get('suite')}/{case.get('id')}" if isinstance(case.get("suite"), str) and isinstance(
        case.get("id"), str) else _shown({"suite": case.get("suite"), "id": case.get("id")})


def _compare(stored: _StoredResults, fresh: dict[str, Any]) -> list[str]:
    """Every difference between the stored results and the recomputed ones."""
    out: list[str] = []
    if stored.schema != fresh["schema"]:
        out.append(f"schema was {_shown(stored.schema)}, now {_shown(fresh['schema'])}")
    if stored.inspector_version != fresh["inspector_version"]:
        out.append(f"{RESULTS}: recorded by inspector {_shown(stored.inspector_version)}, "
                   f"this is inspector {fresh['inspector_version']}")
    if stored.verifier != fresh.get("verifier"):
        out.append(f"{RESULTS}: judged by the contract {_shown(stored.verifier)}, "
                   f"this contract is {fresh.get('verifier')}")
    counts = Counter(_case_key(case) for case in stored.cases)
    for key, count in sorted(counts.items()):
        if count > 1:
            out.append(f"{key}: {count} entries in the stored results")
    old_cases: dict[str, dict[str, Any]] = {}
    for case in stored.cases:
        old_cases.setdefault(_case_key(case), case)
    new_cases = {_case_key(case): case for case in fresh["cases"]}
    for key in sorted(old_cases.keys() - new_cases.keys()):
        out.append(f"{key}: in the stored results, not in the inputs")
    for key in sorted(new_cases.keys() - old_cases.keys()):
        out.append(f"{key}: in the inputs, not in the stored results")
    for key in sorted(old_cases.keys() & new_cases.keys()):
        out.extend(_compare_keys(key, old_cases[key], new_cases[key]))
    if not out and [_case_key(case) for case in stored.cases] != list(new_cases):
        out.append(f"{RESULTS}: the cases are stored in another order than the inputs give them")
    out.extend(_compare_keys("summary", stored.summary, fresh["summary"]))
    return out
