"""The README stays honest: its checks table is the live one, its two set-up
commands are the Makefile targets that CI runs, and docs/keys.md is generated from
the key declaration."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from inspector.cli.checks import checks_markdown
from support import ROOT

README = (ROOT / "README.md").read_text("utf-8")


class TestReadme:
    @pytest.mark.parametrize("document", ["README.md", "docs/contract.md"])
    def test_checks_table_is_generated_from_the_checks(self, document: str) -> None:
        text = (ROOT / document).read_text("utf-8")
        section = re.search(r"<!-- checks:start -->\n(.*?)\n<!-- checks:end -->", text, re.S)
        assert section is not None, f"{document} lost its checks markers"
        assert section.group(1) == checks_markdown(), "run: inspector checks --format markdown"

    def test_exactly_two_setup_commands(self) -> None:
        setup = README.split("## Set up", 1)[1].split("\n## ", 1)[0]
        block = re.search(r"```sh\n(.*?)```", setup, re.S)
        assert block is not None
        commands = [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]
        assert commands == ["make run", "make test"]

    def test_ci_runs_the_readme_test_command(self) -> None:
        ci = (ROOT / ".ci" / "run").read_text("utf-8")
        assert re.search(r"^make test$", ci, re.M)
        makefile = (ROOT / "Makefile").read_text("utf-8")
        assert re.search(r"^test: ", makefile, re.M) and re.search(r"^run: ", makefile, re.M)

    def test_ci_runs_every_declared_python(self) -> None:
        """pyproject.toml declares the Pythons (requires-python's floor the oldest),
        and .ci/run finds each on this machine (CI's is this kind) and runs make test
        on it."""
        declared = re.findall(r'"Programming Language :: Python :: (3\.\d+)"', (ROOT / "pyproject.toml").read_text())
        assert declared == ["3.11", "3.12", "3.13"]
        assert re.search(r'^requires-python = ">=3\.11"$', (ROOT / "pyproject.toml").read_text(), re.M)
        listed = subprocess.run([str(ROOT / ".ci" / "run"), "--list"], capture_output=True, text=True, timeout=60)
        if listed.returncode != 0:
            pytest.skip(f"not every declared Python is on this machine: {listed.stderr.strip()}")
        found = [line.split(" ", 1) for line in listed.stdout.splitlines()]
        assert [version for version, _ in found] == declared
        for version, python in found:
            said = subprocess.run([python, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
                                  capture_output=True, text=True, timeout=60)
            assert said.stdout.strip() == version
        ci = (ROOT / ".ci" / "run").read_text("utf-8")
        assert re.search(r'^    make test PYTHON="\$\{entry#\* \}"$', ci, re.M)

    def test_ci_fails_without_a_declared_python(self, tmp_path: Path) -> None:
        tools = tmp_path / "bin"
        tools.mkdir()
        for tool in ("bash", "env", "grep", "sort", "sed", "ls", "dirname"):
            found = shutil.which(tool)
            assert found is not None, tool
            (tools / tool).symlink_to(found)
        proc = subprocess.run([str(tools / "bash"), str(ROOT / ".ci" / "run"), "--list"], capture_output=True,
                              text=True, timeout=60,
                              env={"PATH": str(tools), "PYENV_ROOT": str(tmp_path / "pyenv"), "HOME": str(tmp_path)})
        assert proc.returncode == 1
        assert proc.stderr == (".ci/run: Python 3.11, which pyproject.toml declares, is not on this machine "
                               "(python3.11 on PATH, or pyenv install 3.11)\n")

    @pytest.mark.parametrize("document", ["README.md", *sorted(p.relative_to(ROOT).as_posix()
                                                               for p in (ROOT / "docs").glob("*.md"))])
    def test_images_and_links_exist(self, document: str) -> None:
        path = ROOT / document
        text = path.read_text("utf-8")
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
            if "://" not in target:
                assert (path.parent / target).exists(), f"{document}: {target}"



class TestKeysDoc:
    def test_keys_doc_is_generated_from_the_key_declaration(self) -> None:
        from inspector.tui.keys import keys_markdown

        assert (ROOT / "docs" / "keys.md").read_text("utf-8") == keys_markdown(), "run: make docs"

    def test_every_key_is_documented(self) -> None:
        from inspector.tui.keys import KEYS

        tables = (ROOT / "docs" / "keys.md").read_text("utf-8")
        documented = set(re.findall(r"`([^`]+)`", tables))
        for key in KEYS:
            for token in key.display.replace("^", "ctrl+").split():
                assert token in documented, f"{key.id}: {token} missing from docs/keys.md"
