"""The terrain under a footprint from a lazily built grid of the table (issue 16, "Fast core").

``spatial.terrain_under_reference`` looks at every feature of the table for every position a move
is checked at (tens of thousands a battle). Here the table is cut into cells of ``CELL`` inches; a
cell, the first time a footprint's centre falls in it, notes for each feature a lower bound on the
distance from any point of the cell to the feature's outline (the polygon's edges, the stream's or
road's centre line) and, for an area, whether the cell lies inside it. A footprint lies within
``fp.radius`` of its centre, so when that bound exceeds the radius (plus half a linear feature's
width) with ``MARGIN`` to spare, the footprint cannot meet the outline: it stands wholly inside the
area (which the plain test finds: every corner inside) or wholly outside it, or out of the linear
feature's reach. Only features whose outline may pass under the footprint are measured, by
``spatial.feature_under`` (the plain function's ``feature_under_reference``, with the segments of a
linear feature that lie out of reach left unmeasured), so the answer is the same list, in the same
order (``tests/into_the_dark/test_itd_fast_paths.py`` compares them on random footprints, boundaries
included).

Answers are also kept by footprint (``MEMO`` of them): a move's positions are checked again and again
(the menu, the general's look-ahead, the order itself), and the answer is a function of the
footprint alone. The grid belongs to one ``TerrainMap`` (and one terrain table) and is kept beside it.
"""

from __future__ import annotations

import math
from typing import Any, Final

from shieldwall.core.geometry import Footprint, point_segment_distance
from shieldwall.core.polygons import point_in_polygon
from shieldwall.core.reference import REFERENCE
from shieldwall.core.terrain import Feature, TerrainMap

from .profiles import TerrainKind, terrain_table
from .spatial import feature_under, terrain_under_reference

#: side of a grid cell, inches
CELL: Final = 1.0
#: how much further than its radius a footprint must be from an outline to be answered from the cell
MARGIN: Final = 1e-6
#: answers kept per grid (dropped all at once beyond this)
MEMO: Final = 50_000
#: grids kept (one per terrain map in use); beyond this they are all dropped and rebuilt on demand
KEEP: Final = 64

_HALF_DIAGONAL = CELL * math.sqrt(2.0) / 2.0

#: per feature of a cell: (distance bound from the cell to the outline, inside the area?)
CellInfo = tuple[tuple[float, bool], ...]


def _outline_distance(p: tuple[float, float], f: Feature) -> float:
    pts = f.points
    if f.linear:
        return min(point_segment_distance(p, pts[i], pts[i + 1]) for i in range(len(pts) - 1))
    n = len(pts)
    return min(point_segment_distance(p, pts[i], pts[(i + 1) % n]) for i in range(n))


class TerrainGrid:
    """Which features may be under a footprint, cell by cell (module docstring)."""

    __slots__ = ("terrain", "table", "features", "cells", "memo")

    def __init__(self, terrain: TerrainMap, table: Any) -> None:
        self.terrain = terrain
        self.table = table
        self.features = [
            (f, table.kinds[f.kind], f.width / 2.0 if f.linear else 0.0) for f in terrain.features
        ]
        self.cells: dict[tuple[int, int], CellInfo] = {}
        # answers by footprint: a move's positions are checked again and again (the menu, then the
        # general's look-ahead, then the order itself retrace the same path)
        # (kept as tuples: an empty answer, most of them, is the one empty tuple, which the cyclic
        # collector does not track; a list is an object it tracks and walks at every full pass)
        self.memo: dict[
            tuple[float, float, float, float, float], tuple[tuple[Feature, TerrainKind], ...]
        ] = {}

    def _cell(self, key: tuple[int, int]) -> CellInfo:
        c = ((key[0] + 0.5) * CELL, (key[1] + 0.5) * CELL)
        info = tuple(
            (
                _outline_distance(c, f) - _HALF_DIAGONAL,
                (not f.linear) and point_in_polygon(c, f.points),
            )
            for f, _k, _w in self.features
        )
        self.cells[key] = info
        return info

    def under(self, fp: Footprint) -> list[tuple[Feature, TerrainKind]]:
        key = (fp.x, fp.y, fp.heading, fp.frontage, fp.depth)
        got = self.memo.get(key)
        if got is None:
            if len(self.memo) >= MEMO:
                self.memo.clear()
            got = self.memo[key] = tuple(self._under(fp))
        return list(got)

    def _under(self, fp: Footprint) -> list[tuple[Feature, TerrainKind]]:
        try:
            key = (math.floor(fp.x / CELL), math.floor(fp.y / CELL))
        except (ValueError, OverflowError):  # not a finite position: the plain function answers
            return terrain_under_reference(fp, self.terrain)
        info = self.cells.get(key)
        if info is None:
            info = self._cell(key)
        r = fp.radius + MARGIN
        out: list[tuple[Feature, TerrainKind]] = []
        rect = None
        for (f, k, half_width), (bound, inside) in zip(self.features, info, strict=True):
            if bound > r + half_width:
                if inside:
                    out.append((f, k))
                continue
            if rect is None:
                rect = fp.corners()
            got = feature_under(fp, rect, f, self.table)
            if got is not None:
                out.append((f, got))
        return out


_GRIDS: dict[int, TerrainGrid] = {}


def grid_for(terrain: TerrainMap) -> TerrainGrid:
    """The grid of ``terrain`` (built empty on first use; its cells fill as they are asked about)."""
    table = terrain_table()
    g = _GRIDS.get(id(terrain))
    if g is None or g.terrain is not terrain or g.table is not table:
        if len(_GRIDS) >= KEEP:
            _GRIDS.clear()
        g = _GRIDS[id(terrain)] = TerrainGrid(terrain, table)
    return g


def terrain_under(fp: Footprint, terrain: TerrainMap) -> list[tuple[Feature, TerrainKind]]:
    """``spatial.terrain_under_reference``, answered from the terrain's grid."""
    if REFERENCE.on:
        return terrain_under_reference(fp, terrain)
    return grid_for(terrain).under(fp)
