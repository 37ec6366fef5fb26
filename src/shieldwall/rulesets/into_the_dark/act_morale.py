"""Morale and control tests in play, and what their results do: shaken, driven back, routed
(morale.*, combat.combat-results, combat.driven-back, combat.rout), pursuit and follow-up
(combat.pursuit, combat.bonus-round), and the tests friends' routs and losses cause
(morale.test-triggers).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from shieldwall.core.geometry import (
    CONTACT_TOL,
    Footprint,
    convex_penetration,
    dist,
    footprints_within,
    heading_vector,
    normalize_angle,
    polygon_distance,
)

from . import orders as O
from .combat import MeleeSituation, fighting_ranks
from .model import Unit
from .morale import ControlOutcome, ControlSituation, MoraleOutcome, MoraleSituation
from .movement import (
    Problem,
    World,
    centre_on_table,
    column_body,
    conform,
    heading_towards,
    max_straight,
    terrain_effect,
    trace,
)
from .spatial import _segment_clear, fighting_count, gap, touches

if TYPE_CHECKING:
    from .state import IntoTheDarkState

ST = "IntoTheDarkState"
HILLS = ("hill", "steep-hill")


# --- modifiers ---------------------------------------------------------------------------------


def elevation(st: IntoTheDarkState, u: Unit) -> float:
    return st.terrain.elevation(u.fp.centre, HILLS)


def in_sight(st: IntoTheDarkState, a: Unit, b: Unit) -> bool:
    """Sight between two units' centres, blocked by terrain only (docs/rulings)."""
    return _segment_clear(a.fp.centre, b.fp.centre, (), st.terrain, False)


def supported(st: IntoTheDarkState, u: Unit) -> bool:
    """ "unit has unrouted friendly units within 3" of both flanks, or 6" of rear and facing same
    direction and behind unit's center" (morale.modifiers)."""
    friends = [f for f in st.live(u.side) if f.id != u.id and not f.routed]
    fp = u.fp

    def near_edge(edge: str, limit: float) -> list[Unit]:
        a, b = fp.edge(edge)
        out = []
        for f in friends:
            if polygon_distance((a, b), f.fp.corners()) <= limit + 1e-9:
                out.append(f)
        return out

    if near_edge("left", st.d(3)) and near_edge("right", st.d(3)):
        return True
    fx, fy = heading_vector(u.heading)
    rx, ry = fy, -fx
    cx, cy = fp.centre
    for f in near_edge("rear", st.d(6)):
        if abs(normalize_angle(f.heading - u.heading)) > 45.0:
            continue
        dx, dy = f.fp.x - cx, f.fp.y - cy
        if dx * fx + dy * fy < -fp.depth / 2.0 and abs(dx * rx + dy * ry) <= fp.frontage / 2.0:
            return True
    return False


def base_mods(st: IntoTheDarkState, u: Unit) -> dict[str, Any]:
    """The modifiers of "Morale Tests" that depend only on the unit and its surroundings."""
    friends = [f for f in st.live(u.side) if f.id != u.id]
    enemies = [e for e in st.live() if e.side != u.side]
    routing = sum(1 for f in friends if f.routed and gap(u.fp, f.fp) <= st.d(12))
    sup = supported(st, u)
    unsup = not any((not f.routed) and gap(u.fp, f.fp) <= st.d(12) and in_sight(st, u, f) for f in friends)
    seen = [e for e in enemies if in_sight(st, u, e)]
    uphill = bool(seen) and all(elevation(st, u) > elevation(st, e) + 1e-6 for e in seen)
    return {
        "quality": u.quality,
        "shaken": u.morale != "steady",
        "disordered": u.disordered,
        "casualties": u.original - u.figures,
        "original": u.original,
        "supported": sup and not unsup,
        "unsupported": unsup,
        "friends_routing": routing,
        "uphill": uphill,
        "shieldwall": u.shieldwall and not u.disordered,
    }


def control_mods(st: IntoTheDarkState, u: Unit) -> dict[str, Any]:
    """Control tests use "only relevent modifiers" (morale.control-tests): the unit's own state and
    its support, not those of a particular fight (docs/rulings/into-the-dark.md)."""
    m = base_mods(st, u)
    m.pop("uphill")
    return m


