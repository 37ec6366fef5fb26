"""Tabletop geometry in inches (or paces): unit footprints, edges, arcs, contact and sweeps.

Conventions: x runs east along the table, y north away from the south edge. A heading is in
degrees clockwise from north (0 faces +y, 90 faces +x). A unit is a rectangle: centre, heading,
frontage (width across its front) and depth. Its edges are named ``front``, ``right``, ``rear``,
``left``; its corners ``fl``, ``fr``, ``rr``, ``rl``.

Everything here is plain floats and tuples: these functions sit in the engine's hot paths.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from shieldwall.core.reference import REFERENCE

Point = tuple[float, float]
Polygon = tuple[Point, ...]

EPS = 1e-9
#: Distances at or below this count as touching (contact) rather than a gap.
CONTACT_TOL = 0.02

FACINGS = ("front", "right", "rear", "left")


def heading_vector(heading: float) -> Point:
    r = math.radians(heading)
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
    return math.degrees(math.atan2(to[0] - frm[0], to[1] - frm[1]))


def dist(a: Point, b: Point) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])


@dataclass(frozen=True, slots=True)
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

    def __post_init__(self) -> None:
        r = math.radians(self.heading)  # heading_vector, inlined
        fx, fy = math.sin(r), math.cos(r)
        rx, ry = fy, -fx
        depth, frontage = self.depth, self.frontage
        hd, hw = depth / 2.0, frontage / 2.0
        x, y = self.x, self.y
        setattr_ = object.__setattr__
        setattr_(
            self,
            "_corners",
            (
                (x + fx * hd - rx * hw, y + fy * hd - ry * hw),
                (x + fx * hd + rx * hw, y + fy * hd + ry * hw),
                (x - fx * hd + rx * hw, y - fy * hd + ry * hw),
                (x - fx * hd - rx * hw, y - fy * hd - ry * hw),
            ),
        )
        setattr_(self, "_radius", 0.5 * math.hypot(frontage, depth))
        setattr_(self, "_inradius", 0.5 * (frontage if frontage < depth else depth))

    def __reduce__(self) -> tuple[type[Footprint], tuple[float, float, float, float, float]]:
        """Copied and pickled as a call of the constructor (which computes the corners again, the
        same floats): the compiled build's frozen class refuses the field-by-field state the
        dataclass would restore (``copy.deepcopy``, ``pickle``; shieldwall.compiled)."""
        return (Footprint, (self.x, self.y, self.heading, self.frontage, self.depth))

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
        return math.hypot(p[0] - ax, p[1] - ay)
    t = ((p[0] - ax) * dx + (p[1] - ay) * dy) / ll
    t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
    return math.hypot(p[0] - (ax + t * dx), p[1] - (ay + t * dy))


def closest_point_on_segment(p: Point, a: Point, b: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    ll = dx * dx + dy * dy
    if ll < EPS:
        return a
    t = ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ll
    t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
    return (a[0] + t * dx, a[1] + t * dy)


def _orient(a: Point, b: Point, c: Point) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def segments_intersect(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether two closed segments share a point (touching counts)."""
    d1 = _orient(q1, q2, p1)
    d2 = _orient(q1, q2, p2)
    d3 = _orient(p1, p2, q1)
    d4 = _orient(p1, p2, q2)
    if ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and (
        (d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS)
    ):
        return True
    return (
        point_segment_distance(p1, q1, q2) < 1e-7
        or point_segment_distance(p2, q1, q2) < 1e-7
        or point_segment_distance(q1, p1, p2) < 1e-7
        or point_segment_distance(q2, p1, p2) < 1e-7
    )


def segments_cross_properly(p1: Point, p2: Point, q1: Point, q2: Point) -> bool:
    """Whether two segments cross at a single interior point (touching does not count)."""
    d1 = _orient(q1, q2, p1)
    d2 = _orient(q1, q2, p2)
    d3 = _orient(p1, p2, q1)
    d4 = _orient(p1, p2, q2)
    return ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and (
        (d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS)
    )


