"""One line of a log (inspector.triage.records), as the counting and the
rereading rely on it: ``parse_line``'s record or the reason of each kind of bad
line; ``parse_mapped`` reading members where a format's paths say, naming the
path where a member is missing or repeated; what a distinct request costs (issue
17, item 7): the request cache bounded by bytes, not entries; a scope member of
megabytes grouped by a short key; the shapes of rejection kept per request
charged to the same budget."""

from __future__ import annotations

import json

import msgspec
import pytest

from support import ANSWERS, PAYMENTS_REGISTRY, PAYMENTS_REQUEST

from inspector.suites.load import load_registry
from inspector.triage import Options, RequestCache, triage
from inspector.triage import records as records_module
from inspector.triage.mapping import LogFormat, compile_format
from inspector.triage.records import (
    BAD_KINDS,
    GROUP_CHARS,
    MAX_LINE_BYTES,
    MAX_LINE_DEPTH,
    KnownRequest,
    parse_line,
    parse_mapped,
    scope_key,
)
from inspector.triage.summary import summarize

REQUEST = json.loads(PAYMENTS_REQUEST.read_text())


ACCEPT = (ANSWERS / "accept.json").read_text()
OPENAI = LogFormat(raw="response.choices.0.message.content", request="ctx.request", ts="created", id="id")


def request_bytes(**changes) -> bytes:
    return json.dumps({**REQUEST, **changes}).encode()


def line_of(raw: object = ACCEPT, request: object = REQUEST, **members: object) -> bytes:
    return json.dumps({"raw": raw, "request": request, **members}).encode()


def parsed(line: str | bytes, log_format: LogFormat = OPENAI, by: tuple[str, ...] = ()):
    data = line.encode() if isinstance(line, str) else line
    return parse_mapped(data, RequestCache(), compile_format(log_format, by))


class TestParseLine:
    def test_a_record_is_its_answer_its_request_and_its_other_members_as_written(self):
        raw, known, members = parse_line(line_of(model="gpt-x", temperature=0.25), RequestCache())
        assert raw == ACCEPT
        assert isinstance(known, KnownRequest) and known.request.service == REQUEST["service"]
        assert known.scope == (REQUEST["service"], REQUEST["environment"], REQUEST["revision"])
        assert bytes(members["model"]) == b'"gpt-x"' and bytes(members["temperature"]) == b"0.25"

    # One line for every kind of bad line a triage counts, each said by the words its kind starts with.
    BAD = {
        "empty line": b"   ",
        "too long": b'{"raw": "' + b"x" * MAX_LINE_BYTES + b'"}',
        "not JSON": b'{"raw": "x", ',
        "not an object": b"[1, 2]",
        "duplicate key": b'{"raw": "a", "raw": "b", "request": ' + request_bytes() + b"}",
        "raw missing": json.dumps({"request": REQUEST}).encode(),
        "raw not a string": line_of(raw=7),
        "request missing": json.dumps({"raw": "x"}).encode(),
        "request unusable": line_of(request={**REQUEST, "fields": []}),
    }

    def test_every_kind_of_bad_line_is_tried_here(self):
        assert tuple(self.BAD) == BAD_KINDS

    @pytest.mark.parametrize("kind", BAD_KINDS)
    def test_a_bad_line_is_its_reason_starting_with_its_kind(self, kind):
        reason = parse_line(self.BAD[kind], RequestCache())
        assert isinstance(reason, str) and reason.startswith(kind + ("" if kind == "empty line" else ":"))
        assert "\n" not in reason and len(reason) < 400

    def test_the_reasons_say_what_is_wrong(self):
        assert parse_line(self.BAD["raw not a string"], RequestCache()) == "raw not a string: raw is a number"
        assert "request.fields: no field requested" in parse_line(self.BAD["request unusable"], RequestCache())
        assert parse_line(b'"text"', RequestCache()) == "not an object: the line is a string, not a JSON object"
        assert "request.trace_id: a member the request schema does not know" in parse_line(
            line_of(request={**REQUEST, "trace_id": "t1"}), RequestCache())

    def test_an_answer_not_utf8_or_logged_as_json_or_after_a_bom_is_still_a_record(self):
        requests = RequestCache()
        assert parse_line(b'{"raw": "caf\xe9", "request": ' + request_bytes() + b"}", requests)[0] == b"caf\xe9"
        logged = b'{"raw": {"claims": [ ]}, "request": ' + request_bytes() + b"}"
        assert parse_line(logged, requests)[0] == '{"claims": [ ]}'  # its exact bytes, spacing and all
        assert parse_line(b"\xef\xbb\xbf" + line_of(), requests)[0] == ACCEPT

    def test_a_request_seen_before_is_the_one_validated_then(self):
        requests = RequestCache()
        first = parse_line(line_of(), requests)[1]
        assert parse_line(line_of(raw="other"), requests)[1] is first and len(requests.known) == 1


