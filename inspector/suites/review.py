"""A suite's review: the decisions taken on its cases and the labels people gave
its claims, pending beside the suite until applied (``inspector review``).

Like ``cargo insta review``: reviewing never writes the suite.  Each decision
(accept: the verdict becomes the label; reject: the label stays, the case is a
known regression; skip) and each claim label goes into a pending file,
``SUITE.review.json`` beside the suite, rewritten whole on every change (a
temporary file, synced, renamed over the one this tool created).  ``apply``
is the one step that writes the suite: atomically, in place or to a new file,
refused when the suite changed since the decisions were taken or when the
contract (``contract.version.VERIFIER``) is no longer the one they were taken
under; each relabelled case keeps its ``history``, and the pending file is then
removed.  Nothing is written for a pending file with a member no review could
have written (every member of every decision and label is checked first, and
the suite as it would be is loaded before it replaces the old one), nor for a
suite that is read-only; a suite replaced keeps its permission bits, and a
suite reached through a symbolic link is written where the link leads.

Several reviews may write one pending file at once (one reviewer in two
terminals or two served tabs, two reviewers who started together): each change
is read, merge, write under the file's lock (``io.locking``), so it is added
to the decisions on disk, not to what its session read when it started.  A
decision replaces one on the same case (a label, one on the same claim), the
later winning; ``change_pending`` hands back what was there, so that the
front end can say whose decision it replaced.  One case decided twice in a
file (written by hand) counts once, as its last decision (``effective_decisions``):
what the review shows is what ``apply`` writes.

A bundled suite's folder is never written into (``io.writing``), so its pending
file lives in the user's state folder instead (``$XDG_STATE_HOME/inspector/review``)
and it can be applied only to a new file.  A second reviewer who starts while
another's pending file exists gets a file of their own (``SUITE.review.NAME.json``);
applying with two pending files refuses until told which.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from ..contract.evidence import LABELS, POLICIES
from ..contract.text import json_dumps, visible
from ..contract.version import VERIFIER
from ..io.locking import LockError, exclusive, exclusive_as
from ..io.reading import MAX_SUITE_BYTES
from ..io.writing import ProtectedTarget, WriteError, may_write, refuse_protected, write_files
from .load import (
    ACCEPT_DECISION,
    DECISIONS,
    HUMAN_LABELS,
    REJECT_DECISION,
    SKIP_DECISION,
    Case,
    ClaimLabel,
    LabelChange,
    LoadError,
    Review,
    Suite,
    load_suite,
    parse_json,
    parse_label,
    read_bytes,
    validation_place,
)
from .reviewer import Signed, check_name, check_note

__all__ = [
    "REVIEW_SCHEMA",
    "Applied",
    "Pending",
    "PendingDecision",
    "PendingFile",
    "PendingLabel",
    "ReviewError",
    "apply_review",
    "case_sha256",
    "change_pending",
    "check_against",
    "discard",
    "effective_decisions",
    "effective_labels",
    "file_sha256",
    "load_pending",
    "pending_files",
    "pending_path",
    "record_decision",
    "record_label",
    "save_pending",
    "start_pending",
]

REVIEW_SCHEMA = "inspector.review/1"
SUFFIX = ".review.json"
MAX_PENDING_BYTES = 16 * 1024 * 1024


class ReviewError(Exception):
    """A pending file or an apply that cannot be used: the file and why, in one line."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(visible(f"{self.path}: {problem}"))


class _DecisionOnCase(Signed, frozen=True, forbid_unknown_fields=True):
    """A reviewer's decision on one case (signed: ``Signed``), with what they saw: the
    verdict, the frozen label, and the case's digest when they decided."""

    case: str
    decision: str  # accept, reject or skip
    verdict: str
    expected: str | None
    sha256: str


