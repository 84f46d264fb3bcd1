"""``inspector triage LOG --registry R --records FILE`` (issue 31, "Out, to where
teams look next"): a row of every record counted, the table people load into
DuckDB, pandas or a spreadsheet; ``FILE.csv`` the same as CSV.

What a user checks: the rows of known lines of the sample log, exactly (place,
verdict, reason, failing claim, blame, rungs, label lens, metadata); no row for a
bad line nor for a record outside the window; the CSV reading back as the same
values with Python's csv module; a name taken, a folder missing, --follow and
--engine dask refused before anything is counted; and the same rows whatever
the workers."""

from __future__ import annotations

import csv
import io
import json

import pytest
from support import FIXTURES, one_line_error, run_main

from inspector.suites.load import load_registry
from inspector.triage.run import triage_runs
from inspector.triage.table import COLUMNS, RecordsOut
from inspector.triage.tally import Options

LOG = "fixtures/logs/sample.jsonl"
REGISTRY = "fixtures/logs/sample-registry.json"
# The bad lines of the sample log (``--bad-lines`` lists them): no row for any of them.
BAD = {13, 41, 62, 72, 95, 125, 177, 229}

LINE_1 = {"file": LOG, "line": 1, "offset": 0, "id": "22-0000001", "item": None, "ts": "2026-12-01T00:09:02.084655Z",
          "model": "claude-y", "verdict": "INVALID_JSON", "reason": "SYNTAX", "check": "syntax", "claim_field": None,
          "claim_doc": None, "blame": "generation", "category": "malformed_output",
          "rungs": {"strict_json": False, "citation_only": False, "contract": False}, "label": "ABSTAIN",
          "meta": {"prompt_version": "p3"}}
LINE_2 = {"file": LOG, "line": 2, "offset": 655, "id": "22-0000002", "item": None, "ts": "2026-12-01T00:11:18.441508Z",
          "model": "gpt-x", "verdict": "ACCEPT", "reason": None, "check": None, "claim_field": None, "claim_doc": None,
          "blame": None, "category": None, "rungs": {"strict_json": True, "citation_only": True, "contract": True},
          "label": "ANSWER", "meta": {"prompt_version": "p2"}}
LINE_3 = {"file": LOG, "line": 3, "offset": 1198, "id": "22-0000003", "item": None,
          "ts": "2026-12-01T00:16:58.210320Z", "model": "gpt-x", "verdict": "VALUE_MISMATCH", "reason": None,
          "check": "value", "claim_field": "read_timeout_ms", "claim_doc": "billing-dev-v3", "blame": "generation",
          "category": "contradicted", "rungs": {"strict_json": True, "citation_only": True, "contract": False},
          "label": "ABSTAIN", "meta": {"prompt_version": "p1"}}
# The label lens would answer (every claim supported) where the contract rejects: a document not supplied.
LINE_6 = {"file": LOG, "line": 6, "offset": 2824, "id": "22-0000006", "item": None, "ts": "2026-12-01T00:32:48.236000Z",
          "model": "gpt-x", "verdict": "NO_CITATION", "reason": "NOT_SUPPLIED",
          "check": "doc_supplied", "claim_field": "retry_enabled", "claim_doc": "billing-staging-v3",
          "blame": "retrieval", "category": "no_evidence",
          "rungs": {"strict_json": True, "citation_only": False, "contract": False}, "label": "ANSWER",
          "meta": {"prompt_version": "p3"}}


