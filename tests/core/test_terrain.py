"""Terrain features: areas, linear features and crossings, hills and the terrain map."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shieldwall.core.geometry import Point
from shieldwall.core.terrain import Crossing, Feature, TerrainMap, feature_view

WOOD = Feature("w1", "wood", ((0, 0), (10, 0), (10, 10), (0, 10)), name="Dark Wood")
# An L-shaped (concave) marsh: the missing quarter is x in (5,10), y in (5,10).
MARSH = Feature("m1", "marsh", ((0, 0), (10, 0), (10, 5), (5, 5), (5, 10), (0, 10)))
BRIDGE = Crossing("bridge", (10.0, 5.0), 4.0)  # covers x 8..12 of the centre line
FORD = Crossing("ford", (15.0, 5.0), 1.0)  # covers x 14.5..15.5
RIVER = Feature("r1", "river", ((0, 5), (20, 5)), linear=True, width=2.0, crossings=(BRIDGE, FORD))
HILL = Feature("h1", "hill", ((0, 0), (10, 0), (10, 10), (0, 10)), crest=((5, 5),))


# ---------------------------------------------------------------------------------------------
# Areas


@pytest.mark.parametrize(
    ("p", "inside"), [((5, 5), True), ((0.1, 9.9), True), ((11, 5), False), ((-0.1, 5), False)]
)
def test_area_contains(p: Point, inside: bool) -> None:
    assert WOOD.contains(p) is inside


def test_concave_area_contains() -> None:
    assert MARSH.contains((2, 8))
    assert MARSH.contains((8, 2))
    assert not MARSH.contains((8, 8))  # the missing quarter


@pytest.mark.parametrize(
    ("p", "d"),
    [((5, 5), 0.0), ((5, -3), 3.0), ((13, 14), 5.0), ((-2, 5), 2.0), ((10, 10), 0.0)],
)
def test_area_distance_to(p: Point, d: float) -> None:
    assert WOOD.distance_to(p) == pytest.approx(d)


def test_concave_area_distance_to() -> None:
    # (8,8) is in the notch: 3 from the inner edges x=5 and y=5
    assert MARSH.distance_to((8, 8)) == pytest.approx(3.0)
    assert MARSH.distance_to((6, 5.5)) == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("p", "q", "n"),
    [
        ((-5, 5), (5, 5), 1),  # into the wood
        ((5, 5), (15, 5), 1),  # out of it
        ((-5, 5), (15, 5), 2),  # through it
        ((2, 2), (8, 8), 0),  # within it
        ((-5, -5), (-5, 15), 0),  # beside it
        ((-5, 2), (15, 12), 2),  # through diagonally
        ((-5, -5), (15, 15), 2),  # exactly through two corners
        ((-5, 0), (15, 0), 0),  # along its edge
    ],
)
def test_boundary_crossings_wood(p: Point, q: Point, n: int) -> None:
    assert WOOD.boundary_crossings(p, q) == n
    assert WOOD.boundary_crossings(q, p) == n


def test_boundary_crossings_concave() -> None:
    # along y=8 across the marsh's upper arm and the notch: in at x=0, out at x=5
    assert MARSH.boundary_crossings((-1, 8), (12, 8)) == 2
    # upper arm to right arm along y = 10 - x: passes exactly through the reflex corner (5,5)
    # with marsh on both sides, so it never leaves
    assert MARSH.boundary_crossings((2, 8), (9, 1)) == 0
    # along y = 11 - x it cuts the notch: out at (5,6), back in at (6,5)
    assert MARSH.boundary_crossings((2, 9), (9, 2)) == 2


# ---------------------------------------------------------------------------------------------
# Linear features and crossings


@pytest.mark.parametrize(
    ("p", "inside"),
    [
        ((10, 5), True),
        ((10, 5.9), True),
        ((10, 6.0), True),
        ((10, 6.1), False),
        ((10, 3.9), False),
        ((-0.5, 5), True),
        ((21.5, 5), False),
    ],
)
def test_linear_contains(p: Point, inside: bool) -> None:
    assert RIVER.contains(p) is inside


@pytest.mark.parametrize(
    ("p", "d"), [((10, 8), 2.0), ((10, 5.5), 0.0), ((23, 5), 2.0), ((10, 1), 3.0), ((24, 8), 4.0)]
)
def test_linear_distance_to(p: Point, d: float) -> None:
    # the river is 2 wide: distance from the centre line minus 1
    assert RIVER.distance_to(p) == pytest.approx(d)


def test_crossing_points() -> None:
    assert RIVER.crossing_points((10, 0), (10, 10)) == [pytest.approx((10.0, 5.0))]
    assert RIVER.crossing_points((3, 0), (7, 10)) == [pytest.approx((5.0, 5.0))]
    assert RIVER.crossing_points((0, 0), (20, 4)) == []
    zigzag = Feature("s1", "stream", ((0, 0), (10, 10), (20, 0)), linear=True, width=1.0)
    pts = zigzag.crossing_points((0, 4), (20, 4))
    assert pts == [pytest.approx((4.0, 4.0)), pytest.approx((16.0, 4.0))]


@pytest.mark.parametrize(
    ("p", "slack", "expected"),
    [
        ((10, 5), 0.0, BRIDGE),
        ((11.9, 5), 0.0, BRIDGE),
        ((12.0, 5), 0.0, BRIDGE),  # exactly at the bridge's end (half width 2)
        ((12.1, 5), 0.0, None),
        ((12.1, 5), 0.2, BRIDGE),  # slack widens the crossing
        ((7.9, 5), 0.0, None),
        ((15.4, 5), 0.0, FORD),
        ((14.5, 5), 0.0, FORD),
        ((15.6, 5), 0.0, None),
        ((13.0, 5), 0.0, None),  # between the two
    ],
)
def test_crossing_at(p: Point, slack: float, expected: Crossing | None) -> None:
    assert RIVER.crossing_at(p, slack) == expected


def test_crossing_at_path_over_the_bridge() -> None:
    (pt,) = RIVER.crossing_points((9, 0), (11, 10))
    assert RIVER.crossing_at(pt) is BRIDGE
    (pt,) = RIVER.crossing_points((13, 0), (13, 10))
    assert RIVER.crossing_at(pt) is None
    assert WOOD.crossing_at((5, 5)) is None  # no crossings defined


# ---------------------------------------------------------------------------------------------
# Hills


def test_hill_without_crest_is_flat_top() -> None:
    flat = Feature("h0", "hill", ((0, 0), (4, 0), (4, 4), (0, 4)))
    assert flat.elevation((2, 2)) == 1.0
    assert flat.elevation((0.01, 0.01)) == 1.0
    assert flat.elevation((5, 5)) == 0.0


@pytest.mark.parametrize(
    ("p", "e"),
    [
        ((5, 5), 1.0),  # the crest point
        ((0, 5), 0.0),  # the edge
        ((2.5, 5), 0.5),  # dc 2.5, de 2.5
        ((4, 5), 0.8),  # dc 1, de 4
        ((1, 5), 0.2),  # dc 4, de 1
        ((1, 1), 1 / (1 + 4 * 2**0.5)),  # dc 4*sqrt2, de 1
        ((11, 5), 0.0),  # off the hill
    ],
)
def test_hill_crest_point(p: Point, e: float) -> None:
    assert HILL.elevation(p) == pytest.approx(e)


def test_hill_crest_line() -> None:
    ridge = Feature("h2", "hill", ((0, 0), (10, 0), (10, 10), (0, 10)), crest=((2, 5), (8, 5)))
    assert ridge.elevation((5, 5)) == 1.0
    assert ridge.elevation((2, 5)) == 1.0
    assert ridge.elevation((5, 2.5)) == pytest.approx(0.5)  # dc 2.5, de 2.5
    assert ridge.elevation((5, 9)) == pytest.approx(0.2)  # dc 4, de 1: 1/5
    assert ridge.elevation((5, 0)) == pytest.approx(0.0)


def test_hill_plateau() -> None:
    mesa = Feature(
        "h3",
        "hill",
        ((0, 0), (10, 0), (10, 10), (0, 10)),
        crest=((3, 3), (7, 3), (7, 7), (3, 7)),
        plateau=True,
    )
    assert mesa.elevation((5, 5)) == 1.0
    assert mesa.elevation((3.5, 6.5)) == 1.0
    assert mesa.elevation((3, 5)) == pytest.approx(1.0)  # on the plateau's edge
    assert mesa.elevation((1.5, 5)) == pytest.approx(0.5)  # dc 1.5, de 1.5
    assert mesa.elevation((1, 1)) == pytest.approx(1 / (1 + 2 * 2**0.5))  # dc 2*sqrt2, de 1
    assert mesa.elevation((0, 5)) == pytest.approx(0.0)
    # without the plateau flag the same crest is a closed-off crest line: the middle is below 1
    # a triangular plateau (the smallest polygon) works too
    tri = Feature("h5", "hill", mesa.points, crest=((3, 3), (7, 3), (5, 7)), plateau=True)
    assert tri.elevation((5, 4)) == 1.0
    assert tri.elevation((5, 1.5)) == pytest.approx(0.5)  # dc 1.5 (to y=3), de 1.5
    ring_crest = Feature("h4", "hill", mesa.points, crest=mesa.crest)
    assert ring_crest.elevation((5, 5)) < 1.0


def test_linear_feature_has_no_elevation() -> None:
    assert RIVER.elevation((10, 5)) == 0.0


@settings(max_examples=200)
@given(
    cx=st.floats(1, 9),
    cy=st.floats(1, 9),
    px=st.floats(0.01, 9.99),
    py=st.floats(0.01, 9.99),
)
def test_hill_elevation_monotone_towards_crest(cx: float, cy: float, px: float, py: float) -> None:
    hill = Feature("h", "hill", ((0, 0), (10, 0), (10, 10), (0, 10)), crest=((cx, cy),))
    prev = -1.0
    for i in range(11):
        s = i / 10
        e = hill.elevation((px + (cx - px) * s, py + (cy - py) * s))
        assert 0.0 <= e <= 1.0
        assert e >= prev - 1e-12
        prev = e
    assert prev == pytest.approx(1.0)


# ---------------------------------------------------------------------------------------------
# TerrainMap


def test_terrain_map_helpers() -> None:
    small = Feature("h5", "hill", ((20, 20), (30, 20), (30, 30), (20, 30)))
    overlap = Feature("h6", "hill", ((0, 0), (4, 0), (4, 4), (0, 4)))  # flat top over HILL's corner
    ridge = Feature("k1", "ridge", ((40, 0), (44, 0), (44, 4), (40, 4)))
    tm = TerrainMap(48.0, 36.0, (WOOD, RIVER, HILL, small, overlap, ridge))
    assert tm.of_kind("hill") == [HILL, small, overlap]
    assert tm.of_kind("wood", "river") == [WOOD, RIVER]
    assert tm.of_kind("lake") == []
    # areas only, never linear features, even where the river covers the point
    assert tm.areas_at((5, 5)) == [WOOD, HILL]
    assert tm.areas_at((15, 5)) == []
    assert tm.areas_at((2, 2)) == [WOOD, HILL, overlap]
    # the highest hill counts: (2,2) is 0.4 up HILL (dc 3*sqrt2, de 2) but on overlap's flat top
    assert HILL.elevation((2, 2)) < 0.5
    assert tm.elevation((2, 2)) == 1.0
    assert tm.elevation((2.5, 5)) == pytest.approx(0.5)
    assert tm.elevation((35, 35)) == 0.0
    assert tm.elevation((42, 2)) == 0.0  # a ridge is not a hill unless asked
    assert tm.elevation((42, 2), hill_kinds=("ridge",)) == 1.0
    assert tm.on_table((0, 0)) and tm.on_table((48, 36)) and tm.on_table((24, 18))
    assert not tm.on_table((-0.1, 5)) and not tm.on_table((5, 36.1)) and not tm.on_table((48.1, 0))
    assert TerrainMap(10, 10).features == ()


def test_feature_view_is_plain_lists_and_numbers() -> None:
    f = Feature(
        "s1",
        "stream",
        ((0.0, 0.0), (10.0, 0.0)),
        True,
        2.0,
        name="Brook",
        crossings=(Crossing("ford", (5.0, 0.0), 3.0),),
    )
    assert feature_view(f) == {
        "id": "s1",
        "kind": "stream",
        "name": "Brook",
        "points": [[0.0, 0.0], [10.0, 0.0]],
        "linear": True,
        "width": 2.0,
        "crest": [],
        "crossings": [{"kind": "ford", "at": [5.0, 0.0], "width": 3.0}],
    }
