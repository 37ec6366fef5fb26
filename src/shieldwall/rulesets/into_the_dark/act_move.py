"""The Movement phase (turn-sequence.movement, movement.*): each side in turn orders its units one
at a time; zones of control give the other side opportunity charges and fire (setup.zone-of-control,
movement.opportunity-charges, combat.opportunity-fire).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import normalize_angle

from . import orders as O
from .clauses import cite
from .model import Unit
from .movement import (
    Problem,
    Trace,
    end_problem,
    trace,
)
from .profiles import missile_weapons

if TYPE_CHECKING:
    from .state import IntoTheDarkState


def bad(clause: str, reason: str) -> IllegalOrder:
    return IllegalOrder(cite(clause), reason)


def from_problem(p: Problem) -> IllegalOrder:
    return IllegalOrder(cite(p.clause), p.reason)


# --- allowances ---------------------------------------------------------------------------------


def base_allowance(st: IntoTheDarkState, u: Unit) -> float:
    """Maximum move ("Distances"; encased limit; 4" in shieldwall (swat.shieldwall)), halved after
    interpenetrating while both units move (movement.interpenetration)."""
    m = st.d(4.0) if u.shieldwall else st.d(u.allowance)
    if u.shieldwall:
        m = min(m, st.d(u.allowance))
    return m / 2.0 if u.halved else m


def remaining(st: IntoTheDarkState, u: Unit) -> float:
    left = base_allowance(st, u) - u.used
    if u.fired and not u.mounted:
        # a foot unit that has already fired (opportunity fire) may move only up to half (docs/rulings)
        w = u.spec.missile_weapon
        if w is not None and not missile_weapons()[w].move_and_fire:
            return 0.0
        left = min(left, st.d(u.allowance) / 2.0 - u.travelled)
    return max(0.0, left)


def about_cost(st: IntoTheDarkState, u: Unit) -> float:
    """ "Turning a unit completely around ... normally uses up half of the unit's turn, (unless
    disordered when it takes the whole turn)" (movement.turning)."""
    b = base_allowance(st, u)
    return b if u.disordered else b / 2.0


def act_problem(st: IntoTheDarkState, u: Unit) -> str | None:
    """Why ``u`` may take no action in its side's Movement phase."""
    if u.acted:
        return "it has already acted this turn"
    if u.routed:
        return "routed units move only in the Rally phase"
    if u.rallying:
        return "troops that rallied may not move during the movement phase"
    if u.evading:
        return "an evading unit rallies (turns back) only in next turn's Rally phase"
    if u.pursuing:
        return "a fanatic unit must rally to stop chasing a routed unit"
    return None


def can_move(st: IntoTheDarkState, u: Unit) -> str | None:
    p = act_problem(st, u)
    if p:
        return p
    if st.in_melee(u):
        return "units in melee may not move (they may turn to face or change frontage)"
    if u.faced:
        return "a unit cannot move unless all its figures are facing the same direction"
    return None


# --- movement phase ------------------------------------------------------------------------------


def own_unit(st: IntoTheDarkState, uid: str) -> Unit:
    u = st.unit(uid)
    p = st.pending
    assert p is not None
    if u.side != p["side"]:
        raise bad("turn-sequence.movement", f"{uid} is not one of {p['side']}'s units")
    if p["kind"] == "unit" and p["unit"] != uid:
        raise bad("turn-sequence.movement", f"the unit acting is {p['unit']}, not {uid}")
    return u


def activate(st: IntoTheDarkState, order: O.Activate) -> None:
    u = own_unit(st, order.unit)
    prob = act_problem(st, u)
    if prob:
        raise bad("movement.movement", f"{u.id}: {prob}")
    st.active = u.id
    st.ask("unit", u.side, u.id)


def done(st: IntoTheDarkState, u: Unit) -> None:
    st.active = None
    st.push(("move-phase", u.side))


def hold(st: IntoTheDarkState, order: O.Hold) -> None:
    u = own_unit(st, order.unit)
    prob = act_problem(st, u)
    if prob:
        raise bad("movement.movement", f"{u.id}: {prob}")
    u.acted = True
    st.log("hold", "movement.movement", side=u.side, unit=u.id)
    done(st, u)


