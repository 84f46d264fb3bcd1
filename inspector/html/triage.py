"""``inspector triage --format html``: a triage as one page to attach to an incident.

The facts, the comparison with ``--against`` first when given (how the answers
were generated, before and after, when that changed; the items paired, when
they are named: the flip table and McNemar's test; then the groups), the time
histogram (rejected in red; with ``--series`` also the largest rejection
groups' and each ``--by`` key's largest values', drawn by ``triage.series``),
the groups with their bars, the items and their trials (when records name their
items and some has two trials), the bad lines, and a few records of the largest
rejection groups with their first failing check explained.  The numbers are the
summary's (``triage.summary``, its ``stability``), the comparison the job
computed (``triage.job``: ``triage.compare``'s shifts, its ``items`` and
``settings``), the records' verdicts their case reports: drawn here, never
recomputed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..presentation.triage_examples import GroupExamples
from ..triage.compare import Comparison, Shift
from ..triage.groups import GroupKind
from ..triage.items import ItemComparison, Stability, item_text
from ..triage.pvalue import p_words
from ..triage.settings import SettingsComparison
from ..triage.summary import Group, Summary
from ..triage.timeline import Histogram, iso
from .audit import verdict_html
from .page import bar, document, section, table, text

__all__ = ["SHOWN_BAD", "SHOWN_ROWS", "triage_page"]

SHOWN_ROWS = 25  # a table's rows beyond which "N more" is said (the JSON has them all)
SHOWN_BAD = 100
SHOWN_SERIES = 8  # with --series: each --by key's largest values drawn over time
SHOWN_VALUES = 4  # a setting's values shown per run, the most records first (the JSON lists 20)
SHOWN_ITEMS = 5  # a flip's first item ids shown (the JSON lists 20)


def _share(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.1%}"


def _more(rows: list[Any], hidden: int, width: int) -> None:
    if hidden > 0:
        rows.append((f'<span class="muted">… {hidden:,} more (--format json lists every one)</span>',
                     *([""] * (width - 1))))


def _name(group: Group | Shift) -> str:
    return f'<code class="id">{text(group.name)}</code>'


def _groups(title: str, groups: list[Group]) -> str:
    top = max((group.records for group in groups), default=0)
    rows = [(_name(group), f"{group.records:,}", _share(group.rate), bar(group.records, top))
            for group in groups[:SHOWN_ROWS]]
    _more(rows, len(groups) - SHOWN_ROWS, 4)
    return section(title, table(("group", "records", "rate", ""), rows, numeric=(1, 2)), level=3)


def _split(title: str, groups: list[Group]) -> str:
    """A scope's or --by value's groups: each a population, its rejected part drawn red."""
    top = max((group.records for group in groups), default=0)
    rows = []
    for group in groups[:SHOWN_ROWS]:
        checks = sorted(((n, s) for s, n in (group.by_check or {}).items() if s != "ACCEPT"), reverse=True)
        rows.append((_name(group), f"{group.records:,}", _share(group.rate), f"{group.rejected or 0:,}",
                     _share(group.rejected_rate), bar(group.records, top, part=group.rejected or 0),
                     text(", ".join(f"{s} {n:,}" for n, s in checks[:3]) or "-")))
    _more(rows, len(groups) - SHOWN_ROWS, 7)
    return section(title, table(("group", "records", "share", "rejected", "rejected %", "", "first checks"), rows,
                                numeric=(1, 2, 3, 4)), level=3)


def _bars_svg(histogram: Histogram, title: str, height: int = 180, width: int = 960) -> str:
    """A histogram's bars as inline SVG: records per bucket, the rejected part in red, to its own scale."""
    bars = histogram.bars
    left, bottom = 56, 36
    top = max((bucket.records for bucket in bars), default=0) or 1
    step = (width - left - 8) / max(1, len(bars))
    plot = height - bottom - 8
    parts = [f'<svg width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img">'
             f"<title>{text(title)}</title>",
             f'<text x="{left - 6}" y="14" text-anchor="end" font-size="12" fill="#5b6473">{top:,}</text>',
             f'<text x="{left - 6}" y="{height - bottom}" text-anchor="end" font-size="12" fill="#5b6473">0</text>',
             f'<line x1="{left}" y1="{height - bottom}" x2="{width - 8}" y2="{height - bottom}" stroke="#d8dde5"/>']
    for number, bucket in enumerate(bars):
        x = left + number * step
        full = plot * bucket.records / top
        red = full * bucket.rejected / bucket.records if bucket.records else 0.0
        y = height - bottom - full
        parts.append(f'<g><title>{text(iso(bucket.start))}: {bucket.records:,} records, {bucket.rejected:,} '
                     f'rejected</title><rect x="{x + 1:.1f}" y="{y:.1f}" width="{max(1.0, step - 2):.1f}" '
                     f'height="{full - red:.1f}" fill="#2f81c7"/><rect x="{x + 1:.1f}" y="{y + full - red:.1f}" '
                     f'width="{max(1.0, step - 2):.1f}" height="{red:.1f}" fill="#c62828"/></g>')
    if bars:
        parts.append(f'<text x="{left}" y="{height - 12}" font-size="12" fill="#5b6473">'
                     f"{text(iso(bars[0].start))}</text>"
                     f'<text x="{width - 8}" y="{height - 12}" text-anchor="end" font-size="12" fill="#5b6473">'
                     f"{text(iso(bars[-1].start))}</text>")
    parts.append("</svg>")
    return "".join(parts)