def melee_mods(st: IntoTheDarkState, u: Unit) -> dict[str, Any]:
    rec = st.melee.get(u.id, {})
    opps = [st.units[o] for o in rec.get("opponents", []) if st.units[o].on_table]
    current = [x for x in st.opponents(u)]
    for x in current:
        if x not in opps:
            opps.append(x)
    theirs = sum(o.figures for o in opps)
    deeper = any(o.complete_ranks > u.complete_ranks for o in opps)
    return {
        "flanked": bool(rec.get("flanked")),
        "outnumber_double": theirs > 0 and u.figures >= 2 * theirs,
        "deeper_ranks": deeper,
        "in_cover": bool(rec.get("obstacle")),
    }


def missile_mods(st: IntoTheDarkState, u: Unit, rec: dict[str, Any]) -> dict[str, Any]:
    return {
        "long_range_missile_only": bool(rec.get("long_only")),
        "fewer_firers": rec.get("figures", 0) < u.figures,
        "in_cover": bool(rec.get("cover")),
    }


# --- tests -----------------------------------------------------------------------------------


def morale_test(
    st: IntoTheDarkState, u: Unit, reason: str, clause: str, extra: dict[str, Any] | None = None
) -> MoraleOutcome:
    """Roll a morale test (morale.morale-tests) and log it; the caller applies the result."""
    kw = base_mods(st, u) | (extra or {})
    if kw.get("in_cover") is None:
        kw["in_cover"] = False
    sit = MoraleSituation(**kw, notes=(reason,))
    roll = sit.roll(st.rng)
    data = dict(roll.data)
    data.pop("rule", None)
    st.log("morale-test", clause, side=u.side, unit=u.id, reason=reason, test=data.pop("notes", []), **data)
    return roll.outcome


def control_test(st: IntoTheDarkState, u: Unit, reason: str, clause: str) -> bool:
    """A control test (morale.control-tests): pass = do as desired."""
    sit = ControlSituation(**control_mods(st, u), notes=(reason,))
    roll = sit.roll(st.rng)
    data = dict(roll.data)
    data.pop("rule", None)
    data.pop("notes", None)
    st.log("control-test", clause, side=u.side, unit=u.id, reason=reason, control=data.pop("result"), **data)
    return roll.outcome == ControlOutcome.PASSED


def away_heading(st: IntoTheDarkState, u: Unit, causes: tuple[str, ...]) -> float:
    """Straight away from the units that broke it (their centres' middle), or from the nearest
    enemy, or towards its own base edge (combat.rout)."""
    cs = [st.units[c] for c in causes if c in st.units and st.units[c].on_table and c != u.id]
    if not cs:
        enemies = [e for e in st.live() if e.side != u.side]
        if enemies:
            cs = [min(enemies, key=lambda e: gap(u.fp, e.fp))]
    c = u.fp.centre
    if cs:
        mx = sum(x.fp.x for x in cs) / len(cs)
        my = sum(x.fp.y for x in cs) / len(cs)
        if math.hypot(c[0] - mx, c[1] - my) > 1e-6:
            return normalize_angle(heading_towards((mx, my), c))
    return home_heading(st, u)


def home_heading(st: IntoTheDarkState, u: Unit) -> float:
    """Towards the unit's own base edge by the shortest route."""
    return {"south": 180.0, "north": 0.0, "west": -90.0, "east": 90.0}[st.game.home_edge[u.side]]


def outcome_tasks(
    st: IntoTheDarkState, u: Unit, outcome: MoraleOutcome, causes: tuple[str, ...], melee: bool
) -> list[tuple[Any, ...]]:
    """Apply a morale result at once (morale.results); returns the moves it sets off."""
    if outcome == MoraleOutcome.PASSED:
        if u.morale == "shaken":
            u.morale = "steady"
            st.log("steady", "morale.results", side=u.side, unit=u.id, reason="passed a morale test")
        return []
    if outcome == MoraleOutcome.SHAKEN:
        if u.morale != "shaken":
            u.morale = "shaken"
            st.log("shaken", "morale.results", side=u.side, unit=u.id)
        return []
    if outcome == MoraleOutcome.DRIVEN_BACK:
        u.morale = "shaken"
        dx, dy = back_direction(st, u, causes, melee)
        return [("driven-back", u.id, dx, dy, causes, (), ())]
    return [("rout-start", u.id, causes)]


