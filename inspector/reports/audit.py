"""Audit: run every case of some suites through the contract and compare with the
frozen labels, the way the article reports it (the ladder of admission checks and
the citation-only false accepts).  What each case and the whole set mean is the
presentation layer's (``CaseReport``, ``SuiteReport``); the audit gathers them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..contract.version import VERIFIER
from ..suites.load import Suite
from .case import CaseReport
from .suite import SuiteReport

__all__ = ["AUDIT_SCHEMA", "Audit", "audit"]

AUDIT_SCHEMA = "inspector.audit/1"


class Audit:
    """Every case of the audited suites, in order, and their summary."""

    def __init__(self, suites: Iterable[Suite]) -> None:
        self.suites: tuple[Suite, ...] = tuple(suites)
        reports: list[CaseReport] = []
        for suite in self.suites:
            for case in suite.cases:
                reports.append(CaseReport.of(len(reports), suite, case))
        self.results: tuple[CaseReport, ...] = tuple(reports)
        self.summary = SuiteReport(reports)

    @property
    def mismatches(self) -> tuple[CaseReport, ...]:
        return self.summary.mismatched

    def to_dict(self, version: str) -> dict[str, Any]:
        return {
            "schema": AUDIT_SCHEMA,
            "inspector_version": version,
            "verifier": VERIFIER,
            "cases": [result.to_dict() for result in self.results],
            "summary": self.summary.to_dict(),
        }


def audit(suites: Iterable[Suite]) -> Audit:
    return Audit(suites)