def _histogram(summary: Summary) -> str:
    from ..triage.timeline import unread_words

    histogram = summary.histogram
    unread = unread_words(summary.tally.bad_ts)
    warning = f"<p><b>{text(unread)}</b></p>" if unread else ""
    if histogram is None:
        return section("Over time", f'<p class="muted">no record has a readable ts</p>{warning}')
    said = [f"records per {histogram.bucket}, the rejected part in red; {summary.tally.no_ts:,} record(s) without "
            "a readable ts"]
    if histogram.outliers:
        said.append(histogram.outlier_words())
    return section("Over time", _bars_svg(histogram, f"records per {histogram.bucket}, rejected in red"),
                   f'<p class="muted">{text("; ".join(said))}</p>{warning}')


def _group_histograms(summary: Summary, groups: Sequence[Group]) -> str:
    """``--series``: the time histogram of each of ``groups``, on the whole triage's bars (``triage.series``)."""
    if summary.histogram is None or not groups:
        return ""
    from ..triage.series import Buckets

    buckets = Buckets(summary)
    parts = []
    for group in groups:
        found = buckets.of(group)
        if found is None:
            continue
        drawn = sum(bar.records for bar in found.bars)
        parts.append(section(f"{group.name}: {drawn:,} of its {group.records:,} record(s) drawn",
                             _bars_svg(found, f"{group.name} per {found.bucket}", height=120), level=3))
    return section(f"Over time, per group (per {summary.histogram.bucket}, each to its own scale)", *parts)


def _p_words(p: float | None) -> str:
    return "-" if p is None else text(p_words(p))


def _values(counts: dict[str | None, int]) -> str:
    """A setting's values in one run, each with its records (the most first; ``(none)``: without it)."""
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0] is None, item[0] or ""))
    shown = [('<span class="muted">(none)</span>' if value is None else f'<code class="id">{text(value)}</code>')
             + f" ({count:,})" for value, count in ordered[:SHOWN_VALUES]]
    if len(ordered) > SHOWN_VALUES:
        shown.append(f'<span class="muted">+{len(ordered) - SHOWN_VALUES:,} more</span>')
    return ", ".join(shown)


def _settings(found: SettingsComparison) -> str:
    """How the answers were generated: the settings whose values differ, before and after, each value with its
    records; those the runs share in one muted line, with what verified both now."""
    rows = [(f"<b>{text(setting.name)}</b>", _values(setting.before), _values(setting.after))
            for setting in found.settings if setting.differs]
    same = [setting for setting in found.settings if not setting.differs]
    shared = [f"{text(setting.name)}: {_values(setting.after)}" for setting in same if setting.mixed]
    shared += [f"{text(setting.name)} <code class=\"id\">{text(next(iter(setting.after)))}</code>"
               for setting in same if not setting.mixed]
    said = ([f"the same in both: {'; '.join(shared)}"] if shared else []) + [f"verified now by {text(found.verifier)}"]
    if found.registry_digest is not None:
        said.append(f"registry sha256 {text(found.registry_digest)}…")
    after, before = found.other
    if after or before:
        said.append(f"records of settings past the bound, not in the values: {before:,} before, {after:,} after")
    return section("How the answers were generated", table(("setting (differs)", "before", "after"), rows),
                   f'<p class="muted">{"; ".join(said)}</p>', level=3)


