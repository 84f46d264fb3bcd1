"""The audit beside the verdicts (inspector.reports.audit, the presentation layer's
case and suite reports it gathers, and ``inspector audit``): abstention
categories, blame, mean recall, conflicted cases, lens/contract agreement, and
the frozen per-claim labels and policy of a case."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from inspector import Registry, assess, load_suite, verify
from inspector.cli import main
from inspector.reports.case import CaseReport
from inspector.reports.labels import LabelMatch, label_matches
from inspector.reports.suite import SuiteReport
from inspector.reports.audit import audit
from inspector.suites.load import Case, Suite

from support.access import failing_conditions, request_of
from support import FIXTURES, GOOD, REQUEST, SOURCES

SUITES = [FIXTURES / "access.json", FIXTURES / "conflicts.json"]


def frozen_cases() -> list[dict]:
    """The cases as written in the fixture files."""
    return [case for path in SUITES for case in json.loads(path.read_text("utf-8"))["cases"]]


def reference_recall(case: dict, sources: list[dict]) -> float | None:
    """Seed 003's retrievalRecall over the request's service/environment/revision:
    the sources (authorized, with a scope) that have a requested fact are relevant."""
    request = case["request"]
    scope = request_of(scope=request["scope"]).scope if "scope" in request else None
    group = [s for s in Registry.coerce({"sources": sources})
             if (s.service, s.environment, s.revision) == (request["service"], request["environment"],
                                                            request["revision"])
             and (scope is None or not failing_conditions(s, scope))]
    relevant = {s.id for s in group for field in request["fields"] if field in s.facts}
    if not relevant:
        return None
    return len(relevant & set(request["supplied"])) / len(relevant)


class TestSummary:
    @pytest.fixture(scope="class")
    def suites(self):
        return [load_suite(path) for path in SUITES]

    @pytest.fixture(scope="class")
    def verdicts(self, suites):
        return [verify(case.raw, case.request, suite.registry) for suite in suites for case in suite.cases]

    @pytest.fixture(scope="class")
    def summary(self, suites):
        return audit(suites).summary.to_dict()

    def test_cases(self, summary):
        assert summary["cases"] == len(frozen_cases())

    def test_categories(self, summary, verdicts):
        expected = Counter(assess(v).category.id for v in verdicts if not v.ok)
        assert summary["categories"] == dict(expected)
        assert list(summary["categories"]) == sorted(summary["categories"])
        assert sum(summary["categories"].values()) == sum(not v.ok for v in verdicts)

    def test_unauthorized_evidence_count_is_the_frozen_not_authorized_count(self, summary):
        frozen = sum(case["expected"] == "NO_CITATION/NOT_AUTHORIZED" for case in frozen_cases())
        assert frozen > 0
        assert summary["categories"]["unauthorized_evidence"] == frozen

    def test_blame(self, summary, verdicts):
        rejected = [v for v in verdicts if not v.ok]
        assert summary["blame"] == {
            "retrieval": sum(assess(v).blame == "retrieval" for v in rejected),
            "generation": sum(assess(v).blame == "generation" for v in rejected),
        }
        assert summary["blame"]["retrieval"] + summary["blame"]["generation"] == len(rejected)

    def test_mean_recall(self, summary, verdicts):
        values = [value for v in verdicts if (value := assess(v).recall.value) is not None]
        assert summary["mean_recall"] == pytest.approx(sum(values) / len(values), abs=1e-6)

    def test_mean_recall_from_the_files(self, summary):
        values = []
        for path in SUITES:
            document = json.loads(path.read_text("utf-8"))
            recalls = [reference_recall(case, document["sources"]) for case in document["cases"]]
            values += [r for r in recalls if r is not None]
        assert summary["mean_recall"] == pytest.approx(sum(values) / len(values), abs=1e-6)

    def test_conflicted_cases(self, summary, verdicts):
        assert summary["conflicted_cases"] == sum(bool(assess(v).conflicts) for v in verdicts)
        assert summary["conflicted_cases"] > 0

    def test_lens_answer_contract_reject(self, summary, verdicts):
        lens_answers = sum(assess(v).policy == "ANSWER" and not v.ok for v in verdicts)
        assert summary["lens_answer_contract_reject"] == lens_answers
        frozen = sum(c["expected_policy"] == "ANSWER" and c["expected"] != "ACCEPT" for c in frozen_cases())
        assert summary["lens_answer_contract_reject"] == frozen

    def test_agreement(self, summary, verdicts):
        cases = frozen_cases()
        agreeing = sum((assess(v).policy == "ANSWER") == v.ok for v in verdicts)
        assert summary["agreement"]["lens_vs_contract"] == pytest.approx(agreeing / len(verdicts), abs=1e-6)
        # the same number from the frozen labels alone
        frozen = sum((c["expected_policy"] == "ANSWER") == (c["expected"] == "ACCEPT") for c in cases)
        assert summary["agreement"]["lens_vs_contract"] == pytest.approx(frozen / len(cases), abs=1e-6)
        assert summary["agreement"]["verdict_vs_frozen_label"] == 1.0
        assert summary["label_mismatches"] == 0

    def test_empty_audit(self):
        summary = audit([]).summary.to_dict()
        assert summary["cases"] == 0
        assert summary["mean_recall"] is None
        assert summary["agreement"] == {"verdict_vs_frozen_label": None, "lens_vs_contract": None, "human": None}
        assert summary["categories"] == {} and summary["conflicted_cases"] == 0


def result(expected: str | None = "ACCEPT", labels: tuple[str, ...] | None = None,
           policy: str | None = None, number: int = 0) -> CaseReport:
    registry = Registry.coerce({"sources": SOURCES})
    case = Case("mine", 0, "c", GOOD, REQUEST, expected, expected_labels=labels, expected_policy=policy)
    suite = Suite(Path("mine.json"), "mine", registry, (case,))
    return CaseReport.of(number, suite, case)


def verdict_match(item: CaseReport) -> bool | None:
    """Whether the verdict has its frozen label, as both spellings of the one rule say it."""
    matches = label_matches(item.expected, item.verdict)
    assert item.label_match is {True: LabelMatch.MATCHES, False: LabelMatch.DIFFERS,
                                None: LabelMatch.UNLABELLED}[matches]
    return matches


class TestCaseReport:
    def test_everything_frozen_matches(self):
        item = result(labels=("SUPPORTED", "SUPPORTED"), policy="ANSWER")
        assert (verdict_match(item), item.lens_match, item.match) == (True, True, True)

    def test_labels_differ(self):
        item = result(labels=("SUPPORTED", "CONTRADICTED"), policy="ANSWER")
        assert (verdict_match(item), item.lens_match, item.match) == (True, False, False)

    def test_policy_differs(self):
        item = result(policy="ABSTAIN")
        assert (verdict_match(item), item.lens_match, item.match) == (True, False, False)

    def test_label_count_differs(self):
        assert result(labels=("SUPPORTED",)).match is False

    def test_only_labels_frozen(self):
        assert result(labels=("SUPPORTED", "SUPPORTED")).lens_match is True

    def test_nothing_of_the_lens_frozen(self):
        item = result()
        assert item.lens_match is None
        assert item.match is True

    def test_nothing_frozen(self):
        assert result(expected=None).match is None

    def test_verdict_differs_lens_matches(self):
        item = result(expected="INCOMPLETE", labels=("SUPPORTED", "SUPPORTED"), policy="ANSWER")
        assert (verdict_match(item), item.lens_match, item.match) == (False, True, False)

    def test_a_bare_status_matches_any_sub_reason(self):
        item = result(expected="NO_CITATION")
        assert item.verdict.label == "ACCEPT" and verdict_match(item) is False
        registry = Registry.coerce({"sources": SOURCES})
        raw = '{"claims": []}'
        for expected, matches in (("NO_CITATION", True), ("NO_CITATION/NO_CLAIMS", True),
                                  ("NO_CITATION/UNKNOWN_DOC", False), ("INCOMPLETE", False)):
            case = Case("mine", 0, "c", raw, REQUEST, expected)
            item = CaseReport.of(0, Suite(Path("mine.json"), "mine", registry, (case,)), case)
            assert item.verdict.label == "NO_CITATION/NO_CLAIMS"
            assert verdict_match(item) is matches and item.match is matches, expected

    def test_lens_mismatch_counts_in_the_summary(self):
        suite = load_suite(FIXTURES / "conflicts.json")
        report = audit([suite])
        summary = SuiteReport([*report.results, result(policy="ABSTAIN", number=len(report.results))]).to_dict()
        assert summary["label_mismatches"] == 1
        assert summary["mismatched_cases"] == ["mine/c"]
        # the verdict still matches its frozen label
        assert summary["agreement"]["verdict_vs_frozen_label"] == 1.0


def modified_access_suite(tmp_path: Path, case_id: str, **changes: object) -> Path:
    document = json.loads((FIXTURES / "access.json").read_text("utf-8"))
    for case in document["cases"]:
        if case["id"] == case_id:
            case.update(changes)
    path = tmp_path / "access.json"
    path.write_text(json.dumps(document), "utf-8")
    return path


class TestAuditCommand:
    def test_fixtures_match(self, capsys):
        assert main(["audit", *map(str, SUITES)]) == 0
        assert "all verdicts match their frozen labels" in capsys.readouterr().out

    def test_expected_labels_mismatch_exits_1(self, capsys, tmp_path):
        path = modified_access_suite(tmp_path, "authorized-accept", expected_labels=["SUPPORTED", "CONTRADICTED"])
        assert main(["audit", str(path)]) == 1
        out = " ".join(capsys.readouterr().out.split())
        assert "1 case(s) differ" in out
        assert "access/authorized-accept" in out
        assert "expected labels" in out
        assert "access/deleted" not in out

    def test_expected_policy_mismatch_exits_1(self, capsys, tmp_path):
        path = modified_access_suite(tmp_path, "stale-but-supported", expected_policy="ABSTAIN")
        assert main(["audit", "--format", "json", str(path)]) == 1
        document = json.loads(capsys.readouterr().out)
        assert document["summary"]["mismatched_cases"] == ["access/stale-but-supported"]
        item = next(c for c in document["cases"] if c["id"] == "stale-but-supported")
        assert item["match"] is False
        assert item["expected"] == item["actual"] == "STALE_REVISION"
        assert (item["expected_policy"], item["policy"]) == ("ABSTAIN", "ANSWER")

    def test_unmodified_copy_exits_0(self, capsys, tmp_path):
        path = modified_access_suite(tmp_path, "no-such-case")
        assert main(["audit", str(path)]) == 0

    def test_json_per_case(self, capsys):
        assert main(["audit", "--format", "json", *map(str, SUITES)]) == 0
        document = json.loads(capsys.readouterr().out)
        cases = {item["id"]: item for item in document["cases"]}
        assert len(cases) == len(frozen_cases())
        for item in cases.values():
            assert {"labels", "policy", "category", "blame", "recall", "conflicts"} <= set(item)
            assert item["match"] is True
        wrong_side = cases["conflict-wrong-side"]
        assert wrong_side["labels"] == ["SUPPORTED", "CONTRADICTED"]
        assert wrong_side["policy"] == "ABSTAIN"
        assert wrong_side["category"] == "conflicting_evidence"
        assert wrong_side["blame"] == "generation"
        assert wrong_side["recall"] == 1.0
        assert wrong_side["conflicts"] == [
            "payments/prod/v2 retry_enabled: ops-prod-v2 says false, wiki-prod-v2 says true"]
        accepted = cases["authorized-accept"]
        assert (accepted["category"], accepted["blame"], accepted["conflicts"]) == (None, None, [])
        assert cases["retrieval-partial-recall"]["recall"] == 0.5
        assert cases["deleted"]["category"] == "unauthorized_evidence"

    def test_text_report_lines(self, capsys):
        assert main(["audit", *map(str, SUITES)]) == 0
        out = " ".join(capsys.readouterr().out.split())
        summary = audit(load_suite(path) for path in SUITES).summary.to_dict()
        assert f"{summary['conflicted_cases']} case(s) touch conflicting evidence" in out
        assert f"{summary['blame']['retrieval']} retrieval, {summary['blame']['generation']} generation" in out
        assert "unauthorized evidence" in out
