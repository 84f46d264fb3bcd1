"""Untrusted multi-line text with marked ranges, drawn a row at a time.

Used for the raw answer and for a source's text.  Characters are shown through
``safe`` (escapes styled), long lines wrap between tokens (after a space or
one of ``,:[{``, before ``]}``: ``"field":`` stays whole, as does a word of a
source's prose; an escape is never split) and anywhere only in a token longer
than the row, and marks are character ranges of the original text, so
a span from the contract (a decode error, a quote, a claim) lands exactly on
what it points at even when an escape widened the line before it.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import get_character_cell_size
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.cache import LRUCache
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from .. import safe
from .table import StyleCache

__all__ = ["Mark", "SafeTextView", "set_scroll_extent", "style_runs"]

# Longer text is cut for display (the contract refuses anything over 8192 units
# anyway; a 256 MiB answer must not freeze the screen).
DISPLAY_LIMIT = 200_000


# Where a wrapped row may end: after these characters, or before those.
BREAK_AFTER = frozenset(" ,:[{")
BREAK_BEFORE = frozenset("]}")


def _in_escape(line: _Line, position: int) -> tuple[int, int] | None:
    """The escape (display range) that ``position`` is inside of, not at its start: None if none."""
    at = bisect_right(line.escape_starts, position) - 1
    if at >= 0:
        a, b = line.escapes[at]
        if a < position < b:
            return a, b
    return None


def _breakable(line: _Line, position: int) -> bool:
    """Whether a row may end before display offset ``position`` of the line: between two tokens,
    never inside an escape (``\\u001b[31m`` holds a ``[``)."""
    shown = line.shown
    return (shown[position - 1] in BREAK_AFTER or shown[position] in BREAK_BEFORE) and (
        not line.escapes or _in_escape(line, position) is None)


def _outside_escape(line: _Line, start: int, position: int) -> int:
    """``position``, or the start of the escape it would split (if that is after ``start``)."""
    inside = _in_escape(line, position)
    return inside[0] if inside is not None and inside[0] > start else position


@dataclass(frozen=True, slots=True)
class Mark:
    """A range [start, end) of the text shown with a component style."""

    start: int
    end: int
    component: str


@dataclass(slots=True)
class _Line:
    start: int  # offset of the line's first character in the text
    raw: str  # without its line feed
    shown: str = ""  # as displayed, with escapes, plus one cell for the line end
    index: tuple[int, ...] = ()  # index[i]: display offset of raw character i (len(raw)+2 entries)
    escapes: tuple[tuple[int, int], ...] = ()  # display ranges that are escapes
    escape_starts: tuple[int, ...] = ()  # where each of them starts


def style_runs(length: int, spans: Sequence[tuple[int, int, str]]) -> list[tuple[int, int, tuple[str, ...]]]:
    """Cut [0, length) where the set of covering spans changes: ``(start, end,
    components)``, the components of the spans covering that run in the order of
    ``spans`` (later ones are drawn on top).

    One sort and one sweep: a span is opened at its start and closed at its end,
    so the cost follows the number of spans plus, per run, the spans open there
    (a few marks and at most one escape), never spans × runs, which is what made
    an answer of 50,000 escapes take most of a minute to draw.
    """
    opening: dict[int, list[int]] = {}
    closing: dict[int, list[int]] = {}
    for number, (a, b, _) in enumerate(spans):
        opening.setdefault(a, []).append(number)
        closing.setdefault(b, []).append(number)
    cuts = sorted({0, length, *opening, *closing})
    runs: list[tuple[int, int, tuple[str, ...]]] = []
    open_: set[int] = set()
    components: tuple[str, ...] = ()
    for a, b in zip(cuts, cuts[1:]):
        closed, opened = closing.get(a), opening.get(a)
        if closed or opened:
            open_.difference_update(closed or ())
            open_.update(opened or ())
            components = tuple(spans[number][2] for number in sorted(open_))
        runs.append((a, b, components))
    return runs


def set_scroll_extent(view: ScrollView, width: int, height: int) -> None:
    """Set what a view of fixed size scrolls over: content of ``width`` × ``height``
    cells (never less than the view itself).

    Assigning ``virtual_size`` would lay the whole screen out again, since its
    reactive asks for a layout; in a view whose own size does not depend on its
    content that is wasted work, and it is what made changing case slow.  So the
    size is set quietly and only the scrollbars are updated (they still lay out
    when one appears or goes).  Only for views whose height is not ``auto``.
    """
    region = view.scrollable_content_region
    size = Size(max(width, region.width), max(height, region.height))
    if size == view.virtual_size:
        return
    update_scrollbars = getattr(view, "_scroll_update", None)  # Textual's own, not public API
    if update_scrollbars is None:  # pragma: no cover - another Textual: the public way, with its layout
        view.virtual_size = size
        return
    view.set_reactive(ScrollView.virtual_size, size)
    update_scrollbars(size)  # shown or not, thumb size and place
    view.refresh()


class SafeTextView(StyleCache, ScrollView, can_focus=False):
    """A view of fixed size (its height is never ``auto``): other text is a
    repaint, not a layout pass (see ``set_scroll_extent``)."""

    DEFAULT_CSS = """
    SafeTextView {
        height: 1fr;
        overflow-x: auto;
        overflow-y: auto;
        scrollbar-size: 1 1;
    }
    SafeTextView > .safe-text--gutter { color: $text-disabled; }
    SafeTextView > .safe-text--escape { color: $text-warning; background: $warning-muted; text-style: bold; }
    SafeTextView > .safe-text--passed { background: $success 40%; text-style: bold; }
    SafeTextView > .safe-text--failed { background: $error 60%; text-style: bold; }
    SafeTextView > .safe-text--pending { background: $secondary 30%; }
    SafeTextView > .safe-text--soft { background: $primary 18%; }
    SafeTextView > .safe-text--note { color: $text-muted; text-style: italic; }
    """

    COMPONENT_CLASSES = {
        "safe-text--gutter",
        "safe-text--escape",
        "safe-text--passed",
        "safe-text--failed",
        "safe-text--pending",
        "safe-text--soft",
        "safe-text--note",
    }

    ALLOW_SELECT = False

    def __init__(self, *, wrap: bool = True, line_numbers: bool = True, name: str | None = None,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.wrap = wrap
        if wrap:
            self.styles.overflow_x = "hidden"
        self.line_numbers = line_numbers
        self._text = ""
        self._raw_bytes = False
        self._note: str | None = None
        self._lines: list[_Line] = []
        self._recent: LRUCache[tuple[str, bool], list[_Line]] = LRUCache(4)
        self._starts: list[int] = []
        self._marks: tuple[Mark, ...] = ()
        self._rows: list[tuple[int, int, int]] = []  # (line, display start, display end)
        self._rows_width = -1
        self._cache: dict[tuple[int, int, int], list[tuple[int, int, Style]]] = {}
        self._base: Style | None = None
        self._styles: dict[tuple[str | None, ...], Style] = {}
        self._focus: int | None = None

    @property
    def text(self) -> str:
        return self._text

    @property
    def marks(self) -> tuple[Mark, ...]:
        return self._marks

    # -- updating ---------------------------------------------------------------

    def clear(self) -> None:
        """No text at all (not even an empty first line)."""
        self.set_text("")
        self._lines, self._starts = [], []

    def set_text(self, text: str, *, raw_bytes: bool = False, note: str | None = None) -> None:
        if len(text) > DISPLAY_LIMIT:
            cut = len(text) - DISPLAY_LIMIT
            text = text[:DISPLAY_LIMIT]
            note = f"… {cut:,} more characters not shown" + (f"; {note}" if note else "")
        self._text = text
        self._raw_bytes = raw_bytes
        self._note = note
        # The lines of a text seen lately keep their display form: going back to
        # a case (k after j) redraws, it does not escape 50,000 characters again.
        lines = self._recent.get((text, raw_bytes))
        if lines is None:
            lines = []
            start = 0
            pieces = text.split("\n")
            if len(pieces) > 1 and pieces[-1] == "":
                pieces.pop()  # a final line feed ends the last line; it does not start another
            for raw in pieces:
                lines.append(_Line(start, raw))
                start += len(raw) + 1
            self._recent.set((text, raw_bytes), lines)
        self._lines = lines
        self._starts = [line.start for line in self._lines]
        self._marks = ()
        self._rows_width = -1
        self._cache.clear()
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.refresh()

    def show_line_numbers(self, shown: bool) -> None:
        """Line numbers in a gutter, or none (a narrow view gives their cells to the text)."""
        if shown != self.line_numbers:
            self.line_numbers = shown
            self._rows_width = -1
            self.refresh()

    def set_marks(self, marks: Sequence[Mark], focus: int | None = None) -> None:
        """Mark ranges and bring ``focus`` (a text offset) into view."""
        marks = tuple(marks)
        if marks != self._marks:
            self._marks = marks
            self._cache.clear()
            self.refresh()
        self._focus = focus
        if focus is not None:
            self.call_after_refresh(self._scroll_to_offset, focus)

    # -- display form -------------------------------------------------------------

    def _shown(self, line: _Line) -> _Line:
        if line.index:
            return line
        shown: list[str] = []
        index: list[int] = []
        escapes: list[tuple[int, int]] = []
        position = 0
        raw = line.raw
        for piece, escaped in safe.pieces(raw, raw_bytes=self._raw_bytes):
            if escaped:
                index.append(position)
                escapes.append((position, position + len(piece)))
            else:
                index.extend(range(position, position + len(piece)))
            shown.append(piece)
            position += len(piece)
        index.append(position)  # the line end (line feed or end of text)
        shown.append(" ")
        position += 1
        index.append(position)
        line.shown = "".join(shown)
        line.index = tuple(index)
        line.escapes = tuple(escapes)
        line.escape_starts = tuple(a for a, _ in escapes)
        return line

    def _gutter_width(self) -> int:
        return len(str(len(self._lines))) + 1 if self.line_numbers else 0

    def _ensure_rows(self, width: int | None = None) -> None:
        if width is None:
            width = self.scrollable_content_region.width or self.size.width
        if width == self._rows_width and self._rows:
            return
        self._rows_width = width
        room = max(8, width - self._gutter_width())
        rows: list[tuple[int, int, int]] = []
        widest = 0
        for number, line in enumerate(self._lines):
            line = self._shown(line)
            shown = line.shown
            if not self.wrap:
                rows.append((number, 0, len(shown)))
                cells = len(shown) if shown.isascii() else sum(get_character_cell_size(ch) for ch in shown)
                widest = max(widest, cells)
                continue
            end = len(shown) - 1  # the line end's cell: it never takes a row of its own
            if shown.isascii():
                # One cell per character (escapes are ASCII too): rows of at most ``room``,
                # each ending at the last break between tokens that fits.
                start = 0
                while end - start > room:
                    limit = start + room
                    cut = limit
                    while cut > start and not _breakable(line, cut):
                        cut -= 1
                    if cut == start:  # one token longer than the row: cut it, not an escape
                        cut = _outside_escape(line, start, limit)
                    rows.append((number, start, cut))
                    start = cut
                rows.append((number, start, len(shown)))
                continue
            start = cells = 0
            last_break = 0  # the last break between tokens in the row so far (0: none)
            for position, ch in enumerate(shown):
                size = get_character_cell_size(ch)
                if start < position and _breakable(line, position):
                    last_break = position
                if cells + size > room and start < position < end:
                    cut = last_break if last_break > start else _outside_escape(line, start, position)
                    rows.append((number, start, cut))
                    start, last_break = cut, 0
                    cells = sum(get_character_cell_size(c) for c in shown[cut:position])
                cells += size
            rows.append((number, start, len(shown)))
        if self._note:
            rows.append((-1, 0, 0))
        self._rows = rows
        total_width = (widest + self._gutter_width()) if not self.wrap else width
        set_scroll_extent(self, total_width, len(rows))

    def on_resize(self, event: events.Resize) -> None:
        self._rows_width = -1
        self._ensure_rows()
        if self._focus is not None:
            self._scroll_to_offset(self._focus)

    def _runs(self, number: int, start: int, end: int) -> list[tuple[int, int, Style]]:
        """Display columns [start, end) of a line cut where the style changes:
        (start, end, style), computed for one row at a time (a line of 50,000
        escapes wraps to thousands of rows, and only a screenful is drawn)."""
        key = (number, start, end)
        runs = self._cache.get(key)
        if runs is not None:
            return runs
        line = self._shown(self._lines[number])
        spans: list[tuple[int, int, str]] = []
        line_end = line.start + len(line.raw)
        last = number == len(self._lines) - 1
        for mark in self._marks:
            mark_start, mark_end = mark.start, max(mark.end, mark.start + 1)
            if last and mark_start > line_end:
                mark_start, mark_end = line_end, line_end + 1  # at or past the end of the text
            if mark_end <= line.start or mark_start > line_end:
                continue
            a = min(max(mark_start - line.start, 0), len(line.raw))
            b = max(a + 1, min(mark_end - line.start, len(line.raw) + 1))
            a, b = max(line.index[a], start), min(line.index[b], end)
            if a < b:
                spans.append((a, b, mark.component))
        # Escapes go on top of any mark: they must stay visible.  They are sorted
        # and disjoint: the row's are found by bisection.
        escapes = line.escapes
        first = max(0, bisect_right(line.escape_starts, start) - 1)
        for at in range(first, len(escapes)):
            a, b = escapes[at]
            if a >= end:
                break
            if b > start:
                spans.append((max(a, start), min(b, end), "safe-text--escape"))
        runs = [(start + a, start + b, self._combined(*components))
                for a, b, components in style_runs(end - start, [(a - start, b - start, c) for a, b, c in spans])]
        self._cache[key] = runs
        return runs

    def _scroll_to_offset(self, offset: int) -> None:
        self._ensure_rows()
        if not self._lines:
            return
        number = max(0, bisect_right(self._starts, offset) - 1)
        line = self._shown(self._lines[number])
        column = line.index[max(0, min(offset - line.start, len(line.raw)))]
        row = next((r for r, (n, a, b) in enumerate(self._rows) if n == number and a <= column < b), None)
        if row is None:
            return
        height = self.scrollable_content_region.height
        top = int(self.scroll_offset.y)
        if not top <= row < top + height:
            self.scroll_to(y=max(0, row - height // 3), animate=False, immediate=True)
        if not self.wrap:
            view = self.scrollable_content_region.width - self._gutter_width()
            left = int(self.scroll_offset.x)
            if not left <= column < left + view:
                self.scroll_to(x=max(0, column - view // 3), animate=False, immediate=True)

    # -- drawing ----------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        self._ensure_rows()
        scroll_x, scroll_y = self.scroll_offset
        width = self.size.width
        base = self._base_style()
        row = scroll_y + y
        if row >= len(self._rows):
            return Strip.blank(width, base)
        number, start, end = self._rows[row]
        if number < 0:
            note = Segment(self._note or "", self._combined("safe-text--note"))
            return Strip([note]).crop_extend(0, width, base)
        shown = self._lines[number].shown
        body = [Segment(shown[a:b], style) for a, b, style in self._runs(number, start, end)]
        gutter_width = self._gutter_width()
        gutter = []
        if gutter_width:
            label = f"{number + 1:>{gutter_width - 1}} " if start == 0 or not self.wrap else " " * gutter_width
            gutter = [Segment(label, self._combined("safe-text--gutter"))]
        if self.wrap:
            return Strip(gutter + body).crop_extend(0, width, base)
        strip = Strip(body).crop_extend(scroll_x, scroll_x + width - gutter_width, base)
        return Strip.join([Strip(gutter), strip]) if gutter else strip

    def _styles_changed(self) -> None:
        self._cache.clear()
