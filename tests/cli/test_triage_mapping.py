"""``inspector triage`` on logs whose members are elsewhere: the flags, --log-format
and its precedence, globs and directories as LOG (and in --against), --by file, an
export of a mapped group, and the one-line refusals (in process: ``cli.main``)."""

from __future__ import annotations

import json

import pytest

from inspector.cli import main
from inspector.suites.load import load_suite

from support import ANSWERS, PAYMENTS_REGISTRY, PAYMENTS_REQUEST, one_line_error

REQUEST = json.loads(PAYMENTS_REQUEST.read_text())
ANSWER = {"accept": (ANSWERS / "accept.json").read_text(), "mismatch": (ANSWERS / "value-mismatch.json").read_text()}
OPENAI_FLAGS = ["--raw", "response.choices.0.message.content", "--request", "ctx.request", "--ts", "created",
                "--id", "id"]


def nested(number: int, kind: str, model: str) -> str:
    """An OpenAI-style line: the answer in a chat completion, the request beside it."""
    return json.dumps({"id": f"chatcmpl-{number}", "created": 1796083200 + 60 * number,
                       "response": {"choices": [{"message": {"content": ANSWER[kind]}}]},
                       "ctx": {"request": {**REQUEST, "trace_id": f"t{number}"}},
                       "metadata": {"model": model, "prompt.version": f"p{number % 2}"}})


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mapped")
    lines = [nested(n, "mismatch" if n % 4 == 0 else "accept", "gpt-x" if n % 2 else "llama-z") for n in range(40)]
    (folder / "logs").mkdir()
    (folder / "logs" / "b.jsonl").write_text("\n".join(lines[20:]) + "\n")
    (folder / "logs" / "a.jsonl").write_text("\n".join(lines[:20]) + "\n")
    (folder / "logs" / "notes.txt").write_text("not a log\n")
    (folder / "openai.toml").write_text('raw = "response.choices.0.message.content"\nrequest = "ctx.request"\n'
                                        'ts = "created"\nid = "id"\nby = ["metadata.model"]\n'
                                        'request_extra = "ignore"\n')
    return folder


