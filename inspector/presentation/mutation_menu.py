"""The lab's mutation menu for the current claim, and how a mutation cycles.

Every mutation of the catalogue (``lab.mutations.MUTATIONS``, in its order) is a
row: its dotted name, title, what it is meant to trip, and how many variants it
has on the current claim (an answer-wide one: on the answer), with why when it
has none.

Cycling is derived from the case's history alone, so it stays predictable
after undo, redo or a visit to another case: applying a mutation whose variant
is the latest change of the case (on the same claim) takes the place of that
change with its next variant, the variants being those of the answer the first
variant was applied to; past the last variant it wraps to the first.  Any other
latest change (or none) starts afresh from the answer as it stands now, so that
mutations compose (a perturbed value, then another quote, keeps the value).
The variants are not computed from the frozen answer: that would silently
drop the other changes made since.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from ..contract.models import Registry, Request
from ..lab.history import History
from ..lab.mutations import MUTATIONS, MUTATIONS_BY_NAME, Answer, Mutant, Mutation, Target, answer_of
from .session import Session

__all__ = ["CatalogueLine", "LabCase", "MenuRow", "Next", "catalogue", "matching", "menu_rows",
           "next_variant", "variants_now", "why_not"]

NOT_DECODED = "the answer is not strict JSON of the claims shape: edit its text by hand (E)"
NO_CLAIM = "the answer has no claim to change"


@dataclass(frozen=True, slots=True)
class MenuRow:
    """One mutation as the menu shows it on the current claim."""

    mutation: Mutation
    variants: int
    why: str  # why there is no variant ("" when there is one)
    current: int | None = None  # the variant applied last, when this mutation is the latest change

    @property
    def name(self) -> str:
        return self.mutation.name

    @property
    def applies(self) -> bool:
        return self.variants > 0

    @property
    def count(self) -> str:
        """``6``, or ``2/6`` while cycling (the variant applied last, from 1)."""
        if self.current is not None:
            return f"{self.current + 1}/{self.variants}"
        return str(self.variants)


@dataclass(frozen=True, slots=True)
class Next:
    """What applying a mutation now does: this variant, taking the place of the latest
    change (``replaces``, a cycling step) or added after it."""

    mutant: Mutant
    replaces: bool
    index: int  # from 0
    count: int

    @property
    def place(self) -> str:
        return f"variant {self.index + 1}/{self.count}"


def _claim_of(mutation: Mutation, claim: int | None) -> int | None:
    return None if mutation.target is Target.ANSWER else claim


def _variants(answer: Answer | None, mutation: Mutation, claim: int | None) -> list[Mutant]:
    if answer is None:
        return []
    if mutation.target is Target.CLAIM and (claim is None or not 0 <= claim < len(answer.claims)):
        return []
    return list(mutation.mutants(answer, _claim_of(mutation, claim)))


# The variants of an answer's mutations, kept for the last (answer, mutation, claim)s:
# a cycling press and the menu opened again on the same answer reuse them.  Over a
# registry of 8,001 sources ``doc.other`` and ``quote.other_source`` have 8,000
# variants each, 40 ms to make and a few megabytes; the other mutations a handful.
# 64 entries hold the whole catalogue on two or three answers.
@lru_cache(maxsize=8)
def _answer_of(raw: str | bytes, request: Request, registry: Registry) -> Answer | None:
    return answer_of(raw, request, registry)


@lru_cache(maxsize=64)
def _variants_of(raw: str | bytes, request: Request, registry: Registry, name: str,
                 claim: int | None) -> tuple[Mutant, ...]:
    return tuple(_variants(_answer_of(raw, request, registry), MUTATIONS_BY_NAME[name], claim))


def forget_variants() -> None:
    """Drop the variants kept (a benchmark timing their first making)."""
    _answer_of.cache_clear()
    _variants_of.cache_clear()
    _places_of.cache_clear()


@lru_cache(maxsize=8)
def _places_of(raw: str | bytes, request: Request, registry: Registry, name: str,
               claim: int | None) -> dict[str | bytes, int]:
    """Each variant's text and its place among ``_variants_of``'s (the first, if two are alike)."""
    places: dict[str | bytes, int] = {}
    for index, mutant in enumerate(_variants_of(raw, request, registry, name, claim)):
        places.setdefault(mutant.raw, index)
    return places


def _cycle(history: History, mutation: Mutation, claim: int | None, request: Request,
           registry: Registry) -> tuple[tuple[Mutant, ...], int] | None:
    """The variants of the running cycle and the one applied last, when the case's
    latest change is a variant of ``mutation`` on this claim; else None."""
    latest = history.undone
    if latest is None or latest.records != (mutation.name,):
        return None
    base = history.undo().raw
    index = _places_of(base, request, registry, mutation.name, claim).get(latest.raw)
    if index is None:
        return None
    return _variants_of(base, request, registry, mutation.name, claim), index


def next_variant(history: History, mutation: Mutation, claim: int | None, request: Request,
                 registry: Registry) -> Next | None:
    """The variant applying ``mutation`` now gives (None when it has none here)."""
    cycle = _cycle(history, mutation, claim, request, registry)
    if cycle is not None:
        variants, index = cycle
        index = (index + 1) % len(variants)
        return Next(variants[index], True, index, len(variants))
    variants = _variants_of(history.raw, request, registry, mutation.name, claim)
    if not variants:
        return None
    return Next(variants[0], False, 0, len(variants))


def variants_now(history: History, mutation: Mutation, claim: int | None, request: Request,
                 registry: Registry) -> list[Mutant]:
    """Every variant of ``mutation`` on the answer as it stands (claim ``claim``)."""
    return list(_variants_of(history.raw, request, registry, mutation.name, claim))


def why_not(history: History, mutation: Mutation, claim: int | None, request: Request, registry: Registry) -> str:
    """Why ``mutation`` has no variant on the answer as it stands."""
    return why_none(answer_of(history.raw, request, registry), mutation, claim)


def why_none(answer: Answer | None, mutation: Mutation, claim: int | None) -> str:
    if answer is None:
        return NOT_DECODED
    if mutation.target is Target.CLAIM and (claim is None or not answer.claims):
        return NO_CLAIM
    return mutation.unavailable or "no variant here"


def menu_rows(history: History, claim: int | None, request: Request, registry: Registry) -> tuple[MenuRow, ...]:
    """Every mutation of the catalogue, in its order, on claim ``claim`` of the answer as it stands."""
    answer = answer_of(history.raw, request, registry)
    rows = []
    for mutation in MUTATIONS:
        cycle = _cycle(history, mutation, claim, request, registry)
        if cycle is not None:
            variants, index = cycle
            rows.append(MenuRow(mutation, len(variants), "", index))
            continue
        count = len(_variants_of(history.raw, request, registry, mutation.name, claim))
        rows.append(MenuRow(mutation, count, "" if count else why_none(answer, mutation, claim)))
    return tuple(rows)


def matching(rows: Sequence[MenuRow], text: str) -> tuple[MenuRow, ...]:
    """The rows whose dotted name, title or help contains ``text`` (case-insensitive);
    a row whose name contains it comes before one that matches only in words."""
    needle = text.casefold().strip()
    if not needle:
        return tuple(rows)
    by_name = [row for row in rows if needle in row.name.casefold()]
    in_words = [row for row in rows if row not in by_name
                and (needle in row.mutation.title.casefold() or needle in row.mutation.help.casefold())]
    return (*by_name, *in_words)


@dataclass(frozen=True, slots=True)
class CatalogueLine:
    """A mutation as help lists it."""

    name: str
    title: str
    meant: str
    help: str


def catalogue() -> tuple[CatalogueLine, ...]:
    """Every mutation, in catalogue order, for help."""
    return tuple(CatalogueLine(m.name, m.title, m.meant, m.help) for m in MUTATIONS)


@dataclass(frozen=True, slots=True)
class LabCase:
    """A case of the session as the lab mutates it: its history, request and registry,
    and the current claim.  The views ask it by mutation name."""

    history: History
    request: Request
    registry: Registry
    claim: int | None

    @classmethod
    def of(cls, session: Session, number: int, claim: int | None) -> LabCase | None:
        """None for a case that could not be loaded (there is no answer to change)."""
        history = session.history(number)
        case = session.frozen(number).case
        if history is None or case is None:
            return None
        return cls(history, case.request, session.frozen(number).suite.registry, claim)

    def rows(self) -> tuple[MenuRow, ...]:
        return menu_rows(self.history, self.claim, self.request, self.registry)

    def next(self, name: str) -> Next | None:
        return next_variant(self.history, MUTATIONS_BY_NAME[name], self.claim, self.request, self.registry)

    def why_not(self, name: str) -> str:
        return why_not(self.history, MUTATIONS_BY_NAME[name], self.claim, self.request, self.registry)

    def variants(self, name: str) -> list[Mutant]:
        return variants_now(self.history, MUTATIONS_BY_NAME[name], self.claim, self.request, self.registry)
