"""What the evidence itself says, beside the contract's verdict.

- The label lens (seed 003): per claim SUPPORTED / CONTRADICTED /
  INSUFFICIENT_EVIDENCE against the authorized sources, and the policy ANSWER only
  when every claim is supported.  Deliberately weaker than the contract: it ignores
  scope, revision, supply and quotes.
- Conflicts: two authorized sources of the same service/environment/revision
  that disagree on a fact.
- Retrieval recall and blame: were the sources that would support each requested
  field supplied?  If not, a rejection is retrieval's failure, not the model's.
- Abstention categories (seed 002) with the next action for a triaging engineer.

``assess(verdict)`` gathers them for one verdict in an ``Assessment``.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import TYPE_CHECKING, Any, TypeAlias

from .checks import NO_ANSWER
from .access import failing_condition
from .models import Claim, Registry, Request, Source

if TYPE_CHECKING:
    from .verdict import Verdict

__all__ = [
    "ABSTAIN",
    "ANSWER",
    "CATEGORIES",
    "LABELS",
    "POLICIES",
    "Assessment",
    "Category",
    "Conflict",
    "FieldRecall",
    "Recall",
    "assess",
    "assessment_key",
    "authorized_sources",
    "blame",
    "category_for",
    "claim_labels",
    "conflicts_for",
    "policy_for",
    "recall_for",
    "registry_conflicts",
]

SUPPORTED, CONTRADICTED, INSUFFICIENT = "SUPPORTED", "CONTRADICTED", "INSUFFICIENT_EVIDENCE"
ANSWER, ABSTAIN = "ANSWER", "ABSTAIN"
LABELS = (SUPPORTED, CONTRADICTED, INSUFFICIENT)
POLICIES = (ANSWER, ABSTAIN)


def authorized_sources(request: Request, registry: Registry) -> dict[str, Source]:
    """The sources that are evidence for this request: all of them without a scope."""
    if request.scope is None:
        return dict(registry.by_id)
    scope = request.scope
    return {s.id: s for s in registry.sources if failing_condition(s, scope) is None}


# -- the label lens -------------------------------------------------------------


def claim_labels(claims: tuple[Claim, ...], request: Request, registry: Registry) -> tuple[str, ...]:
    # Only the cited sources are authorized (authorized_sources would be the
    # whole registry's): what a case costs is what it cites.
    scope = request.scope
    labels = []
    for claim in claims:
        source = registry.by_id.get(claim.doc)
        if source is not None and scope is not None and failing_condition(source, scope) is not None:
            source = None
        fact = source.facts.get(claim.field) if source is not None else None
        labels.append(INSUFFICIENT if fact is None else SUPPORTED if fact == claim.value else CONTRADICTED)
    return tuple(labels)


def policy_for(labels: tuple[str, ...]) -> str:
    return ANSWER if labels and all(label == SUPPORTED for label in labels) else ABSTAIN


# -- conflicts ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Conflict:
    service: str
    environment: str
    revision: str
    field: str
    values: tuple[tuple[str, str], ...]  # (source id, value), in registry order

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(source for source, _ in self.values)

    def describe(self) -> str:
        values = ", ".join(f"{source} says {value}" for source, value in self.values)
        return f"{self.service}/{self.environment}/{self.revision} {self.field}: {values}"


# A registry's conflicts, and their index by (group, field) and by (source id, field).
ConflictIndex: TypeAlias = tuple[tuple[Conflict, ...], dict[Any, list[Conflict]]]


def registry_conflicts(registry: Registry) -> tuple[Conflict, ...]:
    """Every disagreement on a fact within one service/environment/revision,
    ignoring access (computed once per registry)."""
    return _conflict_index(registry)[0]


def _conflict_index(registry: Registry) -> ConflictIndex:
    """The registry's conflicts, and an index of them by (group, field) and by
    (source id, field), so that a case looks up only the conflicts it can touch."""
    if registry._conflicts is None:
        found = []
        for (service, environment, revision), members in registry.by_group.items():
            if len(members) < 2:
                continue
            # One pass over the group's facts (not a pass over the group per field:
            # 8,000 sources of one field each made that 64 million lookups).
            by_field: dict[str, list[tuple[str, str]]] = {}
            for source in members:
                for field, value in source.facts.items():
                    by_field.setdefault(field, []).append((source.id, value))
            for field, values in by_field.items():
                if len(values) > 1 and len({value for _, value in values}) > 1:
                    found.append(Conflict(service, environment, revision, field, tuple(values)))
        index: dict[Any, list[Conflict]] = {}
        for conflict in found:
            index.setdefault(((conflict.service, conflict.environment, conflict.revision), conflict.field),
                             []).append(conflict)
            for source_id in conflict.sources:
                index.setdefault((source_id, conflict.field), []).append(conflict)
        registry._conflicts = (tuple(found), index)
    return registry._conflicts


def conflicts_for(request: Request, registry: Registry, claims: tuple[Claim, ...]) -> tuple[Conflict, ...]:
    """The conflicts among authorized sources that this case touches: the request
    asks for the field in that group, or a claim cites one of the sources for it."""
    everything, index = _conflict_index(registry)
    if not everything:
        return ()
    group = (request.service, request.environment, request.revision)
    candidates: dict[int, Conflict] = {}
    for field in request.fields:
        for conflict in index.get((group, field), ()):
            candidates[id(conflict)] = conflict
    for claim in claims:
        for conflict in index.get((claim.doc, claim.field), ()):
            candidates[id(conflict)] = conflict
    touched = []
    scope = request.scope
    by_id = registry.by_id
    # Access control is asked of the candidates' sides only, not of the whole registry.
    # In registry order, as registry_conflicts lists them.
    for conflict in sorted(candidates.values(), key=everything.index):
        original = conflict
        if scope is not None:
            values = tuple([(s, v) for s, v in conflict.values if failing_condition(by_id[s], scope) is None])
            if len({v for _, v in values}) < 2:
                continue
            conflict = Conflict(conflict.service, conflict.environment, conflict.revision, conflict.field, values)
        asked = (conflict.service, conflict.environment, conflict.revision) == group and \
            conflict.field in request.fields
        # A claim cites a side when the index lists the conflict under its
        # (doc, field) (not a scan of the conflict's sources); citing a side
        # that access control filtered out does not touch it.
        cited = any(c.field == conflict.field and any(found is original for found in index.get((c.doc, c.field), ()))
                    and (scope is None or failing_condition(by_id[c.doc], scope) is None) for c in claims)
        if asked or cited:
            touched.append(conflict)
    return tuple(touched)


# -- retrieval recall and blame ----------------------------------------------------


@dataclass(frozen=True, slots=True)
class FieldRecall:
    field: str
    relevant: tuple[str, ...]  # sources that would support the field
    supplied: tuple[str, ...]  # those of them that were supplied


class Recall:
    """Retrieval recall of one request: per requested field, the sources that
    would support it (``relevant``: of the request's service, environment and
    revision, authorized under its scope, with the field among their facts) and
    those of them that were supplied.

    ``recall_for`` computes it as it is read: ``missing`` (all that blame
    reads) from the supplied sources alone, so that a request costs what it
    names and not the size of its group in the registry; ``fields``,
    ``counts`` and ``value`` over the group, when first asked for.
    ``Recall(fields)`` holds given ones."""

    __slots__ = ("_fields", "_missing", "_registry", "_request")

    def __init__(self, fields: tuple[FieldRecall, ...] | None = None, *, request: Request | None = None,
                 registry: Registry | None = None) -> None:
        if fields is None and (request is None or registry is None):
            raise TypeError("Recall takes its fields, or the request and registry to compute them from")
        self._fields = fields
        self._missing: tuple[str, ...] | None = None
        self._request = request
        self._registry = registry

    @property
    def fields(self) -> tuple[FieldRecall, ...]:
        if self._fields is None:
            self._fields = _field_recalls(self._request, self._registry)  # type: ignore[arg-type]  # request and registry given when fields are not
        return self._fields

    @property
    def counts(self) -> tuple[int, int] | None:
        """(supplied, relevant): the distinct source ids, None when nothing is relevant."""
        relevant = {source for item in self.fields for source in item.relevant}
        if not relevant:
            return None
        supplied = {source for item in self.fields for source in item.supplied}
        return len(supplied), len(relevant)

    @property
    def value(self) -> float | None:
        """Seed 003's retrieval recall: supplied relevant ids / relevant ids (None if none)."""
        counts = self.counts
        return None if counts is None else counts[0] / counts[1]

    @property
    def missing(self) -> tuple[str, ...]:
        """Requested fields for which no supporting source was supplied."""
        if self._missing is None:
            if self._fields is not None:
                self._missing = tuple(item.field for item in self._fields if not item.supplied)
            else:
                self._missing = _missing_fields(self._request, self._registry)  # type: ignore[arg-type]  # request and registry given when fields are not
        return self._missing

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Recall):
            return NotImplemented
        return self.fields == other.fields

    def __hash__(self) -> int:
        return hash(self.fields)

    def __repr__(self) -> str:
        return f"Recall(fields={self.fields!r})"


