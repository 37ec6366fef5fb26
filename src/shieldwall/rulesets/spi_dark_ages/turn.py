"""The sequence of play (``spi-dark-ages:sequence``, from ``rules.toml``; ruling A11): Game-Turns
of two Player-Turns, the second-listed side first (``setup.order``); each Player-Turn Movement
(panic flight first, rally last), Attack Allocation, Defensive Fire, Offensive Fire, Melee.

The dispatcher: what each decision offers (menus), the handlers that check an order and apply it,
and :func:`advance`, which runs the automatic parts until a decision with a choice is pending.
"""

from __future__ import annotations

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.game import Result
from shieldwall.core.hexgrid import Hex, ccrr, facing_zone, parse_ccrr
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.spi_dark_ages import alloc, movement
from shieldwall.rulesets.spi_dark_ages.board import Board, Unit
from shieldwall.rulesets.spi_dark_ages.clauses import rule
from shieldwall.rulesets.spi_dark_ages.hexmap import neighbours
from shieldwall.rulesets.spi_dark_ages.morale import expire, flee, rally
from shieldwall.rulesets.spi_dark_ages.movement import Refused
from shieldwall.rulesets.spi_dark_ages.orders import Order
from shieldwall.rulesets.spi_dark_ages.resolve import resolve_fire, resolve_melee

DECIDING = {"movement": "move", "allocation": "allocate", "defensive-fire": "defensive-fire"}
PROMPTS = {
    "move": "move a unit one hex or hexside at a time, or end the Movement Phase",
    "allocate": "allocate attacks (melee and fire), or end the Attack Allocation Phase",
    "defensive-fire": "{unit} may fire defensively at a unit allocated against it",
}


# --- menus ------------------------------------------------------------------------------------


def _moves_key(b: Board, u: Unit) -> tuple[object, ...]:
    """Everything ``_unit_moves`` reads: the phase, the unit's own movement state and the units
    in the six hexes around it (``Board.hex_changes``) (step costs, stacking, enemy hexes, the cavalry
    last-hex rule); the map and charts never change."""
    h = u.hex
    # units entering or leaving a hex around it (a dismount or remount puts the mounts into the
    # hex or takes them out: a change of type is a change of the hex too)
    changes = b.hex_changes
    near = None if h is None else tuple([changes.get(n, 0) for n in neighbours(h)])
    return (
        b.charts,
        b.phase,
        b.phasing,
        h,
        u.facing,
        u.mp_left,
        u.moved,
        u.cmd_ok,
        u.stopped,
        u.panicked,
        u.aboard,
        u.gone,
        u.type,
        u.bank,
        u.run,
        u.contact_turned,
        bool(b.bonds.get(u.id)),
        near,
    )


def _unit_moves(b: Board, u: Unit) -> list[Order]:
    """The steps and turns ``u`` may make now, memoised per unit (``Board.moves_cache``) while
    nothing it depends on changes: the whole side's menu is asked for after every unit's move,
    and most units' neighbourhoods have not changed."""
    if REFERENCE.on or b.is_fleet(u):
        # a fleet's steps read hexes two away (stacking.C: can it leave another fleet's hex?):
        # not memoised, as in the reference
        return _unit_moves_now(b, u)
    key = _moves_key(b, u)
    hit = b.moves_cache.get(u.id)
    if hit is not None and hit[0] == key:
        return list(hit[1])
    got = _unit_moves_now(b, u)
    b.moves_cache[u.id] = (key, tuple(got))
    return got


def _unit_moves_now(b: Board, u: Unit) -> list[Order]:
    try:
        movement.check_mover(b, u)  # once for the unit (each step checks it again)
    except Refused:
        return []
    out = []
    if not b.in_contact(u):  # combat.K.bound: no step at all
        fleet = b.is_fleet(u)
        for d in range(6):
            if not fleet and facing_zone(u.facing, d) != "front":
                continue  # cavalry.back-up (ruling A29): front hexes only
            try:
                movement.step_checked(b, u, d)
            except Refused:
                continue
            out.append(Order("step", u.id, str(d)))
    for way in ("left", "right"):
        try:
            movement.check_turn(b, u)
        except Refused:
            break
        out.append(Order("turn", u.id, way))
    return out


