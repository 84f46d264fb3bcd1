"""A few records of a triage's largest rejection groups, each as the case report
the inspector shows when the group is opened (its first failing check explained):
what an HTML report puts under the counts, so a reader sees what the groups are
made of.  The records are reread from the index the count kept (``Options.index``),
as the overview's drill-down rereads them (``triage.members``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..contract.models import Registry
from ..reports.case import CaseReport
from ..triage.drill import LineReader
from ..triage.groups import GroupKind
from ..triage.logs import LogError
from ..triage.members import GroupMembers, record_suite
from ..triage.stamp import LogChanged, LogStamp
from ..triage.summary import Group, Summary
from .record_session import RecordSession

__all__ = ["EXAMPLE_GROUPS", "EXAMPLE_RECORDS", "GroupExamples", "group_examples"]

EXAMPLE_GROUPS = 5  # the largest rejection groups shown with records
EXAMPLE_RECORDS = 3  # records a group


@dataclass(frozen=True)
class GroupExamples:
    """A group and its first records (``problem``: why none could be reread)."""

    group: Group
    reports: tuple[CaseReport, ...]
    problem: str | None = None


def largest_rejections(summary: Summary, count: int = EXAMPLE_GROUPS) -> list[Group]:
    """The rejection groups by verdict status (every status but ACCEPT), the largest first."""
    groups = [group for group in summary.of_kind(GroupKind.CHECK) if group.name != "ACCEPT" and group.records]
    return sorted(groups, key=lambda group: (-group.records, group.name))[:count]


def group_examples(summary: Summary, logs: Sequence[str], registry: Registry, stamps: Mapping[str, LogStamp],
                   groups: int = EXAMPLE_GROUPS, records: int = EXAMPLE_RECORDS) -> list[GroupExamples]:
    """The first ``records`` records of each of the ``groups`` largest rejection groups; empty
    without an index (a count without ``Options.index``)."""
    index = summary.tally.index
    if index is None:
        return []
    options = summary.options
    found = []
    reader = LineReader()
    try:
        for group in largest_rejections(summary, groups):
            members = GroupMembers(group, index, len(index), options.by, reader, registry=registry, stamps=stamps,
                                   log_format=options.log_format)
            session = RecordSession(record_suite(group, members, logs, registry))
            try:
                reports = tuple(session.frozen(number) for number in range(min(records, len(session))))
            except (LogChanged, LogError) as exc:
                found.append(GroupExamples(group, (), str(exc)))
                continue
            found.append(GroupExamples(group, reports))
    finally:
        reader.close()
    return found
