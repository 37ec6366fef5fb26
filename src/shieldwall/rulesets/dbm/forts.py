"""Fortifications in battle: table-parallel strips a side holds (scenario data), who defends them,
storming pursuit and the press-forward bar (ruling R40).

Clauses: dbm-3.2:storm.pursue (an assaulter that destroys a defender or makes it flee or recoil
pursues 1 base depth measured from the fortification's inner edge, unless friends are in the way;
enemy in the way are moved back to make room), dbm-3.2:rs.general (no rear support when defending
fortifications), dbm-3.2:mrs (c) (troops defending fortifications as winners), dbm-3.2:press.forward
(no press forward across fortifications).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shieldwall.core.geometry import (
    Footprint,
    convex_penetration,
    polygon_distance,
    sweep_distance,
    swept_rectangle,
)
from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.elements import Element
from shieldwall.rulesets.dbm.geom import TOL, ahead, local, overlapping
from shieldwall.rulesets.dbm.special import storm_pursuit

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.board import Board

Event = dict[str, Any]
Fort = dict[str, Any]  # {"x0", "y0", "x1", "y1", "side"}


def _inside(f: Fort, x: float, y: float) -> bool:
    return bool(f["x0"] - TOL <= x <= f["x1"] + TOL and f["y0"] - TOL <= y <= f["y1"] + TOL)


def defended_fort(forts: list[Fort], e: Element) -> Fort | None:
    """The fortification ``e`` defends: one its side holds, with e's front edge centre on it."""
    x, y = e.fp.front_centre
    return next((f for f in forts if f["side"] == e.side and _inside(f, x, y)), None)


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
            and _inside(f, *o.fp.front_centre)
            and convex_penetration(path, o.fp.corners(), TOL) > TOL
            for o in board.near(path, 0.0, exclude=(m.id,))
        )
        if not defended:
            dist = max(0.0, s)
    return dist


def storm(board: Board, winner: str, f: Fort) -> list[Event]:
    """dbm-3.2:storm.pursue after the assaulter ``winner`` beat a defender of ``f``."""
    e = board.el[winner]
    dist = inner_edge_distance(f, e)
    probe = storm_pursuit(e, dist, friends_in_way=False, corner_flanker=False)
    assert probe is not None
    friends = [
        o
        for o in board.near(probe.corners(), 0.0, exclude=(e.id,))
        if o.side == e.side and overlapping(probe, o.fp)
    ]
    if friends:
        return []
    ev: list[Event] = []
    hd = probe.depth / 2.0
    fx, fy = probe.forward
    for o in board.near(probe.corners(), 0.0, exclude=(e.id,)):
        if o.side == e.side or not overlapping(probe, o.fp):
            continue
        back = hd - min(local(probe, p)[1] for p in o.fp.corners())
        board.move(o.id, o.fp.moved(fx * back, fy * back))
        ev.append({"kind": "pushed-back", "id": o.id, "paces": round(back, 3), "rule": rule("storm.pursue")})
    board.move(e.id, probe)
    ev.insert(
        0,
        {
            "kind": "storm-pursue",
            "id": e.id,
            "paces": round(dist + e.fp.depth, 3),
            "rule": rule("storm.pursue"),
        },
    )
    return ev


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