def move_menu(b: Board) -> list[Order]:
    if b.active is not None:
        u = b.units[b.active]
        moves = _unit_moves(b, u)
        if b.is_fleet(u) and moves and not movement.fleet_end_ok(b, u):
            return moves  # stacking.C: it may pass through but not stop in another fleet's hex
        return [*moves, Order("done", u.id)]
    out: list[Order] = []
    side = b.phasing
    for u in b.units.values():
        if u.side == side and u.on_map and not u.moved:
            out += _unit_moves(b, u)
            if can_dismount(b, u) is None:
                out.append(Order("dismount", u.id))
            if can_remount(b, u) is None:
                out.append(Order("remount", u.id))
            if b.is_fleet(u) and u.hex is not None:
                out += _fleet_orders(b, u)
    return [*out, Order("end")]


def _fleet_orders(b: Board, fleet: Unit) -> list[Order]:
    """Embarking on and disembarking from ``fleet`` (hex look-ups around the fleet only)."""
    assert fleet.hex is not None
    out: list[Order] = []
    for o in b.around(fleet.hex):
        try:
            movement.check_embark(b, o, fleet)
        except Refused:
            continue
        out.append(Order("embark", o.id, fleet.id))
    for o in b.units.values():
        if o.aboard != fleet.id or o.gone is not None:
            continue
        for n in fleet.hex.neighbours():
            try:
                movement.check_disembark(b, o, n)
            except Refused:
                continue
            out.append(Order("disembark", o.id, ccrr(n)))
    return out


def _attacks_key(b: Board, u: Unit) -> tuple[object, ...]:
    """Everything a unit's melee and fire targets read: the phase, where every unit stands
    (``Board.placements``: lines of fire, enemy hexes), the unit's own state and allocations, its
    contact, and the state of the units in and around its hex (command units: ``command.B``)."""
    assert u.hex is not None
    return (
        b.charts,
        b.turn,
        b.player,
        b.phase,
        b.placements,
        u.hex,
        u.type,
        u.aboard,
        u.fired,
        u.meleed,
        u.id in b.fire_alloc,
        u.id in b.melee_alloc,
        u.demoralized is not None,
        u.panicked,
        frozenset(b.bonds.get(u.id, ())),
        tuple((o.id, o.type, o.demoralized is not None, o.panicked) for o in b.around(u.hex)),
    )


def _unit_attacks(b: Board, u: Unit) -> tuple[Order, ...]:
    """``u``'s melee and fire orders, memoised per unit (``Board.moves_cache``, key ``_attacks_key``):
    the whole side's menu is asked for after every allocation, which changes one unit."""
    if not REFERENCE.on:
        key = _attacks_key(b, u)
        hit = b.moves_cache.get(u.id)
        if hit is not None and hit[0] == key:
            return hit[1]
    got = (
        *(Order("melee", u.id, ccrr(h)) for h in alloc.melee_targets(b, u)),
        *(Order("fire", u.id, ccrr(h)) for h in alloc.fire_targets(b, u)),
    )
    if not REFERENCE.on:
        b.moves_cache[u.id] = (key, got)
    return got


def allocate_menu(b: Board) -> list[Order]:
    out: list[Order] = []
    side = b.phasing
    for u in b.units.values():
        if u.side != side or not u.on_map:
            continue
        out += _unit_attacks(b, u)
    return [*out, Order("end")]


def dfire_menu(b: Board) -> list[Order]:
    m = b.units[b.dfire_queue[0]]
    return [*(Order("dfire", m.id, a.id) for a in alloc.dfire_targets(b, m)), Order("pass", m.id)]


def menu(b: Board) -> list[Order]:
    """The menu of the pending decision (memoised until the board changes: every order logs an
    event or closes the phase)."""
    if REFERENCE.on:
        return _menu(b)
    key = (len(b.events), b.turn, b.player, b.phase, b.closed, b.active, len(b.dfire_queue))
    if b.menu_cache is not None and b.menu_cache[0] == key:
        return list(b.menu_cache[1])
    got = _menu(b)
    b.menu_cache = (key, tuple(got))
    return got


def _menu(b: Board) -> list[Order]:
    if b.result is not None or b.phase not in DECIDING or b.closed:
        return []
    if b.phase == "defensive-fire":
        return dfire_menu(b) if b.dfire_queue else []
    return move_menu(b) if b.phase == "movement" else allocate_menu(b)


