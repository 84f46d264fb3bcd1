"""Partial counts of a log (inspector.triage.tally), as the engine relies on
them: one chunk counted into records, verdicts, bad lines by kind, skipped
rows and records without a readable time; the index of every line; a tally
renumbered, and tallies merged (associative, ``Tally()`` the identity, any
split of a log merged back equal to one pass: a property)."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector.suites.load import load_registry
from inspector.triage import tally as tally_module
from inspector.triage.mapping import LogFormat
from inspector.triage.synth import write_log, write_registry
from inspector.triage.tally import BAD_CODE, VERDICT_LABELS, Index, Options, Tally, merge, tally_chunk, tally_range
from inspector.triage.timeline import parse_ts

from support import ANSWERS, PAYMENTS_REGISTRY, PAYMENTS_REQUEST

REQUEST = json.loads(PAYMENTS_REQUEST.read_text())
ACCEPT = (ANSWERS / "accept.json").read_text()
MISMATCH = (ANSWERS / "value-mismatch.json").read_text()


def record(raw: str, **members: object) -> bytes:
    return json.dumps({"raw": raw, "request": REQUEST, **members}).encode()


# One chunk: (line, what it is). Lines 3 and 7 are bad, 4 has no ts, 5 one that cannot be read.
CHUNK = [
    (record(ACCEPT, ts="2026-01-01T00:00:10Z", model="a"), "ACCEPT"),
    (record(MISMATCH, ts="2026-01-01T00:01:30Z", model="b"), "VALUE_MISMATCH"),
    (b"", "BAD"),
    (record(ACCEPT, model="a"), "ACCEPT"),
    (record(ACCEPT, ts="yesterday", model="a"), "ACCEPT"),
    (record(MISMATCH, ts="2026-01-01T00:01:59Z"), "VALUE_MISMATCH"),
    (b"[1]", "BAD"),
]
DATA = b"".join(line + b"\n" for line, _ in CHUNK)
STARTS = [sum(len(line) + 1 for line, _ in CHUNK[:number]) for number in range(len(CHUNK))]


@pytest.fixture(scope="module")
def registry():
    return load_registry(PAYMENTS_REGISTRY)


def statuses(tally: Tally) -> dict[str, int]:
    found: dict[str, int] = {}
    for (status, *_), count in tally.verdicts.items():
        found[status] = found.get(status, 0) + count
    return found


class TestAChunk:
    def test_its_records_verdicts_and_bad_lines(self, registry):
        tally = tally_chunk("app.jsonl", 0, DATA, 1, registry, Options())
        assert (tally.lines, tally.records, tally.bad_lines) == (7, 5, 2)
        assert statuses(tally) == {"ACCEPT": 3, "VALUE_MISMATCH": 2}
        assert dict(tally.bad_kinds) == {"empty line": 1, "not an object": 1}
        assert [(file, line) for file, line, _ in tally.bad] == [("app.jsonl", 3), ("app.jsonl", 7)]
        assert dict(tally.claims) == {("VALUE_MISMATCH", "read_timeout_ms", "prod-v2"): 2}  # (check, field, doc)

    def test_its_first_line_number_is_the_one_given(self, registry):
        tally = tally_chunk("app.jsonl", 1000, DATA, 41, registry, Options())
        assert [line for _, line, _ in tally.bad] == [43, 47]

    def test_records_without_a_readable_time_and_the_minutes_of_the_others(self, registry):
        tally = tally_chunk("app.jsonl", 0, DATA, 1, registry, Options())
        assert (tally.no_ts, tally.bad_ts) == (2, 1)  # line 4 has none, line 5's cannot be read
        minute = int(parse_ts(b'"2026-01-01T00:00:00Z"') // 60)
        assert dict(tally.minutes) == {(minute, "ACCEPT"): 1, (minute + 1, "VALUE_MISMATCH"): 2}

    def test_a_window_leaves_out_records_outside_it_and_undated_ones(self, registry):
        since = parse_ts(b'"2026-01-01T00:01:00Z"')
        tally = tally_chunk("app.jsonl", 0, DATA, 1, registry, Options(since=since))
        assert (tally.records, tally.outside, tally.undated, tally.bad_lines) == (2, 1, 2, 2)
        assert statuses(tally) == {"VALUE_MISMATCH": 2}

    def test_by_a_member_counts_each_value_and_the_records_without_it(self, registry):
        tally = tally_chunk("app.jsonl", 0, DATA, 1, registry, Options(by=("model",)))
        assert dict(tally.by["model"]) == {(b'"a"', "ACCEPT"): 3, (b'"b"', "VALUE_MISMATCH"): 1,
                                           (None, "VALUE_MISMATCH"): 1}
        assert tally.by_values["model"] == {b'"a"': 3, b'"b"': 1, None: 1}

    def test_rows_a_format_says_are_not_answers_are_skipped_not_bad(self, registry):
        data = DATA + b'{"@skip": "SPAN", "source": {}}\n{"@skip": "SPAN"}\n{"@skip": "retriever"}\n'
        tally = tally_chunk("staged.jsonl", 0, data, 1, registry, Options(log_format=LogFormat(staged=True)))
        assert (tally.lines, tally.records, tally.bad_lines) == (10, 5, 2)
        assert dict(tally.skipped) == {"SPAN": 2, "retriever": 1}


class TestIndex:
    def test_every_line_with_its_place_and_label(self, registry):
        index = tally_chunk("app.jsonl", 0, DATA, 1, registry, Options(index=True)).index
        assert len(index) == len(CHUNK)
        assert [index.entry(number) for number in range(len(CHUNK))] == [
            ("app.jsonl", number + 1, STARTS[number], label) for number, (_, label) in enumerate(CHUNK)]
        assert list(index.where("BAD")) == [2, 6] and list(index.where("VALUE_MISMATCH")) == [1, 5]
        assert index.code[2] == BAD_CODE and VERDICT_LABELS[-1] == "ACCEPT"

    def test_each_record_s_cell_and_failing_claim_a_bad_line_none(self, registry):
        tally = tally_chunk("app.jsonl", 0, DATA, 1, registry, Options(index=True, by=("model",)))
        cells = tally.index.values("cell")
        assert [cell is None for cell in cells] == [label == "BAD" for _, label in CHUNK]
        assert {cell for cell in cells if cell is not None} == set(tally.cells)
        claims = tally.index.values("claim")
        assert [claim is not None for claim in claims] == [label == "VALUE_MISMATCH" for _, label in CHUNK]
        assert {claim for claim in claims if claim is not None} == set(tally.claims)

    def test_an_index_added_follows_with_its_files(self, registry):
        first = tally_chunk("a.jsonl", 0, DATA, 1, registry, Options(index=True)).index
        second = tally_chunk("b.jsonl", 0, DATA, 1, registry, Options(index=True)).index
        both = Index()
        both.add(first)
        both.add(second)
        assert len(both) == 2 * len(CHUNK) and both.files == ["a.jsonl", "b.jsonl"]
        assert both.entry(len(CHUNK) + 2) == ("b.jsonl", 3, STARTS[2], "BAD")
        assert both.values("cell") == first.values("cell") + second.values("cell")


class TestRenumberAndAdd:
    def test_shift_renumbers_the_lines_kept(self, registry):
        tally = tally_chunk("app.jsonl", 0, DATA, 1, registry, Options(index=True)).shift(100)
        assert [line for _, line, _ in tally.bad] == [103, 107]
        assert list(tally.index.line) == list(range(101, 108))

    def test_tallies_grouped_by_other_keys_do_not_add_up(self, registry):
        by_model = tally_chunk("app.jsonl", 0, DATA, 1, registry, Options(by=("model",)))
        plain = tally_chunk("app.jsonl", 0, DATA, 1, registry, Options())
        with pytest.raises(ValueError, match="do not add up"):
            merge(by_model, plain)

    def test_bad_lines_past_those_kept_are_counted(self, monkeypatch):
        monkeypatch.setattr(tally_module, "BAD_KEPT", 2)
        tally = Tally()
        for line in range(1, 4):
            tally.note_bad("app.jsonl", line, "not JSON: x", "not JSON")
        assert (tally.bad_lines, tally.bad_more, dict(tally.bad_kinds)) == (3, 1, {"not JSON": 3})
        assert tally.bad == [("app.jsonl", 1, "not JSON: x"), ("app.jsonl", 2, "not JSON: x")]

    def test_two_chunks_merged_are_the_two_lines_counted_at_once(self, registry):
        half = len(CHUNK) // 2
        first = tally_chunk("app.jsonl", 0, DATA[:STARTS[half]], 1, registry, Options(index=True, by=("model",)))
        second = tally_chunk("app.jsonl", STARTS[half], DATA[STARTS[half]:], half + 1, registry,
                             Options(index=True, by=("model",)))
        assert merge(first, second) == tally_chunk("app.jsonl", 0, DATA, 1, registry,
                                                   Options(index=True, by=("model",)))


class TestSplitAndMerge:
    @pytest.fixture(scope="class")
    def small(self, tmp_path_factory):
        folder = tmp_path_factory.mktemp("split")
        registry = load_registry(write_registry(folder / "registry.json"))
        write_log(folder / "small.jsonl", 40, seed=2, bad_per_kind=1)
        return str(folder / "small.jsonl"), registry

    def test_merge_is_associative_with_an_identity(self, small):
        path, registry = small
        size = os.path.getsize(path)
        options = Options(by=("model",), index=True, series=True)
        a, b, c = (tally_range(path, start, end, registry, options)
                   for start, end in ((0, size // 3), (size // 3, 2 * size // 3), (2 * size // 3, size)))
        assert merge(merge(a, b), c) == merge(a, merge(b, c))
        assert merge(Tally(), a) == a == merge(a, Tally())

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(data=st.data())
    def test_any_split_merged_equals_one_pass(self, small, data):
        path, registry = small
        size = os.path.getsize(path)
        cuts = sorted(data.draw(st.lists(st.integers(0, size), max_size=6)))
        options = Options(by=("model", "prompt_version"), index=True, series=True)
        whole = tally_range(path, 0, size, registry, options)
        parts = Tally()
        for start, end in zip([0, *cuts], [*cuts, size]):
            parts = merge(parts, tally_range(path, start, end, registry, options))
        assert parts == whole
        assert whole.lines == 40
