"""Writing outputs whole or not at all (inspector.io.writing, ``audit --out``,
``screenshots``): full disks, read-only directories, names already taken, modes.

A full disk is simulated in process by making ``os.write`` or ``os.fsync`` fail
with ENOSPC for files under the test's directory, and once for real in a
subprocess on a 64 KiB tmpfs (skipped where mounting is not permitted).  A
read-only directory is a read-only tmpfs when the tests run as root (root
ignores permission bits), else a directory of mode 0500."""

from __future__ import annotations

import errno
import os
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.io.writing import TargetExists, WriteError, check_free, create_files, write_files, write_new_directory

from support import ARTICLE, FIXTURES, decoded, one_line_error, run_bounded
from support.disks import mount_tmpfs, umount

FILES = {"results.json": b'{"a": 1}\n' * 100, "manifest.json": b"{}\n"}


def listing(path: Path) -> list[str]:
    """Every name under ``path``, hidden ones included, relative to it."""
    return sorted(str(p.relative_to(path)) for p in path.rglob("*"))


@pytest.fixture
def umask() -> Iterator[int]:
    """A known umask for the test (restored after)."""
    old = os.umask(0o027)
    try:
        yield 0o027
    finally:
        os.umask(old)


@pytest.fixture
def read_only_dir(tmp_path: Path) -> Iterator[Path]:
    """A directory nobody can write into, whoever runs the tests."""
    directory = tmp_path / "ro"
    directory.mkdir()
    if os.geteuid() != 0:
        directory.chmod(0o500)
        try:
            yield directory
        finally:
            directory.chmod(0o700)
        return
    if not mount_tmpfs(directory, "ro,size=64k"):
        pytest.skip("running as root and mounting a read-only tmpfs is not permitted")
    try:
        yield directory
    finally:
        umount(directory)


class TestNewDirectory:
    def test_files_appear_with_the_umask_mode(self, tmp_path, umask):
        target = tmp_path / "a" / "b" / "run"
        write_new_directory(target, FILES)
        assert listing(tmp_path) == ["a", "a/b", "a/b/run", "a/b/run/manifest.json", "a/b/run/results.json"]
        for name, data in FILES.items():
            assert (target / name).read_bytes() == data
            assert stat.S_IMODE((target / name).stat().st_mode) == 0o666 & ~umask
        assert stat.S_IMODE(target.stat().st_mode) == 0o777 & ~umask

    def test_an_empty_directory_is_filled(self, tmp_path):
        (tmp_path / "run").mkdir()
        write_new_directory(tmp_path / "run", FILES)
        assert listing(tmp_path) == ["run", "run/manifest.json", "run/results.json"]

    def test_a_non_empty_directory_is_refused(self, tmp_path):
        (tmp_path / "run").mkdir()
        (tmp_path / "run" / "keep").write_text("mine", "utf-8")
        with pytest.raises(WriteError, match="directory is not empty"):
            write_new_directory(tmp_path / "run", FILES)
        assert listing(tmp_path) == ["run", "run/keep"]

    def test_a_file_is_refused(self, tmp_path):
        (tmp_path / "run").write_text("x", "utf-8")
        with pytest.raises(WriteError, match="exists and is not a directory"):
            write_new_directory(tmp_path / "run", FILES)

    def test_a_dangling_link_is_refused(self, tmp_path):
        (tmp_path / "run").symlink_to(tmp_path / "nowhere")
        with pytest.raises(WriteError, match="symbolic link to nothing"):
            write_new_directory(tmp_path / "run", FILES)
        assert (tmp_path / "run").is_symlink()

    @pytest.mark.parametrize("allowed", [0, 10, len(FILES["results.json"]) + 1])
    def test_full_disk_leaves_nothing(self, tmp_path, disk_full, allowed):
        disk_full(allowed)
        with pytest.raises(WriteError) as caught:
            write_new_directory(tmp_path / "new" / "run", FILES)
        assert caught.value.reason == os.strerror(errno.ENOSPC)
        assert caught.value.path.startswith(str(tmp_path / "new" / "run"))
        assert listing(tmp_path) == []  # not the run, not its parent, no temporary sibling

    def test_failing_sync_leaves_nothing(self, tmp_path, disk_full):
        disk_full(on="fsync")
        with pytest.raises(WriteError, match="No space left"):
            write_new_directory(tmp_path / "run", FILES)
        assert listing(tmp_path) == []

    def test_full_disk_filling_an_empty_directory(self, tmp_path, disk_full):
        (tmp_path / "run").mkdir()
        disk_full(len(FILES["results.json"]) + 1)
        with pytest.raises(WriteError, match="No space left"):
            write_new_directory(tmp_path / "run", FILES)
        assert listing(tmp_path) == ["run"]

    def test_read_only_directory(self, read_only_dir):
        with pytest.raises(WriteError) as caught:
            write_new_directory(read_only_dir / "run", FILES)
        assert caught.value.reason in (os.strerror(errno.EROFS), os.strerror(errno.EACCES))
        assert os.listdir(read_only_dir) == []


