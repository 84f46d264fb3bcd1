"""One answer file as a suite of one case: what ``check`` reports on and ``open`` shows."""

from __future__ import annotations

from pathlib import Path

from ..contract.models import Registry, Request
from ..suites.load import Case, Suite

__all__ = ["answer_suite"]


def answer_suite(claims: Path, raw: str | bytes, request: Request, registry: Registry) -> Suite:
    """A suite holding the one case ``raw``, named after its file (``-`` for standard input),
    with no frozen label."""
    case = Case(claims.name, 0, claims.name, raw, request, None)
    return Suite(claims, claims.name, registry, (case,))
