"""Mapped members (``triage.mapping``): paths and pointers, the --log-format file,
every bad-line reason of a mapped line, an answer logged as JSON verified on its
exact bytes, --request-extra both ways, --by nested paths and files, and a
mapped record reread and exported as it was counted."""

from __future__ import annotations

import json
import threading

import pytest

from inspector.contract.verify import verify
from inspector.presentation.group_export import export_group
from inspector.presentation.overview import count, triage_run
from inspector.presentation.record_session import open_group
from inspector.suites.load import load_registry, load_suite
from inspector.triage import Options, triage
from inspector.triage.drill import LineReader, read_record
from inspector.triage.export import export_suite
from inspector.triage.mapping import (
    DEFAULT_FORMAT,
    FILE_KEY,
    LogFormat,
    LogFormatError,
    compile_format,
    load_log_format,
    parse_path,
)
from inspector.triage.parsing import decode_record
from inspector.triage.records import (
    RAW_LOGGED_AS,
    BadLine,
    LogRecord,
    RequestCache,
    parse_mapped,
)
from inspector.triage.summary import summarize

from support import ANSWERS, PAYMENTS_REGISTRY, PAYMENTS_REQUEST

REQUEST = json.loads(PAYMENTS_REQUEST.read_text())
ACCEPT = (ANSWERS / "accept.json").read_text()
MISMATCH = (ANSWERS / "value-mismatch.json").read_text()
# The answers as a service logs them as JSON on one line: their bytes, newlines made spaces.
ACCEPT_JSON, MISMATCH_JSON = (text.strip().replace("\n", " ") for text in (ACCEPT, MISMATCH))
OPENAI = LogFormat(raw="response.choices.0.message.content", request="ctx.request", ts="created", id="id")
ENVELOPE = LogFormat(raw="llm.raw", request="llm.request", ts="@timestamp", id="llm.request.trace_id",
                     request_extra="ignore")


@pytest.fixture(scope="module")
def registry():
    return load_registry(PAYMENTS_REGISTRY)


def openai_line(raw: str, number: int = 1, model: str = "gpt-x", **request: object) -> str:
    return json.dumps({"id": f"chatcmpl-{number}", "object": "chat.completion", "created": 1796083200 + number,
                       "model": model, "response": {"choices": [{"index": 0, "message": {
                           "role": "assistant", "content": raw}, "finish_reason": "stop"}]},
                       "ctx": {"request": {**REQUEST, **request}}})


def envelope_line(raw_json: str, number: int = 1, model: str = "gpt-x", prompt: str = "p1") -> str:
    """An envelope whose answer is logged as JSON: ``raw_json`` embedded as it is."""
    request = json.dumps({**REQUEST, "trace_id": f"t{number:03d}"})
    return (f'{{"@timestamp": "2026-12-01T10:00:{number % 60:02d}Z", "level": "info", '
            f'"llm": {{"raw": {raw_json}, "request": {request}}}, '
            f'"metadata": {{"model": "{model}", "prompt.version": "{prompt}"}}}}')


def parsed(line: str | bytes, log_format: LogFormat = OPENAI, by: tuple[str, ...] = ()):
    data = line.encode() if isinstance(line, str) else line
    return parse_mapped(data, RequestCache(), compile_format(log_format, by))


class TestPaths:
    def test_dotted_with_indices_and_pointers_with_escapes(self):
        assert parse_path("response.choices.0.message.content") == ("response", "choices", "0", "message", "content")
        assert parse_path("/metadata/prompt.version") == ("metadata", "prompt.version")
        assert parse_path("/a~1b/c~0d/~01") == ("a/b", "c~d", "~1")  # ~1 then ~0: '~01' is '~1'
        assert parse_path("@timestamp") == ("@timestamp",)

    @pytest.mark.parametrize("text, words", [
        ("", "the path is empty"), ("a..b", "empty segment"), (".a", "empty segment"), ("a.", "empty segment"),
        ("/", "empty segment (segment 1)"), ("/a//b", "empty segment (segment 2)"),
        ("/a~2", "'~' not followed by 0 or 1"), ("/a~", "'~' not followed by 0 or 1"),
        # RFC 6901: only ~0 and ~1; a '~' before another '~' escapes nothing, whatever follows
        ("/a~~01", "the pointer '/a~~01' has a '~' not followed by 0 or 1"), ("/~~1", "'~' not followed by 0 or 1"),
        ("/x/~1~", "'~' not followed by 0 or 1"),
    ])
    def test_refused_with_a_one_line_reason(self, text, words):
        with pytest.raises(ValueError) as caught:
            parse_path(text)
        assert words in str(caught.value) and "\n" not in str(caught.value)

    def test_raw_and_request_may_not_overlap(self):
        with pytest.raises(LogFormatError, match="name the same member"):
            LogFormat(raw="llm", request="/llm")
        with pytest.raises(LogFormatError, match="one member inside the other"):
            LogFormat(raw="llm", request="llm.request")
        with pytest.raises(LogFormatError, match="request_extra: 'loose' is neither strict nor ignore"):
            LogFormat(request_extra="loose")

    def test_the_default_and_its_spellings_keep_the_fast_path(self):
        assert compile_format(DEFAULT_FORMAT, ("model", "/prompt_version", "file")).counting_trivial
        assert compile_format(LogFormat(raw="/raw", ts="time"), ("model",)).counting_trivial
        assert not compile_format(DEFAULT_FORMAT, ("metadata.model",)).counting_trivial
        assert not compile_format(LogFormat(request_extra="ignore")).trivial
        plan = compile_format(DEFAULT_FORMAT, ("file", "metadata.model"))
        assert plan.by_keys == (FILE_KEY, ("metadata", "model"))


