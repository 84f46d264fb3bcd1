"""Bars in text (``presentation.bars``): a count out of a total, to an eighth of a cell."""

from __future__ import annotations

from inspector.presentation.bars import bar


class TestBar:
    def test_full_half_and_empty(self):
        assert bar(10, 10, 4) == "████"
        assert bar(5, 10, 4) == "██  "
        assert bar(0, 10, 4) == "    "

    def test_eighths_of_a_cell(self):
        assert bar(1, 8, 1) == "▏"
        assert bar(7, 8, 1) == "▉"
        assert bar(3, 4, 2) == "█▌"

    def test_always_as_wide_as_asked(self):
        for value in range(0, 11):
            assert len(bar(value, 10, 7)) == 7

    def test_no_total_or_no_room(self):
        assert bar(3, 0, 5) == "     "
        assert bar(3, 10, 0) == ""
        assert bar(3, 10, -2) == ""