def back_direction(
    st: IntoTheDarkState, u: Unit, causes: tuple[str, ...], melee: bool
) -> tuple[float, float]:
    """ "directly back 4 inches, away from its melee opponent(s) but still facing them": straight
    back if an opponent is at its front (or out of melee), else away from the opponents."""
    fx, fy = heading_vector(u.heading)
    if not melee:
        return (-fx, -fy)
    opps = [st.units[c] for c in causes if c in st.units and st.units[c].on_table]
    if not opps or any(t.mine == "front" for t in st.touching(u)):
        return (-fx, -fy)
    h = away_heading(st, u, tuple(o.id for o in opps))
    vx, vy = heading_vector(h)
    return (vx, vy)


def run_test(st: IntoTheDarkState, uid: str, reason: str, causes: tuple[str, ...], kind: str) -> None:
    """Task: one morale test with its result applied immediately."""
    u = st.units[uid]
    if not u.on_table or u.routed:
        return
    clause = {
        "missile": "morale.test-triggers",
        "melee": "morale.melee-test-order",
        "friend": "morale.test-triggers",
        "interpenetrated": "morale.test-triggers",
    }.get(kind, "morale.test-triggers")
    extra: dict[str, Any] = {}
    if kind == "missile":
        extra = missile_mods(st, u, st.fire_received.get(uid, {}))
    elif kind == "melee":
        extra = melee_mods(st, u)
    elif kind == "friend":
        extra = {"in_cover": not any(in_sight(st, u, e) for e in st.live() if e.side != u.side)}
    out = morale_test(st, u, reason, clause, extra)
    st.push(*outcome_tasks(st, u, out, causes, kind == "melee"))


def run_tests_together(st: IntoTheDarkState, uids: tuple[str, ...], reason: str) -> None:
    """Task: simultaneous melee tests ("In cases of tied melee results, the tests are done
    simultaneously"): every unit rolls, then the results are applied."""
    tasks: list[tuple[Any, ...]] = []
    outs: list[tuple[Unit, MoraleOutcome]] = []
    for uid in uids:
        u = st.units[uid]
        if not u.on_table or u.routed:
            continue
        outs.append((u, morale_test(st, u, reason, "morale.melee-test-order", melee_mods(st, u))))
    for u, out in outs:
        causes = tuple(st.melee.get(u.id, {}).get("opponents", []))
        tasks += outcome_tasks(st, u, out, causes, True)
    st.push(*tasks)


# --- driven back -----------------------------------------------------------------------------


def _blocked_reason(st: IntoTheDarkState, u: Unit, fp: Footprint, world: World) -> str | None:
    if not all(0 <= x <= st.terrain.width and 0 <= y <= st.terrain.depth for x, y in fp.corners()):
        return "the table edge"
    factor, dis, _ = terrain_effect(u, fp, st.terrain)
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
    u = st.units[uid]
    if not u.on_table or u.routed:
        return
    world = st.world()
    total = st.d(4)
    fp0 = u.fp
    pushed: list[Unit] = []
    n = max(1, math.ceil(total / 0.25))
    for i in range(1, n + 1):
        s = total * i / n
        fp = fp0.moved(dx * s, dy * s)
        why = _blocked_reason(st, u, fp, world)
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
    end = fp0.moved(dx * total, dy * total)
    moves: list[tuple[Unit, Footprint]] = []
    for f in pushed:
        s = 0.0
        ffp = f.fp
        while convex_penetration(ffp.corners(), end.corners()) > CONTACT_TOL and s < total + f.depth + 1:
            s += 0.1
            ffp = f.fp.moved(dx * s, dy * s)
        others = World([x for x in world.units if x.id not in (u.id, f.id)], st.terrain, world.in_melee)
        why = _blocked_reason(st, f, ffp, world)
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
    u.travelled += total
    u.shieldwall = False if u.shieldwall and u.disordered else u.shieldwall
    st.driven[u.id] = (dx, dy)
    st.log(
        "driven-back",
        "combat.driven-back",
        side=u.side,
        unit=u.id,
        distance=round(total, 3),
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
    u.morale = "routed"
    u.disordered = True
    u.shieldwall = False
    u.evading = False
    u.pursuing = None
    u.faced = ()
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
    for i in range(1, n + 1):
        s = step * i
        c = col.moved(fx * s, fy * s)
        full = fp0.moved(fx * s, fy * s)
        if not centre_on_table(full, st.terrain):
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
        factor, _, _ = terrain_effect(u, c, st.terrain)
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
            if f.routed or f.id in world.in_melee or f.id in refused:
                blocked_by = f.id
                stop = True
                break
            if f.id not in allowed and f.spec.density == "C" and f.id not in now_passed:
                st.push(("rout-move", uid, distance, allowed, refused, tuple(now_passed)))
                st.ask("consent", f.side, f.id, mover=uid, what="rout")
                return
            if f.id not in now_passed:
                now_passed.append(f.id)
            if u.mounted:
                factor = max(factor, 2.0)
        if stop:
            break
        cost += step * factor
        if cost > distance + 1e-9:
            break
        reached = s
    # stand clear of every unit at the end
    end = fp0.moved(fx * reached, fy * reached)
    while reached > 1e-9 and _overlaps_any(end, u, world):
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
    )
    _passed_tests(st, u, now_passed)


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
    """ "being interpenetrated by routing friendly unit": the friend tests at once."""
    tasks = []
    for fid in passed:
        f = st.units[fid]
        f.interpenetrated = True
        if f.on_table and not f.routed:
            tasks.append(("test", fid, f"passed through by routing {u.id}", (u.id,), "interpenetrated"))
    st.push(*tasks)


