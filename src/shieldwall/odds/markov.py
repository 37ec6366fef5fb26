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
from math import gcd as _gcd
from operator import itemgetter, mul
from typing import TYPE_CHECKING, Any, Protocol, cast

from shieldwall.core.dice import Dist
from shieldwall.odds import forward_absorb

if TYPE_CHECKING:
    from shieldwall.odds.results import Progress

DEFAULT_TAIL = Fraction(1, 10**15)
DEFAULT_MAX_TURNS = 1000
#: The most work ``simultaneous_duel`` takes on: the rounds' casualty pairs over all states (one
#: exact product each) times the diagonals of the chain (the exact numbers grow by a step per
#: diagonal). Measured (docs/odds.md, "Big units"): 24 v 24 figures 1.6 million, 0.23 s; 48 v 48
#: 40 million, 6.5 s and 0.4 GB; 64 v 64 161 million, 12 s and 0.6 GB; 400 v 12 903 million, 69 s
#: and 4.6 GB; 1000 v 12 passed 16 GB. Bigger duels are refused with an error that says so, not
#: left to exhaust the memory.
DUEL_WORK_LIMIT = 250_000_000


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


# --- simultaneous rounds: both units strike at once, then morale tests ----------------------------

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


def _det(m: list[list[int]]) -> int:
    """Determinant of a small integer matrix (cofactor expansion; n <= 4)."""
    n = len(m)
    if n == 1:
        return m[0][0]
    if n == 2:
        return m[0][0] * m[1][1] - m[0][1] * m[1][0]
    total = 0
    for j in range(n):
        if m[0][j]:
            minor = [row[:j] + row[j + 1 :] for row in m[1:]]
            total += (-1) ** j * m[0][j] * _det(minor)
    return total


def _adjugate4(m: tuple[tuple[int, ...], ...]) -> tuple[list[list[int]], int]:
    """``(adj(M), det(M))`` of a 4x4 integer matrix by Laplace expansion along its first two rows
    (the twelve 2x2 minors of rows 0-1 and rows 2-3, then the 3x3 cofactors from them).

    >>> _adjugate4(((2, 0, 0, 0), (0, 3, 0, 0), (0, 0, 5, 0), (0, 0, 0, 7)))
    ([[105, 0, 0, 0], [0, 70, 0, 0], [0, 0, 42, 0], [0, 0, 0, 30]], 210)
    """
    (a00, a01, a02, a03), (a10, a11, a12, a13), (a20, a21, a22, a23), (a30, a31, a32, a33) = m
    s0 = a00 * a11 - a10 * a01
    s1 = a00 * a12 - a10 * a02
    s2 = a00 * a13 - a10 * a03
    s3 = a01 * a12 - a11 * a02
    s4 = a01 * a13 - a11 * a03
    s5 = a02 * a13 - a12 * a03
    c5 = a22 * a33 - a32 * a23
    c4 = a21 * a33 - a31 * a23
    c3 = a21 * a32 - a31 * a22
    c2 = a20 * a33 - a30 * a23
    c1 = a20 * a32 - a30 * a22
    c0 = a20 * a31 - a30 * a21
    det = s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0
    adj = [
        [a11 * c5 - a12 * c4 + a13 * c3, -a01 * c5 + a02 * c4 - a03 * c3,
         a31 * s5 - a32 * s4 + a33 * s3, -a21 * s5 + a22 * s4 - a23 * s3],
        [-a10 * c5 + a12 * c2 - a13 * c1, a00 * c5 - a02 * c2 + a03 * c1,
         -a30 * s5 + a32 * s2 - a33 * s1, a20 * s5 - a22 * s2 + a23 * s1],
        [a10 * c4 - a11 * c2 + a13 * c0, -a00 * c4 + a01 * c2 - a03 * c0,
         a30 * s4 - a31 * s2 + a33 * s0, -a20 * s4 + a21 * s2 - a23 * s0],
        [-a10 * c3 + a11 * c1 - a12 * c0, a00 * c3 - a01 * c1 + a02 * c0,
         -a30 * s3 + a31 * s1 - a32 * s0, a20 * s3 - a21 * s1 + a22 * s0],
    ]  # fmt: skip
    return adj, det


