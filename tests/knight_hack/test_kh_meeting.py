"""Charges that meet part-way (ruling R50; knight-hack:charge.redirect, knight-hack:charge.distance):
two units charging each other meet where their charge moves close the gap, pro rata."""

from __future__ import annotations

import math

import pytest
from tests.knight_hack.test_kh_game import game, unit

from shieldwall.rulesets.knight_hack.state import KnightHackState


def _mutual(seed: int) -> KnightHackState:
    # fronts 7 in. apart, both heavy cavalry (normal move 8): each may charge the other
    s = game([(unit("r1"), 20, 10, 0)], [(unit("b1"), 20, 19, 180)]).new_state(seed)
    s.apply("charge r1 b1")
    s.apply("charge b1 r1")
    s.apply("keep r1")
    s.apply("keep b1")
    return s


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_charge_redirect_mutual_charges_meet_part_way_pro_rata(seed: int) -> None:
    s = _mutual(seed)
    ev = next(e for e in s.events if e.kind == "charges-meet")
    assert ev.rule == "knight-hack:charge.redirect" and ev.data["units"] == ["r1", "b1"]
    moves = {e.data["unit"]: e.data for e in s.events if e.kind == "charge-move"}
    ru, rt = (8 + moves["r1"]["d6"]), (8 + moves["b1"]["d6"])
    su, st = ev.data["shares"]
    assert ev.data["gap"] == pytest.approx(7.0)
    assert su + st == pytest.approx(7.0, abs=1e-3)
    assert su / st == pytest.approx(ru / rt, rel=1e-3)
    b = s.board
    r1, b1 = b.units["r1"], b.units["b1"]
    # the two fronts touch where the shares put them (r1 faces north, b1 south)
    assert r1.y + r1.depth / 2 == pytest.approx(11 + su, abs=1e-3)
    assert b1.y - b1.depth / 2 == pytest.approx(18 - st, abs=1e-3)
    assert math.isclose(r1.y + r1.depth / 2, b1.y - b1.depth / 2, abs_tol=1e-3)
    assert r1.status == b1.status == "disordered"
    (m,) = b.melees
    assert m.both_charged and {m.a, m.b} == {"r1", "b1"}


def test_charge_distance_both_meeting_chargers_have_the_charge_bonus() -> None:
    s = _mutual(5)
    while not any(e.kind == "melee-round" for e in s.events):
        s.apply(s.legal_orders()[0])
    rnd = next(e for e in s.events if e.kind == "melee-round")
    for terms in rnd.data["terms"]:
        assert any(t["note"] == "charging-first-round" for t in terms)


def test_charge_distance_one_sided_charge_is_unchanged() -> None:
    s = game([(unit("r1"), 20, 10, 0)], [(unit("b1"), 20, 19, 180)]).new_state(1)
    s.apply("charge r1 b1")
    s.apply("hold b1")
    assert not any(e.kind == "charges-meet" for e in s.events)
    mv = next(e for e in s.events if e.kind == "charge-move")
    assert mv.data["contacted"] == "b1" and mv.data["moved"] == pytest.approx(7.0, abs=1e-3)


def test_charge_redirect_meeting_is_narrated() -> None:
    from shieldwall.rulesets.knight_hack.narrate import describe

    s = _mutual(1)
    ev = next(e for e in s.events if e.kind == "charges-meet")
    line = describe(ev, {"r1": "Red knights", "b1": "Blue knights"})
    assert line is not None and "meet part-way" in line and "Red knights" in line