# --- morale phase ------------------------------------------------------------------------------


def morale_missile(st: IntoTheDarkState) -> None:
    """Task: tests for "receiving missile fire ... during normal firing ... whether casualties
    resulted or not" (morale.test-triggers), in the order fire was received."""
    tasks = []
    for uid, rec in st.fire_received.items():
        if rec.get("tested"):
            continue
        rec["tested"] = True
        tasks.append(("test", uid, "received missile fire", tuple(rec.get("firers", [])), "missile"))
    st.push(*tasks)


def melee_result(st: IntoTheDarkState, uid: str) -> str:
    """ "The loser(s) of the melee (the unit(s) that received the most casualities)": each unit is
    judged against the casualties its own opponents received (morale.melee-test-order)."""
    rec = st.melee[uid]
    mine = rec["received"]
    theirs = sum(st.melee.get(o, {}).get("received", 0) for o in rec["opponents"])
    if mine > theirs:
        return "lost"
    if mine < theirs:
        return "won"
    return "tied"


def morale_melee(st: IntoTheDarkState) -> None:
    """Task: melee tests - losers first, results applied at once; ties simultaneously; then winners
    only if enemies are still in contact (morale.melee-test-order)."""
    if not st.melee:
        return
    res = {uid: melee_result(st, uid) for uid in st.melee}
    st.log("melee-results", "morale.melee-test-order", results=res)
    losers = [uid for uid, r in res.items() if r == "lost"]
    ties = tuple(uid for uid, r in res.items() if r == "tied")
    winners = tuple(uid for uid, r in res.items() if r == "won")
    tasks: list[tuple[Any, ...]] = []
    for uid in losers:
        tasks.append(("test", uid, "lost the melee", tuple(st.melee[uid]["opponents"]), "melee"))
    if ties:
        tasks.append(("tests-in-contact", ties, "tied melee"))
    if winners:
        tasks.append(("tests-in-contact", winners, "won the melee, enemy still in contact"))
    tasks.append(("pursuits",))
    st.push(*tasks)


def tests_in_contact(st: IntoTheDarkState, uids: tuple[str, ...], reason: str) -> None:
    still = tuple(
        uid
        for uid in uids
        if st.units[uid].on_table
        and not st.units[uid].routed
        and any(
            o in st.melee[uid]["opponents"]
            and st.units[o].on_table
            and not st.units[o].routed
            and o not in st.driven
            for o in (t.other for t in st.touching(st.units[uid]))
        )
    )
    if still:
        run_tests_together(st, still, reason)


def pursuits(st: IntoTheDarkState) -> None:
    """Task: "If all of a unit's melee opponents are driven back or rout, the unit (if not driven back
    or routed themselves) will immediately follow them" (combat.pursuit); shaken units that drove
    off all their opponents become steady (morale.morale-states)."""
    tasks: list[tuple[Any, ...]] = []
    for uid, rec in st.melee.items():
        w = st.units[uid]
        if not w.on_table or w.routed or uid in st.driven or not rec["opponents"]:
            continue
        opps = [st.units[o] for o in rec["opponents"]]
        if not all((not o.on_table) or o.routed or o.id in st.driven for o in opps):
            continue
        if w.morale == "shaken":
            w.morale = "steady"
            st.log(
                "steady",
                "morale.morale-states",
                side=w.side,
                unit=w.id,
                reason="drove back or routed all its melee opponents",
            )
        chase = [o for o in opps if o.on_table]
        if not chase:
            continue
        if any(st.in_melee(w) and t.other not in rec["opponents"] for t in st.touching(w)):
            continue  # still fighting someone else
        mode = "pursuit" if any(o.routed for o in chase) else "follow"
        if not w.charged:
            tasks.append(("ask-pursue", uid, mode))
        else:
            tasks.append(("pursue", uid, mode))
    st.push(*tasks)