_FLIP_TONE = {"regressed": "bad", "fixed": "good", "changed": "", "same": "muted"}


def _items(found: ItemComparison) -> str:
    """Two runs item by item: per population the paired outcomes and McNemar's p, then the flip table (the
    regressions first, in red)."""
    rows = []
    for paired in found.populations[:SHOWN_ROWS + 1]:
        before, after = paired.both + paired.regressed, paired.both + paired.fixed
        rates = (f"{_share(before / paired.paired)} → {_share(after / paired.paired)}" if paired.paired else "-")
        strong = paired.p < 0.01
        rows.append((f'<code class="id">{text(paired.group)}</code>', f"{paired.paired:,}", f"{paired.both:,}",
                     f'<b class="bad">{paired.regressed:,}</b>' if paired.regressed else "0",
                     f'<span class="good">{paired.fixed:,}</span>' if paired.fixed else "0",
                     f"{paired.neither:,}", rates,
                     f"<b>{_p_words(paired.p)}</b>" if strong else f'<span class="muted">{_p_words(paired.p)}</span>',
                     f"{paired.only_before:,} before, {paired.only_after:,} after"))
    _more(rows, len(found.populations) - SHOWN_ROWS - 1, 9)
    overall = found.overall
    flips = []
    for flip in found.flips[:SHOWN_ROWS]:
        tone = _FLIP_TONE[flip.kind]
        kind = f'<b class="bad">{flip.kind}</b>' if flip.kind == "regressed" else \
            f'<span class="{tone}">{flip.kind}</span>' if tone else flip.kind
        first = ", ".join(f'<code class="id">{text(item_text(key))}</code>' for key in flip.first[:SHOWN_ITEMS])
        if flip.items > SHOWN_ITEMS:
            first += f' <span class="muted">+{flip.items - min(len(flip.first), SHOWN_ITEMS):,} more</span>'
        flips.append((text(flip.before), f'<span class="{tone}">{text(flip.after)}</span>' if tone else
                      text(flip.after), kind, f"{flip.items:,}", first))
    _more(flips, len(found.flips) - SHOWN_ROWS, 5)
    changed = sum(flip.items for flip in found.flips if flip.kind != "same")
    untracked = ""
    if any(found.untracked):
        untracked = (f'<p class="warn">records of items past the bound, not paired: {found.untracked[1]:,} before, '
                     f"{found.untracked[0]:,} after</p>")
    return section(
        "Item by item",
        '<p class="muted">the items of both runs paired: overall each item whatever its population, then per --by '
        "value the item within it; an item is accepted in a run when more than half its trials were; McNemar's "
        "exact test, two-sided, of the items accepted before only against those accepted after only</p>",
        table(("population", "paired", "accepted both", "before only", "after only", "neither",
               "accepted before → after", "p (McNemar)", "in one run only"), rows, numeric=(1, 2, 3, 4, 5, 7)),
        f"<p>{changed:,} of {overall.paired:,} paired item(s) flipped; an item's verdict: ACCEPT when accepted, "
        "else its most frequent rejection status; the items that went from ACCEPT to a rejection first</p>",
        table(("before", "after", "kind", "items", "first items"), flips, numeric=(3,)) if flips else "",
        untracked, level=3)


