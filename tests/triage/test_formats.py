"""Each built-in format reads its sample (``fixtures/logs/formats/NAME/``, built from
the tool's documented shape) into exactly the records ``expected.jsonl`` says, and
the triage counts them as it counts those records written as our own lines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.suites.load import load_registry
from inspector.triage import Options, triage
from inspector.triage.formats.spec import PRESETS, preset, timestamp
from inspector.triage.formats.stage import stage
from inspector.triage.mapping import LogFormat

ROOT = Path(__file__).resolve().parents[2]
FORMATS = ROOT / "fixtures" / "logs" / "formats"
REGISTRY = ROOT / "fixtures" / "logs" / "sample-registry.json"

# The files of each sample that are logs of answers, in the order expected.jsonl lists their records.
LOGS = {
    "openai-chat": ["completions.jsonl"],
    "openai-responses": ["responses.jsonl"],
    "openai-batch": ["batch_output.jsonl", "batch_errors.jsonl"],
    "langfuse": ["observations_v2.jsonl"],
    "langsmith": ["runs.jsonl"],
    "phoenix": ["spans.json"],
    "otel-genai": ["traces.jsonl"],
    "inspect": ["config_claims.json"],
    "inspect.eval": ["config_claims.eval"],  # the same samples in Inspect's default format, a zip
    "promptfoo": ["results.json"],
}


def preset_of(name: str) -> str:
    return name.partition(".")[0]


def logs_of(name: str) -> list[str]:
    return [str(FORMATS / preset_of(name) / file) for file in LOGS[name]]


def expected(name: str) -> list[dict]:
    return [json.loads(line) for line in (FORMATS / preset_of(name) / "expected.jsonl").read_text().splitlines()]


def staged_lines(name: str) -> list[dict]:
    found = stage(logs_of(name), preset(preset_of(name)))
    return [json.loads(line) for log in found.logs for line in Path(log).read_text().splitlines()]


def test_every_sample_has_a_preset():
    assert {preset_of(name) for name in LOGS} == set(PRESETS)


@pytest.mark.parametrize("name", sorted(LOGS))
def test_the_preset_reads_each_record_as_expected(name):
    lines = staged_lines(name)
    assert not [line for line in lines if "@bad" in line]
    records = [{key: value for key, value in line.items() if key != "source"} for line in lines if "@skip" not in line]
    want = expected(name)
    assert len(records) == len(want)
    for record, wanted in zip(records, want):
        if record.pop("raw_bytes", None) is not None:  # an answer the tool kept parsed: said re-encoded
            assert name == "promptfoo" and record["raw"].startswith(("{", "["))
        if "ts" in wanted:  # the same instant (the samples' builders write a zero fraction or none)
            assert timestamp(record.pop("ts"), "iso") == timestamp(wanted.pop("ts"), "iso")
        if "no_answer" in record:
            # What the samples' builder leaves out of a record without an answer, and the reading says:
            # why an answer is EMPTY ("the answer is null"), and a truncation that left no answer.
            assert record["no_answer_detail"]
            for key in ("no_answer_detail", "truncated"):
                if key not in wanted:
                    record.pop(key, None)
        assert record == wanted
    assert {line["source"]["file"] for line in lines} == set(logs_of(name))
    assert all(line["source"]["at"] for line in lines)


@pytest.mark.parametrize("name", sorted(LOGS))
def test_the_triage_counts_the_sample_as_its_records(name, tmp_path, capsys):
    canonical = tmp_path / "expected.jsonl"
    canonical.write_text((FORMATS / preset_of(name) / "expected.jsonl").read_text())
    registry = load_registry(REGISTRY)
    want = triage([str(canonical)], registry, Options(log_format=LogFormat(staged=True)), workers=1)
    assert main(["triage", *logs_of(name), "--registry", str(REGISTRY), "--log-format", preset_of(name),
                 "--format", "json"]) in (0, 1)
    got = json.loads(capsys.readouterr().out)
    assert got["records"] == want.records == len(expected(name))
    assert got["bad_lines"] == 0
    want_checks = {}
    for (verdict, _scope, _meta), count in want.cells.items():
        want_checks[verdict[0]] = want_checks.get(verdict[0], 0) + count
    assert {status: count for status, count in got["by_check"].items() if count} == want_checks
    skipped = sum(1 for line in staged_lines(name) if "@skip" in line)
    assert sum(got["skipped"].values()) == skipped


def test_docs_cite_where_each_shape_comes_from():
    text = (ROOT / "docs" / "triage.md").read_text()
    for name in PRESETS:
        for source in preset(name).sources:
            assert f"  - {source}\n" in text, (name, source)
