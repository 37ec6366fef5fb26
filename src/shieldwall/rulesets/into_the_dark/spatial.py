"""Where into-the-dark units touch, see, reach and stand (no state changes here).

* contacts: edge-to-edge contact between units and which figures of each are in it ("Melee": a
  figure must be facing and its base in contact with the enemy, or in the second rank directly
  behind such a figure; "NO extra overlapping figures are counted");
* sight and range for missile fire ("Target Eligibilities", "Missile Fire");
* the terrain under a footprint ("Terrain") and zones of control ("Zone of Control").
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from shieldwall.core.crossings import clip_halfplane, segment_intersects_convex
from shieldwall.core.geometry import (
    DEG_TO_RAD,
    Footprint,
    Point,
    Polygon,
    dist,
    point_segment_distance,
    segment_distance,
)
from shieldwall.core.polygons import (
    convex_penetration,
    footprint_distance,
    footprints_within,
    point_in_polygon,
    polygon_edges,
    polyline_distance_to_point,
    rect_inside_polygon,
    rect_meets_polygon,
)
from shieldwall.core.reference import REFERENCE
from shieldwall.core.terrain import Crossing, Feature, TerrainMap

from .model import Unit
from .profiles import TerrainKind, terrain_table

#: the math functions called here, bound once (compiled: a static read, not a lookup per call)
_hypot: Final = math.hypot

#: Edges closer than this (inches) and parallel within PARALLEL_DEG are flush (in contact).
FLUSH_TOL: Final = 0.05
PARALLEL_DEG: Final = 1.5
#: A figure is in contact when at least this share of its base width is (docs/rulings).
FIGURE_SHARE: Final = 0.5


# --- contact -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Touch:
    """Flush contact between ``unit``'s edge ``mine`` and ``other``'s edge ``theirs``; ``a0..a1`` is
    the stretch of my edge in contact (inches from the edge's first corner), ``b0..b1`` of theirs."""

    other: str
    mine: str
    theirs: str
    a0: float
    a1: float
    b0: float
    b1: float

    @property
    def length(self) -> float:
        return self.a1 - self.a0


def _edge_frame(fp: Footprint, edge: str) -> tuple[Point, Point, float]:
    a, b = fp.edge(edge)
    return a, b, dist(a, b)


def flush(fa: Footprint, ea: str, fb: Footprint, eb: str) -> tuple[float, float, float, float] | None:
    """The stretch along which edge ``ea`` of ``fa`` lies flush against edge ``eb`` of ``fb``."""
    p1, p2, la = _edge_frame(fa, ea)
    q1, q2, lb = _edge_frame(fb, eb)
    if la < 1e-9 or lb < 1e-9:
        return None
    ux, uy = (p2[0] - p1[0]) / la, (p2[1] - p1[1]) / la
    vx, vy = (q2[0] - q1[0]) / lb, (q2[1] - q1[1]) / lb
    # anti-parallel edges (the two units face each other across them)
    if ux * vx + uy * vy > -math.cos(PARALLEL_DEG * DEG_TO_RAD):
        return None
    # the other edge lies on my edge's line
    nx, ny = -uy, ux
    if abs((q1[0] - p1[0]) * nx + (q1[1] - p1[1]) * ny) > FLUSH_TOL:
        return None
    if abs((q2[0] - p1[0]) * nx + (q2[1] - p1[1]) * ny) > FLUSH_TOL:
        return None
    s1 = (q1[0] - p1[0]) * ux + (q1[1] - p1[1]) * uy
    s2 = (q2[0] - p1[0]) * ux + (q2[1] - p1[1]) * uy
    a0, a1 = max(0.0, min(s1, s2)), min(la, max(s1, s2))
    if a1 - a0 <= FLUSH_TOL:
        return None
    # the same stretch measured along the other edge (which runs the opposite way)
    t1 = (p1[0] + ux * a0 - q1[0]) * vx + (p1[1] + uy * a0 - q1[1]) * vy
    t2 = (p1[0] + ux * a1 - q1[0]) * vx + (p1[1] + uy * a1 - q1[1]) * vy
    return a0, a1, max(0.0, min(t1, t2)), min(lb, max(t1, t2))


EDGES = ("front", "right", "rear", "left")


def touches(u: Unit, others: Iterable[Unit]) -> list[Touch]:
    """Every flush contact of ``u`` with the other units given."""
    fu = u.fp
    out: list[Touch] = []
    for o in others:
        if o.id == u.id or not o.on_table:
            continue
        fo = o.fp
        if not footprints_within(fu, fo, FLUSH_TOL * 2):
            continue
        for ea in EDGES:
            for eb in EDGES:
                got = flush(fu, ea, fo, eb)
                if got is not None:
                    out.append(Touch(o.id, ea, eb, *got))
    return out


def _share(lo: float, hi: float, a0: float, a1: float) -> float:
    return max(0.0, min(hi, a1) - max(lo, a0))


def slots_in_contact(u: Unit, edge: str, a0: float, a1: float) -> list[int]:
    """Which figures of ``u`` along ``edge`` are in contact over ``a0..a1``: front slots for the
    front, rear-rank slots for the rear (0 = the unit's left), ranks (0 = front) for a flank."""
    w, d = u.fig_w, u.rank_d
    out: list[int] = []
    if edge == "front":
        for i in range(u.front):
            if _share(i * w, (i + 1) * w, a0, a1) >= FIGURE_SHARE * w - 1e-9:
                out.append(i)
    elif edge == "rear":
        last = u.ranks - 1
        for i in u.rank_slots(last):
            s = (u.front - 1 - i) * w  # the rear edge runs from the right end to the left
            if _share(s, s + w, a0, a1) >= FIGURE_SHARE * w - 1e-9:
                out.append(i)
    else:
        n = u.ranks
        for r in range(n):
            s = r * d if edge == "right" else (n - 1 - r) * d
            if _share(s, s + d, a0, a1) >= FIGURE_SHARE * d - 1e-9:
                out.append(r)
    return out


def fighting_count(u: Unit, t: Touch, ranks: int) -> int:
    """Figures of ``u`` that count against the unit across touch ``t`` ("Melee", combat.ranks):
    the front figures in contact and those of the next ``ranks - 1`` ranks directly behind them;
    figures turned to face a flank or the rear fight there as one rank."""
    slots = slots_in_contact(u, t.mine, t.a0, t.a1)
    if t.mine == "front":
        n = len(slots)
        s = set(slots)
        for r in range(1, ranks):
            n += len(s.intersection(u.rank_slots(r)))
        return n
    if t.mine in u.faced:
        return len(slots)
    return 0


def figure_points(u: Unit) -> list[Point]:
    """Centres of the front edges of the front-rank figures, left to right."""
    fp = u.fp
    (lx, ly), (rx, ry) = fp.edge("front")
    n = u.front
    return [(lx + (rx - lx) * (i + 0.5) / n, ly + (ry - ly) * (i + 0.5) / n) for i in range(n)]


# --- sight and range -------------------------------------------------------------------------


#: How far apart a sight line's box and a feature's box must be for ``_segment_clear`` to pass the
#: feature by without counting its crossings. ``segment_polygon_crossings`` counts an edge only
#: where the two segments cross (orientations beyond ``EPS``, an area: rounding on a table's
#: coordinates is about 1e-12) or touch within 1e-7 (``segments_intersect``); either puts the
#: boxes within 1e-7 of each other, far inside this.
SEGMENT_PAD: Final = 1e-4


def _segment_clear(
    p: Point, q: Point, blockers: Sequence[Polygon], terrain: TerrainMap, elevated: bool
) -> bool:
    if not elevated:
        for poly in blockers:
            if segment_intersects_convex(p, q, poly, shrink=0.02):
                return False
    kinds = terrain_table().kinds
    fast = not REFERENCE.on
    sx0, sx1 = (p[0], q[0]) if p[0] <= q[0] else (q[0], p[0])
    sy0, sy1 = (p[1], q[1]) if p[1] <= q[1] else (q[1], p[1])
    for f in terrain.features:
        k = kinds[f.kind]
        if f.linear or k.sight == "no":
            continue
        if fast:
            # a segment whose box lies apart from the feature's by more than ``SEGMENT_PAD`` meets
            # none of its edges: ``boundary_crossings`` counts 0, which blocks nothing (issue 16:
            # most sight lines pass most features by; the count is interpreted code on the
            # feature's points, about 9,000 instructions a call)
            _, x0, x1, y0, y1 = _box(f)
            if (
                sx1 < x0 - SEGMENT_PAD
                or sx0 > x1 + SEGMENT_PAD
                or sy1 < y0 - SEGMENT_PAD
                or sy0 > y1 + SEGMENT_PAD
            ):
                continue
        n = f.boundary_crossings(p, q)
        if k.sight == "through" and n >= 2:
            return False
        if k.sight == "over" and n >= 2 and not f.contains(p) and not f.contains(q):
            return False
    return True


def on_elevated(fp: Footprint, terrain: TerrainMap) -> bool:
    kinds = terrain_table().kinds
    return any(kinds[f.kind].elevated and not f.linear and f.contains(fp.centre) for f in terrain.features)


def target_points(t: Footprint) -> list[Point]:
    c = t.corners()
    return [*c, *(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2) for a, b in polygon_edges(c)), t.centre]


