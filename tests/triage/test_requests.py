"""What a distinct request costs a triage (issue 17, item 7): the request cache
bounded by bytes, not entries; a scope member of megabytes grouped by a short
key; the shapes of rejection kept per request charged to the same budget."""

from __future__ import annotations

import json

from support import ANSWERS, PAYMENTS_REGISTRY, PAYMENTS_REQUEST

from inspector.suites.load import load_registry
from inspector.triage import Options, RequestCache, triage
from inspector.triage import records as records_module
from inspector.triage.records import GROUP_CHARS, parse_line, scope_key
from inspector.triage.summary import summarize

REQUEST = json.loads(PAYMENTS_REQUEST.read_text())


def request_bytes(**changes) -> bytes:
    return json.dumps({**REQUEST, **changes}).encode()


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