def segment_distance(p1: Point, p2: Point, q1: Point, q2: Point) -> float:
    """Distance between two closed segments (0 when they intersect, as ``segments_intersect``)."""
    d1 = _orient(q1, q2, p1)
    d2 = _orient(q1, q2, p2)
    d3 = _orient(p1, p2, q1)
    d4 = _orient(p1, p2, q2)
    if ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and (
        (d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS)
    ):
        return 0.0
    # the four end-to-segment distances decide both touching and the distance (computed once)
    e1 = point_segment_distance(p1, q1, q2)
    e2 = point_segment_distance(p2, q1, q2)
    e3 = point_segment_distance(q1, p1, p2)
    e4 = point_segment_distance(q2, p1, p2)
    if e1 < 1e-7 or e2 < 1e-7 or e3 < 1e-7 or e4 < 1e-7:
        return 0.0
    return min(e1, e2, e3, e4)


def polygon_edges(poly: Sequence[Point]) -> list[tuple[Point, Point]]:
    n = len(poly)
    return [(poly[i], poly[(i + 1) % n]) for i in range(n)]


def point_in_polygon(p: Point, poly: Sequence[Point]) -> bool:
    """Even-odd test; works for any simple polygon (terrain may be concave)."""
    x, y = p
    inside = False
    n = len(poly)
    j = n - 1
    for i in range(n):
        xi, yi = poly[i]
        xj, yj = poly[j]
        if (yi > y) != (yj > y):
            xc = xi + (y - yi) * (xj - xi) / (yj - yi)
            if x < xc:
                inside = not inside
        j = i
    return inside


def rect_meets_polygon(rect: Sequence[Point], poly: Sequence[Point]) -> bool:
    """Whether a convex rectangle and a (possibly concave) polygon share interior area."""
    if any(point_in_polygon(p, poly) for p in rect):
        return True
    if any(point_in_polygon(p, rect) for p in poly):
        return True
    for a, b in polygon_edges(rect):
        for c, d in polygon_edges(poly):
            if segments_intersect(a, b, c, d):
                return True
    return False


def rect_inside_polygon(rect: Sequence[Point], poly: Sequence[Point]) -> bool:
    """Whether every corner of a rectangle lies inside a (possibly concave) polygon."""
    return all(point_in_polygon(p, poly) for p in rect)


def polyline_distance_to_point(p: Point, line: Sequence[Point]) -> float:
    return min(point_segment_distance(p, line[i], line[i + 1]) for i in range(len(line) - 1))


def _project(poly: Sequence[Point], ax: float, ay: float) -> tuple[float, float]:
    lo = hi = poly[0][0] * ax + poly[0][1] * ay
    for x, y in poly[1:]:
        v = x * ax + y * ay
        if v < lo:
            lo = v
        elif v > hi:
            hi = v
    return lo, hi


def convex_penetration(a: Sequence[Point], b: Sequence[Point], stop: float = -math.inf) -> float:
    """Separating-axis test for convex polygons: the smallest overlap depth over all axes.

    Positive when they overlap, 0 when they touch, and minus the widest separating gap when apart.

    ``stop``: the caller only compares the result with thresholds at or above ``stop``, so the
    search ends as soon as the running minimum falls to ``stop`` or below (the value returned is
    then some overlap ``<= stop``, not necessarily the smallest). Above ``stop`` the value is exact.
    """
    best = math.inf
    hypot = math.hypot
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            x1, y1 = poly[i]
            x2, y2 = poly[(i + 1) % n]
            ex, ey = x2 - x1, y2 - y1
            ln = hypot(ex, ey)
            if ln < EPS:
                continue
            ax, ay = -ey / ln, ex / ln
            # projections of both polygons on the axis (inlined ``_project``: same arithmetic)
            alo = ahi = a[0][0] * ax + a[0][1] * ay
            for x, y in a:
                v = x * ax + y * ay
                if v < alo:
                    alo = v
                elif v > ahi:
                    ahi = v
            blo = bhi = b[0][0] * ax + b[0][1] * ay
            for x, y in b:
                v = x * ax + y * ay
                if v < blo:
                    blo = v
                elif v > bhi:
                    bhi = v
            overlap = (ahi if ahi <= bhi else bhi) - (alo if alo >= blo else blo)
            # No early exit on touching: an axis on which they merely touch (0), or a small gap,
            # does not mean they touch; another axis may separate them by more. Minimum over all
            # axes -- unless the caller's threshold is already settled (``stop``).
            if overlap < best:
                best = overlap
                if best <= stop:
                    return best
    return best


