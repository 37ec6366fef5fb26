"""The clause table docs/rules/dbm-3.2.md is generated and current; every rule clause has code
citing it and a test naming it; clause ids resolve; every ruling is in the rulings note."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from shieldwall.rulesets.dbm.clauses import CLAUSES, RS, rule

ROOT = Path(__file__).resolve().parents[2]
DESCRIPTIVE = {"troops.cv-s", "troops.cv-o"}


def test_clause_table_is_current() -> None:
    r = subprocess.run(
        [sys.executable, str(ROOT / "scripts/clause_table.py"), "--check", RS], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout + r.stderr
    text = (ROOT / "docs/rules/dbm-3.2.md").read_text(encoding="utf-8")
    for c in CLAUSES:
        row = next(line for line in text.splitlines() if line.startswith(f"| `{c}` |"))
        assert "**not yet**" not in row, row
        if c not in DESCRIPTIVE:
            assert "**none**" not in row, row


def test_clause_ids() -> None:
    assert len(CLAUSES) == 95
    assert rule("fig.11") == f"{RS}:fig.11"
    with pytest.raises(KeyError, match="unknown dbm-3.2 clause"):
        rule("fig.99")


def test_every_ruling_is_in_the_rulings_note() -> None:
    text = (ROOT / "docs/rulings/dbm-3.2.md").read_text(encoding="utf-8")
    for n in range(1, 46):
        assert f"## R{n} " in text or f"## R{n}:" in text, f"R{n}"