class TestFormatFile:
    def test_every_key(self, tmp_path):
        path = tmp_path / "envelope.toml"
        path.write_text('# the application envelope\nraw = "llm.raw"\nrequest = "llm.request"\nts = "@timestamp"\n'
                        'id = "llm.request.trace_id"\nby = ["metadata.model", "/metadata/prompt.version"]\n'
                        'request_extra = "ignore"\n')
        assert load_log_format(path) == (ENVELOPE, ("metadata.model", "/metadata/prompt.version"))
        (tmp_path / "empty.toml").write_text("")
        assert load_log_format(tmp_path / "empty.toml") == (DEFAULT_FORMAT, ())

    @pytest.mark.parametrize("text, words", [
        ('raw = "a"\nmodel = "b"\n', "unknown key 'model' (the keys are raw, request, ts, id, by, request_extra)"),
        ("raw = 1\n", "raw is an integer, not a string"),
        ('by = "model"\n', "by is a string, not an array of strings"),
        ("ts = 1979-05-27\n", "ts is a date or time, not a string"),
        ("by = [1]\n", "by is an array holding an integer, not an array of strings"),
        ('by = ["model", "a..b"]\n', "by[1]: the path 'a..b' has an empty segment"),
        ('ts = ""\n', "ts: the path is empty"),
        ('request_extra = "loose"\n', "request_extra: 'loose' is neither strict nor ignore"),
        ('raw = "x"\nrequest = "x.y"\n', "raw (x) and request (x.y) name one member inside the other"),
        ('raw = "x"\nraw = "y"\n', "not valid TOML"),
        ('raw = "x"\n\nrequest = \n', "(at line 3"),
        ("[raw]\nx = 1\n", "raw is a table, not a string"),
    ])
    def test_refusals_name_the_file_and_the_key_or_line(self, tmp_path, text, words):
        path = tmp_path / "format.toml"
        path.write_text(text)
        with pytest.raises(LogFormatError) as caught:
            load_log_format(path)
        said = str(caught.value)
        assert said.startswith(str(path)) and words in said and "\n" not in said, said

    @pytest.mark.parametrize("text", ["by = " + "[" * 900 + "]" * 900 + "\n",
                                      "raw = " + "{a = " * 600 + "1" + "}" * 600 + "\n"],
                             ids=["arrays", "tables"])
    def test_a_file_nested_too_deeply_is_one_line(self, tmp_path, text):
        # A couple of KB of brackets: Python's TOML parser recurses once a level and runs out of stack.
        path = tmp_path / "deep.toml"
        path.write_text(text)
        with pytest.raises(LogFormatError) as caught:
            load_log_format(path)
        said = str(caught.value)
        assert said.startswith(f"{path}: not valid TOML: nested too deeply") and "\n" not in said, said

    def test_a_file_that_cannot_be_read(self, tmp_path):
        for path, words in ((tmp_path / "nope.toml", "no such file"), (tmp_path, "directory")):
            with pytest.raises(LogFormatError, match=words):
                load_log_format(path)
        (tmp_path / "latin.toml").write_bytes(b'raw = "caf\xe9"\n')
        with pytest.raises(LogFormatError, match="byte 0xE9 at offset 10 is not UTF-8"):
            load_log_format(tmp_path / "latin.toml")


