"""Clause tests: charges, counter-charges, impetuous charges, evades, fire at chargers."""

from __future__ import annotations

import pytest

from shieldwall.core.errors import IllegalOrder

from .playkit import RS, end_until, events, game, kind, last, script, start, u

ONES = [1] * 40


def cav_v_foot(gap: float = 10.0, foot: str = "CPF", **kw: object) -> object:
    return game(
        [u("r1", "LAM", 10, 5, figures=8, frontage=4)],
        [u("b1", foot, 10, 5 + gap, 180, **kw)],  # type: ignore[arg-type]
    )


def test_movement_charging_contact_lines_up_flush() -> None:
    st = start(cav_v_foot(), "red")
    st.apply("charge r1 b1")
    assert kind(st) == "react" and st.decision().side == "blue"  # type: ignore[union-attr]
    assert {str(o) for o in st.legal_orders()} == {"stand b1", "countercharge b1"}
    st.apply("stand b1")
    ev = last(st, "contact")
    assert ev.rule == f"{RS}:movement.charging" and ev.data["edge"] == "front"
    r1 = st.units["r1"]
    assert (r1.x, r1.y, r1.heading) == pytest.approx((10, 15, 0))
    assert st.in_melee(r1) and r1.charged


def test_movement_charging_same_distance_as_a_normal_move() -> None:
    st = start(cav_v_foot(gap=12.5), "red")
    with pytest.raises(IllegalOrder) as e:
        st.apply("charge r1 b1")
    assert e.value.rule == f"{RS}:movement.charging"


def test_movement_counter_charges_meet_in_proportion_to_moves() -> None:
    st = start(cav_v_foot(), "red")
    st.apply("charge r1 b1")
    st.apply("countercharge b1")
    cc = last(st, "countercharge")
    assert cc.rule == f"{RS}:movement.counter-charges"
    assert cc.data["distance"] == pytest.approx(10 * 6 / 18, abs=0.01)  # 12" against 6"
    assert st.units["r1"].y == pytest.approx(15 - 10 * 6 / 18, abs=0.01)
    assert st.units["b1"].charge_turn == st.turn  # "treated exactly the same as charges" (+1)


def test_movement_impetuous_charges_needs_four_straight_inches() -> None:
    st = start(cav_v_foot(gap=3.0), "red")
    with pytest.raises(IllegalOrder) as e:
        st.copy().apply("charge r1 b1 impetuous")
    assert e.value.rule == f"{RS}:movement.impetuous-charges"
    st.copy().apply("charge r1 b1")
    foot = game([u("r1", "LPF", 10, 5)], [u("b1", "CPF", 10, 12, 180)])
    with pytest.raises(IllegalOrder):
        start(foot, "red").apply("charge r1 b1 impetuous")  # cavalry only (or warbands)


def test_movement_impetuous_charges_not_through_disordering_terrain() -> None:
    rough = {"id": "r", "kind": "rough", "points": [[6, 7.5], [14, 7.5], [14, 8], [6, 8]]}
    g = game([u("r1", "LAM", 10, 5)], [u("b1", "CPF", 10, 11, 180)], terrain=[rough])
    st = start(g, "red")
    with pytest.raises(IllegalOrder) as e:
        st.copy().apply("charge r1 b1 impetuous")
    assert e.value.rule == f"{RS}:movement.impetuous-charges"


def test_movement_impetuous_charges_target_tests_and_dice_double_first_round() -> None:
    st = start(cav_v_foot(), "red")
    st.apply("charge r1 b1 impetuous")
    script(st, [1, *ONES])  # b1 passes its test
    st.apply("stand b1")
    t = [e for e in events(st, "morale-test") if e.rule == f"{RS}:movement.impetuous-charges"]
    assert t and t[0].data["unit"] == "b1"
    end_until(st, "initiative")
    melee = {e.data["unit"]: e for e in events(st, "melee")}
    g = melee["r1"].data["groups"][0]
    assert g["rate"].startswith("1 per 2") and g["dice"] == 4  # 8 figures, impetuous
    assert melee["r1"].data["impetuous"] and melee["r1"].data["charging"]
    assert melee["b1"].data["groups"][0]["dice"] == 2


def test_movement_impetuous_charges_disorder_non_impetuous_counter_chargers() -> None:
    st = start(cav_v_foot(), "red")
    st.apply("charge r1 b1 impetuous")
    script(st, [1, *ONES])
    st.apply("countercharge b1")
    d = [e for e in events(st, "disordered") if e.data["unit"] == "b1"]
    assert d and d[0].rule == f"{RS}:movement.impetuous-charges" and st.units["b1"].disordered


