"""spi-dark-ages's own bot (the plugin's ``bots``): ``scripted``, a simple general.

It moves its command units first, toward the nearest enemy but not into melee; its combat units
follow, each step kept stacked with or next to a command unit (so they may still move and attack
next turn: ``command.A``, ``command.B``); it faces the enemy; the stop rule in front of enemy missile
units (the ZOC of this game) is the engine's. It fires at every target it can, allocates melee
where the exact CRT outcome favours it (``combat.outcomes``) and fires defensively when it can.
It reads the state's menu and board; per decision it looks at one unit's neighbourhood and the
enemy list once (no all-pairs scans).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from shieldwall.ai.base import Bot
from shieldwall.core.errors import UnknownName
from shieldwall.core.game import State
from shieldwall.core.hexgrid import Hex, facing_zone, parse_ccrr
from shieldwall.core.reference import REFERENCE

from .board import Board, Unit
from .combat import outcomes
from .hexmap import neighbours
from .orders import Order
from .plugin import RS
from .resolve import melee_situation

#: allocate a melee when P(defender hit) - 1.5 P(attacker hit) is at least this
MELEE_EDGE = Fraction(1, 5)
#: the nearest-enemy fields a map keeps (``nearest_enemy_field``): two lists of the map's cells each,
#: about 16 bytes a cell (7 KB on the built-in 432-cell maps)
FIELDS_KEPT = 256


def _score(b: Board, attackers: list[Unit], target: Hex) -> Fraction:
    a = melee_situation(b, attackers, target)
    dist = outcomes(b.charts, a)
    good = bad = Fraction(0)
    for code, p in dist.items():
        sides = {e.side for e in b.charts.crt.results[code].effects}
        if "defender" in sides:
            good += p
        if "attacker" in sides:
            bad += p
    return good - bad * Fraction(3, 2)


class EnemyField:
    """For every hex of the map: (distance, the nearest enemy unit's hex), as a read-only mapping
    over the search's arrays (``field[h]``, ``field.get(h, default)``, ``h in field``)."""

    __slots__ = ("dist", "index", "order", "src")

    def __init__(self, order: tuple[Hex, ...], index: dict[Hex, int], dist: list[int], src: list[int]):
        self.order, self.index, self.dist, self.src = order, index, dist, src

    def __reduce__(self) -> tuple[Any, ...]:
        """``copy.deepcopy`` and ``pickle`` (a bot keeps its last field): through the constructor
        (compiled, a native class has no other way)."""
        return EnemyField, (self.order, self.index, self.dist, self.src)

    def get(self, h: Hex, default: Any = None) -> Any:
        i = self.index.get(h)
        if i is None or self.dist[i] < 0:
            return default
        return self.dist[i], self.order[self.src[i]]

    def __contains__(self, h: object) -> bool:
        i = self.index.get(h)  # type: ignore[call-overload]
        return i is not None and self.dist[i] >= 0

    def __getitem__(self, h: Hex) -> tuple[int, Hex]:
        got: tuple[int, Hex] | None = self.get(h)
        if got is None:
            raise KeyError(h)
        return got


def nearest_enemy_field(b: Board, side: str) -> EnemyField:
    """For every hex of the map: (distance, the nearest enemy unit's hex), ties to the lowest hex;
    one multi-source breadth-first search from the enemy hexes over the map's cell indices (in hex
    order, so the lowest index is the lowest hex; no pairs of units). The field is a function of
    the set of enemy-held cells alone (a cell's distance is its fewest steps to one; its source the
    least index among the sources at that distance, whatever order the search meets them in), so
    it is kept on the map by that set (``HexMap.fields``, at most ``FIELDS_KEPT``): the search's
    playouts ask for the same field many times. On the reference path it is always searched."""
    m = b.map
    index = m.index
    sources = sorted(
        index[h] for h, ids in b.at.items() if ids and b.units[ids[0]].side != side and h in index
    )
    if REFERENCE.on:
        return _search_field(m.order, index, m.adjacent, sources)
    key = tuple(sources)
    got = m.fields.get(key)
    if got is None:
        if len(m.fields) >= FIELDS_KEPT:
            m.fields.clear()
        got = m.fields[key] = _search_field(m.order, index, m.adjacent, sources)
    assert isinstance(got, EnemyField)
    return got


def _search_field(
    order: tuple[Hex, ...], index: dict[Hex, int], adjacent: tuple[tuple[int, ...], ...], sources: list[int]
) -> EnemyField:
    """The breadth-first search of ``nearest_enemy_field`` from the cells ``sources``."""
    dist = [-1] * len(order)
    src = [0] * len(order)
    frontier = []
    for i in sources:
        dist[i], src[i] = 0, i
        frontier.append(i)
    d = 0
    while frontier:
        d += 1
        nxt = []
        for i in frontier:
            s = src[i]
            for j in adjacent[i]:
                if dist[j] == -1:
                    dist[j], src[j] = d, s
                    nxt.append(j)
                elif dist[j] == d and s < src[j]:
                    src[j] = s
        frontier = nxt
    return EnemyField(order, index, dist, src)


class Led:
    """The hexes of one side's command units: whether one stands in or next to a hex."""

    __slots__ = ("hexes", "leaders")

    def __init__(self, leaders: list[Hex | None]) -> None:
        self.leaders = leaders
        self.hexes = frozenset(h for h in leaders if h is not None)

    def __reduce__(self) -> tuple[Any, ...]:
        """``copy.deepcopy`` and ``pickle``: through the constructor (as ``EnemyField``'s)."""
        return Led, (self.leaders,)

    def within_one_reference(self, n: Hex) -> bool:
        """Every command unit's distance from ``n`` measured."""
        return any(lh is not None and lh.distance(n) <= 1 for lh in self.leaders)

    def within_one(self, n: Hex) -> bool:
        """``within_one_reference(n)``, looking in ``n`` and its six neighbours only (a hex at
        distance 1 is a neighbour). On the reference path: every distance measured."""
        if REFERENCE.on:
            return self.within_one_reference(n)
        hexes = self.hexes
        return n in hexes or any(x in hexes for x in neighbours(n))


class ScriptedBot(Bot):
    name = "scripted"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.skipped: tuple[int, set[str]] = (-1, set())
        self.field: tuple[tuple[int, int, int], EnemyField | None] = ((-1, -1, -1), None)
        #: the melee scores of this Attack Allocation Phase: (board, phase key) and
        #: (target, attackers) -> score; nothing a score reads changes within the phase
        self.scores: tuple[tuple[object, ...], dict[tuple[Hex, tuple[str, ...]], Fraction]] = ((), {})

    def choose(self, state: State) -> Any:
        rid = state.game.info.id
        if rid != RS:
            raise UnknownName(f"rule system for the {RS} scripted bot", rid, [RS])
        b: Board = state.board  # type: ignore[attr-defined]
        menu: list[Order] = state.legal_orders()
        d = state.decision()
        assert d is not None
        if d.kind == "defensive-fire":
            return next((o for o in menu if o.kind == "dfire"), menu[-1])
        if d.kind == "allocate":
            return self._allocate(b, menu)
        return self._move(b, menu)

    # --- attacks ---------------------------------------------------------------------------
    def _allocate(self, b: Board, menu: list[Order]) -> Order:
        fire = [o for o in menu if o.kind == "fire"]
        melee: dict[str, list[Order]] = {}
        for o in menu:
            if o.kind == "melee" and o.target is not None:
                melee.setdefault(o.target, []).append(o)
        for target, orders in melee.items():
            h = parse_ccrr(target)
            group = [b.units[i] for i, t in b.melee_alloc.items() if t == h]
            group += [b.units[o.unit or ""] for o in orders]
            if self._score(b, group, h) >= MELEE_EDGE:
                return orders[0]
        if fire:
            return fire[0]
        return menu[-1]

    def _score(self, b: Board, group: list[Unit], h: Hex) -> Fraction:
        """``_score``, memoised for the phase: in the Attack Allocation Phase no unit moves, turns
        or changes state (only allocations are made), so a group's score on a hex stays the same."""
        if REFERENCE.on:
            return _score(b, group, h)
        key = (b.turn, b.player, b.phase, b.placements, b, b.charts)
        if self.scores[0] != key:
            self.scores = (key, {})
        memo = self.scores[1]
        k = (h, tuple(u.id for u in group))
        got = memo.get(k)
        if got is None:
            got = memo[k] = _score(b, group, h)
        return got

    # --- movement --------------------------------------------------------------------------
    def _move(self, b: Board, menu: list[Order]) -> Order:
        if self.skipped[0] != b.pturn:
            self.skipped = (b.pturn, set())
        skipped = self.skipped[1]
        side = b.phasing
        enemies: list[Hex | None] = [
            u.hex for u in b.units.values() if u.side != side and u.on_map and u.hex is not None
        ]
        leaders: list[Hex | None] = [
            u.hex for u in b.units.values() if u.side == side and u.on_map and b.is_command(u)
        ]
        # the command units' hexes: "next to a command unit" asked of seven hexes, not every leader
        led = Led(leaders)
        by_unit: dict[str, list[Order]] = {}
        for o in menu:
            if o.unit is not None:
                by_unit.setdefault(o.unit, []).append(o)
        key = (b.pturn, len(enemies), 0)
        if self.field[0] != key:  # the enemy does not move in our Movement Phase
            self.field = (key, nearest_enemy_field(b, b.phasing))
        field = self.field[1]
        assert field is not None
        if b.active is not None:
            want = self._want(b, b.units[b.active], by_unit.get(b.active, []), field, led)
            # "done" unless it is not on the menu (a fleet may not stop in another fleet's hex)
            return want or next((o for o in menu if o.kind == "done"), menu[0])
        # combat units first (kept next to a command unit's hex), then each command unit joins the
        # friendly stack nearest the enemy (a stacked command unit is safe from fire: crt.cmd-fire)
        landing = [o for o in menu if o.kind == "disembark" and o.target is not None]
        if landing:  # troops aboard land as soon as their fleet is moored
            return min(
                landing,
                key=lambda o: (field.get(parse_ccrr(o.target or ""), (99, o))[0], str(o)),
            )
        ids = sorted(by_unit, key=lambda i: (b.is_command(b.units[i]), i))
        for uid in ids:
            if uid in skipped:
                continue
            want = self._want(b, b.units[uid], by_unit[uid], field, led)
            if want is not None:
                return want
            skipped.add(uid)
        return menu[-1]

    def _want(
        self,
        b: Board,
        u: Unit,
        orders: list[Order],
        field: EnemyField,
        led: Led,
    ) -> Order | None:
        if u.hex is None or u.hex not in field:
            return None
        h = u.hex
        e = field[h][1]
        dist = h.distance(e)
        if b.is_command(u):
            return self._join(b, u, orders, e)
        toward = h.direction_to(min(neighbours(h), key=lambda n: (n.distance(e), n)))
        facing_ok = (
            toward is not None
            and facing_zone(u.facing, toward) == "front"
            and (
                dist > 1
                or h.direction_to(e) is None
                or facing_zone(u.facing, h.direction_to(e) or 0) == "front"
            )
        )
        if dist > 1:
            best: tuple[tuple[int, int], Order] | None = None
            for o in orders:
                if o.kind != "step":
                    continue
                n = neighbours(h)[int(o.target or 0) % 6]
                if n.distance(e) >= dist:
                    continue
                if not b.is_fleet(u) and not led.within_one(n):
                    continue
                key = (n.distance(e), int(o.target or 0))
                if best is None or key < best[0]:
                    best = (key, o)
            if best is not None:
                return best[1]
        if not facing_ok and toward is not None:
            way = "right" if (toward - u.facing) % 6 <= 3 else "left"
            return next((o for o in orders if o.kind == "turn" and o.target == way), None)
        return None

    def _join(self, b: Board, u: Unit, orders: list[Order], e: Hex) -> Order | None:
        """A command unit's move: into the friendly stack nearest the enemy within 3 hexes."""
        h = u.hex
        assert h is not None
        stacks = {
            o.hex
            for o in b.around(h) + [x for n in neighbours(h) for x in b.around(n)]
            if o.side == u.side and o.hex is not None and not b.is_command(o) and o.hex.distance(h) <= 3
        }
        room = b.charts.rules.hex_stack_limit - b.type_of(u).stacking_points
        stacks = {x for x in stacks if x == h or b.stack_points(x, u.side) <= room}
        if not stacks:
            return None
        goal = min(stacks, key=lambda x: (x.distance(e), x))
        if goal == h or goal.distance(e) >= h.distance(e) and any(x == h for x in stacks):
            return None
        best: tuple[tuple[int, int], Order] | None = None
        for o in orders:
            if o.kind == "step":
                n = neighbours(h)[int(o.target or 0) % 6]
                if n.distance(goal) < h.distance(goal):
                    key = (n.distance(goal), int(o.target or 0))
                    if best is None or key < best[0]:
                        best = (key, o)
        if best is not None:
            return best[1]
        toward = h.direction_to(min(neighbours(h), key=lambda n: (n.distance(goal), n)))
        if toward is None or facing_zone(u.facing, toward) == "front":
            return None
        way = "right" if (toward - u.facing) % 6 <= 3 else "left"
        return next((o for o in orders if o.kind == "turn" and o.target == way), None)
