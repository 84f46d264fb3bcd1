"""The contract's result for one answer: the verdict, and nothing beside it.

What the verdict means step by step is the trace (``trace.explain``); what the
evidence says beside the contract is the assessment (``evidence.assess``).  Both
are derived from a verdict on demand, in objects of their own.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter
from types import MappingProxyType

import msgspec

from .checks import Check, label_of
from .decode import Decoded
from .models import Claim, Registry, Request

__all__ = ["Verdict"]

_NOTHING_ACCEPTED: Mapping[str, str] = MappingProxyType({})
_FIELD_VALUE = attrgetter("field", "value")


class Verdict(msgspec.Struct, frozen=True, eq=False):
    """The outcome of the contract for one answer.  Built by ``verify``.

    ``status`` is ``ACCEPT`` or the failing check's code, ``reason`` its sub-reason
    (stages 1-2).  ``accepted`` maps field to value, sorted by field, and is empty on
    any rejection.  ``strict_json`` and ``citation_only`` are the article's two
    baselines: stage 1 passed, and stages 1-2 passed.  ``check`` is the check that
    rejected the answer and ``claim`` the index of the claim it rejected (None for
    a check of the whole answer).
    """

    # A frozen Struct: one is built per answer and its __init__ runs in C.
    status: str
    reason: str | None
    strict_json: bool
    citation_only: bool
    claims: tuple[Claim, ...]
    request: Request
    registry: Registry
    decoded: Decoded
    check: Check | None = None
    claim: int | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ACCEPT"

    @property
    def accepted(self) -> Mapping[str, str]:
        """Field to value of an accepted answer, sorted by field, read-only (a
        copy of the verified values); empty on any rejection.  Worked out when
        read: a triage verifies a million answers and reads none of these."""
        if self.status != "ACCEPT":
            return _NOTHING_ACCEPTED
        return MappingProxyType(dict(sorted(map(_FIELD_VALUE, self.claims))))

    @property
    def label(self) -> str:
        """``STATUS`` or ``STATUS/REASON``, as frozen labels are written."""
        return label_of(self.status, self.reason)

    @property
    def text(self) -> str | None:
        """The answer as text (BOM included), or None when it was not UTF-8."""
        return self.decoded.text

    @property
    def display_text(self) -> str:
        """The answer to show: its text, or for bytes that are not UTF-8 the text
        with U+FFFD in place of the bad bytes (spans index into it either way)."""
        decoded = self.decoded
        return decoded.text if decoded.text is not None else (decoded.lossy or "")

    @property
    def size(self) -> int:
        """UTF-16 code units (a lower bound when huge)."""
        return self.decoded.size

    @property
    def scoped(self) -> bool:
        """The request carries an access scope (the trace then has the access step)."""
        return self.request.scope is not None

    def __repr__(self) -> str:
        return f"<Verdict {self.label}>"
