"""Each group's records over time (``triage.series``, ``--series``) and the pivot
of two dimensions (``triage.pivot``, ``--pivot``): drawn on the whole
histogram's bars, the same records as the group's, a pivot cell's records and
share of its row."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from inspector.suites.load import load_registry
from inspector.triage import Options, triage
from inspector.triage.groups import GroupKind, PivotDetail
from inspector.triage.pivot import pivot
from inspector.triage.series import Buckets
from inspector.triage.summary import Group, summarize
from inspector.triage.synth import write_log, write_registry
from inspector.triage.timeline import parse_ts

from support import one_line_error, run_main

BY = ("model", "prompt_version")


@pytest.fixture(scope="module")
def counted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("series")
    registry_path = write_registry(folder / "registry.json")
    write_log(folder / "app.jsonl", 900, seed=5)
    registry = load_registry(registry_path)
    options = Options(by=BY, index=True, series=True)
    tally = triage([str(folder / "app.jsonl")], registry, options, workers=1)
    return folder, registry_path, summarize(tally, options)


def dated_records(folder, summary, group):
    """(ts, status) of the group's dated records, found from the index and read from the log."""
    index = summary.tally.index
    column, holds = group.membership(summary.tally.by_keys)
    values = index.values(column)
    lines = (folder / "app.jsonl").read_bytes().splitlines()
    found = []
    for position, value in enumerate(values):
        if value is not None and holds(value):
            document = json.loads(lines[index.line[position] - 1])
            stamp = parse_ts(json.dumps(document["ts"]).encode()) if "ts" in document else None
            if stamp is not None:
                found.append((stamp, index.entry(position)[3].partition("/")[0]))
    return found


class TestGroupSeries:
    def test_every_group_drawn_on_the_whole_bars_from_its_own_records(self, counted):
        folder, _, summary = counted
        frame = summary.histogram
        buckets = Buckets(summary)
        every = buckets.every()
        for name in ("ACCEPT", "VALUE_MISMATCH", "model=gpt-x", "rung:citation_only", "reason:INVALID_JSON/SYNTAX",
                     next(g.name for g in summary.of_kind("claim")), next(g.name for g in summary.of_kind("scope"))):
            group = summary.group(name)
            drawn = every[name]
            assert drawn == buckets.of(group)  # one sweep or one group: the same bars
            assert [bar.start for bar in drawn.bars] == [bar.start for bar in frame.bars]
            expected = Counter()
            for stamp, status in dated_records(folder, summary, group):
                bar = max(n for n, b in enumerate(frame.bars) if b.start <= stamp)
                expected[bar, status != "ACCEPT"] += 1
            assert [(bar.records, bar.rejected) for bar in drawn.bars] == \
                [(expected[n, False] + expected[n, True], expected[n, True]) for n in range(len(frame.bars))]

    def test_the_checks_series_add_up_to_the_whole_histogram(self, counted):
        _, _, summary = counted
        every = Buckets(summary).every()
        checks = [every[group.name] for group in summary.of_kind("check")]
        assert [sum(found.bars[n].records for found in checks) for n in range(len(summary.histogram.bars))] == \
            [bar.records for bar in summary.histogram.bars]
        assert [sum(found.bars[n].rejected for found in checks) for n in range(len(summary.histogram.bars))] == \
            [bar.rejected for bar in summary.histogram.bars]

    def test_without_dated_records_there_is_no_series(self, tmp_path, counted):
        _, registry_path, _ = counted
        log = tmp_path / "plain.jsonl"
        lines = [json.loads(line) for line in (counted[0] / "app.jsonl").read_text().splitlines()[:20]
                 if line.startswith("{") and '"ts"' in line]
        log.write_text("".join(json.dumps({k: v for k, v in d.items() if k != "ts"}) + "\n" for d in lines))
        options = Options(series=True)
        summary = summarize(triage([str(log)], load_registry(registry_path), options, workers=1), options)
        assert summary.histogram is None and Buckets(summary).every() == {}


