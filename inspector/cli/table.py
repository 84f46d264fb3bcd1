"""Text tables that give way on a narrow terminal, and lines with a hanging indent.

A table is its columns (``TableColumn``: how each one gives way) and its rows
(cells by header); ``fit_columns`` decides which columns to show and how wide,
``fitted`` renders the Rich table.  Codes and case ids are never broken: a
column of them is shown whole or not at all.  rich is imported when a table is
rendered, not before.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.table import Table
    from rich.text import Text

    # A table cell: a text, or a text and a tail kept when the text is shortened (a claim's index).
    Cell = Text | tuple[Text, Text]

__all__ = [
    "BAR_WIDTH",
    "FACT_LABEL_WIDTH",
    "STACK_INDENT",
    "TableColumn",
    "TableLayout",
    "fit_columns",
    "fitted",
    "hanging",
    "natural_widths",
    "render_table",
    "table_width",
]

BAR_WIDTH = 30  # a bar at full width; it shrinks with the terminal
STACK_INDENT = 2  # a cell moved under another one is indented, so each row's first line stands out
FACT_LABEL_WIDTH = 9  # "summary  ", "abstain  ": the labels of the lines under the tables


@dataclass(frozen=True, slots=True)
class TableColumn:
    """A column of a text table and how it gives way when the width runs short.

    Priority 0 columns are always shown; the others are added in rising priority, each
    one if it still fits beside those before it (they are never squeezed for it). A
    column with a ``min_width`` holds prose and may be shortened down to it with an
    ellipsis; one without holds codes, ids or a baseline's word and is shown whole or not at all,
    since half a code reads as another code. ``under`` names the column whose cell this
    one moves into, on a second line, when the priority-0 columns do not fit side by
    side. ``width`` is the natural width of a column whose cells are drawn to fit it
    (a bar) rather than measured.
    """

    header: str
    priority: int = 0
    min_width: int | None = None
    under: str | None = None
    width: int | None = None


@dataclass(frozen=True, slots=True)
class TableLayout:
    """The columns shown, in display order, with their content widths."""

    widths: dict[str, int]
    under: dict[str, str]  # a column moved into another one's cell: column -> host
    folded: bool  # even stacked, the essential columns are wider than the terminal


def table_width(widths: Iterable[int]) -> int:
    """The printed width of a table of these content widths: Rich's default box puts
    one rule between and around the columns and one space of padding each side."""
    widths = list(widths)
    return sum(widths) + 3 * len(widths) + 1


def fit_columns(columns: Sequence[TableColumn], natural: Mapping[str, int], width: int) -> TableLayout:
    """Which columns to show in ``width`` and how wide, from each column's natural width.

    The essential columns side by side, else with the ``under`` columns stacked into
    their hosts; then the others in priority order, each taking what is left (down to
    its minimum if it may be shortened). Only when even the stacked essentials are wider
    than the terminal is anything folded: the widest of them, since nothing else can
    give way.
    """
    under: dict[str, str] = {}
    widths = {c.header: natural[c.header] for c in columns if c.priority == 0}
    if table_width(widths.values()) > width and any(c.under in widths for c in columns):
        under = {c.header: c.under for c in columns if c.under in widths}
        for moved, host in under.items():
            widths[host] = max(widths[host], widths.pop(moved) + STACK_INDENT)
    folded = table_width(widths.values()) > width
    if folded:
        widest = max(widths, key=lambda header: widths[header])
        widths[widest] = max(1, widths[widest] - (table_width(widths.values()) - width))
    else:
        for column in sorted((c for c in columns if c.priority and c.header not in under), key=lambda c: c.priority):
            room = width - table_width([*widths.values(), 0])
            wanted = natural[column.header]
            least = wanted if column.min_width is None else min(wanted, column.min_width)
            if room >= least:
                widths[column.header] = min(wanted, room)
    order = [c.header for c in columns]
    return TableLayout({h: widths[h] for h in order if h in widths}, under, folded)


def _cell_width(cell: Cell) -> int:
    if isinstance(cell, tuple):
        head, tail = cell
        return head.cell_len + tail.cell_len
    return max((line.cell_len for line in cell.split("\n")), default=0)


def natural_widths(columns: Sequence[TableColumn], rows: Sequence[Mapping[str, Cell]]) -> dict[str, int]:
    """Each column's width with nothing shortened: its widest cell or its header."""
    return {column.header: column.width if column.width is not None else max(
        [len(column.header), *(_cell_width(row[column.header]) for row in rows if column.header in row)])
        for column in columns}


