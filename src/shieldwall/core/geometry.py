"""Tabletop geometry in inches (or paces): points, headings, unit footprints and segments.

Polygons (containment, overlap, distance) are in :mod:`shieldwall.core.polygons`; crossings, the
front arc, sweeps and contact in :mod:`shieldwall.core.crossings`.

Conventions: x runs east along the table, y north away from the south edge. A heading is in
degrees clockwise from north (0 faces +y, 90 faces +x). A unit is a rectangle: centre, heading,
frontage (width across its front) and depth. Its edges are named ``front``, ``right``, ``rear``,
``left``; its corners ``fl``, ``fr``, ``rr``, ``rl``.

Everything here is plain floats and tuples: these functions sit in the engine's hot paths.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Final

from shieldwall.core.reference import REFERENCE

#: the math functions called here, bound once (compiled: a static read, not a lookup per call)
_hypot: Final = math.hypot
_atan2: Final = math.atan2

#: ``math.radians(x)`` is ``x * DEG_TO_RAD`` and ``math.degrees(x)`` is ``x * RAD_TO_DEG``, to the
#: bit: CPython multiplies by the constants ``Py_MATH_PI / 180.0`` and ``180.0 / Py_MATH_PI``, the
#: same divisions as these (tests/core/test_angle_constants.py checks it on millions of values).
#: Compiled, the multiplication is one instruction where calling ``math.radians`` goes through
#: Python's call protocol, about 400 (issue 16).
DEG_TO_RAD: Final = math.pi / 180.0
RAD_TO_DEG: Final = 180.0 / math.pi

Point = tuple[float, float]
Polygon = tuple[Point, ...]

EPS: Final = 1e-9
#: Distances at or below this count as touching (contact) rather than a gap.
CONTACT_TOL: Final = 0.02

FACINGS = ("front", "right", "rear", "left")


def heading_vector(heading: float) -> Point:
    r = heading * DEG_TO_RAD
    return (math.sin(r), math.cos(r))


def normalize_angle(a: float) -> float:
    """Map an angle in degrees to (-180, 180]."""
    a = math.fmod(a, 360.0)
    if a <= -180.0:
        a += 360.0
    elif a > 180.0:
        a -= 360.0
    return a


def bearing(frm: Point, to: Point) -> float:
    """Compass bearing in degrees (clockwise from north) from ``frm`` to ``to``."""
    return _atan2(to[0] - frm[0], to[1] - frm[1]) * RAD_TO_DEG


def dist(a: Point, b: Point) -> float:
    return _hypot(a[0] - b[0], a[1] - b[1])


def _probe() -> None:
    """(compiled, a function has no ``__code__``: see ``_NATIVE``)"""


#: whether this module runs compiled (mypyc), where ``Footprint`` is a native class whose frozen
#: fields its own ``__init__`` may store directly
_NATIVE: Final = not hasattr(_probe, "__code__")

#: the distance of ``x * 10 ** n``'s fraction from .5 within which ``round_places`` leaves the
#: rounding to ``round`` (a second guard: a fraction that is not exactly .5 already decides)
_ROUND_TIE: Final = 1e-6
_ROUND_MAX: Final = 1e9


def round_places(x: float, n: int) -> float:
    """``round(x, n)`` for ``n`` of 2, 3 or 4, the same float (issue 16: compiled, ``round`` with
    places is the builtin looked up by name, which goes through a decimal string, about 1,100
    instructions).

    ``round`` gives the float nearest to ``k / 10 ** n``, ``k`` the integer nearest to the exact
    ``x * 10 ** n`` (ties to even), with ``x``'s sign when ``k`` is 0. Below ``_ROUND_MAX`` every
    ``k + .5`` is a float and rounding is monotonic, so where the computed ``y = x * 10 ** n`` lies
    below (above) ``floor(y) + .5`` the exact product does too, and rounds to the same integer as
    ``y`` (its fraction ``y - floor(y)`` is exact); ``k / 10 ** n``, a correctly rounded division,
    is then ``round``'s float. Near the half (within ``_ROUND_TIE``), for a huge, infinite or NaN
    value or another ``n``, and from the Python sources or on the reference path, ``round`` itself
    answers."""
    if _NATIVE and not REFERENCE.on:
        return _round_places_fast(x, n)
    return round(x, n)


def _round_places_fast(x: float, n: int) -> float:
    """``round_places``' compiled path (a function of its own: the tests run it from the sources)."""
    p = 1000.0 if n == 3 else 100.0 if n == 2 else 10000.0 if n == 4 else 0.0
    y = x * p
    if p > 0.0 and -_ROUND_MAX < y < _ROUND_MAX:
        k = math.floor(y)
        f = y - k
        if f - 0.5 > _ROUND_TIE:
            k += 1
        elif 0.5 - f <= _ROUND_TIE:
            return round(x, n)
        if k == 0:
            return math.copysign(0.0, x)
        return k / p
    return round(x, n)