def recall_for(request: Request, registry: Registry) -> Recall:
    """The request's retrieval recall, computed as it is read (``Recall``)."""
    return Recall(request=request, registry=registry)


def _field_recalls(request: Request, registry: Registry) -> tuple[FieldRecall, ...]:
    group = registry.by_group.get((request.service, request.environment, request.revision), ())
    if request.scope is not None:
        scope = request.scope
        group = tuple(s for s in group if failing_condition(s, scope) is None)
    supplied = set(request.supplied)
    fields = []
    for field in request.fields:
        relevant = tuple(s.id for s in group if field in s.facts)
        fields.append(FieldRecall(field, relevant, tuple(s for s in relevant if s in supplied)))
    return tuple(fields)


def _missing_fields(request: Request, registry: Registry) -> tuple[str, ...]:
    """``Recall.missing`` from the supplied sources alone: a field is missing
    when no supplied source of the request's group, authorized under its scope,
    has it (the same as no relevant source being supplied)."""
    group = (request.service, request.environment, request.revision)
    scope = request.scope
    supporting = []
    for source_id in dict.fromkeys(request.supplied):
        source = registry.by_id.get(source_id)
        if source is None or (source.service, source.environment, source.revision) != group:
            continue
        if scope is None or failing_condition(source, scope) is None:
            supporting.append(source.facts)
    return tuple(field for field in request.fields if not any(field in facts for facts in supporting))


