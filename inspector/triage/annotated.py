"""The annotations of the logs counted, joined to the summary's groups: ``join_annotations``.

Annotations are few (a reviewer's decisions) and the counting is hot, so they
are never looked at while counting: once a summary is made, each annotation's
line is reread at its offset (``drill.LineReader``), its digest compared (a
line rewritten since is *stale*: reported, not counted), the record read as it
was counted (the same format, the same ``--since``/``--until`` window: a
record the summary did not count is not counted here either), verified, and
named into its groups as an export names them (``groups.GroupMatcher``).  Each
group of the summary then says how many of its records are annotated, and how
many were false rejections and false acceptances (``Group.annotated``...), and
the summary the totals (``Summary.annotations``, in its JSON).

The cost is one reread and one verify per annotation, nothing when no log has
an annotations file but a failed open each.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..contract.evidence import Assessment
from ..contract.models import Registry
from ..contract.verify import verify
from .annotations import Annotation, Annotations, digest, read_annotations
from .drill import LineReader
from .groups import GroupMatcher, meta_name, other_name
from .logs import STDIN, LogError
from .mapping import compile_format
from .formats.reading import verdict_of
from .parsing import parser_for
from .records import RequestCache
from .summary import Summary
from .tally import Options
from .timeline import parse_ts

__all__ = ["AnnotationCounts", "apply_annotations", "join_annotations", "read_all"]


@dataclass
class AnnotationCounts:
    """What the annotations of the logs counted add up to.

    ``files``: the annotations files read; ``annotated``: the records counted
    that are annotated, of which ``false_rejections`` and ``false_acceptances``
    (and ``by_decision`` each decision's); ``stale``: annotations whose line is
    not there any more (file, line, offset, why); ``not_counted``: annotations
    of records the summary left out (outside the window); ``groups``: per group
    name, (annotated, false rejections, false acceptances)."""

    files: list[str] = field(default_factory=list)
    annotated: int = 0
    false_rejections: int = 0
    false_acceptances: int = 0
    by_decision: dict[str, int] = field(default_factory=dict)
    stale: list[tuple[str, int, int, str]] = field(default_factory=list)
    not_counted: int = 0
    groups: dict[str, list[int]] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"files": self.files, "annotated": self.annotated, "false_rejections": self.false_rejections,
                "false_acceptances": self.false_acceptances, "by_decision": dict(sorted(self.by_decision.items())),
                "not_counted": self.not_counted,
                "stale": [{"file": file, "line": line, "offset": offset, "problem": problem}
                          for file, line, offset, problem in self.stale]}


def read_all(logs: Iterable[str]) -> dict[str, Annotations]:
    """The annotations of every log but standard input, by log as given (AnnotationError for a
    file that cannot be read: asked before counting, so that a corrupt one costs no count)."""
    return {log: read_annotations(log) for log in dict.fromkeys(logs) if log != STDIN}


def join_annotations(summary: Summary, registry: Registry, notes_by_log: Mapping[str, Annotations],
                     options: Options | None = None, reader: LineReader | None = None) -> AnnotationCounts:
    """The annotations of ``notes_by_log`` (by log) joined to ``summary``'s groups: counted, per group."""
    options = options if options is not None else summary.options
    counts = AnnotationCounts(files=[str(log_notes.path) for log_notes in notes_by_log.values() if log_notes.exists])
    if not any(len(log_notes) for log_notes in notes_by_log.values()):
        return counts
    plan = compile_format(options.log_format, options.by)
    parse: Any = parser_for(plan, counting=True)
    requests = RequestCache(registry)
    matcher = GroupMatcher("", options.by, plan.by_keys)
    names = {group.name for group in summary.groups}
    own = reader is None
    reader = reader if reader is not None else LineReader()
    try:
        for log, log_notes in notes_by_log.items():
            for annotation in log_notes:
                found = _names(annotation, log, reader, parse, requests, registry, options, plan, matcher)
                if isinstance(found, str):
                    counts.stale.append((log, annotation.line, annotation.offset, found))
                    continue
                if found is None:
                    counts.not_counted += 1
                    continue
                _count(counts, annotation, _known_names(found, names, options.by))
    finally:
        if own:
            reader.close()
    return counts


def _names(annotation: Annotation, log: str, reader: LineReader, parse: Any, requests: RequestCache,
           registry: Registry, options: Options, plan: Any, matcher: GroupMatcher) -> set[str] | str | None:
    """The group names of the annotated record, None when the summary did not count it (the window),
    or why the annotation is stale (its line changed or cannot be read)."""
    try:
        text = reader.line_at(log, annotation.offset)
    except LogError as exc:
        return f"cannot be read again: {exc.problem}"
    if digest(text) != annotation.sha256:
        return "the line at that offset is another one now (the log was rewritten)"
    parsed = parse(text, requests)
    if isinstance(parsed, str):  # pragma: no cover - the same bytes were a record when annotated
        return f"not a record: {parsed}"
    raw, known, members = parsed
    if options.windowed:
        member = members.get(plan.ts_key)
        stamp = parse_ts(member) if member is not None else None
        if stamp is None or (options.since is not None and stamp < options.since) or \
                (options.until is not None and stamp >= options.until):
            return None
    verdict = verdict_of(raw, known.request, registry)
    evidence = Assessment(verdict, known.recall) if not verdict.ok else None
    return matcher.names(verdict, known, members, evidence, log)


def _known_names(found: set[str], names: set[str], by: Iterable[str]) -> set[str]:
    """The names among the summary's: a --by value past the bound of values kept is in ``other:KEY``."""
    known = found & names
    for key in by:
        other = other_name(key)
        prefix = meta_name(key, b"null")[:-len("null")]  # KEY=, as every value's group of KEY starts
        if other in names and not any(name.startswith(prefix) for name in known):
            known.add(other)
    return known


def _count(counts: AnnotationCounts, annotation: Annotation, names: set[str]) -> None:
    counts.annotated += 1
    decision = annotation.decision
    counts.by_decision[decision] = counts.by_decision.get(decision, 0) + 1
    false_rejection = decision == "false_rejection"
    false_acceptance = decision == "false_acceptance"
    counts.false_rejections += false_rejection
    counts.false_acceptances += false_acceptance
    for name in names:
        found = counts.groups.setdefault(name, [0, 0, 0])
        found[0] += 1
        found[1] += false_rejection
        found[2] += false_acceptance


def apply_annotations(summary: Summary, counts: AnnotationCounts) -> Summary:
    """``summary`` with every group's annotated counts (0 when none) and the totals set (in place)."""
    for group in summary.groups:
        annotated, false_rejections, false_acceptances = counts.groups.get(group.name, (0, 0, 0))
        group.annotated, group.false_rejections, group.false_acceptances = \
            annotated, false_rejections, false_acceptances
    summary.annotations = counts
    return summary
