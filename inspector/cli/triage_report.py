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
    from ..triage.summary import Change, Group, Summary

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
    TableColumn("rejected"),
    TableColumn("rate"),
    TableColumn("first checks", priority=1, min_width=12),
)
CHANGE_COLUMNS = (
    TableColumn("group", min_width=16),
    TableColumn("change"),
    TableColumn("now"),
    TableColumn("against", priority=1),
    TableColumn("records now", priority=2),
    TableColumn("records against", priority=3),
)
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


def print_summary(summary: Summary, baseline: Summary | None, against: Sequence[str]) -> None:
    from rich.text import Text

    console = report_console()
    width = console.width
    tally = summary.tally
    records = summary.records
    rungs = [f"{name} {passed:,}/{records:,}" for _, name, passed in summary.rungs]
    false_accepts = summary.group("false_accept:citation_only")
    facts = [
        ("triage", " · ", [visible(", ".join(summary.logs)), f"{tally.lines:,} lines", f"{records:,} records",
                           f"{tally.bad_lines:,} bad lines",
                           *([f"{len(tally.broken):,} log(s) broke off"] if tally.broken else [])]),
        ("rungs", " · ", [*rungs, f"citation-only false accepts {false_accepts.records if false_accepts else 0:,}"]),
        ("blame", "; ", [f"{group.detail['blame']} {group.records:,}" for group in summary.of_kind("blame")]
         or ["no rejections"]),
    ]
    if summary.options.since is not None or summary.options.until is not None:
        facts.append(("window", "; ", [f"{tally.outside:,} records outside the window left out",
                                       f"{tally.undated:,} without a readable ts left out"]))
    for label, separator, parts in facts:
        for line in hanging(label.ljust(FACT_LABEL_WIDTH), parts, width, separator):
            console.print(line)

    for kind, title in (("check", "by check (verdict status)"), ("reason", "by sub-reason"),
                        ("claim", "by failing claim: check, field, cited source"),
                        ("category", "by abstention category")):
        groups = summary.of_kind(kind)
        if groups:
            console.print(_group_table(title, groups, width))
    scopes = summary.of_kind("scope")
    if scopes:
        console.print(_split_table("by request scope: service / environment / revision", scopes, width))
    capped = summary.capped
    for key in summary.options.by:
        groups = [group for group in summary.of_kind("by") if group.detail["key"] == key]
        values = [group for group in groups if not group.detail.get("other")]
        console.print(_split_table(visible(f"by {key}"), values, width, [g for g in groups if g not in values])
                      if groups else Text(visible(f"by {key}: no records")))
        if key in capped:
            from ..triage.groups import other_name

            kept = len(summary.tally.by_values.get(key, ()))
            console.print(Text(visible(
                f"by {key}: more than {kept:,} distinct values: the {kept:,} heaviest are groups, "
                f"the other values' {capped[key]:,} record(s) are the group {other_name(key)}"), "yellow"))
    if summary.histogram is not None:
        console.print(_time_table(summary, width))
    elif records:
        console.print(Text("timeline: no record has a readable ts"))
    for file, line, problem in tally.broken:
        console.print(Text(visible(f"{file} broke off after line {line:,}: {problem}"), "bold red"))
    if tally.bad_lines:
        kinds = ", ".join(f"{kind} {count:,}" for kind, count in sorted(tally.bad_kinds.items()))
        console.print(Text(visible(f"{tally.bad_lines:,} bad line(s), the group bad: {kinds}"), "bold red"))
        for file, line, error in tally.bad[:SHOWN_BAD]:
            console.print(Text(visible(f"  {file}:{line}: {error}")))
        if tally.bad_lines > SHOWN_BAD:
            listed = "--format json lists every one" if not tally.bad_more else \
                f"--format json lists the first {len(tally.bad):,}, --bad-lines FILE every one"
            console.print(Text(f"  … {tally.bad_lines - SHOWN_BAD:,} more ({listed})", "dim"))
    if summary.annotations is not None:
        _print_annotations(console, summary, width)
    if baseline is not None:
        from ..triage.summary import compare

        for file, line, problem in baseline.tally.broken:
            console.print(Text(visible(f"against: {file} broke off after line {line:,}: {problem}"), "bold red"))
        title = visible(f"against {', '.join(against)} ({baseline.records:,} records, "
                        f"{baseline.tally.bad_lines:,} bad lines): largest change first")
        console.print(_change_table(title, compare(summary, baseline), width))


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
                     "rejected": Text(_count(group.rejected or 0)), "rate": Text(_share(group.rate)),
                     "first checks": Text(", ".join(f"{s} {n:,}" for n, s in checks[:3]) or "-")})
        if tail and shown and group is shown[-1]:
            _more(rows, hidden, SPLIT_COLUMNS)
            hidden = 0
    _more(rows, hidden, SPLIT_COLUMNS)
    return fitted(title, SPLIT_COLUMNS, rows, width)


def _change_table(title: str, changes: list[Change], width: int) -> Any:
    from rich.text import Text

    rows: list[dict[str, Any]] = []
    for change in changes[:SHOWN_ROWS]:
        worse = change.change > 0 and change.kind not in ("rung",) and change.name != "ACCEPT"
        rows.append({"group": Text(change.name),
                     "change": Text(f"{change.change * 100:+.1f} pt", "red" if worse and change.change else ""),
                     "now": Text(_share(change.rate)), "against": Text(_share(change.before_rate)),
                     "records now": Text(_count(change.records)),
                     "records against": Text(_count(change.before_records))})
    _more(rows, len(changes) - SHOWN_ROWS, CHANGE_COLUMNS)
    return fitted(title, CHANGE_COLUMNS, rows, width)


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
