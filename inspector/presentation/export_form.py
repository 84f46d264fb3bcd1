"""The export form's fields read (``ctrl+e`` on the overview or on a group's records): which records.

``take`` says which of the group's records are written: ``first`` (the
first N, as ``--limit N``), ``sample`` (a random sample of N drawn with the
seed, as ``--sample N --seed S``: the same records; an empty seed is picked
here and said, so the sample can be drawn again) or ``marked`` (the records
marked by hand, offered when any is).  ``export_choice`` reads the fields
once; a field that cannot be read is an ``ExportFormError`` naming it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..triage.export import SampleTaken
from ..triage.sample import MAX_SAMPLE, parse_seed, pick_seed
from .numbers import NumberError, whole_number

__all__ = ["TAKES", "ExportChoice", "ExportFormError", "default_take", "export_choice"]

TAKES = ("first", "sample", "marked")


class ExportFormError(ValueError):
    """A field of the export form that cannot be read: which (``field``) and why."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(problem)
        self.field = field


@dataclass(frozen=True, slots=True)
class ExportChoice:
    """Which records an export writes: the first ``count``, a ``sample``, or the marked ``numbers``."""

    take: str
    count: int
    numbers: tuple[int, ...] | None = None
    sample: SampleTaken | None = None
    picked: bool = False  # the sample's seed was picked, not typed

    @property
    def doing(self) -> str:
        """The status while writing."""
        if self.sample is not None:
            return f"drawing a sample of {self.count:,} (seed {self.sample.seed}) and writing it…"
        return f"writing {self.count:,} {'marked ' if self.numbers is not None else ''}records…"

    @property
    def how(self) -> str:
        """How the records written were chosen, for the status once written ('' for the first ones)."""
        if self.sample is not None:
            said = self.sample.words()
            if self.picked and not self.sample.all:
                said += " (the seed was picked: type it in the seed field to draw the same records again)"
            return said
        if self.numbers is not None:
            return f"the {len(self.numbers):,} record(s) marked"
        return ""


def default_take(marked: int) -> str:
    """What the form proposes: the marked records when any is, else the first ones."""
    return "marked" if marked else "first"


def export_choice(take: str, count: str, seed: str, records: int, marked: Sequence[int],
                  among: str | None = None) -> ExportChoice:
    """The fields read: ``take`` (one of ``TAKES``, by a prefix too), ``count`` (the first N, or the
    sample's size: more than the group holds takes all, and says so), ``seed`` (the sample's; empty:
    one is picked), for a group of ``records`` with these ``marked``; ``among``: the records are those
    of the group shown (a filter), in words (``presentation.group_export.Shown.records_words``)."""
    word = take.strip().casefold()
    found = [name for name in TAKES if word and name.startswith(word)]
    offered = "first, sample or marked" if marked else "first or sample (marked: once records are marked, space)"
    if len(found) != 1:
        raise ExportFormError("take", f"which records: {offered}")
    chosen = found[0]
    if chosen == "marked":
        if not marked:
            raise ExportFormError("take", "no record is marked: mark them with space on the group's records")
        numbers = tuple(sorted(set(marked)))
        return ExportChoice(chosen, len(numbers), numbers=numbers)
    try:
        if chosen == "first":
            return ExportChoice(chosen, whole_number(count, most=records, what="records"))
        size = whole_number(count, most=MAX_SAMPLE, what="the sample's records")
    except NumberError as exc:
        raise ExportFormError("count", str(exc)) from None
    picked = not seed.strip()
    try:
        value = pick_seed() if picked else parse_seed(seed)
    except ValueError as exc:
        raise ExportFormError("seed", str(exc)) from None
    return ExportChoice(chosen, min(size, records), sample=SampleTaken(size, value, records, among), picked=picked)
