"""Deployment by hand in knight-hack (the parameter ``hand_deployment``, default off; ruling R51).

The errata says nothing of deployment: a scenario places every unit. With the option on, a
roll-off (on the initiative die, the parameter ``initiative_die``) settles who places first: the
loser, the winner placing second (``knight-hack:deployment.order``); the sides then alternate one
unit at a time, each in the order its scenario lists them. A unit goes wholly on the table and
within its side's zone (``deployment.zone``, :mod:`.zones`), no nearer than 0.25 in. to a unit
already placed that its side sees (``deployment.clear``: "the only way for units to come into
contact is the result of a charge"). A unit hidden in ambush is placed hidden (its event and its
decision are hidden from the other side) and must also stand at least 0.25 in. clear of the other
side's zone, so no enemy placement can ever run into it. Terrain is drawn only (R36): no place is
refused for its terrain. Units not yet placed stand where the scenario put them, are not seen by the
other side and block nothing. A unit for which no place is legal any more is held back.
"""

from __future__ import annotations

import math

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint
from shieldwall.core.polygons import footprint_distance
from shieldwall.rulesets.knight_hack.board import Ask, Board, Unit
from shieldwall.rulesets.knight_hack.clauses import rule
from shieldwall.rulesets.knight_hack.geom import GAP, on_table
from shieldwall.rulesets.knight_hack.orders import Order
from shieldwall.rulesets.knight_hack.rolloff import roll_off, roll_off_data
from shieldwall.rulesets.knight_hack.zones import FACING, distance_to, outside

#: the spacing of the menu's places, coarse first (a full zone is searched finer)
GRIDS = (4.0, 1.0, 0.5)
#: the most places the menu offers beside the scenario's own
MENU_MAX = 48


def begin(b: Board, zones: dict[str, tuple[float, float, float, float]], order: dict[str, list[str]]) -> None:
    """Start the deployment: the roll-off for who places first, then the first unit to place.
    ``order``: each side's units in the order its scenario lists them."""
    b.phase = "deployment"
    b.deploy_zones = dict(zones)
    winner, rolls = roll_off(b.rng, b.sides, str(b.params["initiative_die"]))
    first = b.other(winner)
    b.deploy_left = {s: tuple(order[s]) for s in b.sides}
    b.deploy_next = first
    b.log(
        "deploy-order",
        "deployment.order",
        first,
        first=first,
        winner=winner,
        reason="the roll-off's winner places second: the loser places first, then the sides alternate",
        zones={s: list(zones[s]) for s in b.sides},
        **roll_off_data(b.sides, rolls, str(b.params["initiative_die"])),
    )
    ask_next(b)


def ask_next(b: Board) -> None:
    """Queue the next unit to place (the side whose turn it is, else the other), or end the
    deployment. A unit with no legal place left is held back: the deployment never stalls."""
    while True:
        side = b.deploy_next
        if not b.deploy_left[side]:
            side = b.other(side)
        if not b.deploy_left[side]:
            _end(b)
            return
        uid = b.deploy_left[side][0]
        ask = Ask(side, "deploy", uid)
        if menu(b, ask):
            b.queue.append(ask)
            return
        u = b.units[uid]
        u.status, u.held_back = "removed", True
        _done(b, u)
        b.log(
            "held-back",
            "deployment.zone",
            side,
            unit=uid,
            reason="no place in its side's zone is legal for it any more (none on a 1/2-inch grid): "
            "it is held back and takes no part in the battle",
            **_secret(b, u),
        )


def _end(b: Board) -> None:
    b.deploy_next = ""
    b.phase = "charge"
    b.log(
        "deployment",
        "deployment",
        None,
        positions={
            u.id: [round(u.x, 3), round(u.y, 3), round(u.heading, 3)]
            for u in b.units.values()
            if not u.gone and not u.hidden
        },
    )


def _done(b: Board, u: Unit) -> None:
    b.deploy_left = {**b.deploy_left, u.side: b.deploy_left[u.side][1:]}
    b.deploy_next = b.other(u.side)


