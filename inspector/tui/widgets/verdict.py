"""The verdict: ACCEPT or the rejection, the baselines side by side, the frozen label.

The accepted map is shown only when the answer is accepted: a rejected
answer's claims are never presented as accepted values.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from .. import safe
from ..selection import Selection

__all__ = ["VerdictView"]

_MUTED = "$text-muted"
_GOOD = "bold $text-success"
_BAD = "bold $text-error"


def _baseline(name: str, accepts: bool) -> Content:
    outcome = ("✓ accept", _GOOD) if accepts else ("✗ reject", _BAD)
    return Content.assemble((f"{name:<14}", _MUTED), outcome)


class VerdictView(Static):
    HELP = (
        "**Verdict**: the contract's outcome and whether it matches the case's frozen label; the "
        "article's two baselines beside it (strict JSON only, citation only), with a call-out when "
        "citation-only would have accepted a rejected answer; the accepted map, only when accepted."
    )

    DEFAULT_CSS = """
    VerdictView { height: auto; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self._entry: object = None

    @property
    def text(self) -> str:
        return str(self.render())

    def show(self, selection: Selection) -> None:
        if selection.entry is self._entry:
            return
        self._entry = selection.entry
        content = render_verdict(selection)
        # A layout pass only when the verdict takes another number of lines.
        layout = not self.size.width or content.get_height(self.styles, self.size.width) != self.size.height
        self.update(content, layout=layout)


def render_verdict(selection: Selection) -> Content:
    entry = selection.entry
    verdict = selection.verdict
    lines: list[Content] = []
    if verdict is None:
        error = entry.error
        assert error is not None
        lines.append(Content.styled("ERROR  this case could not be loaded", _BAD))
        lines.append(Content.assemble(safe.content(error.place, _MUTED), (": ", _MUTED), safe.content(error.problem)))
        return Content("\n").join(lines)

    if verdict.ok:
        lines.append(Content.assemble((" ACCEPT ", "bold $text on $success 60%"),
                                      ("  every check passed", _MUTED)))
    else:
        lines.append(Content.assemble((f" {verdict.label} ", "bold $text on $error 70%")))
    expected = entry.expected
    if expected is None:
        lines.append(Content.styled("no frozen label (a single answer)", _MUTED))
    elif expected == verdict.label:
        lines.append(Content.styled("✓ matches the frozen label", _GOOD))
    else:
        lines.append(Content.assemble(("≠ frozen label ", _BAD), safe.content(expected, "bold")))
    lines.append(Content(""))
    lines.append(_baseline("strict JSON", verdict.strict_json))
    lines.append(_baseline("citation-only", verdict.citation_only))
    lines.append(_baseline("contract", verdict.ok))
    if verdict.citation_only and not verdict.ok:
        lines.append(Content.styled("⚠ citation-only would have accepted this", "bold $text-warning"))
    lines.append(Content(""))
    if verdict.ok:
        lines.append(Content.styled("accepted", _MUTED))
        for field, value in verdict.accepted.items():
            lines.append(Content.assemble("  ", safe.content(field, "bold"), (" = ", _MUTED), safe.content(value)))
    else:
        lines.append(Content.assemble(("accepted ", _MUTED), ("nothing", "bold"),
                                      (" (rejected: the map is empty)", _MUTED)))
    note = entry.case.note if entry.case is not None else None
    if note:
        lines.append(Content.assemble(("note ", _MUTED), safe.content(note, "italic $text-muted")))
    return Content("\n").join(lines)
