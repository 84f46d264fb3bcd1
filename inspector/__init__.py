"""inspector: why a language model's answer was accepted or rejected by a strict
claim contract.

The public API is importable without textual or rich::

    from inspector import verify, load_suite
    suite = load_suite("fixtures/article.json")
    for case in suite.cases:
        verdict = verify(case.raw, case.request, suite.registry)
        print(case.id, verdict.label, verdict.first_failure)
"""

from .contract import (
    CHECKS,
    LIMITS,
    Check,
    Claim,
    Outcome,
    Registry,
    Request,
    Scope,
    Source,
    Span,
    Stage,
    Step,
    Verdict,
    verify,
)
from .suites import Case, LoadError, Suite, load_registry, load_request, load_suite

__version__ = "0.1.0"

__all__ = [
    "CHECKS",
    "LIMITS",
    "Case",
    "Check",
    "Claim",
    "LoadError",
    "Outcome",
    "Registry",
    "Request",
    "Scope",
    "Source",
    "Span",
    "Stage",
    "Step",
    "Suite",
    "Verdict",
    "__version__",
    "load_registry",
    "load_request",
    "load_suite",
    "verify",
]
