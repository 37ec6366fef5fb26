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

from shieldwall.rulesets.dbm.clauses import rule
from shieldwall.rulesets.dbm.fortgeom import Fort, inner_edge_distance
from shieldwall.rulesets.dbm.geom import local, overlapping
from shieldwall.rulesets.dbm.special import storm_pursuit

if TYPE_CHECKING:
    from shieldwall.rulesets.dbm.board import Board

Event = dict[str, Any]


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
