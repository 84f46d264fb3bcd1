"""A table drawn a row at a time (Textual's Line API).

Only the rows on screen are ever built, each from ``cell()``, and a built row
is kept until ``refresh_rows`` says it changed: moving the cursor redraws two
rows, not the table.  A cell is untrusted text (a ``str``, always split by
``safe`` so escapes show), or pieces the view wrote itself (``Piece``: text and
a component class).  Rows are built straight into segments, with the styles
combined once per (row, cell, piece) kind: a row costs tens of microseconds.
The header stays put while the rows scroll.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Sequence
from typing import ClassVar
from dataclasses import dataclass, replace
from itertools import accumulate

from rich.cells import cell_len, set_cell_size
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from .. import safe

__all__ = ["Cell", "Column", "CursorTable", "Piece", "SafeTable", "StyleCache", "component_style", "fit_first", "middle_cut",
           "text_segments", "untrusted"]

Piece = tuple[str, str | None]  # text the view wrote, and a component class (None: plain)
Cell = str | Piece | list[Piece] | None  # a str is untrusted text


def untrusted(text: str, component: str | None = None) -> list[Piece]:
    """Untrusted text as pieces: shown literally, escapes styled."""
    return [(piece, "safe-table--escape" if escaped else component) for piece, escaped in safe.pieces(text)]

def _cells(pieces: list[Piece], cells: int, *, from_end: bool = False) -> list[Piece]:
    """The first (or last) ``cells`` cells of these pieces."""
    taken: list[Piece] = []
    room = cells
    for text, component in reversed(pieces) if from_end else pieces:
        if room <= 0:
            break
        size = cell_len(text)
        if size > room:
            chars = text[::-1] if from_end else text
            kept = ""
            for char in chars:
                if cell_len(kept + char) > room:
                    break
                kept += char
            text, size = (kept[::-1] if from_end else kept), cell_len(kept)
        if text:
            taken.append((text, component))
        room -= size
        if size == 0:
            break
    return taken[::-1] if from_end else taken


def middle_cut(pieces: list[Piece], width: int) -> list[Piece]:
    """Pieces cut to ``width`` cells in the middle, an ellipsis there: a name's tail tells it from its
    neighbours (``claim:STALE_REV…/pool_size/auth-staging-v1``).  When the part from the first ``/`` on
    fits beside a head of ``kind:`` and three cells, the cut is before it; otherwise a third is head."""
    plain = "".join(text for text, _ in pieces)
    total = cell_len(plain)
    if total <= width:
        return pieces
    if width <= 1:
        return [("…", None)] if width == 1 else []
    tail = width - 1 - (width - 1) // 3
    slash = plain.find("/")
    if slash > 0:
        path = cell_len(plain[slash:])
        head = cell_len(plain[: plain.find(":") + 1]) + 3 if ":" in plain[:slash] else 3
        if head + 1 + path <= width:
            tail = path
    return [*_cells(pieces, width - 1 - tail), ("…", None), *_cells(pieces, tail, from_end=True)]


# Components that only colour text; the others paint a background, blended over
# the widget's own (a partial style would drop the blend and paint it opaque).
_FOREGROUND_ONLY = frozenset({"header", "dim", "good", "bad", "warn", "first", "note", "gutter", "bar"})


def component_style(widget: Widget, component: str) -> Style:
    style = widget.get_component_rich_style(component)
    if component.rpartition("--")[2] in _FOREGROUND_ONLY:
        return Style(color=style.color, bold=style.bold, italic=style.italic, dim=style.dim)
    return style


def text_segments(text: Text, console: Console) -> list[Segment]:
    """A Text's segments with its own style applied (rich leaves it off a Text without spans)."""
    style = text.style
    segments = text.render(console)
    if not style:
        return list(segments)
    base = style if isinstance(style, Style) else console.get_style(style)
    return list(Segment.apply_style(segments, base))


class StyleCache:
    """For a widget drawn line by line: its own style plus component styles,
    combined once per set of components, forgotten when the styles change.

    Textual computes ``rich_style`` from the DOM on every read, far too slow to
    do per segment.  The widget sets ``_base = None`` and ``_styles = {}`` in its
    ``__init__`` and drops its own caches in ``_styles_changed``."""

    _base: Style | None
    _styles: dict[tuple[str | None, ...], Style]

    def _combined(self, *components: str | None) -> Style:
        """The widget's style + each component's, in order (None adds nothing)."""
        style = self._styles.get(components)
        if style is None:
            style = self._base_style()
            for component in components:
                if component is not None:
                    style += component_style(self, component)  # type: ignore[arg-type]  # a mixin of a Widget
            self._styles[components] = style
        return style

    def _base_style(self) -> Style:
        """The widget's own style."""
        if self._base is None:
            self._base = self.rich_style  # type: ignore[attr-defined]  # a mixin of a Widget
        return self._base

    def notify_style_update(self) -> None:
        super().notify_style_update()  # type: ignore[misc]  # a mixin of a Widget: the Widget's
        self._base = None
        self._styles.clear()
        self._styles_changed()

    def _styles_changed(self) -> None:
        """Drop what was drawn with the old styles."""


