"""The real-format sample logs of fixtures/logs/formats/ (issue 31; openai-chat, openai-responses,
openai-batch, langfuse, langsmith): the committed files are what ``support.format_samples_a``
builds from fixtures/logs/sample.jsonl, byte for byte; every answer an expected line holds is a
sample answer, byte-exact, with the request it answered; and each format shows the records a
preset has to tell apart (answers, refusals, errors, empty and truncated answers)."""

from __future__ import annotations

import json
import shutil
import tomllib
from collections import Counter

import pytest

from inspector.triage.formats.spec import preset_text

from support import FIXTURES
from support.format_samples_a import FORMATS, SAMPLE, build

FORMATS_DIR = FIXTURES / "logs" / "formats"


def expected(name: str) -> list[dict]:
    return [json.loads(line) for line in (FORMATS_DIR / name / "expected.jsonl").read_text().splitlines()]


def test_the_committed_samples_are_a_rebuild(tmp_path):
    (tmp_path / SAMPLE).parent.mkdir(parents=True)
    shutil.copyfile(FIXTURES.parent / SAMPLE, tmp_path / SAMPLE)
    written = build(tmp_path)
    assert written, "nothing built"
    for path in written:
        committed = FIXTURES.parent / path.relative_to(tmp_path)
        assert committed.read_bytes() == path.read_bytes(), f"{committed} differs from a rebuild"
    built = {path.relative_to(tmp_path / "fixtures" / "logs" / "formats") for path in written}
    assert built == {path.relative_to(FORMATS_DIR) for name in FORMATS for path in (FORMATS_DIR / name).rglob("*.jsonl")}


@pytest.mark.parametrize("name", FORMATS)
def test_every_answer_is_a_sample_answer_with_its_request(name):
    sample = set()
    for line in (FIXTURES.parent / SAMPLE).read_text().splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("raw"), str):
            sample.add((record["raw"], json.dumps(record.get("request"), sort_keys=True)))
    answers = [line for line in expected(name) if "raw" in line]
    assert answers and all((line["raw"], json.dumps(line["request"], sort_keys=True)) in sample for line in answers)
    assert all("source" not in line and line["ts"].endswith("Z") for line in expected(name) if "ts" in line)


@pytest.mark.parametrize(("name", "mix"), [
    ("openai-chat", {"REFUSAL": 1, "EMPTY": 1, "truncated": 1}),
    ("openai-responses", {"REFUSAL": 1, "ERROR": 1, "EMPTY": 2, "truncated": 1}),
    ("openai-batch", {"REFUSAL": 1, "ERROR": 2, "EMPTY": 1, "truncated": 1}),
    ("langfuse", {"ERROR": 1, "EMPTY": 2, "truncated": 1}),
    ("langsmith", {"REFUSAL": 1, "ERROR": 1, "EMPTY": 1, "truncated": 1}),
])
def test_each_format_holds_the_records_a_preset_must_tell_apart(name, mix):
    kinds = Counter(line.get("no_answer") or ("truncated" if "truncated" in line else "answer")
                    for line in expected(name))
    assert {kind: count for kind, count in kinds.items() if kind != "answer"} == mix
    assert kinds["answer"] >= 20
    preset = tomllib.loads(preset_text(name))
    assert preset["name"] == name and preset["source"]
