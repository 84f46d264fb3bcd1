"""The installed package stands alone: the bundled suites and the UI's stylesheet
ship inside the wheel, so `inspector` works outside a checkout."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile

import pytest

from support import ROOT



@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    out = tmp_path_factory.mktemp("wheel")
    # Built from a copy of the checkout: setuptools writes build/ and *.egg-info into the
    # source tree, and two pytest-xdist workers building from ROOT at once mixed them up.
    source = tmp_path_factory.mktemp("source") / "inspector"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis"))
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(source)],
        capture_output=True, text=True, timeout=300,
    )
    if built.returncode != 0 and "No module named" in built.stderr:
        pytest.skip(f"cannot build a wheel here: {built.stderr.strip().splitlines()[-1]}")
    assert built.returncode == 0, built.stderr
    (path,) = out.glob("inspector-*.whl")
    return zipfile.ZipFile(path)


class TestWheel:
    def test_bundled_suites_are_inside(self, wheel: zipfile.ZipFile) -> None:
        names = set(wheel.namelist())
        for suite in sorted((ROOT / "fixtures").glob("*.json")):
            assert f"inspector/bundled/{suite.name}" in names

    def test_stylesheet_is_inside(self, wheel: zipfile.ZipFile) -> None:
        assert "inspector/tui/inspector.tcss" in wheel.namelist()

    def test_every_module_is_inside(self, wheel: zipfile.ZipFile) -> None:
        names = set(wheel.namelist())
        missing = [path for module in sorted((ROOT / "inspector").rglob("*.py"))
                   if (path := module.relative_to(ROOT).as_posix()) not in names]
        assert not missing, f"not in the wheel (pyproject's packages list, an __init__.py?): {missing}"
