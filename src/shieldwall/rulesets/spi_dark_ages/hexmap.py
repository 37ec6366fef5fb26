"""The map of a Dark Ages battle: terrain per hex, road and water hexsides, fords and bridges, and
the elevation classes (level, slope, hilltop: ``combat.D.hilltop-def``), computed once at load."""

from __future__ import annotations

from dataclasses import dataclass, field

from shieldwall.core.errors import DataError
from shieldwall.core.hexgrid import (
    HILLTOP,
    LEVEL,
    SLOPE,
    Hex,
    enclosed,
    from_offset,
    hexside,
    parse_ccrr,
    spiral,
    to_offset,
)
from shieldwall.core.reference import REFERENCE
from shieldwall.rulesets.spi_dark_ages.clauses import rule
from shieldwall.rulesets.spi_dark_ages.schemas import MapFile, TecFile

EDGES = ("north", "east", "south", "west")
Side = tuple[Hex, int]

#: hex -> its six neighbours in direction order (a pure function of the hex, memoised: the rules
#: ask for the same few hundred hexes' neighbours many times per decision)
_NEIGHBOURS: dict[Hex, tuple[Hex, ...]] = {}


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """``h.neighbours()`` as a tuple, memoised (index ``d`` is ``h.neighbour(d)``)."""
    if REFERENCE.on:
        return tuple(h.neighbours())
    got = _NEIGHBOURS.get(h)
    if got is None:
        if len(_NEIGHBOURS) > 200_000:
            _NEIGHBOURS.clear()
        got = _NEIGHBOURS[h] = tuple(h.neighbours())
    return got


_SPIRALS: dict[tuple[Hex, int], tuple[Hex, ...]] = {}


def spiral_of(h: Hex, radius: int) -> tuple[Hex, ...]:
    """``core.hexgrid.spiral(h, radius)`` as a tuple (its order), memoised."""
    if REFERENCE.on:
        return tuple(spiral(h, radius))
    got = _SPIRALS.get((h, radius))
    if got is None:
        if len(_SPIRALS) > 20_000:
            _SPIRALS.clear()
        got = _SPIRALS[(h, radius)] = tuple(spiral(h, radius))
    return got


@dataclass
class HexMap:
    name: str
    cols: int
    rows: int
    cells: frozenset[Hex]
    terrain: dict[Hex, tuple[str, ...]]
    ford: frozenset[Hex]
    bridge: frozenset[Hex]
    road_sides: frozenset[Side]
    water_sides: frozenset[Side]
    hilltops: frozenset[Hex] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        # spi-dark-ages:combat.D.hilltop-def: a non-slope hex from which every line of hexes to a map
        # edge passes through a slope hex (a flood fill from the edges through non-slope hexes)
        self.slopes = frozenset(h for h in self.cells if "slope" in self.terrain_of(h))
        self.hilltops = frozenset(enclosed(self.cells, self.slopes))
        self.road_hexes = frozenset(h for s in self.road_sides for h in (s[0], s[0].neighbour(s[1])))
        # the cells in hex order and, per cell, the indices of its on-map neighbours (direction
        # order): breadth-first searches over the map on integers
        self.order: tuple[Hex, ...] = tuple(sorted(self.cells))
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(self.order)}
        self.adjacent: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.index[n] for n in h.neighbours() if n in self.index) for h in self.order
        )
        #: memoised pure functions of this map and the charts ``memo_charts`` (``movement.entry_cost``)
        self.memo: dict[tuple[object, ...], object] = {}
        self.memo_charts: object = None
        #: the map as ``picture`` draws it for a view (terrain polygons, hex list), drawn once
        self.drawn: dict[str, list[dict[str, object]]] = {}
        #: the scripted bot's nearest-enemy fields (``bots.nearest_enemy_field``) by the sorted
        #: indices of the enemy-held cells they were searched from (a pure function of those: a
        #: search's playouts meet the same enemy positions again and again); at most
        #: ``bots.FIELDS_KEPT``, emptied when full
        self.fields: dict[tuple[int, ...], object] = {}

    def __reduce__(self) -> tuple[object, ...]:
        """A pickle or deep copy: through the constructor, from the fields (compiled, a native class
        has no ``__dict__`` to restore); what ``__post_init__`` derives is derived again, and the
        caches (``memo``, ``drawn``, the bot's ``fields``: up to a few megabytes) start empty."""
        return HexMap, (
            self.name, self.cols, self.rows, self.cells, self.terrain, self.ford, self.bridge,
            self.road_sides, self.water_sides, self.hilltops,
        )  # fmt: skip

    def terrain_of(self, h: Hex) -> tuple[str, ...]:
        return self.terrain.get(h, ("clear",))

    def on_map(self, h: Hex) -> bool:
        return h in self.cells

    def elevation(self, h: Hex) -> int:
        """LEVEL, SLOPE or HILLTOP (``spi-dark-ages:tec.up-down``, ruling A16)."""
        if h in self.slopes:
            return SLOPE
        return HILLTOP if h in self.hilltops else LEVEL

    def road_between(self, a: Hex, b: Hex) -> bool:
        d = a.direction_to(b)
        return d is not None and hexside(a, d) in self.road_sides

    def water_between(self, a: Hex, b: Hex) -> bool:
        d = a.direction_to(b)
        return d is not None and hexside(a, d) in self.water_sides

    def is_stream(self, h: Hex) -> bool:
        return "stream" in self.terrain_of(h)

    def is_river(self, h: Hex) -> bool:
        return "river" in self.terrain_of(h)

    def edge_distance(self, h: Hex, edge: str) -> int:
        """Hexes from ``h`` to the map edge ``edge`` (0 on the edge row or column)."""
        c, r = to_offset(h)
        return {"north": r, "south": self.rows - 1 - r, "west": c, "east": self.cols - 1 - c}[edge]

    def nearest_edge(self, h: Hex) -> str:
        """The nearest edge (ties: north, east, south, west: ruling A20)."""
        return min(EDGES, key=lambda e: self.edge_distance(h, e))


