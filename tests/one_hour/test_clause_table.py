"""The clause table docs/rules/one-hour-dark-ages.md is generated and must be current; every clause
has code citing it and a test naming it; every event of real battles names a known clause."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.one_hour.clauses import CLAUSES, RS

ROOT = Path(__file__).resolve().parents[2]


def test_clause_table_is_current_and_complete() -> None:
    r = subprocess.run(
        [sys.executable, str(ROOT / "scripts/clause_table.py"), "--check"], capture_output=True, text=True
    )
    assert r.returncode == 0, r.stdout + r.stderr
    text = (ROOT / "docs/rules/one-hour-dark-ages.md").read_text(encoding="utf-8")
    assert "without code citation: 0; without a test: 0" in text
    for c in CLAUSES:
        assert f"| `{c}` |" in text


def test_every_event_of_a_battle_cites_a_known_clause() -> None:
    for red, blue in (("scripted", "random"), ("random", "scripted")):
        st = play(load_game(None), 5, red, blue).state
        for e in st.events:
            assert e.rule.startswith(f"{RS}:") and e.rule.split(":", 1)[1] in CLAUSES, e
            for c in e.data.get("checked", []):
                assert c.split(":", 1)[1] in CLAUSES, (e, c)
            for m in e.data.get("modifiers", []):
                assert m["rule"].split(":", 1)[1] in CLAUSES, (e, m)
