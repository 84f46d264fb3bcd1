"""A ``.gz`` log that breaks off (truncated, corrupt, a bad CRC, garbage after
its end, several members) counts every line a byte-by-byte decompression (what
``zcat`` writes) recovers before the break, and says where it broke; rereading a
``.gz`` at an offset starts from a restart point (``gz.SeekIndex``, bounded);
standard input that cannot be read is refused before anything is counted."""

from __future__ import annotations

import gzip
import io
import itertools
import os
import zlib
from collections import Counter

import pytest

from inspector.suites.load import load_registry
from inspector.triage import LogError, Options, triage
from inspector.triage import gz as gz_module
from inspector.triage import logs as logs_module
from inspector.triage.drill import LineReader
from inspector.triage.gz import GzipLines, Inflater, SeekIndex
from inspector.triage.logs import check_stdin, read_line_at
from inspector.triage.synth import write_log, write_registry

LINES = 600


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gz")
    registry = load_registry(write_registry(folder / "registry.json"))
    write_log(folder / "app.jsonl", LINES, seed=3)
    data = (folder / "app.jsonl").read_bytes()
    return folder, registry, data


def recovered(packed: bytes) -> bytes:
    """What a byte-by-byte decompression writes before a break, member after
    member: the reference a count must reach (``zcat`` writes the same)."""
    out = []
    while packed[:2] == b"\x1f\x8b":
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        try:
            for at in range(len(packed)):
                out.append(inflater.decompress(packed[at:at + 1]))
                if inflater.eof:
                    break
        except zlib.error:
            break
        if not inflater.eof:
            break
        packed = packed[at + 1:]
    return b"".join(out)


def corrupted(data: bytes, at: int) -> bytes:
    """``data`` gzipped, its deflate stream flushed to a byte boundary after the
    first ``at`` bytes, and the next block's header made invalid there (a
    reserved block type): zlib finds corrupt data in the middle of the file."""
    packer = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    head = packer.compress(data[:at]) + packer.flush(zlib.Z_FULL_FLUSH)
    tail = packer.compress(data[at:]) + packer.flush()
    return head + bytes([tail[0] | 0b110]) + tail[1:]


def complete_lines(data: bytes) -> int:
    return data.count(b"\n")


def counts(tally):
    return tally.lines, tally.records, [line for _, line, _ in tally.bad], Counter(tally.verdicts)


def count_of(path, registry, **engine):
    return triage([str(path)], registry, Options(index=True), workers=1, **engine)


def plain_prefix(folder, data: bytes, lines: int, name: str):
    """The first ``lines`` lines of the log as a plain file: what the broken one's counts must equal."""
    prefix = folder / name
    prefix.write_bytes(b"".join(data.splitlines(keepends=True)[:lines]))
    return prefix


