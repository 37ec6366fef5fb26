"""Combat results, demoralization, losses, panic, flight and rally."""

from __future__ import annotations

from shieldwall.core.dice import D6
from shieldwall.core.hexgrid import Hex, ccrr, turn_cost
from shieldwall.rulesets.spi_dark_ages.board import Board, Unit
from shieldwall.rulesets.spi_dark_ages.movement import (
    Refused,
    check_stacking,
    entry_cost,
    stop_check,
)
from shieldwall.rulesets.spi_dark_ages.tables import OFF_MAP_MP

#: panic exemption: "more than ten hexes" from the nearest enemy (ruling A23)
PANIC_DISTANCE = 10


def demoralize(b: Board, u: Unit, clause: str = "demoralization.cause") -> None:
    """``demoralization.cause``: a D result; on a unit already demoralized or panicked it eliminates
    (``demoralization.DD``); a new D restarts the timer (ruling A24). It lasts to the end of the same
    phase of the next Game-Turn (``demoralization.duration``)."""
    if b.is_demoralized(u):
        b.log("eliminated-dd", "demoralization.DD", u.side, unit=u.id)
        eliminate(b, u)
        return
    u.demoralized = (b.turn + 1, b.player, b.phase)
    b.unbond(u)  # spi-dark-ages:combat.K.bound: demoralization ends contact
    b.log("demoralized", clause, u.side, unit=u.id, until=list(u.demoralized))


def eliminate(b: Board, u: Unit) -> None:
    vp = b.vp_lost(u)
    b.remove(u, "eliminated")
    b.losses[u.side] += vp
    b.log("eliminated", "victory.vp", u.side, unit=u.id, vp=vp, losses=b.losses[u.side])
    check_panic(b, u.side)


def loss_order(b: Board, units: list[Unit]) -> list[Unit]:
    """Who goes first in a 1E/2E: combat units, lowest VP first, command units last (``crt.loss``;
    the owner's choice made by this fixed rule: ruling A30)."""
    return sorted(units, key=lambda u: (b.is_command(u), b.type_of(u).vp, u.id))


def apply_result(b: Board, code: str, attackers: list[Unit], defenders: list[Unit], fire: bool) -> bool:
    """Apply a CRT result; True if any participant was eliminated or demoralized."""
    res = b.charts.crt.results[code]
    hit = False
    if fire and len(defenders) > 1:
        # spi-dark-ages:crt.cmd-fire: command units stacked with others are never affected by fire
        defenders = [d for d in defenders if not b.is_command(d)] or defenders
    for e in res.effects:
        group = attackers if e.side == "attacker" else defenders
        group = [u for u in group if u.on_map]
        if not group:
            continue
        hit = True
        if e.kind == "demoralize":
            for u in group:
                if u.on_map:
                    demoralize(b, u)
        elif e.kind == "eliminate":
            for u in group:
                if u.on_map:
                    eliminate(b, u)
        else:
            for u in loss_order(b, group)[: e.n]:
                if u.on_map:
                    b.log("loss", "crt.loss", u.side, unit=u.id, result=code)
                    eliminate(b, u)
    return hit


def expire(b: Board) -> None:
    """End of a phase: timed demoralizations that end now are lifted (``demoralization.duration``)."""
    key = (b.turn, b.player, b.phase)
    for u in b.units.values():
        if u.demoralized == key and u.on_map:
            u.demoralized = None
            b.log("recovers", "demoralization.duration", u.side, unit=u.id)


def check_panic(b: Board, side: str) -> None:
    """``panic.trigger`` / ``panic.immediate`` / ``panic.once``: when an army's losses reach its PL."""
    army = b.armies[side]
    if side in b.panicked_armies or b.losses[side] < army.pl:
        return
    b.panicked_armies.add(side)
    b.log("army-panics", "panic.trigger", side, losses=b.losses[side], pl=army.pl)
    enemy = b.enemy(side)
    for u in sorted(b.units.values(), key=lambda x: x.id):
        if u.side != side or not u.on_map or u.aboard is not None:
            continue
        assert u.hex is not None
        if b.is_command(u):
            b.log("panic-exempt", "command.no-panic", side, unit=u.id, why="command unit")
            continue
        if b.has_command_near(u, fresh=False):
            b.log("panic-exempt", "panic.exempt", side, unit=u.id, why="with or next to a command unit")
            continue
        if b.nearest_enemy_within(u.hex, side, PANIC_DISTANCE) is None:
            b.log("panic-exempt", "panic.exempt", side, unit=u.id, why="more than ten hexes from the enemy")
            continue
        u.panicked = True
        u.flight_edge = b.map.nearest_edge(u.hex)
        b.unbond(u)  # ruling A7: panicked units are demoralized in all ways
        b.log("panics", "panic.mark", side, unit=u.id, edge=u.flight_edge, enemy=enemy)