class TestBadLines:
    def test_the_kinds_are_counted_as_the_default_formats(self, registry, tmp_path):
        log = tmp_path / "mapped.jsonl"
        log.write_text("\n".join([openai_line(ACCEPT), '{"response": {}}', '{"response": {"choices": [{"message": '
                                  '{"content": "x"}}]}, "ctx": {}}', openai_line(ACCEPT, color="blue")]) + "\n")
        tally = triage([str(log)], registry, Options(log_format=OPENAI), workers=1)
        assert (tally.records, dict(tally.bad_kinds)) == (1, {"raw missing": 1, "request missing": 1,
                                                                "request unusable": 1})


class TestRawLoggedAsJson:
    def test_verified_on_its_exact_bytes(self, registry):
        duplicated = (ANSWERS / "duplicate-key.json").read_text().strip().replace("\n", " ")
        odd = '{ "claims" :[' + json.dumps(json.loads(ACCEPT)["claims"][0]) + "\t," + \
            json.dumps(json.loads(ACCEPT)["claims"][1], separators=(" ,", " :  ")) + "]  }"
        cache = RequestCache()
        for text, label in ((duplicated, "INVALID_JSON/DUPLICATE_KEY"), (odd, "ACCEPT")):
            record = decode_record(envelope_line(text).encode(), "e.jsonl", 1, 0, cache, ENVELOPE)
            assert isinstance(record, LogRecord)
            assert record.raw == text  # not re-serialised: the bytes as they stand in the line
            assert verify(record.raw, record.request, registry).label == label
            assert record.meta[RAW_LOGGED_AS] == "json"

    def test_the_default_format_reads_it_too_and_a_scalar_stays_bad(self, registry):
        request = json.dumps(REQUEST)
        line = f'{{"raw": {ACCEPT_JSON}, "request": {request}, "model": "m"}}'.encode()
        record = decode_record(line, "a.jsonl", 1, 0)
        assert record.raw == ACCEPT_JSON and record.meta == {"model": "m", RAW_LOGGED_AS: "json"}
        assert verify(record.raw, record.request, registry).label == "ACCEPT"
        array = decode_record(f'{{"raw": [1, 2], "request": {request}}}'.encode(), "a.jsonl", 1, 0)
        assert verify(array.raw, array.request, registry).label == "INVALID_JSON/WRONG_SHAPE"
        for scalar, kind in (("null", "null"), ("12", "a number"), ("false", "a boolean")):
            bad = decode_record(f'{{"raw": {scalar}, "request": {request}}}'.encode(), "a.jsonl", 1, 0)
            assert isinstance(bad, BadLine) and bad.error == f"raw not a string: raw is {kind}"
        string = decode_record(json.dumps({"raw": ACCEPT, "request": REQUEST}).encode(), "a.jsonl", 1, 0)
        assert RAW_LOGGED_AS not in string.meta


class TestRequestExtra:
    def test_strict_names_the_member_and_the_option(self):
        reason = parsed(openai_line(ACCEPT, trace_id="t1"))
        assert reason == ("request unusable: ctx.request.trace_id: a member the request schema does not know "
                          "(--request-extra ignore accepts the request and keeps it as metadata)")
        pointer = LogFormat(raw=OPENAI.raw, request="/ctx/request")
        assert parsed(openai_line(ACCEPT, trace_id="t1"), pointer).endswith("(the request at /ctx/request)")

    def test_ignore_keeps_the_extras_as_metadata_and_the_own_members_strict(self):
        ignore = LogFormat(raw=OPENAI.raw, request=OPENAI.request, id="ctx.request.trace_id", request_extra="ignore")
        cache = RequestCache()
        records = [decode_record(openai_line(ACCEPT, n, trace_id=f"t{n}", span={"a": n}).encode(), "o.jsonl", n, 0,
                                 cache, ignore) for n in (1, 2)]
        assert [record.meta["request.trace_id"] for record in records] == ["t1", "t2"]
        assert records[1].meta["request.span"] == {"a": 2} and records[1].id == "t2"
        assert set(records[0].meta) == {"id", "object", "created", "model", "request.trace_id", "request.span"}
        assert len(cache.known) == 1  # one request validated: its own members, keyed by their exact bytes
        for changes, words in (({"fields": []}, "ctx.request.fields: no field requested"),
                               ({"scope": {"zz": 1}}, "ctx.request.scope: Object contains unknown field `zz`"),
                               ({"revision": 3}, "ctx.request.revision: Expected `str`, got `int`")):
            assert words in parsed(openai_line(ACCEPT, trace_id="t", **changes), ignore)
        repeated = openai_line(ACCEPT, trace_id="t").replace('"trace_id"', '"service": "x", "trace_id"')
        assert "duplicate key 'service'" in parsed(repeated, ignore)


