"""A triage group written as a suite file, from the overview (``ctrl+e``).

The form asks for the file (a new one, proposed from the group's name) and how
many records, the first ones (1,000 unless told); ``presentation.triage.export_group``
rereads them from their offsets and writes the suite the headless ``--export``
writes, in a thread worker (a thousand records are a thousand reads, and the
disk can be slow or full).  A refusal (the file exists, the directory is
read-only, the disk is full, a log changed) is its one line in the form, the
fields kept; nothing is written then.  Esc closes the form.
"""

from __future__ import annotations

from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Footer, Input, Label, Static

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

__all__ = ["ExportScreen"]

_MUTED = TEXT[Tone.MUTED]


class ExportScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    ExportScreen { align: center middle; }
    ExportScreen > #export { width: 90%; max-width: 100; }
    """

    BINDINGS = keys.bindings("export")

    def __init__(self, group: Group, snapshot: Snapshot, run: TriageRun) -> None:
        super().__init__()
        self.group = group
        self.snapshot = snapshot
        self.run = run
        self.busy = False
        self.written: Path | None = None  # the file written last

    def compose(self) -> ComposeResult:
        group = self.group
        with Vertical(id="export", classes="dialog"):
            yield Static(Content.assemble(
                (f"{group.records:,} records", "bold"), (" in the group; the first ones are written as the "
                 "cases of a new suite (the registry, each record's request and raw answer, its verdict as the "
                 "expected label, its place and metadata in the note), which open, audit and the lab read.",
                 _MUTED)), id="export-head", classes="dialog-head")
            for field, label, value, placeholder in (
                    ("path", "file", export_path(group), "a new file (an existing one is never written over)"),
                    ("limit", "records", str(min(EXPORT_LIMIT, group.records)), "how many, the first ones")):
                with Horizontal(classes="dialog-row"):
                    yield Label(label)
                    yield Input(value, placeholder=placeholder, id=f"export-{field}", compact=True,
                                select_on_focus=False)
            yield Static("", id="export-status", classes="dialog-status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#export").border_title = Content.assemble("export the group · ",
                                                                  safe.content(self.group.name))
        self.query_one("#export-path", Input).focus()

    def value(self, field: str) -> str:
        return self.query_one(f"#export-{field}", Input).value

    def _status(self, content: Content) -> None:
        self.query_one("#export-status", Static).update(content)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    def action_submit(self) -> None:
        if self.busy:
            return
        path, limit = self.value("path").strip(), self.value("limit").strip().replace(",", "").replace("_", "")
        if not path:
            self._status(Content.styled("a file is needed: type the path of the new suite", strong(Tone.BAD)))
            return
        if not limit.isdigit() or int(limit) < 1:
            self._status(Content.styled("records: a number, at least 1", strong(Tone.BAD)))
            self.query_one("#export-limit", Input).focus()
            return
        self.busy = True
        self._status(Content.styled(f"writing {min(int(limit), self.group.records):,} records…", _MUTED))
        self._export(Path(path).expanduser(), int(limit))

    @work(thread=True, exclusive=True, group="export")
    def _export(self, path: Path, limit: int) -> None:
        try:
            written = export_group(self.group, self.snapshot, self.run, LineReader(), path, limit)
        except ExportError as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        self.app.call_from_thread(self._done, path, written)

    def _failed(self, message: str) -> None:
        self.busy = False
        self._status(Content.assemble(("✗ ", strong(Tone.BAD)), safe.content(message, TEXT[Tone.BAD])))

    def _done(self, path: Path, written: int) -> None:
        self.busy = False
        self.written = path
        self._status(Content.assemble(
            safe.content(f"wrote {written:,} case{'s' if written != 1 else ''} into {path}", strong(Tone.GOOD)),
            ("\nopen it with ", _MUTED), safe.content(f"inspector open {path}"), (" · Esc closes", _MUTED)))

    def action_close(self) -> None:
        self.dismiss(None)
