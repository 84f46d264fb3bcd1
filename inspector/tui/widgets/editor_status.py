"""The raw answer editor's status line (``EditorStatus``)."""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget

__all__ = ["EditorStatus"]


class EditorStatus(Widget):
    """The verdict of the text as it stands, where it failed, and what Esc would do.
    Of fixed height, so that a keystroke's new status is a repaint, not a layout pass."""

    DEFAULT_CSS = """
    EditorStatus { height: 3; padding: 0 1; }
    """

    content: Content = Content()

    def show(self, content: Content) -> None:
        if content != self.content:
            self.content = content
            self.refresh()

    def render(self) -> Content:
        return self.content
