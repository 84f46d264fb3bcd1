"""The sample logs shipped in fixtures/logs/ and the generator's shapes behind
them: each file is what the commands of fixtures/README.md write, byte for byte;
the openai and envelope shapes carry the plain log's records (the same answers,
requests, times and models, the same kind of bad line at the same place), line
by line; the mapping files and the lines docs/triage.md shows are the shipped
ones; and, read with its mapping, each shape counts as the plain sample does."""

from __future__ import annotations

import io
import json
import math
import re
import shlex
import tomllib
from collections import Counter
from typing import Any

import pytest

from inspector.cli import main
from inspector.contract.checks import STATUSES
from inspector.contract.models import Request
from inspector.suites.load import LoadError, bundled_suite_paths, parse_request
from inspector.triage.synth import SHAPES, registry_json, stands_alone, write_log

from support import FIXTURES, ROOT

LOGS = FIXTURES / "logs"
TRIAGE_DOC = ROOT / "docs" / "triage.md"
SHIPPED = {"plain": "sample.jsonl", "openai": "openai.jsonl", "envelope": "envelope.jsonl"}
# Where each shape keeps a record's members (as docs/triage.md maps them).
MEMBERS = {
    "openai": {"raw": ("response", "choices", 0, "message", "content"), "request": ("ctx", "request"),
               "ts": ("created",), "model": ("model",)},
    "envelope": {"raw": ("llm", "raw"), "request": ("llm", "request"), "ts": ("@timestamp",),
                 "model": ("metadata", "model")},
}
ANSWER_MEMBER = {"plain": "raw", "openai": "response", "envelope": "llm"}
MAPPING_KEYS = {"raw", "request", "ts", "id", "by", "request_extra"}


def synth_commands() -> list[list[str]]:
    """The ``inspector synth`` commands fixtures/README.md regenerates the sample with."""
    text = (FIXTURES / "README.md").read_text("utf-8")
    return [shlex.split(line)[2:] for line in re.findall(r"^inspector synth .*$", text, re.M)]


def lines_of(shape: str, lines: int, seed: int, **options: Any) -> tuple[list[str], Any]:
    out = io.BytesIO()
    mix = write_log(out, lines, seed, shape=shape, **options)
    return out.getvalue().decode("utf-8").split("\n")[:-1], mix


def at(document: Any, path: tuple[str | int, ...]) -> Any:
    """The member at ``path``, or KeyError when any step of it is missing."""
    for step in path:
        if isinstance(document, list) and isinstance(step, int) and step < len(document):
            document = document[step]
        elif isinstance(document, dict) and step in document:
            document = document[step]
        else:
            raise KeyError(path)
    return document


def top_level_keys(line: str) -> list[str]:
    objects: list[list[str]] = []
    json.loads(line, object_pairs_hook=lambda pairs: objects.append([key for key, _ in pairs]) or dict(pairs))
    return objects[-1]  # objects close inside out: the line's is the last


def refused(request: Any, ignore_extra: bool) -> bool:
    """Whether a request is unusable, read as the shape's mapping reads it."""
    if ignore_extra and isinstance(request, dict):
        request = {key: value for key, value in request.items() if key in Request.__struct_fields__}
    try:
        parse_request("request", json.dumps(request).encode("utf-8"))
    except LoadError:
        return True
    return False


def variant_of(request: dict[str, Any]) -> str:
    """How the generator made a request unusable."""
    if "revision" not in request:
        return "no revision"
    if isinstance(request["fields"], str):
        return "fields a string"
    if len(set(request["fields"])) < len(request["fields"]):
        return "a field twice"
    return "an unknown member" if set(request) - {*Request.__struct_fields__, "trace_id"} else "usable"


