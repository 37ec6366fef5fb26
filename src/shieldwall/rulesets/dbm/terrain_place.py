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


def _free(rect: dict[str, Any], taken: Sequence[dict[str, Any]]) -> bool:
    return not any(overlaps(rect, t) for t in taken)


def _rect(x0: float, y0: float, x1: float, y1: float, kind: str) -> dict[str, Any]:
    return {"kind": kind, "x0": round(x0, 1), "y0": round(y0, 1), "x1": round(x1, 1), "y1": round(y1, 1)}


def ww_strip(st: DbmState, west: bool, depth: float) -> dict[str, Any]:
    """dbm-3.2:terrain.ww-extent: a WW along the full length of a short edge, ``depth`` inward."""
    w, d = st.board.width, st.board.depth
    return _rect(0.0, 0.0, depth, d, "WW") if west else _rect(w - depth, 0.0, w, d, "WW")


def _ww_fits(st: DbmState, rect: dict[str, Any], bua_for: str | None) -> bool:
    """The WW overlaps no feature, and (``bua_for`` the defender) a BUA fits touching it at his
    rear edge within one sector (dbm-3.2:terrain.def-ww, .def-bua)."""
    taken = taken_areas(st)
    if not _free(rect, taken + across(st, long_edges=True)):
        return False
    for e in st.events:  # a feature placed earlier keeps its position die true (ruling R48)
        if e.kind == "terrain-placed" and "position_die" in e.data:
            near = min(gap(rect, e.data), nearest_edge(e.data, st.board.width, st.board.depth, []))
            if not position_ok(e.data["position_die"], near):
                return False
    if bua_for is None:
        return True
    slots = _bua_slots(st, bua_for, rect)
    return any(_slot(xr, y, taken) for xr, ys in slots for y in ys)


def across(st: DbmState, long_edges: bool) -> list[dict[str, Any]]:
    """The rivers and streams running from one long edge to the other (``long_edges``), else from
    one short edge to the other."""
    w, d = st.board.width, st.board.depth

    def spans(t: dict[str, Any]) -> bool:
        return bool(t["y0"] <= 0 and t["y1"] >= d if long_edges else t["x0"] <= 0 and t["x1"] >= w)

    return [t for t in st.terrain if t["kind"] in ("river", "stream") and spans(t)]


def end_at_ww(st: DbmState) -> None:
    """Ruling R48: a river or stream from short edge to short edge ends at the WW ("flowing ... to
    a WW"): it is cut back to the WW's inner edge. A WW never covers a river from long edge to long
    edge (the invader's)."""
    for ww in waterways(st):
        for t in across(st, long_edges=False):
            if ww["x0"] <= 0:
                t["x0"] = max(t["x0"], ww["x1"])
            else:
                t["x1"] = min(t["x1"], ww["x0"])


def ww_room(st: DbmState, bua_for: str | None = None) -> bool:
    """A WW of the least depth (300 p) fits along a short edge (with its BUA if ``bua_for``)."""
    return any(_ww_fits(st, ww_strip(st, west, 300.0), bua_for) for west in (True, False))


def place_ww(st: DbmState, log: TerrainLog, bua_for: str | None = None) -> dict[str, Any]:
    """dbm-3.2:terrain.ww-extent: the extent die gives the greatest depth, 300 + 100 x die, no
    more than 600 p (so no part deeper than 600 p); the short edge is diced (ruling R48). The WW is
    as deep as that allows without overlapping a feature (at least 300 p), leaving room for the
    defender's BUA touching it if ``bua_for``: the diced edge if it fits, else the other."""
    face = log.roll(st.rng, "terrain.ww-extent", "WW extent")
    west = int(st.rng.integers(2)) == 0
    for side in (west, not west):
        for depth in range(min(300 + 100 * face, 600), 299, -10):
            rect = ww_strip(st, side, float(depth))
            if _ww_fits(st, rect, bua_for):
                st.terrain.append(rect)
                end_at_ww(st)
                return {**rect, "extent_die": face}
    raise IllegalOrder(rule("terrain.ww-extent"), "no short edge is clear for a WW")


