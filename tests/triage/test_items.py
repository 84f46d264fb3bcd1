"""Items and trials (triage.items): the stability figures, the flip table and McNemar's test of two runs
match a plain computation over the records (the JSONL read here, each record verified by the contract);
a log that names no item says nothing new; an item path missing on a record, the bound on items kept,
the split of a count and a pickled tally; the estimators and the test against hand-computed values."""

from __future__ import annotations

import json
import math
import pickle
from collections import Counter, defaultdict
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest

from inspector.contract.models import Registry
from inspector.contract.text import visible
from inspector.contract.verify import verify
from inspector.suites.load import load_registry
from inspector.triage import Options, merge, tally_range, triage
from inspector.triage import tally as tally_module
from inspector.triage.items import mcnemar_exact, pair_items, pass_at_k, pass_hat_k
from inspector.triage.summary import summarize
from inspector.triage.synth import write_log, write_registry

from support import one_line_error, run_main

ITEMS, TRIALS = 80, 4
BY_MODEL = Options(by=("model",))


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> tuple[Path, Path, Path]:
    """Two runs of the same items: before (seed 1), after (seed 2, llama-z worse on half its good items)."""
    folder = tmp_path_factory.mktemp("items")
    registry = write_registry(folder / "registry.json")
    write_log(folder / "old.jsonl", 0, 1, items=ITEMS, trials=TRIALS)
    write_log(folder / "new.jsonl", 0, 2, items=ITEMS, trials=TRIALS, worse=("llama-z", 0.5))
    return folder / "new.jsonl", folder / "old.jsonl", registry


@pytest.fixture(scope="module")
def registry(runs) -> Registry:
    return load_registry(runs[2])


def plain(log: Path, registry: Registry) -> list[tuple[str, str, str]]:
    """(item, model, status) of every record, each verified on its own."""
    found = []
    for line in log.read_text().splitlines():
        record = json.loads(line)
        found.append((record["item"], record["model"], verify(record["raw"], record["request"], registry).status))
    return found


def naive_stability(trials: dict) -> dict[str, object]:
    """What a reader computes by hand from each item's statuses."""
    least = min(len(statuses) for statuses in trials.values())
    figures: dict[str, object] = {
        "items": len(trials), "trials": sum(len(s) for s in trials.values()),
        "accepted": sum(s.count("ACCEPT") for s in trials.values()),
        "stable_items": sum(1 for s in trials.values() if len(set(s)) == 1),
        "distinct_verdicts": dict(sorted(Counter(str(len(set(s))) for s in trials.values()).items())),
    }
    for name, chance in (("pass_at_k", lambda subset: "ACCEPT" in subset),
                         ("pass_hat_k", lambda subset: all(status == "ACCEPT" for status in subset))):
        # the mean over items of the share of k-subsets of its trials that pass: the unbiased estimator, by brute force
        figures[name] = {str(k): round(sum(Fraction(sum(map(chance, combinations(s, k))), math.comb(len(s), k))
                                           for s in trials.values()).__float__() / len(trials), 6)
                         for k in (1, 2, 4, 8) if k <= least}
    return figures


def test_the_stability_figures_are_those_of_the_records(runs, registry):
    new, _, _ = runs
    options = BY_MODEL
    found = summarize(triage([str(new)], registry, options, workers=2), options, [str(new)]).to_dict()["stability"]
    records = plain(new, registry)
    every: dict[tuple[str, str], list[str]] = defaultdict(list)  # an item within its population: its model's trials
    per_model: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for item, model, status in records:
        every[(item, model)].append(status)
        per_model[model][item].append(status)
    groups = {group["group"]: group for group in found["groups"]}
    assert list(groups)[0] == "all" and set(groups) == {"all", *(f"model={m}" for m in per_model)}
    for name, trials in (("all", every), *((f"model={m}", t) for m, t in per_model.items())):
        expected = naive_stability(trials)
        assert {key: groups[name][key] for key in expected} == expected, name
        assert groups[name]["pass_at_1"] == expected["pass_at_k"]["1"]  # type: ignore[index]
    # the flakiest model is the least stable, the steadiest the most
    assert groups["model=llama-z"]["unstable_rate"] > groups["model=gpt-x"]["unstable_rate"]
    assert found["untracked_records"] == 0 and found["records_without_item"] == 0


