"""The rules of stages 2-4, compiled once from the checks table.

Each check of stages 2-4 declares its rule in ``checks.py``: a Python expression
over the names listed in ``checks.RULE_NAMES``, true when the check passes.  One
compiler turns the rules, in contract order, into two functions that share
every line of their evaluation:

- ``decide(claims, request, registry)``: the first failure as (position in
  ``RULE_CHECKS``, claim index or None), or None when every rule passes.  All
  rules fused into one function, without a call per check: this is what keeps
  ``verify`` within a small factor of a bare msgspec decode.
- ``evaluate(claims, request, registry)``: every rule on every claim, past the
  first failure, as {(check id, claim index or None): True (passed), False
  (failed) or None (not evaluable: the cited document is unknown)}.  Explore
  mode reads it.

Order within the generated code is the contract's: stage by stage, the
stage-wide checks first, then the per-claim checks, claim by claim.  A rule that
declares ``needs_source`` runs only once the document is known; ``claimed``
grows as the claims of a stage pass, so a per-claim rule sees the fields of the
claims before its claim and a stage-wide rule sees every field.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .access import authorize
from .checks import CHECKS, Check, Stage
from .models import Claim, Registry, Request

__all__ = ["PLAN", "RULE_CHECKS", "decide", "evaluate", "failure_reason"]

RULE_CHECKS: tuple[Check, ...] = tuple(check for check in CHECKS if check.stage is not Stage.DECODE)

# Stages 2-4 as (stage-wide checks, per-claim checks).
PLAN: tuple[tuple[tuple[Check, ...], tuple[Check, ...]], ...] = tuple(
    (
        tuple(c for c in RULE_CHECKS if c.stage is stage and not c.per_claim),
        tuple(c for c in RULE_CHECKS if c.stage is stage and c.per_claim),
    )
    for stage in dict.fromkeys(c.stage for c in RULE_CHECKS)
)


def failure_reason(check: Check) -> str | None:
    """The sub-reason a failure of this check reports (stage 2 has one per check)."""
    return check.reasons[0] if check.reasons else None


def _compile(first_only: bool) -> Callable[[tuple[Claim, ...], Request, Registry], Any]:
    """The one compiler: the rules as the body of ``decide`` (``first_only``) or of
    ``evaluate``; only what a rule's outcome does differs between the two."""
    position = {check.id: i for i, check in enumerate(RULE_CHECKS)}
    lines = [f"def {'decide' if first_only else 'evaluate'}(claims, request, registry):",
             "    get = registry.by_id.get"]
    if not first_only:
        lines.append("    results = {}")

    def test(check: Check, claim: str, indent: str) -> None:
        if first_only:
            lines.append(f"{indent}if not ({check.rule}):")
            lines.append(f"{indent}    return {position[check.id]}, {claim}")
        elif check.needs_source:
            lines.append(f"{indent}results[{check.id!r}, {claim}] = "
                         f"None if source is None else bool({check.rule})")
        else:
            lines.append(f"{indent}results[{check.id!r}, {claim}] = bool({check.rule})")

    complete = False  # whether ``claimed`` holds every claim's field at this point
    for whole, per_claim in PLAN:
        for check in whole:
            if check.reads_claimed and not complete:
                lines.append("    claimed = {claim.field for claim in claims}")
                complete = True
            test(check, "None", "    ")
        if per_claim:
            grows = any(check.reads_claimed for check in per_claim)
            if grows:
                lines.append("    claimed = set()")
            lines.append("    for index, claim in enumerate(claims):")
            lines.append("        source = get(claim.doc)")
            for check in per_claim:
                test(check, "index", "        ")
            if grows:
                lines.append("        claimed.add(claim.field)")
                complete = True
    lines.append("    return None" if first_only else "    return results")
    namespace: dict[str, Any] = {"authorize": authorize}
    exec(compile("\n".join(lines), "<inspector contract rules>", "exec"), namespace)  # noqa: S102
    compiled: Callable[[tuple[Claim, ...], Request, Registry], Any] = namespace["decide" if first_only else "evaluate"]
    return compiled


decide: Callable[[tuple[Claim, ...], Request, Registry], tuple[int, int | None] | None] = _compile(True)
evaluate: Callable[[tuple[Claim, ...], Request, Registry], dict[tuple[str, int | None], bool | None]] = \
    _compile(False)
