"""``inspector synth``: a synthetic log (and its registry) that triages to the
generator's known mix; gzip; never replacing or writing through a file; every
refusal one line and exit status 2, with nothing written."""

from __future__ import annotations

import errno
import gzip
import io
import json
import os
from collections import Counter
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.triage.synth import Mix, registry_json, write_log

from support import one_line_error, run_main, tree

LINES, SEED = 1200, 7


def known_mix(lines: int = LINES, seed: int = SEED) -> Mix:
    """What the generator means the log to hold, written nowhere."""
    return write_log(io.BytesIO(), lines, seed)


def listing(path: Path) -> list[str]:
    """Every name in ``path``, hidden ones (a temporary file) included."""
    return sorted(os.listdir(path))


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> tuple[Path, Path, str]:
    folder = tmp_path_factory.mktemp("synth")
    log, registry = folder / "app.jsonl", folder / "registry.json"
    status, out, err = run_main(None, "synth", log, "--lines", LINES, "--seed", SEED, "--registry", registry)
    assert status == 0 and err == "", err
    return log, registry, out


class TestWritten:
    def test_one_line_says_what_was_written(self, written):
        log, registry, out = written
        mix = known_mix()
        assert out == (f"wrote {LINES:,} lines ({mix.records:,} records, {len(mix.bad)} bad lines, seed {SEED}) "
                       f"to {log}; the registry to {registry}\n")

    def test_the_generators_log_and_registry(self, written, tmp_path):
        log, registry, _ = written
        write_log(tmp_path / "same.jsonl", LINES, SEED)
        assert log.read_bytes() == (tmp_path / "same.jsonl").read_bytes()
        assert registry.read_text("utf-8") == registry_json()
        assert listing(log.parent) == ["app.jsonl", "registry.json"]  # no temporary file left

    def test_it_triages_to_the_known_mix(self, written, capsys):
        log, registry, _ = written
        mix = known_mix()
        status, out, err = run_main(capsys, "triage", log, "--registry", registry, "--format", "json", "--by", "model")
        assert status == 0, err
        document = json.loads(out)
        assert (document["lines"], document["records"], document["bad_lines"]) == (LINES, mix.records, len(mix.bad))
        assert [bad["line"] for bad in document["bad"]] == [line for line, _ in mix.bad]
        assert {k: v for k, v in document["by_check"].items() if v} == dict(mix.statuses)
        reasons = {label: n for label, n in mix.labels.items() if "/" in label}
        assert {k: v for k, v in document["by_reason"].items() if v} == reasons
        assert document["by_blame"] == dict(mix.blame)
        models = Counter()
        for (model, _), n in mix.models.items():
            models[model] += n
        assert {group["value"]: group["records"] for group in document["by"]["model"]} == dict(models)

    def test_the_summary_says_the_same(self, written, capsys):
        log, registry, _ = written
        mix = known_mix()
        status, out, err = run_main(capsys, "triage", log, "--registry", registry, "--summary")
        assert status == 0 and err == "", err
        assert f"{LINES:,} lines · {mix.records:,} records · {len(mix.bad)} bad lines" in out
        assert f"rung:contract (contract) {mix.statuses['ACCEPT']:,}/{mix.records:,}" in out


class TestGzip:
    @pytest.mark.parametrize("how", ["--gz", ".gz"])
    def test_gzipped_holds_the_same_log(self, tmp_path, capsys, how):
        name = "app.jsonl.gz" if how == ".gz" else "app.jsonl"
        log = tmp_path / name
        assert main(["synth", str(log), "--lines", "300", "--seed", "3", *(["--gz"] if how == "--gz" else [])]) == 0
        assert ", gzipped, seed 3) to " in capsys.readouterr().out
        write_log(tmp_path / "plain.txt", 300, 3)
        assert gzip.decompress(log.read_bytes()) == (tmp_path / "plain.txt").read_bytes()

    def test_the_same_seed_gives_the_same_bytes(self, tmp_path, capsys):
        for name in ("a.jsonl.gz", "b.jsonl.gz"):
            assert main(["synth", str(tmp_path / name), "--lines", "200"]) == 0
        assert (tmp_path / "a.jsonl.gz").read_bytes() == (tmp_path / "b.jsonl.gz").read_bytes()

    def test_a_gzipped_log_triages(self, tmp_path, capsys):
        log, registry = tmp_path / "app.jsonl.gz", tmp_path / "registry.json"
        assert run_main(capsys, "synth", log, "--lines", 400, "--seed", 5, "--registry", registry)[0] == 0
        _, out, _ = run_main(capsys, "triage", log, "--registry", registry, "--format", "json")
        assert json.loads(out)["records"] == known_mix(400, 5).records


