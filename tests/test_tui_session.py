"""inspector.tui.session and .selection: what the views show, computed without textual."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ARTICLE, FIXTURES, ROOT
from inspector.contract.checks import CHECKS, CHECKS_BY_ID
from inspector.contract.verify import Outcome
from inspector.suites.load import load_suite
from inspector.tui.selection import Tone, ladder, ladder_checks, select
from inspector.tui.session import Session

HEADLESS = ["inspector.tui", "inspector.tui.session", "inspector.tui.selection", "inspector.tui.pretty"]


@pytest.fixture(scope="module")
def article() -> Session:
    return Session([load_suite(ARTICLE)])


def number(session: Session, case_id: str) -> int:
    found = session.find_id(case_id)
    assert found is not None, case_id
    return found


class TestHeadless:
    @pytest.mark.parametrize("module", HEADLESS)
    def test_imports_neither_textual_nor_rich(self, module):
        code = (f"import json, sys; import {module}; "
                "print(json.dumps(sorted({n.split('.')[0] for n in sys.modules} & {'textual', 'rich'})))")
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout.strip()) == []

    def test_import_inspector_stays_free_of_the_tui(self):
        code = "import json, sys, inspector; print(json.dumps('inspector.tui' in sys.modules))"
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
        assert json.loads(proc.stdout.strip()) is False


class TestSession:
    def test_entries_in_file_order(self, article):
        assert [e.id for e in article.entries[:3]] == ["complete-answer", "reordered-claims", "one-field-request"]
        assert len(article) == 22

    def test_verdicts_are_computed_lazily_and_once(self, article):
        session = Session(article.suites)
        assert session.cached(0) is None
        verdict = session.verdict(0)
        assert session.cached(0) is verdict and session.verdict(0) is verdict

    def test_every_article_label_matches(self, article):
        assert article.mismatched() == []

    def test_summary_is_the_articles_figure(self, article):
        summary = article.summary()
        assert (summary.total, summary.strict_json, summary.citation_only, summary.accepted) == (22, 17, 13, 3)
        assert summary.matching == summary.labelled == 22
        assert sum(rung.failed for rung in summary.rungs) == 19
        assert summary.rungs[-1].passed == 3

    def test_summary_counts_the_label_lens_as_the_audit_does(self, article):
        from inspector.suites.audit import audit

        summary, results = article.summary(), audit(article.suites)
        assert summary.lens_labelled == sum(bool(r.verdict.labels) for r in results.results)
        assert summary.lens_answer == sum(r.verdict.policy == "ANSWER" for r in results.results)
        assert summary.lens_disagrees == results.summary()["lens_answer_contract_reject"] > 0

    def test_search_filter_and_failing_at(self, article):
        assert [article.entries[n].id for n in article.search("STALE")] == ["prod-v1-claims"]
        assert [article.entries[n].id for n in article.failing_at("revision")] == ["prod-v1-claims"]
        assert len(article.with_status("ACCEPT")) == 3
        assert article.search("") == list(range(22))

    def test_broken_cases_are_entries(self, tmp_path: Path):
        data = json.loads(ARTICLE.read_text(encoding="utf-8"))
        data["cases"][1]["expected"] = "NOT_A_STATUS"
        del data["cases"][2]["request"]
        path = tmp_path / "broken.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        session = Session([load_suite(path, strict=False)])
        assert len(session) == 22
        broken = [e for e in session.entries if e.broken]
        assert [e.index for e in broken] == [1, 2]
        assert session.verdict(broken[0].number) is None
        assert session.actual(broken[0].number) == "ERROR"
        assert session.differs(broken[0].number)
        assert session.summary().broken == 2

    def test_bare_status_label_matches_any_sub_reason(self):
        # The audit's rule: "NO_CITATION" alone matches NO_CITATION/UNKNOWN_DOC.
        from dataclasses import replace

        from inspector.suites.load import Suite

        suite = load_suite(ARTICLE)
        invented = next(case for case in suite.cases if case.expected == "NO_CITATION/UNKNOWN_DOC")
        bare = replace(invented, expected="NO_CITATION")
        wrong = replace(invented, id="wrong", expected="NO_CITATION/NOT_SUPPLIED")
        session = Session([Suite(suite.path, "labels.json", suite.registry, (bare, wrong))])
        assert not session.differs(0)
        assert session.differs(1)
        assert session.summary().matching == 1

    def test_single_answer_has_no_label(self):
        suite = load_suite(ARTICLE)
        from dataclasses import replace

        from inspector.suites.load import Suite

        case = replace(suite.cases[3], expected=None)
        session = Session([Suite(suite.path, "answer.json", suite.registry, (case,))])
        assert not session.differs(0)
        assert session.summary().labelled == 0


class TestSelection:
    def test_opens_on_the_first_failure(self, article):
        n = number(article, "prod-v1-claims")
        selection = select(article.entries[n], article.verdict(n))
        assert selection.step is not None and selection.step.check.id == "revision"
        assert selection.tone is Tone.FAILED
        assert selection.request_attribute == "revision"
        assert selection.source_attribute == "revision"
        assert selection.source is not None and selection.source.id == "prod-v1"

    def test_accepted_opens_on_the_last_step(self, article):
        selection = select(article.entries[0], article.verdict(0))
        assert selection.position == len(selection.steps) - 1
        assert selection.first_failure is None

    def test_scope_compares_environment(self, article):
        n = number(article, "dev-environment-claims")
        selection = select(article.entries[n], article.verdict(n))
        assert (selection.request_attribute, selection.source_attribute) == ("environment", "environment")

    def test_scope_compares_service(self, article):
        n = number(article, "billing-service-claims")
        selection = select(article.entries[n], article.verdict(n))
        assert (selection.request_attribute, selection.source_attribute) == ("service", "service")

    def test_value_compares_the_fact(self, article):
        n = number(article, "real-quote-wrong-value")
        selection = select(article.entries[n], article.verdict(n))
        assert selection.source_attribute == "facts.read_timeout_ms"
        assert selection.claim_member == "value"

    def test_with_claim_keeps_the_check(self, article):
        n = number(article, "complete-answer")
        selection = select(article.entries[n], article.verdict(n))
        value0 = selection.at_check(CHECKS_BY_ID["value"])
        assert (value0.step.check.id, value0.claim) == ("value", 0)
        value1 = value0.with_claim(1)
        assert (value1.step.check.id, value1.claim) == ("value", 1)
        assert value1.with_claim(5).claim == 1  # clamped

    def test_explore_evaluates_after_the_failure(self, article):
        n = number(article, "prod-v1-claims")
        selection = select(article.entries[n], article.verdict(n)).exploring(True)
        after = [s for s in selection.steps if not s.reached and s.outcome is not Outcome.NOT_REACHED]
        assert after, "explore mode evaluates the later checks"
        assert selection.step.check.id == "revision"

    def test_ladder_has_every_check_of_the_trace_for_the_current_claim(self, article):
        n = number(article, "complete-answer")
        rows = ladder(select(article.entries[n], article.verdict(n)).with_claim(1))
        # No scope in the request: the access check is not in the trace, nor on the ladder.
        unscoped = [check.id for check in CHECKS if not check.needs_scope]
        assert [check.id for check, _ in rows] == unscoped
        assert all(step is not None for _, step in rows)
        per_claim = [step for check, step in rows if check.per_claim and step is not None]
        assert per_claim and all(step.claim == 1 for step in per_claim)

    def test_a_scoped_request_puts_access_on_the_ladder(self):
        session = Session([load_suite(FIXTURES / "access.json")])
        n = number(session, "expired")
        selection = select(session.entries[n], session.verdict(n))
        assert ladder_checks(selection) == CHECKS
        rows = dict((check.id, step) for check, step in ladder(selection))
        assert rows["authorized"] is not None and rows["authorized"].failed
        assert selection.source_attribute == "expires_at"  # the failing condition
        assert selection.request_attribute == "scope"

    def test_duplicate_key_points_at_both_occurrences(self, article):
        n = number(article, "duplicate-claims-key")
        selection = select(article.entries[n], article.verdict(n))
        spans = selection.answer_spans
        text = article.verdict(n).text
        assert len(spans) == 2
        assert [text[s.start:s.end] for s in spans] == ['"claims"', '"claims"']

    def test_broken_case_selects_nothing(self, tmp_path: Path):
        data = json.loads((FIXTURES / "article.json").read_text(encoding="utf-8"))
        data["cases"][0]["expected"] = "NOPE"
        path = tmp_path / "broken.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        session = Session([load_suite(path, strict=False)])
        selection = select(session.entries[0], session.verdict(0))
        assert selection.step is None and selection.source is None and selection.answer_spans == ()
