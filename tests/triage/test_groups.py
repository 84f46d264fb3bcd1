"""The groups of a triage (``triage.groups``): each knows its kind (``GroupKind``, the JSON's
``kind`` strings), carries a typed detail that serialises to the JSON's members as before, and
answers which records are its own (``Group.membership``); the count cells it reads are named
(``Cell``: verdict, scope, meta; ``VerdictKey``)."""

from __future__ import annotations

import json

import pytest

from inspector.suites.load import load_registry
from inspector.triage import Options, triage
from inspector.triage.groups import KINDS, ByDetail, Cell, GroupKind, PivotDetail, VerdictKey
from inspector.triage.pivot import pivot
from inspector.triage.summary import Group, summarize
from inspector.triage.synth import write_log, write_registry

BY = ("model", "prompt_version")


@pytest.fixture(scope="module")
def counted(tmp_path_factory):
    folder = tmp_path_factory.mktemp("groups")
    registry_path = write_registry(folder / "registry.json")
    write_log(folder / "app.jsonl", 600, seed=3)
    options = Options(by=BY, index=True)
    tally = triage([str(folder / "app.jsonl")], load_registry(registry_path), options, workers=1)
    return summarize(tally, options)


def test_every_kind_is_the_string_the_json_says(counted):
    document = json.loads(json.dumps(counted.to_dict()))
    kinds = [entry["kind"] for entry in document["groups"]]
    assert kinds == [group.kind for group in counted.groups]
    assert all(GroupKind(kind) in KINDS for kind in kinds)
    assert [kind for kind in KINDS if kind in kinds] == list(dict.fromkeys(kinds))  # the summary's order
    assert KINDS[-2:] == (GroupKind.PIVOT, GroupKind.ITEM)  # a pivot's pair and an item: kinds the overview opens
    assert "pivot" == GroupKind.PIVOT and "item" == GroupKind.ITEM


def test_a_kind_given_as_its_string_is_the_kind():
    assert Group("model=x", "by", 1, 1.0, detail=ByDetail("model", "x")).kind is GroupKind.BY
    with pytest.raises(ValueError):
        Group("x", "nonsense", 1, 1.0)


def test_a_detail_is_the_json_members_it_was():
    assert Group("model=x", GroupKind.BY, 2, 0.5, 1, {"ACCEPT": 1}, ByDetail("model", "x"), total=4).to_dict() == {
        "group": "model=x", "kind": "by", "key": "model", "value": "x", "records": 2, "rate": 0.5, "of": 4,
        "population": 2, "rejected": 1, "rejected_rate": 0.5, "by_check": {"ACCEPT": 1},
        "by_check_rate": {"ACCEPT": 0.5}}
    other = Group("other:model", GroupKind.BY, 1, 0.25, 0, {}, ByDetail("model", None, other=True), total=4)
    assert list(other.to_dict())[:5] == ["group", "kind", "key", "value", "other"]
    assert other.to_dict()["value"] is None and other.other and other.by_key == "model"
    assert Group("bad", GroupKind.BAD, 1, 0.1, total=10).to_dict() == \
        {"group": "bad", "kind": "bad", "records": 1, "rate": 0.1, "of": 10}


def test_the_count_cells_are_named(counted):
    tally = counted.tally
    assert tally.cells
    for cell in tally.cells:
        assert isinstance(cell, Cell) and isinstance(cell.verdict, VerdictKey)
        assert len(cell.scope) == 3 and len(cell.meta) == len(BY)
        assert cell.verdict.status in counted.by_check


def test_each_group_finds_its_own_records(counted):
    """Asked which records are its own, every group of the summary (and a pivot's pair) finds as many
    in the index as it counted."""
    index, by = counted.tally.index, counted.tally.by_keys
    crossed = pivot(counted.tally, ("model", "check"))
    pairs = [Group(cell.name, GroupKind.PIVOT, cell.records, 0.0, detail=PivotDetail(crossed.keys, cell.a, cell.b))
             for cell in crossed.cells]
    for group in [*counted.groups, *pairs]:
        if group.kind is GroupKind.BAD:
            with pytest.raises(ValueError):
                group.membership(by)
            continue
        column, holds = group.membership(by)
        assert column == ("claim" if group.kind is GroupKind.CLAIM else "cell")
        found = sum(1 for value in index.values(column) if value is not None and holds(value))
        assert found == group.records, group.name
