"""The text of ``inspector triage --summary``: the facts, the group tables, the
timeline, the bad lines and the comparison ``--against``, fitted to the terminal
like ``audit``'s tables.  rich is imported when the summary is printed."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..contract.text import visible
from ..presentation.bars import bar
from .output import report_console
from .table import BAR_WIDTH, FACT_LABEL_WIDTH, TableColumn, fitted, hanging

if TYPE_CHECKING:
    from ..triage.compare import Comparison, Shift
    from ..triage.items import ItemComparison
    from ..triage.settings import SettingsComparison
    from ..triage.pivot import Pivot
    from ..triage.summary import Group, Summary

__all__ = ["SHOWN_BAD", "SHOWN_ROWS", "print_summary"]

SHOWN_ROWS = 20  # rows of a text table beyond which "N more" is said (the JSON has them all)
SHOWN_BAD = 20


def _count(n: int) -> str:
    return f"{n:,}"


def _share(rate: float) -> str:
    return f"{rate:.1%}"


GROUP_COLUMNS = (
    TableColumn("group", min_width=16),
    TableColumn("records"),
    TableColumn("rate"),
    TableColumn("", priority=1, min_width=5, width=BAR_WIDTH),
)
SPLIT_COLUMNS = (
    TableColumn("group", min_width=16),
    TableColumn("records"),
    TableColumn("share", priority=2),
    TableColumn("rejected"),
    TableColumn("rejected %"),
    TableColumn("first checks", priority=1, min_width=12),
)
CHANGE_COLUMNS = (
    TableColumn("group", min_width=16),
    TableColumn("change"),
    TableColumn("before"),
    TableColumn("after"),
    TableColumn("p"),
    TableColumn("z", priority=2),
    TableColumn("counts before → after", priority=1),
)
PAIRED_BESIDE = TableColumn("items lost, gained", priority=1)  # a --by value's items in both runs, beside its rate
SHOWN_NAMES = 8  # the names of a line of new or vanished groups beyond which "+N more" is said
ANNOTATED_COLUMNS = (
    TableColumn("group", min_width=16),
    TableColumn("records"),
    TableColumn("annotated"),
    TableColumn("false rejections"),
    TableColumn("false acceptances", priority=1),
)
TIME_COLUMNS = (
    TableColumn("from"),
    TableColumn("records"),
    TableColumn("rejected"),
    TableColumn("", priority=1, min_width=5, width=BAR_WIDTH),
)


def print_summary(summary: Summary, baseline: Summary | None, against: Sequence[str], crossed: Pivot | None = None,
                  comparison: Comparison | None = None) -> None:
    """The summary as text; with ``baseline`` (``--against``'s summary) the ``comparison`` the job made of the
    two first (``triage.job.JobResult.comparison``)."""
    from rich.text import Text

    from ..triage.groups import GroupKind

    console = report_console()
    width = console.width
    tally = summary.tally
    records = summary.records
    if baseline is not None and comparison is not None:  # what changed first: the rest is the logs' own summary
        _print_comparison(console, summary, baseline, comparison, against, width)
    # Each part is named as --export takes it (rung:…, false_accept:…, blame:…).
    rungs = [f"rung:{rung} ({name}) {passed:,}/{records:,}" for rung, name, passed in summary.rungs]
    false_accepts = summary.group("false_accept:citation_only")
    facts = [
        ("triage", " · ", [visible(", ".join(summary.logs)), f"{tally.lines:,} lines", f"{records:,} records",
                           f"{tally.bad_lines:,} bad lines",
                           *([f"{len(tally.broken):,} log(s) broke off"] if tally.broken else [])]),
        ("rungs", " · ", [*rungs, f"false_accept:citation_only (citation-only false accepts) "
                                  f"{false_accepts.records if false_accepts else 0:,}"]),
        ("blame", "; ", [f"{group.name} {group.records:,}" for group in summary.of_kind(GroupKind.BLAME)]
         or ["no rejections"]),
    ]
    if summary.options.since is not None or summary.options.until is not None:
        facts.append(("window", "; ", [f"{tally.outside:,} records outside the window left out",
                                       f"{tally.undated:,} without a readable ts left out"]))
    for label, separator, parts in facts:
        for line in hanging(label.ljust(FACT_LABEL_WIDTH), parts, width, separator):
            console.print(line)

    for kind, title in ((GroupKind.CHECK, "by check (verdict status)"), (GroupKind.REASON, "by sub-reason"),
                        (GroupKind.CLAIM, "by failing claim: check, field, cited source"),
                        (GroupKind.CATEGORY, "by abstention category")):
        groups = summary.of_kind(kind)
        if groups:
            console.print(_group_table(title, groups, width))
    scopes = summary.of_kind(GroupKind.SCOPE)
    if scopes:
        console.print(_split_table("by request scope: service / environment / revision", scopes, width))
    capped = summary.capped
    for key in summary.options.by:
        groups = summary.of_key(key)
        values = [group for group in groups if not group.other]
        console.print(_split_table(visible(f"by {key}"), values, width, [g for g in groups if g not in values])
                      if groups else Text(visible(f"by {key}: no records")))
        if key in capped:
            from ..triage.groups import other_name

            kept = len(summary.tally.by_values.get(key, ()))
            console.print(Text(visible(
                f"by {key}: more than {kept:,} distinct values: the {kept:,} heaviest are groups, "
                f"the other values' {capped[key]:,} record(s) are the group {other_name(key)}"), "yellow"))
    if summary.stability is not None:
        _print_stability(console, summary, width)
    if crossed is not None:
        console.print(_pivot_table(crossed, width))
    if summary.histogram is not None:
        console.print(_time_table(summary, width))
    elif records:
        console.print(Text("timeline: no record has a readable ts"))
    if tally.bad_ts:
        from ..triage.timeline import unread_words

        for line in hanging("time".ljust(FACT_LABEL_WIDTH), unread_words(tally.bad_ts).split(" "), width, " ",
                            lead_style="bold yellow"):
            console.print(line)
    for file, at, problem in tally.broken:
        console.print(Text(visible(f"{file} broke off after line {at:,}: {problem}"), "bold red"))
    if tally.envelopes:
        for line in hanging("raw".ljust(FACT_LABEL_WIDTH),
                            (f"the raw path reaches a chat message, not the answer, in {tally.envelopes:,} record(s) "
                             "(role, content, parts...): their verdicts are of the message, not of the answer; try "
                             "a path into its content, or a --log-format preset (inspector formats)").split(" "),
                            width, " ", lead_style="bold yellow"):
            console.print(line)
    if tally.skipped:
        rows = ", ".join(f"{what} {count:,}" for what, count in sorted(tally.skipped.items(), key=lambda i: -i[1]))
        for line in hanging("skipped".ljust(FACT_LABEL_WIDTH),
                            visible(f"{sum(tally.skipped.values()):,} row(s) that are not model answers: {rows}")
                            .split(" "), width, " ", lead_style="bold"):
            console.print(line)
    if tally.bad_lines:
        kinds = ", ".join(f"{kind} {count:,}" for kind, count in sorted(tally.bad_kinds.items()))
        console.print(Text(visible(f"{tally.bad_lines:,} bad line(s), the group bad: {kinds}"), "bold red"))
        for file, at, error in tally.bad[:SHOWN_BAD]:
            console.print(Text(visible(f"  {file}:{at}: {error}")))
        if tally.bad_lines > SHOWN_BAD:
            listed = "--format json lists every one" if not tally.bad_more else \
                f"--format json lists the first {len(tally.bad):,}, --bad-lines FILE every one"
            console.print(Text(f"  … {tally.bad_lines - SHOWN_BAD:,} more ({listed})", "dim"))
    if summary.annotations is not None:
        _print_annotations(console, summary, width)
    if summary.groups:
        console.print(Text("every name above (ACCEPT, reason:…, claim:…, scope:…, rung:…, blame:…) is a group "
                           "--export NAME --out SUITE writes; --format json lists every group", "dim"))


def _print_comparison(console: Any, summary: Summary, baseline: Summary, shifts: Comparison, against: Sequence[str],
                      width: int) -> None:
    """``--against``: the generation settings, every group's rate before and after (significant changes first,
    a population's paired items beside it), the items paired, new and vanished groups called out
    (``triage.compare``)."""
    from rich.text import Text

    for file, at, problem in baseline.tally.broken:
        console.print(Text(visible(f"against: {file} broke off after line {at:,}: {problem}"), "bold red"))
    if shifts.settings is not None:
        _print_settings(console, shifts.settings, width)
    significant = shifts.significant
    title = visible(f"against {', '.join(against)}: {baseline.records:,} records before, {summary.records:,} after; "
                    f"{len(significant):,} significant change(s) first (two-proportion z-test, {shifts.rule})")
    console.print(_change_table(title, shifts, width))
    for line in hanging("rates".ljust(FACT_LABEL_WIDTH), [
            "a scope's or --by value's: the share of its own records rejected",
            "any other group's: its share of all records (bad: of the lines)",
            "(few): too few records on a side for the test (never significant)"], width, "; ", lead_style="dim"):
        console.print(line)
    if shifts.items is not None:
        _print_items(console, shifts.items, width)
    for word, found in (("new", [shift for shift in shifts if shift.new]),
                        ("vanished", [shift for shift in shifts if shift.vanished])):
        if found:  # the largest first
            found.sort(key=lambda shift: -(shift.after if shift.new else shift.before).count
                       - (shift.after if shift.new else shift.before).of * shift.population)
            names = [f"{shift.name} ({_size(shift.after if shift.new else shift.before, shift.population)})"
                     for shift in found[:SHOWN_NAMES]]
            if len(found) > SHOWN_NAMES:
                names.append(f"+{len(found) - SHOWN_NAMES:,} more")
            for line in hanging(word.ljust(FACT_LABEL_WIDTH), [visible(name) for name in names], width, "; "):
                console.print(line)


def _print_settings(console: Any, found: SettingsComparison, width: int) -> None:
    """How the answers were generated, before and after: the settings that differ first, each value with its
    records; those the runs share on one line."""
    def values(counts: dict[str | None, int]) -> str:
        ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0] is None, item[0] or ""))
        shown = [f"{'(none)' if value is None else value} ({count:,})" for value, count in ordered[:4]]
        return ", ".join(shown + ([f"+{len(ordered) - 4:,} more"] if len(ordered) > 4 else []))

    parts = [f"{setting.name}: {values(setting.before)} → {values(setting.after)}"
             for setting in found.settings if setting.differs]
    same = [setting for setting in found.settings if not setting.differs]
    parts += [f"{setting.name}: {values(setting.after)} in both" for setting in same if setting.mixed]
    unmixed = [f"{setting.name} {next(iter(setting.after))}" for setting in same if not setting.mixed]
    if unmixed:
        parts.append(f"the same in both: {', '.join(unmixed)}")
    parts.append(f"verified now by {found.verifier}")
    for line in hanging("settings".ljust(FACT_LABEL_WIDTH), [visible(part) for part in parts], width, "; ",
                        lead_style="bold"):
        console.print(line)


def _print_stability(console: Any, summary: Summary, width: int) -> None:
    """The items' trials: per group the items, trials, share accepted, the unstable items, pass@k and pass^k."""
    from rich.text import Text

    found = summary.stability
    assert found is not None  # (asked by the caller)
    ks = found.groups[0].ks
    columns = (TableColumn("group", min_width=16), TableColumn("items"), TableColumn("trials"),
               TableColumn("accepted"), TableColumn("unstable"),
               *(TableColumn(f"pass@{k}", priority=2 if k > 1 else 0) for k in ks),
               *(TableColumn(f"pass^{k}", priority=1 if k > 1 else 0) for k in ks if k > 1))
    rows: list[dict[str, Any]] = []
    for group in found.groups[:SHOWN_ROWS + 1]:
        unstable = group.unstable
        rows.append({"group": Text(group.group), "items": Text(_count(group.items)), "trials": Text(_count(group.trials)),
                     "accepted": Text(_share(group.accepted / group.trials if group.trials else 0.0)),
                     "unstable": Text(f"{unstable:,} ({_share(unstable / group.items if group.items else 0.0)})",
                                      "yellow" if unstable else ""),
                     **{f"pass@{k}": Text(_share(group.pass_at(k)) if k in group.ks else "-") for k in ks},
                     **{f"pass^{k}": Text(_share(group.pass_hat(k)) if k in group.ks else "-") for k in ks if k > 1}})
    _more(rows, len(found.groups) - SHOWN_ROWS - 1, columns)
    console.print(fitted(visible(f"items and their trials (an item: {found.item}); unstable: its trials' verdicts "
                                 "differ; pass@k: at least one of k accepted, pass^k: all k"), columns, rows, width))
    notes = []
    if found.untracked:
        from ..triage.tally import ITEMS_KEPT

        notes.append(f"{found.untracked:,} record(s) of items past the first {ITEMS_KEPT:,} not tracked")
    if found.without_item:
        notes.append(f"{found.without_item:,} record(s) without the --item path: each its own item, not tracked")
    for line in hanging("items".ljust(FACT_LABEL_WIDTH), notes, width, "; ", lead_style="bold yellow"):
        console.print(line)


FLIP_COLUMNS = (
    TableColumn("before"),
    TableColumn("after"),
    TableColumn("items"),
    TableColumn("first items", priority=1, min_width=12),
)
PAIRED_COLUMNS = (
    TableColumn("group", min_width=16),
    TableColumn("paired"),
    TableColumn("accepted before → after"),
    TableColumn("lost"),
    TableColumn("gained"),
    TableColumn("p (McNemar)"),
    TableColumn("one run only", priority=1),
)


def _print_items(console: Any, found: ItemComparison, width: int) -> None:
    """``--against`` with named items: the flip table (regressions first) and per population the paired
    outcomes with McNemar's exact p."""
    from rich.text import Text

    from ..triage.items import item_text
    rows: list[dict[str, Any]] = []
    changed = [flip for flip in found.flips if flip.kind != "same"]
    for flip in changed[:SHOWN_ROWS]:
        style = "red" if flip.kind == "regressed" else "green" if flip.kind == "fixed" else ""
        rows.append({"before": Text(flip.before), "after": Text(flip.after, style), "items": Text(_count(flip.items)),
                     "first items": Text(visible(", ".join(item_text(key) for key in flip.first[:3])))})
    _more(rows, len(changed) - SHOWN_ROWS, FLIP_COLUMNS)
    same = sum(flip.items for flip in found.flips if flip.kind == "same")
    overall = found.overall
    console.print(fitted(f"items that flipped: {sum(flip.items for flip in changed):,} of {overall.paired:,} paired "
                         f"(the same verdict: {same:,}); an item's verdict: ACCEPT when more than half its trials "
                         "were, else its most frequent rejection", FLIP_COLUMNS, rows, width)
                  if rows else Text(f"items: {overall.paired:,} paired, none flipped"))
    rows = []
    for paired in found.populations[:SHOWN_ROWS + 1]:
        before = paired.both + paired.regressed
        after = paired.both + paired.fixed
        rows.append({"group": Text(paired.group), "paired": Text(_count(paired.paired)),
                     "accepted before → after": Text(f"{before:,} → {after:,}"),
                     "lost": Text(_count(paired.regressed), "red" if paired.regressed else ""),
                     "gained": Text(_count(paired.fixed), "green" if paired.fixed else ""),
                     "p (McNemar)": Text(p_words(paired.p), "bold" if paired.p < 0.01 else "dim"),
                     "one run only": Text(f"{paired.only_before:,} before, {paired.only_after:,} after")})
    _more(rows, len(found.populations) - SHOWN_ROWS - 1, PAIRED_COLUMNS)
    console.print(fitted("items paired across the runs: lost (accepted before, not after) against gained, "
                         "McNemar's exact test", PAIRED_COLUMNS, rows, width))


def _print_annotations(console: Any, summary: Summary, width: int) -> None:
    """The reviewers' annotations (``triage.annotated``): the totals, the groups holding annotated records, the
    stale ones."""
    from rich.text import Text

    counts = summary.annotations
    parts = [f"{counts.annotated:,} record(s)", f"{counts.false_rejections:,} false rejection(s)",
             f"{counts.false_acceptances:,} false acceptance(s)"]
    if counts.not_counted:
        parts.append(f"{counts.not_counted:,} outside the window")
    if counts.stale:
        parts.append(f"{len(counts.stale):,} stale (the line changed)")
    for line in hanging("annotated".ljust(FACT_LABEL_WIDTH), parts, width, " · "):
        console.print(line)
    groups = [group for group in summary.groups if group.annotated]
    if groups:
        rows: list[dict[str, Any]] = [
            {"group": Text(group.name), "records": Text(_count(group.records)),
             "annotated": Text(_count(group.annotated or 0)),
             "false rejections": Text(_count(group.false_rejections or 0), "red" if group.false_rejections else ""),
             "false acceptances": Text(_count(group.false_acceptances or 0),
                                       "red" if group.false_acceptances else "")}
            for group in groups[:SHOWN_ROWS]]
        _more(rows, len(groups) - SHOWN_ROWS, ANNOTATED_COLUMNS)
        console.print(fitted("annotated records by group", ANNOTATED_COLUMNS, rows, width))
    for file, line, offset, problem in counts.stale[:SHOWN_BAD]:
        console.print(Text(visible(f"  stale annotation {file}:{line} (offset {offset}): {problem}"), "yellow"))


def _more(rows: list[dict[str, Any]], hidden: int, columns: Sequence[TableColumn]) -> None:
    from rich.text import Text

    if hidden > 0:
        rows.append({columns[0].header: Text(f"… {hidden:,} more", "dim")})


def _group_table(title: str, groups: list[Group], width: int) -> Any:
    from rich.text import Text

    top = max((group.records for group in groups), default=0)
    rows: list[dict[str, Any]] = []
    bar_width = min(BAR_WIDTH, max(5, width // 4))
    for group in groups[:SHOWN_ROWS]:
        rows.append({"group": Text(group.name, "green" if group.name == "ACCEPT" else ""),
                     "records": Text(_count(group.records)), "rate": Text(_share(group.rate)),
                     "": Text(bar(group.records, top, bar_width).rstrip(), "cyan")})
    _more(rows, len(groups) - SHOWN_ROWS, GROUP_COLUMNS)
    return fitted(title, GROUP_COLUMNS, rows, width)


def _split_table(title: str, groups: list[Group], width: int, tail: Sequence[Group] = ()) -> Any:
    """A table of scope or metadata groups, the first ``SHOWN_ROWS``, then ``tail`` (other:KEY)."""
    from rich.text import Text

    rows: list[dict[str, Any]] = []
    shown = groups[:SHOWN_ROWS]
    hidden = len(groups) - len(shown)
    for group in [*shown, *tail]:
        checks = sorted(((n, s) for s, n in (group.by_check or {}).items() if s != "ACCEPT"), reverse=True)
        rows.append({"group": Text(group.name), "records": Text(_count(group.records)),
                     "share": Text(_share(group.rate)), "rejected": Text(_count(group.rejected or 0)),
                     "rejected %": Text(_share(group.rejected_rate or 0.0)),
                     "first checks": Text(", ".join(f"{s} {n:,}" for n, s in checks[:3]) or "-")})
        if tail and shown and group is shown[-1]:
            _more(rows, hidden, SPLIT_COLUMNS)
            hidden = 0
    _more(rows, hidden, SPLIT_COLUMNS)
    return fitted(title, SPLIT_COLUMNS, rows, width)


def _pivot_table(crossed: Pivot, width: int) -> Any:
    """``--pivot A,B``: per pair of values, the records, the rejected and their share, the first checks."""
    from rich.text import Text

    a, b = crossed.keys
    share = visible(f"of {a}")
    columns = (TableColumn(visible(a), min_width=12), TableColumn(visible(b), min_width=12), TableColumn("records"),
               TableColumn(share), TableColumn("rejected"), TableColumn("rejected %"),
               TableColumn("first checks", priority=1, min_width=12))
    rows: list[dict[str, Any]] = []
    for cell in crossed.cells[:SHOWN_ROWS]:
        checks = sorted(((n, s) for s, n in cell.by_check.items() if s != "ACCEPT"), reverse=True)
        rows.append({columns[0].header: Text(cell.a), columns[1].header: Text(cell.b),
                     "records": Text(_count(cell.records)), share: Text(_share(cell.share)),
                     "rejected": Text(_count(cell.rejected)),
                     "rejected %": Text(_share(cell.rejected_rate)),
                     "first checks": Text(", ".join(f"{s} {n:,}" for n, s in checks[:3]) or "-")})
    _more(rows, len(crossed.cells) - SHOWN_ROWS, columns)
    return fitted(visible(f"{a} by {b}: each pair's records, their share of its {a} value's and the share of them rejected"),
                  columns, rows, width)


def _change_table(title: str, shifts: Comparison, width: int) -> Any:
    """The groups' changes, heaviest first; with paired items, a --by value's paired result beside its rate
    change (lost/gained of the items in both runs, McNemar's p)."""
    from rich.text import Text

    columns = CHANGE_COLUMNS if shifts.items is None else (*CHANGE_COLUMNS[:-1], PAIRED_BESIDE, CHANGE_COLUMNS[-1])
    rows: list[dict[str, Any]] = []
    for shift in shifts[:SHOWN_ROWS]:
        paired = shifts.paired(shift)
        change, z, p = shift.change, shift.z, shift.p
        said = shift.change_words()
        if change is None:
            style = "bold"
        else:
            worse = shift.worse
            style = ("bold red" if worse else "bold green") if shift.significant else "red" if worse else ""
        rows.append({"group": Text(shift.name), "change": Text(said, style),
                     **dict(zip(("before", "after"), map(Text, shift.rates_words()), strict=True)),
                     "p": Text("-" if p is None else p_words(p) + ("" if shift.tested else " (few)"),
                               "bold" if shift.significant else "dim"),
                     "z": Text("-" if z is None else f"{z:+.2f}"),
                     "counts before → after": Text(f"{shift.before.count:,}/{shift.before.of:,} → "
                                                   f"{shift.after.count:,}/{shift.after.of:,}"),
                     "items lost, gained": Text("" if paired is None else paired.beside_words(),
                                                "" if paired is None or paired.p >= 0.01 else "bold")})
    _more(rows, len(shifts) - SHOWN_ROWS, columns)
    return fitted(title, columns, rows, width)


def _size(side: Any, population: bool) -> str:
    """How big a new or vanished group is on the side it is on."""
    return f"{side.of:,} records" if population else f"{side.count:,}"


def _time_table(summary: Summary, width: int) -> Any:
    from rich.text import Text

    from ..triage.timeline import iso

    histogram = summary.histogram
    assert histogram is not None
    tally = summary.tally
    top = max((bucket.records for bucket in histogram.bars), default=0)
    bar_width = min(BAR_WIDTH, max(5, width // 4))
    rows: list[dict[str, Any]] = []
    bars = histogram.bars
    for bucket in bars:
        drawn = bar(bucket.records, top, bar_width).rstrip()
        bad = round(len(drawn) * bucket.rejected / bucket.records) if bucket.records else 0
        rows.append({"from": Text(iso(bucket.start)), "records": Text(_count(bucket.records)),
                     "rejected": Text(_count(bucket.rejected)),
                     "": Text.assemble((drawn[:len(drawn) - bad], "cyan"), (drawn[len(drawn) - bad:], "red"))})
    title = f"over time, per {histogram.bucket} (rejected in red); {tally.no_ts:,} record(s) without a readable ts"
    if histogram.outliers:
        title += f"; {histogram.outlier_words()}"
    return fitted(title, TIME_COLUMNS, rows, width)


def p_words(p: float) -> str:
    """``triage.pvalue.p_words``, imported when a report is printed (building the parser imports no triage)."""
    from ..triage.pvalue import p_words as words

    return words(p)