def _bua_slots(
    st: DbmState, defender: str, ww_rect: dict[str, Any] | None = None
) -> list[tuple[tuple[float, float], list[float]]]:
    """Where a BUA may stand (dbm-3.2:terrain.def-bua): touching a WW if there is one, else within
    a flank sector, entirely within one sector; each an x range and the y0 it may take at the
    defender's rear edge."""
    w, d = st.board.width, st.board.depth
    rear = 0.0 if defender == "red" else d - AREA_D
    ww = [ww_rect] if ww_rect is not None else waterways(st)
    if ww:
        x = ww[0]["x1"] if ww[0]["x0"] <= 0 else ww[0]["x0"] - AREA_W
        one_sector = x + AREA_W <= w / 3 or x >= 2 * w / 3
        return [((x, x + AREA_W), [rear])] if one_sector else []
    return [((0.0, w / 3), [rear]), ((2 * w / 3, w), [rear])]


def _slot(x_range: tuple[float, float], y0: float, taken: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    mid = (x_range[0] + x_range[1] - AREA_W) / 2
    xs = sorted(
        (float(x) for x in range(int(x_range[0]), int(x_range[1] - AREA_W) + 1, STEP)),
        key=lambda x: (abs(x - mid), x),
    )
    for x0 in xs:
        rect = _rect(x0, y0, x0 + AREA_W, y0 + AREA_D, "BUA")
        if _free(rect, taken):
            return rect
    return None


def bua_room(st: DbmState, defender: str) -> bool:
    taken = taken_areas(st)
    return any(_slot(xr, y, taken) for xr, ys in _bua_slots(st, defender) for y in ys)


def place_bua(st: DbmState, defender: str, log: TerrainLog) -> list[Event]:
    """dbm-3.2:terrain.def-bua: the BUA touches the WW if there is one, else stands in a flank
    sector (the diced one if it has room), within that one sector; at the defender's rear edge
    unless he dices 5-6, when (away from a WW) its position die places it in that sector like any
    area feature (ruling R48)."""
    from shieldwall.rulesets.dbm.terrain import bua_position_ok

    slots = _bua_slots(st, defender)
    if len(slots) > 1 and int(st.rng.integers(2)) == 1:
        slots.reverse()
    ww = bool(waterways(st))
    # along a WW the BUA stands at his rear edge: no die (ruling R48)
    free = bua_position_ok(st.rng, log, ww, ww, not ww, False, on_rear_edge=ww)
    if free and not ww:
        return log.events + place_area(st, "BUA", "defender", "terrain.def-bua", x_range=slots[0][0])
    taken = taken_areas(st)
    for xr, ys in slots:
        for y in ys:
            rect = _slot(xr, y, taken)
            if rect is not None:
                st.terrain.append(rect)
                ev = {**rect, "kind": "terrain-placed", "what": "BUA", "by": "defender", "rear_edge": True}
                return log.events + [{**ev, "rule": rule("terrain.def-bua")}]
    raise IllegalOrder(rule("terrain.def-bua"), "no clear place for a BUA")


def place_road(st: DbmState, n: int) -> dict[str, Any]:
    """dbm-3.2:terrain.def-roads: the defender's first road runs from short edge to short edge
    through his BUA (else across the middle of the table, crossing the invader's road); his second
    from long edge to long edge through the BUA (else a quarter of the way across), crossing the
    first (ruling R48). Roads are 40 p wide and may cross area features."""
    w, d = st.board.width, st.board.depth
    bua = [t for t in st.terrain if t["kind"] == "BUA"]
    if n == 0:
        y = (bua[0]["y0"] + bua[0]["y1"]) / 2 if bua else d / 2
        rect = _rect(0.0, y - 20, w, y + 20, "road")
    else:
        x = (bua[0]["x0"] + bua[0]["x1"]) / 2 if bua else w / 4
        rect = _rect(x - 20, 0.0, x + 20, d, "road")
    st.terrain.append(rect)
    return rect
