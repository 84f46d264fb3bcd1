"""The annotate form (``a`` on a triage group's record): a decision and a note.

The record's place and verdict in the head, the two decisions its verdict
allows (typed by name, or ``true``/``false``), and a note; Enter keeps them in
the annotations file beside the log (``presentation.annotate.AnnotationStore``,
in a thread worker: writing can block on a slow disk).  A refusal (a decision
not of the record's pair, standard input, a foreign or corrupt annotations
file, the bundled fixtures, a log changed since it was counted) is its one
line in the form, nothing written.  Dismissed with the annotation kept (None:
closed without one).  The note is untrusted text: drawn through ``safe``.
"""

from __future__ import annotations

from textual.content import Content

from ...presentation.annotate import AnnotationStore, RecordAnnotation, parse_decision
from ...triage.annotations import Annotation, AnnotationError
from ...triage.logs import LogError
from ...presentation.record_session import RecordSession
from .. import keys, safe
from ..tones import TEXT, Tone, strong
from .form import Field, FormScreen

__all__ = ["AnnotateScreen"]

_MUTED = TEXT[Tone.MUTED]


class AnnotateScreen(FormScreen[Annotation | None]):
    BINDINGS = keys.bindings("annotate")
    FORM = "annotate"
    REFUSALS = (AnnotationError, LogError, ValueError)

    def __init__(self, store: AnnotationStore, session: RecordSession, number: int, record: RecordAnnotation) -> None:
        super().__init__()
        self.store = store
        self.session = session
        self.number = number
        self.record = record

    def head(self) -> Content:
        record = self.record
        true, false = record.choices
        tone = Tone.GOOD if record.verdict == "ACCEPT" else Tone.BAD
        return Content.assemble(
            safe.content(f"{record.file}:{record.line}", "bold"), (f" · offset {record.offset} · verdict ", _MUTED),
            (record.verdict, strong(tone)),
            ("\nthe contract was right: ", _MUTED), (true, "bold"), (" (true) · wrong: ", _MUTED), (false, "bold"),
            (" (false). Kept beside the log, never in it.", _MUTED))

    def fields(self) -> tuple[Field, ...]:
        current = self.record.current
        return (Field("decision", "decision", current.decision if current is not None else "",
                      f"{' or '.join(self.record.choices)} (true, false)"),
                Field("note", "note", current.note or "" if current is not None else "", "optional: why"))

    def on_mount(self) -> None:
        self.query_one("#annotate").border_title = "annotate the record"
        self.input("decision").focus()

    def submit(self) -> None:
        if not self.value("decision").strip():
            self.missing(f"a decision is needed: {' or '.join(self.record.choices)}", "decision")
            return
        try:
            decision = parse_decision(self.value("decision"), self.record.verdict)
        except ValueError as exc:
            self.missing(str(exc), "decision")
            return
        note = self.value("note")
        self.start("keeping the annotation…", lambda: self.store.annotate(self.session, self.number, decision, note),
                   self.dismiss)
