"""triage.compare: the two-proportion z-test against hand-computed values, a
population group's rejected share compared (one model's regression flagged,
first), noise not flagged, new and vanished groups, the JSON of a comparison;
the false discovery rate controlled over the groups tested (Benjamini-Hochberg:
two synthetic logs of the same mix flag nothing, a planted shift is flagged
first), the rates printed so that a change reads as one; summary.Group's rates;
two sides counted in one pool (run.triage_runs)."""

from __future__ import annotations

import json
import math
from statistics import NormalDist

import pytest

from inspector.suites.load import load_registry
from inspector.triage import Options, triage, triage_runs
from inspector.triage.compare import (
    FDR,
    MIN_EXPECTED,
    Side,
    benjamini_hochberg,
    compare,
    enough_records,
    shown_rates,
    two_proportion_z,
)
from inspector.triage.summary import summarize

from support import ANSWERS, PAYMENTS_REGISTRY, PAYMENTS_REQUEST

REQUEST = json.loads(PAYMENTS_REQUEST.read_text())
ACCEPT = (ANSWERS / "accept.json").read_text()
MISMATCH = (ANSWERS / "value-mismatch.json").read_text()
STALE = (ANSWERS / "stale-revision.json").read_text()
BY_MODEL = Options(by=("model",))


def write(path, *runs: tuple[int, str, str]) -> str:
    """A log of ``count`` records of ``answer`` by ``model`` for each run."""
    lines = [json.dumps({"model": model, "raw": answer, "request": REQUEST})
             for count, answer, model in runs for _ in range(count)]
    path.write_text("\n".join(lines) + "\n")
    return str(path)


@pytest.fixture(scope="module")
def registry():
    return load_registry(PAYMENTS_REGISTRY)


def summary_of(log: str, registry, options: Options = BY_MODEL):
    return summarize(triage([log], registry, options, workers=1), options, [log])


@pytest.fixture(scope="module")
def regression(tmp_path_factory, registry):
    """llama-z's answers rejected 40% of the time, then 80%, at the same third of the traffic;
    gpt-x's 40%, then 41%."""
    folder = tmp_path_factory.mktemp("compare")
    before = write(folder / "before.jsonl", (120, ACCEPT, "gpt-x"), (80, MISMATCH, "gpt-x"),
                   (60, ACCEPT, "llama-z"), (40, MISMATCH, "llama-z"))
    after = write(folder / "after.jsonl", (118, ACCEPT, "gpt-x"), (82, MISMATCH, "gpt-x"),
                  (20, ACCEPT, "llama-z"), (80, MISMATCH, "llama-z"))
    return summary_of(after, registry), summary_of(before, registry)


class TestTwoProportionZ:
    def test_against_hand_computed_values(self):
        # 45/100 then 60/100: pooled 0.525, se = sqrt(0.525 * 0.475 * (1/100 + 1/100)) = 0.0706222
        z, p = two_proportion_z(45, 100, 60, 100)
        assert z == pytest.approx(0.15 / 0.0706222, rel=1e-6) == pytest.approx(2.12398, rel=1e-5)
        assert p == pytest.approx(0.033673, rel=1e-4)
        # the llama-z: 31/52 (59.6%) then 62/80 (77.5%)
        z, p = two_proportion_z(31, 52, 62, 80)
        pooled = 93 / 132
        assert z == pytest.approx((62 / 80 - 31 / 52) / math.sqrt(pooled * (1 - pooled) * (1 / 52 + 1 / 80)))
        assert z == pytest.approx(2.2006, abs=1e-4) and p == pytest.approx(0.02777, abs=1e-5)

    def test_the_p_value_is_the_normal_two_sided_tail(self):
        for counts in ((10, 200, 30, 200), (500, 1000, 450, 1000), (3, 50, 1, 70)):
            z, p = two_proportion_z(*counts)
            assert p == pytest.approx(2 * (1 - NormalDist().cdf(abs(z))), abs=1e-12)

    def test_the_sign_is_the_direction_of_the_change(self):
        assert two_proportion_z(60, 100, 45, 100)[0] < 0 < two_proportion_z(45, 100, 60, 100)[0]

    def test_nothing_to_test(self):
        assert two_proportion_z(0, 0, 5, 10) is None and two_proportion_z(5, 10, 0, 0) is None
        assert two_proportion_z(0, 10, 0, 20) == (0.0, 1.0) and two_proportion_z(10, 10, 20, 20) == (0.0, 1.0)

    def test_the_normal_approximation_needs_enough_records(self):
        assert MIN_EXPECTED == 5 and FDR == 0.01
        assert enough_records(45, 100, 60, 100)
        assert not enough_records(1, 1992, 2, 292)  # a claim seen once, then twice: about 0.4 expected
        assert not enough_records(0, 0, 3, 10)
        # a tiny p on a handful of records is not called significant
        z, p = two_proportion_z(0, 2000, 3, 100)
        assert p < FDR and not enough_records(0, 2000, 3, 100)