@lru_cache(maxsize=4096)
def _adjugate(a: tuple[tuple[int, ...], ...]) -> tuple[tuple[tuple[int, ...], ...], int]:
    """``(adj(A), det(A))`` of a small integer matrix, with ``det > 0`` (``A^-1 = adj / det``).

    >>> _adjugate(((2, -1), (-1, 2)))
    (((2, 1), (1, 2)), 3)
    """
    n = len(a)
    if n == 4:
        adj4, det4 = _adjugate4(a)
        if det4 < 0:
            det4, adj4 = -det4, [[-v for v in row] for row in adj4]
        if not det4:  # pragma: no cover - (I - C) is invertible on the states that can leave
            raise ArithmeticError("singular block")
        return tuple(tuple(r) for r in adj4), det4
    rows = [list(r) for r in a]
    adj = [[0] * n for _ in range(n)]
    if n == 1:
        adj[0][0] = 1
    else:
        for i in range(n):
            for j in range(n):
                minor = [row[:j] + row[j + 1 :] for r, row in enumerate(rows) if r != i]
                adj[j][i] = (-1) ** (i + j) * _det(minor)
    det = sum(rows[0][j] * adj[j][0] for j in range(n))
    if det < 0:
        det, adj = -det, [[-v for v in row] for row in adj]
    if not det:  # pragma: no cover - (I - C) is invertible on the states that can leave
        raise ArithmeticError("singular block")
    return tuple(tuple(r) for r in adj), det


def _lcm(a: int, b: int) -> int:
    return a // _gcd(a, b) * b


#: outcome key of ``after_melee`` -> index (first wins, second wins, draw)
_FLAG_INDEX = {f: i for i, f in enumerate(_FLAGS)}


_LOSER = "ABT"  # intermediate loser code: 0 the first unit lost the round, 1 the second, 2 a tie


def _getters(
    rows: list[tuple[int, list[int], list[int]]] | list[tuple[list[int], list[int]]],
    n: int | None,
    zero: int,
) -> list[tuple[itemgetter[Any], list[int]]]:
    """Pulls ``(sources, weights)`` as ``(itemgetter of the sources, weights)``, each getter padded
    with two ``zero`` indices (so it always returns a tuple). With ``n``, ``rows`` are ``(target,
    sources, weights)`` and the result has one pull per target ``0 .. n-1`` (none: no sources)."""
    if n is None:
        return [(itemgetter(*srcs, zero, zero), ws) for srcs, ws in rows]  # type: ignore[misc]
    out: list[tuple[itemgetter[Any], list[int]]] = [(itemgetter(zero, zero), [])] * n
    for j, srcs, ws in rows:  # type: ignore[misc]
        out[j] = (itemgetter(*srcs, zero, zero), ws)
    return out


