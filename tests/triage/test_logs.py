"""Reading logs (inspector.triage.logs), as the counting relies on it: which
files LOG arguments name (globs, directories, a format's suffixes); byte ranges
that start at a line's start and cover every line once; chunks of complete
lines from plain files, ``.gz`` files and standard input, a stream that breaks
off raising ``StreamBroke`` after its good lines; one line reread at its offset."""

from __future__ import annotations

import gzip
import io
import os

import pytest

from inspector.triage import logs as logs_module
from inspector.triage.logs import (
    LogError,
    StreamBroke,
    count_lines,
    expand_logs,
    line_ranges,
    range_chunks,
    read_line_at,
    stream_chunks,
)

LINES = [b'{"n": %d, "pad": "%s"}' % (number, b"x" * (number % 37)) for number in range(300)]
DATA = b"\n".join(LINES) + b"\n"


def lines_of(chunks) -> list[bytes]:
    """The lines the chunks hand out, in order (a skipped line as None)."""
    found: list[bytes | None] = []
    for _, data, _ in chunks:
        found += [None] if data is None else data.splitlines()
    return found


@pytest.fixture
def plain(tmp_path):
    path = tmp_path / "app.jsonl"
    path.write_bytes(DATA)
    return str(path)


@pytest.fixture
def packed(tmp_path):
    path = tmp_path / "app.jsonl.gz"
    path.write_bytes(gzip.compress(DATA))
    return str(path)


class TestLogArguments:
    def test_globs_and_directories_sorted(self, tmp_path):
        for name in ("b.jsonl", "a.jsonl.gz", "c.ndjson", "d.ndjson.gz", "e.txt", ".hidden.jsonl"):
            (tmp_path / name).write_text("")
        (tmp_path / "sub.jsonl").mkdir()
        folder = str(tmp_path)
        assert expand_logs([folder]) == [os.path.join(folder, name) for name in
                                         ("a.jsonl.gz", "b.jsonl", "c.ndjson", "d.ndjson.gz")]
        assert expand_logs([f"{folder}/*.jsonl*", "-", f"{folder}/b.jsonl"]) == \
            [f"{folder}/a.jsonl.gz", f"{folder}/b.jsonl", "-"]  # a log named twice is read once
        (tmp_path / "odd[1].jsonl").write_text("")
        assert expand_logs([f"{folder}/odd[1].jsonl"]) == [f"{folder}/odd[1].jsonl"]  # a name that exists

    def test_an_unmatched_glob_or_an_empty_directory_is_an_error(self, tmp_path):
        (tmp_path / "notes.txt").write_text("")
        with pytest.raises(LogError, match=r"\*\.jsonl: no file matches this pattern"):
            expand_logs([str(tmp_path / "*.jsonl")])
        with pytest.raises(LogError, match=r"the directory holds no log \(\*\.jsonl, \*\.jsonl\.gz"):
            expand_logs([str(tmp_path)])

    def test_a_formats_suffixes_replace_the_default_ones(self, tmp_path):
        for name in ("run.json", "run.jsonl", "run.eval"):
            (tmp_path / name).write_text("")
        folder = str(tmp_path)
        assert expand_logs([folder], (".json", ".eval")) == [f"{folder}/run.eval", f"{folder}/run.json"]
        with pytest.raises(LogError, match=r"holds no log \(\*\.parquet\)"):
            expand_logs([folder], (".parquet",))

    def test_standard_input_twice_is_kept_twice_a_file_once(self, plain):
        assert expand_logs(["-", plain, "-", plain]) == ["-", plain, "-"]