def convex_overlap(a: Sequence[Point], b: Sequence[Point], tol: float = CONTACT_TOL) -> bool:
    """True when two convex polygons overlap by more than ``tol`` (touching is not overlap)."""
    return convex_penetration(a, b, tol) > tol


#: Memo of ``polygon_distance`` for polygons given as tuples (footprint corners): the same pairs
#: are measured again and again by the menus and the bots while units stand still. Bounded.
_DIST_MEMO: dict[tuple[Polygon, Polygon], float] = {}
_DIST_MEMO_MAX = 20000


def polygon_distance(a: Sequence[Point], b: Sequence[Point]) -> float:
    """Distance between the closest points of two convex polygons (0 when they overlap).

    For separate convex polygons the closest pair always includes a vertex of one of them, so
    vertex-to-edge distances suffice.
    """
    if type(a) is tuple and type(b) is tuple and not REFERENCE.on:
        key = (a, b)
        got = _DIST_MEMO.get(key)
        if got is None:
            if len(_DIST_MEMO) >= _DIST_MEMO_MAX:
                _DIST_MEMO.clear()
            got = _DIST_MEMO[key] = _polygon_distance(a, b)
        return got
    return _polygon_distance(a, b)


def _polygon_distance(a: Sequence[Point], b: Sequence[Point]) -> float:
    if convex_penetration(a, b, 0.0) > 0:
        return 0.0
    best = math.inf
    hypot = math.hypot
    for poly, other in ((a, b), (b, a)):
        n = len(other)
        for i in range(n):
            ax, ay = other[i]
            bx, by = other[(i + 1) % n]
            dx, dy = bx - ax, by - ay
            ll = dx * dx + dy * dy
            if ll < EPS:
                for px, py in poly:
                    d = hypot(px - ax, py - ay)
                    if d < best:
                        best = d
                continue
            for px, py in poly:
                t = ((px - ax) * dx + (py - ay) * dy) / ll
                t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
                d = hypot(px - (ax + t * dx), py - (ay + t * dy))
                if d < best:
                    best = d
    return best if best > 1e-12 else 0.0


def footprint_distance(a: Footprint, b: Footprint) -> float:
    """``polygon_distance`` of two footprints (their corners are already computed)."""
    return polygon_distance(a._corners, b._corners)


def footprints_within(a: Footprint, b: Footprint, limit: float) -> bool:
    """Whether two footprints are within ``limit`` of each other (closest points)."""
    dc = math.hypot(a.x - b.x, a.y - b.y)
    if dc - a._radius - b._radius > limit:
        return False
    # Each rectangle holds the disc of its inradius about its centre, so the closest points are
    # at most ``dc - ia - ib`` apart (0 if that is negative): well inside the limit, no need to
    # measure. (The slack covers rounding; near the limit the exact distance decides.)
    if limit >= 0.0 and dc - a._inradius - b._inradius < limit - 1e-6:
        return True
    return polygon_distance(a._corners, b._corners) <= limit