def simultaneous_duel(
    model: RoundModel,
    tail: Fraction = DEFAULT_TAIL,
    max_turns: int = DEFAULT_MAX_TURNS,
    *,
    merge: bool | None = None,
    limbs: bool | None = None,
    progress: Progress | None = None,
) -> RoundsSolution:
    """Solve a duel of simultaneous rounds exactly.

    State: ``(figures of first, figures of second, first shaken, second shaken)``. A round has two
    stages: the casualties of both sides, which lead from a state to an *intermediate* state
    ``(figures, figures, the old shaken flags, who lost the round)`` (or to a unit destroyed), and
    the morale tests, which depend only on the intermediate state and lead to the next state (or to
    a rout). Figures never grow, so the chain is block-triangular: the only cycles are among the
    four shaken states of one ``(figures, figures)`` block (a round with no casualties). The
    absorption probabilities (first wins, second wins, draw) are found from the duel's start (the
    states after the first round) by pushing its mass down the blocks in order of the diagonal
    ``d = figures + figures`` (a round's casualties only lead to lower diagonals), each block a small
    exact linear system solved in integers with the adjugate (``u = e adj(A) / det(A)``; ``A`` is a
    non-singular M-matrix, so ``adj(A) >= 0``), one numerator per state over one denominator per
    diagonal (:mod:`shieldwall.odds.forward_absorb`). No ``Fraction`` and no big gcd inside the
    loops. (A backward solve, three values per state packed into one integer, is the test oracle
    ``tests/odds/packed_rounds.py``.)

    States with no way out are "undecided". The round distribution is propagated with integer
    weights over one common denominator per round, through the intermediate states (the two stages
    of a round: fewer products than state-to-state transitions), up to a horizon where the
    unfinished (and not undecided) mass is below ``tail``; the unfinished mass is reported exactly
    as ``beyond``. With ``max_turns <= 1`` only the win probabilities are computed. ``merge``
    forces (True) or forbids (False) merging the two stages of the round distribution into
    state-to-state transitions (default: whichever costs fewer operations; the results are the same).
    ``limbs`` (default: unless ``merge`` is False) propagates the two stages of a round in numpy
    integer limbs (:mod:`shieldwall.odds.round_limbs`), the same integers many products at a time;
    it falls back to the Python loop when the weights are too wide for it. ``progress(stage, done,
    total)``, if given, is called as the work advances: ``("win probabilities", diagonals done,
    diagonals)``, then ``("turns", turn, None)`` after each round of the round distribution.
    """
    na, nb = model.start
    n_states = na * nb * 4
    n_inter = na * nb * 12
    rd = max_turns > 1  # the round distribution is asked for

    # the later rounds' casualties, per figures and shaken flag: (items, total)
    Cas = tuple[tuple[tuple[int, int], ...], int]

    def later(who: str, n: int) -> list[tuple[Cas, Cas]]:
        no: Cas = ((), 1)
        return [(no, no)] + [
            (model.casualties(who, f, False, True), model.casualties(who, f, True, True))
            for f in range(1, n + 1)
        ]

    cas_a, cas_b = later("A", na), later("B", nb)
    lcm_a = lcm_b = 1
    max_a = max_b = 0
    kmax = 0
    for pair in cas_a[1:]:
        for items, t in pair:
            lcm_a, max_a = _lcm(lcm_a, t), max(max_a, t)
            kmax = max(kmax, *(x for x, _ in items))
    for pair in cas_b[1:]:
        for items, t in pair:
            lcm_b, max_b = _lcm(lcm_b, t), max(max_b, t)
            kmax = max(kmax, *(x for x, _ in items))
    kmax *= 2
    work = (
        sum(len(items) for pair in cas_a[1:] for items, _ in pair)
        * sum(len(items) for pair in cas_b[1:] for items, _ in pair)
        * (na + nb)
    )
    if work > DUEL_WORK_LIMIT:
        raise ValueError(
            f"a duel of {na} v {nb} figures is too big to solve exactly here: about {work:,} steps "
            f"of exact arithmetic, over the limit of {DUEL_WORK_LIMIT:,} (64 v 64 figures take "
            "about 161 million: 12 s and 0.6 GB); fewer figures fighting would do"
        )
    # the widest round (a state's terminal weights are at most its round total)
    den_bits = (max_a * max_b * 36).bit_length()
    # one denominator for every state's round (the round distribution's weights)
    common = lcm_a * lcm_b * 36

    kb = den_bits + 2  # a state's terminal weights (each at most its round total), packed
    kmask = (1 << kb) - 1
    k2 = 2 * kb

    # intermediate states t = ((fa - 1) * nb + (fb - 1)) * 12 + flags * 3 + loser: the morale tests'
    # terminal weights out of 36, packed ``kb`` bits a field (-1: not yet), and the states reached
    # with their weights out of 36
    c_term: list[int] = [-1] * n_inter
    c_next: list[list[tuple[int, int]]] = [[]] * n_inter  # (flags index, weight) in cell t // 12
    # for the round distribution: per intermediate, its sources (states) and weights over ``common``
    src1: list[list[int]] = [[] for _ in range(n_inter)] if rd else []
    wt1: list[list[int]] = [[] for _ in range(n_inter)] if rd else []
    # per state, the weights of the rounds that destroy a unit (first, second, both), over common
    dterm: list[tuple[int, int, int]] = [(0, 0, 0)] * n_states

    # the tests' outcomes decoded once per distinct ``after_melee`` result (keyed by identity; the
    # result is kept alive beside its decoding): packed terminal weights, (flags, weight) pairs
    decoded: dict[int, tuple[Weights, int, list[tuple[int, int]]]] = {}

    def combo(t: int) -> int:
        cell, r = divmod(t, 12)
        j, lo = divmod(r, 3)
        fa2, fb2 = divmod(cell, nb)
        sa, sb = _FLAGS[j]
        aft = model.after_melee(fa2 + 1, fb2 + 1, sa, sb, _LOSER[lo], True)
        got = decoded.get(id(aft))
        if got is None or got[0] is not aft:
            term = [0, 0, 0]
            flags = [0, 0, 0, 0]
            for nxt, q in aft:
                if nxt.__class__ is str:
                    term[_TERM[nxt]] += q
                else:
                    flags[_FLAG_INDEX[nxt]] += q  # type: ignore[index]
            got = decoded[id(aft)] = (
                aft,
                term[0] | term[1] << kb | term[2] << k2,
                [(jj, q) for jj, q in enumerate(flags) if q],
            )
        c_next[t] = got[2]
        ct = c_term[t] = got[1]
        return ct

    def sidx(fa: int, fb: int, j: int) -> int:
        return ((fa - 1) * nb + (fb - 1)) * 4 + j

    # --- the opening and the first round (charge modifiers): where the later rounds start ------
    opening, t_open = model.opening()
    firsts: list[tuple[object, int, dict[object, int], int]] = []
    for o, wo in opening:
        if isinstance(o, str):
            firsts.append((o, wo, {}, 1))
            continue
        sa, sb = cast(tuple[bool, bool], o)
        tr, den = _round(model, na, nb, sa, sb, False)
        keyed: dict[object, int] = {}
        for key, w in tr.items():
            if not isinstance(key, str):
                fa2, fb2, sa2, sb2 = cast(State, key)
                key = sidx(fa2, fb2, _FLAG_INDEX[(sa2, sb2)])
            keyed[key] = w
        firsts.append((o, wo, keyed, den))

    # --- the absorption (win probabilities) and the value of the first round -------------------
    first = [Fraction(0)] * 3  # ended by the opening or the first round
    mass: dict[int, Fraction] = {}
    # the start mass pushed down the blocks (:mod:`shieldwall.odds.forward_absorb`)
    lcm_den = 1
    for o, _, _, den in firsts:
        if not isinstance(o, str):
            lcm_den = _lcm(lcm_den, den)
    init = [0] * n_states  # the start mass over t_open * lcm_den
    for o, wo, tr, den in firsts:
        if isinstance(o, str):
            first[_TERM[o]] += Fraction(wo, t_open)
            continue
        f = wo * (lcm_den // den)
        for key, t in tr.items():
            if isinstance(key, str):
                first[_TERM[key]] += Fraction(wo * t, t_open * den)
                continue
            k = cast(int, key)
            mass[k] = mass.get(k, Fraction(0)) + Fraction(wo * t, t_open * den)
            init[k] += f * t
    ended, f_all = forward_absorb.absorb(
        (na, nb), (cas_a, cas_b), c_term, c_next, combo, _adjugate, kb, kmax, init,
        (src1, wt1, dterm, common) if rd else None, progress,
    )  # fmt: skip
    total = [Fraction(v, t_open * lcm_den * f_all) for v in ended]
    for k in range(3):
        total[k] += first[k]
    p1, p2, pd = total
    undecided = 1 - p1 - p2 - pd
    by_turn: list[dict[int, Fraction]] = [{}, {}, {}]
    for k in range(3):
        if first[k]:
            by_turn[k][1] = first[k]

    if not rd or not mass:  # no round distribution asked for (or none left)
        ongoing = sum(mass.values(), Fraction(0))
        return RoundsSolution(p1, p2, pd, undecided, by_turn[0], by_turn[1], by_turn[2], ongoing, 1)

    # --- the round distribution: integer weights over one denominator per round ---------------
    # stage 1: state -> intermediate (the casualties); stage 2: intermediate -> state (the tests)
    # (only the states the duel can reach from its first round have sources: ``seen``)
    used = [t for t in range(n_inter) if src1[t]]
    s1 = [src1[t] for t in used]
    w1 = [wt1[t] for t in used]
    den_w = 1
    for p in mass.values():
        den_w = _lcm(den_w, p.denominator)
    # the weights, with one more entry (index n_states) that is always 0
    weights = [0] * (n_states + 1)
    for k, p in mass.items():
        weights[k] = p.numerator * (den_w // p.denominator)
    if limbs is None:
        limbs = merge is not False
    if limbs:  # in numpy limbs, when the weights allow it
        from shieldwall.odds import round_limbs

        arrays = round_limbs.transitions(used, s1, w1, c_next, c_term, dterm, kb, n_states + 1, common)
        got = None
        if arrays is not None:
            got = round_limbs.propagate(
                *arrays, weights, den_w, common, undecided, tail, max_turns, by_turn, progress=progress
            )
        if got is not None:
            turn, beyond = got
            return RoundsSolution(p1, p2, pd, undecided, by_turn[0], by_turn[1], by_turn[2], beyond, turn)
    # stage 2, per state: the intermediates it comes from (positions in ``used``) and weights of 36
    src2: list[list[int]] = [[] for _ in range(n_states)]
    wt2: list[list[int]] = [[] for _ in range(n_states)]
    # the rounds that end the duel, per outcome: (intermediates, weights) and (states, weights)
    t_mid: list[tuple[list[int], list[int]]] = [([], []), ([], []), ([], [])]
    t_state: list[tuple[list[int], list[int]]] = [([], []), ([], []), ([], [])]
    for u, t in enumerate(used):
        c4 = (t // 12) << 2
        for j, q in c_next[t]:
            src2[c4 + j].append(u)
            wt2[c4 + j].append(q)
        ct = c_term[t]
        for k, v in enumerate((ct & kmask, (ct >> kb) & kmask, ct >> k2)):
            if v:
                t_mid[k][0].append(u)
                t_mid[k][1].append(v)
    for s, dts in enumerate(dterm):
        for k, v in enumerate(dts):
            if v:
                t_state[k][0].append(s)
                t_state[k][1].append(v)
    pull2 = [(j, src2[j], wt2[j]) for j in range(n_states) if src2[j]]
    ends = tuple(zip(t_state, t_mid, strict=True))
    # With few casualty outcomes (small units) the intermediates have one or two sources each and
    # the per-call cost dominates: then merge the two stages into state-to-state transitions (cost
    # model: a ``sum(map(...))`` call costs about as much as 6 products).
    n_two = sum(map(len, s1)) + sum(len(ws) for _, _, ws in pull2) + sum(len(ws) for e in ends for _, ws in e)
    n_one = sum(len(ss) * len(c_next[t]) for ss, t in zip(s1, used, strict=True)) + 3 * n_states
    one: list[tuple[int, list[int], list[int]]] = []
    ends1: list[tuple[list[int], list[int]]] = []
    if merge if merge is not None else n_one + 6 * len(pull2) < n_two + 6 * (len(used) + len(pull2)):
        succ: list[dict[int, int]] = [{} for _ in range(n_states)]
        terms = [[x[k] for x in dterm] for k in range(3)]
        for u, t in enumerate(used):
            c4 = (t // 12) << 2
            nx = [(c4 + j, q) for j, q in c_next[t]]
            ct = c_term[t]
            cts = [(k, v) for k, v in enumerate((ct & kmask, (ct >> kb) & kmask, ct >> k2)) if v]
            for s, w_s in zip(s1[u], w1[u], strict=True):
                for j, q in nx:
                    dj = succ[j]
                    dj[s] = dj.get(s, 0) + w_s * q
                for k, v in cts:
                    terms[k][s] += w_s * v
        one = [(j, list(dj), list(dj.values())) for j, dj in enumerate(succ) if dj]
        ends1 = [([s for s in range(n_states) if tk[s]], [v for v in tk if v]) for tk in terms]
    # every pull as (getter of its sources' weights in one C call, weights): a getter is padded
    # with two indices of the always-0 entry so that it returns a tuple (``map`` stops at the
    # weights' end); a state without sources gets 0
    one_g = _getters(one, n_states, n_states) if one else []
    ends1_g = _getters(ends1, None, n_states) if one else []
    if not one:
        s1_g = _getters(list(zip(s1, w1, strict=True)), None, n_states)
        ends_g = [
            (*sg, *mg)
            for sg, mg in zip(
                _getters([si for si, _ in ends], None, n_states),
                _getters([mi for _, mi in ends], None, len(used)),
                strict=True,
            )
        ]
        pull2_g = _getters([(j, srcs, ws) for j, srcs, ws in pull2], n_states, len(used))
    turn = 1
    beyond = Fraction(0)
    tn, td = tail.numerator, tail.denominator
    while any(weights):
        left = sum(weights)
        # ``ongoing - undecided < tail``, in integers when nothing is undecided
        stop = Fraction(left, den_w) - undecided < tail if undecided else left * td < tn * den_w
        if turn >= max_turns or stop:
            beyond = Fraction(left, den_w)
            break
        turn += 1
        if one:  # state to state
            absorbed = [sum(map(mul, g(weights), ws)) for g, ws in ends1_g]
            nw = [sum(map(mul, g(weights), ws)) for g, ws in one_g]
        else:  # through the intermediate states
            mid = [sum(map(mul, g(weights), ws)) for g, ws in s1_g]
            mid.append(0)
            absorbed = [
                sum(map(mul, g(weights), sw)) + sum(map(mul, gm(mid), mw)) for g, sw, gm, mw in ends_g
            ]
            nw = [sum(map(mul, g(mid), ws)) for g, ws in pull2_g]
        nw.append(0)
        den_w *= common
        for k, got in enumerate(absorbed):
            if got:
                by_turn[k][turn] = Fraction(got, den_w)
        weights = nw
        if progress is not None:
            progress("turns", turn, None)
    return RoundsSolution(p1, p2, pd, undecided, by_turn[0], by_turn[1], by_turn[2], beyond, turn)
