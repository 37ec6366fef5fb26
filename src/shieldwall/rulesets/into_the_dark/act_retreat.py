"""Driven back and rout moves (combat.driven-back, combat.rout): moving back 4" facing the enemy,
pushing or passing through friends, surrender when surrounded, rout moves and the tests friends take
when routers pass through them (morale.test-triggers).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from shieldwall.core.geometry import CONTACT_TOL, Footprint, dist, heading_vector
from shieldwall.core.polygons import convex_penetration, footprints_within

from . import deep_water
from .model import Unit
from .morale_rolls import away_heading
from .movement import (
    World,
    centre_on_table,
    column_body,
    terrain_effect,
)

if TYPE_CHECKING:
    from .state import IntoTheDarkState

ST = "IntoTheDarkState"


def _blocked_reason(
    st: IntoTheDarkState, u: Unit, fp: Footprint, world: World, *, swim: bool | None = None
) -> str | None:
    # into-the-dark:combat.driven-back.blocked
    if not all(0 <= x <= st.terrain.width and 0 <= y <= st.terrain.depth for x, y in fp.corners()):
        return "the table edge"
    factor, dis, _ = terrain_effect(u, fp, st.terrain, swim=swim)
    if factor is None:
        return "terrain it may not enter"
    for e in world.enemies(u):
        if (
            footprints_within(fp, e.fp, 0.0)
            and convex_penetration(fp.corners(), e.fp.corners()) > CONTACT_TOL
        ):
            return f"the enemy {e.id}"
    return None


def driven_back(
    st: IntoTheDarkState,
    uid: str,
    dx: float,
    dy: float,
    causes: tuple[str, ...],
    allowed: tuple[str, ...],
    refused: tuple[str, ...],
) -> None:
    """Task: "When a unit is driven back, it immediately moves directly back 4 inches ... A unit that
    is driven back into a friendly unit pushes it back also. Close order troops (unless disordered)
    may refuse to be pushed back by friendly units, routing them instead. A unit that cannot move
    back the full 4 inches, routs instead." (combat.driven-back)"""
    # into-the-dark:combat.driven-back.blocked
    # into-the-dark:combat.driven-back.pushes
    u = st.units[uid]
    if not u.on_table or u.routed:
        return
    world = st.world()
    total = st.d(4)
    fp0 = u.fp
    pushed: list[Unit] = []
    n = max(1, math.ceil(total / 0.25))
    # forced into deep water it swims the rest at quarter speed, or drowns (terrain.deep-water)
    wet = deep_water.in_deep_water(fp0, st.terrain)
    cost = 0.0
    reached = 0.0
    for i in range(1, n + 1):
        s = total * i / n
        fp = fp0.moved(dx * s, dy * s)
        if not wet and deep_water.in_deep_water(fp, st.terrain):
            wet = True
            if not deep_water.plunge(st, u, "combat.driven-back"):
                return
        why = _blocked_reason(st, u, fp, world, swim=wet or None)
        if why:
            st.log(
                "driven-back-blocked",
                "combat.driven-back",
                side=u.side,
                unit=u.id,
                blocked_by=why,
                after=round(s, 2),
            )
            st.push(("rout-start", uid, causes))
            return
        for f in world.friends(u):
            if f in pushed or not footprints_within(fp, f.fp, 0.0):
                continue
            if convex_penetration(fp.corners(), f.fp.corners()) <= CONTACT_TOL:
                continue
            if f.routed or f.id in world.in_melee or f.id in refused:
                why2 = (
                    "refuses to be pushed back"
                    if f.id in refused
                    else ("routing" if f.routed else "in melee")
                )
                st.log(
                    "driven-back-blocked",
                    "combat.driven-back",
                    side=u.side,
                    unit=u.id,
                    blocked_by=f.id,
                    why=why2,
                )
                st.push(("rout-start", uid, causes))
                return
            if f.spec.density == "C" and not f.disordered and f.id not in allowed:
                st.push(("driven-back", uid, dx, dy, causes, allowed, refused))
                st.ask("consent", f.side, f.id, mover=uid, what="push")
                return
            pushed.append(f)
        cost += (total / n) * (
            deep_water.SWIM_FACTOR if wet and deep_water.in_deep_water(fp, st.terrain) else 1.0
        )
        reached = total if i == n else s
        if cost >= total - 1e-9:
            break
    end = fp0.moved(dx * reached, dy * reached)
    moves: list[tuple[Unit, Footprint]] = []
    ahead = end.x * dx + end.y * dy
    for f in pushed:
        s = 0.0
        ffp = f.fp
        why = None
        # pushed ahead of the driven unit until it stands clear beyond it (a friend the unit would
        # otherwise have jumped over is pushed too); its whole path is checked like the unit's own:
        # terrain it may not enter, enemies (combat.driven-back, ruling 77)
        while (
            convex_penetration(ffp.corners(), end.corners()) > CONTACT_TOL or ffp.x * dx + ffp.y * dy < ahead
        ) and s < total + f.depth + 1:
            s += 0.1
            ffp = f.fp.moved(dx * s, dy * s)
            why = why or _blocked_reason(st, f, ffp, world)
        others = World([x for x in world.units if x.id not in (u.id, f.id)], st.terrain, world.in_melee)
        why = why or _blocked_reason(st, f, ffp, world)
        clash = any(
            convex_penetration(ffp.corners(), x.fp.corners()) > CONTACT_TOL
            for x in others.units
            if footprints_within(ffp, x.fp, 0.0)
        )
        if why or clash:
            st.log(
                "driven-back-blocked",
                "combat.driven-back",
                side=u.side,
                unit=u.id,
                blocked_by=f.id,
                why="cannot be pushed back",
            )
            st.push(("rout-start", uid, causes))
            return
        moves.append((f, ffp))
    for f, ffp in moves:
        f.place(ffp)
        f.moved = True
        f.travelled += dist(f.fp.centre, ffp.centre)
        st.log(
            "pushed-back",
            "combat.driven-back",
            side=f.side,
            unit=f.id,
            by=u.id,
            to=[round(f.x, 3), round(f.y, 3)],
        )
    u.place(end)
    u.moved = True
    u.travelled += reached
    u.shieldwall = False if u.shieldwall and u.disordered else u.shieldwall
    st.driven[u.id] = (dx, dy)
    st.log(
        "driven-back",
        "combat.driven-back",
        side=u.side,
        unit=u.id,
        distance=round(reached, 3),
        to=[round(u.x, 3), round(u.y, 3)],
        pushed=[f.id for f, _ in moves],
    )


