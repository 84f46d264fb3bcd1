"""The one parser of the forms' numeric fields (issue 17, item 13): ``²`` passes
``str.isdigit`` and fails ``int``, 4,301 digits fail ``int`` too; each is a
refusal saying what is allowed, never a ValueError out of the form."""

from __future__ import annotations

import threading

import pytest

from inspector.presentation.numbers import NumberError, ascii_digits, whole_number
from inspector.presentation.overview import count, triage_run
from inspector.presentation.record_session import open_group
from inspector.suites.load import load_registry
from inspector.triage.drill import LineReader
from inspector.triage.synth import write_log, write_registry


@pytest.mark.parametrize("text, number", [("1", 1), (" 12 ", 12), ("1,000", 1000), ("1_000", 1000), ("007", 7),
                                          ("49", 49)])
def test_a_whole_number_in_range_is_read(text, number):
    assert whole_number(text, most=49 if number <= 49 else 1000, what="records") == number


@pytest.mark.parametrize("text", ["²", "1²", "٣", "３", "-1", "+1", "1.5", "1e3", "0x10", "1,,0", ",1", "1 0", "½",
                                  "one"])
def test_anything_but_ascii_digits_is_refused_saying_what_is_allowed(text):
    with pytest.raises(NumberError) as raised:
        whole_number(text, most=1000, what="records")
    assert str(raised.value) == "records: a whole number from 1 to 1,000 (digits 0-9 only)"


def test_too_many_digits_are_refused_before_int_is_asked():
    with pytest.raises(NumberError) as raised:
        whole_number("9" * 4301, most=1000, what="records")  # int() would raise ValueError past 4,300 digits
    assert str(raised.value) == "records: a whole number from 1 to 1,000; 4,301 digits is more"
    assert whole_number("0" * 5000 + "12", most=1000) == 12  # leading zeros are not digits of the number


@pytest.mark.parametrize("text, words", [("0", "0 is not"), ("1001", "1,001 is not"), ("", "the field is empty"),
                                         ("   ", "the field is empty")])
def test_out_of_range_or_empty_is_refused(text, words):
    with pytest.raises(NumberError) as raised:
        whole_number(text, most=1000, what="records")
    assert str(raised.value) == f"records: a whole number from 1 to 1,000; {words}"


def test_ascii_digits():
    assert ascii_digits("0123456789")
    assert not any(ascii_digits(text) for text in ("", "²", "٣", "１", "1a", " 1"))
    assert "²".isdigit()  # why str.isdigit is not enough


def test_a_record_id_with_a_unicode_digit_or_a_huge_line_number_is_no_record(tmp_path):
    # RecordSession.find_id read "name:LINE" with isdigit and int: "app.jsonl:²" raised ValueError.
    registry = write_registry(tmp_path / "registry.json")
    write_log(tmp_path / "app.jsonl", 40, seed=1)
    run = triage_run([str(tmp_path / "app.jsonl")], load_registry(registry), str(registry))
    snapshots = []
    count(run, snapshots.append, threading.Event())
    session = open_group(snapshots[-1].summary.group("ACCEPT"), snapshots[-1], run, LineReader())
    first = session.ids[0]
    assert session.find_id(first) == 0
    for hostile in ("app.jsonl:²", "app.jsonl:" + "9" * 4301, "app.jsonl:1,0", "app.jsonl:٣"):
        assert session.find_id(hostile) is None
    assert session.search("²") == []