class PendingDecision(_DecisionOnCase, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A reviewer's decision on one case, pending.  Accept also takes the label lens's labels
    and policy where the case freezes them (keyword-only members: after the signature, where
    pending files have them)."""

    labels: list[str] | None = None
    policy: str | None = None


class PendingLabel(ClaimLabel, frozen=True, forbid_unknown_fields=True, kw_only=True):
    """A person's label of one claim (``ClaimLabel``, as ``--apply`` writes it into the
    case), pending: with the case it is of."""

    case: str


class PendingFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    schema: str
    suite: str  # the suite's file name
    suite_sha256: str  # of the suite's bytes when the review started
    reviewer: str
    verifier: str
    decisions: list[PendingDecision] = []
    labels: list[PendingLabel] = []


@dataclass(frozen=True, slots=True)
class Pending:
    """A pending file as read: where it is and what it holds."""

    path: Path
    content: PendingFile

    @property
    def decisions(self) -> dict[str, PendingDecision]:
        """Case id -> its decision (``effective_decisions``)."""
        return effective_decisions(self.content)

    @property
    def labels(self) -> dict[tuple[str, int], PendingLabel]:
        return effective_labels(self.content)

    @property
    def applicable(self) -> int:
        """Accepts, rejects and claim labels: what ``apply`` would write."""
        return sum(1 for decision in self.decisions.values() if decision.decision != SKIP_DECISION) + len(
            self.labels)


_Item = TypeVar("_Item")
_Key = TypeVar("_Key")


def effective_decisions(content: PendingFile) -> dict[str, PendingDecision]:
    """Case id -> the decision that holds on it: the last one the file has on that case (a
    file written by hand may decide a case twice).  What the review shows, counts and applies."""
    return _last_of(content.decisions, lambda decision: decision.case)


def effective_labels(content: PendingFile) -> dict[tuple[str, int], PendingLabel]:
    """(case id, claim) -> the label that holds on that claim: the last one the file has."""
    return _last_of(content.labels, lambda label: (label.case, label.claim))


def _last_of(items: Iterable[_Item], key: Callable[[_Item], _Key]) -> dict[_Key, _Item]:
    """Each key's last item, in the order their last items were written."""
    found: dict[_Key, _Item] = {}
    for item in items:
        found.pop(key(item), None)
        found[key(item)] = item
    return found


_DECODER = msgspec.json.Decoder(PendingFile)
_SHA256 = re.compile(r"[0-9a-f]{64}")


def file_sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def case_sha256(case: Case) -> str:
    """The digest of what a review judges in a case: its answer, request, label and
    frozen lens expectations (not its note, its review or its history)."""
    request = {key: value for key, value in msgspec.to_builtins(case.request).items() if value is not None}
    raw: dict[str, str] = ({"raw": case.raw} if isinstance(case.raw, str)
                           else {"raw_base64": base64.b64encode(bytes(case.raw)).decode("ascii")})
    document = {**raw, "request": request, "expected": case.expected,
                "expected_labels": list(case.expected_labels) if case.expected_labels is not None else None,
                "expected_policy": case.expected_policy}
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


# -- where the pending files are ------------------------------------------------


def _state_folder() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "inspector" / "review"


def _in_protected(path: Path) -> bool:
    try:
        refuse_protected(path.parent / (path.name + SUFFIX))
    except ProtectedTarget:
        return True
    return False


def _folder_and_stem(suite_path: Path) -> tuple[Path, str]:
    """Where a suite's pending files go, and the stem their names start with."""
    suite_path = Path(suite_path)
    if _in_protected(suite_path):
        resolved = str(suite_path.resolve())
        tag = hashlib.sha256(resolved.encode("utf-8", "surrogatepass")).hexdigest()[:8]
        return _state_folder(), f"{suite_path.stem}-{tag}"
    return suite_path.parent, suite_path.stem