def ask_pursue(st: IntoTheDarkState, uid: str, mode: str) -> None:
    w = st.units[uid]
    if not w.on_table or w.routed:
        return
    st.push(("pursue", uid, mode))
    st.ask("pursue", w.side, w.id, mode=mode)


def pursue(st: IntoTheDarkState, uid: str, mode: str) -> None:
    """Task: the follow-up (4 inches, to stay in contact) or pursuit (a normal move; disordered at
    the end; bonus round if it keeps up; a charge if another enemy is in the way; off the table:
    gone) (combat.pursuit, combat.bonus-round)."""
    w = st.units[uid]
    if not w.on_table or w.routed:
        return
    rec = st.melee.get(uid, {"opponents": []})
    quarry = [st.units[o] for o in rec["opponents"] if st.units[o].on_table]
    limit = st.d(4) if mode == "follow" else st.d(w.allowance)
    world = st.world()
    fp = w.fp
    fx, fy = heading_vector(fp.heading)
    from shieldwall.core.geometry import sweep_distance

    best: tuple[float, Unit] | None = None
    for e in world.enemies(w):
        dd = sweep_distance(fp.corners(), (fx, fy), e.fp.corners())
        if dd <= limit + 1e-9 and (best is None or dd < best[0]):
            best = (dd, e)
    w.pursued = True
    w.moved = True
    if best is not None:
        dd, e = best
        try:
            tr = trace(w, [O.Fwd(dd)], world, ignore=[e.id]) if dd > 1e-6 else None
        except Problem:
            tr = None
            best = None
        if best is not None:
            contact = fp.moved(fx * dd, fy * dd)
            from shieldwall.core.geometry import contact_facing

            edge = contact_facing(e.fp, contact.corners(), tol=CONTACT_TOL * 2)
            end = conform(w, contact, e.fp, edge, world, e.id) if edge else None
            if end is not None:
                w.place(end)
                w.travelled += dd
                if tr is not None and tr.disorder:
                    w.disordered = True
                if e in quarry:
                    st.log(mode, "combat.pursuit", side=w.side, unit=w.id, caught=e.id, distance=round(dd, 3))
                    if mode == "pursuit" and e.routed:
                        bonus_round(st, w, e)
                        _end_pursuit(st, w, mode, e)
                    return
                # "If, while chasing routers, another enemy unit gets in your way, you may convert your
                # pursuit into a charge on this unit" (the engine always does: docs/rulings)
                imp = impetuous_ok(w) and dd >= st.d(4) and not (tr is not None and tr.difficult)
                if imp:
                    imp = warband_test(st, w)
                w.charged = True
                w.charge_turn = st.turn + 1
                if imp:
                    w.impetuous_turn = st.turn + 1
                if edge != "front":
                    e.pinned = True
                st.log(
                    "pursuit-charge",
                    "combat.pursuit",
                    side=w.side,
                    unit=w.id,
                    target=e.id,
                    edge=edge,
                    impetuous=imp,
                    distance=round(dd, 3),
                )
                return
    # nothing met: the full distance (off the table: gone)
    d_ok, tr2 = max_straight(w, fp, limit, world, allow_off=True)
    if tr2 is not None and tr2.off_table:
        w.place(tr2.fp)
        w.gone = True
        st.log(
            "pursuit-off-table",
            "combat.pursuit",
            side=w.side,
            unit=w.id,
            reason="pursued off the table: gone for the rest of the game",
        )
        return
    if tr2 is not None:
        w.place(tr2.fp)
        w.travelled += d_ok
        if tr2.disorder:
            w.disordered = True
    st.log(mode, "combat.pursuit", side=w.side, unit=w.id, distance=round(d_ok, 3), caught=None)
    _end_pursuit(st, w, mode, quarry[0] if quarry else None)


def _end_pursuit(st: IntoTheDarkState, w: Unit, mode: str, quarry: Unit | None) -> None:
    if mode != "pursuit":
        return
    if not w.disordered:
        w.disordered = True
        w.shieldwall = False
        st.log(
            "disordered",
            "combat.pursuit",
            side=w.side,
            unit=w.id,
            reason="a unit that pursues becomes disordered",
        )
    if w.fanatic and quarry is not None and quarry.routed:
        w.pursuing = quarry.id


