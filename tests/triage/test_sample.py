"""``triage.sample``: the reservoir an export's ``--sample N --seed S`` keeps (issue 20, in a group).

The sample is the N records of smallest key: the same for a seed however the log is split among
workers, the same as the overview's form draws from the index, uniform, and in log order."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from inspector.suites.load import bundled_root, load_registry
from inspector.triage import Options, triage
from inspector.triage.sample import MAX_SEED, Reservoir, parse_sample, parse_seed, sample_numbers

SAMPLE = Path(bundled_root()) / "logs" / "sample.jsonl"
REGISTRY = Path(bundled_root()) / "logs" / "sample-registry.json"


def fed(places: list[tuple[str, int]], size: int, seed: int, parts: int = 1) -> Reservoir:
    """A reservoir of ``places`` (file, offset), fed in ``parts`` pieces merged in order."""
    step = max(1, -(-len(places) // parts))
    pieces = []
    for start in range(0, len(places), step):
        piece = Reservoir(size, seed)
        for file, offset in places[start:start + step]:
            piece.offer(file, offset, (file, offset))
        pieces.append(piece)
    whole = Reservoir(size, seed)
    for piece in pieces:
        whole.merge(piece)
    return whole


class TestReservoir:
    PLACES = [("a.jsonl", offset * 100) for offset in range(300)] + [("b.jsonl", offset * 7) for offset in range(50)]

    def test_any_split_keeps_what_one_pass_keeps_and_the_index_draws_the_same(self):
        one = fed(self.PLACES, 20, 11)
        for parts in (2, 3, 7, 350):
            assert fed(self.PLACES, 20, 11, parts) == one
        assert one.items() == [self.PLACES[number] for number in sample_numbers(self.PLACES, 20, 11)]
        assert one.seen == 350 and len(one) == 20

    def test_the_sample_comes_out_in_log_order(self):
        items = fed(self.PLACES, 60, 3).items()
        assert items == sorted(items, key=lambda place: (place[0], place[1]))
        assert {file for file, _ in items} == {"a.jsonl", "b.jsonl"}

    def test_another_seed_draws_other_records_and_fewer_than_asked_is_all(self):
        assert fed(self.PLACES, 20, 1).items() != fed(self.PLACES, 20, 2).items()
        assert fed(self.PLACES[:5], 20, 1).items() == self.PLACES[:5]

    def test_each_record_is_about_as_likely_as_any_other(self):
        # 400 seeds, 10 of 40 records each: each record is expected 100 times (sd ~8.7).
        places = [("log", offset) for offset in range(40)]
        chosen = Counter(number for seed in range(400) for number in sample_numbers(places, 10, seed))
        assert len(chosen) == 40 and 65 <= min(chosen.values()) and max(chosen.values()) <= 135


class TestParsing:
    @pytest.mark.parametrize("text", ["0", "7", " 42 ", str(MAX_SEED)])
    def test_a_seed(self, text):
        assert parse_seed(text) == int(text)

    @pytest.mark.parametrize("text", ["", "x", "-1", "1.5", "1e3", "²", str(MAX_SEED + 1), "9" * 5000])
    def test_not_a_seed(self, text):
        with pytest.raises(ValueError, match="a seed is a whole number from 0"):
            parse_seed(text)

    @pytest.mark.parametrize("text", ["0", "-2", "x", "", "1,000", "99999999999"])
    def test_not_a_sample(self, text):
        with pytest.raises(ValueError, match="a sample is a whole number of records from 1"):
            parse_sample(text)


def test_the_counting_keeps_the_same_sample_whatever_the_workers():
    registry = load_registry(REGISTRY)
    options = Options(by=("model",), collect="model=gpt-x", sample=7, seed=5)
    one = triage([str(SAMPLE)], registry, options, workers=1)
    split = triage([str(SAMPLE)], registry, options, workers=2, parallel_min_bytes=0, task_bytes=20_000)
    assert one.sampled is not None and split.sampled is not None
    assert one.sampled.items() == split.sampled.items() and one.sampled.seen == split.sampled.seen == 149
    lines = SAMPLE.read_bytes().split(b"\n")
    for file, line, offset, text, label in split.sampled.items():  # the lines as numbered in the whole log
        assert lines[line - 1] == text and SAMPLE.read_bytes()[offset:].startswith(text)
    assert one.collected == [] and len(one.sampled.items()) == 7
