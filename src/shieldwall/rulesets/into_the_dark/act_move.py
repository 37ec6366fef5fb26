"""The Movement phase (turn-sequence.movement, movement.*): each side in turn orders its units one
at a time; zones of control give the other side opportunity charges and fire (setup.zone-of-control,
movement.opportunity-charges, combat.opportunity-fire).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import Footprint, heading_vector, normalize_angle

from . import orders as O
from .clauses import cite
from .model import Unit
from .movement import (
    Problem,
    Trace,
    about_fp,
    end_problem,
    on_table,
    terrain_effect,
    trace,
)
from .profiles import missile_weapons
from .spatial import meets, zone

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


# --- frontage, shieldwall, facing ------------------------------------------------------------


def frontage_rate(st: IntoTheDarkState, u: Unit) -> int:
    """ "expand or contract its frontage by up to 8 figures per turn (4 figures per 1/2 turn) ... A
    disordered unit or one in melee may only change frontage at half this rate"
    (movement.frontage-changes)."""
    return 4 if (u.disordered or st.in_melee(u)) else 8


def plan_frontage(st: IntoTheDarkState, u: Unit, n: int) -> tuple[Footprint, bool]:
    """(new footprint, whole turn?) for a frontage change; the front edge stays centred in place."""
    prob = act_problem(st, u)
    if prob:
        raise bad("movement.frontage-changes", f"{u.id}: {prob}")
    if u.faced:
        raise bad("movement.frontage-changes", "a unit facing two directions must reform first")
    if not 1 <= n <= u.figures:
        raise bad("movement.frontage-changes", f"the front rank must have 1 to {u.figures} figures")
    delta = abs(n - u.front)
    if delta == 0:
        raise bad("movement.frontage-changes", f"{u.id} already has {n} figures in front")
    rate = frontage_rate(st, u)
    if delta > rate:
        raise bad(
            "movement.frontage-changes",
            f"{u.id} may change its frontage by {rate} figures a turn, not {delta}",
        )
    whole = delta > rate // 2
    base = base_allowance(st, u)
    if u.used > (0.0 if whole else base / 2.0) + 1e-6:
        raise bad("movement.frontage-changes", f"{u.id} has not enough of its turn left for that change")
    old_front = u.front
    u.front = n
    fp = u.fp
    u.front = old_front
    world = st.world()
    allow = [t.other for t in st.touching(u)]
    if not on_table(fp, st.terrain):
        raise bad("movement.frontage-changes", "the new formation would not fit on the table")
    why = end_problem(u, fp, world, allow_contact=allow)
    if why:
        raise bad("movement.frontage-changes", why)
    f, dis, _ = terrain_effect(u, fp, st.terrain)
    if f is None:
        raise bad(dis[0], "the new formation would stand in terrain the unit may not enter")
    return fp, whole


def frontage(st: IntoTheDarkState, order: O.Frontage) -> None:
    u = own_unit(st, order.unit)
    fp, whole = plan_frontage(st, u, order.figures)
    old = u.front
    u.front = order.figures
    base = base_allowance(st, u)
    u.used = base if whole else u.used + base / 2.0
    st.log(
        "frontage",
        "movement.frontage-changes",
        side=u.side,
        unit=u.id,
        frm=old,
        to=u.front,
        ranks=u.ranks,
        turn_used="whole" if whole else "half",
    )
    if whole or remaining(st, u) <= 1e-6:
        u.acted = True
        done(st, u)
    else:
        st.ask("unit", u.side, u.id)


def shieldwall(st: IntoTheDarkState, order: O.Shieldwall) -> None:
    """ "During their movement phase, any unit able to form shieldwall may declare they're doing so
    instead of moving ... Disordered units may not be in shieldwall." (swat.shieldwall)"""
    u = own_unit(st, order.unit)
    shieldwall_problem(st, u, order.on, raise_it=True)
    u.shieldwall = order.on
    u.acted = True
    st.log("shieldwall", "swat.shieldwall", side=u.side, unit=u.id, formed=order.on)
    done(st, u)


