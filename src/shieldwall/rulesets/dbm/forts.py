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

from shieldwall.core.geometry import Footprint
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


def inner_edge_distance(f: Fort, e: Element) -> float:
    """From ``e``'s front edge, straight ahead, to the fortification's inner edge (the edge towards
    its holder's own base edge: y1 for blue, y0 for red)."""
    y = f["y1"] if f["side"] == "blue" else f["y0"]
    _, v = local(e.fp, (e.fp.x, y))
    return max(0.0, v - e.fp.depth / 2.0)


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
