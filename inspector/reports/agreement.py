"""People against the contract: how often their labels agree, beyond chance.

Two comparisons, computed once for the suite summary, ``inspector audit`` and
its JSON:

- **claims**: a person's label of each claim (SUPPORTED, CONTRADICTED,
  INSUFFICIENT_EVIDENCE) against the label lens's label of the same claim;
  claims a person marked NOT_ASSESSABLE are counted apart, not compared.
- **answers**: what a person's labels imply for the whole answer (ANSWER when
  every claim is SUPPORTED, else ABSTAIN; only answers whose every claim a person
  labelled and could assess) against the contract (ANSWER when it accepts).

Each gives the rate of agreement, Cohen's kappa (agreement beyond what the two
raters' own label frequencies would give by chance: 1 is perfect, 0 is chance,
below 0 worse than chance; None when chance alone explains everything, e.g.
one label only), and the confusion matrix whose every cell keeps its claims.
The lens is exact field/value equality over structured facts, not entailment:
a high kappa says people and the lens agree on these fixtures, not that the
lens judges prose.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..contract.evidence import ABSTAIN, ANSWER, LABELS, POLICIES, SUPPORTED
from ..suites.load import NOT_ASSESSABLE
from .case import CaseReport

__all__ = ["Agreement", "Comparison", "HumanLabels", "agreement", "cohen_kappa"]

# (case number, claim index): one labelled claim.  A whole answer is (case number, None).
Item = tuple[int, int | None]
# A case's people's labels, claim index -> label (from the suite, overlaid with pending ones).
HumanLabels = Mapping[int, str]


def cohen_kappa(matrix: Mapping[tuple[str, str], int], categories: Sequence[str]) -> float | None:
    """Cohen's kappa of a confusion matrix (rows: the first rater, columns: the second)."""
    total = sum(matrix.values())
    if not total:
        return None
    observed = sum(matrix.get((c, c), 0) for c in categories) / total
    expected = sum(sum(matrix.get((c, o), 0) for o in categories) * sum(matrix.get((o, c), 0) for o in categories)
                   for c in categories) / (total * total)
    if expected >= 1:
        return None
    return round((observed - expected) / (1 - expected), 6)


@dataclass(frozen=True, slots=True)
class Comparison:
    """People (rows) against a rater (columns): each cell's items, the rate, kappa."""

    name: str
    rater: str  # what the columns are: "label lens" or "contract"
    categories: tuple[str, ...]
    cells: dict[tuple[str, str], tuple[Item, ...]]

    @property
    def compared(self) -> int:
        return sum(len(items) for items in self.cells.values())

    @property
    def agreed(self) -> int:
        return sum(len(self.cells.get((c, c), ())) for c in self.categories)

    @property
    def rate(self) -> float | None:
        return round(self.agreed / self.compared, 6) if self.compared else None

    @property
    def kappa(self) -> float | None:
        return cohen_kappa({key: len(items) for key, items in self.cells.items()}, self.categories)

    def cell(self, human: str, other: str) -> tuple[Item, ...]:
        return self.cells.get((human, other), ())

    def to_dict(self, name_of: Any) -> dict[str, Any]:
        return {
            "compared": self.compared,
            "agreed": self.agreed,
            "rate": self.rate,
            "kappa": self.kappa,
            "rows": "human",
            "columns": self.rater,
            "matrix": {human: {other: len(self.cell(human, other)) for other in self.categories}
                       for human in self.categories},
            "cells": [{"human": human, self.rater.replace(" ", "_"): other,
                       "items": [name_of(item) for item in self.cell(human, other)]}
                      for human in self.categories for other in self.categories if self.cell(human, other)],
        }


@dataclass(frozen=True, slots=True)
class Agreement:
    claims: Comparison
    answers: Comparison
    labelled_claims: int  # claims with a human label, NOT_ASSESSABLE ones included
    not_assessable: tuple[Item, ...]
    unpaired: tuple[Item, ...]  # labelled claims the lens has no label for (the answer did not decode, or no such claim)

    @property
    def any(self) -> bool:
        return self.labelled_claims > 0

    def to_dict(self, reports: Sequence[CaseReport]) -> dict[str, Any]:
        by_number = {report.number: report for report in reports}

        def name_of(item: Item) -> str:
            number, claim = item
            report = by_number[number]
            name = f"{report.suite.name}/{report.id}"
            return name if claim is None else f"{name}#claims[{claim}]"

        return {
            "labelled_claims": self.labelled_claims,
            "not_assessable": [name_of(item) for item in self.not_assessable],
            "unpaired": [name_of(item) for item in self.unpaired],
            "human_vs_lens": self.claims.to_dict(name_of),
            "human_vs_contract": self.answers.to_dict(name_of),
        }


def applied_labels(report: CaseReport) -> dict[int, str]:
    """The claim labels the suite itself holds for this case."""
    case = report.case
    return {label.claim: label.label for label in case.human_labels} if case is not None else {}


def agreement(reports: Sequence[CaseReport], overlay: Mapping[int, HumanLabels] | None = None) -> Agreement:
    """People's labels against the lens and the contract, over ``reports``; the labels
    are each case's own, with ``overlay`` (case number -> claim -> label, a pending
    review's) on top."""
    claim_cells: dict[tuple[str, str], list[Item]] = {}
    answer_cells: dict[tuple[str, str], list[Item]] = {}
    labelled, not_assessable, unpaired = 0, [], []
    for report in reports:
        if report.verdict is None:
            continue
        labels = {**applied_labels(report), **(overlay or {}).get(report.number, {})}
        if not labels:
            continue
        lens = report.claim_labels
        for claim, label in sorted(labels.items()):
            labelled += 1
            if label == NOT_ASSESSABLE:
                not_assessable.append((report.number, claim))
            elif claim >= len(lens):
                unpaired.append((report.number, claim))
            else:
                claim_cells.setdefault((label, lens[claim]), []).append((report.number, claim))
        if lens and all(claim in labels and labels[claim] != NOT_ASSESSABLE for claim in range(len(lens))):
            human = ANSWER if all(labels[claim] == SUPPORTED for claim in range(len(lens))) else ABSTAIN
            contract = ANSWER if report.verdict.ok else ABSTAIN
            answer_cells.setdefault((human, contract), []).append((report.number, None))
    return Agreement(
        Comparison("claims", "label lens", LABELS, {key: tuple(items) for key, items in claim_cells.items()}),
        Comparison("answers", "contract", POLICIES, {key: tuple(items) for key, items in answer_cells.items()}),
        labelled, tuple(not_assessable), tuple(unpaired))
