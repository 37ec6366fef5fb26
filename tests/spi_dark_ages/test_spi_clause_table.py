"""The clause table docs/rules/spi-dark-ages.md is generated and current; every clause the engine
plays has code citing it and a test naming it; clause ids resolve."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from shieldwall.rulesets.spi_dark_ages.clauses import CLAUSES, RS, rule

ROOT = Path(__file__).resolve().parents[2]

NOTHING_TO_PLAY = {"movement.I", "victory.darius"}


def test_clause_table_is_current() -> None:
    r = subprocess.run(
        [sys.executable, str(ROOT / "scripts/clause_table.py"), "spi-dark-ages", "--check"],
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    text = (ROOT / "docs/rules/spi-dark-ages.md").read_text(encoding="utf-8")
    for c in CLAUSES:
        row = next(line for line in text.splitlines() if line.startswith(f"| `{c}` |"))
        if c not in NOTHING_TO_PLAY:
            assert "**not yet**" not in row and "**none**" not in row, row


def test_clause_ids() -> None:
    assert len(CLAUSES) == 96  # the inventory's 92 clauses (C62 ferocity as one id) + 4 base-rule ids
    assert rule("movement.K.stop") == f"{RS}:movement.K.stop"
    with pytest.raises(KeyError):
        rule("movement.withdrawal")


def test_every_event_cites_a_clause_of_the_table() -> None:
    from shieldwall.core.datafiles import read_toml
    from shieldwall.rulesets.spi_dark_ages.bots import ScriptedBot
    from shieldwall.rulesets.spi_dark_ages.game import DarkAgesGame

    tours = ROOT / "src/shieldwall/rulesets/spi_dark_ages/scenarios/tours.toml"
    st = DarkAgesGame.from_data(read_toml(tours), str(tours)).new_state(4)
    bot = ScriptedBot(4)
    while not st.is_terminal():
        st.apply(bot.choose(st))
    for e in st.events:
        rid, _, cid = e.rule.partition(":")
        assert rid == RS and cid in CLAUSES, e
