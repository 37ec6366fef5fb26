"""The second exact solver of the simultaneous-rounds duel (into-the-dark), kept as a test oracle.

This is ``shieldwall.odds.simultaneous.simultaneous_duel`` as it was before the two-stage rewrite (integer
Cramer solves over one denominator per diagonal, values packed three to an integer, and the round
distribution propagated over merged state-to-state transitions). The tests check that the current
solver gives identical exact results, on duels too large for the ``Fraction`` oracle
(``reference_rounds.py``).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import gcd as _gcd
from operator import mul
from typing import Any, cast

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


@lru_cache(maxsize=4096)
def _adjugate(a: tuple[tuple[int, ...], ...]) -> tuple[tuple[tuple[int, ...], ...], int]:
    """``(adj(A), det(A))`` of a small integer matrix, with ``det > 0`` (``A^-1 = adj / det``).

    >>> _adjugate(((2, -1), (-1, 2)))
    (((2, 1), (1, 2)), 3)
    """
    n = len(a)
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


def _repack(
    vals: list[int],
    cvals: dict[Any, int],
    reduced: list[tuple[int, list[int], int]],
    old: int,
    bits: int,
) -> tuple[list[int], dict[Any, int], list[tuple[int, list[int], int]], int]:
    """Re-pack three ``old``-bit fields into ``bits``-bit fields."""
    mask_old = (1 << old) - 1

    def repack(v: int) -> int:
        return (v & mask_old) | ((v >> old) & mask_old) << bits | (v >> 2 * old) << 2 * bits

    return (
        [repack(v) if v else 0 for v in vals],
        {k: repack(v) for k, v in cvals.items()},
        [(base, [repack(v) for v in nums], det) for base, nums, det in reduced],
        bits,
    )


def packed_simultaneous_duel(
    model: RoundModel, tail: Fraction = DEFAULT_TAIL, max_turns: int = DEFAULT_MAX_TURNS
) -> RoundsSolution:
    """Solve a duel of simultaneous rounds exactly.

    State: ``(figures of first, figures of second, first shaken, second shaken)``. Figures never
    grow, so the chain is block-triangular: the only cycles are among the four shaken states of one
    ``(figures, figures)`` block (a round with no casualties). The absorption probabilities (first
    wins, second wins, draw) are found block by block in order of the diagonal ``d = figures +
    figures`` (a round's casualties only lead to lower diagonals), each block a small exact linear
    system ``A v = R`` over the states that can leave it, solved in integers with the adjugate
    (``v = adj(A) R / det(A)``; ``A`` is a non-singular M-matrix, so ``adj(A) >= 0``). All values on
    diagonal ``d`` are integer numerators over one denominator ``Q[d]``, and ``Q[d-1]`` divides
    ``Q[d]``, so a block's right-hand side sums its successors per diagonal and brings them to one
    denominator by Horner's rule with the small factors ``Q[d] / Q[d-1]``. The three values of a
    state (first wins, second wins, draw) are packed into one integer, ``B`` bits a field: every
    operation on them is a sum with non-negative integer weights, so the fields never carry into
    each other while ``B`` exceeds the largest intermediate (checked before every diagonal; the
    values are re-packed wider when needed). No ``Fraction`` and no big gcd inside the loops.

    States with no way out are "undecided". The round distribution is propagated with integer
    weights over one common denominator per round up to a horizon where the unfinished (and not
    undecided) mass is below ``tail``; the unfinished mass is reported exactly as ``beyond``.
    """
    na, nb = model.start

    def sidx(fa: int, fb: int, j: int) -> int:
        """The index of state (fa, fb, flags j)."""
        return ((fa - 1) * nb + (fb - 1)) * 4 + j

    n_states = na * nb * 4
    # combo (fa2, fb2, sa, sb, loser) -> (the morale tests' terminal weights out of 36, packed
    # ``kb`` bits a field; the flag states reached: (index, weight))
    combos: dict[tuple[int, int, bool, bool, str], tuple[int, tuple[tuple[int, int], ...]]] = {}

    def combo(fa2: int, fb2: int, sa: bool, sb: bool, loser: str) -> tuple[int, tuple[tuple[int, int], ...]]:
        key = (fa2, fb2, sa, sb, loser)
        got = combos.get(key)
        if got is None:
            term = [0, 0, 0]
            flags = [0, 0, 0, 0]
            for nxt, q in model.after_melee(fa2, fb2, sa, sb, loser, True):
                if isinstance(nxt, str):
                    term[_TERM[nxt]] += q
                else:
                    flags[_FLAG_INDEX[cast(tuple[bool, bool], nxt)]] += q
            packed = term[0] | term[1] << kb | term[2] << 2 * kb
            got = combos[key] = (packed, tuple((j, q) for j, q in enumerate(flags) if q))
        return got

    # the widest round: bounds every intermediate of a block solve (det(A) <= den^4)
    den_bits = 0
    for fa in range(1, na + 1):
        for fb in range(1, nb + 1):
            for sa, sb in _FLAGS:
                t = model.casualties("A", fa, sa, True)[1] * model.casualties("B", fb, sb, True)[1] * 36
                den_bits = max(den_bits, t.bit_length())
    bits = 64
    mask = (1 << bits) - 1
    kb = den_bits + 2  # a state's terminal weights (each at most its round total), packed
    kmask = (1 << kb) - 1

    # packed values: state index -> first + second << B + draw << 2B, over Q[fa + fb]
    vals: list[int] = [0] * n_states
    Q: dict[int, int] = {}
    step: dict[int, int] = {}  # Q[d] // Q[d - 1]
    # the packed value of a combo into a lower block (sum over its flag states), over Q[d]
    cvals: dict[tuple[int, int, bool, bool, str], int] = {}
    # per state, for the round distribution: terminal weights, successors and weights, total
    s_term: list[tuple[int, int, int]] = [(0, 0, 0)] * n_states
    s_den: list[int] = [1] * n_states
    succ: list[dict[int, int]] = [{} for _ in range(n_states)]

    for d in range(2, na + nb + 1):
        q_prev = Q.get(d - 1, 1)
        # every intermediate of this diagonal is at most max(den, det(A)) * Q[d-1] <= den^4 Q[d-1]
        need = q_prev.bit_length() + 4 * den_bits + 8
        if need > bits:  # re-pack every stored value wider
            vals, cvals, _, bits = _repack(vals, cvals, [], bits, 2 * need)
            mask = (1 << bits) - 1
        b1, b2 = bits, 2 * bits
        lo_fa, hi_fa = max(1, d - nb), min(na, d - 1)
        reduced: list[tuple[int, list[int], int]] = []
        for fa in range(lo_fa, hi_fa + 1):
            fb = d - fa
            base = sidx(fa, fb, 0)
            dens = [0, 0, 0, 0]
            within = [[0, 0, 0, 0] for _ in range(4)]
            rhs = [0, 0, 0, 0]
            for i, (sa, sb) in enumerate(_FLAGS):
                pa, ta = model.casualties("A", fa, sa, True)
                pb, tb = model.casualties("B", fb, sb, True)
                den = ta * tb * 36
                dens[i] = den
                tp = 0  # terminal weights, packed (first | second << kb | draw << 2 kb)
                per_diag: dict[int, int] = {}
                nexts = succ[base + i]
                row = within[i]
                for x, wx in pa:  # casualties on the second unit
                    fb2 = fb - x
                    for y, wy in pb:  # on the first
                        w = wx * wy
                        fa2 = fa - y
                        if fa2 <= 0 or fb2 <= 0:
                            tp += (36 * w) << (2 * kb if fa2 <= 0 and fb2 <= 0 else (0 if fb2 <= 0 else kb))
                            continue
                        loser = "A" if y > x else ("B" if x > y else "T")
                        ckey = (fa2, fb2, sa, sb, loser)
                        ct, nz = combos.get(ckey) or combo(fa2, fb2, sa, sb, loser)
                        tp += w * ct
                        nb2 = ((fa2 - 1) * nb + (fb2 - 1)) * 4
                        for j, q in nz:
                            nexts[nb2 + j] = nexts.get(nb2 + j, 0) + w * q
                        if not x and not y:
                            for j, q in nz:
                                row[j] += w * q
                            continue
                        cv = cvals.get(ckey)
                        if cv is None:
                            cv = 0
                            for j, q in nz:
                                cv += q * vals[nb2 + j]
                            cvals[ckey] = cv
                        e = fa2 + fb2
                        per_diag[e] = per_diag.get(e, 0) + w * cv
                t0, t1, t2 = tp & kmask, (tp >> kb) & kmask, tp >> 2 * kb
                # R = term * Q[d-1] + sum over lower diagonals e of per_diag[e] * Q[d-1] / Q[e]
                r = 0
                if per_diag:
                    for e in range(min(per_diag), d):
                        r = r * step[e] + per_diag.get(e, 0)
                rhs[i] = (t0 | t1 << b1 | t2 << b2) * q_prev + r
                s_term[base + i] = (t0, t1, t2)
                s_den[base + i] = den
            # states that can leave the block (directly, or through another that can)
            can_leave = {i for i in range(4) if sum(within[i]) < dens[i]}
            grew = True
            while grew:
                grew = False
                for i in range(4):
                    if i not in can_leave and any(within[i][j] for j in can_leave):
                        can_leave.add(i)
                        grew = True
            live = sorted(can_leave)
            nums = [0, 0, 0, 0]
            det = 1
            if live:
                a = tuple(tuple((dens[i] if i == j else 0) - within[i][j] for j in live) for i in live)
                adj, det = _adjugate(a)
                g = det
                for li, i in enumerate(live):
                    v = 0
                    for lj, j in enumerate(live):
                        if adj[li][lj]:
                            v += adj[li][lj] * rhs[j]
                    nums[i] = v
                    for f in (v & mask, (v >> b1) & mask, v >> b2):
                        if g == 1:
                            break
                        g = _gcd(g, f)
                if g > 1:
                    det //= g
                    # exact per field: each field is a multiple of g
                    nums = [
                        ((v & mask) // g) | (((v >> b1) & mask) // g) << b1 | ((v >> b2) // g) << b2
                        for v in nums
                    ]
            reduced.append((base, nums, det))
        # one denominator for the diagonal: Q[d] = Q[d-1] * lcm of the blocks' (reduced) det
        m = 1
        for _, _, det in reduced:
            m = _lcm(m, det)
        step[d] = m
        Q[d] = q_prev * m
        if Q[d].bit_length() + 8 > bits:  # the diagonal's values reach Q[d]: re-pack wider first
            vals, cvals, reduced, bits = _repack(
                vals, cvals, reduced, bits, 2 * (Q[d].bit_length() + 4 * den_bits + 8)
            )
            mask = (1 << bits) - 1
        for base, nums, det in reduced:
            f = m // det
            for i in range(4):
                vals[base + i] = nums[i] * f

    def unpack(v: int) -> tuple[int, int, int]:
        return v & mask, (v >> bits) & mask, v >> 2 * bits

    # --- the opening and the first round (charge modifiers) -------------------------------------
    opening, t_open = model.opening()
    first = [Fraction(0)] * 3
    total = [Fraction(0)] * 3
    mass: dict[int, Fraction] = {}
    for o, wo in opening:
        if isinstance(o, str):
            first[_TERM[o]] += Fraction(wo, t_open)
            continue
        sa, sb = cast(tuple[bool, bool], o)
        tr, den = _round(model, na, nb, sa, sb, False)
        # the first round's weights (charge dice) may be wider than the later rounds': every
        # field below is at most den * Q[top] (den: this round's total)
        need = max(Q.values()).bit_length() + den.bit_length() + 8
        if need > bits:
            vals, cvals, _, bits = _repack(vals, cvals, [], bits, need)
            mask = (1 << bits) - 1
        per_diag = {}
        for key, t in tr.items():
            if isinstance(key, str):
                first[_TERM[key]] += Fraction(wo * t, t_open * den)
                continue
            fa2, fb2, sa2, sb2 = cast(State, key)
            k = sidx(fa2, fb2, _FLAG_INDEX[(sa2, sb2)])
            mass[k] = mass.get(k, Fraction(0)) + Fraction(wo * t, t_open * den)
            per_diag[fa2 + fb2] = per_diag.get(fa2 + fb2, 0) + t * vals[k]
        if per_diag:
            top = max(per_diag)
            r = 0
            for e in range(min(per_diag), top + 1):
                r = r * step[e] + per_diag.get(e, 0)
            for k, num in enumerate(unpack(r)):
                total[k] += Fraction(wo * num, t_open * den * Q[top])
    for k in range(3):
        total[k] += first[k]
    p1, p2, pd = total
    undecided = 1 - p1 - p2 - pd
    by_turn: list[dict[int, Fraction]] = [{}, {}, {}]
    for k in range(3):
        if first[k]:
            by_turn[k][1] = first[k]

    if max_turns <= 1 or not mass:  # no round distribution asked for (or none left)
        ongoing = sum(mass.values(), Fraction(0))
        return RoundsSolution(p1, p2, pd, undecided, by_turn[0], by_turn[1], by_turn[2], ongoing, 1)

    # --- the round distribution: integer weights over one denominator per round ---------------
    common = 1
    for den_s in set(s_den):
        common = _lcm(common, den_s)
    term0: list[int] = []
    term1: list[int] = []
    term2: list[int] = []
    preds: list[list[int]] = [[] for _ in range(n_states)]
    pweights: list[list[int]] = [[] for _ in range(n_states)]
    s_next: list[list[int]] = []
    s_w: list[list[int]] = []
    for i in range(n_states):
        f = common // s_den[i]
        t0, t1, t2 = s_term[i]
        term0.append(t0 * f)
        term1.append(t1 * f)
        term2.append(t2 * f)
        nx: list[int] = []
        nq: list[int] = []
        for j, q in succ[i].items():
            preds[j].append(i)
            pweights[j].append(q * f)
            nx.append(j)
            nq.append(q * f)
        s_next.append(nx)
        s_w.append(nq)
    den_w = 1
    for p in mass.values():
        den_w = _lcm(den_w, p.denominator)
    weights = [0] * n_states
    for k, p in mass.items():
        weights[k] = p.numerator * (den_w // p.denominator)
    targets = [j for j in range(n_states) if preds[j]]
    turn = 1
    beyond = Fraction(0)
    while any(weights):
        ongoing = Fraction(sum(weights), den_w)
        if turn >= max_turns or ongoing - undecided < tail:
            beyond = ongoing
            break
        turn += 1
        active = [i for i in range(n_states) if weights[i]]
        nw = [0] * n_states
        if 4 * len(active) < n_states:
            # push from the few states with mass
            for i in active:
                ws = weights[i]
                for j, q in zip(s_next[i], s_w[i], strict=True):
                    nw[j] += ws * q
            absorbed = [sum(tl[i] * weights[i] for i in active) for tl in (term0, term1, term2)]
        else:
            # pull: each state's new weight is a sum over its predecessors (C-level map and sum)
            get = weights.__getitem__
            for j in targets:
                nw[j] = sum(map(mul, map(get, preds[j]), pweights[j]))
            absorbed = [sum(map(mul, weights, tl)) for tl in (term0, term1, term2)]
        den_w *= common
        for k, got in enumerate(absorbed):
            if got:
                by_turn[k][turn] = Fraction(got, den_w)
        weights = nw
    return RoundsSolution(p1, p2, pd, undecided, by_turn[0], by_turn[1], by_turn[2], beyond, turn)