def trivial(b: Board, orders: list[Order]) -> bool:
    """A menu with nothing to choose: only "end", or only "pass"."""
    return len(orders) == 1 and orders[0].kind in ("end", "pass")


# --- dismounting (dismount.phase) ---------------------------------------------------------------


def can_dismount(b: Board, u: Unit) -> str | None:
    t = b.type_of(u)
    if b.phase != "movement" or u.side != b.phasing:
        return "cavalry dismounts only in its own Movement Phase"
    if t.dismounts_to is None:
        return f"{u.id} cannot dismount"
    if u.started or not u.cmd_ok or b.in_contact(u) or u.panicked:
        return f"{u.id} may not dismount now (it has moved, is in contact or out of command)"
    return None


def can_remount(b: Board, u: Unit) -> str | None:
    if b.phase != "movement" or u.side != b.phasing:
        return "cavalry remounts only in its own Movement Phase"
    if u.cav_type is None or u.started or not u.cmd_ok or b.in_contact(u):
        return f"{u.id} may not remount now"
    mount = b.units.get(f"{u.id}-mounts")
    if mount is None or not mount.on_map or mount.hex != u.hex or mount.started:
        return f"{u.id}'s mounts are not in its hex"
    return None


# --- handlers -----------------------------------------------------------------------------------


def _unit(b: Board, o: Order) -> Unit:
    u = b.units.get(o.unit or "")
    if u is None:
        raise IllegalOrder(rule("sequence"), f"no unit {o.unit!r}")
    if u.side != b.current_side():
        raise IllegalOrder(rule("movement.F"), f"{u.id} is not a unit of the side to decide")
    return u


def _passing_fleet(b: Board) -> Unit | None:
    """The moving fleet if it stands in another fleet's hex and can move on: its move may not end
    there (``stacking.C``), neither by ``done`` nor by another unit's move nor by ending the phase."""
    u = None if b.active is None else b.units[b.active]
    if u is None or not b.is_fleet(u) or movement.fleet_end_ok(b, u) or not _unit_moves(b, u):
        return None
    return u


def _close_active(b: Board, keep: str | None) -> None:
    if b.active is not None and b.active != keep:
        if _passing_fleet(b) is not None:
            raise Refused("stacking.C", f"{b.active} may not end its move in another fleet's hex")
        # spi-dark-ages:movement.C: the first unit's move is over once another begins
        u = b.units[b.active]
        u.moved = True
        b.active = None
        b.log("move-ends", "movement.C", u.side, unit=u.id)


def handle(b: Board, o: Order) -> None:
    kind = DECIDING.get(b.phase)
    if b.result is not None or kind is None or b.closed:
        raise IllegalOrder(rule("sequence"), "no decision is pending")
    if o.kind == "end":
        if kind == "defensive-fire":
            raise IllegalOrder(rule("combat.defensive-fire"), "answer the defensive fire with dfire or pass")
        if _passing_fleet(b) is not None:
            raise IllegalOrder(rule("stacking.C"), f"{b.active} may not end its move in another fleet's hex")
        _close_active(b, None)
        b.closed = True
        return
    answers = {"step": "move", "turn": "move", "done": "move", "dismount": "move", "remount": "move"}
    answers |= {"embark": "move", "disembark": "move"}
    answers |= {"melee": "allocate", "fire": "allocate", "dfire": "defensive-fire", "pass": "defensive-fire"}
    if answers[o.kind] != kind:
        clause = "movement.J" if kind == "move" and o.kind in ("melee", "fire", "dfire") else "sequence"
        raise IllegalOrder(rule(clause), f"{o.kind} does not answer the pending decision ({kind})")
    u = _unit(b, o)
    try:
        if kind == "move":
            _handle_move(b, u, o)
        elif kind == "allocate":
            target = _hex(o.target)
            if o.kind == "melee":
                alloc.check_melee(b, u, target)
                b.melee_alloc[u.id] = target
            else:
                alloc.check_fire(b, u, target)
                b.fire_alloc[u.id] = target
            b.log("allocates", "command.B", u.side, unit=u.id, attack=o.kind, target=o.target)
        else:
            if not b.dfire_queue or b.dfire_queue[0] != u.id:
                raise Refused("combat.defensive-fire", f"the pending defensive fire is {b.dfire_queue[:1]}")
            if o.kind == "dfire":
                t = b.units.get(o.target or "")
                if t is None:
                    raise Refused("combat.defensive-fire", f"no unit {o.target!r}")
                alloc.check_dfire(b, u, t)
                assert t.hex is not None
                resolve_fire(b, [u], t.hex, "combat.defensive-fire", victims=[t])
            else:
                b.log("holds-fire", "combat.defensive-fire", u.side, unit=u.id)
            b.dfire_queue.pop(0)
    except Refused as r:
        raise r.illegal() from None


