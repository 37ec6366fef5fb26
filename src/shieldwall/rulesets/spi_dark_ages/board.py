"""The board of a Dark Ages battle: units on the hex map with a hex index (hex -> unit ids), the
armies, the turn and phase, contact bonds, the attack allocations and the event log.

Every question about neighbours is a dictionary look-up in the hex index (``at``): nothing scans
all pairs of units.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from shieldwall.core.dice import copy_rng
from shieldwall.core.events import Event
from shieldwall.core.game import Result
from shieldwall.core.hexgrid import Hex, facing_zone
from shieldwall.rulesets.spi_dark_ages.clauses import rule
from shieldwall.rulesets.spi_dark_ages.hexmap import HexMap, neighbours
from shieldwall.rulesets.spi_dark_ages.schemas import UnitType
from shieldwall.rulesets.spi_dark_ages.tables import Charts

#: when a timed demoralization ends: (game turn, player-turn 0 or 1, phase)
Until = tuple[int, int, str]


@dataclass
class Unit:
    id: str
    side: str
    type: str
    hex: Hex | None
    facing: int = 0
    #: None on the map; "eliminated" or "exited" (panic flight off the map)
    gone: str | None = None
    demoralized: Until | None = None
    panicked: bool = False
    flight_edge: str | None = None
    #: the player-turn number (``Board.pturn``) it was rallied in
    rallied: int = -1
    enter_turn: int = 0
    enter_at: Hex | None = None
    #: the hex it entered its stream hex from (its bank: ruling A18)
    bank: Hex | None = None
    aboard: str | None = None
    #: a dismounted cavalry unit's mounted type (``dismount.phase``)
    cav_type: str | None = None
    # --- this Player-Turn / Movement Phase ---
    mp_left: float = 0.0
    moved: bool = False
    started: bool = False
    stopped: bool = False
    cmd_ok: bool = False
    run: int = 0
    contact_turned: bool = False
    fired: bool = False
    meleed: bool = False

    @property
    def on_map(self) -> bool:
        return self.gone is None and self.hex is not None

    def copy(self) -> Unit:
        """``copy.copy(self)``: a new unit with the same fields (every field, in the constructor's
        order: compiled, the class is a native class with no ``__dict__`` to copy)."""
        return Unit(*self._fields())

    def _fields(self) -> tuple[Any, ...]:
        return (
            self.id, self.side, self.type, self.hex, self.facing, self.gone, self.demoralized,
            self.panicked, self.flight_edge, self.rallied, self.enter_turn, self.enter_at, self.bank,
            self.aboard, self.cav_type, self.mp_left, self.moved, self.started, self.stopped,
            self.cmd_ok, self.run, self.contact_turned, self.fired, self.meleed,
        )  # fmt: skip

    def __reduce__(self) -> tuple[Any, ...]:
        """``copy.deepcopy`` and ``pickle``: through the constructor (a native class has no other way)."""
        return Unit, self._fields()


@dataclass
class Army:
    side: str
    name: str
    pv: int
    pl: int
    pv_source: str
    ferocity: bool
    vitality: bool


@dataclass
class Board:
    charts: Charts
    map: HexMap
    params: dict[str, Any]
    sides: tuple[str, str]
    #: the order of the Player-Turns: (second listed, first listed) (``setup.order``)
    order: tuple[str, str]
    armies: dict[str, Army]
    units: dict[str, Unit]
    rng: np.random.Generator
    turns: int
    turn: int = 1
    #: 0 or 1: whose Player-Turn within the Game-Turn (``order``)
    player: int = 0
    phase: str = "movement"
    active: str | None = None
    events: list[Event] = field(default_factory=list)
    at: dict[Hex, list[str]] = field(default_factory=dict)
    bonds: dict[str, set[str]] = field(default_factory=dict)
    losses: dict[str, int] = field(default_factory=dict)
    panicked_armies: set[str] = field(default_factory=set)
    #: unit -> target hex of its melee / fire allocation this Player-Turn
    melee_alloc: dict[str, Hex] = field(default_factory=dict)
    fire_alloc: dict[str, Hex] = field(default_factory=dict)
    #: missile units still to decide on defensive fire this Player-Turn
    dfire_queue: list[str] = field(default_factory=list)
    result: Result | None = None
    #: the pending phase takes no more orders
    closed: bool = False
    #: the last menu computed and the state it belongs to (``turn.menu``)
    menu_cache: tuple[Any, tuple[Any, ...]] | None = None
    #: unit -> (what its orders depend on, its steps and turns or its attacks) (``turn._unit_moves``,
    #: ``turn._unit_attacks``: the two keys differ in length, so one never hits the other)
    moves_cache: dict[str, tuple[Any, tuple[Any, ...]]] = field(default_factory=dict)
    #: how many times a unit has been placed or removed (a key of the memoised attack menus)
    placements: int = 0
    #: hex -> how many times a unit has entered or left it (a key of the memoised move menus)
    hex_changes: dict[Hex, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for u in self.units.values():
            if u.on_map and u.aboard is None:
                assert u.hex is not None
                self.at.setdefault(u.hex, []).append(u.id)
        self.losses = dict.fromkeys(self.sides, 0)

    # --- bookkeeping ------------------------------------------------------------------------
    @property
    def phasing(self) -> str:
        return self.order[self.player]

    @property
    def pturn(self) -> int:
        return self.turn * 2 + self.player

    def current_side(self) -> str:
        """Who decides now: the enemy in the Defensive Fire Phase, else the phasing side."""
        return self.enemy(self.phasing) if self.phase == "defensive-fire" else self.phasing

    def copy(self) -> Board:
        """An independent copy (the charts and the map are shared: they never change)."""
        # a unit's memoised orders stay valid in the copy: their keys read the copy's own state
        # and its counters (``hex_changes``, ``placements``), copied, which only grow, so an entry
        # made before the copy is hit only while what it read is unchanged (OpenSpiel's checks and
        # the search ask a copy of every state for its menu). Its own dict: a copy's entries are not
        # its original's. The last menu (``menu_cache``) is not kept.
        return _board(
            self.charts, self.map, dict(self.params), self.sides, self.order, self.armies,
            {k: u.copy() for k, u in self.units.items()}, copy_rng(self.rng), self.turns, self.turn,
            self.player, self.phase, self.active, list(self.events),
            {h: list(v) for h, v in self.at.items()}, {k: set(v) for k, v in self.bonds.items()},
            dict(self.losses), set(self.panicked_armies), dict(self.melee_alloc),
            dict(self.fire_alloc), list(self.dfire_queue), self.result, self.closed, None,
            dict(self.moves_cache), self.placements, dict(self.hex_changes),
        )  # fmt: skip

    def __reduce__(self) -> tuple[Any, ...]:
        """``copy.deepcopy`` and ``pickle``: every field, through ``_board`` (compiled, the class is
        a native class with no ``__dict__`` to restore, and its ``__post_init__`` indexes the units
        anew: ``_board`` puts back the index and the losses as they were)."""
        return _board, (
            self.charts, self.map, self.params, self.sides, self.order, self.armies, self.units,
            self.rng, self.turns, self.turn, self.player, self.phase, self.active, self.events,
            self.at, self.bonds, self.losses, self.panicked_armies, self.melee_alloc,
            self.fire_alloc, self.dfire_queue, self.result, self.closed, self.menu_cache,
            self.moves_cache, self.placements, self.hex_changes,
        )  # fmt: skip

    def enemy(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    def log(self, kind: str, clause: str, side: str | None, **data: Any) -> None:
        self.events.append(Event(self.turn, self.phase, side, kind, rule(clause), data))

    def type_of(self, u: Unit) -> UnitType:
        return self.charts.units[u.type]

    def cls(self, u: Unit) -> str:
        return self.charts.units[u.type].cls

    def is_command(self, u: Unit) -> bool:
        return self.charts.units[u.type].cls == "command"

    def is_fleet(self, u: Unit) -> bool:
        return self.charts.units[u.type].cls == "fleet"

    def is_cavalry(self, u: Unit) -> bool:
        return self.type_of(u).cavalry != "none"

    def is_demoralized(self, u: Unit) -> bool:
        """Demoralized or panicked (panicked units are demoralized in all ways: ``panic.effects``);
        one status: "dispersed" reads "demoralized" (spi-dark-ages:combat.dispersed)."""
        return u.demoralized is not None or u.panicked

    # --- the hex index ----------------------------------------------------------------------
    def units_at(self, h: Hex) -> list[Unit]:
        ids = self.at.get(h)
        if not ids:
            return []
        units = self.units
        return [units[i] for i in ids]

    def place(self, u: Unit, h: Hex | None) -> None:
        changes = self.hex_changes
        if u.hex is not None and u.aboard is None and u.id in self.at.get(u.hex, ()):
            self.at[u.hex].remove(u.id)
            changes[u.hex] = changes.get(u.hex, 0) + 1
            if not self.at[u.hex]:
                del self.at[u.hex]
        u.hex = h
        self.placements += 1
        if h is not None and u.gone is None:
            self.at.setdefault(h, []).append(u.id)
            changes[h] = changes.get(h, 0) + 1

    def remove(self, u: Unit, how: str) -> None:
        self.place(u, None)
        u.gone = how
        self.unbond(u)
        if self.charts.units[u.type].cls == "fleet":
            # ruling R18: the troops aboard a fleet share its fate (eliminated, or off the map)
            for o in self.units.values():
                if o.aboard == u.id and o.gone is None:
                    o.aboard = None
                    o.gone = how
                    if how == "eliminated":
                        self.losses[o.side] += self.charts.units[o.type].vp
                    self.log("lost-aboard", "stacking.C.capacity", o.side, unit=o.id, fleet=u.id, how=how)

    def occupant_side(self, h: Hex) -> str | None:
        ids = self.at.get(h)
        return self.units[ids[0]].side if ids else None

    def around(self, h: Hex) -> list[Unit]:
        """The units in ``h`` and the six hexes around it."""
        out = self.units_at(h)
        for n in neighbours(h):
            out += self.units_at(n)
        return out

    def has_command_near(self, u: Unit, *, fresh: bool) -> bool:
        """A friendly command unit stacked with or adjacent to ``u`` (``fresh``: not demoralized)."""
        assert u.hex is not None
        return any(
            o.side == u.side
            and o.id != u.id
            and self.is_command(o)
            and not (fresh and self.is_demoralized(o))
            for o in self.around(u.hex)
        )

    def command_bonus_near(self, h: Hex, side: str) -> int:
        """The largest bonus of a non-demoralized friendly command unit in or next to ``h`` (A13,
        ``demoralization.command``)."""
        best = 0
        for o in self.around(h):
            if o.side == side and self.is_command(o) and not self.is_demoralized(o):
                best = max(best, self.type_of(o).command_bonus)
        return best

    def enemy_adjacent(self, h: Hex, side: str) -> bool:
        return any(self.occupant_side(n) not in (None, side) for n in neighbours(h))

    def missile_front(self, h: Hex, side: str) -> Unit | None:
        """An enemy Class IV or V unit, not demoralized, with ``h`` among its three front hexes
        (``movement.K.stop``; a demoralized one controls nothing: ``demoralization.control``)."""
        for n in neighbours(h):
            for o in self.units_at(n):
                if o.side == side or self.cls(o) not in ("IV", "V") or self.is_demoralized(o):
                    continue
                d = n.direction_to(h)
                if d is not None and facing_zone(o.facing, d) == "front":
                    return o
        return None

    def cross_river_front(self, h: Hex, side: str) -> Unit | None:
        """``tec.cross-river`` (ruling A28): an enemy unit, not demoralized and not a fleet, with the
        stream or river hex ``h`` adjacent to its front (a demoralized one controls nothing:
        ``demoralization.control``). None when ``h`` is no such hex or the TEC plays no such rule."""
        cr = self.charts.tec.cross_river
        if cr is None or not (self.map.is_stream(h) or self.map.is_river(h)):
            return None
        for n in neighbours(h):
            for o in self.units_at(n):
                if o.side == side or self.is_fleet(o) or self.is_demoralized(o):
                    continue
                d = n.direction_to(h)
                if d is not None and facing_zone(o.facing, d) == "front":
                    return o
        return None

    def controller(self, h: Hex, side: str) -> tuple[Unit, str] | None:
        """The enemy unit whose control stops a unit of ``side`` entering ``h``, with the clause:
        a missile unit's front (``movement.K.stop``) or, if the TEC's Cross River Attack rule says
        so, a unit's stream or river front hex (``tec.cross-river``)."""
        m = self.missile_front(h, side)
        if m is not None:
            return m, "movement.K.stop"
        cr = self.charts.tec.cross_river
        if cr is not None and cr.stop:
            o = self.cross_river_front(h, side)
            if o is not None:
                return o, "tec.cross-river"
        return None

    def nearest_enemy_within(self, h: Hex, side: str, radius: int) -> int | None:
        """The distance to the nearest enemy unit if it is at most ``radius`` hexes away (a spiral
        of hex look-ups), else None."""
        from shieldwall.core.hexgrid import ring

        for k in range(radius + 1):
            for x in ring(h, k):
                if self.occupant_side(x) not in (None, side):
                    return k
        return None

    # --- contact bonds (combat.K.contact, combat.K.bound) ------------------------------------
    def bond(self, a: str, b: str) -> None:
        self.bonds.setdefault(a, set()).add(b)
        self.bonds.setdefault(b, set()).add(a)

    def unbond(self, u: Unit) -> None:
        for o in self.bonds.pop(u.id, set()):
            self.bonds.get(o, set()).discard(u.id)
            if not self.bonds.get(o):
                self.bonds.pop(o, None)

    def in_contact(self, u: Unit) -> bool:
        return bool(self.bonds.get(u.id))

    def stack_points(self, h: Hex, side: str) -> int:
        return sum(self.type_of(o).stacking_points for o in self.units_at(h) if o.side == side)

    def vp_lost(self, u: Unit) -> int:
        """The VP an eliminated unit scores (``victory.vp``, ``dismount.vp``)."""
        return self.type_of(u).vp