class TestRanges:
    @pytest.mark.parametrize("parts", [1, 2, 3, 7, 64])
    def test_each_range_starts_a_line_and_together_they_cover_the_file(self, plain, parts):
        ranges = line_ranges(plain, parts)
        starts = {0, *(at + 1 for at, byte in enumerate(DATA) if byte == ord("\n"))}
        assert ranges[0][0] == 0 and ranges[-1][1] == len(DATA)
        assert all(end == start for (_, end), (start, _) in zip(ranges, ranges[1:]))
        assert all(start in starts for start, _ in ranges)
        assert 1 <= len(ranges) <= parts

    def test_a_small_file_is_fewer_ranges_and_an_empty_one_is_one_empty_range(self, tmp_path):
        one = tmp_path / "one.jsonl"
        one.write_bytes(b'{"a": 1}\n')
        assert line_ranges(str(one), 8) == [(0, 9)]
        empty = tmp_path / "empty.jsonl"
        empty.write_bytes(b"")
        assert line_ranges(str(empty), 4) == [(0, 0)]

    def test_an_end_stops_the_ranges_there(self, plain):
        end = DATA.index(b"\n", len(DATA) // 2) + 1  # a followed log: up to a newline
        ranges = line_ranges(plain, 3, end)
        assert ranges[-1][1] == end and ranges[0][0] == 0

    @pytest.mark.parametrize("cuts", [[0], [1, 500, 1501], [17, 18, 19, 2000], [len(DATA) - 1]])
    def test_any_cut_reads_every_line_exactly_once(self, plain, cuts):
        bounds = [0, *cuts, len(DATA)]
        found = [line for start, end in zip(bounds, bounds[1:]) for line in lines_of(range_chunks(plain, start, end))]
        assert found == LINES

    def test_line_numbers_are_the_newlines_before(self, plain):
        at = DATA.index(LINES[120])
        assert count_lines(plain, at) == 120
        assert count_lines(plain, at, DATA.index(LINES[100])) == 20

    def test_a_line_too_long_to_hold_is_handed_out_as_its_length_alone(self, tmp_path, monkeypatch):
        monkeypatch.setattr(logs_module, "MAX_LINE_BYTES", 100)
        monkeypatch.setattr(logs_module, "CHUNK_BYTES", 64)
        path = tmp_path / "long.jsonl"
        path.write_bytes(b"a\n" + b"x" * 500 + b"\nb\n")
        chunks = list(range_chunks(str(path), 0, path.stat().st_size))
        assert lines_of(chunks) == [b"a", None, b"b"]
        assert (2, None, 500) in chunks  # where it starts, how long it is: never its bytes


class TestStreams:
    def test_a_gz_and_standard_input_hand_out_every_line(self, packed):
        consumed = [0]
        assert lines_of(stream_chunks(packed, consumed=consumed)) == LINES
        assert consumed[0] == os.path.getsize(packed)  # the compressed bytes read
        assert lines_of(stream_chunks("-", stdin=io.BytesIO(DATA))) == LINES

    def test_offsets_are_in_the_decompressed_stream(self, packed):
        for offset, data, length in stream_chunks(packed):
            assert DATA[offset:offset + length] == data

    def test_a_last_line_without_newline_is_a_line(self):
        assert lines_of(stream_chunks("-", stdin=io.BytesIO(b"a\nb"))) == [b"a", b"b"]

    def test_a_truncated_gz_hands_out_its_good_lines_then_breaks(self, tmp_path):
        data = gzip.compress(DATA * 50)
        path = tmp_path / "cut.jsonl.gz"
        path.write_bytes(data[:len(data) // 2])
        found: list[bytes] = []
        with pytest.raises(StreamBroke) as broke:
            for _, chunk, _ in stream_chunks(str(path)):
                found += chunk.splitlines()
        assert found and found == (DATA * 50).splitlines()[:len(found)]
        assert broke.value.path == str(path) and "truncated" in broke.value.problem
        assert broke.value.produced >= sum(len(line) + 1 for line in found)

    def test_standard_input_that_fails_midway_breaks_after_its_lines(self):
        class Failing(io.RawIOBase):
            calls = 0

            def read(self, size=-1):
                self.calls += 1
                if self.calls > 1:
                    raise OSError(5, "Input/output error")
                return b"a\nb\nc"

        found: list[bytes] = []
        with pytest.raises(StreamBroke, match="cannot read further: Input/output error") as broke:
            for _, chunk, _ in stream_chunks("-", stdin=Failing()):
                found += chunk.splitlines()
        assert found == [b"a", b"b"] and broke.value.produced == 5


class TestRereading:
    @pytest.mark.parametrize("which", ["plain", "packed"])
    def test_the_line_at_an_offset_without_its_newline(self, which, request):
        path = request.getfixturevalue(which)
        for number in (0, 1, 150, 299):
            assert read_line_at(path, DATA.index(LINES[number] + b"\n")) == LINES[number]

    def test_standard_input_cannot_be_reread(self):
        with pytest.raises(LogError, match="standard input cannot be read again"):
            read_line_at("-", 0)

    def test_a_line_too_long_is_refused_not_held(self, tmp_path, monkeypatch):
        monkeypatch.setattr(logs_module, "MAX_LINE_BYTES", 100)
        path = tmp_path / "long.jsonl"
        path.write_bytes(b"x" * 500 + b"\n")
        with pytest.raises(LogError, match="the line at offset 0 is longer than 100 bytes"):
            read_line_at(str(path), 0)

    def test_a_directory_or_a_missing_file_is_one_line(self, tmp_path):
        for path in (tmp_path, tmp_path / "gone.jsonl"):
            with pytest.raises(LogError) as found:
                read_line_at(str(path), 0)
            assert str(found.value).startswith(str(path)) and "\n" not in str(found.value)
