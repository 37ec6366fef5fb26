"""Difficult Maneuvers (optional, ``options.difficult_maneuvers``): "To succeed in a Difficult
Maneuver the unit attempting it must pass a control test. If they do, they may perform the maneuver,
if not then they may not and become disordered." (maneuvers.difficult-maneuvers)

Turning (maneuvers.turning), Falling Back (maneuvers.falling-back), Careful Movement
(maneuvers.careful-movement) and Break Off (maneuvers.break-off). Each order is checked in full
before the control test is rolled, so an impossible maneuver is an ``IllegalOrder`` and costs no die.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from shieldwall.core.geometry import (
    Footprint,
    heading_vector,
    normalize_angle,
)

from . import orders as O
from .charge_plan import heading_towards
from .extra_orders import BreakOff, Careful, FallBack, Turn
from .model import Unit
from .morale_rolls import away_heading, control_test
from .movement import end_problem, max_straight, on_table, terrain_effect
from .moves import (
    act_problem,
    apply_trace,
    bad,
    base_allowance,
    can_move,
    done,
    maneuvers_enabled,
    own_unit,
    plan_careful,
    plan_fall_back,
    remaining,
)

if TYPE_CHECKING:
    from .state import IntoTheDarkState


def _attempt(st: IntoTheDarkState, u: Unit, clause: str, what: str) -> bool:
    """The control test; on a failure the unit does not perform the maneuver and is disordered
    (maneuvers.difficult-maneuvers)."""
    ok = control_test(st, u, f"difficult maneuver: {what}", clause)
    if not ok:
        u.acted = True
        u.disordered = True
        u.shieldwall = False
        st.log(
            "maneuver-failed",
            clause,
            side=u.side,
            unit=u.id,
            maneuver=what,
            disordered=True,
            reason="failed its control test: the maneuver is not performed",
        )
    return ok


def _zoc_after(st: IntoTheDarkState, u: Unit, samples: list[Footprint]) -> None:
    st.active = None
    st.push(
        ("zoc", u.id, tuple((f.x, f.y, f.heading, f.frontage, f.depth) for f in samples)),
        ("move-phase", u.side),
    )


# --- turning ------------------------------------------------------------------------------------


def turn_fp(st: IntoTheDarkState, u: Unit, side: str) -> Footprint:
    """ "the unit may face left or right, forming a column facing the correct direction. This
    requires the entire turn." (maneuvers.turning): the ranks become the files, on the old flank."""
    maneuvers_enabled(st, "maneuvers.turning")
    prob = can_move(st, u)
    if prob:
        raise bad("maneuvers.turning", f"{u.id}: {prob}")
    if u.used > 1e-9:
        raise bad("maneuvers.turning", f"{u.id}: turning requires the entire turn")
    a, b = u.fp.edge(side)
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    h = normalize_angle(u.heading + (90.0 if side == "right" else -90.0))
    width = u.ranks * u.fig_w
    depth = -(-u.figures // u.ranks) * u.rank_d
    fx, fy = heading_vector(h)
    fp = Footprint(mx - fx * depth / 2, my - fy * depth / 2, h, width, depth)
    why = end_problem(u, fp, st.world())
    if why or not on_table(fp, st.terrain):
        raise bad(
            "maneuvers.turning", f"no room for {u.id} to form a column facing {side}: {why or 'table edge'}"
        )
    # the column stands where the unit was not: it may not stand in terrain it may not enter
    # (terrain.restrictive, terrain.deep-water; ruling 77)
    factor, dis, _ = terrain_effect(u, fp, st.terrain)
    if factor is None:
        clause = dis[0] if dis else "terrain.terrain"
        raise bad(
            clause, f"{u.id} may not form a column facing {side}: it would stand in terrain it may not enter"
        )
    return fp


def turning(st: IntoTheDarkState, order: Turn) -> None:
    u = own_unit(st, order.unit)
    fp = turn_fp(st, u, order.side)
    if _attempt(st, u, "maneuvers.turning", f"turning {order.side}"):
        u.front = u.ranks
        u.place(fp)
        u.acted = True
        u.moved = True
        u.used = base_allowance(st, u)
        u.travelled = max(u.travelled, st.d(u.allowance))  # the whole turn: foot may not shoot
        u.turned_this_turn = True
        st.log("turn", "maneuvers.turning", side=u.side, unit=u.id, facing=order.side, front=u.front)
        _zoc_after(st, u, [fp])
        return
    done(st, u)


# --- falling back --------------------------------------------------------------------------------


def fall_back(st: IntoTheDarkState, order: FallBack) -> None:
    u = own_unit(st, order.unit)
    tr = plan_fall_back(st, u, order.distance)
    if not _attempt(st, u, "maneuvers.falling-back", "falling back"):
        done(st, u)
        return
    apply_trace(st, u, tr, "maneuvers.falling-back")
    u.travelled += tr.backed  # only skirmishers back up "and may still fire"
    u.acted = True
    u.extra["fell_back"] = st.turn
    st.log(
        "fall-back",
        "maneuvers.falling-back",
        side=u.side,
        unit=u.id,
        distance=round(order.distance, 3),
        cost=round(tr.cost, 3),
        to=[round(u.x, 3), round(u.y, 3), round(u.heading, 3)],
        note="may not counter charge if opportunity charged this turn",
    )
    _zoc_after(st, u, tr.samples)


# --- careful movement ------------------------------------------------------------------------------


def careful(st: IntoTheDarkState, order: Careful) -> None:
    u = own_unit(st, order.unit)
    tr = plan_careful(st, u, order.steps)
    spent = tr.cost
    terrain = "terrain.disordering" in tr.disorder
    keep = replace(tr, cost=spent * 2.0, disorder=[c for c in tr.disorder if c != "terrain.disordering"])
    apply_trace(st, u, keep, "maneuvers.careful-movement")
    u.acted = True
    st.log(
        "careful-move",
        "maneuvers.careful-movement",
        side=u.side,
        unit=u.id,
        steps=[s.text() for s in order.steps],
        distance=round(tr.travel, 3),
        cost=round(keep.cost, 3),
        to=[round(u.x, 3), round(u.y, 3), round(u.heading, 3)],
    )
    # "after moving must pass a control test. If the unit fails this test it becomes disordered anyway."
    ok = control_test(st, u, "difficult maneuver: careful movement", "maneuvers.careful-movement")
    if not ok and not u.disordered:
        u.disordered = True
        u.shieldwall = False
        st.log(
            "disordered",
            "maneuvers.careful-movement",
            side=u.side,
            unit=u.id,
            reason="failed the control test after moving carefully",
            terrain=terrain,
        )
    _zoc_after(st, u, tr.samples)


# --- break off -------------------------------------------------------------------------------------


def break_off_problem(st: IntoTheDarkState, u: Unit) -> str | None:
    """ "a movement permitted to cavalry, missile troops, and open order troops ... may be declared
    when the unit would normally move, but only if a round of melee was fought on the previous turn"
    (maneuvers.break-off)."""
    if not st.params["difficult_maneuvers"]:
        return "Difficult Maneuvers are not in use in this battle (options.difficult_maneuvers)"
    prob = act_problem(st, u)
    if prob:
        return prob
    if not (u.mounted or u.spec.type == "missile" or u.spec.density == "O"):
        return "only cavalry, missile troops and open order troops may break off"
    if not st.in_melee(u):
        return "it is not in melee"
    if u.extra.get("fought_turn") != st.turn - 1:
        return "no round of melee was fought on the previous turn"
    if u.used > 1e-9:
        return "it has already moved"
    return None


def break_off(st: IntoTheDarkState, order: BreakOff) -> None:
    u = own_unit(st, order.unit)
    prob = break_off_problem(st, u)
    if prob:
        raise bad("maneuvers.break-off", f"{u.id}: {prob}")
    if not _attempt(st, u, "maneuvers.break-off", "break off"):
        done(st, u)
        return
    opps = st.opponents(u)
    t_start = [list(x) for x in u.fp.corners()]
    # "It includes a free turn at the start, but must be directly away from their melee opponents,
    # and ends up facing away from them. Each type of unit has a number of dice ... (the same as
    # evading) ... The entire distance rolled must be moved"
    h = away_heading(st, u, tuple(o.id for o in opps))
    faces = st.roll_d6(u.rout_dice)
    d = st.d(sum(faces))
    fp = Footprint(u.fp.x, u.fp.y, h, u.frontage, u.depth)
    world = st.world()
    ign = [o.id for o in opps]
    d_ok, tr = max_straight(u, fp, d, world, budget=d, ignore=ign)
    u.place(tr.fp if tr is not None else fp)
    u.evading = True  # "during the rally phase next turn, the unit must turn back (rally)"
    u.moved = True
    u.acted = True
    u.used = base_allowance(st, u)
    u.travelled += d_ok
    if tr is not None:
        apply_trace(st, u, replace(tr, cost=0.0, travel=0.0), "maneuvers.break-off")
    st.log(
        "break-off",
        "maneuvers.break-off",
        side=u.side,
        unit=u.id,
        die="d6",
        faces=faces,
        rolled=round(d, 3),
        distance=round(d_ok, 3),
        heading=round(h, 2),
        pursuers=[o.id for o in opps],
    )
    st.active = None
    tasks: list[tuple[Any, ...]] = [("breakoff-pursue", o.id, u.id, tuple(map(tuple, t_start))) for o in opps]
    st.push(*tasks, ("move-phase", u.side))


def breakoff_pursue(st: IntoTheDarkState, eid: str, uid: str, t_start: tuple[Any, ...]) -> None:
    """Task: "The enemy unit(s) pursues as if the unit routed. If the unit does not move far enough to
    get beyond reach of these pursuers, they are caught and attacked in the back and may not fight
    back during melee this turn." (maneuvers.break-off) A pursuer moves a normal move straight at the
    unit; it is disordered at the end of its pursuit (combat.pursuit)."""
    # into-the-dark:maneuvers.break-off.caught
    e, u = st.units[eid], st.units[uid]
    if not e.on_table or e.routed or not u.on_table or st.in_melee(e):
        return
    ang = normalize_angle(heading_towards(e.fp.centre, u.fp.centre) - e.heading)
    steps: tuple[O.Step, ...] = (O.Wheel(round(max(-90.0, min(90.0, ang)), 2)),) if abs(ang) > 0.5 else ()
    st.log("breakoff-pursuit", "maneuvers.break-off", side=e.side, unit=eid, quarry=uid)
    st.charge = {
        "c": eid,
        "t": uid,
        "steps": [s.text() for s in steps],
        "impetuous": False,
        "zoc": False,
        "opportunity": True,
        "limit": st.d(e.allowance),
        "edge": "rear",
        "run": 0.0,
        "reaction": "none",
        "fled": "evaded",
        "stopped": False,
        "start": (e.x, e.y, e.heading),
        "t_start": [list(p) for p in t_start],
    }
    e.pursued = True
    st.push(("charge-move",), ("breakoff-pursued", eid))


def breakoff_pursued(st: IntoTheDarkState, eid: str) -> None:
    e = st.units[eid]
    if e.on_table and not e.disordered:
        e.disordered = True
        e.shieldwall = False
        st.log(
            "disordered",
            "combat.pursuit",
            side=e.side,
            unit=eid,
            reason="a unit that pursues becomes disordered",
        )


# --- menu ----------------------------------------------------------------------------------------


def menu(st: IntoTheDarkState, u: Unit) -> list[O.Order]:
    """The Difficult Maneuvers open to ``u`` now (a few sampled distances)."""
    from shieldwall.core.errors import IllegalOrder

    out: list[Any] = []
    if not st.params["difficult_maneuvers"]:
        return out
    if break_off_problem(st, u) is None:
        out.append(BreakOff(u.id))
    if can_move(st, u) is not None:
        return out
    for side in ("left", "right"):
        try:
            turn_fp(st, u, side)
        except IllegalOrder:
            continue
        out.append(Turn(u.id, side))
    d = int(remaining(st, u) / 2.0 * 4) / 4.0
    while d >= 0.5:
        try:
            plan_fall_back(st, u, d)
        except IllegalOrder:
            d = int((d - 1.0) * 4) / 4.0
            continue
        out.append(FallBack(u.id, d))
        break
    d = int(remaining(st, u) / 2.0 * 4) / 4.0
    while d >= 0.5:
        try:
            tr = plan_careful(st, u, (O.Fwd(d),))
        except IllegalOrder:
            d = int((d - 1.0) * 4) / 4.0
            continue
        if "terrain.disordering" in tr.disorder:
            out.append(Careful(u.id, (O.Fwd(d),)))
        break
    return out
