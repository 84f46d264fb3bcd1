"""A log that changed since it was counted (issue 17, item 2), headless: the
stamp taken when the counting starts (identity, size, mtime), the reread
record's verdict checked against the index, and the overview's export and
drill-down refusing, nothing written, rather than handing out other records
under the counted labels."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from support import ANSWERS, PAYMENTS_REGISTRY, PAYMENTS_REQUEST
from inspector.presentation.group_export import StaleExport, export_group
from inspector.presentation.overview import Snapshot, count, log_changes, triage_run
from inspector.presentation.record_session import open_group
from inspector.reports.audit import audit
from inspector.suites.load import load_registry, load_suite
from inspector.triage.drill import LineReader
from inspector.triage.members import GroupMembers, Rereader
from inspector.triage.stamp import LogChanged, LogStamp, stamp_logs
from inspector.triage.synth import write_log, write_registry


def counted(log: Path, registry: Path) -> tuple[Snapshot, object]:
    run = triage_run([str(log)], load_registry(registry), str(registry))
    snapshots: list[Snapshot] = []
    count(run, snapshots.append, threading.Event())
    assert snapshots[-1].done and snapshots[-1].failed is None
    return snapshots[-1], run


@pytest.fixture
def synthetic(tmp_path):
    registry = write_registry(tmp_path / "registry.json")
    log = tmp_path / "app.jsonl"
    write_log(log, 200, seed=2)
    snapshot, run = counted(log, registry)
    return tmp_path, log, snapshot, run


def accept_line(**meta) -> bytes:
    return json.dumps({**meta, "raw": (ANSWERS / "accept.json").read_text(),
                       "request": json.loads(PAYMENTS_REQUEST.read_text())}).encode() + b"\n"


def rewrite_in_place_keeping_size_and_mtime(log: Path, old: bytes, new: bytes, line: int) -> None:
    """Line ``line`` (1-based) rewritten in place, same length, the file's mtime put back: only the bytes differ."""
    assert len(old) == len(new)
    before = os.stat(log)
    lines = log.read_bytes().split(b"\n")
    assert old in lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    with open(log, "r+b") as out:
        out.write(b"\n".join(lines))
    os.utime(log, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(log)
    assert (after.st_ino, after.st_size, after.st_mtime_ns) == (before.st_ino, before.st_size, before.st_mtime_ns)


class TestStamp:
    def test_a_log_is_what_was_stamped_until_it_is_written_replaced_resized_or_removed(self, tmp_path):
        log = tmp_path / "app.jsonl"
        log.write_bytes(accept_line() * 3)
        stamp = LogStamp.of(str(log))
        assert stamp.difference() is None
        stamp.check()
        os.utime(log, ns=(stamp.mtime_ns, stamp.mtime_ns + 1))
        assert "modification time" in stamp.difference()
        os.utime(log, ns=(stamp.mtime_ns, stamp.mtime_ns))
        assert stamp.difference() is None
        with open(log, "ab") as out:  # appended to: not what was counted either
            out.write(accept_line())
        assert stamp.difference().endswith(f"bytes now, {stamp.size:,} when counted")
        replacement = tmp_path / "new.jsonl"
        replacement.write_bytes(accept_line() * 3)
        os.replace(replacement, log)  # rotated: the same name, another file, the same size
        assert stamp.difference() == "it is another file now: replaced or rotated"
        log.unlink()
        assert stamp.difference().startswith("it cannot be found again")
        with pytest.raises(LogChanged) as raised:
            stamp.check()
        assert str(raised.value).startswith(f"{log}: the log changed since it was counted (it cannot be found again")

    def test_standard_input_is_not_stamped(self, tmp_path):
        log = tmp_path / "app.jsonl"
        log.write_bytes(accept_line())
        assert list(stamp_logs(["-", str(log), str(log)])) == [str(log)]

    def test_the_count_stamps_each_log_and_says_when_it_changed_while_counted(self, tmp_path):
        registry = write_registry(tmp_path / "registry.json")
        log = tmp_path / "app.jsonl"
        write_log(log, 50, seed=1)
        run = triage_run([str(log)], load_registry(registry), str(registry))
        stamp = LogStamp.of(str(log))
        snapshots: list[Snapshot] = []

        def report(snapshot: Snapshot) -> None:
            snapshots.append(snapshot)
            if not snapshot.done:  # the engine's last progress: the log grows under the count
                with open(log, "ab") as out:
                    out.write(b"\n")

        count(run, report, threading.Event())
        assert snapshots[-1].stamps == {str(log): stamp}
        assert [change.path for change in snapshots[-1].changed] == [str(log)]
        assert snapshots[-1].changed[0].what.endswith("when counted")

        quiet, _ = counted(log, registry)
        assert quiet.changed == () and log_changes(quiet) == []


class TestExportOfAChangedLog:
    """Before: 1 case written of 72 ACCEPT records, with the wrong label (audit fails); 0 cases after a shift."""

    def test_the_same_file_rewritten_is_refused_and_nothing_written(self, synthetic):
        folder, log, snapshot, run = synthetic
        group = snapshot.summary.group("ACCEPT")
        write_log(log, 200, seed=3)
        out = folder / "accept.json"
        with pytest.raises(StaleExport) as raised:
            export_group(group, snapshot, run, LineReader(), out)
        message = str(raised.value)
        assert message.startswith(f"{log}: the log changed since it was counted (")
        assert message.endswith("count it again; nothing was written")
        assert not out.exists()

    def test_a_rewrite_that_shifts_the_lines_is_refused(self, synthetic):
        folder, log, snapshot, run = synthetic
        log.write_bytes(b"\n" * 7 + log.read_bytes())
        out = folder / "accept.json"
        with pytest.raises(StaleExport):
            export_group(snapshot.summary.group("ACCEPT"), snapshot, run, LineReader(), out)
        assert not out.exists()

    def test_a_record_whose_verdict_is_not_the_one_counted_is_refused_though_the_file_looks_the_same(self, tmp_path):
        log = tmp_path / "app.jsonl"
        log.write_bytes(b"".join(accept_line(id=f"r{n}") for n in range(5)))
        snapshot, run = counted(log, PAYMENTS_REGISTRY)
        group = snapshot.summary.group("ACCEPT")
        assert group.records == 5
        rewrite_in_place_keeping_size_and_mtime(log, b'\\"5000\\"', b'\\"4000\\"', line=3)
        out = tmp_path / "accept.json"
        with pytest.raises(StaleExport) as raised:
            export_group(group, snapshot, run, LineReader(), out)
        assert "line 3 is VALUE_MISMATCH now, ACCEPT when counted" in str(raised.value)
        assert not out.exists()
        # The records before it are what was counted: an export of those two is written, and audits.
        assert export_group(group, snapshot, run, LineReader(), out, limit=2) == 2
        assert audit([load_suite(out)]).mismatches == ()

    def test_an_unchanged_log_exports_as_before(self, synthetic):
        folder, _, snapshot, run = synthetic
        out = folder / "accept.json"
        written = export_group(snapshot.summary.group("ACCEPT"), snapshot, run, LineReader(), out)
        assert written == snapshot.summary.group("ACCEPT").records
        assert audit([load_suite(out)]).mismatches == ()


class TestRecordsOfAChangedLog:
    def test_a_group_is_not_opened_once_its_log_changed(self, synthetic):
        _, log, snapshot, run = synthetic
        write_log(log, 200, seed=3)
        with pytest.raises(LogChanged):
            open_group(snapshot.summary.group("ACCEPT"), snapshot, run, LineReader())

    def test_a_record_reread_after_the_change_is_a_broken_case_saying_so(self, synthetic):
        _, log, snapshot, run = synthetic
        session = open_group(snapshot.summary.group("ACCEPT"), snapshot, run, LineReader())
        first = session.cases[0]
        assert first.expected == "ACCEPT"
        write_log(log, 200, seed=3)
        assert session.cases[0] is first  # read before the change: as it was read
        broken = session.cases[1]
        assert "the log changed since it was counted" in broken.problem and "count it again" in broken.problem
        assert [str(change.path) for change in session.log_changes()] == [str(log)]

    def test_the_verdict_of_each_reread_record_is_checked(self, tmp_path):
        log = tmp_path / "app.jsonl"
        log.write_bytes(b"".join(accept_line(id=f"r{n}") for n in range(3)))
        snapshot, run = counted(log, PAYMENTS_REGISTRY)
        index = snapshot.summary.tally.index
        rewrite_in_place_keeping_size_and_mtime(log, b'\\"5000\\"', b'\\"4000\\"', line=2)
        members = GroupMembers(snapshot.summary.group("ACCEPT"), index, snapshot.indexed,
                               registry=run.registry, stamps=snapshot.stamps)
        assert members.record(0).problem is None
        assert members.record(1).problem == \
            "the log changed since it was counted (line 2 is VALUE_MISMATCH now, ACCEPT when counted); count it again"
        # Without what to check against (a caller of its own), the line is reread as it is.
        unchecked = GroupMembers(snapshot.summary.group("ACCEPT"), index, snapshot.indexed)
        assert unchecked.record(1).problem is None
        with pytest.raises(LogChanged):
            Rereader(LineReader(), run.registry, snapshot.stamps).reread(*index.entry(1))

    def test_a_record_shown_is_verified_once_the_reread_s_verdict_is_its_report_s(self, synthetic, monkeypatch):
        from inspector.reports.case import CaseReport

        _, _, snapshot, run = synthetic
        session = open_group(snapshot.summary.group("ACCEPT"), snapshot, run, LineReader())

        def again(*args, **kwargs):
            raise AssertionError("verified a second time")

        monkeypatch.setattr(CaseReport, "of", again)
        reports = [session.report(number) for number in range(3)]
        assert [report.actual for report in reports] == ["ACCEPT"] * 3 and session.cases.take_verdict(0) is None