def _shorten(cell: Cell, width: int) -> Text:
    """The cell in ``width`` cells: a shortened text ends with an ellipsis, before its tail."""
    from rich.text import Text

    head, tail = cell if isinstance(cell, tuple) else (cell, Text())
    if head.cell_len + tail.cell_len <= width:
        return Text.assemble(head, tail)
    head = head.copy()
    head.truncate(max(1, width - tail.cell_len), overflow="ellipsis")
    return Text.assemble(head, tail)


def render_table(title: str | Text, columns: Sequence[TableColumn], layout: TableLayout,
                 rows: Sequence[Mapping[str, Cell]]) -> Table:
    """A Rich table of ``rows`` (cells by header) laid out as ``layout`` says."""
    from rich.table import Table
    from rich.text import Text

    by_header = {column.header: column for column in columns}
    stacked = {host: [moved for moved, into in layout.under.items() if into == host] for host in layout.widths}
    table = Table(title=title, title_justify="left")
    for header, width in layout.widths.items():
        whole = by_header[header].min_width is None
        table.add_column(Text("\n".join([header, *stacked[header]])), width=width,
                         no_wrap=not (layout.folded and whole), overflow="fold" if whole else "ellipsis")
    for row in rows:
        cells = []
        for header, width in layout.widths.items():
            shortenable = by_header[header].min_width is not None
            # a (head, tail) pair only in a column that is shortened
            cell: Text = _shorten(row.get(header, Text()), width) if shortenable else row.get(header, Text())  # type: ignore[assignment]
            for moved in stacked[header]:
                cell = Text.assemble(cell, "\n", " " * STACK_INDENT, row.get(moved, Text()))  # type: ignore[arg-type]  # as above
            cells.append(cell)
        table.add_row(*cells)
    return table


def fitted(title: str | Text, columns: Sequence[TableColumn], rows: Sequence[Mapping[str, Cell]],
           width: int) -> Table:
    """The table of ``rows`` fitted to ``width``."""
    return render_table(title, columns, fit_columns(columns, natural_widths(columns, rows), width), rows)


def _pack(parts: Sequence[str], width: int, separator: str) -> list[str]:
    """The parts joined on as few lines as fit in ``width``, breaking only between
    parts, so that "quote exists 13/22" never loses its figure to the next line; a part
    wider than the width is wrapped at its spaces."""
    import textwrap

    from rich.cells import cell_len

    lines: list[str] = []
    for part in parts:
        if lines and cell_len(lines[-1]) + cell_len(separator) + cell_len(part) <= width:
            lines[-1] += separator + part
        else:
            lines.extend(textwrap.wrap(part, width, break_long_words=False, break_on_hyphens=False) or [""])
    return lines


def hanging(lead: str, parts: Sequence[str], width: int, separator: str, indent: str = " " * FACT_LABEL_WIDTH,
            lead_style: str = "bold") -> list[Text]:
    """The parts led by ``lead`` and continued after ``indent`` (a hanging indent)."""
    from rich.text import Text

    lines = _pack(parts, max(1, width - max(len(lead), len(indent))), separator)
    return [Text.assemble((lead if number == 0 else indent, lead_style), line) for number, line in enumerate(lines)]
