"""Missile fire and melee in play (combat.*): who may shoot whom and with how many figures at which
range, who fights whom with how many figures on which side; the dice are ``combat.py``'s.

"All combat, missile and melee, is calculated in exactly the same way ... Even if done out of
sequence, all firing is considered simultaneous" (combat.missile-fire); "All melee combat is
considered simultaneous" (combat.melee).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from shieldwall.core.geometry import dist

from .combat import MeleeSituation, MissileSituation, Troops, fighting_ranks
from .model import Unit
from .profiles import missile_weapons, terrain_table
from .spatial import (
    EDGES,
    Touch,
    fighting_count,
    figure_points,
    in_corridor,
    on_elevated,
    sees,
    slots_in_contact,
)

if TYPE_CHECKING:
    from .state import IntoTheDarkState


def troops(u: Unit, firing: bool = False) -> Troops:
    """The unit as ``combat.py`` sees it now."""
    tr = Troops.from_unit(
        u.spec,
        shaken=u.morale != "steady",
        disordered=u.disordered,
        in_shieldwall=u.shieldwall and not u.disordered,
        routing=u.routed,
        firing=firing,
        wounded=u.wounded,
    )
    # a champion who lost his mount fights on foot (special-troops.champions)
    return replace(tr, category="F") if u.unhorsed else tr


# --- missile fire ----------------------------------------------------------------------------


def fire_problem(st: IntoTheDarkState, u: Unit) -> str | None:
    """Why ``u`` may not shoot now (combat.missile-fire), or None."""
    if not u.has_missiles:
        return "only missile troops and cross trained troops shoot"
    if not u.on_table or u.routed:
        return "routed units do not shoot"
    if u.fired:
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
    w = u.spec.missile_weapon
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
    if not t.on_table or t.side == u.side or exposed(st, t) == 0:
        return None
    w = u.spec.missile_weapon
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
    if not close and not lng:
        return None
    return Aim(t, close, lng)


def contacts(st: IntoTheDarkState, t: Unit) -> list[Touch]:
    """Every contact of ``t`` with an enemy, seen from ``t``'s side: its own touches, and those an
    enemy's edge sees on ``t`` when ``t``'s edges do not (contact is mutual, docs/rulings)."""
    own = st.touching(t)
    seen = {x.other for x in own}
    out = list(own)
    for e in st.live():
        if e.side == t.side or e.id in seen or not e.on_table:
            continue
        for x in st.touching(e):
            if x.other == t.id:
                out.append(Touch(e.id, x.theirs, x.mine, x.b0, x.b1, x.a0, x.a1))
    return out


def involved(st: IntoTheDarkState, t: Unit) -> set[tuple[int, int]]:
    """The figures of ``t`` (rank, slot) involved in melee (combat.target-eligibilities): those in
    contact on any edge, and behind a front in contact the ranks that fight in melee (two; four for
    pikes), whether or not disorder keeps them from fighting this round (docs/rulings)."""
    out: set[tuple[int, int]] = set()
    ranks = fighting_ranks(melee=True, pike=t.spec.has("pike"))
    for x in contacts(st, t):
        slots = slots_in_contact(t, x.mine, x.a0, x.a1)
        if x.mine == "front":
            for r in range(min(ranks, t.ranks)):
                out.update((r, i) for i in slots if i in t.rank_slots(r))
        elif x.mine == "rear":
            out.update((t.ranks - 1, i) for i in slots)
        else:
            for r in slots:
                filled = t.rank_slots(r)
                if len(filled):
                    out.add((r, filled[0] if x.mine == "left" else filled[-1]))
    return out


def exposed(st: IntoTheDarkState, t: Unit) -> int:
    """ "Troops involved in melee are not eligible targets, although those not involved (a third
    rank, an extended line, etc) are." (combat.target-eligibilities): how many figures of ``t`` may
    be shot at - all of them when it is in no melee."""
    return t.figures - len(involved(st, t))


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
    the engine picks the target the most of them can hit. Returns (target, roll, close, long)."""
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
            troops(u, firing=u.id in firing),
            troops(t, firing=t.id in firing),
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
        _check_destroyed(st, tt, clause)
        res.append((tt, lost))
    return res


