"""``shieldwall odds duel knight-hack``: one melee round's exact outcome (knight-hack:melee.rounds,
knight-hack:casualties.target, knight-hack:casualties.multiple), against brute-force enumeration of
the two d100s."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from shieldwall.cli import run
from shieldwall.core.errors import ShieldwallError
from shieldwall.rulesets.knight_hack.factors import Fighter, MeleeConditions, melee_target
from shieldwall.rulesets.knight_hack.odds import PLUGIN
from shieldwall.rulesets.knight_hack.tables import sample_tables


def _one(r: int, t: int) -> int:
    """Clarification 3 written out again: r <= T one, r <= T/2 two, r <= T/4 three (R3)."""
    return 3 if 4 * r <= t else 2 if 2 * r <= t else 1 if r <= t else 0


def brute(
    ta: int, tb: int, fig_a: int, fig_b: int, auto_a: int = 0, auto_b: int = 0, rear_open: bool = False
) -> tuple[dict[str, Fraction], dict[int, Fraction], dict[int, Fraction]]:
    """Every pair of faces (10,000), counted: (winner, casualties on B, casualties on A)."""
    win = {"a": Fraction(0), "b": Fraction(0), "draw": Fraction(0)}
    on_b: dict[int, Fraction] = {}
    on_a: dict[int, Fraction] = {}
    p = Fraction(1, 10000)
    for ra in range(1, 101):
        for rb in range(1, 101):
            x = min(max(auto_a, _one(ra, ta)), 3, fig_b)
            y = min(max(auto_b, _one(rb, tb)), 3, fig_a)
            if rear_open and x:
                x = fig_b
            win["a" if x > y else "b" if y > x else "draw"] += p
            on_b[x] = on_b.get(x, Fraction(0)) + p
            on_a[y] = on_a.get(y, Fraction(0)) + p
    return win, on_b, on_a


@pytest.mark.parametrize(("ta", "tb"), [(60, 45), (45, 60), (0, 100), (150, 7), (33, 33), (0, 250)])
def test_melee_rounds_duel_is_one_round_enumerated(ta: int, tb: int) -> None:
    d = PLUGIN.duel(str(ta), str(tb))
    win, on_b, on_a = brute(ta, tb, 3, 3)
    assert (d.first_wins, d.second_wins, d.draw) == (win["a"], win["b"], win["draw"])
    assert d.first_wins + d.second_wins + d.draw == 1
    assert dict(d.turns) == {1: 1} and d.horizon == 1
    assert any(line.startswith(f"first inflicts (one d100, r <= {ta} one") for line in d.details)


def test_melee_rounds_duel_of_troop_types_uses_the_games_targets() -> None:
    tables = sample_tables()
    sets = {"charging": "yes", "weapon": "lance", "second-weapon": "spear", "target-disordered": "yes"}
    d = PLUGIN.duel("heavy-cavalry:B:6", "heavy-infantry:C:12", sets)
    a, b = Fighter("heavy-cavalry", "B", 6, ("lance",)), Fighter("heavy-infantry", "C", 12, ("spear",))
    ta = melee_target(tables, a, b, MeleeConditions(charging_first_round=True, target_disordered=True))
    tb = melee_target(tables, b, a, MeleeConditions(disordered=True))
    win, on_b, on_a = brute(ta.value, tb.value, 6, 12, ta.automatic, tb.automatic)
    assert (d.first_wins, d.second_wins, d.draw) == (win["a"], win["b"], win["draw"])
    assert any(f"first: T = {ta.value}" in line for line in d.details)
    assert any(f"second: T = {tb.value}" in line for line in d.details)
    assert any("modifier" in line and "disordered" in line for line in d.details)
    assert any("not the published" in line for line in d.details)


def test_charge_rear_open_duel_destroys_at_first_casualty() -> None:
    tables = sample_tables()
    d = PLUGIN.duel("heavy-cavalry:B:6", "archers:C:8", {"rear": "yes"})
    a, b = Fighter("heavy-cavalry", "B", 6), Fighter("archers", "C", 8)
    ta = melee_target(tables, a, b, MeleeConditions(rear=True))
    tb = melee_target(tables, b, a, MeleeConditions())
    win, _, _ = brute(ta.value, tb.value, 6, 8, ta.automatic, tb.automatic, rear_open=True)
    assert d.first_wins == win["a"]
    assert any("R23" in line for line in d.details)


def test_melee_rounds_duel_errors() -> None:
    with pytest.raises(ShieldwallError, match="both troop types or both numbers"):
        PLUGIN.duel("60", "heavy-cavalry")
    with pytest.raises(ShieldwallError, match="needs troop types"):
        PLUGIN.duel("60", "45", {"flank": "yes"})


def test_melee_rounds_duel_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = run(["odds", "duel", "knight-hack", "--first", "60", "--second", "45", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    win, _, _ = brute(60, 45, 3, 3)
    assert out["first_wins"] == f"{win['a'].numerator}/{win['a'].denominator}"
    assert out["draw"] == f"{win['draw'].numerator}/{win['draw'].denominator}"
