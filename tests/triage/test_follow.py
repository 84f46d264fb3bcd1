"""Following a log as it grows (issue 18): ``triage.follow``'s ``Follower`` driven
poll by poll on small logs the tests append to, rename and truncate, and
``follow()`` run to its end; the stamps of a followed log."""

from __future__ import annotations

import gzip
import io
import os
import threading
from pathlib import Path

import pytest

from inspector.suites.load import load_registry
from inspector.triage import follow as following
from inspector.triage.drill import LineReader
from inspector.triage.follow import Counts, Follower, follow, follow_document
from inspector.triage.logs import LogError
from inspector.triage.members import Rereader
from inspector.triage.run import triage
from inspector.triage.stamp import LogChanged, LogStamp, changed_logs
from inspector.triage.summary import summarize
from inspector.triage.synth import write_log, write_registry
from inspector.triage.tally import Options, tally_range


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    """A registry and the lines of a synthetic log (its mix: records of every kind, a few bad lines)."""
    folder = tmp_path_factory.mktemp("follow")
    registry = write_registry(folder / "registry.json")
    write_log(folder / "source.jsonl", 240, seed=5)
    return load_registry(registry), (folder / "source.jsonl").read_bytes().splitlines(keepends=True)


def append(path: Path, *parts: bytes) -> None:
    with open(path, "ab") as out:
        out.write(b"".join(parts))


def one_pass(path: Path, registry, options: Options):
    return tally_range(str(path), 0, path.stat().st_size, registry, options)


def entries(tally) -> list[tuple[str, int, int, str]]:
    return [tally.index.entry(number) for number in range(len(tally.index))]


def test_appended_lines_are_counted_and_a_partial_line_waits_for_its_newline(tmp_path, source):
    registry, lines = source
    log = tmp_path / "app.jsonl"
    log.write_bytes(b"".join(lines[:50]) + lines[50][:17])
    follower = Follower([str(log)], registry, Options(by=("model",), index=True))
    follower.poll()
    assert follower.tally.lines == 50 and follower.states()[0].waiting == 17
    follower.poll()  # nothing new: nothing counted twice
    assert follower.tally.lines == 50
    append(log, lines[50][17:], *lines[51:120])
    follower.poll()
    assert follower.tally.lines == 120 and follower.states()[0].waiting == 0
    # The same counts, index and line numbers as one pass over the whole file.
    assert follower.tally == one_pass(log, registry, Options(by=("model",), index=True))
    assert [line for _, line, _, _ in entries(follower.tally)] == list(range(1, 121))
    follower.close()


def test_the_backlog_is_counted_by_triage_up_to_the_last_newline_then_followed(tmp_path, source):
    registry, lines = source
    log = tmp_path / "app.jsonl"
    log.write_bytes(b"".join(lines[:80]) + lines[80][:40])
    options = Options(index=True)
    follower = Follower([str(log)], registry, options)
    assert follower.backlog == {str(log): len(b"".join(lines[:80]))}
    follower.adopt(triage(list(follower.backlog), registry, options, ends=follower.backlog, workers=1))
    assert follower.tally.lines == 80  # the line still being written is not a line yet
    append(log, lines[80][40:], *lines[81:100])
    follower.poll()
    assert follower.tally == one_pass(log, registry, options)
    follower.close()


def test_several_logs_keep_their_own_line_numbers(tmp_path, source):
    registry, lines = source
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_bytes(b"".join(lines[:30]))
    second.write_bytes(b"".join(lines[30:45]))
    options = Options(index=True)
    follower = Follower([str(first), str(second)], registry, options)
    follower.adopt(triage(list(follower.backlog), registry, options, ends=follower.backlog, workers=1))
    append(second, *lines[45:50])
    append(first, *lines[50:52])
    follower.poll()
    found = [(Path(file).name, line) for file, line, _, _ in entries(follower.tally)]
    assert found == [*(("a.jsonl", n) for n in range(1, 31)), *(("b.jsonl", n) for n in range(1, 16)),
                     ("a.jsonl", 31), ("a.jsonl", 32), *(("b.jsonl", n) for n in range(16, 21))]
    follower.close()