class TestFilesIntoADirectory:
    def test_new_names(self, tmp_path, umask):
        (tmp_path / "other.txt").write_text("mine", "utf-8")
        write_files(tmp_path, {"a.svg": b"a", "b.svg": b"b"})
        assert listing(tmp_path) == ["a.svg", "b.svg", "other.txt"]
        assert stat.S_IMODE((tmp_path / "a.svg").stat().st_mode) == 0o666 & ~umask

    def test_existing_name_refused_and_nothing_written(self, tmp_path):
        (tmp_path / "b.svg").write_bytes(b"old")
        with pytest.raises(TargetExists, match="b.svg: already exists"):
            write_files(tmp_path, {"a.svg": b"a", "b.svg": b"b"})
        assert listing(tmp_path) == ["b.svg"] and (tmp_path / "b.svg").read_bytes() == b"old"

    def test_overwrite_replaces_with_a_new_file(self, tmp_path, umask):
        old = tmp_path / "b.svg"
        old.write_bytes(b"old")
        old.chmod(0o600)
        write_files(tmp_path, {"a.svg": b"a", "b.svg": b"b"}, overwrite=True)
        assert old.read_bytes() == b"b"
        assert stat.S_IMODE(old.stat().st_mode) == 0o666 & ~umask

    def test_a_directory_where_a_file_should_be(self, tmp_path):
        (tmp_path / "b.svg").mkdir()
        with pytest.raises(WriteError, match="b.svg: exists and is not a regular file"):
            write_files(tmp_path, {"a.svg": b"a", "b.svg": b"b"}, overwrite=True)
        assert listing(tmp_path) == ["b.svg"]

    def test_a_symlink_is_not_replaced(self, tmp_path):
        (tmp_path / "target").write_bytes(b"theirs")
        (tmp_path / "b.svg").symlink_to(tmp_path / "target")
        with pytest.raises(WriteError, match="not a regular file"):
            write_files(tmp_path, {"b.svg": b"b"}, overwrite=True)
        assert (tmp_path / "target").read_bytes() == b"theirs"

    def test_full_disk_writes_none(self, tmp_path, disk_full):
        (tmp_path / "keep.svg").write_bytes(b"old")
        disk_full(3)
        with pytest.raises(WriteError, match="No space left"):
            write_files(tmp_path, {"a.svg": b"aa", "b.svg": b"bb", "keep.svg": b"new"}, overwrite=True)
        assert listing(tmp_path) == ["keep.svg"] and (tmp_path / "keep.svg").read_bytes() == b"old"

    def test_a_name_that_appears_meanwhile_is_kept(self, tmp_path, monkeypatch):
        real_link = os.link

        def racing_link(source, target, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
            if str(target).endswith("b.svg"):
                Path(target).write_bytes(b"theirs")
            return real_link(source, target, *args, **kwargs)

        monkeypatch.setattr(os, "link", racing_link)
        with pytest.raises(TargetExists):
            write_files(tmp_path, {"a.svg": b"a", "b.svg": b"b"})
        assert listing(tmp_path) == ["b.svg"] and (tmp_path / "b.svg").read_bytes() == b"theirs"

    def test_check_free(self, tmp_path):
        check_free(tmp_path / "new", ["a.svg"])
        (tmp_path / "f").write_text("x", "utf-8")
        with pytest.raises(WriteError, match="exists and is not a directory"):
            check_free(tmp_path / "f", ["a.svg"])
        with pytest.raises(ValueError):
            check_free(tmp_path, ["../escape.svg"])


class TestNewFiles:
    """create_files: new files in any directories, bytes or streamed, all or none."""

    def streamed(self, size: int):  # noqa: ANN201 - a writer
        def write(out) -> None:  # noqa: ANN001 - a binary file
            for _ in range(size // 1000):
                out.write(b"x" * 1000)
        return write

    def test_bytes_and_a_stream_in_two_directories(self, tmp_path, umask):
        (tmp_path / "logs").mkdir()
        create_files({tmp_path / "logs" / "app.jsonl": self.streamed(300_000), tmp_path / "registry.json": b"{}"})
        assert (tmp_path / "logs" / "app.jsonl").read_bytes() == b"x" * 300_000
        assert (tmp_path / "registry.json").read_bytes() == b"{}"
        assert listing(tmp_path) == ["logs", "logs/app.jsonl", "registry.json"]  # no temporary file left
        assert stat.S_IMODE((tmp_path / "logs" / "app.jsonl").stat().st_mode) == 0o666 & ~umask

    @pytest.mark.parametrize("taken", ["file", "directory", "symlink", "dangling symlink"])
    def test_a_taken_name_is_refused_and_nothing_written(self, tmp_path, taken):
        target, theirs = tmp_path / "b.json", tmp_path / "theirs"
        if taken == "file":
            target.write_bytes(b"old")
        elif taken == "directory":
            target.mkdir()
        else:
            if taken == "symlink":
                theirs.write_bytes(b"theirs")
            target.symlink_to(theirs)
        before = listing(tmp_path)
        with pytest.raises(TargetExists, match="b.json: already exists; refusing to overwrite"):
            create_files({tmp_path / "a.json": b"a", target: self.streamed(1000)})
        assert listing(tmp_path) == before
        if taken == "file":
            assert target.read_bytes() == b"old"
        if taken == "symlink":
            assert theirs.read_bytes() == b"theirs"
        if taken == "dangling symlink":
            assert not theirs.exists()  # never followed

    def test_a_missing_directory(self, tmp_path):
        with pytest.raises(WriteError, match="no such directory"):
            create_files({tmp_path / "nope" / "a.json": b"a"})
        assert listing(tmp_path) == []

    def test_full_disk_while_streaming_leaves_nothing(self, tmp_path, disk_full):
        disk_full(100_000)
        with pytest.raises(WriteError, match="a.jsonl: No space left"):
            create_files({tmp_path / "r.json": b"{}", tmp_path / "a.jsonl": self.streamed(300_000)})
        assert listing(tmp_path) == []

    def test_a_failing_writer_leaves_nothing(self, tmp_path):
        def broken(out) -> None:  # noqa: ANN001
            out.write(b"half")
            raise ZeroDivisionError

        with pytest.raises(ZeroDivisionError):
            create_files({tmp_path / "r.json": b"{}", tmp_path / "a.jsonl": broken})
        assert listing(tmp_path) == []

    def test_a_name_that_appears_meanwhile_is_kept_and_the_others_removed(self, tmp_path, monkeypatch):
        real_link = os.link

        def racing_link(source, target, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
            if str(target).endswith("b.json"):
                Path(target).write_bytes(b"theirs")
            return real_link(source, target, *args, **kwargs)

        monkeypatch.setattr(os, "link", racing_link)
        with pytest.raises(TargetExists):
            create_files({tmp_path / "a.json": b"a", tmp_path / "b.json": b"b"})
        assert listing(tmp_path) == ["b.json"] and (tmp_path / "b.json").read_bytes() == b"theirs"


def article_copy(tmp_path: Path) -> Path:
    suite = tmp_path / "article.json"
    shutil.copyfile(ARTICLE, suite)
    return suite


class TestAuditOut:
    @pytest.mark.parametrize("allowed", [0, 5000])
    def test_full_disk_is_one_line_and_no_run(self, capsys, tmp_path, disk_full, allowed):
        suite, out_dir = article_copy(tmp_path), tmp_path / "runs" / "x"
        disk_full(allowed)
        assert main(["audit", "--out", str(out_dir), str(suite)]) == 2
        one_line_error(capsys.readouterr().err, str(out_dir), "No space left on device")
        assert listing(tmp_path) == ["article.json"]

    def test_full_disk_when_syncing(self, capsys, tmp_path, disk_full):
        suite, out_dir = article_copy(tmp_path), tmp_path / "run"
        disk_full(on="fsync")
        assert main(["audit", "--out", str(out_dir), str(suite)]) == 2
        one_line_error(capsys.readouterr().err, "No space left on device")
        assert listing(tmp_path) == ["article.json"]

    def test_a_rerun_after_a_full_disk_works(self, capsys, tmp_path, monkeypatch, disk_full):
        suite, out_dir = article_copy(tmp_path), tmp_path / "run"
        disk_full(5000)
        assert main(["audit", "--out", str(out_dir), str(suite)]) == 2
        monkeypatch.undo()
        assert main(["audit", "--out", str(out_dir), str(suite)]) == 0
        assert main(["audit", "--verify", str(out_dir)]) == 0

    @pytest.mark.parametrize("inside", [True, False], ids=["new-directory-in-it", "it-empty"])
    def test_read_only_directory(self, capsys, tmp_path, read_only_dir, inside):
        out_dir = read_only_dir / "run" if inside else read_only_dir
        assert main(["audit", "--out", str(out_dir), str(article_copy(tmp_path))]) == 2
        one_line_error(capsys.readouterr().err, str(out_dir))
        assert os.listdir(read_only_dir) == []

    def test_results_and_manifest_follow_the_umask(self, capsys, tmp_path, umask):
        out_dir = tmp_path / "run"
        assert main(["audit", "--out", str(out_dir), str(article_copy(tmp_path))]) == 0
        for name in ("results.json", "manifest.json"):
            assert stat.S_IMODE((out_dir / name).stat().st_mode) == 0o666 & ~umask

    def test_a_real_full_disk(self, small_disk):
        # Every bundled suite: results far larger than the 64 KiB file system.
        out_dir = small_disk / "run"
        proc = run_bounded("audit", "--format", "json", "--out", out_dir, *sorted(FIXTURES.glob("*.json")))
        out, err = decoded(proc)
        assert proc.returncode == 2, err
        one_line_error(err, str(out_dir), "No space left on device")
        assert os.listdir(small_disk) == []
        assert out == ""  # no report printed for a run that was not written


class TestScreenshots:
    """``screenshots`` renders every scene first, then writes all of them or none."""

    @pytest.fixture
    def scenes(self, monkeypatch):
        """Two scenes, rendered as stand-in SVGs (the real rendering is test_tui_app's)."""
        from inspector.tui import scenes as scenes_module

        async def render(chosen):  # noqa: ANN001, ANN202
            return {f"{scene.name}.svg": b"<svg>" + b"x" * 3000 + b"</svg>" for scene in chosen}

        monkeypatch.setattr(scenes_module, "_render", render)
        return [scene for scene in scenes_module.SCENES if scene.name in ("start", "help")]

    def test_full_disk_writes_none(self, capsys, tmp_path, disk_full, scenes):
        from inspector.tui.scenes import write_all

        (tmp_path / "shots").mkdir()
        disk_full(4000)
        assert write_all(tmp_path / "shots", scenes) == 2
        one_line_error(capsys.readouterr().err, "No space left on device")
        assert listing(tmp_path / "shots") == []

    def test_full_disk_in_a_new_directory(self, capsys, tmp_path, disk_full, scenes):
        from inspector.tui.scenes import write_all

        disk_full(4000)
        assert write_all(tmp_path / "shots", scenes) == 2
        one_line_error(capsys.readouterr().err, "No space left on device")
        assert listing(tmp_path) == []

    def test_read_only_directory(self, capsys, read_only_dir, scenes):
        from inspector.tui.scenes import write_all

        assert write_all(read_only_dir, scenes) == 2
        one_line_error(capsys.readouterr().err, str(read_only_dir))
        assert os.listdir(read_only_dir) == []

    def test_svgs_follow_the_umask_and_overwrite_is_atomic(self, capsys, tmp_path, umask, scenes):
        from inspector.tui.scenes import write_all

        assert write_all(tmp_path, scenes) == 0
        start = tmp_path / "start.svg"
        assert stat.S_IMODE(start.stat().st_mode) == 0o666 & ~umask
        before = start.stat().st_ino
        assert write_all(tmp_path, scenes, overwrite=True) == 0
        assert start.stat().st_ino != before  # a new file renamed in, never written into
        assert listing(tmp_path) == ["help.svg", "start.svg"]

    def test_cli_refuses_existing_svgs_before_rendering(self, capsys, tmp_path, monkeypatch):
        from inspector.tui import scenes as scenes_module

        def no_rendering(*args):  # noqa: ANN002
            raise AssertionError("rendered although the answer was already known")

        monkeypatch.setattr(scenes_module, "_render", no_rendering)
        (tmp_path / "start.svg").write_text("mine", "utf-8")
        assert main(["screenshots", str(tmp_path)]) == 2
        line = one_line_error(capsys.readouterr().err, str(tmp_path / "start.svg"), "--overwrite")
        assert "already exists" in line
        assert (tmp_path / "start.svg").read_text("utf-8") == "mine"

    def test_cli_a_directory_where_an_svg_should_be(self, capsys, tmp_path):
        (tmp_path / "help.svg").mkdir()
        assert main(["screenshots", "--overwrite", str(tmp_path)]) == 2
        one_line_error(capsys.readouterr().err, str(tmp_path / "help.svg"), "not a regular file")
        assert listing(tmp_path) == ["help.svg"]

    def test_cli_a_file_where_the_directory_should_be(self, capsys, tmp_path):
        (tmp_path / "shots").write_text("x", "utf-8")
        assert main(["screenshots", str(tmp_path / "shots")]) == 2
        one_line_error(capsys.readouterr().err, "exists and is not a directory")

