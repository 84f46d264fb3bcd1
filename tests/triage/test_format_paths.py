"""The path language of --log-format presets and files, a format file's checks, and times."""

from __future__ import annotations

import tomllib

import pytest

from inspector.triage.formats.paths import Missing, RepeatedKey, decode_json, parse
from inspector.triage.formats.spec import Skipped, convert, load_spec, timestamp
from inspector.triage.mapping import LogFormatError

REQUEST = {"service": "payments", "environment": "prod", "revision": "v3", "fields": ["pool_size"],
           "supplied": ["payments-prod-v3"]}


class TestPaths:
    def test_a_member_holding_json_text_is_walked_into(self):
        record = {"output": '{"role": "assistant", "content": "{\\"claims\\": []}"}'}
        assert parse("output|json.content").walk(record) == '{"claims": []}'

    def test_an_element_is_chosen_by_a_members_value_whatever_its_position(self):
        record = {"output": [{"type": "reasoning", "summary": []},
                             {"type": "message", "content": [{"type": "output_text", "text": "answer"}]}]}
        assert parse("output[type=message].content[type=output_text].text").walk(record) == "answer"

    def test_a_selector_value_may_hold_dots_and_a_pointer_key_dots_then_json(self):
        record = {"attributes": [{"key": "gen_ai.output.messages", "value": {"stringValue": '[{"parts": [1]}]'}}]}
        assert parse("attributes[key=gen_ai.output.messages].value.stringValue|json.0.parts.0").walk(record) == 1
        phoenix = {"attributes": {"llm.invocation_parameters": '{"temperature": 0.2}'}}
        assert parse("/attributes/llm.invocation_parameters|json.temperature").walk(phoenix) == 0.2

    @pytest.mark.parametrize(("path", "record", "said"), [
        ("a.b", {"a": {}}, "nothing at a.b (no such member)"),
        ("a.3", {"a": [1]}, "nothing at a (an array of 1 element(s), none at 3)"),
        ("a|json.b", {"a": "not json"}, "nothing at a (text that is not JSON)"),
        ("a[type=x]", {"a": [{"type": "y"}]}, "nothing at a[type=x] (no element has it)"),
        ("a.b", {"a": "text"}, "nothing at a (a string, not an object or an array)"),
    ])
    def test_a_miss_says_where_it_stopped(self, path, record, said):
        found = parse(path).walk(record)
        assert isinstance(found, Missing) and str(found) == said

    def test_every_element_is_for_records_paths_only(self):
        with pytest.raises(ValueError, match=r"\[\*\]"):
            parse("data[*].x")
        places = [place for place, _, _ in parse("a[*].b[*]", records=True).expand({"a": [{"b": [1, 2]}, {"b": [3]}]})]
        assert places == ["a[0].b[0]", "a[0].b[1]", "a[1].b[0]"]

    @pytest.mark.parametrize("text", ["", "a..b", "a[x", "a|yaml"])
    def test_a_path_that_is_not_one_is_refused(self, text):
        with pytest.raises(ValueError):
            parse(text)


class TestRepeatedKeys:
    @pytest.mark.parametrize("text", [b'{"a": 1, "a": 2}', b'{"x": {"c": 1, "c": 2}}',
                                      b'{"s": "\\u0022", "x": {"c": 1, "c": 2}}', b'[{"k": 1, "k": 1}]'])
    def test_a_repeat_anywhere_is_found_whatever_the_escapes(self, text):
        with pytest.raises(RepeatedKey, match="is repeated"):
            decode_json(text)

    @pytest.mark.parametrize("text", [b'{"a": "say \\"hi\\"", "b": ["\\u0022", "x"]}', b'{"a": {"a": {"a": 1}}}'])
    def test_no_repeat_is_none(self, text):
        decode_json(text)

    def test_a_repeat_inside_a_json_text_on_the_way_is_a_bad_record_naming_it(self):
        spec = load_spec(tomllib.loads('raw = "raw"\nrequest = "metadata.request|json"\n'), "t.toml")
        record = {"raw": "{}", "metadata": {"request": '{"service": "a", "service": "b"}'}}
        said = convert(spec, record)
        assert isinstance(said, str) and said.startswith("duplicate key: metadata.request|json: the key 'service'")


