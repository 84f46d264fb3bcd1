"""io.locking: one writer at a time for a file several processes change (issue 29)."""

from __future__ import annotations

import os

import pytest

from inspector.io.locking import LockError, exclusive, lock_path
from inspector.io.writing import ProtectedTarget


class TestExclusive:
    def test_the_lock_is_a_hidden_sidecar_left_in_place_and_the_file_is_never_touched(self, tmp_path):
        path = tmp_path / "article.review.json"
        path.write_text("mine")
        with exclusive(path):
            assert lock_path(path) == tmp_path / ".article.review.json.lock" and lock_path(path).exists()
        assert path.read_text() == "mine" and lock_path(path).read_bytes() == b""

    def test_a_lock_held_elsewhere_past_the_wait_is_refused_and_free_again_after(self, tmp_path):
        path = tmp_path / "app.jsonl.annotations.jsonl"
        with exclusive(path):  # another open of the sidecar: its lock conflicts, as another process's would
            with pytest.raises(LockError, match="another process has held this lock for more than 0.05 s"):
                with exclusive(path, wait=0.05):
                    pass
        with exclusive(path, wait=0.05):
            pass

    def test_a_link_in_the_sidecars_place_is_refused(self, tmp_path):
        path = tmp_path / "article.review.json"
        elsewhere = tmp_path / "elsewhere"
        elsewhere.write_text("keep")
        os.symlink(elsewhere, lock_path(path))
        with pytest.raises(LockError, match="symbolic link"):
            with exclusive(path):
                pass
        assert elsewhere.read_text() == "keep"

    def test_no_lock_file_inside_a_protected_folder(self, protected_copy):
        path = protected_copy / "logs" / "sample.jsonl.annotations.jsonl"
        with pytest.raises(ProtectedTarget):
            with exclusive(path):
                pass
        assert not lock_path(path).exists()