def plan_move(st: IntoTheDarkState, u: Unit, steps: tuple[O.Step, ...]) -> Trace:
    """Check a move without making it (movement.movement, movement.distances, movement.turning,
    movement.wheeling, movement.interpenetration, terrain.*)."""
    prob = can_move(st, u)
    if prob:
        raise bad("movement.movement", f"{u.id}: {prob}")
    if not steps:
        raise bad("movement.movement", "a move needs at least one step")
    if any(isinstance(s, O.Back) for s in steps):
        if not u.spec.has("skirmisher"):
            raise bad(
                "special-troops.skirmishers", "only skirmishers may back up; other moves are forward only"
            )
        if not all(isinstance(s, O.Back) for s in steps):
            raise bad(
                "special-troops.skirmishers",
                "skirmishers back up without turning: a back-up move is only back steps",
            )
    world = st.world()
    try:
        tr = trace(u, steps, world, about_cost=about_cost(st, u))
    except Problem as p:
        raise from_problem(p) from None
    why = end_problem(u, tr.fp, world)
    if why:
        raise bad("movement.charging" if "contact" in why else "movement.movement", why)
    both_moving_check(st, u, tr.both_moving)
    limit = remaining(st, u)
    if tr.both_moving:
        limit = min(limit, base_allowance(st, u) / 2.0 - u.used)
    if tr.cost > limit + 1e-6:
        raise bad(
            "movement.distances",
            f'{u.id} would use {tr.cost:.2f}" of movement; it has {max(0.0, limit):.2f}" left',
        )
    return tr


def both_moving_check(st: IntoTheDarkState, u: Unit, friends: list[str]) -> None:
    """ "If both interpenetrating units move this turn, their maximum moves are halved"
    (movement.interpenetration): a friend that has already used more than half of its move cannot
    have its maximum halved, so it may not be passed through (docs/rulings)."""
    for fid in friends:
        f = st.units[fid]
        if not f.halved and f.used > base_allowance(st, f) / 2.0 + 1e-6:
            raise bad(
                "movement.interpenetration",
                f"{u.id} may not pass through {fid}: {fid} has moved more than half its maximum this turn",
            )


def apply_trace(st: IntoTheDarkState, u: Unit, tr: Trace, clause: str) -> None:
    """Stand the unit at the end of a planned move and apply what the move causes."""
    u.place(tr.fp)
    u.used += tr.cost
    # skirmishers backing up "may still fire": backing does not count against shooting
    u.travelled += tr.travel - tr.backed
    if tr.travel > 1e-9 or tr.cost > 1e-9:
        u.moved = True
    if tr.disorder and not u.disordered:
        u.disordered = True
        st.log(
            "disordered",
            tr.disorder[0],
            side=u.side,
            unit=u.id,
            reason="moved in disordering terrain or through friends",
            clauses=[cite(c) for c in tr.disorder],
        )
    if u.disordered and u.shieldwall:
        u.shieldwall = False
        st.log(
            "shieldwall-broken",
            "swat.shieldwall",
            side=u.side,
            unit=u.id,
            reason="disordered units may not be in shieldwall",
        )
    if tr.passed:
        u.interpenetrated = True
    for fid in tr.passed:
        f = st.units[fid]
        f.interpenetrated = True
        if fid in tr.both_moving:
            u.halved = True
            f.halved = True
            for x in (u, f):
                if not x.disordered:
                    x.disordered = True
                    x.shieldwall = False
                    st.log(
                        "disordered",
                        "movement.interpenetration",
                        side=x.side,
                        unit=x.id,
                        reason="both interpenetrating units moved this turn",
                    )


def move(st: IntoTheDarkState, order: O.Move) -> None:
    u = own_unit(st, order.unit)
    tr = plan_move(st, u, order.steps)
    start = (u.x, u.y, u.heading)
    apply_trace(st, u, tr, "movement.movement")
    u.acted = True
    st.log(
        "move",
        "movement.movement",
        side=u.side,
        unit=u.id,
        steps=[s.text() for s in order.steps],
        distance=round(tr.travel, 3),
        cost=round(tr.cost, 3),
        allowance=round(base_allowance(st, u), 3),
        start=[round(v, 3) for v in start],
        to=[round(u.x, 3), round(u.y, 3), round(u.heading, 3)],
        passed_through=tr.passed,
    )
    st.active = None
    st.push(
        ("zoc", u.id, tuple((f.x, f.y, f.heading, f.frontage, f.depth) for f in tr.samples)),
        ("move-phase", u.side),
    )


def angle_to(u: Unit, p: tuple[float, float]) -> float:
    fx, fy = u.front_centre
    return normalize_angle(math.degrees(math.atan2(p[0] - fx, p[1] - fy)) - u.heading)


def zoc_length(st: IntoTheDarkState, u: Unit, kind: str) -> float:
    """ "For melee troops this zone is equal to half of its own normal movement distance ... For
    missile troops this zone is equal to their weapons' close range" (setup.zone-of-control)."""
    if kind == "melee":
        return st.d(u.allowance) / 2.0
    w = u.spec.missile_weapon
    assert w is not None
    return st.d(missile_weapons()[w].close)