RETRIEVAL, GENERATION = "retrieval", "generation"


def blame(status: str, reason: str | None, recall: Recall, cited_supplied_unauthorized: bool) -> str | None:
    """Whose failure a rejection is: None when accepted.

    Retrieval's when a requested field had no supporting source among those
    supplied (the model could not have answered it), or when the cited document
    was supplied although access control forbids it; else generation's.
    Malformed output is always the generator's.
    """
    if status == "ACCEPT":
        return None
    if status == NO_ANSWER:  # a log's record without an answer: a refusal or nothing is the model's, unless
        # it could not have answered; a service's error is neither's
        return None if reason == "ERROR" else RETRIEVAL if recall.missing else GENERATION
    if status == "INVALID_JSON":
        return GENERATION
    if recall.missing or (reason == "NOT_AUTHORIZED" and cited_supplied_unauthorized):
        return RETRIEVAL
    return GENERATION


# -- abstention categories ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Category:
    id: str
    title: str
    next_action: str


CATEGORIES: dict[str, Category] = {
    category.id: category
    for category in (
        Category("no_evidence", "no evidence",
                 "Check retrieval: the answer cites nothing citable. Supply the current document, or abstain."),
        Category("insufficient_evidence", "insufficient evidence",
                 "Supply the missing field's document, or abstain on that field."),
        Category("wrong_scope", "wrong scope",
                 "Regenerate against the requested scope (service, environment, revision)."),
        Category("contradicted", "contradicted",
                 "Do not answer: the cited evidence says another value. Regenerate from the evidence."),
        Category("unsupported_citation", "unsupported citation",
                 "Regenerate quoting the canonical field=value line of the cited document."),
        Category("malformed_output", "malformed output",
                 "Fix the generator's output contract: strict JSON, only the requested claims, once each."),
        Category("unauthorized_evidence", "unauthorized evidence",
                 "Fix access control before retrieval: the document is not readable for this scope."),
        Category("conflicting_evidence", "conflicting evidence",
                 "Resolve the registry: two current documents disagree. State the conflict or escalate."),
    )
}

_BY_STATUS = {
    "INVALID_JSON": "malformed_output",
    "NO_CITATION": "no_evidence",
    "DUPLICATE_CLAIM": "malformed_output",
    "UNREQUESTED_FIELD": "malformed_output",
    "SCOPE_MISMATCH": "wrong_scope",
    "STALE_REVISION": "wrong_scope",
    "VALUE_MISMATCH": "contradicted",
    "QUOTE_NOT_SUPPORTING": "unsupported_citation",
    "INCOMPLETE": "insufficient_evidence",
}


