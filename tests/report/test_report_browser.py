"""The battle report in Debian's Chromium: the page loads from a file with no request at all, draws
its maps (the shared terrain resolved), and prints to PDF (``report-battle --pdf``). The screenshot
of docs/report.md is written into docs/images/ only with SHIELDWALL_SCREENSHOTS=1 (as the other
browser tests do), else into a temporary folder."""

from __future__ import annotations

from pathlib import Path

from tests.browser_fixtures import ARGS, BROWSER, CHROMIUM, IMAGES, playwright

from shieldwall.cli import run

pytestmark = BROWSER


def test_the_report_opens_offline_and_prints_to_pdf(tmp_path: Path) -> None:
    save, html, pdf = tmp_path / "b.json", tmp_path / "b.html", tmp_path / "b.pdf"
    assert run(["battle", "one-hour-dark-ages/bryn-glas", "--seed", "3", "--save", str(save)]) == 0
    assert run(["report-battle", str(save), "-o", str(html), "--pdf", str(pdf)]) == 0
    assert pdf.read_bytes()[:5] == b"%PDF-" and pdf.stat().st_size > 10_000

    requests: list[str] = []
    with playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
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
