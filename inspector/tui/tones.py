"""The TUI's styles for the presentation layer's tones, in one table.

A tone says what something means (``reports.tones.Tone``); this module
says how the terminal shows it: as text colour (``TEXT``), as the colour of a
table cell (``TABLE``), and as the background of a highlight in the request
strip (``HIGHLIGHT``), in a table (``TABLE_HIGHLIGHT``) or in a text view
(``TEXT_HIGHLIGHT``).
"""

from __future__ import annotations

from ..reports.tones import Tone

__all__ = ["HIGHLIGHT", "TABLE", "TABLE_HIGHLIGHT", "TEXT", "TEXT_HIGHLIGHT", "Tone", "strong"]

# Content styles (theme variables) for text of a tone; a view adds "bold" where
# it emphasises (``strong``).
TEXT: dict[Tone, str] = {
    Tone.GOOD: "$text-success",
    Tone.BAD: "$text-error",
    Tone.WARN: "$text-warning",
    Tone.PENDING: "$text-muted",
    Tone.MUTED: "$text-muted",
    Tone.PLAIN: "",
}
# Component classes of SafeTable for a cell of a tone (None: the plain cell).
TABLE: dict[Tone, str | None] = {
    Tone.GOOD: "safe-table--good",
    Tone.BAD: "safe-table--bad",
    Tone.WARN: "safe-table--warn",
    Tone.PENDING: "safe-table--dim",
    Tone.MUTED: "safe-table--note",
    Tone.PLAIN: None,
}
# A highlighted value: what the current step compares, and how it went.
HIGHLIGHT: dict[Tone, str] = {
    Tone.GOOD: "bold $text on $success 40%",
    Tone.BAD: "bold $text on $error 70%",
    Tone.PENDING: "$text on $secondary 30%",
}


def strong(tone: Tone) -> str:
    """The bold form of a tone's text style."""
    return f"bold {TEXT[tone]}".rstrip()


TABLE_HIGHLIGHT: dict[Tone, str] = {
    Tone.GOOD: "safe-table--passed", Tone.BAD: "safe-table--failed", Tone.PENDING: "safe-table--pending"}
TEXT_HIGHLIGHT: dict[Tone, str] = {
    Tone.GOOD: "safe-text--passed", Tone.BAD: "safe-text--failed", Tone.PENDING: "safe-text--pending"}