def category_for(status: str, reason: str | None, conflicted: bool) -> Category | None:
    """The abstention category of a rejection (None when accepted).  ``conflicted``:
    the failure is about a field on which authorized documents disagree; then a
    rejection of well-formed, cited claims is about the conflict first."""
    if status in ("ACCEPT", NO_ANSWER):
        return None
    if reason == "NOT_AUTHORIZED":
        return CATEGORIES["unauthorized_evidence"]
    # Well-formed, cited claims about a field the documents disagree on; an
    # unrequested field is the generator's own problem whatever the registry says.
    if conflicted and status not in ("INVALID_JSON", "NO_CITATION", "UNREQUESTED_FIELD"):
        return CATEGORIES["conflicting_evidence"]
    return CATEGORIES[_BY_STATUS[status]]


# -- one verdict, assessed ----------------------------------------------------------


class Assessment:
    """What the evidence says about one verdict, beside the contract: the label
    lens, the conflicts the case touches, retrieval recall, blame and the
    abstention category.  Each is computed when first read and kept.

    ``recall`` may be handed in when the caller already has it: it depends only
    on the request and the registry, so triage over a log computes it once per
    distinct request instead of once per record."""

    __slots__ = ("_conflicts", "_labels", "_recall", "verdict")

    def __init__(self, verdict: Verdict, recall: Recall | None = None) -> None:
        self.verdict = verdict
        self._labels: tuple[str, ...] | None = None
        self._conflicts: tuple[Conflict, ...] | None = None
        self._recall: Recall | None = recall

    @property
    def labels(self) -> tuple[str, ...]:
        """Per-claim SUPPORTED / CONTRADICTED / INSUFFICIENT_EVIDENCE against the
        authorized evidence; empty unless strict decoding passed."""
        verdict = self.verdict
        if not verdict.strict_json:
            return ()
        if self._labels is None:
            self._labels = claim_labels(verdict.claims, verdict.request, verdict.registry)
        return self._labels

    @property
    def policy(self) -> str:
        """ANSWER when there is a claim and every claim is SUPPORTED, else ABSTAIN."""
        return policy_for(self.labels)

    @property
    def lens_disagrees(self) -> bool:
        """The weaker label lens would answer where the contract rejects."""
        return self.policy == ANSWER and not self.verdict.ok

    @property
    def conflicts(self) -> tuple[Conflict, ...]:
        if self._conflicts is None:
            verdict = self.verdict
            self._conflicts = conflicts_for(verdict.request, verdict.registry, verdict.claims)
        return self._conflicts

    @property
    def recall(self) -> Recall:
        if self._recall is None:
            self._recall = recall_for(self.verdict.request, self.verdict.registry)
        return self._recall

    @property
    def blame(self) -> str | None:
        """"retrieval" or "generation" for a rejection, None when accepted."""
        verdict = self.verdict
        supplied_unauthorized = (verdict.reason == "NOT_AUTHORIZED" and verdict.claim is not None
                                 and verdict.claims[verdict.claim].doc in verdict.request.supplied)
        return blame(verdict.status, verdict.reason, self.recall, supplied_unauthorized)

    @property
    def category(self) -> Category | None:
        """The abstention category and next action of a rejection.  Conflicting
        evidence comes first when the failing claim's field (or, for INCOMPLETE, a
        missing field) is one the conflicting documents disagree on."""
        verdict = self.verdict
        conflicted = {conflict.field for conflict in self.conflicts}
        about: set[str] = set()
        if conflicted and verdict.strict_json and verdict.check is not None:
            if verdict.claim is not None:
                about = {verdict.claims[verdict.claim].field}
            elif verdict.check.id == "coverage":
                about = set(verdict.request.fields) - {c.field for c in verdict.claims}
        return category_for(verdict.status, verdict.reason, bool(conflicted & about))


_FIELD_DOC = attrgetter("field", "doc")


def assessment_key(verdict: Verdict) -> tuple[Any, ...]:
    """Everything ``Assessment.blame`` and ``Assessment.category`` read of a
    verdict beside its request and registry: two verdicts of one request with
    the same key have the same blame and category.  So a triage over a log
    assesses each key of a request once; the rules stay here.

    What they read: the status and reason; the failing claim's position (its
    field says what the failure is about, its doc whether an unauthorized
    document was supplied); and the (field, doc) of every claim, which decide
    the conflicts the case touches and, for INCOMPLETE, the fields left
    unclaimed.  The check is the status's (or the reason's), and the two
    baselines follow from it."""
    return (verdict.status, verdict.reason, verdict.claim, tuple(map(_FIELD_DOC, verdict.claims)))


def assess(verdict: Verdict, recall: Recall | None = None) -> Assessment:
    """The evidence beside one verdict (computed as it is read).  ``recall``, if
    given, must be ``recall_for(verdict.request, verdict.registry)``."""
    return Assessment(verdict, recall)
