"""The charge phase (Clarification 1): sealed declarations, responses, the missile window, the
morale tests, evades, then the charge moves (``knight-hack:turn.sequence``)."""

from __future__ import annotations

import math
from collections.abc import Iterator

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import (
    bearing,
    heading_vector,
)
from shieldwall.rulesets.knight_hack.board import Ask, Board, Unit
from shieldwall.rulesets.knight_hack.casualties import CasualtySituation
from shieldwall.rulesets.knight_hack.charge import (
    charger_must_test,
    receiver_must_test,
)
from shieldwall.rulesets.knight_hack.charging import charge_move
from shieldwall.rulesets.knight_hack.clauses import rule
from shieldwall.rulesets.knight_hack.factors import MeleeConditions, melee_target
from shieldwall.rulesets.knight_hack.geom import (
    charge_blocked,
    check_charge,
    clip_to_table,
    missile_range,
    missile_why_not,
    nearest_enemy,
    seen_enemies,
)
from shieldwall.rulesets.knight_hack.meeting import meet, mutual
from shieldwall.rulesets.knight_hack.orders import Order
from shieldwall.rulesets.knight_hack.outcomes import apply_fail, take_test
from shieldwall.rulesets.knight_hack.rolloff import roll_off, roll_off_data

# --- declarations (sealed: logged only when both sides are in) -----------------------------------


def enter_declare(b: Board) -> None:
    b.phase = "charge"
    b.declared, b.charge_heading, b.evading, b.missile_hits = {}, {}, set(), {}
    b.log("turn", "turn.sequence", None, phases=["charge", "movement", "melee", "rally"])
    for side in b.sides:
        b.queue += [Ask(side, "declare", u.id) for u in b.live(side)]


def chargeable(b: Board, u: Unit) -> Iterator[Unit]:
    """The enemies ``u`` may declare a charge on (``check_charge``), in ``seen_enemies``' order;
    none for a unit that may not declare (an ambusher springs in the movement phase only, R49)."""
    if u.status not in ("good", "disordered") or b.in_melee(u.id) or u.hidden:
        return
    for t in seen_enemies(b, u):
        try:
            check_charge(b, u, t)
        except IllegalOrder:
            continue
        yield t


def declare_menu(b: Board, ask: Ask) -> list[Order]:
    u = b.units[str(ask.unit)]
    legal = list(chargeable(b, u))
    if u.must_charge:
        near = nearest_enemy(b, u)
        # the closest enemy is "within reach" only if no friend or router stands in the charge's line
        # short of it (charge.no-contact, R53): a forced charge that could move 0 is not declared
        legal = [t for t in legal if near is not None and t.id == near.id and not charge_blocked(b, u, t)]
        if legal:
            return [Order("charge", u.id, legal[0].id)]
    return [Order("hold", u.id)] + [Order("charge", u.id, t.id) for t in legal] if legal else []


def handle_declare(b: Board, ask: Ask, o: Order) -> None:
    u = b.units[str(ask.unit)]
    if o.kind == "hold":
        if u.must_charge and len(declare_menu(b, ask)) == 1:
            raise IllegalOrder(rule("charge.no-contact"), f"{u.id} must charge the closest enemy this turn")
        b.declared[u.id] = None
        return
    t = b.units.get(str(o.target))
    if t is None:
        raise IllegalOrder(rule("charge.declare"), f"no unit {o.target!r}")
    if u.must_charge:
        near = nearest_enemy(b, u)
        if near is not None and near.id != t.id:
            raise IllegalOrder(rule("charge.no-contact"), f"{u.id} must charge the closest enemy, {near.id}")
    b.charge_heading[u.id] = check_charge(b, u, t)
    b.declared[u.id] = t.id


# --- reveal and responses -------------------------------------------------------------------------


def enter_respond(b: Board) -> None:
    charges = {s: [[u, t] for u, t in b.declared.items() if t and b.units[u].side == s] for s in b.sides}
    b.log("charges-declared", "charge.declare", None, charges=charges)
    for u in b.units.values():
        u.must_charge = False
    objects = {t for t in b.declared.values() if t}
    for side in b.sides:
        b.queue += [Ask(side, "respond", u.id) for u in b.live(side) if u.id in objects]


