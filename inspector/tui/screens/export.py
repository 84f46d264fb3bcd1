"""A triage group written as a suite file, from the overview (``ctrl+e``).

The form asks for the file (a new one, proposed from the group's name) and how
many records, the first ones (1,000 unless told); ``presentation.triage.export_group``
rereads them from their offsets and writes the suite the headless ``--export``
writes, in a thread worker (a thousand records are a thousand reads, and the
disk can be slow or full).  A refusal (the file exists, the directory is
read-only, the disk is full, a log changed) is its one line in the form, the
fields kept; nothing is written then.  Esc closes the form.  The form's parts
(fields, status, the worker) are ``FormScreen``'s.
"""

from __future__ import annotations

from pathlib import Path

from textual.content import Content

from ...presentation.triage import (
    EXPORT_LIMIT,
    ExportError,
    Group,
    LineReader,
    Snapshot,
    TriageRun,
    export_group,
    export_path,
)
from .. import keys, safe
from ..tones import TEXT, Tone, strong
from .form import Field, FormScreen

__all__ = ["ExportScreen"]

_MUTED = TEXT[Tone.MUTED]


class ExportScreen(FormScreen[None]):
    BINDINGS = keys.bindings("export")
    FORM = "export"
    REFUSALS = (ExportError,)

    def __init__(self, group: Group, snapshot: Snapshot, run: TriageRun) -> None:
        super().__init__()
        self.group = group
        self.snapshot = snapshot
        self.run = run
        self.written: Path | None = None  # the file written last

    def head(self) -> Content:
        return Content.assemble(
            (f"{self.group.records:,} records", "bold"), (" in the group; the first ones are written as the "
             "cases of a new suite (the registry, each record's request and raw answer, its verdict as the "
             "expected label, its place and metadata in the note), which open, audit and the lab read.", _MUTED))

    def fields(self) -> tuple[Field, ...]:
        group = self.group
        return (Field("path", "file", export_path(group), "a new file (an existing one is never written over)"),
                Field("limit", "records", str(min(EXPORT_LIMIT, group.records)), "how many, the first ones"))

    def on_mount(self) -> None:
        self.query_one("#export").border_title = Content.assemble("export the group · ",
                                                                  safe.content(self.group.name))
        self.input("path").focus()

    def submit(self) -> None:
        path, limit = self.value("path").strip(), self.value("limit").strip().replace(",", "").replace("_", "")
        if not path:
            self.missing("a file is needed: type the path of the new suite")
            return
        if not limit.isdigit() or int(limit) < 1:
            self.missing("records: a number, at least 1", "limit")
            return
        target, count = Path(path).expanduser(), int(limit)
        self.start(f"writing {min(count, self.group.records):,} records…",
                   lambda: export_group(self.group, self.snapshot, self.run, LineReader(), target, count),
                   lambda written: self._done(target, written))

    def _done(self, path: Path, written: int) -> None:
        self.written = path
        self.status(Content.assemble(
            safe.content(f"wrote {written:,} case{'s' if written != 1 else ''} into {path}", strong(Tone.GOOD)),
            ("\nopen it with ", _MUTED), safe.content(f"inspector open {path}"), (" · Esc closes", _MUTED)))

    def action_close(self) -> None:
        self.dismiss(None)
