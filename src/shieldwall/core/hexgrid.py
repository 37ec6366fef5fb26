"""Hex maps: axial coordinates, distance, neighbours, lines, facing and movement costs.

Axial coordinates ``(q, r)`` with cube ``s = -q - r``; pointy-topped layout with ``r`` increasing
southward. The six directions are numbered 0..5 clockwise starting north-east (NE, E, SE, SW, W,
NW); a unit's facing is one of them.
Its front is the hexside it faces and the two beside it (three front hexes); the two next are
its flanks and the one opposite its rear.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Iterable
from typing import NamedTuple

#: Axial offsets of the six neighbours, clockwise from direction 0: NE, E, SE, SW, W, NW
#: (pointy-top, r increasing southward).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))


class Hex(NamedTuple):
    """A hex in axial coordinates. A named tuple: hashing, equality and ordering are tuple
    operations in C (a hex game asks them hundreds of thousands of times a battle), with the same
    hash, order and repr as the frozen dataclass it was (``hash((q, r))``, ``(q, r)`` order,
    ``Hex(q=1, r=2)``). It therefore equals the plain tuple ``(q, r)``."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:  # type: ignore[override]  # vector sum, not tuple concatenation
        return Hex(self.q + other.q, self.r + other.r)

    def neighbour(self, direction: int) -> Hex:
        dq, dr = DIRECTIONS[direction % 6]
        return Hex(self.q + dq, self.r + dr)

    def neighbours(self) -> list[Hex]:
        return [self.neighbour(d) for d in range(6)]

    def distance(self, other: Hex) -> int:
        dq, dr = self.q - other.q, self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def direction_to(self, other: Hex) -> int | None:
        """The direction of an adjacent hex, or ``None`` if not adjacent."""
        d = (other.q - self.q, other.r - self.r)
        try:
            return DIRECTIONS.index(d)
        except ValueError:
            return None

    def to_pixel(self, size: float = 1.0) -> tuple[float, float]:
        x = size * math.sqrt(3) * (self.q + self.r / 2.0)
        y = size * 1.5 * self.r
        return (x, y)

    def __str__(self) -> str:
        return f"{self.q},{self.r}"

    @classmethod
    def parse(cls, text: str) -> Hex:
        try:
            q, r = (int(v) for v in text.split(","))
        except ValueError as exc:
            raise ValueError(f"not a hex coordinate 'q,r': {text!r}") from exc
        return cls(q, r)


def _cube_round(fq: float, fr: float) -> Hex:
    fs = -fq - fr
    q, r, s = round(fq), round(fr), round(fs)
    dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
    if dq > dr and dq > ds:
        q = -r - s
    elif dr > ds:
        r = -q - s
    return Hex(int(q), int(r))


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes on the straight line from ``a`` to ``b`` inclusive (nudged to break ties the same
    way every time)."""
    n = a.distance(b)
    if n == 0:
        return [a]
    eps_q, eps_r = 1e-6, 2e-6
    out = []
    for i in range(n + 1):
        t = i / n
        out.append(_cube_round(a.q + eps_q + (b.q - a.q) * t, a.r + eps_r + (b.r - a.r) * t))
    return out


def facing_zone(facing: int, direction: int) -> str:
    """Whether the hexside ``direction`` of a unit facing ``facing`` is front, flank or rear."""
    d = (direction - facing) % 6
    if d in (0, 1, 5):
        return "front"
    if d == 3:
        return "rear"
    return "flank"


def attack_zone(defender: Hex, facing: int, attacker: Hex) -> str:
    """The defender's zone (front/flank/rear) an adjacent attacker stands in."""
    d = defender.direction_to(attacker)
    if d is None:
        raise ValueError(f"{attacker} is not adjacent to {defender}")
    return facing_zone(facing, d)


def turn_cost(from_facing: int, to_facing: int) -> int:
    """Number of hexside steps needed to turn between two facings."""
    d = (to_facing - from_facing) % 6
    return min(d, 6 - d)


def reachable(
    start: Hex,
    budget: float,
    cost: Callable[[Hex, Hex], float | None],
) -> dict[Hex, float]:
    """All hexes reachable from ``start`` spending at most ``budget`` movement points.

    ``cost(a, b)`` gives the cost of stepping from ``a`` into adjacent ``b`` (``None`` = forbidden).
    Returns the cheapest cost of each reachable hex.
    """
    best: dict[Hex, float] = {start: 0.0}
    heap: list[tuple[float, Hex]] = [(0.0, start)]
    while heap:
        c, h = heapq.heappop(heap)
        if c > best.get(h, math.inf):
            continue
        for nb in h.neighbours():
            step = cost(h, nb)
            if step is None:
                continue
            nc = c + step
            if nc <= budget + 1e-9 and nc < best.get(nb, math.inf):
                best[nb] = nc
                heapq.heappush(heap, (nc, nb))
    return best


def line_of_sight(a: Hex, b: Hex, blocks: Callable[[Hex], bool]) -> bool:
    """Whether no hex strictly between ``a`` and ``b`` on the hex line blocks sight."""
    return not any(blocks(h) for h in line(a, b)[1:-1])