def segment_intersects_convex(p: Point, q: Point, poly: Sequence[Point], shrink: float = 0.0) -> bool:
    """Whether segment pq passes through the interior of a convex polygon (deeper than ``shrink``)."""
    # Clip the segment against each edge's half-plane (Cyrus-Beck).
    t0, t1 = 0.0, 1.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = len(poly)
    # orientation of polygon
    area = 0.0
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        area += x1 * y2 - x2 * y1
    sign = 1.0 if area > 0 else -1.0
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        ex, ey = x2 - x1, y2 - y1
        ln = math.hypot(ex, ey)
        if ln < EPS:
            continue
        # inward normal
        nx, ny = -ey * sign / ln, ex * sign / ln
        # inside if (pt - v1) . n >= shrink
        num = (p[0] - x1) * nx + (p[1] - y1) * ny - shrink
        den = dx * nx + dy * ny
        if abs(den) < EPS:
            # parallel to this edge: on or outside its line never reaches the interior
            if num < EPS:
                return False
            continue
        t = -num / den
        if den > 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1 + EPS:
            return False
    return t1 - t0 > 1e-6 or (t0 <= t1 and (t1 - t0) * math.hypot(dx, dy) > 1e-6)


def segment_polygon_crossings(p: Point, q: Point, poly: Sequence[Point]) -> int:
    """How many times segment pq crosses the boundary of a (possibly concave) polygon.

    A crossing is a change between outside and inside along pq, so passing exactly through a
    vertex counts once, while grazing a corner or running along an edge counts nothing.
    """
    dx, dy = q[0] - p[0], q[1] - p[1]
    ll = dx * dx + dy * dy
    if ll < EPS:
        return 0
    edges = polygon_edges(poly)
    proper = 0
    cuts = [0.0, 1.0]
    touches = False
    for a, b in edges:
        d1 = _orient(a, b, p)
        d2 = _orient(a, b, q)
        d3 = _orient(p, q, a)
        d4 = _orient(p, q, b)
        if (d1 > EPS and d2 > EPS) or (d1 < -EPS and d2 < -EPS):
            continue
        if (d3 > EPS and d4 > EPS) or (d3 < -EPS and d4 < -EPS):
            continue
        if ((d1 > EPS and d2 < -EPS) or (d1 < -EPS and d2 > EPS)) and (
            (d3 > EPS and d4 < -EPS) or (d3 < -EPS and d4 > EPS)
        ):
            proper += 1
            cuts.append(d1 / (d1 - d2))
            continue
        if not segments_intersect(p, q, a, b):
            continue
        # Touching at an end, a vertex or along a collinear stretch: cut pq there too.
        touches = True
        if abs(d1 - d2) > EPS:
            cuts.append(d1 / (d1 - d2))
        for v in (a, b):
            if point_segment_distance(v, p, q) < 1e-7:
                cuts.append(((v[0] - p[0]) * dx + (v[1] - p[1]) * dy) / ll)
    if not touches:
        return proper
    # Between consecutive cuts pq is wholly inside, outside or on the boundary (counted outside).
    cuts = sorted(min(1.0, max(0.0, t)) for t in cuts)
    states: list[bool] = []
    for t0, t1 in zip(cuts, cuts[1:], strict=False):
        if t1 - t0 < 1e-12:
            continue
        m = (p[0] + (t0 + t1) / 2.0 * dx, p[1] + (t0 + t1) / 2.0 * dy)
        on_edge = any(point_segment_distance(m, a, b) < 1e-7 for a, b in edges)
        states.append(point_in_polygon(m, poly) and not on_edge)
    return sum(1 for s0, s1 in zip(states, states[1:], strict=False) if s0 != s1)


def segment_intersects_polyline(p: Point, q: Point, line: Sequence[Point]) -> list[Point]:
    """The points where segment pq crosses a polyline."""
    out: list[Point] = []
    for i in range(len(line) - 1):
        a, b = line[i], line[i + 1]
        if segments_intersect(p, q, a, b):
            d1 = _orient(a, b, p)
            d2 = _orient(a, b, q)
            if abs(d1 - d2) < EPS:
                out.append(closest_point_on_segment(p, a, b))
            else:
                t = d1 / (d1 - d2)
                out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def clip_halfplane(poly: Sequence[Point], nx: float, ny: float, c: float) -> list[Point]:
    """Keep the part of a polygon where ``nx*x + ny*y <= c`` (Sutherland-Hodgman, one plane)."""
    out: list[Point] = []
    n = len(poly)
    for i in range(n):
        cur = poly[i]
        prv = poly[i - 1]
        cin = nx * cur[0] + ny * cur[1] - c <= EPS
        pin = nx * prv[0] + ny * prv[1] - c <= EPS
        if cin:
            if not pin:
                out.append(_cut(prv, cur, nx, ny, c))
            out.append(cur)
        elif pin:
            out.append(_cut(prv, cur, nx, ny, c))
    return out


