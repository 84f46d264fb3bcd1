"""Loading suites, registries and requests (inspector.suites.load) with located
errors, and auditing them (inspector.suites.audit) the way the article reports."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from inspector import LoadError, Registry, Request, load_registry, load_request, load_suite, verify
from inspector.suites.audit import audit
from inspector.suites.load import load_answer, parse_label

from conftest import (
    ANSWERS,
    ARTICLE,
    FIXTURES,
    GOOD,
    PAYMENTS_REGISTRY,
    PAYMENTS_REQUEST,
    REQUEST_DICT,
    SOURCES,
    SUITE_FILES,
)


def case(**changes: Any) -> dict[str, Any]:
    return {"id": "good", "raw": GOOD, "request": REQUEST_DICT, "expected": "ACCEPT", **changes}


def write_suite(tmp_path: Path, cases: list[Any] | None = None, sources: list[Any] | None = None,
                name: str = "suite.json", **members: Any) -> Path:
    path = tmp_path / name
    document = {"sources": SOURCES if sources is None else sources, "cases": [case()] if cases is None else cases,
                **members}
    path.write_text(json.dumps(document, indent=2), "utf-8")
    return path


def write(tmp_path: Path, text: str | bytes, name: str = "file.json") -> Path:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, "utf-8")
    return path


def load_error(call, *args: Any, **kwargs: Any) -> LoadError:
    with pytest.raises(LoadError) as info:
        call(*args, **kwargs)
    error = info.value
    assert "Traceback" not in str(error)
    assert "\n" not in str(error)
    return error


class TestFixtures:
    @pytest.mark.parametrize("path", SUITE_FILES, ids=[p.name for p in SUITE_FILES])
    def test_every_fixture_suite_loads(self, path):
        suite = load_suite(path)
        assert suite.name == path.stem
        assert suite.cases and not suite.broken
        assert isinstance(suite.registry, Registry) and len(suite.registry) >= 1
        ids = [c.id for c in suite.cases]
        assert len(ids) == len(set(ids))
        for index, item in enumerate(suite.cases):
            assert item.suite == suite.name and item.index == index
            assert isinstance(item.raw, (str, bytes))
            assert isinstance(item.request, Request)
            parse_label(item.expected)

    def test_article_suite(self):
        suite = load_suite(ARTICLE)
        assert len(suite.cases) == 22
        assert sum(c.expected == "ACCEPT" for c in suite.cases) == 3
        assert [s.id for s in suite.registry] == ["prod-v2", "prod-v1", "dev-v2", "billing-v2"]

    def test_raw_base64_cases_are_bytes(self):
        suite = load_suite(FIXTURES / "decode.json")
        as_bytes = [c for c in suite.cases if isinstance(c.raw, bytes)]
        assert as_bytes
        document = json.loads((FIXTURES / "decode.json").read_text("utf-8"))
        encoded = {c["id"]: c["raw_base64"] for c in document["cases"] if "raw_base64" in c}
        assert {c.id: c.raw for c in as_bytes} == {k: base64.b64decode(v) for k, v in encoded.items()}

    def test_payments_registry_and_request(self):
        registry = load_registry(PAYMENTS_REGISTRY)
        assert [s.id for s in registry] == ["prod-v2", "prod-v1", "dev-v2", "billing-v2"]
        assert registry.get("prod-v2").facts == {"read_timeout_ms": "5000", "retry_enabled": "false"}
        request = load_request(PAYMENTS_REQUEST)
        assert (request.service, request.environment, request.revision) == ("payments", "prod", "v2")
        assert request.fields == ("read_timeout_ms", "retry_enabled")
        assert request.supplied == ("prod-v2", "prod-v1", "dev-v2")

    def test_a_suite_file_is_a_registry(self):
        assert [s.id for s in load_registry(ARTICLE)] == [s.id for s in load_suite(ARTICLE).registry]

    def test_answers_are_bytes(self):
        assert load_answer(ANSWERS / "accept.json") == (ANSWERS / "accept.json").read_bytes()


class TestArticleAudit:
    def test_numbers_of_the_article(self):
        report = audit([load_suite(ARTICLE)]).summary
        summary = report.to_dict()
        assert summary["cases"] == 22
        assert summary["strict_json"] == 17
        assert summary["citation_only"] == 13
        assert summary["accepted"] == 3
        assert summary["citation_only_false_accepts"] == 10
        assert summary["label_mismatches"] == 0
        # The article's rungs, named as the article names them, with their cases.
        assert [(row.id, row.name, row.count) for row in report.rungs] == [
            ("strict_json", "strict JSON", 17), ("citation_only", "citation-only", 13), ("contract", "contract", 3)]
        assert len(report.citation_false_accepts) == 10
        assert set(report.citation_false_accepts) == set(report.rung("citation_only").cases) - set(
            report.rung("contract").cases)

    def test_every_label_matches(self):
        result = audit([load_suite(ARTICLE)])
        assert [(r.case.id, r.verdict.label) for r in result.results if not r.match] == []
        assert all(r.match for r in result.results)

    def test_the_three_accepted_cases(self):
        result = audit([load_suite(ARTICLE)])
        accepted = {r.case.id: dict(r.verdict.accepted) for r in result.results if r.verdict.ok}
        assert len(accepted) == 3
        assert all(r.verdict.accepted == {} for r in result.results if not r.verdict.ok)
        assert {"read_timeout_ms": "5000", "retry_enabled": "false"} in accepted.values()
        assert {"read_timeout_ms": "5000"} in accepted.values()

    def test_named_article_cases(self):
        labels = {r.case.id: r.verdict.label for r in audit([load_suite(ARTICLE)]).results}
        assert labels["real-quote-wrong-value"] == "VALUE_MISMATCH"
        assert labels["dev-environment-claims"] == "SCOPE_MISMATCH"
        assert labels["prod-v1-claims"] == "STALE_REVISION"
        assert labels["quote-from-other-field"] == "QUOTE_NOT_SUPPORTING"
        assert labels["omitted-field"] == "INCOMPLETE"
        assert labels["duplicate-claims-key"] == "INVALID_JSON/DUPLICATE_KEY"
        assert labels["free-text-answer-member"] == "INVALID_JSON/UNKNOWN_MEMBER"

    def test_ladder(self):
        report = audit([load_suite(ARTICLE)]).summary
        ladder = {row.check.id: row.passed for row in report.checks}
        assert ladder["shape"] == 17
        assert ladder["quote_found"] == 13
        assert ladder["coverage"] == 3
        values = list(ladder.values())
        assert values == sorted(values, reverse=True)
        # Each row stops the cases whose first failure it is, and no others.
        remaining = report.total
        for row in report.checks:
            remaining -= row.failed
            assert row.passed == remaining and row.failed == len(row.stopped), row.check.id
            assert all(report.reports[n].verdict.check is row.check for n in row.stopped), row.check.id
        assert report.first_failures == {row.check.id: row.failed for row in report.checks if row.failed}
        assert sum(report.first_failures.values()) == 22 - 3
        assert report.to_dict()["ladder"] == [{"check": row.check.id, "code": row.check.code, "passed": row.passed}
                                              for row in report.checks]

    def test_audit_document(self):
        document = audit([load_suite(ARTICLE)]).to_dict("test")
        assert document["schema"] == "inspector.audit/1"
        assert len(document["cases"]) == 22
        json.dumps(document)


class TestEveryFixtureAudit:
    @pytest.mark.parametrize("path", SUITE_FILES, ids=[p.name for p in SUITE_FILES])
    def test_labels_all_match(self, path):
        result = audit([load_suite(path)])
        mismatched = [(r.case.id, r.case.expected, r.verdict.label) for r in result.results if not r.match]
        assert mismatched == []

    def test_all_together(self):
        summary = audit([load_suite(path) for path in SUITE_FILES]).summary.to_dict()
        assert summary["label_mismatches"] == 0
        assert summary["cases"] == sum(len(load_suite(path).cases) for path in SUITE_FILES)


class TestLabels:
    @pytest.mark.parametrize(("label", "parsed"), [
        ("ACCEPT", ("ACCEPT", None)),
        ("VALUE_MISMATCH", ("VALUE_MISMATCH", None)),
        ("INVALID_JSON", ("INVALID_JSON", None)),
        ("INVALID_JSON/DUPLICATE_KEY", ("INVALID_JSON", "DUPLICATE_KEY")),
        ("NO_CITATION/NOT_SUPPLIED", ("NO_CITATION", "NOT_SUPPLIED")),
    ])
    def test_parse(self, label, parsed):
        assert parse_label(label) == parsed

    @pytest.mark.parametrize("label", ["NOPE", "accept", "INVALID_JSON/NO_CLAIMS", "VALUE_MISMATCH/SYNTAX",
                                       "NO_CITATION/WHATEVER", ""])
    def test_refused(self, label):
        with pytest.raises(ValueError):
            parse_label(label)


class TestLoadErrors:
    def test_missing_file(self, tmp_path):
        error = load_error(load_suite, tmp_path / "nope.json")
        assert "nope.json" in str(error) and "no such file" in str(error)

    def test_directory(self, tmp_path):
        error = load_error(load_suite, tmp_path)
        assert str(tmp_path) in str(error) and "directory" in str(error)

    def test_not_json_has_line_and_column(self, tmp_path):
        path = write(tmp_path, '{\n  "sources": [,\n  ]\n}')
        error = load_error(load_suite, path)
        assert error.path == str(path)
        assert error.place == "2:15"
        assert str(error).startswith(f"{path}: 2:15: ")
        assert "invalid JSON" in str(error)

    def test_truncated(self, tmp_path):
        error = load_error(load_suite, write(tmp_path, '{"sources": ['))
        assert "end of file" in error.problem
        assert "truncated" not in error.problem

    def test_not_utf8(self, tmp_path):
        error = load_error(load_suite, write(tmp_path, b'{"sources": [], "description": "\xff"}'))
        assert "0xFF" in str(error) and "UTF-8" in str(error)

    def test_bom_accepted(self, tmp_path):
        path = write_suite(tmp_path)
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
        assert len(load_suite(path).cases) == 1

    def test_deeply_nested(self, tmp_path):
        error = load_error(load_suite, write(tmp_path, "[" * 100_000 + "]" * 100_000))
        assert str(tmp_path) in str(error)

    def test_not_an_object(self, tmp_path):
        error = load_error(load_suite, write(tmp_path, "[]"))
        assert "object" in str(error)

    def test_unknown_top_level_key(self, tmp_path):
        error = load_error(load_suite, write_suite(tmp_path, sourcez=[]))
        assert "sourcez" in str(error)

    def test_unknown_key_in_a_case(self, tmp_path):
        error = load_error(load_suite, write_suite(tmp_path, [case(), case(id="b", expectd="ACCEPT")]))
        assert error.place.startswith("cases[1]")
        assert "expectd" in str(error)

    def test_unknown_key_in_a_case_request(self, tmp_path):
        error = load_error(load_suite, write_suite(tmp_path, [case(request={**REQUEST_DICT, "revison": "v2"})]))
        assert error.place.startswith("cases[0].request")
        assert "revison" in str(error)

    def test_unknown_key_in_a_source(self, tmp_path):
        error = load_error(load_suite, write_suite(tmp_path, sources=[SOURCES[0], {**SOURCES[1], "factz": {}}]))
        assert error.place.startswith("sources[1]")
        assert "factz" in str(error)

    def test_wrong_type_in_a_source(self, tmp_path):
        error = load_error(load_suite, write_suite(tmp_path, sources=[{**SOURCES[0], "facts": 5}]))
        assert error.place == "sources[0].facts"

    def test_duplicate_source_id(self, tmp_path):
        error = load_error(load_suite, write_suite(tmp_path, sources=[*SOURCES, SOURCES[1]]))
        assert error.place == f"sources[{len(SOURCES)}].id"
        assert "prod-v1" in str(error) and "sources[1]" in str(error)

    def test_duplicate_case_id(self, tmp_path):
        error = load_error(load_suite, write_suite(tmp_path, [case(), case(expected="INCOMPLETE"), case()]))
        assert error.place == "cases[1].id"
        assert "'good'" in str(error) and "cases[0]" in str(error)

    @pytest.mark.parametrize("label", ["NOPE", "INVALID_JSON/NO_CLAIMS", "VALUE_MISMATCH/SYNTAX"])
    def test_bad_label(self, tmp_path, label):
        error = load_error(load_suite, write_suite(tmp_path, [case(expected=label)]))
        assert error.place == "cases[0].expected"
        assert label.split("/")[-1] in str(error)

    def test_duplicate_key_in_the_file(self, tmp_path):
        path = write(tmp_path, '{\n  "sources": [],\n  "sources": []\n}')
        error = load_error(load_suite, path)
        assert error.place == "3:3"
        assert "'sources'" in str(error) and "2:3" in str(error)

    def test_duplicate_key_written_with_an_escape(self, tmp_path):
        path = write(tmp_path, '{"sources": [], "cases": [], "\\u0073ources": []}')
        error = load_error(load_suite, path)
        assert "sources" in str(error) and error.place == "1:30"

    def test_duplicate_key_in_a_case(self, tmp_path):
        path = write_suite(tmp_path)
        text = path.read_text("utf-8").replace('"expected": "ACCEPT"', '"expected": "ACCEPT", "expected": "INCOMPLETE"')
        path.write_text(text, "utf-8")
        error = load_error(load_suite, path)
        assert "expected" in str(error)
        assert "cases[0]" in str(error)

    def test_duplicate_key_message_does_not_speak_of_an_answer(self, tmp_path):
        error = load_error(load_suite, write(tmp_path, '{"sources": [], "sources": []}'))
        assert "answer" not in str(error)

    def test_neither_raw_nor_raw_base64(self, tmp_path):
        item = case()
        del item["raw"]
        error = load_error(load_suite, write_suite(tmp_path, [item]))
        assert error.place == "cases[0]" and "raw" in str(error)

    def test_bad_base64(self, tmp_path):
        item = case(raw_base64="!!")
        del item["raw"]
        error = load_error(load_suite, write_suite(tmp_path, [item]))
        assert error.place == "cases[0].raw_base64"

    def test_cases_not_a_list(self, tmp_path):
        error = load_error(load_suite, write_suite(tmp_path, {"a": case()}))
        assert error.place == "cases"

    def test_request_without_fields(self, tmp_path):
        error = load_error(load_suite, write_suite(tmp_path, [case(request={**REQUEST_DICT, "fields": []})]))
        assert error.place == "cases[0].request.fields"

    def test_request_field_twice(self, tmp_path):
        request = {**REQUEST_DICT, "fields": ["read_timeout_ms", "read_timeout_ms"]}
        error = load_error(load_suite, write_suite(tmp_path, [case(request=request)]))
        assert error.place == "cases[0].request.fields[1]"

    def test_supplied_id_not_in_registry_is_a_verdict_not_a_load_error(self, tmp_path):
        # Retrieval may hand the model an id the registry does not know; citing it
        # is the answer's UNKNOWN_DOC, so the request itself still loads.
        request = {**REQUEST_DICT, "supplied": ["prod-v2", "prod-v9"]}
        raw = '{"claims":[{"field":"read_timeout_ms","value":"5000","doc":"prod-v9","quote":"x"}]}'
        suite = load_suite(write_suite(tmp_path, [case(request=request, raw=raw)]))
        verdict = verify(suite.cases[0].raw, suite.cases[0].request, suite.registry)
        assert verdict.label == "NO_CITATION/UNKNOWN_DOC"

    def test_hostile_text_in_errors_is_visible(self, tmp_path):
        error = load_error(load_suite, write_suite(tmp_path, [case(id="\x1b]52;c;aGk=\x07", expected="NOPE")]))
        assert "\x1b" not in str(error) and "\x07" not in str(error)


class TestRegistryAndRequestFiles:
    def test_registry_missing(self, tmp_path):
        error = load_error(load_registry, tmp_path / "registry.json")
        assert "registry.json" in str(error)

    def test_registry_not_json(self, tmp_path):
        error = load_error(load_registry, write(tmp_path, '{"sources": [}'))
        assert error.place == "1:14"

    def test_registry_not_an_object(self, tmp_path):
        error = load_error(load_registry, write(tmp_path, json.dumps(SOURCES)))
        assert "sources" in str(error)

    def test_registry_unknown_key(self, tmp_path):
        error = load_error(load_registry, write(tmp_path, json.dumps({"sources": SOURCES, "owner": "me"})))
        assert "owner" in str(error)

    def test_registry_duplicate_source(self, tmp_path):
        error = load_error(load_registry, write(tmp_path, json.dumps({"sources": [SOURCES[0], SOURCES[0]]})))
        assert error.place == "sources[1].id"

    def test_request_missing_member(self, tmp_path):
        request = {k: v for k, v in REQUEST_DICT.items() if k != "revision"}
        error = load_error(load_request, write(tmp_path, json.dumps(request)))
        assert "revision" in str(error)

    def test_request_unknown_member(self, tmp_path):
        error = load_error(load_request, write(tmp_path, json.dumps({**REQUEST_DICT, "answer": "x"})))
        assert "answer" in str(error)

    def test_request_wrong_type(self, tmp_path):
        error = load_error(load_request, write(tmp_path, json.dumps({**REQUEST_DICT, "fields": "read_timeout_ms"})))
        assert error.place == "fields"

    def test_request_duplicate_key(self, tmp_path):
        text = json.dumps(REQUEST_DICT).replace('"revision": "v2"', '"revision": "v1", "revision": "v2"')
        error = load_error(load_request, write(tmp_path, text))
        assert "revision" in str(error) and error.place is not None


class TestNonStrict:
    def test_broken_cases_listed_and_the_rest_load(self, tmp_path):
        item = case(id="no-raw")
        del item["raw"]
        cases = [case(id="a"), case(id="bad-label", expected="NOPE"), item, case(id="a"), "not a case",
                 case(id="b", expected="INCOMPLETE")]
        suite = load_suite(write_suite(tmp_path, cases), strict=False)
        assert [c.id for c in suite.cases] == ["a", "b"]
        assert [(b.index, b.id, b.place) for b in suite.broken] == [
            (1, "bad-label", "cases[1].expected"),
            (2, "no-raw", "cases[2]"),
            (3, "a", "cases[3].id"),
            (4, None, "cases[4]"),
        ]
        assert all(str(b) and b.suite == "suite" for b in suite.broken)

    def test_strict_raises_on_the_first_broken_case(self, tmp_path):
        cases = [case(id="a"), case(id="bad-label", expected="NOPE"), case(id="a")]
        error = load_error(load_suite, write_suite(tmp_path, cases))
        assert error.place == "cases[1].expected"

    def test_file_level_problems_still_raise(self, tmp_path):
        load_error(load_suite, write(tmp_path, "{"), strict=False)
        load_error(load_suite, write_suite(tmp_path, sources=[SOURCES[0], SOURCES[0]]), strict=False)

    def test_audit_of_a_partly_broken_suite(self, tmp_path):
        suite = load_suite(write_suite(tmp_path, [case(), case(id="x", expected="NOPE")]), strict=False)
        assert audit([suite]).summary.to_dict()["cases"] == 1


class TestAudit:
    def test_mismatch_listed(self, tmp_path):
        suite = load_suite(write_suite(tmp_path, [case(), case(id="wrong", expected="VALUE_MISMATCH")]))
        result = audit([suite])
        assert [r.case.id for r in result.mismatches] == ["wrong"]
        summary = result.summary.to_dict()
        assert summary["label_mismatches"] == 1
        assert summary["mismatched_cases"] == ["suite/wrong"]

    def test_bare_status_ignores_the_sub_reason(self, tmp_path):
        suite = load_suite(write_suite(tmp_path, [case(raw="nope", expected="INVALID_JSON"),
                                                  case(id="b", raw="nope", expected="INVALID_JSON/TRAILING_DATA")]))
        assert [r.match for r in audit([suite]).results] == [True, False]

    def test_case_result_document(self, tmp_path):
        suite = load_suite(write_suite(tmp_path, [case(), case(id="v", raw="[]", expected="INVALID_JSON/WRONG_SHAPE")]))
        accepted, refused = (r.to_dict() for r in audit([suite]).results)
        assert accepted["first_failure"] is None
        assert accepted["accepted"] == {"read_timeout_ms": "5000", "retry_enabled": "false"}
        assert refused["first_failure"]["check"] == "shape"
        assert refused["first_failure"]["reason"] == "WRONG_SHAPE"
        assert refused["first_failure"]["claim"] is None
        assert refused["first_failure"]["detail"]
        assert refused["accepted"] == {}
