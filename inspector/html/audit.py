"""``inspector audit --format html``: the audit as one page to attach to a review.

The article's figure (strict JSON, citation-only, contract: the cases each rung
lets through), the ladder (the cases past each check), the mismatches, and each
case's verdict with its first failure explained.  Everything is the audit's
report (``reports.audit``, ``CaseReport``, ``SuiteReport``): nothing of what a
rung, a match or a failure means is worked out here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..reports.audit import Audit
from ..reports.case import CaseReport
from ..reports.tones import Tone
from ..suites.load import Suite
from .page import bar, document, figure_bars, section, table, text

__all__ = ["audit_page", "verdict_html"]

_TONE_CLASS = {Tone.GOOD: "good", Tone.BAD: "bad", Tone.WARN: "warn"}


def _toned(words: str, tone: Tone) -> str:
    found = _TONE_CLASS.get(tone)
    return f'<span class="{found}">{text(words)}</span>' if found else text(words)


def _match(item: CaseReport) -> str:
    if item.known_regression:
        return '<span class="warn">✗ known regression</span>'
    if item.match is False:
        return '<span class="bad">✗ differs</span>'
    return '<span class="good">✓</span>' if item.match else "-"


def verdict_html(item: CaseReport) -> str:
    """What decided the verdict: the first failure explained and its fix, or what was accepted."""
    step, verdict = item.first_failure, item.verdict
    if verdict is None:
        return '<span class="bad">could not be loaded</span>'
    if step is None:
        accepted = "; ".join(f"{field} = {value}" for field, value in verdict.accepted.items())
        return f'<span class="good">accepted</span>: <code>{text(accepted)}</code>' if accepted else \
            '<span class="good">accepted</span>'
    claim = f" [{step.claim}]" if step.claim is not None else ""
    parts = [f"<b>{text(step.check.title)}</b>{text(claim)}: {text(step.explanation)}",
             f'<br><span class="muted">fix: {text(step.hint)}</span>']
    for callout in (item.citation_callout, item.lens_callout):
        if callout:
            parts.append(f'<br><span class="warn">{text(callout)}</span>')
    return "".join(parts)


def audit_page(suites: Sequence[Suite], result: Audit, status: dict[str, Any] | None, generator: str) -> str:
    summary = result.summary
    total = summary.total
    rungs = [(row.name, row.count, 0) for row in summary.rungs if row.id in ("strict_json", "citation_only",
                                                                            "contract")]
    figure = figure_bars(rungs, total, "the cases each rung accepts (the article's figure)")
    false_accepts = len(summary.citation_false_accepts)
    facts = [f"<li><b>cases</b>{total:,} in {len(suites):,} suite(s)</li>",
             f"<li><b>rungs</b>{text(' · '.join(f'{row.name} {row.count}/{total}' for row in summary.rungs))}</li>",
             f"<li><b>citation-only</b>{false_accepts:,} false accept(s): citation-only accepts, the contract "
             "rejects</li>",
             f"<li><b>labels</b>{len(summary.mismatched):,} verdict(s) differ from their frozen label, "
             f"{len(summary.known_regressions):,} known regression(s)</li>"]
    if summary.broken:
        facts.append(f'<li><b>broken</b><span class="bad">{len(summary.broken):,} case(s) could not be loaded'
                     "</span></li>")
    if status is not None and status.get("to_review"):
        facts.append(f"<li><b>review</b>{status['to_review']:,} case(s) to review</li>")
    ladder = table(("check", "code", "passed", ""), (
        (text(row.check.title), f"<code>{text(row.check.code)}</code>", f"{row.passed:,}/{total:,}",
         bar(row.passed, total, label=f"{row.passed}/{total}")) for row in summary.checks), numeric=(2,))
    first = [(text(row.check.title), f"<code>{text(row.check.code)}</code>", f"{row.failed:,}")
             for row in summary.checks if row.failed]
    body = [f'<ul class="facts">{"".join(facts)}</ul>', section("The rungs", figure),
            section("The ladder: cases past each check", ladder,
                    table(("check", "code", "cases stopped first here"), first, numeric=(2,)) if first else "")]
    if summary.mismatched:
        rows: list[tuple[str, ...]] = [(text(f"{item.suite.name}/{item.id}"), text(item.expected or "-"), text(item.actual),
                 verdict_html(item)) for item in summary.mismatched]
        body.append(section(f"{len(rows):,} case(s) differ from their frozen label",
                            table(("case", "expected", "actual", "why"), rows)))
    else:
        body.append(section("Mismatches", '<p class="good">every verdict matches its frozen label</p>'))
    by_suite: dict[str, list[CaseReport]] = {}
    for item in result.results:
        by_suite.setdefault(item.suite.name, []).append(item)
    for suite in suites:
        rows = []
        for item in by_suite.get(suite.name, []):
            baselines = " ".join(_toned(f"{baseline.name} {baseline.word}", baseline.tone)
                                 for baseline in item.baselines)
            rows.append((f'<code class="id">{text(item.id)}</code>', text(item.expected or "-"),
                         _toned(item.actual, item.actual_tone), _match(item), verdict_html(item),
                         f'<span class="muted">{baselines}</span>'))
        body.append(section(f"{suite.name} ({suite.path})",
                            table(("case", "expected", "actual", "match", "verdict", "rungs"), rows)))
    title = "inspector audit"
    subtitle = f"{total:,} case(s) of {', '.join(suite.name for suite in suites)}"
    return document(title, subtitle, body, generator)
