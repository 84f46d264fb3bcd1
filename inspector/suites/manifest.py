"""Audit runs on disk: ``results.json`` plus a ``manifest.json`` that pins every
input by sha256 and records the versions that produced them.  ``verify_run``
recomputes everything and lists each difference.

Writes are atomic (a temporary file in the same directory, then ``os.replace``)
and never overwrite: the output directory must be new or empty.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec

from .load import LoadError

__all__ = ["MANIFEST_SCHEMA", "RunError", "verify_run", "write_run"]

MANIFEST_SCHEMA = "inspector.manifest/1"
RESULTS = "results.json"
MANIFEST = "manifest.json"


class RunError(Exception):
    """An output or run directory that cannot be used."""


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


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


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to a new file ``path``; fails if ``path`` exists."""
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        # link() refuses an existing target, so a file that appeared meanwhile is kept.
        os.link(temp, path)
    except FileExistsError:
        raise RunError(f"{path}: already exists; refusing to overwrite") from None
    finally:
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass


def prepare_out_dir(out_dir: Path) -> None:
    if out_dir.exists():
        if not out_dir.is_dir():
            raise RunError(f"{out_dir}: exists and is not a directory")
        if any(out_dir.iterdir()):
            raise RunError(f"{out_dir}: directory is not empty; use a new output directory")
    else:
        try:
            out_dir.mkdir(parents=True)
        except OSError as exc:
            raise RunError(f"{out_dir}: cannot create directory ({exc.strerror})") from None


def write_run(out_dir: Path, inputs: Sequence[Path], results: dict[str, Any], inspector_version: str) -> None:
    prepare_out_dir(out_dir)
    results_bytes = _dump(results)
    manifest = {
        "schema": MANIFEST_SCHEMA,
        "versions": _versions(inspector_version),
        # The path as given, and resolved, so --verify works from any directory.
        "inputs": [{"path": str(path), "resolved": str(path.resolve()), "sha256": sha256_file(path),
                    "bytes": path.stat().st_size} for path in inputs],
        "outputs": [{"path": RESULTS, "sha256": hashlib.sha256(results_bytes).hexdigest(),
                     "bytes": len(results_bytes)}],
    }
    write_atomic(out_dir / RESULTS, results_bytes)
    write_atomic(out_dir / MANIFEST, _dump(manifest))


def verify_run(run_dir: Path, recompute: Callable[[list[Path]], dict[str, Any]],
               inspector_version: str) -> tuple[list[str], list[str]]:
    """Check a run directory; returns (differences, notes).  Differences fail."""
    manifest_path, results_path = run_dir / MANIFEST, run_dir / RESULTS
    for path in (manifest_path, results_path):
        if not path.is_file():
            raise RunError(f"{path}: missing; is {run_dir} an audit output directory?")
    try:
        manifest = json.loads(manifest_path.read_text("utf-8"))
        stored = json.loads(results_path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise RunError(f"{run_dir}: unreadable run ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("schema") != MANIFEST_SCHEMA:
        raise RunError(f"{manifest_path}: not an {MANIFEST_SCHEMA} manifest")

    differences: list[str] = []
    notes: list[str] = []
    for output in manifest.get("outputs", []):
        actual = sha256_file(run_dir / output["path"])
        if actual != output["sha256"]:
            differences.append(f"{output['path']}: sha256 {actual} differs from the manifest's {output['sha256']}")
    inputs = []
    for item in manifest.get("inputs", []):
        path = Path(item["path"])
        if not path.is_file() and item.get("resolved"):
            path = Path(item["resolved"])
        if not path.is_file():
            differences.append(f"{item['path']}: input missing")
            continue
        actual = sha256_file(path)
        if actual != item["sha256"]:
            differences.append(f"{path}: sha256 {actual} differs from the manifest's {item['sha256']}")
        inputs.append(path)
    now = _versions(inspector_version)
    for name, version in manifest.get("versions", {}).items():
        if now.get(name) != version:
            notes.append(f"{name} was {version}, now {now.get(name)}")
    if differences:
        return differences, notes
    try:
        fresh = recompute(inputs)
    except LoadError as exc:
        return [str(exc)], notes
    differences.extend(_compare(stored, fresh))
    return differences, notes


def _compare(stored: dict[str, Any], fresh: dict[str, Any]) -> list[str]:
    out: list[str] = []
    old_cases = {(c.get("suite"), c.get("id")): c for c in stored.get("cases", [])}
    new_cases = {(c["suite"], c["id"]): c for c in fresh["cases"]}
    for key in old_cases.keys() - new_cases.keys():
        out.append(f"{key[0]}/{key[1]}: in the stored results, not in the inputs")
    for key in new_cases.keys() - old_cases.keys():
        out.append(f"{key[0]}/{key[1]}: in the inputs, not in the stored results")
    for key in old_cases.keys() & new_cases.keys():
        old, new = old_cases[key], new_cases[key]
        for name in sorted(old.keys() | new.keys()):
            if old.get(name) != new.get(name):
                out.append(f"{key[0]}/{key[1]}: {name} was {old.get(name)!r}, now {new.get(name)!r}")
    if stored.get("summary") != fresh["summary"]:
        for name in sorted(stored.get("summary", {}).keys() | fresh["summary"].keys()):
            if stored.get("summary", {}).get(name) != fresh["summary"].get(name):
                out.append(f"summary.{name} was {stored.get('summary', {}).get(name)!r}, "
                           f"now {fresh['summary'].get(name)!r}")
    if stored.get("schema") != fresh["schema"]:
        out.append(f"schema was {stored.get('schema')!r}, now {fresh['schema']!r}")
    return sorted(out)