def test_movement_evading_caught_and_attacked_in_the_back() -> None:
    st = start(cav_v_foot(gap=7.0, foot="OUF", type_="missile", weapon="javelin"), "red")
    st.apply("charge r1 b1")
    assert "evade b1" in {str(o) for o in st.legal_orders()}
    script(st, [1, 1, 1, *ONES])  # evade 3"
    st.apply("evade b1")
    ev = last(st, "evade")
    assert ev.rule == f"{RS}:movement.evading" and ev.data["distance"] == pytest.approx(3.0)
    assert last(st, "caught").data["unit"] == "b1"
    assert last(st, "contact").data["edge"] == "rear"
    end_until(st, "initiative")
    attackers = [e.data["unit"] for e in events(st, "melee")]
    assert attackers == ["r1"]  # "may not fight back during melee this turn"
    r1 = [e for e in events(st, "melee") if e.data["unit"] == "r1"][0]
    assert r1.data["figures"]["rear"] == 8


def test_movement_evading_escapes_and_charger_stops_at_original_position() -> None:
    st = start(cav_v_foot(gap=10.0, foot="OUF", type_="missile", weapon="javelin"), "red")
    st.apply("charge r1 b1")
    script(st, [4, 4, 4, *ONES])  # 12"
    st.apply("evade b1")
    assert kind(st) == "chase"  # movement.charging.target-runs: stop there, or go on
    st.apply("stop r1")
    assert last(st, "charge-missed").rule == f"{RS}:movement.charging"
    assert st.units["r1"].y == pytest.approx(15.0, abs=0.01)
    assert st.units["b1"].evading


def test_morale_control_tests_missile_troops_resisting_evade() -> None:
    st = start(cav_v_foot(gap=10.0, foot="LUF", type_="missile", weapon="bow"), "red")
    st.apply("charge r1 b1")
    assert {str(o) for o in st.legal_orders()} >= {"stand b1", "evade b1"}
    script(st, [6, 1, 1, 1, *ONES])  # fails the control test, then evades 3"
    st.apply("stand b1")
    c = last(st, "control-test")
    assert c.data["control"] == "failed" and c.rule == f"{RS}:movement.evading"
    assert last(st, "forced-evade").data["unit"] == "b1" and st.units["b1"].disordered


def test_combat_opportunity_fire_at_chargers_who_then_test() -> None:
    st = start(cav_v_foot(gap=5.0, foot="LUF", type_="missile", weapon="bow"), "red")
    st.apply("charge r1 b1")
    assert "fire b1 r1" in {str(o) for o in st.legal_orders()}
    # control test passed (1), two dice at close range both hit (6, 6), r1 tests: 6 -> routed
    script(st, [1, 6, 6, 6, *[3] * 20])
    st.apply("fire b1 r1")
    f = last(st, "fire")
    assert f.rule == f"{RS}:combat.opportunity-fire" and f.data["close"] == 8 and f.data["casualties"] == 2
    t = [e for e in events(st, "morale-test") if e.data["unit"] == "r1"][0]
    assert t.data["reason"].startswith("received missile fire while charging")
    assert st.units["r1"].routed and last(st, "charge-stopped").data["unit"] == "r1"
    assert st.units["b1"].fired


def test_special_troops_skirmishers_must_evade() -> None:
    st = start(cav_v_foot(foot="OUF", type_="missile", weapon="javelin", options=["skirmisher"]), "red")
    script(st, [6, 6, 6, *ONES])
    st.apply("charge r1 b1")
    assert last(st, "reaction").data["reaction"] == "evade"
    assert last(st, "reaction").rule == f"{RS}:special-troops.skirmishers"


def test_special_troops_warbands_impetuous_after_a_control_test() -> None:
    g = game([u("r1", "LUF", 10, 5, options=["warband"])], [u("b1", "CPF", 10, 12, 180)])
    st = start(g, "red")
    script(st, [6, *ONES])  # the warband fails: an ordinary charge
    st.apply("charge r1 b1 impetuous")
    assert last(st, "control-test").rule == f"{RS}:special-troops.warbands"
    assert last(st, "charge").data["impetuous"] is False
    st2 = start(g, "red")
    script(st2, [1, *ONES])
    st2.apply("charge r1 b1 impetuous")
    assert last(st2, "charge").data["impetuous"] is True
    st2.apply("stand b1")
    end_until(st2, "initiative")
    assert st2.units["r1"].disordered  # "disordered at the end of the turn (assuming melee occurred)"
    assert any(e.rule == f"{RS}:special-troops.warbands" for e in events(st2, "disordered"))
