"""A triage's summary: the groups with their counts, and the JSON of it.

``summarize(tally)`` names and orders what a ``Tally`` counted (the names of
``groups``), and ``Summary.to_dict()`` is the ``inspector.triage/1`` document.
Every group's ``rate`` is its share of the records counted (the bad lines': of
the lines read); a population group (a scope, a ``--by`` value: a dimension's
value) has its ``population`` (its records), how many of them were rejected and
that share (``rejected_rate``), and by check.  ``triage.compare`` sets two
summaries side by side (``--against``).

What a tally keeps is bounded, and the summary says where a bound was reached:
the bad lines listed are the first ``BAD_KEPT`` (``bad_more``: how many
more), and a ``--by`` key with more than ``BY_VALUES`` distinct values has its
heaviest values' groups and ``other:KEY`` for the rest (``by_capped``: how
many values were kept, and the records of the others).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..contract.checks import CHECKS, label_of
from ..contract.evidence import CATEGORIES, GENERATION, RETRIEVAL
from ..reports.case import RUNGS
from .groups import (
    BAD,
    FALSE_ACCEPT,
    OTHER,
    BlameDetail,
    ByDetail,
    CategoryDetail,
    CheckDetail,
    ClaimDetail,
    GroupDetail,
    GroupKind,
    Membership,
    Outcome,
    ReasonDetail,
    RungDetail,
    ScopeDetail,
    blame_name,
    category_name,
    claim_name,
    meta_name,
    membership,
    meta_text,
    reason_name,
    rung_name,
    scope_name,
)
from .formats.spec import NO_ANSWER, NO_ANSWER_REASONS
from .items import Stability, stability
from .tally import TRIAGE_STATUSES, Options, Tally
from .timeline import Histogram, histogram, iso

__all__ = ["POPULATION_KINDS", "SCHEMA", "Group", "Summary", "broken_document", "summarize"]

SCHEMA = "inspector.triage/1"
REASON_LABELS = (*(label_of(NO_ANSWER, reason) for reason in NO_ANSWER_REASONS),
                 *(label_of(check.code, reason) for check in CHECKS for reason in check.reasons))
# The kinds whose groups are a population (a dimension's values: a scope, a --by member's value):
# their rates are of their own records.  The others' (a verdict, a reason, a claim, ...) are of all records.
POPULATION_KINDS = tuple(kind for kind in GroupKind if kind.population)


@dataclass
class Group:
    """A named group: its records and ``rate``, their share of ``total`` (every
    record counted; the bad lines': every line read), and for a population group
    (a scope or metadata value) how many of its records were rejected and by
    which check (their shares of the group's own records: ``rejected_rate``,
    ``check_rates``)."""

    name: str
    kind: GroupKind  # (a kind's string is made its member)
    records: int
    rate: float
    rejected: int | None = None
    by_check: dict[str, int] | None = None
    detail: GroupDetail | None = None  # what the name is made of (the JSON's members besides the counts)
    # Its records annotated by a reviewer, and how many of them the contract got wrong
    # (``triage.annotated``): None until the annotations were joined to the summary.
    annotated: int | None = None
    false_rejections: int | None = None
    false_acceptances: int | None = None
    total: int = 0  # what ``rate`` is a share of

    def __post_init__(self) -> None:
        self.kind = GroupKind(self.kind)

    def membership(self, by: Sequence[str]) -> Membership:
        """Which records are this group's (``by``: the --by paths counted): the column of a record that
        decides and a test of its value (``groups.membership``); the bad lines (no records) have none."""
        return membership(self.kind, self.name, self.detail, by)

    @property
    def by_key(self) -> str | None:
        """A --by group's key (its value's or its other values'); None for a group of another kind."""
        return self.detail.key if isinstance(self.detail, ByDetail) else None

    @property
    def other(self) -> bool:
        """Whether it is a --by key's group of the values past the bound kept (``other:KEY``)."""
        return isinstance(self.detail, ByDetail) and self.detail.other

    @property
    def population(self) -> int | None:
        """A population group's records (what its rejected share is of); None for a check group."""
        return self.records if self.kind.population else None

    @property
    def rejected_rate(self) -> float | None:
        """The share of a population group's records that were rejected."""
        return _rate(self.rejected or 0, self.records) if self.kind.population else None

    @property
    def check_rates(self) -> dict[str, float] | None:
        """Per check, the share of a population group's records that failed first with it (ACCEPT: accepted)."""
        if self.by_check is None:
            return None
        return {status: _rate(count, self.records) for status, count in self.by_check.items()}

    def to_dict(self) -> dict[str, Any]:
        found: dict[str, Any] = {"group": self.name, "kind": self.kind.value,
                                 **(self.detail.to_dict() if self.detail is not None else {}),
                                 "records": self.records, "rate": round(self.rate, 6), "of": self.total}
        if self.kind.population:
            found.update(population=self.records, rejected=self.rejected or 0,
                         rejected_rate=round(self.rejected_rate or 0.0, 6))
        elif self.rejected is not None:
            found["rejected"] = self.rejected
        if self.by_check is not None:
            found["by_check"] = self.by_check
            found["by_check_rate"] = {status: round(rate, 6) for status, rate in (self.check_rates or {}).items()}
        if self.annotated is not None:
            found.update(annotated=self.annotated, false_rejections=self.false_rejections,
                         false_acceptances=self.false_acceptances)
        return found


def _rate(count: int, total: int) -> float:
    return count / total if total else 0.0


def _ordered(counts: dict[str, int]) -> dict[str, int]:
    return {status: counts[status] for status in TRIAGE_STATUSES if counts.get(status)}


@dataclass
class Summary:
    tally: Tally
    options: Options
    logs: tuple[str, ...]
    registry: str | None
    groups: list[Group]
    by_check: dict[str, int]
    by_reason: dict[str, int]
    rungs: list[tuple[str, str, int]]  # (rung id, name, records passing)
    histogram: Histogram | None
    # The records when summarised: the tally may go on counting after (the overview's
    # count, a followed log), and the groups are of this many.
    counted: int | None = None
    # The reviewers' annotations joined to the groups (``triage.annotated.AnnotationCounts``), once joined.
    annotations: Any = None
    _stability: Any = field(default=False, init=False, repr=False, compare=False)

    @property
    def stability(self) -> Stability | None:
        """The items' stability (``triage.items``), computed when first asked; None when no item is named or
        none has two trials (then nothing is said of items)."""
        if self._stability is False:
            self._stability = stability(self.tally, self.options)
        return self._stability  # type: ignore[no-any-return]  # a Stability or None by here

    @property
    def records(self) -> int:
        return self.counted if self.counted is not None else self.tally.records

    def group(self, name: str) -> Group | None:
        return next((group for group in self.groups if group.name == name), None)

    def of_kind(self, kind: GroupKind) -> list[Group]:
        return [group for group in self.groups if group.kind == kind]

    def of_key(self, key: str) -> list[Group]:
        """The groups of a --by key: its values', largest first, then its other values' (``other:KEY``)."""
        return [group for group in self.groups if group.by_key == key]

    @property
    def capped(self) -> dict[str, int]:
        """Per --by key past the bound of values kept: the records in its other group."""
        return {group.by_key: group.records for group in self.of_kind(GroupKind.BY)
                if group.other and group.by_key is not None}

    def to_dict(self) -> dict[str, Any]:
        tally = self.tally
        records = tally.records
        timeline: dict[str, Any] = {"with_ts": records - tally.no_ts, "without_ts": tally.no_ts,
                                    "unreadable_ts": tally.bad_ts, "bucket": None, "bucket_seconds": None,
                                    "bars": [], "before": 0, "after": 0}
        found = self.histogram
        if found is not None:
            # first/last: the range the bars span; earliest/latest: every dated record's
            timeline.update(bucket=found.bucket, bucket_seconds=found.seconds,
                            first=iso(found.first), last=iso(found.last),
                            bars=[{"start": iso(bar.start), "records": bar.records, "rejected": bar.rejected}
                                  for bar in found.bars],
                            before=found.before, after=found.after,
                            earliest=iso(found.earliest if found.earliest is not None else found.first),
                            latest=iso(found.latest if found.latest is not None else found.last))
        options = self.options
        return {
            "schema": SCHEMA,
            "logs": list(self.logs),
            "registry": self.registry,
            "lines": tally.lines,
            "records": records,
            "bad_lines": tally.bad_lines,
            "bad": [{"file": file, "line": line, "error": error} for file, line, error in tally.bad],
            "bad_more": tally.bad_more,  # bad lines past the first BAD_KEPT, not listed in "bad"
            "bad_kinds": dict(sorted(tally.bad_kinds.items())),
            # rows a --log-format says are not model answers (spans, retrievals...), by what they are: not records
            "skipped": dict(sorted(tally.skipped.items())),
            # answers that are a chat message the raw path stopped at (role, content, ...): the path is wrong
            "raw_envelopes": tally.envelopes,
            # every log that broke off before its end: counted up to the line after which it broke
            "broken": broken_document(tally),
            "by_check": self.by_check,
            "by_reason": self.by_reason,
            # "ladder" is schema 1's key for the rungs (docs/glossary.md: a ladder counts checks)
            "ladder": [{"rung": rung, "name": name, "passed": passed, "rate": round(_rate(passed, records), 6)}
                       for rung, name, passed in self.rungs],
            "citation_only_false_accepts": sum(g.records for g in self.of_kind(GroupKind.FALSE_ACCEPT)),
            "by_claim": [group.to_dict() for group in self.of_kind(GroupKind.CLAIM)],
            "by_scope": [group.to_dict() for group in self.of_kind(GroupKind.SCOPE)],
            "by": {key: [group.to_dict() for group in self.of_key(key)] for key in options.by},
            "by_capped": {key: {"values_kept": len(tally.by_values.get(key, ())), "other_records": count}
                          for key, count in self.capped.items()},
            "by_blame": {blame: next((g.records for g in self.of_kind(GroupKind.BLAME)
                                      if g.detail == BlameDetail(blame)), 0) for blame in (RETRIEVAL, GENERATION)},
            "by_category": {category: next((g.records for g in self.of_kind(GroupKind.CATEGORY)
                                            if g.detail == CategoryDetail(category)), 0) for category in CATEGORIES},
            "timeline": timeline,
            "window": {"since": iso(options.since) if options.since is not None else None,
                       "until": iso(options.until) if options.until is not None else None,
                       "outside": tally.outside, "undated": tally.undated},
            "groups": [group.to_dict() for group in self.groups],
            **({"stability": found_stability.to_dict()} if (found_stability := self.stability) is not None else {}),
            **({"annotations": self.annotations.to_dict()} if self.annotations is not None else {}),
        }


def broken_document(tally: Tally) -> list[dict[str, Any]]:
    """The logs that broke off, as the JSON lists them: file, the line after which, why."""
    return [{"file": file, "after_line": line, "problem": problem} for file, line, problem in tally.broken]


def summarize(tally: Tally, options: Options = Options(), logs: Sequence[str] = (),
              registry: str | None = None) -> Summary:
    """Every group of ``tally``, named, counted and ordered: by kind (as ``KINDS``),
    then the largest first (verdict statuses and rungs in contract order)."""
    records = tally.records
    statuses: dict[str, int] = {}
    reasons: dict[str, int] = {}
    blames: dict[str, int] = {}
    categories: dict[str, int] = {}
    rungs = dict.fromkeys((rung.id for rung in RUNGS), 0)
    false_accepts = 0
    for (status, reason, strict_json, citation_only, blame, category), count in tally.verdicts.items():
        statuses[status] = statuses.get(status, 0) + count
        if reason is not None:
            label = reason_name(status, reason)
            reasons[label] = reasons.get(label, 0) + count
        if blame is not None:
            blames[blame] = blames.get(blame, 0) + count
        if category is not None:
            categories[category] = categories.get(category, 0) + count
        outcome = Outcome(strict_json, citation_only, status == "ACCEPT")
        for rung in RUNGS:
            if rung.passes(outcome):
                rungs[rung.id] += count
        if citation_only and status != "ACCEPT":
            false_accepts += count

    groups: list[Group] = []
    for status in TRIAGE_STATUSES:
        if statuses.get(status):
            groups.append(Group(status, GroupKind.CHECK, statuses[status], _rate(statuses[status], records),
                                detail=CheckDetail(status)))
    for label in REASON_LABELS:
        name = f"reason:{label}"
        if reasons.get(name):
            groups.append(Group(name, GroupKind.REASON, reasons[name], _rate(reasons[name], records),
                                detail=ReasonDetail(label)))
    claims = sorted(tally.claims.items(), key=lambda item: (-item[1], item[0]))
    groups += [Group(claim_name(status, field_name, doc), GroupKind.CLAIM, count, _rate(count, records),
                     detail=ClaimDetail(status, field_name, doc))
               for (status, field_name, doc), count in claims]
    groups += _split_groups(tally.scopes, records, GroupKind.SCOPE,
                            lambda scope: (scope_name(scope), ScopeDetail(*scope)))
    for key in options.by:
        groups += _split_groups(tally.by.get(key, {}), records, GroupKind.BY, _by_naming(key))
    groups += [Group(blame_name(blame), GroupKind.BLAME, blames[blame], _rate(blames[blame], records),
                     detail=BlameDetail(blame)) for blame in (RETRIEVAL, GENERATION) if blames.get(blame)]
    groups += [Group(category_name(category), GroupKind.CATEGORY, count, _rate(count, records),
                     detail=CategoryDetail(category))
               for category, count in sorted(categories.items(), key=lambda item: (-item[1], item[0]))]
    groups += [Group(rung_name(rung), GroupKind.RUNG, rungs[rung.id], _rate(rungs[rung.id], records),
                     detail=RungDetail(rung.id)) for rung in RUNGS]
    groups.append(Group(FALSE_ACCEPT, GroupKind.FALSE_ACCEPT, false_accepts, _rate(false_accepts, records)))
    for group in groups:
        group.total = records
    if tally.bad_lines:
        groups.append(Group(BAD, GroupKind.BAD, tally.bad_lines, _rate(tally.bad_lines, tally.lines),
                            total=tally.lines))
    return Summary(tally, options, tuple(logs), registry, groups,
                   # NO_ANSWER only where a log has such records (our own lines never do)
                   {status: statuses.get(status, 0) for status in TRIAGE_STATUSES
                    if status != NO_ANSWER or statuses.get(status)},
                   {label: reasons.get(f"reason:{label}", 0) for label in REASON_LABELS
                    if not label.startswith(NO_ANSWER) or reasons.get(f"reason:{label}")},
                   [(rung.id, rung.name, rungs[rung.id]) for rung in RUNGS],
                   histogram(tally.minutes), records)


def _by_naming(key: str) -> Callable[[bytes | None], tuple[str, GroupDetail]]:
    """A --by member's group: its name and detail (its value as shown, or the key's other values)."""

    def naming(member: bytes | None) -> tuple[str, GroupDetail]:
        return meta_name(key, member), ByDetail(key, None, other=True) if member == OTHER else \
            ByDetail(key, meta_text(member))

    return naming


def _split_groups(counts: dict[Any, int], records: int, kind: GroupKind,
                  naming: Callable[[Any], tuple[str, GroupDetail]]) -> list[Group]:
    """Groups from counts keyed (what, status): one group per name (two spellings
    of one metadata value are one group), with its rejections by check."""
    merged: dict[str, Group] = {}
    for (what, status), count in counts.items():
        name, detail = naming(what)
        group = merged.get(name)
        if group is None:
            group = merged[name] = Group(name, kind, 0, 0.0, 0, {}, detail)
        group.records += count
        if status != "ACCEPT":
            group.rejected = (group.rejected or 0) + count
        group.by_check[status] = group.by_check.get(status, 0) + count  # type: ignore[index, union-attr]  # a group of records: by_check set
    for group in merged.values():
        group.rate = _rate(group.records, records)
        group.by_check = _ordered(group.by_check or {})
    # The largest first; the other values of a --by key (not a value) after its values.
    return sorted(merged.values(), key=lambda group: (group.other, -group.records, group.name))
