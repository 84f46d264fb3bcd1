"""inspector.presentation.session and .selection: the cases the inspector shows,
their reports, and what a view points at, computed without textual.  (That these
modules import neither textual nor rich is test_purity's.)"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from support import ARTICLE, FIXTURES
from inspector.contract.checks import CHECKS, CHECKS_BY_ID
from inspector.contract.trace import Outcome, SourceSpan
from inspector.reports import case as case_module
from inspector.reports.labels import LabelMatch
from inspector.presentation.selection import select
from inspector.presentation.session import Session
from inspector.reports.tones import Tone
from inspector.reports.audit import audit
from inspector.suites.load import Suite, load_suite


@pytest.fixture(scope="module")
def article_session() -> Session:
    """The article's 22 cases in a session."""
    return Session([load_suite(ARTICLE)])


def number(session: Session, case_id: str) -> int:
    found = session.find_id(case_id)
    assert found is not None, case_id
    return found


def opened(session: Session, case_id: str, explore: bool = False):
    """The selection of a freshly opened case."""
    return select(session.report(number(session, case_id)), explore)


class TestSession:
    def test_cases_in_file_order(self, article_session):
        assert article_session.ids[:3] == ["complete-answer", "reordered-claims", "one-field-request"]
        assert [article_session.report(n).id for n in range(3)] == article_session.ids[:3]
        assert [article_session.report(n).number for n in range(3)] == [0, 1, 2]
        assert len(article_session) == 22

    def test_verdicts_are_computed_lazily_and_once(self, article_session, monkeypatch):
        calls = []
        real = case_module.verify

        def counting(*args):
            calls.append(args)
            return real(*args)

        monkeypatch.setattr(case_module, "verify", counting)  # CaseReport.of verifies
        session = Session(article_session.suites)
        assert calls == []  # loading a session verifies nothing
        report = session.report(0)
        assert len(calls) == 1 and report.verdict is not None
        assert session.report(0) is report and session.report(0).verdict is report.verdict
        assert len(calls) == 1

    def test_every_article_label_matches(self, article_session):
        assert article_session.mismatched() == []

    def test_summary_is_the_articles_figure(self, article_session):
        summary = article_session.summary()
        assert (summary.total, summary.rung("strict_json").count, summary.rung("citation_only").count,
                summary.accepted) == (22, 17, 13, 3)
        assert summary.matching == summary.labelled == 22
        assert sum(row.failed for row in summary.checks) == 19
        assert summary.checks[-1].passed == 3

    def test_summary_of_some_cases(self, article_session):
        accepted = article_session.with_status("ACCEPT")
        summary = article_session.summary(accepted)
        assert (summary.total, summary.accepted) == (3, 3)
        assert summary.rung("contract").cases == tuple(accepted)

    def test_summary_counts_the_label_lens_as_the_audit_does(self, article_session):
        summary, results = article_session.summary(), audit(article_session.suites)
        assert summary.lens_labelled == sum(bool(r.evidence.labels) for r in results.results)
        assert summary.rung("lens_answer").count == sum(r.evidence.policy == "ANSWER" for r in results.results)
        assert summary.rung("lens_disagrees").count == results.summary.to_dict()["lens_answer_contract_reject"] > 0
        # One summary, whoever asks for it.
        assert summary.to_dict() == results.summary.to_dict()
        assert article_session.lens_disagreements() == list(summary.rung("lens_disagrees").cases)

    def test_search_filter_and_failing_at(self, article_session):
        assert [article_session.ids[n] for n in article_session.search("STALE")] == ["prod-v1-claims"]
        assert [article_session.ids[n] for n in article_session.failing_at("revision")] == ["prod-v1-claims"]
        assert len(article_session.with_status("ACCEPT")) == 3
        assert article_session.search("") == list(range(22))
        assert article_session.search("stale", among=[0, 1, 2]) == []

    def test_broken_cases_are_listed(self, tmp_path: Path):
        data = json.loads(ARTICLE.read_text(encoding="utf-8"))
        data["cases"][1]["expected"] = "NOT_A_STATUS"
        del data["cases"][2]["request"]
        path = tmp_path / "broken.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        suite = load_suite(path, strict=False)
        session = Session([suite])
        assert len(session) == 22 == session.suite_size(suite)
        broken = [session.report(n) for n in range(len(session)) if session.report(n).broken]
        assert [report.index for report in broken] == [1, 2]
        assert broken[0].verdict is None
        assert broken[0].actual == "ERROR" and session.with_status("ERROR") == [1, 2]
        assert broken[0].differs and broken[0].label_match is LabelMatch.BROKEN
        assert session.mismatched() == [1, 2]
        assert session.summary().broken == (1, 2)
        assert session.summary().total == 20

    def test_bare_status_label_matches_any_sub_reason(self):
        # The one rule: "NO_CITATION" alone matches NO_CITATION/UNKNOWN_DOC.
        suite = load_suite(ARTICLE)
        invented = next(case for case in suite.cases if case.expected == "NO_CITATION/UNKNOWN_DOC")
        bare = replace(invented, expected="NO_CITATION")
        wrong = replace(invented, id="wrong", expected="NO_CITATION/NOT_SUPPLIED")
        session = Session([Suite(suite.path, "labels.json", suite.registry, (bare, wrong))])
        assert not session.report(0).differs and session.report(0).label_match is LabelMatch.MATCHES
        assert session.report(1).differs and session.report(1).label_match is LabelMatch.DIFFERS
        assert session.summary().matching == 1
        assert session.mismatched() == [1]

    def test_single_answer_has_no_label(self):
        suite = load_suite(ARTICLE)
        case = replace(suite.cases[3], expected=None)
        session = Session([Suite(suite.path, "answer.json", suite.registry, (case,))])
        assert not session.report(0).differs
        assert session.report(0).label_match is LabelMatch.UNLABELLED
        assert session.summary().labelled == 0

    def test_cases_of_each_suite(self):
        article, access = load_suite(ARTICLE), load_suite(FIXTURES / "access.json")
        session = Session([article, access])
        assert session.numbers_of(article) == list(range(22))
        assert session.numbers_of(access) == list(range(22, len(session)))
        assert session.find_id("expired") in session.numbers_of(access)
        assert session.find_id("no-such-case") is None