class TestShipped:
    def test_the_readmes_commands_write_the_shipped_files(self, tmp_path, monkeypatch, capsys):
        commands = synth_commands()
        assert sorted(command[0] for command in commands) == sorted(SHIPPED.values())
        monkeypatch.chdir(tmp_path)
        for command in commands:
            assert main(["synth", *command]) == 0, capsys.readouterr().err
        written = sorted(path.name for path in tmp_path.iterdir())
        assert written == sorted([*SHIPPED.values(), "sample-registry.json"])
        for name in written:
            assert (tmp_path / name).read_bytes() == (LOGS / name).read_bytes(), \
                f"fixtures/logs/{name} is not what synth writes now: rerun fixtures/README.md's commands"
        assert (LOGS / "sample-registry.json").read_text("utf-8") == registry_json()

    def test_the_sample_is_small_and_as_described(self, capsys):
        for name in (*SHIPPED.values(), "sample-registry.json", "openai.toml", "envelope.toml"):
            assert (LOGS / name).stat().st_size < 256 * 1024, name
        (command,) = [command for command in synth_commands() if command[0] == SHIPPED["plain"]]
        lines, seed = int(command[command.index("--lines") + 1]), int(command[command.index("--seed") + 1])
        assert lines <= 1000
        _, mix = lines_of("plain", lines, seed)
        described = (FIXTURES / "README.md").read_text("utf-8").split("## Sample logs", 1)[1]
        assert f"{lines} lines of seed {seed}" in described and f"{mix.records} records" in described
        assert sorted(mix.statuses) == sorted(STATUSES)  # every verdict

    def test_no_sample_file_is_a_bundled_suite(self):
        assert not [path for path in bundled_suite_paths() if LOGS in path.parents]

    def test_the_mapping_files_hold_the_documented_keys(self):
        openai = tomllib.loads((LOGS / "openai.toml").read_text("utf-8"))
        envelope = tomllib.loads((LOGS / "envelope.toml").read_text("utf-8"))
        assert set(openai) == set(envelope) == MAPPING_KEYS
        assert openai == {"raw": "response.choices.0.message.content", "request": "ctx.request", "ts": "created",
                          "id": "id", "by": ["model"], "request_extra": "strict"}
        assert envelope == {"raw": "llm.raw", "request": "llm.request", "ts": "@timestamp",
                            "id": "llm.request.trace_id", "by": ["metadata.model", "/metadata/prompt.version"],
                            "request_extra": "ignore"}


class TestTheDocsShowTheShippedFiles:
    def test_each_mapping_file_is_shown_as_it_is(self):
        blocks = re.findall(r"^```toml\n(.*?)^```$", TRIAGE_DOC.read_text("utf-8"), re.S | re.M)
        for name in ("openai.toml", "envelope.toml"):
            assert (LOGS / name).read_text("utf-8") in blocks, f"docs/triage.md shows another {name}"

    def test_each_sample_line_is_a_line_of_its_log(self):
        shown = re.findall(r"Line (\d+) of `fixtures/logs/([\w.-]+)`[^`]*?\n\n```json\n(.*?)^```$",
                           TRIAGE_DOC.read_text("utf-8"), re.S | re.M)
        assert sorted(name for _, name, _ in shown) == ["envelope.jsonl", "openai.jsonl"]
        for number, name, block in shown:
            line = (LOGS / name).read_text("utf-8").split("\n")[int(number) - 1]
            assert block == json.dumps(json.loads(line), indent=2, ensure_ascii=False) + "\n", (name, number)


class TestShapes:
    """The same records in every shape, line by line (read here by hand: the
    triage's reading of them is TestCountedAlike's)."""

    LINES, SEED, BAD = 150, 4, 4  # four bad lines of each kind: the three unusable requests among them

    @pytest.fixture(scope="class")
    def plain(self) -> tuple[list[str], Any]:
        return lines_of("plain", self.LINES, self.SEED, bad_per_kind=self.BAD)

    @pytest.mark.parametrize("shape", ["openai", "envelope"])
    def test_every_record_is_the_plain_one(self, plain, shape):
        plain_lines, plain_mix = plain
        lines, mix = lines_of(shape, self.LINES, self.SEED, bad_per_kind=self.BAD)
        assert (mix.lines, mix.records, mix.bad, mix.labels, mix.models) == \
            (plain_mix.lines, plain_mix.records, plain_mix.bad, plain_mix.labels, plain_mix.models)
        bad = dict(mix.bad)
        logged_as_json = 0
        for number, (ours, theirs) in enumerate(zip(plain_lines, lines, strict=True), 1):
            if number in bad:
                continue
            record, line = json.loads(ours), json.loads(theirs)
            request = at(line, MEMBERS[shape]["request"])
            assert at(line, MEMBERS[shape]["model"]) == record["model"]
            if shape == "openai":
                assert request == record["request"] and line["id"] == f"chatcmpl-{record['id']}"
                assert at(line, MEMBERS[shape]["raw"]) == record["raw"]
            else:
                assert request.pop("trace_id") not in (None, "") and request == record["request"]
                assert line["metadata"]["prompt.version"] == record["prompt_version"]
                if stands_alone(record["raw"]):  # logged as JSON: its exact text stands in the line
                    assert f'"llm": {{"raw": {record["raw"]}, "request": ' in theirs
                    logged_as_json += 1
                else:
                    assert at(line, MEMBERS[shape]["raw"]) == record["raw"]
        if shape == "envelope":
            assert 0 < logged_as_json < mix.records  # both ways in the mix
            ids = [json.loads(line)["llm"]["request"]["trace_id"] for number, line in enumerate(lines, 1)
                   if number not in bad]
            assert len(set(ids)) == len(ids)  # a record's id

    @pytest.mark.parametrize("shape", ["openai", "envelope"])
    def test_the_times_say_the_same_instant(self, plain, shape):
        plain_lines, plain_mix = plain
        _, mix = lines_of(shape, self.LINES, self.SEED, bad_per_kind=self.BAD)
        assert (mix.no_ts, mix.bad_ts) == (plain_mix.no_ts, plain_mix.bad_ts)
        for ours, theirs in zip(plain_mix.stamps, mix.stamps, strict=True):
            if ours is None:
                assert theirs is None
            elif shape == "openai":  # created: whole epoch seconds
                assert theirs == math.floor(ours)
            else:  # @timestamp: ISO 8601, to the microsecond
                assert theirs == pytest.approx(ours, abs=1e-5)

    @pytest.mark.parametrize("shape", SHAPES)
    def test_every_bad_line_stays_bad_in_its_shape(self, plain, shape):
        plain_lines, _ = plain
        lines, mix = lines_of(shape, self.LINES, self.SEED, bad_per_kind=self.BAD)
        paths = MEMBERS.get(shape, {"raw": ("raw",), "request": ("request",)})
        unusable: Counter[str] = Counter()
        for number, kind in mix.bad:
            line = lines[number - 1]
            if kind in ("empty line", "not JSON", "not an object"):
                assert line == plain_lines[number - 1]
                continue
            document = json.loads(line)
            if kind == "duplicate key":
                keys = top_level_keys(line)
                assert keys.count(ANSWER_MEMBER[shape]) == 2 and len(set(keys)) == len(keys) - 1
            elif kind in ("raw missing", "request missing"):
                member = kind.split()[0]
                with pytest.raises(KeyError):
                    at(document, paths[member])
                assert at(document, paths["request" if member == "raw" else "raw"]) is not None
            elif kind == "raw not a string":
                value = at(document, paths["raw"])
                assert not isinstance(value, str) and value == json.loads(plain_lines[number - 1])["raw"]
            else:
                assert kind == "request unusable"
                request = at(document, paths["request"])
                assert refused(request, ignore_extra=shape == "envelope")
                unusable[variant_of(request)] += 1
        # an unknown member is no fault where the request is read with request_extra = "ignore"
        extra = "fields a string" if shape == "envelope" else "an unknown member"
        assert set(unusable) == {"a field twice", "no revision", extra}

    def test_an_unknown_shape_is_refused(self):
        with pytest.raises(ValueError, match="no shape 'xml': one of plain, openai, envelope"):
            write_log(io.BytesIO(), 5, shape="xml")


