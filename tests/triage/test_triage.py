"""The triage engine (inspector.triage): counts against the generator's mix,
exactly; bad lines of every kind with their file and line; empty, .gz, standard
input and several logs; --by; the time histogram and --since/--until; the index
and read_record (a tally's own counting and merging: tests/triage/test_tally.py)."""

from __future__ import annotations

import gzip
import io
import json
import os
from collections import Counter
from pathlib import Path

import pytest

from inspector.contract.checks import STATUSES, label_of
from inspector.contract.evidence import category_for
from inspector.suites.load import load_registry
from inspector.triage import (
    BadLine,
    LogError,
    LogRecord,
    Options,
    Tally,
    read_record,
    triage,
)
from inspector.triage import logs as logs_module
from inspector.triage.groups import GroupKind
from inspector.triage.records import MAX_LINE_BYTES
from inspector.triage.summary import summarize
from inspector.triage.synth import BAD_LINE_KINDS, write_log, write_registry
from inspector.triage.timeline import histogram, parse_time, parse_ts

from support import PAYMENTS_REGISTRY, PAYMENTS_REQUEST, ANSWERS

LINES = 700


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A registry and a log of the generator's default mix, with its mix."""
    folder = tmp_path_factory.mktemp("triage")
    registry = write_registry(folder / "registry.json")
    mix = write_log(folder / "app.jsonl", LINES, seed=11)
    return folder, load_registry(registry), mix


def labels(tally: Tally) -> Counter:
    found: Counter = Counter()
    for (status, reason, *_), count in tally.verdicts.items():
        found[label_of(status, reason)] += count
    return found


class TestCountsAgainstTheGenerator:
    def test_every_count_is_what_the_generator_wrote(self, made):
        folder, registry, mix = made
        tally = triage([str(folder / "app.jsonl")], registry, Options(by=("model",)), workers=1)
        assert tally.lines == LINES
        assert tally.records == mix.records
        assert labels(tally) == mix.labels
        assert Counter(tally.claims) == mix.claims
        scopes: Counter = Counter()
        for (scope, _), count in tally.scopes.items():
            scopes[scope] += count
        assert scopes == mix.scopes
        models = Counter({(json.loads(member), status): n for (member, status), n in tally.by["model"].items()})
        assert models == mix.models
        blame: Counter = Counter()
        for (*_, who, _), count in tally.verdicts.items():
            if who is not None:
                blame[who] += count
        assert blame == mix.blame
        assert (tally.no_ts, tally.bad_ts) == (mix.no_ts, mix.bad_ts)
        assert [(line, next(k for k in BAD_LINE_KINDS if error.startswith(k))) for _, line, error in tally.bad] \
            == mix.bad

    def test_the_summary_names_the_same_counts(self, made):
        folder, registry, mix = made
        options = Options(by=("model",))
        summary = summarize(triage([str(folder / "app.jsonl")], registry, options, workers=1), options)
        statuses = mix.statuses
        assert summary.by_check == {status: statuses.get(status, 0) for status in STATUSES}
        assert all(summary.by_reason[label] == mix.labels[label] for label in summary.by_reason)
        # The categories follow from the labels (this registry has no conflicts, no scope).
        expected: Counter = Counter()
        for label, count in mix.labels.items():
            status, _, reason = label.partition("/")
            category = category_for(status, reason or None, False)
            if category is not None:
                expected[category.id] += count
        assert {g.detail.category: g.records for g in summary.of_kind(GroupKind.CATEGORY)} == expected
        strict = mix.records - statuses["INVALID_JSON"]
        citation = strict - statuses["NO_CITATION"]
        assert summary.rungs == [("strict_json", "strict JSON", strict), ("citation_only", "citation-only", citation),
                                  ("contract", "contract", statuses["ACCEPT"])]
        assert summary.group("false_accept:citation_only").records == citation - statuses["ACCEPT"]
        assert summary.group("model=gpt-x").records == sum(n for (m, _), n in mix.models.items() if m == "gpt-x")
        assert summary.group("bad").records == len(mix.bad)
        # The default mix: about 80% strict JSON.
        assert 0.7 < strict / mix.records < 0.9

    def test_every_core_counts_the_same(self, made):
        folder, registry, _ = made
        options = Options(by=("model", "prompt_version"), index=True)
        one = triage([str(folder / "app.jsonl")], registry, options, workers=1)
        many = triage([str(folder / "app.jsonl")], registry, options, workers=2, parallel_min_bytes=0,
                      task_bytes=20_000)
        assert many == one


