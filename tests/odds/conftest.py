"""Shared fixtures of the odds tests."""

from __future__ import annotations

import pytest
import typer

from shieldwall import cli_odds


@pytest.fixture(scope="session")
def app() -> typer.Typer:
    """A typer app with only ``shieldwall odds`` registered (``cli_odds.register``); the main console
    script registers the other sub-apps too."""
    a = typer.Typer()

    @a.callback()
    def _root() -> None:
        """test root"""

    cli_odds.register(a)
    return a
