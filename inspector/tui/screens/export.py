"""A triage group written as a suite file, from the overview or its records (``ctrl+e``).

The form asks for the file (a new one, proposed from the group's name), which
records (``take``: the first ones, a random sample drawn with a seed, or the
records marked by hand, offered first when any is: ``presentation.export_form``
reads the fields) and how many (1,000 unless told); ``presentation.group_export.export_group``
rereads them from their offsets and writes the suite the headless ``--export``
writes, in a thread worker (a thousand records are a thousand reads, and the
disk can be slow or full).  A refusal (the file exists, the directory is
read-only, the disk is full) is its one line in the form, the fields kept;
nothing is written then.  A log rewritten or rotated since it was counted
(``StaleExport``: the engine checks each log's stamp and each reread record's
verdict) is refused so too, and ``ctrl+r`` then closes the form and counts
again (the form's result is True).  The count is a whole number from 1 to the
group's records (``presentation.numbers``: ``²`` or 5,000 digits are refused,
not a crash).  Served (``inspector serve``), nothing is written on the server:
the suite is offered to the browser as a download named after the path's last
part (``export_download``).  Esc closes the form.  The form's parts (fields,
status, the worker) are ``FormScreen``'s.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from textual.content import Content

from ...presentation.export_form import ExportFormError, default_take, export_choice
from ...presentation.group_export import EXPORT_LIMIT, Shown, StaleExport, export_download, export_group, export_path
from ...presentation.overview import Snapshot, TriageRun
from ...presentation.save_form import download_name
from ...triage.drill import LineReader
from ...triage.export import ExportError
from ...triage.summary import Group
from .. import keys, safe
from ..tones import TEXT, Tone, strong
from .form import Field, FormScreen

__all__ = ["ExportScreen"]

_MUTED = TEXT[Tone.MUTED]


class ExportScreen(FormScreen[bool]):
    BINDINGS = keys.bindings("export")
    FORM = "export"
    REFUSALS = (ExportError,)

    def __init__(self, group: Group, snapshot: Snapshot, run: TriageRun, marked: Sequence[int] = (),
                 shown: Shown | None = None) -> None:
        super().__init__()
        self.group = group
        self.snapshot = snapshot
        self.run = run
        self.shown = shown  # the records the list shows when narrowed (a filter): what is taken from
        visible = set(shown.numbers) if shown is not None else None
        # the records marked by hand on the group's records (their numbers), those shown when narrowed
        self.marked = tuple(number for number in marked if visible is None or number in visible)
        self.hidden_marks = len(marked) - len(self.marked)
        self.records = len(shown) if shown is not None else group.records  # what the count is of
        self.written: Path | None = None  # the file written last
        self.stale = False  # a log changed since it was counted: ctrl+r counts again

    def head(self) -> Content:
        marked = (f"{len(self.marked):,} marked", "bold") if self.marked else ("", _MUTED)
        shown = self.shown
        hidden = f" ({self.hidden_marks:,} more hidden by the filter: not written)" if self.hidden_marks else ""
        return Content.assemble(
            *([(f"{len(shown):,}", "bold"), (f" of the group's {self.group.records:,} records shown (", _MUTED),
               safe.content(shown.words), ("): only they are written", _MUTED)] if shown is not None else
              [(f"{self.group.records:,} records", "bold"), (" in the group", _MUTED)]),
            (", " if self.marked else "", _MUTED), marked, (hidden, _MUTED),
            (f"; {'the marked ones, ' if self.marked else ''}the first ones or a random sample (the same records "
             "for a seed) are written as the cases of a new suite (the registry, each record's request and raw "
             "answer, its verdict as the expected label, its place and metadata), which open, audit and the lab "
             "read.", _MUTED))

    def fields(self) -> tuple[Field, ...]:
        group = self.group
        return (Field("path", "file", export_path(group), "a new file (an existing one is never written over)"),
                Field("take", "take", default_take(len(self.marked)),
                      "first, sample or marked" if self.marked else "first or sample"),
                Field("limit", "records", str(min(EXPORT_LIMIT, self.records)),
                      "how many: the first ones, or the sample's size"),
                Field("seed", "seed", "", "the sample's seed (empty: one is picked, and said)"))

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
            choice = export_choice(self.value("take"), self.value("limit"), self.value("seed"), self.records,
                                   self.marked, self.shown.records_words if self.shown is not None else None)
        except ExportFormError as exc:
            self.missing(str(exc), "limit" if exc.field == "count" else exc.field)
            return
        if self.app.is_web:  # served (inspector serve): the browser downloads it, nothing is written here
            name = download_name(path, export_path(self.group))
            self.start(choice.doing,
                       lambda: export_download(self.group, self.snapshot, self.run, LineReader(), name, choice.count,
                                               numbers=choice.numbers, sample=choice.sample, shown=self.shown),
                       lambda done: self._offered(name, *done))
            return
        target = Path(path).expanduser()
        self.start(choice.doing,
                   lambda: export_group(self.group, self.snapshot, self.run, LineReader(), target, choice.count,
                                        numbers=choice.numbers, sample=choice.sample, shown=self.shown),
                   lambda written: self._done(target, written, choice.how))

    def _offered(self, name: str, data: bytes, written: int) -> None:
        self.app.deliver_binary(io.BytesIO(data), save_filename=name, open_method="download",
                                mime_type="application/json")
        self.status(Content.assemble(
            safe.content(f"offered {written:,} case{'s' if written != 1 else ''} as a download: {name}",
                         strong(Tone.GOOD)), ("\nthe browser saves it · Esc closes", _MUTED)))

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

    def _done(self, path: Path, written: int, how: str = "") -> None:
        self.written = path
        self.status(Content.assemble(
            safe.content(f"wrote {written:,} case{'s' if written != 1 else ''} into {path}", strong(Tone.GOOD)),
            (f"\n{how}" if how else "", _MUTED),
            ("\nopen it with ", _MUTED), safe.content(f"inspector open {path}"), (" · Esc closes", _MUTED)))

    def action_close(self) -> None:
        self.dismiss(False)