class TestBadLines:
    def test_each_kind_is_listed_with_file_and_line(self, made, tmp_path):
        _, registry, _ = made
        request = json.loads(PAYMENTS_REQUEST.read_text())
        good = {"raw": (ANSWERS / "accept.json").read_text(), "request": request}
        lines = [
            json.dumps(good), "", "{not json", "[1, 2]", json.dumps({"request": request}),
            json.dumps({"raw": 7, "request": request}), json.dumps({"raw": "x"}),
            json.dumps({"raw": "x", "request": {**request, "fields": []}}),
            '{"raw": "a", "raw": "b", "request": ' + json.dumps(request) + "}",
            '{"raw": "x", "request": ' + "[" * 5000 + "]" * 5000 + "}",
        ]
        log = tmp_path / "bad.jsonl"
        log.write_text("\n".join(lines) + "\n")
        tally = triage([str(log)], load_registry(PAYMENTS_REGISTRY), workers=1)
        assert tally.records == 1
        found = [(file, line, error.split(":")[0]) for file, line, error in tally.bad]
        assert found == [(str(log), 2, "empty line"), (str(log), 3, "not JSON"), (str(log), 4, "not an object"),
                         (str(log), 5, "raw missing"), (str(log), 6, "raw not a string"),
                         (str(log), 7, "request missing"), (str(log), 8, "request unusable"),
                         (str(log), 9, "duplicate key"), (str(log), 10, "not JSON")]
        assert "request.fields: no field requested" in tally.bad[6][2]
        assert "raw is a number" in tally.bad[4][2]
        assert "nested too deeply" in tally.bad[8][2]

    @pytest.mark.parametrize("suffix", ["", ".gz"])
    def test_a_line_too_long_is_skipped_not_held(self, made, tmp_path, suffix):
        _, registry, _ = made
        log = tmp_path / f"long.jsonl{suffix}"
        opener = gzip.open if suffix else open
        with opener(log, "wb") as out:
            out.write(b'{"raw": "' + b"x" * (MAX_LINE_BYTES + 10) + b'"}\n')
            out.write(b"[1]\n")
        tally = triage([str(log)], load_registry(PAYMENTS_REGISTRY), workers=1)
        assert [(line, error.split(":")[0]) for _, line, error in tally.bad] == [(1, "too long"), (2, "not an object")]

    def test_a_broken_gz_is_listed_where_it_broke_and_the_next_log_is_read(self, made, tmp_path):
        folder, registry, mix = made
        data = gzip.compress((folder / "app.jsonl").read_bytes())
        broken = tmp_path / "broken.jsonl.gz"
        broken.write_bytes(data[: len(data) // 2])
        tally = triage([str(broken), str(folder / "app.jsonl")], registry, workers=1)
        [(file, after, problem)] = tally.broken
        assert file == str(broken) and "truncated" in problem
        assert all(line <= after for name, line, _ in tally.bad if name == str(broken))
        assert sum(1 for entry in tally.bad if entry[0] == str(folder / "app.jsonl")) == len(mix.bad)


class TestInputs:
    def test_an_empty_log_is_zero_records(self, tmp_path):
        log = tmp_path / "empty.jsonl"
        log.write_bytes(b"")
        tally = triage([str(log)], load_registry(PAYMENTS_REGISTRY))
        assert (tally.lines, tally.records, tally.bad) == (0, 0, [])
        summary = summarize(tally)
        assert summary.to_dict()["records"] == 0 and summary.histogram is None

    def test_gz_counts_as_plain(self, made, tmp_path, monkeypatch):
        folder, registry, _ = made
        packed = tmp_path / "app.log.gz"
        packed.write_bytes(gzip.compress((folder / "app.jsonl").read_bytes()))
        options = Options(by=("model",), index=True)
        plain = triage([str(folder / "app.jsonl")], registry, options, workers=1)
        monkeypatch.setattr(logs_module, "CHUNK_BYTES", 8192)  # many chunks, to the workers
        for workers in (1, 2):
            got = triage([str(packed)], registry, options, workers=workers, parallel_min_bytes=0)
            assert got.records == plain.records and got.verdicts == plain.verdicts and got.by == plain.by
            assert [line for _, line, _ in got.bad] == [line for _, line, _ in plain.bad]
            assert list(got.index.offset) == list(plain.index.offset)

    def test_standard_input(self, made):
        folder, registry, _ = made
        data = (folder / "app.jsonl").read_bytes()
        plain = triage([str(folder / "app.jsonl")], registry, workers=1)
        got = triage(["-"], registry, stdin=io.BytesIO(data))
        assert got.verdicts == plain.verdicts and [e[1:] for e in got.bad] == [e[1:] for e in plain.bad]
        assert {file for file, _, _ in got.bad} == {"-"}

    def test_several_logs_keep_their_files_and_lines(self, made, tmp_path):
        folder, registry, mix = made
        other = tmp_path / "other.jsonl"
        other_mix = write_log(other, 300, seed=5)
        tally = triage([str(folder / "app.jsonl"), str(other)], registry, Options(index=True), workers=2,
                       parallel_min_bytes=0, task_bytes=30_000)
        assert tally.records == mix.records + other_mix.records
        assert labels(tally) == mix.labels + other_mix.labels
        assert [(line) for file, line, _ in tally.bad if file == str(other)] == [line for line, _ in other_mix.bad]
        assert tally.index.entry(LINES) == (str(other), 1, 0, tally.index.entry(LINES)[3])

    @pytest.mark.parametrize("make", ["missing", "directory", "fifo"])
    def test_unreadable_logs_are_refused_before_counting(self, tmp_path, make):
        path = tmp_path / "log"
        if make == "directory":
            path.mkdir()
        elif make == "fifo":
            os.mkfifo(path)
        with pytest.raises(LogError) as caught:
            triage([str(path)], load_registry(PAYMENTS_REGISTRY))
        assert {"missing": "no such file", "directory": "a directory", "fifo": "FIFO"}[make] in str(caught.value)


class TestBy:
    def test_a_metadata_value_in_two_spellings_is_one_group(self, tmp_path):
        request = json.loads(PAYMENTS_REQUEST.read_text())
        raw = (ANSWERS / "accept.json").read_text()
        lines = [json.dumps({"model": "gpt-x", "raw": raw, "request": request}),
                 '{"model": "gpt\\u002dx", "raw": ' + json.dumps(raw) + ', "request": ' + json.dumps(request) + "}",
                 json.dumps({"model": "3", "raw": raw, "request": request}),
                 json.dumps({"model": 3, "raw": raw, "request": request}),
                 json.dumps({"raw": raw, "request": request})]
        log = tmp_path / "by.jsonl"
        log.write_text("\n".join(lines) + "\n")
        options = Options(by=("model",))
        summary = summarize(triage([str(log)], load_registry(PAYMENTS_REGISTRY), options), options)
        assert {g.name: g.records for g in summary.of_kind("by")} == \
            {"model=gpt-x": 2, 'model="3"': 1, "model=3": 1, "model=null": 1}


class TestTime:
    def test_ts_forms(self):
        assert parse_ts(b'"2026-12-01T10:00:00Z"') == parse_ts(b"1796119200") == 1796119200.0
        assert parse_ts(b'"2026-12-01T11:00:00+01:00"') == 1796119200.0
        assert parse_ts(b'"2026-12-01T10:00:00"') == 1796119200.0  # no zone: UTC
        assert parse_ts(b'"1796119200"') is None and parse_ts(b"true") is None and parse_ts(b"1e400") is None
        assert parse_time("2026-12-01") == 1796083200.0 and parse_time("soon") is None

    @pytest.mark.parametrize("span, bucket", [(600, "minute"), (3 * 3600, "5 minutes"), (86400, "hour"),
                                              (10 * 86400, "6 hours"), (40 * 86400, "day")])
    def test_the_bucket_follows_the_span(self, span, bucket):
        found = histogram({(0, "ACCEPT"): 3, (span // 60, "VALUE_MISMATCH"): 2})
        assert found.bucket == bucket
        assert sum(bar.records for bar in found.bars) == 5 and sum(bar.rejected for bar in found.bars) == 2
        assert len(found.bars) <= 48

    def test_the_histogram_counts_every_dated_record(self, made):
        folder, registry, mix = made
        summary = summarize(triage([str(folder / "app.jsonl")], registry))
        assert summary.histogram.bucket == "hour"  # the generator's day
        assert sum(bar.records for bar in summary.histogram.bars) == mix.records - mix.no_ts

    def test_since_and_until_leave_out_records_outside_and_undated(self, made):
        folder, registry, mix = made
        dated = sorted(stamp for stamp in mix.stamps if stamp is not None)
        quarter, three = len(dated) // 4, 3 * len(dated) // 4
        since, until = (dated[quarter - 1] + dated[quarter]) / 2, (dated[three - 1] + dated[three]) / 2
        tally = triage([str(folder / "app.jsonl")], registry, Options(since=since, until=until))
        inside = sum(1 for stamp in mix.stamps if stamp is not None and since <= stamp < until)
        assert tally.records == inside
        assert tally.undated == mix.no_ts  # no ts (or an unreadable one): left out when a window is given
        assert tally.outside == mix.records - mix.no_ts - inside
        assert tally.bad_lines == len(mix.bad)  # bad lines are listed whatever the window
        assert tally.no_ts == 0


class TestIndex:
    def test_a_record_is_reread_from_its_offset(self, made, tmp_path):
        folder, registry, _ = made
        path = str(folder / "app.jsonl")
        packed = tmp_path / "app.jsonl.gz"
        packed.write_bytes(gzip.compress((folder / "app.jsonl").read_bytes()))
        tally = triage([path], registry, Options(index=True), workers=1)
        index = tally.index
        assert len(index) == LINES
        lines = (folder / "app.jsonl").read_bytes().split(b"\n")
        for number in (0, 1, LINES // 2, LINES - 1):
            file, line, offset, label = index.entry(number)
            assert (file, line) == (path, number + 1)
            record = read_record(file, offset, line)
            reread_packed = read_record(str(packed), offset, line)
            if label == "BAD":
                assert isinstance(record, BadLine)
            else:
                assert isinstance(record, LogRecord) and record.raw == json.loads(lines[number])["raw"]
                assert reread_packed.raw == record.raw and record.meta["id"] == json.loads(lines[number])["id"]
        accepted = list(index.where("ACCEPT"))
        assert len(accepted) == labels(tally)["ACCEPT"]

    def test_standard_input_cannot_be_reread(self):
        with pytest.raises(LogError, match="standard input cannot be read again"):
            read_record("-", 0)


class TestProgressAndCancel:
    def test_progress_is_reported_and_ends_at_the_total(self, made):
        folder, registry, _ = made
        path = str(folder / "app.jsonl")
        seen = []
        tally = triage([path], registry, workers=2, parallel_min_bytes=0, task_bytes=20_000, progress_every=0,
                       on_progress=lambda state: seen.append((state.lines, state.bytes_done, state.total_bytes)))
        assert len(seen) > 2
        assert [lines for lines, _, _ in seen] == sorted(lines for lines, _, _ in seen)
        assert seen[-1] == (tally.lines, os.path.getsize(path), os.path.getsize(path))

    def test_cancel_keeps_what_was_counted(self, made):
        import threading

        folder, registry, _ = made
        cancel = threading.Event()

        def stop_after_the_first(state):
            cancel.set()

        tally = triage([str(folder / "app.jsonl")], registry, workers=1, task_bytes=20_000, progress_every=0,
                       on_progress=stop_after_the_first, cancel=cancel)
        assert 0 < tally.lines < LINES
        assert tally.records + tally.bad_lines + tally.outside + tally.undated == tally.lines


class TestEvidencePerShape:
    """Blame and category are kept per request and shape of rejection (tally's
    ``assessed``): the counts must be those of assessing every record afresh,
    on suites whose registries have conflicts, scopes and unauthorized documents."""

    @staticmethod
    def reference(cases, registry) -> Counter:
        from inspector.contract.evidence import Assessment
        from inspector.contract.verify import verify

        found: Counter = Counter()
        for case in cases:
            verdict = verify(case.raw, case.request, registry)
            if verdict.status == "ACCEPT":
                found[("ACCEPT", None, True, True, None, None)] += 1
                continue
            evidence = Assessment(verdict)
            category = evidence.category
            found[(verdict.status, verdict.reason, verdict.strict_json, verdict.citation_only, evidence.blame,
                   category.id if category is not None else None)] += 1
        return found

    @pytest.mark.parametrize("suite_name", ["conflicts", "access", "citation_and_order"])
    @pytest.mark.parametrize("shapes", [4096, 0])
    def test_counts_equal_assessing_every_record(self, suite_name, shapes, tmp_path, monkeypatch):
        import random

        from inspector.suites.load import load_suite
        from inspector.triage import records as records_module

        monkeypatch.setattr(records_module, "SHAPES", shapes)
        path = Path(__file__).resolve().parents[2] / "fixtures" / f"{suite_name}.json"
        suite = load_suite(path)
        written = json.loads(path.read_text())["cases"]
        order = [n for n in range(len(written)) for _ in range(3)]
        random.Random(5).shuffle(order)  # each request's answers interleaved, each answer seen 3 times
        log = tmp_path / "app.jsonl"
        log.write_text("".join(json.dumps({"raw": written[n]["raw"], "request": written[n]["request"]}) + "\n"
                               for n in order))
        tally = triage([str(log)], suite.registry, Options(), workers=1)
        assert tally.records == len(order) and not tally.bad
        assert Counter(tally.verdicts) == self.reference([suite.cases[n] for n in order], suite.registry)
        categories = {key[5] for key in tally.verdicts}
        if suite_name == "conflicts":
            assert "conflicting_evidence" in categories
