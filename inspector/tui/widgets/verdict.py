"""The verdict: ACCEPT or the rejection, the baselines side by side, the frozen label.

Beside the contract: the label lens's policy (with a call-out when it would
answer what the contract rejects), and for a rejection its abstention category
and next action, whose failure it is (retrieval or generation, with the
retrieval recall), and the conflicting evidence the case touches.  All of it is
read from the verdict; nothing here decides.

The accepted map is shown only when the answer is accepted: a rejected
answer's claims are never presented as accepted values.
"""

from __future__ import annotations

from textual import events
from textual.cache import LRUCache
from textual.content import Content
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual

from ...presentation.annotate import LabelOrigin, label_origin
from ...presentation.records import CaseMetadataShown, case_metadata
from ...presentation.review_view import CaseReview, Said
from ...presentation.selection import Selection
from ...presentation.record_session import Trial
from ...reports.case import Baseline, Blame, CaseReport, Comparison, ConflictLine, Origin
from ...reports.labels import LabelMatch
from ...suites.load import HumanDecision
from .. import safe
from ..tones import TEXT, Tone, strong
from .text_view import set_scroll_extent

__all__ = ["VerdictView", "render_verdict", "verdict_lines"]

_MUTED = TEXT[Tone.MUTED]


def _baseline(baseline: Baseline) -> Content:
    mark = "✓" if baseline.accepts else "✗"
    return Content.assemble((f"{baseline.name:<14}", _MUTED), (f"{mark} {baseline.word}", strong(baseline.tone)))


def _listed(names: tuple[str, ...], style: str = "bold") -> list[Content | tuple[str, str]]:
    """Untrusted names, comma-separated."""
    parts: list[Content | tuple[str, str]] = []
    for position, name in enumerate(names):
        if position:
            parts.append((", ", _MUTED))
        parts.append(safe.content(name, style))
    return parts


def _blame(blame: Blame) -> Content:
    """Whose failure the rejection is, and what retrieval supplied."""
    return Content.assemble((blame.who, strong(blame.tone)), (": ", _MUTED), (blame.why, _MUTED),
                            *_listed(blame.missing), (f" ({blame.recall})", _MUTED))


def _more(count: int, what: str) -> tuple[str, str]:
    return (f"… and {count} more {what}", _MUTED)


def _conflict(conflict: ConflictLine) -> Content:
    """Which field, which sources say what."""
    parts: list[Content | tuple[str, str]] = [("⚠ conflict ", strong(Tone.WARN)), safe.content(conflict.field, "bold"),
                                              (": ", _MUTED)]
    for position, (source, value) in enumerate(conflict.values):
        if position:
            parts.append((", ", _MUTED))
        parts += [safe.content(source), (" says ", _MUTED), safe.content(value, "bold")]
    if conflict.hidden:
        parts += [(", ", _MUTED), _more(conflict.hidden, "documents")]
    return Content.assemble(*parts)


def _conflicts(report: CaseReport) -> list[Content]:
    shown, hidden = report.conflict_lines
    lines = [_conflict(conflict) for conflict in shown]
    if hidden:
        lines.append(Content.assemble(_more(hidden, "conflicts")))
    return lines


