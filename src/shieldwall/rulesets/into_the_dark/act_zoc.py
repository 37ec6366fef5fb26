"""Zones of control (setup.zone-of-control): after a move, each enemy whose zone the mover moved in
may make an opportunity charge (movement.opportunity-charges) or opportunity fire
(combat.opportunity-fire)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from shieldwall.core.geometry import Footprint, Polygon
from shieldwall.core.reference import REFERENCE

from . import orders as O
from .charging import any_charge, charge_orders, reactor_problem, reactors
from .model import Unit
from .moves import bad, zoc_length
from .shooting import aim, fire_problem, shoot_now
from .spatial import meets, zone

#: the math functions called here, bound once (compiled: a static read, not a lookup per call)
_hypot: Final = math.hypot

if TYPE_CHECKING:
    from .state import IntoTheDarkState


# --- zones of control ---------------------------------------------------------------------------


def zoc(st: IntoTheDarkState, mover_id: str, samples: tuple[tuple[float, ...], ...]) -> None:
    """Task: after a move, each enemy whose zone of control the mover moved in may react
    (setup.zone-of-control). Only moves in the movement sequence trigger these (docs/rulings)."""
    m = st.units[mover_id]
    if not m.on_table or m.routed:
        return
    fps: dict[int, Footprint] = {}  # the positions' footprints, built when first needed
    tasks: list[tuple[Any, ...]] = []
    enemies = [e for e in st.live() if e.side != m.side]
    if not REFERENCE.on:
        enemies = within_reach(st, enemies, samples)
    for e in reactors(st, enemies):
        hit = False
        if e.has_melee:
            z = zone(e, zoc_length(st, e, "melee"))  # once, not once per position of the path
            hit = samples_meet(z, samples, fps)
        # into-the-dark:combat.opportunity-fire.zone (close range straight ahead)
        # into-the-dark:combat.opportunity-fire.once-a-turn (a unit that has fired has no zone left)
        if not hit and e.has_missiles and not e.fired:
            z = zone(e, zoc_length(st, e, "missile"))
            hit = samples_meet(z, samples, fps)
        if hit:
            tasks.append(("opportunity", e.id, m.id))
    st.push(*tasks)


def zone_reach(st: IntoTheDarkState, e: Unit) -> float:
    """How far the zones ``zoc`` tests for ``e`` reach beyond its circumscribed circle: the longest of
    its melee zone (when it has melee troops) and its missile zone (when it has missiles and has not
    fired); -1 when it has neither. A zone is the strip straight out from the front edge
    (``spatial.corridor``), so each of its points lies within the circle's radius plus the length."""
    reach = -1.0
    if e.has_melee:
        reach = zoc_length(st, e, "melee")
    if e.has_missiles and not e.fired:
        reach = max(reach, zoc_length(st, e, "missile"))
    return reach


def within_reach(
    st: IntoTheDarkState, enemies: list[Unit], samples: Sequence[tuple[float, ...]]
) -> list[Unit]:
    """The enemies, in order, whose zones can meet a position of the move (issue 16: a big army's
    move tests only the enemies near it). The positions lie in one circle around their bounding
    box's centre (each position's footprint in the circle of half its diagonal); an enemy whose
    centre is farther from it than that circle's radius, its own radius and its zones' reach
    (``zone_reach``) cannot meet any position, so ``samples_meet`` would say no for each of its
    zones. The reference path (``zoc``) tests every enemy."""
    if not samples:
        return []
    xs = [s[0] for s in samples]
    ys = [s[1] for s in samples]
    cx = 0.5 * (min(xs) + max(xs))
    cy = 0.5 * (min(ys) + max(ys))
    hypot = math.hypot
    radius = max(hypot(s[0] - cx, s[1] - cy) + 0.5 * hypot(s[3], s[4]) for s in samples)
    kept: dict[tuple[Any, ...], tuple[Any, float]] | None = getattr(st, "zone_reaches", None)
    out = []
    for e in enemies:
        f = e.fp
        gap = hypot(f.x - cx, f.y - cy) - radius - f.radius - ZONE_SLACK
        if gap <= 0.0 or gap <= (zone_reach(st, e) if kept is None else kept_zone_reach(st, e, kept)):
            out.append(e)
    return out


