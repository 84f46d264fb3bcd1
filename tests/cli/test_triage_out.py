"""``inspector triage --export GROUP --out SUITE``: a bad --out is refused before
the count (issue 17, item 14), not after a day of logs was counted.

The log is standard input from a pipe that is never closed: a command that
started counting would wait on it, so an answer within the timeout is one
given before the count."""

from __future__ import annotations

import os
import stat
import subprocess
import sys

import pytest

from inspector.triage.export import ExportError, check_destination
from inspector.triage.synth import write_registry

from support import ROOT, one_line_error


@pytest.fixture(scope="module")
def registry(tmp_path_factory):
    return write_registry(tmp_path_factory.mktemp("triage-out") / "registry.json")


def refused_before_counting(registry, out) -> str:
    """The one error line of ``triage - --export ACCEPT --out OUT``, standard input left open."""
    proc = subprocess.Popen([sys.executable, "-m", "inspector", "triage", "-", "--registry", str(registry),
                             "--export", "ACCEPT", "--out", str(out)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    try:
        _, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        pytest.fail("the command started counting before it checked --out")
    finally:
        if proc.stdin is not None and not proc.stdin.closed:
            proc.stdin.close()
    assert proc.returncode == 2
    return one_line_error(err.decode("utf-8"))


class TestABadOutIsRefusedBeforeTheCount:
    def test_a_missing_folder(self, registry, tmp_path):
        line = refused_before_counting(registry, tmp_path / "nope" / "x.json")
        assert "nope: no such directory" in line
        assert not (tmp_path / "nope").exists()

    def test_a_folder_that_is_a_file(self, registry, tmp_path):
        (tmp_path / "file").write_text("mine")
        line = refused_before_counting(registry, tmp_path / "file" / "x.json")
        assert "file: exists and is not a directory" in line
        assert (tmp_path / "file").read_text() == "mine"

    def test_an_out_that_is_a_directory(self, registry, tmp_path):
        (tmp_path / "folder").mkdir()
        line = refused_before_counting(registry, tmp_path / "folder")
        assert "refusing to overwrite" in line or "not a regular file" in line

    def test_a_folder_not_writable(self, registry, tmp_path):
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(stat.S_IRUSR | stat.S_IXUSR)
        try:
            if os.access(locked, os.W_OK):
                pytest.skip("running as a user who may write anyway")
            line = refused_before_counting(registry, locked / "x.json")
            assert "locked: not writable" in line
            assert list(locked.iterdir()) == []
        finally:
            locked.chmod(stat.S_IRWXU)


class TestCheckDestination:
    def test_a_free_name_in_a_writable_folder_passes(self, tmp_path):
        check_destination(tmp_path / "x.json")
        assert list(tmp_path.iterdir()) == []  # asking writes nothing

    def test_not_writable_is_said(self, tmp_path, monkeypatch):
        # os.access as root says yes to everything: the check is asked of it all the same.
        monkeypatch.setattr(os, "access", lambda path, mode: False)
        with pytest.raises(ExportError, match="not writable"):
            check_destination(tmp_path / "x.json")

    def test_a_taken_name_is_refused(self, tmp_path):
        (tmp_path / "x.json").write_text("mine")
        with pytest.raises(ExportError, match="refusing to overwrite"):
            check_destination(tmp_path / "x.json")
