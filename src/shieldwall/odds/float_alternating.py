"""An alternating duel (``markov.alternating_duel``) solved in float64, with an a priori bound on its
rounding error (:mod:`shieldwall.odds.float_solution`).

The same chain and method as the exact solver: the hits piling up on each unit are two
independent chains interleaved in time, propagated turn by turn until the duel is over (or the
mass still fighting is below ``tail``); when both units can do zero hits the win probabilities
come from the absorption equations of the full-turn chain with its self-loop removed (a triangular
system solved backwards). Every probability is formed from the integer weights with additions,
multiplications and divisions of non-negative numbers only (``1 - P(both miss)`` is formed exactly
in integers), so :func:`error_bound` applies.
"""

from __future__ import annotations

from functools import lru_cache

from shieldwall.core.dice import Dist
from shieldwall.odds.float_solution import FloatDuel, gamma


def _probs(d: Dist) -> tuple[tuple[int, float], ...]:
    total = d.total
    return tuple((x, w / total) for x, w in d.items())


def error_bound(
    first_hits: Dist, second_hits: Dist, first_limit: int, second_limit: int, turns: int, absorbed: bool
) -> float:
    """Roundings on any path, counted generously (sums are sequential: ``k`` terms, ``k``
    roundings): a pile's cell after ``k`` turns has at most ``k * (outcomes + 1)``; a turn's
    result adds the removed mass (at most ``limit * outcomes`` terms), the survival mass
    (``limit`` terms) and two products; a win probability sums the turns. The absorption: ``limit1
    + limit2`` steps, each a sum of at most ``(outcomes + 1) * outcomes`` products of a rounded
    weight."""
    k = max(len(first_hits), len(second_hits)) + 1
    lim = max(first_limit, second_limit)
    n = turns * (k + 1) + lim * (k + 1) + 4 + turns
    if absorbed:
        n = max(n, (first_limit + second_limit + 2) * (k * k + 3) + 4)
    return gamma(n)


def solve(
    opening: Dist,
    first_hits: Dist,
    second_hits: Dist,
    first_limit: int,
    second_limit: int,
    tail: float = 1e-15,
    max_turns: int = 1000,
) -> FloatDuel:
    """The alternating duel in float64 (arguments as ``markov.alternating_duel``; ``opening`` is
    the first unit's first attack)."""
    if first_limit < 1 or second_limit < 1:
        raise ValueError("hit limits must be at least 1")
    return _solve(opening, first_hits, second_hits, first_limit, second_limit, tail, max_turns)


def _step(alive: list[float], items: tuple[tuple[int, float], ...], limit: int) -> tuple[list[float], float]:
    new = [0.0] * limit
    removed = 0.0
    for h, w in enumerate(alive):
        if not w:
            continue
        for x, p in items:
            nh = h + x
            if nh >= limit:
                removed += w * p
            else:
                new[nh] += w * p
    return new, removed


@lru_cache(maxsize=4096)
def _solve(
    opening: Dist,
    first_hits: Dist,
    second_hits: Dist,
    first_limit: int,
    second_limit: int,
    tail: float,
    max_turns: int,
) -> FloatDuel:
    o_items, a_items, b_items = _probs(opening), _probs(first_hits), _probs(second_hits)
    on_second = [0.0] * second_limit
    on_second[0] = 1.0
    on_first = [0.0] * first_limit
    on_first[0] = 1.0
    first_by: dict[int, float] = {}
    second_by: dict[int, float] = {}
    alive1 = 1.0
    stuck = first_hits.keys() == {0} and second_hits.keys() == {0}
    can_stall = 0 in first_hits and 0 in second_hits
    k = 0
    beyond = 0.0
    while True:
        k += 1
        on_second, removed2 = _step(on_second, o_items if k == 1 else a_items, second_limit)
        if removed2 and alive1:
            first_by[k] = removed2 * alive1
        alive2 = sum(on_second, 0.0)
        on_first, removed1 = _step(on_first, b_items, first_limit)
        alive1 = sum(on_first, 0.0)
        if removed1 and alive2:
            second_by[k] = alive2 * removed1
        ongoing = alive1 * alive2
        if not ongoing:
            break
        if stuck or k >= max_turns or (can_stall and ongoing < tail):
            beyond = ongoing
            break
    if beyond:
        p1, p2 = _absorption(opening, first_hits, second_hits, first_limit, second_limit)
    else:
        p1, p2 = sum(first_by.values(), 0.0), sum(second_by.values(), 0.0)
    # only when neither unit can ever hit after the opening attack (then nothing else happens)
    undecided = 1.0 - p1 - p2 if stuck else 0.0
    bound = error_bound(first_hits, second_hits, first_limit, second_limit, k, bool(beyond))
    return FloatDuel(p1, p2, undecided, first_by, second_by, beyond, k, bound)


def _absorption(
    opening: Dist, first_hits: Dist, second_hits: Dist, first_limit: int, second_limit: int
) -> tuple[float, float]:
    """(P(first wins), P(second wins)) from the absorption equations of the full-turn chain with
    its self-loop removed (``markov.absorption_probabilities``, in float64)."""
    L1, L2 = first_limit, second_limit
    TA, TB = first_hits.total, second_hits.total
    a0, b0 = first_hits.get(0, 0), second_hits.get(0, 0)
    dp = TA * TB - a0 * b0  # exact: P(some hit in a full turn) = dp / (TA * TB)
    V1 = [[0.0] * L2 for _ in range(L1)]
    V2 = [[0.0] * L2 for _ in range(L1)]
    if dp:
        # each transition of the jump chain: weight / dp, one rounding
        jump = [
            (x, y, wx * wy / dp) for x, wx in first_hits.items() for y, wy in second_hits.items() if x or y
        ]
        win_now = [(x, wx * TB / dp) for x, wx in first_hits.items()]
        for h1 in range(L1 - 1, -1, -1):
            row1, row2 = V1[h1], V2[h1]
            for h2 in range(L2 - 1, -1, -1):
                n1 = n2 = 0.0
                for x, p in win_now:
                    if h2 + x >= L2:
                        n1 += p
                for x, y, p in jump:
                    c = h2 + x
                    if c >= L2:
                        continue
                    r = h1 + y
                    if r >= L1:
                        n2 += p
                    else:
                        n1 += p * V1[r][c]
                        n2 += p * V2[r][c]
                row1[h2], row2[h2] = n1, n2
    # the first turn, with the opening attack
    n1 = n2 = 0.0
    total = opening.total * TB
    for x, wx in opening.items():
        if x >= L2:
            n1 += wx * TB / total
            continue
        for y, wy in second_hits.items():
            p = wx * wy / total
            if y >= L1:
                n2 += p
            else:
                n1 += p * V1[y][x]
                n2 += p * V2[y][x]
    return n1, n2
