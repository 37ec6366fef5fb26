"""Declared Movement (optional rule): declare the intent, roll, then fulfil it as far as possible.

The dispatcher (``actions``) calls ``fulfil`` once an activated unit has rolled; ``fulfil`` gives
the orders it chooses back through the ``apply_order`` it is passed (the dispatcher's own), so
this module sits below the dispatcher and above the menus it asks (``menus.charge_orders``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import bearing, dist, heading_vector, normalize_angle
from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour import spatial as S
from shieldwall.rulesets.one_hour.act_common import placement
from shieldwall.rulesets.one_hour.menus import charge_orders
from shieldwall.rulesets.one_hour.model import Unit
from shieldwall.rulesets.one_hour.profiles import terrain_effects

if TYPE_CHECKING:
    from collections.abc import Callable

    from shieldwall.rulesets.one_hour.state import OneHourState

    #: how ``fulfil`` gives an order: the dispatcher's ``actions.apply_order``
    ApplyOrder = Callable[[OneHourState, O.Order], None]


def _stopping_place(st: OneHourState, u: Unit, p: tuple[float, float]) -> bool:
    """ "They may however stop alongside a Unit with a banner, at a terrain feature that gives a
    movement or combat bonus [e.g. road, hill]." ("declared-movement.may-stop")"""
    eff = terrain_effects()
    for f in st.terrain.features:
        e = eff[f.kind]
        if (f.kind == "road" or e.melee_defence or e.shoot_defence) and f.contains(p):
            return True
    for x in st.live(u.side):
        banner = st.has_personality(x, "hero", banner=True) or st.has_personality(x, "leader", banner=True)
        # "Personalities may only affect or attach to Units of their own list"
        if x.id != u.id and x.allied == u.allied and banner and dist(x.fp.centre, p) <= x.fp.frontage + 1.0:
            return True
    return False


def fulfil(st: OneHourState, u: Unit, order: O.Activate, apply_order: ApplyOrder) -> None:
    """Carry out the declared intent with the distance rolled. Warband must contact an enemy if
    they roll enough distance; Units move the full distance even if farther than desired, but
    must stop at a Unit they may not interpenetrate (contacting for melee if an enemy).

    The charge, move or hold chosen is given with ``apply_order`` (``actions.apply_order``)."""
    charges = charge_orders(st, u)
    chosen: O.Charge | None = None
    if order.charge:
        mine = [c for c in charges if c.target == order.charge]
        if mine:
            chosen = mine[0]
    if chosen is None and u.category == "warband" and charges:
        chosen = min(charges, key=lambda c: S.distance_between(u, st.units[c.target]))
        st.log("warband-must-charge", "declared-movement.warband", unit=u.id, target=chosen.target)
    if chosen is not None:
        apply_order(st, chosen)
        return
    if order.charge:
        t = st.units[order.charge]
        goal = t.fp.centre
    else:
        assert order.toward is not None
        goal = order.toward
    ang = round(normalize_angle(bearing(u.fp.centre, goal) - u.fp.heading), 2)
    turn = O.Turn(ang, "centre") if abs(ang) > 1.0 else None
    facing_goal = True
    if turn is not None:
        why = placement(st, u, u.fp.turned(ang, "centre"))
        if why is not None:
            # "The unit turns to face the goal if it may" (ruling R33): where the turned unit may
            # not stand (it would overlap another, leave the table, stand in terrain it may not
            # enter), it does not turn: it goes straight ahead when that brings it nearer its goal,
            # else it holds
            st.log("declared-no-turn", "declared-movement", unit=u.id, angle=ang, reason=why)
            if abs(ang) >= 90.0:
                apply_order(st, O.Hold(u.id))
                return
            turn = None
            facing_goal = False
    fp = u.fp if turn is None else u.fp.turned(ang, "centre")
    d = heading_vector(fp.heading)
    probe = u.clone()
    probe.fp = fp
    # "Units move the full distance rolled even if farther than desired" ("declared-movement.full-distance")
    want = st.rolled
    to_goal = dist(fp.centre, goal)
    if facing_goal and to_goal <= st.rolled and _stopping_place(st, u, goal):
        want = to_goal
    far = S.max_advance(probe, fp, d, want, st.live(), st.terrain)
    if far < want - 0.3:
        # "...must stop at any Unit they may not interpenetrate, Contacting for Melee if an enemy Unit."
        ahead = [
            c
            for c in charges
            if abs(
                normalize_angle(
                    bearing(u.fp.centre, st.units[c.target].fp.centre) - bearing(u.fp.centre, goal)
                )
            )
            <= 45.0
        ]
        if ahead:
            hit = min(ahead, key=lambda c: S.distance_between(u, st.units[c.target]))
            st.log("declared-contact", "declared-movement.must-stop", unit=u.id, target=hit.target)
            apply_order(st, hit)
            return
    steps: list[O.Step] = [turn] if turn else []
    if far >= 0.01:
        steps.append(O.Go(*S.advance_point(fp.centre, d, far)))
    if not steps:
        apply_order(st, O.Hold(u.id))
        return
    try:
        apply_order(st, O.Move(u.id, tuple(steps), "declared"))
    except IllegalOrder:
        apply_order(st, O.Hold(u.id))
