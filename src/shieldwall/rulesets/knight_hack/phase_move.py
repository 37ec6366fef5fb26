"""The movement phase (Clarification 1): the initiative roll-off, then the first mover moves all its
units and the other all its (``knight-hack:move.alternate``); each unit makes its evolutions, its
normal move and perhaps one more evolution (``knight-hack:move.unit-order``); rallying units make
rally moves, routers run or take their one test (``knight-hack:rout.stop``)."""

from __future__ import annotations

import math
from collections.abc import Callable

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.geometry import bearing, heading_vector
from shieldwall.rulesets.knight_hack.ambush import ambush_menu, handle_ambush, reveal_run_into
from shieldwall.rulesets.knight_hack.board import Ask, Board, Unit
from shieldwall.rulesets.knight_hack.clauses import rule
from shieldwall.rulesets.knight_hack.evolutions import MovePlan, check_frontage, evolution_allowance
from shieldwall.rulesets.knight_hack.geom import (
    away_heading,
    check_clear,
    clear_distance,
    hidden_in_way,
    in_arc,
    nearest_enemy,
    threats,
)
from shieldwall.rulesets.knight_hack.orders import Order
from shieldwall.rulesets.knight_hack.outcomes import take_test
from shieldwall.rulesets.knight_hack.rally import check_rally_move, left_table
from shieldwall.rulesets.knight_hack.rolloff import roll_off, roll_off_data


def enter_initiative(b: Board) -> None:
    b.phase = "movement"
    for u in b.live():
        if u.status == "rallying" and u.rallied_by(b.turn, "movement"):
            u.status, u.good_from = "good", None
            b.log("rallied", "rally.pursuers", u.side, unit=u.id)
    winner, rolls = roll_off(b.rng, b.sides, b.params["initiative_die"])
    die = b.params["initiative_die"]
    b.log(
        "roll-off", "move.initiative", winner, **roll_off_data(b.sides, rolls, die), winner=winner, of="move"
    )
    b.initiative = winner
    b.queue.append(Ask(winner, "move-order"))


def move_order_menu(b: Board, ask: Ask) -> list[Order]:
    return [Order("move-order", first=True), Order("move-order", first=False)]


def handle_move_order(b: Board, ask: Ask, o: Order) -> None:
    first = ask.side if o.first else b.other(ask.side)
    b.log("move-order", "move.alternate", ask.side, first=first)
    for side in (first, b.other(first)):
        # evolutions/normal moves/evolutions, then ambushes (knight-hack:move.unit-order)
        b.queue += [Ask(side, "unit", u.id) for u in b.live(side) if not u.hidden]
        b.queue += [Ask(side, "unit", u.id) for u in b.live(side) if u.hidden]


def _floor(x: float) -> float:
    return math.floor(max(0.0, x) * 100) / 100


def unit_menu(b: Board, ask: Ask) -> list[Order]:
    u = b.units[str(ask.unit)]
    if u.gone or b.in_melee(u.id):
        return []
    if u.hidden:
        return ambush_menu(b, u)
    t = b.tables.types[u.type]
    if u.status == "routed":
        may_test = b.params["rout_test"] == "each_turn" or not u.rout_tested
        return [Order("rout-on", u.id)] + ([Order("rout-test", u.id)] if may_test else [])
    if u.status == "rallying":
        opts = [Order("rally", u.id)]
        if u.fanatic:
            opts.append(Order("rally", u.id, args=(("forward", t.normal_move),)))
        elif t.formation != "close":
            opts += [
                Order("rally", u.id, args=(("back", d),)) for d in (_floor(t.normal_move / 2), t.normal_move)
            ]
        return [o for o in opts if _ok(plan_rally, b, u, o)]
    out = [Order("move", u.id, args=(("go", 0.0),))]
    cands: list[float | None] = [None]
    near = nearest_enemy(b, u)
    if near is not None:
        cands.append(round(bearing((u.x, u.y), (near.x, near.y)) % 360.0, 1))
    for h in cands:
        heading = u.heading if h is None else h
        fp = u.footprint() if h is None else u.footprint().turned(heading - u.heading)
        room = min(t.normal_move, clear_distance(b, u, fp, heading, t.normal_move))
        for go in (_floor(room), _floor(room / 2)):
            args = (("go", go),) if h is None else (("go", go), ("turn", h))
            o = Order("move", u.id, args=tuple(sorted(args)))
            if (go > 0 or h is not None) and o not in out and _ok(plan_move, b, u, o):
                out.append(o)
    return out