def sees(
    frm: Point,
    target: Footprint,
    blockers: Sequence[Polygon],
    terrain: TerrainMap,
    elevated: bool,
) -> float | None:
    """Distance from ``frm`` to the nearest visible point of ``target`` (None if none is seen).
    "Line of sight from the firing unit to the target is required. No firing over other units is
    permitted unless the firer or the target is on elevated terrain." (combat.target-eligibilities)"""
    # into-the-dark:combat.target-eligibilities.no-firing-over-units
    best: float | None = None
    pts = target_points(target)
    near = closest_point(frm, target.corners())
    for q in [near, *pts]:
        d = dist(frm, q)
        if best is not None and d >= best:
            continue
        if _segment_clear(frm, q, blockers, terrain, elevated):
            best = d
    return best


def closest_point(p: Point, poly: Sequence[Point]) -> Point:
    """The point of polygon ``poly``'s boundary nearest to ``p``."""
    best = poly[0]
    bd = math.inf
    for a, b in polygon_edges(poly):
        dx, dy = b[0] - a[0], b[1] - a[1]
        ll = dx * dx + dy * dy
        t = 0.0 if ll < 1e-12 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ll))
        q = (a[0] + t * dx, a[1] + t * dy)
        d = dist(p, q)
        if d < bd:
            bd, best = d, q
    return best