def _slug(reviewer: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", reviewer).strip("-").lower()[:40]
    return slug or hashlib.sha256(reviewer.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def pending_files(suite_path: str | Path) -> list[Path]:
    """The suite's pending files that exist, the shared name first."""
    folder, stem = _folder_and_stem(Path(suite_path))
    try:
        names = sorted(entry.name for entry in os.scandir(folder))
    except OSError:
        return []
    first = stem + SUFFIX
    others = [name for name in names if name.startswith(stem + ".review.") and name.endswith(".json")
              and name != first and name.count(".") == stem.count(".") + 3]
    return [folder / name for name in ([first] if first in names else []) + others]


def pending_path(suite_path: str | Path, reviewer: str) -> Path:
    """The pending file ``reviewer`` writes for this suite: their own if one exists,
    else the shared name when it is free or theirs, else one named after them."""
    folder, stem = _folder_and_stem(Path(suite_path))
    shared = folder / (stem + SUFFIX)
    own = folder / f"{stem}.review.{_slug(reviewer)}.json"
    if own.exists():
        return own
    if not shared.exists():
        return shared
    try:
        if load_pending(shared).content.reviewer == reviewer:
            return shared
    except ReviewError:
        pass
    return own


# -- reading and writing a pending file --------------------------------------------


def load_pending(path: str | Path, suite: Suite | None = None) -> Pending:
    """A pending file, decoded strictly; with ``suite``, checked against it: its
    name, and every case and claim it names must exist (ReviewError otherwise).
    Whether the suite changed since is ``apply``'s question."""
    path = Path(path)
    try:
        data = read_bytes(path, MAX_PENDING_BYTES, "pending review file")
        value = parse_json(path, data)
    except LoadError as exc:
        raise ReviewError(path, f"not a pending review file: {exc.place + ': ' if exc.place else ''}{exc.problem}") \
            from None
    if not isinstance(value, dict) or value.get("schema") != REVIEW_SCHEMA:
        shown = value.get("schema") if isinstance(value, dict) else None
        raise ReviewError(path, f"not a pending review file (schema {shown!r}, expected {REVIEW_SCHEMA!r})")
    try:
        content = msgspec.convert(value, PendingFile)
    except msgspec.ValidationError as exc:
        place, message = validation_place(exc)
        raise ReviewError(path, f"{place + ': ' if place else ''}{message}") from None
    problem = _problem(content)
    if problem is not None:
        raise ReviewError(path, problem)
    pending = Pending(path, content)
    if suite is not None:
        check_against(pending, suite)
    return pending


def _problem(content: PendingFile) -> str | None:
    """The first member no review could have written: where (the decision or label, its case, the
    member) and why; None when every member of every decision and label is one ``apply`` may write."""
    if _SHA256.fullmatch(content.suite_sha256) is None:
        return "suite_sha256: expected 64 lowercase hexadecimal digits"
    if not content.verifier:
        return "verifier: empty"
    try:
        check_name(content.reviewer)
    except ValueError as exc:
        return f"reviewer: {exc}"
    for index, decision in enumerate(content.decisions):
        problem = _decision_problem(decision)
        if problem is not None:
            return f"decisions[{index}] (case {decision.case!r}).{problem[0]}: {problem[1]}"
    for index, label in enumerate(content.labels):
        problem = _label_problem(label)
        if problem is not None:
            return f"labels[{index}] (case {label.case!r}).{problem[0]}: {problem[1]}"
    return None


def _signature_problem(signed: Signed) -> tuple[str, str] | None:
    """(member, problem) for who decided, when, under which verifier and why (``Signed``: the
    members every decision and label has)."""
    try:
        check_name(signed.reviewer)
    except ValueError as exc:
        return "reviewer", str(exc)
    if not signed.at.strip():
        return "at", "empty: the time it was decided"
    if not signed.verifier.strip():
        return "verifier", "empty: the contract it was decided under"
    try:
        check_note(signed.note)
    except ValueError as exc:
        return "note", str(exc)
    return None


def _decision_problem(decision: PendingDecision) -> tuple[str, str] | None:
    if decision.decision not in DECISIONS:
        return "decision", f"unknown decision {decision.decision!r} (known: {', '.join(DECISIONS)})"
    for member in ("verdict", "expected"):
        value = getattr(decision, member)
        if value is None and member == "expected":
            continue
        try:
            parse_label(value)
        except ValueError as exc:
            return member, str(exc)
    if _SHA256.fullmatch(decision.sha256) is None:
        return "sha256", "expected 64 lowercase hexadecimal digits"
    problem = _signature_problem(decision)
    if problem is not None:
        return problem
    for index, label in enumerate(decision.labels or ()):
        if label not in LABELS:
            return f"labels[{index}]", f"unknown label {label!r} (known: {', '.join(LABELS)})"
    if decision.policy is not None and decision.policy not in POLICIES:
        return "policy", f"unknown policy {decision.policy!r} (known: {', '.join(POLICIES)})"
    return None


def _label_problem(label: PendingLabel) -> tuple[str, str] | None:
    if label.label not in HUMAN_LABELS:
        return "label", f"unknown label {label.label!r} (known: {', '.join(HUMAN_LABELS)})"
    if label.claim < 0:
        return "claim", "a claim's index is 0 or more"
    return _signature_problem(label)


def check_against(pending: Pending, suite: Suite) -> None:
    """ReviewError unless ``pending`` is this suite's and names only its cases."""
    content = pending.content
    if content.suite != suite.path.name:
        raise ReviewError(pending.path, f"holds decisions for the suite {content.suite!r}, not {suite.path.name!r}")
    ids = {case.id for case in suite.cases}
    for name in [decision.case for decision in content.decisions] + [label.case for label in content.labels]:
        if name not in ids:
            raise ReviewError(pending.path, f"names the case {name!r}, which {suite.path.name} no longer has")


def start_pending(suite: Suite, reviewer: str) -> PendingFile:
    """An empty pending file for a review of ``suite`` starting now."""
    data = read_bytes(suite.path)
    return PendingFile(REVIEW_SCHEMA, suite.path.name, file_sha256(data), check_name(reviewer), VERIFIER)


def record_decision(content: PendingFile, case: Case, decision: str, verdict: str, reviewer: str, at: str,
                    note: str | None = None, labels: Iterable[str] | None = None,
                    policy: str | None = None) -> PendingFile:
    """``content`` with ``decision`` on ``case`` (replacing an earlier one on it)."""
    if decision not in DECISIONS:
        raise ValueError(f"unknown decision {decision!r}")
    entry = PendingDecision(case.id, decision, verdict, case.expected, case_sha256(case), reviewer=check_name(reviewer),
                            at=at, verifier=VERIFIER, note=check_note(note),
                            labels=list(labels) if labels is not None else None, policy=policy)
    kept = [item for item in content.decisions if item.case != case.id]
    return msgspec.structs.replace(content, decisions=[*kept, entry])


def record_label(content: PendingFile, case: Case, claim: int, label: str | None, reviewer: str, at: str,
                 note: str | None = None) -> PendingFile:
    """``content`` with a claim's label set (replacing an earlier one), or cleared with None."""
    if label is not None and label not in HUMAN_LABELS:
        raise ValueError(f"unknown label {label!r}")
    kept = [item for item in content.labels if (item.case, item.claim) != (case.id, claim)]
    if label is not None:
        kept.append(PendingLabel(claim, label, reviewer=check_name(reviewer), at=at, verifier=VERIFIER,
                                 note=check_note(note), case=case.id))
    return msgspec.structs.replace(content, labels=kept)


def save_pending(path: str | Path, content: PendingFile) -> None:
    """Write the pending file whole: created new, or renamed over a pending file
    this tool wrote (anything else at ``path`` is refused), keeping its mode.  The
    caller holds the file's lock (``change_pending`` does)."""
    path = Path(path)
    existing = _existing_kind(path)
    if existing is not None:
        raise ReviewError(path, existing)
    data = (json_dumps(msgspec.to_builtins(content)) + "\n").encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_files(path.parent, {path.name: data}, overwrite=path.exists(), keep_mode=True)
    except (WriteError, OSError) as exc:
        reason = exc.reason if isinstance(exc, WriteError) else (exc.strerror or str(exc))
        raise ReviewError(path, f"decisions not saved: {reason}") from None


def change_pending(path: str | Path, suite: Suite, started: str, reviewer: str,
                   change: Callable[[PendingFile], PendingFile]) -> tuple[PendingFile, PendingFile | None]:
    """Make one change to the pending file at ``path`` as it is now, not as it was read: under its
    lock, read it again (or start one for ``reviewer`` when there is none: it was never written,
    or applied or discarded since), hand it to ``change``, and write the result.  Returns what was
    written and what was there before (None: nothing).  ``started``: the suite's digest when the
    review started; ReviewError, nothing written, when the suite is not that any more (applied or
    edited meanwhile) or the file holds decisions on another state of it."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with exclusive(path):
            if file_sha256(read_bytes(suite.path)) != started:
                raise ReviewError(suite.path, "changed since this review started (its decisions applied, or the "
                                              "suite edited, meanwhile): nothing saved; review it again")
            existing = _existing_kind(path)
            if existing is not None:
                raise ReviewError(path, existing)
            before = load_pending(path, suite).content if path.exists() else None
            if before is not None and before.suite_sha256 != started:
                raise ReviewError(path, "holds decisions on another state of the suite than this review's: "
                                        "nothing saved; apply or discard them, then review again")
            written = change(before if before is not None else start_pending(suite, reviewer))
            save_pending(path, written)
    except (LockError, WriteError, OSError) as exc:
        reason = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or str(exc)
        where = getattr(exc, "path", None) or path
        raise ReviewError(where, f"decisions not saved: {reason}") from None
    except LoadError as exc:
        raise ReviewError(exc.path, f"decisions not saved: {exc.problem}") from None
    return written, before


def _existing_kind(path: Path) -> str | None:
    """Why ``path`` may not be replaced (None: free, or a pending file of ours)."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        return exc.strerror or str(exc)
    if stat.S_ISLNK(mode):
        return "is a symbolic link; refusing to write through it"
    if not stat.S_ISREG(mode):
        return "exists and is not a regular file; refusing to replace it"
    try:
        load_pending(path)
    except ReviewError as exc:
        return f"exists and is not a pending review file inspector wrote ({exc.problem}); refusing to replace it"
    return None


def discard(path: str | Path) -> None:
    """Remove a pending file (after checking it is one), under its lock."""
    path = Path(path)
    with exclusive_as(path, lambda where, reason: ReviewError(where, f"not removed: {reason}")):
        _discard(path)


def _discard(path: Path) -> None:
    load_pending(path)
    try:
        path.unlink()
    except OSError as exc:
        raise ReviewError(path, f"not removed: {exc.strerror or exc}") from None


# -- applying ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Applied:
    """What ``apply_review`` wrote."""

    path: Path
    accepted: tuple[str, ...]
    rejected: tuple[str, ...]
    skipped: tuple[str, ...]
    labels: int
    relabelled: tuple[str, ...]  # accepted cases whose label changed


def apply_review(pending: Pending, suite_path: str | Path, out: str | Path | None = None,
                 remove_pending: bool = True) -> Applied:
    """Write the pending decisions into the suite (in place, or into the new file
    ``out``), whole or not at all; then remove the pending file.

    The pending file is read again under its lock (a reviewer may still be deciding),
    and the lock held until it is removed.  Refused (ReviewError, nothing written) when
    the suite changed since the review started, when the contract changed since a
    decision was taken, when a case changed, when a member of a decision is not one a
    review writes, for a bundled suite in place, a read-only suite, and for an ``out``
    that exists.  In place, a suite reached through a symbolic link is written where the
    link leads (the link stays), with the permission bits it had."""
    try:
        with exclusive(pending.path):
            return _apply(pending.path, Path(suite_path), Path(out) if out is not None else None, remove_pending)
    except LockError as exc:
        raise ReviewError(exc.path, f"nothing applied: {exc.reason}") from None
    except ProtectedTarget as exc:  # pragma: no cover - a bundled suite's pending file is in the state folder
        raise ReviewError(exc.path, f"nothing applied: {exc.reason}") from None


def _apply(pending_path: Path, suite_path: Path, out: Path | None, remove_pending: bool) -> Applied:
    data = read_bytes(suite_path)
    suite = load_suite(suite_path, data=data)
    pending = load_pending(pending_path, suite)  # as it is now, under the lock: checked member by member
    content = pending.content
    if file_sha256(data) != content.suite_sha256:
        raise ReviewError(suite_path, f"changed since the decisions in {pending.path} were taken; nothing applied "
                                      "(review it again, or drop them with --discard)")
    decisions, labels = effective_decisions(content), effective_labels(content)
    signed: list[PendingDecision | PendingLabel] = [*decisions.values(), *labels.values()]
    stale = sorted({item.verifier for item in signed} - {VERIFIER})
    if stale:
        raise ReviewError(pending.path, f"decisions taken under the verifier {stale[0]}; the contract is now "
                                        f"{VERIFIER}, so its verdicts may differ: review again")
    target = out if out is not None else _in_place_target(suite_path)
    document = parse_json(suite_path, data)
    cases = {case.id: case for case in suite.cases}
    items = {item["id"]: item for item in document["cases"] if isinstance(item, dict)}
    accepted: list[str]
    rejected: list[str]
    accepted, rejected, skipped, relabelled = [], [], [], []
    for decision in decisions.values():
        case = cases[decision.case]
        if decision.sha256 != case_sha256(case):  # pragma: no cover - the suite's digest would differ first
            raise ReviewError(pending.path, f"the case {decision.case!r} changed since it was decided")
        if decision.decision == SKIP_DECISION:
            skipped.append(case.id)
            continue
        item = items[case.id]
        changes = _relabel(item, case, decision) if decision.decision == ACCEPT_DECISION else []
        if changes:
            relabelled.append(case.id)
            item["history"] = [*item.get("history", []), *changes]
        decided = replace(case, **_new_expectations(case, decision)) if decision.decision == ACCEPT_DECISION else case
        item["review"] = Review(decision.decision, decision.verdict, case_sha256(decided),
                                **decision.signature()).document()
        (accepted if decision.decision == ACCEPT_DECISION else rejected).append(case.id)
    for label in labels.values():
        item = items[label.case]
        kept = [entry for entry in item.get("human_labels", []) if entry.get("claim") != label.claim]
        entry = {key: value for key, value in msgspec.to_builtins(label).items() if key != "case"}
        item["human_labels"] = sorted([*kept, entry], key=lambda entry: entry["claim"])
    written = (json_dumps(document) + "\n").encode("utf-8")
    if len(written) > MAX_SUITE_BYTES:
        raise ReviewError(target, f"the suite would be {len(written)} bytes, more than a suite may be")
    try:
        load_suite(target, data=written)
    except LoadError as exc:  # pragma: no cover - every member was checked: a backstop, before anything is written
        raise ReviewError(pending.path, f"nothing applied: the suite would not load ({exc})") from None
    try:
        if out is None:
            if file_sha256(read_bytes(suite_path)) != content.suite_sha256:
                raise ReviewError(suite_path, "changed while the decisions were being applied; nothing applied")
            write_files(target.parent, {target.name: written}, overwrite=True, keep_mode=True)
        else:
            write_files(target.parent, {target.name: written})
    except WriteError as exc:
        raise ReviewError(target, f"nothing applied: {exc.reason}") from None
    if remove_pending:
        _discard(pending.path)
    return Applied(target, tuple(accepted), tuple(rejected), tuple(skipped), len(labels), tuple(relabelled))


def _in_place_target(suite_path: Path) -> Path:
    """Where applying in place writes: the suite's file, or where a symbolic link to it leads.
    ReviewError for a bundled suite, a read-only one, or one in a folder this process cannot write."""
    target = Path(os.path.realpath(suite_path)) if suite_path.is_symlink() else suite_path
    try:
        if _in_protected(suite_path):
            raise ProtectedTarget(suite_path, "", "")
        refuse_protected(target)
    except ProtectedTarget:
        raise ReviewError(suite_path, "is a bundled suite, which is never written in place; apply with --out NEW") \
            from None
    shown = suite_path if target == suite_path else f"{suite_path} (a link to {target})"
    if not may_write(target):
        raise ReviewError(shown, "is read-only; nothing applied (make it writable, or apply with --out NEW)")
    if not os.access(target.parent, os.W_OK | os.X_OK):
        raise ReviewError(shown, f"is in a folder this user cannot write ({target.parent}); nothing applied "
                                 "(apply with --out NEW)")
    return target


def _new_expectations(case: Case, decision: PendingDecision) -> dict[str, Any]:
    """The members an accept changes: the label, and the frozen lens where the case freezes it."""
    new: dict[str, Any] = {"expected": decision.verdict}
    if case.expected_labels is not None and decision.labels is not None:
        new["expected_labels"] = tuple(decision.labels)
    if case.expected_policy is not None and decision.policy is not None:
        new["expected_policy"] = decision.policy
    return new


def _relabel(item: dict[str, Any], case: Case, decision: PendingDecision) -> list[dict[str, Any]]:
    """Set the accepted expectations on the case's document; the history entries of what changed."""
    changes = []
    for member, value in _new_expectations(case, decision).items():
        old = getattr(case, member)
        if old == value:
            continue
        item[member] = list(value) if isinstance(value, tuple) else value
        words: Callable[[Any], str] = (lambda v: ",".join(v) if isinstance(v, tuple | list) else str(v))
        changes.append(LabelChange(words(old), words(value), member, **decision.signature()).document())
    return changes
