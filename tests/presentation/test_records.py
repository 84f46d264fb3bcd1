"""A triage record beside its case (``presentation.records``): its place and
metadata as the records view's strip shows them, bounded; its whole log line,
re-indented without losing a repeated key, bytes that are not UTF-8 kept, a
huge line cut and said; the bad lines' starts, read a few hundred bytes at a
time, from a plain log and a ``.gz`` alike, and a log changed since it was
counted said instead of read."""

from __future__ import annotations

import gzip
import json
import os
import threading

import pytest

from support import ANSWERS, PAYMENTS_REGISTRY, PAYMENTS_REQUEST
from inspector.presentation.records import (
    LINE_BYTES,
    LINE_CHARS,
    MEMBERS_SHOWN,
    START_BYTES,
    VALUE_CHARS,
    LogChanged,
    bad_line_starts,
    fit,
    log_line,
    meta_members,
    record_line,
    record_place_of,
)
from inspector.presentation.overview import count, triage_run
from inspector.presentation.record_session import open_group
from inspector.suites.load import load_registry
from inspector.triage.drill import LineReader

REQUEST = json.dumps(json.loads(PAYMENTS_REQUEST.read_text())).encode()
ACCEPT = json.dumps((ANSWERS / "accept.json").read_text()).encode()
ESC = "\x1b"


def line(*members: bytes) -> bytes:
    """A record line: ``raw`` and ``request``, then these members (``b'"key": value'``) as written."""
    return b", ".join((b'{"raw": ' + ACCEPT, b'"request": ' + REQUEST, *members)) + b"}"


FIRST = line(b'"id": "r-1"', b'"model": "gpt-x"', b'"metadata": {"model": "gpt-y", "prompt.version": "p2"}',
             b'"note": "' + b"x" * 500 + b'"', b'"attempt": "3"', b'"flags": ["a", "b"]',
             b'"extra": {"k": 1, "k": 2}')
LONG_BAD = b"{" + b"a" * 10_000  # not JSON, and longer than a start
HOSTILE_BAD = ESC.encode() + b"[2J\xff not json"
LINES = [FIRST, LONG_BAD, HOSTILE_BAD, b"", line(b'"id": "r-2"'), b'{"raw": 1, "raw": 2}']


def counted(log, registry=PAYMENTS_REGISTRY):
    """The overview's count of ``log``, done (its last snapshot), and its run."""
    run = triage_run([str(log)], load_registry(registry), str(registry), workers=1)
    snapshots = []
    count(run, snapshots.append, threading.Event())
    assert snapshots[-1].done and snapshots[-1].failed is None
    return snapshots[-1], run


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "app.jsonl"
    path.write_bytes(b"\n".join(LINES) + b"\n")
    return path


def session_of(log, group="ACCEPT"):
    snapshot, run = counted(log)
    return open_group(snapshot.summary.group(group), snapshot, run, LineReader())


class TestThePlace:
    def test_file_line_offset_and_the_metadata_in_the_lines_order_bounded(self, log):
        session = session_of(log)
        place = record_place_of(session, 0)
        assert (place.file, place.line, place.offset) == (str(log), 1, 0)
        assert place.place == f"{log}:1 · offset 0"
        second = record_place_of(session, 1)
        assert (second.line, second.offset) == (5, log.read_bytes().index(b'{"raw"', 1 + len(FIRST)))
        assert second.members == (("id", "r-2"),) and second.more == 0
        shown = dict(place.members)
        assert list(shown) == ["id", "model", "metadata.model", "metadata.prompt.version", "note", "attempt",
                               "flags", "extra.k"]  # a nested object opened, as --by takes its path
        assert shown["metadata.model"] == "gpt-y" and shown["extra.k"] == "2"
        assert shown["note"] == "x" * (VALUE_CHARS - 1) + "…"  # a long value cut
        assert shown["attempt"] == '"3"' and shown["flags"] == '["a", "b"]'  # a string reading as JSON is quoted
        assert record_place_of(session, 2) is None  # past the group

    def test_many_members_are_summarised_and_a_huge_one_costs_its_cut(self):
        members, more = meta_members({f"k{n}": n for n in range(40)})
        assert len(members) == MEMBERS_SHOWN and more == 40 - MEMBERS_SHOWN
        members, more = meta_members({"big": list(range(1_000_000)), "deep": {"a": {"b": {"c": 1}}}, "none": None,
                                      "empty": "", "esc": f"a{ESC}b"})
        assert dict(members) == {"big": json.dumps(list(range(30)))[:VALUE_CHARS - 1] + "…",
                                 "deep.a.b": '{"c": 1}', "none": "null", "empty": '""', "esc": f"a{ESC}b"}
        assert more == 0  # (the escape is the widget's: safe)

    def test_megabytes_of_metadata_are_cut_in_the_strip_and_in_the_cases_note_too(self, tmp_path):
        log = tmp_path / "big.jsonl"
        log.write_bytes(line(b'"blob": "' + b"b" * 1_000_000 + b'"', b'"id": "r-1"') + b"\n")
        session = session_of(log)
        place = record_place_of(session, 0)
        assert place.members == (("blob", "b" * (VALUE_CHARS - 1) + "…"), ("id", "r-1"))
        note = session.cases[0].note  # drawn in the verdict panel: a megabyte would take it seconds
        assert note.startswith(f"from {log}:1 (offset 0); metadata {{\"blob\": \"bbb")
        assert note.endswith("… (cut at 2,000 characters)") and len(note) < 2200

    def test_a_record_that_cannot_be_read_again_says_why(self, log):
        session = session_of(log)
        log.write_bytes(b"")  # rotated away before the record was read
        place = record_place_of(session, 1)
        assert (place.line, place.members) == (5, ()) and "the log changed since it was counted" in place.problem


