"""The raw answer editor's text (``RawTextArea``): a TextArea that draws the
editable form's markers as escapes and marks the first failure's place."""

from __future__ import annotations

from itertools import islice

from rich.style import Style
from rich.text import Span, Text
from textual.widgets import TextArea
from textual.widgets.text_area import Location

from ...presentation.raw_form import MARKER

__all__ = ["MAX_STYLED_MARKERS", "RawTextArea"]

# A line with more markers than this draws them unstyled (still as text): styling
# fifty thousand spans on every drawn row would stall the editor.
MAX_STYLED_MARKERS = 500


class RawTextArea(TextArea):
    """A TextArea that draws the editable form's markers as escapes and marks the
    spans it is given (the first failure's place), each a (start, end) location."""

    DEFAULT_CSS = """
    RawTextArea { height: 1fr; }
    RawTextArea > .raw-text--escape { color: $text-warning; background: $warning-muted; text-style: bold; }
    RawTextArea > .raw-text--failed { background: $error 60%; text-style: bold; }
    """
    COMPONENT_CLASSES = TextArea.COMPONENT_CLASSES | {"raw-text--escape", "raw-text--failed"}

    marks: tuple[tuple[Location, Location], ...] = ()

    def set_marks(self, marks: tuple[tuple[Location, Location], ...]) -> None:
        if marks != self.marks:
            self.marks = marks
            self._line_cache.clear()  # TextArea keys its drawn lines by its own state only
            self.refresh()

    def get_line(self, line_index: int) -> Text:
        line = super().get_line(line_index)
        plain = line.plain
        if "\\u{" in plain:
            escape = self.get_component_rich_style("raw-text--escape")
            line.spans.extend(Span(match.start(), match.end(), escape)
                              for match in islice(MARKER.finditer(plain), MAX_STYLED_MARKERS))
        if self.marks:
            failed: Style = self.get_component_rich_style("raw-text--failed")
            length = len(plain)
            for (start_row, start_column), (end_row, end_column) in self.marks:
                if not start_row <= line_index <= end_row:
                    continue
                start = start_column if line_index == start_row else 0
                end = end_column if line_index == end_row else length
                if start >= length:  # at the end of the line (a text cut short): its last character
                    start, end = max(0, length - 1), length
                line.stylize(failed, start, max(end, start + 1))
        return line
