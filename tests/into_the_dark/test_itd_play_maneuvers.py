"""Clause tests: the optional Difficult Maneuvers (maneuvers.*) and the optional-rule switches."""

from __future__ import annotations

import pytest

from shieldwall.core.errors import DataError, IllegalOrder

from .playkit import RS, end_until, events, game, last, next_turn, script, start, u

DM = {"difficult_maneuvers": True}


def refused(st: object, order: str, clause: str) -> None:
    with pytest.raises(IllegalOrder) as e:
        st.copy().apply(order)  # type: ignore[attr-defined]
    assert e.value.rule == f"{RS}:{clause}", (e.value.rule, e.value.reason)


def rough(y0: float, y1: float) -> dict[str, object]:
    return {"id": "r", "kind": "rough", "points": [[0, y0], [48, y0], [48, y1], [0, y1]]}


def test_maneuvers_difficult_maneuvers_off_by_default_and_a_failure_disorders() -> None:
    """maneuvers.difficult-maneuvers: only with options.difficult_maneuvers; a failed control test
    means the maneuver is not performed and the unit becomes disordered."""
    st = start(game([u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 30, 180)]), "red")
    refused(st, "turn r1 left", "maneuvers.turning")
    st = start(game([u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 30, 180)], options=DM), "red")
    script(st, [6])
    st.apply("turn r1 left")
    r1 = st.units["r1"]
    assert r1.heading == 0 and r1.disordered and r1.acted
    ev = last(st, "maneuver-failed")
    assert ev.rule == f"{RS}:maneuvers.turning" and ev.data["disordered"]
    assert last(st, "control-test").rule == f"{RS}:maneuvers.turning"


def test_maneuvers_turning_forms_a_column_and_takes_the_whole_turn() -> None:
    st = start(game([u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 30, 180)], options=DM), "red")
    script(st, [1])
    st.apply("turn r1 right")
    r1 = st.units["r1"]
    assert r1.heading == pytest.approx(90) and r1.front == 2 and r1.ranks == 4
    assert last(st, "turn").rule == f"{RS}:maneuvers.turning" and not r1.disordered
    st2 = start(game([u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 30, 180)], options=DM), "red")
    st2.apply("move r1 fwd 1")
    end_until(st2, "movement", "red")


def test_maneuvers_falling_back_half_speed_facing_the_enemy() -> None:
    st = start(game([u("r1", "CPF", 20, 10)], [u("b1", "CPF", 20, 30, 180)], options=DM), "red")
    refused(st, "fallback r1 3.5", "movement.distances")  # 6" move: 3" back at half speed
    script(st, [1])
    st.apply("fallback r1 3")
    r1 = st.units["r1"]
    assert (r1.y, r1.heading) == pytest.approx((7, 0))
    ev = last(st, "fall-back")
    assert ev.rule == f"{RS}:maneuvers.falling-back" and ev.data["cost"] == pytest.approx(6)


def test_maneuvers_falling_back_no_counter_charge_when_opportunity_charged() -> None:
    # b1 (cavalry, facing south) has r1 in its zone of control after r1 falls back
    g = game([u("r1", "CPF", 20, 10)], [u("b1", "LAM", 20, 16, 180)], options=DM)
    st = start(g, "red")
    script(st, [1] + [6] * 30)
    st.apply("fallback r1 1")
    d = st.decision()
    assert d is not None and d.kind == "opportunity" and d.unit == "b1"
    st.apply("charge b1 r1")
    d = st.decision()
    if d is not None and d.kind == "react":
        assert "countercharge r1" not in {str(o) for o in st.legal_orders()}


