"""A triage group written as a suite file, from the overview (``ctrl+e``).

The form asks for the file (a new one, proposed from the group's name) and how
many records, the first ones (1,000 unless told); ``presentation.triage.export_group``
rereads them from their offsets and writes the suite the headless ``--export``
writes, in a thread worker (a thousand records are a thousand reads, and the
disk can be slow or full).  A refusal (the file exists, the directory is
read-only, the disk is full) is its one line in the form, the fields kept;
nothing is written then.  A log rewritten or rotated since it was counted
(``StaleExport``: the engine checks each log's stamp and each reread record's
verdict) is refused so too, and ``ctrl+r`` then closes the form and counts
again (the form's result is True).  The count is a whole number from 1 to the
group's records (``presentation.numbers``: ``²`` or 5,000 digits are refused,
not a crash).  Esc closes the form.  The form's parts (fields, status, the
worker) are ``FormScreen``'s.
"""

from __future__ import annotations

from pathlib import Path

from textual.content import Content

from ...presentation.numbers import NumberError, whole_number
from ...presentation.triage import (
    EXPORT_LIMIT,
    ExportError,
    Group,
    LineReader,
    Snapshot,
    StaleExport,
    TriageRun,
    export_group,
    export_path,
)
from .. import keys, safe
from ..tones import TEXT, Tone, strong
from .form import Field, FormScreen

__all__ = ["ExportScreen"]

_MUTED = TEXT[Tone.MUTED]


class ExportScreen(FormScreen[bool]):
    BINDINGS = keys.bindings("export")
    FORM = "export"
    REFUSALS = (ExportError,)

    def __init__(self, group: Group, snapshot: Snapshot, run: TriageRun) -> None:
        super().__init__()
        self.group = group
        self.snapshot = snapshot
        self.run = run
        self.written: Path | None = None  # the file written last
        self.stale = False  # a log changed since it was counted: ctrl+r counts again

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
        path = self.value("path").strip()
        if not path:
            self.missing("a file is needed: type the path of the new suite")
            return
        try:
            count = whole_number(self.value("limit"), most=self.group.records, what="records")
        except NumberError as exc:
            self.missing(str(exc), "limit")
            return
        target = Path(path).expanduser()
        self.start(f"writing {count:,} records…",
                   lambda: export_group(self.group, self.snapshot, self.run, LineReader(), target, count),
                   lambda written: self._done(target, written))

    def refused(self, refusal: Exception) -> None:
        super().refused(refusal)
        if isinstance(refusal, StaleExport):
            self.stale = True
            self.status(Content.assemble(
                ("✗ ", strong(Tone.BAD)), safe.content(str(refusal), TEXT[Tone.BAD]),
                ("\n", _MUTED), ("^r", "bold"), (" closes the form and counts again · Esc closes", _MUTED)))
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "recount":
            return self.stale
        return True

    def action_recount(self) -> None:
        self.dismiss(True)

    def _done(self, path: Path, written: int) -> None:
        self.written = path
        self.status(Content.assemble(
            safe.content(f"wrote {written:,} case{'s' if written != 1 else ''} into {path}", strong(Tone.GOOD)),
            ("\nopen it with ", _MUTED), safe.content(f"inspector open {path}"), (" · Esc closes", _MUTED)))

    def action_close(self) -> None:
        self.dismiss(False)
