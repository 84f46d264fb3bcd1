"""reports.agreement: people's claim labels against the label lens and the contract."""

from __future__ import annotations

import pytest

from inspector.reports.agreement import agreement, cohen_kappa
from inspector.reports.audit import audit
from inspector.suites.load import load_suite
from support import ARTICLE


class TestKappa:
    def test_the_textbook_example(self):
        # Two raters, 50 items: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no: p_o 0.7, p_e 0.5.
        matrix = {("yes", "yes"): 20, ("yes", "no"): 5, ("no", "yes"): 10, ("no", "no"): 15}
        assert cohen_kappa(matrix, ("yes", "no")) == pytest.approx(0.4)

    def test_perfect_and_chance_and_worse(self):
        assert cohen_kappa({("a", "a"): 3, ("b", "b"): 2}, ("a", "b")) == 1.0
        assert cohen_kappa({("a", "a"): 1, ("a", "b"): 1, ("b", "a"): 1, ("b", "b"): 1}, ("a", "b")) == 0.0
        assert cohen_kappa({("a", "b"): 2, ("b", "a"): 2}, ("a", "b")) == -1.0

    def test_undefined_when_chance_explains_everything_or_nothing_is_compared(self):
        assert cohen_kappa({("a", "a"): 5}, ("a", "b")) is None
        assert cohen_kappa({}, ("a", "b")) is None


@pytest.fixture(scope="module")
def reports():
    return audit([load_suite(ARTICLE)]).results


def number(reports, case_id):
    return next(report.number for report in reports if report.id == case_id)


class TestAgreement:
    def test_claims_against_the_lens_cell_by_cell(self, reports):
        accepted, wrong_value = number(reports, "complete-answer"), number(reports, "real-quote-wrong-value")
        assert reports[wrong_value].claim_labels[0] == "CONTRADICTED"
        overlay = {accepted: {0: "SUPPORTED", 1: "CONTRADICTED"},  # a person disagrees on claims[1]
                   wrong_value: {0: "CONTRADICTED", 1: "NOT_ASSESSABLE"}}
        result = agreement(reports, overlay)
        claims = result.claims
        assert claims.compared == 3 and claims.agreed == 2 and claims.rate == pytest.approx(2 / 3)
        assert claims.cell("SUPPORTED", "SUPPORTED") == ((accepted, 0),)
        assert claims.cell("CONTRADICTED", "SUPPORTED") == ((accepted, 1),)
        assert claims.cell("CONTRADICTED", "CONTRADICTED") == ((wrong_value, 0),)
        assert result.not_assessable == ((wrong_value, 1),) and result.labelled_claims == 4
        # p_o 2/3; the people: S 1, C 2; the lens: S 2, C 1 -> p_e (2 + 2) / 9 = 4/9; kappa (6/9 - 4/9) / (5/9) = 0.4
        assert claims.kappa == pytest.approx(0.4)

    def test_answers_against_the_contract_only_when_every_claim_is_assessed(self, reports):
        accepted, wrong_value = number(reports, "complete-answer"), number(reports, "real-quote-wrong-value")
        result = agreement(reports, {accepted: {0: "SUPPORTED", 1: "SUPPORTED"},
                                     wrong_value: {0: "CONTRADICTED"}})  # claims[1] unlabelled: not compared
        answers = result.answers
        assert answers.cell("ANSWER", "ANSWER") == ((accepted, None),) and answers.compared == 1
        result = agreement(reports, {wrong_value: {0: "SUPPORTED", 1: "SUPPORTED"}})
        assert result.answers.cell("ANSWER", "ABSTAIN") == ((wrong_value, None),) and result.answers.rate == 0.0

    def test_a_label_of_a_claim_the_lens_has_not_is_unpaired(self, reports):
        not_json = next(report for report in reports if not report.verdict.strict_json)
        result = agreement(reports, {not_json.number: {0: "SUPPORTED"}})
        assert result.unpaired == ((not_json.number, 0),) and result.claims.compared == 0

    def test_nothing_labelled(self, reports):
        result = agreement(reports)
        assert not result.any and result.claims.rate is None and result.claims.kappa is None

    def test_the_json_names_the_claims_of_each_cell(self, reports):
        accepted = number(reports, "complete-answer")
        document = agreement(reports, {accepted: {0: "SUPPORTED", 1: "CONTRADICTED"}}).to_dict(reports)
        lens = document["human_vs_lens"]
        assert lens["matrix"]["CONTRADICTED"]["SUPPORTED"] == 1 and lens["rows"] == "human"
        assert {"human": "CONTRADICTED", "label_lens": "SUPPORTED",
                "items": ["article/complete-answer#claims[1]"]} in lens["cells"]
