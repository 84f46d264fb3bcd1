"""Hostile records (issue 17, items 4 and 14): a ``raw`` that is not UTF-8 or
escapes a lone surrogate is a record the contract rejects as NOT_UTF8, never the
end of the triage; other members that are not UTF-8 or escape a lone surrogate
make a record or a bad line with a clear reason; a UTF-8 byte order mark at the
start of a line is skipped, as a suite file's; NFC and NFD spellings of one
metadata value are two groups whose names look different.  Every such record
rereads (the drill-down), and exports as a suite that loads and audits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import ANSWERS, PAYMENTS_REGISTRY, PAYMENTS_REQUEST

from inspector.contract.verify import verify
from inspector.reports.audit import audit
from inspector.suites.load import load_registry, load_suite
from inspector.triage import LogRecord, Options, read_record, triage
from inspector.triage.export import export_suite
from inspector.triage.records import RequestCache, parse_line
from inspector.triage.summary import summarize

REQUEST = json.dumps(json.loads(PAYMENTS_REQUEST.read_text())).encode()
ACCEPT = json.dumps((ANSWERS / "accept.json").read_text()).encode()  # raw's JSON string


def line(raw: bytes, *members: bytes) -> bytes:
    """A log line: ``raw`` as its JSON string's bytes, the request, then members."""
    return b"{" + b", ".join([b'"raw": ' + raw, b'"request": ' + REQUEST, *members]) + b"}"


@pytest.fixture(scope="module")
def registry():
    return load_registry(PAYMENTS_REGISTRY)


def counted(tmp_path: Path, registry, lines: list[bytes], *by: str):
    log = tmp_path / "hostile.jsonl"
    log.write_bytes(b"\n".join(lines) + b"\n")
    options = Options(by=by, index=True)
    tally = triage([str(log)], registry, options, workers=1)
    return log, tally, summarize(tally, options)


def labels(summary) -> dict[str, int]:
    return {label: count for label, count in summary.by_reason.items() if count}


class TestRawThatIsNotUtf8:
    def test_bytes_that_are_not_utf8_are_an_answer_that_is_not_utf8(self, tmp_path, registry):
        # before: "internal error in triage: DecodeError: Invalid UTF-8 encoded string" and exit 3
        log, tally, summary = counted(tmp_path, registry, [line(ACCEPT), line(b'"{\\"claims\\": []}\xff"')])
        assert tally.records == 2 and tally.bad == []
        assert labels(summary) == {"INVALID_JSON/NOT_UTF8": 1}
        record = read_record(str(log), tally.index.offset[1], 2)
        assert isinstance(record, LogRecord) and record.raw == b'{"claims": []}\xff'
        verdict = verify(record.raw, record.request, registry)
        assert verdict.label == "INVALID_JSON/NOT_UTF8" and "byte 0xFF at offset 14" in verdict.decoded.failure.message

    def test_a_lone_surrogate_escape_is_a_text_no_utf8_holds(self, tmp_path, registry):
        # before: a bad line "not JSON: ... unexpected end of hex escape"
        lines = [line(b'"\\ud800"'), line(b'"{\\"claims\\": [\\udc00]}"'), line(b'"ok \\ud83d\\ude00 pair"')]
        log, tally, summary = counted(tmp_path, registry, lines)
        assert tally.records == 3 and tally.bad == []
        assert summary.by_reason["INVALID_JSON/NOT_UTF8"] == 2  # the whole pair is a character: SYNTAX
        record = read_record(str(log), 0, 1)
        assert record.raw == "\ud800"
        assert "lone surrogate \\ud800" in verify(record.raw, record.request, registry).decoded.failure.message

    def test_both_at_once_and_a_repeated_member_still_found(self):
        requests = RequestCache()
        raw, _, _ = parse_line(line(b'"\\ud800\xff"'), requests)
        assert isinstance(raw, bytes) and raw.endswith(b"\xff")
        # a repeat is found whichever reader split the line
        assert parse_line(line(b'"x\xff"', b'"id": 1', b'"id": 2'), requests).startswith("duplicate key")
        assert parse_line(line(b'"x\\ud800"', b'"id": 1', b'"id": 2'), requests).startswith("duplicate key")
        # what Python's json would take but JSON does not stays a bad line
        assert parse_line(line(b'"\\ud800"', b'"n": NaN'), requests).startswith("not JSON")
        assert parse_line(b'{"raw": "\\ud800", "request": ' + REQUEST + b'} trailing', requests).startswith("not JSON")