def test_a_rotated_log_is_read_to_its_end_then_the_new_file_from_line_1(tmp_path, source):
    registry, lines = source
    log, old = tmp_path / "app.jsonl", tmp_path / "app.jsonl.1"
    log.write_bytes(b"".join(lines[:40]))
    stamps: dict[str, LogStamp] = {}
    follower = Follower([str(log)], registry, Options(index=True), stamps=stamps)
    follower.poll()
    reader = LineReader()
    rereader = Rereader(reader, registry, stamps)
    file, line, offset, label = follower.tally.index.entry(0)
    assert rereader.reread(file, line, offset, label)[0] == lines[0].rstrip(b"\n")  # the reader opens the old file
    os.rename(log, old)
    append(old, *lines[40:45])  # the writer has not reopened yet
    log.write_bytes(b"".join(lines[100:110]))
    follower.poll()
    event = follower.events[-1]
    assert (event.kind, event.file, event.after_line) == ("rotated", str(log), 45)
    assert "renamed and replaced after line 45" in event.detail
    retired = f"{log} (generation 1, rotated away)"
    assert follower.tally.index.files == [retired, str(log)]
    assert [(file, line) for file, line, _, _ in entries(follower.tally)] == \
        [*((retired, n) for n in range(1, 46)), *((str(log), n) for n in range(1, 11))]
    assert follower.states()[0].generation == 2
    # A record of the generation rotated away says so when reread, and is not read at its offset in the new file.
    with pytest.raises(LogChanged, match="renamed and replaced at .*not read again"):
        rereader.reread(*follower.tally.index.entry(0))
    # One of the new file is read from it (not from the old file the reader had open).
    assert rereader.reread(*follower.tally.index.entry(45))[0] == lines[100].rstrip(b"\n")
    assert changed_logs(stamps) == []  # the rotation is no change of the log as a whole
    reader.close()
    follower.close()


def test_an_old_generation_is_read_on_until_it_stops_growing(tmp_path, source, monkeypatch):
    registry, lines = source
    log, old = tmp_path / "app.jsonl", tmp_path / "app.jsonl.1"
    log.write_bytes(b"".join(lines[:10]))
    clock = [0.0]
    follower = Follower([str(log)], registry, Options(index=True), clock=lambda: clock[0])
    follower.poll()
    os.rename(log, old)
    log.write_bytes(b"")
    follower.poll()
    append(old, *lines[10:14], lines[14][:9])  # written through the old name after the rotation was seen
    clock[0] = 1.0
    follower.poll()
    assert follower.tally.lines == 14
    clock[0] = 1.0 + following.DRAIN_SECONDS
    follower.poll()  # still for DRAIN_SECONDS: its last line, without a newline, is its last
    assert follower.tally.lines == 15 and not follower.logs[0].draining
    append(old, *lines[15:20])
    follower.poll()
    assert follower.tally.lines == 15  # closed: no more of it
    follower.close()


def test_a_truncated_or_rewritten_log_is_counted_again_from_its_start(tmp_path, source):
    registry, lines = source
    log = tmp_path / "app.jsonl"
    log.write_bytes(b"".join(lines[:30]))
    stamps: dict[str, LogStamp] = {}
    follower = Follower([str(log)], registry, Options(index=True), stamps=stamps)
    follower.poll()
    with open(log, "r+b") as out:  # copytruncate: the file kept, emptied, written again
        out.truncate(0)
    append(log, *lines[30:35])
    follower.poll()
    event = follower.events[-1]
    assert (event.kind, event.after_line) == ("truncated", 30) and event.detail.startswith("truncated (")
    assert follower.tally.lines == 35
    assert [line for _, line, _, _ in entries(follower.tally)][-5:] == [1, 2, 3, 4, 5]
    truncated = f"{log} (generation 1, truncated)"
    assert stamps[truncated].gone is not None and stamps[str(log)].size == log.stat().st_size
    # Rewritten under what was counted, longer than before: the byte before the end read is not a newline.
    log.write_bytes(b"x" * (log.stat().st_size + 10))
    follower.poll()
    assert follower.events[-1].kind == "truncated" and "rewritten in place after line 5" in follower.events[-1].detail
    assert follower.states()[0].generation == 3
    follower.close()


def test_a_log_gone_then_made_again_is_said_and_followed(tmp_path, source):
    registry, lines = source
    log = tmp_path / "app.jsonl"
    log.write_bytes(b"".join(lines[:5]))
    follower = Follower([str(log)], registry, Options())
    follower.poll()
    log.unlink()
    follower.poll()
    follower.poll()  # said once
    assert [event.kind for event in follower.events] == ["gone"]
    log.mkdir()  # something there that cannot be followed
    follower.poll()
    log.rmdir()
    log.write_bytes(b"".join(lines[5:8]))
    follower.poll()
    assert [event.kind for event in follower.events] == ["gone", "unreadable", "rotated"]
    assert follower.tally.lines == 8
    follower.close()