class TestGroupRates:
    def test_a_population_group_has_its_rejected_share(self, regression):
        after, _ = regression
        llama = after.group("model=llama-z")
        assert (llama.records, llama.population, llama.rejected) == (100, 100, 80)
        assert llama.rate == pytest.approx(100 / 300) and llama.total == 300
        assert llama.rejected_rate == pytest.approx(0.8)
        assert llama.check_rates == {"VALUE_MISMATCH": pytest.approx(0.8), "ACCEPT": pytest.approx(0.2)}
        document = llama.to_dict()
        assert document["population"] == 100 and document["rejected"] == 80 and document["rejected_rate"] == 0.8
        assert document["rate"] == round(100 / 300, 6) and document["of"] == 300
        assert document["by_check"] == {"VALUE_MISMATCH": 80, "ACCEPT": 20}
        assert document["by_check_rate"] == {"VALUE_MISMATCH": 0.8, "ACCEPT": 0.2}

    def test_a_check_group_is_a_share_of_every_record(self, regression):
        after, _ = regression
        mismatch = after.group("VALUE_MISMATCH")
        assert mismatch.population is None and mismatch.rejected_rate is None
        document = mismatch.to_dict()
        assert document["records"] == 162 and document["of"] == 300 and document["rate"] == 0.54
        assert "population" not in document and "rejected_rate" not in document


class TestCompare:
    def test_one_models_regression_is_flagged_and_first(self, regression):
        after, before = regression
        shifts = compare(after, before)
        top = shifts[0]
        assert top.name == "model=llama-z" and top.measure == "rejected"
        assert (top.before, top.after) == (Side(40, 100), Side(80, 100))
        assert top.change == pytest.approx(0.4) and top.significant and top.tested
        assert top.z == pytest.approx(two_proportion_z(40, 100, 80, 100)[0]) and top.p < 1e-6
        # its share of the traffic did not move: a share of all records would have said +0.0 pt
        assert after.group("model=llama-z").rate == before.group("model=llama-z").rate

    def test_noise_is_not_flagged(self, regression):
        after, before = regression
        gpt = next(shift for shift in compare(after, before) if shift.name == "model=gpt-x")
        assert (gpt.before, gpt.after) == (Side(80, 200), Side(82, 200))
        assert gpt.tested and not gpt.significant and gpt.p > 0.5

    def test_significant_first_then_by_weight(self, regression):
        shifts = compare(*regression)
        flags = [shift.significant for shift in shifts]
        assert flags == sorted(flags, reverse=True)
        flagged = [abs(shift.z) for shift in shifts if shift.significant]
        assert flagged == sorted(flagged, reverse=True)
        # a check group's compared rate is its share of every record: VALUE_MISMATCH 120/300 -> 162/300
        mismatch = next(shift for shift in shifts if shift.name == "VALUE_MISMATCH")
        assert (mismatch.before, mismatch.after, mismatch.measure) == (Side(120, 300), Side(162, 300), "records")
        assert mismatch.significant

    def test_new_and_vanished_groups(self, tmp_path, registry):
        before = summary_of(write(tmp_path / "b.jsonl", (30, ACCEPT, "old"), (20, ACCEPT, "gpt-x")), registry)
        after = summary_of(write(tmp_path / "a.jsonl", (30, STALE, "new"), (20, ACCEPT, "gpt-x")), registry)
        shifts = {shift.name: shift for shift in compare(after, before)}
        new, gone = shifts["model=new"], shifts["model=old"]
        assert new.new and not new.vanished and new.before == Side(0, 0) and new.after == Side(30, 30)
        assert gone.vanished and not gone.new and gone.after == Side(0, 0)
        for shift in (new, gone):  # no rate on one side: no change, no test
            assert shift.change is None and shift.z is None and shift.p is None and not shift.significant
        stale = shifts["STALE_REVISION"]  # a check group new: 0 of before's records
        assert stale.new and stale.before == Side(0, 50) and stale.after == Side(30, 50) and stale.significant
        assert not shifts["model=gpt-x"].new and shifts["model=gpt-x"].change == 0.0

    def test_the_json_of_a_comparison(self, regression):
        top = compare(*regression)[0].to_dict()
        assert set(top) == {"group", "kind", "measure", "before", "after", "change", "z", "p", "q", "tested",
                            "significant", "new", "vanished"}
        assert top["before"] == {"count": 40, "of": 100, "rate": 0.4}
        assert top["after"] == {"count": 80, "of": 100, "rate": 0.8}
        assert top["change"] == 0.4 and top["significant"] is True and 0 < top["p"] < 1e-6


