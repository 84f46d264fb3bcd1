"""The pure contract core: models, strict decoding, the checks table, verify."""

from .checks import CHECKS, CHECKS_BY_ID, LIMITS, REASONS, STATUSES, Check, Reason, Stage
from .decode import decode_answer
from .models import Claim, Registry, Request, Scope, Source
from .verify import Outcome, Span, Step, Verdict, verify

__all__ = [
    "CHECKS",
    "CHECKS_BY_ID",
    "LIMITS",
    "REASONS",
    "STATUSES",
    "Check",
    "Claim",
    "Outcome",
    "Reason",
    "Registry",
    "Request",
    "Scope",
    "Source",
    "Span",
    "Stage",
    "Step",
    "Verdict",
    "decode_answer",
    "verify",
]