def test_a_line_too_long_to_hold_is_one_bad_line_and_the_numbers_stay_right(tmp_path, source, monkeypatch):
    registry, lines = source
    monkeypatch.setattr(following, "MAX_LINE_BYTES", 4096)
    log = tmp_path / "app.jsonl"
    log.write_bytes(lines[0] + b"x" * 3000)
    follower = Follower([str(log)], registry, Options(index=True))
    follower.poll()
    append(log, b"x" * 3000)  # past the bound: skipped, not held
    follower.poll()
    assert follower.states()[0].waiting == 6000 and follower.logs[0].current.carry == b""
    append(log, b"x" * 100 + b"\n", lines[1])
    follower.poll()
    assert follower.tally.lines == 3 and follower.tally.bad[-1][1:] == (2, "too long: 6100 bytes on one line (not read)")
    assert [line for _, line, _, _ in entries(follower.tally)] == [1, 2, 3]
    assert entries(follower.tally)[2][2] == len(lines[0]) + 6101  # its offset
    follower.close()


def test_standard_input_is_counted_as_it_comes_and_its_end_ends_the_follow(source):
    registry, lines = source
    stream = io.BytesIO(b"".join(lines[:20]) + lines[20].rstrip(b"\n"))
    follower = Follower(["-"], registry, Options(), stdin=stream)
    assert follower.backlog == {}
    follower.poll()
    assert follower.ended and follower.tally.lines == 21  # the last line, without a newline, at the end
    assert [event.kind for event in follower.events] == ["ended"] and follower.events[0].after_line == 21


def test_what_cannot_be_followed_is_refused_before_anything_is_counted(tmp_path, source):
    registry, lines = source
    packed = tmp_path / "app.jsonl.gz"
    packed.write_bytes(gzip.compress(b"".join(lines[:3])))
    with pytest.raises(LogError, match="a .gz cannot be followed"):
        Follower([str(packed)], registry)
    with pytest.raises(LogError, match="more than once"):
        Follower(["-", "-"], registry, stdin=io.BytesIO())
    with pytest.raises(LogError):
        Follower([str(tmp_path / "missing.jsonl")], registry)


def test_a_growing_stamp_accepts_growth_and_refuses_another_file_or_a_shorter_one(tmp_path):
    log = tmp_path / "app.jsonl"
    log.write_bytes(b"a\nb\n")
    stamp = LogStamp.of(str(log))
    grown = LogStamp(stamp.path, stamp.device, stamp.inode, stamp.size, stamp.mtime_ns, growing=True)
    append(log, b"c\n")
    assert grown.difference() is None and stamp.difference() is not None
    log.write_bytes(b"a\n")  # the same file, shorter than counted
    assert "shorter than the 4 counted: truncated" in grown.difference()
    os.rename(log, tmp_path / "old")
    log.write_bytes(b"a\nb\nc\n")
    assert grown.difference() == "it is another file now: replaced or rotated"


def test_follow_reports_as_lines_come_and_stops_when_cancelled(tmp_path, source):
    registry, lines = source
    log = tmp_path / "app.jsonl"
    log.write_bytes(b"".join(lines[:25]))
    cancel = threading.Event()
    seen: list = []

    def progress(state) -> None:
        seen.append(state)
        if state.caught_up and state.lines == 25 and len(seen) < 50:
            append(log, *lines[25:40])  # while following: counted at the next poll
        if state.lines == 40:
            cancel.set()

    tally = follow([str(log)], registry, Options(index=True), on_progress=progress, cancel=cancel,
                   poll_seconds=0.01, workers=1)
    assert not seen[0].caught_up and seen[0].lines == 25  # the backlog first, by triage
    assert seen[-1].done and tally.lines == 40 and tally == one_pass(log, registry, Options(index=True))
    now, before = Counts.of(tally), Counts.of(one_pass(tmp_path / "app.jsonl", registry, Options()))
    assert now == before
    document = follow_document(seen[-1], now, Counts(), 1.5, seen[-1].events, 0.0, final=True)
    assert document["schema"] == "inspector.triage.follow/1" and document["final"] is True
    assert document["interval"]["lines"] == 40 and sum(document["total"]["by_label"].values()) == tally.records
    assert document["logs"] == [{"file": str(log), "generation": 1, "lines": 40, "waiting_bytes": 0,
                                 "ended": False}]