class TestOtherMembers:
    def test_a_request_that_is_not_utf8_or_escapes_a_lone_surrogate_is_unusable_and_says_why(self, tmp_path,
                                                                                               registry):
        lines = [b'{"raw": "x", "request": {"service": "\\ud800"}}', b'{"raw": "x", "request": {"service": "\xff"}}']
        _, tally, _ = counted(tmp_path, registry, lines)
        assert tally.records == 0
        assert [error for _, _, error in tally.bad] == [
            ("request unusable: request at 1:14: invalid JSON: lone surrogate escape \\ud800 "
             "(a string must hold whole characters)"),
            "request unusable: request: byte 0xFF at offset 13 is not UTF-8"]

    def test_metadata_that_is_not_utf8_or_escapes_a_lone_surrogate_is_a_record(self, tmp_path, registry):
        lines = [line(ACCEPT, b'"model": "a\xffb"'), line(ACCEPT, b'"model": "\\udc00"', b'"\\ud801": 1'),
                 line(ACCEPT, b'"m\xffodel": "k"')]
        log, tally, summary = counted(tmp_path, registry, lines, "model")
        assert tally.records == 3 and tally.bad == []
        # a lone surrogate shown as any invisible character is; bytes that are not UTF-8 as JSON text
        assert {group.name for group in summary.of_kind("by")} == {'model="a\ufffdb"', "model=\\udc00", "model=null"}
        record = read_record(str(log), tally.index.offset[1], 2)
        assert record.meta == {"model": "\udc00", "\ud801": 1}

    def test_every_such_record_exports_as_a_suite_that_loads_and_audits(self, tmp_path, registry):
        lines = [line(ACCEPT, b'"id": "\\ud800"', b'"model": "\\udc00"'), line(b'"{\\"claims\\": []}\xff"'),
                 line(b'"\\ud800"', b'"model": "a\xffb"'), line(ACCEPT, b'"m\xffodel": "k"', b'"\\ud801": 1')]
        log, tally, _ = counted(tmp_path, registry, lines)
        collected = [(str(log), number + 1, tally.index.offset[number], text, label)
                     for number, (text, label) in enumerate(zip(lines, ["ACCEPT", *["INVALID_JSON/NOT_UTF8"] * 2,
                                                                         "ACCEPT"]))]
        out = tmp_path / "suite.json"
        assert export_suite(out, "scope:payments/prod/v2", registry, collected, [str(log)]) == 4
        suite = load_suite(out)
        assert [case.id for case in suite.cases] == [f"hostile.jsonl:{n}" for n in range(1, 5)]  # no lone surrogate id
        assert suite.cases[1].raw == b'{"claims": []}\xff' and suite.cases[2].raw == "\ud800".encode(
            "utf-8", "surrogatepass")
        assert '"model": "\\udc00"' in suite.cases[0].note and '"m\\udcffodel": "k"' in suite.cases[3].note
        assert audit([suite]).mismatches == ()


class TestByteOrderMark:
    def test_a_bom_at_the_start_of_a_line_is_skipped_as_a_suite_file_s(self, tmp_path, registry):
        # before: "not JSON: JSON is malformed: invalid character (byte 0)"
        bom = b"\xef\xbb\xbf"
        log, tally, summary = counted(tmp_path, registry, [bom + line(ACCEPT), line(ACCEPT), bom + line(ACCEPT)])
        assert tally.records == 3 and tally.bad == [] and summary.by_check["ACCEPT"] == 3
        assert isinstance(read_record(str(log), tally.index.offset[2], 3), LogRecord)
        # only at the start: anywhere else it is what it was
        assert isinstance(parse_line(b" " + bom + line(ACCEPT), RequestCache()), str)


class TestNfcAndNfd:
    def test_two_spellings_of_one_value_are_two_groups_that_look_different(self, tmp_path, registry):
        nfc, nfd = "r\u00e9gion", "re\u0301gion"
        lines = [line(ACCEPT, json.dumps({"region": value}, ensure_ascii=False)[1:-1].encode())
                 for value in (nfc, nfd, nfd)]
        _, _, summary = counted(tmp_path, registry, lines, "region")
        names = {group.name: group.records for group in summary.of_kind("by")}
        assert names == {"region=r\u00e9gion": 1, "region=re\\u0301gion": 2}


def test_what_is_not_json_stays_a_bad_line():
    assert parse_line(b"\xff\xfe not json", RequestCache()).startswith("not JSON")
    assert parse_line(b'{"raw": "\\ud800", "request": {}', RequestCache()).startswith("not JSON")  # unclosed
    assert parse_line(b'{"raw": 1, "request": {}}', RequestCache()).startswith("raw not a string")