def _cut(a: Point, b: Point, nx: float, ny: float, c: float) -> Point:
    fa = nx * a[0] + ny * a[1] - c
    fb = nx * b[0] + ny * b[1] - c
    t = fa / (fa - fb)
    return (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))


#: the half angle of a front arc, in degrees, when a rule system gives no other
FRONT_ARC_HALF_ANGLE = 45.0


def in_front_arc(fp: Footprint, poly: Sequence[Point], half_angle: float = FRONT_ARC_HALF_ANGLE) -> bool:
    """Whether any part of ``poly`` lies within ``half_angle`` degrees of ``fp``'s front.

    The arc is the region ahead of the front edge bounded by lines from the two front corners
    splayed ``half_angle`` degrees outward from straight ahead.
    """
    fx, fy = fp.forward
    rx, ry = fy, -fx
    cx, cy = fp.front_centre
    k = math.tan(math.radians(half_angle))
    hw = fp.frontage / 2.0
    # ahead: (p - c).f >= 0  ->  -f.p <= -f.c
    ax, ay, ac = -fx, -fy, -(fx * cx + fy * cy)
    # lateral: (p-c).r - k (p-c).f <= hw
    lx, ly = rx - k * fx, ry - k * fy
    lc = hw + lx * cx + ly * cy
    mx, my = -rx - k * fx, -ry - k * fy
    mc = hw + mx * cx + my * cy
    if not REFERENCE.on:
        # a vertex inside all three planes (the very test ``clip_halfplane`` makes) is kept by
        # every clip below, so the clipped polygon is not empty: no need to clip
        for x, y in poly:
            if ax * x + ay * y - ac <= EPS and lx * x + ly * y - lc <= EPS and mx * x + my * y - mc <= EPS:
                return True
    pts: list[Point] = list(poly)
    pts = clip_halfplane(pts, ax, ay, ac)
    if not pts:
        return False
    pts = clip_halfplane(pts, lx, ly, lc)
    if not pts:
        return False
    pts = clip_halfplane(pts, mx, my, mc)
    return len(pts) > 0


def beyond_edge_line(fp: Footprint, facing: str, poly: Sequence[Point], tol: float = 1e-6) -> bool:
    """Whether all of ``poly`` lies outside the line drawn along ``fp``'s ``facing`` edge."""
    a, b = fp.edge(facing)
    cx, cy = fp.centre
    # outward normal of the edge
    ex, ey = b[0] - a[0], b[1] - a[1]
    nx, ny = -ey, ex
    if (cx - a[0]) * nx + (cy - a[1]) * ny > 0:
        nx, ny = -nx, -ny
    ln = math.hypot(nx, ny)
    nx, ny = nx / ln, ny / ln
    return all((p[0] - a[0]) * nx + (p[1] - a[1]) * ny >= -tol for p in poly)


def sweep_distance(moving: Sequence[Point], direction: Point, obstacle: Sequence[Point]) -> float:
    """How far ``moving`` can translate along unit vector ``direction`` before touching ``obstacle``.

    Both polygons convex. ``math.inf`` when the sweep never touches; 0 when already touching or
    overlapping.
    """
    if convex_penetration(moving, obstacle, -1e-9) > -1e-9:
        return 0.0
    return sweep_distance_apart(moving, direction, obstacle)