@dataclass(frozen=True, slots=True)
class Column:
    key: str
    title: str
    width: int | None = None  # fixed width in cells; None shares the rest
    min_width: int = 4
    weight: int = 1  # share of the rest, for columns without a fixed width
    justify: str = "left"
    cut: str = "end"  # where text too long for the column loses cells: "end" or "middle" (its tail kept)


class SafeTable(StyleCache, ScrollView, can_focus=False):
    """A scrolling table whose rows are built on demand."""

    DEFAULT_CSS = """
    SafeTable {
        height: 1fr;
        overflow-x: auto;
        overflow-y: auto;
        scrollbar-size: 1 1;
    }
    SafeTable > .safe-table--header { text-style: bold; color: $text-muted; }
    SafeTable > .safe-table--cursor { background: $primary 30%; }
    SafeTable > .safe-table--marked { background: $accent 15%; }
    SafeTable > .safe-table--dim { color: $text-disabled; }
    SafeTable > .safe-table--passed { background: $success 35%; text-style: bold; }
    SafeTable > .safe-table--failed { background: $error 55%; text-style: bold; }
    SafeTable > .safe-table--pending { background: $secondary 25%; }
    SafeTable > .safe-table--escape { color: $text-warning; background: $warning-muted; text-style: bold; }
    SafeTable > .safe-table--good { color: $text-success; }
    SafeTable > .safe-table--bad { color: $text-error; }
    SafeTable > .safe-table--warn { color: $text-warning; }
    SafeTable > .safe-table--first { color: $text-error; text-style: bold; }
    SafeTable > .safe-table--note { color: $text-muted; text-style: italic; }
    """

    COMPONENT_CLASSES = {
        "safe-table--header",
        "safe-table--cursor",
        "safe-table--marked",
        "safe-table--dim",
        "safe-table--passed",
        "safe-table--failed",
        "safe-table--pending",
        "safe-table--escape",
        "safe-table--good",
        "safe-table--bad",
        "safe-table--warn",
        "safe-table--first",
        "safe-table--note",
    }

    ALLOW_SELECT = False
    show_header = True
    gap = 1  # cells between columns
    fixed_columns = 0  # leading columns that stay put when the table scrolls sideways

    class RowClicked(Message):
        """A row was clicked (the table does not move its own cursor)."""

        def __init__(self, table: SafeTable, row: int) -> None:
            super().__init__()
            self.table = table
            self.row = row

        @property
        def control(self) -> SafeTable:
            return self.table

    def __init__(self, *, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.columns: tuple[Column, ...] = ()
        self.row_count = 0
        self.cursor: int | None = None
        self._widths: tuple[int, ...] = ()
        self._starts: tuple[int, ...] = ()  # where each column starts, in cells
        self._layout_width = -1
        # Drawn rows: row -> (the columns drawn, the fixed part, the scrolled part).
        self._rows: dict[int, tuple[tuple[int, int], Strip, Strip]] = {}
        self._header: tuple[tuple[int, int], Strip, Strip] | None = None
        self._base: Style | None = None
        self._styles: dict[tuple[str | None, ...], Style] = {}
        self.empty_message = ""

    # -- what subclasses provide ---------------------------------------------

    def cell(self, row: int, column: Column) -> Cell:
        """The content of a cell: untrusted text (a str), or pieces the view wrote."""
        return None

    def row_style(self, row: int) -> str | None:
        """A component class for the whole row (cursor, marked, dim)."""
        return "safe-table--cursor" if row == self.cursor else None

    def cell_style(self, row: int, column: Column) -> str | None:
        """A component class for one cell (the compared value: passed, failed, pending)."""
        return None

    # -- updating ---------------------------------------------------------------

    def set_columns(self, columns: Iterable[Column]) -> None:
        self.columns = tuple(columns)
        self._layout_width = -1
        self.refresh_all()

    def set_row_count(self, count: int) -> None:
        self.row_count = count
        if self.cursor is not None and self.cursor >= count:
            self.cursor = count - 1 if count else None
        self._update_virtual_size()
        self.refresh_all()

    def refresh_all(self) -> None:
        self._rows.clear()
        self._header = None
        self.refresh()

    def refresh_rows(self, rows: Iterable[int | None]) -> None:
        """Rebuild these rows only (the others keep their drawn strips)."""
        top = int(self.scroll_offset.y)
        offset = 1 if self.show_header else 0
        width, height = self.size  # read once: a widget's size is computed on every read
        drawn = self._rows
        for row in rows:
            if row is None:
                continue
            drawn.pop(row, None)
            y = row - top + offset
            if 0 <= y < height:
                self.refresh(Region(0, y, width, 1))

    def move_cursor(self, row: int | None, *, scroll: bool = True) -> None:
        previous = self.cursor
        self.cursor = row
        if previous != row:
            self.refresh_rows((previous, row))
        if scroll and row is not None:
            self.scroll_to_row(row)

    def scroll_to_row(self, row: int, *, center: bool = False) -> None:
        visible = self._visible_rows()
        if visible <= 0:
            return
        top = int(self.scroll_offset.y)
        if center and not top <= row < top + visible:
            self.scroll_to(y=max(0, row - visible // 2), animate=False, immediate=True)
        elif row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + visible:
            self.scroll_to(y=row - visible + 1, animate=False, immediate=True)

    def scroll_to_column(self, key: str) -> None:
        """Bring a column into view horizontally (the compared value)."""
        self._ensure_layout()
        fixed = self._fixed_width()
        x = 0
        for index, (column, width) in enumerate(zip(self.columns, self._widths, strict=True)):
            if index < self.fixed_columns:
                if column.key == key:
                    return
                continue
            if column.key == key:
                view = self.scrollable_content_region.width - fixed
                left = int(self.scroll_offset.x)
                if x < left:
                    self.scroll_to(x=x, animate=False, immediate=True)
                elif x + width > left + view:
                    self.scroll_to(x=max(0, x + width - view), animate=False, immediate=True)
                return
            x += width + self.gap

    def _fixed_width(self) -> int:
        if not self.fixed_columns:
            return 0
        return sum(self._widths[: self.fixed_columns]) + self.gap * self.fixed_columns

    def _window(self, scroll_x: int, width: int) -> tuple[int, int]:
        """The scrolling columns [lo, hi) that are at least partly in view.  A row
        draws only these: a registry of 8,000 fact fields shows a dozen at a time."""
        fixed_columns = min(self.fixed_columns, len(self._widths))
        fixed = self._fixed_width()
        if fixed and fixed < width:
            left, right = fixed + scroll_x, scroll_x + width
        else:
            fixed_columns, left, right = 0, scroll_x, scroll_x + width
        starts, widths = self._starts, self._widths
        lo = max(fixed_columns, bisect_right(starts, left) - 1)
        if lo < len(widths) and starts[lo] + widths[lo] <= left:
            lo += 1
        # A column whose leading gap is in view is drawn too (the gap takes the row's style).
        hi = max(lo, bisect_left(starts, right + self.gap))
        return lo, hi

    def _crop(self, drawn: tuple[tuple[int, int], Strip, Strip], scroll_x: int, width: int, base: Style) -> Strip:
        """The visible part: fixed columns stay, the others scroll."""
        (lo, _), fixed_part, part = drawn
        # The scrolled part starts with the gap before its first column.
        origin = self._starts[lo] - (self.gap if lo else 0) if lo < len(self._starts) else 0
        fixed = self._fixed_width()
        if not fixed or fixed >= width:
            return part.crop_extend(scroll_x - origin, scroll_x - origin + width, base)
        return Strip.join([
            fixed_part.crop_extend(0, fixed, base),
            part.crop_extend(fixed + scroll_x - origin, fixed + scroll_x - origin + width - fixed, base),
        ])

    # -- layout -----------------------------------------------------------------

    def _visible_rows(self) -> int:
        height = self.scrollable_content_region.height
        return height - (1 if self.show_header else 0)

    def _ensure_layout(self) -> None:
        available = self.scrollable_content_region.width or self.size.width
        if available == self._layout_width and self._widths:
            return
        self._layout_width = available
        columns = self.columns
        gaps = self.gap * max(0, len(columns) - 1)
        fixed = sum(c.width or 0 for c in columns)
        flexible = [c for c in columns if c.width is None]
        rest = max(0, available - fixed - gaps)
        weights = sum(c.weight for c in flexible) or 1
        widths = []
        for column in columns:
            if column.width is not None:
                widths.append(column.width)
            else:
                widths.append(max(column.min_width, rest * column.weight // weights))
        # Hand the rounding remainder to the last flexible column.
        if flexible:
            spare = available - gaps - sum(widths)
            if spare > 0:
                last = max(i for i, c in enumerate(columns) if c.width is None)
                widths[last] += spare
        self._widths = tuple(widths)
        self._starts = tuple(accumulate((w + self.gap for w in widths[:-1]), initial=0)) if widths else ()
        self._rows.clear()
        self._header = None
        self._update_virtual_size()

    def _update_virtual_size(self) -> None:
        total = sum(self._widths) + self.gap * max(0, len(self._widths) - 1)
        height = self.row_count + (1 if self.show_header else 0)
        self.virtual_size = Size(total, height)

    def on_resize(self, event: events.Resize) -> None:
        self._layout_width = -1
        self._ensure_layout()
        self.refresh()
        if self.cursor is not None:
            self.scroll_to_row(self.cursor)

    # -- drawing ----------------------------------------------------------------

    @staticmethod
    def _pieces(value: Cell) -> list[Piece]:
        if value is None:
            return []
        if isinstance(value, str):
            if value.isascii() and value.isprintable():
                return [(value, None)]
            return untrusted(value)
        if isinstance(value, tuple):
            return [value]
        return value

    def _build(self, row_component: str | None, cells: dict[int, tuple[Cell, str | None]],
               indexes: Iterable[int], trailing_gap: bool = False) -> Strip:
        """The strip of these columns (each after the gap that precedes it, but the
        first column of the table)."""
        segments: list[Segment] = []
        gap = " " * self.gap
        gap_style = self._combined(row_component, None, None)
        columns, widths = self.columns, self._widths
        length = 0
        for index in indexes:
            (value, cell_component), column, width = cells[index], columns[index], widths[index]
            if index:
                segments.append(Segment(gap, gap_style))
                length += self.gap
            length += width
            fitted: list[Segment] = []
            room = width
            pieces = self._pieces(value)
            if column.cut == "middle":
                pieces = middle_cut(pieces, width)
            for text, component in pieces:
                if not text:
                    continue
                size = cell_len(text)
                style = self._combined(row_component, cell_component, component)
                if size <= room:
                    fitted.append(Segment(text, style))
                    room -= size
                    continue
                if room > 0:
                    fitted.append(Segment(set_cell_size(text, room - 1) + "…", style))
                room = 0
                break
            if room:
                padding = Segment(" " * room, self._combined(row_component, cell_component, None))
                if column.justify == "right":
                    fitted.insert(0, padding)
                else:
                    fitted.append(padding)
            segments.extend(fitted)
        if trailing_gap:
            segments.append(Segment(gap, gap_style))
            length += self.gap
        return Strip(segments, length)

    def _draw(self, row_component: str | None, cell: Callable[[int], tuple[Cell, str | None]],
              window: tuple[int, int]) -> tuple[tuple[int, int], Strip, Strip]:
        """A row (or the header) as its fixed part and the scrolled columns in view."""
        fixed = range(min(self.fixed_columns, len(self.columns)))
        scrolled = range(*window)
        cells = {index: cell(index) for index in (*fixed, *scrolled)}
        fixed_part = self._build(row_component, cells, fixed, trailing_gap=bool(fixed)) if fixed else Strip([])
        return window, fixed_part, self._build(row_component, cells, scrolled)

    def _render_header(self, window: tuple[int, int]) -> tuple[tuple[int, int], Strip, Strip]:
        if self._header is None or self._header[0] != window:
            columns = self.columns
            self._header = self._draw("safe-table--header", lambda i: ((columns[i].title, None), None), window)
        return self._header

    def _render_row(self, row: int, window: tuple[int, int]) -> tuple[tuple[int, int], Strip, Strip]:
        drawn = self._rows.get(row)
        if drawn is None or drawn[0] != window:
            columns = self.columns
            drawn = self._draw(self.row_style(row),
                               lambda i: (self.cell(row, columns[i]), self.cell_style(row, columns[i])), window)
            if len(self._rows) > 512:
                self._rows.clear()
            self._rows[row] = drawn
        return drawn

    def render_line(self, y: int) -> Strip:
        self._ensure_layout()
        scroll_x, scroll_y = self.scroll_offset
        width = self.size.width
        base = self._base_style()
        window = self._window(scroll_x, width)
        if self.show_header:
            if y == 0:
                return self._crop(self._render_header(window), scroll_x, width, base)
            y -= 1
        row = scroll_y + y
        if row >= self.row_count:
            if row == 0 and self.empty_message:
                note = Segment(self.empty_message, self._combined(None, None, "safe-table--note"))
                return Strip([note]).crop_extend(0, width, base)
            return Strip.blank(width, base)
        return self._crop(self._render_row(row, window), scroll_x, width, base)

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        y = offset.y - (1 if self.show_header else 0)
        if y < 0:
            return
        row = int(self.scroll_offset.y) + y
        if 0 <= row < self.row_count:
            self.post_message(self.RowClicked(self, row))

    def _styles_changed(self) -> None:
        self._rows.clear()
        self._header = None


class CursorTable(SafeTable, can_focus=True, inherit_bindings=False):
    """A table whose cursor the keys move, as Textual's DataTable and OptionList: it has the focus, and
    its subclass binds the movement keys its screen declares (``keys.bindings(screen, on="table")``: j k
    g G PgDn PgUp, the same on every list screen); the actions here keep the cursor within the rows, on
    the rows it can rest on (``stops``).  A move by a key posts ``CursorMoved`` (a screen that shows the
    row's detail follows it).  ScrollView's own keys (the arrows scroll) are not inherited: here they
    move the cursor."""

    BINDINGS: ClassVar[list[BindingType]] = []

    class CursorMoved(Message):
        """A key moved the cursor to ``row``."""

        def __init__(self, table: CursorTable, row: int) -> None:
            super().__init__()
            self.table = table
            self.row = row

        @property
        def control(self) -> CursorTable:
            return self.table

    def move_cursor(self, row: int | None, *, scroll: bool = True) -> None:
        moved = row != self.cursor
        super().move_cursor(row, scroll=scroll)
        if moved:
            self.cursor_changed()

    def cursor_changed(self) -> None:
        """The cursor is on another row, whatever moved it (a key, a click, the rows set again): a table
        whose screen shows the current row's detail posts its own message here."""

    def stops(self) -> Sequence[int]:
        """The rows the cursor can rest on, in order: every row (the agreement's matrices leave out
        their rows of column titles)."""
        return range(self.row_count)

    def within(self, row: int, toward: int = 1) -> int | None:
        """Where the cursor rests for ``row``: that row, or the nearest it can rest on going ``toward``
        (1 down, -1 up), kept between the first and the last; None when there is no row."""
        stops = self.stops()
        if not stops:
            return None
        at = bisect_left(stops, row) if toward > 0 else bisect_right(stops, row) - 1
        return stops[max(0, min(at, len(stops) - 1))]

    def go_to(self, row: int) -> None:
        """Put the cursor on ``row`` (kept within the rows) and bring it into view, without a
        ``CursorMoved`` (the rows were just set: the screen knows)."""
        self.move_cursor(self.within(row))

    def _key_moved(self, row: int, toward: int) -> None:
        """Move the cursor to ``row`` (``within``); said when it moved."""
        target = self.within(row, toward)
        if target is not None and target != self.cursor:
            self.move_cursor(target)
            self.post_message(self.CursorMoved(self, target))

    def action_cursor_down(self) -> None:
        self._key_moved((self.cursor or 0) + 1, 1)

    def action_cursor_up(self) -> None:
        self._key_moved((self.cursor or 0) - 1, -1)

    def action_first(self) -> None:
        self._key_moved(0, 1)

    def action_last(self) -> None:
        self._key_moved(self.row_count - 1, -1)

    def _page(self) -> int:
        """The rows a page key moves: the rows in view, less two kept for context."""
        return max(1, self.scrollable_content_region.height - 2)

    def action_page_down(self) -> None:
        self._key_moved((self.cursor or 0) + self._page(), 1)

    def action_page_up(self) -> None:
        self._key_moved((self.cursor or 0) - self._page(), -1)


def fit_first(columns: Sequence[Column], wanted: dict[str, int], available: int, gap: int = 1) -> tuple[Column, ...]:
    """The columns with those of ``wanted`` (key -> the cells of its longest cell, in
    priority order) given that width, as far as the other flexible columns keep their
    minimum widths; the others share what is left by weight.  A column that tells rows
    apart, or holds the value a reader looks for, is then cut only when nothing else can be."""
    rest = available - sum(c.width or 0 for c in columns) - gap * max(0, len(columns) - 1)
    rest -= sum(c.min_width for c in columns if c.width is None and c.key not in wanted)
    fit = [c for key in wanted for c in columns if c.key == key and c.width is None]
    widths: dict[str, int] = {}
    for index, column in enumerate(fit):
        later = sum(c.min_width for c in fit[index + 1:])
        widths[column.key] = max(column.min_width, min(wanted[column.key], rest - later))
        rest -= widths[column.key]
    return tuple(replace(c, width=widths[c.key]) if c.key in widths else c for c in columns)