class TestNumbers:
    def test_a_value_keeps_its_number_and_a_cleared_cache_keeps_them_all(self):
        requests = RequestCache()
        first, second = requests.number(("ACCEPT", "s")), requests.number(("REJECT", "s"))
        assert (first, second) == (0, 1) and requests.number(("ACCEPT", "s")) == 0
        requests.get(request_bytes())
        requests.clear()
        assert requests.known == {} and requests.held == 0
        assert requests.values == [("ACCEPT", "s"), ("REJECT", "s")] and requests.number(("REJECT", "s")) == 1


class TestCacheBoundedByBytes:
    def test_large_distinct_requests_stop_at_the_byte_budget(self):
        # 64 KiB a service: 65,536 entries of these would be 4 GiB; 1 MiB holds a handful.
        requests = RequestCache(load_registry(PAYMENTS_REGISTRY), limit=1 << 20)
        kept = []
        for number in range(60):
            requests.get(request_bytes(service=f"{number}-" + "s" * (64 << 10)))
            assert requests.held <= requests.limit
            kept.append(len(requests.known))
        assert max(kept) <= 8  # each entry counts its JSON and its decoded service: > 128 KiB
        assert max(kept) >= 3

    def test_a_request_larger_than_the_budget_is_not_kept(self):
        requests = RequestCache(limit=1 << 16)
        found = requests.get(request_bytes(service="s" * (1 << 17)))
        assert found.request.service == "s" * (1 << 17)
        assert requests.known == {} and requests.held == 0

    def test_small_requests_are_kept_as_before(self):
        requests = RequestCache()
        for number in range(1000):
            requests.get(request_bytes(service=f"payments-{number}"))
        assert len(requests.known) == 1000 and 0 < requests.held < requests.limit

    def test_an_unusable_request_is_kept_and_charged(self):
        requests = RequestCache()
        reason = requests.get(b'{"service": 1}')
        assert isinstance(reason, str) and reason.startswith("request unusable")
        assert requests.get(b'{"service": 1}') is reason and requests.held > 0

    def test_kept_shapes_are_charged_and_bounded(self, monkeypatch):
        requests = RequestCache(limit=1 << 20)
        known = requests.get(request_bytes())
        before = requests.held
        long_doc = "d" * 2048
        for number in range(3):
            requests.remember(known, ("VALUE_MISMATCH", None, 0, ((f"field{number}", long_doc),)), number)
        assert len(known.assessed) == 3 and requests.held >= before + 3 * 2048
        requests.remember(known, ("VALUE_MISMATCH", None, 0, (("field0", long_doc),)), 0)  # seen: not charged again
        assert len(known.assessed) == 3
        monkeypatch.setattr(records_module, "SHAPES", 3)
        requests.remember(known, ("INCOMPLETE", None, None, ()), 9)
        assert len(known.assessed) == 3

    def test_shapes_past_the_budget_start_the_cache_afresh(self):
        requests = RequestCache(limit=20_000)
        known = requests.get(request_bytes())
        for number in range(40):
            requests.remember(known, ("VALUE_MISMATCH", None, 0, ((f"f{number}", "d" * 1000),)), number)
            assert requests.held <= requests.limit
        assert 0 < len(known.assessed) < 40  # kept until the budget ran out, then not


class TestScopeKey:
    def test_short_members_are_kept_as_they_are(self):
        requests = RequestCache()
        known = requests.get(request_bytes())
        assert known.scope == (REQUEST["service"], REQUEST["environment"], REQUEST["revision"])

    def test_a_long_member_is_its_head_length_and_digest(self):
        requests = RequestCache()
        first = requests.get(request_bytes(service="a" * (3 << 20)))
        second = requests.get(request_bytes(service="a" * (3 << 20) + "b"))
        service = first.scope[0]
        assert service.startswith("a" * GROUP_CHARS + "…(3,145,728 characters, sha256 ")
        assert len(service) < GROUP_CHARS + 100
        assert first.scope != second.scope  # distinct services stay distinct groups
        assert first.request.service == "a" * (3 << 20)  # the contract still sees the request as it is
        # Never equal to a member kept as it is: those are at most GROUP_CHARS long.
        assert scope_key(first.request)[0] == service and len(service) > GROUP_CHARS

    def test_the_summary_holds_no_megabyte_scope(self, tmp_path):
        raw = (ANSWERS / "accept.json").read_text()
        log = tmp_path / "big.jsonl"
        with open(log, "w") as out:
            out.writelines(json.dumps({"raw": raw, "request": {**REQUEST, "service": f"{number}" + "x" * (1 << 20)}})
                          + "\n" for number in range(3))
        registry = load_registry(PAYMENTS_REGISTRY)
        tally = triage([str(log)], registry, Options(), workers=1)
        scopes = {scope for (_, scope, _) in tally.cells}
        assert len(scopes) == 3 and all(len(scope[0]) < 400 for scope in scopes)
        document = json.dumps(summarize(tally, Options(), [str(log)], str(PAYMENTS_REGISTRY)).to_dict())
        assert len(document) < 100_000  # not three megabytes of service names

    def test_a_shortened_scope_group_exports(self, tmp_path):
        from inspector.triage.groups import scope_name

        raw = (ANSWERS / "accept.json").read_text()
        log = tmp_path / "big.jsonl"
        services = ["y" * 1000, "y" * 1001]
        log.write_text("".join(json.dumps({"raw": raw, "request": {**REQUEST, "service": service}}) + "\n"
                               for service in services))
        registry = load_registry(PAYMENTS_REGISTRY)
        known = RequestCache().get(request_bytes(service=services[1]))
        tally = triage([str(log)], registry, Options(collect=scope_name(known.scope)), workers=1)
        assert [line for _, line, *_ in tally.collected] == [2]