def _hex(text: str | None) -> Hex:
    try:
        return parse_ccrr(text or "")
    except ValueError as exc:
        raise Refused("sequence", str(exc)) from None


def _handle_move(b: Board, u: Unit, o: Order) -> None:
    if o.kind == "done":
        if b.active != u.id:
            raise Refused("movement.C", f"{u.id} is not moving")
        _close_active(b, None)  # stacking.C: not in another fleet's hex (_passing_fleet)
        return
    if o.kind == "embark":
        fleet = b.units.get(o.target or "")
        if fleet is None:
            raise Refused("stacking.C.capacity", f"no unit {o.target!r}")
        movement.check_embark(b, u, fleet)
        _close_active(b, None)
        b.place(u, None)
        u.aboard, u.moved = fleet.id, True
        b.log("embarks", "stacking.C.capacity", u.side, unit=u.id, fleet=fleet.id)
        return
    if o.kind == "disembark":
        h = _hex(o.target)
        movement.check_disembark(b, u, h)
        _close_active(b, None)
        fid = u.aboard
        u.aboard, u.moved, u.stopped = None, True, False
        b.place(u, h)
        b.log("disembarks", "fleets.E", u.side, unit=u.id, fleet=fid, at=ccrr(h))
        movement.stop_check(b, u)
        return
    if o.kind in ("dismount", "remount"):
        why = can_dismount(b, u) if o.kind == "dismount" else can_remount(b, u)
        if why is not None:
            raise Refused("dismount.phase", why)
        _close_active(b, None)
        (dismount if o.kind == "dismount" else remount)(b, u)
        return
    if u.moved:
        raise Refused("movement.C", f"{u.id} has finished its move (another unit has moved since)")
    if o.kind == "step":
        movement.step_cost(b, u, int(o.target or 0))
        _close_active(b, u.id)
        movement.do_step(b, u, int(o.target or 0))
    else:
        movement.check_turn(b, u)
        _close_active(b, u.id)
        movement.do_turn(b, u, 1 if o.target == "right" else -1)
    b.active = u.id


def dismount(b: Board, u: Unit) -> None:
    """``dismount.phase``: the cavalry unit becomes its dismounted type and leaves its riderless
    mounts in the hex; both have moved this phase."""
    t = b.type_of(u)
    assert t.dismounts_to is not None and t.mount is not None
    u.cav_type = u.type
    u.type = t.dismounts_to
    u.moved = True
    mount = Unit(f"{u.id}-mounts", u.side, t.mount, None, u.facing, moved=True)
    b.units[mount.id] = mount
    b.place(mount, u.hex)
    b.log("dismounts", "dismount.phase", u.side, unit=u.id, mounts=mount.id)


def remount(b: Board, u: Unit) -> None:
    mount = b.units[f"{u.id}-mounts"]
    assert u.cav_type is not None
    b.remove(mount, "remounted")
    u.type, u.cav_type = u.cav_type, None
    u.moved = True
    b.log("remounts", "dismount.phase", u.side, unit=u.id)


# --- the automatic parts ------------------------------------------------------------------------


