"""A suite to review: a copy of the article's suite with some frozen labels changed,
so that those cases' verdicts differ from their labels (what a reviewer walks)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from support import ARTICLE

# The article's first four cases, relabelled: three accepted answers labelled
# VALUE_MISMATCH, and real-quote-wrong-value (VALUE_MISMATCH) labelled ACCEPT.
RELABELLED = ("complete-answer", "reordered-claims", "one-field-request", "real-quote-wrong-value")
CLOCK = "2026-12-02T09:00:00Z"


def relabelled_article(folder: Path, name: str = "article.json", labels: Mapping[str, str] | None = None) -> Path:
    """A copy of the article's suite in ``folder`` with some labels changed: ``labels``
    (case id -> its new label), by default ``RELABELLED``'s, ACCEPT and VALUE_MISMATCH swapped."""
    document = json.loads(ARTICLE.read_text("utf-8"))
    for case in document["cases"]:
        if labels is not None:
            case["expected"] = labels.get(case["id"], case["expected"])
        elif case["id"] in RELABELLED:
            case["expected"] = "VALUE_MISMATCH" if case["expected"] == "ACCEPT" else "ACCEPT"
    path = folder / name
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", "utf-8")
    return path


def review_of(path: Path, reviewer: str = "alice"):  # noqa: ANN201 - a ReviewSession
    """A review session over the suite at ``path``, its clock fixed at ``CLOCK``."""
    from inspector.presentation.review import ReviewSession
    from inspector.presentation.session import Session
    from inspector.suites.load import load_suite

    return ReviewSession(Session([load_suite(path)]), reviewer, clock=lambda: CLOCK)