def shieldwall_problem(st: IntoTheDarkState, u: Unit, on: bool, raise_it: bool = False) -> str | None:
    prob = act_problem(st, u)
    if prob is None and not u.spec.has("shieldwall"):
        prob = f"{u.name} may not form shieldwall"
    if prob is None and on and u.disordered:
        prob = "disordered units may not be in shieldwall"
    if prob is None and on == u.shieldwall:
        prob = "already in shieldwall" if on else "not in shieldwall"
    if prob is None and u.used > 1e-9:
        prob = "shieldwall is formed (or left) instead of moving"
    if prob and raise_it:
        raise bad("swat.shieldwall", f"{u.id}: {prob}")
    return prob


def plan_face(st: IntoTheDarkState, u: Unit, side: str, how: str) -> Footprint | None:
    """Turning to face attackers (combat.flanks-and-rear): "If attacked in the flank or rear, the
    attacked unit is pinned, and must wait until the next turn before turning to face its attackers.
    If attacked in the flank only, when the attacked unit turns, it forms a column facing the enemy,
    or it may turn only the figures being attacked, and now face two directions (and become
    disordered)." Returns the new footprint (None: figures only)."""
    prob = act_problem(st, u)
    if prob:
        raise bad("combat.flanks-and-rear", f"{u.id}: {prob}")
    here = [t for t in st.touching(u) if t.mine == side]
    if not here:
        raise bad("combat.flanks-and-rear", f"no enemy is in contact with {u.id}'s {side}")
    if side in u.pinned_sides:
        raise bad(
            "combat.flanks-and-rear",
            f"{u.id} was attacked on its {side} this turn: it is pinned until next turn",
        )
    if side in u.faced:
        raise bad("combat.flanks-and-rear", f"{u.id} already has figures facing its {side}")
    if how == "figures":
        return None
    if any(t.mine != side for t in st.touching(u)):
        raise bad(
            "combat.flanks-and-rear",
            f"{u.id} is also attacked elsewhere: it may turn only the figures attacked",
        )
    if side == "rear":
        fp = about_fp(u.fp)
        return fp
    # a column facing the enemy: the ranks become files
    a, b = u.fp.edge(side)
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    h = normalize_angle(u.heading + (90.0 if side == "right" else -90.0))
    new_front = u.ranks
    width = new_front * u.fig_w
    depth = -(-u.figures // new_front) * u.rank_d
    fx, fy = heading_vector(h)
    fp = Footprint(mx - fx * depth / 2, my - fy * depth / 2, h, width, depth)
    world = st.world()
    why = end_problem(u, fp, world, allow_contact=[t.other for t in here])
    if why or not on_table(fp, st.terrain):
        raise bad(
            "combat.flanks-and-rear",
            f"there is no room for {u.id} to form a column facing its {side}: {why or 'table edge'}",
        )
    return fp


def face(st: IntoTheDarkState, order: O.Face) -> None:
    u = own_unit(st, order.unit)
    fp = plan_face(st, u, order.side, order.how)
    if fp is None:
        u.faced = (*u.faced, order.side)
        if not u.disordered:
            u.disordered = True
            u.shieldwall = False
        st.log(
            "face",
            "combat.flanks-and-rear",
            side=u.side,
            unit=u.id,
            facing=order.side,
            how="figures",
            disordered=True,
        )
    else:
        if order.side in ("left", "right"):
            u.front = u.ranks
        u.place(fp)
        st.log(
            "face",
            "combat.flanks-and-rear",
            side=u.side,
            unit=u.id,
            facing=order.side,
            how="column" if order.side != "rear" else "about face",
            front=u.front,
        )
    u.acted = True
    u.turned_this_turn = True
    done(st, u)


def reform(st: IntoTheDarkState, order: O.Reform) -> None:
    u = own_unit(st, order.unit)
    prob = reform_problem(st, u)
    if prob:
        raise bad("combat.flanks-and-rear", f"{u.id}: {prob}")
    u.faced = ()
    u.acted = True
    st.log("reform", "combat.flanks-and-rear", side=u.side, unit=u.id)
    done(st, u)


def reform_problem(st: IntoTheDarkState, u: Unit) -> str | None:
    prob = act_problem(st, u)
    if prob:
        return prob
    if not u.faced:
        return "all its figures already face the front"
    if any(t.mine in u.faced for t in st.touching(u)):
        return "enemies are still in contact with the figures turned to face them"
    return None


# --- zones of control ---------------------------------------------------------------------------


def zoc_length(st: IntoTheDarkState, u: Unit, kind: str) -> float:
    """ "For melee troops this zone is equal to half of its own normal movement distance ... For
    missile troops this zone is equal to their weapons' close range" (setup.zone-of-control)."""
    if kind == "melee":
        return st.d(u.allowance) / 2.0
    w = u.spec.missile_weapon
    assert w is not None
    return st.d(missile_weapons()[w].close)


def reactor_problem(st: IntoTheDarkState, e: Unit) -> str | None:
    if not e.on_table or e.routed:
        return "routed"
    if st.in_melee(e):
        return "in melee"
    if e.rallying:
        return "rallying"
    if e.evading:
        return "evading"
    if e.faced:
        return "facing two directions"
    return None


def zoc(st: IntoTheDarkState, mover_id: str, samples: tuple[tuple[float, ...], ...]) -> None:
    """Task: after a move, each enemy whose zone of control the mover moved in may react
    (setup.zone-of-control). Only moves in the movement sequence trigger these (docs/rulings)."""
    m = st.units[mover_id]
    if not m.on_table or m.routed:
        return
    fps = [Footprint(*s) for s in samples]
    tasks: list[tuple[Any, ...]] = []
    for e in st.live():
        if e.side == m.side or reactor_problem(st, e):
            continue
        hit = False
        if e.has_melee and any(meets(zone(e, zoc_length(st, e, "melee")), f.corners()) for f in fps):
            hit = True
        if (
            not hit
            and e.has_missiles
            and not e.fired
            and any(meets(zone(e, zoc_length(st, e, "missile")), f.corners()) for f in fps)
        ):
            hit = True
        if hit:
            tasks.append(("opportunity", e.id, m.id))
    st.push(*tasks)


def opportunity_options(st: IntoTheDarkState, e: Unit, m: Unit) -> list[O.Order]:
    from .act_combat import aim, fire_problem
    from .menus import charge_orders

    out: list[O.Order] = []
    if reactor_problem(st, e) or not m.on_table or m.routed:
        return out
    if e.has_melee:
        out.extend(charge_orders(st, e, [m], opportunity=True))
    if e.has_missiles and fire_problem(st, e) is None and aim(st, e, m) is not None:
        out.append(O.Fire(e.id, m.id))
    return out


def opportunity(st: IntoTheDarkState, eid: str, mid: str) -> None:
    """Task: offer one opportunity charge or fire (movement.opportunity-charges, combat.opportunity-fire)."""
    e, m = st.units[eid], st.units[mid]
    if not opportunity_options(st, e, m):
        return
    st.ask("opportunity", e.side, e.id, mover=m.id)


def opportunity_fire(st: IntoTheDarkState, order: O.Fire) -> None:
    from .act_combat import aim, fire_problem, shoot_now

    p = st.pending
    assert p is not None
    e = st.unit(order.unit)
    if order.unit != p["unit"] or order.target != p["data"]["mover"]:
        raise bad("combat.opportunity-fire", f"only {p['unit']} may fire now, at {p['data']['mover']}")
    m = st.unit(order.target)
    prob = fire_problem(st, e)
    if prob or aim(st, e, m) is None:
        raise bad(
            "combat.opportunity-fire", f"{e.id} cannot fire at {m.id}: {prob or 'not in arc, range or sight'}"
        )
    st.log("opportunity-fire", "combat.opportunity-fire", side=e.side, unit=e.id, target=m.id)
    shoot_now(st, e, m, "combat.opportunity-fire", test_later=True)


def decline(st: IntoTheDarkState, order: O.Decline) -> None:
    p = st.pending
    assert p is not None
    if order.unit != p["unit"]:
        raise bad("setup.zone-of-control", f"the unit to decide is {p['unit']}")
    st.log("decline", "setup.zone-of-control", side=p["side"], unit=order.unit, mover=p["data"]["mover"])


def angle_to(u: Unit, p: tuple[float, float]) -> float:
    fx, fy = u.front_centre
    return normalize_angle(math.degrees(math.atan2(p[0] - fx, p[1] - fy)) - u.heading)
