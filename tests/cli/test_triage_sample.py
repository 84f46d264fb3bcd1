"""``inspector triage --export GROUP --sample N [--seed S]`` (issue 20, in a group): a reproducible random
sample of the group, in log order; a seed picked and said when not given; bad input one line and exit 2;
and every exported case carries its place and metadata as a structured ``metadata`` member that
``audit`` loads, prints escaped and keeps in its JSON."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from inspector.suites.load import bundled_root, load_suite

from support import one_line_error, run_main

SAMPLE = Path(bundled_root()) / "logs" / "sample.jsonl"
REGISTRY = Path(bundled_root()) / "logs" / "sample-registry.json"


def exported(capsys, out: Path, *options: str) -> tuple[list[str], str]:
    """The case ids written to ``out`` by an export of model=gpt-x with ``options``, and the line said."""
    status, said, err = run_main(capsys, "triage", SAMPLE, "--registry", REGISTRY, "--by", "model",
                                 "--export", "model=gpt-x", "--out", out, *options)
    assert status == 0, err
    return [case["id"] for case in json.loads(out.read_text())["cases"]], said.strip()


class TestSample:
    def test_the_same_seed_draws_the_same_records_in_log_order(self, tmp_path, capsys):
        first, said = exported(capsys, tmp_path / "a.json", "--sample", "5", "--seed", "7")
        again, _ = exported(capsys, tmp_path / "b.json", "--sample", "5", "--seed", "7")
        other, _ = exported(capsys, tmp_path / "c.json", "--sample", "5", "--seed", "8")
        assert first == again and first != other and len(first) == 5
        assert first == sorted(first)  # log order (the ids are the line numbers, zero-padded)
        assert said == ("wrote 5 case(s) of model=gpt-x to " + str(tmp_path / "a.json") +
                        ": a random sample of 5 of the group's 149 records, seed 7")
        description = json.loads((tmp_path / "a.json").read_text())["description"]
        assert "a random sample of 5 of the group's 149 records, seed 7" in description

    def test_without_a_seed_one_is_picked_and_said(self, tmp_path, capsys):
        first, said = exported(capsys, tmp_path / "a.json", "--sample", "4")
        seed = re.search(r"seed (\d+); the seed was picked: --sample 4 --seed \1 draws", said)
        assert seed is not None, said
        again, _ = exported(capsys, tmp_path / "b.json", "--sample", "4", "--seed", seed.group(1))
        assert first == again

    def test_a_sample_larger_than_the_group_takes_all_and_says_so(self, tmp_path, capsys):
        ids, said = exported(capsys, tmp_path / "a.json", "--sample", "500", "--seed", "1")
        everything, _ = exported(capsys, tmp_path / "b.json")
        assert ids == everything and len(ids) == 149
        assert said.endswith("the group holds 149 record(s), no more than the sample of 500 asked: all of them "
                             "written")

    def test_the_json_says_the_sample(self, tmp_path, capsys):
        status, out, _ = run_main(capsys, "triage", SAMPLE, "--registry", REGISTRY, "--format", "json",
                                  "--export", "ACCEPT", "--out", tmp_path / "a.json", "--sample", "3", "--seed", "2")
        assert status == 0
        document = json.loads(out)
        assert document["export"] == {"group": "ACCEPT", "out": str(tmp_path / "a.json"), "cases": 3,
                                      "sample": {"size": 3, "seed": 2, "of": document["by_check"]["ACCEPT"]}}

    @pytest.mark.parametrize(("options", "words"), [
        (("--sample", "0"), "--sample: a sample is a whole number of records from 1"),
        (("--sample", "x"), "--sample: a sample is a whole number"),
        (("--sample", "-3"), "--sample: a sample is a whole number"),
        (("--sample", "5", "--seed", "x"), "--seed: a seed is a whole number from 0"),
        (("--sample", "5", "--seed", "-1"), "--seed: a seed is a whole number from 0"),
        (("--sample", "5", "--seed", "99999999999999999999"), "--seed: a seed is a whole number"),
        (("--seed", "3"), "--seed S is the seed of --sample N"),
        (("--sample", "5", "--limit", "3"), "give one of them"),
    ])
    def test_bad_input_is_one_line_and_exit_2(self, tmp_path, capsys, options, words):
        status, _, err = run_main(capsys, "triage", SAMPLE, "--registry", REGISTRY, "--export", "ACCEPT",
                                  "--out", tmp_path / "a.json", *options)
        assert status == 2
        assert words in one_line_error(err)
        assert not (tmp_path / "a.json").exists()

    def test_a_sample_needs_an_export(self, capsys):
        status, _, err = run_main(capsys, "triage", SAMPLE, "--registry", REGISTRY, "--summary", "--sample", "3")
        assert status == 2 and "--sample N samples the records --export GROUP writes" in one_line_error(err)


class TestMetadataMember:
    def test_each_case_carries_its_place_and_metadata_which_audit_shows(self, tmp_path, capsys):
        out = tmp_path / "a.json"
        exported(capsys, out, "--sample", "2", "--seed", "3")
        case = json.loads(out.read_text())["cases"][0]
        line = int(case["id"].rpartition("-")[2])
        metadata = case["metadata"]
        assert metadata["file"] == str(SAMPLE) and metadata["line"] == line
        assert SAMPLE.read_bytes()[metadata["offset"]:].split(b"\n")[0] == SAMPLE.read_bytes().split(b"\n")[line - 1]
        assert metadata["members"]["model"] == "gpt-x" and set(metadata["members"]) == {"id", "ts", "model",
                                                                                        "prompt_version"}
        suite = load_suite(out)
        assert suite.cases[0].metadata is not None and suite.cases[0].metadata.members["model"] == "gpt-x"
        document = json.loads(run_main(capsys, "audit", out, "--format", "json")[1])
        assert document["cases"][0]["metadata"] == metadata
        text = run_main(capsys, "audit", out)[1]
        shown = [line for line in text.splitlines() if "metadata:" in line]
        assert len(shown) == 2 and f"sample.jsonl:{line} · offset {metadata['offset']}" in shown[0]
        assert "model gpt-x" in shown[0]

    def test_hostile_metadata_is_kept_structured_and_printed_escaped(self, tmp_path, capsys):
        log = tmp_path / "hostile.jsonl"
        first = SAMPLE.read_bytes().split(b"\n")[0]
        record = json.loads(first)
        record["model"] = "[bold]x\x1b[2J\u202e"
        record["nested"] = {"a": {"b": [1, 2]}, "flag": True, "none": None, "big": 2**70}
        record["lone"] = "\ud800"
        log.write_text(json.dumps(record) + "\n")
        out = tmp_path / "a.json"
        status, _, err = run_main(capsys, "triage", log, "--registry", REGISTRY, "--export", "rung:strict_json",
                                  "--out", out)
        if status != 0:  # the first record may not pass strict JSON: take its verdict's group
            status, _, err = run_main(capsys, "triage", log, "--registry", REGISTRY, "--export", "scope:" +
                                      "/".join(record["request"][key] for key in ("service", "environment",
                                                                                  "revision")), "--out", out)
        assert status == 0, err
        members = load_suite(out).cases[0].metadata.members
        assert members["model"] == "[bold]x\x1b[2J\u202e"
        assert members["nested.a.b"] == "[1,2]" and members["nested.flag"] is True and members["nested.none"] is None
        assert members["nested.big"] == str(2**70) and members["lone"] == "\\ud800"
        text = run_main(capsys, "audit", out)[1]
        assert "\x1b" not in text and "\u202e" not in text
        assert "\\u001b[2J\\u202e" in text and "[bold]x" in text

    def test_a_bad_metadata_member_is_a_case_error_and_old_suites_load_unchanged(self, tmp_path, capsys):
        out = tmp_path / "a.json"
        exported(capsys, out, "--sample", "1", "--seed", "1")
        document = json.loads(out.read_text())
        for member, problem in ((("line",), 0), (("offset",), -1), (("members",), {"k": "x" * 5000}),
                                (("members",), {"k": {"nested": 1}}), (("extra",), 1)):
            broken = json.loads(json.dumps(document))
            broken["cases"][0]["metadata"][member[0]] = problem
            out.write_text(json.dumps(broken))
            suite = load_suite(out, strict=False)
            assert not suite.cases and "metadata" in suite.broken[0].place + suite.broken[0].problem, member
        del document["cases"][0]["metadata"]
        out.write_text(json.dumps(document))
        assert load_suite(out).cases[0].metadata is None
