"""``inspector registry lint``: problems in a registry before any answer meets it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..contract.evidence import registry_conflicts
from ..contract.models import Registry, Source
from .load import load_sources

__all__ = ["Finding", "lint_registry", "lint_sources"]


@dataclass(frozen=True, slots=True)
class Finding:
    kind: str  # duplicate_id | conflict | fact_not_in_text | unreachable
    sources: tuple[str, ...]
    detail: str

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "sources": list(self.sources), "detail": self.detail}


def lint_sources(sources: list[Source]) -> list[Finding]:
    findings: list[Finding] = []
    first: dict[str, int] = {}
    unique: list[Source] = []
    for index, source in enumerate(sources):
        if source.id in first:
            findings.append(Finding("duplicate_id", (source.id,),
                                    f"sources[{index}] repeats the id of sources[{first[source.id]}]"))
            continue
        first[source.id] = index
        unique.append(source)

    for conflict in registry_conflicts(Registry(unique)):
        findings.append(Finding("conflict", conflict.sources, conflict.describe()))

    for source in unique:
        lines = {line.rstrip("\r") for line in source.text.split("\n")}
        for field, value in source.facts.items():
            # A line of its own: "read_timeout_ms=50000" must not pass for 5000.
            if f"{field}={value}" not in lines:
                findings.append(Finding("fact_not_in_text", (source.id,),
                                        f"no line of its text is {field}={value}: the text and the facts "
                                        "have drifted, or no quote can support this fact"))
        if not source.facts:
            findings.append(Finding("unreachable", (source.id,), "it has no facts: no claim can be verified from it"))
        denied = []
        if source.approved is False:
            denied.append("it is not approved")
        if source.deleted is True:
            denied.append("it is deleted")
        if source.readers is not None and not source.readers:
            denied.append("it has no readers")
        if denied:
            findings.append(Finding("unreachable", (source.id,),
                                    f"no scoped request can ever use it ({', '.join(denied)}); "
                                    "only requests without a scope still can"))
    return findings


def lint_registry(path: str | Path) -> list[Finding]:
    return lint_sources(load_sources(path))