def build_map(m: MapFile, tec: TecFile, file: str) -> HexMap:
    cells = frozenset(from_offset(c, r) for c in range(m.cols) for r in range(m.rows))

    def at(text: str, where: str) -> Hex:
        try:
            h = parse_ccrr(text)
        except ValueError as exc:
            raise DataError(file, where, str(exc)) from None
        if h not in cells:
            raise DataError(file, where, f"hex {text} is off the {m.cols}x{m.rows} map")
        return h

    terrain: dict[Hex, tuple[str, ...]] = {}
    ford: set[Hex] = set()
    bridge: set[Hex] = set()
    for i, mh in enumerate(m.hex):
        h = at(mh.at, f"hex[{i}].at")
        if h in terrain or h in ford or h in bridge:
            raise DataError(file, f"hex[{i}].at", f"hex {mh.at} is given twice")
        for t in mh.terrain:
            if t not in tec.terrain:
                raise DataError(file, f"hex[{i}].terrain", f"{t!r} is not a terrain of the TEC")
        if (mh.ford or mh.bridge) and not ({"stream", "river"} & set(mh.terrain)):
            raise DataError(
                file, f"hex[{i}]", f"a bridge or ford stands on a stream or river hex ({rule('tec.ford')})"
            )
        terrain[h] = tuple(mh.terrain) or ("clear",)
        if mh.ford:
            ford.add(h)
        if mh.bridge:
            bridge.add(h)
    roads: set[Side] = set()
    water: set[Side] = set()
    seen: set[Side] = set()
    for i, s in enumerate(m.hexside):
        h = at(s.at, f"hexside[{i}].at")
        if h.neighbour(s.dir) not in cells:
            raise DataError(file, f"hexside[{i}].dir", "the hexside is on the map edge")
        key = hexside(h, s.dir)
        if key in seen:
            raise DataError(file, f"hexside[{i}]", "this hexside is given twice")
        seen.add(key)
        if s.road:
            roads.add(key)
        if s.water:
            water.add(key)
    return HexMap(
        m.name,
        m.cols,
        m.rows,
        cells,
        terrain,
        frozenset(ford),
        frozenset(bridge),
        frozenset(roads),
        frozenset(water),
    )
