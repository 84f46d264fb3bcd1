"""Access control before grounding (seed 003).

When a request carries a scope, a source is evidence only if every condition
holds, in this order: same tenant, approved, not deleted, not expired at the
scope's ``now``, and the scope's user among its readers.  Missing metadata fails
closed.  Without a scope nothing is filtered.
"""

from __future__ import annotations

from dataclasses import dataclass

from .models import Scope, Source

__all__ = ["CONDITIONS", "Access", "authorize", "failing_condition", "format_number"]

# The conditions, in the order they are checked; each names the source attribute
# it reads (the registry table highlights that cell when it fails).
CONDITIONS = ("tenant", "approved", "deleted", "expires_at", "readers")


@dataclass(frozen=True, slots=True)
class Access:
    source: str
    allowed: bool
    condition: str | None  # the first failing condition, None when allowed
    detail: str


def format_number(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


def failing_condition(source: Source, scope: Scope) -> str | None:
    """The first of ``CONDITIONS`` that ``source`` fails for ``scope``, None when
    it may be used: the rule itself, without the explanation (``authorize``
    adds it), for the callers that ask of many sources."""
    if source.tenant is None or source.tenant != scope.tenant:
        return "tenant"
    if not source.approved:  # None (not recorded) fails closed
        return "approved"
    if source.deleted is None or source.deleted:
        return "deleted"
    if source.expires_at is None or not source.expires_at > scope.now:
        return "expires_at"
    if source.readers is None or scope.user not in source.readers:
        return "readers"
    return None


def authorize(source: Source, scope: Scope) -> Access:
    """Whether ``source`` may be used as evidence for ``scope``, and why not."""
    condition = failing_condition(source, scope)
    if condition is None:
        return Access(source.id, True, None,
                      f"readable by {scope.user} in {scope.tenant} until {format_number(source.expires_at)} "  # type: ignore[arg-type]  # set: no failing condition
                      f"(now {format_number(scope.now)})")
    return Access(source.id, False, condition, _why_not(condition, source, scope))


def _why_not(condition: str, source: Source, scope: Scope) -> str:
    """The explanation of a failing condition, as the access panel shows it."""
    if condition == "tenant":
        if source.tenant is None:
            return "no tenant recorded (missing metadata fails closed)"
        return f"tenant {source.tenant}, the request's tenant is {scope.tenant}"
    if condition == "approved":
        return "approval not recorded (missing metadata fails closed)" if source.approved is None else "not approved"
    if condition == "deleted":
        return "deletion not recorded (missing metadata fails closed)" if source.deleted is None else "deleted"
    if condition == "expires_at":
        if source.expires_at is None:
            return "no expiry recorded (missing metadata fails closed)"
        return f"expired at {format_number(source.expires_at)}, now {format_number(scope.now)}"
    if source.readers is None:
        return "no readers recorded (missing metadata fails closed)"
    readers = ", ".join(source.readers) or "nobody"
    return f"{scope.user} is not among its readers ({readers})"