def begin_phase(b: Board) -> None:
    b.closed = False
    b.log("phase", "sequence", b.phasing, phase=b.phase, turn=b.turn)
    if b.phase == "movement":
        for u in b.units.values():
            u.fired = u.meleed = False  # spi-dark-ages:combat.L: counters per Player-Turn
        b.melee_alloc.clear()
        b.fire_alloc.clear()
        reinforce(b)
        movement.start_phase(b)
        flee(b)
    elif b.phase == "defensive-fire":
        enemy = b.enemy(b.phasing)
        b.dfire_queue = [
            u.id
            for u in b.units.values()
            if u.side == enemy and u.on_map and b.type_of(u).missile > 0 and alloc.dfire_targets(b, u)
        ]
    elif b.phase == "offensive-fire":
        by_hex: dict[Hex, list[Unit]] = {}
        for uid, h in b.fire_alloc.items():
            u = b.units[uid]
            if u.on_map and not b.is_demoralized(u) and b.occupant_side(h) == b.enemy(u.side):
                by_hex.setdefault(h, []).append(u)
        for h, firers in by_hex.items():
            resolve_fire(b, firers, h, "combat.L")
        b.closed = True
    elif b.phase == "melee":
        by_hex = {}
        for uid, h in b.melee_alloc.items():
            u = b.units[uid]
            adjacent = u.hex is not None and u.hex.distance(h) == 1
            if u.on_map and adjacent and not b.is_demoralized(u):
                by_hex.setdefault(h, []).append(u)
        for h, attackers in by_hex.items():
            resolve_melee(b, [a for a in attackers if a.on_map], h)
        b.closed = True


def reinforce(b: Board) -> None:
    """``reinforcements``: units due this Game-Turn come on at their hex (delayed a turn while the
    enemy holds it or it is full)."""
    for u in b.units.values():
        if u.side != b.phasing or u.gone is not None or u.hex is not None or u.enter_at is None:
            continue
        if u.enter_turn != b.turn:
            continue
        h = u.enter_at
        if (
            b.occupant_side(h) not in (None, u.side)
            or b.stack_points(h, u.side) + b.type_of(u).stacking_points > b.charts.rules.hex_stack_limit
        ):
            u.enter_turn += 1
            b.log("entry-delayed", "reinforcements", u.side, unit=u.id, at=ccrr(h), turn=u.enter_turn)
            continue
        b.place(u, h)
        b.log("enters", "reinforcements", u.side, unit=u.id, at=ccrr(h))


def end_phase(b: Board) -> None:
    if b.phase == "movement":
        _close_active(b, None)
        for u in b.units.values():
            if u.side == b.phasing and u.on_map and b.is_fleet(u) and not movement.fleet_end_ok(b, u):
                b.log("fleet-stack", "stacking.C", u.side, unit=u.id)
        rally(b)
    expire(b)
    check_end(b)


def check_end(b: Board) -> None:
    for s in b.sides:
        if not any(
            u.side == s and (u.on_map or (u.gone is None and u.hex is None)) for u in b.units.values()
        ):
            finish(b, f"{b.armies[s].name} has no unit left on the map")
            return


def finish(b: Board, reason: str) -> None:
    a, c = b.sides
    inflicted = {a: b.losses[c], c: b.losses[a]}
    winner = a if inflicted[a] > inflicted[c] else c if inflicted[c] > inflicted[a] else None
    losses: dict[str, dict[str, int]] = {s: {} for s in b.sides}
    for u in b.units.values():
        if u.gone == "eliminated":
            losses[u.side][u.type] = losses[u.side].get(u.type, 0) + 1
    b.result = Result(winner, reason, b.turn, losses)
    b.log("battle-ends", "victory.end", winner, reason=reason, vp_inflicted=inflicted, losses=dict(b.losses))


def next_phase(b: Board) -> None:
    seq: list[str] = list(b.charts.rules.sequence)
    i = seq.index(b.phase) + 1
    if i == len(seq):
        i = 0
        if b.player == 0:
            b.player = 1
        else:
            b.player = 0
            if b.turn >= b.turns:
                finish(b, f"the {b.turns} Game-Turns are over")
                return
            b.turn += 1
            b.log("game-turn", "setup.turn", None, turn=b.turn)
    b.phase = seq[i]
    begin_phase(b)


def _over(b: Board) -> bool:
    """Whether the battle has ended. (A call, not ``b.result is None`` written in the loop below:
    mypy would keep ``b.result`` narrowed to None past ``end_phase``, which may set it, and the
    compiled module would then refuse the Result it reads there.)"""
    return b.result is not None


def advance(b: Board) -> None:
    """Run the automatic parts until a decision with a choice is pending or the battle is over."""
    while not _over(b):
        if not b.closed and b.phase in DECIDING:
            orders = menu(b)
            if orders and not trivial(b, orders):
                return
            if b.phase == "defensive-fire" and b.dfire_queue:
                b.log("holds-fire", "combat.defensive-fire", b.enemy(b.phasing), unit=b.dfire_queue.pop(0))
                continue
            b.closed = True
        end_phase(b)
        if not _over(b):
            next_phase(b)
