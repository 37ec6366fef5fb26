"""Missile fire in the battle (combat.missile-fire, combat.long-range, combat.target-eligibilities,
combat.fire-targets, combat.opportunity-fire): who may shoot, whom it can hit with how many figures
at which range, cover, a unit's volley, and opportunity fire resolved at once (``shoot_now``). The
dice are ``combat``'s; the Missile Fire phase itself is ``act_combat``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from shieldwall.core.geometry import dist
from shieldwall.core.reference import REFERENCE

from .fighting import check_destroyed, exposed, troops
from .fire_situation import MissileSituation
from .model import Unit
from .profiles import missile_weapons, terrain_table
from .spatial import EDGES, figure_points, in_corridor, on_elevated, sees

if TYPE_CHECKING:
    from .state import IntoTheDarkState


def fire_problem(st: IntoTheDarkState, u: Unit) -> str | None:
    """Why ``u`` may not shoot now (combat.missile-fire), or None."""
    # into-the-dark:swat.crossbow.heavy
    # into-the-dark:combat.missile-fire.not-when
    # into-the-dark:combat.missile-fire.foot-moving
    if not u.has_missiles:
        return "only missile troops and cross trained troops shoot"
    if not u.on_table or u.routed:
        return "routed units do not shoot"
    if u.fired:  # into-the-dark:combat.opportunity-fire.once-a-turn
        return "it has already fired this turn"
    if u.charged:
        return "units may not shoot if charging"
    if st.in_melee(u):
        return "units may not shoot if in melee"
    if u.pursued or u.pursuing:
        return "units may not shoot if pursuing"
    if u.interpenetrated:
        return "units may not shoot if interpenetrating or being interpenetrated"
    if u.rallying:
        return "a unit attempting to rally may take no other actions"
    w = u.majority.missile_weapon
    assert w is not None
    if not missile_weapons()[w].move_and_fire and u.travelled > 1e-6:
        return "heavy crossbows may not move and fire"
    if not u.mounted and u.travelled > st.d(u.allowance) / 2.0 + 1e-6:
        return "foot moving more than half their maximum movement cannot fire"
    return None


@dataclass(slots=True)
class Aim:
    """Which figures of a shooter can hit a target, and at which range (combat.long-range)."""

    target: Unit
    close: list[int]  # front-rank slots firing at close range
    long: list[int]

    def figures(self, u: Unit) -> tuple[int, int]:
        second = set(u.rank_slots(1)) if u.ranks > 1 else set()
        c = len(self.close) + len(second.intersection(self.close))
        lg = len(self.long) + len(second.intersection(self.long))
        return c, lg


def aim(st: IntoTheDarkState, u: Unit, t: Unit) -> Aim | None:
    """ "Missile range is measured from the front rank ... Figures in a second rank use the range of
    the figure in front" (combat.long-range); line of sight, no firing over other units unless the
    firer or target is on elevated terrain; foot fire only straight ahead, mounted in any one
    direction, and if any figures may fire at a unit, all may (combat.target-eligibilities)."""
    # into-the-dark:combat.target-eligibilities.foot-fire-straight-ahead
    # into-the-dark:combat.missile-fire.front-rank
    return _aim(st, u, t, False)


def _aim(st: IntoTheDarkState, u: Unit, t: Unit, first: bool) -> Aim | None:
    """``aim``; ``first``: stop at the first figure that sees the target in range (the answer is
    then an ``Aim`` naming only that figure: whether there is one is all the caller asks)."""
    if not t.on_table or t.side == u.side or exposed(st, t) == 0:
        return None
    w = u.majority.missile_weapon
    assert w is not None
    mw = missile_weapons()[w]
    close_r = st.d(mw.close)
    long_r = st.d(mw.long) if mw.long is not None else close_r
    edges = EDGES if u.mounted else ("front",)
    if not any(in_corridor(u.fp, e, t.fp, long_r) for e in edges):
        return None
    tfp = t.fp
    blockers = [x.fp.corners() for x in st.live() if x.id not in (u.id, t.id)]
    elevated = on_elevated(u.fp, st.terrain) or on_elevated(tfp, st.terrain)
    close: list[int] = []
    lng: list[int] = []
    for i, p in enumerate(figure_points(u)):
        d = sees(p, tfp, blockers, st.terrain, elevated)
        if d is None:
            continue
        if d <= close_r + 1e-9:
            close.append(i)
        elif mw.long is not None and d <= long_r + 1e-9:
            lng.append(i)
        else:
            continue
        if first:
            break
    if not close and not lng:
        return None
    return Aim(t, close, lng)


def has_target(st: IntoTheDarkState, u: Unit) -> bool:
    """``bool(targets(st, u))``, answered at the first target and, for each target, at the first
    figure that sees it in range (the Missile Fire phase asks only whether a side has a shot). On
    the reference path: ``targets`` worked out whole."""
    if REFERENCE.on:
        return bool(targets(st, u))
    if fire_problem(st, u) is not None:
        return False
    return any(_aim(st, u, t, True) is not None for t in st.live() if t.side != u.side)


def targets(st: IntoTheDarkState, u: Unit) -> list[Aim]:
    if fire_problem(st, u) is not None:
        return []
    out = []
    for t in st.live():
        if t.side == u.side:
            continue
        a = aim(st, u, t)
        if a is not None:
            out.append(a)
    return out


def cover_of(st: IntoTheDarkState, t: Unit, u: Unit) -> str:
    """ "In light cover (woods, fences) -1 / In heavy cover (buildings, walls) -2": the target's
    centre in a cover area, or a fence or wall between firer and target within its ``cover_reach``
    (data/terrain.toml) of the target (docs/rulings)."""
    kinds = terrain_table().kinds
    best = "none"
    rank = {"none": 0, "light": 1, "heavy": 2}
    tc, uc = t.fp.centre, u.fp.front_centre
    for f in st.terrain.features:
        k = kinds[f.kind]
        if k.cover == "none":
            continue
        hit = False
        if not f.linear and f.contains(tc):
            hit = True
        elif f.linear:
            pts = f.crossing_points(uc, tc)
            hit = any(dist(p, tc) <= t.fp.radius + st.d(k.cover_reach) for p in pts)
        if hit and rank[k.cover] > rank[best]:
            best = k.cover
    return best


def volley(st: IntoTheDarkState, u: Unit, first: Unit, firing: set[str]) -> list[tuple[Unit, Any, int, int]]:
    """The fire of ``u``: its figures that can hit ``first`` shoot at it; figures that cannot may
    shoot at another target in arc, "concentrating as much as possible" (combat.fire-targets) -
    the engine picks the target the most of them can hit (into-the-dark:combat.fire-targets.one-target).
    Returns (target, roll, close, long)."""
    out: list[tuple[Unit, Any, int, int]] = []
    used: set[int] = set()
    order: list[Unit] = [first]
    others = [a.target for a in targets_ignoring_fired(st, u) if a.target.id != first.id]
    while order:
        t = order.pop(0)
        a = aim(st, u, t)
        if a is None:
            continue
        a = Aim(t, [i for i in a.close if i not in used], [i for i in a.long if i not in used])
        c, lg = a.figures(u)
        if c + lg == 0:
            continue
        used.update(a.close)
        used.update(a.long)
        sit = MissileSituation(
            troops(u, firing=u.id in firing, missile=True),
            troops(t, firing=t.id in firing, missile=True),
            close=c,
            long=lg,
            from_rear=t.fp.facing_of(u.fp.front_centre) == "rear",
            cover=cover_of(st, t, u),  # type: ignore[arg-type]
        )
        roll = sit.roll(st.rng) if sit.dice else None
        out.append((t, roll, c, lg))
        if not order:
            rest = [i for i in range(u.front) if i not in used]
            if rest and others:
                best = None
                for o in others:
                    ao = aim(st, u, o)
                    if ao is None:
                        continue
                    k = len([i for i in ao.close + ao.long if i in rest])
                    if k and (best is None or k > best[0]):
                        best = (k, o)
                if best is not None:
                    others.remove(best[1])
                    order.append(best[1])
    return out


def targets_ignoring_fired(st: IntoTheDarkState, u: Unit) -> list[Aim]:
    out = []
    for t in st.live():
        if t.side != u.side:
            a = aim(st, u, t)
            if a is not None:
                out.append(a)
    return out


def record_fire(st: IntoTheDarkState, u: Unit, t: Unit, c: int, lg: int) -> None:
    rec = st.fire_received.setdefault(t.id, {"figures": 0, "long_only": True, "firers": [], "cover": False})
    rec["figures"] += c + lg
    rec["long_only"] = rec["long_only"] and c == 0
    if u.id not in rec["firers"]:
        rec["firers"].append(u.id)
    rec["cover"] = rec["cover"] or cover_of(st, t, u) != "none"


def shoot_now(
    st: IntoTheDarkState, u: Unit, t: Unit, clause: str, test_later: bool
) -> list[tuple[Unit, int]]:
    """Opportunity fire (combat.opportunity-fire): ``u``'s fire for the turn, out of sequence, its
    casualties removed at once. Returns (target, hits) pairs."""
    u.fired = True
    res = []
    for tt, roll, c, lg in volley(st, u, t, {u.id}):
        hits = roll.hits if roll is not None else 0
        lost = tt.lose(min(hits, exposed(st, tt)))
        st.log(
            "fire",
            clause,
            side=u.side,
            unit=u.id,
            target=tt.id,
            close=c,
            long=lg,
            casualties=lost,
            **(roll.to_dict() if roll is not None else {"faces": [], "hits": 0}),
        )
        if test_later:
            record_fire(st, u, tt, c, lg)
        check_destroyed(st, tt, clause)
        res.append((tt, lost))
    return res