class TestOpeningAFileAgain:
    """``Session.open_suite``: a file already open is found, grown or opened again, never
    silently copied."""

    @staticmethod
    def suite_file(tmp_path: Path, cases: int) -> Path:
        document = json.loads(ARTICLE.read_text("utf-8"))
        document["cases"] = document["cases"][:cases]
        path = tmp_path / "mine.json"
        path.write_text(json.dumps(document), "utf-8")
        return path

    def test_a_new_file_is_opened(self, tmp_path):
        session = Session([load_suite(ARTICLE)])
        before = len(session)
        how, numbers = session.open_suite(load_suite(self.suite_file(tmp_path, 3)))
        assert how == "opened" and numbers == list(range(before, before + 3)) and len(session) == before + 3

    def test_the_same_file_unchanged_adds_nothing(self, tmp_path):
        path = self.suite_file(tmp_path, 3)
        session = Session([load_suite(path)])
        session.report(1)
        how, numbers = session.open_suite(load_suite(path))
        assert (how, numbers, len(session), len(session.suites)) == ("already open", [0, 1, 2], 3, 1)

    def test_a_grown_file_adds_only_its_new_cases_and_keeps_the_edits(self, tmp_path):
        from inspector.lab.history import text_change

        path = self.suite_file(tmp_path, 3)
        session = Session([load_suite(path)])
        raw = session.history(1).raw
        session.change(1, text_change(raw, raw.replace("claims", "claimz", 1)))
        edited = session.report(1).actual
        grown = self.suite_file(tmp_path, 5)
        how, numbers = session.open_suite(load_suite(grown))
        assert how == "grown" and numbers == [0, 1, 2, 3, 4] and len(session) == 5
        assert len(session.suites) == 1 and session.suites[0].cases == load_suite(grown).cases
        assert session.ids == [case.id for case in load_suite(grown).cases]
        assert session.report(1).actual == edited and session.report(1).parent is not None  # the edit kept
        # Every report is of the suite as it is now (the summary, the mutation report look it up).
        assert all(session.report(n).suite is session.suites[0] for n in range(5))
        assert session.report(1).parent.suite is session.suites[0]
        assert session.report(4).id == session.ids[4] and session.suite_size(session.report(1).suite) == 5
        assert session.numbers_of(session.suites[0]) == [0, 1, 2, 3, 4]

    def test_a_file_changed_otherwise_is_opened_again(self, tmp_path):
        path = self.suite_file(tmp_path, 3)
        session = Session([load_suite(path)])
        document = json.loads(path.read_text("utf-8"))
        document["cases"][0]["note"] = "changed on disk"
        path.write_text(json.dumps(document), "utf-8")
        how, numbers = session.open_suite(load_suite(path))
        assert how == "opened again" and numbers == [3, 4, 5] and len(session.suites) == 2


