"""Terrain questions in one-hour-dark-ages ("Terrain", "Movement"; split from ``spatial.py``):
which feature a footprint enters or a path crosses, rivers, roads, hills and defended features.

All functions take the battle's units and terrain explicitly; none changes anything.
"""

from __future__ import annotations

import math
from typing import Final

from shieldwall.core.crossings import segment_intersects_polyline, swept_rectangle
from shieldwall.core.geometry import (
    CONTACT_TOL,
    Footprint,
    Point,
    Polygon,
    dist,
    point_segment_distance,
    segment_distance,
    segments_intersect,
)
from shieldwall.core.polygons import bounding_box, point_in_polygon, polygon_edges
from shieldwall.core.terrain import Feature, TerrainMap
from shieldwall.rulesets.one_hour.model import Unit
from shieldwall.rulesets.one_hour.profiles import terrain_effects

#: Slack (inches) of the bounding-box rejections (here, in ``sight`` and in ``spatial``): far above
#: every tolerance of the exact tests.
BOX_SLACK: Final = 1e-4

Box = tuple[float, float, float, float]


#: How close to a linear feature a unit must be to be "defending" it (inches). See rulings.
DEFEND_LINEAR: Final = 1.5


class _TerrainIndex:
    """What the hot terrain questions need of a (fixed) terrain map, worked out once: the features
    of each kind of question, in the map's order, with their bounding boxes."""

    def __init__(self, terrain: TerrainMap) -> None:
        eff = terrain_effects()
        #: area features that block sight: (feature, mode, box)
        self.sight: list[tuple[Feature, str, Box]] = []
        #: area features with an entry rule "none" or "rough": (feature, rule, box)
        self.entry: list[tuple[Feature, str, Box]] = []
        #: linear features crossed only at crossings (rivers)
        self.rivers: list[Feature] = []
        for f in terrain.features:
            e = eff[f.kind]
            if f.linear:
                # only rivers bar movement; walls and gullies have none (`terrain.walls-gullies.movement`)
                if e.enter == "crossings":
                    self.rivers.append(f)
                continue
            if e.blocks_sight:
                self.sight.append((f, e.blocks_sight, _bbox(f.points)))
            if e.enter in ("none", "rough"):
                self.entry.append((f, e.enter, _bbox(f.points)))


_INDEX: dict[int, tuple[TerrainMap, _TerrainIndex]] = {}


def terrain_index(terrain: TerrainMap) -> _TerrainIndex:
    got = _INDEX.get(id(terrain))
    if got is None or got[0] is not terrain:
        if len(_INDEX) > 64:
            _INDEX.clear()
        got = _INDEX[id(terrain)] = (terrain, _TerrainIndex(terrain))
    return got[1]


#: The edges of each area feature with their bounding boxes (features are fixed for a battle).
_EDGES: dict[tuple[Point, ...], list[tuple[Point, Point, float, float, float, float]]] = {}


