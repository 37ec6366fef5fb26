"""Movement: MP costs from the TEC and the errata, the stop rule in front of enemy missile units,
the command restriction, contact, facing and stacking (rules modules; no decisions here).

A unit moves one hex or one hexside turn at a time, into one of its three front hexes (ruling
A29); it moves to the full extent desired before another unit begins (``movement.C``).
"""

from __future__ import annotations

from shieldwall.core.errors import IllegalOrder
from shieldwall.core.hexgrid import Hex, ccrr, facing_zone
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.spi_dark_ages.board import Board, Unit
from shieldwall.rulesets.spi_dark_ages.clauses import rule
from shieldwall.rulesets.spi_dark_ages.hexmap import neighbours
from shieldwall.rulesets.spi_dark_ages.tables import (
    BRIDGE_FROM_ROAD_MP,
    BRIDGE_MP,
    ROAD_MP,
    STREAM_CROSSING_MP,
    WATER_SIDE_MP,
)


class Refused(Exception):
    """Why a step or a turn is not allowed: (clause, reason)."""

    def __init__(self, clause: str, reason: str) -> None:
        super().__init__(reason)
        self.clause, self.reason = clause, reason

    def illegal(self) -> IllegalOrder:
        return IllegalOrder(rule(self.clause), self.reason)


