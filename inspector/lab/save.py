"""Saving an edited case as a counterexample: into a new file, or appended to a
counterexample file inspector created earlier, whole or not at all.

A counterexample file is an ordinary suite (it opens and audits like any other)
marked ``"kind": "counterexamples"``, holding the registry of the suite its cases
came from.  Each saved case keeps its parent's request and records where it came
from in ``provenance`` (``suites.load.Provenance``).

Nothing is ever written into a file inspector did not create: a suite of another
kind, something that is not a regular file; and nothing anywhere in the bundled
fixtures' tree, whatever the name and through whatever link (``io.writing``'s
rule, asked first so that the refusal says so).  The file is written through
``io.writing`` (a temporary file, fsync, then link or rename), so a full disk or
a read-only directory leaves the original file byte for byte as it was.
"""

from __future__ import annotations

import base64
import hashlib
import os
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from ..contract.text import escape_char, json_dumps, visible
from ..contract.version import VERIFIER
from ..io.reading import MAX_SUITE_BYTES
from ..io.writing import ProtectedTarget, WriteError, refuse_protected, write_files
from ..suites.document import source_document
from ..suites.load import (
    Case,
    LoadError,
    Suite,
    load_suite,
    parse_json,
    parse_label,
    read_bytes,
)

__all__ = ["COUNTEREXAMPLES", "SaveError", "new_file_bytes", "parent_sha256", "save_case"]

COUNTEREXAMPLES = "counterexamples"  # the kind that marks a file inspector created


class SaveError(Exception):
    """A case that was not saved: the file and why, in one line."""

    def __init__(self, path: str | Path, reason: str) -> None:
        self.path = str(path)
        self.reason = reason
        super().__init__(visible(f"{self.path}: {reason}"))


def parent_sha256(raw: str | bytes) -> str:
    """The sha256 of an answer's exact text (UTF-8) or bytes."""
    data = raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()


def save_case(path: str | Path, parent_suite: Suite, parent_case: Case, raw: str | bytes, expected: str,
              note: str | None, case_id: str, edits: Iterable[Any], inspector_version: str) -> Suite:
    """Save ``raw`` as case ``case_id`` of the counterexample file ``path``, which is
    created, or appended to when inspector created it earlier.  ``edits`` are the
    mutations (dotted names) and edits (with ``to_dict()``, or mappings) applied
    to the parent's answer, in order.  Returns the file as loaded back.

    Raises ``SaveError`` (nothing written) for a file inspector did not create, a
    place in the bundled fixtures' tree, an id already in the file, another
    registry, a bad label or id, and when writing fails (the original file intact)."""
    path = Path(path)
    try:
        refuse_protected(path)
    except ProtectedTarget as exc:
        raise SaveError(path, exc.reason) from None
    _check_case(path, case_id, expected)
    existing = _existing(path)
    if existing is None:
        document = _new_document(parent_suite)
    else:
        document, suite = existing
        if any(case.id == case_id for case in suite.cases):
            raise SaveError(path, f"case id {case_id!r} is already in this file; choose another id")
        if suite.registry.sources != parent_suite.registry.sources:
            raise SaveError(path, f"this file holds another registry than {parent_suite.name}'s; a case is "
                                  "verified against its file's registry, so save it into a new file")
    document["cases"].append(_case_document(path, parent_suite, parent_case, raw, expected, note, case_id,
                                            edits, inspector_version))
    data = _encoded(path, document)
    try:
        write_files(path.parent, {path.name: data}, overwrite=existing is not None)
    except WriteError as exc:
        kept = "the file is as it was" if existing is not None else "nothing was written"
        raise SaveError(path, f"not saved: {exc.reason}; {kept}") from None
    return load_suite(path)


def new_file_bytes(name: str, parent_suite: Suite, parent_case: Case, raw: str | bytes, expected: str,
                   note: str | None, case_id: str, edits: Iterable[Any], inspector_version: str) -> bytes:
    """The counterexample file ``save_case`` would create at a new path named ``name``,
    holding this one case: what a served inspector offers as a download instead of
    writing on the server.  ``SaveError`` as ``save_case`` refuses (an id, a label, a size)."""
    path = Path(name)
    _check_case(path, case_id, expected)
    document = _new_document(parent_suite)
    document["cases"].append(_case_document(path, parent_suite, parent_case, raw, expected, note, case_id,
                                            edits, inspector_version))
    return _encoded(path, document)


