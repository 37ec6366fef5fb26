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
from dataclasses import dataclass

#: Axial offsets of the six neighbours, clockwise from direction 0: NE, E, SE, SW, W, NW
#: (pointy-top, r increasing southward).
DIRECTIONS: tuple[tuple[int, int], ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))


@dataclass(frozen=True, slots=True, order=True)
class Hex:
    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
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
