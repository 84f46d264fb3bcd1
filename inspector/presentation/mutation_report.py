"""The mutation report as the inspector shows it: ``inspector mutate``'s report, in rows.

``lab.mutation_testing.mutate`` computes the report (the same one the command prints);
this reads it, once, into what the screen draws, never recomputing a figure:
the head (mutants, score, holes, slipped, harmless, coverage, in the command's
words), a row per rejection code (its kills, as a bar), per check that stopped
slipped mutants (which later checks they were meant for: the contract's order
made visible), per suite with uncovered codes (and the mutants that would cover
them), then the mutants themselves: the holes, the harmless mutants rejected and
the harmless survivors.  Each figure's row carries the mutants it counts, for the
screen's list.  Pure (no textual, no rich): words come as pieces with a tone, and
every piece is untrusted as far as the view is concerned.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ..contract.checks import CHECKS_BY_ID
from ..contract.text import line_col, shorten
from ..lab.mutation_testing import REJECTIONS, MutantResult, MutateReport, Progress, mutate
from ..reports.tones import Tone
from ..suites.load import Suite

__all__ = ["Item", "Piece", "ReportRow", "ReportRows", "Words", "compute", "edit_span", "mutant_tone",
           "mutant_words", "prepare"]

Piece = tuple[str, Tone, bool]  # text, its tone, and whether it is emphasised
Words = tuple[Piece, ...]


def _muted(text: str) -> Piece:
    return (text, Tone.MUTED, False)


def _fact(text: object, tone: Tone = Tone.PLAIN) -> Piece:
    return (str(text), tone, True)


@dataclass(frozen=True, slots=True, eq=False)
class ReportRow:
    """A figure of the report: a verdict code's kills, a check's slipped mutants or a
    suite's uncovered codes, with the mutants it counts and its detail in words."""

    kind: str  # "code", "slipped" or "uncovered"
    label: str  # a code, a check's title or a suite's name (untrusted)
    total: int  # the bar's whole (0: no bar)
    note: str  # beside the count
    title: str  # what the list of its mutants is, in words
    key: tuple[str, ...]  # (code,), (check id,) or (suite name, *codes)
    mutants: tuple[MutantResult, ...]
    what: str = ""  # shown instead of a bar: a suite's uncovered codes
    detail: Words = ()

    @property
    def count(self) -> int:
        return len(self.mutants)


# A row of the report: a figure, or a mutant (the report's own result, shown as it is).
Item = ReportRow | MutantResult


@dataclass(frozen=True, slots=True)
class ReportRows:
    """A report and its rows, built once (the inspector does it in a worker)."""

    report: MutateReport
    head: tuple[Words, ...]  # lines
    items: tuple[Item, ...]
    sections: dict[int, str]  # the first row of each section -> the section's name


def compute(suites: Iterable[Suite], progress: Progress | None = None) -> ReportRows:
    """``inspector mutate``'s report of these suites, as rows."""
    return prepare(mutate(suites, progress))


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _head(report: MutateReport) -> tuple[Words, ...]:
    """The report's figures in words, the way ``inspector mutate`` says them."""
    score = "-" if report.score is None else f"{report.score:.1%}"
    harmless, stricter = len(report.harmless), len(report.stricter)
    lines: list[Words] = [
        (_fact(len(report.results)),
         _muted(f" mutants of {_plural(len(report.parents), 'accepted case')} (of {report.summary.total}) · "),
         _fact(report.killed), _muted(" killed · "), _fact(len(report.survivors)), _muted(" survived")),
        (_muted("score "), _fact(score, Tone.BAD if report.holes else Tone.GOOD),
         _muted(f" of the {len(report.meant)} mutants meant to change the verdict killed · "),
         _fact(len(report.holes), Tone.BAD if report.holes else Tone.PLAIN),
         _muted(" hole · " if len(report.holes) == 1 else " holes · "),
         _fact(len(report.slipped)), _muted(" slipped to another check")),
        (_muted("harmless: "), _fact(harmless - stricter), _muted(f" of {harmless} still accepted · "),
         _fact(stricter, Tone.WARN if stricter else Tone.PLAIN),
         _muted(" rejected (the contract is stricter than intended)")),
    ]
    if not report.parents:
        lines.append((_fact("no accepted case to mutate: the suites have no ACCEPT case", Tone.WARN),))
    if report.uncovered:
        lines.append((_fact(f"not covered by any case: {', '.join(report.uncovered)}", Tone.BAD),))
    else:
        lines.append((("every rejection code is covered by a case of the suites", Tone.GOOD, False),))
    return tuple(lines)


