"""Champions who join units (special-troops.champions).

"Champions may join units and are treated as if mixed in with the front rank. While in the front
rank, up to 2 of their opponent's dice may be declared as targeting the champion."

Play (docs/rulings/into-the-dark.md, rulings 67 and 73): a champion joins a friendly unit as his
action in the Movement phase (``join C U``) when the unit is within his remaining move and he is
not in melee; he leaves the table as a unit of his own. The text gives no rule for leaving and no
rule against it: in his side's Movement phase he may leave (``leave C``) a unit that is neither in
melee nor routing, standing out in front of its front edge (behind its rear if the front is
blocked); leaving is his action for the turn. In each melee round he adds his own attack - 2 d6, 1 when
wounded, never doubled (ruling 26) - against the enemy in contact with the unit's front (the one
with the longest contact), with the unit's charging bonus; enemies fighting the unit's front may
declare up to 2 dice at him (``act_generals``). He takes no part in the unit's missile fire, its
morale tests or its casualties; he shares its fate: when the unit is destroyed, routs off or
leaves the table, he is lost with it. His attack and the dice declared at him are rolled in the
melee round (``front_rank``).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import CONTACT_TOL, Footprint, heading_vector, point_segment_distance
from shieldwall.core.polygons import convex_penetration, footprints_within

from .clauses import cite
from .extra_orders import Join, Leave
from .generals import key_of_figure
from .model import Unit
from .movement import on_table, terrain_effect
from .moves import can_move, done, own_unit, remaining
from .spatial import closest_point, gap

if TYPE_CHECKING:
    from .state import IntoTheDarkState


def joined_to(st: IntoTheDarkState, host: Unit) -> list[Unit]:
    """The champions standing in ``host``'s front rank."""
    return [c for c in st.units.values() if c.joined == host.id and not c.destroyed and not c.general]


def _clause(c: Unit) -> str:
    return "command.generals" if c.general else "special-troops.champions"


def join_problem(st: IntoTheDarkState, c: Unit, host: Unit | None) -> str | None:
    """Why champion or general ``c`` may not join ``host`` now: "Champions may join units"; a general
    figure: "They may join units however" (special-troops.champions, command.generals)."""
    # into-the-dark:command.generals.join
    # into-the-dark:special-troops.champions.join
    if not (c.champion or c.general):
        return "only champions and generals join units"
    who = "a general" if c.general else "a champion"
    if host is None or not host.on_table or host.side != c.side:
        return f"{who} joins a friendly unit on the table"
    if host.champion or host.general:
        return f"{who} joins a unit of figures, not a champion or a general"
    if host.routed:
        return f"{host.id} is routing"
    prob = can_move(st, c)
    if prob:
        return prob
    left = remaining(st, c)
    if gap(c.fp, host.fp) > left + 1e-9:
        return f'{host.id} is {gap(c.fp, host.fp):.1f}" away, beyond his {left:.1f}" of move'
    return _way_blocked(st, c, host)


#: inches between the checks of a joining figure's way to its unit (movement.SAMPLE)
_STEP = 0.4


def _way_blocked(st: IntoTheDarkState, c: Unit, host: Unit) -> str | None:
    """Joining is a move of the figure straight to the unit (measured as the gap between them): on
    its way it may not enter terrain it may not enter nor pass through an enemy unit
    (terrain.restrictive, terrain.deep-water, movement.interpenetration; ruling 77). Only the terrain
    and the enemies near the way are looked at."""
    p = c.fp.centre
    q = closest_point(p, host.fp.corners())
    ln = math.dist(p, q)
    if ln < 1e-9:
        return None
    near = [
        e
        for e in st.live()
        if e.side != c.side and point_segment_distance(e.fp.centre, p, q) <= e.fp.radius + c.fp.radius
    ]
    n = max(1, math.ceil(ln / _STEP))
    for i in range(1, n + 1):
        fp = c.fp.moved((q[0] - p[0]) * i / n, (q[1] - p[1]) * i / n)
        if (
            footprints_within(fp, host.fp, 0.0)
            and convex_penetration(fp.corners(), host.fp.corners()) > CONTACT_TOL
        ):
            return None  # he has reached it
        if terrain_effect(c, fp, st.terrain)[0] is None:
            return f"terrain he may not enter lies between him and {host.id}"
        for e in near:
            if (
                footprints_within(fp, e.fp, 0.0)
                and convex_penetration(fp.corners(), e.fp.corners()) > CONTACT_TOL
            ):
                return f"the enemy {e.id} is in the way to {host.id}"
    return None


