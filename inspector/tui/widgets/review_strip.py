"""Review mode's strip above the main view: how many cases are left, who
reviews, and where the decisions are kept (``presentation.review_view``); once
the walk is done, how it went and how to apply it, on a line of its own (a
notice said it, over the view and the summary's agreement matrix)."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from ...presentation.review import ReviewSession
from ...presentation.review_view import end_words, strip_words
from .. import safe
from ..tones import TEXT, Tone

__all__ = ["ReviewStrip"]

_MUTED = TEXT[Tone.MUTED]


class ReviewStrip(Static):
    """One line, shown only in review mode."""

    HELP = (
        "**Review strip** (review mode only): `review · N left of M · reviewer` and the pending file the "
        "decisions go to (`SUITE.review.json` beside the suite, never the suite itself). In the case list, "
        "`•` marks a case left, `✓` accepted, `✗` rejected (a known regression), `»` skipped; the verdict "
        "panel says why the case is pending and its decision."
    )

    DEFAULT_CSS = """
    ReviewStrip { height: auto; max-height: 3; padding: 0 1; background: $warning-muted; display: none; }
    ReviewStrip.-on { display: block; }
    """

    def show_review(self, review: ReviewSession | None) -> None:
        self.set_class(review is not None, "-on")
        if review is None:
            self.update("")
            return
        header, where = strip_words(review)
        line = Content.assemble(safe.content(header, "bold"), ("   ", ""), safe.content(where, _MUTED))
        if review.next_left(None) is None:  # the walk is done: how it went and how to apply it, under it
            line = Content("\n").join([line, safe.content(end_words(review))])
        self.update(line)