def rows_of(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def records(capsys, tmp_path, name="rows.jsonl", *args) -> tuple[list[str], list[dict] | str]:
    """The output lines of ``triage LOG --records tmp/NAME ARGS`` (exit 0), and the rows (JSON) or the text (CSV)."""
    out = tmp_path / name
    status, said, err = run_main(capsys, "triage", LOG, "--registry", REGISTRY, "--records", str(out), *args)
    assert status == 0, err
    return said.splitlines(), rows_of(out) if not name.endswith(".csv") else out.read_bytes().decode("utf-8")


class TestTheRows:
    def test_known_lines_exactly(self, capsys, tmp_path):
        said, rows = records(capsys, tmp_path)
        assert said == [f"wrote every record (292) to {tmp_path / 'rows.jsonl'}"]
        by_line = {row["line"]: row for row in rows}
        for expected in (LINE_1, LINE_2, LINE_3, LINE_6):
            assert by_line[expected["line"]] == expected
            assert list(by_line[expected["line"]]) == list(COLUMNS)  # the columns in their documented order

    def test_every_record_counted_once_in_log_order_and_no_bad_line(self, capsys, tmp_path):
        _, rows = records(capsys, tmp_path, "rows.jsonl", "--summary")
        lines = [row["line"] for row in rows]
        assert lines == sorted(set(range(1, 301)) - BAD)
        assert [row["offset"] for row in rows] == sorted(row["offset"] for row in rows)

    def test_the_window_is_respected(self, capsys, tmp_path):
        window = ("--since", "2026-12-01T06:00:00Z", "--until", "2026-12-01T12:00:00Z")
        _, rows = records(capsys, tmp_path, "rows.jsonl", *window)
        status, said, _ = run_main(capsys, "triage", LOG, "--registry", REGISTRY, "--format", "json", *window)
        assert len(rows) == json.loads(said)["records"] == 73
        assert all("2026-12-01T06:00:00Z" <= row["ts"] < "2026-12-01T12:00:00Z" for row in rows)

    def test_an_unreadable_time_stays_in_the_metadata(self, capsys, tmp_path):
        _, rows = records(capsys, tmp_path)
        undated = {row["line"]: row for row in rows if row["ts"] is None}
        assert undated[33]["meta"] == {"ts": "yesterday", "prompt_version": "p2"}

    def test_the_summary_json_names_the_file(self, capsys, tmp_path):
        out = tmp_path / "rows.jsonl"
        status, said, _ = run_main(capsys, "triage", LOG, "--registry", REGISTRY, "--format", "json",
                                   "--records", str(out))
        assert status == 0
        assert json.loads(said)["records_file"] == {"path": str(out), "rows": 292}

    def test_against_writes_the_rows_of_log_only(self, capsys, tmp_path):
        said, rows = records(capsys, tmp_path, "rows.jsonl", "--against", "fixtures/logs/envelope.jsonl",
                             "--summary")
        assert said[-1] == f"wrote every record (292) to {tmp_path / 'rows.jsonl'}"
        assert {row["file"] for row in rows} == {LOG}

    def test_standard_output(self, capsys, tmp_path):
        bad = tmp_path / "bad.jsonl"
        status, said, err = run_main(capsys, "triage", LOG, "--registry", REGISTRY, "--records", "-",
                                     "--bad-lines", str(bad))
        assert status == 0, err
        rows = [json.loads(line) for line in said.splitlines()]  # the rows, and nothing else
        assert len(rows) == 292 and rows[0] == LINE_1
        assert err == f"wrote every bad line (8) to {bad}\n"


class TestCSV:
    def test_the_header_and_a_row(self, capsys, tmp_path):
        _, text = records(capsys, tmp_path, "rows.csv")
        lines = text.split("\r\n")
        assert lines[0] == ",".join(COLUMNS)
        assert lines[3] == ('fixtures/logs/sample.jsonl,3,1198,22-0000003,,2026-12-01T00:16:58.210320Z,gpt-x,'
                            'VALUE_MISMATCH,,value,read_timeout_ms,billing-dev-v3,generation,contradicted,'
                            '"{""strict_json"":true,""citation_only"":true,""contract"":false}",ABSTAIN,'
                            '"{""prompt_version"":""p1""}"')

    def test_it_reads_back_as_the_same_values(self, capsys, tmp_path):
        _, rows = records(capsys, tmp_path, "rows.jsonl")
        _, text = records(capsys, tmp_path, "rows.csv")
        read = list(csv.DictReader(io.StringIO(text, newline="")))
        assert len(read) == len(rows) == 292
        for cells, row in zip(read, rows, strict=True):
            assert list(cells) == list(COLUMNS)
            for name in COLUMNS:
                value = row[name]
                expected = "" if value is None else value if isinstance(value, str) else \
                    json.dumps(value, separators=(",", ":"))
                assert cells[name] == expected, (row["line"], name)

    def test_a_cell_a_spreadsheet_would_run_is_text(self, capsys, tmp_path):
        line = json.loads((FIXTURES / "logs" / "sample.jsonl").read_text().splitlines()[1])
        hostile = [{**line, "id": "=HYPERLINK(\"http://x\")", "model": "+1", "prompt_version": "@SUM(A1)"},
                   {**line, "id": "'quoted", "model": "-2", "item": "\tx"},
                   {**line, "id": "plain", "model": "gpt-x\u202e", "item": "a\nb"}]
        log = tmp_path / "hostile.jsonl"
        log.write_text("".join(json.dumps(record) + "\n" for record in hostile))
        out, table = tmp_path / "h.jsonl", tmp_path / "h.csv"
        for path in (out, table):
            status, _, err = run_main(capsys, "triage", str(log), "--registry", REGISTRY, "--records", str(path))
            assert status == 0, err
        read = list(csv.DictReader(io.StringIO(table.read_bytes().decode("utf-8"), newline="")))
        assert [(cells["id"], cells["model"], cells["item"]) for cells in read] == [
            ("'=HYPERLINK(\"http://x\")", "'+1", ""), ("''quoted", "'-2", "'\tx"), ("plain", "gpt-x\u202e", "a\nb")]
        assert read[0]["meta"] == '{"prompt_version":"@SUM(A1)"}'  # a JSON object's text starts with {
        # JSON lines keep the values, every invisible character escaped as the tool's JSON escapes it
        assert "\u202e" not in out.read_text("utf-8") and "\\u202e" in out.read_text("utf-8")
        assert [row["id"] for row in rows_of(out)] == ["=HYPERLINK(\"http://x\")", "'quoted", "plain"]
        assert rows_of(out)[2]["model"] == "gpt-x\u202e"


    def test_a_lone_surrogate_is_written_as_its_escape(self, capsys, tmp_path):
        line = (FIXTURES / "logs" / "sample.jsonl").read_text().splitlines()[1]
        log = tmp_path / "surrogate.jsonl"
        log.write_text(line.replace('"id": "22-0000002"', '"id": "a\\ud800b"') + "\n")
        for name in ("s.jsonl", "s.csv"):
            status, _, err = run_main(capsys, "triage", str(log), "--registry", REGISTRY, "--records",
                                      str(tmp_path / name))
            assert status == 0, err
        assert rows_of(tmp_path / "s.jsonl")[0]["id"] == "a\\ud800b"  # the six characters, readable by any reader
        read = list(csv.DictReader(io.StringIO((tmp_path / "s.csv").read_bytes().decode("utf-8"), newline="")))
        assert read[0]["id"] == "a\\ud800b"


class TestRefused:
    def test_a_file_that_exists_is_never_overwritten(self, capsys, tmp_path):
        out = tmp_path / "rows.jsonl"
        out.write_text("mine")
        status, said, err = run_main(capsys, "triage", LOG, "--registry", REGISTRY, "--records", str(out))
        assert status == 2 and said == ""
        one_line_error(err, "--records", "already exists")
        assert out.read_text() == "mine"

    @pytest.mark.parametrize("args, words", [
        (("--records", "{tmp}/nope/rows.csv"), ("--records", "no such directory")),
        (("--records", "{tmp}/a.jsonl", "--bad-lines", "{tmp}/a.jsonl", "--summary"), ("same file",)),
        (("--records", "-", "--summary"), ("--records -", "standard output")),
        (("--records", "{tmp}/a.jsonl", "--follow", "--format", "jsonl"), ("--records", "--follow")),
        (("--records", "{tmp}/a.jsonl", "--engine", "dask", "--summary"),
         ("--records is not available with --engine dask",)),
    ])
    def test_before_counting(self, capsys, tmp_path, args, words):
        status, said, err = run_main(capsys, "triage", LOG, "--registry", REGISTRY,
                                     *(arg.format(tmp=tmp_path) for arg in args))
        assert status == 2 and said == ""
        one_line_error(err, *words)
        assert list(tmp_path.iterdir()) == []


def test_the_same_rows_whatever_the_workers(tmp_path):
    """Ranges counted in two processes, each spilling its rows (numbered as they are counted), copied in
    order; the bad lines written beside them are numbered as without --records."""
    registry = load_registry(FIXTURES / "logs" / "sample-registry.json")
    logs = [str(FIXTURES / "logs" / "sample.jsonl")] * 2
    found = {}
    bad_lines = io.BytesIO()
    triage_runs([(logs, Options())], registry, bad_lines=bad_lines, workers=2, task_bytes=4096,
                parallel_min_bytes=0, spill_dir=tmp_path)
    for as_csv in (False, True):
        for workers, task_bytes in ((1, None), (2, 4096)):
            out, bad = io.BytesIO(), io.BytesIO()
            sink = RecordsOut(out, as_csv)
            triage_runs([(logs, Options())], registry, records=sink, bad_lines=bad, workers=workers,
                        task_bytes=task_bytes, parallel_min_bytes=0, spill_dir=tmp_path)
            found[as_csv, workers] = out.getvalue()
            assert bad.getvalue() == bad_lines.getvalue()
        assert found[as_csv, 1] == found[as_csv, 2]
    assert len(list(csv.reader(io.StringIO(found[True, 1].decode("utf-8"), newline="")))) == 1 + 2 * 292
    rows = [json.loads(line) for line in found[False, 1].splitlines()]
    assert [row["line"] for row in rows] == 2 * sorted(set(range(1, 301)) - BAD)
    assert list(tmp_path.iterdir()) == []  # the spills are gone