def join_menu(st: IntoTheDarkState, c: Unit) -> list[Join]:
    if not (c.champion or c.general):
        return []
    return [Join(c.id, h.id) for h in st.live(c.side) if h.id != c.id and join_problem(st, c, h) is None]


def join(st: IntoTheDarkState, order: Join) -> None:
    # into-the-dark:special-troops.champions.join
    c = own_unit(st, order.unit)
    host = st.units.get(order.host)
    prob = join_problem(st, c, host)
    if prob:
        raise IllegalOrder(cite(_clause(c)), f"{c.id} cannot join {order.host}: {prob}")
    assert host is not None
    c.acted = True
    c.joined = host.id
    key = key_of_figure(st, c)
    if key is not None:
        # "A general that has joined and is personally leading a unit" (command.general-leading)
        st.generals[key]["with"] = host.id
        st.generals[key]["leading"] = True
        st.log("join", "command.general-leading", side=c.side, unit=c.id, host=host.id, general=key)
    else:
        st.log("join", "special-troops.champions", side=c.side, unit=c.id, host=host.id)
    done(st, c)


def _out_of(st: IntoTheDarkState, c: Unit, host: Unit) -> Footprint | None:
    """Where champion ``c`` stands on leaving ``host``: just in front of its front edge, facing its
    way, or else just behind its rear edge; None when neither is clear of units and terrain."""
    fx, fy = heading_vector(host.heading)
    depth = c.depth
    for d in (depth / 2.0 + 0.01, -(host.depth + depth / 2.0 + 0.01)):
        fp = Footprint(host.x + fx * d, host.y + fy * d, host.heading, c.frontage, depth)
        if not on_table(fp, st.terrain) or terrain_effect(c, fp, st.terrain, swim=False)[0] is None:
            continue
        if any(
            convex_penetration(fp.corners(), x.fp.corners()) > CONTACT_TOL for x in st.live() if x.id != c.id
        ):
            continue
        return fp
    return None


def leave_problem(st: IntoTheDarkState, c: Unit) -> str | None:
    """Why champion or general ``c`` may not leave the unit he joined now (rulings 73 and 75,
    special-troops.champions, command.generals)."""
    # into-the-dark:command.generals.join
    # into-the-dark:special-troops.champions.join
    if not (c.champion or c.general) or c.joined is None or c.destroyed:
        return f"{c.id} is not a champion or general standing in a unit"
    host = st.units.get(c.joined)
    if host is None or not host.on_table:
        return f"{c.joined} is not on the table"
    if host.routed:
        return f"{host.id} is routing"
    if st.in_melee(host):
        return f"{host.id} is in melee: {c.id} fights in its front rank"
    if c.acted:
        return f"{c.id} has already acted this turn"
    if _out_of(st, c, host) is None:
        return f"there is no room in front of or behind {host.id}"
    return None


def leave_menu(st: IntoTheDarkState, side: str) -> list[Leave]:
    return [
        Leave(c.id)
        for c in st.units.values()
        if c.side == side and c.joined is not None and leave_problem(st, c) is None
    ]


def leave(st: IntoTheDarkState, order: Leave) -> None:
    # into-the-dark:special-troops.champions.join
    assert st.pending is not None
    c = st.units.get(order.unit)
    if c is None or c.side != st.pending["side"]:
        raise IllegalOrder(
            cite("special-troops.champions"), f"{order.unit} is not one of your champions or generals"
        )
    prob = leave_problem(st, c)
    if prob:
        raise IllegalOrder(cite(_clause(c)), f"{c.id} cannot leave: {prob}")
    host = st.units[c.joined or ""]
    fp = _out_of(st, c, host)
    assert fp is not None
    c.place(fp)
    c.joined = None
    c.acted = True
    c.moved = True
    key = key_of_figure(st, c)
    if key is not None:
        # on his own again: "A general that has not joined a unit may instead use command 'actions'"
        st.generals[key]["with"] = None
        st.generals[key]["leading"] = False
    st.log(
        "leave",
        _clause(c),
        side=c.side,
        unit=c.id,
        host=host.id,
        to=[round(c.x, 3), round(c.y, 3)],
        **({"general": key} if key is not None else {}),
    )
