"""The index knows each record's item (``Index`` column ``item``, keyed as ``Tally.items``): an item group
(``GroupKind.ITEM``) opens from it like any group, across any split of the count, and nothing of it shows in a
summary's JSON."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import pytest

from inspector.suites.load import load_registry
from inspector.triage import Options, merge, tally_range
from inspector.triage.groups import GroupKind, ItemDetail
from inspector.triage.members import GroupMembers
from inspector.triage.summary import Group, summarize
from inspector.triage.synth import write_log, write_registry

BY_MODEL = Options(by=("model",), index=True)


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("item-index")
    registry = load_registry(write_registry(folder / "registry.json"))
    log = folder / "run.jsonl"
    write_log(log, 0, 1, items=12, trials=3)
    return log, registry


def records(log: Path) -> list[dict]:
    return [json.loads(line) for line in log.read_text().splitlines()]


@pytest.mark.parametrize("options", [Options(index=True), BY_MODEL])
def test_each_record_s_item_is_its_key_in_the_items(run, options):
    log, registry = run
    tally = tally_range(str(log), 0, log.stat().st_size, registry, options)
    items = tally.index.values("item")
    assert set(items) == set(tally.items)
    expected = [json.dumps(record["item"]).encode() for record in records(log)]
    if options.by:
        assert [key[0] for key in items] == expected
        assert [key[1] for key in items] == [json.dumps(record["model"]).encode() for record in records(log)]
    else:
        assert items == expected


def test_the_item_column_merges_across_any_split_and_pickles(run):
    log, registry = run
    size = log.stat().st_size
    whole = tally_range(str(log), 0, size, registry, BY_MODEL)
    parts = [tally_range(str(log), start, end, registry, BY_MODEL, first_line=None)
             for start, end in ((0, size // 3), (size // 3, size // 2), (size // 2, size))]
    merged = merge(merge(parts[0], parts[1]), parts[2])
    assert merged.index == whole.index and merged.index.values("item") == whole.index.values("item")
    assert pickle.loads(pickle.dumps(merged)).index == whole.index


def test_no_item_kept_no_item_in_the_index(run):
    log, registry = run
    tally = tally_range(str(log), 0, log.stat().st_size, registry, Options(index=True, item="none"))
    assert set(tally.index.values("item")) == {None} and not tally.items


def test_an_item_group_opens_exactly_its_items_records(run):
    log, registry = run
    tally = tally_range(str(log), 0, log.stat().st_size, registry, BY_MODEL)
    key = sorted(tally.items)[3]
    other = sorted(tally.items)[7]
    group = Group("two items", GroupKind.ITEM, 6, 0.0, detail=ItemDetail(frozenset((key, other))))
    members = GroupMembers(group, tally.index, len(tally.index), BY_MODEL.by)
    members.resolve_all()
    lines = [tally.index.line[position] for position in members.found]
    every = records(log)
    wanted = [number + 1 for number, record in enumerate(every)
              if (json.dumps(record["item"]).encode(), json.dumps(record["model"]).encode()) in (key, other)]
    assert lines == wanted and len(wanted) == 6


def test_the_kind_is_never_in_a_summary(run):
    log, registry = run
    tally = tally_range(str(log), 0, log.stat().st_size, registry, BY_MODEL)
    document = json.dumps(summarize(tally, BY_MODEL).to_dict())
    assert '"kind": "item"' not in document


def test_the_items_the_index_names_are_bounded_as_the_tally_s(run, monkeypatch):
    from inspector.triage import tally as tally_module

    monkeypatch.setattr(tally_module, "ITEMS_KEPT", 5)
    log, registry = run
    tally = tally_range(str(log), 0, log.stat().st_size, registry, Options(index=True))
    named = {item for item in tally.index.values("item") if item is not None}
    assert named == set(tally.items) and len(named) == 5
