"""Print a battle report to PDF with Chromium through Playwright (optional: ``report-battle --pdf``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from shieldwall.core.errors import ShieldwallError

__all__ = ["PdfError", "print_pdf"]

#: where Debian puts its Chromium; else the one found on PATH
CHROMIUM = Path("/usr/bin/chromium")


class PdfError(ShieldwallError):
    """The PDF cannot be printed (no Playwright, no Chromium, or the browser failed)."""


def _browser() -> str:
    if CHROMIUM.exists():
        return str(CHROMIUM)
    found = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if found is None:
        raise PdfError("no Chromium found (looked for /usr/bin/chromium and chromium on PATH)")
    return found


def print_pdf(html_file: Path, pdf_file: Path) -> None:
    """Print the HTML page ``html_file`` to ``pdf_file`` (A4, backgrounds kept)."""
    try:
        from playwright.sync_api import Error, sync_playwright
    except ImportError:
        raise PdfError("printing to PDF needs Playwright (pip install playwright)") from None
    exe = _browser()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=exe, args=["--no-sandbox", "--disable-gpu"])
            try:
                page = browser.new_page()
                page.goto(html_file.resolve().as_uri())
                page.pdf(path=str(pdf_file), format="A4", print_background=True)
            finally:
                browser.close()
    except Error as exc:
        raise PdfError(f"Chromium could not print the report: {str(exc).splitlines()[0]}") from None
