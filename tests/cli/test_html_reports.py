"""``--format html --out FILE`` of audit and triage (inspector.cli.html_report,
inspector.cli.triage_html): a new file, written whole, never over anything, never
into the bundled fixtures; the refusals in one line, exit status 2, before the work."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import ARTICLE, one_line_error, run_main
from support.hostile_html import SAMPLE_LOG, SAMPLE_REGISTRY

AUDIT = ["audit", str(ARTICLE), "--format", "html"]
TRIAGE = ["triage", str(SAMPLE_LOG), "--registry", str(SAMPLE_REGISTRY), "--format", "html"]


@pytest.mark.parametrize("command", [AUDIT, TRIAGE], ids=["audit", "triage"])
class TestOut:
    def test_writes_the_page_standard_output_would_show(self, capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                         command: list[str]) -> None:
        out = tmp_path / "report.html"
        status, said, err = run_main(capsys, *command, "--out", out)
        assert status == 0 and err == ""
        assert said == f"wrote {out}\n"
        _, page, _ = run_main(capsys, *command)
        assert out.read_text("utf-8") == page
        assert [path.name for path in tmp_path.iterdir()] == ["report.html"]  # no temporary file left

    def test_never_over_an_existing_file(self, capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         command: list[str]) -> None:
        out = tmp_path / "report.html"
        out.write_text("mine", "utf-8")
        status, said, err = run_main(capsys, *command, "--out", out)
        assert status == 2 and said == ""
        assert "already exists; refusing to overwrite" in one_line_error(err)
        assert out.read_text("utf-8") == "mine"

    def test_nor_through_a_symbolic_link(self, capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         command: list[str]) -> None:
        (tmp_path / "link.html").symlink_to(tmp_path / "elsewhere.html")
        status, _, err = run_main(capsys, *command, "--out", tmp_path / "link.html")
        assert status == 2
        assert not (tmp_path / "elsewhere.html").exists()

    def test_nor_into_a_missing_folder(self, capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                       command: list[str]) -> None:
        status, _, err = run_main(capsys, *command, "--out", tmp_path / "no" / "report.html")
        assert status == 2
        assert "no such directory" in one_line_error(err)

    def test_nor_into_the_bundled_fixtures(self, capsys: pytest.CaptureFixture[str], bundled_tree: Path,
                                           command: list[str]) -> None:
        status, _, err = run_main(capsys, *command, "--out", bundled_tree / "report.html")
        assert status == 2
        assert "bundled fixtures" in one_line_error(err)


@pytest.mark.parametrize(("extra", "said"), [
    (["--export", "ACCEPT", "--out", "x.html"], "it takes no --export, --follow or --pivot"),
    (["--follow"], "it takes no --export, --follow or --pivot"),
])
def test_triage_html_refuses_what_a_page_cannot_hold(capsys: pytest.CaptureFixture[str], extra: list[str],
                                                     said: str) -> None:
    status, _, err = run_main(capsys, *TRIAGE, *extra)
    assert status == 2
    assert said in one_line_error(err)

