"""Charging in one-hour-dark-ages ("Charging" 1-4): the approach, the contact and the move."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from shieldwall.core.crossings import in_front_arc
from shieldwall.core.geometry import Footprint
from shieldwall.rulesets.one_hour import orders as O
from shieldwall.rulesets.one_hour import spatial as S
from shieldwall.rulesets.one_hour.act_common import (
    _active,
    _enemy,
    bad,
    bad_from,
    check_turns,
    placement,
    sees,
)
from shieldwall.rulesets.one_hour.attacks import after_move
from shieldwall.rulesets.one_hour.clauses import rule
from shieldwall.rulesets.one_hour.model import Unit

if TYPE_CHECKING:
    from shieldwall.rulesets.one_hour.state import OneHourState

# --- Charging ---------------------------------------------------------------------------------


def plan_charge(
    st: OneHourState,
    u: Unit,
    t: Unit,
    facing: str,
    turn: O.Turn | None,
    approach: tuple[Footprint, Unit] | None = None,
) -> tuple[float, Footprint, Footprint]:
    """Check a charge without making it: (distance needed, final footprint, start footprint).

    "Charging" 1-4: within 45 degrees of the front and in LoS; flank/rear only from past the
    facing's line; one attacking Unit per facing; contact along the shortest line.

    ``approach`` is the result of ``charge_approach(st, u, t, turn)`` when the caller already has
    it (the menu tries every facing with the same turn).
    """
    if facing not in O.FACING_NAMES:
        raise bad("charging", f"facing must be one of {', '.join(O.FACING_NAMES)}")
    if t.side == u.side:
        raise bad("charging", f"{t.id} is not an enemy unit")
    fp, probe = approach if approach is not None else charge_approach(st, u, t, turn)
    occupant = next((x for x, f_t, _ in st.touching(t) if f_t == facing), None)
    if occupant is not None:
        raise bad(
            "charging.one-per-facing",
            f"{t.id}'s {facing} facing is already in contact with "
            f"{occupant.id}; only one attacking Unit per facing",
        )
    plan = S.plan_charge(probe, fp, t, facing, st.live(), st.terrain)
    if isinstance(plan, str):
        raise bad_from(plan)
    need, end = plan
    if need > st.rolled + float(st.params["grey_margin"]):
        raise bad("charging.contact", f'{t.id}\'s {facing} is {need:.2f}" away; {u.id} rolled {st.rolled:g}"')
    return need, end, fp


def charge_approach(st: OneHourState, u: Unit, t: Unit, turn: O.Turn | None) -> tuple[Footprint, Unit]:
    """The part of ``plan_charge`` that does not depend on the facing charged: the start-of-move
    turn, the arc and line of sight. Returns (start footprint, the unit standing there)."""
    fp = u.fp
    if turn is not None:
        check_turns(st, u, (turn, O.Go(0, 0)))
        fp = fp.turned(turn.angle, turn.pivot)
        prob = placement(st, u, fp)
        if prob:
            raise bad_from(prob)
    # the unit as it stands at the start of the charge (itself when it does not turn)
    probe = u
    if turn is not None:
        probe = u.clone()
        probe.set_fp(fp)
    arc = float(st.params["arc"])
    if not in_front_arc(fp, t.fp.corners(), arc):
        raise bad("charging.arc", f"{t.id} is not within {arc:g} degrees of {u.id}'s front")
    if not sees(st, probe, t):  # LOS.has_los(probe, t, st.live(), st.terrain)
        raise bad("line-of-sight.required", f"{u.id} has no line of sight to {t.id}")
    return fp, probe


def charge(st: OneHourState, order: O.Charge) -> None:
    u = _active(st, order.unit)
    t = _enemy(st, order.target)
    need, end, fp = plan_charge(st, u, t, order.facing, order.turn)
    if not st.close_call(need, st.rolled, u.side, "charging.contact", f"charge reach {u.id}->{t.id}"):
        # lost the roll-off: the charge falls short, moving its full distance along the line
        d = (end.x - fp.x, end.y - fp.y)
        ln = math.hypot(*d)
        short = max(0.0, min(st.rolled, need - 0.1))
        if ln > 1e-9:
            # the path was checked to the contact; where it stops short must be a legal place to
            # stand too ("Terrain": a footprint wider than the swept column may not end in a wood)
            way = (d[0] / ln, d[1] / ln)
            probe = u.clone()
            probe.set_fp(fp)
            short = S.max_advance(probe, fp, way, short, st.live(), st.terrain)
            u.set_fp(fp.moved(way[0] * short, way[1] * short))
        else:
            u.set_fp(fp)
        u.set_moved(True)
        st.log("charge-short", "grey-areas", unit=u.id, target=t.id, moved=round(short, 3))
        after_move(st, u)
        return
    u.set_fp(end)
    u.set_moved(True)
    u.set_charged(True)
    st.log(
        "charge",
        "charging.contact",
        unit=u.id,
        target=t.id,
        facing=order.facing,
        distance=round(need, 3),
        rolled=st.rolled,
        to={"x": round(end.x, 3), "y": round(end.y, 3), "heading": round(end.heading, 3)},
        checked=[
            rule(c)
            for c in (
                "charging",
                "charging.arc",
                "line-of-sight.required",
                "charging.one-per-facing",
                "charging.contact",
                *(("charging.flank-rear",) if order.facing != "front" else ()),
                *(("turning.limits",) if order.turn is not None else ()),
            )
        ],
    )
    st.finish_activation()
