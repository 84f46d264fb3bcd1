"""Predict mode: say the verdict you expect before a mutation is applied, and keep score.

The verdicts one can predict are the contract's own (``contract.checks.STATUSES``:
ACCEPT and every rejection code), each with one key, derived here once: the
first letter of the code's last word not taken yet (``j`` INVALID_JSON, ``c``
NO_CITATION, ``v`` VALUE_MISMATCH ...), else of its other words, else any of its
letters.  ACCEPT comes first (``a``), then the rejections in contract order.

``PredictScore`` is the session's state: whether predict mode is on, how many
predictions were right of how many, and the last one (what the screen reveals).
It is a value: each prediction gives a new score.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..contract.checks import STATUSES

__all__ = ["PREDICTIONS", "Prediction", "PredictScore", "prediction_keys"]

ACCEPT = "ACCEPT"


def prediction_keys(statuses: tuple[str, ...] = STATUSES) -> tuple[tuple[str, str], ...]:
    """(key, status) for every verdict, ACCEPT first: one lower-case letter each."""
    ordered = (ACCEPT, *(status for status in statuses if status != ACCEPT))
    taken: set[str] = set()
    keys = []
    for status in ordered:
        words = status.lower().split("_")
        candidates = [word[0] for word in reversed(words)] + [ch for ch in status.lower() if ch.isalpha()]
        letter = next((ch for ch in candidates if ch not in taken), None)
        if letter is None:  # pragma: no cover - ten codes never exhaust their own letters
            raise ValueError(f"no free key for {status}")
        taken.add(letter)
        keys.append((letter, status))
    return tuple(keys)


PREDICTIONS: tuple[tuple[str, str], ...] = prediction_keys()
KEY_OF: dict[str, str] = {status: key for key, status in PREDICTIONS}


@dataclass(frozen=True, slots=True)
class Prediction:
    """What was said before a change and what the contract then said."""

    said: str  # a status
    actual: str  # the verdict's status after the change
    what: str  # the change, in words (a mutant's name)

    @property
    def right(self) -> bool:
        return self.said == self.actual

    @property
    def words(self) -> str:
        """``you said ACCEPT, it is QUOTE_NOT_SUPPORTING: wrong``."""
        return f"you said {self.said}, it is {self.actual}: {'right' if self.right else 'wrong'}"


@dataclass(frozen=True, slots=True)
class PredictScore:
    """Predict mode for the session: on or off, the score, the last prediction."""

    on: bool = False
    right: int = 0
    total: int = 0
    last: Prediction | None = None

    def toggled(self) -> PredictScore:
        """On or off; the score is kept for the session."""
        return replace(self, on=not self.on)

    def scored(self, said: str, actual: str, what: str) -> PredictScore:
        if said not in KEY_OF:
            raise ValueError(f"{said!r} is not a verdict (known: {', '.join(KEY_OF)})")
        prediction = Prediction(said, actual, what)
        return replace(self, right=self.right + prediction.right, total=self.total + 1, last=prediction)

    @property
    def score(self) -> str:
        """``3/4 right``."""
        return f"{self.right}/{self.total} right"
