"""Tabletop geometry, polygons (split from ``geometry.py``, whose conventions hold): edges,
containment, the separating-axis penetration and overlap of convex polygons, and the distance
between polygons and between footprints (with its memo).

Everything here is plain floats and tuples: these functions sit in the engine's hot paths.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Final, cast

from shieldwall.core.geometry import (
    CONTACT_TOL,
    EPS,
    SQ_TIE,
    Footprint,
    Point,
    Polygon,
    gap_below,
    gap_exceeds,
    point_segment_distance,
    segments_intersect,
)
from shieldwall.core.reference import REFERENCE


def _probe() -> None:
    """(compiled, a function has no ``__code__``: see ``_NATIVE``)"""


#: whether this module runs compiled (mypyc): the least gap is then found the filtered way
#: (``_least_gap_filtered``), which pays only there
_NATIVE: Final = not hasattr(_probe, "__code__")


def bounding_box(points: Polygon | Iterable[Point]) -> tuple[float, float, float, float]:
    """The least box holding the points, ``(min x, min y, max x, max y)``: the ``min`` and ``max`` of
    their coordinates to the bit (each bound moves only to a point strictly beyond it, as ``min`` and
    ``max`` keep the first of equals, to the sign of a zero). One pass, no lists made, no builtin
    called by name (issue 16: neighbourhood queries and terrain checks ask it at every decision)."""
    it = iter(points)
    first = next(it, None)
    if first is None:
        raise ValueError("bounding_box() of no points")
    x0 = x1 = first[0]
    y0 = y1 = first[1]
    for p in it:
        x, y = p[0], p[1]
        if x < x0:
            x0 = x
        if x > x1:
            x1 = x
        if y < y0:
            y0 = y
        if y > y1:
            y1 = y
    return (x0, y0, x1, y1)


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
    """The least of the point's distances to the line's segments: ``min`` over them, written out
    as ``min`` runs (the first, replaced by each strictly less; issue 16: compiled, a generator
    and the builtin called by name)."""
    n = len(line)
    if n < 2:
        raise ValueError("min() arg is an empty sequence")
    best = point_segment_distance(p, line[0], line[1])
    for i in range(1, n - 1):
        d = point_segment_distance(p, line[i], line[i + 1])
        if d < best:
            best = d
    return best


def projection_span(poly: Sequence[Point], ax: float, ay: float) -> tuple[float, float]:
    """The least and greatest projection of the polygon's points on the axis: ``min`` and ``max``
    of ``[x * ax + y * ay for x, y in poly]``, written out as they run (the first, replaced by each
    strictly beyond it; issue 16: compiled, a list and the builtins called by name, about 5,000
    instructions a call). The separating-axis tests below inline the same arithmetic."""
    if not poly:
        raise ValueError("min() arg is an empty sequence")
    x, y = poly[0]
    lo = hi = x * ax + y * ay
    for x, y in poly:
        v = x * ax + y * ay
        if v < lo:
            lo = v
        if v > hi:
            hi = v
    return lo, hi


def convex_penetration(a: Sequence[Point], b: Sequence[Point], stop: float = -math.inf) -> float:
    """Separating-axis test for convex polygons: the smallest overlap depth over all axes.

    Positive when they overlap, 0 when they touch, and minus the widest separating gap when apart.

    ``stop``: the caller only compares the result with thresholds at or above ``stop``, so the
    search ends as soon as the running minimum falls to ``stop`` or below (the value returned is
    then some overlap ``<= stop``, not necessarily the smallest). Above ``stop`` the value is exact.
    """
    if type(a) is tuple and type(b) is tuple:
        # (compiled: the same arithmetic on tuples read natively; see ``_convex_penetration_t``)
        return _convex_penetration_t(cast(Polygon, a), cast(Polygon, b), stop)
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
            # projections of both polygons on the axis (inlined ``projection_span``: same arithmetic)
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


def _convex_penetration_t(a: Polygon, b: Polygon, stop: float) -> float:
    """``convex_penetration`` of two tuples of points: the same body, typed so that the compiled
    build indexes and unpacks them natively (``Sequence`` is read through generic calls)."""
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
            # projections of both polygons on the axis (inlined ``projection_span``: same arithmetic)
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
_DIST_MEMO_MAX: Final = 20000


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
    if type(a) is tuple and type(b) is tuple:
        # (compiled: the same arithmetic on tuples read natively; see ``_convex_penetration_t``)
        return _polygon_distance_t(cast(Polygon, a), cast(Polygon, b))
    if convex_penetration(a, b, 0.0) > 0:
        return 0.0
    return _least_gap(a, b)


def _least_gap(a: Sequence[Point], b: Sequence[Point]) -> float:
    """The least vertex-to-edge gap of two convex polygons that do not overlap (0 below 1e-12),
    every gap measured with ``math.hypot`` (also the reference of ``_polygon_distance_t``)."""
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


#: ``_least_gap_filtered`` takes the exact length (``math.hypot``) of a vertex-to-edge gap only
#: when its squared length (``dx * dx + dy * dy``) is within ``SQ_TIE`` (the core's factor) of the
#: least squared length seen before it, or below ``_TINY_SQ`` (see there)
_TINY_SQ: Final = 1e-200


def _polygon_distance_t(a: Polygon, b: Polygon) -> float:
    """``_polygon_distance`` of two tuples of points: the same body, typed (``_convex_penetration_t``).
    Compiled, the least gap is found by ``_least_gap_filtered``; in plain Python (where its extra
    arithmetic costs what the calls of ``math.hypot`` it saves cost) and on the reference path, by
    ``_least_gap``, which measures every gap: the same length either way, to the bit."""
    if _convex_penetration_t(a, b, 0.0) > 0:
        return 0.0
    if REFERENCE.on or not _NATIVE:
        return _least_gap(a, b)
    return _least_gap_filtered(a, b)


def _least_gap_filtered(a: Polygon, b: Polygon) -> float:
    """``_least_gap`` with the gaps' lengths taken only where the least may be.

    Of the 32 vertex-to-edge gaps of two rectangles only the shortest counts. Its squared length,
    as computed, is within a few units in the last place of the true square, and ``math.hypot``
    is within one unit in the last place of the true length, so a gap whose squared length is more
    than ``SQ_TIE`` times that of an earlier gap is certainly longer than that gap as ``hypot``
    measures both: it cannot be the least and ``hypot`` is not called for it. Every other gap (the
    shortest among them) is measured as before: the same least length, to the bit. Below
    ``_TINY_SQ`` (squares that may have lost their relative precision) every gap is measured; such a
    gap is far below the 1e-12 at which the distance is 0 anyway.
    """
    best = math.inf
    least = math.inf  # the least squared length so far
    hypot = math.hypot
    for poly, other in ((a, b), (b, a)):
        n = len(other)
        for i in range(n):
            ax, ay = other[i]
            bx, by = other[(i + 1) % n]
            dx, dy = bx - ax, by - ay
            ll = dx * dx + dy * dy
            degenerate = ll < EPS  # (an edge of no length: the gap to its first end, as t = 0 gives)
            for px, py in poly:
                if degenerate:
                    t = 0.0
                else:
                    t = ((px - ax) * dx + (py - ay) * dy) / ll
                    t = 0.0 if t < 0.0 else 1.0 if t > 1.0 else t
                ex, ey = px - (ax + t * dx), py - (ay + t * dy)
                sq = ex * ex + ey * ey
                if sq <= least * SQ_TIE or sq < _TINY_SQ:
                    d = hypot(ex, ey)
                    if d < best:
                        best = d
                if sq < least:
                    least = sq
    return best if best > 1e-12 else 0.0


#: Memo of ``footprint_distance``, keyed by the two footprints (equal footprints have the same
#: corners): a footprint keeps its hash and compares five numbers, where a key of two corner
#: tuples (``_DIST_MEMO``) hashes and compares sixteen floats as objects, about 4,000
#: instructions a lookup (issue 16, docs/performance.md "Lengths measured only where they are
#: close"). Bounded.
_FP_DIST_MEMO: dict[tuple[Footprint, Footprint], float] = {}


def footprint_distance(a: Footprint, b: Footprint) -> float:
    """``polygon_distance`` of two footprints (their corners are already computed): the same
    number, kept by the footprints (not on the reference path)."""
    if REFERENCE.on:
        return _polygon_distance(a._corners, b._corners)
    key = (a, b)
    got = _FP_DIST_MEMO.get(key)
    if got is None:
        if len(_FP_DIST_MEMO) >= _DIST_MEMO_MAX:
            _FP_DIST_MEMO.clear()
        got = _FP_DIST_MEMO[key] = _polygon_distance(a._corners, b._corners)
    return got


def footprints_within(a: Footprint, b: Footprint, limit: float) -> bool:
    """Whether two footprints are within ``limit`` of each other (closest points)."""
    dx, dy = a.x - b.x, a.y - b.y
    # the centres' gap ``dc = math.hypot(dx, dy)`` less both radii beyond the limit (``gap_exceeds``:
    # the same answer, the length measured only where it is close)
    if gap_exceeds(dx, dy, a._radius, b._radius, limit):
        return False
    # Each rectangle holds the disc of its inradius about its centre, so the closest points are
    # at most ``dc - ia - ib`` apart (0 if that is negative): well inside the limit, no need to
    # measure. (The slack covers rounding; near the limit the exact distance decides.)
    if limit >= 0.0 and gap_below(dx, dy, a._inradius, b._inradius, limit - 1e-6):
        return True
    return footprint_distance(a, b) <= limit
