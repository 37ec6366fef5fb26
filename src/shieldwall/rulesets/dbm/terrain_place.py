"""Where the terrain procedure's features go on the table: area features diced into position and
kept apart (dbm-3.2:terrain.position, ruling R47), waterways along a short edge
(dbm-3.2:terrain.ww-extent), BUAs (dbm-3.2:terrain.def-bua) and roads (dbm-3.2:terrain.def-roads).

Distances in paces; the table is ``w`` wide and ``d`` deep; rectangles are dicts with x0, y0, x1, y1.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.terrain import TerrainLog, position_distance, position_ok

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.state import DbmState

Event = dict[str, Any]
#: an area feature's rectangle (paces): along the long edges, then in depth
AREA_W, AREA_D = 300.0, 250.0
#: the grid (paces) on which a feature is shifted to the nearest clear place (ruling R47)
STEP = 10
#: how many times the position die is thrown again when no place at the diced distance is clear
REDICE = 6


def overlaps(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two rectangles share some area (touching edges do not overlap)."""
    return bool(a["x0"] < b["x1"] and b["x0"] < a["x1"] and a["y0"] < b["y1"] and b["y0"] < a["y1"])


def gap(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The shortest distance between two rectangles (0 when they touch or overlap)."""
    dx = max(0.0, b["x0"] - a["x1"], a["x0"] - b["x1"])
    dy = max(0.0, b["y0"] - a["y1"], a["y0"] - b["y1"])
    return math.hypot(dx, dy)


def nearest_edge(rect: dict[str, Any], w: float, d: float, waters: Sequence[dict[str, Any]]) -> float:
    """dbm-3.2:terrain.position: the distance from a feature's nearest part to the nearest table
    edge or waterway edge."""
    edges = [rect["x0"], w - rect["x1"], rect["y0"], d - rect["y1"]]
    return float(min(edges + [gap(rect, ww) for ww in waters]))


def clear_spot(
    w: float,
    d: float,
    face: int,
    dist: float,
    want: tuple[float, float],
    taken: Sequence[dict[str, Any]],
    waters: Sequence[dict[str, Any]] = (),
    x_range: tuple[float, float] | None = None,
) -> tuple[float, float] | None:
    """Ruling R47 (dbm-3.2:terrain.position): the place nearest ``want`` (the diced sector and long
    edge) for a feature whose nearest part is ``dist`` from a long edge, that overlaps no feature of
    ``taken`` and stands where its position die ``face`` allows (nearest part to any table edge or
    waterway); None when there is none. ``x_range`` keeps the feature within those x (a sector)."""
    lo, hi = x_range if x_range is not None else (0.0, w)
    ys = sorted({round(max(0.0, dist), 1), round(max(0.0, d - dist - AREA_D), 1)})
    best: tuple[float, float, float, float] | None = None
    for y0 in ys:
        for i in range(int(lo) // STEP, int(hi - AREA_W) // STEP + 1):
            x0 = float(i * STEP)
            if x0 < lo or x0 + AREA_W > hi:
                continue
            rect = {"x0": x0, "y0": y0, "x1": x0 + AREA_W, "y1": y0 + AREA_D}
            if not position_ok(face, nearest_edge(rect, w, d, waters)):
                continue
            if any(overlaps(rect, t) for t in taken):
                continue
            key = (math.hypot(x0 - want[0], y0 - want[1]), y0, x0, 0.0)
            if best is None or key < best:
                best = key
    return None if best is None else (best[2], best[1])


def taken_areas(st: DbmState) -> list[dict[str, Any]]:
    """What a new area feature may not overlap: the area features already on the table (the
    scenario's and the procedure's) and the fortifications (ruling R47)."""
    feats = st.game.scenario.tables.terrain.feature
    out = [t for t in st.terrain if t["kind"] in feats and feats[t["kind"]].area]
    return out + [f for f in st.forts if {"x0", "y0", "x1", "y1"} <= f.keys()]


def waterways(st: DbmState) -> list[dict[str, Any]]:
    return [t for t in st.terrain if t["kind"] == "WW"]


def place_area(
    st: DbmState, kind: str, by: str, clause: str, x_range: tuple[float, float] | None = None
) -> list[Event]:
    """One area feature diced into position (terrain.position) in a random sector, at the diced
    distance from one of the two long edges, moved to the nearest clear place if it would overlap
    another feature or stand nearer an edge than its die allows; if no place at that distance is
    clear, the position die is thrown again (ruling R47)."""
    log = TerrainLog()
    w, d = st.board.width, st.board.depth
    face, edge = position_distance(st.rng, log, kind)
    sector = int(st.rng.integers(3))
    want_x = sector * w / 3 + (w / 3 - AREA_W) / 2
    want_y = edge if int(st.rng.integers(2)) == 0 else d - edge - AREA_D
    if x_range is not None:
        want_x = x_range[0] + (x_range[1] - x_range[0] - AREA_W) / 2
    taken, waters = taken_areas(st), waterways(st)
    spot = clear_spot(w, d, face, edge, (want_x, max(0.0, want_y)), taken, waters, x_range)
    tries = 0
    while spot is None:
        tries += 1
        if tries > REDICE:
            raise IllegalOrder(rule("terrain.position"), f"no clear place on the table for {kind}")
        log.events.append({"kind": "terrain-redice", "what": kind, "rule": rule("terrain.position")})
        face, edge = position_distance(st.rng, log, kind)
        spot = clear_spot(w, d, face, edge, (want_x, max(0.0, want_y)), taken, waters, x_range)
    rx0, ry0 = round(spot[0], 1), round(spot[1], 1)
    rect: dict[str, Any] = {"kind": kind, "x0": rx0, "y0": ry0, "x1": rx0 + AREA_W, "y1": ry0 + AREA_D}
    st.terrain.append(rect)
    ev: Event = {**rect, "kind": "terrain-placed", "what": kind, "by": by, "position_die": face}
    if (rx0, ry0) != (round(want_x, 1), round(max(0.0, want_y), 1)):
        ev["shifted"] = True  # ruling R47: moved to the nearest clear place
    log.events.append({**ev, "rule": rule(clause)})
    return log.events