# ---------------------------------------------------------------------------------------------
# ``math.hypot`` asked only where its last bits matter (issue 16: compiled, each call of it goes
# through Python's call protocol, about 400 instructions; ``math.sqrt`` is one machine
# instruction). The answers are those of the plain expressions, bit for bit; the plain Python
# sources and the reference path (``REFERENCE.on``) keep the plain expressions.

#: the relative margin of ``_gap_bounds``: far above the few units in the last place (1.1e-16
#: each) by which the square root of the computed square and ``math.hypot`` may differ
_GAP_MARGIN: Final = 1e-12
#: the squares ``_gap_bounds`` trusts: below, squares may have lost their relative precision to
#: underflow; above, they may have overflowed (both far outside any table)
_SQ_MIN: Final = 1e-200
_SQ_MAX: Final = 1e300


def _gap_bounds(dx: float, dy: float) -> tuple[float, float]:
    """Two floats ``lo <= math.hypot(dx, dy) <= hi`` about 1e-12 apart (relatively), or two NaNs
    where that is not sure (a square out of ``_SQ_MIN`` .. ``_SQ_MAX``, a NaN or an infinity).

    The computed square ``dx * dx + dy * dy`` is within 2.3 units in the last place (u, 1.1e-16
    relatively) of the exact one; its square root ``r`` (``math.sqrt``, correctly rounded) within
    2.2u of the exact length, and ``math.hypot`` within 1 ulp (2u) of it (Python 3.10 and later),
    so ``hypot`` is within 4.3u of ``r``; ``r * (1 -+ 1e-12)``, rounded, lie outside that."""
    sq = dx * dx + dy * dy
    if _SQ_MIN <= sq <= _SQ_MAX:
        r = math.sqrt(sq)
        return r * (1.0 - _GAP_MARGIN), r * (1.0 + _GAP_MARGIN)
    return math.nan, math.nan


def gap_exceeds(dx: float, dy: float, r1: float, r2: float, limit: float) -> bool:
    """``math.hypot(dx, dy) - r1 - r2 > limit``, the same answer; ``math.hypot`` is called only
    where its bounds (``_gap_bounds``) fall on both sides. (Rounded subtraction is monotonic: the
    expression on ``lo`` is at most, and on ``hi`` at least, the expression on the length; any NaN
    makes both comparisons false, and the length is then measured.) The test of two footprints'
    circles: their centres ``dx, dy`` apart, radii ``r1, r2``."""
    if _NATIVE and not REFERENCE.on:
        return _gap_exceeds_filtered(dx, dy, r1, r2, limit)
    return _hypot(dx, dy) - r1 - r2 > limit


def _gap_exceeds_filtered(dx: float, dy: float, r1: float, r2: float, limit: float) -> bool:
    """``gap_exceeds``' compiled path (a function of its own: the tests run it from the sources)."""
    lo, hi = _gap_bounds(dx, dy)
    if lo - r1 - r2 > limit:
        return True
    if hi - r1 - r2 <= limit:
        return False
    return _hypot(dx, dy) - r1 - r2 > limit


def gap_below(dx: float, dy: float, r1: float, r2: float, limit: float) -> bool:
    """``math.hypot(dx, dy) - r1 - r2 < limit``, the same answer (as ``gap_exceeds``)."""
    if _NATIVE and not REFERENCE.on:
        return _gap_below_filtered(dx, dy, r1, r2, limit)
    return _hypot(dx, dy) - r1 - r2 < limit


def _gap_below_filtered(dx: float, dy: float, r1: float, r2: float, limit: float) -> bool:
    """``gap_below``'s compiled path."""
    lo, hi = _gap_bounds(dx, dy)
    if hi - r1 - r2 < limit:
        return True
    if lo - r1 - r2 >= limit:
        return False
    return _hypot(dx, dy) - r1 - r2 < limit