def corridor(fp: Footprint, edge: str, length: float) -> Polygon:
    """The strip straight out from one edge of a footprint, ``length`` deep."""
    a, b = fp.edge(edge)
    cx, cy = fp.centre
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    nx, ny = mx - cx, my - cy
    ln = _hypot(nx, ny)
    nx, ny = nx / ln * length, ny / ln * length
    return (a, b, (b[0] + nx, b[1] + ny), (a[0] + nx, a[1] + ny))


def meets(poly: Sequence[Point], other: Sequence[Point]) -> bool:
    """Whether two convex polygons share some area or boundary (touching counts). The separating-axis
    search stops at the first axis that settles "no" (``stop``: the same verdict, sooner)."""
    if REFERENCE.on:
        return meets_reference(poly, other)
    return convex_penetration(poly, other, MEETS_BELOW) > MEETS_BELOW


def meets_reference(poly: Sequence[Point], other: Sequence[Point]) -> bool:
    """``meets`` with every axis searched (the tests compare the two)."""
    return convex_penetration(poly, other) > MEETS_BELOW


#: what ``meets`` counts as apart: a gap wider than a billionth of an inch
MEETS_BELOW: Final = -1e-9


def in_corridor(fp: Footprint, edge: str, target: Footprint, length: float) -> bool:
    """Whether any part of ``target`` lies straight out from ``edge`` within ``length``."""
    a, b = fp.edge(edge)
    cx, cy = fp.centre
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    nx, ny = mx - cx, my - cy
    ln = _hypot(nx, ny)
    nx, ny = nx / ln, ny / ln
    ux, uy = b[0] - a[0], b[1] - a[1]
    lu = _hypot(ux, uy)
    ux, uy = ux / lu, uy / lu
    pts: list[Point] = list(target.corners())
    # ahead of the edge: (p - a).n >= 0
    pts = clip_halfplane(pts, -nx, -ny, -(nx * a[0] + ny * a[1]))
    if not pts:
        return False
    pts = clip_halfplane(pts, nx, ny, nx * a[0] + ny * a[1] + length)
    if not pts:
        return False
    # across: 0 <= (p - a).u <= |ab|
    pts = clip_halfplane(pts, -ux, -uy, -(ux * a[0] + uy * a[1]) + 1e-6)
    if not pts:
        return False
    pts = clip_halfplane(pts, ux, uy, ux * a[0] + uy * a[1] + lu - 1e-6)
    return len(pts) > 0


