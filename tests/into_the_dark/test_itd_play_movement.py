"""Clause tests: movement (movement.*), frontage changes, shieldwall formation, zones of control."""

from __future__ import annotations

import math

import pytest

from shieldwall.core.errors import IllegalOrder

from .playkit import RS, game, kind, last, next_turn, start, u


def one(code: str = "CPF", **kw: object) -> object:
    return game([u("r1", code, 10, 15, **kw)], [u("b1", "CPF", 40, 34, 180)])  # type: ignore[arg-type]


def refused(st: object, order: str, clause: str) -> IllegalOrder:
    with pytest.raises(IllegalOrder) as e:
        st.copy().apply(order)  # type: ignore[attr-defined]
    assert e.value.rule == f"{RS}:{clause}", (e.value.rule, e.value.reason)
    return e.value


@pytest.mark.parametrize(
    ("code", "move"),
    [("CPF", 6), ("LPF", 8), ("OPF", 8), ("CPM", 8), ("LPM", 12), ("OPM", 16)],
)
def test_movement_distances_by_troop_type(code: str, move: float) -> None:
    st = start(one(code), "red")
    st.copy().apply(f"move r1 fwd {move}")
    e = refused(st, f"move r1 fwd {move + 0.5}", "movement.distances")
    assert "left" in e.reason


@pytest.mark.parametrize(("code", "move"), [("CEF", 4), ("LEM", 8)])
def test_movement_encased_limit(code: str, move: float) -> None:
    st = start(one(code), "red")
    st.copy().apply(f"move r1 fwd {move}")
    refused(st, f"move r1 fwd {move + 0.5}", "movement.distances")


def test_movement_movement_forward_only() -> None:
    st = start(one(), "red")
    refused(st, "move r1 fwd -2", "movement.movement")
    st.copy().apply("move r1 fwd 2")


def test_movement_movement_all_figures_one_way() -> None:
    # "A unit cannot move unless all its figures are facing the same direction."
    st = start(one(), "red")
    st.units["r1"].faced = ("left",)
    refused(st, "move r1 fwd 2", "movement.movement")


def test_movement_wheeling_measured_on_outside_edge() -> None:
    # a 4-figure front (4") wheeling 80 degrees: the outside figure travels 4 * 80 degrees in radians
    st = start(one(), "red")
    fl0, fr0, _, _ = st.units["r1"].fp.corners()
    st.apply("move r1 wheel 80")
    ev = last(st, "move")
    assert ev.data["cost"] == pytest.approx(4 * math.radians(80), abs=1e-3)
    assert ev.rule == f"{RS}:movement.movement"
    fl, fr, _, _ = st.units["r1"].fp.corners()
    assert fr == pytest.approx(fr0)  # the inside figure stays in place
    assert math.dist(fl, fl0) == pytest.approx(2 * 4 * math.sin(math.radians(40)), abs=1e-6)
    st2 = start(one(), "red")
    refused(st2, "move r1 wheel 90", "movement.distances")  # 6.28" > 6"


def test_movement_disorder_wheels_at_half_speed() -> None:
    st = start(one(), "red")
    st.units["r1"].disordered = True
    st.copy().apply("move r1 wheel 40")  # 2 x 2.79" = 5.59"
    refused(st, "move r1 wheel 45", "movement.distances")


def test_movement_turning_about_face_half_the_move_whole_when_disordered() -> None:
    st = start(one(), "red")
    st.copy().apply("move r1 about fwd 3")
    refused(st, "move r1 about fwd 3.5", "movement.distances")
    h0 = st.units["r1"].heading
    st.copy().apply("move r1 about")
    st.units["r1"].disordered = True
    s2 = st.copy()
    s2.apply("move r1 about")
    assert abs(((s2.units["r1"].heading - h0) % 360) - 180) < 1e-9
    refused(st, "move r1 about fwd 0.5", "movement.distances")


def test_movement_charging_contact_only_by_a_charge() -> None:
    g = game([u("r1", "CPF", 10, 5)], [u("b1", "CPF", 10, 9, 180)])
    st = start(g, "red")
    refused(st, "move r1 fwd 4", "movement.charging")
    refused(st, "move r1 fwd 5", "movement.interpenetration")


