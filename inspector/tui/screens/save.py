"""The save form: the case as shown, saved as a new case of a counterexample file.

The form asks for the file, the id, the expected label and a note (defaults from
``presentation.save_form.SaveForm``) and calls ``lab.save.save_case`` in a
thread worker (writing can block on a slow or full disk).  A refusal (a bundled
or foreign suite, an id already there, a full disk, a read-only directory) is
the ``SaveError``'s one line, shown in the form so that the id or the path can be
fixed without typing the rest again; the file is as it was.  Served (``inspector
serve``), nothing is written on the server: the case, as a new counterexample file
named after the path's last part, is offered to the browser as a download.  Once saved, Enter
opens the saved case in the inspector; Esc closes the form.  The form's parts
(fields, status, the worker) are ``FormScreen``'s.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

from textual import on, work
from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import Input, Static

from ...presentation.save_form import DEFAULT_PATH, Download, SaveForm, SaveOutcome, ids_in, resolve_path
from ...suites.load import Suite
from .. import keys, safe
from ..tones import TEXT, Tone, strong
from .form import Field, FormScreen

__all__ = ["SaveScreen", "Saved"]

_MUTED = TEXT[Tone.MUTED]
_FIELDS = ("path", "id", "expected", "note")


@dataclass(frozen=True, slots=True)
class Saved:
    """What the form saved last: the file (as loaded back) and the case's id;
    ``open`` when the user asked to open it in the inspector."""

    path: Path
    suite: Suite
    case_id: str
    open: bool = False


class SaveScreen(FormScreen[Saved | None]):
    BINDINGS = keys.bindings("save")
    FORM = "save"

    def __init__(self, form: SaveForm, path: str | None = None) -> None:
        super().__init__()
        self.form = form
        self.path = path or DEFAULT_PATH
        self.saved: Saved | None = None  # the last save of this form
        self._suggested: str | None = None  # the id proposed for the path, until the user types another
        self._saved_fields: tuple[str, ...] = ()  # the fields as they were when saved

    def head(self) -> Content:
        form = self.form
        return Content.assemble(
            safe.content(form.summary), ("\nverdict now ", _MUTED),
            (form.verdict, strong(Tone.GOOD if form.report.verdict and form.report.verdict.ok else Tone.BAD)))

    def fields(self) -> tuple[Field, ...]:
        where = ("the name of the file the browser downloads (served: nothing is written here)" if self.app.is_web
                 else "a new file, or a counterexample file inspector created")
        return (Field("path", "file", self.path, where),
                Field("id", "id", "", "unique in that file"),
                Field("expected", "expected", self.form.verdict, "ACCEPT or a rejection code"),
                Field("note", "note", "", "optional: why this case matters"))

    def after(self, field: str) -> ComposeResult:
        if field == "expected":
            yield Static("", id="save-label-note")

    def on_mount(self) -> None:
        self.query_one("#save").border_title = Content.assemble(
            f"{self.form.title} · ", safe.content(self.form.report.id))
        self._show_label_note()
        self._suggest_id(self.path)
        self.input("id").focus()

    # -- the fields ----------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="save-suggest")
    def _suggest_id(self, path: str) -> None:
        """Propose an id not yet in the file (reading it can take a moment)."""
        taken = ids_in(resolve_path(path)) if path.strip() else frozenset()
        self.app.call_from_thread(self._set_suggestion, self.form.default_id(taken))

    def _set_suggestion(self, suggestion: str) -> None:
        if self.busy or (self.saved is not None and self._unchanged_since_saved()):
            return  # read before a save landed: the id being saved, or saved, stays shown
        field = self.input("id")
        if field.value == (self._suggested or ""):  # the user has not typed an id of their own
            with field.prevent(Input.Changed):
                field.value = suggestion
            field.cursor_position = len(suggestion)
        self._suggested = suggestion

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        if event.input.id == "save-expected":
            self._show_label_note()
        elif event.input.id == "save-path":
            self._suggest_id(event.value)
        if self.saved is not None:  # a field changed: Enter saves again
            self.status(Content.styled("Enter saves with these fields.", _MUTED))

    def _show_label_note(self) -> None:
        note = self.form.label_note(self.value("expected"))
        widget = self.query_one("#save-label-note", Static)
        widget.update(Content.styled(note[0], TEXT[note[1]]) if note is not None else Content(""))
        widget.display = note is not None

    # -- saving -----------------------------------------------------------------------------

    def submit(self) -> None:
        if self.saved is not None and self._unchanged_since_saved():
            self.dismiss(Saved(self.saved.path, self.saved.suite, self.saved.case_id, open=True))
            return
        path = self.value("path")
        if not path.strip():
            self.missing("a file is needed: type the path of the counterexample file", "path")
            return
        case_id, expected, note = self.value("id"), self.value("expected"), self.value("note")
        if self.app.is_web:  # served (inspector serve): the browser downloads it, nothing is written here
            self.start("preparing the download…", lambda: self.form.download(path, case_id, expected, note),
                       self._offered)
            return
        self.start("saving…", lambda: self.form.save(path, case_id, expected, note), self._saved_as)

    def _offered(self, download: Download) -> None:
        if download.data is None:
            self.refuse(download.message)
            return
        self.app.deliver_binary(io.BytesIO(download.data), save_filename=download.name, open_method="download",
                                mime_type="application/json")
        self.status(Content.assemble(safe.content(download.message, strong(Tone.GOOD)), ("\nEsc closes", _MUTED)))

    def _unchanged_since_saved(self) -> bool:
        return self._saved_fields == tuple(self.value(field) for field in _FIELDS)

    def _saved_as(self, outcome: SaveOutcome) -> None:
        if outcome.suite is None:
            self.refuse(outcome.message)
            return
        self.saved = Saved(outcome.path, outcome.suite, outcome.case_id)
        self._saved_fields = tuple(self.value(field) for field in _FIELDS)
        self.status(Content.assemble(safe.content(outcome.message, strong(Tone.GOOD)),
                                     ("\nEnter opens it in the inspector · Esc closes", _MUTED)))

    def action_close(self) -> None:
        """Close the form, handing back what was saved (the main screen remembers the file)."""
        self.dismiss(self.saved)