class TestPivot:
    def test_check_is_a_dimension_and_each_pair_has_its_share_of_its_row(self, counted):
        _, _, summary = counted
        crossed = pivot(summary.tally, ("model", "check"))
        model = summary.group("model=gpt-x")
        row = [cell for cell in crossed.cells if cell.a == "model=gpt-x"]
        assert {cell.b for cell in row} == set(model.by_check)
        assert all(cell.records == model.by_check[cell.b] and cell.of == model.records for cell in row)
        assert sum(cell.share for cell in row) == pytest.approx(1.0)
        assert all(cell.rejected == (0 if cell.b == "ACCEPT" else cell.records) for cell in row)

    def test_a_cell_holds_its_records_and_is_drawn_over_time(self, counted):
        folder, _, summary = counted
        crossed = pivot(summary.tally, ("scope", "model"))
        cell = crossed.cells[0]
        group = Group(cell.name, GroupKind.PIVOT, cell.records, 0.0, detail=PivotDetail(crossed.keys, cell.a, cell.b))
        column, holds = group.membership(summary.tally.by_keys)
        assert sum(1 for value in summary.tally.index.values(column) if value is not None and holds(value)) == \
            cell.records
        drawn = Buckets(summary).of(group)
        assert sum(bar.records for bar in drawn.bars) + drawn.outliers == len(dated_records(folder, summary, group))


class TestCommandLine:
    def test_series_in_the_json_for_every_group_and_pivot_cell(self, counted, capsys):
        folder, registry, summary = counted
        status, out, _ = run_main(capsys, "triage", str(folder / "app.jsonl"), "--registry", str(registry),
                                  "--format", "json", "--by", "model", "--pivot", "model,check", "--series")
        assert status == 0
        document = json.loads(out)
        bars = document["timeline"]["bars"]
        accept = next(group for group in document["groups"] if group["group"] == "ACCEPT")
        series = accept["series"]
        assert len(series["records"]) == len(series["rejected"]) == len(bars)  # a number a bar of the timeline
        assert sum(series["records"]) + series["before"] + series["after"] + series["undated"] == accept["records"]
        assert series["rejected"] == [0] * len(bars)
        assert all("series" in group for group in document["groups"] if group["kind"] != "bad")
        cell = document["pivot"]["cells"][0]
        assert cell["share"] == round(cell["records"] / cell["of"], 6) and "series" in cell

    def test_series_is_of_the_json(self, counted, capsys):
        folder, registry, _ = counted
        status, _, err = run_main(capsys, "triage", str(folder / "app.jsonl"), "--registry", str(registry),
                                  "--summary", "--series")
        assert status == 2 and "--series" in one_line_error(err) and "--format json" in err

    def test_the_text_pivot_gives_each_pairs_share_of_its_row(self, counted, capsys):
        folder, registry, _ = counted
        status, out, _ = run_main(capsys, "triage", str(folder / "app.jsonl"), "--registry", str(registry),
                                  "--summary", "--pivot", "model,check")
        assert status == 0
        assert "model by check" in out and "of model" in out


class TestPivotDimensions:
    def test_two_counted_dimensions_or_a_line_saying_why_not(self):
        from inspector.presentation.pivot_view import pivot_dimensions, pivot_keys

        assert pivot_dimensions(("model",)) == ("scope", "check", "model")
        assert pivot_keys(" model , check ", ("model",)) == ("model", "check")
        for text, said in (("model", "two dimensions"), ("check,check", "twice"),
                           ("prompt_version,check", "'prompt_version' was not counted: count with --by "
                                                    "prompt_version (here: scope, check, model)")):
            with pytest.raises(ValueError) as raised:
                pivot_keys(text, ("model",))
            assert said in str(raised.value)


def test_one_groups_sweep_draws_what_every_groups_does(counted):
    _, _, summary = counted
    every = Buckets(summary)
    for group in summary.groups[:40]:
        if group.kind != "bad":
            assert Buckets(summary, group=group).of(group) == every.of(group)