def test_movement_activate_then_hold() -> None:
    st = start(one(), "red")
    st.apply("activate r1")
    assert kind(st) == "unit"
    with pytest.raises(IllegalOrder):
        st.copy().apply("move rs fwd 1")
    st.apply("hold r1")
    assert kind(st) == "movement" and st.units["r1"].acted
    refused(st, "move r1 fwd 1", "movement.movement")


def test_movement_frontage_changes_eight_a_turn_four_a_half_turn() -> None:
    st = start(one(figures=16, frontage=4), "red")
    s = st.copy()
    s.apply("frontage r1 8")  # 4 figures: half a turn, the unit may still move half
    assert last(s, "frontage").data["turn_used"] == "half" and kind(s) == "unit"
    s.apply("move r1 fwd 3")
    s2 = st.copy()
    s2.apply("frontage r1 12")  # 8 figures: the whole turn
    assert last(s2, "frontage").data["turn_used"] == "whole" and s2.units["r1"].acted
    refused(st, "frontage r1 14", "movement.frontage-changes")
    st.units["r1"].disordered = True  # "takes twice as long to perform frontage changes"
    refused(st, "frontage r1 12", "movement.frontage-changes")
    st.copy().apply("frontage r1 8")


def test_movement_frontage_change_keeps_the_front_centre() -> None:
    st = start(one(figures=16, frontage=4), "red")
    x, y = st.units["r1"].x, st.units["r1"].y
    st.apply("frontage r1 8")
    r1 = st.units["r1"]
    assert (r1.x, r1.y, r1.front, r1.ranks) == (x, y, 8, 2)
    assert r1.fp.frontage == pytest.approx(8.0)


def test_swat_shieldwall_formed_instead_of_moving_then_four_inches() -> None:
    st = start(one(options=["shieldwall"]), "red")
    st.apply("move r1 fwd 1")
    refused(st, "shieldwall r1 on", "swat.shieldwall")
    st = start(one(options=["shieldwall"]), "red")
    st.apply("shieldwall r1 on")
    assert st.units["r1"].shieldwall and last(st, "shieldwall").rule == f"{RS}:swat.shieldwall"
    next_turn(st, "red")
    refused(st, "move r1 fwd 4.5", "movement.distances")
    st.copy().apply("move r1 fwd 4")


def test_swat_shieldwall_not_when_disordered() -> None:
    st = start(one(options=["shieldwall"]), "red")
    st.units["r1"].disordered = True
    refused(st, "shieldwall r1 on", "swat.shieldwall")


def test_special_troops_skirmishers_back_up_at_half_speed() -> None:
    g = game(
        [u("r1", "OUF", 10, 15, type_="missile", weapon="javelin", options=["skirmisher"])],
        [u("b1", "CPF", 40, 30, 180)],
    )
    st = start(g, "red")
    st.copy().apply("move r1 back 4")  # 8" of movement at half speed
    refused(st, "move r1 back 4.5", "movement.distances")
    st2 = start(one(), "red")
    refused(st2, "move r1 back 1", "special-troops.skirmishers")


def test_setup_zone_of_control_opportunity_charge() -> None:
    # b1's zone: 4" wide, half its 6" move (3") straight ahead of its front
    g = game([u("r1", "LPF", 4, 12, 90, figures=4, frontage=2)], [u("b1", "CPF", 14, 16, 180)])
    st = start(g, "red")
    st.apply("move r1 fwd 8")
    d = st.decision()
    assert d is not None and d.kind == "opportunity" and d.unit == "b1" and d.side == "blue"
    charges = [o for o in st.legal_orders() if str(o).startswith("charge b1 r1")]
    assert charges
    st.apply(charges[0])
    ev = last(st, "charge")
    assert ev.rule == f"{RS}:movement.opportunity-charges"


def test_setup_zone_of_control_not_outside_it() -> None:
    g = game([u("r1", "LPF", 4, 6, 90, figures=4, frontage=2)], [u("b1", "CPF", 14, 16, 180)])
    st = start(g, "red")
    st.apply("move r1 fwd 8")
    assert kind(st) == "movement"
