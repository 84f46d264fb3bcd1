"""The lab's hand edit of one claim: new field, value, doc and quote, as one change.

The edit form gives the claim's four members as the person left them; only the
members that differ from the decoded claim are written, each by splicing its one
string token into the raw text (``mutations.replace_member``, the same splice the
mutations use), so the rest of the answer (its spacing, its escapes, the other
claims, the members left alone) stays byte for byte what it was.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..contract.decode import MEMBERS
from ..contract.text import shorten, visible
from .history import Change
from .mutations import Answer, replace_member

__all__ = ["claim_edit", "members_of", "quoted"]

# How much of each value the change's words keep (the records keep it whole).
_SHOWN = 30


def members_of(answer: Answer, claim: int) -> dict[str, str]:
    """The claim's members as decoded, what the form starts from."""
    current = answer.claims[claim]
    return {member: getattr(current, member) for member in MEMBERS}


def claim_edit(answer: Answer, claim: int, values: Mapping[str, str]) -> Change | None:
    """The change that gives claim ``claim`` these member values, or None when none
    differs.  One record per member written: ``{"what": "edit", "claim", "member",
    "old", "new"}``, ``old`` and ``new`` the JSON tokens as they stood and as written."""
    before = members_of(answer, claim)
    edits = []
    for member in MEMBERS:
        value = values.get(member, before[member])
        if value != before[member]:
            edits.append((member, replace_member(answer, claim, member, value, member)))
    if not edits:
        return None
    text = answer.text
    # From the end, so that each span still points into the text as it was.
    for _, variant in sorted(edits, key=lambda edit: edit[1].start, reverse=True):
        text = text[:variant.start] + variant.replacement + text[variant.end:]
    records = tuple({"what": "edit", "claim": claim, "member": member,
                     "old": answer.token(("claims", claim, member)), "new": variant.replacement}
                    for member, variant in edits)
    words = ", ".join(f"claims[{claim}].{member} {quoted(before[member])} → {quoted(values[member])}"
                      for member, _ in edits)
    return Change(text, f"edit {words}", records)


def quoted(value: str) -> str:
    """A value (or a piece of the answer) in a change's words: quoted, shortened, invisible characters as ``\\uXXXX``."""
    return f'"{visible(shorten(value, _SHOWN))}"'
