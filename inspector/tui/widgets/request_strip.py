"""The request strip: what the application asked for, always visible."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from ...presentation.selection import Selection
from .. import safe
from ..tones import HIGHLIGHT, TEXT, Tone

__all__ = ["RequestStrip"]

LABEL_STYLE = TEXT[Tone.MUTED]


class RequestStrip(Static):
    """Service, environment, revision, fields, supplied documents (and scope)."""

    HELP = (
        "**Request**: the trusted request the answer is checked against, with its access *scope* "
        "(tenant, user, now) when it has one. The attribute the current step compares is "
        "highlighted: green when the step passed, red when it failed."
    )

    DEFAULT_CSS = """
    RequestStrip { height: auto; max-height: 4; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self._key: tuple[object, ...] | None = None

    def show(self, selection: Selection) -> None:
        case = selection.report.case
        request = case.request if case is not None else None
        attribute = selection.request_attribute
        key = (request, attribute, selection.tone)
        if key == self._key:
            return
        # Only another request can change the strip's height; a moved highlight cannot.
        layout = self._key is None or self._key[0] != request
        self._key = key
        if request is None:
            self.update(Content.styled("no request: the case could not be loaded", LABEL_STYLE), layout=layout)
            return
        parts: list[Content] = []
        for name, label, value in selection.report.request_items:
            style = HIGHLIGHT[selection.tone] if name == attribute else ""
            parts.append(Content.assemble((f"{label} ", LABEL_STYLE), safe.content(value, style)))
        content = Content("  ").join(parts)
        if layout and self.size.width:
            # An equal number of lines needs no layout pass either.
            layout = content.get_height(self.styles, self.size.width) != self.size.height  # type: ignore[arg-type]  # Textual's own Static passes its styles
        self.update(content, layout=layout)