def item_verdict(statuses: list[str]) -> str:
    """ACCEPT when more than half the trials were, else the most frequent rejection (ties: contract order)."""
    if 2 * statuses.count("ACCEPT") > len(statuses):
        return "ACCEPT"
    order = tally_module.TRIAGE_STATUSES
    counts = Counter(status for status in statuses if status != "ACCEPT")
    return min(counts, key=lambda status: (-counts[status], order.index(status)))


def binomial_p(b: int, c: int) -> float:
    n = b + c
    return 1.0 if not n else min(1.0, float(2 * Fraction(sum(math.comb(n, i) for i in range(min(b, c) + 1)), 2 ** n)))


def test_the_flip_table_and_mcnemar_are_those_of_the_records(runs, registry, run_json):
    new, old, _ = runs
    document = run_json(new, "--by", "model", "--against", old)
    found = document["comparison"]["items"]
    after, before = plain(new, registry), plain(old, registry)

    def verdicts(records, model=None):
        trials: dict[str, list[str]] = defaultdict(list)
        for item, record_model, status in records:
            if model is None or record_model == model:
                trials[item].append(status)
        return {item: item_verdict(statuses) for item, statuses in trials.items()}

    for population in found["populations"]:
        model = None if population["group"] == "all" else population["group"].removeprefix("model=")
        then, now = verdicts(before, model), verdicts(after, model)
        flips = Counter((then[item], now[item]) for item in then if item in now)
        assert {(f["before"], f["after"]): f["items"] for f in population["flips"]} == flips
        lost = sum(1 for item in then if then[item] == "ACCEPT" and now[item] != "ACCEPT")
        gained = sum(1 for item in then if then[item] != "ACCEPT" and now[item] == "ACCEPT")
        assert (population["accepted_before_only"], population["accepted_after_only"]) == (lost, gained)
        assert population["p"] == round(binomial_p(lost, gained), 6)
        assert population["paired"] == len(then) == ITEMS
        kinds = [flip["kind"] for flip in population["flips"]]
        assert kinds == sorted(kinds, key=["regressed", "fixed", "changed", "same"].index)  # regressions first
        for flip in population["flips"]:  # each cell names its first items, in order
            named = sorted(item for item in then if (then[item], now[item]) == (flip["before"], flip["after"]))
            assert flip["first_items"] == named[:20]
    llama = next(p for p in found["populations"] if p["group"] == "model=llama-z")
    gpt = next(p for p in found["populations"] if p["group"] == "model=gpt-x")
    assert llama["p"] < 0.01 < gpt["p"]  # the model made worse is found, the other is not


def test_a_by_value_s_rate_change_has_its_paired_items_beside_it(runs, run_json, capsys):
    """A --by value's group in the comparison carries its own population's paired result (the same figures
    as comparison.items says for it); a check group, a scope and a run without items carry none."""
    new, old, registry = runs
    document = run_json(new, "--by", "model", "--against", old)
    populations = {p["group"]: p for p in document["comparison"]["items"]["populations"]}
    shifts = {group["group"]: group for group in document["comparison"]["groups"]}
    for name in ("model=llama-z", "model=gpt-x", "model=claude-y"):
        paired = populations[name]
        assert shifts[name]["paired_items"] == {key: paired[key] for key in (
            "paired", "accepted_before_only", "accepted_after_only", "p")}
    assert not any("paired_items" in group for name, group in shifts.items() if not name.startswith("model="))
    plain_run = run_json(new, "--by", "model", "--against", old, "--item", "none")
    assert not any("paired_items" in group for group in plain_run["comparison"]["groups"])
    status, out, _ = run_main(capsys, "triage", new, "--registry", registry, "--summary", "--by", "model",
                              "--against", old)
    llama = populations["model=llama-z"]
    row = next(line for line in out.splitlines() if "model=llama-z" in line and "→" in line)
    assert f"-{llama['accepted_before_only']} +{llama['accepted_after_only']} of {llama['paired']}, p <0.0001" in row


