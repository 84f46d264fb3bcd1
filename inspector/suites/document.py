"""A suite file's parts as inspector writes them (the lab's save, the triage's export)."""

from __future__ import annotations

from typing import Any

import msgspec

__all__ = ["source_document"]


def source_document(source: Any) -> dict[str, Any]:
    """A source as a suite file writes it (absent metadata left out)."""
    return {key: value for key, value in msgspec.to_builtins(source).items() if value is not None}