def _chargers(b: Board, uid: str) -> list[Unit]:
    return [b.units[c] for c, t in b.declared.items() if t == uid]


def respond_menu(b: Board, ask: Ask) -> list[Order]:
    u = b.units[str(ask.unit)]
    if u.gone or b.in_melee(u.id):
        return []
    out = [Order("stand", u.id)]
    mine = b.declared.get(u.id)
    if mine:
        out.append(Order("keep", u.id))
    if b.tables.types[u.type].evade_move is not None and u.status in ("good", "disordered"):
        out.append(Order("evade", u.id))
    rallying = u.status == "rallying"
    if mine or rallying:
        for c in _chargers(b, u.id):
            if c.id != mine:
                try:
                    check_charge(b, u, c, counter=rallying)
                except IllegalOrder:
                    continue
                out.append(Order("redirect", u.id, c.id))
    return out if len(out) > 1 else []


def handle_respond(b: Board, ask: Ask, o: Order) -> None:
    u = b.units[str(ask.unit)]
    if o not in respond_menu(b, ask):
        if o.kind == "redirect" and o.target in b.units:
            check_charge(b, u, b.units[str(o.target)], counter=u.status == "rallying")
        raise IllegalOrder(rule("charge.redirect"), f"{o} is not a response {u.id} can make now")
    if o.kind == "evade":
        b.evading.add(u.id)
        b.declared.pop(u.id, None)
    elif o.kind == "stand":
        if b.declared.pop(u.id, None):
            b.log("stands", "charge.redirect", u.side, unit=u.id)
    elif o.kind == "redirect" and u.status == "rallying":
        t = b.units[str(o.target)]
        b.charge_heading[u.id] = check_charge(b, u, t, counter=True)
        b.declared[u.id] = t.id
        u.status, u.good_from = "disordered", None
        b.log("countercharge", "rally.countercharge", u.side, unit=u.id, target=t.id)
    elif o.kind == "redirect":
        t = b.units[str(o.target)]
        b.charge_heading[u.id] = check_charge(b, u, t)
        b.declared[u.id] = t.id
        b.log("redirects", "charge.redirect", u.side, unit=u.id, target=t.id)


# --- the missile window ---------------------------------------------------------------------------


def fire_targets(b: Board, u: Unit) -> list[Unit]:
    rng = missile_range(b, u)
    if not rng or u.gone or u.hidden or u.status not in ("good", "disordered") or b.in_melee(u.id):
        return []
    if b.declared.get(u.id) or u.id in b.evading:
        return []
    fp = u.footprint()
    return [t for t in seen_enemies(b, u) if missile_why_not(b, fp, t, rng) is None]


def _queue_fire(b: Board, first: str) -> None:
    for side in (first, b.other(first)):
        b.queue += [Ask(side, "fire", u.id) for u in b.live(side) if fire_targets(b, u)]


def enter_fire(b: Board) -> None:
    able = [s for s in b.sides if any(fire_targets(b, u) for u in b.live(s))]
    if len(able) == 2:
        winner, rolls = roll_off(b.rng, b.sides, "d6")
        b.log(
            "roll-off",
            "missile.order",
            winner,
            **roll_off_data(b.sides, rolls, "d6"),
            winner=winner,
            of="fire",
        )
        b.queue.append(Ask(winner, "fire-order"))
    elif able:
        _queue_fire(b, able[0])


def fire_order_menu(b: Board, ask: Ask) -> list[Order]:
    return [Order("shoot", first=True), Order("shoot", first=False)]


def handle_fire_order(b: Board, ask: Ask, o: Order) -> None:
    b.fire_first = ask.side if o.first else b.other(ask.side)
    b.log("fire-order", "missile.order", ask.side, first=b.fire_first)
    _queue_fire(b, b.fire_first)


def fire_menu(b: Board, ask: Ask) -> list[Order]:
    u = b.units[str(ask.unit)]
    ts = fire_targets(b, u)
    return [Order("hold-fire", u.id)] + [Order("fire", u.id, t.id) for t in ts] if ts else []


