"""Exact duels to the finish as absorbing Markov chains, in integer arithmetic.

The alternating duel (the two units take turns, each making one one-sided attack) has the state
``(hits on first, hits on second, whose player-turn)``. The first unit attacks first; after each
attack a unit whose hits reached its limit is removed. Every attack's
distribution is fixed by the situation, so the hits piling up on each unit form two independent
chains interleaved in time, and the joint chain factorises exactly:

* ``P(first wins in turn k) = f1(k) * S1(k-1)`` where ``f1(k)`` is the probability that the
  second unit reaches its limit exactly at the first unit's k-th attack and ``S1(k-1)`` that the
  first unit survives the second's first ``k-1`` attacks;
* ``P(second wins in turn k) = S2(k) * f2(k)`` likewise;
* ``P(still fighting after turn k) = S1(k) * S2(k)``.

Both chains are propagated with integer weights over one common denominator per step (no
``Fraction`` arithmetic inside the loop). When an attack can do zero hits on *both* sides, a
full turn can leave the state unchanged, the number of turns has an infinite (geometric) tail and
the propagation stops at a horizon where the remaining mass is below ``tail``; that remaining mass
is reported exactly. The win probabilities are then found exactly by solving the absorption
equations of the full-turn chain with the self-loop removed (a triangular system, solved
backwards in integer arithmetic), and ``undecided`` (the duel never ends) is what is left.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from shieldwall.core.dice import Dist

if TYPE_CHECKING:
    pass

DEFAULT_TAIL = Fraction(1, 10**15)
DEFAULT_MAX_TURNS = 1000


@dataclass(frozen=True, slots=True)
class DuelSolution:
    """Exact outcome of a duel to the finish (see :func:`alternating_duel`)."""

    first_wins: Fraction
    second_wins: Fraction
    undecided: Fraction
    first_by_turn: Mapping[int, Fraction]
    second_by_turn: Mapping[int, Fraction]
    beyond: Fraction
    horizon: int

    @property
    def turns(self) -> dict[int, Fraction]:
        """P(the duel ends in full turn T), for T up to the horizon (only T with P > 0)."""
        out: dict[int, Fraction] = {}
        for t in sorted(set(self.first_by_turn) | set(self.second_by_turn)):
            p = self.first_by_turn.get(t, Fraction(0)) + self.second_by_turn.get(t, Fraction(0))
            if p:
                out[t] = p
        return out


class _Pile:
    """Hits piling up on one unit: alive weight by hits taken (``< limit``), common denominator."""

    __slots__ = ("alive", "den", "limit")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.alive: list[int] = [0] * limit
        self.alive[0] = 1
        self.den = 1

    def step(self, items: tuple[tuple[int, int], ...], total: int) -> int:
        """One attack on this unit; returns the weight removed at this step (over the new den)."""
        limit = self.limit
        new = [0] * limit
        removed = 0
        for h, w in enumerate(self.alive):
            if not w:
                continue
            for x, wx in items:
                nh = h + x
                if nh >= limit:
                    removed += w * wx
                else:
                    new[nh] += w * wx
        self.alive = new
        self.den *= total
        return removed

    def alive_mass(self) -> int:
        return sum(self.alive)


def _items(d: Dist) -> tuple[tuple[int, int], ...]:
    return tuple(d.items())


def alternating_duel(
    first_hits: Dist,
    second_hits: Dist,
    first_limit: int,
    second_limit: int,
    first_opening: Dist | None = None,
    tail: Fraction = DEFAULT_TAIL,
    max_turns: int = DEFAULT_MAX_TURNS,
) -> DuelSolution:
    """Solve an alternating one-sided duel exactly.

    ``first_hits`` / ``second_hits``: hits each unit deals with one attack; ``first_limit`` /
    ``second_limit``: hits at which the first / second unit is removed; ``first_opening``: the
    first unit's first attack, if different (a charge into a flank or rear, after which the target
    turns to face). A turn is the first unit's player-turn followed by the second's.

    >>> d = Dist({1: 1})                     # one hit per attack, every time
    >>> s = alternating_duel(d, d, 2, 2)     # removed at 2 hits: the first unit wins in turn 2
    >>> s.first_wins, s.turns
    (Fraction(1, 1), {2: Fraction(1, 1)})
    >>> s = alternating_duel(Dist({0: 1, 1: 1}), Dist({0: 1}), 1, 1)   # a coin flip each turn
    >>> s.first_wins, s.horizon, 0 < s.beyond < Fraction(1, 10**15)   # tail cut at the horizon
    (Fraction(1, 1), 50, True)
    """
    if first_limit < 1 or second_limit < 1:
        raise ValueError("hit limits must be at least 1")
    return _solve(
        first_opening or first_hits, first_hits, second_hits, first_limit, second_limit, tail, max_turns
    )


@lru_cache(maxsize=4096)
def _solve(
    opening: Dist,
    first_hits: Dist,
    second_hits: Dist,
    first_limit: int,
    second_limit: int,
    tail: Fraction,
    max_turns: int,
) -> DuelSolution:
    on_second = _Pile(second_limit)  # hits the first unit deals
    on_first = _Pile(first_limit)  # hits the second unit deals
    o_items, a_items, b_items = _items(opening), _items(first_hits), _items(second_hits)
    first_by: dict[int, Fraction] = {}
    second_by: dict[int, Fraction] = {}
    alive1, den1 = 1, 1  # survival of the first unit after k-1 of the second's attacks
    stuck = first_hits.keys() == {0} and second_hits.keys() == {0}
    # Without a zero-hit outcome on both sides every full turn adds hits, so the chain is finite.
    can_stall = 0 in first_hits and 0 in second_hits
    k = 0
    beyond = Fraction(0)
    while True:
        k += 1
        items, total = (o_items, opening.total) if k == 1 else (a_items, first_hits.total)
        removed2 = on_second.step(items, total)
        if removed2 and alive1:
            first_by[k] = Fraction(removed2 * alive1, on_second.den * den1)
        alive2 = on_second.alive_mass()
        removed1 = on_first.step(b_items, second_hits.total)
        alive1, den1 = on_first.alive_mass(), on_first.den
        if removed1 and alive2:
            second_by[k] = Fraction(alive2 * removed1, on_second.den * den1)
        ongoing_num, ongoing_den = alive1 * alive2, den1 * on_second.den
        if not ongoing_num:
            break
        if (
            stuck
            or k >= max_turns
            or (can_stall and ongoing_num * tail.denominator < tail.numerator * ongoing_den)
        ):
            beyond = Fraction(ongoing_num, ongoing_den)
            break
    if beyond:
        p1, p2 = absorption_probabilities(opening, first_hits, second_hits, first_limit, second_limit)
    else:
        p1 = sum(first_by.values(), Fraction(0))
        p2 = sum(second_by.values(), Fraction(0))
    return DuelSolution(p1, p2, 1 - p1 - p2, first_by, second_by, beyond, k)


def absorption_probabilities(
    opening: Dist, first_hits: Dist, second_hits: Dist, first_limit: int, second_limit: int
) -> tuple[Fraction, Fraction]:
    """Exact (P(first wins), P(second wins)) by solving the absorption equations.

    The state at the start of a full turn is ``(h1, h2)`` (hits on first, hits on second). Drop
    the self-loop (both attacks do zero hits) and renormalise: the jump chain only moves to states
    with more hits, so the equations are triangular. With ``D = T_a*T_b - w_a(0)*w_b(0)`` and
    ``K = limit1 + limit2`` every value ``v(s) * D**K`` is an integer (``v(s)`` is a sum over jump
    paths of at most ``K`` steps, each with denominator ``D``), so the backward solution is done in
    exact integer arithmetic with exact divisions.
    """
    L1, L2 = first_limit, second_limit
    A, B = _items(first_hits), _items(second_hits)
    TA, TB = first_hits.total, second_hits.total
    a0, b0 = first_hits.get(0, 0), second_hits.get(0, 0)
    dp = TA * TB - a0 * b0
    V1 = [[0] * L2 for _ in range(L1)]
    V2 = [[0] * L2 for _ in range(L1)]
    scale = 1
    if dp:
        scale = dp ** (L1 + L2)
        win_now = TB * scale
        for h1 in range(L1 - 1, -1, -1):
            row1, row2 = V1[h1], V2[h1]
            for h2 in range(L2 - 1, -1, -1):
                n1 = n2 = 0
                for x, wx in A:
                    if h2 + x >= L2:
                        n1 += wx * win_now
                        continue
                    c = h2 + x
                    for y, wy in B:
                        w = wx * wy
                        r = h1 + y
                        if r >= L1:
                            n2 += w * scale
                        elif x or y:
                            n1 += w * V1[r][c]
                            n2 += w * V2[r][c]
                q1, r1 = divmod(n1, dp)
                q2, r2 = divmod(n2, dp)
                assert not r1 and not r2, "absorption values must be exact"
                row1[h2], row2[h2] = q1, q2
    # the first turn, with the opening attack
    n1 = n2 = 0
    for x, wx in _items(opening):
        if x >= L2:
            n1 += wx * TB * scale
            continue
        for y, wy in B:
            w = wx * wy
            if y >= L1:
                n2 += w * scale
            else:
                n1 += w * V1[y][x]
                n2 += w * V2[y][x]
    den = opening.total * TB * scale
    return Fraction(n1, den), Fraction(n2, den)
