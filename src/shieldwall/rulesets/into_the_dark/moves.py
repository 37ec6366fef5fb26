"""A unit's move in the battle (movement.*): its allowance and what is left of it, why it may not
act or move, checking a planned move against the state (``plan_move``, and the Difficult Maneuvers'
``plan_fall_back`` and ``plan_careful``) and standing the unit at its end (``apply_trace``). The
geometry of a move (traces, terrain, contact) is ``movement``; the orders that make units move are
the ``act_*`` handlers.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import DEG_TO_RAD, RAD_TO_DEG, normalize_angle
from shieldwall.core.reference import REFERENCE

from . import orders as O
from .clauses import cite
from .model import Unit
from .movement import Problem, Trace, end_problem, trace
from .plan_memo import PlanMemo
from .profiles import missile_weapons

#: the math functions called here, bound once (compiled: a static read, not a lookup per call)
_atan2: Final = math.atan2

if TYPE_CHECKING:
    from .state import IntoTheDarkState


def bad(clause: str, reason: str) -> IllegalOrder:
    return IllegalOrder(cite(clause), reason)


def from_problem(p: Problem) -> IllegalOrder:
    return IllegalOrder(cite(p.clause), p.reason)


# --- allowances ------------------------------------------------------------------------------


def base_allowance(st: IntoTheDarkState, u: Unit) -> float:
    """Maximum move ("Distances"; encased limit; 4" in shieldwall (swat.shieldwall)), halved after
    interpenetrating while both units move (movement.interpenetration)."""
    # into-the-dark:swat.shieldwall.formed
    m = st.d(4.0) if u.shieldwall else st.d(u.allowance)
    if u.shieldwall:
        m = min(m, st.d(u.allowance))
    return m / 2.0 if u.halved else m


def remaining(st: IntoTheDarkState, u: Unit) -> float:
    left = base_allowance(st, u) - u.used
    if u.fired and not u.mounted:
        # a foot unit that has already fired (opportunity fire) may move only up to half (docs/rulings)
        w = u.majority.missile_weapon
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
    if u.rallying:  # into-the-dark:movement.movement.rallied-do-not-move
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
    if u.faced:  # into-the-dark:movement.movement.all-figures-one-way
        return "a unit cannot move unless all its figures are facing the same direction"
    return None


# --- a move ----------------------------------------------------------------------------------


def own_unit(st: IntoTheDarkState, uid: str) -> Unit:
    u = st.unit(uid)
    p = st.pending
    assert p is not None
    if u.side != p["side"]:
        raise bad("turn-sequence.movement", f"{uid} is not one of {p['side']}'s units")
    if p["kind"] == "unit" and p["unit"] != uid:
        raise bad("turn-sequence.movement", f"the unit acting is {p['unit']}, not {uid}")
    return u


def done(st: IntoTheDarkState, u: Unit) -> None:
    st.active = None
    st.push(("move-phase", u.side))


#: slack on ``cost_floor`` (the rounding of a trace's sum of per-sample costs)
FLOOR_SLACK: Final = 1e-9


def cost_floor(st: IntoTheDarkState, u: Unit, steps: tuple[O.Step, ...]) -> float:
    """A lower bound of the cost ``trace`` finds for ``steps`` from where ``u`` stands: every
    sample's cost factor is at least 1 (``terrain_effect`` and ``_friend_effect`` start at 1 and
    only raise it), so a straight inch costs at least 1, a backed inch 2, an inch of a wheel's
    outside edge 1 (2 disordered) and an about face ``about_cost``. Steps ``trace`` refuses count 0."""
    total = 0.0
    frontage = u.fp.frontage  # wheels and about faces keep the frontage
    wheel_mult = 2.0 if u.disordered else 1.0
    for s in steps:
        if isinstance(s, O.About):
            total += about_cost(st, u)
        elif isinstance(s, (O.Fwd, O.Back)):
            if math.isfinite(s.distance) and s.distance > 0:
                total += s.distance * (2.0 if isinstance(s, O.Back) else 1.0)
        elif math.isfinite(s.angle) and 0 < abs(s.angle) <= 180.0:
            total += frontage * (abs(s.angle) * DEG_TO_RAD) * wheel_mult
    return total


def plan_move(st: IntoTheDarkState, u: Unit, steps: tuple[O.Step, ...], *, verdict: bool = False) -> Trace:
    """``plan_move_reference``, answered from the state's memo of accepted moves while no unit has
    changed since it was planned (``plan_memo``: the menu, the look-ahead and the order applied plan
    the same moves); the reference path plans every time."""
    memo: PlanMemo | None = None if REFERENCE.on else getattr(st, "plan_memo", None)
    if memo is None or st.units.get(u.id) is not u:
        return plan_move_reference(st, u, steps, verdict=verdict)
    return memo.plan(
        st.units,
        u.id,
        tuple(steps),
        lambda: plan_move_reference(st, u, steps, verdict=verdict),
        st.still_token,
    )


def plan_move_reference(
    st: IntoTheDarkState, u: Unit, steps: tuple[O.Step, ...], *, verdict: bool = False
) -> Trace:
    """Check a move without making it (movement.movement, movement.distances, movement.turning,
    movement.wheeling, movement.interpenetration, terrain.*).

    ``verdict``: the caller needs only whether the move is legal, not why not (the menus, the
    scripted general's look-ahead): a move whose ``cost_floor`` already exceeds what is left is
    refused before it is traced (its trace would cost at least that much, and the checks before the
    cost refuse only with another reason). On the reference path it is traced like any other."""
    # into-the-dark:special-troops.skirmishers.back-up
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
    if verdict and not REFERENCE.on:
        floor = cost_floor(st, u, steps)
        if floor > remaining(st, u) + 1e-6 + FLOOR_SLACK * (1.0 + floor):
            raise bad("movement.distances", f'{u.id} would use at least {floor:.2f}" of movement')
    world = st.world()
    try:
        tr = trace(u, steps, world, about_cost=about_cost(st, u))
    except Problem as p:
        raise from_problem(p) from None
    why = end_problem(u, tr.fp, world)
    if why:
        raise bad("movement.charging" if "contact" in why else "movement.movement", why)
    limit = remaining(st, u)
    if tr.both_moving:
        limit = min(limit, base_allowance(st, u) / 2.0 - u.used)
    if tr.cost > limit + 1e-6:
        raise bad(
            "movement.distances",
            f'{u.id} would use {tr.cost:.2f}" of movement; it has {max(0.0, limit):.2f}" left',
        )
    return tr


def apply_trace(st: IntoTheDarkState, u: Unit, tr: Trace, clause: str) -> None:
    """Stand the unit at the end of a planned move and apply what the move causes."""
    # into-the-dark:movement.interpenetration.both-moving
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


# --- aim and zone of control -----------------------------------------------------------------


def angle_to(u: Unit, p: tuple[float, float]) -> float:
    fx, fy = u.front_centre
    return normalize_angle(_atan2(p[0] - fx, p[1] - fy) * RAD_TO_DEG - u.heading)


def zoc_length(st: IntoTheDarkState, u: Unit, kind: str) -> float:
    """ "For melee troops this zone is equal to half of its own normal movement distance ... For
    missile troops this zone is equal to their weapons' close range" (setup.zone-of-control;
    into-the-dark:combat.opportunity-fire.zone)."""
    if kind == "melee":
        return st.d(u.allowance) / 2.0
    w = u.majority.missile_weapon
    assert w is not None
    return st.d(missile_weapons()[w].close)


# --- Difficult Maneuvers (maneuvers.*) -------------------------------------------------------


def maneuvers_enabled(st: IntoTheDarkState, clause: str) -> None:
    if not st.params["difficult_maneuvers"]:
        raise bad(clause, "Difficult Maneuvers are not in use in this battle (options.difficult_maneuvers)")


def plan_fall_back(st: IntoTheDarkState, u: Unit, distance: float) -> Trace:
    """ "it may move backwards while still facing the enemy at half their normal speed"
    (maneuvers.falling-back): each inch backed costs two of the allowance."""
    maneuvers_enabled(st, "maneuvers.falling-back")
    prob = can_move(st, u)
    if prob:
        raise bad("maneuvers.falling-back", f"{u.id}: {prob}")
    if not distance > 0:
        raise bad("maneuvers.falling-back", "falling back needs a positive distance")
    world = st.world()
    try:
        tr = trace(u, (O.Back(distance),), world)
    except Problem as p:
        raise bad(
            "maneuvers.falling-back" if p.clause.startswith("special") else p.clause, p.reason
        ) from None
    why = end_problem(u, tr.fp, world)
    if why:
        raise bad("maneuvers.falling-back", why)
    if tr.cost > remaining(st, u) + 1e-6:
        raise bad(
            "movement.distances",
            f'{u.id} would use {tr.cost:.2f}" of movement backing {distance:g}" at half speed; '
            f'it has {remaining(st, u):.2f}" left',
        )
    return tr


def fell_back(st: IntoTheDarkState, u: Unit) -> bool:
    """ "A unit may not counter charge if opportunity charged while Falling Back" (maneuvers.falling-back)."""
    return bool(u.extra.get("fell_back") == st.turn)


def plan_careful(st: IntoTheDarkState, u: Unit, steps: tuple[O.Step, ...]) -> Trace:
    """ "an attempt by a unit to move carefully through Disordering Terrain (but not Restrictive
    Terrain) so that it doesn't become disordered. The unit moves at half its usual permitted speed
    (this results in 1/4 speed for mounted)" (maneuvers.careful-movement)."""
    maneuvers_enabled(st, "maneuvers.careful-movement")
    tr = plan_move(st, u, steps)
    if "terrain.restrictive" in tr.disorder:
        raise bad(
            "maneuvers.careful-movement", "careful movement is not possible through Restrictive Terrain"
        )
    limit = remaining(st, u) / 2.0
    if tr.cost > limit + 1e-6:
        raise bad(
            "movement.distances",
            f'{u.id} moving carefully has half its permitted move: {limit:.2f}", not {tr.cost:.2f}"',
        )
    return tr