def _check_destroyed(st: IntoTheDarkState, t: Unit, clause: str) -> None:
    if t.destroyed and not any(r["id"] == t.id for r in st.destroyed_turn):
        st.destroyed_turn.append({"id": t.id, "side": t.side, "corners": [list(p) for p in t.fp.corners()]})
        st.log("destroyed", clause, side=t.side, unit=t.id, reason="every figure lost")


def fire_resolve(st: IntoTheDarkState) -> None:
    """Task: the Missile Fire phase, all at once ("all firing is considered simultaneous")."""
    firing = {uid for uid, _ in st.fire_orders}
    hits: dict[str, int] = {}
    rolled: list[tuple[Unit, Unit, Any, int, int]] = []
    for uid, tid in st.fire_orders:
        u, t = st.units[uid], st.units[tid]
        if not u.on_table or not t.on_table:
            continue
        for tt, roll, c, lg in volley(st, u, t, firing):
            rolled.append((u, tt, roll, c, lg))
            hits[tt.id] = hits.get(tt.id, 0) + (roll.hits if roll is not None else 0)
    for u, tt, roll, c, lg in rolled:
        record_fire(st, u, tt, c, lg)
        st.log(
            "fire",
            "combat.missile-fire",
            side=u.side,
            unit=u.id,
            target=tt.id,
            close=c,
            long=lg,
            **(roll.to_dict() if roll is not None else {"faces": [], "hits": 0}),
        )
    # only figures not involved in a melee can be hit (combat.target-eligibilities); counted
    # before any casualty is removed, as all firing is simultaneous
    open_to_fire = {tid: exposed(st, st.units[tid]) for tid in hits}
    for tid, h in hits.items():
        t = st.units[tid]
        lost = t.lose(min(h, open_to_fire[tid]))
        capped = open_to_fire[tid] < h
        st.log(
            "casualties",
            "combat.target-eligibilities" if capped else "combat.missile-fire",
            side=t.side,
            unit=tid,
            casualties=lost,
            figures=t.figures,
            **({"not_involved": open_to_fire[tid]} if capped else {}),
        )
        _check_destroyed(st, t, "combat.missile-fire")
    st.fire_orders = []


# --- melee -------------------------------------------------------------------------------------


def obstacle_between(st: IntoTheDarkState, a: Unit, b: Unit) -> bool:
    """``b`` defends an obstacle against ``a``: a fence, ditch or wall lies across the line between
    their centres (combat.melee-modifiers; docs/rulings)."""
    kinds = terrain_table().kinds
    return any(
        kinds[f.kind].obstacle and f.linear and f.crossing_points(a.fp.centre, b.fp.centre)
        for f in st.terrain.features
    )


