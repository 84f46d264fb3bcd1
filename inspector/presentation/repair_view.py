"""What the lab's repair view shows for a case as shown: ``RepairView``.

The repair itself is ``lab.repair`` (computed from the request and the registry);
this says it in the view's words: the verdict now and after, the diff of the
claims as signed lines with their tone, and, when no edit can make the answer
ACCEPT, why, naming the requested fields no eligible source was supplied for
(that rejection is retrieval's).  The change it applies is one ``Change`` whose
records are the repair's edits, as a saved counterexample's provenance keeps them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..contract.evidence import recall_for
from ..contract.text import visible
from ..lab.history import Change
from ..lab.repair import Repair, repair
from ..reports.case import CaseReport
from ..reports.tones import Tone

__all__ = ["MAX_LINE", "DiffLine", "RepairView"]

# A diff line of a rewrite holds the whole answer: beyond this many characters the
# view shows its start and how much more there is (the change applies it whole).
MAX_LINE = 2000


@dataclass(frozen=True, slots=True)
class DiffLine:
    """One line of the claims diff: ``-`` what goes, ``+`` what comes."""

    sign: str
    text: str  # without the sign, invisible characters already made visible
    tone: Tone


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


@dataclass(frozen=True, slots=True)
class RepairView:
    """The repair of ``report``'s answer (the case as shown: edited or frozen)."""

    report: CaseReport
    repair: Repair

    @classmethod
    def of(cls, report: CaseReport) -> RepairView:
        case, verdict = report.case, report.verdict
        if case is None or verdict is None:
            raise ValueError(f"case {report.id} could not be loaded: there is no answer to repair")
        return cls(report, repair(case.raw, case.request, report.suite.registry, verdict))

    @property
    def was(self) -> str:
        """The verdict of the answer as shown, with the claim it was rejected on."""
        verdict = self.report.verdict
        assert verdict is not None
        return verdict.label if verdict.ok or verdict.claim is None else f"{verdict.label} (claims[{verdict.claim}])"

    @property
    def now(self) -> str:
        """The verdict the repaired answer gets (ACCEPT when the repair is possible)."""
        return self.repair.verdict.label

    @property
    def applies(self) -> bool:
        """Enter changes the answer: there is a repair and it has edits."""
        return self.repair.possible and not self.repair.empty

    @property
    def headline(self) -> str:
        """One sentence: what the repair does, or why there is none."""
        fix = self.repair
        if not fix.possible:
            if fix.retrieval:
                return (f"no eligible source was supplied for {visible(', '.join(self.fields))}: this rejection "
                        "is retrieval's, and no edit of the answer can fix it")
            return "no edit of the answer can make it ACCEPT"
        if fix.empty:
            return "already ACCEPT: nothing to repair"
        return f"{_plural(len(fix.edits), 'edit')} make{'s' if len(fix.edits) == 1 else ''} it {self.now}"

    @property
    def fields(self) -> tuple[str, ...]:
        """The requested fields no eligible source was supplied for (retrieval's
        rejection), in request order; empty when the repair is possible."""
        if self.repair.possible or not self.repair.retrieval:
            return ()
        case = self.report.case
        assert case is not None
        missing = tuple(item.field for item in recall_for(case.request, self.report.suite.registry).fields
                        if not item.supplied)
        return missing or ((self.repair.field,) if self.repair.field else ())

    @property
    def missing(self) -> tuple[str, ...]:
        """For a rejection that is retrieval's, per field, what would have supported it."""
        if not self.fields:
            return ()
        case = self.report.case
        assert case is not None
        request = case.request
        where = f"{request.service}/{request.environment}/{request.revision}"
        lines = []
        for item in recall_for(request, self.report.suite.registry).fields:
            if item.field not in self.fields:
                continue
            if item.relevant:
                were = "was" if len(item.relevant) == 1 else "were"
                lines.append(f"{item.field}: {', '.join(item.relevant)} would support it but {were} not supplied")
            else:
                scoped = " readable under the scope" if request.scope is not None else ""
                lines.append(f"{item.field}: no source of {where}{scoped} holds it")
        return tuple(visible(line) for line in lines)

    @property
    def reason(self) -> str | None:
        """Why there is no repair, in full (which sources would have supported it)."""
        return None if self.repair.possible else visible(self.repair.reason or "")

    @property
    def lines(self) -> tuple[DiffLine, ...]:
        """The claims diff, in the order the edits apply (empty without a repair)."""
        if not self.repair.possible:
            return ()
        out = []
        for line in self.repair.diff_lines():
            sign, text = line[:1], line[2:]
            if len(text) > MAX_LINE:
                text = f"{text[:MAX_LINE]}… ({len(text) - MAX_LINE} more characters)"
            out.append(DiffLine(sign, text, Tone.BAD if sign == "-" else Tone.GOOD))
        return tuple(out)

    def change(self) -> Change | None:
        """The change Enter applies: the repaired answer, recorded edit by edit."""
        if not self.applies:
            return None
        edits = self.repair.edits
        return Change(self.repair.raw, f"repair: {_plural(len(edits), 'edit')}",
                      tuple(edit.to_dict() for edit in edits))