class TestBrokenGz:
    @pytest.mark.parametrize("share", [0.13, 0.5, 0.87])
    def test_a_truncated_gz_counts_every_line_before_the_cut(self, made, tmp_path, share):
        _, registry, data = made
        packed = gzip.compress(data)
        cut = packed[:int(len(packed) * share)]
        log = tmp_path / "cut.jsonl.gz"
        log.write_bytes(cut)
        readable = complete_lines(recovered(cut))
        assert 0 < readable < LINES
        tally = count_of(log, registry)
        [(file, after, problem)] = tally.broken
        assert (file, after) == (str(log), readable) and "truncated" in problem
        assert "cut off" in problem  # the bytes of the line the cut went through are not a line
        plain = count_of(plain_prefix(tmp_path, data, readable, "prefix.jsonl"), registry)
        assert counts(tally) == counts(plain)
        assert list(tally.index.offset) == list(plain.index.offset)

    def test_in_small_chunks_on_two_workers_too(self, made, tmp_path, monkeypatch):
        _, registry, data = made
        packed = gzip.compress(data)
        log = tmp_path / "cut.jsonl.gz"
        log.write_bytes(packed[:len(packed) * 2 // 3])
        readable = complete_lines(recovered(log.read_bytes()))
        monkeypatch.setattr(logs_module, "CHUNK_BYTES", 8192)
        tally = triage([str(log)], registry, workers=2, parallel_min_bytes=0)
        assert tally.lines == readable and tally.broken[0][1] == readable

    def test_a_bad_crc_keeps_every_line_and_says_so(self, made, tmp_path):
        _, registry, data = made
        packed = bytearray(gzip.compress(data))
        packed[-8] ^= 0xFF  # the CRC-32 in the trailer
        log = tmp_path / "crc.jsonl.gz"
        log.write_bytes(packed)
        tally = count_of(log, registry)
        assert tally.lines == LINES == complete_lines(recovered(bytes(packed)))
        [(_, after, problem)] = tally.broken
        assert after == LINES and "CRC check failed" in problem

    def test_trailing_garbage_is_ignored_as_gzip_does_and_reported(self, made, tmp_path):
        folder, registry, data = made
        log = tmp_path / "garbage.jsonl.gz"
        log.write_bytes(gzip.compress(data) + b"not gzip at all\n")
        tally = count_of(log, registry)
        assert counts(tally) == counts(count_of(folder / "app.jsonl", registry))
        [(_, after, problem)] = tally.broken
        assert after == LINES and "16 byte(s) of trailing garbage" in problem

    def test_corrupt_data_keeps_what_zcat_keeps(self, made, tmp_path):
        _, registry, data = made
        packed = corrupted(data, len(data) // 2)
        log = tmp_path / "corrupt.jsonl.gz"
        log.write_bytes(packed)
        readable = complete_lines(recovered(packed))
        assert readable == complete_lines(data[:len(data) // 2])
        tally = count_of(log, registry)
        [(_, after, problem)] = tally.broken
        assert tally.lines == after == readable
        assert "corrupt compressed data" in problem and "invalid block type" in problem

    def test_several_members_are_read_one_after_the_other(self, made, tmp_path):
        folder, registry, data = made
        lines = data.splitlines(keepends=True)
        first, second = gzip.compress(b"".join(lines[:250])), gzip.compress(b"".join(lines[250:]))
        whole = tmp_path / "members.jsonl.gz"
        whole.write_bytes(first + second)
        tally = count_of(whole, registry)
        assert counts(tally) == counts(count_of(folder / "app.jsonl", registry)) and tally.broken == []
        cut = tmp_path / "members-cut.jsonl.gz"
        cut.write_bytes(first + second[:len(second) // 2])
        readable = complete_lines(recovered(cut.read_bytes()))
        assert 250 < readable < LINES
        tally = count_of(cut, registry)
        assert tally.lines == tally.broken[0][1] == readable and "member 2" in tally.broken[0][2]

    def test_a_gz_with_a_name_and_comment_in_its_header(self, made, tmp_path):
        _, registry, data = made
        log = tmp_path / "named.jsonl.gz"
        with open(log, "wb") as out, gzip.GzipFile("app.jsonl", "wb", fileobj=out) as packed:
            packed.write(data)
        assert count_of(log, registry).lines == LINES

    def test_the_next_log_is_counted_after_a_break(self, made, tmp_path):
        folder, registry, data = made
        log = tmp_path / "cut.jsonl.gz"
        log.write_bytes(gzip.compress(data)[:5000])
        tally = triage([str(log), str(folder / "app.jsonl")], registry, workers=1)
        assert tally.lines == complete_lines(recovered(log.read_bytes())) + LINES
        assert [file for file, _, _ in tally.broken] == [str(log)]

    def test_a_record_before_the_break_is_reread_one_past_it_is_not(self, made, tmp_path):
        _, registry, data = made
        log = tmp_path / "cut.jsonl.gz"
        log.write_bytes(gzip.compress(data)[:len(gzip.compress(data)) // 2])
        tally = count_of(log, registry)
        last = len(tally.index) - 1
        _, line, offset, _ = tally.index.entry(last)
        assert read_line_at(str(log), offset) == data.splitlines()[line - 1]
        with pytest.raises(LogError, match="truncated"):
            read_line_at(str(log), len(recovered(log.read_bytes())) + 10)


class TestSeekIndex:
    def test_rereading_backward_starts_from_a_restart_point(self, made, tmp_path, monkeypatch):
        folder, registry, data = made
        log = tmp_path / "app.jsonl.gz"
        log.write_bytes(gzip.compress(data))
        tally = count_of(folder / "app.jsonl", registry)
        spacing = 16 * 1024
        monkeypatch.setattr(SeekIndex, "SPACING", spacing)
        monkeypatch.setattr(gz_module, "PIECE_BYTES", 2048)  # points are offered between pieces
        starts = []

        class Recording(Inflater):
            def __init__(self, fd, start=None, index=None):
                starts.append(start.out if start is not None else 0)
                super().__init__(fd, start, index)

        monkeypatch.setattr(gz_module, "Inflater", Recording)
        reader = LineReader()
        try:
            offsets = list(tally.index.offset)
            lines = data.splitlines()
            last = len(offsets) - 1
            assert reader.line_at(str(log), offsets[last]) == lines[last]  # forward: points all the way
            assert starts == [0] and len(reader.indexes[str(log)]) >= len(data) // spacing - 1
            for number in range(last - 1, 0, -97):  # paging backward, as k does
                assert reader.line_at(str(log), offsets[number]) == lines[number]
                assert 0 <= offsets[number] - starts[-1] < spacing + 2048  # at most an interval (and a piece)
        finally:
            reader.close()

    def test_the_count_keeps_the_points_a_drill_down_reads_from(self, made, tmp_path, monkeypatch):
        _, registry, data = made
        log = tmp_path / "app.jsonl.gz"
        log.write_bytes(gzip.compress(data))
        monkeypatch.setattr(SeekIndex, "SPACING", 16 * 1024)
        monkeypatch.setattr(gz_module, "PIECE_BYTES", 2048)
        reader = LineReader()
        try:
            tally = triage([str(log)], registry, Options(index=True), workers=1, indexes=reader.indexes)
            assert len(reader.indexes[str(log)]) >= len(data) // (16 * 1024) - 1
            _, line, offset, _ = tally.index.entry(len(tally.index) // 2)
            assert reader.line_at(str(log), offset) == data.splitlines()[line - 1]
            log.write_bytes(gzip.compress(data[:1000]))  # another file: its old points are dropped
            with pytest.raises(LogError):
                reader.close()
                reader.line_at(str(log), offset)
            assert len(reader.indexes[str(log)]) == 0
        finally:
            reader.close()

    def test_the_index_is_bounded_and_its_spacing_grows(self, made, tmp_path, monkeypatch):
        data = made[2]
        log = tmp_path / "app.jsonl.gz"
        log.write_bytes(gzip.compress(data * 4))
        monkeypatch.setattr(gz_module, "PIECE_BYTES", 2048)
        index = SeekIndex(spacing=8 * 1024, limit=6)
        fd = os.open(log, os.O_RDONLY)
        try:
            inflater = Inflater(fd, index=index)
            while inflater.read(4096):
                assert len(index) <= 6
            assert index.spacing > 8 * 1024 and len(index) >= 3
            outs = [point.out for point in index.points]
            assert outs == sorted(outs) and all(b - a >= index.spacing // 2 for a, b in itertools.pairwise(outs))
            lines = GzipLines(fd, index)
            for point in index.points:  # each point reads on exactly as from the start
                assert lines.line_at(point.out, 1 << 20) == (data * 4)[point.out:].split(b"\n")[0] + b"\n"
        finally:
            os.close(fd)


class TestStandardInput:
    def test_write_only_or_a_directory_is_refused_before_counting(self, tmp_path):
        registry = load_registry(write_registry(tmp_path / "registry.json"))
        with open(tmp_path / "out", "wb") as written, pytest.raises(LogError, match="open for writing only"):
            triage(["-"], registry, stdin=written)
        fd = os.open(tmp_path, os.O_RDONLY)

        class Directory(io.RawIOBase):
            def fileno(self):
                return fd

        try:
            with pytest.raises(LogError, match="a directory"):
                check_stdin(Directory())
        finally:
            os.close(fd)
        with pytest.raises(LogError, match="closed"):
            check_stdin(None)

    def test_a_read_error_midway_is_a_break_after_the_lines_read(self, made):
        _, registry, data = made

        class Failing(io.RawIOBase):
            def __init__(self):
                self.calls = 0

            def read(self, size=-1):
                self.calls += 1
                if self.calls > 1:
                    raise OSError(5, "Input/output error")
                return data[:10_000]

        tally = triage(["-"], registry, stdin=Failing())
        readable = complete_lines(data[:10_000])
        assert tally.lines == readable
        cut = 10_000 - len(b"".join(data.splitlines(keepends=True)[:readable]))
        problem = f"cannot read further: Input/output error; the {cut:,} byte(s) of a line cut off after it are " \
            "not counted"
        assert tally.broken == [("-", readable, problem)]
