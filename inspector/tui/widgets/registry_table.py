"""The registry beside the claims: a row per source, a column per fact field.

The cited source's row is marked and the cell the current step compares is
highlighted (red when the step fails): environment or service for a scope
mismatch, revision for a stale revision, the fact for a value mismatch, the id
for citation steps, the failing condition's cell (tenant, approved, deleted,
expires_at, readers) for access.  The facts the case's conflicts are about are
shaded.  Columns and the id -> row index are computed once per registry; a step
only redraws the rows whose highlight moved.
"""

from __future__ import annotations

from textual import events

from ...contract.models import Registry, Request
from ...presentation.selection import ACCESS_ATTRIBUTES, Selection
from ..safe import display
from ..tones import TABLE, TABLE_HIGHLIGHT, Tone
from .table import Cell, Column, SafeTable

__all__ = ["RegistryTable"]
_CAPS = {"id": 24, "service": 16, "environment": 12, "revision": 10, "fact": 20, "access": 16}


def _metadata(value: object) -> str:
    """A metadata value as shown: booleans in lower case, lists comma-separated."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else str(value)
    if isinstance(value, tuple):
        return ", ".join(value) or "(none)"
    return str(value)


def _width(values: list[str], title: str, cap: int) -> int:
    return _fit(max((len(display(v)) for v in values), default=0), title, cap)


def _fit(widest: int, title: str, cap: int) -> int:
    """A column's width for its widest value and its title, within ``cap``."""
    return max(min(max(widest, len(title)), cap), min(len(title), 6), 3)


def _widest_facts(registry: Registry) -> dict[str, int]:
    """Each fact field's widest value, in one pass over the sources' facts (a pass
    over every source per field took 8,000 sources of a field each 90 s)."""
    widest = dict.fromkeys(registry.fact_fields, 0)
    for source in registry.sources:
        for name, value in source.facts.items():
            width = len(display(value))
            if width > widest[name]:
                widest[name] = width
    return widest


