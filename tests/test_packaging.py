"""The distribution stands alone: ``pip install .`` in a clean virtualenv gives a
working ``inspector`` (the distribution is ``claim-inspector``: the package index
gives ``inspector`` to another project), with the bundled suites, the sample log
and the UI's stylesheet inside the wheel.  And every extra of pyproject.toml is
satisfied by requirements.lock, whose releases agree with each other (no network:
the index is asked by nothing here)."""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from support import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
DISTRIBUTION = "claim-inspector"
SAMPLE = ("logs/sample.jsonl", "logs/sample-registry.json")


@pytest.fixture(scope="module")
def wheel_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # Built from a copy of the checkout: setuptools writes build/ and *.egg-info into the
    # source tree, and two pytest-xdist workers building from ROOT at once mixed them up.
    source = tmp_path_factory.mktemp("source") / "inspector"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache"))
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(source)],
        capture_output=True, text=True, timeout=300,
    )
    if built.returncode != 0 and "No module named" in built.stderr:
        pytest.skip(f"cannot build a wheel here: {built.stderr.strip().splitlines()[-1]}")
    assert built.returncode == 0, built.stderr
    (path,) = out.glob("*.whl")
    return path


@pytest.fixture(scope="module")
def wheel(wheel_path: Path) -> zipfile.ZipFile:
    return zipfile.ZipFile(wheel_path)


class TestWheel:
    def test_named_claim_inspector(self, wheel_path: Path) -> None:
        assert PYPROJECT["project"]["name"] == DISTRIBUTION
        assert wheel_path.name.startswith("claim_inspector-0.1.0-py3-none-any")

    def test_bundled_suites_are_inside(self, wheel: zipfile.ZipFile) -> None:
        names = set(wheel.namelist())
        for suite in sorted((ROOT / "fixtures").glob("*.json")):
            assert f"inspector/bundled/{suite.name}" in names
        for sample in SAMPLE:
            assert f"inspector/bundled/{sample}" in names

    def test_stylesheet_is_inside(self, wheel: zipfile.ZipFile) -> None:
        assert "inspector/tui/inspector.tcss" in wheel.namelist()

    def test_every_module_is_inside(self, wheel: zipfile.ZipFile) -> None:
        names = set(wheel.namelist())
        missing = [path for module in sorted((ROOT / "inspector").rglob("*.py"))
                   if (path := module.relative_to(ROOT).as_posix()) not in names]
        assert not missing, f"not in the wheel (pyproject's packages list, an __init__.py?): {missing}"


@pytest.fixture(scope="module")
def installed(wheel_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clean virtualenv with the wheel installed by pip, as ``pip install .`` does;
    the dependencies are this virtualenv's (a .pth names its site-packages: nothing
    is downloaded).  Its bin folder."""
    venv = tmp_path_factory.mktemp("clean") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    python = venv / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "dependencies.pth").write_text("".join(f"{path}\n" for path in sorted(ours)))
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                           "--no-index", "--disable-pip-version-check", str(wheel_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return venv / "bin"


def run(program: Path, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120"}
    env.pop("PYTHONPATH", None)
    return subprocess.run([str(program), *argv], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


class TestInstalled:
    def test_the_command_is_the_installed_package(self, installed: Path, tmp_path: Path) -> None:
        where = run(installed / "python", "-c", "import importlib.metadata as m, inspector; "
                    "print(inspector.__file__); print(m.version('claim-inspector'))", cwd=tmp_path)
        assert where.returncode == 0, where.stderr
        module, version = where.stdout.split()
        assert Path(module).is_relative_to(installed.parent) and version == "0.1.0"
        assert (installed / "inspector").is_file()

    def test_audit_opens_the_bundled_suites(self, installed: Path, tmp_path: Path) -> None:
        audit = run(installed / "inspector", "audit", "--format", "json", cwd=tmp_path)
        assert audit.returncode == 0, audit.stderr
        report = json.loads(audit.stdout)
        assert {case["suite"] for case in report["cases"]} == {path.stem for path in (ROOT / "fixtures").glob("*.json")}
        assert report["summary"]["mismatched_cases"] == []
        assert list(tmp_path.iterdir()) == []

    def test_the_sample_log_counts_as_in_the_checkout(self, installed: Path, tmp_path: Path) -> None:
        """The README's count, on the sample inside the package (inspector/bundled/logs/)."""
        package = Path(run(installed / "python", "-c", "import inspector; print(inspector.__file__)",
                           cwd=tmp_path).stdout.strip()).parent
        argv = ("triage", SAMPLE[0], "--registry", SAMPLE[1], "--summary", "--by", "model")
        there = run(installed / "inspector", *argv, cwd=package / "bundled")
        here = run(Path(sys.executable).parent / "inspector", *argv, cwd=ROOT / "fixtures")
        assert there.returncode == here.returncode == 0, there.stderr
        assert "292 records" in there.stdout and there.stdout == here.stdout


