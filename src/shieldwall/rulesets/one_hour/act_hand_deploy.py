"""Deployment by hand in one-hour-dark-ages (``hand_deployment``; ruling R50).

The text leaves deployment to "the 1HW scenarios" (``deployment``). With the option on, a friendly
roll-off ("Grey Areas") settles who places first: the loser, the winner taking the place second
(``deployment.order``); the sides then alternate one unit at a time, each in the order its
scenario lists them. A unit goes wholly within its side's zone (``deployment.zone``), overlapping no
unit already placed, touching no enemy (``deployment.clear``), out of terrain its type may not enter
(the terrain's own clause). Units not yet placed stand where the scenario put them and block
nothing. After the last one the Viking Veterans choose (``act_deploy``), then the first turn.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from shieldwall.core.geometry import Footprint, dist
from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour.act_common import bad, bad_from
from shieldwall.rulesets.one_hour.model import SIDES, Unit, other
from shieldwall.rulesets.one_hour.spatial import placement_problem
from shieldwall.rulesets.one_hour.zones import FACING, outside

if TYPE_CHECKING:
    from shieldwall.rulesets.one_hour.state import OneHourState

#: the spacing of the menu's places, coarse first (a full zone is searched finer)
GRIDS = (4.0, 1.0, 0.5)
#: the most places the menu offers beside the scenario's own
MENU_MAX = 48


def begin(st: OneHourState) -> None:
    """Start the deployment: the roll-off for who places first, then the first unit to place."""
    st.phase = "deployment"
    favoured = st.order[0]
    won = st.roll_off(favoured, "grey-areas", "who places the first unit (deployment.order)")
    first = other(favoured) if won else favoured
    st.deploy_left = {s: tuple(u.id for u in st.units.values() if u.side == s) for s in SIDES}
    st.deploy_next = first
    st.log(
        "deploy-order",
        "deployment.order",
        side=first,
        first=first,
        reason="the roll-off's loser places first, then the sides alternate",
        zones={s: list(st.game.deploy_zones[s]) for s in SIDES},
    )
    ask(st)


def ask(st: OneHourState) -> None:
    """The next unit to place (the side whose turn it is, else the other), or the end. A unit for
    which no place is legal any more is held back (ruling R50): the deployment never stalls."""
    while _next(st):
        if menu(st):
            return
        u = st.unit(st.active or "")
        side = u.side
        u.removed = True  # it takes no part; not a loss (``lost`` counts units removed in battle)
        st.deploy_left = {**st.deploy_left, side: st.deploy_left[side][1:]}
        st.deploy_next = other(side)
        st.log(
            "held-back",
            "deployment.zone",
            side=side,
            unit=u.id,
            reason="no place in its side's zone is legal for it any more (none on a 1/2-inch grid): "
            "it is held back and takes no part in the battle",
        )


def _next(st: OneHourState) -> bool:
    """Make the next unit to place the active one (True), or end the deployment (False)."""
    left = st.deploy_left
    side = st.deploy_next
    if not left[side]:
        side = other(side)
    if not left[side]:
        st.log(
            "deployment",
            "deployment",
            side=None,
            positions={
                u.id: [round(u.fp.x, 3), round(u.fp.y, 3), round(u.fp.heading, 3)]
                for u in st.units.values()
                if not u.removed
            },
        )
        st.deploy_next = ""
        st.after_deployment()
        return False
    st.player = st.order.index(side)
    st.step = "deploy"
    st.active = left[side][0]
    return True


def placed(st: OneHourState) -> list[Unit]:
    """The units already on the table (every unit once the deployment is over)."""
    waiting = {uid for ids in st.deploy_left.values() for uid in ids}
    return [u for u in st.units.values() if u.id not in waiting and not u.removed]


def problem(st: OneHourState, u: Unit, fp: Footprint) -> tuple[str, str] | None:
    """Why ``u`` may not be placed on ``fp``: (clause, reason), or None."""
    corners = fp.corners()
    t = st.terrain
    if any(not (-1e-6 <= x <= t.width + 1e-6 and -1e-6 <= y <= t.depth + 1e-6) for x, y in corners):
        return ("deployment.zone", f"{u.id} would not stand wholly on the table")
    zone = st.game.deploy_zones[u.side]
    if outside(zone, fp):
        x0, y0, x1, y1 = zone
        return (
            "deployment.zone",
            f"{u.id} would not stand wholly within {u.side}'s deployment zone "
            f"(x {x0:g}-{x1:g}, y {y0:g}-{y1:g})",
        )
    prob = placement_problem(u, fp, placed(st), t)
    if prob is None:
        return None
    clause, _, reason = prob.partition(": ")
    if clause in ("movement", "charging"):  # another unit: the deployment's own clause
        reason = reason.replace("only a charge may end", "a unit may not be placed")
        return ("deployment.clear", reason.replace("the unit would", f"{u.id} would"))
    return (clause, reason)


def _footprint(u: Unit, x: float, y: float, heading: float) -> Footprint:
    return Footprint(x, y, heading, u.fp.frontage, u.fp.depth)


def deploy(st: OneHourState, order: O.Deploy) -> None:
    """ "deploy U at X,Y facing H": place the unit whose turn it is (ruling R50)."""
    side = st.side
    if order.unit != st.active:
        mine = order.unit in st.deploy_left[side]
        raise bad(
            "deployment.order",
            f"{side} places {st.active} now (its units go in the scenario's order)"
            if mine
            else f"{order.unit} is not one of {side}'s units waiting to be placed",
        )
    u = st.unit(order.unit)
    heading = u.fp.heading if order.heading is None else order.heading
    if not all(math.isfinite(v) for v in (order.x, order.y, heading)):
        raise bad("orders", "a place and a heading are finite numbers")
    # written as an order's text writes them (3 decimals), so a replay of the text places it alike
    x, y, h = round(order.x, 3), round(order.y, 3), round(heading % 360.0, 3)
    fp = _footprint(u, x, y, h)
    why = problem(st, u, fp)
    if why is not None:
        raise bad_from(f"{why[0]}: deploy {u.id}: {why[1]}")
    u.fp = fp
    st.deploy_left = {**st.deploy_left, side: st.deploy_left[side][1:]}
    st.deploy_next = other(side)
    st.log("deploy", "deployment.clear", unit=u.id, at=[x, y, h], zone=list(st.game.deploy_zones[side]))
    ask(st)


def menu(st: OneHourState) -> list[O.Order]:
    """Places for the unit to place: the scenario's own (when legal), then legal places on a 4"
    grid over the zone facing the enemy's edge, nearest the scenario's place first (1", then 1/2"
    when the 4" grid has none)."""
    u = st.unit(st.active or "")
    start = st.game.initial_fp[u.id]
    out: list[O.Order] = []
    if problem(st, u, start) is None:
        out.append(O.Deploy(u.id, round(start.x, 3), round(start.y, 3), round(start.heading % 360.0, 3)))
    h = FACING[st.game.home_edge[u.side]]
    x0, y0, x1, y1 = st.game.deploy_zones[u.side]
    for step in GRIDS:
        spots: list[tuple[float, float]] = []
        nx, ny = int((x1 - x0) / step + 1e-9), int((y1 - y0) / step + 1e-9)
        for i in range(nx + 1):
            for j in range(ny + 1):
                spots.append((round(x0 + i * step, 3), round(y0 + j * step, 3)))
        spots.sort(key=lambda p: (dist(p, (start.x, start.y)), p))
        found: list[O.Order] = []
        for x, y in spots:
            if problem(st, u, _footprint(u, x, y, h)) is None:
                found.append(O.Deploy(u.id, x, y, h))
                if len(found) >= MENU_MAX:
                    break
        if found or out:
            return out + [o for o in found if o not in out]
    return out