@dataclass(frozen=True, slots=True, init=False)
class Footprint:
    """A unit's rectangle on the table (its corners are computed once and kept)."""

    x: float
    y: float
    heading: float
    frontage: float
    depth: float
    _corners: Polygon = field(init=False, repr=False, compare=False, hash=False)
    _radius: float = field(init=False, repr=False, compare=False, hash=False)
    _inradius: float = field(init=False, repr=False, compare=False, hash=False)
    #: the hash, worked out at the first ``hash()`` (-1 until then: ``hash`` never answers -1)
    _hash: int = field(init=False, repr=False, compare=False, hash=False)

    def __init__(self, x: float, y: float, heading: float, frontage: float, depth: float) -> None:
        # Written out rather than generated by ``dataclass`` (the same fields, set in the same
        # order, the same corners): compiled (mypyc), the class is native and its fields are
        # stored directly, about 7x faster than the generated Python ``__init__``; plain Python
        # cannot assign to a frozen dataclass's fields, and sets them through ``object``.
        r = heading * DEG_TO_RAD  # heading_vector, inlined
        fx, fy = math.sin(r), math.cos(r)
        rx, ry = fy, -fx
        hd, hw = depth / 2.0, frontage / 2.0
        corners = (
            (x + fx * hd - rx * hw, y + fy * hd - ry * hw),
            (x + fx * hd + rx * hw, y + fy * hd + ry * hw),
            (x - fx * hd + rx * hw, y - fy * hd + ry * hw),
            (x - fx * hd - rx * hw, y - fy * hd - ry * hw),
        )
        radius = 0.5 * _hypot(frontage, depth)
        inradius = 0.5 * (frontage if frontage < depth else depth)
        if _NATIVE:
            self.x = x  # type: ignore[misc]
            self.y = y  # type: ignore[misc]
            self.heading = heading  # type: ignore[misc]
            self.frontage = frontage  # type: ignore[misc]
            self.depth = depth  # type: ignore[misc]
            self._corners = corners  # type: ignore[misc]
            self._radius = radius  # type: ignore[misc]
            self._inradius = inradius  # type: ignore[misc]
            self._hash = -1  # type: ignore[misc]
        else:
            setattr_ = object.__setattr__
            setattr_(self, "x", x)
            setattr_(self, "y", y)
            setattr_(self, "heading", heading)
            setattr_(self, "frontage", frontage)
            setattr_(self, "depth", depth)
            setattr_(self, "_corners", corners)
            setattr_(self, "_radius", radius)
            setattr_(self, "_inradius", inradius)
            setattr_(self, "_hash", -1)

    def __reduce__(self) -> tuple[type[Footprint], tuple[float, float, float, float, float]]:
        """Copied and pickled as a call of the constructor (which computes the corners again, the
        same floats): the compiled build's frozen class refuses the field-by-field state the
        dataclass would restore (``copy.deepcopy``, ``pickle``; shieldwall.compiled)."""
        return (Footprint, (self.x, self.y, self.heading, self.frontage, self.depth))

    def __eq__(self, other: object) -> bool:
        """The dataclass's comparison, written out (issue 16): the same fields, compared in the same
        order, and ``NotImplemented`` for another class. Generated by ``dataclass``, it is Python
        code even in the compiled build, called through a slot at every dictionary lookup that
        meets an equal footprint; written here it is compiled with the class."""
        if other.__class__ is not self.__class__:
            return NotImplemented
        o = other
        return (
            self.x == o.x and self.y == o.y and self.heading == o.heading
            and self.frontage == o.frontage and self.depth == o.depth
        )  # fmt: skip

    def __hash__(self) -> int:
        """The dataclass's hash, written out for the same reason as ``__eq__``: the hash of the
        tuple of the compared fields, the very number the generated one gives (the order a set of
        footprints is walked in does not change). About 3,300 instructions a call generated (a
        Python frame through a slot), a few hundred compiled; bryn-glas hashes about 4,000 a
        battle (the memos keyed by footprints). Kept once worked out (the class is frozen): a
        dictionary keyed by footprints asks it at every lookup."""
        h = self._hash
        if h == -1:
            h = hash((self.x, self.y, self.heading, self.frontage, self.depth))
            if _NATIVE:
                self._hash = h  # type: ignore[misc]
            else:
                object.__setattr__(self, "_hash", h)
        return h

    @property
    def radius(self) -> float:
        """Half the diagonal: the rectangle lies within this distance of its centre."""
        return self._radius

    @property
    def centre(self) -> Point:
        return (self.x, self.y)

    @property
    def forward(self) -> Point:
        return heading_vector(self.heading)

    @property
    def right(self) -> Point:
        fx, fy = heading_vector(self.heading)
        return (fy, -fx)

    def corners(self) -> Polygon:
        """Corners in order front-left, front-right, rear-right, rear-left (clockwise)."""
        return self._corners

    def edge(self, facing: str) -> tuple[Point, Point]:
        fl, fr, rr, rl = self.corners()
        if facing == "front":
            return (fl, fr)
        if facing == "right":
            return (fr, rr)
        if facing == "rear":
            return (rr, rl)
        if facing == "left":
            return (rl, fl)
        raise ValueError(f"unknown facing {facing!r}")

    def edge_centre(self, facing: str) -> Point:
        a, b = self.edge(facing)
        return ((a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0)

    @property
    def front_centre(self) -> Point:
        return self.edge_centre("front")

    def moved(self, dx: float, dy: float) -> Footprint:
        return Footprint(self.x + dx, self.y + dy, self.heading, self.frontage, self.depth)

    def turned(self, angle: float, pivot: str = "centre") -> Footprint:
        """Rotate by ``angle`` degrees clockwise on the centre or on the centre of the front edge."""
        new_heading = normalize_angle(self.heading + angle)
        if pivot == "centre":
            return Footprint(self.x, self.y, new_heading, self.frontage, self.depth)
        if pivot == "front":
            px, py = self.front_centre
            fx, fy = heading_vector(new_heading)
            hd = self.depth / 2.0
            return Footprint(px - fx * hd, py - fy * hd, new_heading, self.frontage, self.depth)
        raise ValueError(f"unknown pivot {pivot!r}")

    def facing_of(self, point: Point) -> str:
        """Which of this rectangle's facings a point outside it lies beyond.

        A point is beyond the front if it is ahead of the front edge's line and within the
        front's diagonals' wedge; ties go front, then rear, then flanks.
        """
        fx, fy = heading_vector(self.heading)
        rx, ry = fy, -fx
        dx, dy = point[0] - self.x, point[1] - self.y
        along = (dx * fx + dy * fy) / (self.depth / 2.0)
        across = (dx * rx + dy * ry) / (self.frontage / 2.0)
        if abs(along) >= abs(across):
            return "front" if along >= 0 else "rear"
        return "right" if across > 0 else "left"


# ---------------------------------------------------------------------------------------------
# Points, segments and polygons


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    if ll < EPS:
        return _hypot(p[0] - ax, p[1] - ay)
    t = ((p[0] - ax) * dx + (p[1] - ay) * dy) / ll
    t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
    return _hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy))