class TestParseLineUsesTheCache:
    def test_a_line_after_the_cache_started_afresh_is_still_a_record(self):
        requests = RequestCache(limit=1 << 12)
        raw = json.dumps((ANSWERS / "accept.json").read_text())
        for number in range(20):
            line = f'{{"raw": {raw}, "request": {request_bytes(service=f"s{number}" * 50).decode()}}}'.encode()
            parsed = parse_line(line, requests)
            assert not isinstance(parsed, str) and parsed[1].request.service == f"s{number}" * 50
            assert requests.held <= requests.limit


class TestParseMapped:
    @pytest.mark.parametrize("line, reason", [
        ('{"ctx": {}}', "raw missing: nothing at response.choices.0.message.content (the record has no member "
                        "'response')"),
        ('{"response": {}}', "raw missing: nothing at response.choices.0.message.content (response has no member "
                             "'choices')"),
        ('{"response": {"choices": []}}', "(response.choices is an array of 0 element(s), none at 0)"),
        ('{"response": {"choices": ["x"]}}', "(response.choices.0 is a string, not an object or an array)"),
        ('{"response": "x"}', "(response is a string, not an object or an array)"),
        ('{"response": {"choices": [{"message": {"content": null}}]}}',
         "raw not a string: response.choices.0.message.content is null"),
        ('{"response": {"choices": [{"message": {"content": 7}}]}}', "raw not a string: "),
        ('{"response": {"choices": [{"message": {"content": true}}]}}', "is a boolean"),
        ('{"response": {"choices": [{"message": {"content": "x"}}]}}',
         "request missing: nothing at ctx.request (the record has no member 'ctx')"),
        ('{"response": {"choices": [{"message": {"content": "x"}}]}, "ctx": {"request": []}}',
         "request unusable: ctx.request: Expected `object`, got `array`"),
    ])
    def test_each_reason_names_the_path_and_where_it_stopped(self, line, reason):
        assert reason in parsed(line)

    def test_a_digit_is_a_key_on_an_object_and_an_index_on_an_array(self):
        found = parsed('{"response": {"choices": {"0": {"message": {"content": "x"}}}}, "ctx": {"request": '
                       + json.dumps(REQUEST) + "}}")
        assert found[0] == "x"
        assert "is an array, and 'first' is not an index" in parsed(
            '{"list": [1]}', LogFormat(raw="list.first", request="ctx.request"))
        assert "none at 1" in parsed('{"list": ["x"]}', LogFormat(raw="list.1", request="ctx.request"))
        assert "'01' is not an index" in parsed('{"list": ["x", "y"]}', LogFormat(raw="list.01", request="ctx.request"))

    def test_a_member_repeated_on_the_way_to_raw_or_request(self):
        request = json.dumps(REQUEST)
        raw_way = ('{"response": {"choices": [{"message": {"content": "a", "content": "b"}}]}, '
                   f'"ctx": {{"request": {request}}}}}')
        assert parsed(raw_way) == ("duplicate key: the record repeats a member at response.choices.0.message "
                                   "(which one counts is ambiguous)")
        request_way = (f'{{"llm": {{"raw": "a", "request": {request}, "raw": "b"}}}}')
        assert parsed(request_way, LogFormat(raw="/llm/raw", request="/llm/request")).startswith(
            "duplicate key: the record repeats a member at /llm ")
        top = '{"x": 1, "x": 2, ' + raw_way[1:].replace('"content": "a", ', "")
        assert parsed(top).startswith("duplicate key: the record repeats a member (")
        # Beside the way, a repeat is metadata's own business; an escaped quote in a key is no repeat.
        beside = raw_way.replace('"content": "a", ', "").replace('"role"', '"r\\"ole"')[:-1] + \
            ', "meta": {"a": 1, "a": 2}}'
        assert parsed(beside)[0] == "b"
        escaped = raw_way.replace('"content": "a", ', '"con\\"tent": "a", ')
        assert parsed(escaped)[0] == "b"

    @pytest.mark.parametrize("line, where, request_at", [
        # the last copy lacks raw, holds a raw that is no string, lacks the request, holds an unusable one:
        # msgspec keeps the last copy, but which copy counts is ambiguous: the repeat is the line's problem
        ('{"llm": {"raw": "a", "request": %(r)s}, "llm": {"request": %(r)s}}', "/llm/raw", "/llm/request"),
        ('{"llm": {"raw": "a", "request": %(r)s}, "llm": {"raw": 5, "request": %(r)s}}', "/llm/raw", "/llm/request"),
        ('{"llm": {"raw": "a", "request": %(r)s}, "llm": {"raw": "a"}}', "/llm/raw", "/llm/request"),
        ('{"llm": {"raw": "a", "request": %(r)s, "request": {"service": 1}}}', "/llm", "/llm/request"),
        ('{"llm": {"raw": "a", "request": {"ctx": %(r)s, "ctx": []}}}', "/llm/request", "/llm/request/ctx"),
    ])
    def test_a_repeat_on_the_way_is_said_whatever_the_last_copy_holds(self, line, where, request_at):
        said = parsed(line % {"r": json.dumps(REQUEST)}, LogFormat(raw="/llm/raw", request=request_at))
        top = where == "/llm/raw"  # the repeated member is the line's own "llm"
        assert said == ("duplicate key: the record repeats a member (which one counts is ambiguous)" if top else
                        f"duplicate key: the record repeats a member at {where} (which one counts is ambiguous)")

    def test_a_repeat_at_the_top_is_said_whatever_the_last_copy_holds(self):
        # The default format's fast path: a repeated raw or request whose last copy is unusable.
        request = json.dumps(REQUEST)
        requests = RequestCache()
        for line in (f'{{"raw": "a", "request": {request}, "raw": 5}}',
                     f'{{"raw": "a", "request": {request}, "request": {{"service": 1}}}}'):
            assert parse_line(line.encode(), requests) == (
                "duplicate key: the record repeats a member (which one counts is ambiguous)")

    def test_nested_ts_and_by_members_are_added_under_their_paths(self):
        line = json.dumps({"id": "c1", "created": 1796083200, "meta": {"model": "gpt-x"},
                           "response": {"choices": [{"message": {"content": "x"}}]}, "ctx": {"request": REQUEST}})
        raw, known, members = parsed(line, LogFormat(raw=OPENAI.raw, request=OPENAI.request, ts="meta.at"),
                                     by=("meta.model",))
        assert raw == "x" and list(known.request.fields) == REQUEST["fields"]
        assert bytes(members[("meta", "model")]) == b'"gpt-x"' and ("meta", "at") not in members
        assert isinstance(members["created"], msgspec.Raw)


