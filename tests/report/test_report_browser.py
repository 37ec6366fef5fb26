"""The battle report in Debian's Chromium: the page loads from a file with no request at all, draws
its maps (the shared terrain resolved), and prints to PDF (``report-battle --pdf``). The screenshot
of docs/report.md is written into docs/images/ only with SHIELDWALL_SCREENSHOTS=1 (as the other
browser tests do), else into a temporary folder."""

from __future__ import annotations

import os
import tempfile
import warnings
from pathlib import Path

import pytest

from shieldwall.cli import run

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
IMAGES = (
    ROOT / "docs" / "images"
    if os.environ.get("SHIELDWALL_SCREENSHOTS") == "1"
    else Path(tempfile.mkdtemp(prefix="shieldwall-screenshots-"))
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium"),
]


def test_the_report_opens_offline_and_prints_to_pdf(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from playwright.sync_api import sync_playwright

    save, html, pdf = tmp_path / "b.json", tmp_path / "b.html", tmp_path / "b.pdf"
    assert run(["battle", "one-hour-dark-ages/bryn-glas", "--seed", "3", "--save", str(save)]) == 0
    assert run(["report-battle", str(save), "-o", str(html), "--pdf", str(pdf)]) == 0
    assert pdf.read_bytes()[:5] == b"%PDF-" and pdf.stat().st_size > 10_000

    requests: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox", "--disable-gpu"])
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 1300})
            page.on("request", lambda r: requests.append(r.url))
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(html.as_uri())
            assert requests == [html.as_uri()] and not errors
            # every turn's map is drawn at a real size, its terrain taken from the shared layer
            sizes = page.eval_on_selector_all(
                "section.turn figure.map svg.shieldwall-board",
                "els => els.map(e => e.getBoundingClientRect().width)",
            )
            assert len(sizes) > 3 and min(sizes) > 500
            used = page.eval_on_selector(
                "section.turn figure.map svg use", "u => u.getBBox().width * u.getBBox().height"
            )
            assert used > 0  # the <use> of the shared terrain resolves to something drawn
            page.screenshot(path=str(IMAGES / "report-battle.png"))
            page.locator("section.turn").nth(2).screenshot(path=str(IMAGES / "report-battle-turn.png"))
        finally:
            browser.close()
