"""An Input for untrusted text: the value is edited as it is, and drawn through ``safe``.

Textual's ``Input`` draws its value as a rich ``Text``, which drops BEL, BS, VT,
FF and CR but lets ESC, C1 controls, bidi overrides and zero-width characters
through to the terminal.  ``SafeInput`` keeps the value untouched (an edit form
must write back exactly what it was given, or what was typed) and draws each
control or invisible character as the highlighted ``\\uXXXX`` the rest of the
inspector shows, one unit for the cursor: the arrow keys step over an escape as
over the one character it stands for, and a click on it lands on that character.
A value without such characters is Textual's own Input, untouched.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate
from typing import NamedTuple

from rich.cells import cell_len
from rich.text import Text
from textual.strip import Strip
from textual.widgets import Input

from .. import safe

__all__ = ["SafeInput"]


class _Layout(NamedTuple):
    """A value as drawn: one piece per character (itself, or its escape), which
    pieces are escapes, and the cell and the drawn index where each piece starts
    (one more entry for the end)."""

    pieces: tuple[str, ...]
    escaped: tuple[bool, ...]
    cells: tuple[int, ...]
    starts: tuple[int, ...]


class SafeInput(Input):
    DEFAULT_CSS = """
    SafeInput > .safe-input--escape { color: $text-warning; background: $warning-muted; text-style: bold; }
    """
    COMPONENT_CLASSES = Input.COMPONENT_CLASSES | {"safe-input--escape"}

    _shown_for: str | None = None
    _shown: _Layout | None = None

    def _layout(self) -> _Layout | None:
        """The value as drawn, or None when every character is shown as itself."""
        value = self.value
        if value.isascii() and value.isprintable():
            return None
        if self._shown_for != value:
            pieces: list[str] = []
            escaped: list[bool] = []
            for piece, is_escape in safe.pieces(value):
                if is_escape:
                    pieces.append(piece)
                    escaped.append(True)
                else:
                    pieces.extend(piece)
                    escaped.extend([False] * len(piece))
            self._shown_for = value
            self._shown = _Layout(tuple(pieces), tuple(escaped),
                                  (0, *accumulate(cell_len(piece) for piece in pieces)),
                                  (0, *accumulate(len(piece) for piece in pieces)))
        return self._shown

    @property
    def _value(self) -> Text:
        layout = self._layout()
        if layout is None or self.password:
            return super()._value
        # Before the widget is mounted (Input measures its value in __init__) there are no component styles yet.
        style = self.get_component_rich_style("safe-input--escape", default=safe.ESCAPE_RICH_STYLE)
        text = Text(no_wrap=True, overflow="ignore", end="")
        for piece, is_escape in zip(layout.pieces, layout.escaped, strict=True):
            text.append(piece, style if is_escape else None)
        return text

    def _display_index(self, position: int) -> int:
        """Where character ``position`` of the value starts in the drawn text."""
        layout = self._layout()
        if layout is None:
            return position
        return layout.starts[max(0, min(position, len(layout.pieces)))]

    def _position_to_cell(self, position: int) -> int:
        layout = self._layout()
        if layout is None:
            return super()._position_to_cell(position)
        return layout.cells[max(0, min(position, len(layout.pieces)))]

    def _cell_offset_to_index(self, offset: int) -> int:
        layout = self._layout()
        if layout is None:
            return super()._cell_offset_to_index(offset)
        offset += int(self.scroll_offset.x)
        return max(0, min(bisect_right(layout.cells, offset) - 1, len(layout.pieces)))

    def render_line(self, y: int) -> Strip:
        layout = self._layout()
        if layout is None or y != 0 or self.password:
            return super().render_line(y)
        # Input's own drawing, with the cursor and the selection placed on the
        # drawn pieces: an escape is six cells for one character.
        console = self.app.console
        result = self._value
        if self.has_focus:
            if not self.selection.is_empty:
                start, end = sorted(self.selection)
                result.stylize_before(self.get_component_rich_style("input--selection"),
                                      self._display_index(start), self._display_index(end))
            if self._cursor_visible:
                cursor = self.cursor_position
                if self.cursor_at_end:
                    result.pad_right(1)
                    start, end = len(result) - 1, len(result)
                else:
                    start, end = self._display_index(cursor), self._display_index(cursor + 1)
                result.stylize(self.get_component_rich_style("input--cursor"), start, end)
        width = self.scrollable_content_region.width
        strip = Strip(list(console.render(result, self.app.console_options.update_width(self.content_width))))
        scroll_x = int(self.scroll_offset.x)
        strip = strip.crop(scroll_x, scroll_x + width + 1).extend_cell_length(width + 1)
        return strip.apply_style(self.rich_style)
