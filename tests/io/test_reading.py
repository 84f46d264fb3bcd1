"""Reading inputs with bounds (inspector.io.reading and its callers): only
regular files, never a blocking open, never more than a bound read.

The tests that would hang or fill memory on a regression run the command in a
subprocess with a timeout and an address-space limit, so that they fail instead."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import threading
from functools import partial
from pathlib import Path

import pytest

from inspector.cli import main
from inspector.suites.load import LoadError, load_answer, load_registry, load_request, load_suite
from inspector.io.reading import (
    ANSWER_READ_BYTES,
    MAX_REQUEST_BYTES,
    MAX_SUITE_BYTES,
    ReadError,
    is_regular_file,
    read_limited,
    read_prefix,
)

from support import (
    ARTICLE,
    PAYMENTS_REGISTRY,
    PAYMENTS_REQUEST,
    ROOT,
    HANG_TIMEOUT,
    decoded,
    one_line_error,
    run_bounded,
)

CHECK = ["check", "--request", str(PAYMENTS_REQUEST), "--registry", str(PAYMENTS_REGISTRY)]
MiB = 1024 * 1024
@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "answer.json"
    os.mkfifo(path)
    return path


@pytest.fixture
def zero_link(tmp_path: Path) -> Path:
    """A ``*.json`` name that is a symbolic link to /dev/zero."""
    path = tmp_path / "zero.json"
    path.symlink_to("/dev/zero")
    return path


def sparse(path: Path, size: int) -> Path:
    """A file of ``size`` bytes (zeros) that takes no disk space."""
    with path.open("wb") as handle:
        handle.truncate(size)
    return path


class TestReader:
    def test_reads_a_regular_file_whole(self, tmp_path):
        path = tmp_path / "a.json"
        path.write_bytes(b"{}")
        assert read_limited(path, 10) == b"{}"

    def test_limit_is_exact(self, tmp_path):
        path = tmp_path / "a.json"
        path.write_bytes(b"x" * 10)
        assert read_limited(path, 10) == b"x" * 10
        with pytest.raises(ReadError, match="larger than the 9 bytes accepted for a file"):
            read_limited(path, 9)

    def test_prefix_stops_at_the_bound(self, tmp_path):
        path = sparse(tmp_path / "big", 10 * MiB)
        assert len(read_prefix(path, 1000)) == 1000

    def test_fifo_is_refused_without_blocking(self, fifo):
        with pytest.raises(ReadError, match=r"is a FIFO \(named pipe\), not a regular file"):
            read_prefix(fifo, 10)

    def test_device_is_refused(self):
        with pytest.raises(ReadError, match="/dev/zero: is a character device, not a regular file"):
            read_prefix("/dev/zero", 10)

    def test_link_to_a_device_is_refused(self, zero_link):
        with pytest.raises(ReadError, match="is a character device"):
            read_prefix(zero_link, 10)

    def test_directory_is_refused(self, tmp_path):
        with pytest.raises(ReadError, match="is a directory, not a regular file"):
            read_prefix(tmp_path, 10)

    def test_symlink_refused_when_not_followed(self, tmp_path):
        target = tmp_path / "t"
        target.write_bytes(b"x")
        (tmp_path / "l").symlink_to(target)
        assert read_prefix(tmp_path / "l", 10) == b"x"
        with pytest.raises(ReadError, match="is a symbolic link"):
            read_prefix(tmp_path / "l", 10, follow_symlinks=False)

    def test_missing_and_odd_paths(self, tmp_path):
        with pytest.raises(ReadError, match="no such file"):
            read_prefix(tmp_path / "none", 10)
        with pytest.raises(ReadError):
            read_prefix(str(tmp_path / "nul\0byte"), 10)
        with pytest.raises(ReadError, match="too long"):
            read_prefix(tmp_path / ("x" * 5000), 10)

    def test_is_regular_file_never_raises(self, tmp_path, fifo, zero_link):
        (tmp_path / "r.json").write_text("{}", "utf-8")
        assert is_regular_file(tmp_path / "r.json")
        for path in (fifo, zero_link, tmp_path, tmp_path / "none", tmp_path / ("x" * 5000), "nul\0"):
            assert not is_regular_file(path)


class TestNotRegularFilesOnTheCommandLine:
    """``mkfifo f; inspector audit f`` (and the others) used to hang."""

    @pytest.mark.parametrize("where", ["claims", "request", "registry", "suite"])
    def test_fifo_is_refused_naming_it(self, fifo, where):
        args = {
            "claims": [*CHECK, fifo],
            "request": ["check", "--request", fifo, "--registry", PAYMENTS_REGISTRY, "-"],
            "registry": ["check", "--request", PAYMENTS_REQUEST, "--registry", fifo, "-"],
            "suite": ["audit", fifo],
        }[where]
        proc = run_bounded(*args)
        out, err = decoded(proc)
        assert proc.returncode == 2, (out, err)
        one_line_error(err, str(fifo), "FIFO", "not a regular file")

    @pytest.mark.parametrize("where", ["claims", "suite"])
    def test_dev_zero_is_refused(self, zero_link, where):
        args = [*CHECK, "/dev/zero"] if where == "claims" else ["audit", zero_link]
        proc = run_bounded(*args)
        out, err = decoded(proc)
        assert proc.returncode == 2, (out, err)
        one_line_error(err, "character device")

    def test_directory_answer(self, capsys, tmp_path):
        assert main([*CHECK, str(tmp_path)]) == 2
        one_line_error(capsys.readouterr().err, str(tmp_path), "is a directory")

    def test_in_process_loaders_refuse_a_fifo(self, fifo):
        # What `open` and the palette load with; a regression would block, so a
        # timer releases it (and the test fails on the message instead).
        loaders = (load_suite, partial(load_suite, strict=False), load_registry, load_request, load_answer)
        for load in loaders:
            timer = threading.Timer(HANG_TIMEOUT, _unblock, (fifo,))
            timer.start()
            try:
                with pytest.raises(LoadError, match="FIFO"):
                    load(fifo)
            finally:
                timer.cancel()


def too_large_detail(out: str) -> str:
    document = json.loads(out)
    assert (document["status"], document["reason"]) == ("INVALID_JSON", "TOO_LARGE"), document
    return document["first_failure"]["detail"]


class TestLargeAnswers:
    """An answer is read just past the largest size that can pass, whatever its size."""

    def test_bound_is_past_the_largest_passing_answer(self, capsys, tmp_path):
        # 8192 UTF-16 units of 3 bytes each pass the size check; so must what we read.
        largest = tmp_path / "largest.json"
        largest.write_bytes(("\u20ac" * 8192).encode("utf-8"))
        assert len(load_answer(largest)) == 3 * 8192 < ANSWER_READ_BYTES
        assert main([*CHECK, "--format", "json", str(largest)]) == 1
        assert json.loads(capsys.readouterr().out)["reason"] == "SYNTAX"  # size passed

    @pytest.mark.parametrize("megabytes", [200, 300])
    def test_huge_files_are_too_large_not_unusable(self, capsys, tmp_path, megabytes):
        path = sparse(tmp_path / "answer.json", megabytes * MiB)
        assert main([*CHECK, "--format", "json", str(path)]) == 1
        detail = too_large_detail(capsys.readouterr().out)
        at_least = int(re.search(r"at least (\d+) UTF-16 code units", detail).group(1))
        assert 8192 < at_least <= megabytes * MiB
        assert detail.startswith("at least ")  # only a prefix was read: no exact size claimed

    def test_200_and_300_mb_and_stdin_agree(self, capsys, tmp_path, monkeypatch):
        details = []
        for megabytes in (200, 300):
            assert main([*CHECK, "--format", "json", str(sparse(tmp_path / f"{megabytes}.json", megabytes * MiB))]) == 1
            details.append(too_large_detail(capsys.readouterr().out))
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(EndlessZeros()))
        assert main([*CHECK, "--format", "json", "-"]) == 1
        details.append(too_large_detail(capsys.readouterr().out))
        assert len(set(details)) == 1, details

    def test_stdin_is_read_with_a_bound(self, capsys, monkeypatch):
        stream = EndlessZeros()
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stream))
        assert main([*CHECK, "-"]) == 1
        assert "TOO_LARGE" in capsys.readouterr().out
        assert stream.served <= ANSWER_READ_BYTES + io.DEFAULT_BUFFER_SIZE

    def test_two_gigabytes_piped_in(self):
        # head -c 2000000000 /dev/zero | inspector check ...
        head = subprocess.Popen(["head", "-c", "2000000000", "/dev/zero"], stdout=subprocess.PIPE)
        try:
            proc = run_bounded(*CHECK, "--format", "json", stdin=head.stdout.fileno())
        finally:
            head.stdout.close()
            head.kill()
            head.wait()
        out, err = decoded(proc)
        assert proc.returncode == 1, err
        assert "at least" in too_large_detail(out)


class EndlessZeros(io.RawIOBase):
    """Standard input that never ends; reading it whole is a test failure, not a hang."""

    def __init__(self) -> None:
        self.served = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # noqa: ANN001 - a writable buffer
        if self.served > 64 * MiB:
            raise AssertionError("standard input read without a bound")
        size = len(buffer)
        buffer[:size] = b"\0" * size
        self.served += size
        return size


class TestFileLimits:
    def test_suite_over_the_limit(self, capsys, tmp_path):
        path = sparse(tmp_path / "suite.json", MAX_SUITE_BYTES + 1)
        assert main(["audit", str(path)]) == 2
        one_line_error(capsys.readouterr().err, str(path), "larger than the 64 MiB accepted")

    def test_suite_at_the_limit_is_read(self, tmp_path):
        path = tmp_path / "suite.json"
        text = json.dumps({"sources": [], "cases": []})
        path.write_bytes(text.encode() + b" " * (MAX_SUITE_BYTES - len(text)))
        assert load_suite(path).cases == ()

    def test_registry_over_the_limit(self, capsys, tmp_path):
        path = sparse(tmp_path / "registry.json", MAX_SUITE_BYTES + 1)
        assert main(["registry", "lint", str(path)]) == 2
        one_line_error(capsys.readouterr().err, str(path), "64 MiB")

    def test_request_over_the_limit(self, capsys, tmp_path):
        path = sparse(tmp_path / "request.json", MAX_REQUEST_BYTES + 1)
        assert main(["check", "--request", str(path), "--registry", str(PAYMENTS_REGISTRY), str(ARTICLE)]) == 2
        one_line_error(capsys.readouterr().err, str(path), "larger than the 1 MiB accepted for a request")

    def test_limits_are_in_the_cli_docs(self):
        readme = (ROOT / "docs" / "cli.md").read_text("utf-8")
        assert f"{MAX_SUITE_BYTES // MiB} MiB" in readme and f"{MAX_REQUEST_BYTES // MiB} MiB" in readme


class TestOpenAFileFromThePalette:
    """The palette's "open a file" offers and opens regular files only."""

    @pytest.fixture
    def workdir(self, tmp_path, monkeypatch, fifo, zero_link):
        (tmp_path / "suite.json").write_bytes(ARTICLE.read_bytes())
        (tmp_path / "dir.json").mkdir()
        monkeypatch.chdir(tmp_path)
        return tmp_path

    async def test_only_regular_files_are_offered(self, workdir):
        from inspector.tui.app import make_app
        from inspector.tui.commands import OpenCommands

        app = make_app([load_suite(ARTICLE)])
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            provider = OpenCommands(app.screen)
            offered = {path.name for path in provider._candidates() if path.parent == workdir}
            assert offered == {"suite.json"}
            typed = [hit async for hit in provider.search(str(workdir / "answer.json"))]
            assert not [hit for hit in typed if "answer.json" in str(hit.text)]
            typed = [hit async for hit in provider.search("/" + "x" * 5000 + ".json")]
            assert typed == []

    @pytest.mark.parametrize("name", ["answer.json", "zero.json"])
    async def test_opening_a_fifo_or_device_is_a_notification(self, workdir, name):
        from inspector.tui.app import make_app
        from inspector.tui.messages import FileChosen

        app = make_app([load_suite(ARTICLE)])
        try:
            async with app.run_test(size=(120, 36), notifications=True) as pilot:
                await pilot.pause()
                app.main.post_message(FileChosen(workdir / name))
                await pilot.pause()
                await _wait_for_workers(app)
                await pilot.pause()
                assert len(app.session.suites) == 1
                (message,) = [n.message for n in app._notifications]
                assert "not a regular file" in message
        finally:
            _unblock(workdir / "answer.json")


async def _wait_for_workers(app) -> None:  # noqa: ANN001 - the app
    import asyncio

    try:
        await asyncio.wait_for(app.workers.wait_for_complete(), HANG_TIMEOUT)
    except TimeoutError:
        raise AssertionError("opening the file blocked the worker") from None


def _unblock(fifo: Path) -> None:
    """Release a reader stuck on the FIFO, if a regression left one."""
    try:
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    except OSError:
        return  # no reader waiting: nothing is stuck
    os.close(fd)