class TestSelection:
    def test_opens_on_the_first_failure(self, article_session):
        selection = opened(article_session, "prod-v1-claims")
        assert selection.step is not None and selection.step.check.id == "revision"
        assert selection.tone is Tone.BAD
        assert selection.request_attribute == "revision"
        assert selection.source_attribute == "revision"
        assert selection.source is not None and selection.source.id == "prod-v1"

    def test_accepted_opens_on_the_last_step(self, article_session):
        selection = select(article_session.report(0))
        assert selection.position == len(selection.steps) - 1
        assert selection.first_failure is None
        assert selection.tone is Tone.GOOD

    def test_scope_compares_environment(self, article_session):
        selection = opened(article_session, "dev-environment-claims")
        assert (selection.request_attribute, selection.source_attribute) == ("environment", "environment")

    def test_scope_compares_service(self, article_session):
        selection = opened(article_session, "billing-service-claims")
        assert (selection.request_attribute, selection.source_attribute) == ("service", "service")

    def test_value_compares_the_fact(self, article_session):
        selection = opened(article_session, "real-quote-wrong-value")
        assert selection.source_attribute == "facts.read_timeout_ms"
        assert selection.claim_member == "value"
        assert selection.source_span_kind is SourceSpan.FACT
        caption = selection.source_caption
        assert (caption.source, caption.tone) == (selection.source.id, Tone.MUTED)
        assert caption.note == f" · the fact's line at line {selection.source_span.line}"

    def test_a_quote_not_found_marks_the_nearest_line(self, article_session):
        selection = opened(article_session, "invented-quote")
        assert selection.step.check.id == "quote_found" and selection.quote_missing
        assert selection.source_span_kind is SourceSpan.NEAREST
        caption = selection.source_caption
        assert caption.tone is Tone.BAD and caption.note.startswith(" · quote not found")
        # A quote that is found is not missing.
        found = opened(article_session, "complete-answer").at_check("quote_found")
        assert found.step.outcome is Outcome.PASSED and not found.quote_missing
        assert found.source_span_kind is SourceSpan.QUOTE

    def test_an_unknown_document_has_no_text_to_show(self, article_session):
        selection = opened(article_session, "invented-doc")
        assert selection.step.check.id == "doc_known" and selection.source is None
        caption = selection.source_caption
        assert caption.source is None and caption.doc == selection.claim_value.doc
        assert "not in the registry" in caption.note

    def test_with_claim_keeps_the_check(self, article_session):
        selection = opened(article_session, "complete-answer")
        value0 = selection.at_check(CHECKS_BY_ID["value"])
        assert (value0.step.check.id, value0.claim) == ("value", 0)
        value1 = value0.with_claim(1)
        assert (value1.step.check.id, value1.claim) == ("value", 1)
        assert value1.with_claim(5).claim == 1  # clamped

    def test_explore_evaluates_after_the_failure(self, article_session):
        selection = opened(article_session, "prod-v1-claims").exploring(True)
        after = [s for s in selection.steps if not s.reached and s.outcome is not Outcome.NOT_REACHED]
        assert after, "explore mode evaluates the later checks"
        assert selection.step.check.id == "revision"
        assert opened(article_session, "prod-v1-claims", explore=True).steps == selection.steps

    def test_the_checks_panel_has_every_check_of_the_trace_for_the_current_claim(self, article_session):
        rows = opened(article_session, "complete-answer").with_claim(1).check_rows()
        # No scope in the request: the access check is not in the trace, nor on the checks panel.
        unscoped = [check.id for check in CHECKS if not check.needs_scope]
        assert [row.check.id for row in rows] == unscoped
        assert all(row.step is not None for row in rows)
        per_claim = [row.step for row in rows if row.check.per_claim and row.step is not None]
        assert per_claim and all(step.claim == 1 for step in per_claim)

    def test_a_scoped_request_puts_access_on_the_checks_panel(self):
        session = Session([load_suite(FIXTURES / "access.json")])
        selection = opened(session, "expired")
        assert selection.panel_checks == CHECKS
        rows = {row.check.id: row.step for row in selection.check_rows()}
        assert rows["authorized"] is not None and rows["authorized"].failed
        assert selection.source_attribute == "expires_at"  # the failing condition
        assert selection.request_attribute == "scope"

    def test_duplicate_key_points_at_both_occurrences(self, article_session):
        n = number(article_session, "duplicate-claims-key")
        selection = select(article_session.report(n))
        spans = selection.answer_spans
        text = article_session.report(n).verdict.text
        assert len(spans) == 2
        assert [text[s.start:s.end] for s in spans] == ['"claims"', '"claims"']

    def test_broken_case_selects_nothing(self, tmp_path: Path):
        data = json.loads((FIXTURES / "article.json").read_text(encoding="utf-8"))
        data["cases"][0]["expected"] = "NOPE"
        path = tmp_path / "broken.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        session = Session([load_suite(path, strict=False)])
        selection = select(session.report(0))
        assert selection.step is None and selection.source is None and selection.answer_spans == ()
        assert all(row.step is None and row.mark == "–" for row in selection.check_rows())
