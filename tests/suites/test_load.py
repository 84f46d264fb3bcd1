"""Loading suites, registries and requests (inspector.suites.load) with located
errors, and auditing them (inspector.reports.audit) the way the article reports."""

from __future__ import annotations

import base64
import json
import re
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from inspector import LoadError, Registry, Request, load_registry, load_request, load_suite, verify
from inspector.contract.jsonscan import path_text, scan
from inspector.contract.text import line_col
from inspector.reports.audit import audit
from inspector.suites.load import MAX_FILE_DEPTH, load_answer, parse_label

from support import (
    ANSWERS,
    ARTICLE,
    FIXTURES,
    GOOD,
    PAYMENTS_REGISTRY,
    PAYMENTS_REQUEST,
    REQUEST_DICT,
    SOURCES,
    SUITE_FILES,
    run_main,
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


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def one_line_exit_2(result: tuple[int, str, str]) -> str:
    """The one stderr line of a run (``run_main``'s status, output, error) that refused its input."""
    status, _, err = result
    assert status == 2, err
    assert "Traceback" not in err
    (line,) = err.strip().splitlines()
    return line


class TestDepth:
    """Every file is refused past MAX_FILE_DEPTH levels, found by a linear scan
    of the text before anything recursive (decode, duplicate keys, convert) runs."""

    @pytest.mark.parametrize("depth", [990, 100_000])
    def test_suite(self, tmp_path, depth):
        path = write(tmp_path, '{"sources": [],\n "description": ' + nested(depth) + "}")
        error = load_error(load_suite, path)
        assert error.place == f"2:{17 + MAX_FILE_DEPTH - 1}"  # the first bracket past the limit
        assert f"deeper than {MAX_FILE_DEPTH} levels" in error.problem

    @pytest.mark.parametrize("depth", [990, 100_000])
    def test_registry_and_request(self, tmp_path, depth):
        assert "deeper than" in load_error(load_registry, write(tmp_path, '{"sources": ' + nested(depth) + "}")).problem
        request = json.dumps({**REQUEST_DICT, "fields": "X"}).replace('"X"', nested(depth))
        error = load_error(load_request, write(tmp_path, request, "request.json"))
        assert "deeper than" in error.problem and error.place is not None

    def test_at_the_limit_the_file_is_read(self, tmp_path):
        # The top-level object is level 1: 63 more levels are still read (and then refused for their type).
        error = load_error(load_suite, write(tmp_path, '{"sources": [], "description": ' + nested(63) + "}"))
        assert error.place == "description" and "deeper" not in error.problem

    def test_brackets_inside_strings_do_not_count(self, tmp_path):
        suite = load_suite(write_suite(tmp_path, description="[{" * 5000))
        assert suite.description == "[{" * 5000

    @pytest.mark.parametrize("depth", [990, 100_000])
    def test_audit_command(self, tmp_path, depth, capsys):
        path = write(tmp_path, '{"sources": [], "description": ' + nested(depth) + "}")
        line = one_line_exit_2(run_main(capsys, "audit", path))
        assert str(path) in line and f"deeper than {MAX_FILE_DEPTH} levels" in line

    @pytest.mark.parametrize("which", ["--request", "--registry"])
    def test_check_command(self, tmp_path, which, capsys):
        deep = write(tmp_path, '{"sources": ' + nested(990) + "}", "deep.json")
        files = {"--request": PAYMENTS_REQUEST, "--registry": PAYMENTS_REGISTRY, which: deep}
        line = one_line_exit_2(run_main(capsys, "check", "--request", files["--request"], "--registry",
                                        files["--registry"], ANSWERS / "accept.json"))
        assert str(deep) in line and "deeper than" in line


class TestNumbers:
    def test_number_out_of_range_is_placed_and_named(self, tmp_path):
        request = {**REQUEST_DICT, "scope": {"tenant": "t", "user": "u", "now": "N"}}
        path = write_suite(tmp_path, [case(), case(id="b", request=request)])
        text = path.read_text("utf-8").replace('"N"', "1e400")
        path.write_text(text, "utf-8")
        error = load_error(load_suite, path)
        offset = text.index("1e400")
        line = text.count("\n", 0, offset) + 1
        column = offset - text.rfind("\n", 0, offset)
        assert error.place == f"{line}:{column}"
        assert "number 1e400 is out of range" in error.problem
        assert "cases[1].request.scope.now" in error.problem
        assert "$" not in str(error) and "[...]" not in str(error)

    def test_in_a_late_case_of_a_large_suite(self, tmp_path):
        request = {**REQUEST_DICT, "scope": {"tenant": "t", "user": "u", "now": 1}}
        cases = [case(id=f"c{i}", note="é" * 200, request=request) for i in range(300)]
        path = write_suite(tmp_path, cases)
        text = path.read_text("utf-8")
        offset = text.index('"now": 1', text.index('"id": "c250"')) + len('"now": ')
        path.write_text(text[:offset] + "-1e400" + text[offset + 1:], "utf-8")
        assert path.stat().st_size > 100_000
        error = load_error(load_suite, path)
        assert error.place == f"{text.count(chr(10), 0, offset) + 1}:{offset - text.rfind(chr(10), 0, offset)}"
        assert "number -1e400 is out of range in cases[250].request.scope.now" in error.problem

    def test_huge_integer_in_a_request(self, tmp_path):
        error = load_error(load_request, write(tmp_path, '{"fields": [1' + "0" * 5000 + "]}"))
        assert error.place == "1:13" and "out of range" in error.problem and "fields[0]" in error.problem
        assert len(str(error)) < 300

    def test_followed_by_broken_json(self, tmp_path):
        error = load_error(load_suite, write(tmp_path, '{"sources": [], "cases": [{"x": [1, 2, {"y": 1e400}]}, ]}'))
        assert error.place == "1:46" and "1e400 is out of range in cases[0].x[2].y" in error.problem

    def test_a_tiny_number_is_in_range(self, tmp_path):
        error = load_error(load_request, write(tmp_path, '{"fields": [1e-400]}'))
        assert "out of range" not in str(error)


class TestExpectations:
    @pytest.mark.parametrize("label", ["ACCEPT/", "INVALID_JSON/", "ACCEPT/SYNTAX", "STALE_REVISION/QUOTE_NOT_FOUND",
                                       "NO_CITATION/SYNTAX", "INVALID_JSON/NOPE"])
    def test_label_refused(self, label):
        with pytest.raises(ValueError, match="sub-reason"):
            parse_label(label)

    def test_empty_sub_reason_refused_when_the_suite_loads(self, tmp_path):
        error = load_error(load_suite, write_suite(tmp_path, [case(), case(id="b", expected="ACCEPT/")]))
        assert error.place == "cases[1].expected"
        assert "empty sub-reason" in error.problem

    def test_unknown_expected_label(self, tmp_path):
        cases = [case(), case(id="b", expected_labels=["SUPPORTED", "BOGUS"])]
        error = load_error(load_suite, write_suite(tmp_path, cases))
        assert error.place == "cases[1].expected_labels[1]"
        assert "'BOGUS'" in error.problem and "SUPPORTED" in error.problem

    def test_unknown_expected_policy(self, tmp_path):
        error = load_error(load_suite, write_suite(tmp_path, [case(expected_policy="MAYBE")]))
        assert error.place == "cases[0].expected_policy"
        assert "'MAYBE'" in error.problem and "ABSTAIN" in error.problem

    def test_known_expectations_load(self, tmp_path):
        suite = load_suite(write_suite(tmp_path, [case(expected_labels=["SUPPORTED", "INSUFFICIENT_EVIDENCE"],
                                                       expected_policy="ABSTAIN")]))
        assert suite.cases[0].expected_labels == ("SUPPORTED", "INSUFFICIENT_EVIDENCE")

    def test_audit_command_refuses_them(self, tmp_path, capsys):
        path = write_suite(tmp_path, [case(), case(id="b", expected_policy="MAYBE")])
        line = one_line_exit_2(run_main(capsys, "audit", path))
        assert line.endswith(f"{path}: cases[1].expected_policy: unknown policy 'MAYBE' (known: ANSWER, ABSTAIN)")


class TestDuplicateKeyPlaces:
    """The duplicate key is placed exactly wherever it is, in a large file too."""

    def located(self, path: Path, key: str, anchor: str) -> tuple[str, str]:
        """Line:column of the two occurrences of ``key`` that follow ``anchor``."""
        text = path.read_text("utf-8")
        first = text.index(f'"{key}"', text.index(anchor))
        second = text.index(f'"{key}"', first + 1)

        def at(offset: int) -> str:
            return f"{text.count(chr(10), 0, offset) + 1}:{offset - text.rfind(chr(10), 0, offset)}"

        return at(first), at(second)

    def test_in_a_late_case_of_many(self, tmp_path):
        cases = [case(id=f"c{i}", note="é ✓ 😀 \"quoted\" [x]") for i in range(300)]
        path = write_suite(tmp_path, cases)
        text = path.read_text("utf-8")
        last = text.rindex('"note": ')
        path.write_text(text[:last] + '"note": "again", ' + text[last:], "utf-8")
        first, second = self.located(path, "note", '"id": "c299"')
        error = load_error(load_suite, path)
        assert error.place == second
        assert f"duplicate key 'note' in cases[299] (first at {first})" in error.problem

    def test_in_a_nested_member(self, tmp_path):
        path = write_suite(tmp_path, [case(id=f"c{i}") for i in range(5)])
        text = path.read_text("utf-8").replace('"id": "c1"', '"id": "c1", "note": "ü"')
        path.write_text(text.replace('"supplied": [', '"supplied": [], "supplied": [', 4), "utf-8")
        error = load_error(load_suite, path)
        assert "duplicate key 'supplied' in cases[0].request" in error.problem

    def test_in_a_source_after_non_ascii(self, tmp_path):
        sources = [{**SOURCES[4], "id": f"s{i}"} for i in range(20)]
        path = write_suite(tmp_path, sources=sources)
        text = path.read_text("utf-8")
        at = text.index('"id": "s17"')
        path.write_text(text[:at] + '"text": "x", ' + text[at:], "utf-8")
        first, second = self.located(path, "text", '"text": "x"')
        error = load_error(load_suite, path)
        assert (error.place, f"in sources[17] (first at {first})" in error.problem) == (second, True)

    def test_at_the_top_level_of_a_large_file(self, tmp_path):
        path = write_suite(tmp_path, [case(id=f"c{i}") for i in range(200)])
        text = path.read_text("utf-8")
        path.write_text(text[:-2] + ',\n  "cases": []\n}', "utf-8")
        first, second = self.located(path, "cases", '"cases"')
        error = load_error(load_suite, path)
        assert error.place == second
        assert f"duplicate key 'cases' in the top-level object (first at {first})" in error.problem

    def test_repeated_with_the_same_value(self, tmp_path):
        path = write(tmp_path, '{"sources": [], "cases": [{"a": [1, {"b": 1, "c": {}, "b": 1}]}]}')
        error = load_error(load_suite, path)
        assert error.place == "1:55" and "'b' in cases[0].a[1] (first at 1:38)" in error.problem

    def test_written_with_an_escape_deep_inside(self, tmp_path):
        path = write(tmp_path, '{"sources": [], "cases": [{}, {"x": {"k\\u00e9": 1, "k\u00e9": 2}}]}')
        error = load_error(load_suite, path)
        assert "'k\u00e9' in cases[1].x" in error.problem and error.place == "1:52"


# -- no file, in any bytes, raises anything but a LoadError ------------------------

BUNDLED_FILES = [*SUITE_FILES, PAYMENTS_REGISTRY, PAYMENTS_REQUEST]
BUNDLED_BYTES = [path.read_bytes() for path in BUNDLED_FILES]
HOSTILE_SNIPPETS = [b"1e400", b"-1e400", b"1" + b"0" * 5000, b"1e-400", b"[" * 70 + b"]" * 70, b"[" * 3000,
                    b'"\\ud800"', b"null", b"{}", b"[]", b"true", b'"x"', b"0", b"-", b'"', b"\\", b"\xff", b"\x00",
                    b'"id": "x", ', b'"raw": "x", ', b'"sources": [], ', b'"cases": [], ', b'"text": "", ',
                    b'"expected": "ACCEPT/", ', b'"expected_labels": ["MAYBE"], ', b'"scope": {"now": 1e999}, ']


# Where a member can be spliced in (just after the "{" of a non-empty object), per file.
MEMBER_SLOTS = [[m.end() for m in re.finditer(rb'\{(?=\s*")', data)] for data in BUNDLED_BYTES]


@st.composite
def hostile_file(draw: st.DrawFn) -> bytes:
    """Random bytes, or a bundled file truncated, with bytes flipped, with brackets
    or a hostile snippet at any place, or with a deeply nested member (valid JSON)."""
    if draw(st.booleans()) and draw(st.booleans()):
        return draw(st.binary(max_size=300))
    which = draw(st.integers(0, len(BUNDLED_BYTES) - 1))
    data = bytearray(BUNDLED_BYTES[which])
    slots = MEMBER_SLOTS[which]
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(("truncate", "flip", "brackets", "deep member", "splice", "splice")))
        at = draw(st.integers(0, len(data)))
        depth = draw(st.sampled_from((63, 64, 65, 990, 20_000)))
        if how == "truncate":
            del data[at:]
        elif how == "flip" and data:
            data[min(at, len(data) - 1)] = draw(st.integers(0, 255))
        elif how == "brackets":
            data[at:at] = b"[" * depth + (b"]" * depth if draw(st.booleans()) else b"")
        elif how == "deep member" and slots:
            # Before any other mutation, so the slot is still just after a "{".
            at = draw(st.sampled_from(slots))
            opening, closing = draw(st.sampled_from(((b"[", b"]"), (b'{"a":', b"}"))))
            data[at:at] = b'"deep": ' + opening * depth + b"0" + closing * depth + b", "
            slots = []
        else:
            data[at:at] = draw(st.sampled_from(HOSTILE_SNIPPETS))
    return bytes(data)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("hostile")


