"""The records of one JSON document (``.json``, ``.json.gz``) and of an Inspect AI
``.eval`` zip, as ``triage.formats.sources`` reads them: each with its place, a
record that cannot be trusted (a repeated key, too deep, too long) a problem
naming why, a document that breaks off ending with a problem after every
record complete before it, and memory bounded by a record, not the document."""

from __future__ import annotations

import gzip
import json
import math
import struct
import tracemalloc
import zipfile
import zlib
from pathlib import Path
from typing import Any

import pytest

from inspector.triage.formats import sources
from inspector.triage.formats.sources import Item, SourceError, header, iter_document, iter_eval


def write(path: Path, text: str | bytes) -> str:
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return str(path)


def read(path: str, records: str) -> list[Item]:
    return list(iter_document(path, records))


class TestRecords:
    def test_each_record_with_its_place(self, tmp_path: Path) -> None:
        doc = {"eval": {"model": "m"}, "samples": [{"id": 1, "t": 0.5}, {"id": 2}, "text", None]}
        items = read(write(tmp_path / "log.json", json.dumps(doc)), "samples[*]")
        assert items == [Item("samples[0]", {"id": 1, "t": 0.5}), Item("samples[1]", {"id": 2}),
                         Item("samples[2]", "text"), Item("samples[3]", None)]

    def test_nested_records_paths(self, tmp_path: Path) -> None:
        otel = {"resourceSpans": [{"scopeSpans": [{"spans": [{"n": 1}]}, {"spans": [{"n": 2}, {"n": 3}]}]},
                                  {"scopeSpans": [{"spans": [{"n": 4}]}]}]}
        path = write(tmp_path / "otel.json", json.dumps(otel))
        assert [(item.place, item.value) for item in read(path, "resourceSpans[*].scopeSpans[*].spans[*]")] == [
            ("resourceSpans[0].scopeSpans[0].spans[0]", {"n": 1}),
            ("resourceSpans[0].scopeSpans[1].spans[0]", {"n": 2}),
            ("resourceSpans[0].scopeSpans[1].spans[1]", {"n": 3}),
            ("resourceSpans[1].scopeSpans[0].spans[0]", {"n": 4}),
        ]
        lm_eval = write(tmp_path / "results.json", json.dumps({"results": {"results": [1, 2], "x": [3]}}))
        assert [item.place for item in read(lm_eval, "results.results[*]")] == ["results.results[0]",
                                                                                "results.results[1]"]
        array = write(tmp_path / "array.json", "\ufeff" + json.dumps([{"a": 1}, {"b": 2}]))
        assert read(array, "[*]") == [Item("[0]", {"a": 1}), Item("[1]", {"b": 2})]
        assert read(array, "") == [Item("", [{"a": 1}, {"b": 2}])]

    def test_members_that_are_not_the_path_are_not_records(self, tmp_path: Path) -> None:
        doc = {"data": {"not": "an array"}, "samples": [1], "other": [[{"samples": [2]}]]}
        path = write(tmp_path / "log.json", json.dumps(doc))
        assert read(path, "data[*]") == []
        assert read(path, "samples[*]") == [Item("samples[0]", 1)]

    def test_a_records_path_that_is_not_one(self, tmp_path: Path) -> None:
        for bad in ("samples[0]", "a..b", "a.[*]", "a[x]"):
            with pytest.raises(ValueError):
                iter_document(str(tmp_path / "log.json"), bad)

    def test_numbers(self, tmp_path: Path) -> None:
        text = '{"samples": [{"i": 3, "big": 123456789012345678901234567890, "f": 1.5, "e": 1e5, "inf": 1e400}]}'
        (item,) = read(write(tmp_path / "log.json", text), "samples[*]")
        value = item.value
        assert value["i"] == 3 and type(value["i"]) is int
        assert value["big"] == 123456789012345678901234567890
        assert value["f"] == 1.5 and value["e"] == 100000.0 and type(value["e"]) is float
        assert math.isinf(value["inf"])


