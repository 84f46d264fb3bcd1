"""The HTML reports opened in headless Chromium (support.chromium, one browser for
the module): the figures drawn, the hostile strings of a log and a suite shown as
text, nothing run (no dialog, the title unchanged), nothing fetched but the page."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from support import ARTICLE, FIXTURES, run_main
from support.chromium import Chromium, Page, png_size
from support.hostile_html import SAMPLE_REGISTRY, SCRIPT, hostile_log

pytestmark = pytest.mark.xdist_group("browser")


@pytest_asyncio.fixture
async def page(browser: Chromium) -> AsyncIterator[Page]:
    opened = await browser.page(1280, 900)
    yield opened
    await opened.close()


def _report(tmp_path: Path, name: str, *args: str | Path) -> Path:
    out = tmp_path / name
    status, said, err = run_main(None, *args, "--format", "html", "--out", out)
    assert status in (0, 1), err
    return out


async def _opened(page: Page, path: Path) -> str:
    await page.goto(path.as_uri())
    assert page.requests == [path.as_uri()]  # the page itself, nothing else
    return await page.evaluate("document.body.innerText")


class TestTheTriageReport:
    async def test_hostile_records_are_text_and_nothing_runs(self, page: Page, tmp_path: Path) -> None:
        log = hostile_log(tmp_path)
        report = _report(tmp_path, "triage.html", "triage", log, "--registry", SAMPLE_REGISTRY, "--by", "model")
        shown = await _opened(page, report)
        await page.evaluate("new Promise(done => setTimeout(done, 200))")  # an onerror or onload would have run
        assert page.dialogs == []
        assert await page.evaluate("document.title") == "inspector triage"  # the script would have changed it
        assert "<script>document.title\\='owned'" in shown and "<img src\\=x onerror\\=" in shown
        assert SCRIPT in shown  # a record's metadata, whole
        assert await page.evaluate("document.querySelectorAll('script, img, iframe, object, embed').length") == 0
        assert page.requests == [report.as_uri()]
        shot = await page.screenshot(tmp_path / "triage.png", full_page=True)
        assert png_size(shot)[1] > 2000

    async def test_the_figures_are_drawn(self, page: Page, tmp_path: Path) -> None:
        report = _report(tmp_path, "triage.html", "triage", FIXTURES / "logs" / "sample.jsonl", "--registry",
                         SAMPLE_REGISTRY, "--by", "model")
        await _opened(page, report)
        bars = await page.evaluate("""Array.from(document.querySelectorAll('svg.bar rect'))
            .filter(rect => rect.getAttribute('fill') !== '#eef1f5').map(rect => rect.getBBox().width)""")
        assert len(bars) > 50 and max(bars) == pytest.approx(180, abs=0.1)
        histogram = await page.evaluate("""(() => { const svg = Array.from(document.querySelectorAll('svg'))
            .find(svg => (svg.querySelector('title')?.textContent ?? '').startsWith('records per'));
            return Array.from(svg.querySelectorAll('g rect')).map(rect => rect.getBBox().height); })()""")
        assert len(histogram) >= 2 * 10 and max(histogram) > 100  # records and their rejected part a bucket


class TestTheAuditReport:
    async def test_the_rungs_and_the_ladder_are_drawn(self, page: Page, tmp_path: Path) -> None:
        report = _report(tmp_path, "audit.html", "audit", ARTICLE)
        shown = await _opened(page, report)
        assert "strict JSON 17/22 · citation-only 13/22 · contract 3/22" in shown
        widths = await page.evaluate("""Array.from(document.querySelectorAll('figure svg rect'))
            .filter(rect => rect.getAttribute('fill') === '#2f81c7').map(rect => Math.round(rect.getBBox().width))""")
        assert widths == pytest.approx([350 * 17 / 22, 350 * 13 / 22, 350 * 3 / 22], abs=1)  # 17/22, 13/22, 3/22

    async def test_the_hostile_suite_is_text(self, page: Page, tmp_path: Path) -> None:
        report = _report(tmp_path, "audit.html", "audit", FIXTURES / "hostile.json")
        shown = await _opened(page, report)
        assert "[@click=app.quit]" in shown and "\\u001b" in shown
        assert page.dialogs == [] and await page.evaluate("document.title") == "inspector audit"
