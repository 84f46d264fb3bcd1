"""``inspector triage`` on hostile records (issue 17, items 4, 12 and 14): what
a user sees of an answer that is not UTF-8, of timestamps at the years 1 and
9999 and far from the rest, of a BOM and of NFC and NFD metadata: exit 0 and a
summary that says so, an export that audits, and one-line refusals of
``--since``/``--until`` out of range or not written as the rule says."""

from __future__ import annotations

import json

import pytest
from support import (
    ANSWERS,
    PAYMENTS_REGISTRY,
    PAYMENTS_REQUEST,
    one_line_error,
    run_main,
)

REQUEST = json.dumps(json.loads(PAYMENTS_REQUEST.read_text())).encode()
ACCEPT = json.dumps((ANSWERS / "accept.json").read_text()).encode()
DAY = 1796083200  # 2026-12-01T00:00:00Z


def line(raw: bytes = ACCEPT, **meta) -> bytes:
    extra = b"".join(b", " + json.dumps(key).encode() + b": " + value for key, value in meta.items())
    return b'{"raw": ' + raw + b', "request": ' + REQUEST + extra + b"}"


def summary(capsys, *args) -> dict:
    status, out, err = run_main(capsys, "triage", *args, "--registry", PAYMENTS_REGISTRY, "--format", "json")
    assert status == 0, err
    return json.loads(out)


def test_an_answer_that_is_not_utf8_is_counted_and_exports_as_a_suite_that_audits(tmp_path, capsys):
    # before: "internal error in triage: DecodeError: Invalid UTF-8 encoded string", exit 3
    log = tmp_path / "bytes.jsonl"
    log.write_bytes(b"\n".join([line(), line(b'"{\\"claims\\": []}\xff"'), line(b'"\\ud800"'),
                                b"\xef\xbb\xbf" + line()]) + b"\n")
    document = summary(capsys, log)
    assert (document["records"], document["bad_lines"]) == (4, 0)
    assert document["by_reason"]["INVALID_JSON/NOT_UTF8"] == 2 and document["by_check"]["ACCEPT"] == 2
    out = tmp_path / "not-utf8.json"
    status, stdout, _ = run_main(capsys, "triage", log, "--registry", PAYMENTS_REGISTRY, "--export",
                                 "reason:INVALID_JSON/NOT_UTF8", "--out", out, "--summary")
    assert status == 0 and "wrote 2 case(s)" in stdout
    status, stdout, _ = run_main(capsys, "audit", out)
    assert status == 0 and "all verdicts match their frozen labels" in stdout


def test_nfc_and_nfd_spellings_are_two_groups_that_look_different(tmp_path, capsys):
    log = tmp_path / "regions.jsonl"
    log.write_bytes(b"\n".join(line(region=json.dumps(value, ensure_ascii=False).encode())
                               for value in ("r\u00e9gion", "re\u0301gion")) + b"\n")
    _, out, _ = run_main(capsys, "triage", log, "--registry", PAYMENTS_REGISTRY, "--summary", "--by", "region")
    assert "region=r\u00e9gion " in out and "region=re\\u0301gion " in out and "\u0301" not in out
    # the name shown is the name --export takes
    target = tmp_path / "nfd.json"
    status, out, _ = run_main(capsys, "triage", log, "--registry", PAYMENTS_REGISTRY, "--by", "region", "--export",
                              "region=re\\u0301gion", "--out", target, "--format", "json")
    assert status == 0 and json.loads(out)["export"]["cases"] == 1


def test_timestamps_at_the_edges_and_far_out(tmp_path, capsys):
    # before: "year 0 is out of range", exit 3; and one ts: 0 drew 2,970 weekly rows
    log = tmp_path / "ts.jsonl"
    stamps = [b'"0001-01-01T00:00:00+01:00"', b'"9999-12-31T23:59:59-01:00"', b'"0001-01-01T00:00:00Z"', b"0",
              b'"1e5"', b'"1_796_119_200"', *(str(DAY + 60 * n).encode() for n in range(40))]
    log.write_bytes(b"\n".join(line(ts=ts) for ts in stamps) + b"\n")
    timeline = summary(capsys, log)["timeline"]
    assert (timeline["unreadable_ts"], timeline["before"], timeline["bucket"]) == (4, 2, "minute")
    assert timeline["earliest"] == "0001-01-01T00:00:00Z" and len(timeline["bars"]) == 40
    status, out, _ = run_main(capsys, "triage", log, "--registry", PAYMENTS_REGISTRY, "--summary")
    assert status == 0
    assert "2 record(s) before the range shown (the earliest 0001-01-01T00:00:00Z)" in " ".join(out.split())


@pytest.mark.parametrize("value", ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00", "1_796_119_200",
                                   "1e5x", "nan"])
def test_since_and_until_outside_the_rule_are_refused_in_one_line(tmp_path, value, capsys):
    log = tmp_path / "one.jsonl"
    log.write_bytes(line() + b"\n")
    for option in ("--since", "--until"):
        status, _, err = run_main(capsys, "triage", log, "--registry", PAYMENTS_REGISTRY, "--summary", option, value)
        assert status == 2
        one_line_error(err, option, "from the year 1 to 9999 in UTC")


def test_since_takes_a_number_as_json_writes_it_and_the_help_says_the_rule(tmp_path, capsys):
    log = tmp_path / "two.jsonl"
    log.write_bytes(line(ts=str(DAY).encode()) + b"\n" + line(ts=b'"2026-12-02T00:00:00Z"') + b"\n")
    assert summary(capsys, log, "--since", str(DAY + 1))["records"] == 1
    assert summary(capsys, log, "--since", "1.796e9")["records"] == 2
    help_text = " ".join(run_main(capsys, "triage", "--help")[1].split())
    assert "a ts member that is a JSON number is epoch seconds; a string is ISO 8601 only" in help_text
