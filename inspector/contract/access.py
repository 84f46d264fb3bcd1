"""Access control before grounding (seed 003).

When a request carries a scope, a source is evidence only if every condition
holds, in this order: same tenant, approved, not deleted, not expired at the
scope's ``now``, and the scope's user among its readers.  Missing metadata fails
closed.  Without a scope nothing is filtered.
"""

from __future__ import annotations

from dataclasses import dataclass

from .models import Scope, Source

__all__ = ["CONDITIONS", "Access", "authorize", "format_number"]

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


def authorize(source: Source, scope: Scope) -> Access:
    """Whether ``source`` may be used as evidence for ``scope``, and why not."""

    def denied(condition: str, detail: str) -> Access:
        return Access(source.id, False, condition, detail)

    if source.tenant is None:
        return denied("tenant", "no tenant recorded (missing metadata fails closed)")
    if source.tenant != scope.tenant:
        return denied("tenant", f"tenant {source.tenant}, the request's tenant is {scope.tenant}")
    if source.approved is None:
        return denied("approved", "approval not recorded (missing metadata fails closed)")
    if not source.approved:
        return denied("approved", "not approved")
    if source.deleted is None:
        return denied("deleted", "deletion not recorded (missing metadata fails closed)")
    if source.deleted:
        return denied("deleted", "deleted")
    if source.expires_at is None:
        return denied("expires_at", "no expiry recorded (missing metadata fails closed)")
    if not source.expires_at > scope.now:
        return denied("expires_at", f"expired at {format_number(source.expires_at)}, now {format_number(scope.now)}")
    if source.readers is None:
        return denied("readers", "no readers recorded (missing metadata fails closed)")
    if scope.user not in source.readers:
        readers = ", ".join(source.readers) or "nobody"
        return denied("readers", f"{scope.user} is not among its readers ({readers})")
    return Access(source.id, True, None,
                  f"readable by {scope.user} in {scope.tenant} until {format_number(source.expires_at)} "
                  f"(now {format_number(scope.now)})")