# --- terrain ------------------------------------------------------------------------------------


def _poly_polyline_distance(poly: Sequence[Point], line: Sequence[Point]) -> float:
    if any(point_in_polygon(p, poly) for p in line):
        return 0.0
    best = math.inf
    for i in range(len(line) - 1):
        for a, b in polygon_edges(poly):
            d = segment_distance(line[i], line[i + 1], a, b)
            if d < best:
                best = d
    return best


def _bbox_far(fp: Footprint, f: Feature, pad: float) -> bool:
    """Whether ``fp`` lies more than ``pad`` outside ``f``'s bounding box (its circle does)."""
    xs = [p[0] for p in f.points]
    ys = [p[1] for p in f.points]
    r = fp.radius + pad
    return fp.x + r < min(xs) or fp.x - r > max(xs) or fp.y + r < min(ys) or fp.y - r > max(ys)


#: bounding boxes kept per feature (``_box``): beyond this many they are all dropped and made again
BOXES_KEPT: Final = 4096
_BOXES: Final[dict[int, tuple[Feature, float, float, float, float]]] = {}


def _box(f: Feature) -> tuple[Feature, float, float, float, float]:
    """``f`` and its bounding box (min x, max x, min y, max y), made once per feature (a feature is
    frozen; it is held, so its id is not reused while it is kept)."""
    got = _BOXES.get(id(f))
    if got is None or got[0] is not f:
        if len(_BOXES) >= BOXES_KEPT:
            _BOXES.clear()
        xs = [p[0] for p in f.points]
        ys = [p[1] for p in f.points]
        got = _BOXES[id(f)] = (f, min(xs), max(xs), min(ys), max(ys))
    return got


def _box_far(fp: Footprint, f: Feature, pad: float) -> bool:
    """``_bbox_far`` from the feature's kept box (``feature_under``, the fast path: the lists of
    its points' coordinates were made at every call, about 10,000 instructions for a wood)."""
    _, x0, x1, y0, y1 = _box(f)
    r = fp.radius + pad
    return fp.x + r < x0 or fp.x - r > x1 or fp.y + r < y0 or fp.y - r > y1


def terrain_under_reference(fp: Footprint, terrain: TerrainMap) -> list[tuple[Feature, TerrainKind]]:
    """The terrain a footprint stands in (area features it overlaps, linear features whose width it
    reaches), with the kind that applies there: a crossing of a stream is treated as its crossing
    kind (a bridge as road, a ford as a shallow stream) when the unit meets the stream only within
    the crossing (docs/rulings/into-the-dark.md). Every feature looked at in turn: the plain form
    of ``terrain_grid.terrain_under``, which the tests compare with it."""
    table = terrain_table()
    rect = fp.corners()
    out: list[tuple[Feature, TerrainKind]] = []
    for f in terrain.features:
        k = feature_under_reference(fp, rect, f, table)
        if k is not None:
            out.append((f, k))
    return out


def feature_under_reference(fp: Footprint, rect: Polygon, f: Feature, table: Any) -> TerrainKind | None:
    """The kind of ``f`` that applies to a unit standing on ``fp`` (corners ``rect``), or None when
    the unit does not stand in it (``terrain_under_reference``): the plain form of
    ``feature_under``, every segment of a linear feature measured against every edge."""
    k: TerrainKind = table.kinds[f.kind]
    if _bbox_far(fp, f, f.width):
        return None
    if f.linear:
        if polyline_distance_to_point(fp.centre, f.points) > fp.radius + f.width / 2.0:
            return None
        if _poly_polyline_distance(rect, f.points) > f.width / 2.0 - 1e-9:
            return None
        return _crossing_kind(fp, f, k, table)
    return k if rect_meets_polygon(rect, f.points) else None


#: how much further than a footprint's radius plus half a linear feature's width a segment of the
#: feature's centre line must lie from the footprint's centre to be left unmeasured (far above the
#: rounding of the distances compared, far below any distance the rules measure)
_SEGMENT_SLACK: Final = 1e-6


