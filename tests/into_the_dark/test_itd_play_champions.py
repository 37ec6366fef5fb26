"""Clause tests: champions on the table (special-troops.champions)."""

from __future__ import annotations

import pytest

from shieldwall.core.errors import DataError, IllegalOrder
from shieldwall.rulesets.into_the_dark.act_combat import troops
from shieldwall.rulesets.into_the_dark.melee_situation import MeleeSituation

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


# --- champions joining units ------------------------------------------------------------------


def _joined(contact: bool = True) -> object:
    """c1 joins r1 in red's movement; r1 is in frontal contact with b1 (or 20" from it)."""
    by = 12 if contact else 32
    g = game(
        [u("r1", "CPF", 20, 12, figures=12, frontage=6), champ("c1", "LAF", 20, 8)],
        [u("b1", "CPF", 20, by, 180, figures=12, frontage=6)],
    )
    st = start(g, "red")
    end_until(st, "movement", "red")
    st.apply("activate c1")
    assert "join c1 r1" in {str(o) for o in st.legal_orders()}
    st.apply("join c1 r1")
    return st


def test_special_troops_champions_may_join_units() -> None:
    """ "Champions may join units and are treated as if mixed in with the front rank." """
    # also exercises into-the-dark:special-troops.champions.join
    st = _joined(contact=False)
    ev = [e for e in st.events if e.kind == "join"][0]
    assert ev.rule == f"{RS}:special-troops.champions" and (ev.data["unit"], ev.data["host"]) == ("c1", "r1")
    c1 = st.units["c1"]
    assert c1.joined == "r1" and not c1.on_table  # no longer a unit of his own on the table
    view = {x["id"]: x for x in st.view()["units"]}
    assert view["r1"]["champions"] == ["c1"] and view["c1"]["removed"]
    assert st.losses("red")["units_lost"] == 0  # not lost: he is with r1
    st.units["r1"].gone = True
    assert st.losses("red")["units_lost"] == 2  # he shares his unit's fate


def test_special_troops_champions_join_only_within_his_move() -> None:
    from shieldwall.rulesets.into_the_dark.act_champions import join_problem

    g = game(
        [u("r1", "CPF", 20, 12), champ("c1", "LAF", 40, 4), u("r2", "CPF", 44, 30)],
        [u("b1", "CPF", 20, 30, 180)],
    )
    st = start(g, "red")
    end_until(st, "movement", "red")
    st.apply("activate c1")
    menu = {str(o) for o in st.legal_orders()}
    assert "join c1 r1" not in menu and "join c1 r2" not in menu
    assert "beyond his" in (join_problem(st, st.units["c1"], st.units["r1"]) or "")
    with pytest.raises(IllegalOrder) as e:
        st.copy().apply("join c1 r1")
    assert e.value.rule == f"{RS}:special-troops.champions"


def test_special_troops_champions_in_the_front_rank_fight_and_may_be_targeted() -> None:
    """A joined champion strikes with his 2 d6 at the enemy on his unit's front; "up to 2 of their
    opponent's dice may be declared as targeting the champion"."""
    # also exercises into-the-dark:special-troops.champions.targeted
    st = _joined(contact=True)
    end_until(st, "declare", "blue")
    menu = {str(o) for o in st.legal_orders()}
    assert {"declare b1 c1 1", "declare b1 c1 2"} <= menu and "declare b1 c1 3" not in menu
    n = len(st.events)
    script(st, [6] * 200)
    st.apply("declare b1 c1 2")
    new = st.events[n:]
    at = [e for e in new if e.kind == "melee-champion"][0]
    assert at.rule == f"{RS}:special-troops.champions" and at.data["faces"] == [6, 6]
    assert at.data["taken"] == 2 and st.units["c1"].destroyed  # a foot champion: 2 hits
    # he struck in the same (simultaneous) round: 2 d6 at b1
    mine = [e for e in new if e.kind == "melee" and e.data["unit"] == "c1"][0]
    assert mine.data["target"] == "b1" and mine.data["groups"][0]["dice"] == 2
    # b1's own attack on r1 lost the 2 declared dice
    b1 = [e for e in new if e.kind == "melee" and e.data["unit"] == "b1"][0]
    r1 = [e for e in new if e.kind == "melee" and e.data["unit"] == "r1"][0]
    assert sum(g["dice"] for g in b1.data["groups"]) == sum(g["dice"] for g in r1.data["groups"]) - 2


def test_special_troops_champions_may_leave_a_unit_next_turn() -> None:
    """The text gives no way out of a unit and forbids none: a champion may leave a unit that is not
    in melee nor routing, in his side's Movement phase, standing in front of it (ruling 73)."""
    # also exercises into-the-dark:special-troops.champions.join
    st = _joined(contact=False)
    assert "leave c1" not in {str(o) for o in st.legal_orders()}  # joining was his action this turn
    st.apply("end")
    end_until(st, "movement", "red")
    assert "leave c1" in {str(o) for o in st.legal_orders()}
    st.apply("leave c1")
    ev = [e for e in st.events if e.kind == "leave"][0]
    assert ev.rule == f"{RS}:special-troops.champions" and ev.data["host"] == "r1"
    c1, r1 = st.units["c1"], st.units["r1"]
    assert c1.joined is None and c1.on_table and c1.acted
    assert c1.y == pytest.approx(r1.y + c1.depth + 0.01, abs=1e-6)  # just in front of r1, facing its way


def test_special_troops_champions_do_not_leave_a_unit_in_melee() -> None:
    # also exercises into-the-dark:special-troops.champions.join
    from shieldwall.rulesets.into_the_dark.act_champions import leave_problem

    st = _joined(contact=True)
    st.units["c1"].acted = False  # as in a later turn, with r1 still in the melee
    assert "in melee" in (leave_problem(st, st.units["c1"]) or "")
    with pytest.raises(IllegalOrder):
        st.copy().apply("leave c1")