def _ok(check: Callable[[Board, Unit, Order], object], b: Board, u: Unit, o: Order) -> bool:
    try:
        check(b, u, o)
    except IllegalOrder:
        return False
    return True


def plan_move(b: Board, u: Unit, o: Order) -> tuple[float, float, float, int, list[str]]:
    """Check a move order: ``(x, y, heading, frontage, evolutions)`` after it, or IllegalOrder."""
    t = b.tables.types[u.type]
    plan = MovePlan(evolution_allowance(b.tables, u.cls, u.type), t.normal_move)
    turn, front, go, then = o.arg("turn"), o.arg("frontage"), o.arg("go") or 0.0, o.arg("then")
    heading, frontage = u.heading, u.frontage
    if turn is not None and abs(((turn - heading) + 180) % 360 - 180) > 1e-9:
        plan.evolve("face")
        heading = turn % 360.0
    if front is not None and int(front) != frontage:
        if front != int(front):
            raise IllegalOrder(rule("evolution.frontage"), "a frontage is a whole number of figures")
        check_frontage(frontage, int(front), u.figures)
        plan.evolve("frontage")
        frontage = int(front)
    plan.move(go)
    if then is not None and abs(((then - heading) + 180) % 360 - 180) > 1e-9:
        plan.evolve("face")
    if not plan.before and not go and not plan.after:
        return u.x, u.y, u.heading, u.frontage, []
    saved = (u.heading, u.frontage)
    u.heading, u.frontage = heading, frontage
    try:
        fp = u.footprint()
        if plan.before:
            check_clear(b, u, fp)
        if go > clear_distance(b, u, fp, heading, go) + 1e-9:
            raise IllegalOrder(rule("contact.only-by-charge"), f"{u.id}'s move would contact another unit")
        vx, vy = heading_vector(heading)
        x, y = u.x + vx * go, u.y + vy * go
        end = fp.moved(vx * go, vy * go)
        check_clear(b, u, end)
        if plan.after:
            check_clear(b, u, end.turned(float(then or 0.0) - heading))
            heading = float(then or 0.0) % 360.0
    finally:
        u.heading, u.frontage = saved
    return x, y, heading, frontage, plan.before + plan.after


def handle_unit(b: Board, ask: Ask, o: Order) -> None:
    u = b.units[str(ask.unit)]
    if o.kind in ("ambush", "hide") or u.hidden:
        if o.kind not in ("ambush", "hide"):
            raise IllegalOrder(
                rule("ambush.execute"), f"{u.id} lies hidden: it may only spring or keep hidden"
            )
        handle_ambush(b, u, o)
        return
    if o.kind in ("rout-on", "rout-test"):
        # the menu is asked only here: a move or rally order is checked by its own plan below
        if o not in unit_menu(b, ask):
            raise IllegalOrder(rule("rout.stop"), f"{o} is not open to {u.id} now")
        _rout(b, u, o.kind == "rout-test")
    elif o.kind == "rally":
        if u.status != "rallying":
            raise IllegalOrder(rule("rally.who"), f"{u.id} is not rallying")
        _rally(b, u, o)
    else:
        if u.status not in ("good", "disordered"):
            raise IllegalOrder(rule("move.unit-order"), f"{u.id} is {u.status}: it makes no normal move")
        x, y, h, f, evos = plan_move(b, u, o)
        go = o.arg("go") or 0.0
        if go and b.live(b.other(u.side)) and any(e.hidden for e in b.live(b.other(u.side))):
            x, y, h, f, go = _stop_at_hidden(b, u, o, (x, y, h, f), go)
        u.x, u.y, u.heading, u.frontage = x, y, h, f
        b.log(
            "move",
            "move.unit-order",
            u.side,
            unit=u.id,
            go=go,
            evolutions=evos,
            x=round(x, 3),
            y=round(y, 3),
            heading=round(h, 1),
        )


