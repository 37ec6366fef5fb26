"""Tabletop geometry: footprints, distances, overlap, sweeps, arcs and contact."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shieldwall.core.crossings import (
    beyond_edge_line,
    contact_facing,
    contact_length,
    in_front_arc,
    path_length,
    segment_intersects_convex,
    segment_intersects_polyline,
    segment_polygon_crossings,
    sweep_distance,
    swept_rectangle,
)
from shieldwall.core.geometry import (
    FACINGS,
    Footprint,
    Point,
    bearing,
    heading_vector,
    normalize_angle,
    point_segment_distance,
    segments_cross_properly,
    segments_intersect,
)
from shieldwall.core.polygons import (
    convex_overlap,
    convex_penetration,
    point_in_polygon,
    polygon_distance,
    polygon_edges,
    rect_inside_polygon,
    rect_meets_polygon,
)

SQRT2 = math.sqrt(2.0)


def approx_pts(pts: Sequence[Point], abs_tol: float = 1e-9) -> list[object]:
    return [pytest.approx(p, abs=abs_tol) for p in pts]


def box(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    """Axis-aligned rectangle, counter-clockwise."""
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def translate(poly: Sequence[Point], dx: float, dy: float) -> list[Point]:
    return [(x + dx, y + dy) for x, y in poly]


# A unit facing north at the origin: 4 wide, 2 deep. Front edge y=1 (x -2..2), rear y=-1,
# right edge x=2, left edge x=-2.
NORTH = Footprint(0.0, 0.0, 0.0, 4.0, 2.0)


# ---------------------------------------------------------------------------------------------
# Angles


def test_heading_vector_and_bearing() -> None:
    assert heading_vector(0) == pytest.approx((0.0, 1.0))
    assert heading_vector(90) == pytest.approx((1.0, 0.0))
    assert heading_vector(180) == pytest.approx((0.0, -1.0), abs=1e-12)
    assert heading_vector(-90) == pytest.approx((-1.0, 0.0), abs=1e-12)
    assert bearing((0, 0), (0, 5)) == pytest.approx(0.0)
    assert bearing((0, 0), (5, 0)) == pytest.approx(90.0)
    assert bearing((1, 1), (0, 0)) == pytest.approx(-135.0)


@pytest.mark.parametrize(
    ("a", "expected"),
    [(0, 0), (180, 180), (-180, 180), (190, -170), (-190, 170), (360, 0), (540, 180), (-540, 180), (725, 5)],
)
def test_normalize_angle(a: float, expected: float) -> None:
    assert normalize_angle(a) == pytest.approx(expected)


# ---------------------------------------------------------------------------------------------
# Footprint


def test_corners_heading_north() -> None:
    assert NORTH.corners() == ((-2.0, 1.0), (2.0, 1.0), (2.0, -1.0), (-2.0, -1.0))


def test_corners_heading_east() -> None:
    # forward (1,0), right (0,-1): fl = (0,0)+(1,0)*1-(0,-1)*2 = (1,2); fr = (1,-2); rr = (-1,-2); rl = (-1,2)
    fp = Footprint(0.0, 0.0, 90.0, 4.0, 2.0)
    assert list(fp.corners()) == approx_pts([(1, 2), (1, -2), (-1, -2), (-1, 2)])
    assert fp.right == pytest.approx((0.0, -1.0), abs=1e-12)


def test_corners_offset_and_rotated() -> None:
    # heading 45 at (10,5), frontage 2*sqrt2, depth sqrt2: forward (s,s), right (s,-s) with s=1/sqrt2
    # fl = c + f*sqrt2/2 - r*sqrt2 = (10+0.5-1, 5+0.5+1) = (9.5, 6.5)
    fp = Footprint(10.0, 5.0, 45.0, 2 * SQRT2, SQRT2)
    assert list(fp.corners()) == approx_pts([(9.5, 6.5), (11.5, 4.5), (10.5, 3.5), (8.5, 5.5)])


def test_edges_and_edge_centres() -> None:
    assert NORTH.edge("front") == ((-2.0, 1.0), (2.0, 1.0))
    assert NORTH.edge("right") == ((2.0, 1.0), (2.0, -1.0))
    assert NORTH.edge("rear") == ((2.0, -1.0), (-2.0, -1.0))
    assert NORTH.edge("left") == ((-2.0, -1.0), (-2.0, 1.0))
    assert NORTH.edge_centre("front") == (0.0, 1.0)
    assert NORTH.edge_centre("rear") == (0.0, -1.0)
    assert NORTH.edge_centre("right") == (2.0, 0.0)
    assert NORTH.edge_centre("left") == (-2.0, 0.0)
    assert NORTH.front_centre == (0.0, 1.0)
    with pytest.raises(ValueError, match="facing"):
        NORTH.edge("top")


def test_moved() -> None:
    assert NORTH.moved(3, -1) == Footprint(3.0, -1.0, 0.0, 4.0, 2.0)


def test_turned_on_centre() -> None:
    t = NORTH.turned(90)
    assert (t.x, t.y, t.heading) == (0.0, 0.0, 90.0)
    assert NORTH.turned(270).heading == pytest.approx(-90.0)
    assert NORTH.turned(180).turned(180).heading == pytest.approx(0.0)
    assert NORTH.turned(-200).heading == pytest.approx(160.0)


def test_turned_on_front_centre_keeps_front_centre() -> None:
    # front centre (0,1); after a quarter wheel to face east the centre is 1 (half depth) west of it
    t = NORTH.turned(90, pivot="front")
    assert (t.x, t.y) == pytest.approx((-1.0, 1.0))
    assert t.heading == 90.0
    assert t.front_centre == pytest.approx((0.0, 1.0))
    # about-face on the front: the unit ends up ahead of its old front edge
    back = NORTH.turned(180, pivot="front")
    assert (back.x, back.y) == pytest.approx((0.0, 2.0))
    with pytest.raises(ValueError, match="pivot"):
        NORTH.turned(10, pivot="rear")


@pytest.mark.parametrize(
    ("point", "facing"),
    [
        ((0, 5), "front"),
        ((0, -5), "rear"),
        ((5, 0), "right"),
        ((-5, 0), "left"),
        ((3, 1), "right"),  # along = 1/1, across = 3/2: beyond the right
        ((1.9, 1.0), "front"),  # along 1, across 0.95
        ((4, 2), "front"),  # exactly on the front-right diagonal: tie goes front
        ((-4, -2), "rear"),  # on the rear-left diagonal: tie goes rear
        ((-4, 1.9), "left"),
    ],
)
def test_facing_of(point: Point, facing: str) -> None:
    assert NORTH.facing_of(point) == facing


def test_facing_of_rotated() -> None:
    east = Footprint(0.0, 0.0, 90.0, 4.0, 2.0)
    assert east.facing_of((5, 0)) == "front"
    assert east.facing_of((0, -5)) == "right"
    assert east.facing_of((0, 5)) == "left"
    assert east.facing_of((-5, 0)) == "rear"


# ---------------------------------------------------------------------------------------------
# Segments and polygons


@pytest.mark.parametrize(
    ("p1", "p2", "q1", "q2", "expected"),
    [
        ((0, 0), (2, 2), (0, 2), (2, 0), True),  # X
        ((0, 0), (2, 0), (1, 0), (1, 5), True),  # T: endpoint on the other segment
        ((0, 0), (2, 0), (2, 0), (3, 3), True),  # shared endpoint
        ((0, 0), (2, 0), (1, 0), (3, 0), True),  # collinear overlapping
        ((0, 0), (3, 0), (1, 0), (2, 0), True),  # collinear, one inside the other
        ((0, 0), (1, 0), (2, 0), (3, 0), False),  # collinear, disjoint
        ((0, 0), (2, 0), (0, 1), (2, 1), False),  # parallel
        ((0, 0), (2, 0), (1, 0.001), (1, 5), False),  # near miss
        ((0, 0), (1, 1), (2, 0), (1.5, 0.6), False),  # lines cross beyond the segments
    ],
)
def test_segments_intersect(p1: Point, p2: Point, q1: Point, q2: Point, expected: bool) -> None:
    assert segments_intersect(p1, p2, q1, q2) is expected
    assert segments_intersect(q1, q2, p1, p2) is expected
    assert segments_intersect(p2, p1, q2, q1) is expected


def test_segments_cross_properly_excludes_touching() -> None:
    assert segments_cross_properly((0, 0), (2, 2), (0, 2), (2, 0))
    assert not segments_cross_properly((0, 0), (2, 0), (1, 0), (1, 5))
    assert not segments_cross_properly((0, 0), (2, 0), (1, 0), (3, 0))


# A U shape (concave): the notch is x in (1,2), y in (1,3).
U_SHAPE = ((0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3))


@pytest.mark.parametrize(
    ("point", "inside"),
    [
        ((0.5, 2.0), True),  # left arm
        ((2.5, 2.5), True),  # right arm
        ((1.5, 0.5), True),  # base
        ((1.5, 2.0), False),  # in the notch
        ((1.5, 3.5), False),  # above the notch
        ((4.0, 1.0), False),
        ((-1.0, 2.0), False),
        ((0.5, 1.0), True),  # level with the notch's floor, inside the left arm
        ((1.5, 1.0 + 1e-9), False),  # just above the notch floor
    ],
)
def test_point_in_concave_polygon(point: Point, inside: bool) -> None:
    assert point_in_polygon(point, U_SHAPE) is inside
    assert point_in_polygon(point, U_SHAPE[::-1]) is inside  # orientation does not matter


def test_polygon_distance_exact_values() -> None:
    sq = box(0, 0, 1, 1)
    assert polygon_distance(sq, box(3, 0, 4, 1)) == pytest.approx(2.0)
    assert polygon_distance(sq, box(2, 2, 3, 3)) == pytest.approx(SQRT2)  # corner to corner
    assert polygon_distance(sq, box(1.5, -5, 2.5, 5)) == pytest.approx(0.5)  # edge to edge
    assert polygon_distance(sq, box(1, 0, 2, 1)) == 0.0  # touching
    assert polygon_distance(sq, box(0.5, 0.5, 2, 2)) == 0.0  # overlapping
    assert polygon_distance(box(-5, -5, 5, 5), sq) == 0.0  # containment
    # a diamond whose left vertex (3, 0.5) faces the square's right edge
    diamond = ((3, 0.5), (4, -0.5), (5, 0.5), (4, 1.5))
    assert polygon_distance(sq, diamond) == pytest.approx(2.0)


def test_convex_overlap_touching_is_not_overlap() -> None:
    sq = box(0, 0, 1, 1)
    assert not convex_overlap(sq, box(1, 0, 2, 1))  # shared edge
    assert not convex_overlap(sq, box(1, 1, 2, 2))  # shared corner
    assert not convex_overlap(sq, box(0.99, 0, 2, 1))  # 0.01 deep: within CONTACT_TOL
    assert convex_overlap(sq, box(0.99, 0, 2, 1), tol=0.0)
    assert convex_overlap(sq, box(0.5, 0, 2, 1))
    assert convex_overlap(box(-5, -5, 5, 5), sq)
    assert not convex_overlap(sq, box(3, 3, 4, 4))
    assert convex_penetration(sq, box(0.75, 0.25, 2, 0.5)) == pytest.approx(0.25)
    # apart: minus the widest separating gap (4 along y), not the first or narrowest one (0.01)
    assert convex_penetration(sq, box(1.01, 5, 2, 6)) == pytest.approx(-4.0)
    assert convex_penetration(box(1.01, 5, 2, 6), sq) == pytest.approx(-4.0)
    # on a shared edge line but 2 apart: the touching axis must not hide the gap
    assert convex_penetration(sq, box(3, 1, 4, 2)) == pytest.approx(-2.0)
    assert convex_penetration(sq, box(1, 1, 2, 2)) == pytest.approx(0.0)  # corner touch
    # rotated rectangles: a diamond poking 0.5 into the square's right edge
    diamond = ((0.5, 0.5), (1.5, -0.5), (2.5, 0.5), (1.5, 1.5))
    assert convex_overlap(sq, diamond)


def test_sweep_distance_exact() -> None:
    sq = box(0, 0, 1, 1)
    assert sweep_distance(sq, (1, 0), box(3, 0.5, 4, 1.5)) == pytest.approx(2.0)
    assert sweep_distance(sq, (0, 1), box(-5, 4, 5, 5)) == pytest.approx(3.0)
    # diagonal: corner (1,1) reaches corner (3,3) after 2*sqrt2
    s = 1 / SQRT2
    assert sweep_distance(sq, (s, s), box(3, 3, 4, 4)) == pytest.approx(2 * SQRT2)
    # an obstacle vertex pointing back at the mover: (5, 0.5) meets the edge x=1 after 4
    tri = ((5, 0.5), (7, 0), (7, 1))
    assert sweep_distance(sq, (1, 0), tri) == pytest.approx(4.0)
    # a mover's vertex hitting an obstacle's edge: diamond vertex (1.5, 0.5) meets x=4 after 2.5
    diamond = ((0.5, 0.5), (1, 0), (1.5, 0.5), (1, 1))
    assert sweep_distance(diamond, (1, 0), box(4, 0, 5, 1)) == pytest.approx(2.5)


def test_sweep_distance_misses_and_contacts() -> None:
    sq = box(0, 0, 1, 1)
    assert sweep_distance(sq, (1, 0), box(3, 2, 4, 3)) == math.inf  # passes below
    assert sweep_distance(sq, (-1, 0), box(3, 0, 4, 1)) == math.inf  # moving away
    assert sweep_distance(sq, (1, 0), box(3, 1, 4, 2)) == pytest.approx(2.0)  # grazing top edge
    assert sweep_distance(sq, (1, 0), box(1, 0, 2, 1)) == 0.0  # already touching
    assert sweep_distance(sq, (1, 0), box(0.5, 0, 2, 1)) == 0.0  # overlapping


def test_sweep_footprints_contact() -> None:
    # an attacker 10 south of NORTH's rear, facing north, charges: its front meets the rear after 10
    attacker = Footprint(1.0, -12.0, 0.0, 4.0, 2.0)
    d = sweep_distance(attacker.corners(), attacker.forward, NORTH.corners())
    assert d == pytest.approx(10.0)
    moved = attacker.moved(0, d)
    assert contact_facing(NORTH, moved.corners()) == "rear"
    assert contact_length(NORTH, "rear", moved, "front") == pytest.approx(3.0)


@pytest.mark.parametrize(
    ("poly", "expected"),
    [
        (box(-0.1, 5, 0.1, 5.2), True),  # straight ahead
        (box(-0.1, -5.2, 0.1, -5), False),  # behind
        (box(3, -0.5, 4, 0.5), False),  # beside the unit, level with it
        (box(5.9, 3.9, 6.1, 4.1), False),  # at y=4.1 the arc reaches x=2+3.1=5.1
        (box(4, 3.5, 5, 4.5), True),  # corner (4,4.5) is inside: limit there is 5.5
        (box(5, 3, 6, 4), True),  # only its corner (5,4) touches the 45 degree line x = 2 + (y-1)
        (box(5.01, 3, 6, 4), False),  # just outside the line
        (box(-6, 3, -5, 4), True),  # left: only corner (-5,4) touches x = -2 - (y-1)
        (box(-6, 3, -5.01, 4), False),
        (box(-0.5, 0, 0.5, 1.5), True),  # straddling the front edge line
        (box(-3, 0.5, 3, 0.9), False),  # a strip wholly behind the front edge
        (box(-3, 1, 3, 2), True),  # touching the front edge
        (box(-10, 20, 10, 21), True),  # wide, far ahead
    ],
)
def test_in_front_arc(poly: tuple[Point, ...], expected: bool) -> None:
    assert in_front_arc(NORTH, poly) is expected


def test_in_front_arc_half_angle_and_rotation() -> None:
    beside_ahead = box(2.25, 5, 2.75, 5.5)
    assert in_front_arc(NORTH, beside_ahead)
    assert not in_front_arc(NORTH, beside_ahead, half_angle=0.0)  # straight-ahead corridor only
    assert in_front_arc(NORTH, box(1.5, 5, 2.0, 5.5), half_angle=0.0)
    east = Footprint(0.0, 0.0, 90.0, 4.0, 2.0)
    assert in_front_arc(east, box(5, -0.1, 5.2, 0.1))
    assert not in_front_arc(east, box(-5.2, -0.1, -5, 0.1))
    assert not in_front_arc(east, box(-0.1, 5, 0.1, 5.2))
    # a single point (degenerate polygon) works too
    assert in_front_arc(NORTH, [(0.0, 3.0)])
    assert not in_front_arc(NORTH, [(0.0, -3.0)])
    # far out along the 45 degree lines: 10 ahead of the front, 2 + 10 to the side
    assert in_front_arc(NORTH, [(12.0, 11.0)])
    assert not in_front_arc(NORTH, [(12.05, 11.0)])
    assert in_front_arc(NORTH, [(-12.0, 11.0)])
    assert not in_front_arc(NORTH, [(-12.05, 11.0)])
    # a 30 degree arc: the limit 10 ahead is 2 + 10*tan(30) = 7.7735
    assert in_front_arc(NORTH, [(7.77, 11.0)], half_angle=30.0)
    assert not in_front_arc(NORTH, [(7.78, 11.0)], half_angle=30.0)


def test_beyond_edge_line() -> None:
    assert beyond_edge_line(NORTH, "front", box(-1, 1, 1, 3))
    assert beyond_edge_line(NORTH, "front", box(10, 1.5, 11, 2))  # far to the side still beyond the line
    assert not beyond_edge_line(NORTH, "front", box(-1, 0.5, 1, 3))
    assert beyond_edge_line(NORTH, "front", box(-1, 1 - 1e-7, 1, 3))  # within tol
    assert not beyond_edge_line(NORTH, "front", box(-1, 1 - 1e-3, 1, 3))
    assert beyond_edge_line(NORTH, "rear", box(-1, -3, 1, -1))
    assert not beyond_edge_line(NORTH, "rear", box(-1, -3, 1, 0))
    assert beyond_edge_line(NORTH, "left", box(-4, -1, -2, 1))
    assert not beyond_edge_line(NORTH, "left", box(2, -1, 4, 1))
    assert beyond_edge_line(NORTH, "right", box(2, -1, 4, 1))


def test_contact_facing_each_edge() -> None:
    assert contact_facing(NORTH, Footprint(0, 2, 180, 4, 2).corners()) == "front"
    assert contact_facing(NORTH, Footprint(1, 2, 180, 4, 2).corners()) == "front"  # offset
    assert contact_facing(NORTH, Footprint(0, -2, 0, 4, 2).corners()) == "rear"
    assert contact_facing(NORTH, Footprint(3, 0, 270, 2, 2).corners()) == "right"
    assert contact_facing(NORTH, Footprint(-3, 0, 90, 2, 2).corners()) == "left"
    assert contact_facing(NORTH, Footprint(0, 2.01, 180, 4, 2).corners()) == "front"  # within tol
    assert contact_facing(NORTH, Footprint(0, 2.5, 180, 4, 2).corners()) is None
    assert contact_facing(NORTH, Footprint(0, 2.5, 180, 4, 2).corners(), tol=0.6) == "front"


def test_contact_facing_corner_ties_follow_centroid() -> None:
    # both touch only NORTH's front-right corner (2,1); centroid decides
    ahead = box(2, 1, 3, 4)  # centroid (2.5, 2.5): along 2.5, across 1.25 -> front
    aside = box(2, 1, 6, 2)  # centroid (4, 1.5): along 1.5, across 2 -> right
    assert contact_facing(NORTH, ahead) == "front"
    assert contact_facing(NORTH, aside) == "right"
    below = box(-6, -2, -2, -1)  # touches rear-left corner (-2,-1); centroid (-4,-1.5) -> left
    assert contact_facing(NORTH, below) == "left"


def test_contact_length() -> None:
    assert contact_length(NORTH, "front", Footprint(0, 2, 180, 4, 2), "front") == pytest.approx(4.0)
    # b's front runs x 3..-1 at y=1: overlap with -2..2 is 3
    assert contact_length(NORTH, "front", Footprint(1, 2, 180, 4, 2), "front") == pytest.approx(3.0)
    assert contact_length(NORTH, "front", Footprint(0, 2, 180, 2, 2), "front") == pytest.approx(2.0)
    assert contact_length(NORTH, "front", Footprint(4, 2, 180, 4, 2), "front") == pytest.approx(0.0)
    assert contact_length(NORTH, "front", Footprint(0, 2.5, 180, 4, 2), "front") == 0.0  # gap
    skew = Footprint(0, 2, 180, 4, 2).turned(30, pivot="front")
    assert contact_length(NORTH, "front", skew, "front") == 0.0  # not parallel
    # flank contact: a 2x2 unit against the right edge (length 2)
    side = Footprint(3, 0, 270, 2, 2)
    assert contact_length(NORTH, "right", side, "front") == pytest.approx(2.0)
    assert contact_length(NORTH, "front", side, "front") == 0.0  # perpendicular


def test_swept_rectangle() -> None:
    r = swept_rectangle((0, 0), (10, 0), 2.0, 1.0)
    assert list(r) == approx_pts([(-1, 1), (11, 1), (11, -1), (-1, -1)])
    diag = swept_rectangle((0, 0), (3, 4), 2.0, 0.0)  # unit dir (0.6, 0.8), half-width normal (-0.8, 0.6)
    assert list(diag) == approx_pts([(-0.8, 0.6), (2.2, 4.6), (3.8, 3.4), (0.8, -0.6)])
    still = swept_rectangle((5, 5), (5, 5), 2.0, 1.0)  # no movement: a width x 2*extend box
    assert sorted(still) == approx_pts(sorted([(4, 4), (4, 6), (6, 6), (6, 4)]))


SQ2 = box(0, 0, 2, 2)


@pytest.mark.parametrize(
    ("p", "q", "shrink", "expected"),
    [
        ((-1, 1), (3, 1), 0.0, True),  # straight through
        ((-1, 3), (3, 3), 0.0, False),  # misses above
        ((-1, 1), (1, 3), 0.0, False),  # touches only the corner (0,2)
        ((-1, 1), (1, 1), 0.0, True),  # ends inside
        ((0.5, 0.5), (1.5, 1.5), 0.0, True),  # wholly inside
        ((-1, 1), (0, 1), 0.0, False),  # ends on the edge
        ((-1, 0), (3, 0), 0.0, False),  # runs along the bottom edge: never inside
        ((2, -1), (2, 3), 0.0, False),  # runs along the right edge
        ((-1, 0.4), (3, 0.4), 0.5, False),  # shallower than the shrink margin
        ((-1, 1), (3, 1), 0.5, True),
        ((-1, -1), (3, 3), 0.9, True),  # diagonal through the middle
    ],
)
def test_segment_intersects_convex(p: Point, q: Point, shrink: float, expected: bool) -> None:
    assert segment_intersects_convex(p, q, SQ2, shrink) is expected
    assert segment_intersects_convex(q, p, SQ2[::-1], shrink) is expected  # direction/orientation


def test_segment_intersects_convex_along_rotated_unit_edge() -> None:
    fp = Footprint(3.0, 7.0, 33.0, 4.0, 2.0)
    a, b = fp.edge("left")
    assert not segment_intersects_convex(a, b, fp.corners())
    c = fp.centre
    assert segment_intersects_convex(c, (c[0] + 100, c[1]), fp.corners())


def test_segment_polygon_crossings() -> None:
    sq = box(0, 0, 10, 10)
    assert segment_polygon_crossings((-5, 5), (5, 5), sq) == 1  # into
    assert segment_polygon_crossings((-5, 5), (15, 5), sq) == 2  # through
    assert segment_polygon_crossings((2, 2), (8, 8), sq) == 0  # inside
    assert segment_polygon_crossings((-5, -5), (-1, 20), sq) == 0  # outside
    # through two corners exactly: still in and out
    assert segment_polygon_crossings((-5, -5), (15, 15), sq) == 2
    # in through a corner only
    assert segment_polygon_crossings((-5, -5), (5, 5), sq) == 1
    # grazing along an edge or touching a corner is not a crossing
    assert segment_polygon_crossings((-5, 0), (15, 0), sq) == 0
    assert segment_polygon_crossings((-5, 5), (5, 15), sq) == 0  # touches corner (0,10)
    # ending on / starting from the edge counts nothing at that end
    assert segment_polygon_crossings((5, -5), (5, 0), sq) == 0
    assert segment_polygon_crossings((5, 0), (5, 5), sq) == 0
    assert segment_polygon_crossings((5, 0), (5, 15), sq) == 1
    # concave: across both arms of the U
    assert segment_polygon_crossings((-1, 2), (4, 2), U_SHAPE) == 4
    assert segment_polygon_crossings((-1, 0.5), (4, 0.5), U_SHAPE) == 2
    # across the notch from the left arm into the right arm: out at x=1, in at x=2
    assert segment_polygon_crossings((0.5, 2), (2.5, 2), U_SHAPE) == 2
    # along the notch floor (y=1): the floor is boundary, so it leaves and re-enters
    assert segment_polygon_crossings((0.5, 1), (2.5, 1), U_SHAPE) == 2
    # up through the notch's inner corners (1,1) and (2,1) diagonally: in the base, out at (1,1)
    assert segment_polygon_crossings((0.5, 0.5), (1.5, 1.5), U_SHAPE) == 1


def test_segment_intersects_polyline_points() -> None:
    river = [(0, 0), (10, 0), (10, 10)]
    assert segment_intersects_polyline((5, -5), (5, 5), river) == [pytest.approx((5.0, 0.0))]
    pts = segment_intersects_polyline((0, 5), (20, 5), [(5, -10), (5, 10), (15, 10), (15, -10)])
    assert pts == [pytest.approx((5.0, 5.0)), pytest.approx((15.0, 5.0))]
    assert segment_intersects_polyline((0, 5), (4, 5), river) == []


def test_path_length() -> None:
    assert path_length([(0, 0), (3, 4), (3, 10)]) == pytest.approx(11.0)
    assert path_length([(1, 1)]) == 0


# ---------------------------------------------------------------------------------------------
# Property tests

coord = st.floats(-20, 20, allow_nan=False)
headings = st.floats(-180, 180, allow_nan=False)
sizes = st.floats(0.5, 8, allow_nan=False)
footprints = st.builds(Footprint, coord, coord, headings, sizes, sizes)
angles = st.floats(-720, 720, allow_nan=False)


@settings(max_examples=150)
@given(fp=footprints, a=angles, pivot=st.sampled_from(["centre", "front"]))
def test_turn_there_and_back(fp: Footprint, a: float, pivot: str) -> None:
    if pivot == "front":
        back = fp.turned(a, pivot="front").turned(-a, pivot="front")
    else:
        back = fp.turned(a).turned(-a)
    assert list(back.corners()) == approx_pts(fp.corners(), 1e-7)


@settings(max_examples=150)
@given(fp=footprints, a=angles)
def test_front_pivot_keeps_front_centre_and_size(fp: Footprint, a: float) -> None:
    t = fp.turned(a, pivot="front")
    assert t.front_centre == pytest.approx(fp.front_centre, abs=1e-7)
    assert (t.frontage, t.depth) == (fp.frontage, fp.depth)
    c = t.corners()
    assert math.dist(c[0], c[1]) == pytest.approx(fp.frontage)
    assert math.dist(c[1], c[2]) == pytest.approx(fp.depth)


@settings(max_examples=200)
@given(a=footprints, b=footprints, theta=st.floats(0, 2 * math.pi, allow_nan=False))
def test_sweep_ends_touching_never_overlapping(a: Footprint, b: Footprint, theta: float) -> None:
    A, B = a.corners(), b.corners()
    assume(convex_penetration(A, B) < -1e-3)
    d = (math.cos(theta), math.sin(theta))
    t = sweep_distance(A, d, B)
    assert t > 0
    if math.isinf(t):
        # never touches: check a dense set of positions along a long path
        for k in range(1, 121):
            moved = translate(A, d[0] * k * 0.5, d[1] * k * 0.5)
            assert not convex_overlap(moved, B, tol=1e-6)
        return
    moved = translate(A, d[0] * t, d[1] * t)
    assert polygon_distance(moved, B) < 1e-6
    assert not convex_overlap(moved, B, tol=1e-6)
    # and it really was free until then
    early = translate(A, d[0] * t * 0.999, d[1] * t * 0.999)
    assert polygon_distance(early, B) > 0


grid = st.integers(-6, 6).map(float)
grid_sizes = st.integers(1, 4).map(float)
grid_footprints = st.builds(
    Footprint, grid, grid, st.sampled_from([0.0, 90.0, 180.0, -90.0]), grid_sizes, grid_sizes
)
axis_dirs = st.sampled_from([(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)])


@settings(max_examples=300)
@given(a=grid_footprints, b=grid_footprints, d=axis_dirs)
def test_sweep_on_a_grid_matches_brute_force(a: Footprint, b: Footprint, d: Point) -> None:
    # Aligned units (edges on shared lines are common on a table): compare with stepping 0.5.
    A, B = a.corners(), b.corners()
    assume(polygon_distance(A, B) > 0.25)
    t = sweep_distance(A, d, B)
    first_touch = math.inf
    for k in range(1, 80):
        if polygon_distance(translate(A, d[0] * k * 0.5, d[1] * k * 0.5), B) < 1e-9:
            first_touch = k * 0.5
            break
    # all coordinates are multiples of 0.5, so the first contact is found exactly
    assert t == pytest.approx(first_touch)


@settings(max_examples=200)
@given(a=grid_footprints, b=grid_footprints)
def test_penetration_of_aligned_boxes(a: Footprint, b: Footprint) -> None:
    A, B = a.corners(), b.corners()
    ax0, ax1 = min(p[0] for p in A), max(p[0] for p in A)
    ay0, ay1 = min(p[1] for p in A), max(p[1] for p in A)
    bx0, bx1 = min(p[0] for p in B), max(p[0] for p in B)
    by0, by1 = min(p[1] for p in B), max(p[1] for p in B)
    ox = min(ax1, bx1) - max(ax0, bx0)  # overlap along x (negative: gap)
    oy = min(ay1, by1) - max(ay0, by0)
    assert convex_penetration(A, B) == pytest.approx(min(ox, oy), abs=1e-9)
    expected_dist = math.hypot(max(0.0, -ox), max(0.0, -oy))
    assert polygon_distance(A, B) == pytest.approx(expected_dist, abs=1e-9)


# half-integer points make segments run through the U's vertices and along its edges
half_grid = st.integers(-4, 10).map(lambda k: k / 2)
crossing_pts = st.one_of(st.tuples(coord, coord), st.tuples(half_grid, half_grid))


@settings(max_examples=300)
@given(p=crossing_pts, q=crossing_pts)
def test_crossings_parity_matches_endpoints(p: Point, q: Point) -> None:
    assume(all(point_segment_distance(v, a, b) > 1e-6 for v in (p, q) for a, b in polygon_edges(U_SHAPE)))
    n = segment_polygon_crossings(p, q, U_SHAPE)
    assert n % 2 == int(point_in_polygon(p, U_SHAPE) != point_in_polygon(q, U_SHAPE))


@settings(max_examples=200)
@given(a=footprints, b=footprints)
def test_polygon_distance_symmetric_and_zero_iff_meeting(a: Footprint, b: Footprint) -> None:
    A, B = a.corners(), b.corners()
    d1, d2 = polygon_distance(A, B), polygon_distance(B, A)
    assert d1 == pytest.approx(d2, abs=1e-9)
    assert d1 >= 0
    pen = convex_penetration(A, B)
    if pen > 1e-9:
        assert d1 == 0.0
    if pen < -1e-6:  # (segments closer than 1e-7 count as meeting)
        assert d1 > 0
        # closest-corner distance is an upper bound; centre distance minus circumradii a lower one
        assert d1 <= min(math.dist(p, q) for p in A for q in B) + 1e-9
        # the widest separating axis gap is a lower bound on the distance
        assert -pen <= d1 + 1e-9


@settings(max_examples=100)
@given(a=footprints, gap=st.floats(0, 5, allow_nan=False), facing=st.sampled_from(FACINGS))
def test_polygon_distance_of_separated_copy(a: Footprint, gap: float, facing: str) -> None:
    # a copy of the unit slid straight out across one of its edges by its size plus gap
    fx, fy = a.forward
    rx, ry = a.right
    step = {
        "front": (fx, fy, a.depth),
        "rear": (-fx, -fy, a.depth),
        "right": (rx, ry, a.frontage),
        "left": (-rx, -ry, a.frontage),
    }[facing]
    ux, uy, size = step
    b = a.moved(ux * (size + gap), uy * (size + gap))
    d = polygon_distance(a.corners(), b.corners())
    assert d == pytest.approx(gap, abs=1e-7)
    if gap == 0.0:
        assert d == 0.0
        assert not convex_overlap(a.corners(), b.corners(), tol=1e-6)  # touching only
    elif gap > 1e-6:
        assert d > 0.0


@settings(max_examples=200)
@given(fp=footprints, facing=st.sampled_from(FACINGS), out=st.floats(1e-4, 3, allow_nan=False))
def test_facing_of_just_outside_each_edge_centre(fp: Footprint, facing: str, out: float) -> None:
    cx, cy = fp.edge_centre(facing)
    nx, ny = cx - fp.x, cy - fp.y
    ln = math.hypot(nx, ny)
    p = (cx + nx / ln * out, cy + ny / ln * out)
    assert fp.facing_of(p) == facing
    assert beyond_edge_line(fp, facing, [p])


# An L-shaped (concave) field: the square 0..10 x 0..10 without its top-right quarter 5..10 x 5..10.
_L_FIELD: list[Point] = [(0, 0), (10, 0), (10, 5), (5, 5), (5, 10), (0, 10)]


@pytest.mark.parametrize(
    ("rect", "meets", "inside"),
    [
        ([(1, 1), (3, 1), (3, 3), (1, 3)], True, True),  # wholly within
        ([(4, 4), (6, 4), (6, 6), (4, 6)], True, False),  # across the inner corner
        ([(6, 6), (9, 6), (9, 9), (6, 9)], False, False),  # in the missing quarter
        ([(-2, -2), (12, -2), (12, 12), (-2, 12)], True, False),  # the field wholly within the rect
        ([(-3, 2), (-1, 2), (-1, 4), (-3, 4)], False, False),  # beside it
        ([(-1, 8), (11, 8), (11, 9), (-1, 9)], True, False),  # crossing an arm, no corner inside
    ],
)
def test_rect_meets_and_inside_a_concave_polygon(rect: list[Point], meets: bool, inside: bool) -> None:
    assert rect_meets_polygon(rect, _L_FIELD) is meets
    assert rect_inside_polygon(rect, _L_FIELD) is inside


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(-20, 20), min_size=10, max_size=10),
    st.sampled_from([-math.inf, -0.02, 0.0, 0.02]),
)
def test_tuples_and_lists_of_points_give_the_same_answers(v: list[float], stop: float) -> None:
    """``convex_penetration`` and ``polygon_distance`` read tuples of points through a typed copy of
    their body (natively, when compiled) and other sequences through the generic one: the same
    floats either way."""
    a = Footprint(v[0], v[1], v[2] * 9.0, 1.0 + abs(v[3]) / 4.0, 1.0 + abs(v[4]) / 4.0).corners()
    b = Footprint(v[5] / 3.0, v[6] / 3.0, v[7] * 9.0, 1.0 + abs(v[8]) / 4.0, 1.0 + abs(v[9]) / 4.0).corners()
    la, lb = list(a), list(b)  # (lists of points: the generic body)
    assert convex_penetration(a, b, stop) == convex_penetration(la, lb, stop)
    assert convex_penetration(b, a) == convex_penetration(lb, la)
    assert polygon_distance(a, b) == polygon_distance(la, lb)
    assert polygon_distance(b, a[:3]) == polygon_distance(lb, la[:3])
