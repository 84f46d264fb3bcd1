"""The contract's trusted inputs (request, registry) and the decoded claims.

All are frozen msgspec Structs that refuse unknown fields, so a misspelt member in
a request or registry file is an error and not silently ignored.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Annotated, Any

import msgspec

__all__ = ["Claim", "Registry", "Request", "Scope", "Source"]


class Scope(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Who asks and when (used by access control before grounding)."""

    tenant: str
    user: str
    now: float


class Request(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the application asked for.  Trusted: the answer cannot change it."""

    service: str
    environment: str
    revision: str
    fields: tuple[str, ...]
    supplied: tuple[str, ...]
    scope: Scope | None = None


class Source(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One document of the registry: its metadata, its facts and its text."""

    id: str
    service: str
    environment: str
    revision: str
    facts: dict[str, str]
    text: str
    tenant: str | None = None
    readers: tuple[str, ...] | None = None
    approved: bool | None = None
    deleted: bool | None = None
    expires_at: float | None = None


# Decoding into Claim refuses empty members in C (the fast path relies on it);
# the UTF-16 length limit is checked separately, as msgspec counts code points.
_Member = Annotated[str, msgspec.Meta(min_length=1)]


class Claim(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One claim of a candidate answer, after strict decoding."""

    field: _Member
    value: _Member
    doc: _Member
    quote: _Member


class DuplicateSourceError(ValueError):
    def __init__(self, source_id: str, first: int, second: int) -> None:
        super().__init__(f"duplicate source id {source_id!r} (sources[{first}] and sources[{second}])")
        self.source_id = source_id
        self.first = first
        self.second = second


class Registry:
    """The sources, indexed once by id.  Source ids are unique."""

    __slots__ = ("_conflicts", "by_group", "by_id", "fact_fields", "sources")

    def __init__(self, sources: Iterable[Source] = ()) -> None:
        self.sources: tuple[Source, ...] = tuple(sources)
        by_id: dict[str, Source] = {}
        positions: dict[str, int] = {}
        for index, source in enumerate(self.sources):
            if source.id in by_id:
                raise DuplicateSourceError(source.id, positions[source.id], index)
            by_id[source.id] = source
            positions[source.id] = index
        self.by_id: Mapping[str, Source] = by_id
        # Every fact field any source has, in first-seen order (the table's columns).
        self.fact_fields: tuple[str, ...] = tuple(
            dict.fromkeys(field for source in self.sources for field in source.facts)
        )
        # Sources by (service, environment, revision): what a request could match.
        groups: dict[tuple[str, str, str], list[Source]] = {}
        for source in self.sources:
            groups.setdefault((source.service, source.environment, source.revision), []).append(source)
        self.by_group: Mapping[tuple[str, str, str], tuple[Source, ...]] = {
            key: tuple(members) for key, members in groups.items()
        }
        # computed once, by inspector.contract.evidence (its ConflictIndex: the models import no evidence)
        self._conflicts: tuple[tuple[Any, ...], dict[Any, list[Any]]] | None = None

    @classmethod
    def coerce(cls, value: Any) -> Registry:
        """Accept a Registry, a ``{"sources": [...]}`` dict or a list of sources."""
        if isinstance(value, Registry):
            return value
        if isinstance(value, Mapping):
            if set(value) - {"sources"}:
                unknown = sorted(set(value) - {"sources"})
                raise ValueError(f"unknown registry member(s): {', '.join(unknown)}")
            value = value.get("sources", ())
        return cls(msgspec.convert(list(value), list[Source]))

    def get(self, source_id: str) -> Source | None:
        return self.by_id.get(source_id)

    def __len__(self) -> int:
        return len(self.sources)

    def __iter__(self) -> Iterator[Source]:
        return iter(self.sources)

    def __repr__(self) -> str:
        return f"Registry({len(self.sources)} sources)"


def coerce_request(value: Any) -> Request:
    if isinstance(value, Request):
        return value
    return msgspec.convert(value, Request)
