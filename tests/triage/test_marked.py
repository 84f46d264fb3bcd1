"""Marks kept beside the log (``triage.marked``, issue 34): added and removed under the file's lock,
read back in order, never written over a file the inspector did not write, nothing for standard input."""

from __future__ import annotations

import pytest

from inspector.triage.marked import MarksError, change_marks, marks_path, read_marks

SHA = "a" * 64


def test_marks_are_added_removed_and_read_back_in_order(tmp_path):
    log = str(tmp_path / "app.jsonl")
    assert read_marks(log) == ([], False)
    assert change_marks(log, add=[(12, 300, SHA), (3, 40, SHA)]) == [(12, 300, SHA), (3, 40, SHA)]
    assert change_marks(log, add=[(12, 300, SHA)]) == [(12, 300, SHA), (3, 40, SHA)]  # nothing changed
    assert change_marks(log, remove=[(12, 300, SHA)]) == [(3, 40, SHA)]
    assert read_marks(log) == ([(3, 40, SHA)], True)
    assert (tmp_path / "app.jsonl.marks.jsonl").read_text().splitlines()[0] == \
        '{"schema":"inspector.marks/1","log":"app.jsonl"}'


def test_a_file_not_written_here_is_never_replaced(tmp_path):
    log = str(tmp_path / "app.jsonl")
    foreign = tmp_path / "app.jsonl.marks.jsonl"
    foreign.write_text("my own notes\n")
    with pytest.raises(MarksError, match="not a file of marks"):
        change_marks(log, add=[(1, 0, SHA)])
    assert foreign.read_text() == "my own notes\n"


def test_standard_input_keeps_no_marks():
    assert marks_path("-") is None and read_marks("-") == ([], False) and change_marks("-", add=[(1, 0, SHA)]) == []
