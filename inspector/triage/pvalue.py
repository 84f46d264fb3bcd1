"""How a p-value is written, the same in the text report, the HTML page and the views: a group's
z-test (``compare``) and a population's McNemar test (``items``) alike."""

from __future__ import annotations

__all__ = ["p_words"]


def p_words(p: float) -> str:
    """Four decimals, ``<0.0001`` below."""
    return f"{p:.4f}" if p >= 0.0001 else "<0.0001"