class TestProblems:
    def test_a_repeated_key_is_a_problem_naming_it(self, tmp_path: Path) -> None:
        text = ('{"samples": [{"id": 0}, {"id": 1, "output": "a", "output": "b"},'
                ' {"id": 2, "m": [{"x": 1}, {"k": 1, "k": 2}]}, {"id": 3}]}')
        items = read(write(tmp_path / "log.json", text), "samples[*]")
        assert items[0] == Item("samples[0]", {"id": 0})
        assert items[1] == Item("samples[1]", problem='duplicate key "output" in samples[1].output '
                                                      "(which one counts is ambiguous)")
        assert items[2].problem is not None and 'duplicate key "k" in samples[2].m[1].k' in items[2].problem
        assert items[3] == Item("samples[3]", {"id": 3})

    def test_a_truncated_document_yields_its_complete_records_then_the_problem(self, tmp_path: Path) -> None:
        text = json.dumps({"samples": [{"id": i, "text": "x" * 50} for i in range(5)]})
        cut = text.index('{"id": 3') + 20
        items = read(write(tmp_path / "results.json", text[:cut]), "samples[*]")
        assert [item.value["id"] for item in items[:-1]] == [0, 1, 2]
        assert items[-1].place == "samples[3]"
        assert items[-1].problem == (f"results.json: truncated at byte {cut}: the JSON document is not complete "
                                     "(inside samples[3])")

    def test_not_json_says_at_which_byte(self, tmp_path: Path) -> None:
        text = '{"samples": [{"id": 1}, {"id": 2}, {"id": 3, "x": tru}]}'
        items = read(write(tmp_path / "results.json", text), "samples[*]")
        assert [item.value for item in items[:-1]] == [{"id": 1}, {"id": 2}]
        assert items[-1].problem is not None
        assert items[-1].problem.startswith(f"results.json: not JSON at byte {text.index('}]}')}: ")
        garbage = read(write(tmp_path / "garbage.json", '{"samples": [1, 2]} and more'), "samples[*]")
        assert garbage[:2] == [Item("samples[0]", 1), Item("samples[1]", 2)]
        assert garbage[2].problem == "garbage.json: not JSON at byte 20: parse error: trailing garbage"
        assert read(write(tmp_path / "empty.json", ""), "samples[*]") == [
            Item("", problem="empty.json: empty: no JSON document")]
        assert read(str(tmp_path / "missing.json"), "samples[*]") == [
            Item("", problem="missing.json: cannot read: No such file or directory")]

    def test_not_utf8(self, tmp_path: Path) -> None:
        text = b'{"samples": [{"a": 1}, {"a": "caf\xe9"}]}'  # Latin-1
        items = read(write(tmp_path / "log.json", text), "samples[*]")
        assert items[0] == Item("samples[0]", {"a": 1})
        # the byte after \xe9 (a lead byte), where the sequence is seen broken
        at = text.index(b"\xe9") + 1
        assert items[1].problem is not None and items[1].problem.startswith(f"log.json: not UTF-8 at byte {at}: ")

    def test_a_record_nested_too_deep_is_refused_and_the_next_read(self, tmp_path: Path) -> None:
        deep = "[" * 600 + "]" * 600
        ok = "[" * 511 + "]" * 511
        items = read(write(tmp_path / "log.json", f'{{"samples": [{deep}, {ok}, 7]}}'), "samples[*]")
        assert items[0] == Item("samples[0]", problem="samples[0] is nested deeper than 512 levels")
        assert items[1].problem is None and items[2] == Item("samples[2]", 7)

    def test_a_record_too_long_is_refused_without_holding_it(self, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sources, "MAX_RECORD_BYTES", 1024 * 1024)
        big = {"id": 1, "parts": ["y" * 1000] * 3000}  # 3 MB, in small strings
        doc = {"samples": [{"id": 0}, big, {"id": 2}]}
        path = write(tmp_path / "log.json", json.dumps(doc))
        tracemalloc.start()
        try:
            items = read(path, "samples[*]")
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert items == [Item("samples[0]", {"id": 0}),
                         Item("samples[1]", problem="samples[1] is longer than 1 MiB of JSON text (refused, not read)"),
                         Item("samples[2]", {"id": 2})]
        assert peak < 2_500_000

    def test_a_lone_low_surrogate_ends_the_document_with_a_problem(self, tmp_path: Path) -> None:
        text = '{"samples": [{"a": 1}, {"a": "x\\udc00"}, {"a": 3}]}'
        items = read(write(tmp_path / "log.json", text), "samples[*]")
        assert items[0] == Item("samples[0]", {"a": 1})
        assert items[1].problem is not None
        assert items[1].problem.startswith("log.json: not JSON at byte ")
        assert "a string escapes a lone low surrogate" in items[1].problem and len(items) == 2

    def test_a_single_value_too_long_stops_the_reading(self, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
        """yajl holds a string until its end: one longer than the bound is not read on."""
        monkeypatch.setattr(sources, "MAX_RECORD_BYTES", 1024 * 1024)
        path = write(tmp_path / "log.json", json.dumps({"samples": [1, {"text": "x" * 3_000_000}, 3]}))
        items = read(path, "samples[*]")
        assert items[0] == Item("samples[0]", 1) and len(items) == 2
        assert items[1].place == "samples[1]"
        assert items[1].problem is not None
        assert items[1].problem.startswith("log.json: a single value longer than 1 MiB at byte ")

    def test_a_gzip_that_breaks(self, tmp_path: Path) -> None:
        doc = json.dumps({"samples": [{"id": i} for i in range(4000)]}).encode()
        packed = gzip.compress(doc)
        whole = read(write(tmp_path / "log.json.gz", packed), "samples[*]")
        assert len(whole) == 4000 and whole[-1] == Item("samples[3999]", {"id": 3999})
        cut = read(write(tmp_path / "cut.json.gz", packed[: len(packed) // 2]), "samples[*]")
        assert 0 < len(cut) - 1 < 4000 and all(item.problem is None for item in cut[:-1])
        assert cut[-1].problem is not None and cut[-1].problem.startswith("cut.json.gz: gzip: truncated")
        plain_name = read(write(tmp_path / "named.json", packed), "samples[*]")  # magic bytes, not the name
        assert len(plain_name) == 4000


class TestHeader:
    def test_before_or_after_the_records(self, tmp_path: Path) -> None:
        first = write(tmp_path / "a.json", json.dumps({"eval": {"model": "m1"}, "samples": [1, 2]}))
        last = write(tmp_path / "b.json", json.dumps({"samples": [{"eval": 0}] * 100, "eval": {"model": "m2"}}))
        assert header(first, "eval") == Item("eval", {"model": "m1"})
        assert header(last, "eval.model") == Item("eval.model", "m2")
        assert header(first, "plan") == Item("plan", problem="a.json: no plan in the document")

    def test_read_without_the_records(self, tmp_path: Path) -> None:
        """The samples after ``eval`` are not read at all: their breakage is not seen."""
        path = write(tmp_path / "log.json", '{"eval": {"model": "m"}, "samples": [1, 2, ')
        assert header(path, "eval") == Item("eval", {"model": "m"})


class TestMemory:
    def test_a_20_mb_document_is_read_in_memory_bounded_by_a_record(self, tmp_path: Path) -> None:
        path = tmp_path / "big.json"
        record = {"messages": [{"role": "user", "content": "w" * 900, "n": i} for i in range(10)],
                  "output": {"completion": "z" * 500}}
        with path.open("w") as out:
            out.write('{"eval": {"model": "m"}, "samples": [')
            for number in range(2000):
                out.write(("," if number else "") + json.dumps({"id": number, **record}))
            out.write("]}")
        assert path.stat().st_size > 19_000_000
        tracemalloc.start()
        try:
            count = sum(1 for item in iter_document(str(path), "samples[*]") if item.problem is None)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert count == 2000
        assert peak < 2_000_000, f"peak {peak:,} bytes traced"


# -- Inspect AI's .eval, laid out as inspect_ai's recorder writes it
# (src/inspect_ai/log/_recorders/eval.py): _journal/start.json first, the samples
# and each flush's _journal/summaries/<n>.json as they finish, then summaries.json,
# reductions.json and header.json; each member compact JSON.

ZSTD = 93


def compact(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def zstd_zip(path: Path, members: list[tuple[str, bytes]]) -> None:
    """A zip whose members are Zstandard-compressed (method 93), as inspect_ai
    0.3.206 and later write them (zipfile before Python 3.14 cannot)."""
    import zstandard

    body, central = bytearray(), bytearray()
    for name, data in members:
        packed = zstandard.ZstdCompressor().compress(data)
        crc, raw = zlib.crc32(data), name.encode()
        central += struct.pack("<4sHHHHHHIIIHHHHHII", b"PK\x01\x02", 63, 63, 0, ZSTD, 0, 0x21, crc, len(packed),
                               len(data), len(raw), 0, 0, 0, 0, 0, len(body)) + raw
        body += struct.pack("<4sHHHHHIIIHH", b"PK\x03\x04", 63, 0, ZSTD, 0, 0x21, crc, len(packed), len(data),
                            len(raw), 0) + raw + packed
    end = struct.pack("<4sHHHHIIH", b"PK\x05\x06", 0, 0, len(members), len(members), len(central), len(body), 0)
    path.write_bytes(bytes(body + central + end))


def eval_sample(sample_id: int | str, epoch: int, completion: str) -> dict[str, Any]:
    return {"id": sample_id, "epoch": epoch, "input": "question", "target": "ACCEPT",
            "messages": [{"role": "user", "content": "question"}, {"role": "assistant", "content": completion}],
            "output": {"model": "openai/gpt-4o", "completion": completion,
                       "choices": [{"message": {"role": "assistant", "content": completion}, "stop_reason": "stop"}]},
            "metadata": {"request": {"service": "s"}}}


START = {"version": 2, "eval": {"task": "claims", "model": "openai/gpt-4o"}, "plan": {"steps": []}}


def eval_members(finished: bool = True) -> list[tuple[str, bytes]]:
    samples = [eval_sample(10, 1, "ten"), eval_sample(2, 1, "two"), eval_sample(1, 2, "one again"),
               eval_sample(1, 1, "one")]
    members = [("_journal/start.json", compact(START))]
    for sample in samples[:2]:
        members.append((f"samples/{sample['id']}_epoch_{sample['epoch']}.json", compact(sample)))
    members.append(("_journal/summaries/1.json", compact([{"id": s["id"], "epoch": s["epoch"]} for s in samples[:2]])))
    for sample in samples[2:]:
        members.append((f"samples/{sample['id']}_epoch_{sample['epoch']}.json", compact(sample)))
    members.append(("_journal/summaries/2.json", compact([{"id": s["id"], "epoch": s["epoch"]} for s in samples[2:]])))
    if finished:
        members += [("summaries.json", compact([{"id": s["id"], "epoch": s["epoch"]} for s in samples])),
                    ("reductions.json", compact([{"scorer": "verify", "samples": []}])),
                    ("header.json", compact({**START, "status": "success", "results": {"total_samples": 4},
                                             "stats": {"started_at": "2026-01-01T00:00:00Z"}}))]
    return members


def deflate_zip(path: Path, members: list[tuple[str, bytes]]) -> None:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=5) as archive:
        for name, data in members:
            archive.writestr(name, data)


ORDER = ["samples/1_epoch_1.json", "samples/2_epoch_1.json", "samples/10_epoch_1.json", "samples/1_epoch_2.json"]


class TestEval:
    @pytest.mark.parametrize("writer", [deflate_zip, zstd_zip], ids=["deflate", "zstd"])
    def test_header_and_samples_in_inspects_order(self, tmp_path: Path, writer: Any) -> None:
        path = tmp_path / "run.eval"
        writer(path, eval_members())
        head, samples = iter_eval(str(path))
        assert head["status"] == "success" and head["eval"]["model"] == "openai/gpt-4o"
        items = list(samples)
        assert [item.place for item in items] == ORDER
        assert [item.value["output"]["completion"] for item in items] == ["one", "two", "ten", "one again"]

    def test_an_unfinished_log_has_its_start_as_header(self, tmp_path: Path) -> None:
        path = tmp_path / "running.eval"
        deflate_zip(path, eval_members(finished=False))
        head, samples = iter_eval(str(path))
        assert head == START
        assert [item.place for item in samples] == ORDER

    def test_a_sample_written_again_counts_once_the_last(self, tmp_path: Path) -> None:
        path = tmp_path / "requeued.eval"
        members = eval_members()
        members.insert(-1, ("samples/2_epoch_1.json", compact(eval_sample(2, 1, "two, requeued"))))
        with pytest.warns(UserWarning, match="Duplicate name"):
            deflate_zip(path, members)
        _head, samples = iter_eval(str(path))
        values = {item.place: item.value["output"]["completion"] for item in samples}
        assert len(values) == 4 and values["samples/2_epoch_1.json"] == "two, requeued"

    def test_a_repeated_key_or_a_member_not_json_is_a_problem(self, tmp_path: Path) -> None:
        path = tmp_path / "bad.eval"
        members = eval_members()
        members[1] = ("samples/10_epoch_1.json", b'{"id":10,"epoch":1,"output":{"completion":"a","completion":"b"}}')
        members[2] = ("samples/2_epoch_1.json", b'{"id":2,"epoch":1,"output":')
        zstd_zip(path, members)
        _head, samples = iter_eval(str(path))
        items = {item.place: item for item in samples}
        assert items["samples/10_epoch_1.json"].problem == (
            'bad.eval: samples/10_epoch_1.json: duplicate key "completion" in output.completion '
            "(which one counts is ambiguous)")
        assert items["samples/2_epoch_1.json"].problem == (
            "bad.eval: samples/2_epoch_1.json: truncated at byte 27: the JSON document is not complete")
        assert items["samples/1_epoch_1.json"].problem is None

    def test_a_corrupt_member_is_a_problem(self, tmp_path: Path) -> None:
        path = tmp_path / "corrupt.eval"
        zstd_zip(path, eval_members())
        data = bytearray(path.read_bytes())
        at = data.index(b"samples/2_epoch_1.json") + len("samples/2_epoch_1.json") + 12
        data[at] ^= 0xFF
        path.write_bytes(bytes(data))
        _head, samples = iter_eval(str(path))
        problem = {item.place: item.problem for item in samples}["samples/2_epoch_1.json"]
        assert problem is not None and problem.startswith("corrupt.eval: samples/2_epoch_1.json: ")

    def test_not_an_eval_log(self, tmp_path: Path) -> None:
        with pytest.raises(SourceError, match=r"^x\.eval: not a zip archive"):
            iter_eval(write(tmp_path / "x.eval", '{"samples": []}'))
        empty = tmp_path / "empty.eval"
        deflate_zip(empty, [("other.json", b"{}")])
        with pytest.raises(SourceError, match="neither header.json nor _journal/start.json"):
            iter_eval(str(empty))
        broken = tmp_path / "broken.eval"
        deflate_zip(broken, [("header.json", b"{")])
        with pytest.raises(SourceError, match=r"^broken\.eval: header\.json: truncated at byte 1"):
            iter_eval(str(broken))
