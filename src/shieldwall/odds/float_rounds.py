"""A duel of simultaneous rounds (``simultaneous.simultaneous_duel``) solved in float64, vectorised over
the state lattice with numpy, with an a priori bound on the rounding error.

The chain is the exact solver's: state ``(figures, figures, flags)`` (``flags = 2 * first shaken +
second shaken``); a round's casualties lead to an *intermediate* state ``(figures, figures, flags,
loser)`` (0 the first unit lost the round, 1 the second, 2 a tie) or destroy a unit; the morale
tests of the intermediate state lead to the next state or end the duel. The absorption pushes the
start mass down the diagonals ``d = figures + figures`` (a round with casualties only leads to
lower diagonals); on each diagonal every ``(figures, figures)`` cell's four states are a block whose
only cycles are the rounds without casualties, solved for every cell at once by elimination in the
Grassmann-Taksar-Heyman form (a pivot is the sum of its row's ways out, never ``1 - stay``).

**Error bound.** Every number is computed from the rules' integer weights with additions,
multiplications and divisions of non-negative numbers only: no subtraction anywhere (the one
complement needed, P(some casualties), is formed exactly in integers). A value computed so, with at
most ``N`` roundings on any path from the inputs, has a relative error of at most
``gamma(N) = N u / (1 - N u)`` (``u = 2**-53``; Higham, *Accuracy and Stability of Numerical
Algorithms*, 3.1). :func:`error_bound` counts ``N`` over-generously from the sizes (summations in
numpy may be sequential: a sum of ``k`` terms is counted as ``k`` roundings, except where a pairwise
sum is used) and reports ``gamma(N)``: as every reported probability is at most 1, it bounds the
absolute error of each. The tests check the bound, and errors below ``1e-12``, against the exact
solver.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from shieldwall.odds.float_solution import FloatRounds, gamma

if TYPE_CHECKING:
    from shieldwall.odds.results import Progress
    from shieldwall.odds.simultaneous import RoundModel

#: The most entries (states times casualty pairs) the float solver takes on: about 24 bytes each in
#: its largest arrays (64 v 64 figures of 4 dice a side: about 1.6 million). Bigger duels are refused
#: with an error that says so, not left to exhaust the memory.
FLOAT_WORK_LIMIT = 40_000_000

#: roundings per diagonal besides the in-flow sums: arrival (13 terms), the block (pivots, the two
#: triangular solves), the push (two products), generously
_PER_DIAGONAL = 96
#: roundings of a pairwise sum of a diagonal's terminal terms (numpy: blocks of 128 summed by 8
#: accumulators, then halving) and of the exactly rounded sum over the diagonals
_PAIRWISE = 64


def _side(model: RoundModel, who: str, n: int) -> tuple[Any, Any, int]:
    """``(p[f, shaken, x], q[f, shaken], kmax)``: P(x casualties) by a side with ``f`` figures
    (later rounds) and P(at least one), formed from the integer weights (one rounding each)."""
    import numpy as np

    rows: list[list[tuple[tuple[int, int], ...]]] = [[(), ()]]
    tot: list[list[int]] = [[1, 1]]
    kmax = 0
    for f in range(1, n + 1):
        r, t = [], []
        for sh in (False, True):
            items, total = model.casualties(who, f, sh, True)
            r.append(items)
            t.append(total)
            kmax = max(kmax, *(x for x, _ in items))
        rows.append(r)
        tot.append(t)
    p = np.zeros((n + 1, 2, kmax + 1))
    q = np.zeros((n + 1, 2))
    for f in range(1, n + 1):
        for k in range(2):
            total = tot[f][k]
            zero = 0
            for x, w in rows[f][k]:
                p[f, k, x] += w / total
                if x == 0:
                    zero += w
            q[f, k] = (total - zero) / total  # exact integers, one rounding
    return p, q, kmax


def _tests(model: RoundModel, na: int, nb: int) -> tuple[Any, Any, Any]:
    """Per intermediate state ``(fa, fb, flags, loser)``: the morale tests' next flags ``qn[..., j]``
    and terminal outcomes ``qt[..., k]`` (first wins, second wins, draw), out of 36 as floats, and
    P(the tests end the duel) ``qs`` (exact sums of the integer weights, one rounding)."""
    import numpy as np

    from shieldwall.odds.simultaneous import _FLAG_INDEX, _FLAGS, _LOSER, _TERM

    # every intermediate's tests (the rules memoise equal answers as one object), in index order; a
    # model may answer a whole cell at once (``after_melee_cell(fa, fb, later)``: its 12 states)
    cell = getattr(model, "after_melee_cell", None)
    afts: list[tuple[tuple[object, int], ...]]
    if cell is not None:
        afts = [a for fa in range(1, na + 1) for fb in range(1, nb + 1) for a in cell(fa, fb, True)]
    else:
        after = model.after_melee
        afts = [
            after(fa, fb, sa, sb, lo, True)
            for fa in range(1, na + 1)
            for fb in range(1, nb + 1)
            for sa, sb in _FLAGS
            for lo in _LOSER
        ]
    # decoded once per distinct answer (kept alive in ``afts``, so identities are not reused)
    decoded: dict[int, tuple[float, ...]] = {}
    for aft in {id(a): a for a in afts}.values():
        v = [0] * 7
        for k, q in aft:
            if k.__class__ is str:
                v[4 + _TERM[k]] += q
            else:
                v[_FLAG_INDEX[k]] += q  # type: ignore[index]
        decoded[id(aft)] = (*(x / 36 for x in v), (v[4] + v[5] + v[6]) / 36)
    rows = [decoded[id(a)] for a in afts]
    arr = np.array(rows, dtype=np.float64).reshape(na, nb, 4, 3, 8)
    pad = np.zeros((na + 1, nb + 1, 4, 3, 8))
    pad[1:, 1:] = arr
    return pad[..., :4], pad[..., 4:7], pad[..., 7]


def _start(model: RoundModel, na: int, nb: int) -> tuple[list[Fraction], Any]:
    """What the opening and the first round (charge modifiers) end, exactly, and the mass they
    leave on each state (float64, one rounding each)."""
    import numpy as np

    from shieldwall.odds.simultaneous import _FLAG_INDEX, _TERM, _round

    first = [Fraction(0)] * 3
    mass: dict[tuple[int, int, int], Fraction] = {}
    opening, t_open = model.opening()
    for o, wo in opening:
        if isinstance(o, str):
            first[_TERM[o]] += Fraction(wo, t_open)
            continue
        sa, sb = cast("tuple[bool, bool]", o)
        tr, den = _round(model, na, nb, sa, sb, False)
        for key, w in tr.items():
            p = Fraction(wo * w, t_open * den)
            if isinstance(key, str):
                first[_TERM[key]] += p
            else:
                fa, fb, sa2, sb2 = cast("tuple[int, int, bool, bool]", key)
                k = (fa, fb, _FLAG_INDEX[(sa2, sb2)])
                mass[k] = mass.get(k, Fraction(0)) + p
    init = np.zeros((na + 1, nb + 1, 4))
    for (fa, fb, j), p in mass.items():
        init[fa, fb, j] = float(p)
    return first, init


def error_bound(na: int, nb: int, ka: int, kb: int, rounds: int = 0) -> float:
    """The bound on the absolute error of every probability reported (module docstring): the win
    probabilities (``na + nb`` diagonals) and, with ``rounds``, the round distribution."""
    k_in = (ka + 1) * (kb + 1)  # terms summed into one intermediate state
    n_win = (na + nb) * (k_in + _PER_DIAGONAL) + _PAIRWISE + 4
    # a round: the in-flow of an intermediate, the 12 intermediates into a state, products; the
    # per-turn terminal sums are sequential dot products over the states
    n_turn = rounds * (k_in + 16) + (na + 1) * (nb + 1) * 16 + 4
    return gamma(max(n_win, n_turn if rounds else 0))


def solve(
    model: RoundModel,
    tail: float = 1e-15,
    max_turns: int = 1000,
    progress: Progress | None = None,
) -> FloatRounds:
    """The duel in float64: win, draw and undecided probabilities and (with ``max_turns > 1``) the
    round distribution up to the horizon where the unfinished mass (not undecided) is below
    ``tail``, with the bound on their error (:func:`error_bound`)."""
    import numpy as np

    na, nb = model.start
    pa, qa, ka = _side(model, "A", na)
    pb, qb, kb = _side(model, "B", nb)
    work = (na + 1) * (nb + 1) * 4 * (ka + 1) * (kb + 1)
    if work > FLOAT_WORK_LIMIT:
        raise ValueError(
            f"a duel of {na} v {nb} figures is too big to solve here: {work:,} state and casualty "
            f"pairs, over the limit of {FLOAT_WORK_LIMIT:,} (about 1 GB); fewer figures fighting would do"
        )
    qn, qt, qs = _tests(model, na, nb)
    first, init = _start(model, na, nb)
    sa_of = np.array([0, 0, 1, 1])
    sb_of = np.array([0, 1, 0, 1])
    # per state (fa, fb, flags): P(x on the second, y on the first) for every pair, and where it
    # leads: the flat intermediate index, or a terminal slot (n_inter + 0/1/2), or n_inter + 3 for
    # the round without casualties (the block's own business)
    fa_g = np.arange(na + 1)[:, None, None, None, None]
    fb_g = np.arange(nb + 1)[None, :, None, None, None]
    x_g = np.arange(ka + 1)[None, None, None, :, None]
    y_g = np.arange(kb + 1)[None, None, None, None, :]
    n_inter = (na + 1) * (nb + 1) * 12
    fa2, fb2 = fa_g - y_g, fb_g - x_g
    lo = np.where(x_g == y_g, 2, np.where(y_g > x_g, 0, 1))
    jj = np.arange(4)[None, None, :, None, None]
    target = ((fa2 * (nb + 1) + fb2) * 4 + jj) * 3 + lo
    target = np.where(
        fb2 <= 0, np.where(fa2 <= 0, n_inter + 2, n_inter), np.where(fa2 <= 0, n_inter + 1, target)
    )
    # the absorption leaves the round without casualties to the block (slot n_inter + 3)
    target_abs = np.where((x_g == 0) & (y_g == 0), n_inter + 3, target)
    pxy = pa[:, sa_of, :][:, None, :, :, None] * pb[:, sb_of, :][None, :, :, None, :]
    # the block of each cell: the round without casualties and its tests back to the same cell
    p00 = pxy[..., 0, 0]  # (fa, fb, flags)
    stay = p00[..., None] * qn[:, :, :, 2, :]  # (fa, fb, i, j)
    # P(a way out of the state): some casualties, or none and the tests end the duel
    out = qa[:, sa_of][:, None, :] + pa[:, sa_of, 0][:, None, :] * qb[:, sb_of][None, :, :]
    out = out + p00 * qs[:, :, :, 2]
    term00 = p00[..., None] * qt[:, :, :, 2, :]  # (fa, fb, i, k)
    # every cell's block solved once: visits per unit arriving, and what that ends in the block
    # (the round without casualties ending the duel; flowing into a state with no way out)
    inv, into_dead, dead = _block_inverse(stay.reshape(-1, 4, 4), out.reshape(-1, 4))
    inv = inv.reshape(na + 1, nb + 1, 4, 4)
    dead = dead.reshape(na + 1, nb + 1, 4)
    ends00 = np.einsum("abij,abjk->abik", inv, term00)
    lost00 = dead + np.einsum("abij,abj->abi", inv, into_dead.reshape(na + 1, nb + 1, 4))

    im = np.zeros(n_inter + 4)
    ended: list[list[float]] = [[], [], [], []]  # first, second, draw, undecided: per diagonal
    top = na + nb
    for d in range(top, 1, -1):
        if progress is not None:
            progress("win probabilities", top - d, top - 1)
        fa_c = np.arange(max(1, d - nb), min(na, d - 1) + 1)
        fb_c = d - fa_c
        cells = (fa_c * (nb + 1) + fb_c) * 12
        idx = cells[:, None, None] + np.arange(4)[None, :, None] * 3 + np.arange(3)[None, None, :]
        m_in = im[idx]  # (nc, flags, loser)
        arrive = init[fa_c, fb_c] + (m_in[..., None] * qn[fa_c, fb_c]).sum(axis=(1, 2))
        for k in range(3):
            ended[k].append(float((m_in * qt[fa_c, fb_c, :, :, k]).ravel().sum()))
        ended[3].append(float((arrive * lost00[fa_c, fb_c]).ravel().sum()))
        for k in range(3):
            ended[k].append(float((arrive * ends00[fa_c, fb_c, :, k]).ravel().sum()))
        v = np.einsum("ci,cij->cj", arrive, inv[fa_c, fb_c])
        flow = (v[:, :, None, None] * pxy[fa_c, fb_c]).ravel()
        t_d = target_abs[fa_c, fb_c].ravel()
        im += np.bincount(t_d, weights=flow, minlength=n_inter + 4)
        for k in range(3):  # the rounds that destroy a unit: a pairwise sum, not the bincount's
            ended[k].append(float(flow[t_d == n_inter + k].sum()))
    if progress is not None:
        progress("win probabilities", top - 1, top - 1)
    p = [math.fsum(e) for e in ended]
    for k in range(3):
        p[k] += float(first[k])
    by_turn: list[dict[int, float]] = [{}, {}, {}]
    for k in range(3):
        if first[k]:
            by_turn[k][1] = float(first[k])
    horizon, beyond = 1, float(init.sum())
    if max_turns > 1 and init.any():
        horizon, beyond = _rounds(
            init, pxy, target, qn, qt, n_inter, na, nb, p[3], tail, max_turns, by_turn, progress
        )
    bound = error_bound(na, nb, ka, kb, horizon if max_turns > 1 else 0)
    return FloatRounds(p[0], p[1], p[2], p[3], by_turn[0], by_turn[1], by_turn[2], beyond, horizon, bound)


def _block_inverse(stay: Any, out: Any) -> tuple[Any, Any, Any]:
    """For every cell's block (``stay[c, i, j]``: P(i -> j within the block, ``i = j`` included;
    ``out[c, i]``: P(leaving the block from i)): the expected visits ``inv[c, i, j]`` of state j
    per unit of mass arriving at state i, P(flowing from j into a state of the block with no way
    out) ``into_dead[c, j]``, and those states ``dead[c, i]`` (mass arriving there never leaves:
    undecided). By elimination without subtraction (module docstring)."""
    import numpy as np

    nc = stay.shape[0]
    c = stay.copy()
    idx = np.arange(4)
    c[:, idx, idx] = 0.0  # a pivot is formed from the ways out, never from 1 - stay
    e = out.copy()
    # the states with a way out, directly or through another state of the block
    live = e > 0
    for _ in range(3):
        live = live | ((c > 0) & live[:, None, :]).any(axis=2)
    dead = ~live
    # flows from a live state into a dead one: ended (undecided) at that rate
    u = (c * dead[:, None, :]).sum(axis=2)
    c = c * live[:, None, :] * live[:, :, None]
    e = np.where(live, e, 1.0)  # a dead state: an identity row (it receives no mass)
    ways = e + u  # the ways out of the block as the elimination goes (censored)
    piv = np.zeros((nc, 4))
    mult = np.zeros((nc, 4, 4))  # mult[:, i, k]: C(i -> k) / pivot k, i > k (the multipliers)
    upper = np.zeros((nc, 4, 4))  # upper[:, k, j]: C(k -> j) when k is eliminated, j > k
    for k in range(4):
        piv[:, k] = ways[:, k] + c[:, k, k + 1 :].sum(axis=1)
        upper[:, k, k + 1 :] = c[:, k, k + 1 :]
        if k == 3:
            break
        f = c[:, k + 1 :, k] / piv[:, k, None]  # (nc, rest)
        mult[:, k + 1 :, k] = f
        c[:, k + 1 :, k + 1 :] += f[:, :, None] * c[:, None, k, k + 1 :]
        ways[:, k + 1 :] += f * ways[:, k, None]
    # row a of the inverse: v A = e_a with A = L U, i.e. w U = e_a (forwards), then v L = w
    a = np.broadcast_to(np.eye(4), (nc, 4, 4)) * live[:, :, None]
    w = np.zeros((nc, 4, 4))
    for j in range(4):
        w[:, :, j] = (a[:, :, j] + (w[:, :, :j] * upper[:, None, :j, j]).sum(axis=2)) / piv[:, None, j]
    inv = np.zeros((nc, 4, 4))
    for i in range(3, -1, -1):
        inv[:, :, i] = w[:, :, i] + (inv[:, :, i + 1 :] * mult[:, None, i + 1 :, i]).sum(axis=2)
    inv = inv * live[:, None, :]
    return inv, u, dead


def _rounds(
    init: Any,
    pxy: Any,
    target: Any,
    qn: Any,
    qt: Any,
    n_inter: int,
    na: int,
    nb: int,
    undecided: float,
    tail: float,
    max_turns: int,
    by_turn: list[dict[int, float]],
    progress: Progress | None,
) -> tuple[int, float]:
    """The round distribution from round 1's mass ``init``: each round the mass through the two
    stages (casualties, then the tests), each a sparse map summed per target (``np.bincount``);
    fills ``by_turn`` (rounds 2 on) and returns ``(horizon, mass still in play after it)``."""
    import numpy as np

    n_states = (na + 1) * (nb + 1) * 4
    src = np.broadcast_to(np.arange(n_states).reshape(na + 1, nb + 1, 4, 1, 1), target.shape)
    keep = (pxy > 0) & (target < n_inter)
    # stage 1 (the casualties): entries (state, intermediate, weight), summed per intermediate
    s1_src, s1_tgt, s1_w = src[keep], target[keep], pxy[keep]
    # per state, P(its round destroys a unit), by outcome (first, second, draw)
    dterm = np.zeros((3, n_states))
    flat_t, flat_w, flat_s = target.ravel(), pxy.ravel(), src.ravel()
    for k in range(3):
        sel = flat_t == n_inter + k
        dterm[k] = np.bincount(flat_s[sel], weights=flat_w[sel], minlength=n_states)
    # stage 2 (the tests): intermediate -> state of its cell, weight out of 36
    inter = np.arange(n_inter)
    rows = (inter // 12)[:, None] * 4 + np.arange(4)[None, :]
    qn_f = qn.reshape(n_inter, 4)
    nz = qn_f > 0
    s2_src = np.broadcast_to(inter[:, None], (n_inter, 4))[nz]
    s2_tgt, s2_w = rows[nz], qn_f[nz]
    qt_f = qt.reshape(n_inter, 3)
    m = init.ravel().copy()
    turn = 1
    beyond = 0.0
    while m.any():
        left = float(m.sum())
        if turn >= max_turns or left - undecided < tail:
            beyond = left
            break
        turn += 1
        mid = np.bincount(s1_tgt, weights=s1_w * m[s1_src], minlength=n_inter)
        for k in range(3):
            got = float(dterm[k] @ m) + float(qt_f[:, k] @ mid)
            if got:
                by_turn[k][turn] = got
        m = np.bincount(s2_tgt, weights=s2_w * mid[s2_src], minlength=n_states)
        if progress is not None:
            progress("turns", turn, None)
    return turn, beyond