# --- rout ------------------------------------------------------------------------------------


def rout_start(st: IntoTheDarkState, uid: str, causes: tuple[str, ...]) -> None:
    """Task: "When a unit routs, it runs away from the enemy. Roll the number of dice appropriate to
    their troop type ... and immediately move that total away, finishing with their backs to the
    enemy. They are shaken and disordered. During their first rout move they move straight away from
    the enemy(s) that broke them." (combat.rout)"""
    u = st.units[uid]
    if not u.on_table or u.routed:
        return
    # into-the-dark:combat.rout.first-move: straight away from the enemy(s) that broke it
    h = away_heading(st, u, causes)
    st.routed_turn.append(
        {
            "id": u.id,
            "side": u.side,
            "corners": [list(p) for p in u.fp.corners()],
            "open": u.spec.density == "O",
            "fanatic": u.fanatic,
        }
    )
    # into-the-dark:combat.rout.shaken-and-disordered: routed counts as shaken (model.Unit.shaken)
    u.morale = "routed"
    u.disordered = True
    u.shieldwall = False
    u.evading = False
    u.pursuing = None
    u.faced = ()
    # into-the-dark:combat.rout.moves-away: the rout dice of its troop type, moved at once, its back
    # to the enemy
    faces = st.roll_d6(u.rout_dice)
    distance = st.d(sum(faces))
    st.log(
        "rout",
        "combat.rout",
        side=u.side,
        unit=u.id,
        die="d6",
        faces=faces,
        distance=distance,
        heading=round(h, 2),
        away_from=list(causes),
    )
    u.extra["pre_rout_heading"] = u.heading
    u.place(Footprint(u.fp.x, u.fp.y, h, u.frontage, u.depth))
    st.push(("rout-move", uid, distance, (), (), ()))


