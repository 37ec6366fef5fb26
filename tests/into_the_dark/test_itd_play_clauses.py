"""Clause tests for the frame of play: scale, dice, table, and the order of the turn's phases."""

from __future__ import annotations

import pytest

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.into_the_dark.combat import Troops
from shieldwall.rulesets.into_the_dark.melee_situation import MeleeSituation

from .playkit import RS, end_until, events, game, next_turn, start, u


def test_intro_scale_15mm_halves_every_distance() -> None:
    g = game([u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 30, 180)], options={"scale": "15mm"})
    st = start(g, "red")
    with pytest.raises(IllegalOrder) as e:
        st.copy().apply("move r1 fwd 3.5")  # close order foot: 6" at 25mm, 3" at 15mm
    assert e.value.rule == f"{RS}:movement.distances"
    st.apply("move r1 fwd 3")


def test_setup_equipment_every_die_is_a_d6() -> None:
    st = start(game([u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 30, 180)]), "red")
    for _ in range(3):
        next_turn(st)
    rolls = [e for e in st.events if "faces" in e.data]
    assert rolls and all(e.data.get("die") == "d6" for e in rolls)
    for e in rolls:
        faces = e.data["faces"]
        vals = faces.values() if isinstance(faces, dict) else faces
        assert all(1 <= f <= 6 for f in vals)


def test_setup_gaming_area_table_from_the_scenario() -> None:
    st = start(game([u("r1", "LPM", 20, 30)], [u("b1", "CPF", 5, 30, 180)], table=(40.0, 36.0)), "red")
    assert st.view()["table"] == {"width": 40.0, "depth": 36.0}
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r1 fwd 8")  # the front edge would pass y = 36
    assert e.value.rule == f"{RS}:movement.movement"


def test_turn_sequence_rallys_come_first_and_rallied_units_do_not_move() -> None:
    st = start(game([u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 30, 180)]), "red")
    st.units["r1"].morale = "shaken"
    end_until(st, "rally", "red")
    d = st.decision()
    assert d is not None and d.data["phase"] == "rally"
    n = len(st.events)
    st.apply("rally r1")
    assert any(e.rule == f"{RS}:combat.rallying" for e in st.events[n:])
    assert not any(e.kind == "initiative-roll" for e in st.events[n - 1 :][:2])
    end_until(st, "movement", "red")
    with pytest.raises(IllegalOrder) as e:
        st.apply("move r1 fwd 1")
    assert "acted" in e.value.reason  # "Troops that rallied ... may not move during the movement phase"


def test_turn_sequence_combat_missile_fire_then_melee_then_morale() -> None:
    g = game(
        [u("r1", "LUF", 10, 5, type_="missile", weapon="bow"), u("r2", "CPF", 30, 20)],
        [u("b1", "CPF", 10, 12, 180), u("b2", "CPF", 30, 20, 180)],
    )
    st = start(g, "red")
    end_until(st, "fire", "red")
    st.apply("shoot r1 b1")
    end_until(st, "initiative")
    kinds = [(e.kind, e.data.get("phase_name")) for e in st.events]
    fire = kinds.index(("phase", "missile fire"))
    melee = kinds.index(("phase", "melee"))
    morale = kinds.index(("phase", "morale tests"))
    first_shot = next(i for i, e in enumerate(st.events) if e.kind == "fire")
    first_blow = next(i for i, e in enumerate(st.events) if e.kind == "melee")
    assert fire < first_shot < melee < first_blow < morale
    tests = [i for i, e in enumerate(st.events) if e.kind == "morale-test"]
    assert tests and min(tests) > morale  # turn-sequence.morale: tests after combat
    assert st.events[morale].rule == f"{RS}:turn-sequence.morale"
    assert st.events[fire].rule == f"{RS}:turn-sequence.combat"


def test_terrain_terrain_open_hill_neither_slows_nor_disorders() -> None:
    hill = {"id": "h", "kind": "hill", "points": [[0, 0], [48, 0], [48, 20], [0, 20]]}
    st = start(game([u("r1", "LPM", 20, 5)], [u("b1", "CPF", 20, 34, 180)], terrain=[hill]), "red")
    st.apply("move r1 fwd 12")
    assert not st.units["r1"].disordered
    assert events(st, "move")[-1].data["cost"] == pytest.approx(12)


def test_combat_melee_weapons_no_weapon_factor() -> None:
    """Only the quality of the warrior matters: plain melee troops get no weapon modifier."""
    a = Troops(quality=3, armour="P", density="C", category="F")
    b = Troops(quality=3, armour="P", density="C", category="F", weapon="javelin", role="cross-trained")
    for x, y in ((a, a), (b, a), (a, b)):
        assert [m.value for m in MeleeSituation(x, y, front=4).modifiers("front")] == []