def ring(centre: Hex, radius: int) -> list[Hex]:
    if radius == 0:
        return [centre]
    out = []
    h = Hex(centre.q + DIRECTIONS[4][0] * radius, centre.r + DIRECTIONS[4][1] * radius)
    for d in range(6):
        for _ in range(radius):
            out.append(h)
            h = h.neighbour(d)
    return out


def spiral(centre: Hex, radius: int) -> Iterable[Hex]:
    for k in range(radius + 1):
        yield from ring(centre, k)


# ---------------------------------------------------------------------------------------------
# Hexsides, map edges, elevation classes and lines of fire (hex wargames such as SPI's)

#: elevation classes of a hex: level ground, a slope hex, a hilltop (a non-slope hex ringed by slopes)
LEVEL, SLOPE, HILLTOP = 0, 1, 2


def hexside(h: Hex, direction: int) -> tuple[Hex, int]:
    """The canonical name of the side ``direction`` of ``h``: the same ``(hex, 0..2)`` pair from
    either hex sharing it (a side with direction 3..5 is named from the neighbour across it)."""
    d = direction % 6
    if d < 3:
        return (h, d)
    return (h.neighbour(d), d - 3)


def hexside_between(a: Hex, b: Hex) -> tuple[Hex, int] | None:
    """The canonical side shared by two adjacent hexes, or ``None`` if they are not adjacent."""
    d = a.direction_to(b)
    return None if d is None else hexside(a, d)


def edge_hexes(hexes: Iterable[Hex]) -> set[Hex]:
    """The hexes of a map (a set of hexes) with at least one neighbour off the map."""
    cells = set(hexes)
    return {h for h in cells if any(n not in cells for n in h.neighbours())}


def enclosed(hexes: Iterable[Hex], walls: Iterable[Hex]) -> set[Hex]:
    """The non-wall hexes of a map from which every path of adjacent hexes to a map edge must pass
    through a wall hex: a flood fill from the non-wall edge hexes through non-wall hexes; every
    non-wall hex not reached is enclosed. (With slopes as walls these are the hilltops.)"""
    cells = set(hexes)
    wall = set(walls) & cells
    open_ = cells - wall
    seen = {h for h in edge_hexes(cells) if h in open_}
    todo = list(seen)
    while todo:
        h = todo.pop()
        for n in h.neighbours():
            if n in open_ and n not in seen:
                seen.add(n)
                todo.append(n)
    return open_ - seen


def _nudged_line(a: Hex, b: Hex, sign: float) -> list[Hex]:
    n = a.distance(b)
    if n == 0:
        return [a]
    eps_q, eps_r = 1e-6 * sign, 2e-6 * sign
    return [
        _cube_round(a.q + eps_q + (b.q - a.q) * i / n, a.r + eps_r + (b.r - a.r) * i / n)
        for i in range(n + 1)
    ]


def line_pairs(a: Hex, b: Hex) -> list[tuple[Hex, Hex]]:
    """The hexes strictly between ``a`` and ``b`` on the hex line, as pairs: ``(h, h)`` where the
    line crosses one hex, ``(h1, h2)`` (sorted) where it runs along the side between two hexes (the
    line nudged one way and the other). The same pairs, reversed, from ``b`` to ``a``."""
    one, two = _nudged_line(a, b, 1.0), _nudged_line(a, b, -1.0)
    return [(min(x, y), max(x, y)) for x, y in zip(one[1:-1], two[1:-1], strict=True)]


def first_block(a: Hex, b: Hex, blocks: Callable[[Hex], bool]) -> Hex | None:
    """The first hex (from ``a``) that blocks the line of fire from ``a`` to ``b``, or ``None``.
    Along a hexside the line is blocked only if both hexes beside it block (then the nearer-sorted
    one is named)."""
    for x, y in line_pairs(a, b):
        if blocks(x) and (x == y or blocks(y)):
            return x
    return None


def from_offset(col: int, row: int) -> Hex:
    """The hex at 0-based ``col``, ``row`` of a rectangular map of pointy-top hexes in rows, odd
    rows shifted half a hex east ("odd-r" offset coordinates)."""
    return Hex(col - (row - (row & 1)) // 2, row)


def to_offset(h: Hex) -> tuple[int, int]:
    """``(col, row)`` of ``h`` (the inverse of :func:`from_offset`)."""
    return (h.q + (h.r - (h.r & 1)) // 2, h.r)


def ccrr(h: Hex) -> str:
    """The map label "CCRR" of a hex (column then row, each from 01)."""
    c, r = to_offset(h)
    return f"{c + 1:02d}{r + 1:02d}"


def parse_ccrr(text: str) -> Hex:
    """The hex of a "CCRR" label (``ValueError`` if it is not four digits from 0101)."""
    if len(text) != 4 or not text.isdigit() or int(text[:2]) < 1 or int(text[2:]) < 1:
        raise ValueError(f"not a CCRR hex label: {text!r}")
    return from_offset(int(text[:2]) - 1, int(text[2:]) - 1)
