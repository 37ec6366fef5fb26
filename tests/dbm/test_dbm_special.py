"""Shooting (shoot.*), and the particular situations of special.py; Fig 12 (sample data)."""

from __future__ import annotations

import pytest

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint
from shieldwall.rulesets.dbm.board import Board
from shieldwall.rulesets.dbm.elements import Element, make
from shieldwall.rulesets.dbm.geom import corner, edge_overlap, near
from shieldwall.rulesets.dbm.outmoves import recoil
from shieldwall.rulesets.dbm.shooting import (
    aids,
    equal_priority,
    may_shoot,
    shooting_forbidden,
    shooting_order,
    targets,
)
from shieldwall.rulesets.dbm.special import (
    PressGroup,
    check_press_forward,
    check_simultaneous,
    contact_must_be_legal,
    contact_redirect,
    flank_shift,
    fort_corner_roles,
    press_forward_distance,
    storm_pursuit,
)
from shieldwall.rulesets.dbm.tables import Tables

X, Y = 1200.0, 800.0


def mk(
    t: Tables, eid: str, side: str, code: str, grade: str, x: float, y: float, h: float = 0.0, **kw: object
) -> Element:
    return make(t, eid, side, code, grade, X + x, Y + y, h, **kw)


def test_shoot_who_types() -> None:
    fp = Footprint(0, 0, 0, 80, 40)
    ok = [("Art", "O"), ("Bw", "I"), ("WWg", "S"), ("El", "X"), ("Shp", "X"), ("Gal", "F"), ("Bts", "S")]
    no = [("WWg", "I"), ("El", "O"), ("Shp", "F"), ("Bts", "O"), ("Ps", "O"), ("LH", "O")]
    for c, g in ok:
        assert may_shoot(Element("e", "r", "c", c, g, fp)), (c, g)
    for c, g in no:
        assert not may_shoot(Element("e", "r", "c", c, g, fp)), (c, g)


def test_shoot_who_targets_and_fig_10b_priority(tables: Tables) -> None:
    a = mk(tables, "a", "red", "Bw", "O", 0, 0)
    b = mk(tables, "b", "blue", "Sp", "O", 0, 150, 180)  # straight ahead
    c = mk(tables, "c", "blue", "Sp", "O", 110, 150, 180)  # partly in the arc
    f = mk(tables, "f", "blue", "Sp", "O", 250, 100, 180)  # outside the arc
    brd = Board(tables, [a, b, c, f])
    assert [t.id for t in targets(brd, brd.el["a"])] == ["b", "c"]
    assert targets(brd, brd.el["a"], marched_or_fled=["a"]) == []
    assert [t.id for t in equal_priority(brd, brd.el["a"], targets(brd, brd.el["a"]))] == ["b"]


def test_shoot_forbidden(tables: Tables) -> None:
    a = mk(tables, "a", "red", "Bw", "O", 0, 0)
    en = mk(tables, "x", "blue", "Bd", "O", 0, 35, 180)  # in front-edge contact: close combat
    rear = mk(tables, "r", "red", "Bw", "O", 0, -40)  # behind a, in full contact
    brd = Board(tables, [a, en, rear])
    assert shooting_forbidden(brd, brd.el["a"]) == "in close combat"
    assert shooting_forbidden(brd, brd.el["r"]) is not None
    side = mk(tables, "o", "blue", "Bd", "O", 80, 35, 180)  # overlapping a, which is in CC to its front
    brd2 = Board(tables, [a, en, side])
    assert (
        shooting_forbidden(brd2, brd2.el["o"]) == "overlapping an enemy element in close combat to its front"
    )
    free = mk(tables, "z", "red", "Bw", "O", 600, 0)
    assert shooting_forbidden(Board(tables, [free]), free) is None


def test_shoot_aid(tables: Tables) -> None:
    f = mk(tables, "f", "red", "Bw", "O", 0, 0, command="c1")
    r = mk(tables, "r", "red", "Bw", "O", 0, -40, command="c1")
    assert aids(Board(tables, [f, r]), f, r)
    assert not aids(Board(tables, [f, r]), f, r, difficult=["r"])
    assert not aids(Board(tables, [f]), f, r.at(r.fp.moved(0, -5)))
    assert not aids(Board(tables, [f]), f, mk(tables, "r", "red", "Bw", "I", 0, -40))
    assert not aids(Board(tables, [f]), f, mk(tables, "r", "red", "Bw", "O", 0, -40, command="c2"))
    fx = mk(tables, "f", "red", "Bw", "X", 0, 0)
    assert aids(Board(tables, [fx]), fx, mk(tables, "r", "red", "Bw", "S", 0, -40, double_with="f"))


