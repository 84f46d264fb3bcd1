"""The footer of the inspector's screens: Textual's, the help key and q pinned on its right.

Textual's ``Footer`` lists a screen's keys, then the app's, and cuts what does not
fit: at 80 columns the main view's footer ended before ``? help`` and ``q``.  The
app's ``?`` and ``q`` (back, or quit on the first screen) are docked on the right
here, beside the palette's key, so that they stay whatever the width; the
screen's own keys fill what is left, cut on the right as before.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.widgets import Footer
from textual.widget import Widget

__all__ = ["KeysFooter", "PINNED"]

# The actions of the app's keys that stay in view (keys.py: help, back, and quit on the first screen).
PINNED = frozenset({"help", "back_screen", "leave"})


class KeysFooter(Footer):
    """``Footer``, the app's ``?`` and ``q`` pinned on the right."""

    DEFAULT_CSS = """
    KeysFooter #pinned-keys {
        dock: right;
        width: auto;
        height: 1;
    }
    KeysFooter #pinned-keys FooterKey.-command-palette {
        dock: none;
    }
    """

    def compose(self) -> ComposeResult:
        # Docked widgets on one edge overlap: the pinned keys and the palette's (docked by Footer) share one
        # group docked on the right, in the order they come (?, q, then the palette's).
        # A key's widget is told by its action (Textual's FooterKey, a private class, is not imported: were
        # its shape to change, the keys would stay in the row, unpinned, and the footer tests say so).
        pinned: list[Widget] = []
        for widget in super().compose():
            if getattr(widget, "action", None) in PINNED or widget.has_class("-command-palette"):
                widget.add_class("-pinned")
                pinned.append(widget)
                continue
            yield widget
        if pinned:
            yield HorizontalGroup(*pinned, id="pinned-keys")
