"""The filter of a triage group's records (``/`` on the records), parsed once and matched here.

A filter is terms separated by spaces, every one of which a record must hold:

- ``KEY=VALUE``: the record's metadata member at KEY (a member's name, or a
  path into nested objects as ``--by`` takes it: ``metadata.model``,
  ``/metadata/prompt.version``) is VALUE, written as a group names it (a
  string bare, ``null`` for a member the record does not have, anything else
  as compact JSON: ``attempt=3``, ``cached=true``), compared exactly;
- ``KEY!=VALUE``: it is not (a record without the member is ``null``);
- ``raw:TEXT``: the record's raw answer contains TEXT, ignoring case;
- ``annotated``: the record is annotated (``t``/``w``); ``true_rejection``,
  ``false_rejection``, ``true_acceptance``, ``false_acceptance``: annotated so;
  ``marked``: the record is marked (``space``); each word whole, ignoring case;
- any other text: the record's place (its case id, ``sample.jsonl:12``) or its
  verdict label contains it, ignoring case.

A term holding spaces is quoted, as a shell quotes (``model="gpt x"``,
``"read_timeout_ms=2000"`` for the text itself).  ``parse_filter`` says what
is wrong with one that cannot be read (``FilterError``, one line).
``filter_records`` matches a group's records: the place and the label come
from the index (``RecordSession.search``, over the whole group in C: a letter
typed over 400,000 records is answered at once), and a record is read from its
log only for a metadata or a ``raw:`` term, and only if its place and label
hold the other terms.  It can be stopped
(``cancelled``) and reads through its own reader, so a view runs it in a
thread while the records are drawn from another.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..contract.text import visible
from ..triage.annotations import DECISIONS
from ..triage.drill import LineReader
from ..triage.formats.reading import answer_text
from ..triage.logs import LogError
from ..triage.mapping import parse_path
from ..triage.records import RequestCache
from .record_session import RecordSession

__all__ = ["FLAGS", "FilterError", "FilterResult", "RecordFilter", "Term", "filter_records", "parse_filter", "value_text"]


# A term looking in the raw answers: ``raw:TEXT``.
RAW = "raw:"
# Words that are terms of their own: the record's annotation (any, or one decision), its mark.
ANNOTATED = "annotated"
MARKED = "marked"
FLAGS = (ANNOTATED, *DECISIONS, MARKED)


class FilterError(ValueError):
    """A filter that cannot be read, and why (one line)."""


@dataclass(frozen=True, slots=True)
class Term:
    """One term: a metadata comparison (``key`` and ``path`` set; ``negated`` for ``!=``), a text looked for
    in the raw answer (``raw``), or a text looked for in the place and the label."""

    text: str  # as typed (unquoted): what the status line says
    value: str  # the value compared, or the text looked for (casefolded)
    key: str | None = None
    path: tuple[str, ...] = ()
    negated: bool = False
    raw: bool = False
    flag: str | None = None  # one of FLAGS: decided by the record's annotation or mark, not its text

    @property
    def is_metadata(self) -> bool:
        return self.key is not None

    @property
    def reads(self) -> bool:
        """Whether the record must be read from its log to decide it (the index holds only its place and label)."""
        return self.key is not None or self.raw


@dataclass(frozen=True, slots=True)
class RecordFilter:
    """A parsed filter: its terms (all must hold), and the text it was parsed from."""

    text: str
    terms: tuple[Term, ...] = ()

    @property
    def empty(self) -> bool:
        return not self.terms

    @property
    def reads(self) -> bool:
        """Whether any term needs the records read from their log (a metadata or a ``raw:`` term)."""
        return any(term.reads for term in self.terms)

    def holds(self, place: str, label: str, raw: str | bytes, meta: Mapping[str, Any]) -> bool:
        """Whether a record read from its log holds every term (but the flags: ``filter_records`` decides them)."""
        place, label = place.casefold(), label.casefold()
        answer: str | None = None
        for term in self.terms:
            if term.flag is not None:
                continue
            if term.is_metadata:
                if (value_text(member_of(meta, term.key or "", term.path)) == term.value) == term.negated:
                    return False
                continue
            if not term.raw:
                if term.value in place or term.value in label:
                    continue
                return False
            if answer is None:
                answer = (raw if isinstance(raw, str) else raw.decode("utf-8", "replace")).casefold()
            if term.value not in answer:
                return False
        return True


def parse_filter(text: str) -> RecordFilter:
    """The filter typed (``FilterError`` when it cannot be read)."""
    try:
        words = shlex.split(text, posix=True)
    except ValueError:
        raise FilterError("a quote is not closed: close it, or write a quote in a term as \\\" or '\"'") from None
    terms: list[Term] = []
    for word in words:
        if word.startswith(RAW):
            if len(word) == len(RAW):
                raise FilterError(f"{RAW} needs a text to look for in the raw answers ({RAW}read_timeout_ms)")
            terms.append(Term(word, word[len(RAW):].casefold(), raw=True))
            continue
        if word.casefold() in FLAGS:
            terms.append(Term(word, word.casefold(), flag=word.casefold()))
            continue
        key, sign, value = _comparison(word)
        if not sign:
            terms.append(Term(word, word.casefold()))
            continue
        if not key:
            raise FilterError(f"{visible(word)!r}: a comparison needs a metadata key before {sign} (model=gpt-x)")
        try:
            path = parse_path(key)
        except ValueError as exc:
            raise FilterError(f"{visible(word)!r}: {exc}") from None
        terms.append(Term(word, value, key, path, sign == "!="))
    return RecordFilter(text, tuple(terms))


def _comparison(word: str) -> tuple[str, str, str]:
    """(key, ``=`` or ``!=``, value) of a comparison, or ("", "", "") for a text (no ``=`` in it)."""
    at = word.find("=")
    if at < 0:
        return "", "", ""
    if at > 0 and word[at - 1] == "!":
        return word[:at - 1], "!=", word[at + 1:]
    return word[:at], "=", word[at + 1:]


_MISSING = object()


def member_of(meta: Mapping[str, Any], key: str, path: tuple[str, ...]) -> Any:
    """The metadata member named ``key`` (a member's own name first: ``request.trace_id`` is one), else
    the one at ``path`` through nested objects and arrays; ``_MISSING`` when there is none."""
    if key in meta:
        return meta[key]
    found: Any = meta
    for segment in path:
        if isinstance(found, dict) and segment in found:
            found = found[segment]
        elif isinstance(found, list) and segment.isascii() and segment.isdigit() and int(segment) < len(found):
            found = found[int(segment)]
        else:
            return _MISSING
    return found


def value_text(value: Any) -> str:
    """A metadata value as a filter compares it, as a group names it: a string bare, ``null`` for
    none, anything else its compact JSON."""
    if value is _MISSING or value is None:
        return "null"
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


def _flagged(flag: str, number: int, decisions: Mapping[int, str], marked: Container[int]) -> bool:
    if flag == MARKED:
        return number in marked
    decision = decisions.get(number)
    return decision is not None and (flag == ANNOTATED or decision == flag)


@dataclass(frozen=True, slots=True)
class FilterResult:
    """The records a filter kept (``numbers``, ascending) among ``among`` records, how many of those
    were read from the log, and how many could not be (their log changed: left out, and said)."""

    filter: RecordFilter
    numbers: tuple[int, ...]
    among: int
    read: int = 0
    unreadable: int = 0

    @property
    def words(self) -> str:
        """What the status line says: how many match of how many (none said as such)."""
        found = len(self.numbers)
        said = f"{found:,} of {self.among:,} records match" if found else f"no record of {self.among:,} matches"
        if self.unreadable:
            said += f" ({self.unreadable:,} could not be read again: their log changed)"
        return said


def filter_records(session: RecordSession, record_filter: RecordFilter, among: Sequence[int] | None = None,
                   cancelled: Callable[[], bool] = lambda: False, reader: LineReader | None = None,
                   labels: Mapping[int, str] | None = None, decisions: Mapping[int, str] | None = None,
                   marked: Container[int] = ()) -> FilterResult | None:
    """The records of ``session`` (``among`` them, else all) that hold ``record_filter``; None when
    ``cancelled`` said stop.  ``reader``: the lines are read through it (a new one unless given;
    closed when made here); ``labels``: the verdict label of each record edited in the lab (else
    the index's); ``decisions``: each annotated record's decision (``AnnotationStore.of_records``),
    ``marked`` the records marked, for the flags.  Call ``session.cases.members.resolve_all()`` first
    in the thread that draws."""
    members = session.cases.members
    members.resolve_all()
    numbers: Sequence[int] = range(len(session)) if among is None else among
    if record_filter.empty:
        return FilterResult(record_filter, tuple(numbers), len(numbers))
    # The place and label terms first, each over the whole group in C (the index's labels and places).
    candidates: Sequence[int] = numbers
    decided = decisions or {}
    for term in record_filter.terms:
        if term.flag is not None:
            candidates = [number for number in candidates if _flagged(term.flag, number, decided, marked)]
        elif not term.reads:
            candidates = session.search(term.value, candidates)
            if cancelled():
                return None
    if not record_filter.reads:
        return FilterResult(record_filter, tuple(candidates), len(numbers))
    own = reader is None
    reader = reader if reader is not None else LineReader()
    requests = RequestCache()
    kept: list[int] = []
    read = unreadable = 0
    ids, labels = session.ids, labels or {}
    try:
        for count, number in enumerate(candidates):
            if count % 256 == 0 and cancelled():
                return None
            place = ids[number]
            label = labels.get(number) or session.cases.label_of(number)
            try:
                record = members.decoded(number, reader, requests)
            except LogError:  # LogChanged among them
                record = None
            read += 1
            if record is None:
                unreadable += 1
                continue
            if record_filter.holds(place, label, answer_text(record.raw), record.meta):
                kept.append(number)
    finally:
        if own:
            reader.close()
    return FilterResult(record_filter, tuple(kept), len(numbers), read, unreadable)
