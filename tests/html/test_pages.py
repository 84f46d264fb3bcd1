"""The HTML reports (inspector.html): the audit's and the triage's page from the same
reports the text and JSON use, every untrusted string escaped and its invisible
characters shown, nothing a browser would run or fetch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.html.page import attribute, bar, text

from support import ARTICLE, FIXTURES, run_main
from support.hostile_html import CONTROL, HOSTILE, IMAGE, SAMPLE_LOG, SAMPLE_REGISTRY, SCRIPT, assert_inert, hostile_log

TRIAGE = ["triage", str(SAMPLE_LOG), "--registry", str(SAMPLE_REGISTRY), "--format", "html"]


class TestEscaping:
    @pytest.mark.parametrize("value", [*HOSTILE, "a & b", "x < y > z"])
    def test_markup_is_text(self, value: str) -> None:
        assert "<" not in text(value) and ">" not in text(value)
        assert '"' not in attribute(value) and "'" not in attribute(value)

    def test_invisible_characters_are_shown_marked(self) -> None:
        assert text("a\x1bb\u202ec") == ('a<span class="esc">\\u001b</span>b<span class="esc">\\u202e</span>c')
        assert attribute("a\x1b") == "a\\u001b"

    def test_a_bar_is_drawn_to_scale(self) -> None:
        assert 'width="90.0"' in bar(1, 2, width=180)
        assert 'fill="#c62828"' in bar(4, 4, width=100, part=1)
        assert 'width="0.0"' in bar(0, 0)


class TestTheAuditPage:
    def test_the_article(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, page, err = run_main(capsys, "audit", ARTICLE, "--format", "html")
        assert status == 0 and err == ""
        shown = assert_inert(page)
        assert "strict JSON 17/22 · citation-only 13/22 · contract 3/22" in shown
        assert "10 false accept(s)" in shown
        assert "every verdict matches its frozen label" in shown
        # a case's verdict with its first failure explained and its fix
        assert 'claimed "2000", prod-v2 has read_timeout_ms=5000' in shown
        assert "fix: Copy prod-v2's read_timeout_ms exactly" in shown
        # the rungs' figure, and a bar for each check of the ladder (17: no case is scoped, access is not drawn)
        assert page.count("<svg") == 1 + 17

    def test_the_hostile_suite_is_shown_not_interpreted(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, page, err = run_main(capsys, "audit", FIXTURES / "hostile.json", "--format", "html")
        assert status == 0
        shown = assert_inert(page)
        suite = json.loads((FIXTURES / "hostile.json").read_text("utf-8"))
        for case in suite["cases"]:
            if case["id"].isascii() and case["id"].isprintable():
                assert case["id"] in shown
        assert "[bold red]" in shown  # Rich markup in a fixture is text here too
        assert '<span class="esc">\\u001b</span>' in page

    def test_a_mismatch_is_listed(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        suite = json.loads(ARTICLE.read_text("utf-8"))
        suite["cases"][0]["expected"] = "VALUE_MISMATCH"
        changed = tmp_path / "changed.json"
        changed.write_text(json.dumps(suite), "utf-8")
        status, page, _ = run_main(capsys, "audit", changed, "--format", "html")
        assert status == 1
        assert "1 case(s) differ from their frozen label" in assert_inert(page)


class TestTheTriagePage:
    def test_the_sample_log(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, page, err = run_main(capsys, *TRIAGE, "--by", "model")
        assert status == 0 and err == ""
        shown = assert_inert(page)
        for part in ("300 lines · 292 records · 8 bad lines", "By check (verdict status)", "By model",
                     "model=llama-z", "Over time", "8 bad line(s)", "Records of the largest rejection groups",
                     "INVALID_JSON: 60 record(s), the first 3"):
            assert part in shown, part
        assert "fix: " in shown  # a record's first failure explained
        assert 'fill="#c62828"' in page  # the rejected share drawn

    def test_series_draws_the_largest_groups_over_time(self, capsys: pytest.CaptureFixture[str]) -> None:
        status, page, _ = run_main(capsys, *TRIAGE, "--by", "model", "--series")
        assert status == 0
        shown = assert_inert(page)
        assert "Over time, per group (per hour, each to its own scale)" in shown
        assert "VALUE_MISMATCH: 26 of its 26 record(s) drawn" in shown
        assert "model=llama-z: 30 of its 30 record(s) drawn" in shown

    def test_against(self, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
        before = tmp_path / "before.jsonl"
        before.write_text("".join(SAMPLE_LOG.read_text("utf-8").splitlines(keepends=True)[:150]), "utf-8")
        status, page, _ = run_main(capsys, *TRIAGE, "--against", before)
        assert status == 0
        shown = assert_inert(page)
        assert f"Against {before}" in shown and "significant change(s) first" in shown

    def test_hostile_records_are_shown_not_interpreted(self, capsys: pytest.CaptureFixture[str],
                                                       tmp_path: Path) -> None:
        log = hostile_log(tmp_path)
        status, page, _ = run_main(capsys, "triage", log, "--registry", SAMPLE_REGISTRY, "--by", "model",
                                   "--format", "html")
        assert status == 0
        shown = assert_inert(page)
        # the group names (an = or : in a value escaped, as every group name has it)
        assert "model=<script>document.title\\='owned';fetch('http\\://127.0.0.1\\:9/x')</script>" in shown
        assert "model=<img src\\=x onerror\\=\"alert('owned')\">" in shown
        assert f'"prompt_version": "{SCRIPT}"' in shown  # a record's metadata, under its verdict
        assert "\\u001b]52;c;b3duZWQ=\\u0007\\u202e" in shown  # the id's OSC 52, shown as escapes
        assert CONTROL not in shown
