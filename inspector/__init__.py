"""inspector: why a language model's answer was accepted or rejected by a strict
claim contract.

The public API is importable without textual or rich::

    from inspector import assess, explain, load_suite, verify
    suite = load_suite("fixtures/article.json")
    for case in suite.cases:
        verdict = verify(case.raw, case.request, suite.registry)
        print(case.id, verdict.label, explain(verdict).first_failure, assess(verdict).blame)

``verify(raw, request, registry)`` takes the answer as ``str`` or bytes (``bytes``,
``bytearray``, ``memoryview``) and returns a verdict for every such value, never
raising; any other type of ``raw`` is a ``TypeError``.
"""

from .contract import (
    CHECKS,
    LIMITS,
    Assessment,
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
    Trace,
    Verdict,
    assess,
    explain,
    verify,
)
from .suites import Case, LoadError, Suite, load_registry, load_request, load_suite

__version__ = "0.1.0"

__all__ = [
    "CHECKS",
    "LIMITS",
    "Assessment",
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
    "Trace",
    "Verdict",
    "__version__",
    "assess",
    "explain",
    "load_registry",
    "load_request",
    "load_suite",
    "verify",
]