class TestNesting:
    @pytest.mark.parametrize("mapped", [False, True], ids=["members", "mapped"])
    def test_nesting_is_judged_by_depth_on_every_python(self, mapped):
        """A line nested deeper than MAX_LINE_DEPTH is not JSON, whatever the
        interpreter: msgspec's own limit follows Python's (about 1,000 levels on
        3.11, over 10,000 on 3.13, where the issue's 5,000-deep request was
        "request unusable").  A line at the limit is read; brackets inside a
        string are no nesting."""
        request = PAYMENTS_REQUEST.read_text()
        plan = compile_format(LogFormat(raw="raw", request="request", request_extra="ignore"))

        def reason(line: str) -> object:
            parsed = (parse_mapped(line.encode(), RequestCache(), plan) if mapped
                      else parse_line(line.encode(), RequestCache()))
            return parsed if isinstance(parsed, str) else "read"

        def nested(depth: int) -> str:  # the line's object is the first level
            return '{"raw": "x", "request": ' + "[" * (depth - 1) + "]" * (depth - 1) + "}"

        assert reason(nested(MAX_LINE_DEPTH)).startswith("request unusable")
        too_deep = f"not JSON: nested too deeply (more than {MAX_LINE_DEPTH} levels)"
        assert reason(nested(MAX_LINE_DEPTH + 1)) == too_deep
        assert reason(nested(5000)) == too_deep
        assert reason(nested(30_000)) == too_deep
        assert reason('{"raw": "x", "request": ' + "[" * MAX_LINE_DEPTH) == too_deep  # broken off
        assert reason('{"raw": "x", "request": ' + "[" * 100).startswith("not JSON: ")
        assert reason('{"raw": "x", "request": ' + "[" * 100) != too_deep
        assert reason(json.dumps({"raw": "[{" * 3000, "request": json.loads(request)})) == "read"
