"""The README stays honest: its checks table is the live one, its two set-up
commands are the Makefile targets that CI runs, and docs/keys.md is generated from
the key declaration."""

from __future__ import annotations

import re

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