def _flight_passes(b: Board, u: Unit, n: Hex, facing: int, left: float) -> bool:
    """``stacking.C`` for a fleeing fleet: it may flee into another fleet's hex only if it can flee
    on from there, hex by hex nearer its edge, to a hex without another fleet or off the map."""
    if not any(o.id != u.id and b.is_fleet(o) for o in b.units_at(n)):
        return True
    assert u.flight_edge is not None
    here = b.map.edge_distance(n, u.flight_edge)
    if here == 0:
        return left >= OFF_MAP_MP
    if b.controller(n, u.side) is not None:
        return False
    for d in range(6):
        m = n.neighbour(d)
        if not b.map.on_map(m) or b.map.edge_distance(m, u.flight_edge) >= here:
            continue
        if b.occupant_side(m) not in (None, u.side):
            continue
        try:
            cost = entry_cost(b, u, n, m) + turn_cost(facing, d) * b.charts.tec.facing_mp
        except Refused:
            continue
        if cost <= left + 1e-9 and _flight_passes(b, u, m, d, left - cost):
            return True
    return False


def flee(b: Board) -> None:
    """``panic.flight.order``: the phasing side's panicked units flee first, each its full MA
    (``panic.effects``) toward its edge, paying terrain and facing costs (``panic.flight.rules``),
    through as few enemy-adjacent hexes as possible (``panic.flight``), off the map for 1 MP
    (``panic.flight.exit``)."""
    for u in sorted(b.units.values(), key=lambda x: x.id):
        if u.side != b.phasing or not u.panicked or not u.on_map:
            continue
        assert u.flight_edge is not None
        mp = float(b.type_of(u).ma)
        turn_mp = b.charts.tec.facing_mp
        while True:
            h = u.hex
            assert h is not None
            here = b.map.edge_distance(h, u.flight_edge)
            if here == 0:
                if mp >= OFF_MAP_MP:
                    b.log("flees-off", "panic.flight.exit", u.side, unit=u.id, at=ccrr(h))
                    b.remove(u, "exited")
                break
            best: tuple[tuple[int, int, float], int, Hex, float] | None = None
            for d in range(6):
                n = h.neighbour(d)
                if not b.map.on_map(n) or b.map.edge_distance(n, u.flight_edge) >= here:
                    continue
                if b.occupant_side(n) not in (None, u.side):
                    continue
                try:
                    cost = entry_cost(b, u, h, n) + turn_cost(u.facing, d) * turn_mp
                    check_stacking(b, u, n)
                    if b.is_fleet(u) and not _flight_passes(b, u, n, d, mp - cost):
                        continue
                except Refused:
                    continue
                if cost > mp + 1e-9:
                    continue
                key = (b.map.edge_distance(n, u.flight_edge), int(b.enemy_adjacent(n, u.side)), cost)
                if best is None or key < best[0]:
                    best = (key, d, n, cost)
            if best is None:
                break
            _, d, n, cost = best
            mp -= cost
            u.facing = d
            b.place(u, n)
            b.log("flees", "panic.flight", u.side, unit=u.id, to=ccrr(n), mp_left=mp)
            u.mp_left = mp
            stop_check(b, u)
            if u.stopped:
                break


def rally(b: Board) -> None:
    """``rally.who`` / ``rally.rolls`` / ``rally.rallied``: after all movement, each non-panicked
    friendly unit (ruling A21: demoralized ones too) tries once to rally each adjacent or stacked
    panicked unit; a command unit on any roll but 6, a combat unit on 1-3."""
    side = b.phasing
    for p in sorted(b.units.values(), key=lambda x: x.id):
        if p.side != side or not p.panicked or not p.on_map:
            continue
        assert p.hex is not None
        ralliers = sorted(
            (
                r
                for r in b.around(p.hex)
                if r.side == side and not r.panicked and r.rallied != b.pturn and r.id != p.id
            ),
            key=lambda r: (not b.is_command(r), r.id),
        )
        for r in ralliers:
            roll = D6.roll(b.rng)
            need = 5 if b.is_command(r) else 3
            ok = roll <= need
            b.log("rally", "rally.rolls", side, unit=p.id, by=r.id, faces=[roll], target=need, rallied=ok)
            if ok:
                p.panicked = False
                p.flight_edge = None
                p.rallied = b.pturn
                break
