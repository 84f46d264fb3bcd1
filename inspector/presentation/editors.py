"""The lab's two editors as the views see them: what they start from, what they write.

The edit form (``e``) starts from a ``ClaimForm``: the case's answer as shown, the
claim, its members decoded; what the form ends with becomes a change through
``lab.edit.claim_edit``.  The raw editor (``E``) hands back the text as edited;
``raw_edit`` is its change.  Views import this module, never the lab itself.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..contract.decode import MEMBERS
from ..lab.edit import claim_edit, members_of, quoted
from ..lab.history import Change, text_change
from ..lab.mutations import Answer, answer_of
from ..reports.case import CaseReport

__all__ = ["MEMBERS", "ClaimForm", "claim_form", "editable_text", "raw_edit"]


@dataclass(frozen=True, slots=True)
class ClaimForm:
    """One claim of a case's answer (as shown now), for the edit form."""

    answer: Answer
    claim: int
    case_id: str

    @property
    def values(self) -> dict[str, str]:
        """The claim's members as decoded: what the form's fields start with."""
        return members_of(self.answer, self.claim)

    def change(self, values: dict[str, str]) -> Change | None:
        """The change that gives the claim these members (None when none differs)."""
        return claim_edit(self.answer, self.claim, values)


def claim_form(report: CaseReport, claim: int | None) -> ClaimForm | None:
    """The form for claim ``claim`` of the report's answer, or None when the answer did
    not decode into claims (then only its text can be edited)."""
    case = report.case
    if case is None or claim is None:
        return None
    answer = answer_of(case.raw, case.request, report.suite.registry)
    if answer is None or not 0 <= claim < len(answer.claims):
        return None
    return ClaimForm(answer, claim, report.id)


def editable_text(report: CaseReport) -> str | None:
    """The report's answer as text for the raw editor, or None when it is bytes that
    are not UTF-8 (there is no text to edit)."""
    raw = report.case.raw if report.case is not None else None
    if raw is None:
        return None
    if isinstance(raw, str):
        return raw
    try:
        return bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        return None


def raw_edit(old: str, new: str) -> Change | None:
    """The raw editor's change (None when the text is what it was), in words:
    ``raw edit at 5:20: "0" → "1"``."""
    if new == old:
        return None
    change = text_change(old, new)
    record = change.records[0]
    assert isinstance(record, dict)
    return replace(change, what=f"raw edit at {record['where']}: {quoted(record['old'])} → {quoted(record['new'])}")
