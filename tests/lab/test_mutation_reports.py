"""The mutation reports as streams: the counts kept while the mutants go by (the
same figures as the report that keeps every mutant), the spools of the listed
mutants, the JSON written in pieces, and the Stryker report's locations as its
readers count them (UTF-16 columns; lines broken at CR, LF, CRLF, U+2028, U+2029)."""

from __future__ import annotations

import json

import pytest
from support import ARTICLE
from support.stryker import reader_offset, utf16_offset

from inspector.contract.text import json_dumps
from inspector.io.json_stream import Items, compact, write_json
from inspector.lab import mutation_testing
from inspector.lab.mutation_testing import MutationRun, Spool, mutate
from inspector.lab.stryker import Lines
from inspector.suites.load import load_suite


class TestLocations:
    @pytest.mark.parametrize("text", [
        "plain\nlines\n",
        "astral \U0001f600 then \U0001f4a9\U0001f4a9 more\nand \U0001f600 here",
        "carriage\rreturn\ronly",
        "windows\r\nline\r\nends\r\n",
        "line\u2028separator\u2029paragraph",
        "mixed \U0001f600\r\n\u2028\r\r\n\n\U0001f600\u2029x",
        "",
    ])
    def test_every_offset_lands_where_the_reader_puts_it(self, text):
        lines = Lines(text)
        for offset in range(len(text) + 1):
            where = lines.position(offset)
            assert where["line"] >= 1 and where["column"] >= 1
            assert reader_offset(text, where["line"], where["column"]) == utf16_offset(text, offset), offset

    def test_the_columns_count_utf16_units_and_the_lines_every_break(self):
        text = '{"a": "\U0001f600", "b": 1}\r\n{"c":\u2028"d"}'
        lines = Lines(text)
        assert lines.position(text.index('"b"')) == {"line": 1, "column": 13}  # the emoji is two units
        assert lines.position(text.index('"c"')) == {"line": 2, "column": 2}  # CRLF is one break
        assert lines.position(text.index('"d"')) == {"line": 3, "column": 1}  # U+2028 is a break
        # Between CR and LF is still the first line (the reader's line map says so).
        assert lines.position(text.index("\n")) == {"line": 1, "column": 21}


class TestJsonStream:
    def test_the_same_text_as_json_dumps(self):
        document = {"a": 1, "list": [{"x": "\u202e\x1b", "y": [1, 2]}, {}], "empty": [], "nested": {"z": []},
                    "s": "é\U0001f600"}
        pieces: list[str] = []
        streamed = {**document, "list": Items(iter(document["list"])), "empty": Items(iter(())),
                    "nested": {"z": Items([])}}
        write_json(pieces.append, streamed)
        assert "".join(pieces) == json_dumps(document)
        assert len(pieces) > 5  # written in pieces, not as one string

    def test_compact_items_stay_valid_json_one_a_line(self):
        pieces: list[str] = []
        write_json(pieces.append, {"items": Items(({"n": n, "t": "a b"} for n in range(3)), compact)})
        text = "".join(pieces)
        assert json.loads(text) == {"items": [{"n": 0, "t": "a b"}, {"n": 1, "t": "a b"}, {"n": 2, "t": "a b"}]}
        assert '    {"n":1,"t":"a b"},' in text.splitlines()


@pytest.fixture(scope="module")
def article():
    return load_suite(ARTICLE)


class TestStream:
    def test_the_counts_are_the_kept_reports(self, article):
        run = MutationRun([article])
        streamed = list(run.stream())
        kept = mutate([article])
        assert len(streamed) == run.tally.mutants == len(kept.results)
        assert run.figures("x") == kept.figures("x")
        assert run.score == kept.score and run.tally.holes == len(kept.holes)
        assert run.tally.stricter == len(kept.stricter) and run.tally.slipped == len(kept.slipped)

    def test_the_mutants_come_one_at_a_time(self, article, monkeypatch):
        # The first mutant is yielded after one verification, not after all of them.
        calls = []
        real = mutation_testing.verify

        def counted(*args):
            calls.append(1)
            return real(*args)

        monkeypatch.setattr(mutation_testing, "verify", counted)
        run = MutationRun([article])
        first = next(run.stream())
        assert len(calls) == 1 and run.tally.mutants == 1 and first.mutant.mutation == "quote.other_line"

    def test_a_run_is_verified_once(self, article):
        run = MutationRun([article])
        list(run.stream())
        with pytest.raises(RuntimeError):
            next(run.stream())

    def test_the_covered_checks_include_the_one_that_rejected(self, article):
        from inspector.contract.checks import CHECKS

        order = [check.id for check in CHECKS]
        for result in MutationRun([article]).stream():
            covered = result.verdict.covered
            assert list(covered) == sorted(covered, key=order.index) and covered[0] == "size"
            if result.killed:
                assert result.verdict.check.id in covered
                if result.verdict.claim in (None, 0):  # nothing after it ran
                    assert covered[-1] == result.verdict.check.id
            else:  # every check of an unscoped request ran
                assert "coverage" in covered and "authorized" not in covered and len(covered) == len(order) - 1


class TestSpool:
    def test_it_gives_back_the_same_mutants_from_disk(self, article, monkeypatch):
        monkeypatch.setattr(mutation_testing, "SPOOL_IN_MEMORY", 256)
        run = MutationRun([article])
        results = list(run.stream())
        with Spool(run.parents) as spool:
            for result in results:
                spool.add(result)
            assert spool._file._rolled  # past its bound, the spool is a temporary file
            back = list(spool)
            assert list(spool) == back  # read again, the same
        assert [(r.parent, r.mutant.edit, r.mutant.raw, r.verdict) for r in back] == \
               [(r.parent, r.mutant.edit, r.mutant.raw, r.verdict) for r in results]
        assert [r.reason for r in back] == [r.reason for r in results]


class TestWritten:
    def test_stryker_writes_each_case_before_the_next_is_verified(self, article, monkeypatch):
        from inspector.lab.stryker import write_stryker

        verified = []
        real = mutation_testing.verify
        monkeypatch.setattr(mutation_testing, "verify", lambda *args: verified.append(1) or real(*args))
        run = MutationRun([article])
        pieces: list[tuple[int, str]] = []
        write_stryker(run, lambda text: pieces.append((len(verified), text)), "x")
        # the first mutant's line is written after one verification, not after all of them
        first = next(count for count, text in pieces if '"mutatorName"' in text)
        assert first == 1 and len(verified) == run.tally.mutants > 100
        report = json.loads("".join(text for _, text in pieces))
        assert sum(len(file["mutants"]) for file in report["files"].values()) == run.tally.mutants

    def test_json_lists_come_back_from_the_spools(self, article):
        from inspector.lab.mutation_json import write_mutate_json

        run = MutationRun([article])
        pieces: list[str] = []
        write_mutate_json(run, pieces.append, "x")
        document = json.loads("".join(pieces))
        kept = mutate([article])
        assert document["survivors"] == [r.to_dict() | {"harmless": r.mutant.harmless} for r in kept.survivors]
        assert document["slipped"] == [r.to_dict() for r in kept.slipped]
        assert "".join(pieces) == json_dumps(document) + "\n"
