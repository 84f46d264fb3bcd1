"""What a tally keeps is bounded (issue 17, items 6, 8 and 9): the first bad
lines and a count of every one, each written with ``bad_lines`` in order
whatever the split and the workers; at most ``BY_VALUES`` values of a --by key,
the heaviest, the rest ``other:KEY``; an export's records collected up to its
limit.  Structural bounds on small logs (the caps are lowered where a test
needs to pass them), the memory figures in benchmarks/bench_triage_memory.py."""

from __future__ import annotations

import gzip
import io
import json
import os
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.suites.load import load_registry
from inspector.triage import Options, Tally, merge, tally_range, triage
from inspector.triage import tally as tally_module
from inspector.triage.badlines import KEPT, Spill, copy_spill
from inspector.triage.members import GroupMembers
from inspector.triage.records import RequestCache, parse_line
from inspector.triage.summary import summarize
from inspector.triage.synth import write_log, write_registry


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bounds")
    return load_registry(write_registry(folder / "registry.json"))


def bad_lines_of(path) -> list[dict]:
    """Every bad line of a plain log, worked out here: (file, line, offset, reason)."""
    found, offset = [], 0
    requests = RequestCache()
    with open(path, "rb") as log:
        for number, line in enumerate(log, 1):
            parsed = parse_line(line.rstrip(b"\n"), requests)
            if isinstance(parsed, str):
                found.append({"file": str(path), "line": number, "offset": offset, "reason": parsed})
            offset += len(line)
    return found


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """A log of records with 3,000 bad lines among them: more than a tally keeps."""
    folder = tmp_path_factory.mktemp("hostile")
    good = folder / "good.jsonl"
    write_log(good, 300, seed=5, bad_per_kind=0)
    records = good.read_bytes().splitlines(keepends=True)
    lines = []
    for number in range(3000):
        lines.append(b"not json %d\n" % number if number % 3 else b"\n")
        if number % 10 == 0:
            lines.append(records[number // 10])
    log = folder / "hostile.jsonl"
    log.write_bytes(b"".join(lines))
    return log


class TestBadLines:
    def test_a_tally_keeps_the_first_and_counts_every_one(self, hostile, registry):
        tally = tally_range(str(hostile), 0, os.path.getsize(hostile), registry, Options())
        expected = bad_lines_of(hostile)
        assert tally.bad_lines == len(expected) == 3000 and tally.records == 300
        assert len(tally.bad) == KEPT and tally.bad_more == 3000 - KEPT
        assert [(file, line, reason) for file, line, reason in tally.bad] == \
            [(bad["file"], bad["line"], bad["reason"]) for bad in expected[:KEPT]]
        assert tally.bad_kinds == {"empty line": 1000, "not JSON": 2000}

    def test_merged_parts_keep_what_one_pass_keeps(self, hostile, registry):
        size = os.path.getsize(hostile)
        options = Options(index=True)
        whole = tally_range(str(hostile), 0, size, registry, options)
        cuts = [0, size // 7, size // 2, size // 2 + 5, size - 100, size]
        parts = Tally()
        for start, end in pairwise(cuts):
            parts = merge(parts, tally_range(str(hostile), start, end, registry, options))
        assert parts == whole
        # the index still has every bad line (16 bytes a line), for the overview
        assert sum(1 for _ in whole.index.where("BAD")) == 3000

    @pytest.mark.parametrize("workers", [1, 2])
    def test_every_bad_line_is_written_in_order_whatever_the_split(self, hostile, registry, tmp_path, workers):
        packed = tmp_path / "hostile.jsonl.gz"
        packed.write_bytes(gzip.compress(hostile.read_bytes()))
        out = io.BytesIO()
        spills = tmp_path / "spills"
        spills.mkdir()
        tally = triage([str(hostile), str(packed)], registry, Options(), workers=workers, parallel_min_bytes=0,
                       task_bytes=4096, bad_lines=out, spill_dir=spills)
        written = [json.loads(line) for line in out.getvalue().splitlines()]
        expected = bad_lines_of(hostile)
        assert written == expected + [{**bad, "file": str(packed)} for bad in expected]
        assert tally.bad_lines == 6000 and len(tally.bad) == KEPT
        assert list(spills.iterdir()) == []  # every spill removed, and the directory made for them
        with open(hostile, "rb") as log:  # the offsets are where the lines are
            for bad in written[:50]:
                log.seek(bad["offset"])
                assert parse_line(log.readline().rstrip(b"\n"), RequestCache()) == bad["reason"]

    def test_a_spill_writes_in_batches(self, tmp_path, monkeypatch):
        from inspector.triage import badlines

        monkeypatch.setattr(badlines.Spill, "batch", 10)
        spill = Spill(tmp_path / "spill")
        for line in range(1, 26):
            spill.add(line, line * 2, "empty line")
            assert len(spill._batch) < 10  # never more than a batch held
        spill.close()
        out = io.BytesIO()
        assert copy_spill(tmp_path / "spill", "log", 100, out) == 25
        assert json.loads(out.getvalue().splitlines()[-1]) == {"file": "log", "line": 125, "offset": 50,
                                                               "reason": "empty line"}


def unique_ids(path, records: int, heavy: int = 0) -> None:
    """A log of ``records`` records with an ``id`` each (the generator's), the
    last ``heavy`` of them all with the id "heavy"."""
    write_log(path, records, seed=3, bad_per_kind=0)
    lines = path.read_bytes().splitlines(keepends=True)
    for number in range(len(lines) - heavy, len(lines)):
        document = json.loads(lines[number])
        document["id"] = "heavy"
        lines[number] = (json.dumps(document) + "\n").encode()
    path.write_bytes(b"".join(lines))


class TestByValues:
    @pytest.fixture()
    def few(self, monkeypatch):
        monkeypatch.setattr(tally_module, "BY_VALUES", 5)
        return 5

    def test_past_the_bound_the_rest_is_other(self, registry, tmp_path, few):
        log = tmp_path / "ids.jsonl"
        unique_ids(log, 60)
        options = Options(by=("id", "model"), index=True, series=True)
        tally = tally_range(str(log), 0, os.path.getsize(log), registry, options)
        assert len(tally.by_values["id"]) == few and len(tally.by_values["model"]) <= few
        assert set(tally.series) <= set(tally.cells)  # demoted as the counts are
        ids = {values[0] for values in (cell[2] for cell in tally.cells)}
        assert len(ids - {tally_module.OTHER}) == few  # no cell per record
        assert set(tally.index.keys["cell"][1]) == set(tally.cells)  # the index's cells are the counts'
        summary = summarize(tally, options)
        other = summary.group("other:id")
        assert other is not None and other.records == 60 - few
        assert [g.name for g in summary.of_key("id")][-1] == "other:id"
        assert summary.to_dict()["by_capped"] == {"id": {"values_kept": few, "other_records": 60 - few}}
        assert sum(g.records for g in summary.of_key("id")) == 60
        # the overview opens it from the index: the records not kept
        members = GroupMembers(other, tally.index, len(tally.index), options.by)
        members.resolve_all()
        assert len(members.found) == 60 - few

    def test_an_index_table_mostly_demoted_is_rebuilt(self, monkeypatch):
        monkeypatch.setattr(tally_module, "_BUILT_CELLS", 1)
        index = tally_module.Index()
        cells = [(("ACCEPT",), ("s", "e", "r"), (b'"%d"' % number,)) for number in range(10)]
        for cell in cells * 2:
            index.describe(cell, None)
        other = (("ACCEPT",), ("s", "e", "r"), (tally_module.OTHER,))
        index.demote(lambda cell: other if cell[2][0] != b'"0"' else cell)
        assert index.keys["cell"][0] == [None, cells[0], other]
        assert index.values("cell") == [cells[0], *[other] * 9] * 2

    def test_the_heaviest_are_kept_even_when_seen_last(self, registry, tmp_path, few):
        log = tmp_path / "heavy.jsonl"
        unique_ids(log, 80, heavy=30)
        options = Options(by=("id",))
        size = os.path.getsize(log)
        whole = tally_range(str(log), 0, size, registry, options)
        halves = merge(tally_range(str(log), 0, size // 2, registry, options),
                       tally_range(str(log), size // 2, size, registry, options))
        for tally in (whole, halves):
            group = summarize(tally, options).group("id=heavy")
            assert group is not None and group.records == 30
            assert tally.records == 80 and sum(tally.by_values["id"].values()) + tally.capped["id"] == 80

    def test_unique_values_split_and_merged_equal_one_pass(self, registry, tmp_path, few):
        log = tmp_path / "ids.jsonl"
        unique_ids(log, 40)
        options = Options(by=("id",), index=True, series=True)
        size = os.path.getsize(log)
        whole = tally_range(str(log), 0, size, registry, options)
        for cuts in ([size // 3], [size // 5, size // 2, 3 * size // 4]):
            parts = Tally()
            for start, end in zip([0, *cuts], [*cuts, size]):
                parts = merge(parts, tally_range(str(log), start, end, registry, options))
            assert parts == whole

    def test_under_the_bound_nothing_changes(self, registry, tmp_path):
        log = tmp_path / "ids.jsonl"
        unique_ids(log, 30)
        tally = tally_range(str(log), 0, os.path.getsize(log), registry, Options(by=("id",)))
        assert len(tally.by_values["id"]) == 30 and not tally.capped
        assert summarize(tally, Options(by=("id",))).to_dict()["by_capped"] == {}


class TestLongByValues:
    """A --by value is bounded in size as the values are in number: past
    GROUP_CHARS characters, grouped and named by its head, its length and a
    digest of the whole (as a long scope member is)."""

    MIB = 1024 * 1024

    @pytest.fixture()
    def long_models(self, tmp_path):
        """Eight records: three of one ~1 MiB model, two of another (the same head), three short ones."""
        log = tmp_path / "long.jsonl"
        write_log(log, 8, seed=4, bad_per_kind=0)
        lines = log.read_bytes().splitlines(keepends=True)
        models = ["m" * self.MIB + "-a"] * 3 + ["m" * self.MIB + "-b"] * 2 + ["gpt-x"] * 3
        for number, model in enumerate(models):
            document = json.loads(lines[number])
            document["model"] = model
            lines[number] = (json.dumps(document) + "\n").encode()
        log.write_bytes(b"".join(lines))
        return log

    def test_the_groups_are_named_by_head_length_and_digest(self, registry, long_models):
        import hashlib

        from inspector.triage.records import GROUP_CHARS

        options = Options(by=("model",))
        tally = tally_range(str(long_models), 0, os.path.getsize(long_models), registry, options)
        assert max(len(value) for value in tally.by_values["model"]) < GROUP_CHARS + 100  # no count key holds a MiB
        document = summarize(tally, options).to_dict()
        named = {group["group"]: group["records"] for group in document["groups"] if group["kind"] == "by"}
        head = "model=" + "m" * GROUP_CHARS + "…(1,048,578 characters, sha256 "
        digest = {end: hashlib.sha256(("m" * self.MIB + end).encode()).hexdigest()[:32] for end in ("-a", "-b")}
        assert named == {f"{head}{digest['-a']})": 3, f"{head}{digest['-b']})": 2, "model=gpt-x": 3}
        assert len(json.dumps(document)) < 20_000  # 5 MiB of values: the summary stays small

    def test_the_command_prints_and_exports_the_bounded_group(self, registry, long_models, tmp_path):
        from support import run_main

        from inspector.triage.synth import write_registry

        path = write_registry(tmp_path / "registry.json")
        status, out, err = run_main(None, "triage", long_models, "--registry", path, "--format", "json",
                                    "--by", "model")
        assert status == 0, err
        assert len(out) < 20_000
        name = next(group["group"] for group in json.loads(out)["groups"] if group["records"] == 3
                    and group["group"].endswith(")") and group["kind"] == "by")
        status, text, err = run_main(None, "triage", long_models, "--registry", path, "--summary", "--by", "model")
        assert status == 0 and len(text) < 20_000 and text.count("│ model=mmmm") == 2  # (the table folds long names)
        status, out, err = run_main(None, "triage", long_models, "--registry", path, "--by", "model", "--export",
                                    name, "--out", tmp_path / "suite.json")
        assert status == 0, err
        assert "wrote 3 case(s)" in out


class TestCollectLimit:
    def test_collected_stops_at_the_limit_in_each_task_and_merged(self, registry, tmp_path):
        log = tmp_path / "app.jsonl"
        write_log(log, 400, seed=4)
        options = Options(collect="ACCEPT", limit=7)
        size = os.path.getsize(log)
        parts = [tally_range(str(log), start, end, registry, options)
                 for start, end in ((0, size // 2), (size // 2, size))]
        assert all(len(part.collected) == 7 for part in parts)
        whole = tally_range(str(log), 0, size, registry, options)
        assert merge(*parts).collected == whole.collected and len(whole.collected) == 7
        everything = tally_range(str(log), 0, size, registry, Options(collect="ACCEPT"))
        assert whole.collected == everything.collected[:7]
        assert whole.records == everything.records  # the counts go on: only the collecting stops

    def test_stop_at_limit_stops_the_counting(self, registry, tmp_path):
        log = tmp_path / "app.jsonl"
        write_log(log, 2000, seed=4)
        everything = triage([str(log)], registry, Options(collect="ACCEPT"), workers=1)
        stopped = triage([str(log)], registry, Options(collect="ACCEPT", limit=3, stop_at_limit=True),
                         workers=2, parallel_min_bytes=0, task_bytes=20_000)
        assert stopped.collected == everything.collected[:3]
        assert stopped.records < everything.records / 4  # stopped within the first tasks


class TestMergeWithinTheBounds:
    """The split-and-merge property (tests/triage/test_triage.py) with the bounds
    lowered so that a small log passes them: the first bad lines, unique ids."""

    @pytest.fixture(scope="class")
    def small(self, tmp_path_factory):
        folder = tmp_path_factory.mktemp("bounded-split")
        registry = load_registry(write_registry(folder / "registry.json"))
        write_log(folder / "small.jsonl", 60, seed=2, bad_per_kind=2)
        return str(folder / "small.jsonl"), registry

    @settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(data=st.data())
    def test_any_split_merged_equals_one_pass(self, small, data, monkeypatch):
        monkeypatch.setattr(tally_module, "BAD_KEPT", 3)
        monkeypatch.setattr(tally_module, "BY_VALUES", 4)
        path, registry = small
        size = os.path.getsize(path)
        cuts = sorted(data.draw(st.lists(st.integers(0, size), max_size=6)))
        options = Options(by=("id", "model"), index=True, series=True)
        whole = tally_range(path, 0, size, registry, options)
        parts = Tally()
        for start, end in zip([0, *cuts], [*cuts, size]):
            parts = merge(parts, tally_range(path, start, end, registry, options))
        assert parts == whole
        assert len(whole.bad) == 3 < whole.bad_lines and len(whole.by_values["id"]) == 4 and whole.capped["id"]
