"""The README stays honest: its checks table is the live one, and its two set-up
commands are the Makefile targets that CI runs."""

from __future__ import annotations

import re
from pathlib import Path

from inspector.cli.checks import checks_markdown

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text("utf-8")


class TestReadme:
    def test_checks_table_is_generated_from_the_checks(self) -> None:
        section = re.search(r"<!-- checks:start -->\n(.*?)\n<!-- checks:end -->", README, re.S)
        assert section is not None, "README lost its checks markers"
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

    def test_screenshot_exists(self) -> None:
        for image in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", README):
            assert (ROOT / image).is_file(), image

    def test_every_key_is_documented(self) -> None:
        from inspector.tui.keys import KEYS

        table = README.split("| keys | what they do |", 1)[1].split("\n\n", 1)[0]
        documented = set(re.findall(r"`([^`]+)`", table))
        for key in KEYS:
            for token in key.display.replace("^", "ctrl+").split():
                assert token in documented, f"{key.id}: {token} missing from the README's keys table"
