"""Errors on the command line: one line on stderr and an exit code, never a traceback."""

from __future__ import annotations

from pathlib import Path

import typer


def check_folder(path: Path | None, option: str) -> None:
    """Fail before any work when the file ``path`` is to be written has no folder to go into (or
    is itself a folder)."""
    if path is None:
        return
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        fail(f"{option} {path}: there is no folder {folder}")
    if path.is_dir():
        fail(f"{option} {path}: is a folder; give a file name")


def fail(message: str, code: int = 2) -> None:
    """Print a clear error (never a traceback) and exit."""
    from rich.console import Console
    from rich.text import Text

    Console(stderr=True, soft_wrap=True).print(Text("error: ", style="bold red") + Text(message))
    raise typer.Exit(code)
