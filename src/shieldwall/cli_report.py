"""``shieldwall report-battle``: an illustrated battle report (one standalone HTML page) from a save."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    @app.command("report-battle")
    def report_battle(
        save: Annotated[Path, typer.Argument(help="A save file written by 'battle --save' or the web app.")],
        output: Annotated[
            Path | None,
            typer.Option(
                "-o", "--output", help="The HTML file to write (default: the save's name with .html)."
            ),
        ] = None,
        pdf: Annotated[
            Path | None,
            typer.Option(help="Also print the report to this PDF file (needs Playwright and Chromium)."),
        ] = None,
    ) -> None:
        """Write an illustrated report of a saved battle: a map per turn with the moves and
        combats, the narrative, the key dice with their clauses and chances, and the losses per
        turn. The save is replayed and verified first."""
        from shieldwall.cli_errors import check_folder, fail
        from shieldwall.cli_text import console, literal
        from shieldwall.io.saves import read_save
        from shieldwall.render.report import battle_report

        out = output if output is not None else save.with_suffix(".html")
        check_folder(out, "--output")
        check_folder(pdf, "--pdf")
        t0 = time.perf_counter()
        html = battle_report(read_save(save), str(save))
        out.write_text(html, encoding="utf-8")
        msg = f"Wrote {out} ({len(html.encode('utf-8')) / 1024:.0f} KiB) in {time.perf_counter() - t0:.1f}s."
        if pdf is not None:
            from shieldwall.render.report_pdf import PdfError, print_pdf

            try:
                print_pdf(out, pdf)
            except PdfError as exc:
                fail(f"--pdf {pdf}: {exc}", code=1)
            msg += f" Printed {pdf}."
        console(highlight=False).print(literal(msg))  # the paths as they are, never markup
