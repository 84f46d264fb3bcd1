"""The pure contract core: the checks table, models, strict decoding, the rules,
verify and its verdict, the trace that explains it, and the evidence beside it."""

from .checks import CHECKS, CHECKS_BY_ID, LIMITS, REASONS, STATUSES, Check, Reason, Stage, checks_for
from .decode import decode_answer
from .evidence import Assessment, assess
from .models import Claim, Registry, Request, Scope, Source
from .trace import Outcome, SourceSpan, Span, Step, Trace, explain
from .verdict import Verdict
from .verify import verify

__all__ = [
    "CHECKS",
    "CHECKS_BY_ID",
    "LIMITS",
    "REASONS",
    "STATUSES",
    "Assessment",
    "Check",
    "Claim",
    "Outcome",
    "Reason",
    "Registry",
    "Request",
    "Scope",
    "Source",
    "SourceSpan",
    "Span",
    "Stage",
    "Step",
    "Trace",
    "Verdict",
    "assess",
    "checks_for",
    "decode_answer",
    "explain",
    "verify",
]
