"""The first exact solver of the simultaneous-rounds duel (into-the-dark), kept as a test oracle.

``shieldwall.odds.simultaneous.simultaneous_duel`` was rewritten for speed (integer Cramer solves over one
denominator per diagonal of blocks, Horner scaling, indexed propagation). This is the original,
straightforward version (``Fraction`` Gauss-Jordan per block, lcm of block denominators); the tests
check that both give identical exact results.
"""

from __future__ import annotations

from fractions import Fraction
from math import gcd as _gcd
from typing import cast

from shieldwall.odds.markov import DEFAULT_MAX_TURNS, DEFAULT_TAIL
from shieldwall.odds.simultaneous import RoundModel, RoundsSolution

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


def reference_simultaneous_duel(
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