class TestHostileFiles:
    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(data=hostile_file())
    def test_only_load_errors(self, scratch, data):
        path = scratch / "file.json"
        path.write_bytes(data)
        for load in (load_suite, partial(load_suite, strict=False), load_registry, load_request):
            try:
                load(path)
            except LoadError as error:
                assert "\n" not in str(error) and str(path) in str(error)

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(choice=st.integers(0, 10**9), value=st.sampled_from(['0', '"é"', "[]", '{"a": 1}']))
    def test_a_duplicate_in_a_large_suite_is_where_the_whole_scan_finds_it(self, scratch, choice, value):
        # decode.json is larger than what is scanned at once: the narrowed place
        # must be the one the position-aware scan of the whole file gives.
        text = (FIXTURES / "decode.json").read_text("utf-8")
        objects = list(re.finditer(r'\{\s*("(?:[^"\\]|\\.)*")\s*:', text))
        first_key = objects[choice % len(objects)]
        where = first_key.start(1)
        text = text[:where] + f"{first_key.group(1)}: {value}, " + text[where:]
        duplicate = scan(text).duplicate
        assert duplicate is not None
        error = load_error(load_suite, write(scratch, text))
        line, column = line_col(text, duplicate.second[0])
        assert error.place == f"{line}:{column}"
        assert f"duplicate key {duplicate.key!r} in {path_text(duplicate.object_path, 'the top-level object')}" \
            in error.problem
