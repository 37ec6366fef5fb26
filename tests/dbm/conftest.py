"""Fixtures: the illustrative sample data set (NOT the published DBM tables) and a writable copy."""

from __future__ import annotations

import shutil
from importlib import resources
from pathlib import Path

import pytest

from shieldwall.rulesets.dbm.tables import Tables, sample_tables

SAMPLE = Path(str(resources.files("shieldwall.rulesets.dbm") / "data" / "sample"))


@pytest.fixture
def tables() -> Tables:
    return sample_tables()


@pytest.fixture
def sample_copy(tmp_path: Path) -> Path:
    dst = tmp_path / "data"
    shutil.copytree(SAMPLE, dst)
    return dst
