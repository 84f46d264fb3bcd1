"""The sample logs in Phoenix, OpenTelemetry GenAI, Inspect and promptfoo shapes
(fixtures/logs/formats/): each committed file is what tests/support/format_samples_b.py
writes from fixtures/logs/sample.jsonl, byte for byte, and each expected.jsonl holds
one canonical line for each model answer of its sample file."""

from __future__ import annotations

import json
import shutil
import tomllib
import zipfile
from pathlib import Path

import pytest

from inspector.triage.formats.spec import preset_text

from support import FIXTURES
from support.format_samples_b import build

FORMATS = FIXTURES / "logs" / "formats"
BUILT = ["phoenix/spans.json", "phoenix/expected.jsonl", "otel-genai/traces.jsonl",
         "otel-genai/expected.jsonl", "inspect/config_claims.json", "inspect/config_claims.eval",
         "inspect/expected.jsonl", "promptfoo/results.json", "promptfoo/expected.jsonl"]


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("rebuilt")
    (root / "fixtures" / "logs").mkdir(parents=True)
    shutil.copy(FIXTURES / "logs" / "sample.jsonl", root / "fixtures" / "logs" / "sample.jsonl")
    build(root)
    return root / "fixtures" / "logs" / "formats"


@pytest.mark.parametrize("name", BUILT)
def test_committed_file_is_a_rebuild(rebuilt: Path, name: str) -> None:
    assert (FORMATS / name).read_bytes() == (rebuilt / name).read_bytes()


def test_nothing_else_is_built(rebuilt: Path) -> None:
    assert sorted(str(p.relative_to(rebuilt)) for p in rebuilt.rglob("*") if p.is_file()) == sorted(BUILT)


@pytest.mark.parametrize("name", ["phoenix", "otel-genai", "inspect", "promptfoo"])
def test_each_format_has_a_preset_and_its_sources(name: str) -> None:
    preset = tomllib.loads(preset_text(name))
    assert preset["name"] == name and preset["source"] and preset["raw"]
    assert 10 <= len((FORMATS / name / "SOURCE.md").read_text(encoding="utf-8").splitlines()) <= 25
    lines = [json.loads(line) for line in
             (FORMATS / name / "expected.jsonl").read_text(encoding="utf-8").splitlines()]
    assert 40 <= len(lines) <= 80
    assert len({line["id"] for line in lines}) == len(lines)
    reasons = {line.get("no_answer") for line in lines}
    assert {"ERROR", "EMPTY"} <= reasons and any("truncated" in line for line in lines)
    assert all(("raw" in line) != ("no_answer" in line) for line in lines)


def test_the_eval_zip_holds_the_json_logs_samples() -> None:
    document = json.loads((FORMATS / "inspect" / "config_claims.json").read_text(encoding="utf-8"))
    with zipfile.ZipFile(FORMATS / "inspect" / "config_claims.eval") as archive:
        names = archive.namelist()
        assert names[0] == "_journal/start.json" and names[-1] == "header.json"
        samples = [json.loads(archive.read(n)) for n in names if n.startswith("samples/")]
        header = json.loads(archive.read("header.json"))
    assert samples == document["samples"]
    assert header == {k: v for k, v in document.items() if k not in ("samples", "reductions")}
    assert {(s["id"], s["epoch"]) for s in samples} == {(s["id"], e) for s in samples for e in (1, 2)}
