"""Hex maps: coordinates, distance, lines, facing zones, movement and sight."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core.hexgrid import (
    DIRECTIONS,
    Hex,
    attack_zone,
    facing_zone,
    line,
    line_of_sight,
    reachable,
    ring,
    spiral,
    turn_cost,
)

ORIGIN = Hex(0, 0)


# ---------------------------------------------------------------------------------------------
# Coordinates and neighbours


def test_directions_are_ne_e_se_sw_w_nw() -> None:
    assert DIRECTIONS == ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
    # pixel y grows with r (southward): compass bearing of direction d is 30 + 60*d degrees
    for d in range(6):
        x, y = ORIGIN.neighbour(d).to_pixel()
        assert math.degrees(math.atan2(x, -y)) % 360 == pytest.approx(30 + 60 * d)


def test_to_pixel() -> None:
    assert Hex(1, -1).to_pixel() == pytest.approx((math.sqrt(3) / 2, -1.5))
    assert Hex(2, 0).to_pixel(size=2.0) == pytest.approx((4 * math.sqrt(3), 0.0))
    assert Hex(0, 2).to_pixel() == pytest.approx((math.sqrt(3), 3.0))


def test_neighbours() -> None:
    nbs = ORIGIN.neighbours()
    assert nbs == [Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0), Hex(0, -1)]
    assert Hex(3, 4).neighbours()[1] == Hex(4, 4)
    assert ORIGIN.neighbour(6) == ORIGIN.neighbour(0)
    assert ORIGIN.neighbour(-1) == ORIGIN.neighbour(5)
    assert Hex(2, -1) + Hex(-3, 5) == Hex(-1, 4)
    assert Hex(2, -1).s == -1


@pytest.mark.parametrize(
    ("a", "b", "d"),
    [
        (ORIGIN, ORIGIN, 0),
        (ORIGIN, Hex(1, 0), 1),
        (ORIGIN, Hex(3, -1), 3),
        (ORIGIN, Hex(2, 2), 4),
        (ORIGIN, Hex(-3, 3), 3),
        (Hex(1, 2), Hex(-2, -1), 6),
        (Hex(5, -5), Hex(5, 0), 5),
    ],
)
def test_distance(a: Hex, b: Hex, d: int) -> None:
    assert a.distance(b) == d
    assert b.distance(a) == d


def test_direction_to() -> None:
    for d in range(6):
        assert ORIGIN.direction_to(ORIGIN.neighbour(d)) == d
        assert Hex(4, -7).direction_to(Hex(4, -7).neighbour(d)) == d
    assert ORIGIN.direction_to(Hex(2, 0)) is None
    assert ORIGIN.direction_to(Hex(1, 1)) is None  # distance 2
    assert ORIGIN.direction_to(ORIGIN) is None


def test_parse_and_str() -> None:
    assert Hex.parse("3,-2") == Hex(3, -2)
    assert Hex.parse(" 3 , -2 ") == Hex(3, -2)
    assert str(Hex(-1, 7)) == "-1,7"
    assert Hex.parse(str(Hex(-1, 7))) == Hex(-1, 7)


@pytest.mark.parametrize("text", ["", "3", "3,2,1", "a,b", "3;2", "1.5,2", ","])
def test_parse_errors(text: str) -> None:
    with pytest.raises(ValueError, match="not a hex coordinate"):
        Hex.parse(text)


def test_hex_is_hashable_and_ordered() -> None:
    assert {Hex(1, 2), Hex(1, 2), Hex(2, 1)} == {Hex(1, 2), Hex(2, 1)}
    assert sorted([Hex(2, 0), Hex(1, 5), Hex(1, -1)]) == [Hex(1, -1), Hex(1, 5), Hex(2, 0)]


# ---------------------------------------------------------------------------------------------
# Lines and sight


def test_line_straight_and_trivial() -> None:
    assert line(ORIGIN, ORIGIN) == [ORIGIN]
    assert line(ORIGIN, Hex(3, 0)) == [ORIGIN, Hex(1, 0), Hex(2, 0), Hex(3, 0)]
    assert line(ORIGIN, Hex(0, -2)) == [ORIGIN, Hex(0, -1), Hex(0, -2)]
    # a "diagonal" between two directions: (0,0) -> (2,2) steps alternately
    ln = line(ORIGIN, Hex(2, 2))
    assert len(ln) == 5 and ln[0] == ORIGIN and ln[-1] == Hex(2, 2)
    assert ln[2] == Hex(1, 1)  # the exact midpoint is a hex centre


def test_line_tie_is_broken_consistently() -> None:
    # (0,0)->(2,-1): the midpoint (1,-0.5) lies on the side between (1,0) and (1,-1)
    ln = line(ORIGIN, Hex(2, -1))
    assert len(ln) == 3
    assert ln[1] in (Hex(1, 0), Hex(1, -1))
    assert line(ORIGIN, Hex(2, -1)) == ln  # same answer every time
    # translation invariance of the tie-break
    shifted = line(Hex(5, 5), Hex(7, 4))
    assert [Hex(h.q - 5, h.r - 5) for h in shifted] == ln


def test_line_of_sight() -> None:
    a, b = ORIGIN, Hex(3, 0)
    assert line_of_sight(a, b, lambda h: False)
    assert not line_of_sight(a, b, lambda h: h == Hex(1, 0))
    assert not line_of_sight(a, b, lambda h: h == Hex(2, 0))
    assert line_of_sight(a, b, lambda h: h in (a, b))  # the end hexes never block
    assert line_of_sight(a, b, lambda h: h == Hex(1, -1))  # off the line
    assert line_of_sight(a, ORIGIN.neighbour(2), lambda h: True)  # adjacent: nothing between
    assert line_of_sight(a, a, lambda h: True)


# ---------------------------------------------------------------------------------------------
# Facing


@pytest.mark.parametrize("facing", range(6))
def test_facing_zone_all_facings(facing: int) -> None:
    zones = {d: facing_zone(facing, d) for d in range(6)}
    assert {d for d, z in zones.items() if z == "front"} == {facing, (facing + 1) % 6, (facing + 5) % 6}
    assert {d for d, z in zones.items() if z == "rear"} == {(facing + 3) % 6}
    assert {d for d, z in zones.items() if z == "flank"} == {(facing + 2) % 6, (facing + 4) % 6}


def test_facing_zone_wraps_directions() -> None:
    assert facing_zone(0, 6) == "front"
    assert facing_zone(0, -1) == "front"  # NW is beside NE
    assert facing_zone(5, 2) == "rear"


def test_attack_zone_facing_east() -> None:
    # defender at the origin facing E (1)
    assert attack_zone(ORIGIN, 1, Hex(1, 0)) == "front"  # E
    assert attack_zone(ORIGIN, 1, Hex(1, -1)) == "front"  # NE
    assert attack_zone(ORIGIN, 1, Hex(0, 1)) == "front"  # SE
    assert attack_zone(ORIGIN, 1, Hex(-1, 1)) == "flank"  # SW
    assert attack_zone(ORIGIN, 1, Hex(0, -1)) == "flank"  # NW
    assert attack_zone(ORIGIN, 1, Hex(-1, 0)) == "rear"  # W
    assert attack_zone(Hex(3, 3), 4, Hex(4, 3)) == "rear"  # facing W, attacked from the E
    with pytest.raises(ValueError, match="not adjacent"):
        attack_zone(ORIGIN, 1, Hex(2, 0))


@pytest.mark.parametrize(
    ("a", "b", "cost"),
    [
        (0, 0, 0),
        (0, 1, 1),
        (0, 5, 1),
        (5, 0, 1),
        (0, 3, 3),
        (1, 4, 3),
        (0, 4, 2),
        (4, 0, 2),
        (2, 5, 3),
        (3, 1, 2),
    ],
)
def test_turn_cost(a: int, b: int, cost: int) -> None:
    assert turn_cost(a, b) == cost


# ---------------------------------------------------------------------------------------------
# Movement


def test_reachable_uniform_cost() -> None:
    got = reachable(ORIGIN, 2, lambda a, b: 1.0)
    assert len(got) == 19  # 1 + 6 + 12
    assert all(cost == h.distance(ORIGIN) for h, cost in got.items())
    assert got[ORIGIN] == 0.0
    assert reachable(ORIGIN, 0, lambda a, b: 1.0) == {ORIGIN: 0.0}
    assert len(reachable(ORIGIN, 0.99, lambda a, b: 1.0)) == 1


def test_reachable_forbidden_hex_forces_detour() -> None:
    wall = {Hex(1, 0)}

    def cost(a: Hex, b: Hex) -> float | None:
        return None if b in wall else 1.0

    r2 = reachable(ORIGIN, 2, cost)
    assert Hex(1, 0) not in r2
    # (2,0)'s only common neighbour with (0,0) is the wall hex: needs 3 steps round it
    assert Hex(2, 0) not in r2
    assert r2[Hex(2, -1)] == 2.0
    r3 = reachable(ORIGIN, 3, cost)
    assert r3[Hex(2, 0)] == 3.0
    assert Hex(1, 0) not in r3


def test_reachable_cheapest_costs() -> None:
    rough = {Hex(1, 0)}

    def cost(a: Hex, b: Hex) -> float:
        return 2.0 if b in rough else 1.0

    r = reachable(ORIGIN, 3, cost)
    assert r[Hex(1, 0)] == 2.0  # entering rough costs 2
    assert r[Hex(2, 0)] == 3.0  # through rough (2+1) or round it (1+1+1): both 3
    assert r[Hex(3, -1)] == 3.0  # NE, E, E avoids the rough
    # tiny step costs accumulate float error; still within budget
    # (in floats 0.1 + 0.1 + 0.1 = 0.30000000000000004 > 0.3)
    fine = reachable(ORIGIN, 0.3, lambda a, b: 0.1)
    assert fine[Hex(3, 0)] == pytest.approx(0.3)
    assert Hex(4, 0) not in fine
    assert len(fine) == 1 + 6 + 12 + 18


def test_reachable_depends_on_step_direction() -> None:
    # moving "uphill" (increasing r) costs 2, downhill 1
    def cost(a: Hex, b: Hex) -> float:
        return 2.0 if b.r > a.r else 1.0

    r = reachable(ORIGIN, 2, cost)
    assert r[Hex(0, 1)] == 2.0
    assert Hex(0, 2) not in r
    assert r[Hex(0, -2)] == 2.0


# ---------------------------------------------------------------------------------------------
# Rings and spirals


@pytest.mark.parametrize("radius", [0, 1, 2, 3, 5])
def test_ring_and_spiral_sizes(radius: int) -> None:
    c = Hex(2, -3)
    rg = ring(c, radius)
    assert len(rg) == max(1, 6 * radius)
    assert len(set(rg)) == len(rg)
    assert all(h.distance(c) == radius for h in rg)
    sp = list(spiral(c, radius))
    assert len(sp) == 1 + 3 * radius * (radius + 1)
    assert len(set(sp)) == len(sp)
    assert set(sp) == {h for h in sp if h.distance(c) <= radius}
    assert sp[0] == c


def test_ring_one_is_the_neighbours() -> None:
    assert set(ring(ORIGIN, 1)) == set(ORIGIN.neighbours())
    # consecutive ring hexes are adjacent (it walks round)
    rg = ring(ORIGIN, 3)
    assert all(rg[i].distance(rg[(i + 1) % len(rg)]) == 1 for i in range(len(rg)))


# ---------------------------------------------------------------------------------------------
# Properties

hexes = st.builds(Hex, st.integers(-30, 30), st.integers(-30, 30))


@settings(max_examples=300)
@given(a=hexes, b=hexes)
def test_line_properties(a: Hex, b: Hex) -> None:
    ln = line(a, b)
    n = a.distance(b)
    assert len(ln) == n + 1
    assert ln[0] == a and ln[-1] == b
    assert all(ln[i].distance(ln[i + 1]) == 1 for i in range(n))
    assert all(a.distance(h) == i for i, h in enumerate(ln))  # moves steadily away from a


@settings(max_examples=300)
@given(a=hexes, b=hexes, c=hexes)
def test_distance_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(b) == b.distance(a)
    assert (a.distance(b) == 0) is (a == b)
    assert a.distance(c) <= a.distance(b) + b.distance(c)
    assert a.distance(b) == max(abs(a.q - b.q), abs(a.r - b.r), abs(a.s - b.s))


@settings(max_examples=100)
@given(a=hexes, d=st.integers(0, 5), facing=st.integers(0, 5))
def test_attack_zone_is_facing_zone_of_direction(a: Hex, d: int, facing: int) -> None:
    attacker = a.neighbour(d)
    assert attack_zone(a, facing, attacker) == facing_zone(facing, d)
    # the attacker's own hexside pointing back is the opposite direction
    assert attacker.direction_to(a) == (d + 3) % 6
