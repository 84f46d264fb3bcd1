"""What the lab's save form proposes and says: ``SaveForm``.

Saving is ``lab.save.save_case`` (whole or nothing, never into a file inspector
did not create); this is the form around it.  Its defaults: the file is the last
one saved into this session, else ``counterexamples.json`` in the current
directory; the id is the parent's id and the last change (``complete-answer.
quote.other_line``), made unique in that file; the expected label is the verdict
the case gets now.  A frozen case can be saved unedited too (its provenance then
records no edits): a copy of a case from a suite one cannot write into, with a
note or another label, is how a counterexample collection starts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from .. import __version__
from ..contract.text import visible
from ..lab.history import History, Record
from ..lab.save import SaveError, new_file_bytes, save_case
from ..reports.case import CaseReport
from ..reports.labels import label_matches
from ..reports.tones import Tone
from ..suites.load import Case, LoadError, Suite, load_suite, parse_label

__all__ = ["DEFAULT_PATH", "Download", "SaveForm", "SaveOutcome", "download_name", "ids_in", "resolve_path",
           "saved_line"]

DEFAULT_PATH = "counterexamples.json"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
# A default id's suffix keeps at most this many characters (the parent's id comes whole before it).
SUFFIX_CHARS = 32


def resolve_path(text: str) -> Path:
    """The file a typed path names (``~`` expanded; relative to the current directory)."""
    return Path(text.strip()).expanduser()


def ids_in(path: Path) -> frozenset[str]:
    """The case ids already in a suite file (none when it does not exist or does not load)."""
    try:
        suite = load_suite(path, strict=False)
    except (LoadError, OSError):
        return frozenset()
    return frozenset(case.id for case in suite.cases) | {e.id for e in suite.broken if e.id is not None}


def download_name(text: str, default: str = DEFAULT_PATH) -> str:
    """A typed path as the name of a file the browser downloads: its last part, made a
    plain file name (a served inspector writes nothing on the server)."""
    name = _UNSAFE.sub("_", Path(text.strip()).name).strip("._")
    return name if name else default


@dataclass(frozen=True, slots=True)
class Download:
    """A file offered to the browser instead of written (served): its name and bytes,
    or, when refused, None and why; ``message`` is the line to show either way."""

    name: str
    data: bytes | None
    message: str


@dataclass(frozen=True, slots=True)
class SaveOutcome:
    """What one save did: the file as loaded back (None when refused) and, in one
    line, what happened (``saved ... (N cases)``, or the refusal and why)."""

    path: Path
    case_id: str
    suite: Suite | None
    message: str

    @property
    def ok(self) -> bool:
        return self.suite is not None


@dataclass(frozen=True, slots=True)
class SaveForm:
    """The save form of ``report`` (the case as shown) with its lab ``history``."""

    report: CaseReport
    history: History

    @property
    def parent_case(self) -> Case:
        """The frozen case the saved one comes from."""
        parent = self.report.parent or self.report
        assert parent.case is not None
        return parent.case

    @property
    def parent_suite(self) -> Suite:
        return self.report.suite

    @property
    def raw(self) -> str | bytes:
        """The answer as shown, which is what is saved."""
        assert self.report.case is not None
        return self.report.case.raw

    @property
    def edits(self) -> tuple[Record, ...]:
        """The applied changes' records in order (the provenance's ``edits``)."""
        return self.history.records

    @property
    def edited(self) -> bool:
        return self.history.edited

    @property
    def title(self) -> str:
        return "save the edited case" if self.edited else "save a copy of the frozen case"

    @property
    def summary(self) -> str:
        """Where the case comes from and what was changed, in words (visible)."""
        where = f"{visible(self.parent_suite.name)} / {visible(self.parent_case.id)}"
        applied = self.history.applied
        if not applied:
            return f"{where}, unedited: saved as its suite has it (no edits recorded)"
        changes = "; ".join(visible(change.what) for change in applied)
        count = len(applied)
        return f"{where}, {count} change{'' if count == 1 else 's'}: {changes}"

    @property
    def verdict(self) -> str:
        return self.report.actual

    def default_id(self, taken: frozenset[str] = frozenset()) -> str:
        """The parent's id and the last change's short name (a mutation's dotted name, ``repair``,
        ``raw-edit``, ``edit-value`` for the claim form's: the members it wrote, never their values),
        numbered if the file already holds it: ``complete-answer.edit-value-2``."""
        base = self.parent_case.id
        last = self.history.applied[-1] if self.history.applied else None
        records = last.records if last is not None else ()
        if last is None:
            suffix = "copy"
        elif records and isinstance(records[-1], str):
            suffix = records[-1]  # a mutation: its dotted name
        elif records and all(isinstance(r, dict) and r.get("what") == "edit" for r in records):
            members = dict.fromkeys(str(r.get("member")) for r in records if isinstance(r, dict))
            suffix = "edit-" + "-".join(members)  # the claim form's: the members written
        else:
            suffix = re.split(r":| at |\[", last.what)[0]  # "repair: 2 edits", "raw edit at 1:5: …"
        suffix = _UNSAFE.sub("-", suffix.strip().lower()).strip("-")[:SUFFIX_CHARS].strip("-") or "edit"
        candidate = f"{base}.{suffix}"
        number = 2
        while candidate in taken:
            candidate = f"{base}.{suffix}-{number}"
            number += 1
        return candidate

    def save(self, path: str, case_id: str, expected: str, note: str | None) -> SaveOutcome:
        """Save the case as shown as ``case_id`` of the file ``path`` names (it can
        block: the form calls it from a thread).  A refusal is a value, never raised."""
        target = resolve_path(path)
        try:
            suite = save_case(target, self.parent_suite, self.parent_case, self.raw, expected.strip(),
                              note.strip() if note and note.strip() else None, case_id, self.edits, __version__)
        except SaveError as error:
            return SaveOutcome(target, case_id, None, str(error))
        except Exception as error:  # noqa: BLE001 - a bug must not end the session: one line, not a traceback
            return SaveOutcome(target, case_id, None, f"{visible(str(target))}: not saved: internal error "
                                                      f"({type(error).__name__}: {visible(str(error))})")
        return SaveOutcome(target, case_id, suite, saved_line(case_id, path.strip(), suite))

    def download(self, path: str, case_id: str, expected: str, note: str | None) -> Download:
        """The case as shown, as a new counterexample file to download (served: nothing is
        written on the server).  A refusal is a value, never raised."""
        name = download_name(path)
        try:
            data = new_file_bytes(name, self.parent_suite, self.parent_case, self.raw, expected.strip(),
                                  note.strip() if note and note.strip() else None, case_id, self.edits, __version__)
        except SaveError as error:
            return Download(name, None, str(error))
        return Download(name, data, f"offered {visible(case_id)} as a download: {name} (the browser saves it)")

    def label_note(self, expected: str) -> tuple[str, Tone] | None:
        """What the form says under the expected label: why it is not a label,
        or that the case will not audit as its label (a warning, still saved)."""
        expected = expected.strip()
        if not expected:
            return ("an expected label is needed (ACCEPT, or a rejection code such as VALUE_MISMATCH)", Tone.BAD)
        try:
            parse_label(expected)
        except ValueError as exc:
            return (f"not a label: {visible(str(exc))}", Tone.BAD)
        verdict = self.report.verdict
        if verdict is not None and label_matches(expected, verdict) is False:
            return (f"the case gets {self.verdict} now: saved with this label it audits as a mismatch", Tone.WARN)
        return None


def saved_line(case_id: str, path: str | Path, suite: Suite) -> str:
    """``saved <id> into <path> (N cases)``."""
    count = len(suite.cases)
    return f"saved {visible(case_id)} into {visible(str(path))} ({count} case{'' if count == 1 else 's'})"