class TestCounting:
    @pytest.fixture(scope="class")
    def envelope(self, tmp_path_factory):
        folder = tmp_path_factory.mktemp("envelope")
        lines = [envelope_line(ACCEPT_JSON if n % 3 else MISMATCH_JSON, n, ("gpt-x", "llama-z")[n % 2],
                               ("p1", "p2")[n % 4 == 0]) for n in range(1, 121)]
        lines[10] = '{"llm": {"request": {}}}'
        (folder / "a.jsonl").write_text("\n".join(lines[:60]) + "\n")
        (folder / "b.jsonl").write_text("\n".join(lines[60:]) + "\n")
        return folder

    def test_by_nested_paths_pointers_and_files(self, envelope, registry):
        logs = [str(envelope / "a.jsonl"), str(envelope / "b.jsonl")]
        options = Options(by=("metadata.model", "/metadata/prompt.version", "file", "metadata.none"),
                          log_format=ENVELOPE)
        summary = summarize(triage(logs, registry, options, workers=1), options, logs)
        records = {group.name: group.records for group in summary.groups if group.kind == "by"}
        assert records["metadata.model=gpt-x"] == 60 and records["metadata.model=llama-z"] == 59
        assert records["/metadata/prompt.version=p2"] == 30 and records["/metadata/prompt.version=p1"] == 89
        assert (records[f"file={logs[0]}"], records[f"file={logs[1]}"]) == (59, 60)
        assert records["metadata.none=null"] == 119
        assert summary.group("ACCEPT").records == 79 and summary.group("VALUE_MISMATCH").records == 40
        assert summary.tally.no_ts == 0 and summary.histogram is not None

    def test_every_core_counts_a_mapped_log_as_one(self, envelope, registry):
        logs = [str(envelope / "a.jsonl"), str(envelope / "b.jsonl")]
        options = Options(by=("metadata.model", "file"), index=True, log_format=ENVELOPE)
        one = triage(logs, registry, options, workers=1)
        many = triage(logs, registry, options, workers=2, parallel_min_bytes=0, task_bytes=4_000)
        assert many == one and one.records == 119

    def test_a_record_reread_and_exported_is_the_one_counted(self, envelope, registry, tmp_path):
        log = str(envelope / "a.jsonl")
        options = Options(by=("metadata.model",), collect="metadata.model=llama-z", index=True, log_format=ENVELOPE)
        tally = triage([log], registry, options, workers=1)
        file, line, offset, text, label = tally.collected[0]
        record = read_record(file, offset, line, log_format=ENVELOPE)
        assert isinstance(record, LogRecord) and verify(record.raw, record.request, registry).label == label
        assert record.id == "t001" and record.meta["metadata"] == {"model": "llama-z", "prompt.version": "p1"}
        assert isinstance(read_record(file, offset, line), BadLine)  # read as the default: no raw member
        out = tmp_path / "llama.json"
        written = export_suite(out, "metadata.model=llama-z", registry, tally.collected, [log], ENVELOPE)
        suite = load_suite(out)
        assert written == len(suite.cases) == 29  # the odd lines of 1 to 60, but line 11 (bad)
        first = suite.cases[0]
        assert (first.id, first.raw, first.expected) == ("t001", record.raw, label)
        assert '"raw_logged_as": "json"' in first.note and '"request.trace_id": "t001"' in first.note
        assert all(verify(case.raw, case.request, suite.registry).label == case.expected for case in suite.cases)

    def test_the_overview_opens_and_exports_a_mapped_group(self, envelope, registry, tmp_path):
        run = triage_run([str(envelope / "b.jsonl")], registry, str(PAYMENTS_REGISTRY), ("metadata.model",),
                         log_format=ENVELOPE)
        snapshots: list = []
        count(run, snapshots.append, threading.Event())
        snapshot, reader = snapshots[-1], LineReader()
        group = snapshot.summary.group("metadata.model=gpt-x")
        session = open_group(group, snapshot, run, reader)
        first = session.cases[0]
        assert len(session) == 30 and first.id == "b.jsonl:2"  # a case id is its place
        assert session.report(0).actual == first.expected == "ACCEPT" and '"request.trace_id": "t062"' in first.note
        assert export_group(group, snapshot, run, reader, tmp_path / "gpt.json", limit=3) == 3
        assert [case.id for case in load_suite(tmp_path / "gpt.json").cases] == ["t062", "t064", "t066"]