def extra_requirements(extra: str) -> list[Requirement]:
    """An extra's requirements, the project's own extras it names followed."""
    found: list[Requirement] = []
    for text in PYPROJECT["project"]["optional-dependencies"][extra]:
        requirement = Requirement(text)
        if canonicalize_name(requirement.name) == DISTRIBUTION:
            for inner in sorted(requirement.extras):
                found += extra_requirements(inner)
        else:
            found.append(requirement)
    return found


def locked() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for line in (ROOT / "requirements.lock").read_text("utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, version = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+)", line).groups()  # type: ignore[union-attr]
            pins[canonicalize_name(name)] = Version(version)
    return pins


EXTRAS = sorted(PYPROJECT["project"]["optional-dependencies"])


class TestTheLock:
    def test_the_extras_are_the_documented_ones(self) -> None:
        assert EXTRAS == ["dask", "s3", "serve", "test"]
        test = {canonicalize_name(r.name) for r in extra_requirements("test")}
        for extra in ("dask", "s3", "serve"):  # make test runs their tests
            assert {canonicalize_name(r.name) for r in extra_requirements(extra)} <= test, extra

    @pytest.mark.parametrize("extra", EXTRAS)
    def test_every_extra_is_satisfied_by_the_lock(self, extra: str) -> None:
        pins = locked()
        for requirement in extra_requirements(extra):
            if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
                continue
            name = canonicalize_name(requirement.name)
            assert name in pins, f"[{extra}] {requirement}: not in requirements.lock"
            assert requirement.specifier.contains(pins[name], prereleases=True), \
                f"[{extra}] {requirement}: requirements.lock has {pins[name]}"

    def test_the_locked_releases_agree_with_each_other(self) -> None:
        """What each locked release requires of another locked one (its metadata, read
        from this virtualenv where it is installed at the locked version, as make test
        installs them), the extras' own extras included (dask[distributed], moto[s3])."""
        pins = locked()
        wanted: dict[str, set[str]] = {}
        for extra in EXTRAS:
            for requirement in extra_requirements(extra):
                wanted.setdefault(canonicalize_name(requirement.name), set()).update(requirement.extras)
        checked, wrong = 0, []
        for name, version in sorted(pins.items()):
            try:
                if Version(importlib.metadata.version(name)) != version:
                    continue
                requires = importlib.metadata.requires(name) or []
            except importlib.metadata.PackageNotFoundError:
                continue
            checked += 1
            for text in requires:
                requirement = Requirement(text)
                other = canonicalize_name(requirement.name)
                if other not in pins:
                    continue
                extras = [""] + sorted(wanted.get(name, ()))
                if requirement.marker is not None and not any(requirement.marker.evaluate({"extra": e}) for e in extras):
                    continue
                if not requirement.specifier.contains(pins[other], prereleases=True):
                    wrong.append(f"{name}=={version} requires {requirement}; requirements.lock has {pins[other]}")
        assert not wrong, "\n".join(wrong)
        assert checked >= len(pins) // 2, "this virtualenv is not the lock's (make test builds one)"
