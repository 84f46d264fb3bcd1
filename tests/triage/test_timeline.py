"""Timestamps (issue 17, item 12): one rule for ``ts`` and ``--since``/``--until``
(a JSON number is epoch seconds, a string ISO 8601 only), the years 1 to 9999 in
UTC and no further, printed with four digits, and a histogram kept to the bulk
of the records, the outliers counted before and after the range shown."""

from __future__ import annotations

import json

import pytest
from support import ANSWERS, PAYMENTS_REGISTRY, PAYMENTS_REQUEST

from inspector.suites.load import load_registry
from inspector.triage import Options, triage
from inspector.triage.summary import summarize
from inspector.triage.timeline import (
    EARLIEST,
    LATEST,
    MAX_BUCKETS,
    histogram,
    iso,
    parse_time,
    parse_ts,
)

DAY = 1796083200  # 2026-12-01T00:00:00Z


class TestOneRule:
    @pytest.mark.parametrize("text", ["1e5", "1_796_119_200", "1796119200", " 1796119200 ", "NaN", "Infinity",
                                      "0x10", "+5", ""])
    def test_a_string_is_iso_8601_only_never_a_number(self, text):
        # before: "1e5" and "1_796_119_200" were epoch seconds, "1796119200" not
        assert parse_ts(json.dumps(text).encode()) is None

    @pytest.mark.parametrize("text", ["1796120581621166300", "17961205", "20261201", " 20261201 ", "2026120110"])
    def test_a_digit_string_is_never_a_compact_iso_date(self, text):
        # before: fromisoformat read the OpenTelemetry nanoseconds "1796120581621166300" as 1796-12-05T16:21:16
        # and "20261201" as a date (the epoch numbers written as strings are not read yet at all)
        assert parse_ts(json.dumps(text).encode()) is None
        assert parse_ts(b'"2026-12-01"') == DAY and parse_ts(b'"20261201T000000Z"') == DAY  # ISO, compact or not

    @pytest.mark.parametrize("text, seconds, number", [
        ("1796119200", 1796119200.0, True), ("1.7e9", 1.7e9, True), ("-60", -60.0, True), ("0", 0.0, True),
        ("2026-12-01T10:00:00Z", 1796119200.0, False), ("2026-12-01", float(DAY), False)])
    def test_since_and_until_take_what_ts_holds_written_bare(self, text, seconds, number):
        assert parse_time(text) == seconds
        assert parse_ts(text.encode() if number else json.dumps(text).encode()) == seconds

    @pytest.mark.parametrize("text", ["1e5x", "1_796_119_200", "+5", "nan", "inf", "0x10", "01", "1."])
    def test_what_json_would_not_write_as_a_number_is_no_time_on_the_command_line(self, text):
        assert parse_time(text) is None

    @pytest.mark.parametrize("text", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"])
    def test_an_instant_outside_the_years_1_to_9999_in_utc_is_unreadable(self, text):
        # before: "year 0 is out of range" (exit 3, a crash of the overview)
        assert parse_ts(json.dumps(text).encode()) is None and parse_time(text) is None
        assert parse_ts(b"-62135596801") is None and parse_ts(b"253402300800") is None

    def test_the_edges_are_shown_with_four_digit_years(self):
        # before: "1-01-01T00:00:00Z"
        assert parse_ts(b'"0001-01-01T00:00:00Z"') == EARLIEST and iso(EARLIEST) == "0001-01-01T00:00:00Z"
        assert parse_ts(b'"9999-12-31T23:59:59Z"') == LATEST and iso(LATEST) == "9999-12-31T23:59:59Z"
        assert iso(-62104060800) == "0002-01-01T00:00:00Z"

    def test_a_week_s_bar_at_the_year_1_starts_no_earlier(self):
        first = int(EARLIEST // 60)
        found = histogram({(first, "ACCEPT"): 1, (first + 300 * 24 * 60, "ACCEPT"): 1})
        assert found.bucket == "week" and found.bars[0].start == EARLIEST
        assert [iso(bar.start) for bar in found.bars][:2] == ["0001-01-01T00:00:00Z", "0001-01-04T00:00:00Z"]


def minutes(*pairs: tuple[float, int]) -> dict[tuple[int, str], int]:
    return {(int(seconds // 60), "ACCEPT"): count for seconds, count in pairs}


class TestTheBulk:
    def test_one_ts_0_among_today_s_records_is_an_outlier_not_2970_weeks(self):
        # before: a weekly histogram of 2,970 rows
        found = histogram(minutes((0, 1), *((DAY + 600 * n, 1) for n in range(100))))
        assert found.bucket == "hour" and len(found.bars) <= MAX_BUCKETS
        assert (found.before, found.after) == (1, 0) and found.earliest == 0.0
        assert sum(bar.records for bar in found.bars) == 100
        assert found.outlier_words() == "1 record(s) before the range shown (the earliest 1970-01-01T00:00:00Z)"

    def test_outliers_on_both_sides(self):
        found = histogram(minutes((0, 2), (LATEST, 3), *((DAY + 60 * n, 1) for n in range(30)), (DAY + 29 * 60, 30)))
        assert found.bucket == "minute" and (found.before, found.after) == (2, 3)
        assert found.latest == LATEST // 60 * 60 and "3 record(s) after it" in found.outlier_words()

    @pytest.mark.parametrize("spread", [
        [(DAY, 90), (DAY - 2 * 86400, 10)],  # a burst today, a tenth two days before: more than the 5%
        [(DAY, 50), (DAY - 200 * 86400, 50)],  # two halves months apart are both the bulk
        [(DAY + 3600 * n, 1) for n in range(24)] + [(DAY + 30 * 3600, 1)],  # six hours after a day
        [(DAY, 1)],
    ])
    def test_what_is_not_far_out_is_kept(self, spread):
        found = histogram(minutes(*spread))
        assert found.outliers == 0 and sum(bar.records for bar in found.bars) == sum(n for _, n in spread)

    def test_a_record_a_day_off_a_minute_s_burst_is_kept_a_week_off_is_not(self):
        assert histogram(minutes((DAY, 50), (DAY + 86400, 1))).outliers == 0
        assert histogram(minutes((DAY, 50), (DAY + 7 * 86400, 1))).after == 1
        # one in twenty is the 5% at most left out; one in ten is not
        assert histogram(minutes((0, 1), (DAY, 19))).before == 1
        assert histogram(minutes((0, 1), (DAY, 9))).before == 0


def record(ts) -> str:
    return json.dumps({"ts": ts, "raw": (ANSWERS / "accept.json").read_text(),
                       "request": json.loads(PAYMENTS_REQUEST.read_text())})


def test_the_summary_counts_and_says_the_outliers(tmp_path):
    log = tmp_path / "ts.jsonl"
    stamps = [0, "0001-01-01T00:00:00+01:00", "0001-01-01T00:00:00Z", "1e5", *(DAY + 60 * n for n in range(40))]
    log.write_text("\n".join(record(ts) for ts in stamps) + "\n")
    summary = summarize(triage([str(log)], load_registry(PAYMENTS_REGISTRY), Options(), workers=1))
    timeline = summary.to_dict()["timeline"]
    assert (timeline["with_ts"], timeline["unreadable_ts"]) == (42, 2)
    assert (timeline["before"], timeline["after"], timeline["bucket"]) == (2, 0, "minute")
    assert timeline["earliest"] == "0001-01-01T00:00:00Z" and timeline["first"] == "2026-12-01T00:00:00Z"
    assert sum(bar["records"] for bar in timeline["bars"]) == 40


def test_a_log_whose_times_are_not_read_says_so_once(tmp_path, capsys, monkeypatch):
    """OpenTelemetry's ts, nanoseconds since the epoch as a string: no time read, no 1796 histogram, and the
    text summary says once how many records' ts were not read (the JSON counts them)."""
    from support import run_main

    monkeypatch.setenv("COLUMNS", "200")
    log = tmp_path / "otel.jsonl"
    stamps = [str((DAY + 60 * n) * 10**9 + 621166300) for n in range(30)]
    log.write_text("\n".join(record(ts) for ts in [*stamps, DAY, DAY + 60]) + "\n")
    status, out, err = run_main(capsys, "triage", log, "--registry", PAYMENTS_REGISTRY, "--summary")
    assert status == 0, err
    said = "the ts of 30 record(s) was not read as a time"
    assert out.count(said) == 1 and "1796" not in out
    status, out, err = run_main(capsys, "triage", log, "--registry", PAYMENTS_REGISTRY, "--format", "json")
    timeline = json.loads(out)["timeline"]
    assert (timeline["with_ts"], timeline["unreadable_ts"], timeline["first"]) == (2, 30, "2026-12-01T00:00:00Z")


def test_each_groups_series_counts_the_outliers_and_leaves_the_undated_out(tmp_path):
    """--series beside the summary: the records before the range (the year 1: negative minutes) counted
    before it, those without a readable ts in no bar, the same bars with and without."""
    from inspector.triage.series import Buckets

    log = tmp_path / "ts.jsonl"
    stamps = [0, "0001-01-01T00:00:00+01:00", "0001-01-01T00:00:00Z", "1e5", *(DAY + 60 * n for n in range(40))]
    log.write_text("\n".join(record(ts) for ts in stamps) + "\n")
    registry = load_registry(PAYMENTS_REGISTRY)
    plain = summarize(triage([str(log)], registry, Options(), workers=1))
    options = Options(series=True)
    summary = summarize(triage([str(log)], registry, options, workers=1), options)
    assert summary.to_dict()["timeline"] == plain.to_dict()["timeline"]
    every = Buckets(summary).every()
    scope = every[summary.of_kind("scope")[0].name]  # one request: its scope's records are every record
    assert scope.bars == summary.histogram.bars and (scope.before, scope.after) == (2, 0)
