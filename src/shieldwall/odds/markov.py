"""Exact duels to the finish as absorbing Markov chains, in integer arithmetic.

The alternating duel (one-sided melee, as in one-hour-dark-ages) has the state
``(hits on first, hits on second, whose player-turn)``. The first unit attacks first; after each
one-sided melee the routs phase removes a unit whose hits reached its limit. Every attack's
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
from math import gcd as _gcd
from typing import Protocol, cast

from shieldwall.core.dice import Dist

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


# --- simultaneous rounds (into-the-dark) -------------------------------------------------------------

Weights = tuple[tuple[object, int], ...]


class RoundModel(Protocol):
    """The rules of one round of a two-unit melee with simultaneous casualties and morale tests.

    Outcome keys of ``opening`` and ``after_melee``: ``"A"`` (first wins), ``"B"`` (second wins),
    ``"D"`` (draw), or the new ``(first shaken, second shaken)`` flags. ``later`` is False in the
    first round (charge modifiers) and True afterwards. All weights are integers: ``casualties``
    and ``opening`` give their total, ``after_melee`` weights are out of 36 (two d6 tests).
    """

    @property
    def start(self) -> tuple[int, int]: ...

    def opening(self) -> tuple[Weights, int]: ...

    def casualties(
        self, attacker: str, figures: int, shaken: bool, later: bool
    ) -> tuple[tuple[tuple[int, int], ...], int]: ...

    def after_melee(self, fa: int, fb: int, sa: bool, sb: bool, loser: str, later: bool) -> Weights: ...


@dataclass(frozen=True, slots=True)
class RoundsSolution:
    """Exact outcome of a duel fought in simultaneous rounds (see :func:`simultaneous_duel`)."""

    first_wins: Fraction
    second_wins: Fraction
    draw: Fraction
    undecided: Fraction
    first_by_turn: Mapping[int, Fraction]
    second_by_turn: Mapping[int, Fraction]
    draw_by_turn: Mapping[int, Fraction]
    beyond: Fraction
    horizon: int

    @property
    def turns(self) -> dict[int, Fraction]:
        """P(the duel ends in round T), for T up to the horizon (only T with P > 0)."""
        out: dict[int, Fraction] = {}
        maps = (self.first_by_turn, self.second_by_turn, self.draw_by_turn)
        for t in sorted(set().union(*maps)):
            p = sum((m.get(t, Fraction(0)) for m in maps), Fraction(0))
            if p:
                out[t] = p
        return out


_FLAGS = ((False, False), (False, True), (True, False), (True, True))
_TERM = {"A": 0, "B": 1, "D": 2}
State = tuple[int, int, bool, bool]


def _round(
    model: RoundModel, fa: int, fb: int, sa: bool, sb: bool, later: bool
) -> tuple[dict[object, int], int]:
    """One round from a state: casualties on both sides, then the morale tests. Keys are terminal
    outcomes or next states ``(fa, fb, sa, sb)``; integer weights and their total."""
    out: dict[object, int] = {}
    pa, ta = model.casualties("A", fa, sa, later)
    pb, tb = model.casualties("B", fb, sb, later)
    for x, wx in pa:  # casualties on the second unit
        for y, wy in pb:  # on the first
            w = wx * wy
            fa2, fb2 = fa - y, fb - x
            if fa2 <= 0 or fb2 <= 0:
                k: object = "D" if fa2 <= 0 and fb2 <= 0 else ("A" if fb2 <= 0 else "B")
                out[k] = out.get(k, 0) + 36 * w
                continue
            loser = "A" if y > x else ("B" if x > y else "T")
            for nxt, q in model.after_melee(fa2, fb2, sa, sb, loser, later):
                key = nxt if isinstance(nxt, str) else (fa2, fb2, *nxt)  # type: ignore[misc]
                out[key] = out.get(key, 0) + w * q
    return out, ta * tb * 36


def _solve_small(c: list[list[Fraction]], b: list[list[Fraction]]) -> list[list[Fraction]]:
    """Solve (I - c) v = b exactly (Gauss-Jordan; ``c`` is substochastic and I - c invertible)."""
    n = len(c)
    m = [
        [(Fraction(1) if i == j else Fraction(0)) - c[i][j] for j in range(n)] + list(b[i]) for i in range(n)
    ]
    for col in range(n):
        piv = next(r for r in range(col, n) if m[r][col] != 0)
        m[col], m[piv] = m[piv], m[col]
        inv = 1 / m[col][col]
        m[col] = [v * inv for v in m[col]]
        for r in range(n):
            if r != col and m[r][col] != 0:
                f = m[r][col]
                m[r] = [vr - f * vc for vr, vc in zip(m[r], m[col], strict=True)]
    return [row[n:] for row in m]


def _lcm(a: int, b: int) -> int:
    return a // _gcd(a, b) * b


def simultaneous_duel(
    model: RoundModel, tail: Fraction = DEFAULT_TAIL, max_turns: int = DEFAULT_MAX_TURNS
) -> RoundsSolution:
    """Solve a duel of simultaneous rounds exactly.

    State: ``(figures of first, figures of second, first shaken, second shaken)``. Figures never
    grow, so the chain is block-triangular: the only cycles are among the four shaken states of one
    ``(figures, figures)`` block (a round with no casualties). The absorption probabilities (first
    wins, second wins, draw) are found block by block, fewest figures first, each block a 4x4 exact
    linear solve; a block's values are kept as integers over one block denominator so that the
    sums over the rounds' outcomes are integer arithmetic. A set of states from which there is no
    way out is "undecided". The turn distribution is propagated round by round, with integer
    weights, up to a horizon where the unfinished (and not undecided) mass is below ``tail``; the
    unfinished mass is reported exactly as ``beyond``.
    """
    na, nb = model.start
    # block (fa, fb) -> (numerators[state index][outcome], denominator)
    blocks: dict[tuple[int, int], tuple[list[list[int]], int]] = {}
    rounds: dict[State, tuple[dict[object, int], int]] = {}
    for fa in range(1, na + 1):
        for fb in range(1, nb + 1):
            c = [[Fraction(0)] * 4 for _ in range(4)]
            b = [[Fraction(0)] * 3 for _ in range(4)]
            for i, (sa, sb) in enumerate(_FLAGS):
                tr, den = rounds[(fa, fb, sa, sb)] = _round(model, fa, fb, sa, sb, True)
                term = [0, 0, 0]
                groups: dict[tuple[int, int], list[int]] = {}
                for key, t in tr.items():
                    if isinstance(key, str):
                        term[_TERM[key]] += t
                        continue
                    fa2, fb2, sa2, sb2 = cast(State, key)
                    j = _FLAGS.index((sa2, sb2))
                    if (fa2, fb2) == (fa, fb):
                        c[i][j] += Fraction(t, den)
                        continue
                    nums = blocks[(fa2, fb2)][0][j]
                    g = groups.setdefault((fa2, fb2), [0, 0, 0])
                    g[0] += t * nums[0]
                    g[1] += t * nums[1]
                    g[2] += t * nums[2]
                lcm = 1
                for blk in groups:
                    lcm = _lcm(lcm, blocks[blk][1])
                acc = [term[k] * lcm for k in range(3)]
                for blk, g in groups.items():
                    f = lcm // blocks[blk][1]
                    for k in range(3):
                        acc[k] += g[k] * f
                b[i] = [Fraction(acc[k], den * lcm) for k in range(3)]
            # states that can leave the block (directly, or through another that can)
            can_leave = {i for i in range(4) if sum(c[i]) < 1}
            grew = True
            while grew:
                grew = False
                for i in range(4):
                    if i not in can_leave and any(c[i][j] for j in can_leave):
                        can_leave.add(i)
                        grew = True
            live = sorted(can_leave)
            sol = _solve_small([[c[i][j] for j in live] for i in live], [b[i] for i in live]) if live else []
            vals = [sol[live.index(i)] if i in can_leave else [Fraction(0)] * 3 for i in range(4)]
            delta = 1
            for row in vals:
                for v in row:
                    delta = _lcm(delta, v.denominator)
            blocks[(fa, fb)] = (
                [[v.numerator * (delta // v.denominator) for v in row] for row in vals],
                delta,
            )

    def value(state: State) -> list[Fraction]:
        nums, delta = blocks[(state[0], state[1])]
        return [Fraction(n, delta) for n in nums[_FLAGS.index((state[2], state[3]))]]

    # the opening and the first round (charge modifiers); from the second round the kernel is fixed
    opening, t_open = model.opening()
    first = [Fraction(0)] * 3
    mass: dict[State, Fraction] = {}
    for o, wo in opening:
        if isinstance(o, str):
            first[_TERM[o]] += Fraction(wo, t_open)
            continue
        sa, sb = cast(tuple[bool, bool], o)
        tr, den = _round(model, na, nb, sa, sb, False)
        for key, t in tr.items():
            p = Fraction(wo * t, t_open * den)
            if isinstance(key, str):
                first[_TERM[key]] += p
            else:
                st = cast(State, key)
                mass[st] = mass.get(st, Fraction(0)) + p
    total = list(first)
    for s_, p in mass.items():
        vals_s = value(s_)
        for k in range(3):
            total[k] += p * vals_s[k]
    p1, p2, pd = total
    undecided = 1 - p1 - p2 - pd
    by_turn: list[dict[int, Fraction]] = [{}, {}, {}]
    for k in range(3):
        if first[k]:
            by_turn[k][1] = first[k]

    # the turn distribution: integer weights over one denominator per round
    common = 1
    for _, d in rounds.values():
        common = _lcm(common, d)
    int_rounds = {s_: [(k, t * (common // d)) for k, t in tr.items()] for s_, (tr, d) in rounds.items()}
    den = 1
    for p in mass.values():
        den = _lcm(den, p.denominator)
    w = {s_: p.numerator * (den // p.denominator) for s_, p in mass.items()}
    turn = 1
    beyond = Fraction(0)
    while w:
        ongoing = Fraction(sum(w.values()), den)
        if turn >= max_turns or ongoing - undecided < tail:
            beyond = ongoing
            break
        turn += 1
        nw: dict[State, int] = {}
        absorbed = [0, 0, 0]
        for s_, ws in w.items():
            for key, q in int_rounds[s_]:
                if isinstance(key, str):
                    absorbed[_TERM[key]] += ws * q
                else:
                    st = cast(State, key)
                    nw[st] = nw.get(st, 0) + ws * q
        den *= common
        for k in range(3):
            if absorbed[k]:
                by_turn[k][turn] = Fraction(absorbed[k], den)
        w = {s_: x for s_, x in nw.items() if x}
    return RoundsSolution(p1, p2, pd, undecided, by_turn[0], by_turn[1], by_turn[2], beyond, turn)
