"""Errors on the command line: one line on stderr and an exit code, never a traceback."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import typer

from shieldwall.core.errors import DataError, UnknownName


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


def check_makeable_folder(folder: Path | None, option: str, path: Path | None = None) -> None:
    """Fail before any work when ``folder`` (made with its parents when missing) cannot be: it, or
    a folder above it, is a file. ``path`` is the value given to ``option`` when that is a file to
    be written into ``folder`` (default: ``folder`` itself). ``mkdir`` would only say "File exists"
    or "Not a directory", naming neither the option nor which part of the path is the file."""
    if folder is None:
        return
    given = path if path is not None else folder
    for part in (folder, *folder.parents):
        if part.is_dir():
            return
        if part.exists():
            what = "is a file" if part == given else f"{part} is a file"
            fail(f"{option} {given}: {what}, not a folder")


@contextmanager
def scenario_argument(scenario: str | None) -> Iterator[None]:
    """Say what a scenario argument naming an existing folder or a file that is not TOML is,
    rather than that it is an unknown scenario: a path is taken for a scenario file only when it
    ends in ``.toml``, and anything else is looked up among the built-in names."""
    try:
        yield
    except UnknownName as exc:
        if scenario is None or exc.kind != "scenario" or exc.name != scenario:
            raise
        path = Path(scenario)
        if path.is_dir():
            raise DataError(scenario, "", "is a folder, not a scenario file (TOML)") from None
        if path.exists():
            raise DataError(
                scenario,
                "",
                "not a scenario file: a scenario is a TOML file named *.toml "
                "(or a built-in name: shieldwall scenarios)",
            ) from None
        raise


def fail(message: str, code: int = 2) -> None:
    """Print a clear error (never a traceback) and exit."""
    from rich.console import Console
    from rich.text import Text

    Console(stderr=True, soft_wrap=True).print(Text("error: ", style="bold red") + Text(message))
    raise typer.Exit(code)
