"""Writes the browser screenshots of docs/serve.md and the README into screenshots/:
the served inspector (``serve.png``), the audit's and the triage's HTML reports
(``audit-report.png``, ``triage-report.png``), taken in Debian's headless Chromium
by the tests' DevTools client.  ``make web-screenshots`` runs it; existing files
are replaced (through ``io.writing``: whole or not at all)."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

# tests/ on the path (as pytest has it), not this folder (its modules are support's)
sys.path[0] = str(Path(__file__).resolve().parents[1])

from inspector.io.writing import write_files  # noqa: E402

from support import ROOT, run_main  # noqa: E402
from support.chromium import Chromium  # noqa: E402
from support.serve import screen_text, start_server  # noqa: E402

OUT = ROOT / "screenshots"


async def _served(browser: Chromium) -> bytes:
    served = start_server("fixtures/article.json")
    page = await browser.page(1280, 800)
    try:
        await page.goto(f"{served.base}/?token={served.token}")
        await page.wait_for("document.body.classList.contains('-first-byte')")
        await page.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
        while "one-field-request" not in screen_text(page.terminal_bytes()):
            await asyncio.sleep(0.05)
        for _ in range(3):  # to real-quote-wrong-value: a real quote, a wrong value
            await page.key("j")
        count = -1
        while count != len(page.frames):
            count = len(page.frames)
            await asyncio.sleep(0.5)
        return await page.screenshot()
    finally:
        await page.close()
        served.stop()


async def _report(browser: Chromium, path: Path, height: int) -> bytes:
    page = await browser.page(1280, height)
    try:
        await page.goto(path.as_uri())
        return await page.screenshot()
    finally:
        await page.close()


async def main() -> int:
    with tempfile.TemporaryDirectory() as scratch:
        audit, triage = Path(scratch) / "audit.html", Path(scratch) / "triage.html"
        # as typed in the repository (run_main runs there): the paths the pages show are short
        written = [run_main(None, "audit", "fixtures/article.json", "--format", "html", "--out", audit),
                   run_main(None, "triage", "fixtures/logs/sample.jsonl", "--registry",
                            "fixtures/logs/sample-registry.json", "--by", "model", "--format", "html", "--out",
                            triage)]
        for status, _, err in written:
            assert status in (0, 1), err
        browser = Chromium.start()
        try:
            shots = {"serve.png": await _served(browser), "audit-report.png": await _report(browser, audit, 1500),
                     "triage-report.png": await _report(browser, triage, 1100)}
        finally:
            browser.stop()
    write_files(OUT, shots, overwrite=True)
    for name, data in shots.items():
        print(f"wrote {OUT / name} ({len(data):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