def _segment_gap(p: Point, a: Point, b: Point) -> tuple[float, float]:
    """The two numbers whose ``math.hypot`` is ``point_segment_distance(p, a, b)``: the same
    arithmetic, the length left to the caller."""
    ax, ay = a
    bx, by = b
    dx, dy = bx - ax, by - ay
    ll = dx * dx + dy * dy
    if ll < EPS:
        return p[0] - ax, p[1] - ay
    t = ((p[0] - ax) * dx + (p[1] - ay) * dy) / ll
    t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
    return p[0] - (ax + t * dx), p[1] - (ay + t * dy)


#: the gap below which two segments touch (``segments_intersect``, ``segment_distance``), and the
#: squares certainly below and above its square (the margins, 1e-7 relatively, are far above the
#: few units in the last place between a computed square and ``math.hypot``'s length squared)
_NEAR: Final = 1e-7
_NEAR_SQ_LO: Final = 0.9999999e-14
_NEAR_SQ_HI: Final = 1.0000001e-14
#: a squared gap more than this factor above the least is certainly a longer gap as ``math.hypot``
#: measures both (``polygons._least_gap_filtered`` gives the bound)
SQ_TIE: Final = 1.0 + 1e-12


def _near(ex: float, ey: float) -> bool:
    """``math.hypot(ex, ey) < _NEAR``, the same answer, measured only near the line (a NaN is
    measured; an overflowed square is an infinite or huge length either way)."""
    sq = ex * ex + ey * ey
    if sq > _NEAR_SQ_HI:
        return False
    if sq < _NEAR_SQ_LO:
        return True
    return _hypot(ex, ey) < _NEAR


