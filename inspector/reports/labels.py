"""Frozen labels against verdicts: the one rule for whether a verdict has its label.

A frozen label is ``STATUS`` or ``STATUS/REASON``.  A bare ``STATUS`` matches the
verdict whatever its sub-reason (``INVALID_JSON`` matches
``INVALID_JSON/DUPLICATE_KEY``); ``STATUS/REASON`` matches only that sub-reason.
"""

from __future__ import annotations

from enum import StrEnum

from ..contract.checks import NO_ANSWER
from ..contract.verdict import Verdict
from ..suites.load import parse_label

__all__ = ["LabelMatch", "label_matches", "match_of", "short_label"]


class LabelMatch(StrEnum):
    MATCHES = "matches"
    DIFFERS = "differs"
    UNLABELLED = "unlabelled"  # no frozen label (a single answer)
    BROKEN = "broken"  # the case could not be loaded: no verdict


def label_matches(expected: str | None, verdict: Verdict) -> bool | None:
    """Whether a verdict has the frozen label; None when there is no label."""
    if expected is None:
        return None
    if expected.startswith(NO_ANSWER):  # a log's record without an answer (never a suite's label)
        status, _, reason_text = expected.partition("/")
        return verdict.status == status and (not reason_text or verdict.reason == reason_text)
    status, reason = parse_label(expected)
    return verdict.status == status and (reason is None or verdict.reason == reason)


def match_of(expected: str | None, verdict: Verdict | None) -> LabelMatch:
    if verdict is None:
        return LabelMatch.BROKEN
    matches = label_matches(expected, verdict)
    if matches is None:
        return LabelMatch.UNLABELLED
    return LabelMatch.MATCHES if matches else LabelMatch.DIFFERS


def short_label(label: str | None) -> str:
    """``INVALID_JSON/DUPLICATE_KEY`` -> ``DUPLICATE_KEY``: the sub-reason names its status."""
    if label is None:
        return "—"
    return label.rpartition("/")[2]