def test_maneuvers_careful_movement_half_speed_no_disorder_if_passed() -> None:
    terr = [rough(0, 36)]
    st = start(game([u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 30, 180)], terrain=terr, options=DM), "red")
    refused(st, "careful r1 fwd 3.5", "movement.distances")  # half of 6"
    script(st, [1])
    st.apply("careful r1 fwd 3")
    assert not st.units["r1"].disordered
    assert last(st, "careful-move").rule == f"{RS}:maneuvers.careful-movement"
    st2 = start(game([u("r1", "CPF", 20, 5)], [u("b1", "CPF", 20, 30, 180)], terrain=terr, options=DM), "red")
    script(st2, [6])
    st2.apply("careful r1 fwd 3")
    assert st2.units["r1"].disordered  # "If the unit fails this test it becomes disordered anyway."
    assert last(st2, "disordered").rule == f"{RS}:maneuvers.careful-movement"
    woods = [{"id": "w", "kind": "dense-woods", "points": [[0, 0], [48, 0], [48, 36], [0, 36]]}]
    st3 = start(
        game([u("r1", "LPF", 20, 5)], [u("b1", "CPF", 20, 30, 180)], terrain=woods, options=DM), "red"
    )
    refused(st3, "careful r1 fwd 1", "maneuvers.careful-movement")  # not Restrictive Terrain


def test_maneuvers_break_off_needs_melee_last_turn_then_evade_dice() -> None:
    g = game([u("r1", "LAM", 20, 30)], [u("b1", "CPF", 20, 30, 180)], options=DM)
    st = start(g, "red")
    assert st.in_melee(st.units["r1"])
    refused(st, "breakoff r1", "maneuvers.break-off")  # no melee fought on the previous turn
    st.units["r1"].extra["fought_turn"] = st.turn - 1
    foot = game([u("r1", "CPF", 20, 10)], [u("b1", "CPF", 20, 10, 180)], options=DM)
    st_f = start(foot, "red")
    st_f.units["r1"].extra["fought_turn"] = st_f.turn - 1
    refused(st_f, "breakoff r1", "maneuvers.break-off")  # close order foot may not
    script(st, [1, 6, 6, 6, 6] + [3] * 40)
    st.apply("breakoff r1")
    ev = last(st, "break-off")
    assert ev.rule == f"{RS}:maneuvers.break-off" and ev.data["rolled"] == 24
    r1 = st.units["r1"]
    assert r1.evading and r1.heading == pytest.approx(180) and not st.in_melee(r1)
    assert events(st, "breakoff-pursuit")  # the enemy pursues as if it routed


def test_params_optional_rules_switch_per_scenario() -> None:
    """special-troops.warbands and the other Part III rules can be switched off per scenario."""
    wb = [u("r1", "LUF", 20, 5, options=["warband"])]
    game(wb, [u("b1", "CPF", 20, 30, 180)])
    with pytest.raises(DataError) as e:
        game(wb, [u("b1", "CPF", 20, 30, 180)], options={"warbands": False})
    assert "special-troops.warbands" in str(e.value)
    sw = [u("r1", "CPF", 20, 5, options=["shieldwall"])]
    with pytest.raises(DataError) as e:
        game(sw, [u("b1", "CPF", 20, 30, 180)], options={"shieldwall": False})
    assert "swat.shieldwall" in str(e.value)


def test_maneuvers_break_off_next_turn_rallies_like_an_evader() -> None:
    g = game([u("r1", "LAM", 20, 30)], [u("b1", "CPF", 20, 30, 180)], options=DM)
    st = start(g, "red")
    st.units["r1"].extra["fought_turn"] = st.turn - 1
    script(st, [1, 6, 6, 6, 6] + [3] * 200)
    st.apply("breakoff r1")
    next_turn(st)
    assert not st.units["r1"].evading
    assert any(e.kind == "evader-rallies" and e.data["unit"] == "r1" for e in st.events)


def test_maneuvers_break_off_caught_by_pursuers_attacked_in_the_back() -> None:
    """maneuvers.break-off: "If the unit does not move far enough to get beyond reach of these
    pursuers, they are caught and attacked in the back and may not fight back"."""
    g = game([u("r1", "LAM", 20, 30)], [u("b1", "CPF", 20, 30, 180)], options=DM)
    st = start(g, "red")
    st.units["r1"].extra["fought_turn"] = st.turn - 1
    script(st, [1, 1, 1, 1, 1] + [3] * 40)  # passes; 4 dice of 1: 4"
    st.apply("breakoff r1")
    assert last(st, "break-off").data["distance"] == pytest.approx(4)
    assert st.units["r1"].caught and st.in_melee(st.units["r1"])
    assert st.units["b1"].disordered  # pursuers are disordered
