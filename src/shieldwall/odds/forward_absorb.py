"""The absorption of a simultaneous-rounds duel solved *forwards*: the start's mass pushed down.

``simultaneous.simultaneous_duel`` needs the probabilities that the first unit wins, that the second
does, and of a draw, from one start distribution only (the states after the first round). Instead
of three values per state found backwards (fewest figures first, as the test oracle
``tests/odds/packed_rounds.py`` does), this pushes the one start mass down the blocks, most figures
first, and collects what each round ends on the way: a third of the big-integer work, one field per
state and nothing to pack.

A block is the four shaken states of one ``(figures, figures)`` cell; the only cycles of the chain
are within a block (a round with no casualties). With ``D = diag(dens)`` (each state's round total)
and ``W`` the integer weights of the rounds that stay in the block, ``C = D^-1 W`` and
``A = D - W``, so ``(I - C)^-1 = A^-1 D``. Mass ``e`` (a row vector) arriving at the block makes
``e (I - C)^-1`` expected visits, and the mass that leaves state ``i`` by a round of integer weight
``w`` (out of ``dens[i]``) is ``u[i] * w`` with ``u = e adj(A) / det(A)``. Only the states that can
leave the block are solved (``A`` restricted to them is a non-singular M-matrix, ``adj(A) >= 0``);
what arrives at, or flows into, a state with no way out stays there ("undecided").

Denominators: the masses arriving at diagonal ``d = figures + figures`` are numerators over
``U[d + 1]``, the ``u`` of its blocks over ``U[d] = U[d + 1] * m[d]`` (``m[d]`` the lcm of the
blocks' ``det(A)``, each first divided by its gcd with its ``e adj(A)``), with ``U[top + 1]`` the
first round's denominator. A round with ``x + y > 0`` casualties leads (through the morale tests
of its *intermediate* state: figures after the casualties, the old shaken flags, who lost the
round) to states ``x + y`` diagonals lower, with the integer weight ``w * q`` (``q`` out of 36, the
tests' outcome). Every state sums its in-flows per source diagonal (over ``U[its d + x + y]``) and
brings them to ``U[d + 1]`` by Horner's rule with the factors ``m`` once, when its diagonal is
reached. (Summing per intermediate first and spreading after the Horner step takes more big
products: an intermediate has about one source per diagonal, and three intermediates per state
need the costlier Horner products by ``m``.) The mass that ends the duel (destroying rounds,
routs) is added per outcome over ``U[d]`` and scaled by ``m`` as ``d`` falls. The states are
visited as the mass reaches them (no separate reachability pass). Everything is exact integers;
no ``Fraction`` inside the loops.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import gcd as _gcd
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shieldwall.odds.results import Progress

#: casualties of one side: (items, total) per figures and shaken flag (index 0: no figures)
Cas = tuple[tuple[tuple[int, int], ...], int]


def _lcm(a: int, b: int) -> int:
    return a // _gcd(a, b) * b


def absorb(
    start: tuple[int, int],
    cas: tuple[Sequence[tuple[Cas, Cas]], Sequence[tuple[Cas, Cas]]],
    c_term: list[int],
    c_next: list[list[tuple[int, int]]],
    combo: Callable[[int], int],
    adjugate: Callable[[tuple[tuple[int, ...], ...]], tuple[tuple[tuple[int, ...], ...], int]],
    kb: int,
    kmax: int,
    init: list[int],
    rd: tuple[list[list[int]], list[list[int]], list[tuple[int, int, int]], int] | None,
    progress: Progress | None = None,
) -> tuple[list[int], int]:
    """The mass absorbed per outcome (first wins, second wins, draw) from the start mass ``init``
    (numerators per state over one denominator ``M``), as numerators over ``M * F``; returns them
    and ``F``.

    Only the states the start mass reaches are visited. ``cas``: each side's later-round
    casualties; ``c_term`` /
    ``c_next``: per intermediate state, the morale tests' terminal weights (packed ``kb`` bits a
    field, -1 not yet: ``combo`` fills them) and ``(flags, weight)`` next states, out of 36;
    ``adjugate``: ``(adj, det > 0)`` of a small integer matrix; ``kmax``: the most casualties of a
    round (both sides). ``rd``: ``(src1, wt1, dterm, common)`` of ``simultaneous_duel``'s round
    distribution, filled here for the states the mass reaches. ``progress(stage, done, total)``,
    if given, is called as each diagonal is done.
    """
    na, nb = start
    cas_a, cas_b = cas
    nb12 = nb * 12
    kmask = (1 << kb) - 1
    k2 = 2 * kb
    top = na + nb
    # per state s and source diagonal offset k (x + y), at s * K + k: its in-flow over U[its d + k]
    K = kmax + 1
    sacc = [0] * (na * nb * 4 * K)
    m_of = [1] * (top + kmax + 2)  # m[d] = U[d] / U[d + 1]
    f_all = 1  # U[d + 1] / U[top + 1]
    absorbed = [0, 0, 0]  # over U[d + 1]
    hit = bytearray(na * nb)  # the cells some mass may reach
    for k, v in enumerate(init):
        if v:
            hit[k >> 2] = 1
    for d in range(top, 1, -1):
        if progress is not None:
            progress("win probabilities", top - d, top - 1)
        blocks: list[tuple[list[int], list[int], int, list[int], list[list[tuple[int, int]]]]] = []
        for fa in range(max(1, d - nb), min(na, d - 1) + 1):
            fb = d - fa
            cell = (fa - 1) * nb + (fb - 1)
            base = cell * 4
            if not hit[cell]:
                continue
            # the mass arriving at the block, over U[d + 1]
            e = [0, 0, 0, 0]
            for i in range(4):
                s = base + i
                r = 0
                for k in range(kmax, 0, -1):
                    v = sacc[s * K + k]
                    if r:
                        r = r * m_of[d + k] + v
                    elif v:
                        r = v
                e[i] = r + init[s] * f_all if init[s] else r
            # the states reached: those the mass arrives at, and those they lead to in the block
            todo = [i for i in range(4) if e[i]]
            if not todo:
                continue
            reached = [bool(v) for v in e]
            dens = [0, 0, 0, 0]
            within = [[0, 0, 0, 0] for _ in range(4)]
            tps = [0, 0, 0, 0]
            outs: list[list[tuple[int, int]]] = [[], [], [], []]
            while todo:
                i = todo.pop()
                pa, ta = cas_a[fa][i >> 1]
                pb, tb = cas_b[fb][i & 1]
                den = ta * tb * 36
                dens[i] = den
                s = base + i
                f_s = rd[3] // den if rd is not None else 0  # the round distribution's factor
                tp = 0  # terminal weights, packed (first | second << kb | draw << 2 kb)
                dt = 0  # the destroying rounds' weights (out of 36 each), packed alike
                row = within[i]
                out = outs[i]
                i3 = i * 3
                for x, wx in pa:  # casualties on the second unit
                    fb2 = fb - x
                    if fb2 <= 0:
                        for y, wy in pb:
                            dt += (wx * wy) << (k2 if fa - y <= 0 else 0)
                        continue
                    tcol = (fb2 - 1) * 12 + i3
                    for y, wy in pb:  # on the first
                        fa2 = fa - y
                        if fa2 <= 0:
                            dt += (wx * wy) << kb
                            continue
                        w = wx * wy
                        t = (fa2 - 1) * nb12 + tcol + (2 if x == y else (0 if y > x else 1))
                        ct = c_term[t]
                        if ct < 0:
                            ct = combo(t)
                        tp += w * ct
                        if rd is not None:
                            rd[0][t].append(s)
                            rd[1][t].append(w * f_s)
                        if x or y:  # to s2 on a lower diagonal: (s2 * K + x + y, weight)
                            hit[t // 12] = 1
                            c4k = (t // 12) * 4 * K + x + y
                            for j, q in c_next[t]:
                                out.append((c4k + j * K, w * q))
                        else:
                            for j, q in c_next[t]:  # the same cell: within the block
                                row[j] += w * q
                tps[i] = tp + 36 * dt
                for j in range(4):
                    if row[j] and not reached[j]:
                        reached[j] = True
                        todo.append(j)
                if rd is not None and dt:
                    f36 = 36 * f_s
                    rd[2][s] = (f36 * (dt & kmask), f36 * ((dt >> kb) & kmask), f36 * (dt >> k2))
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
            if not live or not any(e[i] for i in live):
                continue
            a_ = tuple(tuple((dens[i] if i == j else 0) - within[i][j] for j in live) for i in live)
            adj, det = adjugate(a_)
            nums = [sum(e[i] * adj[li][lj] for li, i in enumerate(live)) for lj in range(len(live))]
            g = det
            for v in nums:
                if g == 1:
                    break
                g = _gcd(g, v)
            if g > 1:
                det //= g
                nums = [v // g for v in nums]
            blocks.append((live, nums, det, tps, outs))
        m = 1
        for *_, det, _, _ in blocks:
            m = _lcm(m, det)
        m_of[d] = m
        f_all *= m
        if m > 1:
            absorbed = [v * m for v in absorbed]
        for live, nums, det, tps, outs in blocks:
            f = m // det
            for i, v in zip(live, nums, strict=True):
                if not v:
                    continue
                u = v * f
                tp = tps[i]
                if tp:
                    absorbed[0] += u * (tp & kmask)
                    absorbed[1] += u * ((tp >> kb) & kmask)
                    absorbed[2] += u * (tp >> k2)
                for idx, wq in outs[i]:
                    sacc[idx] += u * wq
    if progress is not None:
        progress("win probabilities", top - 1, top - 1)
    return absorbed, f_all