def melee_phase(st: IntoTheDarkState) -> None:
    """Task: every unit in contact fights at once (combat.melee, combat.ranks, combat.flanks-and-rear,
    combat.double-dice). "To be flanked, a unit must be attacked by at least 4 enemy figures on a side
    that has no figures turned to face these enemies": fewer fight as if frontal (docs/rulings)."""
    from . import act_champions, act_generals
    from .act_tests import HILLS

    st.phase = "melee"
    attacks: dict[tuple[str, str], dict[str, int]] = {}
    side_total: dict[tuple[str, str], int] = {}
    for a in st.live():
        if a.routed or a.caught:
            continue
        ranks = fighting_ranks(melee=True, disordered=a.disordered, pike=a.spec.has("pike"))
        for t in st.touching(a):
            n = fighting_count(a, t, ranks)
            if a.champion:
                # "they may always strike back no matter which side they're contacted on"
                if (a.id, t.other) in attacks:
                    continue
                n = 1
            if n == 0:
                continue
            b = st.units[t.other]
            edge = "front" if (t.theirs == "front" or t.theirs in b.faced) else t.theirs
            if a.champion or b.champion:
                # "Champions cannot pin or flank units or be flanked themselves" (special-troops.champions)
                edge = "front"
            key = (a.id, b.id)
            attacks.setdefault(key, {})
            attacks[key][edge] = attacks[key].get(edge, 0) + n
            side_total[(b.id, edge)] = side_total.get((b.id, edge), 0) + n
    # everyone in contact is in the melee, fighting back or not
    record: dict[str, dict[str, Any]] = {}
    for u in st.live():
        for t in st.touching(u):
            record.setdefault(u.id, {"received": 0, "opponents": [], "flanked": False, "obstacle": False})
            if t.other not in record[u.id]["opponents"]:
                record[u.id]["opponents"].append(t.other)
    # contact is mutual: a unit whose edge is flush with only a corner of its enemy is in contact
    # with it although the enemy's own edges touch nothing (docs/rulings: contact)
    for aid, bid in attacks:
        for x, y in ((aid, bid), (bid, aid)):
            rec = record.setdefault(x, {"received": 0, "opponents": [], "flanked": False, "obstacle": False})
            if y not in rec["opponents"]:
                rec["opponents"].append(y)
    rolls: list[tuple[Unit, Unit, Any, dict[str, int]]] = []

    def uphill_of(e: Unit, h: Unit) -> bool:
        return st.terrain.elevation(e.fp.centre, HILLS) > st.terrain.elevation(h.fp.centre, HILLS) + 1e-6

    champion_attacks = act_champions.attacks(st, uphill_of, obstacle_between)
    for (aid, bid), by_edge in attacks.items():
        a, b = st.units[aid], st.units[bid]
        fr = by_edge.get("front", 0)
        fl = 0
        rr = 0
        for edge in ("left", "right", "rear"):
            n = by_edge.get(edge, 0)
            if not n:
                continue
            if side_total[(bid, edge)] >= 4:
                if edge == "rear":
                    rr += n
                else:
                    fl += n
                record[bid]["flanked"] = True
            else:
                fr += n
        uphill = st.terrain.elevation(b.fp.centre, HILLS) > st.terrain.elevation(a.fp.centre, HILLS) + 1e-6
        obst = obstacle_between(st, a, b)
        if obst:
            record[bid]["obstacle"] = True
        fac = "front" if fr else ("flank" if fl else "rear")
        sit = MeleeSituation(
            troops(a),
            troops(b),
            front=fr,
            flank=fl,
            rear=rr,
            charging=a.charge_turn == st.turn,
            impetuous=a.impetuous_turn == st.turn,
            target_uphill=uphill,
            obstacle=(fac,) if obst else (),  # type: ignore[arg-type]
        )
        if st.declared and sit.dice:
            # dice declared at the general leading b (command.general-leading)
            sit, _ = act_generals.strike(st, a, b, sit)
        roll = sit.roll(st.rng) if sit.dice else None
        rolls.append((a, b, roll, {"front": fr, "flank": fl, "rear": rr}))

    # champions mixed in with a front rank strike the enemy at it, in the same simultaneous round
    # whatever is declared at them (special-troops.champions)
    for c, e, sit in champion_attacks:
        rolls.append((c, e, sit.roll(st.rng), {"front": 1, "flank": 0, "rear": 0}))
    for a, b, roll, figs in rolls:
        h = roll.hits if roll is not None else 0
        rec = record.setdefault(b.id, {"received": 0, "opponents": [], "flanked": False, "obstacle": False})
        rec["received"] += h
        a.fought = True
        b.fought = True
        st.log(
            "melee",
            "combat.melee",
            side=a.side,
            unit=a.id,
            target=b.id,
            figures=figs,
            charging=a.charge_turn == st.turn,
            impetuous=a.impetuous_turn == st.turn,
            **(roll.to_dict() if roll is not None else {"faces": [], "hits": 0}),
        )
    for uid, rec in record.items():
        u = st.units[uid]
        u.fought = True
        lost = u.lose(rec["received"])
        rec["received"] = lost
        if lost or rec["flanked"]:
            st.log(
                "casualties",
                "combat.melee",
                side=u.side,
                unit=uid,
                casualties=lost,
                figures=u.figures,
                flanked=rec["flanked"],
            )
        _check_destroyed(st, u, "combat.melee")
    st.melee = record