class TestShapes:
    @pytest.mark.parametrize("shape, gz", [("openai", False), ("envelope", True)])
    def test_a_shape_is_the_generators_lines_in_it(self, tmp_path, capsys, shape, gz):
        log = tmp_path / "app.jsonl"
        assert main(["synth", str(log), "--lines", "60", "--seed", "3", "--shape", shape, *(["--gz"] if gz else [])]) == 0
        mix = write_log(tmp_path / "same.txt", 60, 3, shape=shape)
        assert capsys.readouterr().out == (f"wrote 60 lines ({mix.records} records, {len(mix.bad)} bad lines"
                                           f"{', gzipped' if gz else ''}, seed 3, the {shape} shape) to {log}\n")
        written = gzip.decompress(log.read_bytes()) if gz else log.read_bytes()
        plain = io.BytesIO()
        write_log(plain, 60, 3)
        assert written == (tmp_path / "same.txt").read_bytes() and written != plain.getvalue()

    def test_the_parser_offers_the_generators_shapes(self, tmp_path, capsys):
        from inspector.cli.synth import SHAPES as OFFERED
        from inspector.triage.synth import SHAPES

        assert OFFERED == SHAPES
        with pytest.raises(SystemExit) as exited:
            main(["synth", str(tmp_path / "app.jsonl"), "--lines", "5", "--shape", "xml"])
        assert exited.value.code == 2 and listing(tmp_path) == []
        assert "argument --shape: invalid choice: 'xml' (choose from 'plain', 'openai', 'envelope')" in \
            capsys.readouterr().err


class TestNeverReplaces:
    """Whatever is in the way, it stays as it was, and nothing else is written."""

    def refused(self, capsys, argv: list[str], *names: str) -> None:
        assert main(["synth", *argv]) == 2
        out, err = capsys.readouterr()
        assert out == ""
        one_line_error(err, *names)

    def test_an_existing_log(self, tmp_path, capsys):
        log = tmp_path / "app.jsonl"
        log.write_bytes(b"mine\n")
        self.refused(capsys, [str(log), "--lines", "10", "--registry", str(tmp_path / "g.json")],
                     str(log), "already exists; refusing to overwrite")
        assert log.read_bytes() == b"mine\n" and listing(tmp_path) == ["app.jsonl"]

    def test_an_existing_registry(self, tmp_path, capsys):
        registry = tmp_path / "g.json"
        registry.write_bytes(b"{}")
        self.refused(capsys, [str(tmp_path / "app.jsonl"), "--lines", "10", "--registry", str(registry)],
                     str(registry), "already exists")
        assert registry.read_bytes() == b"{}" and listing(tmp_path) == ["g.json"]

    @pytest.mark.parametrize("dangling", [False, True], ids=["symlink", "dangling-symlink"])
    def test_a_symlink_at_the_log(self, tmp_path, capsys, dangling):
        theirs, log = tmp_path / "theirs.jsonl", tmp_path / "app.jsonl"
        if not dangling:
            theirs.write_bytes(b"theirs\n")
        log.symlink_to(theirs)
        self.refused(capsys, [str(log), "--lines", "10"], str(log), "already exists")
        assert log.is_symlink() and os.readlink(log) == str(theirs)
        assert theirs.exists() != dangling and (dangling or theirs.read_bytes() == b"theirs\n")

    def test_a_symlink_at_the_registry(self, tmp_path, capsys):
        theirs, registry = tmp_path / "theirs.json", tmp_path / "g.json"
        registry.symlink_to(theirs)
        self.refused(capsys, [str(tmp_path / "app.jsonl"), "--lines", "10", "--registry", str(registry)],
                     str(registry), "already exists")
        assert not theirs.exists() and listing(tmp_path) == ["g.json"]

    def test_a_directory_at_the_log(self, tmp_path, capsys):
        (tmp_path / "app.jsonl").mkdir()
        self.refused(capsys, [str(tmp_path / "app.jsonl"), "--lines", "10"], "app.jsonl", "already exists")

    def test_log_and_registry_the_same_file(self, tmp_path, capsys):
        log = tmp_path / "app.jsonl"
        self.refused(capsys, [str(log), "--lines", "10", "--registry", str(tmp_path / "." / "app.jsonl")],
                     str(log), "the same file")
        assert listing(tmp_path) == []


