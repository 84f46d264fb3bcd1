"""``inspector triage LOG --follow --format jsonl --every SECONDS`` (issue 18): an
object a line while the log grows, the final one on a real SIGTERM or at the end
of a pipe, exit 0; the refusals, one line and exit 2."""

from __future__ import annotations

import gzip
import json
import os
import select
import signal
import subprocess
import sys
import time

import pytest

from inspector.cli import main
from inspector.triage.synth import write_log, write_registry
from inspector.triage.tally import VERDICT_LABELS

from support import ROOT, one_line_error

WAIT = 20.0  # seconds an object may take before the test calls it a hang


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    folder = tmp_path_factory.mktemp("triage-follow")
    registry = write_registry(folder / "registry.json")
    write_log(folder / "source.jsonl", 120, seed=9)
    return folder, registry, (folder / "source.jsonl").read_bytes().splitlines(keepends=True)


def start(*args: str, stdin: int | None = subprocess.DEVNULL) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "inspector", "triage", *args], stdin=stdin,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            env={**os.environ, "PYTHONIOENCODING": "utf-8", "NO_COLOR": "1"})


def next_object(proc: subprocess.Popen, until=lambda document: True) -> dict:
    """The next object the follow prints that ``until`` holds for (each line is flushed as printed)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if select.select([proc.stdout], [], [], 0.1)[0]:
            line = proc.stdout.readline()
            assert line, f"the follow ended: {proc.stderr.read().decode()}"
            document = json.loads(line)
            if until(document):
                return document
    proc.kill()  # the context's exit then waits for it
    raise AssertionError("no such object came")


def test_the_follow_prints_as_the_log_grows_and_a_sigterm_prints_the_final_object(made, tmp_path):
    folder, registry, lines = made
    log = tmp_path / "app.jsonl"
    log.write_bytes(b"".join(lines[:30]))
    with start(str(log), "--registry", str(registry), "--follow", "--format", "jsonl", "--every", "0.2") as proc:
        first = next_object(proc)
        assert first["schema"] == "inspector.triage.follow/1" and first["final"] is False
        assert first["total"]["lines"] == 30 and list(first["total"]["by_label"]) == list(VERDICT_LABELS)
        with open(log, "ab") as out:
            out.write(b"".join(lines[30:70]))
        grown = next_object(proc, lambda document: document["total"]["lines"] == 70)
        os.rename(log, tmp_path / "app.jsonl.1")
        log.write_bytes(b"".join(lines[70:75]))
        rotated = next_object(proc, lambda document: document["events"])
        assert [(event["event"], event["file"], event["after_line"]) for event in rotated["events"]] == \
            [("rotated", str(log), 70)]
        assert rotated["logs"][0]["generation"] == 2
        proc.send_signal(signal.SIGTERM)
        final = next_object(proc, lambda document: document["final"])
        assert proc.wait(WAIT) == 0 and proc.stderr.read() == b""
    assert final["total"]["lines"] == 75 and final["total"]["records"] == \
        sum(final["total"]["by_label"].values())
    assert grown["interval"]["lines"] <= 40 and grown["time"].endswith("Z")
    assert final["total"]["bad_lines"] + final["total"]["records"] == 75


def test_standard_input_is_followed_as_it_comes_and_its_end_is_the_final_object(made):
    _, registry, lines = made
    with start("-", "--registry", str(registry), "--follow", "--format", "jsonl", "--every", "0.2",
               stdin=subprocess.PIPE) as proc:
        proc.stdin.write(b"".join(lines[:25]))
        proc.stdin.flush()
        live = next_object(proc, lambda document: document["total"]["lines"] == 25)  # before the pipe closes
        assert live["final"] is False and live["logs"][0]["file"] == "-"
        proc.stdin.write(lines[25].rstrip(b"\n"))
        proc.stdin.close()
        events = []  # each said once, in the first object after it
        final = next_object(proc, lambda document: events.extend(document["events"]) or document["final"])
        assert proc.wait(WAIT) == 0
    assert final["total"]["lines"] == 26  # the last line, without its newline, at the end of the input
    assert [(event["event"], event["after_line"]) for event in events] == [("ended", 26)]
    assert final["logs"][0]["ended"] is True


@pytest.mark.parametrize(("extra", "says"), [
    (["--format", "jsonl"], "--format jsonl is the headless output of --follow"),
    (["--every", "5", "--summary"], "--every SECONDS says how often --follow --format jsonl prints"),
    (["--follow", "--every", "5"], "--every SECONDS says how often"),
    (["--follow", "--format", "jsonl", "--every", "0"], "--every SECONDS takes a positive number of seconds"),
    (["--follow", "--format", "jsonl", "--every", "-1"], "not '-1'"),
    (["--follow", "--format", "jsonl", "--every", "nan"], "not 'nan'"),
    (["--follow", "--format", "jsonl", "--every", "soon"], "not 'soon'"),
    (["--follow", "--format", "jsonl", "--against", "LOG"], "--against compares finished counts"),
    (["--follow", "--format", "jsonl", "--export", "ACCEPT", "--out", "x.json"], "--export writes a group's"),
    (["--follow", "--format", "jsonl", "--bad-lines", "bad.jsonl"], "--bad-lines FILE appears whole"),
    (["--follow", "--summary"], "--follow prints a summary object a line with --format jsonl"),
    (["--follow", "--format", "json"], "--follow prints a summary object a line with --format jsonl"),
    (["--follow", "--format", "jsonl", "--by", "model"], "--by groups the overview's counts"),
])
def test_what_follow_cannot_do_is_one_line_and_exit_2(made, capsys, extra, says):
    folder, registry, _ = made
    argv = [str(folder / "source.jsonl") if word == "LOG" else word for word in extra]
    assert main(["triage", str(folder / "source.jsonl"), "--registry", str(registry), *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and says in one_line_error(err)


def test_a_gz_or_standard_input_in_the_overview_cannot_be_followed(made, tmp_path, capsys):
    folder, registry, lines = made
    packed = tmp_path / "app.jsonl.gz"
    packed.write_bytes(gzip.compress(b"".join(lines[:5])))
    for argv in ([str(packed), "--follow", "--format", "jsonl"], [str(packed), "--follow"]):
        assert main(["triage", *argv, "--registry", str(registry)]) == 2
        assert "a .gz cannot be followed" in one_line_error(capsys.readouterr().err, str(packed))
    assert main(["triage", "-", "--follow", "--registry", str(registry)]) == 2
    assert "standard input (-) is followed headless only: add --format jsonl" in \
        one_line_error(capsys.readouterr().err)


def test_the_help_says_how_to_follow(capsys):
    with pytest.raises(SystemExit):
        main(["triage", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for words in ("--follow", "--every SECONDS", "inspector.triage.follow/1", "SIGINT or SIGTERM",
                  "A .gz cannot be followed", "a last line waits for its newline", "renamed and replaced"):
        assert words in text
