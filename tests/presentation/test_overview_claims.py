"""A claim group shown as its check, field and document (issue 34): the parts as its name spells them, and
how their three columns share a width."""

from __future__ import annotations

from inspector.presentation.overview import CLAIM_PART_CELLS, claim_columns, fit_claim_columns
from inspector.triage.groups import ClaimDetail, GroupKind, claim_name
from inspector.triage.summary import Group


def claim(check: str, field: str, doc: str) -> Group:
    return Group(claim_name(check, field, doc), GroupKind.CLAIM, 3, 0.1, detail=ClaimDetail(check, field, doc))


def test_the_parts_joined_are_the_name_export_takes_escapes_and_all():
    for parts in [("STALE_REVISION", "read_timeout_ms", "auth-prod-v1"), ("VALUE_MISMATCH", "a/b", "c:d\u202e")]:
        group = claim(*parts)
        shown = claim_columns(group)
        assert shown is not None and group.name == "claim:" + "/".join(shown)
    assert claim_columns(claim("VALUE_MISMATCH", "a/b", "x")) == ("VALUE_MISMATCH", "a\\/b", "x")
    assert claim_columns(claim("VALUE_MISMATCH", "f", "d\u202e"))[2] == "d\\u202e"  # made visible
    assert claim_columns(Group("STALE_REVISION", GroupKind.CHECK, 3, 0.1)) is None


def test_the_document_gives_way_first_then_the_field_the_check_last():
    assert fit_claim_columns((14, 15, 19), 60) == (14, 15, 19)  # room: each whole
    assert fit_claim_columns((14, 15, 19), 48) == (14, 15, 17)  # two cells short: the document's
    assert fit_claim_columns((14, 15, 19), 32) == (14, CLAIM_PART_CELLS, CLAIM_PART_CELLS)
    assert fit_claim_columns((14, 15, 19), 30) == (12, CLAIM_PART_CELLS, CLAIM_PART_CELLS)
    assert fit_claim_columns((14, 15, 19), 20) == (2, CLAIM_PART_CELLS, CLAIM_PART_CELLS)
    assert fit_claim_columns((14, 4, 5), 10) == (1, 4, 5)  # short parts are never made longer