def sweep_distance_apart(moving: Sequence[Point], direction: Point, obstacle: Sequence[Point]) -> float:
    """``sweep_distance`` for polygons the caller knows to be apart
    (``convex_penetration(moving, obstacle) <= -1e-9``)."""
    dx, dy = direction
    best = math.inf
    for pts, edges, sgn in ((moving, polygon_edges(obstacle), 1.0), (obstacle, polygon_edges(moving), -1.0)):
        rdx, rdy = dx * sgn, dy * sgn
        for px, py in pts:
            for (ax, ay), (bx, by) in edges:
                ex, ey = bx - ax, by - ay
                den = rdx * ey - rdy * ex
                if abs(den) < EPS:
                    continue
                t = ((ax - px) * ey - (ay - py) * ex) / den
                u = ((ax - px) * rdy - (ay - py) * rdx) / den
                if t >= -1e-9 and -1e-9 <= u <= 1 + 1e-9 and t < best:
                    best = max(t, 0.0)
    return best


def swept_rectangle(a: Point, b: Point, width: float, extend: float) -> Polygon:
    """The rectangle covered by a body ``width`` wide moving from ``a`` to ``b`` (with ``extend``
    added at both ends for the body's own length)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    ln = math.hypot(dx, dy)
    if ln < EPS:
        dx, dy, ln = 0.0, 1.0, 1.0
    ux, uy = dx / ln, dy / ln
    nx, ny = -uy * width / 2.0, ux * width / 2.0
    sx, sy = a[0] - ux * extend, a[1] - uy * extend
    ex, ey = b[0] + ux * extend, b[1] + uy * extend
    return ((sx + nx, sy + ny), (ex + nx, ey + ny), (ex - nx, ey - ny), (sx - nx, sy - ny))


def path_length(points: Sequence[Point]) -> float:
    return sum(dist(points[i], points[i + 1]) for i in range(len(points) - 1))


def contact_facing(target: Footprint, other: Sequence[Point], tol: float = CONTACT_TOL) -> str | None:
    """Which facing of ``target`` the polygon ``other`` touches (``None`` if not in contact).

    Judged by the nearest part of ``other`` to ``target``'s edges: the edge with the smallest
    distance, ties broken by the facing of ``other``'s centroid.
    """
    best_f: str | None = None
    best_d = math.inf
    n = len(other)
    ocx = sum(p[0] for p in other) / n
    ocy = sum(p[1] for p in other) / n
    edges = polygon_edges(other)
    for f in FACINGS:
        a, b = target.edge(f)
        d = min([segment_distance(a, b, p, q) for p, q in edges])
        if d < best_d - 1e-6:
            best_d, best_f = d, f
        elif abs(d - best_d) <= 1e-6 and best_f is not None:
            # tie (a corner touch): prefer the facing the other unit's centre lies beyond
            cf = target.facing_of((ocx, ocy))
            if cf in (f, best_f):
                best_f = cf
    if best_d > tol:
        return None
    return best_f


def contact_length(a: Footprint, fa: str, b: Footprint, fb: str, tol: float = CONTACT_TOL) -> float:
    """Length of edge-to-edge overlap between edge ``fa`` of ``a`` and edge ``fb`` of ``b``."""
    p1, p2 = a.edge(fa)
    q1, q2 = b.edge(fb)
    if segment_distance(p1, p2, q1, q2) > tol:
        return 0.0
    ux, uy = p2[0] - p1[0], p2[1] - p1[1]
    ln = math.hypot(ux, uy)
    ux, uy = ux / ln, uy / ln
    # are they parallel?
    vx, vy = q2[0] - q1[0], q2[1] - q1[1]
    lv = math.hypot(vx, vy)
    if abs(ux * vy - uy * vx) / lv > 0.02:
        return 0.0
    s1 = (q1[0] - p1[0]) * ux + (q1[1] - p1[1]) * uy
    s2 = (q2[0] - p1[0]) * ux + (q2[1] - p1[1]) * uy
    lo, hi = min(s1, s2), max(s1, s2)
    return max(0.0, min(ln, hi) - max(0.0, lo))