def handle_fire(b: Board, ask: Ask, o: Order) -> None:
    u = b.units[str(ask.unit)]
    if o.kind == "hold-fire":
        return
    ts = {t.id: t for t in fire_targets(b, u)}
    if o.target not in ts:
        raise IllegalOrder(rule("missile.window"), f"{o.target} is not a target in range and arc of {u.id}")
    t = ts[str(o.target)]
    cond = MeleeConditions(disordered=u.status == "disordered", target_disordered=t.status == "disordered")
    tgt = melee_target(b.tables, u.fighter(), t.fighter(), cond)
    sit = CasualtySituation(tgt.value, 0, t.figures, b.params["auto_casualties"])
    r, cas = sit.roll(b.rng)
    if not b.params["missile_multi_casualty"]:
        cas = min(cas, 1)
    b.log(
        "missile",
        "missile.window",
        u.side,
        unit=u.id,
        target_unit=t.id,
        faces=[r],
        target=tgt.value,
        thresholds=list(sit.thresholds()),
        terms=[{"source": x.source, "value": x.value, "note": x.note} for x in tgt.terms],
        casualties=cas,
    )
    t.figures -= cas
    b.missile_hits[t.id] = b.missile_hits.get(t.id, 0) + cas
    if t.figures <= 0:
        b.remove(t, "no figures left", "casualties.whole-figures")


# --- tests, evades, charge moves (automatic) ------------------------------------------------------


def enter_charges(b: Board) -> None:
    for uid, tid in list(b.declared.items()):
        u = b.units[uid]
        if not tid or u.gone or b.units[tid].gone:
            b.declared[uid] = None
        elif charger_must_test(b.missile_hits.get(uid, 0)) and not take_test(
            b, u, "charger-hit", "morale.charger-casualties"
        ):
            apply_fail(b, u, "charger-hit", "morale.charger-casualties")
            b.declared[uid] = None
    for t in b.units.values():
        cs = _chargers(b, t.id)
        if (
            cs
            and t.id not in b.evading
            and not t.gone
            and receiver_must_test(b.tables, t.cls, t.fanatic, [c.cls for c in cs])
            and not take_test(b, t, "receive-charge", "morale.receive-charge")
        ):
            apply_fail(b, t, "receive-charge", "morale.receive-charge")
    for tid in sorted(b.evading):
        _evade(b, b.units[tid])
    dice: dict[str, int] = {}
    for side in b.sides:
        for uid in sorted(c for c, t in b.declared.items() if t and b.units[c].side == side):
            u = b.units[uid]
            other = mutual(b, u) if uid not in dice else None
            if other is not None and not b.in_melee(u.id):
                rolled = meet(b, u, other)  # charges that meet part-way (R50)
                if rolled is None:
                    continue
                dice[u.id], dice[other.id] = rolled
            if b.declared.get(uid):
                charge_move(b, u, b.units[str(b.declared[uid])], dice.get(uid))


def _evade(b: Board, t: Unit) -> None:
    cs = _chargers(b, t.id) or [t]
    c = min(cs, key=lambda c: (math.dist((c.x, c.y), (t.x, t.y)), c.id))
    h = (bearing((c.x, c.y), (t.x, t.y)) if c is not t else t.heading + 180.0) % 360.0
    t.heading = h
    full = float(b.tables.types[t.type].evade_move or 0.0)
    d = clip_to_table(b, t, h, full)
    vx, vy = heading_vector(h)
    t.x, t.y = t.x + vx * d, t.y + vy * d
    if d < full - 1e-6:  # cornered at the table's edge: not a successful evade, it can be caught (R52)
        b.evading.discard(t.id)
        b.log(
            "evade",
            "charge.evade-then-move",
            t.side,
            unit=t.id,
            distance=round(d, 3),
            heading=round(h, 1),
            cornered=True,
        )
        return
    t.status, t.good_from = "rallying", (b.turn, "end")
    b.log("evade", "charge.evade-then-move", t.side, unit=t.id, distance=round(d, 3), heading=round(h, 1))
    b.log("rallying", "rally.evaders", t.side, unit=t.id, cause="evaded", good_from=list(t.good_from))