class RegistryTable(SafeTable):
    HELP = (
        "**Registry**: every source of the suite's registry (a column per fact field; *supplied* "
        "says whether the request supplied it to the model; *tenant*, *approved*, *deleted*, "
        "*expires_at* and *readers* when sources record access metadata). The cited source's row is "
        "marked; the cell the current step compares is highlighted, red when the step fails (for "
        "*access allowed*, the condition that failed). Facts on which two documents the case "
        "touches disagree are shaded as a conflict."
    )

    DEFAULT_CSS = """
    RegistryTable > .registry-table--conflict { background: $warning 30%; }
    """
    COMPONENT_CLASSES = SafeTable.COMPONENT_CLASSES | {"registry-table--conflict"}

    fixed_columns = 1  # the id stays in view when the compared cell is far right

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.registry: Registry | None = None
        self.request: Request | None = None
        self._rows_by_id: dict[str, int] = {}
        self._fact_keys: dict[str, str] = {}
        self._mark: tuple[int | None, frozenset[str], Tone | None] = (None, frozenset(), None)
        self._reveal: tuple[int | None, str | None] = (None, None)
        self._entry: object = None
        self._conflicts: frozenset[tuple[int, str]] = frozenset()  # (row, column key)
        self._shown_conflicts: object = None  # the conflicts shaded, for the registry loaded

    def _load(self, registry: Registry) -> None:
        self.registry = registry
        self._shown_conflicts = None
        self._conflicts = frozenset()
        sources = registry.sources
        self._rows_by_id = {source.id: row for row, source in enumerate(sources)}
        # Fact fields are untrusted names: keep them out of column keys' namespace.
        self._fact_keys = {f"facts.{name}": name for name in registry.fact_fields}
        columns = [
            Column("id", "id", width=_width([s.id for s in sources], "id", _CAPS["id"])),
            Column("service", "service", width=_width([s.service for s in sources], "service", _CAPS["service"])),
            Column("environment", "env", width=_width([s.environment for s in sources], "env",
                                                      _CAPS["environment"])),
            Column("revision", "rev", width=_width([s.revision for s in sources], "rev", _CAPS["revision"])),
        ]
        for name, widest in _widest_facts(registry).items():
            columns.append(Column(f"facts.{name}", display(name), width=_fit(widest, display(name), _CAPS["fact"])))
        columns.append(Column("supplied", "supplied", width=8))
        # Access metadata, when the registry records any: then every condition gets a
        # column, so a missing value (which fails closed) has a cell to highlight.
        if any(getattr(s, attribute) is not None for s in sources for attribute in ACCESS_ATTRIBUTES):
            for attribute in ACCESS_ATTRIBUTES:
                values = [_metadata(getattr(s, attribute)) for s in sources]
                columns.append(Column(attribute, attribute, width=_width(values, attribute, _CAPS["access"])))
        self.set_columns(columns)
        self.set_row_count(len(sources))

    def show(self, selection: Selection) -> None:
        report = selection.report
        registry = report.suite.registry
        request = report.case.request if report.case is not None else None
        if registry is not self.registry:
            self._load(registry)
            self.request = request
            self.refresh_all()
        elif request is not self.request:
            # The supplied column depends on the request: redraw the rows whose cell changed.
            previous, self.request = self.request, request
            if previous is None or request is None:
                self.refresh_all()
            else:
                changed = set(previous.supplied) ^ set(request.supplied)
                self.refresh_rows({self._rows_by_id.get(doc) for doc in changed} - {None})
        if report is not self._entry:
            self._entry = report
            self._show_conflicts(selection)
        source = selection.source
        row = self._rows_by_id.get(source.id) if source is not None else None
        columns = selection.registry_columns
        mark = (row, columns, selection.tone)
        if mark != self._mark:
            old = self._mark[0]
            self._mark = mark
            self.cursor = row
            self.refresh_rows((old, row))
        self._reveal = (row, selection.registry_column)
        self._apply_reveal()

    def _show_conflicts(self, selection: Selection) -> None:
        """Shade the facts the case's conflicts are about (the verdict found them)."""
        conflicts = selection.report.conflicts
        if conflicts == self._shown_conflicts:
            return  # neighbouring cases of one group touch the same conflicts
        self._shown_conflicts = conflicts
        cells: set[tuple[int, str]] = set()
        for conflict in conflicts:
            column = f"facts.{conflict.field}"
            for source_id, _ in conflict.values:
                row = self._rows_by_id.get(source_id)
                if row is not None:
                    cells.add((row, column))
        if cells != self._conflicts:
            # Only the rows whose shading changed.
            rows = {row for row, _ in self._conflicts ^ cells}
            self._conflicts = frozenset(cells)
            self.refresh_rows(rows)

    def _apply_reveal(self) -> None:
        row, column = self._reveal
        if row is not None:
            self.scroll_to_row(row)
        if column is not None:
            self.scroll_to_column(column)

    def on_resize(self, event: events.Resize) -> None:
        self._apply_reveal()

    def row_style(self, row: int) -> str | None:
        return "safe-table--marked" if row == self._mark[0] else None

    def cell(self, row: int, column: Column) -> Cell:
        assert self.registry is not None
        source = self.registry.sources[row]
        key = column.key
        if key == "supplied":
            if self.request is None:
                return None
            if source.id in self.request.supplied:
                return ("✓ yes", TABLE[Tone.GOOD])
            return ("· no", TABLE[Tone.PENDING])
        if key in self._fact_keys:
            value = source.facts.get(self._fact_keys[key])
            return value if value is not None else ("—", TABLE[Tone.PENDING])
        if key in ACCESS_ATTRIBUTES:
            value = getattr(source, key)
            return _metadata(value) if value is not None else ("—", TABLE[Tone.PENDING])
        return getattr(source, key)

    def cell_style(self, row: int, column: Column) -> str | None:
        marked, columns, tone = self._mark
        if row == marked and column.key in columns and tone is not None:
            return TABLE_HIGHLIGHT[tone]
        if (row, column.key) in self._conflicts:
            return "registry-table--conflict"
        return None