def test_summary_of_a_followed_log_moves(tmp_path, source):
    registry, lines = source
    log = tmp_path / "app.jsonl"
    log.write_bytes(b"".join(lines[:60]))
    follower = Follower([str(log)], registry, Options(index=True))
    follower.poll()
    before = summarize(follower.tally)
    append(log, *lines[60:200])
    follower.poll()
    after = summarize(follower.tally)
    assert after.records > before.records
    assert sum(bar.records for bar in after.histogram.bars) > sum(bar.records for bar in before.histogram.bars)
    follower.close()


def test_a_log_truncated_again_and_again_keeps_few_names(tmp_path, source, monkeypatch):
    registry, lines = source
    monkeypatch.setattr(following, "NAMED_GENERATIONS", 2)
    log = tmp_path / "app.jsonl"
    log.write_bytes(lines[0])
    stamps: dict[str, LogStamp] = {}
    follower = Follower([str(log)], registry, Options(index=True), stamps=stamps)
    follower.poll()
    for number in range(1, 6):  # five truncations: generations 2 to 6
        log.write_bytes(b"")
        follower.poll()
        log.write_bytes(lines[number])
        follower.poll()
    shared = f"{log} (a generation past the first 2, ended)"
    index = follower.tally.index
    assert index.files == [f"{log} (generation 1, truncated)", f"{log} (generation 2, truncated)", shared, str(log)]
    assert [file for file, _, _, _ in entries(follower.tally)] == \
        [index.files[0], index.files[1], shared, shared, shared, str(log)]
    assert "more than 2 times while followed" in stamps[shared].gone
    rereader = Rereader(LineReader(), registry, stamps)
    with pytest.raises(LogChanged):
        rereader.reread(*index.entry(3))
    assert rereader.reread(*index.entry(5))[0] == lines[5].rstrip(b"\n")
    follower.close()


def test_a_follow_stopped_while_the_lines_there_are_read_says_what_was_read(tmp_path, source):
    """Stopped while the lines already in the logs are counted: the final object says the existing lines were
    not all read (not ``caught_up``), how many bytes of them and lines were, and each log's lines counted."""
    registry, lines = source
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_bytes(b"".join(lines * 4))  # about 0.5 MB each: read in 32 KiB tasks, stopped after the first
    second.write_bytes(b"".join(lines * 4))
    existing = first.stat().st_size + second.stat().st_size
    cancel = threading.Event()
    seen: list = []

    def progress(state) -> None:
        seen.append(state)
        if state.lines:
            cancel.set()

    tally = follow([str(first), str(second)], registry, Options(), on_progress=progress, cancel=cancel,
                   poll_seconds=0.01, workers=1, task_bytes=32 * 1024, progress_every=0.0)
    final = seen[-1]
    assert final.done and 0 < tally.lines < len(lines) * 4
    document = follow_document(final, Counts.of(tally), Counts(), 0.1, final.events, 0.0, final=True)
    # before: "caught_up": true, and each log 0 lines counted
    assert document["caught_up"] is False
    read = document["existing"]
    assert read["all_read"] is False and read["lines_read"] == tally.lines == document["total"]["lines"]
    assert read["bytes"] == existing and 0 < read["bytes_read"] < first.stat().st_size
    assert [(log["file"], log["lines"]) for log in document["logs"]] == [(str(first), tally.lines), (str(second), 0)]


def test_a_follow_that_read_the_lines_there_says_so(tmp_path, source):
    registry, lines = source
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_bytes(b"".join(lines[:30]))
    second.write_bytes(b"".join(lines[30:50]))
    cancel = threading.Event()
    seen: list = []

    def progress(state) -> None:
        seen.append(state)
        if state.caught_up:
            cancel.set()

    tally = follow([str(first), str(second)], registry, Options(), on_progress=progress, cancel=cancel,
                   poll_seconds=0.01, workers=1)
    document = follow_document(seen[-1], Counts.of(tally), Counts(), 0.1, (), 0.0, final=True)
    assert document["caught_up"] is True and tally.lines == 50
    assert document["existing"] == {"bytes": first.stat().st_size + second.stat().st_size,
                                    "bytes_read": first.stat().st_size + second.stat().st_size,
                                    "lines_read": 50, "all_read": True}
    assert [log["lines"] for log in document["logs"]] == [30, 20]