class VerdictView(ScrollView, can_focus=False):
    """The verdict as wrapped lines in a view of fixed size: another case's verdict
    is a repaint, never a layout pass, however many lines it takes."""

    HELP = (
        "**Verdict**: the contract's outcome and whether it matches the case's frozen label; the "
        "article's two baselines beside it (strict JSON only, citation only) and the label lens "
        "(per-claim labels: ANSWER only when every claim is SUPPORTED), with a call-out when one of "
        "them would have accepted a rejected answer. For a rejection: its category and the next "
        "action, whose failure it is (*retrieval* when a requested field had no supporting source "
        "among those supplied, else *generation*) with the retrieval recall, and the conflicting "
        "evidence the case touches. The accepted map only when accepted. A case's review: in review mode why "
        "it is pending and the decision taken on it (who, when, the note), and a review or relabelling the suite "
        "already holds. Scrolls with `^d` `^u` (or `PgDn` `PgUp`) and the mouse."
    )

    DEFAULT_CSS = """
    VerdictView {
        height: 1fr;
        overflow-x: hidden;
        overflow-y: auto;
        scrollbar-size-vertical: 1;
        scrollbar-gutter: stable;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._entry: object = None
        self.review: CaseReview | None = None  # the case's review, set by the screen before ``show``
        self.trial: Trial | None = None  # a record among its item's trials, set by the screen before ``show``
        self._lines: list[Content] = []
        self._strips: list[Strip] = []
        self._width = -1
        # Wrapped lines by (text, spans, width): most lines of one verdict (the
        # baselines, the category, "accepted nothing") recur in the next one.
        self._wrapped: LRUCache[tuple, list[Strip]] = LRUCache(256)

    def show(self, selection: Selection) -> None:
        entry = (selection.report, self.review, self.trial)
        if isinstance(self._entry, tuple) and entry[0] is self._entry[0] and entry[1:] == self._entry[1:]:
            return
        self._entry = entry
        self._lines = verdict_lines(selection, self.review, self.trial)
        self._width = -1
        self.scroll_to(0, 0, animate=False, immediate=True)
        self._wrap()
        self.refresh()

    def scroll_half(self, direction: int) -> None:
        """Scroll by half the view's height, down (1) or up (-1); the ends are the ends."""
        step = max(1, self.scrollable_content_region.height // 2)
        self.scroll_to(y=int(self.scroll_offset.y) + direction * step, animate=False, immediate=True)

    def _wrap(self) -> None:
        """Wrap the verdict to the view's width (once per verdict and width)."""
        width = self.scrollable_content_region.width
        if width == self._width:
            return
        self._width = width
        strips: list[Strip] = []
        if width > 0:
            cache, style = self._wrapped, self.visual_style
            for line in self._lines:
                key = (line.plain, tuple(line.spans), width)
                wrapped = cache.get(key)
                if wrapped is None:
                    wrapped = cache[key] = Visual.to_strips(self, line, width, None, style, pad=True)
                strips.extend(wrapped)
        self._strips = strips
        set_scroll_extent(self, max(width, 0), len(strips))

    def on_resize(self, event: events.Resize) -> None:
        self._wrap()
        self.refresh()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._width = -1  # another theme: the styles resolve to other colours
        self._wrapped.clear()

    def render_line(self, y: int) -> Strip:
        self._wrap()
        row = int(self.scroll_offset.y) + y
        if 0 <= row < len(self._strips):
            return self._strips[row]
        return Strip.blank(self.scrollable_content_region.width, self.rich_style)


def render_verdict(selection: Selection, review: CaseReview | None = None, trial: Trial | None = None) -> Content:
    """The verdict panel's text, as one Content."""
    return Content("\n").join(verdict_lines(selection, review, trial))


def verdict_lines(selection: Selection, review: CaseReview | None = None,
                  trial: Trial | None = None) -> list[Content]:
    """The verdict panel, line by line (with the case's review, when it has one; a record among its item's
    trials, against the first: ``trial``)."""
    report = selection.report
    verdict = report.verdict
    lines: list[Content] = []
    if verdict is None:
        error = report.error
        assert error is not None
        lines.append(Content.styled("ERROR  this case could not be loaded", strong(Tone.BAD)))
        lines.append(Content.assemble(safe.content(error.place, _MUTED), (": ", _MUTED), safe.content(error.problem)))
        return lines

    if verdict.ok:
        lines.append(Content.assemble((" ACCEPT ", "bold $text on $success 60%"),
                                      ("  every check passed", _MUTED)))
    else:
        lines.append(Content.assemble((f" {verdict.label} ", "bold $text on $error 70%")))
    comparison = report.comparison
    match = report.label_match
    label_from = label_origin(report.case)  # an exported record's: the contract's verdict, or a person's label
    if comparison is None and trial is not None:
        lines.extend(_trial(trial))
    if comparison is not None:
        lines.extend(_comparison(comparison, report.expected))
    elif match is LabelMatch.UNLABELLED:
        if label_from is None or not label_from.unlabelled:
            lines.append(Content.styled("no frozen label (a single answer)", _MUTED))
    elif match is LabelMatch.MATCHES:
        lines.append(Content.styled("✓ matches the frozen label", strong(Tone.GOOD)))
    else:
        lines.append(Content.assemble(("≠ frozen label ", strong(Tone.BAD)), safe.content(report.expected or "", "bold")))
    if comparison is None and label_from is not None:
        lines.append(_label_origin(label_from))
    if report.lens_match is False:
        lines.append(Content.styled("≠ the frozen per-claim labels or policy", strong(Tone.BAD)))
    if review is not None:
        lines.extend(_review(review))
    # What to do about a rejection comes first; the baselines put it in context.
    if report.lens_callout:
        lines.append(Content.styled(report.lens_callout, strong(Tone.WARN)))
    category = report.category
    if category is not None:
        lines.append(Content.assemble((category.title, strong(Tone.WARN)), (": ", _MUTED), category.next_action))
    blame = report.blame
    if blame is not None:
        lines.append(_blame(blame))
    lines.extend(_conflicts(report))

    lines.append(Content(""))
    lines.extend(_baseline(baseline) for baseline in report.baselines)
    if report.citation_callout:
        lines.append(Content.styled(report.citation_callout, strong(Tone.WARN)))

    lines.append(Content(""))
    if verdict.ok:
        lines.append(Content.styled("accepted", _MUTED))
        for field, value in verdict.accepted.items():
            lines.append(Content.assemble("  ", safe.content(field, "bold"), (" = ", _MUTED), safe.content(value)))
    else:
        lines.append(Content.assemble(("accepted ", _MUTED), ("nothing", "bold"), (" (an empty map)", _MUTED)))
    note = report.note
    if note:
        lines.append(Content.assemble(("note ", _MUTED), safe.content(note, f"italic {_MUTED}")))
    metadata = report.metadata
    if metadata is not None:
        lines.append(_metadata(case_metadata(metadata)))
    human = report.human
    if human is not None:
        lines.append(_human(human))
    origin = report.origin
    if origin is not None:
        lines.append(_origin(origin))
    return lines


# The lab's changes the verdict names, the latest last.
SHOWN_CHANGES = 3


def _compared(comparison: Comparison, mark: str, lead: str = "") -> list[Content]:
    """One answer against another (``Comparison``): the verdict before and now, then the baselines."""
    lines = [Content.assemble((mark, strong(Tone.WARN)), (lead, _MUTED),
                              (comparison.headline, strong(Tone.WARN if comparison.flipped else Tone.MUTED)))]
    parts: list[Content | tuple[str, str]] = []
    for flip in comparison.baselines:
        if parts:
            parts.append((" · ", _MUTED))
        parts.append((flip.words, strong(flip.tone) if flip.flipped else _MUTED))
    lines.append(Content.assemble(*parts))
    return lines


def _trial(trial: Trial) -> list[Content]:
    """A record among its item's trials, against the first trial (the first: the others are against it)."""
    if trial.against is None:
        said = "the first: the others are compared with it" if trial.trial == 1 else \
            "not compared: a trial could not be read again"
        return [Content.assemble(("⇄ ", strong(Tone.MUTED)), (f"{trial.lead} · {said}", _MUTED))]
    return _compared(trial.against, "⇄ ", f"{trial.lead} · ")


def _comparison(comparison: Comparison, expected: str | None) -> list[Content]:
    """An edited case against its frozen self: the verdict, the baselines, the changes (the lab's keys)."""
    lines = _compared(comparison, "✎ ")
    changes = comparison.changes
    shown = changes[-SHOWN_CHANGES:]
    words: list[Content | tuple[str, str]] = [(f"{len(changes)} change{'s' if len(changes) != 1 else ''}: ", _MUTED)]
    if len(changes) > len(shown):
        words.append((f"… {len(changes) - len(shown)} earlier, ", _MUTED))
    words.extend(_listed(shown, ""))
    words.append(("  (u undo, R frozen case)", _MUTED))
    lines.append(Content.assemble(*words))
    if expected is not None:
        lines.append(Content.assemble(("frozen label ", _MUTED), safe.content(expected, "bold"),
                                      (" (the unedited case's)", _MUTED)))
    return lines


def _metadata(shown: CaseMetadataShown) -> Content:
    """An exported triage record's place and metadata (every word untrusted)."""
    parts: list[Content | tuple[str, str]] = [("metadata ", _MUTED), safe.content(shown.place, "bold")]
    for key, value in shown.members:
        parts += [(" · ", _MUTED), safe.content(key, _MUTED), (" ", _MUTED), safe.content(value)]
    if shown.more:
        parts.append((f" · +{shown.more} more", _MUTED))
    return Content.assemble(*parts)


def _label_origin(origin: LabelOrigin) -> Content:
    """Where an exported record's label came from: ``label frozen from the contract's verdict when
    exported``, ``label from a person's annotation: false rejection by Ada · 2026-…`` (untrusted words
    escaped); unlabelled, in the tone of a difference."""
    human = origin.human
    said: list[Content | tuple[str, str]] = [(origin.words, strong(Tone.BAD) if origin.unlabelled else _MUTED)]
    if human is not None:
        said += [(" ", _MUTED), (human.decision.replace("_", " "), "bold"), (" by ", _MUTED),
                 safe.content(human.reviewer, "bold"), (" · ", _MUTED), safe.content(human.at, _MUTED)]
    if origin.unlabelled:
        said.append((" (which rejection is right is not said)", _MUTED))
    return Content.assemble(*said)


def _human(human: HumanDecision) -> Content:
    """A reviewer's decision on the record's verdict, carried from the triage's annotations (untrusted words)."""
    wrong = human.decision.startswith("false_")
    return Content.assemble(("reviewed ", _MUTED), (human.decision.replace("_", " "), strong(Tone.BAD if wrong else
                                                                                              Tone.GOOD)),
                            (" by ", _MUTED), safe.content(human.reviewer, "bold"), (" · ", _MUTED),
                            safe.content(human.at, _MUTED),
                            *([(" · ", _MUTED), safe.content(human.note, "italic")] if human.note else []))  # type: ignore[arg-type]  # a pair and a Content


def _origin(origin: Origin) -> Content:
    """Where a saved counterexample came from."""
    edits = origin.edits
    return Content.assemble(("saved from ", _MUTED), safe.content(origin.parent_suite, "bold"), (" / ", _MUTED),
                            safe.content(origin.parent_case, "bold"),
                            (f" · {len(edits)} edit{'s' if len(edits) != 1 else ''}: ", _MUTED),
                            *(_listed(edits, "") or [("none", _MUTED)]),
                            (" · parent sha256 ", _MUTED), safe.content(origin.parent_sha256[:12]),
                            (" · inspector ", _MUTED), safe.content(origin.inspector_version))


def _said(lead: str, said: Said) -> Content:
    """A human decision: what, who, when, and the note (all but the words untrusted)."""
    parts: list[Content | tuple[str, str]] = [(lead, _MUTED), (said.words, strong(said.tone)), (" · ", _MUTED),
                                              safe.content(said.reviewer, "bold"), (" · ", _MUTED),
                                              safe.content(said.at, _MUTED)]
    if said.note:
        parts += [(" · ", _MUTED), safe.content(said.note, f"italic {_MUTED}")]
    return Content.assemble(*parts)


def _review(review: CaseReview) -> list[Content]:
    """The case's review: why it is pending, the decision taken now, what the suite holds."""
    lines = []
    if review.pending is not None:
        lines.append(Content.assemble(("pending review: ", _MUTED), (review.pending, strong(Tone.WARN))))
    if review.decision is not None:
        lines.append(_said("decided ", review.decision))
    elif review.pending is not None:
        lines.append(Content.styled("a accept · r reject · s skip · N with a note", _MUTED))
    if review.applied is not None:
        lines.append(_said("reviewed ", review.applied))
    if review.known_regression and review.decision is None:
        lines.append(Content.styled("⊘ a known regression: the verdict differs, knowingly", strong(Tone.WARN)))
    lines.extend(_said("relabelled ", change) for change in review.history)
    return lines
