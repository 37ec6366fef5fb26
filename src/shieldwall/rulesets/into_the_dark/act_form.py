"""Formation orders of the Movement phase: frontage changes (movement.frontage-changes),
shieldwall (swat.shieldwall), turning to face flank or rear attackers and reforming
(combat.flanks-and-rear)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from shieldwall.core.geometry import Footprint, heading_vector, normalize_angle

from . import orders as O
from .model import Unit
from .movement import (
    about_fp,
    end_problem,
    on_table,
    terrain_effect,
)
from .moves import act_problem, bad, base_allowance, done, own_unit, remaining

if TYPE_CHECKING:
    from .state import IntoTheDarkState


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
    # into-the-dark:swat.shieldwall.formed
    u = own_unit(st, order.unit)
    shieldwall_problem(st, u, order.on, raise_it=True)
    u.shieldwall = order.on
    u.acted = True
    st.log("shieldwall", "swat.shieldwall", side=u.side, unit=u.id, formed=order.on)
    done(st, u)


def shieldwall_problem(st: IntoTheDarkState, u: Unit, on: bool, raise_it: bool = False) -> str | None:
    # into-the-dark:swat.shieldwall.not-when-disordered
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
    # into-the-dark:combat.flanks-and-rear.pinned
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
    # the column stands where the unit was not: only where it may enter (ruling 77)
    f, dis, _ = terrain_effect(u, fp, st.terrain)
    if f is None:
        raise bad(
            dis[0] if dis else "terrain.terrain",
            f"{u.id} may not form a column facing its {side} there: terrain it may not enter",
        )
    return fp


def face(st: IntoTheDarkState, order: O.Face) -> None:
    # into-the-dark:combat.flanks-and-rear.pinned
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