def _check_case(path: Path, case_id: str, expected: str) -> None:
    if not case_id or case_id != case_id.strip():
        raise SaveError(path, f"case id {case_id!r} is empty or has blanks around it")
    try:
        parse_label(expected)
    except ValueError as exc:
        raise SaveError(path, f"expected label: {exc}") from None


def _new_document(parent_suite: Suite) -> dict[str, Any]:
    return {
        "kind": COUNTEREXAMPLES,
        "description": f"Counterexamples saved by inspector from {parent_suite.name}.",
        "sources": [source_document(source) for source in parent_suite.registry.sources],
        "cases": [],
    }


def _encoded(path: Path, document: dict[str, Any]) -> bytes:
    data = (json_dumps(document) + "\n").encode("utf-8")
    if len(data) > MAX_SUITE_BYTES:
        raise SaveError(path, f"the file would be {len(data)} bytes, more than a suite may be ({MAX_SUITE_BYTES})")
    return data


def _existing(path: Path) -> tuple[dict[str, Any], Suite] | None:
    """The parsed document and the loaded suite of an existing counterexample
    file, None when ``path`` does not exist; SaveError for anything else."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SaveError(path, exc.strerror or str(exc)) from None
    if stat.S_ISLNK(mode):
        raise SaveError(path, "is a symbolic link; refusing to write through it")
    if not stat.S_ISREG(mode):
        raise SaveError(path, "exists and is not a regular file; refusing to write into it")
    try:
        value = parse_json(path, read_bytes(path))
    except LoadError as exc:
        raise SaveError(path, f"exists and is not a counterexample file inspector created ({exc.problem}); "
                              "refusing to write into it") from None
    kind = value.get("kind") if isinstance(value, dict) else None
    if kind != COUNTEREXAMPLES:
        shown = "no kind" if kind is None else f"kind {kind!r}"
        raise SaveError(path, f"exists and is not a counterexample file inspector created ({shown}, not "
                              f"{COUNTEREXAMPLES!r}); refusing to write into it")
    try:
        suite = load_suite(path)
    except LoadError as exc:
        raise SaveError(path, f"is a counterexample file that no longer loads ({exc.place or 'file'}: "
                              f"{exc.problem}); refusing to append to it") from None
    return value, suite


def _edit_record(edit: Any) -> str | dict[str, Any]:
    if isinstance(edit, str):
        return _storable(edit)
    if isinstance(edit, Mapping):
        record = dict(edit)
    else:
        to_dict = getattr(edit, "to_dict", None)
        if to_dict is None:
            raise TypeError(f"an edit is a mutation name, a mapping or has to_dict(), not {type(edit).__name__}")
        record = to_dict()
    return {key: _storable(value) if isinstance(value, str) else value for key, value in record.items()}


def _storable(text: str) -> str:
    """``text``, with any lone surrogate (which no UTF-8 file can hold) written as
    its ``\\uXXXX`` escape: an edit's record is for people, the answer is kept exact."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join(escape_char(ch) if "\ud800" <= ch <= "\udfff" else ch for ch in text)
    return text


def _case_document(path: Path, parent_suite: Suite, parent_case: Case, raw: str | bytes, expected: str,
                   note: str | None, case_id: str, edits: Iterable[Any], inspector_version: str) -> dict[str, Any]:
    request = {key: value for key, value in msgspec.to_builtins(parent_case.request).items() if value is not None}
    case: dict[str, Any] = {"id": case_id, "request": request, "expected": expected}
    if isinstance(raw, str):
        try:
            raw.encode("utf-8")
        except UnicodeEncodeError:
            raise SaveError(path, "the answer holds a lone surrogate, which no file can hold; "
                                  "edit it out before saving") from None
        case["raw"] = raw
    else:
        case["raw_base64"] = base64.b64encode(bytes(raw)).decode("ascii")
    if note:
        case["note"] = note
    case["provenance"] = {
        "parent_suite": parent_suite.name,
        "parent_case": parent_case.id,
        "parent_sha256": parent_sha256(parent_case.raw),
        "edits": [_edit_record(edit) for edit in edits],
        "inspector_version": inspector_version,
        "verifier": VERIFIER,
    }
    return case
