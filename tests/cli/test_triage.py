"""``inspector triage``: the headless summary (text and JSON), exit statuses,
--against, --export into a suite that load_suite and audit read, the refusals."""

from __future__ import annotations

import gzip
import json
import os
import stat
import subprocess
import sys
import zlib

import pytest

from inspector.contract.checks import STATUSES
from inspector.suites.load import load_suite
from inspector.triage.synth import write_log, write_registry

from support import ANSWERS, PAYMENTS_REGISTRY, PAYMENTS_REQUEST, ROOT, decoded, one_line_error, run_cli, run_main, tree


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    folder = tmp_path_factory.mktemp("triage-cli")
    registry = write_registry(folder / "registry.json")
    mix = write_log(folder / "app.jsonl", 500, seed=7)
    return folder, registry, mix


def summary(capsys, *args, input: bytes | None = None) -> dict:
    """The JSON summary of ``triage ARGS``: in this process, or (``capsys`` None) in a
    subprocess, for a test of what worker processes do."""
    if capsys is None:
        proc = run_cli("triage", *args, "--format", "json", input=input)
        status, (out, err) = proc.returncode, decoded(proc)
    else:
        status, out, err = run_main(capsys, "triage", *args, "--format", "json", input=input)
    assert status == 0, err
    return json.loads(out)


def record(answer: str, **meta) -> str:
    return json.dumps({**meta, "raw": (ANSWERS / answer).read_text(), "request": json.loads(PAYMENTS_REQUEST.read_text())})


