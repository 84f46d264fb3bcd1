"""verify(): the ordered contract applied to one answer.

Stage 1 is strict decoding (``decode``); stages 2-4 are the rules of the checks
table, fused into one function (``rules.decide``).  The first failure decides and
on failure nothing is accepted.  Explaining the verdict step by step is the
trace's job (``trace.explain``), done only when someone reads it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .checks import CHECKS_BY_ID, Stage
from .decode import decode_answer
from .models import Claim, Registry, Request, coerce_request
from .rules import RULE_CHECKS, decide, failure_reason
from .verdict import Verdict

__all__ = ["verify"]

# For each rule check, in RULE_CHECKS order, what a rejection by it is:
# (check, status, reason, citation_only).
_REJECTIONS = tuple(
    (check, check.code, failure_reason(check), check.stage is not Stage.CITATION) for check in RULE_CHECKS
)


def verify(raw: str | bytes, request: Request | Mapping[str, Any], registry: Registry | Any) -> Verdict:
    """Run the contract on one candidate answer.

    ``raw`` is the answer as ``str`` or as bytes (``bytes``, ``bytearray``,
    ``memoryview``); for any such value verify returns a verdict and never
    raises.  Anything else is a programming error: ``TypeError`` (raised by
    strict decoding, where it costs the common case nothing).

    ``request`` and ``registry`` are trusted inputs: loaded objects, or plain
    dicts (``{"sources": [...]}`` for the registry), which are validated here and
    raise ``msgspec.ValidationError``/``ValueError`` when malformed.
    """
    if type(request) is not Request:
        request = coerce_request(request)
    if type(registry) is not Registry:
        registry = Registry.coerce(registry)
    decoded = decode_answer(raw)
    problem = decoded.failure
    if problem is not None:
        return Verdict("INVALID_JSON", problem.reason, False, False, (),
                       request, registry, decoded, CHECKS_BY_ID[problem.check])
    claims: tuple[Claim, ...] = decoded.claims  # type: ignore[assignment]  # set once decoding succeeded
    found = decide(claims, request, registry)
    if found is None:
        return Verdict("ACCEPT", None, True, True, claims, request, registry, decoded)
    position, claim = found
    check, status, reason, citation_only = _REJECTIONS[position]
    return Verdict(status, reason, True, citation_only, claims, request, registry, decoded,
                   check, claim)