class TestRefusals:
    @pytest.mark.parametrize("lines", ["0", "-5"])
    def test_lines_must_be_positive(self, tmp_path, capsys, lines):
        assert main(["synth", str(tmp_path / "app.jsonl"), "--lines", lines]) == 2
        one_line_error(capsys.readouterr().err, "--lines N takes a positive N")
        assert listing(tmp_path) == []

    @pytest.mark.parametrize("argv", [["--lines", "many"], [], ["--lines", "5", "--seed", "x"]],
                             ids=["not-a-number", "no-lines", "bad-seed"])
    def test_a_bad_option_is_a_usage_error(self, tmp_path, argv, capsys):
        status, _, err = run_main(capsys, "synth", tmp_path / "app.jsonl", *argv)
        assert status == 2 and "Traceback" not in err and "inspector synth: error:" in err
        assert listing(tmp_path) == []

    def test_standard_output_is_not_a_log(self, tmp_path, capsys):
        assert main(["synth", "-", "--lines", "5"]) == 2
        one_line_error(capsys.readouterr().err, "not standard output")

    def test_a_missing_directory(self, tmp_path, capsys):
        log = tmp_path / "nope" / "app.jsonl"
        assert main(["synth", str(log), "--lines", "5"]) == 2
        one_line_error(capsys.readouterr().err, str(log), f"no such directory: {tmp_path / 'nope'}")
        assert listing(tmp_path) == []

    def test_a_missing_directory_for_the_registry_writes_no_log(self, tmp_path, capsys):
        registry = tmp_path / "nope" / "g.json"
        assert main(["synth", str(tmp_path / "app.jsonl"), "--lines", "5", "--registry", str(registry)]) == 2
        one_line_error(capsys.readouterr().err, str(registry), "no such directory")
        assert listing(tmp_path) == []

    def test_never_into_the_bundled_fixtures(self, tmp_path, capsys, bundled_tree):
        (tmp_path / "mine").symlink_to(bundled_tree / "registries")
        for args, place in ((["synth", str(bundled_tree / "app.jsonl")], "fixtures/app.jsonl"),
                            (["synth", str(bundled_tree / "logs" / "app.jsonl"), "--shape", "openai"],
                             "fixtures/logs/app.jsonl"),
                            (["synth", str(tmp_path / "app.jsonl"), "--registry", str(tmp_path / "mine" / "g.json")],
                             "fixtures/registries/g.json")):
            assert main([*args, "--lines", "5"]) == 2
            line = one_line_error(capsys.readouterr().err)
            assert line.endswith(f"is inside the bundled fixtures ({place}); write elsewhere")
        assert listing(tmp_path) == ["mine"]  # the log beside a refused registry is not written either

    def test_the_generators_helpers_refuse_the_fixtures(self, tmp_path, protected_copy):
        from inspector.io.writing import ProtectedTarget
        from inspector.triage.synth import write_registry

        before = tree(protected_copy)
        with pytest.raises(ProtectedTarget):
            write_log(protected_copy / "payments" / "app.jsonl", 5)
        with pytest.raises(ProtectedTarget):
            write_registry(protected_copy / "registries" / "g.json")
        assert tree(protected_copy) == before

    def test_a_file_where_the_directory_should_be(self, tmp_path, capsys):
        (tmp_path / "file").write_bytes(b"")
        assert main(["synth", str(tmp_path / "file" / "app.jsonl"), "--lines", "5"]) == 2
        one_line_error(capsys.readouterr().err, "is not a directory")

    def test_an_unwritable_directory(self, tmp_path, capsys, monkeypatch):
        folder = tmp_path / "ro"
        folder.mkdir()
        if os.geteuid() == 0:  # root writes anyway: the file system says no instead
            real_open = os.open

            def refusing(path, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
                if str(path).startswith(str(folder)):
                    raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
                return real_open(path, *args, **kwargs)

            monkeypatch.setattr(os, "open", refusing)
        else:
            folder.chmod(0o500)
        try:
            assert main(["synth", str(folder / "app.jsonl"), "--lines", "5"]) == 2
        finally:
            folder.chmod(0o700)
        one_line_error(capsys.readouterr().err, str(folder / "app.jsonl"), "Permission denied")
        assert listing(folder) == []

    def test_a_full_disk_leaves_neither_file(self, tmp_path, capsys, monkeypatch):
        real_write = os.write
        budget = [200_000]

        def filling(fd, data):  # noqa: ANN001
            if budget[0] <= 0:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            budget[0] -= len(data)
            return real_write(fd, data)

        monkeypatch.setattr(os, "write", filling)
        log = tmp_path / "app.jsonl"
        assert main(["synth", str(log), "--lines", "2000", "--registry", str(tmp_path / "g.json")]) == 2
        one_line_error(capsys.readouterr().err, str(log), "No space left on device")
        assert listing(tmp_path) == []
