"""Morale and control tests in play, and what their results do: shaken, driven back, routed
(morale.*, combat.combat-results, combat.driven-back, combat.rout), pursuit and follow-up
(combat.pursuit, combat.bonus-round), and the tests friends' routs and losses cause
(morale.test-triggers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from shieldwall.core.geometry import CONTACT_TOL, heading_vector
from shieldwall.core.polygons import polygon_distance

from . import orders as O
from .charge_plan import conform
from .combat import fighting_ranks
from .fighting import in_contact, seen_from, troops
from .melee_situation import MeleeSituation
from .model import Unit
from .morale_rolls import impetuous_ok, run_tests_together, warband_test
from .movement import (
    Problem,
    max_straight,
    trace,
)
from .spatial import fighting_count, touches

if TYPE_CHECKING:
    from .state import IntoTheDarkState

ST = "IntoTheDarkState"


def morale_missile(st: IntoTheDarkState) -> None:
    """Task: tests for "receiving missile fire ... during normal firing ... whether casualties
    resulted or not" (into-the-dark:morale.test-triggers.missile-fire), in the order fire was received."""
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
    only if enemies are still in contact (morale.melee-test-order). "Both sides take morale tests
    for being in combat ... If neither unit is driven back or routed, then combat continues next
    turn." (combat.combat-results; into-the-dark:morale.test-triggers.melee)"""
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
    from shieldwall.core.crossings import sweep_distance

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
            from shieldwall.core.crossings import contact_facing

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
                if edge != "front" and not w.champion and not e.champion:  # special-troops.champions
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


def bonus_round(st: IntoTheDarkState, w: Unit, r: Unit) -> None:
    """ "If your opponent's unit routs, but you manage to keep up with them during your pursuit move,
    you gain a bonus round of melee taken immediately. You get 1 d6 for every figure eligible to
    fight (before becoming disordered)." (combat.bonus-round)"""
    ranks = fighting_ranks(melee=True, disordered=False, pike=w.spec.has("pike"))
    n = 0
    facing = "front"
    mine: list[tuple[int, int]] = []
    theirs: list[tuple[int, int]] = []
    for t in touches(w, [r]):
        n += fighting_count(w, t, ranks)
        facing = {"front": "front", "rear": "rear"}.get(t.theirs, "flank")
        if w.spec.mixed or r.spec.mixed:
            # mixed units: the figures in contact give the values (ruling 78)
            mine += in_contact(w, t)
            theirs += in_contact(r, seen_from(t, w.id))
    if n == 0:
        return
    kw: dict[str, Any] = {facing: n}
    sit = MeleeSituation(troops(w, figs=mine or None), troops(r, figs=theirs or None), bonus_round=True, **kw)
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


def _fanatics_routing(st: IntoTheDarkState) -> list[dict[str, Any]]:
    """ "friendly fanatic (quality 5) unit routing, within 12"": every fanatic unit routing this
    turn - the ones that routed this turn and the ones still routing on the table from an earlier
    turn - each once per turn (docs/rulings/into-the-dark.md, ruling 72;
    into-the-dark:morale.test-triggers.fanatic)."""
    out = [r for r in st.routed_turn if r["fanatic"]]
    seen = {r["id"] for r in out}
    for u in st.live():
        if u.fanatic and u.routed and u.id not in seen:
            out.append({"id": u.id, "side": u.side, "corners": [list(p) for p in u.fp.corners()]})
    return out


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
                # into-the-dark:morale.test-triggers.friend-routed
                tasks.append(("test", f.id, f'friendly {r["id"]} routed within 6"', (), "friend"))
    if not tasks:
        # into-the-dark:morale.test-triggers.friend-destroyed
        # into-the-dark:morale.test-triggers.fanatic
        for kind, items in (
            ("destroyed", st.destroyed_turn),
            ("fanatic", _fanatics_routing(st)),
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
