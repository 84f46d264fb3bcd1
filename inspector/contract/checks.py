"""The contract's checks, declared once, in order.

Everything that lists checks derives from ``CHECKS``: the evaluation order in
``verify``, the trace, ``inspector --help``, the docs' table and the checks panel.
A check's ``code`` is the verdict status it produces when it fails; checks of the
first two stages report a sub-reason as well (``REASONS``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

__all__ = [
    "CHECKS",
    "CHECKS_BY_ID",
    "LIMITS",
    "NO_ANSWER",
    "NO_ANSWER_REASONS",
    "REASONS",
    "RULE_NAMES",
    "STATUSES",
    "Check",
    "Reason",
    "Stage",
    "checks_for",
    "label_of",
]


class Stage(IntEnum):
    DECODE = 1
    CITATION = 2
    CLAIM = 3
    COVERAGE = 4

    @property
    def title(self) -> str:
        return _STAGE_TITLES[self]


_STAGE_TITLES = {
    Stage.DECODE: "strict decoding",
    Stage.CITATION: "citation",
    Stage.CLAIM: "per claim",
    Stage.COVERAGE: "coverage",
}


class LIMITS:
    """Input bounds (not model token limits), in UTF-16 code units as Java counts."""

    MAX_INPUT = 8192
    MAX_MEMBER = 2048
    MAX_CLAIMS = 8
    # The valid shape nests 3 deep (object, array, object).  Up to 16 levels are
    # parsed so that a misplaced array or object gets a precise shape error; deeper
    # input is refused on the raw text, before any (recursive) parser sees it.
    MAX_DEPTH = 16


@dataclass(frozen=True, slots=True)
class Reason:
    code: str
    title: str
    hint: str


@dataclass(frozen=True, slots=True)
class Check:
    id: str
    stage: Stage
    code: str
    title: str
    explanation: str
    hint: str
    per_claim: bool = False
    reasons: tuple[str, ...] = ()
    # What the check compares, for highlighting: an attribute of the request and
    # of the cited source ("fact" means the source's fact for the claimed field).
    request_attribute: str | None = None
    source_attribute: str | None = None
    # The claim member the check reads, for highlighting in the raw answer.
    claim_member: str | None = None
    # Stages 2-4: the rule itself, a Python expression that is true when the check
    # passes (see RULE_NAMES for what it may read).  ``contract.rules`` compiles
    # every rule once, so the order and the logic live here only.
    rule: str | None = None
    # The rule reads the cited source's attributes: it runs only once the document
    # is known, and explore mode reports it as not evaluable for an unknown one.
    # (doc_known alone reads ``source`` without needing it: it tests it for None.)
    needs_source: bool = False
    # The rule reads ``claimed``.
    reads_claimed: bool = False
    # Applies only when the request carries an access scope (then it is in the trace).
    needs_scope: bool = False


# What a rule may read.  A rule that reads the cited source's attributes declares
# ``needs_source``, one that reads ``claimed`` declares ``reads_claimed`` (a test
# holds every rule to its declaration).
RULE_NAMES: dict[str, str] = {
    "claims": "every decoded claim, in the answer's order (a tuple of Claim)",
    "claim": "the claim being checked (per-claim rules only)",
    "source": "the claim's cited Source, looked up by doc (per-claim rules; needs_source)",
    "request": "the Request: service, environment, revision, fields, supplied, scope",
    "claimed": "the fields of the claims before this one; in a stage-wide rule, of every claim "
               "(a set; reads_claimed)",
    "authorize": "access.authorize(source, scope) -> Access, whose .allowed is the verdict of access control",
}


REASONS: dict[str, Reason] = {
    reason.code: reason
    for reason in (
        Reason("TOO_LARGE", f"more than {LIMITS.MAX_INPUT} UTF-16 code units",
               "Shorten the answer: only claims belong in it."),
        Reason("NOT_UTF8", "the bytes are not UTF-8",
               "Emit UTF-8 text."),
        Reason("TOO_DEEP", f"nesting deeper than {LIMITS.MAX_DEPTH} levels",
               "Emit the flat claims shape: an object, an array, claim objects of strings."),
        Reason("SYNTAX", "not strict RFC 8259 JSON",
               "Emit strict JSON: no comments, NaN, single quotes, trailing commas or raw control characters."),
        Reason("TRAILING_DATA", "something follows the JSON value",
               "Emit exactly one JSON object and nothing after it."),
        Reason("DUPLICATE_KEY", "an object repeats a key",
               "Emit each key once per object; a parser would silently keep only one of them."),
        Reason("WRONG_SHAPE", "not {\"claims\": [claim objects]}",
               "The top level is an object whose only member is claims, an array of objects."),
        Reason("UNKNOWN_MEMBER", "a member the contract does not define",
               "A claim has exactly field, value, doc and quote; the top level has only claims."),
        Reason("MISSING_MEMBER", "a required member is missing",
               "Every claim needs field, value, doc and quote."),
        Reason("TOO_MANY_CLAIMS", f"more than {LIMITS.MAX_CLAIMS} claims",
               f"Claim at most {LIMITS.MAX_CLAIMS} fields."),
        Reason("NOT_A_STRING", "a claim member is not a string",
               "Every claim member is a JSON string, numbers and booleans included (\"5000\", \"false\")."),
        Reason("EMPTY_STRING", "a claim member is empty",
               "Fill every claim member."),
        Reason("TOO_LONG", f"a claim member is longer than {LIMITS.MAX_MEMBER} UTF-16 code units",
               "Quote the single canonical line, not a passage."),
        Reason("NO_CLAIMS", "the answer makes no claim",
               "Claim every requested field, or let the caller abstain."),
        Reason("UNKNOWN_DOC", "the cited document is not in the registry",
               "Cite only documents that were supplied; an invented id is a hallucinated citation."),
        Reason("NOT_AUTHORIZED", "the cited document is not evidence for the request's scope",
               "Ground only in documents the user may read now; a right value from a filtered-out "
               "document is still not evidence."),
        Reason("NOT_SUPPLIED", "the cited document was not supplied to the model",
               "Cite a supplied document; if the right one was missing, the failure is retrieval's."),
        Reason("QUOTE_NOT_FOUND", "the quote is not in the cited document's text",
               "Quote the document verbatim: same characters, case and spacing."),
    )
}


CHECKS: tuple[Check, ...] = (
    # Stage 1: strict decoding.  Any failure is INVALID_JSON with a sub-reason.
    Check("size", Stage.DECODE, "INVALID_JSON", "size",
          f"At most {LIMITS.MAX_INPUT} UTF-16 code units (a leading BOM counts, and is then ignored).",
          REASONS["TOO_LARGE"].hint, reasons=("TOO_LARGE",)),
    Check("encoding", Stage.DECODE, "INVALID_JSON", "UTF-8",
          "Bytes must be UTF-8; a text must hold no lone surrogate.",
          REASONS["NOT_UTF8"].hint, reasons=("NOT_UTF8",)),
    Check("depth", Stage.DECODE, "INVALID_JSON", "nesting depth",
          f"At most {LIMITS.MAX_DEPTH} levels of nesting, measured on the raw text and decided before syntax.",
          REASONS["TOO_DEEP"].hint, reasons=("TOO_DEEP",)),
    Check("syntax", Stage.DECODE, "INVALID_JSON", "strict JSON",
          "Strict RFC 8259 JSON, one value, nothing but whitespace after it.",
          REASONS["SYNTAX"].hint, reasons=("SYNTAX", "TRAILING_DATA")),
    Check("duplicate_key", Stage.DECODE, "INVALID_JSON", "no duplicate keys",
          "No object repeats a key, compared after unescaping (RFC 8259 §4, §8.3).",
          REASONS["DUPLICATE_KEY"].hint, reasons=("DUPLICATE_KEY",)),
    Check("shape", Stage.DECODE, "INVALID_JSON", "claims shape",
          f"{{\"claims\": [...]}} with at most {LIMITS.MAX_CLAIMS} claims of exactly four non-empty strings "
          f"(field, value, doc, quote), each at most {LIMITS.MAX_MEMBER} UTF-16 code units.",
          "Emit only the claims object; no free-text answer beside it.",
          # In this order, each looked for over the whole answer before the next.
          reasons=("WRONG_SHAPE", "TOO_MANY_CLAIMS", "UNKNOWN_MEMBER", "MISSING_MEMBER",
                   "NOT_A_STRING", "EMPTY_STRING", "TOO_LONG")),
    # Stage 2: citation, over all claims before any per-claim check.
    Check("has_claims", Stage.CITATION, "NO_CITATION", "at least one claim",
          "The answer makes at least one claim.",
          REASONS["NO_CLAIMS"].hint, reasons=("NO_CLAIMS",),
          rule="len(claims) > 0"),
    Check("doc_known", Stage.CITATION, "NO_CITATION", "document exists",
          "The cited document is in the registry.",
          REASONS["UNKNOWN_DOC"].hint, per_claim=True, reasons=("UNKNOWN_DOC",),
          source_attribute="id", claim_member="doc",
          rule="source is not None"),
    Check("authorized", Stage.CITATION, "NO_CITATION", "access allowed",
          "With a scope: the cited document is the tenant's, approved, not deleted, not expired "
          "and readable by the user (missing metadata fails closed).",
          REASONS["NOT_AUTHORIZED"].hint, per_claim=True, reasons=("NOT_AUTHORIZED",),
          request_attribute="scope", source_attribute="tenant", claim_member="doc", needs_scope=True,
          rule="request.scope is None or authorize(source, request.scope).allowed", needs_source=True),
    Check("doc_supplied", Stage.CITATION, "NO_CITATION", "document supplied",
          "The cited document was among those supplied to the model.",
          REASONS["NOT_SUPPLIED"].hint, per_claim=True, reasons=("NOT_SUPPLIED",),
          request_attribute="supplied", source_attribute="id", claim_member="doc",
          rule="claim.doc in request.supplied"),
    Check("quote_found", Stage.CITATION, "NO_CITATION", "quote in document",
          "The quote occurs verbatim in the cited document's text.",
          REASONS["QUOTE_NOT_FOUND"].hint, per_claim=True, reasons=("QUOTE_NOT_FOUND",),
          source_attribute="text", claim_member="quote",
          rule="claim.quote in source.text", needs_source=True),
    # Stage 3: per claim, in the answer's order.
    Check("unique_field", Stage.CLAIM, "DUPLICATE_CLAIM", "field claimed once",
          "No earlier claim has the same field.",
          "Claim each field once; two claims for one field are ambiguous even when they agree.",
          per_claim=True, claim_member="field",
          rule="claim.field not in claimed", reads_claimed=True),
    Check("requested_field", Stage.CLAIM, "UNREQUESTED_FIELD", "field requested",
          "The claimed field is one the request asks for.",
          "Claim only the requested fields.",
          per_claim=True, request_attribute="fields", claim_member="field",
          rule="claim.field in request.fields"),
    Check("scope", Stage.CLAIM, "SCOPE_MISMATCH", "service and environment",
          "The cited document's service and environment are the request's.",
          "Cite the document of the requested service and environment; a matching value elsewhere is not evidence.",
          per_claim=True, request_attribute="environment", source_attribute="environment", claim_member="doc",
          rule="source.service == request.service and source.environment == request.environment",
          needs_source=True),
    Check("revision", Stage.CLAIM, "STALE_REVISION", "current revision",
          "The cited document's revision is the request's.",
          "Cite the current revision's document.",
          per_claim=True, request_attribute="revision", source_attribute="revision", claim_member="doc",
          rule="source.revision == request.revision", needs_source=True),
    Check("value", Stage.CLAIM, "VALUE_MISMATCH", "value matches",
          "The cited document has this fact and the claimed value is exactly its value (no unit conversion).",
          "Copy the registry value exactly; \"5s\" is not \"5000\".",
          per_claim=True, source_attribute="fact", claim_member="value",
          rule="source.facts.get(claim.field) == claim.value", needs_source=True),
    Check("quote_supports", Stage.CLAIM, "QUOTE_NOT_SUPPORTING", "quote supports",
          "The quote is exactly the canonical line field=value.",
          "Quote the line that states this field's value, not another genuine line.",
          per_claim=True, source_attribute="text", claim_member="quote",
          rule='claim.quote == claim.field + "=" + claim.value'),
    # Stage 4.
    Check("coverage", Stage.COVERAGE, "INCOMPLETE", "every field claimed",
          "Every requested field has a claim.",
          "Claim every requested field, or let the caller abstain.",
          request_attribute="fields",
          rule="claimed.issuperset(request.fields)", reads_claimed=True),
)

CHECKS_BY_ID: dict[str, Check] = {check.id: check for check in CHECKS}

# The status of a logged record that holds no answer to verify (a refusal, an error, nothing): a
# triage's, never the contract's own (``verify`` always has an answer); its reasons REFUSAL, ERROR, EMPTY.
NO_ANSWER = "NO_ANSWER"
NO_ANSWER_REASONS = ("REFUSAL", "ERROR", "EMPTY")

# Every status a verdict can have, in contract order, ACCEPT last.
STATUSES: tuple[str, ...] = (*dict.fromkeys(check.code for check in CHECKS), "ACCEPT")

def label_of(status: str, reason: str | None) -> str:
    """``STATUS`` or ``STATUS/REASON``, as frozen labels are written."""
    return f"{status}/{reason}" if reason else status


_UNSCOPED: tuple[Check, ...] = tuple(check for check in CHECKS if not check.needs_scope)


def checks_for(scoped: bool) -> tuple[Check, ...]:
    """The checks in the trace of a request with (or without) an access scope, in
    contract order: without a scope the access step is not part of the contract."""
    return CHECKS if scoped else _UNSCOPED