def rout_move(
    st: IntoTheDarkState,
    uid: str,
    distance: float,
    allowed: tuple[str, ...],
    refused: tuple[str, ...],
    passed: tuple[str, ...],
) -> None:
    """Task: the rout move. "If they meet friendly troops they will attempt to pass through any
    existing gaps at least 3 figures wide. If there are none, they will attempt to interpenetrate the
    friendly unit ... if passed through, the friendly unit must immediately take a morale test. Only
    close order troops may refuse to be passed through. If a unit routs off the table, it is
    considered gone ... Surrounded units surrender." (combat.rout, movement.interpenetration)"""
    u = st.units[uid]
    if not u.on_table:
        return
    world = st.world()
    fp0 = u.fp
    # into-the-dark:combat.rout.friends-gaps: its way is a column 3 figures wide, which passes any
    # gap at least 3 figures wide without meeting the friends either side
    col = column_body(fp0, 3 * u.fig_w)
    fx, fy = heading_vector(fp0.heading)
    n = max(1, math.ceil(distance / 0.25))
    step = distance / n if n else 0.0
    reached = 0.0
    cost = 0.0
    blocked_by: str | None = None
    now_passed = list(passed)
    # the units it turned its back on (it starts in or against them) do not stop it leaving them
    start_ov = {x.id for x in world.units if x.id != u.id and (_overlap(col, x) or _overlap(fp0, x))}
    wet = deep_water.in_deep_water(col, st.terrain)
    for i in range(1, n + 1):
        s = step * i
        c = col.moved(fx * s, fy * s)
        full = fp0.moved(fx * s, fy * s)
        if not centre_on_table(full, st.terrain):
            # into-the-dark:combat.rout.off-table: "considered gone for the rest of the game"
            u.place(full)
            u.gone = True
            u.moved = True
            st.log(
                "rout-off-table",
                "combat.rout",
                side=u.side,
                unit=u.id,
                reason="routed off the table: gone for the rest of the game",
            )
            _passed_tests(st, u, now_passed)
            return
        if not wet and deep_water.in_deep_water(c, st.terrain):
            # routers forced into deep water swim at quarter speed or drown (terrain.deep-water)
            wet = True
            if not deep_water.plunge(st, u, "combat.rout"):
                _passed_tests(st, u, now_passed)
                return
        factor, _, _ = terrain_effect(u, c, st.terrain, swim=wet or None)
        if factor is None:
            blocked_by = "terrain"
            break
        hit = None
        for e in world.enemies(u):
            if e.id not in start_ov and _overlap(c, e):
                hit = e.id
        if hit:
            blocked_by = hit
            break
        stop = False
        for f in world.friends(u):
            if (f.id in start_ov and f.id not in now_passed) or not _overlap(c, f):
                continue
            # into-the-dark:combat.rout.friends-interpenetrate: never through a friend routing or
            # in melee (movement.interpenetration); one that refused stops it too
            if f.routed or f.id in world.in_melee or f.id in refused:
                blocked_by = f.id
                stop = True
                break
            # into-the-dark:combat.rout.friends-refuse: "Only close order troops may refuse"
            if f.id not in allowed and f.spec.density == "C" and f.id not in now_passed:
                st.push(("rout-move", uid, distance, allowed, refused, tuple(now_passed)))
                st.ask("consent", f.side, f.id, mover=uid, what="rout")
                return
            if f.id not in now_passed:
                now_passed.append(f.id)
            # a stationary friend is disordering terrain: mounted at half speed, foot at full speed
            if u.mounted:
                factor = max(factor, 2.0)
        if stop:
            break
        cost += step * factor
        if cost > distance + 1e-9:
            break
        reached = s
    # stand clear of every unit at the end, and with the whole unit (not only the 3-figure column
    # that found the way) out of terrain it may not enter (terrain.restrictive, terrain.deep-water;
    # ruling 77)
    end = fp0.moved(fx * reached, fy * reached)
    barred: str | None = None
    while reached > 1e-9:
        if _overlaps_any(end, u, world):
            pass
        else:
            why = _barred_by(u, end, st, wet)
            if why is None:
                break
            barred = why
        reached = max(0.0, reached - 0.25)
        end = fp0.moved(fx * reached, fy * reached)
    if reached <= 1e-9 and _overlaps_any(end, u, world):
        # it could not get clear at all: it turned in place among units
        enemies_near = [x.id for x in world.enemies(u) if _overlap(end, x)]
        if enemies_near:
            blocked_by = enemies_near[0]
        else:
            h0 = float(u.extra.get("pre_rout_heading", end.heading))
            end = Footprint(end.x, end.y, h0, end.frontage, end.depth)
    # into-the-dark:combat.rout.surrender: "Surrounded units surrender." - hemmed in by an enemy (or
    # terrain it may not enter) before it gets 1" away
    hemmed = blocked_by is not None and (blocked_by == "terrain" or st.units[blocked_by].side != u.side)
    if reached < min(1.0, distance) - 1e-9 and hemmed:
        u.destroyed = True
        st.destroyed_turn.append({"id": u.id, "side": u.side, "corners": [list(p) for p in u.fp.corners()]})
        st.log(
            "surrender",
            "combat.rout",
            side=u.side,
            unit=u.id,
            blocked_by=blocked_by,
            reason="surrounded units surrender",
        )
        return
    u.place(end)
    u.moved = True
    u.travelled += reached
    st.log(
        "rout-move",
        "combat.rout",
        side=u.side,
        unit=u.id,
        distance=round(reached, 3),
        rolled=round(distance, 3),
        blocked_by=blocked_by,
        passed_through=now_passed,
        to=[round(u.x, 3), round(u.y, 3)],
        **({"stopped_short_of": barred} if barred else {}),
    )
    _passed_tests(st, u, now_passed)


