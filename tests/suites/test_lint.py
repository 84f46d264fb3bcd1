"""``inspector registry lint`` (inspector.suites.lint and the CLI command): conflicts,
duplicate ids, facts missing from a source's text, unreachable sources, and exit
codes 0 (nothing found), 1 (findings), 2 (unusable file)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from inspector import Source
from inspector.cli import main
from inspector.suites.lint import Finding, lint_registry, lint_sources

from support.access import LIVE, source
from support import FIXTURES, PAYMENTS_REGISTRY, RETRY, TIMEOUT, decoded, run_cli

DEMO = FIXTURES / "registries" / "lint-demo.json"


def sources(*values: dict) -> list[Source]:
    return msgspec.convert(list(values), list[Source])


def write_registry(path: Path, *values: dict) -> Path:
    path.write_text(json.dumps({"sources": list(values)}), "utf-8")
    return path


class TestLintDemo:
    def test_findings(self):
        findings = lint_registry(DEMO)
        assert [(f.kind, f.sources) for f in findings] == [
            ("duplicate_id", ("ops-prod-v2",)),
            ("conflict", ("ops-prod-v2", "wiki-prod-v2")),
            ("fact_not_in_text", ("drift-prod-v1",)),
            ("unreachable", ("retired-prod-v0",)),
            ("unreachable", ("empty-prod-v3",)),
        ]

    def test_details(self):
        details = {(f.kind, f.sources[0]): f.detail for f in lint_registry(DEMO)}
        assert details["duplicate_id", "ops-prod-v2"] == "sources[2] repeats the id of sources[0]"
        assert details["conflict", "ops-prod-v2"] == \
            "payments/prod/v2 retry_enabled: ops-prod-v2 says false, wiki-prod-v2 says true"
        assert "read_timeout_ms=3000" in details["fact_not_in_text", "drift-prod-v1"]
        assert details["unreachable", "retired-prod-v0"] == \
            "no scoped request can ever use it (it is deleted); only requests without a scope still can"
        assert details["unreachable", "empty-prod-v3"] == "it has no facts: no claim can be verified from it"

    def test_to_dict(self):
        finding = lint_registry(DEMO)[0]
        assert finding.to_dict() == {"kind": "duplicate_id", "sources": ["ops-prod-v2"],
                                     "detail": "sources[2] repeats the id of sources[0]"}


class TestCleanRegistries:
    def test_a_clean_registry(self, tmp_path):
        path = write_registry(tmp_path / "clean.json", source("a", **LIVE),
                              source("b", revision="v1", facts={TIMEOUT: "1"}), source("c", facts={"x": "1"}))
        assert lint_registry(path) == []

    @pytest.mark.parametrize("path", [PAYMENTS_REGISTRY, FIXTURES / "article.json"], ids=["payments", "article"])
    def test_fixture_registries(self, path):
        assert lint_registry(path) == []

    def test_empty_registry(self):
        assert lint_sources([]) == []


class TestFindings:
    def test_every_duplicate_is_reported(self):
        findings = lint_sources(sources(source("a"), source("a"), source("b"), source("a")))
        assert [(f.kind, f.detail) for f in findings] == [
            ("duplicate_id", "sources[1] repeats the id of sources[0]"),
            ("duplicate_id", "sources[3] repeats the id of sources[0]"),
        ]

    def test_a_dropped_duplicate_adds_no_conflict(self):
        # the second "a" disagrees with the first, but only the first is kept
        findings = lint_sources(sources(source("a", facts={TIMEOUT: "1"}), source("a", facts={TIMEOUT: "2"})))
        assert [f.kind for f in findings] == ["duplicate_id"]

    def test_conflict_per_field(self):
        findings = lint_sources(sources(source("a", facts={TIMEOUT: "1", RETRY: "x"}),
                                        source("b", facts={TIMEOUT: "2", RETRY: "y"})))
        assert [(f.kind, f.sources) for f in findings] == [("conflict", ("a", "b")), ("conflict", ("a", "b"))]
        assert [f.detail.split(":")[0] for f in findings] == \
            [f"payments/prod/v2 {TIMEOUT}", f"payments/prod/v2 {RETRY}"]

    def test_conflict_regardless_of_access(self):
        findings = lint_sources(sources(source("a", facts={TIMEOUT: "1"}, **LIVE),
                                        source("b", facts={TIMEOUT: "2"}, **{**LIVE, "tenant": "tenant-b"})))
        assert [f.kind for f in findings] == ["conflict"]

    def test_fact_not_in_text(self):
        findings = lint_sources(sources(source("a", facts={TIMEOUT: "1", RETRY: "x"}, text="read_timeout_ms=1\n")))
        assert [(f.kind, f.sources) for f in findings] == [("fact_not_in_text", ("a",))]
        assert findings[0].detail.startswith("no line of its text is retry_enabled=x")

    def test_fact_only_inside_a_longer_line_is_not_in_text(self):
        # README and `registry lint --help`: "facts whose field=value line is missing
        # from the text".  The text's line says 50000; the fact says 5000.
        drifted = source("a", facts={TIMEOUT: "5000"}, text="# a\nread_timeout_ms=50000\n")
        findings = lint_sources(sources(drifted))
        assert [(f.kind, f.sources) for f in findings] == [("fact_not_in_text", ("a",))]

    def test_each_fact_missing_is_one_finding(self):
        findings = lint_sources(sources(source("a", facts={TIMEOUT: "1", RETRY: "x"}, text="# nothing\n")))
        assert [f.kind for f in findings] == ["fact_not_in_text", "fact_not_in_text"]

    @pytest.mark.parametrize(("changes", "reason"), [
        ({"facts": {}}, "it has no facts"),
        ({**LIVE, "approved": False}, "it is not approved"),
        ({**LIVE, "deleted": True}, "it is deleted"),
        ({**LIVE, "readers": []}, "it has no readers"),
    ])
    def test_unreachable(self, changes, reason):
        (finding,) = lint_sources(sources(source("a", **changes)))
        assert (finding.kind, finding.sources) == ("unreachable", ("a",))
        if reason == "it has no facts":
            assert finding.detail == "it has no facts: no claim can be verified from it"
        else:
            assert finding.detail == f"no scoped request can ever use it ({reason}); only requests without a scope still can"

    def test_unreachable_lists_every_reason_once(self):
        findings = lint_sources(sources(source("a", facts={}, **{**LIVE, "approved": False, "deleted": True,
                                                                    "readers": []})))
        assert [f.detail for f in findings] == [
            "it has no facts: no claim can be verified from it",
            "no scoped request can ever use it (it is not approved, it is deleted, it has no readers); "
            "only requests without a scope still can",
        ]

    @pytest.mark.parametrize("changes", [{}, {"approved": None, "deleted": None, "readers": None},
                                         {**LIVE, "expires_at": 1}])
    def test_missing_metadata_or_an_old_expiry_is_not_unreachable(self, changes):
        # without a scope nothing is filtered, and "now" is the request's
        assert lint_sources(sources(source("a", **changes))) == []

    def test_finding_is_a_value(self):
        assert Finding("conflict", ("a",), "d").to_dict() == {"kind": "conflict", "sources": ["a"], "detail": "d"}


class TestLintCommand:
    def test_findings_exit_1(self, capsys):
        assert main(["registry", "lint", str(DEMO)]) == 1
        out = capsys.readouterr().out
        lines = out.splitlines()
        assert lines[-1] == f"{DEMO}: 5 finding(s)"
        assert [line.split()[0] for line in lines[:-1]] == \
            ["duplicate_id", "conflict", "fact_not_in_text", "unreachable", "unreachable"]
        assert "retired-prod-v0: no scoped request can ever use it (it is deleted)" in out

    def test_clean_exit_0(self, capsys, tmp_path):
        path = write_registry(tmp_path / "clean.json", source("a"))
        assert main(["registry", "lint", str(path)]) == 0
        assert capsys.readouterr().out.strip() == f"{path}: no findings"

    def test_json(self, capsys):
        assert main(["registry", "lint", "--format", "json", str(DEMO)]) == 1
        document = json.loads(capsys.readouterr().out)
        assert document["registry"] == str(DEMO)
        assert document["findings"] == [f.to_dict() for f in lint_registry(DEMO)]
        assert [f["kind"] for f in document["findings"]] == \
            ["duplicate_id", "conflict", "fact_not_in_text", "unreachable", "unreachable"]

    def test_json_clean(self, capsys, tmp_path):
        path = write_registry(tmp_path / "clean.json", source("a"))
        assert main(["registry", "lint", "--format", "json", str(path)]) == 0
        assert json.loads(capsys.readouterr().out) == {"registry": str(path), "findings": []}

    def test_a_suite_file_is_a_registry(self, capsys):
        assert main(["registry", "lint", str(FIXTURES / "conflicts.json")]) == 1
        assert "conflict" in capsys.readouterr().out

    @pytest.mark.parametrize(("content", "words"), [
        (None, "no such file"),
        ("{", "invalid JSON"),
        ("[]", "expected a JSON object"),
        ('{"sources": [{"id": "a"}]}', "sources[0]"),
        ('{"sources": [], "sources": []}', "duplicate key"),
        ('{"sources": [], "extra": 1}', "extra"),
    ], ids=["missing", "syntax", "not-an-object", "incomplete-source", "duplicate-key", "unknown-member"])
    def test_unusable_file_exit_2(self, capsys, tmp_path, content, words):
        path = tmp_path / "g.json"
        if content is not None:
            path.write_text(content, "utf-8")
        assert main(["registry", "lint", str(path)]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        (line,) = err.strip().splitlines()
        assert line.startswith("inspector: error: ")
        assert str(path) in line and words in line

    def test_shell_exit_codes(self, tmp_path):
        clean = write_registry(tmp_path / "clean.json", source("a"))
        assert run_cli("registry", "lint", clean).returncode == 0
        assert run_cli("registry", "lint", DEMO).returncode == 1
        proc = run_cli("registry", "lint", tmp_path / "missing.json")
        assert proc.returncode == 2
        assert "Traceback" not in decoded(proc)[1]