class TestSummary:
    def test_the_json_keeps_the_issue_names(self, made, capsys):
        folder, registry, mix = made
        document = summary(capsys, folder / "app.jsonl", "--registry", registry, "--by", "model")
        assert document["schema"] == "inspector.triage/1"
        assert document["records"] == mix.records and document["bad_lines"] == len(mix.bad)
        assert [(bad["file"], bad["line"]) for bad in document["bad"]] == \
            [(str(folder / "app.jsonl"), line) for line, _ in mix.bad]
        assert set(document["by_check"]) == set(STATUSES)  # ACCEPT included, no sub-reasons
        assert document["by_check"]["INVALID_JSON"] == mix.statuses["INVALID_JSON"]
        assert document["by_reason"]["INVALID_JSON/SYNTAX"] == mix.labels["INVALID_JSON/SYNTAX"]
        names = {group["group"] for group in document["groups"]}
        assert {"ACCEPT", "reason:INVALID_JSON/SYNTAX", "model=gpt-x", "bad", "blame:retrieval",
                "rung:citation_only", "false_accept:citation_only"} <= names
        assert {"by_claim", "by_scope", "by", "by_blame", "by_category", "ladder", "timeline", "window",
                "citation_only_false_accepts"} <= set(document)
        assert sum(bar["records"] for bar in document["timeline"]["bars"]) == mix.records - mix.no_ts

    def test_the_text_lists_group_names_and_fits_the_terminal(self, made):
        folder, registry, _ = made
        proc = subprocess.run([sys.executable, "-m", "inspector", "triage", str(folder / "app.jsonl"), "--registry",
                               str(registry), "--summary", "--by", "model"], capture_output=True, cwd=ROOT,
                              env={**os.environ, "COLUMNS": "80", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"})
        out, err = decoded(proc)
        assert proc.returncode == 0 and err == ""  # no progress bar when standard error is piped
        for name in ("ACCEPT", "reason:INVALID_JSON/SYNTAX", "model=gpt-x", "category:", "scope:", "claim:",
                     "bad line"):
            assert name in out
        assert max(len(line) for line in out.splitlines()) <= 80
        # The article's rungs are called rungs (docs/glossary.md): a ladder counts checks.
        rungs = next(line for line in out.splitlines() if line.startswith("rungs "))
        assert "strict JSON" in rungs and "rung:strict_json" in rungs
        assert not any(line.startswith("ladder") for line in out.splitlines())

    def test_the_text_prints_every_kind_of_name_export_takes(self, made, capsys, monkeypatch):
        """blame:, rung: and false_accept: groups were counted in the text, never named: each kind
        --export takes is printed as --export takes it."""
        from inspector.cli import main
        from inspector.triage.groups import KINDS

        folder, registry, _ = made
        monkeypatch.setenv("COLUMNS", "200")
        assert main(["triage", str(folder / "app.jsonl"), "--registry", str(registry), "--summary",
                     "--by", "model"]) == 0
        out = capsys.readouterr().out
        # A new kind is named in this test too (the pivot's pairs and an item's trials are the overview's, never
        # the summary's).
        assert [kind for kind in KINDS if kind not in ("pivot", "item")] == list(KINDS[:10]) and len(KINDS) == 12
        for name in ("ACCEPT", "reason:INVALID_JSON/SYNTAX", "claim:", "scope:", "model=gpt-x", "blame:retrieval",
                     "blame:generation", "category:", "rung:strict_json", "rung:citation_only", "rung:contract",
                     "false_accept:citation_only", "the group bad"):
            assert name in out, name
        assert "--export NAME --out SUITE" in out

    def test_a_population_groups_rejected_share(self, capsys, monkeypatch, tmp_path):
        from inspector.cli import main

        log = tmp_path / "models.jsonl"
        log.write_text("\n".join([record("accept.json", model="gpt-x")] * 9 + [record("value-mismatch.json",
                                                                                      model="llama-z")] * 3
                                 + [record("accept.json", model="llama-z")]) + "\n")
        monkeypatch.setenv("COLUMNS", "120")
        assert main(["triage", str(log), "--registry", str(PAYMENTS_REGISTRY), "--summary", "--by", "model"]) == 0
        row = next(line for line in capsys.readouterr().out.splitlines() if "model=llama-z" in line)
        assert "30.8%" in row and "75.0%" in row  # its share of the records, and of its own records rejected

    def test_hostile_metadata_is_shown_escaped(self, tmp_path, capsys):
        log = tmp_path / "hostile.jsonl"
        log.write_text(record("accept.json", model="gpt\x1b]52;c;x\x07\u202e") + "\n")
        _, out, _ = run_main(capsys, "triage", log, "--registry", PAYMENTS_REGISTRY, "--summary", "--by", "model")
        assert "\x1b" not in out and "\u202e" not in out and "model=gpt\\u001b]52;c;x\\u0007\\u202e" in out

    def test_empty_log(self, tmp_path, capsys):
        log = tmp_path / "empty.jsonl"
        log.write_bytes(b"")
        document = summary(capsys, log, "--registry", PAYMENTS_REGISTRY)
        assert (document["records"], document["bad_lines"], document["bad"]) == (0, 0, [])
        assert run_main(capsys, "triage", log, "--registry", PAYMENTS_REGISTRY, "--summary")[0] == 0

    def test_standard_input_and_several_logs(self, made, capsys):
        folder, registry, mix = made
        data = (folder / "app.jsonl").read_bytes()
        document = summary(capsys, "-", folder / "app.jsonl", "--registry", registry, input=data)
        assert document["records"] == 2 * mix.records
        assert {bad["file"] for bad in document["bad"]} == {"-", str(folder / "app.jsonl")}

    def test_since_until(self, made, capsys):
        folder, registry, mix = made
        dated = sorted(s for s in mix.stamps if s is not None)
        since = (dated[99] + dated[100]) / 2
        document = summary(capsys, folder / "app.jsonl", "--registry", registry, "--since", str(since))
        assert document["records"] == len(dated) - 100
        assert document["window"]["undated"] == mix.no_ts


class TestAgainst:
    def test_every_group_before_and_after_with_its_test(self, tmp_path, capsys):
        before, now = tmp_path / "before.jsonl", tmp_path / "now.jsonl"
        before.write_text("\n".join([record("accept.json")] * 8 + [record("value-mismatch.json")] * 2) + "\n")
        now.write_text("\n".join([record("accept.json")] * 4 + [record("value-mismatch.json")] * 2
                                 + [record("stale-revision.json")] * 4) + "\n")
        document = summary(capsys, now, "--registry", PAYMENTS_REGISTRY, "--against", before)
        assert document["against"]["records"] == 10 and "changes" not in document["against"]
        comparison = document["comparison"]
        assert (comparison["fdr"], comparison["correction"]) == (0.01, "Benjamini-Hochberg")
        assert "z-test" in comparison["test"] and comparison["tested"] == 0  # ten records a side: none tested
        shifts = {shift["group"]: shift for shift in comparison["groups"]}
        stale = shifts["STALE_REVISION"]
        assert stale["before"] == {"count": 0, "of": 10, "rate": 0.0} and stale["after"]["count"] == 4
        assert stale["change"] == 0.4 and stale["new"] and not stale["vanished"]
        assert shifts["ACCEPT"]["change"] == -0.4
        unchanged = shifts["VALUE_MISMATCH"]
        assert (unchanged["before"]["count"], unchanged["after"]["count"], unchanged["change"]) == (2, 2, 0.0)
        assert unchanged["p"] == 1.0 and not unchanged["significant"]
        scope = next(shift for shift in comparison["groups"] if shift["kind"] == "scope")
        assert scope["measure"] == "rejected" and scope["before"] == {"count": 2, "of": 10, "rate": 0.2}
        assert scope["after"] == {"count": 6, "of": 10, "rate": 0.6}
        # ten records a side are too few for the normal approximation: nothing is called significant
        assert not any(shift["significant"] for shift in comparison["groups"])

    def test_the_comparison_comes_first_in_the_text(self, tmp_path, capsys, monkeypatch):
        from inspector.cli import main

        before, now = tmp_path / "before.jsonl", tmp_path / "now.jsonl"
        before.write_text("\n".join([record("accept.json", model="gpt-x")] * 60
                                    + [record("accept.json", model="llama-z")] * 30
                                    + [record("value-mismatch.json", model="llama-z")] * 30) + "\n")
        now.write_text("\n".join([record("accept.json", model="gpt-x")] * 60
                                 + [record("accept.json", model="llama-z")] * 5
                                 + [record("value-mismatch.json", model="llama-z")] * 55) + "\n")
        monkeypatch.setenv("COLUMNS", "150")
        assert main(["triage", str(now), "--registry", str(PAYMENTS_REGISTRY), "--summary", "--by", "model",
                     "--against", str(before)]) == 0
        lines = capsys.readouterr().out.splitlines()
        head = " ".join(lines[:3])
        assert lines[0].startswith("against ") and "significant change(s) first" in head
        assert "q < 0.01, Benjamini-Hochberg over the" in head and "group(s) tested" in head
        rows = [line for line in lines if line.startswith("│")]
        # llama-z: 50.0% of its answers rejected, then 91.7%, at the same half of the traffic
        assert "model=llama-z" in rows[0] and "+41.7 pt" in rows[0] and "50.0%" in rows[0] and "91.7%" in rows[0]
        assert lines.index(next(line for line in lines if line.startswith("triage "))) > lines.index(rows[0])

class TestPivot:
    def test_the_json_and_the_text(self, made, capsys, monkeypatch):
        from inspector.cli import main

        folder, registry, mix = made
        assert main(["triage", str(folder / "app.jsonl"), "--registry", str(registry), "--format", "json",
                     "--pivot", "model,scope"]) == 0
        document = json.loads(capsys.readouterr().out)
        assert document["pivot"]["keys"] == ["model", "scope"] and "model" in document["by"]  # added to --by
        cells = document["pivot"]["cells"]
        assert sum(cell["records"] for cell in cells) == mix.records
        assert all(cell["a"].startswith("model=") and cell["b"].startswith("scope:") for cell in cells)
        monkeypatch.setenv("COLUMNS", "150")
        assert main(["triage", str(folder / "app.jsonl"), "--registry", str(registry), "--summary",
                     "--pivot", "model,prompt_version"]) == 0
        assert "model by prompt_version: each pair's records, their share of its model value's and the share of " \
            "them rejected" in " ".join(capsys.readouterr().out.split())

    @pytest.mark.parametrize("pivot", ["model", "model,model", ",scope"])
    def test_refused(self, made, capsys, pivot):
        from inspector.cli import main

        folder, registry, _ = made
        assert main(["triage", str(folder / "app.jsonl"), "--registry", str(registry), "--summary",
                     "--pivot", pivot]) == 2
        assert "--pivot" in one_line_error(capsys.readouterr().err)

    def test_of_the_summary_or_the_inspector_not_of_a_quiet_export(self, made, capsys, tmp_path, monkeypatch):
        from inspector.cli import main
        from inspector.tui import launch

        folder, registry, _ = made
        assert main(["triage", str(folder / "app.jsonl"), "--registry", str(registry), "--export", "ACCEPT",
                     "--out", str(tmp_path / "a.json"), "--pivot", "model,check"]) == 2
        assert "the inspector (p on the overview)" in one_line_error(capsys.readouterr().err)
        opened = []
        monkeypatch.setattr(launch, "open_triage", lambda run: opened.append(run) or 0)
        monkeypatch.setattr("inspector.cli.triage.isatty", lambda stream: True)
        assert main(["triage", str(folder / "app.jsonl"), "--registry", str(registry), "--pivot", "model,check"]) == 0
        assert opened[0].pivot == ("model", "check") and opened[0].options.by == ("model",)


class TestExport:
    def test_a_group_becomes_a_suite_that_audit_reads(self, made, tmp_path, capsys):
        folder, registry, mix = made
        out = tmp_path / "mismatch.json"
        status, _, err = run_main(capsys, "triage", folder / "app.jsonl", "--registry", registry, "--export",
                                  "VALUE_MISMATCH", "--out", out)
        assert status == 0, err
        suite = load_suite(out)
        assert len(suite.cases) == mix.statuses["VALUE_MISMATCH"]
        assert {case.expected for case in suite.cases} == {"VALUE_MISMATCH"}
        assert all(case.id.startswith("7-") and "from " in case.note and '"model"' in case.note for case in suite.cases)
        status, audit, _ = run_main(capsys, "audit", out, "--format", "json")
        assert status == 0, audit  # every verdict is its frozen label
        audited = json.loads(audit)["summary"]
        assert (audited["cases"], audited["label_mismatches"]) == (len(suite.cases), 0)

    def test_an_export_says_what_it_wrote_and_nothing_else(self, made, tmp_path, capsys):
        from inspector.cli import main

        folder, registry, mix = made
        out = tmp_path / "accepted.json"
        assert main(["triage", str(folder / "app.jsonl"), "--registry", str(registry), "--export", "ACCEPT",
                     "--out", str(out)]) == 0
        said = capsys.readouterr().out
        assert said == f"wrote {mix.statuses['ACCEPT']} case(s) of ACCEPT to {out}\n"
        with_summary = tmp_path / "with-summary.json"
        assert main(["triage", str(folder / "app.jsonl"), "--registry", str(registry), "--export", "ACCEPT",
                     "--out", str(with_summary), "--summary"]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert len(lines) > 20 and lines[-1] == f"wrote {mix.statuses['ACCEPT']} case(s) of ACCEPT to {with_summary}"

    @pytest.mark.parametrize("group", ["model=llama-z", "reason:NO_CITATION/QUOTE_NOT_FOUND", "blame:retrieval"])
    def test_other_kinds_of_group(self, made, tmp_path, group, capsys):
        folder, registry, _ = made
        out = tmp_path / "group.json"
        document = summary(capsys, folder / "app.jsonl", "--registry", registry, "--by", "model", "--export", group,
                           "--out", out, "--limit", "5")
        listed = next(g for g in document["groups"] if g["group"] == group)
        assert document["export"]["cases"] == min(5, listed["records"]) == len(load_suite(out).cases)
        assert run_main(capsys, "audit", out)[0] == 0

    def test_never_over_an_existing_file(self, made, tmp_path, capsys):
        folder, registry, _ = made
        out = tmp_path / "taken.json"
        out.write_text("mine")
        status, _, err = run_main(capsys, "triage", folder / "app.jsonl", "--registry", registry, "--export", "ACCEPT",
                                  "--out", out)
        assert status == 2 and "refusing to overwrite" in one_line_error(err)
        assert out.read_text() == "mine"

    def test_nothing_is_left_when_writing_fails(self, made, tmp_path, capsys):
        folder, registry, _ = made
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
        try:
            if os.access(locked, os.W_OK):
                pytest.skip("running as a user who may write anyway")
            status, _, err = run_main(capsys, "triage", folder / "app.jsonl", "--registry", registry, "--export",
                                      "ACCEPT", "--out", locked / "x.json")
            assert status == 2 and "nothing was written" in one_line_error(err)
            assert list(locked.iterdir()) == []
        finally:
            locked.chmod(stat.S_IRWXU)

    def test_a_full_disk_leaves_nothing(self, made, tmp_path, monkeypatch):
        # The write goes through io.writing: a failing write removes its temporary file.
        from inspector.io import writing
        from inspector.triage.export import ExportError, export_suite
        from inspector.suites.load import load_registry

        def full(fd, data):
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(writing.os, "write", full)
        with pytest.raises(ExportError, match="No space left"):
            export_suite(tmp_path / "x.json", "ACCEPT", load_registry(PAYMENTS_REGISTRY),
                         [("log", 1, 0, record("accept.json").encode(), "ACCEPT")], ["log"])
        assert list(tmp_path.iterdir()) == []

    def test_never_into_the_bundled_fixtures(self, made, tmp_path, bundled_tree, capsys):
        """A suite there is one plain inspector, audit and mutate would load: refused, directly or
        through a symlinked folder, at any depth, before the log is counted."""
        folder, registry, _ = made
        (tmp_path / "mine").symlink_to(bundled_tree / "payments")
        for out, place in ((bundled_tree / "new.json", "fixtures/new.json"),
                           (bundled_tree / "registries" / "new.json", "fixtures/registries/new.json"),
                           (tmp_path / "mine" / "answers" / "new.json", "fixtures/payments/answers/new.json")):
            status, _, err = run_main(capsys, "triage", folder / "app.jsonl", "--registry", registry, "--export",
                                      "ACCEPT", "--out", out)
            line = one_line_error(err, str(out))
            assert status == 2
            assert line.endswith(f"is inside the bundled fixtures ({place}); write elsewhere")
        # Before counting: a log that does not exist is not even looked at.
        status, _, err = run_main(capsys, "triage", tmp_path / "missing.jsonl", "--registry", registry, "--export",
                                  "ACCEPT", "--out", bundled_tree / "new.json")
        assert status == 2 and "bundled fixtures" in one_line_error(err)

    def test_export_suite_refuses_a_protected_tree(self, tmp_path, protected_copy):
        from inspector.suites.load import load_registry
        from inspector.triage.export import ExportError, export_suite

        before = tree(protected_copy)
        (tmp_path / "via").symlink_to(protected_copy)
        for out in (protected_copy / "x.json", tmp_path / "via" / "payments" / "x.json"):
            with pytest.raises(ExportError, match="is inside the bundled fixtures .*; nothing was written"):
                export_suite(out, "ACCEPT", load_registry(PAYMENTS_REGISTRY),
                             [("log", 1, 0, record("accept.json").encode(), "ACCEPT")], ["log"])
        assert tree(protected_copy) == before

    @pytest.mark.parametrize("group, words", [("NOPE", "no group named 'NOPE'"),
                                              ("VALUE_MISMATC", "did you mean VALUE_MISMATCH"),
                                              ("bad", "cannot be exported")])
    def test_unknown_and_bad_groups(self, made, tmp_path, group, words, capsys):
        folder, registry, _ = made
        status, _, err = run_main(capsys, "triage", folder / "app.jsonl", "--registry", registry, "--export", group,
                                  "--out", tmp_path / "x.json")
        assert status == 2 and words in one_line_error(err)
        assert not (tmp_path / "x.json").exists()


class TestExitStatus:
    @pytest.mark.parametrize("make", ["missing-log", "missing-registry", "directory", "fifo", "since"])
    def test_unusable_input_is_one_line_and_2(self, made, tmp_path, make, capsys):
        folder, registry, _ = made
        log, extra = folder / "app.jsonl", []
        if make == "missing-log":
            log = tmp_path / "nope.jsonl"
        elif make == "missing-registry":
            registry = tmp_path / "nope.json"
        elif make == "directory":
            log = tmp_path
        elif make == "fifo":
            log = tmp_path / "fifo"
            os.mkfifo(log)
        else:
            extra = ["--since", "last tuesday"]
        if make == "fifo":  # in a subprocess: a command that blocked on the FIFO would meet the timeout
            proc = run_cli("triage", log, "--registry", registry, "--summary", *extra, timeout=30)
            status, err = proc.returncode, decoded(proc)[1]
        else:
            status, _, err = run_main(capsys, "triage", log, "--registry", registry, "--summary", *extra)
        assert status == 2
        one_line_error(err)

    def test_without_summary_the_inspector_needs_a_terminal(self, made):
        folder, registry, _ = made
        proc = run_cli("triage", folder / "app.jsonl", "--registry", registry)
        assert proc.returncode == 2 and "needs a terminal" in one_line_error(decoded(proc)[1])

    def test_the_headless_path_never_loads_textual(self, made):
        folder, registry, _ = made
        body = (f"import sys, contextlib, io\nfrom inspector.cli import main\n"
                f"with contextlib.redirect_stdout(io.StringIO()):\n"
                f"    main(['triage', {str(folder / 'app.jsonl')!r}, '--registry', {str(registry)!r}, '--format', 'json'])\n"
                "print('textual' in {m.split('.')[0] for m in sys.modules})")
        proc = subprocess.run([sys.executable, "-c", body], capture_output=True, text=True, cwd=ROOT)
        assert proc.stdout.strip().splitlines()[-1] == "False", proc.stderr

    @pytest.mark.parametrize("stdin", ["write-only", "closed"])
    def test_unreadable_standard_input_is_one_line_and_2_nothing_counted(self, made, tmp_path, stdin):
        registry = made[1]
        with open(tmp_path / "written", "wb") as written:
            proc = subprocess.run(
                [sys.executable, "-m", "inspector", "triage", "-", "--registry", str(registry), "--summary"],
                stdin=written if stdin == "write-only" else None, capture_output=True, cwd=ROOT, timeout=60,
                check=False,
                **({"preexec_fn": lambda: os.close(0)} if stdin == "closed" else {}))
        out, err = decoded(proc)
        assert proc.returncode == 2 and out == ""
        assert {"write-only": "open for writing only", "closed": "closed"}[stdin] in one_line_error(err)


class TestBrokenInput:
    """A .gz that breaks off: every line before the break counted, exit 4, and the summary says where."""

    @pytest.fixture(scope="class")
    def cut(self, made, tmp_path_factory):
        folder, registry, _ = made
        data = (folder / "app.jsonl").read_bytes()
        packed = gzip.compress(data)
        log = tmp_path_factory.mktemp("broken") / "cut.jsonl.gz"
        log.write_bytes(packed[:len(packed) // 2])
        inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        readable = b"".join(inflater.decompress(log.read_bytes()[at:at + 1])
                            for at in range(log.stat().st_size)).count(b"\n")  # what zcat writes
        return log, registry, readable

    def test_json_says_which_log_broke_off_after_which_line_and_exits_4(self, cut, capsys):
        log, registry, readable = cut
        status, out, err = run_main(capsys, "triage", log, "--registry", registry, "--format", "json")
        assert status == 4
        document = json.loads(out)
        assert document["lines"] == readable and 0 < readable < 500
        [broken] = document["broken"]
        assert (broken["file"], broken["after_line"]) == (str(log), readable) and "truncated" in broken["problem"]
        assert f"{log} broke off after line {readable:,}" in err and "Traceback" not in err

    def test_the_text_says_so_too(self, cut, capsys):
        log, registry, readable = cut
        status, out, _ = run_main(capsys, "triage", log, "--registry", registry, "--summary")
        assert status == 4
        assert "1 log(s) broke off" in out and f"{log} broke off after line {readable:,}: truncated" in out

    def test_garbage_after_a_complete_gz_keeps_every_line_and_warns(self, made, tmp_path, capsys):
        folder, registry, mix = made
        log = tmp_path / "garbage.jsonl.gz"
        log.write_bytes(gzip.compress((folder / "app.jsonl").read_bytes()) + b"\0" * 512)
        status, out, _ = run_main(capsys, "triage", log, "--registry", registry, "--format", "json")
        document = json.loads(out)
        assert status == 4 and document["lines"] == 500 and document["records"] == mix.records
        assert "512 byte(s) of trailing garbage" in document["broken"][0]["problem"]

    def test_a_whole_gz_exits_0_with_nothing_broken(self, made, tmp_path, capsys):
        folder, registry, _ = made
        log = tmp_path / "whole.jsonl.gz"
        log.write_bytes(gzip.compress((folder / "app.jsonl").read_bytes()))
        assert summary(capsys, log, "--registry", registry)["broken"] == []


@pytest.fixture(scope="module")
def hostile(tmp_path_factory, made):
    """The made log with 1,500 bad lines after it: more than the summary lists."""
    folder, registry, mix = made
    log = tmp_path_factory.mktemp("hostile") / "hostile.jsonl"
    log.write_bytes((folder / "app.jsonl").read_bytes() + b"".join(b"junk %d\n" % n for n in range(1500)))
    return log, registry, mix


class TestBounds:
    """Issue 17, items 6, 8 and 9: what the summary keeps is bounded, and says so."""

    def test_the_summary_lists_the_first_bad_lines_and_bad_lines_writes_every_one(self, hostile, tmp_path):
        log, registry, mix = hostile
        out = tmp_path / "bad.jsonl"
        document = summary(None, log, "--registry", registry, "--bad-lines", out, "--workers", "2")
        every = len(mix.bad) + 1500
        assert (document["bad_lines"], len(document["bad"]), document["bad_more"]) == (every, 1000, every - 1000)
        assert document["bad_kinds"]["not JSON"] >= 1500 and document["bad_lines_file"] == str(out)
        written = [json.loads(line) for line in out.read_text().splitlines()]
        assert len(written) == every and set(written[0]) == {"file", "line", "offset", "reason"}
        assert [bad["line"] for bad in written[-1500:]] == list(range(mix.lines + 1, mix.lines + 1501))
        assert [(bad["file"], bad["line"], bad["reason"]) for bad in written[:1000]] == \
            [(bad["file"], bad["line"], bad["error"]) for bad in document["bad"]]
        with open(log, "rb") as lines:
            lines.seek(written[-1]["offset"])
            assert lines.readline() == b"junk 1499\n"
        assert [path.name for path in tmp_path.iterdir()] == ["bad.jsonl"]  # no spill left behind

    def test_the_text_says_how_many_more_and_where_every_one_is(self, hostile, tmp_path, capsys):
        log, registry, mix = hostile
        status, out, err = run_main(capsys, "triage", log, "--registry", registry, "--summary", "--bad-lines",
                                    tmp_path / "bad.jsonl")
        assert status == 0, err
        every = len(mix.bad) + 1500
        assert f"{every:,} bad line(s), the group bad:" in out and "not JSON 1," in out
        assert f"… {every - 20:,} more (--format json lists the first 1,000, --bad-lines FILE every one)" in out
        assert f"wrote every bad line ({every:,}) to {tmp_path / 'bad.jsonl'}" in out

    @pytest.mark.parametrize("make", ["exists", "no-directory", "same-as-out"])
    def test_bad_lines_takes_a_new_file_checked_before_counting(self, hostile, tmp_path, make, capsys):
        log, registry, _ = hostile
        target, extra = tmp_path / "bad.jsonl", []
        if make == "exists":
            target.write_text("mine")
        elif make == "no-directory":
            target = tmp_path / "missing" / "bad.jsonl"
        else:
            extra = ["--export", "ACCEPT", "--out", target]
        status, out, err = run_main(capsys, "triage", log, "--registry", registry, "--summary", "--bad-lines", target,
                                    *extra)
        assert status == 2 and out == ""  # refused before a line is counted
        assert {"exists": "refusing to overwrite", "no-directory": "no such directory",
                "same-as-out": "name the same file"}[make] in one_line_error(err, "--bad-lines")
        assert [path.read_text() for path in tmp_path.iterdir()] == (["mine"] if make == "exists" else [])

    def test_a_broken_count_leaves_no_bad_lines_file(self, hostile, tmp_path, capsys):
        log, registry, _ = hostile
        status, _, err = run_main(capsys, "triage", log, tmp_path / "missing.jsonl", "--registry", registry,
                                  "--summary", "--bad-lines", tmp_path / "bad.jsonl")
        assert status == 2 and "missing.jsonl" in one_line_error(err)
        assert list(tmp_path.iterdir()) == []

    def test_by_past_the_bound_keeps_the_heaviest_and_says_so(self, made, tmp_path, monkeypatch, capsys):
        from inspector.cli import main
        from inspector.triage import tally

        folder, registry, mix = made
        monkeypatch.setattr(tally, "BY_VALUES", 50)
        assert main(["triage", str(folder / "app.jsonl"), "--registry", str(registry), "--format", "json",
                     "--by", "id", "--workers", "1"]) == 0
        document = json.loads(capsys.readouterr().out)
        rows = document["by"]["id"]
        assert len(rows) == 51 and rows[-1]["group"] == "other:id" and rows[-1]["other"] is True
        assert rows[-1]["records"] == mix.records - 50 == document["by_capped"]["id"]["other_records"]
        assert main(["triage", str(folder / "app.jsonl"), "--registry", str(registry), "--summary",
                     "--by", "id", "--workers", "1"]) == 0
        text = capsys.readouterr().out
        assert "by id: more than 50 distinct values: the 50 heaviest are groups" in text
        assert "other:id" in text.split("by id: more than")[0].rsplit("by id", 1)[1]  # the row, after the values
        # a value past the bound is still a group an export takes
        kept = {row["value"] for row in rows[:-1]}
        late = next(value for value in (json.loads(line).get("id") for line in
                                        reversed((folder / "app.jsonl").read_text().splitlines())
                                        if line.startswith("{") and '"raw"' in line)
                    if isinstance(value, str) and value not in kept)
        out = tmp_path / "late.json"
        assert main(["triage", str(folder / "app.jsonl"), "--registry", str(registry), "--by", "id",
                     "--export", f"id={late}", "--out", str(out), "--limit", "1", "--workers", "1"]) == 0
        assert len(load_suite(out).cases) == 1

    def test_the_help_says_the_engines_bounds(self, capsys):
        from inspector.cli.triage import EPILOG
        from inspector.triage.badlines import KEPT
        from inspector.cli.triage import MAX_WORKERS as SAID
        from inspector.triage.run import MAX_WORKERS
        from inspector.triage.tally import BY_VALUES

        assert SAID == MAX_WORKERS
        assert f"past {BY_VALUES:,} values" in EPILOG and f"lists the first {KEPT:,} bad lines" in EPILOG
        _, out, _ = run_main(capsys, "triage", "--help")
        assert f"the summary lists the first {KEPT:,}" in " ".join(out.split())

    def test_the_other_values_are_not_exported(self, made, tmp_path, capsys):
        folder, registry, _ = made
        status, _, err = run_main(capsys, "triage", folder / "app.jsonl", "--registry", registry, "--by", "id",
                                  "--export", "other:id", "--out", tmp_path / "x.json")
        assert status == 2 and "past the bound" in one_line_error(err)
        assert list(tmp_path.iterdir()) == []

    def test_export_with_a_limit_alone_stops_counting_there(self, made, tmp_path, capsys):
        folder, registry, _ = made
        out = tmp_path / "first.json"
        status, stdout, err = run_main(capsys, "triage", folder / "app.jsonl", "--registry", registry, "--export",
                                       "ACCEPT", "--out", out, "--limit", "3")
        assert status == 0, err
        said = f"wrote 3 case(s) of ACCEPT to {out} (the first ones: the counting stopped there)"
        assert stdout.splitlines() == [said]
        suite = load_suite(out)
        assert len(suite.cases) == 3 and {case.expected for case in suite.cases} == {"ACCEPT"}