def _barred_by(u: Unit, fp: Footprint, st: IntoTheDarkState, wet: bool) -> str | None:
    """The clause of the terrain the whole of ``u`` may not stand in at ``fp`` (None: it may)."""
    factor, dis, _ = terrain_effect(u, fp, st.terrain, swim=wet or None)
    if factor is None:
        return dis[0] if dis else "terrain.terrain"
    return None


def _overlap(fp: Footprint, x: Unit) -> bool:
    return footprints_within(fp, x.fp, 0.0) and convex_penetration(fp.corners(), x.fp.corners()) > CONTACT_TOL


def _overlaps_any(fp: Footprint, u: Unit, world: World) -> bool:
    for x in world.units:
        if x.id == u.id or not footprints_within(fp, x.fp, 0.0):
            continue
        if convex_penetration(fp.corners(), x.fp.corners()) > CONTACT_TOL:
            return True
    return False


def _passed_tests(st: IntoTheDarkState, u: Unit, passed: list[str]) -> None:
    """ "being interpenetrated by routing friendly unit": the friend tests at once
    (into-the-dark:morale.test-triggers.interpenetrated)."""
    # into-the-dark:combat.rout.friends-test: "if passed through, the friendly unit must immediately
    # take a morale test"
    tasks = []
    for fid in passed:
        f = st.units[fid]
        f.interpenetrated = True
        if f.on_table and not f.routed:
            tasks.append(("test", fid, f"passed through by routing {u.id}", (u.id,), "interpenetrated"))
    st.push(*tasks)


# --- morale phase ------------------------------------------------------------------------------