def _edges(points: tuple[Point, ...]) -> list[tuple[Point, Point, float, float, float, float]]:
    got = _EDGES.get(points)
    if got is None:
        got = [
            (a, b, min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
            for a, b in polygon_edges(points)
        ]
        if len(_EDGES) > 512:
            _EDGES.clear()
        _EDGES[points] = got
    return got


def meets(rect: Polygon, f: Feature) -> bool:
    """``rect_meets_polygon(rect, f.points)`` (a convex polygon and an area feature share a point),
    skipping what cannot: the feature's corners and edges beyond the rectangle's bounding box."""
    poly = f.points
    if any(point_in_polygon(p, poly) for p in rect):
        return True
    x0, y0, x1, y1 = bounding_box(rect)
    s = 1e-6  # far above segments_intersect's touching tolerance (1e-7)
    x0, y0, x1, y1 = x0 - s, y0 - s, x1 + s, y1 + s
    if any(x0 <= p[0] <= x1 and y0 <= p[1] <= y1 and point_in_polygon(p, rect) for p in poly):
        return True
    redges = polygon_edges(rect)
    for c, d, ex0, ey0, ex1, ey1 in _edges(poly):
        if ex1 < x0 or ex0 > x1 or ey1 < y0 or ey0 > y1:
            continue
        for a, b in redges:
            if segments_intersect(a, b, c, d):
                return True
    return False


def terrain_blocks_entry(unit: Unit, fp: Footprint, terrain: TerrainMap) -> Feature | None:
    """An area feature the unit may not be in ("Terrain": woods/marsh, lakes), if any."""
    rect = fp.corners()
    r = fp.radius
    for f, rule, (x0, y0, x1, y1) in terrain_index(terrain).entry:
        if rule == "none" or not unit.profile.rough_terrain:
            if fp.x + r < x0 or fp.x - r > x1 or fp.y + r < y0 or fp.y - r > y1:
                continue
            if meets(rect, f):
                return f
    return None


#: How far (inches) a swept area may reach into terrain the unit may not enter before it counts as
#: entering: the swept body is shrunk by this on every side, so grazing an edge is not entering.
SWEEP_TOL = CONTACT_TOL


def forbidden_areas(unit: Unit, terrain: TerrainMap) -> list[tuple[Feature, Box]]:
    """The area features the unit may not enter, with their bounding boxes: lakes for all ("Lakes.
    Area, impassible."), woods and marsh for all but Skirmishers and Raiders ("Only Skirmishers and
    Raiders may enter", `terrain.woods-marsh.entry`)."""
    rough = unit.profile.rough_terrain
    return [(f, box) for f, rule, box in terrain_index(terrain).entry if rule == "none" or not rough]


def shrunk_band(p: Point, q: Point, width: float, extend: float) -> Polygon:
    """The swept rectangle of a body ``width`` wide from ``p`` to ``q`` (``extend`` beyond each end),
    shrunk by ``SWEEP_TOL`` on every side: what may not meet forbidden terrain."""
    return swept_rectangle(p, q, max(width - 2 * SWEEP_TOL, 1e-6), max(extend - SWEEP_TOL, 0.0))


def swept_terrain_problem(unit: Unit, band: Polygon, terrain: TerrainMap) -> str | None:
    """Why a swept area (a convex polygon) may not be crossed by the unit: it enters a lake, a wood
    or marsh the unit may not enter, or river water away from a crossing (None if it may).

    Only features whose bounding box meets the band's are tested exactly.
    """
    bx0, by0, bx1, by1 = bounding_box(band)
    for f, (x0, y0, x1, y1) in forbidden_areas(unit, terrain):
        if x1 < bx0 or x0 > bx1 or y1 < by0 or y0 > by1:
            continue
        if meets(band, f):
            te = terrain_effects()[f.kind]
            who = "nobody" if te.enter == "none" else "only Skirmishers and Raiders"
            return f"{te.clause}: the path crosses {f.kind} ({f.id}): {who} may enter"
    rv = _poly_in_river(band, terrain)
    if rv is not None:
        return f"terrain.rivers: the path crosses the river ({rv.id}) away from a bridge, ford or shallows"
    return None


def _water_segments(
    f: Feature, poly: Polygon, edges: list[tuple[Point, Point]], box: Box
) -> list[tuple[Point, Point]]:
    """The segments of the river's line whose water (the line widened by half the river's width)
    reaches the polygon: near its box (``box``, padded by that half width), and with an end inside
    it or within the half width of one of its edges. No point of the polygon is in water any other
    segment covers, and no edge crosses another segment."""
    pad = f.width / 2.0
    x0, y0, x1, y1 = box
    pts = f.points
    out = []
    for i in range(len(pts) - 1):
        a, b = pts[i], pts[i + 1]
        if max(a[0], b[0]) < x0 or min(a[0], b[0]) > x1 or max(a[1], b[1]) < y0 or min(a[1], b[1]) > y1:
            continue
        if point_in_polygon(a, poly) or any(segment_distance(a, b, c, d) <= pad + 1e-9 for c, d in edges):
            out.append((a, b))
    return out


def _wet(
    f: Feature, segs: list[tuple[Point, Point]], probes: list[Point], edges: list[tuple[Point, Point]]
) -> bool:
    """Whether a probe lies in the river's water, or an edge crosses its line, away from a crossing
    (``Feature.contains`` and ``crossing_points`` restricted to the segments ``segs`` that can).
    Water is impassable (`terrain.rivers.impassable`) except at a bridge, ford or shallows
    (`terrain.rivers.crossings`: ``crossing_at``)."""
    pad = f.width / 2.0
    for p in probes:
        if (
            any(point_segment_distance(p, a, b) <= pad for a, b in segs)
            and f.crossing_at(p, slack=pad) is None
        ):
            return True
    for c, d in edges:
        for a, b in segs:
            for x in segment_intersects_polyline(c, d, (a, b)):
                if f.crossing_at(x, slack=pad) is None:
                    return True
    return False


#: Spacing (inches) of the probes along a swept area's edges against river water.
_RIVER_PROBE: Final = 0.25


def _poly_in_river(poly: Polygon, terrain: TerrainMap) -> Feature | None:
    """A river whose water (away from its crossings) any part of the convex polygon lies in: its
    corners and points along its edges (at most ``_RIVER_PROBE`` apart) are probed against the
    water, its edges against the river's line (for rivers narrower than the polygon)."""
    rivers = terrain_index(terrain).rivers
    if not rivers:
        return None
    bx0, by0, bx1, by1 = bounding_box(poly)
    edges = polygon_edges(poly)
    probes: list[Point] | None = None
    for f in rivers:
        pad = f.width / 2.0
        segs = _water_segments(f, poly, edges, (bx0 - pad, by0 - pad, bx1 + pad, by1 + pad))
        if not segs:
            continue
        if probes is None:
            probes = []
            for a, b in edges:
                n = max(1, math.ceil(dist(a, b) / _RIVER_PROBE))
                probes.extend((a[0] + (b[0] - a[0]) * i / n, a[1] + (b[1] - a[1]) * i / n) for i in range(n))
        if _wet(f, segs, probes, edges):
            return f
    return None


_BBOX: dict[tuple[Point, ...], tuple[float, float, float, float]] = {}


def _bbox(points: tuple[Point, ...]) -> tuple[float, float, float, float]:
    got = _BBOX.get(points)
    if got is None:
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        got = (min(xs), min(ys), max(xs), max(ys))
        _BBOX[points] = got
    return got


def river_blocks(p: Point, q: Point, terrain: TerrainMap) -> Feature | None:
    """A river crossed by the path p->q anywhere but a bridge, ford or shallows."""
    for f in terrain_index(terrain).rivers:
        for x in f.crossing_points(p, q):
            if f.crossing_at(x) is None:
                return f
        # standing in the river itself (not at a crossing)
        if f.contains(q) and f.crossing_at(q, slack=f.width) is None:
            return f
    return None


def in_river(fp: Footprint, terrain: TerrainMap) -> Feature | None:
    """A river any part of the footprint stands in, away from its bridges, fords and shallows.

    "Rivers. Linear, impassible. Any Unit may cross at a bridge, a ford, or if shallow." The whole
    footprint is checked: its centre, corners and edge midpoints against the water's width, and its
    edges against the river's line (for rivers narrower than a unit).
    """
    rivers = terrain_index(terrain).rivers
    if not rivers:
        return None
    rect = fp.corners()
    probes = [fp.centre, *rect, *(((a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0) for a, b in polygon_edges(rect))]
    edges = polygon_edges(rect)
    xs = [c[0] for c in rect]
    ys = [c[1] for c in rect]
    for f in rivers:
        if f.distance_to(fp.centre) > fp.radius + f.width:
            continue
        pad = f.width / 2.0
        segs = _water_segments(f, rect, edges, (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad))
        if segs and _wet(f, segs, probes, edges):
            return f
    return None


def on_road(fp: Footprint, terrain: TerrainMap) -> bool:
    """Whole footprint's centre line on a road ("Roads": moving entirely on a road)."""
    roads = terrain.of_kind("road")
    if not roads:
        return False
    pts = [fp.centre, fp.front_centre, fp.edge_centre("rear")]
    return all(any(r.contains(p) for r in roads) for p in pts)


def elevation(fp: Footprint, terrain: TerrainMap) -> float:
    return terrain.elevation(fp.centre)


def defending_feature(defender: Unit, attacker: Unit, terrain: TerrainMap, mode: str) -> str | None:
    """The terrain that gives the defender its defensive bonus against this attacker, if any:
    "inside" a village (`terrain.villages.defence`) or a wood or marsh (`terrain.woods-marsh.defence`),
    "behind" a wall or gully (`terrain.walls-gullies.defence`) or a river bank, or uphill."""
    eff = terrain_effects()
    key = "melee_defence" if mode == "melee" else "shoot_defence"
    dc, ac = defender.fp.centre, attacker.fp.centre
    for f in terrain.features:
        how = getattr(eff[f.kind], key)
        if not how:
            continue
        if how == "inside" and f.contains(dc) and not f.linear:
            return f.kind
        if (
            how == "behind"
            and f.linear
            and f.crossing_points(ac, dc)
            and f.distance_to(dc) <= DEFEND_LINEAR + (defender.fp.depth / 2.0)
        ):
            return "river bank" if f.kind == "river" else f.kind
        # `terrain.hills.uphill`: higher = nearer the hill's centre point, crest or plateau
        if how == "uphill" and f.elevation(dc) > f.elevation(ac) + 1e-6:
            return "uphill"
    return None