class TestFit:
    @staticmethod
    def more(count):
        return len(f"+{count} more")

    def test_in_order_then_the_last_line_keeps_room_for_how_many_more(self):
        # at 46 cells, two lines: the place; then id and model, the long ts left out beside the marker
        assert fit([34, 12, 30, 14, 17], 46, 2, self.more) == ([[0], [1, 3]], 2)
        assert fit([34, 12, 30, 14, 17], 76, 2, self.more) == ([[0, 1], [2, 3, 4]], 0)  # all fit: no marker

    def test_members_not_items_are_counted_and_the_place_always_shows(self):
        assert fit([34], 76, 2, self.more, hidden=3) == ([[0], []], 3)
        assert fit([34, 30, 30], 76, 1, self.more, hidden=3) == ([[0, 1]], 4)
        assert fit([100], 40, 1, self.more, hidden=3) == ([[0]], 3)  # wider than the line: cut by the widget
        assert fit([], 40, 2, self.more) == ([], 0)


class TestTheLine:
    def test_re_indented_keeps_every_key_in_its_order_and_the_exact_bytes_as_written(self, log):
        session = session_of(log)
        pretty = record_line(session, 0)
        assert pretty.pretty and (pretty.file, pretty.line, pretty.offset, pretty.size) == (str(log), 1, 0, len(FIRST))
        assert pretty.note is None and pretty.cut == 0
        assert '\n    "k": 1,\n    "k": 2\n' in pretty.text  # the repeated key kept, twice
        keys = [text.split('"')[1] for text in pretty.text.splitlines() if text.startswith('  "')]
        assert keys == ["raw", "request", "id", "model", "metadata", "note", "attempt", "flags", "extra"]
        assert "".join(pretty.text.split()) == "".join(FIRST.decode().split())  # the same tokens
        exact = record_line(session, 0, pretty=False)
        assert not exact.pretty and exact.text.encode() == FIRST
        with log.open("ab") as grown:  # appended to since it was counted
            grown.write(line(b'"id": "r-3"') + b"\n")
        with pytest.raises(LogChanged, match="bytes now"):
            record_line(session, 1)

    def test_bytes_that_are_not_utf8_and_control_characters_stay_as_they_are(self):
        data = b'{"raw": "\xff\xfe", "id": "a\\u001b", "esc": "' + ESC.encode() + b'"}'
        shown = log_line("app.jsonl", 1, 0, data, pretty=False)
        assert shown.raw_bytes and shown.text.encode("utf-8", "surrogateescape") == data  # shown as \xNN
        assert "\\u001b" in shown.text and ESC in shown.text  # the escape as written; the character, escaped by safe
        pretty = log_line("app.jsonl", 1, 0, data)
        assert pretty.pretty and pretty.raw_bytes and '"raw": "\udcff\udcfe"' in pretty.text

    def test_a_huge_line_is_cut_at_a_character_and_says_how_much(self):
        data = b'{"raw": "' + "é".encode() * (2 * 1024 * 1024) + b'"}'  # 4 MiB
        shown = log_line("app.jsonl", 7, 0, data)
        assert shown.shown == LINE_BYTES - 1  # 9 bytes, then é's of 2: never half of one
        assert not shown.raw_bytes and len(shown.text) <= LINE_BYTES
        assert shown.note == f"the first {shown.shown:,} bytes of {len(data):,} shown ({len(data) - shown.shown:,} cut)"

    def test_deep_nesting_is_bounded_in_characters_too(self):
        data = b"[" * 60_000 + b"]" * 60_000
        shown = log_line("app.jsonl", 1, 0, data)
        assert shown.pretty and len(shown.text) <= LINE_CHARS and shown.shown < LINE_BYTES
        assert shown.note.startswith(f"the first {shown.shown:,} bytes of 120,000 shown")


class TestBadLineStarts:
    def test_each_start_read_bounded_as_its_row_is_drawn(self, log, monkeypatch):
        snapshot, run = counted(log)
        reads = []
        real = os.pread

        def pread(fd, size, offset):
            reads.append(size)
            return real(fd, size, offset)

        monkeypatch.setattr(os, "pread", pread)
        starts = bad_line_starts(snapshot, run, LineReader())
        assert [line for _, line, _ in snapshot.bad] == [2, 3, 4, 6]
        assert reads == []  # nothing read before a row asks
        long, hostile, empty, repeated = (starts[row] for row in range(4))
        assert long.text == "{" + "a" * (START_BYTES - 1) and long.cut and long.problem is None
        assert hostile.text == ESC + "[2J\udcff not json" and not hostile.cut  # escaped by the table: \u001b, \xff
        assert (empty.text, empty.cut) == ("", False)
        assert repeated.text == '{"raw": 1, "raw": 2}'
        assert reads and max(reads) == START_BYTES + 1  # never the whole 10,000-byte line
        before = len(reads)
        assert starts[0] is long and len(reads) == before  # a row drawn again reads nothing again

    def test_a_gz_log_gives_the_same_starts_and_a_changed_log_is_said(self, log, tmp_path):
        packed = tmp_path / "app.jsonl.gz"
        packed.write_bytes(gzip.compress(log.read_bytes()))
        snapshot, run = counted(log)
        plain = bad_line_starts(snapshot, run, LineReader())
        starts = bad_line_starts(*counted(packed), LineReader())
        assert [starts[row] for row in range(4)] == [plain[row] for row in range(4)]
        assert starts[0].cut and len(starts[0].text) == START_BYTES
        log.write_bytes(b"")  # rotated away since it was counted
        changed = bad_line_starts(snapshot, run, LineReader())[0]
        assert changed.text == "" and changed.problem.startswith("not read: the log changed since it was counted")