def _board(
    charts: Charts,
    map_: HexMap,
    params: dict[str, Any],
    sides: tuple[str, str],
    order: tuple[str, str],
    armies: dict[str, Army],
    units: dict[str, Unit],
    rng: np.random.Generator,
    turns: int,
    turn: int,
    player: int,
    phase: str,
    active: str | None,
    events: list[Event],
    at: dict[Hex, list[str]],
    bonds: dict[str, set[str]],
    losses: dict[str, int],
    panicked_armies: set[str],
    melee_alloc: dict[str, Hex],
    fire_alloc: dict[str, Hex],
    dfire_queue: list[str],
    result: Result | None,
    closed: bool,
    menu_cache: tuple[Any, tuple[Any, ...]] | None,
    moves_cache: dict[str, tuple[Any, tuple[Any, ...]]],
    placements: int,
    hex_changes: dict[Hex, int],
) -> Board:
    """A board with every field given (``Board.copy``, ``Board.__reduce__``): the hex index and
    the losses that ``__post_init__`` makes anew are put back as given."""
    b = Board(charts, map_, params, sides, order, armies, units, rng, turns)
    b.turn, b.player, b.phase, b.active, b.events = turn, player, phase, active, events
    b.at, b.bonds, b.losses, b.panicked_armies = at, bonds, losses, panicked_armies
    b.melee_alloc, b.fire_alloc, b.dfire_queue, b.result = melee_alloc, fire_alloc, dfire_queue, result
    b.closed, b.menu_cache, b.moves_cache = closed, menu_cache, moves_cache
    b.placements, b.hex_changes = placements, hex_changes
    return b
