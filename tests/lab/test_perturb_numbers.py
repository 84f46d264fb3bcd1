"""value.perturb on numbers of any length (issue 17, item 13's mistake in the lab):
a claim value of 5,000 digits made ``int()`` raise ValueError (past 4,300 digits),
so ``v`` in the inspector and ``inspector mutate`` crashed on such an answer."""

from __future__ import annotations

import pytest

from inspector.lab.mutations import perturbations


def near_misses(field: str, value: str) -> dict[str, str]:
    return {label: changed for label, changed in perturbations(field, value)}


def test_a_number_of_5000_digits_has_its_near_misses():
    found = near_misses("read_timeout_ms", "9" * 5000)
    assert found["next number"] == "1" + "0" * 5000
    assert found["with a unit"] == "9" * 5000 + "ms"
    thousands = near_misses("read_timeout_ms", "5" + "0" * 4999)
    assert thousands["in seconds"] == "5" + "0" * 4996 + "s" and thousands["next number"] == "5" + "0" * 4998 + "1"


@pytest.mark.parametrize("value, following", [("5000", "5001"), ("0", "1"), ("099", "100"), ("v1.9", "v1.10"),
                                              ("timeout 199ms", "timeout 200ms"), ("٣", "4"), ("１９", "20")])
def test_the_next_number_is_what_int_plus_one_wrote(value, following):
    assert near_misses("x", value)["next number"] == following


@pytest.mark.parametrize("value, seconds", [("5000", "5s"), ("0001000", "1s"), ("120000", "120s"), ("0", None),
                                            ("000", None), ("1500", None)])
def test_milliseconds_in_seconds_only_for_a_non_zero_multiple_of_1000(value, seconds):
    assert near_misses("read_timeout_ms", value).get("in seconds") == seconds