def closest_point_on_segment(p: Point, a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    ll = dx * dx + dy * dy
    if ll < EPS:
        return a
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ll
    t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
    return (a[0] + t * dx, a[1] + t * dy)


def orientation(a: Point, b: Point, c: Point) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def segments_intersect(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether two closed segments share a point (touching counts)."""
    d1 = orientation(q1, q2, p1)
    d2 = orientation(q1, q2, p2)
    d3 = orientation(p1, p2, q1)
    d4 = orientation(p1, p2, q2)
    if ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and (
        (d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS)
    ):
        return True
    if _NATIVE and not REFERENCE.on:
        return _ends_near_filtered(p1, p2, q1, q2)
    return (
        point_segment_distance(p1, q1, q2) < 1e-7
        or point_segment_distance(p2, q1, q2) < 1e-7
        or point_segment_distance(q1, p1, p2) < 1e-7
        or point_segment_distance(q2, p1, p2) < 1e-7
    )


def segments_cross_properly(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether two segments cross at a single interior point (touching does not count)."""
    d1 = orientation(q1, q2, p1)
    d2 = orientation(q1, q2, p2)
    d3 = orientation(p1, p2, q1)
    d4 = orientation(p1, p2, q2)
    return ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and (
        (d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS)
    )


def _ends_near_filtered(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """The end-to-segment tests of ``segments_intersect`` (compiled), each measured only near
    1e-7 (``_near``): the same answer."""
    g1x, g1y = _segment_gap(p1, q1, q2)
    g2x, g2y = _segment_gap(p2, q1, q2)
    g3x, g3y = _segment_gap(q1, p1, p2)
    g4x, g4y = _segment_gap(q2, p1, p2)
    return _near(g1x, g1y) or _near(g2x, g2y) or _near(g3x, g3y) or _near(g4x, g4y)


def segment_distance(p1: Point, p2: Point, q1: Point, q2: Point) -> float:
    """Distance between two closed segments (0 when they intersect, as ``segments_intersect``)."""
    d1 = orientation(q1, q2, p1)
    d2 = orientation(q1, q2, p2)
    d3 = orientation(p1, p2, q1)
    d4 = orientation(p1, p2, q2)
    if ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and (
        (d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS)
    ):
        return 0.0
    if _NATIVE and not REFERENCE.on:
        return _segment_distance_filtered(p1, p2, q1, q2)
    # the four end-to-segment distances decide both touching and the distance (computed once)
    return _touching_or_least(
        point_segment_distance(p1, q1, q2),
        point_segment_distance(p2, q1, q2),
        point_segment_distance(q1, p1, p2),
        point_segment_distance(q2, p1, p2),
    )


def _touching_or_least(e1: float, e2: float, e3: float, e4: float) -> float:
    """0 when one of the four end-to-segment gaps is below 1e-7 (the segments touch), else the
    least of them: ``min(e1, e2, e3, e4)`` written out as ``min`` runs (the first, replaced by each
    strictly less; compiled, ``min`` of four is the builtin looked up by name and called with the
    four numbers boxed: issue 16)."""
    if e1 < 1e-7 or e2 < 1e-7 or e3 < 1e-7 or e4 < 1e-7:
        return 0.0
    m = e1
    if e2 < m:
        m = e2
    if e3 < m:
        m = e3
    if e4 < m:
        m = e4
    return m


def _segment_distance_filtered(p1: Point, p2: Point, q1: Point, q2: Point) -> float:
    """The rest of ``segment_distance`` (the segments do not cross), the same number, with
    ``math.hypot`` called only for the gaps that may be the least. When every squared gap is
    certainly above 1e-7 squared, none touches and the distance is the least gap: a gap whose
    square is more than ``SQ_TIE`` times the least square is certainly longer than that one, so
    only the others are measured (their least is the least of the four, as ``min`` gives it: the
    same value). Otherwise (a gap near or below 1e-7, or a NaN) all four are measured as there."""
    g1x, g1y = _segment_gap(p1, q1, q2)
    g2x, g2y = _segment_gap(p2, q1, q2)
    g3x, g3y = _segment_gap(q1, p1, p2)
    g4x, g4y = _segment_gap(q2, p1, p2)
    s1 = g1x * g1x + g1y * g1y
    s2 = g2x * g2x + g2y * g2y
    s3 = g3x * g3x + g3y * g3y
    s4 = g4x * g4x + g4y * g4y
    if s1 > _NEAR_SQ_HI and s2 > _NEAR_SQ_HI and s3 > _NEAR_SQ_HI and s4 > _NEAR_SQ_HI:
        least = s1
        if s2 < least:
            least = s2
        if s3 < least:
            least = s3
        if s4 < least:
            least = s4
        cut = least * SQ_TIE
        m = math.inf
        if s1 <= cut:
            m = _hypot(g1x, g1y)
        if s2 <= cut:
            d = _hypot(g2x, g2y)
            if d < m:
                m = d
        if s3 <= cut:
            d = _hypot(g3x, g3y)
            if d < m:
                m = d
        if s4 <= cut:
            d = _hypot(g4x, g4y)
            if d < m:
                m = d
        return m
    return _touching_or_least(_hypot(g1x, g1y), _hypot(g2x, g2y), _hypot(g3x, g3y), _hypot(g4x, g4y))
