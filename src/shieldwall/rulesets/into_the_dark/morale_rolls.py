"""Morale and control tests rolled in the battle (morale.morale-tests, morale.modifiers,
morale.results, morale.control-tests): the modifiers the situation gives, the test itself, and the
tasks its result sets off (shaken, driven back, routed); warbands charging impetuously
(special-troops.warbands). The exact odds of a test are ``morale``; the morale phase and pursuit
are ``act_morale``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from shieldwall.core.geometry import heading_vector, normalize_angle
from shieldwall.core.polygons import polygon_distance

from .charge_plan import heading_towards
from .generals import leading_rating
from .model import Unit
from .morale import ControlOutcome, ControlSituation, MoraleOutcome, MoraleSituation
from .spatial import _segment_clear, gap

if TYPE_CHECKING:
    from .state import IntoTheDarkState

HILLS = ("hill", "steep-hill")


# --- modifiers -------------------------------------------------------------------------------


def elevation(st: IntoTheDarkState, u: Unit) -> float:
    return st.terrain.elevation(u.fp.centre, HILLS)


def in_sight(st: IntoTheDarkState, a: Unit, b: Unit) -> bool:
    """Sight between two units' centres, blocked by terrain only (docs/rulings)."""
    return _segment_clear(a.fp.centre, b.fp.centre, (), st.terrain, False)


def supported(st: IntoTheDarkState, u: Unit) -> bool:
    """ "unit has unrouted friendly units within 3" of both flanks, or 6" of rear and facing same
    direction and behind unit's center" (into-the-dark:morale.modifiers.supported)."""
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
    # into-the-dark:morale.modifiers.friends-routing
    routing = sum(1 for f in friends if f.routed and gap(u.fp, f.fp) <= st.d(12))
    sup = supported(st, u)
    # into-the-dark:morale.modifiers.unsupported
    unsup = not any((not f.routed) and gap(u.fp, f.fp) <= st.d(12) and in_sight(st, u, f) for f in friends)
    seen = [e for e in enemies if in_sight(st, u, e)]
    # into-the-dark:morale.modifiers.uphill
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
        "general": leading_rating(st, u),
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
    # into-the-dark:morale.modifiers.outnumber
    # into-the-dark:morale.modifiers.deeper-ranks
    # into-the-dark:morale.modifiers.flanked
    # into-the-dark:morale.modifiers.in-cover (defending an obstacle in melee)
    deeper = any(o.complete_ranks > u.complete_ranks for o in opps)
    return {
        "flanked": bool(rec.get("flanked")),
        "outnumber_double": theirs > 0 and u.figures >= 2 * theirs,
        "deeper_ranks": deeper,
        "in_cover": bool(rec.get("obstacle")),
    }


def missile_mods(st: IntoTheDarkState, u: Unit, rec: dict[str, Any]) -> dict[str, Any]:
    # into-the-dark:morale.modifiers.long-range-only
    # into-the-dark:morale.modifiers.fewer-firers
    # into-the-dark:morale.modifiers.in-cover (in or behind cover for missile fire)
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


def run_tests_together(st: IntoTheDarkState, uids: tuple[str, ...], reason: str) -> None:
    """Task: simultaneous melee tests ("In cases of tied melee results, the tests are done
    simultaneously"): every unit rolls, then the results are applied."""
    # into-the-dark:morale.melee-test-order.ties
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


# --- warbands --------------------------------------------------------------------------------


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
