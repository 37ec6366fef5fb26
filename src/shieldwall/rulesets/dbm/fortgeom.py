"""Fortification sections as geometry: where they stand and face, who defends them, corners, and
where an enemy move stops on an undefended section (rulings R40, R41).

Clauses: dbm-3.2:cc.fort-corner (sections of one holder touching with perpendicular fronts form a
corner, dbm-3.2:fort.corner-angle; an enemy move stops on an undefended section's outer edge),
dbm-3.2:press.forward (no press forward across fortifications).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shieldwall.core.crossings import sweep_distance, swept_rectangle
from shieldwall.core.geometry import Footprint
from shieldwall.core.polygons import convex_penetration, polygon_distance
from shieldwall.rulesets.dbm.elements import Element
from shieldwall.rulesets.dbm.geom import TOL, ahead, local

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.board import Board

Fort = dict[str, Any]  # {"x0", "y0", "x1", "y1", "side"[, "front"]}


def on_section(f: Fort, x: float, y: float) -> bool:
    return bool(f["x0"] - TOL <= x <= f["x1"] + TOL and f["y0"] - TOL <= y <= f["y1"] + TOL)


def defended_fort(forts: list[Fort], e: Element) -> Fort | None:
    """The fortification ``e`` defends: one its side holds, with e's front edge centre on it."""
    x, y = e.fp.front_centre
    return next((f for f in forts if f["side"] == e.side and on_section(f, x, y)), None)


def front_of(f: Fort) -> str:
    """The direction the section faces: its ``front`` or, by default, the enemy's base edge."""
    return str(f.get("front") or ("south" if f["side"] == "blue" else "north"))


def fort_poly(f: Fort) -> tuple[tuple[float, float], ...]:
    return ((f["x0"], f["y0"]), (f["x1"], f["y0"]), (f["x1"], f["y1"]), (f["x0"], f["y1"]))


def inner_edge_distance(f: Fort, e: Element) -> float:
    """From ``e``'s front edge, straight ahead, to the fortification's inner edge (the edge opposite
    its front: by default towards its holder's own base edge, y1 for blue, y0 for red)."""
    front = front_of(f)
    if front in ("south", "north"):
        p = (e.fp.x, f["y1"] if front == "south" else f["y0"])
    else:
        p = (f["x0"] if front == "east" else f["x1"], e.fp.y)
    _, v = local(e.fp, p)
    return max(0.0, v - e.fp.depth / 2.0)


def corners(forts: list[Fort]) -> list[tuple[int, int]]:
    """dbm-3.2:cc.fort-corner: pairs of sections (indices) of one holder that touch with
    perpendicular fronts (a 90 or 270 degree corner, dbm-3.2:fort.corner-angle)."""
    out = []
    for i, a in enumerate(forts):
        for j in range(i + 1, len(forts)):
            b = forts[j]
            ns = {front_of(a) in ("north", "south"), front_of(b) in ("north", "south")}
            if (
                a["side"] == b["side"]
                and len(ns) == 2
                and polygon_distance(fort_poly(a), fort_poly(b)) <= TOL
            ):
                out.append((i, j))
    return out


def fort_stop(board: Board, m: Element, fp: Footprint, dist: float) -> float:
    """How far ``m`` (at ``fp``) may go straight ahead, at most ``dist``: an enemy section it would
    enter stops it with its front edge on the section's outer edge, unless a defender of that
    section stands across its path (then it meets the defender as any element: ruling R41)."""
    for f in board.forts:
        if f["side"] == m.side:
            continue
        poly = fort_poly(f)
        if convex_penetration(fp.corners(), poly, TOL) > TOL:
            continue  # already in it
        s = sweep_distance(fp.corners(), fp.forward, poly)
        if s >= dist - TOL:
            continue
        path = swept_rectangle(fp.centre, ahead(fp, dist + 1.0).centre, fp.frontage, fp.depth / 2.0)
        defended = any(
            o.side == f["side"]
            and on_section(f, *o.fp.front_centre)
            and convex_penetration(path, o.fp.corners(), TOL) > TOL
            for o in board.near(path, 0.0, exclude=(m.id,))
        )
        if not defended:
            dist = max(0.0, s)
    return dist


def crosses_fort(forts: list[Fort], start: Footprint, reach: float) -> bool:
    """dbm-3.2:press.forward: would a straight-ahead move of ``reach`` from ``start`` touch a
    fortification (any side's)?"""
    end = ahead(start, reach)
    xs = [p[0] for p in (*start.corners(), *end.corners())]
    ys = [p[1] for p in (*start.corners(), *end.corners())]
    return any(
        min(xs) < f["x1"] - TOL
        and max(xs) > f["x0"] + TOL
        and min(ys) < f["y1"] - TOL
        and max(ys) > f["y0"] + TOL
        for f in forts
    )
