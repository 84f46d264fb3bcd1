"""The checks table (inspector.contract.checks): one declaration per check, from
which the contract order, the sub-reasons and the CLI listing derive."""

from __future__ import annotations

import re

import pytest

from inspector import CHECKS, LIMITS, Stage
from inspector.cli import main
from inspector.contract.checks import CHECKS_BY_ID, REASONS, STATUSES, checks_for

from support import run_main

CONTRACT_ORDER = [
    ("size", "INVALID_JSON"), ("encoding", "INVALID_JSON"), ("depth", "INVALID_JSON"),
    ("syntax", "INVALID_JSON"), ("duplicate_key", "INVALID_JSON"), ("shape", "INVALID_JSON"),
    ("has_claims", "NO_CITATION"), ("doc_known", "NO_CITATION"), ("doc_supplied", "NO_CITATION"),
    ("quote_found", "NO_CITATION"),
    ("unique_field", "DUPLICATE_CLAIM"), ("requested_field", "UNREQUESTED_FIELD"), ("scope", "SCOPE_MISMATCH"),
    ("revision", "STALE_REVISION"), ("value", "VALUE_MISMATCH"), ("quote_supports", "QUOTE_NOT_SUPPORTING"),
    ("coverage", "INCOMPLETE"),
]


def in_order(items: list, within: list) -> bool:
    """Whether ``items`` occur in ``within`` in this order (other items may come between)."""
    rest = iter(within)
    return all(item in rest for item in items)


