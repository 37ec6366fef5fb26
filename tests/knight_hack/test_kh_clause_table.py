"""The clause table docs/rules/knight-hack.md is generated and current; the clauses the engine plays
have code citing them and tests naming them; clause ids resolve."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from shieldwall.rulesets.knight_hack.clauses import CLAUSES, RS, rule

ROOT = Path(__file__).resolve().parents[2]

#: clauses not played yet (none: ambushes are played since R49)
NOT_PLAYED: set[str] = set()


def test_clause_table_is_current() -> None:
    r = subprocess.run(
        [sys.executable, str(ROOT / "scripts/kh_clause_table.py"), "--check"], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout + r.stderr
    text = (ROOT / "docs/rules/knight-hack.md").read_text(encoding="utf-8")
    for c in CLAUSES:
        assert f"| `{c}` |" in text
    for c in CLAUSES:
        if c == "info.advice":
            continue
        row = next(line for line in text.splitlines() if line.startswith(f"| `{c}` |"))
        if c in NOT_PLAYED:
            assert "**not yet**" in row, row
        else:
            assert "**not yet**" not in row and "**none**" not in row, row


def test_clause_ids() -> None:
    # the inventory's 45 clauses (its clause 34 has two ids) and shieldwall's own four of hand
    # deployment (ruling R51)
    assert len(CLAUSES) == 50
    assert [c for c in CLAUSES if c.startswith("deployment")] == [
        "deployment",
        "deployment.zone",
        "deployment.order",
        "deployment.clear",
    ]
    assert rule("morale.level") == f"{RS}:morale.level"
    with pytest.raises(KeyError, match="unknown knight-hack clause"):
        rule("morale.nonsense")


def test_every_ruling_is_in_the_rulings_note() -> None:
    text = (ROOT / "docs/rulings/knight-hack.md").read_text(encoding="utf-8")
    for n in range(1, 52):
        assert f"## R{n} " in text or f"## R{n}:" in text, f"R{n}"
