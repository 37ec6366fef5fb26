"""Terrain features on a tabletop: areas (polygons) and linear features (polylines with a width).

The core knows shapes and a few generic notions (inside, crossing, elevation on a hill); what a
kind of terrain *does* (halves hits, blocks mounted, disorders) belongs to each rule system's
data tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from shieldwall.core.crossings import segment_intersects_polyline, segment_polygon_crossings
from shieldwall.core.geometry import Point, dist, point_segment_distance
from shieldwall.core.polygons import point_in_polygon, polygon_edges, polyline_distance_to_point


@dataclass(frozen=True, slots=True)
class Crossing:
    """A place a linear feature (river) may be crossed: a bridge, ford or shallows."""

    kind: str
    at: Point
    width: float


@dataclass(frozen=True, slots=True)
class Feature:
    """One terrain feature.

    ``points`` is the polygon of an area feature or the centre line of a linear one (then
    ``width`` is its width). Hills may give a ``crest`` (one point for a centre point, several
    for a crest line, or three or more with ``plateau=True`` for a plateau polygon).
    """

    id: str
    kind: str
    points: tuple[Point, ...]
    linear: bool = False
    width: float = 0.0
    crossings: tuple[Crossing, ...] = ()
    crest: tuple[Point, ...] = ()
    plateau: bool = False
    name: str = ""

    def contains(self, p: Point) -> bool:
        if self.linear:
            return polyline_distance_to_point(p, self.points) <= self.width / 2.0
        return point_in_polygon(p, self.points)

    def distance_to(self, p: Point) -> float:
        if self.linear:
            return max(0.0, polyline_distance_to_point(p, self.points) - self.width / 2.0)
        if point_in_polygon(p, self.points):
            return 0.0
        return min(point_segment_distance(p, a, b) for a, b in polygon_edges(self.points))

    def boundary_crossings(self, p: Point, q: Point) -> int:
        """How many times segment pq crosses this area's edge."""
        return segment_polygon_crossings(p, q, self.points)

    def crossing_points(self, p: Point, q: Point) -> list[Point]:
        """Where segment pq crosses this linear feature's centre line."""
        return segment_intersects_polyline(p, q, self.points)

    def crossing_at(self, p: Point, slack: float = 0.0) -> Crossing | None:
        """The bridge/ford/shallows, if any, covering a point of the centre line."""
        for c in self.crossings:
            if dist(c.at, p) <= c.width / 2.0 + slack:
                return c
        return None

    def elevation(self, p: Point) -> float:
        """Height on a hill from 0 (at its edge, or off it) to 1 (on the crest or plateau)."""
        if self.linear or not point_in_polygon(p, self.points):
            return 0.0
        if not self.crest:
            return 1.0
        if self.plateau and len(self.crest) >= 3 and point_in_polygon(p, self.crest):
            return 1.0
        if len(self.crest) == 1:
            dc = dist(p, self.crest[0])
        elif self.plateau:
            dc = min(point_segment_distance(p, a, b) for a, b in polygon_edges(self.crest))
        else:
            dc = polyline_distance_to_point(p, self.crest)
        de = min(point_segment_distance(p, a, b) for a, b in polygon_edges(self.points))
        if dc + de <= 1e-12:
            return 1.0
        return de / (dc + de)


def feature_view(f: Feature) -> dict[str, Any]:
    """A feature as a battle's view gives it (plain lists and numbers, for JSON)."""
    return {
        "id": f.id,
        "kind": f.kind,
        "name": f.name,
        "points": [list(p) for p in f.points],
        "linear": f.linear,
        "width": f.width,
        "crest": [list(p) for p in f.crest],
        "crossings": [{"kind": c.kind, "at": list(c.at), "width": c.width} for c in f.crossings],
    }


@dataclass(frozen=True, slots=True)
class TerrainMap:
    """All the terrain of one battlefield, and the table's size."""

    width: float
    depth: float
    features: tuple[Feature, ...] = field(default_factory=tuple)

    def of_kind(self, *kinds: str) -> list[Feature]:
        return [f for f in self.features if f.kind in kinds]

    def areas_at(self, p: Point) -> list[Feature]:
        return [f for f in self.features if not f.linear and f.contains(p)]

    def elevation(self, p: Point, hill_kinds: Sequence[str] = ("hill",)) -> float:
        e = 0.0
        for f in self.features:
            if f.kind in hill_kinds:
                e = max(e, f.elevation(p))
        return e

    def on_table(self, p: Point) -> bool:
        return 0.0 <= p[0] <= self.width and 0.0 <= p[1] <= self.depth