SEEDS = (0, 1, 3, 4)  # at p < 0.01 a group each, two of their pairs showed a change: chance
PLANTED = "model=planted"


@pytest.fixture(scope="module")
def same_mix(tmp_path_factory):
    """Synthetic logs of the same mix (``inspector synth``), one a seed, counted by model and prompt version;
    and the first two again with a planted model's records appended: 300 a side, 60% rejected before, 78%
    after (records of the log accepted, each rejected one's answer cut to ``{``)."""
    from inspector.triage.synth import write_log, write_registry

    folder = tmp_path_factory.mktemp("same-mix")
    registry = load_registry(write_registry(folder / "registry.json"))
    options = Options(by=("model", "prompt_version"))
    logs = {}
    for seed in SEEDS:
        write_log(folder / f"{seed}.jsonl", 4000, seed=seed)
        logs[seed] = str(folder / f"{seed}.jsonl")
    summaries = {seed: summarize(triage([log], registry, options, workers=1), options, [log])
                 for seed, log in logs.items()}
    index = triage([logs[0]], registry, Options(index=True), workers=1).index
    accepted = [index.entry(number)[1] for number in range(len(index)) if index.entry(number)[3] == "ACCEPT"]
    texts = (folder / "0.jsonl").read_text().splitlines()
    planted = []
    for rejected in (180, 234):
        records = [json.loads(texts[line - 1]) for line in accepted[:300]]
        for number, record in enumerate(records):
            record["model"] = "planted"
            if number < rejected:
                record["raw"] = "{"
        planted.append("".join(json.dumps(record) + "\n" for record in records))
    shifted = []
    for seed, lines in zip(SEEDS[:2], planted, strict=True):
        path = folder / f"planted-{seed}.jsonl"
        path.write_text((folder / f"{seed}.jsonl").read_text() + lines)
        shifted.append(summarize(triage([str(path)], registry, options, workers=1), options, [str(path)]))
    return summaries, shifted


class TestFalseDiscoveryRate:
    def test_benjamini_hochberg_against_hand_computed_values(self):
        # sorted 0.005, 0.01, 0.03, 0.04 (m = 4): p m / rank = 0.02, 0.02, 0.04, 0.04, the least from each up
        assert benjamini_hochberg([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.02, 0.04, 0.04, 0.02])
        assert benjamini_hochberg([0.5, 0.001]) == pytest.approx([0.5, 0.002])
        assert benjamini_hochberg([0.9, 0.8]) == pytest.approx([0.9, 0.9])  # never above a later one
        assert benjamini_hochberg([]) == [] and benjamini_hochberg([0.7]) == [0.7]

    def test_two_logs_of_the_same_mix_flag_no_change(self, same_mix):
        # before: "significant" at p < 0.01 a group, and two of these pairs each flagged a change of chance
        summaries, _ = same_mix
        for first, second in ((a, b) for a in SEEDS for b in SEEDS if a < b):
            compared = compare(summaries[second], summaries[first])
            assert compared.tested > 50  # the family: every group with records enough on both sides
            assert compared.significant == [], (first, second, [shift.name for shift in compared.significant])
            assert compared.rule == f"q < 0.01, Benjamini-Hochberg over the {compared.tested:,} group(s) tested"

    def test_a_planted_shift_is_flagged_first(self, same_mix):
        _, (before, after) = same_mix
        compared = compare(after, before)
        top = compared[0]
        assert top.name == PLANTED and (top.before, top.after) == (Side(180, 300), Side(234, 300))
        assert top.significant and top.p <= top.q < FDR
        assert top.rates_words() == ("60.0%", "78.0%")
        populations = [shift.name for shift in compared.significant if shift.population]
        assert populations == [PLANTED]  # no other model or prompt version flagged

    def test_a_significant_change_never_reads_as_none(self, same_mix):
        _, (before, after) = same_mix
        for shift in compare(after, before):
            if shift.change:
                was, now = shift.rates_words()
                assert was != now, shift.name
        # before: "0.1%" and "0.1%"
        assert shown_rates(0.001, 0.0013) == ("0.10%", "0.13%")
        assert shown_rates(0.4, 0.8) == ("40.0%", "80.0%") and shown_rates(0.25, 0.25) == ("25.0%", "25.0%")
        assert shown_rates(None, 0.5) == ("-", "50.0%") and shown_rates(0.0002, 0.0) == ("0.02%", "0.00%")

    def test_the_json_names_the_family(self, regression):
        document = compare(*regression).to_dict()
        assert (document["correction"], document["fdr"]) == ("Benjamini-Hochberg", 0.01)
        tested = [group for group in document["groups"] if group["tested"]]
        assert document["tested"] == len(tested) and document["significant"] == \
            sum(group["significant"] for group in document["groups"])
        assert all(group["q"] is None for group in document["groups"] if not group["tested"])
        assert all(group["q"] >= group["p"] for group in tested)


