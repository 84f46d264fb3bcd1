"""The browser tests start a Chromium already on the machine (support.chromium):
the one INSPECTOR_CHROMIUM names, else one on PATH, else one in the usual places.
Without one they are skipped with one line saying how to get one, and the rest
passes; where CI is set (.ci/run sets it), they fail instead."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support import ROOT
from support import chromium
from support.chromium import MISSING, BrowserMissing, find_browser


def program(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return path


class TestFindBrowser:
    def test_the_variable_wins(self, tmp_path: Path) -> None:
        named = program(tmp_path / "mine", "my-chrome")
        on_path = program(tmp_path / "bin", "chromium")
        assert find_browser({"INSPECTOR_CHROMIUM": str(named), "PATH": str(on_path.parent)}) == str(named)

    def test_a_variable_naming_nothing_says_so(self, tmp_path: Path) -> None:
        program(tmp_path / "bin", "chromium")
        with pytest.raises(BrowserMissing, match=r"^INSPECTOR_CHROMIUM=/no/such/chrome: no such program"):
            find_browser({"INSPECTOR_CHROMIUM": "/no/such/chrome", "PATH": str(tmp_path / "bin")})

    @pytest.mark.parametrize("name", ["chromium", "chromium-browser", "google-chrome"])
    def test_a_browser_on_path(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
        monkeypatch.setattr(chromium, "USUAL", ())
        found = program(tmp_path / "bin", name)
        assert find_browser({"PATH": f"{tmp_path / 'empty'}{os.pathsep}{found.parent}"}) == str(found)

    def test_the_usual_places_after_path(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        assert "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" in chromium.USUAL
        assert "/usr/bin/chromium" in chromium.USUAL
        chrome = program(tmp_path / "Google Chrome.app" / "Contents" / "MacOS", "Google Chrome")
        monkeypatch.setattr(chromium, "USUAL", (str(tmp_path / "absent"), str(chrome)))
        assert find_browser({"PATH": str(tmp_path / "empty")}) == str(chrome)

    def test_none_says_how_to_get_one(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(chromium, "USUAL", (str(tmp_path / "absent"),))
        with pytest.raises(BrowserMissing) as missing:
            find_browser({"PATH": str(tmp_path)})
        assert str(missing.value) == MISSING
        assert "\n" not in MISSING and "apt-get install chromium" in MISSING and "INSPECTOR_CHROMIUM" in MISSING


# Loaded by the pytest below (-p): no browser in the usual places, whatever this machine has.
HIDE = "import support.chromium\nsupport.chromium.USUAL = ()\n"


def run_browser_tests(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """tests/html/test_browser.py on a machine without a browser: PATH holds only this
    virtualenv's programs, and no usual place has one."""
    (tmp_path / "hide_browsers.py").write_text(HIDE)
    environ = {key: value for key, value in os.environ.items()
               if key not in ("CI", "INSPECTOR_CHROMIUM", "PYTEST_XDIST_WORKER", "PYTEST_ADDOPTS")}
    environ.update(PATH=str(Path(sys.executable).parent), PYTHONPATH=f"{tmp_path}{os.pathsep}{ROOT / 'tests'}",
                   **env)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "hide_browsers", "-p", "no:randomly", "-p", "no:cacheprovider",
         "tests/html/test_browser.py"],
        cwd=ROOT, env=environ, capture_output=True, text=True, timeout=120)


class TestWithoutABrowser:
    def test_skipped_with_one_line_and_the_run_passes(self, tmp_path: Path) -> None:
        proc = run_browser_tests(tmp_path)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        said = [line for line in proc.stdout.splitlines() if "no Chromium found" in line]
        assert len(said) == 1, proc.stdout
        assert said[0].startswith("SKIPPED [") and said[0].endswith(MISSING)
        assert " skipped" in proc.stdout.splitlines()[-1] and "failed" not in proc.stdout

    def test_where_ci_is_set_they_fail(self, tmp_path: Path) -> None:
        proc = run_browser_tests(tmp_path, CI="true")
        assert proc.returncode == 1, proc.stdout + proc.stderr
        assert "(CI is set: the browser tests must run)" in proc.stdout
        assert "skipped" not in proc.stdout.splitlines()[-1]