def prepare(report: MutateReport) -> ReportRows:
    """The rows of a report: every rejection code, the slipped mutants per check, each
    suite's uncovered codes, then the holes, the harmless mutants rejected and the
    harmless survivors."""
    items: list[Item] = []
    sections: dict[int, str] = {}

    def section(name: str, rows: Sequence[Item]) -> None:
        if rows:
            sections[len(items)] = name
        items.extend(rows)

    slipped_by, reasons, killed = report.slipped_by, report.killed_by_reason, report.killed
    codes = [ReportRow("code", code, killed, f"{slipped_by[code]} slipped" if slipped_by.get(code) else "",
                       f"killed first by {code}", (code,), report.killed_with((code,))) for code in REJECTIONS]
    section("killed", [replace(row, detail=_code_detail(row, reasons)) for row in codes])
    slipped = []
    for stopper, meant in report.slipped_by_check.items():
        title = CHECKS_BY_ID[stopper].title
        row = ReportRow("slipped", title, len(report.slipped),
                        "meant for " + ", ".join(CHECKS_BY_ID[check].title for check in meant),
                        f"meant for a later check, stopped by {title}", (stopper,), report.slipped_at(stopper))
        slipped.append(replace(row, detail=_slipped_detail(row, meant)))
    section("slipped", slipped)
    uncovered = []
    for suite, missing in report.uncovered_by_suite.items():
        if missing:
            row = ReportRow("uncovered", suite, 0, "", f"mutants of {suite} killed by a code its cases do not cover",
                            (suite, *missing), report.killed_with(missing, suite), what=", ".join(missing))
            uncovered.append(replace(row, detail=_uncovered_detail(row)))
    section("uncovered", uncovered)
    section("hole", report.holes)
    section("stricter", report.stricter)
    section("harmless", [r for r in report.survivors if r.mutant.harmless])
    return ReportRows(report, _head(report), tuple(items), sections)


def _code_detail(row: ReportRow, reasons: dict[str, int]) -> Words:
    """A verdict code's row in words: its kills, the slipped among them, per sub-reason."""
    mine = [(label, n) for label, n in reasons.items() if label.split("/")[0] == row.label]
    words = [_fact(row.label), _muted(" killed "), _fact(row.count), _muted(" mutants first")]
    if row.note:
        words.append(_muted(f"; {row.note} (meant for another check, stopped by an earlier one)"))
    if any("/" in label for label, _ in mine):
        words.append(_muted(": " + ", ".join(f"{label} {n}" for label, n in mine)))
    words.append(_muted(" · Enter lists them" if row.count else " · no mutant was rejected with it"))
    return tuple(words)


def _slipped_detail(row: ReportRow, meant: dict[str, int]) -> Words:
    """A check's slipped mutants in words: which later checks they were meant for."""
    breakdown = ", ".join(f"{CHECKS_BY_ID[check].title} {n}" for check, n in meant.items())
    return (_fact(row.label), _muted(" stopped "), _fact(row.count),
            _muted(f" mutants meant for a later check ({breakdown}): the contract checks it first, so it decides. "
                   "Enter lists them"))


def _uncovered_detail(row: ReportRow) -> Words:
    """A suite's uncovered codes in words, and what its mutants offer for them."""
    return (_muted("no case of "), _fact(row.label), _muted(" fails first with "),
            _fact(", ".join(row.key[1:]), Tone.BAD), _muted(". "), _fact(row.count),
            _muted(" mutants of its accepted cases are rejected with one of them: Enter lists them; open one and "
                   "save it (s) as a counterexample that covers the code"))


def mutant_tone(result: MutantResult) -> Tone:
    """A hole is bad, a harmless mutant rejected a warning, a harmless survivor good."""
    if not result.killed:
        return Tone.GOOD if result.mutant.harmless else Tone.BAD
    return Tone.WARN if result.mutant.harmless else Tone.PLAIN


def mutant_words(result: MutantResult, place: str = "") -> tuple[Words, ...]:
    """A mutant in words (lines): its case and claim, its mutation and variant, what it
    got against what it was meant for, and where its edit is."""
    mutant = result.mutant
    original = result.parent.verdict.text or ""  # type: ignore[union-attr]  # a loaded case: its verdict is set
    start, end, replacement = mutant.edit
    line, column = line_col(original, start)
    removed = original[start:end]
    edit = (f"‹{shorten(removed, 30)}› → " if removed else "insert ") + f"‹{shorten(replacement, 40)}›"
    claim = f" · claims[{mutant.claim}]" if mutant.claim is not None else ""
    tone = mutant_tone(result)
    first: list[Piece] = [_fact(result.case), _muted(claim + " · "), _fact(mutant.mutation)]
    if mutant.variant:
        first += [_muted(": "), (mutant.variant, Tone.PLAIN, False)]
    if place:
        first.append(_muted(f"  {place}"))
    return (tuple(first),
            ((result.reason, tone, tone is not Tone.PLAIN),),
            (_muted(f"edit at {line}:{column}: "), (edit, Tone.PLAIN, False), _muted(" · Enter opens it in the lab")))


def edit_span(result: MutantResult) -> tuple[int, int] | None:
    """Where the mutant's edit is in its raw text (None for a removal)."""
    start, _, replacement = result.mutant.edit
    return (start, start + len(replacement)) if replacement else None