def allowance(b: Board, u: Unit) -> float:
    """The Movement Allowance this phase: halved, fractions lost, when demoralized
    (``demoralization.ma``); full when panicked (``panic.effects``, ruling A3)."""
    ma = b.type_of(u).ma
    if u.demoralized is not None and not u.panicked:
        return float(ma // 2)
    return float(ma)


def entry_cost(b: Board, u: Unit, a: Hex, h: Hex) -> float:
    """MP for ``u`` to step from ``a`` into adjacent ``h`` (``Refused`` if it may not): a pure
    function of the map and charts, the unit's type and whether the step crosses a stream to
    the other bank, memoised on the map (``HexMap.memo``, emptied if the charts change)."""
    crossing = u.bank is not None and h != u.bank and h.distance(u.bank) > 1
    if REFERENCE.on:
        return _entry_cost(b, u, a, h, crossing)
    m = b.map
    if m.memo_charts is not b.charts:
        m.memo.clear()
        m.memo_charts = b.charts
    key = ("entry", u.type, a, h, crossing)
    got = m.memo.get(key)
    if got is None:
        try:
            got = _entry_cost(b, u, a, h, crossing)
        except Refused as r:
            got = (r.clause, r.reason)
        m.memo[key] = got
    if isinstance(got, tuple):
        raise Refused(*got)
    assert isinstance(got, float)
    return got


def _entry_cost(b: Board, u: Unit, a: Hex, h: Hex, crossing: bool) -> float:
    m, tec = b.map, b.charts.tec
    cls = b.cls(u)
    if not m.on_map(h):
        raise Refused("panic.flight.exit", "off the map (only panicked units leave it)")
    terrain = m.terrain_of(h)
    if cls == "fleet" and not m.is_river(h):
        raise Refused("tec.river", "a Viking fleet keeps to river hexes (ruling R18)")
    if h in m.bridge and cls != "fleet":
        # spi-dark-ages:tec.bridge: 1/2 MP from a road hex, 1 MP otherwise
        base = BRIDGE_FROM_ROAD_MP if a in m.road_hexes else BRIDGE_MP
    elif m.is_river(h) and cls != "fleet":
        raise Refused("tec.river", "a river hex may be entered only at a bridge")
    elif m.road_between(a, h):
        base = ROAD_MP  # spi-dark-ages:tec.road: through a road hexside
    else:
        costs: list[float] = []
        for t in terrain:
            if h in m.ford and t == "stream":
                t = "clear"  # spi-dark-ages:tec.ford: clear terrain for movement
            ter = tec.terrain[t]
            c = ter.mp_by_class.get(cls, ter.mp)
            if c == "P":
                raise Refused("tec.notes", f"{b.type_of(u).name} may not enter {t}")
            if cls in ter.road_only and h not in m.road_hexes:
                raise Refused("tec.notes", f"class {cls} enters {t} only on a road hex")
            costs.append(float(c))
        # spi-dark-ages:tec.mixed-mp: the more difficult terrain type only (wooded slope 4, not 6)
        base = max(costs)
    extra = 0.0
    if m.water_between(a, h):
        extra += WATER_SIDE_MP  # spi-dark-ages:tec.land-water
    if m.is_stream(a) and a not in m.ford and a not in m.bridge and crossing:
        extra += STREAM_CROSSING_MP  # spi-dark-ages:tec.stream: to the other bank (ruling A18)
    return base + extra


def check_mover(b: Board, u: Unit) -> None:
    """May ``u`` spend MP now at all (phase, command restriction, stop rule)?"""
    if b.phase != "movement" or u.side != b.phasing:
        # spi-dark-ages:movement.F: no enemy movement in the friendly Movement Phase
        raise Refused("movement.F", "units move only in their own side's Movement Phase")
    if not u.on_map or u.aboard is not None:
        raise Refused("movement.C", f"{u.id} is not on the map")
    if u.panicked:
        raise Refused("panic.flight", f"{u.id} is panicked: it flees at the start of the phase")
    if u.moved:
        raise Refused("movement.C", f"{u.id} has finished its move (another unit has moved since)")
    if not u.cmd_ok:
        raise Refused(
            "command.A",
            f"{u.id} did not begin the phase stacked with or adjacent to a friendly command unit",
        )
    if u.stopped:
        raise Refused("movement.K.stop", f"{u.id} stopped in an enemy unit's front (it moves on next phase)")


def step_cost(b: Board, u: Unit, d: int) -> tuple[Hex, float]:
    """Check a one-hex step of ``u`` in direction ``d``: the hex and its cost (``Refused``)."""
    check_mover(b, u)
    assert u.hex is not None
    if b.in_contact(u):
        raise Refused("combat.K.bound", f"{u.id} is in contact and may not leave its hex")
    if not b.is_fleet(u) and facing_zone(u.facing, d) != "front":
        raise Refused("cavalry.back-up", "a unit moves only into its three front hexes (ruling A29)")
    return step_checked(b, u, d)


def step_checked(b: Board, u: Unit, d: int) -> tuple[Hex, float]:
    """``step_cost`` once the mover, its contact and the direction are known to be allowed (the
    menu checks those once per unit): the hex's cost, the MP left, enemy hexes, stacking."""
    assert u.hex is not None
    h = neighbours(u.hex)[d % 6]
    cost = entry_cost(b, u, u.hex, h)
    if cost > u.mp_left + 1e-9:
        raise Refused("tec.mixed-mp", f"{cost:g} MP needed, {u.mp_left:g} left")
    side = b.occupant_side(h)
    if side is not None and side != u.side:
        raise Refused("movement.F", "a hex held by the enemy may not be entered")
    check_stacking(b, u, h)
    if b.is_fleet(u):
        check_fleet_pass(b, u, h, u.mp_left - cost)
    return h, cost


def check_stacking(b: Board, u: Unit, h: Hex) -> None:
    limit = b.charts.rules.hex_stack_limit
    if b.stack_points(h, u.side) + b.type_of(u).stacking_points > limit:
        raise Refused("stacking.C", f"more than {limit} stacking points in the hex")


def check_fleet_pass(b: Board, u: Unit, h: Hex, left: float) -> None:
    """``stacking.C``: a fleet may pass through a hex holding another fleet but may not end a
    Movement Phase there, so it enters one only if it can leave it again in this move: entering
    does not stop it (``movement.K.stop``) and, with the ``left`` MP it will have, it can step on
    into a hex without another fleet or an enemy unit (ruling R15)."""
    if not any(o.id != u.id and b.is_fleet(o) for o in b.units_at(h)):
        return
    if left > 1e-9 and b.controller(h, u.side) is None:
        for n in neighbours(h):
            if not b.map.on_map(n) or b.occupant_side(n) not in (None, u.side):
                continue
            if any(o.id != u.id and b.is_fleet(o) for o in b.units_at(n)):
                continue
            try:
                if entry_cost(b, u, h, n) <= left + 1e-9:
                    return
            except Refused:
                continue
    raise Refused(
        "stacking.C",
        f"{u.id} could not leave {ccrr(h)} again this move: a fleet may pass through another "
        "fleet's hex but not end its Movement Phase there",
    )


def fleet_end_ok(b: Board, u: Unit) -> bool:
    """``stacking.C``: a fleet may not end a Movement Phase in a hex with another fleet."""
    assert u.hex is not None
    return not any(o.id != u.id and b.is_fleet(o) for o in b.units_at(u.hex))


def fleet_cargo_ok(b: Board, fleet: Unit, extra: Unit) -> bool:
    """``stacking.C.capacity``: at most three combat units aboard, any number of command units."""
    if b.is_command(extra):
        return True
    aboard = [o for o in b.units.values() if o.aboard == fleet.id and not b.is_command(o)]
    return len(aboard) < b.type_of(fleet).capacity


def do_step(b: Board, u: Unit, d: int) -> None:
    h, cost = step_cost(b, u, d)
    a = u.hex
    assert a is not None
    b.place(u, h)
    u.mp_left -= cost
    u.started = True
    u.run = u.run + 1 if d == u.facing else 0
    if b.map.is_stream(h):
        u.bank = a
    elif not b.map.is_stream(a):
        u.bank = None
    b.log("moves", "movement.C", u.side, unit=u.id, to=ccrr(h), cost=cost, mp_left=u.mp_left)
    stop_check(b, u)


def stop_check(b: Board, u: Unit) -> None:
    """``movement.K.stop`` / ``movement.K.leave``: entering a front hex of an enemy Class IV/V unit
    ends the move (even from another such hex); its remaining MP are lost (ruling A6). The same
    for a stream or river hex adjacent to an enemy unit's front when the TEC's Cross River Attack
    rule gives that control (``tec.cross-river``, ruling A28)."""
    assert u.hex is not None
    got = b.controller(u.hex, u.side)
    if got is not None:
        m, clause = got
        u.stopped = True
        u.mp_left = 0.0
        b.log("stopped", clause, u.side, unit=u.id, by=m.id, at=ccrr(u.hex))


def check_turn(b: Board, u: Unit) -> float:
    """Check a one-hexside facing change of ``u``: its MP cost (``Refused``)."""
    if b.phase != "movement" or u.side != b.phasing:
        raise Refused("facing.I.phase", "facing changes only in the friendly Movement Phase")
    if b.is_fleet(u):
        raise Refused("facing.general", "Viking fleets have no facing")
    try:
        check_mover(b, u)
    except Refused as r:
        if r.clause == "command.A":
            raise Refused("facing.I.command", r.reason) from None
        raise
    assert u.hex is not None
    if b.in_contact(u) and u.contact_turned:
        raise Refused("facing.I.contact", "a unit in contact turns at most one hexside per Movement Phase")
    if b.is_cavalry(u) and u.run > 0 and b.enemy_adjacent(u.hex, u.side):
        raise Refused("cavalry.last-hex", "cavalry may not change facing in the last hex of a charge")
    cost = b.charts.tec.facing_mp
    if cost > u.mp_left + 1e-9:
        raise Refused("facing.I.command", f"turning costs {cost:g} MP, {u.mp_left:g} left")
    return cost


def do_turn(b: Board, u: Unit, way: int) -> None:
    cost = check_turn(b, u)
    u.facing = (u.facing + way) % 6
    u.mp_left -= cost
    u.started = True
    u.run = 0
    if b.in_contact(u):
        u.contact_turned = True
    b.log("turns", "facing.I.phase", u.side, unit=u.id, facing=u.facing, cost=cost, mp_left=u.mp_left)


def start_phase(b: Board) -> None:
    """The per-phase state of the phasing side's units: allowance and the command restriction
    checked once, at the start of the phase (``command.A``, ruling A5)."""
    for u in b.units.values():
        if u.side != b.phasing or not u.on_map:
            continue
        u.mp_left = allowance(b, u)
        u.moved = u.started = u.stopped = u.contact_turned = False
        u.run = 0
        u.cmd_ok = b.is_command(u) or b.has_command_near(u, fresh=False) or u.enter_turn == b.turn
        if b.is_fleet(u) and any(o.aboard == u.id and b.is_command(o) for o in b.units.values()):
            u.cmd_ok = True  # ruling A5: a fleet carrying a command unit
    for u in b.units.values():
        if u.side == b.phasing and u.aboard is not None and u.gone is None:
            fleet = b.units[u.aboard]
            if fleet.hex is None:
                continue
            u.moved = u.started = False
            u.cmd_ok = b.is_command(u) or fleet.cmd_ok or b.has_command_near(fleet, fresh=False)


def check_embark(b: Board, u: Unit, fleet: Unit) -> None:
    """Embarking (ruling R18): a unit that has not moved this phase, next to (or in) a friendly
    fleet's hex, boards it while there is room (``stacking.C.capacity``); its move is over."""
    check_mover(b, u)
    if u.started or b.in_contact(u) or b.is_fleet(u):
        raise Refused("stacking.C.capacity", f"{u.id} may not embark now (it has moved or is in contact)")
    if not b.is_fleet(fleet) or fleet.side != u.side or not fleet.on_map:
        raise Refused("stacking.C.capacity", f"{fleet.id} is not a friendly fleet on the map")
    assert u.hex is not None and fleet.hex is not None
    if u.hex.distance(fleet.hex) > 1:
        raise Refused("stacking.C.capacity", f"{u.id} is not next to {fleet.id}")
    if not fleet_cargo_ok(b, fleet, u):
        raise Refused("stacking.C.capacity", f"{fleet.id} carries three combat units already")


def moored(b: Board, fleet: Unit) -> bool:
    """``fleets.E`` (ruling A19): a fleet is moored if it has not moved this phase and is next to land."""
    assert fleet.hex is not None
    return not fleet.started and any(
        b.map.on_map(n) and not b.map.is_river(n) for n in fleet.hex.neighbours()
    )


def check_disembark(b: Board, u: Unit, h: Hex) -> None:
    """``fleets.E``: troops disembark only from a moored fleet, in their own Movement Phase, into an
    adjacent land hex they could enter; their move is over."""
    if b.phase != "movement" or u.side != b.phasing:
        raise Refused("fleets.E", "troops disembark only in their own Movement Phase")
    if u.aboard is None:
        raise Refused("fleets.E", f"{u.id} is not aboard a fleet")
    fleet = b.units[u.aboard]
    if not u.cmd_ok:
        raise Refused("command.A", f"{u.id} has no command unit with it or its fleet")
    if u.moved or not moored(b, fleet):
        raise Refused("fleets.E", f"{fleet.id} is not moored (it has moved this phase or lies off the shore)")
    assert fleet.hex is not None
    if fleet.hex.distance(h) != 1 or b.map.is_river(h):
        raise Refused("fleets.E", f"{ccrr(h)} is not a land hex next to {fleet.id}")
    entry_cost(b, u, fleet.hex, h)
    if b.occupant_side(h) not in (None, u.side):
        raise Refused("movement.F", "a hex held by the enemy may not be entered")
    check_stacking(b, u, h)
