"""``inspector formats`` and ``inspector triage --log-format NAME`` as a user runs them:
the listing, a preset printed, the summary's NO_ANSWER and skipped rows, --request-file,
a team's file, and the one-line refusals (in process: ``cli.main``)."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.triage.formats.spec import PRESETS

from support import one_line_error

ROOT = Path(__file__).resolve().parents[2]
FORMATS = ROOT / "fixtures" / "logs" / "formats"
REGISTRY = str(ROOT / "fixtures" / "logs" / "sample-registry.json")
CHAT = str(FORMATS / "openai-chat" / "completions.jsonl")


def summary(capsys, *args: str) -> dict:
    assert main(["triage", *args, "--registry", REGISTRY, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def refused(capsys, *args: str) -> str:
    assert main(["triage", *args, "--registry", REGISTRY, "--summary"]) == 2
    return one_line_error(capsys.readouterr().err)


class TestTheListing:
    def test_every_preset_is_listed_with_its_sources_and_a_sample_line(self, capsys):
        assert main(["formats"]) == 0
        out = capsys.readouterr().out
        for name in PRESETS:
            assert f"\n{name}  (" in "\n" + out
        assert out.count("documented: ") >= len(PRESETS)
        assert f"sample ({FORMATS / 'openai-chat' / 'completions.jsonl'}): " in out
        assert "sample (" in out.split("inspect  (")[1].split("\n\n")[0]

    def test_a_preset_is_printed_as_toml_a_team_file_can_start_from(self, capsys):
        assert main(["formats", "openai-batch"]) == 0
        out = capsys.readouterr().out
        assert 'name = "openai-batch"' in out and "[join]" in out and 'on = "custom_id"' in out

    def test_another_name_is_one_line_and_2(self, capsys):
        assert main(["formats", "openai-chatt"]) == 2
        said = one_line_error(capsys.readouterr().err)
        assert "'openai-chatt': no such format" in said and "openai-chat" in said


class TestTheSummary:
    def test_refusals_errors_and_empty_answers_are_no_answer_verdicts(self, capsys):
        found = summary(capsys, str(FORMATS / "openai-responses" / "responses.jsonl"), "--log-format",
                        "openai-responses")
        assert found["records"] == 50 and found["bad_lines"] == 0
        assert found["by_check"]["NO_ANSWER"] == 4
        assert {key: value for key, value in found["by_reason"].items() if key.startswith("NO_ANSWER")} == {
            "NO_ANSWER/REFUSAL": 1, "NO_ANSWER/ERROR": 1, "NO_ANSWER/EMPTY": 2}
        names = {group["group"] for group in found["groups"]}
        assert {"NO_ANSWER", "reason:NO_ANSWER/REFUSAL"} <= names

    def test_rows_that_are_not_answers_are_skipped_by_what_they_are(self, capsys):
        found = summary(capsys, str(FORMATS / "langfuse" / "observations_v2.jsonl"), "--log-format", "langfuse")
        assert found["skipped"] == {"RETRIEVER": 10, "SPAN": 30}
        assert found["records"] == 30 and found["lines"] == 70 and found["bad_lines"] == 0
        assert main(["triage", str(FORMATS / "langfuse" / "observations_v2.jsonl"), "--registry", REGISTRY,
                     "--log-format", "langfuse", "--summary"]) == 0
        assert "skipped  40 row(s) that are not model answers: SPAN 30, RETRIEVER 10" in capsys.readouterr().out

    def test_a_plain_log_has_no_no_answer_and_no_skipped_rows(self, capsys):
        found = summary(capsys, str(ROOT / "fixtures" / "logs" / "sample.jsonl"))
        assert "NO_ANSWER" not in found["by_check"] and found["skipped"] == {} and found["raw_envelopes"] == 0

    def test_the_generation_settings_group_the_records(self, capsys):
        found = summary(capsys, str(FORMATS / "inspect" / "config_claims.eval"), "--log-format", "inspect",
                        "--by", "epoch", "--by", "temperature")
        names = {group["group"]: group["records"] for group in found["groups"]}
        assert names["epoch=1"] == names["epoch=2"] == 27

    def test_a_directory_holds_the_presets_files_and_the_joined_file_is_not_a_log(self, capsys, tmp_path):
        for name in ("batch_input.jsonl", "batch_output.jsonl", "batch_errors.jsonl"):
            shutil.copy(FORMATS / "openai-batch" / name, tmp_path / name)
        found = summary(capsys, str(tmp_path), "--log-format", "openai-batch")
        assert found["records"] == 50 and found["bad_lines"] == 0 and found["by_check"]["NO_ANSWER"] == 4

    def test_a_log_of_another_format_is_bad_lines_not_nothing(self, capsys):
        found = summary(capsys, CHAT, "--log-format", "otel-genai")
        assert found["records"] == 0 and found["bad_lines"] == 50
        assert "no records: nothing at resourceSpans[*].scopeSpans[*].spans[*] in this line" in found["bad"][0]["error"]

    def test_a_raw_path_that_stops_at_a_chat_message_is_said(self, capsys, tmp_path):
        lines = [json.loads(line) for line in (FORMATS / "langfuse" / "expected.jsonl").read_text().splitlines()]
        log = tmp_path / "messages.jsonl"
        log.write_text("".join(json.dumps({"raw": json.dumps({"role": "assistant", "content": line["raw"]}),
                                           "request": line["request"]}) + "\n" for line in lines if "raw" in line))
        found = summary(capsys, str(log))
        assert found["raw_envelopes"] == found["records"] == 27
        assert main(["triage", str(log), "--registry", REGISTRY, "--summary"]) == 0
        assert "the raw path reaches a chat message, not the answer, in 27 record(s)" in \
            " ".join(capsys.readouterr().out.split())


class TestTheRequest:
    def test_request_file_gives_every_answer_one_request(self, capsys, tmp_path):
        request = tmp_path / "r.json"
        request.write_text(json.dumps({"service": "payments", "environment": "prod", "revision": "v3",
                                       "fields": ["pool_size"], "supplied": ["payments-prod-v3"]}))
        found = summary(capsys, CHAT, "--log-format", "openai-chat", "--request-file", str(request))
        assert [group["group"] for group in found["groups"] if group["group"].startswith("scope:")] == [
            "scope:payments/prod/v3"]

    def test_request_file_refusals(self, capsys, tmp_path):
        bad = tmp_path / "r.json"
        bad.write_text('{"service": "payments"}')
        assert "--request-file" in refused(capsys, CHAT, "--log-format", "openai-chat", "--request-file", str(bad))
        assert "add --log-format" in refused(capsys, CHAT, "--request-file", str(bad))

    def test_a_team_file_starting_from_a_preset(self, capsys, tmp_path):
        team = tmp_path / "team.toml"
        team.write_text('preset = "openai-chat"\nby = ["service_tier"]\n')
        found = summary(capsys, CHAT, "--log-format", str(team))
        assert found["records"] == 50 and any(group["group"].startswith("service_tier=") for group in found["groups"])


class TestRefused:
    def test_an_unknown_format_names_the_presets(self, capsys):
        said = refused(capsys, CHAT, "--log-format", "openai")
        assert "'openai': no such format" in said and "openai-chat" in said

    def test_a_staged_format_is_not_followed_nor_read_from_standard_input(self, capsys):
        assert "drop --follow" in refused(capsys, str(FORMATS / "inspect" / "config_claims.json"), "--log-format",
                                          "inspect", "--follow")
        assert "not from standard input" in refused(capsys, "-", "--log-format", "promptfoo")

    def test_no_answer_groups_are_not_exported(self, capsys, tmp_path):
        assert main(["triage", CHAT, "--registry", REGISTRY, "--log-format", "openai-chat", "--export", "NO_ANSWER",
                     "--out", str(tmp_path / "x.json")]) == 2
        assert "holds records without an answer" in one_line_error(capsys.readouterr().err)
        assert not (tmp_path / "x.json").exists()

    def test_a_broken_eval_zip_is_one_line(self, capsys, tmp_path):
        broken = tmp_path / "broken.eval"
        broken.write_bytes(b"not a zip at all")
        said = refused(capsys, str(broken), "--log-format", "inspect")
        assert "broken.eval" in said

    def test_an_eval_zip_without_samples_has_no_records_said(self, capsys, tmp_path):
        empty = tmp_path / "empty.eval"
        with zipfile.ZipFile(FORMATS / "inspect" / "config_claims.eval") as source, zipfile.ZipFile(empty, "w") as out:
            out.writestr("header.json", source.read("header.json"))
        found = summary(capsys, str(empty), "--log-format", "inspect")
        assert found["records"] == 0


@pytest.mark.parametrize("name", ["phoenix", "promptfoo"])
def test_a_truncated_document_keeps_the_records_before_the_break(name, capsys, tmp_path):
    source = next((FORMATS / name).glob("*.json"))
    cut = tmp_path / source.name
    data = source.read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    found = summary(capsys, str(cut), "--log-format", name)
    assert 0 < found["records"] < 60 and found["bad_lines"] == 1
    assert "truncated" in found["bad"][0]["error"] or "not JSON" in found["bad"][0]["error"]


def test_records_of_a_staged_format_name_the_log_given_and_say_no_answer(capsys, tmp_path):
    out = tmp_path / "rows.jsonl"
    log = str(FORMATS / "otel-genai" / "traces.jsonl")
    assert main(["triage", log, "--registry", REGISTRY, "--log-format", "otel-genai", "--records", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(rows) == 62 and {row["file"] for row in rows} == {log}
    refused_rows = [row for row in rows if row["verdict"] == "NO_ANSWER"]
    assert sorted(row["reason"] for row in refused_rows) == ["EMPTY", "ERROR", "REFUSAL"]
    assert all(row["check"] is None and row["meta"]["source"]["at"] for row in refused_rows)


def test_scope_and_records_as_from_the_command_line(capsys, tmp_path):
    team = tmp_path / "otel.toml"
    team.write_text('preset = "otel-genai"\nrecords_as = ["resource", "scope"]\n'
                    '[keep]\nservice = "resource.resource.attributes[key=service.name].value.stringValue"\n')
    log = str(FORMATS / "otel-genai" / "traces.jsonl")
    found = summary(capsys, log, "--log-format", str(team), "--by", "service", "--scope", "acme/alice")
    assert found["records"] == 62
    assert [group["group"] for group in found["groups"] if group["group"].startswith("service=")]
    assert "--scope takes TENANT/USER" in refused(capsys, log, "--log-format", "otel-genai", "--scope", "acme")
    assert "add --log-format" in refused(capsys, log, "--scope", "acme/alice")