class TestStandsAlone:
    """Which answers the envelope logs as JSON rather than as a string."""

    @pytest.mark.parametrize("text", ['{"claims": []}', '{"claims":[{"value":"1","value":"1"}]}',
                                      '{ "claims" :\t[] }', '{"claims": ["r\u00e9gion"]}'])
    def test_an_object_on_one_line(self, text):
        assert stands_alone(text)

    @pytest.mark.parametrize("text", ['{\n "claims": []\n}', '{"claims": []}\r', 'Sure! {"claims": []}',
                                      '{"claims": []} {}', '{"claims": [}', '[{"claims": []}]', ' {"claims": []}',
                                      '{"a": NaN}', '{"a": "\\ud800"}', '{"a": "\ud800"}', '"{}"', ''],
                             ids=["indented", "CR", "prose", "trailing", "syntax", "array", "leading-space", "NaN",
                                  "escaped-surrogate", "surrogate", "string", "empty"])
    def test_anything_else_stays_a_string(self, text):
        assert not stands_alone(text)


def counted(capsys: pytest.CaptureFixture[str], log: str, *options: str) -> dict[str, Any]:
    status = main(["triage", str(LOGS / log), "--registry", str(LOGS / "sample-registry.json"), "--format", "json",
                   *options])
    out, err = capsys.readouterr()
    assert status == 0, err
    return json.loads(out)


def counts(document: dict[str, Any], by: str) -> dict[str, Any]:
    return {"lines": document["lines"], "records": document["records"], "bad_lines": document["bad_lines"],
            "bad": [bad["line"] for bad in document["bad"]], "bad_kinds": document["bad_kinds"],
            "by_check": document["by_check"], "by_reason": document["by_reason"], "by_blame": document["by_blame"],
            "ladder": document["ladder"],
            "by_model": {group["value"]: (group["records"], group["rejected"]) for group in document["by"][by]}}


class TestCountedAlike:
    """Read with its mapping file, each shape's summary is the plain sample's."""

    @pytest.mark.parametrize("shape, by", [("openai", []), ("envelope", ["--by", "metadata.model"])])
    def test_the_same_verdicts_bad_lines_and_models(self, capsys, shape, by):
        plain = counts(counted(capsys, SHIPPED["plain"], "--by", "model"), "model")
        mapped = counted(capsys, SHIPPED[shape], "--log-format", str(LOGS / f"{shape}.toml"), *by)
        assert counts(mapped, "model" if shape == "openai" else "metadata.model") == plain
        assert plain["records"] > 250 and len(plain["by_model"]) == 3
