"""A triage record's place and metadata, above its request (``RecordStrip``).

What it shows is ``presentation.records.RecordPlace`` (bounded there); the
strip lays it out on the lines it has at its width (``presentation.records.fit``):
the place first, then as many members as fit, the last line saying how many
more there are.  Every part from the log is untrusted: drawn through ``safe``.
"""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget

from ...presentation.records import RecordPlace, fit
from .. import safe
from ..tones import TEXT, Tone

__all__ = ["RecordStrip"]

_MUTED = TEXT[Tone.MUTED]
_WARN = TEXT[Tone.WARN]
# An annotation saying the contract was wrong, right, or one that cannot be applied (stale).
_ANNOTATION_TONES = {"false": TEXT[Tone.BAD], "true": TEXT[Tone.GOOD], "stale": TEXT[Tone.WARN]}
# Lines the strip takes unless its style says fewer (max-height).
LINES = 3


class RecordStrip(Widget):
    HELP = (
        "**Record** (a triage group's records): where the record is, its log as given, its line and the byte "
        "offset the line starts at (from 0), and its metadata in the line's order, nested "
        "objects opened (`metadata.model`), long values cut, the members that do not fit counted as *+N more*; "
        "`l` shows the whole line. A reviewer's annotation follows the place (✎: the decision, who, when, the "
        "note): `t` and `w` mark the contract right or wrong, `a` opens the form with a note, `U` clears it."
    )

    DEFAULT_CSS = """
    RecordStrip { height: auto; max-height: 3; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._place: RecordPlace | None = None
        self._drawn: tuple[object, Content, int] | None = None  # (place, width, lines), its content, its lines

    @property
    def place(self) -> RecordPlace | None:
        return self._place

    def show(self, place: RecordPlace | None) -> None:
        if place == self._place:
            return
        self._place = place
        # Another record on as many lines needs no layout pass (one costs a j press milliseconds).
        _, lines = self._content()
        self.refresh(layout=lines != self.size.height)

    def render(self) -> Content:
        return self._content()[0]

    def _content(self) -> tuple[Content, int]:
        """The strip at the current width, and how many lines it takes (kept until either changes)."""
        room = self.content_region.width or self.size.width or 80
        limit = self.styles.max_height
        lines = int(limit.value) if limit is not None and limit.is_cells else LINES
        key = (self._place, room, lines)
        if self._drawn is not None and self._drawn[0] == key:
            return self._drawn[1], self._drawn[2]
        content, taken = self._lay_out(room, lines)
        self._drawn = (key, content, taken)
        return content, taken

    def _lay_out(self, room: int, lines: int) -> tuple[Content, int]:
        place = self._place
        if place is None:
            return Content(""), 0
        items = [self._place_item(place, room)]
        if place.problem is not None:
            items.append(safe.content(place.problem, _WARN))
        if place.annotation is not None:  # a reviewer's note is untrusted text, like the log's
            tone = _ANNOTATION_TONES.get(place.annotation_state or "", _WARN)
            items.append(Content.assemble(("✎ ", tone), safe.content(place.annotation, tone)))
        items.extend(Content.assemble(safe.content(key, _MUTED), " ", safe.content(value))
                     for key, value in place.members)
        rows, more = fit([item.cell_length for item in items], room, lines, lambda n: len(_marker(n)),
                         hidden=place.more)
        shown = [[items[number] for number in row] for row in rows]
        if more:
            shown[-1].append(Content.styled(_marker(more), _MUTED))  # l shows them: the panel's title says so
        return Content("\n").join(Content("  ").join(row) for row in shown), len(shown)

    @staticmethod
    def _place_item(place: RecordPlace, room: int) -> Content:
        """FILE:LINE · offset N, the file cut from the left to fit when it must (its name stays)."""
        tail = Content.assemble((f":{place.line}", "bold"), (f" · offset {place.offset}", _MUTED))
        file = place.file
        shown = safe.content(file, "bold")
        if shown.cell_length + tail.cell_length > room:
            keep = min(len(file), max(1, room - tail.cell_length - 1))  # a character is a cell at least
            while keep > 1 and safe.content(file[-keep:]).cell_length + 1 + tail.cell_length > room:
                keep -= 1
            shown = Content.assemble(("…", _MUTED), safe.content(file[-keep:], "bold"))
        return Content.assemble(shown, tail)


def _marker(count: int) -> str:
    return f"+{count:,} more"