def _stop_at_hidden(
    b: Board, u: Unit, o: Order, planned: tuple[float, float, float, int], go: float
) -> tuple[float, float, float, int, float]:
    """A move measured without the hidden ambushers its side cannot see stops short of the first it
    would run into (no after-move evolution), and finds it (R49)."""
    turn, front = o.arg("turn"), o.arg("frontage")
    heading = u.heading if turn is None else turn % 360.0
    frontage = u.frontage if front is None else int(front)
    saved = (u.heading, u.frontage)
    u.heading, u.frontage = heading, frontage
    try:
        fp = u.footprint()
    finally:
        u.heading, u.frontage = saved
    real, met = hidden_in_way(b, u, fp, heading, go)
    if not met:
        return (*planned, go)
    reveal_run_into(b, u, met)
    vx, vy = heading_vector(heading)
    return u.x + vx * real, u.y + vy * real, heading, frontage, round(real, 3)


def plan_rally(b: Board, u: Unit, o: Order) -> tuple[float, float]:
    """Check a rally move: where the unit ends, or IllegalOrder."""
    t = b.tables.types[u.type]
    fwd, back = o.arg("forward") or 0.0, o.arg("back") or 0.0
    check_rally_move(t.formation, u.fanatic, fwd, back, t.normal_move)
    h = u.heading if fwd else (u.heading + 180.0) % 360.0
    vx, vy = heading_vector(h)
    d = fwd or back
    end = u.footprint().moved(vx * d, vy * d)
    if d:
        if d > clear_distance(b, u, u.footprint(), h, d) + 1e-9:
            raise IllegalOrder(rule("rally.move"), f"{u.id}'s rally move would contact another unit")
        check_clear(b, u, end, "rally.move")
    return end.x, end.y


def _rally(b: Board, u: Unit, o: Order) -> None:
    fwd, back = o.arg("forward") or 0.0, o.arg("back") or 0.0
    x, y = plan_rally(b, u, o)
    d = fwd or back
    if d and any(e.hidden for e in b.live(b.other(u.side))):
        h = u.heading if fwd else (u.heading + 180.0) % 360.0
        real, met = hidden_in_way(b, u, u.footprint(), h, d)
        if met:  # it stops short of the hidden ambushers it would run into, and finds them (R49)
            reveal_run_into(b, u, met)
            vx, vy = heading_vector(h)
            x, y = u.x + vx * real, u.y + vy * real
            fwd, back = (round(real, 3), 0.0) if fwd else (0.0, round(real, 3))
    u.x, u.y = x, y
    b.log("rally-move", "rally.move", u.side, unit=u.id, forward=fwd, back=back)
    th = threats(b, u)
    if th and not any(in_arc(u.footprint(), e) for e in b.live(b.other(u.side)) if e.footprint() in th):
        near = min(th, key=lambda f: math.dist((f.x, f.y), (u.x, u.y)))
        u.heading = round(bearing((u.x, u.y), (near.x, near.y)) % 360.0, 1)
        b.log("faces-threat", "rally.face-threat", u.side, unit=u.id, heading=u.heading)


def _rout(b: Board, u: Unit, test: bool) -> None:
    if test:
        u.rout_tested = True
        if take_test(b, u, "stop-rout", "rout.stop"):
            u.status, u.good_from = "rallying", (b.turn + 2, "movement")
            b.log("rallying", "rally.who", u.side, unit=u.id, cause="recovered", good_from=list(u.good_from))
            return
        if b.params["rout_test"] == "once":
            b.remove(u, "did not stop its rout", "rout.stop")
            return
    h = away_heading(b, u.side)
    d = b.tables.types[u.type].rout_move
    vx, vy = heading_vector(h)
    u.heading, u.x, u.y = h, u.x + vx * d, u.y + vy * d
    b.log("rout-move", "rout.stop", u.side, unit=u.id, distance=d)
    if left_table(u.x, u.y, b.width, b.depth):
        b.remove(u, "left the table routing", "rout.stop")