@pytest.fixture
def run_json(runs, capsys):
    def run(log, *args):
        status, out, err = run_main(capsys, "triage", log, "--registry", runs[2], "--format", "json", *args)
        assert status in (0, 1), err
        return json.loads(out)
    return run


def test_a_log_naming_no_item_says_nothing_new(tmp_path, capsys):
    """Records repeat requests, but name no item: no stability, no item comparison, the text unchanged."""
    registry = write_registry(tmp_path / "registry.json")
    write_log(tmp_path / "a.jsonl", 400, 1)
    write_log(tmp_path / "b.jsonl", 400, 2)
    status, out, _ = run_main(capsys, "triage", tmp_path / "a.jsonl", "--registry", registry, "--format", "json",
                              "--against", tmp_path / "b.jsonl")
    document = json.loads(out)
    assert "stability" not in document and "items" not in document["comparison"]
    status, out, _ = run_main(capsys, "triage", tmp_path / "a.jsonl", "--registry", registry, "--summary",
                              "--against", tmp_path / "b.jsonl")
    assert "their trials" not in out and "items paired" not in out and "McNemar" not in out
    # --item request asks for it: the records of one request are its trials
    status, out, _ = run_main(capsys, "triage", tmp_path / "a.jsonl", "--registry", registry, "--format", "json",
                              "--item", "request")
    found = json.loads(out).get("stability")
    assert found is None or found["groups"][0]["trials"] == 400 - json.loads(out)["bad_lines"]


def test_an_item_path_missing_is_its_own_item_counted_and_said(tmp_path, runs, capsys):
    new, _, registry = runs
    lines = new.read_text().splitlines()
    records = [json.loads(line) for line in lines[:40]]
    for number, record in enumerate(records):
        record["case"] = {"id": record["item"]} if number % 4 else {}  # a quarter without the path
    log = tmp_path / "cases.jsonl"
    log.write_text("".join(json.dumps(record) + "\n" for record in records))
    status, out, err = run_main(capsys, "triage", log, "--registry", registry, "--format", "json",
                                "--item", "case.id")
    found = json.loads(out)["stability"]
    assert found["records_without_item"] == 10 and found["groups"][0]["trials"] == 30
    status, out, err = run_main(capsys, "triage", log, "--registry", registry, "--summary", "--item", "case.id")
    assert out.count("without the --item path") == 1


def test_items_past_the_bound_are_untracked_and_counted(runs, registry, monkeypatch):
    new, _, _ = runs
    monkeypatch.setattr(tally_module, "ITEMS_KEPT", 10)
    tally = triage([str(new)], registry, Options(), workers=1)
    assert len(tally.items) == 10
    assert sum(tally_module.trials_of(packed) for packed in tally.items.values()) + tally.items_untracked == \
        tally.records
    assert summarize(tally, Options()).to_dict()["stability"]["untracked_records"] == tally.items_untracked > 0


