"""Line of sight in one-hour-dark-ages ("Line of Sight"; split from ``spatial.py``): which points of
a target a viewer sees past the terrain and the other units, and whether it faces it in clear view.

All functions take the battle's units and terrain explicitly; none changes anything.
"""

from __future__ import annotations

from collections.abc import Iterable

from shieldwall.core.crossings import in_front_arc, segment_intersects_convex
from shieldwall.core.geometry import Point, Polygon
from shieldwall.core.polygons import bounding_box
from shieldwall.core.reference import REFERENCE
from shieldwall.core.terrain import TerrainMap
from shieldwall.rulesets.one_hour.model import Unit
from shieldwall.rulesets.one_hour.terrain_checks import BOX_SLACK, Box, terrain_index


def _sight_blocked(p: Point, q: Point, terrain: TerrainMap, blockers: Iterable[tuple[Polygon, Box]]) -> bool:
    """Whether the sight line p->q is blocked by a unit (given with its bounding box) or terrain.

    A box test first skips every blocker and feature the line cannot reach: a line whose bounding
    box misses a polygon's box cannot pass through its interior or cross its edges, so the exact
    tests would say "not blocked" too.
    """
    sx0, sx1 = (p[0], q[0]) if p[0] <= q[0] else (q[0], p[0])
    sy0, sy1 = (p[1], q[1]) if p[1] <= q[1] else (q[1], p[1])
    sx0 -= BOX_SLACK
    sy0 -= BOX_SLACK
    sx1 += BOX_SLACK
    sy1 += BOX_SLACK
    for poly, (x0, y0, x1, y1) in blockers:
        if x1 < sx0 or x0 > sx1 or y1 < sy0 or y0 > sy1:
            continue
        if segment_intersects_convex(p, q, poly, shrink=0.05):
            return True
    for f, mode, (x0, y0, x1, y1) in terrain_index(terrain).sight:
        if x1 < sx0 or x0 > sx1 or y1 < sy0 or y0 > sy1:
            continue  # no crossing of its edges
        crossings = f.boundary_crossings(p, q)
        if mode == "through":
            # "Units may see into and out of woods, but not through two sides of a wood."
            if crossings >= 2:
                return True
        elif mode == "over" and crossings >= 2 and not f.contains(p) and not f.contains(q):
            return True  # hills block unless the viewer or the target stands on the hill
    return False


def sample_edge(a: Point, b: Point, n: int = 5, inset: float = 0.04) -> list[Point]:
    out = []
    for i in range(n):
        t = inset + (1 - 2 * inset) * i / (n - 1)
        out.append((a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])))
    return out


def visible_points(
    viewer: Unit, target: Unit, units: Iterable[Unit], terrain: TerrainMap, facing: str | None = None
) -> tuple[int, int]:
    """(visible, sampled) points of the target's outline, or of one facing, from the viewer's
    front centre ("Line of Sight")."""
    origin, pts, blockers = _sight_lines(viewer, target, units, facing)
    seen = sum(1 for p in pts if not _sight_blocked(origin, p, terrain, blockers))
    return seen, len(pts)


def _sight_lines(
    viewer: Unit, target: Unit, units: Iterable[Unit], facing: str | None
) -> tuple[Point, list[Point], list[tuple[Polygon, Box]]]:
    """The origin, the sampled points and the blockers (with their boxes) of ``visible_points``."""
    origin = viewer.fp.front_centre
    blockers = [
        (c, bounding_box(c))
        for c in (u.fp.corners() for u in units if not u.removed and u.id not in (viewer.id, target.id))
    ]
    if facing is not None:
        a, b = target.fp.edge(facing)
        pts = sample_edge(a, b)
    else:
        pts = []
        for f in ("front", "right", "rear", "left"):
            a, b = target.fp.edge(f)
            pts.extend(sample_edge(a, b, 3))
    return origin, pts, blockers


def any_visible(viewer: Unit, target: Unit, units: Iterable[Unit], terrain: TerrainMap) -> bool:
    """Whether ``visible_points(viewer, target, units, terrain)`` sees a point (has line of sight),
    tracing the lines only until one is clear. The reference: the count of every line, above 0."""
    if REFERENCE.on:
        return visible_points(viewer, target, units, terrain)[0] > 0
    origin, pts, blockers = _sight_lines(viewer, target, units, None)
    return any(not _sight_blocked(origin, p, terrain, blockers) for p in pts)


def has_los(viewer: Unit, target: Unit, units: Iterable[Unit], terrain: TerrainMap) -> bool:
    """ "Line of Sight" ("line-of-sight") to the closest visible part of the target (any part visible),
    blocked by units, hills, woods and buildings; woods and villages are seen into and out of but not
    through two sides ("line-of-sight.woods")."""
    return visible_points(viewer, target, units, terrain)[0] > 0


def facing_in_clear_view(
    viewer: Unit, target: Unit, units: Iterable[Unit], terrain: TerrainMap, facing: str
) -> bool:
    """ "They must have a clear Line of Sight to an entire Facing." """
    seen, n = visible_points(viewer, target, list(units), terrain, facing)
    return seen == n


def in_arc(viewer: Unit, target: Unit, half_angle: float) -> bool:
    return in_front_arc(viewer.fp, target.fp.corners(), half_angle)
