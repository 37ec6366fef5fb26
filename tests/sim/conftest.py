"""Fixtures for the simulator tests: a short (4-turn) copy of the default scenario keeps them fast."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shieldwall.io.scenarios import resolve


@pytest.fixture(scope="session")
def short_scenario(tmp_path_factory: pytest.TempPathFactory) -> str:
    text = resolve(None).read_text(encoding="utf-8")
    text, n = re.subn(r"(?m)^turns\s*=\s*\d+", "turns = 4", text)
    assert n == 1
    path = Path(tmp_path_factory.mktemp("scen")) / "short-bryn-glas.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)
