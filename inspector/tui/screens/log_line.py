"""A triage record's whole log line (``l`` on a group's records, ``l`` or Enter on a bad line, its reason
above it): ``LogLineScreen``.

What it shows is ``presentation.records.LogLine``: the line as reread from its
log (the bytes the record was counted from), re-indented or, with ``r``,
exactly as written, at most ``records.LINE_BYTES`` of it (the head says how
much is cut).  The text is untrusted: drawn by ``SafeTextView``, control
characters as ``\\uXXXX``, bytes that are not UTF-8 as ``\\xNN``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from pathlib import PurePath

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static

from ...presentation.records import LogLine
from ...triage.logs import LogError
from ...triage.stamp import LogChanged
from .. import keys, safe
from ..tones import TEXT, Tone
from ..widgets.text_view import SafeTextView

__all__ = ["LogLineScreen", "line_title", "show_log_line"]

_MUTED = TEXT[Tone.MUTED]


def line_title(line: LogLine) -> Content:
    """The dialog's title: where the line is (its log's name: the strip behind has the
    path) and how long; the head says how it is shown."""
    size = f"{line.size:,} bytes" if line.whole else f"more than {line.size:,} bytes"
    return Content.assemble("log line · ", safe.content(f"{PurePath(line.file).name}:{line.line}", "bold"),
                            (f" · offset {line.offset} · {size}", _MUTED))


def show_log_line(screen: Screen[Any], read: Callable[[bool], LogLine], what: str,
                  reason: str | None = None) -> None:
    """Open ``LogLineScreen`` over ``screen`` on the line ``read`` rereads (re-indented first), or say on
    ``screen`` why it cannot be: a log changed since it was counted (``what``: "this line", "this
    record's line", is not there any more), or a line that cannot be read."""
    try:
        line = read(True)
    except LogChanged as exc:
        screen.notify(safe.display(f"{exc.path}: the log changed since it was counted ({exc.what}): {what} is "
                                   "not there any more; Esc, then ctrl+r in the overview counts again"),
                      title="a log changed", severity="error", markup=False, timeout=8)
        return
    except LogError as exc:
        screen.notify(safe.file_error(exc, screen.app.is_web), title="the line cannot be read again",
                      severity="error", markup=False, timeout=8)
        return
    screen.app.push_screen(LogLineScreen(read, line, reason))


class LogLineScreen(ModalScreen[None]):
    BINDINGS = keys.bindings("line")

    def __init__(self, read: Callable[[bool], LogLine], line: LogLine, reason: str | None = None) -> None:
        """``reason``: why the line is not a record (a bad line's), shown whole above it."""
        super().__init__()
        self.read = read  # the line again, re-indented (True) or as written: reread, checked again
        self.line = line
        self.reason = reason

    def compose(self) -> ComposeResult:
        with Vertical(id="line", classes="dialog"):
            if self.reason is not None:  # untrusted: it can quote the line
                yield Static(Content.assemble(("not a record: ", f"bold {TEXT[Tone.BAD]}"), safe.content(self.reason)),
                             id="line-reason")
            yield Static("", id="line-head")
            yield SafeTextView(wrap=True, line_numbers=True, id="line-text")
        yield Footer()

    def on_mount(self) -> None:
        self._show(self.line)

    def _show(self, line: LogLine) -> None:
        self.line = line
        self.query_one("#line").border_title = line_title(line)
        how = "re-indented: the same tokens, in their order (r: as written)" if line.pretty else \
            "exactly as written (r: re-indented)"
        head = [Content.styled(how, _MUTED)]
        if line.note is not None:
            head.insert(0, Content.styled(line.note, f"bold {TEXT[Tone.WARN]}"))
        self.query_one("#line-head", Static).update(Content(" · ").join(head))
        self.query_one(SafeTextView).set_text(line.text, raw_bytes=line.raw_bytes, note=line.note)

    @property
    def view(self) -> SafeTextView:
        return self.query_one(SafeTextView)

    def action_toggle_pretty(self) -> None:
        try:
            line = self.read(not self.line.pretty)
        except LogError as exc:
            self.notify(safe.file_error(exc, self.app.is_web), title="the line cannot be read again", severity="error",
                        markup=False, timeout=8)
            return
        self._show(line)

    def action_scroll(self, rows: int) -> None:
        self.view.scroll_relative(y=rows, animate=False)

    def action_page(self, pages: int) -> None:
        view = self.view
        view.scroll_relative(y=pages * max(1, view.scrollable_content_region.height - 1), animate=False)