def test_items_merge_across_any_split_and_pickle(runs, registry):
    new, _, _ = runs
    size = new.stat().st_size
    whole = tally_range(str(new), 0, size, registry, BY_MODEL)
    parts = [tally_range(str(new), start, end, registry, BY_MODEL)
             for start, end in ((0, size // 3), (size // 3, size // 2), (size // 2, size))]
    merged = merge(merge(parts[0], parts[1]), parts[2])
    assert merged.items == whole.items and merged.items_named == whole.items_named == whole.records
    assert pickle.loads(pickle.dumps(merged)) == merged


def test_an_item_id_is_untrusted_text(tmp_path, runs, capsys):
    """An item named with control characters is shown with them made visible, never as terminal codes."""
    new, old, registry = runs
    hostile = "\x1b[31mred\x07"
    loaded = load_registry(registry)
    good = next(json.loads(line)["raw"] for line in old.read_text().splitlines()
                if json.loads(line)["item"] == "item-000001"
                and verify(json.loads(line)["raw"], json.loads(line)["request"], loaded).status == "ACCEPT")
    for source, target, raw in ((new, "n.jsonl", "not an answer"), (old, "o.jsonl", good)):
        records = [json.loads(line) for line in source.read_text().splitlines()]
        for record in records:
            if record["item"] == "item-000001":  # accepted before, rejected after: a flip, named first
                record.update(item=hostile, raw=raw)
        (tmp_path / target).write_text("".join(json.dumps(record) + "\n" for record in records))
    status, out, err = run_main(capsys, "triage", tmp_path / "n.jsonl", "--registry", registry, "--summary",
                                "--against", tmp_path / "o.jsonl")
    assert "\x1b" not in out and "\x07" not in out
    assert visible(hostile) in out
    status, out, err = run_main(capsys, "triage", tmp_path / "n.jsonl", "--registry", registry, "--format", "json",
                                "--against", tmp_path / "o.jsonl")
    flips = json.loads(out)["comparison"]["items"]["populations"][0]["flips"]
    assert flips[0]["before"] == "ACCEPT" and hostile in flips[0]["first_items"] + flips[1]["first_items"]


def test_the_estimators_and_the_test_against_hand_computed_values():
    assert pass_at_k(4, 1, 2) == pytest.approx(1 - 3 / 6)  # C(3,2)/C(4,2): both picks among the 3 rejected
    assert pass_hat_k(4, 3, 2) == pytest.approx(3 / 6)
    assert pass_at_k(4, 0, 2) == 0.0 and pass_hat_k(4, 4, 4) == 1.0 and pass_at_k(3, 1, 3) == 1.0
    assert mcnemar_exact(10, 2) == pytest.approx(2 * (1 + 12 + 66) / 4096)
    assert mcnemar_exact(0, 0) == 1.0 and mcnemar_exact(3, 3) == 1.0
    # past the exact sums, the log-space tail agrees with the integers
    assert mcnemar_exact(1200, 1000) == pytest.approx(binomial_p(1200, 1000), rel=1e-6)


def test_pair_items_says_nothing_without_named_items(runs, registry):
    new, old, _ = runs
    after = triage([str(new)], registry, Options(), workers=1)
    assert pair_items(after, after, Options()) is not None
    after.items_named = 0
    assert pair_items(after, after, Options()) is None


@pytest.mark.parametrize(("args", "names"), [
    (("--item", "a..b"), ("--item",)),
    (("--item", "file"), ("--item file",)),
])
def test_an_unusable_item_path_is_one_line(runs, capsys, args, names):
    new, _, registry = runs
    status, out, err = run_main(capsys, "triage", new, "--registry", registry, "--summary", *args)
    assert status == 2
    one_line_error(err, *names)


@pytest.mark.parametrize(("args", "names"), [
    (("--items", "5", "--worse", "nobody:0.5"), ("--worse", "nobody")),
    (("--items", "5", "--worse", "gpt-x:2"), ("--worse",)),
    (("--lines", "5", "--trials", "3"), ("--trials",)),
    (("--items", "0"), ("--items",)),
])
def test_synth_items_arguments_are_checked(tmp_path, capsys, args, names):
    status, out, err = run_main(capsys, "synth", tmp_path / "log.jsonl", *args)
    assert status == 2 and not (tmp_path / "log.jsonl").exists()
    one_line_error(err, *names)


@pytest.mark.parametrize("args", [(), ("--lines", "5", "--items", "3")])
def test_synth_takes_lines_or_items(tmp_path, capsys, args):
    status, out, err = run_main(capsys, "synth", tmp_path / "log.jsonl", *args)
    assert status == 2 and "inspector synth: error:" in err and "--lines" in err and "--items" in err
    assert not (tmp_path / "log.jsonl").exists()


def test_synth_items_same_items_in_every_run(runs):
    new, old, _ = runs
    requests = {}
    for log in (old, new):
        for line in log.read_text().splitlines():
            record = json.loads(line)
            assert requests.setdefault(record["item"], record["request"]) == record["request"]
    assert len(requests) == ITEMS
    assert Counter(json.loads(line)["model"] for line in new.read_text().splitlines()) == \
        {"gpt-x": ITEMS * TRIALS, "claude-y": ITEMS * TRIALS, "llama-z": ITEMS * TRIALS}


def test_an_inspect_log_s_epochs_are_its_items_trials(capsys):
    """The inspect preset names each sample (its id) and each epoch is a trial of it."""
    from support import ROOT

    folder = ROOT / "fixtures" / "logs" / "formats" / "inspect"
    expected = [json.loads(line) for line in (folder / "expected.jsonl").read_text().splitlines()]
    status, out, err = run_main(capsys, "triage", folder / "config_claims.json", "--log-format", "inspect",
                                "--registry", ROOT / "fixtures" / "logs" / "sample-registry.json", "--format", "json")
    whole = json.loads(out)["stability"]["groups"][0]
    trials = Counter(record["item"] for record in expected)
    assert (whole["items"], whole["trials"], whole["least_trials"]) == (len(trials), len(expected), min(trials.values()))


def rewritten(source: Path, target: Path, change) -> Path:
    records = [json.loads(line) for line in source.read_text().splitlines()]
    for number, record in enumerate(records):
        change(number, record)
    target.write_text("".join(json.dumps(record) + "\n" for record in records))
    return target


def test_the_generation_settings_side_by_side_those_that_differ_first(tmp_path, runs, run_json, monkeypatch):
    new, old, _ = runs
    before = rewritten(old, tmp_path / "before.jsonl", lambda n, record: record.update(temperature=0.0))
    after = rewritten(new, tmp_path / "after.jsonl",
                      lambda n, record: record.update(temperature=0.7 if n % 4 else 0.0, max_tokens=512))
    found = run_json(after, "--against", before)["comparison"]["settings"]
    names = [setting["setting"] for setting in found["settings"]]
    assert names == ["temperature", "max_tokens", "model", "prompt_version"]  # differing first, then the same
    temperature = found["settings"][0]
    records = ITEMS * TRIALS * 3
    assert temperature["differs"] and temperature["mixed"]
    assert temperature["before"] == [{"value": "0.0", "records": records}]
    assert temperature["after"] == [{"value": "0.7", "records": records * 3 // 4},
                                    {"value": "0.0", "records": records // 4}]
    assert found["settings"][1]["before"] == [{"value": None, "records": records}]
    assert not found["settings"][2]["differs"] and found["verified_with"]["verifier"].startswith("contract-")
    # two runs generated alike: nothing said
    assert "settings" not in run_json(new, "--against", old)["comparison"]
    monkeypatch.setattr(tally_module, "SETTINGS_KEPT", 1)  # one combination of settings kept a run: the rest counted
    bounded = run_json(after, "--against", before, "--workers", "1")["comparison"]["settings"]
    past = bounded["records_past_bound"]
    for setting in bounded["settings"]:
        for side in ("before", "after"):
            assert len(setting[side]) == 1 and setting[side][0]["records"] + past[side] == records


def test_a_by_key_past_its_bound_has_its_other_values_in_one_group(runs, registry, monkeypatch):
    """As in the groups: the values of a --by key past the bound kept are other:KEY, in stability and pairing."""
    new, old, _ = runs
    monkeypatch.setattr(tally_module, "BY_VALUES", 2)
    after, before = (triage([str(log)], registry, BY_MODEL, workers=1) for log in (new, old))
    groups = [group.group for group in summarize(after, BY_MODEL).stability.groups]
    assert len(groups) == 4 and groups[0] == "all" and "other:model" in groups
    populations = [population.group for population in pair_items(after, before, BY_MODEL).populations]
    assert populations[-1] == "other:model" and len(populations) <= 5


def test_an_item_member_of_null_names_no_item(tmp_path, runs, capsys):
    new, _, registry = runs
    log = rewritten(new, tmp_path / "null.jsonl", lambda n, record: record.update(item=None) if n % 2 else None)
    status, out, err = run_main(capsys, "triage", log, "--registry", registry, "--format", "json", "--item", "item")
    found = json.loads(out)["stability"]
    assert found["records_without_item"] == ITEMS * TRIALS * 3 // 2
