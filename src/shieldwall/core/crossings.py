"""Tabletop geometry, crossings and contact (split from ``geometry.py``, whose conventions hold):
a segment through a convex polygon or a polyline, clipping by a half-plane, the front arc, the
line of an edge, sweeps (how far a polygon moves before it meets another), swept rectangles, and
which side of a footprint another touches and along what length.

Everything here is plain floats and tuples: these functions sit in the engine's hot paths.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from shieldwall.core.geometry import (
    CONTACT_TOL,
    DEG_TO_RAD,
    EPS,
    FACINGS,
    Footprint,
    Point,
    Polygon,
    closest_point_on_segment,
    dist,
    orientation,
    point_segment_distance,
    segment_distance,
    segments_intersect,
)
from shieldwall.core.polygons import convex_penetration, point_in_polygon, polygon_edges
from shieldwall.core.reference import REFERENCE

#: the math functions called here, bound once (compiled: a static read, not a lookup per call)
_hypot: Final = math.hypot


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
        ln = _hypot(ex, ey)
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
    return t1 - t0 > 1e-6 or (t0 <= t1 and (t1 - t0) * _hypot(dx, dy) > 1e-6)


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
        d1 = orientation(a, b, p)
        d2 = orientation(a, b, q)
        d3 = orientation(p, q, a)
        d4 = orientation(p, q, b)
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
            d1 = orientation(a, b, p)
            d2 = orientation(a, b, q)
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
FRONT_ARC_HALF_ANGLE: Final = 45.0


def in_front_arc(fp: Footprint, poly: Sequence[Point], half_angle: float = FRONT_ARC_HALF_ANGLE) -> bool:
    """Whether any part of ``poly`` lies within ``half_angle`` degrees of ``fp``'s front.

    The arc is the region ahead of the front edge bounded by lines from the two front corners
    splayed ``half_angle`` degrees outward from straight ahead.
    """
    fx, fy = fp.forward
    rx, ry = fy, -fx
    cx, cy = fp.front_centre
    k = math.tan(half_angle * DEG_TO_RAD)
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
    ln = _hypot(nx, ny)
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
    ln = _hypot(dx, dy)
    if ln < EPS:
        dx, dy, ln = 0.0, 1.0, 1.0
    ux, uy = dx / ln, dy / ln
    nx, ny = -uy * width / 2.0, ux * width / 2.0
    sx, sy = a[0] - ux * extend, a[1] - uy * extend
    ex, ey = b[0] + ux * extend, b[1] + uy * extend
    return ((sx + nx, sy + ny), (ex + nx, ey + ny), (ex - nx, ey - ny), (sx - nx, sy - ny))


def path_length(points: Sequence[Point]) -> float:
    return sum(dist(points[i], points[i + 1]) for i in range(len(points) - 1))


def _least_segment_distance(a: Point, b: Point, edges: list[tuple[Point, Point]]) -> float:
    """``min([segment_distance(a, b, p, q) for p, q in edges])``, written out as ``min`` runs (the
    first, replaced by each strictly less; no list, no call of the builtin by name: issue 16)."""
    if not edges:
        raise ValueError("min() arg is an empty sequence")
    best = segment_distance(a, b, edges[0][0], edges[0][1])
    for i in range(1, len(edges)):
        p, q = edges[i]
        d = segment_distance(a, b, p, q)
        if d < best:
            best = d
    return best


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
        d = _least_segment_distance(a, b, edges)
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
    ln = _hypot(ux, uy)
    ux, uy = ux / ln, uy / ln
    # are they parallel?
    vx, vy = q2[0] - q1[0], q2[1] - q1[1]
    lv = _hypot(vx, vy)
    if abs(ux * vy - uy * vx) / lv > 0.02:
        return 0.0
    s1 = (q1[0] - p1[0]) * ux + (q1[1] - p1[1]) * uy
    s2 = (q2[0] - p1[0]) * ux + (q2[1] - p1[1]) * uy
    lo, hi = min(s1, s2), max(s1, s2)
    return max(0.0, min(ln, hi) - max(0.0, lo))