class TestTable:
    def test_contract_order(self):
        # The spec's checks in the spec's order; checks added later (e.g. access
        # control) may sit between them.
        assert in_order(CONTRACT_ORDER, [(check.id, check.code) for check in CHECKS])

    def test_stages_in_order(self):
        stages = [int(check.stage) for check in CHECKS]
        assert stages == sorted(stages)
        assert set(stages) == {1, 2, 3, 4}
        assert all(check.code == "INVALID_JSON" for check in CHECKS if check.stage is Stage.DECODE)
        assert all(check.code == "NO_CITATION" for check in CHECKS if check.stage is Stage.CITATION)

    def test_stage_titles(self):
        assert [stage.title for stage in Stage] == ["strict decoding", "citation", "per claim", "coverage"]

    @pytest.mark.parametrize("check", CHECKS, ids=[c.id for c in CHECKS])
    def test_every_check_documented(self, check):
        assert check.title.strip()
        assert check.explanation.strip()
        assert check.hint.strip()

    def test_ids_unique(self):
        assert len({check.id for check in CHECKS}) == len(CHECKS)
        assert list(CHECKS_BY_ID) == [check.id for check in CHECKS]

    def test_titles_unique(self):
        assert len({check.title for check in CHECKS}) == len(CHECKS)

    def test_every_sub_reason_belongs_to_exactly_one_check(self):
        owners = {reason: [check.id for check in CHECKS if reason in check.reasons] for reason in REASONS}
        assert {reason: len(ids) for reason, ids in owners.items()} == dict.fromkeys(REASONS, 1)

    def test_every_declared_sub_reason_is_known(self):
        declared = [reason for check in CHECKS for reason in check.reasons]
        assert len(declared) == len(set(declared))
        assert set(declared) == set(REASONS)

    @pytest.mark.parametrize("reason", list(REASONS))
    def test_every_sub_reason_documented(self, reason):
        assert REASONS[reason].code == reason
        assert REASONS[reason].title.strip() and REASONS[reason].hint.strip()

    def test_sub_reasons_only_in_stages_1_and_2(self):
        assert all(not check.reasons for check in CHECKS if check.stage in (Stage.CLAIM, Stage.COVERAGE))
        assert all(check.reasons for check in CHECKS if check.stage in (Stage.DECODE, Stage.CITATION))

    def test_spec_sub_reasons(self):
        assert CHECKS_BY_ID["shape"].reasons == ("WRONG_SHAPE", "TOO_MANY_CLAIMS", "UNKNOWN_MEMBER", "MISSING_MEMBER",
                                                 "NOT_A_STRING", "EMPTY_STRING", "TOO_LONG")
        assert CHECKS_BY_ID["syntax"].reasons == ("SYNTAX", "TRAILING_DATA")
        assert in_order(["NO_CLAIMS", "UNKNOWN_DOC", "NOT_SUPPLIED", "QUOTE_NOT_FOUND"],
                        [r for c in CHECKS if c.stage is Stage.CITATION for r in c.reasons])

    def test_statuses(self):
        assert STATUSES == ("INVALID_JSON", "NO_CITATION", "DUPLICATE_CLAIM", "UNREQUESTED_FIELD", "SCOPE_MISMATCH",
                            "STALE_REVISION", "VALUE_MISMATCH", "QUOTE_NOT_SUPPORTING", "INCOMPLETE", "ACCEPT")

    def test_per_claim_checks(self):
        per_claim = {check.id for check in CHECKS if check.per_claim}
        assert per_claim >= {"doc_known", "doc_supplied", "quote_found", "unique_field", "requested_field", "scope",
                             "revision", "value", "quote_supports"}
        assert not {"has_claims", "coverage"} & per_claim
        assert not any(check.per_claim for check in CHECKS if check.stage is Stage.DECODE)

    def test_limits(self):
        assert (LIMITS.MAX_INPUT, LIMITS.MAX_MEMBER, LIMITS.MAX_CLAIMS, LIMITS.MAX_DEPTH) == (8192, 2048, 8, 16)

    def test_limits_in_explanations(self):
        assert "8192" in CHECKS_BY_ID["size"].explanation
        assert "16" in CHECKS_BY_ID["depth"].explanation
        assert "8" in CHECKS_BY_ID["shape"].explanation and "2048" in CHECKS_BY_ID["shape"].explanation

    def test_the_checks_of_a_trace(self):
        # With an access scope every check; without one, all but the access step.
        assert checks_for(True) == CHECKS
        assert [check.id for check in checks_for(False)] == [check.id for check in CHECKS if check.id != "authorized"]
        assert [check.id for check in CHECKS if check.needs_scope] == ["authorized"]

    def test_what_the_rules_need(self):
        assert {check.id for check in CHECKS if check.needs_source} == {"authorized", "quote_found", "scope",
                                                                        "revision", "value"}
        assert {check.id for check in CHECKS if check.reads_claimed} == {"unique_field", "coverage"}
        assert not any(check.needs_source or check.reads_claimed for check in CHECKS if check.rule is None)

    def test_checks_are_frozen(self):
        with pytest.raises(AttributeError):
            CHECKS[0].code = "ACCEPT"  # type: ignore[misc]


def listed_codes(text: str) -> list[str]:
    """The check codes in the order a listing shows them (one line per check)."""
    codes = set(STATUSES)
    return [word for line in text.splitlines() for word in line.split()[:1] if word in codes]


class TestHelp:
    def test_help_lists_every_check_in_order(self, capsys):
        status, out, err = run_main(capsys, "--help")
        assert status == 0, err
        assert listed_codes(out) == [check.code for check in CHECKS]
        positions = [out.index(f"{check.code}") for check in CHECKS]
        assert positions == sorted(positions)
        titles = [out.index(check.title, positions[0]) for check in CHECKS]
        assert titles == sorted(titles)

    def test_help_lists_every_sub_reason(self, capsys):
        with pytest.raises(SystemExit) as exit_info:
            main(["--help"])
        assert exit_info.value.code == 0
        out = capsys.readouterr().out
        for reason in REASONS:
            assert re.search(rf"\b{reason}\b", out), reason
        for check in CHECKS:
            assert check.explanation in out

    def test_checks_command_lists_checks_hints_and_reasons(self, capsys):
        assert main(["checks"]) == 0
        out = capsys.readouterr().out
        assert listed_codes(out) == [check.code for check in CHECKS]
        for check in CHECKS:
            assert check.hint in out
        for reason, info in REASONS.items():
            assert re.search(rf"\b{reason}\b +{re.escape(info.title)}", out), reason
