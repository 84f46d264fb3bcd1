"""The verifier's version: what the contract decides, as a digest.

The package version says which code ran; a review needs to know which *contract*
judged a case.  ``VERIFIER`` digests the checks table (order, codes, reasons,
rules, which checks need a scope), the input limits, and the label lens's labels
and policies, so it changes exactly when a verdict could change for the same
answer, and not when code is only rearranged.  A decision taken under another
verifier is pending again (``suites.review``); every audit, review and saved case
carries it.
"""

from __future__ import annotations

import hashlib
import json

from .checks import CHECKS, LIMITS, REASONS
from .evidence import LABELS, POLICIES

__all__ = ["VERIFIER", "verifier_table"]


def verifier_table() -> dict[str, object]:
    """What the digest is taken over, as plain data (``inspector checks`` shows the same table)."""
    return {
        "checks": [
            {"id": check.id, "stage": int(check.stage), "code": check.code, "reasons": list(check.reasons),
             "rule": check.rule, "per_claim": check.per_claim, "needs_scope": check.needs_scope}
            for check in CHECKS],
        "reasons": sorted(REASONS),
        "limits": {name: getattr(LIMITS, name) for name in ("MAX_INPUT", "MAX_MEMBER", "MAX_CLAIMS", "MAX_DEPTH")},
        "labels": list(LABELS),
        "policies": list(POLICIES),
    }


def _digest() -> str:
    canonical = json.dumps(verifier_table(), sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return "contract-" + hashlib.sha256(canonical.encode("ascii")).hexdigest()[:16]


# "contract-" and 16 hexadecimal digits of the table's sha256.
VERIFIER: str = _digest()
