"""Clause tests: champions on the table (special-troops.champions)."""

from __future__ import annotations

import pytest

from shieldwall.core.errors import DataError
from shieldwall.rulesets.into_the_dark.act_combat import troops
from shieldwall.rulesets.into_the_dark.combat import MeleeSituation

from .playkit import RS, end_until, events, game, script, start, u


def champ(uid: str, code: str, x: float, y: float, heading: float = 0.0) -> dict[str, object]:
    return u(uid, code, x, y, heading, figures=1, frontage=1, quality="elite", options=["champion"])


def test_special_troops_champions_two_hits_on_foot_three_mounted_first_removes_the_mount() -> None:
    g = game([champ("r1", "LAF", 20, 5), champ("r2", "LAM", 30, 5)], [u("b1", "CPF", 20, 30, 180)])
    st = start(g, "red")
    foot, horse = st.units["r1"], st.units["r2"]
    assert foot.density == "O" and foot.allowance == 8  # always open order
    assert foot.lose(1) == 1 and foot.on_table and foot.wounded
    assert foot.lose(3) == 1 and foot.destroyed
    assert horse.allowance == 16 and horse.lose(1) == 1
    assert not horse.mounted and horse.allowance == 8 and not horse.wounded  # unhorsed: 2 hits left
    horse.lose(1)
    assert horse.wounded and horse.on_table
    horse.lose(1)
    assert horse.destroyed


def test_special_troops_champions_two_dice_then_one_when_wounded_and_strike_back_any_side() -> None:
    # b1 charges the champion's flank: no pin, no flank; the champion strikes back with 2 d6
    g = game([champ("r1", "LAF", 20, 10)], [u("b1", "CPF", 14, 9.5, 90)])
    st = start(g, "blue")
    script(st, [3] * 200)
    st.apply("charge b1 r1")
    assert not st.units["r1"].pinned
    end_until(st, "initiative")
    melee = [e for e in events(st, "melee")]
    mine = [e for e in melee if e.data["unit"] == "r1"]
    assert mine and len(mine[0].data["faces"]) == 2
    theirs = [e for e in melee if e.data["unit"] == "b1"]
    assert theirs and theirs[0].data["figures"]["flank"] == 0 and theirs[0].data["figures"]["rear"] == 0
    assert all(e.rule == f"{RS}:combat.melee" for e in melee)
    r1 = st.units["r1"]
    r1.wounds = r1.champion_hits - 1  # one hit left: 1 d6
    sit = MeleeSituation(troops(r1), troops(st.units["b1"]), front=1)
    assert sit.dice == 1


def test_special_troops_champions_switch_off_refuses_them() -> None:
    with pytest.raises(DataError) as e:
        game([champ("r1", "LAF", 20, 5)], [u("b1", "CPF", 20, 30, 180)], options={"champions": False})
    assert "special-troops.champions" in str(e.value)