class TestRuns:
    def test_two_sides_in_one_pool_count_as_each_alone(self, tmp_path, registry):
        a = write(tmp_path / "a.jsonl", (50, ACCEPT, "x"), (30, MISMATCH, "y"))
        b = write(tmp_path / "b.jsonl", (20, STALE, "x"), (10, ACCEPT, "z"))
        for workers in (1, 2):
            both = triage_runs([([a], BY_MODEL), ([b], Options())], registry, workers=workers,
                               parallel_min_bytes=0, task_bytes=4096)
            assert both[0] == triage([a], registry, BY_MODEL, workers=1)
            assert both[1] == triage([b], registry, Options(), workers=1)
            assert both[1].by == {} and both[0].records == 80 and both[1].records == 30


class TestPivot:
    def test_two_dimensions_crossed_with_their_rejected_share(self, tmp_path, registry):
        from inspector.triage.pivot import pivot, pivot_problem

        log = tmp_path / "p.jsonl"
        rows = [(3, ACCEPT, "gpt-x", "p1"), (1, MISMATCH, "gpt-x", "p1"), (2, MISMATCH, "llama-z", "p2"),
                (2, ACCEPT, "llama-z", "p1")]
        log.write_text("".join(json.dumps({"model": model, "prompt_version": prompt, "raw": answer,
                                           "request": REQUEST}) + "\n"
                               for count, answer, model, prompt in rows for _ in range(count)))
        options = Options(by=("model", "prompt_version"))
        tally = triage([str(log)], registry, options, workers=1)
        crossed = pivot(tally, ("model", "prompt_version"))
        cells = {(cell.a, cell.b): cell for cell in crossed.cells}
        assert set(cells) == {("model=gpt-x", "prompt_version=p1"), ("model=llama-z", "prompt_version=p2"),
                              ("model=llama-z", "prompt_version=p1")}
        gpt = cells[("model=gpt-x", "prompt_version=p1")]
        assert (gpt.records, gpt.rejected, gpt.rejected_rate) == (4, 1, 0.25)
        assert gpt.by_check == {"VALUE_MISMATCH": 1, "ACCEPT": 3}
        assert crossed.cells[0] is gpt  # the most records first
        assert cells[("model=llama-z", "prompt_version=p2")].rejected_rate == 1.0
        by_scope = pivot(tally, ("scope", "model"))
        assert sum(cell.records for cell in by_scope.cells) == tally.records == 8
        assert all(cell.a.startswith("scope:") for cell in by_scope.cells)
        assert crossed.to_dict()["cells"][0] == {"a": "model=gpt-x", "b": "prompt_version=p1", "records": 4,
                                                 "of": 4, "share": 1.0, "rejected": 1, "rejected_rate": 0.25,
                                                 "by_check": {"VALUE_MISMATCH": 1, "ACCEPT": 3}}
        assert pivot_problem("model") and pivot_problem("model,model") and pivot_problem("a,")
        assert pivot_problem("model,prompt_version") is None