def feature_under(fp: Footprint, rect: Polygon, f: Feature, table: Any) -> TerrainKind | None:
    """``feature_under_reference``, the same verdict with less measuring: a linear feature's
    segments are measured against the footprint's edges only when they come within the footprint's
    radius plus half the width (and ``_SEGMENT_SLACK``) of its centre. A farther segment is farther
    than half the width from every point of the footprint (which lies within its radius of the
    centre), so it cannot bring the smallest distance to half the width or under."""
    k: TerrainKind = table.kinds[f.kind]
    if _box_far(fp, f, f.width):
        return None
    if f.linear:
        pts = f.points
        reach = fp.radius + f.width / 2.0
        cx, cy = fp.x, fp.y
        ds = [point_segment_distance((cx, cy), pts[i], pts[i + 1]) for i in range(len(pts) - 1)]
        if min(ds) > reach:
            return None
        if any(point_in_polygon(p, rect) for p in pts):
            return _crossing_kind(fp, f, k, table)
        near = reach + _SEGMENT_SLACK
        limit = f.width / 2.0 - 1e-9
        edges = polygon_edges(rect)
        for i, d in enumerate(ds):
            if d > near:
                continue
            a, b = pts[i], pts[i + 1]
            for c, e in edges:
                if segment_distance(a, b, c, e) <= limit:
                    return _crossing_kind(fp, f, k, table)
        return None
    return k if rect_meets_polygon(rect, f.points) else None


def _crossing_kind(fp: Footprint, f: Feature, k: TerrainKind, table: Any) -> TerrainKind:
    """The kind of the linear feature ``f`` (kind ``k``) under ``fp``: its crossing's, when the unit
    uses one."""
    if f.crossings:
        c = _crossing_for(fp, f)
        if c is not None:
            kind: Any = c.kind
            k = table.kinds[table.crossings[kind].treated_as]
    return k


def _crossing_for(fp: Footprint, f: Feature) -> Crossing | None:
    """The crossing a unit uses: one whose span along the stream holds the whole unit (every corner
    of the footprint, measured along the stream at the crossing, within half its width)."""
    for c in f.crossings:
        if dist(c.at, fp.centre) > fp.radius + c.width / 2.0 + f.width:
            continue
        # the stream's direction at the crossing
        best = None
        bd = math.inf
        for i in range(len(f.points) - 1):
            a, b = f.points[i], f.points[i + 1]
            d = point_segment_distance(c.at, a, b)
            if d < bd:
                bd, best = d, (a, b)
        assert best is not None
        (ax, ay), (bx, by) = best
        ln = _hypot(bx - ax, by - ay)
        ux, uy = (bx - ax) / ln, (by - ay) / ln
        if all(abs((x - c.at[0]) * ux + (y - c.at[1]) * uy) <= c.width / 2.0 + 0.05 for x, y in fp.corners()):
            return c
    return None


def _closest_point_polyline(p: Point, line: Sequence[Point]) -> Point:
    best = line[0]
    bd = math.inf
    for i in range(len(line) - 1):
        a, b = line[i], line[i + 1]
        dx, dy = b[0] - a[0], b[1] - a[1]
        ll = dx * dx + dy * dy
        t = 0.0 if ll < 1e-12 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / ll))
        q = (a[0] + t * dx, a[1] + t * dy)
        d = dist(p, q)
        if d < bd:
            bd, best = d, q
    return best


def on_road(fp: Footprint, terrain: TerrainMap) -> bool:
    """Completely on a road (every corner within the road's width of its centre line)."""
    for f in terrain.features:
        if f.kind != "road":
            continue
        if all(
            min(point_segment_distance(p, f.points[i], f.points[i + 1]) for i in range(len(f.points) - 1))
            <= f.width / 2.0 + 1e-6
            for p in fp.corners()
        ):
            return True
    return False


def completely_in(fp: Footprint, f: Feature) -> bool:
    return (not f.linear) and rect_inside_polygon(fp.corners(), f.points)


def crosses_linear(p: Point, q: Point, f: Feature) -> bool:
    return bool(f.crossing_points(p, q))


def zone(u: Unit, length: float) -> Polygon:
    """The zone of control: "straight forward of the unit's front" for ``length`` inches."""
    return corridor(u.fp, "front", length)


def gap(a: Footprint, b: Footprint) -> float:
    return footprint_distance(a, b)
