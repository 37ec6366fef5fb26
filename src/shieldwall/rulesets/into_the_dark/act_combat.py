"""The Missile Fire phase and the melee (combat.*): every unit ordered to shoot fires at once, then
every unit in contact fights at once, with how many figures on which side; the dice are
``combat``'s. Who may shoot whom is ``shooting``; contacts and a unit's troops are ``fighting``;
generals and champions in a front rank are ``front_rank``.

"All combat, missile and melee, is calculated in exactly the same way ... Even if done out of
sequence, all firing is considered simultaneous" (combat.missile-fire); "All melee combat is
considered simultaneous" (combat.melee).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import front_rank
from .combat import fighting_ranks
from .fighting import check_destroyed, exposed, involved, melee_troops, troops
from .melee_situation import MeleeSituation
from .model import Unit
from .morale_rolls import HILLS
from .profiles import terrain_table
from .shooting import aim, fire_problem, record_fire, volley
from .spatial import Touch, fighting_count

if TYPE_CHECKING:
    from .state import IntoTheDarkState

__all__ = [
    "fire_resolve",
    "obstacle_between",
    "melee_phase",
    # from shooting and fighting, for reach and the tests
    "aim",
    "exposed",
    "fire_problem",
    "involved",
    "troops",
]


# --- missile fire ----------------------------------------------------------------------------


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
        check_destroyed(st, t, "combat.missile-fire")
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
    st.phase = "melee"
    attacks: dict[tuple[str, str], dict[str, int]] = {}
    side_total: dict[tuple[str, str], int] = {}
    across: dict[tuple[str, str], list[Touch]] = {}
    for a in st.live():
        if a.routed or a.caught or a.general:
            # a general "has no value in combat" (command.generals): he strikes no blow
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
            # into-the-dark:troops.unit-organisation.mixed-melee: a mixed unit fights with the
            # values of its figures in contact (ruling 78): ``melee_troops`` reads them off these
            across.setdefault((a.id, b.id), []).append(t)
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

    champion_attacks = front_rank.champion_attacks(st, uphill_of, obstacle_between)
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
        ta, tb = melee_troops(a, b, across.get((aid, bid), ()))
        sit = MeleeSituation(
            ta,
            tb,
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
            sit, _ = front_rank.strike(st, a, b, sit)
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
    # into-the-dark:combat.melee.simultaneous: every unit's blows were counted and rolled from the
    # figures it had before the melee; all casualties are removed together only now
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
        check_destroyed(st, u, "combat.melee")
    st.melee = record