def kept_zone_reach(st: IntoTheDarkState, e: Unit, kept: dict[tuple[Any, ...], tuple[Any, float]]) -> float:
    """``zone_reach(st, e)``, worked out once for each troop type and state of the unit it reads
    (issue 16: ``within_reach`` asks it of every enemy at every move; most of its time was the
    army entry's properties). It reads the army entry (``spec``: its parts, missile weapon, melee
    weapons), whether the unit is unhorsed (its category), a general, has fired, its figures (the
    majority of a mixed unit) and the battle's scale: the key. ``kept`` is the state's
    (``zone_reaches``, shared with its copies); the entry keeps the army entry it was made for."""
    spec = e.spec
    key = (id(spec), e.unhorsed, e.general, e.fired, e.figures, st.factor)
    got = kept.get(key)
    if got is not None and got[0] is spec:
        return got[1]
    reach = zone_reach(st, e)
    kept[key] = (spec, reach)
    return reach


#: slack on the bound of ``path_meets`` (rounding of the corners; ``meets`` counts 1e-9 apart as apart)
ZONE_SLACK: Final = 1e-6


def path_meets(z: Polygon, fps: Sequence[Footprint]) -> bool:
    """``any(meets(z, f.corners()) for f in fps)``: whether a zone meets any position of a path,
    the exact test made only for the positions whose circumscribed circle reaches the zone's (the
    others cannot meet it). On the reference path every position is tested."""
    if REFERENCE.on:
        return any(meets(z, f.corners()) for f in fps)
    n = len(z)
    zx = sum(p[0] for p in z) / n
    zy = sum(p[1] for p in z) / n
    zr = max(_hypot(p[0] - zx, p[1] - zy) for p in z) + ZONE_SLACK
    hypot = math.hypot
    return any(meets(z, f.corners()) for f in fps if hypot(f.x - zx, f.y - zy) <= zr + f.radius)


def samples_meet(z: Polygon, samples: Sequence[tuple[float, ...]], fps: dict[int, Footprint]) -> bool:
    """``path_meets(z, [Footprint(*s) for s in samples])`` for the positions of a move as the task
    gets them (x, y, heading, frontage, depth): the bound of ``path_meets`` read from the numbers
    (a footprint's radius is half the diagonal of its frontage and depth), a footprint built only
    for the positions within it (kept in ``fps`` by index for the task's next zone). On the
    reference path: every footprint built, and ``path_meets``."""
    if REFERENCE.on:
        return path_meets(z, [Footprint(*s) for s in samples])
    n = len(z)
    zx = sum(p[0] for p in z) / n
    zy = sum(p[1] for p in z) / n
    zr = max(_hypot(p[0] - zx, p[1] - zy) for p in z) + ZONE_SLACK
    hypot = math.hypot
    for i, s in enumerate(samples):
        if hypot(s[0] - zx, s[1] - zy) <= zr + 0.5 * hypot(s[3], s[4]):
            f = fps.get(i)
            if f is None:
                f = fps[i] = Footprint(*s)
            if meets(z, f.corners()):
                return True
    return False


def opportunity_options(st: IntoTheDarkState, e: Unit, m: Unit) -> list[O.Order]:
    out: list[O.Order] = []
    if reactor_problem(st, e) or not m.on_table or m.routed:
        return out
    if e.has_melee:
        out.extend(charge_orders(st, e, [m], opportunity=True))
    if e.has_missiles and fire_problem(st, e) is None and aim(st, e, m) is not None:
        out.append(O.Fire(e.id, m.id))
    return out


def opportunity_possible(st: IntoTheDarkState, e: Unit, m: Unit) -> bool:
    """``bool(opportunity_options(st, e, m))``, answered at the first charge allowed (``any_charge``)
    instead of working out the whole menu; on the reference path, the menu is worked out."""
    if REFERENCE.on:
        return bool(opportunity_options(st, e, m))
    if reactor_problem(st, e) or not m.on_table or m.routed:
        return False
    if e.has_melee and any_charge(st, e, [m], opportunity=True):
        return True
    return e.has_missiles and fire_problem(st, e) is None and aim(st, e, m) is not None


def opportunity(st: IntoTheDarkState, eid: str, mid: str) -> None:
    """Task: offer one opportunity charge or fire (movement.opportunity-charges, combat.opportunity-fire)."""
    e, m = st.units[eid], st.units[mid]
    if not opportunity_possible(st, e, m):
        return
    st.ask("opportunity", e.side, e.id, mover=m.id)


def opportunity_fire(st: IntoTheDarkState, order: O.Fire) -> None:
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