def test_shoot_choice_order() -> None:
    assert shooting_order([("a", "x"), ("b", "y"), ("x", "a")]) == [("a", "x"), ("b", "y")]


def test_move_simultaneous() -> None:
    check_simultaneous({"g1": False, "g2": False}, interpenetrates=False)
    with pytest.raises(IllegalOrder, match="dbm-3.2:move.simultaneous"):
        check_simultaneous({"g1": True, "g2": False}, interpenetrates=False)
    with pytest.raises(IllegalOrder, match="dbm-3.2:move.simultaneous"):
        check_simultaneous({"g1": False}, interpenetrates=True)


def test_exchange_riderless() -> None:
    assert not contact_must_be_legal(True) and contact_must_be_legal(False)


def test_cc_support_hit_redirects_to_the_front_element(tables: Tables) -> None:
    front = mk(tables, "f", "red", "Sp", "O", 0, 0)
    sup = mk(tables, "s", "red", "Sp", "O", 0, -30)
    brd = Board(tables, [front, sup])
    assert contact_redirect(brd, brd.el["s"]).id == "f"
    assert contact_redirect(brd, brd.el["f"]).id == "f"


def test_destroy_flank_shift(tables: Tables) -> None:
    c = Footprint(0, 0, 0, 80, 30)
    y = Footprint(-55, -20, 90, 80, 30)  # on C's left flank, 20 p back from the corner
    s = flank_shift(y, c, "left")
    assert near(corner(s, "fl"), corner(c, "fl")) and edge_overlap(s, "front", c, "left") > 0
    yr = Footprint(55, -10, 270, 80, 30)
    sr = flank_shift(yr, c, "right")
    assert near(corner(sr, "fr"), corner(c, "fr"))


def test_fig_12(tables: Tables) -> None:
    # Fig 12: A destroyed by a blocked recoil takes B (less than A's depth behind) with it
    a = mk(tables, "A", "red", "Bd", "O", 0, 0)
    b = mk(tables, "B", "red", "Bd", "O", 0, -30)
    el = mk(tables, "E", "red", "El", "O", 0, -85)  # unpushable, 10 p behind B
    brd = Board(tables, [a, b, el])
    ev = recoil(brd, "A")
    assert [e["id"] for e in ev if e["kind"] == "destroyed"] == ["A", "B"]


def test_press_forward() -> None:
    ok = PressGroup(True, False, False, True, False, True, False, True, False)
    check_press_forward(ok)
    for field, value in (
        ("demoralised", True),
        ("all_foot", False),
        ("pursued", True),
        ("earlier_move_straight", False),
        ("skirmishers_in_front_rank", True),
        ("all_ranks", False),
        ("across_fortifications", True),
    ):
        bad = PressGroup(**{**ok.__dict__, field: value})
        with pytest.raises(IllegalOrder, match="dbm-3.2:press.forward"):
            check_press_forward(bad)


def test_press_forward_distance(tables: Tables) -> None:
    g = [mk(tables, "a", "red", "Bd", "O", 0, 0), mk(tables, "b", "red", "Ax", "O", 80, 0)]
    assert press_forward_distance(Board(tables, g), g) == min(
        tables.movement.type["Bd"].good, tables.movement.type["Ax"].good
    )


def test_storm_pursue(tables: Tables) -> None:
    e = mk(tables, "a", "red", "Bd", "O", 0, 0)
    got = storm_pursuit(e, 10.0, False, False)
    assert got is not None and abs(got.y - (Y + 40)) < 1e-9
    assert storm_pursuit(e, 10.0, True, False) is None and storm_pursuit(e, 10.0, False, True) is None


def test_cc_fort_corner() -> None:
    assert fort_corner_roles([True, False]) == {"main": 0, "flanker": 1, "defender_destroyed_on_recoil": 0}
    assert fort_corner_roles([False, False], chooser_pick=1)["main"] == 1
