"""The decide form (``N`` in review mode): a decision on the case shown, with a note.

The head says the case, its verdict against its frozen label and why it is
pending; the fields are the decision (accept, reject or skip; a, r, s) and the
note.  Enter writes the decision into the pending file
(``presentation.review.ReviewSession.decide``, in a thread worker: writing can
block on a slow disk); a refusal (a pending file that cannot be written, a
note too long) is its one line in the form, the fields kept.  Dismissed with
the decision kept (None: closed without one).  The note is untrusted: drawn
through ``safe`` wherever it is shown.
"""

from __future__ import annotations

from textual.content import Content

from ...presentation.review import ReviewSession
from ...presentation.review_view import parse_decision
from ...reports.case import CaseReport
from ...suites.review import PendingDecision, ReviewError
from .. import keys, safe
from ..tones import TEXT, Tone, strong
from .form import Field, FormScreen

__all__ = ["DecideScreen"]

_MUTED = TEXT[Tone.MUTED]


class DecideScreen(FormScreen[PendingDecision | None]):
    BINDINGS = keys.bindings("decide")
    FORM = "decide"
    REFUSALS = (ReviewError, ValueError)

    def __init__(self, review: ReviewSession, report: CaseReport) -> None:
        super().__init__()
        self.review = review
        self.report = report

    def head(self) -> Content:
        report = self.report
        ok = report.verdict is not None and report.verdict.ok
        return Content.assemble(
            ("verdict ", _MUTED), (report.actual, strong(Tone.GOOD if ok else Tone.BAD)),
            (" · frozen label ", _MUTED), safe.content(report.expected or "—", "bold"),
            ("\n", ""), (report.pending_reason or "decided before", _MUTED),
            ("\naccept: the verdict becomes the label · reject: keep the label (a known regression) · skip", _MUTED))

    def fields(self) -> tuple[Field, ...]:
        current = self.review.decision(self.report.number)
        return (Field("decision", "decision", current.decision if current is not None else "",
                      "accept, reject or skip (a, r, s)"),
                Field("note", "note", (current.note or "") if current is not None else "", "optional: why"))

    def on_mount(self) -> None:
        self.query_one("#decide").border_title = Content.assemble("decide · ", safe.content(self.report.id))
        self.input("decision" if not self.value("decision") else "note").focus()

    def submit(self) -> None:
        try:
            decision = parse_decision(self.value("decision"))
        except ValueError as exc:
            self.missing(str(exc), "decision")
            return
        note, number = self.value("note"), self.report.number
        self.start("writing the decision…", lambda: self.review.decide(number, decision, note), self.dismiss)