def _comparison(summary: Summary, baseline: Summary, against: Sequence[str], shifts: Comparison) -> str:
    significant = shifts.significant
    rows = []
    for shift in shifts[:SHOWN_ROWS]:
        change = shift.change
        if change is None:
            said = '<b>new</b>' if shift.new else '<b>vanished</b>'
        else:
            tone = "bad" if shift.worse else "good" if shift.significant else ""
            weight = "b" if shift.significant else "span"
            said = f'<{weight} class="{tone}">{text(shift.change_words())}</{weight}>'
        p = shift.p
        row = [_name(shift), said, *map(text, shift.rates_words()),
               _p_words(p) + ("" if p is None or shift.tested else " (few)")]
        if shifts.items is not None:  # a --by value's paired items beside its rate change
            paired = shifts.paired(shift)
            row.append("" if paired is None else
                       f'<span class="{"bad" if paired.regressed > paired.fixed else "good"}">'
                       f"{text(paired.beside_words())}</span>")
        rows.append((*row, f"{shift.before.count:,}/{shift.before.of:,} → {shift.after.count:,}/{shift.after.of:,}"))
    columns = ("group", "change", "before", "after", "p",
               *(("items lost, gained",) if shifts.items is not None else ()), "counts before → after")
    _more(rows, len(shifts) - SHOWN_ROWS, len(columns))
    title = (f"Against {', '.join(against)}: {baseline.records:,} records before, {summary.records:,} after; "
             f"{len(significant):,} significant change(s) first")
    note = (f'<p class="muted">two-proportion z-test, pooled, two-sided, significant when {text(shifts.rule)}; '
            "a scope's or --by value's rate is the share of its own records rejected, any other group's its share "
            "of all records; (few): too few records on a side for the test"
            + ("; items lost, gained: a --by value's items in both runs accepted before only, after only, and "
               "McNemar's p" if shifts.items is not None else "") + "</p>")
    groups = table(columns, rows, numeric=(2, 3, 4))
    settings, items = shifts.settings, shifts.items
    if settings is None and items is None:
        return section(title, note, groups)
    return section(title, _settings(settings) if settings is not None else "",
                   _items(items) if items is not None else "", section("Group by group", note, groups, level=3))


def _stability(found: Stability) -> str:
    """The items' trials, per group: items, trials, share accepted, the unstable items, how many distinct
    verdicts items saw, pass@k and pass^k (for the ks every item of the first group has trials enough for)."""
    ks = found.groups[0].ks
    rows = []
    for group in found.groups[:SHOWN_ROWS + 1]:
        unstable = group.unstable
        share = _share(unstable / group.items if group.items else 0.0)
        rows.append((f'<code class="id">{text(group.group)}</code>', f"{group.items:,}", f"{group.trials:,}",
                     _share(group.accepted / group.trials if group.trials else 0.0),
                     f'<span class="warn">{unstable:,} ({share})</span>' if unstable else f"0 ({share})",
                     " · ".join(f"{seen}: {count:,}" for seen, count in sorted(group.distinct.items())),
                     *(_share(group.pass_at(k)) if k in group.ks else "-" for k in ks),
                     *(_share(group.pass_hat(k)) if k in group.ks else "-" for k in ks if k > 1)))
    width = 6 + len(ks) + len([k for k in ks if k > 1])
    _more(rows, len(found.groups) - SHOWN_ROWS - 1, width)
    notes = []
    if found.untracked:
        from ..triage.tally import ITEMS_KEPT

        notes.append(f"{found.untracked:,} record(s) of items past the first {ITEMS_KEPT:,} not tracked")
    if found.without_item:
        notes.append(f"{found.without_item:,} record(s) without the --item path: each its own item, not tracked")
    return section(
        "Items and their trials",
        f'<p class="muted">an item: {text(found.item)}; its trials: its records in the run (with --by, within its '
        "population); unstable: its trials' verdicts differ; distinct verdicts: items by how many verdict statuses "
        "their trials saw; pass@k: at least one of k trials accepted, pass^k: all k (unbiased estimators, averaged "
        "over the items)</p>",
        table(("group", "items", "trials", "accepted", "unstable items", "distinct verdicts",
               *(f"pass@{k}" for k in ks), *(f"pass^{k}" for k in ks if k > 1)), rows,
              numeric=tuple(range(1, 5)) + tuple(range(6, width))),
        f'<p class="warn">{text("; ".join(notes))}</p>' if notes else "")