def summary(capsys, *args) -> dict:
    code = main(["triage", *map(str, args), "--registry", str(PAYMENTS_REGISTRY), "--format", "json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def refused(capsys, *args) -> str:
    code = main(["triage", *map(str, args), "--registry", str(PAYMENTS_REGISTRY), "--summary"])
    assert code == 2
    return one_line_error(capsys.readouterr().err)


def groups(document: dict) -> dict[str, int]:
    return {group["group"]: group["records"] for group in document["groups"]}


class TestMapped:
    def test_flags_a_directory_and_nested_by_paths(self, logs, capsys):
        folder = logs / "logs"
        document = summary(capsys, folder, *OPENAI_FLAGS, "--request-extra", "ignore",
                           "--by", "metadata.model", "--by", "/metadata/prompt.version", "--by", "file")
        assert document["logs"] == [str(folder / "a.jsonl"), str(folder / "b.jsonl")]
        assert (document["records"], document["bad_lines"]) == (40, 0)
        found = groups(document)
        assert (found["metadata.model=gpt-x"], found["metadata.model=llama-z"]) == (20, 20)
        assert (found["/metadata/prompt.version=p0"], found["/metadata/prompt.version=p1"]) == (20, 20)
        assert (found[f"file={folder / 'a.jsonl'}"], found[f"file={folder / 'b.jsonl'}"]) == (20, 20)
        assert (found["ACCEPT"], found["VALUE_MISMATCH"]) == (30, 10)
        assert sum(bar["records"] for bar in document["timeline"]["bars"]) == 40  # every ts read at its path

    def test_strict_says_which_member_and_which_option(self, logs, capsys):
        document = summary(capsys, logs / "logs" / "a.jsonl", *OPENAI_FLAGS)
        assert (document["records"], document["bad_kinds"]) == (0, {"request unusable": 20})
        assert document["bad"][0]["error"] == (
            "request unusable: ctx.request.trace_id: a member the request schema does not know "
            "(--request-extra ignore accepts the request and keeps it as metadata)")
        plain = summary(capsys, logs / "logs" / "a.jsonl")  # the default members: none of them there
        assert plain["bad_kinds"] == {"raw missing": 20}

    def test_the_format_file_and_the_flags_beside_it(self, logs, capsys):
        glob = str(logs / "logs" / "*.jsonl")
        document = summary(capsys, glob, "--log-format", logs / "openai.toml")
        assert document["records"] == 40 and set(document["by"]) == {"metadata.model"}
        replaced = summary(capsys, glob, "--log-format", logs / "openai.toml", "--by", "file")
        assert set(replaced["by"]) == {"file"}  # a --by on the command line replaces the file's list
        strict = summary(capsys, glob, "--log-format", logs / "openai.toml", "--request-extra", "strict")
        assert strict["records"] == 0 and strict["bad_kinds"] == {"request unusable": 40}
        moved = summary(capsys, glob, "--log-format", logs / "openai.toml", "--raw", "response.choices.1")
        assert moved["bad_kinds"] == {"raw missing": 40}
        assert moved["bad"][0]["error"] == ("raw missing: nothing at response.choices.1 (response.choices is an "
                                            "array of 1 element(s), none at 1)")

    def test_against_takes_a_glob_too(self, logs, capsys):
        document = summary(capsys, logs / "logs" / "a.jsonl", "--against", str(logs / "logs" / "b*.jsonl"),
                           "--log-format", logs / "openai.toml")
        assert document["against"]["logs"] == [str(logs / "logs" / "b.jsonl")]
        assert document["against"]["records"] == 20

    def test_export_of_a_nested_group(self, logs, capsys, tmp_path):
        out = tmp_path / "llama.json"
        code = main(["triage", str(logs / "logs"), "--registry", str(PAYMENTS_REGISTRY), "--log-format",
                     str(logs / "openai.toml"), "--export", "metadata.model=llama-z", "--out", str(out),
                     "--limit", "5"])
        assert code == 0 and "wrote 5 case(s) of metadata.model=llama-z" in capsys.readouterr().out
        suite = load_suite(out)
        assert [case.id for case in suite.cases] == ["chatcmpl-0", "chatcmpl-2", "chatcmpl-4", "chatcmpl-6",
                                                     "chatcmpl-8"]
        assert '"request.trace_id": "t2"' in suite.cases[1].note and '"created": 1796083320' in suite.cases[1].note


class TestRefused:
    @pytest.mark.parametrize("args, words", [
        (["--raw", "a..b"], "--raw: the path 'a..b' has an empty segment"),
        (["--by", "/a//b"], "--by: the pointer '/a//b' has an empty segment (segment 2)"),
        (["--ts", ""], "--ts: the path is empty"),
        (["--raw", "llm", "--request", "llm.request"], "raw (llm) and request (llm.request) name one member"),
        (["--log-format", "nope.toml"], "nope.toml: no such file"),
    ])
    def test_a_bad_path_or_format_is_one_line_and_2(self, logs, capsys, args, words):
        assert words in refused(capsys, logs / "logs", *args)

    def test_a_format_file_that_is_not_one(self, logs, capsys, tmp_path):
        bad = tmp_path / "bad.toml"
        bad.write_text('raw = "x"\ncolour = "red"\n')
        assert "bad.toml: unknown key 'colour'" in refused(capsys, logs / "logs", "--log-format", bad)

    def test_a_format_file_nested_too_deeply(self, logs, capsys, tmp_path):
        deep = tmp_path / "deep.toml"
        deep.write_text("by = " + "[" * 900 + "]" * 900 + "\n")  # 1.8 KB: past the TOML parser's stack
        assert "deep.toml: not valid TOML: nested too deeply" in refused(capsys, logs / "logs", "--log-format", deep)

    def test_a_glob_or_directory_without_logs(self, logs, capsys, tmp_path):
        assert "no file matches this pattern" in refused(capsys, tmp_path / "*.jsonl")
        assert "the directory holds no log" in refused(capsys, tmp_path)
        assert "no file matches" in refused(capsys, logs / "logs" / "a.jsonl", "--against", tmp_path / "*.gz")

    def test_the_help_says_it(self, capsys):
        with pytest.raises(SystemExit):
            main(["triage", "--help"])
        text = " ".join(capsys.readouterr().out.split())
        for words in ("--raw PATH", "--request-extra {strict,ignore}", "--log-format NAME|FILE",
                      "a JSON pointer when it starts with /", '"raw_logged_as": "json"', "request_extra = \"ignore\"",
                      "a quoted glob ('logs/*.jsonl', its files sorted) or a directory", "--by file: file=LOG"):
            assert words in text, words
