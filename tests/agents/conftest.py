"""The toy rule system (tests/toy: a third-party plugin with no bots) for the agents tests."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from shieldwall import registry
from shieldwall.plugin import RuleSystem

TOY = Path(__file__).resolve().parents[1] / "toy"


@pytest.fixture
def toy() -> Iterator[RuleSystem]:
    """The toy rule system (tests/toy, no bots of its own) installed for one test."""
    sys.path.insert(0, str(TOY))
    registry.refresh()
    try:
        yield registry.get("toy-duel")
    finally:
        sys.path.remove(str(TOY))
        for name in [m for m in sys.modules if m == "toy_duel" or m.startswith("toy_duel.")]:
            del sys.modules[name]
        registry.refresh()