def _bad_lines(summary: Summary) -> str:
    tally = summary.tally
    if not tally.bad_lines:
        return ""
    kinds = ", ".join(f"{kind} {count:,}" for kind, count in sorted(tally.bad_kinds.items()))
    rows = [(f"<code>{text(f'{file}:{line}')}</code>", text(error)) for file, line, error in tally.bad[:SHOWN_BAD]]
    hidden = tally.bad_lines - len(rows)
    _more(rows, hidden, 2)
    return section(f"{tally.bad_lines:,} bad line(s) (the group bad)", f"<p>{text(kinds)}</p>",
                   table(("where", "why"), rows))


def _examples(examples: Sequence[GroupExamples]) -> str:
    if not examples:
        return ""
    parts = []
    for found in examples:
        group = found.group
        records = [f'<div class="record"><p><code class="id">{text(report.id)}</code> '
                   f'<span class="bad">{text(report.actual)}</span></p><p>{verdict_html(report)}</p>'
                   + (f'<p class="muted mono">{text(report.note)}</p>' if report.note else "") + "</div>"
                   for report in found.reports]
        if found.problem:
            records.append(f'<p class="warn">{text(found.problem)}</p>')
        parts.append(section(f"{group.name}: {group.records:,} record(s), the first {len(found.reports)}",
                             *records, level=3))
    return section("Records of the largest rejection groups", *parts)


def triage_page(summary: Summary, baseline: Summary | None, against: Sequence[str],
                examples: Sequence[GroupExamples], generator: str, comparison: Comparison | None = None) -> str:
    """The page; with ``--against``, ``baseline`` and the ``comparison`` the job computed of the two (its shifts,
    items and settings: drawn, not computed again)."""
    tally = summary.tally
    records = summary.records
    false_accepts = summary.group("false_accept:citation_only")
    facts = [("logs", ", ".join(summary.logs)), ("registry", summary.registry or "-"),
             ("counted", f"{tally.lines:,} lines · {records:,} records · {tally.bad_lines:,} bad lines"),
             ("rungs", " · ".join(f"{name} {passed:,}/{records:,}" for _, name, passed in summary.rungs)),
             ("citation-only", f"{false_accepts.records if false_accepts else 0:,} false accept(s)"),
             ("blame", "; ".join(f"{group.name} {group.records:,}" for group in summary.of_kind(GroupKind.BLAME))
              or "no rejections")]
    if summary.options.since is not None or summary.options.until is not None:
        facts.append(("window", f"{tally.outside:,} records outside the window left out, {tally.undated:,} "
                                "without a readable ts left out"))
    body = ['<ul class="facts">' + "".join(f"<li><b>{text(label)}</b>{text(value)}</li>" for label, value in facts)
            + "</ul>"]
    for file, line, problem in tally.broken:
        body.append(f'<p class="bad">{text(f"{file} broke off after line {line:,}: {problem}")}</p>')
    if baseline is not None and comparison is not None:
        body.append(_comparison(summary, baseline, against, comparison))
    body.append(_histogram(summary))
    if summary.options.series:  # asked for: the largest rejection groups' and each --by value's histograms
        shown = [found.group for found in examples]
        for key in summary.options.by:
            shown.extend([group for group in summary.of_key(key) if not group.other][:SHOWN_SERIES])
        body.append(_group_histograms(summary, shown))
    tables = []
    for kind, title in ((GroupKind.CHECK, "By check (verdict status)"), (GroupKind.REASON, "By sub-reason"),
                        (GroupKind.CLAIM, "By failing claim: check, field, cited source"),
                        (GroupKind.CATEGORY, "By abstention category")):
        if groups := summary.of_kind(kind):
            tables.append(_groups(title, groups))
    if scopes := summary.of_kind(GroupKind.SCOPE):
        tables.append(_split("By request scope: service / environment / revision", scopes))
    for key in summary.options.by:
        groups = summary.of_key(key)
        tables.append(_split(f"By {key}", groups) if groups else
                      section(f"By {key}", '<p class="muted">no records</p>', level=3))
    body.append(section("Groups", *tables))
    if summary.stability is not None:
        body.append(_stability(summary.stability))
    body.append(_bad_lines(summary))
    body.append(_examples(examples))
    return document("inspector triage", f"{records:,} records of {', '.join(summary.logs)}", body, generator)