class TestFormatFiles:
    @pytest.mark.parametrize(("text", "said"), [
        ('colour = "red"', "unknown key 'colour'"),
        ('preset = "nope"', "preset 'nope' is not a built-in format"),
        ('reads = "xml"', "reads is 'xml'"),
        ('[skip]\nwhen = { path = "a", equals = 1, absent = true }', "takes one of equals, differs and absent"),
        ('[[no_answer]]\nreason = "SILENCE"\nwhen = { path = "a" }', "no_answer[0].reason is not one of"),
        ('[request]\nfields = { path = "a", value = ["x"] }', "request.fields takes a path or a value"),
        ('raw = "a[*]"', "raw: [*]"),
    ])
    def test_a_file_that_cannot_be_used_is_one_line_naming_the_key(self, text, said):
        with pytest.raises(LogFormatError, match=None) as caught:
            load_spec(tomllib.loads(text), "team.toml")
        assert said in str(caught.value) and str(caught.value).startswith("team.toml: ")

    def test_a_team_file_starts_from_a_preset_and_changes_the_request(self):
        spec = load_spec(tomllib.loads('preset = "openai-batch"\n[request]\nservice = {value = "payments"}\n'
                                       'environment = {value = "prod"}\nrevision = {value = "v3"}\n'
                                       'fields = {path = "input.body.metadata.fields", split = ","}\n'
                                       'supplied = {path = "input.body.metadata.supplied", split = ","}\n'),
                         "team.toml")
        assert spec.join is not None and spec.join.file == "batch_input.jsonl" and spec.item is not None
        record = {"custom_id": "q1", "response": {"status_code": 200, "body": {
            "choices": [{"message": {"content": "{}"}, "finish_reason": "stop"}]}}}
        related = {"input": {"body": {"metadata": {"fields": "pool_size, log_level", "supplied": "payments-prod-v3"}}}}
        canonical = convert(spec, record, related)
        assert canonical["request"] == {"service": "payments", "environment": "prod", "revision": "v3",
                                        "fields": ["pool_size", "log_level"], "supplied": ["payments-prod-v3"]}
        assert canonical["item"] == "q1"

    def test_rules_skip_rows_and_say_what_answers_are_missing(self):
        spec = load_spec(tomllib.loads(
            'raw = "out"\nrequest = "req"\n[skip]\nunless = { path = "type", equals = "GENERATION" }\n'
            '[[no_answer]]\nreason = "ERROR"\nwhen = { path = "status", differs = 200 }\ndetail = "message"\n'), "t.toml")
        assert convert(spec, {"type": "SPAN"}) == Skipped("SPAN")
        assert convert(spec, {}) == Skipped("no type")
        failed = convert(spec, {"type": "GENERATION", "status": 500, "message": "boom", "req": REQUEST})
        assert failed["no_answer"] == "ERROR" and failed["no_answer_detail"] == "boom"
        empty = convert(spec, {"type": "GENERATION", "status": 200, "out": None, "req": REQUEST})
        assert empty["no_answer"] == "EMPTY"
        message = convert(spec, {"type": "GENERATION", "status": 200, "req": REQUEST,
                                 "out": '{"role": "assistant", "content": "x"}'})
        assert "chat message" in message["raw_warning"]


class TestTimes:
    @pytest.mark.parametrize(("value", "unit"), [
        (1796083742, "s"), ("1796083742", "s"), (1796083742000, "ms"), ("1796083742000000", "us"),
        ("1796083742000000000", "ns"), ("2026-12-01T00:09:02Z", "iso"), ("2026-12-01 00:09:02.000000", "iso"),
        ("2026-12-01T01:09:02+01:00", "auto"), (1796083742.0, "auto"),
    ])
    def test_every_unit_reads_the_same_instant(self, value, unit):
        assert timestamp(value, unit) == "2026-12-01T00:09:02Z"

    @pytest.mark.parametrize("value", ["yesterday", "1e5x", None, [1]])
    def test_a_time_that_cannot_be_read_is_none(self, value):
        assert timestamp(value, "iso") is None


class TestScopesAndEnclosingRecords:
    SPEC = 'raw = "out"\nrequest = "req"\nts = "at"\nts_unit = "ms"\n'

    def test_scope_flag_adds_the_records_time(self):
        spec = load_spec(tomllib.loads(self.SPEC), "t.toml").with_scope("acme", "alice")
        canonical = convert(spec, {"out": "{}", "req": REQUEST, "at": 1796083742000})
        assert canonical["request"]["scope"] == {"tenant": "acme", "user": "alice", "now": 1796083742.0}
        said = convert(spec, {"out": "{}", "req": REQUEST})
        assert said == "request unusable: request.scope.now: the record has no readable time to grant access at"

    def test_a_scope_table_takes_paths_and_constants(self):
        spec = load_spec(tomllib.loads(
            'raw = "out"\nts = "at"\n[request]\nservice = "s"\nenvironment = {value = "prod"}\n'
            'revision = {value = "v3"}\nfields = {value = ["pool_size"]}\nsupplied = {value = ["payments-prod-v3"]}\n'
            'scope = { tenant = "org", user = {value = "svc"} }\n'), "t.toml")
        canonical = convert(spec, {"out": "{}", "s": "payments", "org": "acme", "at": "2026-12-01T00:00:00Z"})
        assert canonical["request"]["scope"] == {"tenant": "acme", "user": "svc", "now": 1796083200.0}
        with pytest.raises(LogFormatError, match="request.scope needs tenant and user"):
            load_spec(tomllib.loads('[request]\nscope = { tenant = "org" }\n'), "t.toml")

    def test_records_as_names_the_elements_around_each_record(self):
        spec = load_spec(tomllib.loads(
            'records = "resourceSpans[*].scopeSpans[*].spans[*]"\nrecords_as = ["resource", "scope"]\n'
            'raw = "out"\nrequest = "req"\n[keep]\nservice = "resource.resource.name"\n'
            'library = "scope.scope.name"\n'), "t.toml")
        line = {"resourceSpans": [{"resource": {"name": "billing"}, "scopeSpans": [
            {"scope": {"name": "openai"}, "spans": [{"out": "{}", "req": REQUEST}]}]}]}
        [(place, record, around)] = list(spec.records.expand(line))
        assert place == "resourceSpans[0].scopeSpans[0].spans[0]"
        canonical = convert(spec, record, dict(zip(spec.enclosing, around)))
        assert (canonical["service"], canonical["library"]) == ("billing", "openai")
