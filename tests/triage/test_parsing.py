"""How a log's line is read (inspector.triage.parsing): the reader a format
asks for (our own lines, members moved by paths, a preset's foreign lines, a
staged format's canonical lines), and a record decoded whole, as a drill-down,
an export and an annotation reread it."""

from __future__ import annotations

import json

import pytest

from inspector.triage.formats.spec import Skipped, preset
from inspector.triage.mapping import DEFAULT_FORMAT, LogFormat, compile_format
from inspector.triage.parsing import decode_record, parser_for
from inspector.triage.records import BadLine, LogRecord, RequestCache

from support import ANSWERS, FIXTURES, PAYMENTS_REQUEST

REQUEST = json.loads(PAYMENTS_REQUEST.read_text())
ACCEPT = (ANSWERS / "accept.json").read_text()
CHAT = FIXTURES / "logs" / "formats" / "openai-chat"
EXTRA = json.dumps({"raw": ACCEPT, "request": {**REQUEST, "trace_id": "t7"}, "id": "r7"}).encode()
NESTED = json.dumps({"llm": {"raw": ACCEPT, "request": REQUEST}, "meta": {"id": "n1"}}).encode()


def read(log_format: LogFormat, line: bytes, counting: bool = False, by: tuple[str, ...] = ()):
    return parser_for(compile_format(log_format, by), counting)(line, RequestCache())


class TestParserFor:
    def test_our_own_lines_read_top_level_members_only(self):
        raw, known, _ = read(DEFAULT_FORMAT, EXTRA.replace(b', "trace_id": "t7"', b""))
        assert raw == ACCEPT and known.request.service == REQUEST["service"]
        assert read(DEFAULT_FORMAT, NESTED).startswith("raw missing")
        assert read(DEFAULT_FORMAT, EXTRA).startswith("request unusable: request.trace_id")

    @pytest.mark.parametrize("counting", [False, True])
    def test_a_format_moving_members_is_read_by_its_paths_counting_or_not(self, counting):
        nested = LogFormat(raw="llm.raw", request="llm.request", id="meta.id")
        assert read(nested, NESTED, counting)[0] == ACCEPT
        ignoring = LogFormat(request_extra="ignore")
        assert read(ignoring, EXTRA, counting)[1].request.service == REQUEST["service"]

    def test_a_nested_by_member_is_read_when_counting(self):
        _, _, members = read(DEFAULT_FORMAT, json.dumps({"raw": ACCEPT, "request": REQUEST,
                                                         "meta": {"model": "m"}}).encode(), True, ("meta.model",))
        assert bytes(members[("meta", "model")]) == b'"m"'

    def test_a_staged_line_is_a_record_a_skipped_row_or_a_bad_record(self):
        staged = LogFormat(staged=True)
        assert read(staged, EXTRA.replace(b', "trace_id": "t7"', b""))[0] == ACCEPT
        assert read(staged, b'{"@skip": "SPAN", "source": {}}') == Skipped("SPAN")
        assert read(staged, b'{"@bad": "raw missing: nothing at choices"}') == "raw missing: nothing at choices"

    def test_a_presets_foreign_line_is_read_as_the_preset_says(self):
        line = (CHAT / "completions.jsonl").read_bytes().splitlines()[0]
        expected = json.loads((CHAT / "expected.jsonl").read_text().splitlines()[0])
        raw, known, _ = read(LogFormat(spec=preset("openai-chat")), line)
        assert raw == expected["raw"] and known.request.service == expected["request"]["service"]
        assert read(DEFAULT_FORMAT, line).startswith("raw missing")


class TestDecodeRecord:
    def test_a_record_with_its_place_metadata_and_id(self):
        record = decode_record(NESTED, "app.jsonl", 12, 3400,
                               log_format=LogFormat(raw="llm.raw", request="llm.request", id="meta.id"))
        assert isinstance(record, LogRecord)
        assert (record.file, record.line, record.offset, record.raw, record.id) == ("app.jsonl", 12, 3400, ACCEPT, "n1")
        assert record.request.service == REQUEST["service"] and record.meta == {"meta": {"id": "n1"}}

    def test_the_default_format_s_id_and_a_request_s_extras_kept_as_metadata(self):
        record = decode_record(EXTRA, "app.jsonl", 1, 0, log_format=LogFormat(request_extra="ignore"))
        assert record.id == "r7" and record.meta == {"id": "r7", "request.trace_id": "t7"}

    def test_a_bad_line_is_its_place_and_reason(self):
        assert decode_record(b"[1]", "app.jsonl", 4, 99) == BadLine(
            "app.jsonl", 4, 99, "not an object: the line is an array, not a JSON object")

    def test_an_answer_that_is_a_chat_message_is_warned_of(self):
        message = json.dumps({"role": "assistant", "content": ACCEPT})
        line = json.dumps({"raw": message, "request": REQUEST}).encode()
        record = decode_record(line, "app.jsonl", 1, 0)
        assert record.raw == message and "chat message" in record.meta["raw_warning"]
        assert "raw_warning" not in decode_record(EXTRA.replace(b', "trace_id": "t7"', b""), "a", 1, 0).meta

    def test_a_preset_record_reread_is_the_one_expected(self):
        line = (CHAT / "completions.jsonl").read_bytes().splitlines()[0]
        expected = json.loads((CHAT / "expected.jsonl").read_text().splitlines()[0])
        record = decode_record(line, "completions.jsonl", 1, 0, log_format=LogFormat(spec=preset("openai-chat")))
        assert record.raw == expected["raw"] and record.id == expected["id"]
        assert {key: record.meta[key] for key in ("model", "ts")} == {"model": expected["model"],
                                                                     "ts": expected["ts"]}
