"""The tests' fixtures; the helpers they share are the ``support`` package beside this file."""

from __future__ import annotations

import atexit
import functools
import gc
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
import pytest_asyncio

from support import ARTICLE, COLUMNS, FIXTURES, save_counterexample, tree
from support.chromium import BrowserMissing, Chromium, find_browser
from support.disks import DiskFull, mount_tmpfs, umount

# Each Pilot test builds an app whose objects outlive the young collections, so at
# the default thresholds (700, 10, 10) the collector made a full pass every second
# or so, a third of the TUI tests' CPU time (5.2 s of 14.9 s for
# tests/tui/test_palette.py).  Young passes every 10,000 allocations make full passes
# rare (0.2 s of 10.8 s there), for some 20% more memory.
gc.set_threshold(10_000, 10, 10)

# A review of a bundled suite keeps its pending file in the user's state folder
# ($XDG_STATE_HOME/inspector/review): the tests' own, never the real one.
_STATE = tempfile.mkdtemp(prefix="inspector-tests-state-")
os.environ["XDG_STATE_HOME"] = _STATE
atexit.register(shutil.rmtree, _STATE, ignore_errors=True)


@pytest.fixture(autouse=True)
def terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test's output is laid out for ``COLUMNS``, whatever runs the tests: a
    terminal of any width, a pipe, or a pytest-xdist worker (which has COLUMNS=80)."""
    monkeypatch.setenv("COLUMNS", COLUMNS)


@pytest.fixture
def fixture_bytes() -> dict[Path, bytes]:
    """Every fixture file's bytes, to show afterwards that nothing wrote into them."""
    return {path: path.read_bytes() for path in sorted(FIXTURES.rglob("*")) if path.is_file()}


@pytest.fixture
def bundled_tree() -> Iterator[Path]:
    """The real fixtures/, for a test that asserts a writer refuses it: afterwards
    the tree must be as it was, path for path and byte for byte.  Should the
    refusal fail, what the writer added is removed again (the assertion still
    fails), so a broken fix never leaves a suite behind that other tests load."""
    before = tree(FIXTURES)
    yield FIXTURES
    after = tree(FIXTURES)
    for name in sorted(set(after) - set(before), reverse=True):  # deepest first
        path = FIXTURES / name
        if path.is_dir() and not path.is_symlink():
            path.rmdir()
        else:
            path.unlink()
    assert after == before, f"written into fixtures/: {sorted(set(after) ^ set(before))}"


@pytest.fixture
def protected_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the fixtures' tree, protected as the real one is (the real one
    stays protected too), for the writers a test can run in this process: should
    the refusal fail, it is the copy that is written into.  The test asserts the
    copy unchanged (``tree``)."""
    import shutil

    from inspector.io import writing

    copy = tmp_path / "fixtures"
    shutil.copytree(FIXTURES, copy, symlinks=True)
    monkeypatch.setattr(writing, "_PROTECTED", list(writing._PROTECTED))
    writing.protect(copy, "the bundled fixtures")
    yield copy


# -- the inspector's Pilot tests (tests/tui/; their helpers are support.tui) --

@pytest.fixture(scope="session")
def bundled() -> list:
    """The bundled suites, as the inspector opens them with no arguments."""
    from inspector.tui.scenes import load_bundled

    return load_bundled()


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def shared_app(bundled):
    """The inspector on the bundled suites, started once for the module's tests
    marked ``support.tui.on_shared_app`` (each opens its case with ``reopened``)."""
    from support.tui import inspecting

    async with inspecting(bundled) as pilot:
        yield pilot


@pytest.fixture(scope="session")
def article() -> list:
    """The article's 22 cases alone."""
    from inspector.suites.load import load_suite

    return [load_suite(ARTICLE)]


# -- the browser tests (tests/serve/test_browser.py, tests/html/test_browser.py; support.chromium) --


def in_ci(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether CI runs the tests (its ``CI`` variable, as .ci/run sets it): there a
    missing part fails the run instead of skipping its tests."""
    return environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


@functools.cache
def _browser() -> str | BrowserMissing:
    try:
        return find_browser()
    except BrowserMissing as missing:
        return missing


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test that needs the browser, without one: skipped, every one with the same
    line from here (so ``-ra`` folds them into one line that says how to get one);
    failed where CI is set."""
    if "browser" in getattr(item, "fixturenames", ()):
        found = _browser()
        if isinstance(found, BrowserMissing):
            if in_ci():
                pytest.fail(f"{found} (CI is set: the browser tests must run)", pytrace=False)
            pytest.skip(str(found))


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    """A headless Chromium for the module's tests (``find_browser``'s)."""
    found = _browser()
    assert isinstance(found, str), found  # pytest_runtest_setup did not let the test run
    chromium = Chromium.start(found)
    yield chromium
    chromium.stop()


# -- disks that fail (support.disks) --


@pytest.fixture
def disk_full(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    """``disk_full(allowed)``: from now on, at most ``allowed`` more bytes fit under tmp_path."""
    def install(allowed: int = 0, on: str = "write") -> DiskFull:
        fault = DiskFull(tmp_path, allowed)
        monkeypatch.setattr(os, on, getattr(fault, on))
        return fault
    return install


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 64 KiB file system."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if not mount_tmpfs(disk, "size=64k"):
        pytest.skip("mounting a tmpfs is not permitted here")
    try:
        yield disk
    finally:
        umount(disk)


@pytest.fixture
def read_only_with_file(tmp_path: Path) -> Iterator[Path]:
    """A counterexample file in a directory nobody can write into, whoever runs the
    tests (root ignores permission bits: then a tmpfs remounted read-only)."""
    directory = tmp_path / "ro"
    directory.mkdir()
    if os.geteuid() != 0:
        save_counterexample(directory / "mine.json", "one")
        directory.chmod(0o500)
        try:
            yield directory / "mine.json"
        finally:
            directory.chmod(0o700)
        return
    if not mount_tmpfs(directory, "size=256k"):
        pytest.skip("running as root and mounting a tmpfs is not permitted")
    try:
        save_counterexample(directory / "mine.json", "one")
        proc = subprocess.run(["mount", "-o", "remount,ro", str(directory)], capture_output=True)
        if proc.returncode != 0:
            pytest.skip("remounting the tmpfs read-only is not permitted")
        yield directory / "mine.json"
    finally:
        umount(directory)