def impetuous_ok(u: Unit) -> bool:
    """ "normally permitted only to cavalry" (movement.impetuous-charges); warbands "may attempt to
    charge Impetuously in the same way as cavalry" (special-troops.warbands)."""
    return u.mounted or u.spec.has("warband")


def warband_test(st: IntoTheDarkState, u: Unit) -> bool:
    """ "They must pass a control test, and if successful, the charge becomes an impetuous one
    (failure has no effect). If successful, the warband becomes disordered at the end of the turn
    (assuming melee combat occurred)." (special-troops.warbands). Mounted units need no test."""
    if u.mounted:
        return True
    ok = control_test(st, u, "warband charging impetuously", "special-troops.warbands")
    if ok:
        u.extra["warband_turn"] = st.turn
    else:
        st.log(
            "not-impetuous",
            "special-troops.warbands",
            side=u.side,
            unit=u.id,
            reason="failed: an ordinary charge, no other effect",
        )
    return ok


def bonus_round(st: IntoTheDarkState, w: Unit, r: Unit) -> None:
    """ "If your opponent's unit routs, but you manage to keep up with them during your pursuit move,
    you gain a bonus round of melee taken immediately. You get 1 d6 for every figure eligible to
    fight (before becoming disordered)." (combat.bonus-round)"""
    from .act_combat import troops

    ranks = fighting_ranks(melee=True, disordered=False, pike=w.spec.has("pike"))
    n = 0
    facing = "front"
    for t in touches(w, [r]):
        n += fighting_count(w, t, ranks)
        facing = {"front": "front", "rear": "rear"}.get(t.theirs, "flank")
    if n == 0:
        return
    kw: dict[str, Any] = {facing: n}
    sit = MeleeSituation(troops(w), troops(r), bonus_round=True, **kw)
    roll = sit.roll(st.rng)
    lost = r.lose(roll.hits)
    st.log(
        "bonus-round",
        "combat.bonus-round",
        side=w.side,
        unit=w.id,
        target=r.id,
        figures=n,
        casualties=lost,
        **roll.to_dict(),
    )
    if r.destroyed:
        st.destroyed_turn.append({"id": r.id, "side": r.side, "corners": [list(p) for p in r.fp.corners()]})
        st.log("destroyed", "combat.bonus-round", side=r.side, unit=r.id)


def friends_tests(st: IntoTheDarkState) -> None:
    """Task: "each friendly unit routed this turn, that began its rout within 6" of testing unit
    (except routing open order troops)"; "each friendly unit destroyed this turn, or friendly
    fanatic (quality 5) unit routing, within 12"" (morale.test-triggers). Repeats until no unit has a
    test left to take."""
    tasks: list[tuple[Any, ...]] = []
    for r in st.routed_turn:
        if r["open"]:
            continue
        poly = [tuple(p) for p in r["corners"]]
        for f in st.live(r["side"]):
            if f.id == r["id"] or f.routed:
                continue
            key = (f.id, "routed:" + r["id"])
            if key in st.tested:
                continue
            if polygon_distance(f.fp.corners(), poly) <= st.d(6) + 1e-9:
                st.tested.add(key)
                tasks.append(("test", f.id, f'friendly {r["id"]} routed within 6"', (), "friend"))
    if not tasks:
        for kind, items in (
            ("destroyed", st.destroyed_turn),
            ("fanatic", [r for r in st.routed_turn if r["fanatic"]]),
        ):
            for r in items:
                poly = [tuple(p) for p in r["corners"]]
                for f in st.live(r["side"]):
                    if f.id == r["id"] or f.routed:
                        continue
                    key = (f.id, f"{kind}:" + r["id"])
                    if key in st.tested:
                        continue
                    src = st.units[r["id"]]
                    where = src.fp.corners() if (kind == "fanatic" and src.on_table) else poly
                    if polygon_distance(f.fp.corners(), where) <= st.d(12) + 1e-9:
                        st.tested.add(key)
                        what = "destroyed" if kind == "destroyed" else "fanatic routing"
                        tasks.append(("test", f.id, f'friendly {r["id"]} {what} within 12"', (), "friend"))
    if tasks:
        st.push(*tasks, ("friends-tests",))