def _secret(b: Board, u: Unit) -> dict[str, list[str]]:
    """An ambusher's deployment events are hidden from the other side (``shieldwall.visibility``)."""
    return {"hidden_from": [b.other(u.side)]} if u.hidden else {}


def waiting(b: Board) -> set[str]:
    """The units still to place."""
    return {uid for ids in b.deploy_left.values() for uid in ids}


def problem(b: Board, u: Unit, fp: Footprint) -> tuple[str, str] | None:
    """Why ``u`` may not stand on ``fp``: (clause, reason), or None."""
    if not on_table(b, fp):
        return ("deployment.zone", f"{u.id} would not stand wholly on the table")
    zone = b.deploy_zones[u.side]
    if outside(zone, fp):
        x0, y0, x1, y1 = zone
        return (
            "deployment.zone",
            f"{u.id} would not stand wholly within {u.side}'s deployment zone "
            f"(x {x0:g}-{x1:g}, y {y0:g}-{y1:g})",
        )
    if u.hidden and distance_to(b.deploy_zones[b.other(u.side)], fp) < GAP - 1e-9:
        return (
            "deployment.zone",
            f"{u.id} is hidden in ambush: it must stand at least {GAP:g} in. clear of "
            f"{b.other(u.side)}'s deployment zone (ruling R51)",
        )
    left = waiting(b)
    for o in b.units.values():
        if o.id == u.id or o.id in left or o.gone or o.unseen_by(u.side):
            continue
        if footprint_distance(fp, o.footprint()) < GAP - 1e-9:
            return (
                "deployment.clear",
                f"{u.id} would stand within {GAP:g} in. of {o.id}: units come into contact only by a charge",
            )
    return None


def handle_deploy(b: Board, ask: Ask, o: Order) -> None:
    """ "deploy U x=X y=Y heading=H": place the unit whose turn it is (ruling R51)."""
    u = b.units[str(ask.unit)]
    x, y = o.arg("x"), o.arg("y")
    if x is None or y is None:
        raise IllegalOrder(rule("deployment"), f"deploy {u.id} needs x= and y= (where its centre stands)")
    h = o.arg("heading")
    heading = round((u.heading if h is None else h) % 360.0, 3)
    fp = Footprint(x, y, heading, u.width, u.depth)
    why = problem(b, u, fp)
    if why is not None:
        raise IllegalOrder(rule(why[0]), f"deploy {u.id}: {why[1]}")
    u.x, u.y, u.heading = x, y, heading
    _done(b, u)
    b.log(
        "deploy",
        "deployment.clear",
        u.side,
        unit=u.id,
        at=[x, y, heading],
        zone=list(b.deploy_zones[u.side]),
        **_secret(b, u),
    )
    ask_next(b)


def _order(u: Unit, x: float, y: float, h: float) -> Order:
    return Order("deploy", u.id, args=tuple(sorted({"x": x, "y": y, "heading": h}.items())))


def menu(b: Board, ask: Ask) -> list[Order]:
    """Places for the unit to place: where the scenario put it (when legal), then legal places on
    a 4" grid over its zone facing the enemy's edge, nearest the scenario's place first (1", then
    1/2", when the 4" grid has none)."""
    u = b.units[str(ask.unit)]
    out: list[Order] = []
    if problem(b, u, u.footprint()) is None:
        out.append(_order(u, round(u.x, 3), round(u.y, 3), round(u.heading % 360.0, 3)))
    h = FACING[b.edges[u.side]]
    x0, y0, x1, y1 = b.deploy_zones[u.side]
    for step in GRIDS:
        nx, ny = int((x1 - x0) / step + 1e-9), int((y1 - y0) / step + 1e-9)
        spots = [
            (round(x0 + i * step, 3), round(y0 + j * step, 3)) for i in range(nx + 1) for j in range(ny + 1)
        ]
        spots.sort(key=lambda p: (math.dist(p, (u.x, u.y)), p))
        found: list[Order] = []
        for x, y in spots:
            if problem(b, u, Footprint(x, y, h, u.width, u.depth)) is None:
                found.append(_order(u, x, y, h))
                if len(found) >= MENU_MAX:
                    break
        if found or out:
            return out + [o for o in found if o not in out]
    return out
