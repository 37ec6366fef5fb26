"""Errors on the command line: one line on stderr and an exit code, never a traceback."""

from __future__ import annotations

from pathlib import Path

import typer


def check_folder(path: Path | None, option: str, *, is_folder: bool = False) -> None:
    """Fail before any work when ``path`` (a file to write, or a folder with ``is_folder``) has no
    folder to go into."""
    if path is None:
        return
    folder = path if is_folder else (path.parent if str(path.parent) else Path("."))
    if not folder.is_dir():
        fail(f"{option} {path}: there is no folder {folder}")
    if not is_folder and path.is_dir():
        fail(f"{option} {path}: is a folder; give a file name")


def fail(message: str, code: int = 2) -> None:
    """Print a clear error (never a traceback) and exit."""
    from rich.console import Console
    from rich.text import Text

    Console(stderr=True, soft_wrap=True).print(Text("error: ", style="bold red") + Text(message))
    raise typer.Exit(code)
