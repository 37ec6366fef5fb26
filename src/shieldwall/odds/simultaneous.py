"""Exact duels to the finish with simultaneous rounds (split from ``markov.py``, which solves the
alternating duel): both units strike at once, then take their morale tests; the rules of a round
come from the rule system (:class:`RoundModel`), the chain is solved exactly in integers, a
diagonal at a time (:mod:`shieldwall.odds.forward_absorb`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from operator import itemgetter, mul
from typing import TYPE_CHECKING, Any, Protocol, cast

from shieldwall.odds import forward_absorb
from shieldwall.odds.exact_linear import adjugate, lcm
from shieldwall.odds.markov import DEFAULT_MAX_TURNS, DEFAULT_TAIL

if TYPE_CHECKING:
    from shieldwall.odds.results import Progress

#: The most work ``simultaneous_duel`` takes on: the rounds' casualty pairs over all states (one
#: exact product each) times the diagonals of the chain (the exact numbers grow by a step per
#: diagonal). Measured (docs/odds.md, "Big units"): 24 v 24 figures 1.6 million, 0.23 s; 48 v 48
#: 40 million, 6.5 s and 0.4 GB; 64 v 64 161 million, 12 s and 0.6 GB; 400 v 12 903 million, 69 s
#: and 4.6 GB; 1000 v 12 passed 16 GB. Bigger duels are refused with an error that says so, not
#: left to exhaust the memory.
DUEL_WORK_LIMIT = 250_000_000

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
            lcm_a, max_a = lcm(lcm_a, t), max(max_a, t)
            kmax = max(kmax, *(x for x, _ in items))
    for pair in cas_b[1:]:
        for items, t in pair:
            lcm_b, max_b = lcm(lcm_b, t), max(max_b, t)
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
            lcm_den = lcm(lcm_den, den)
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
        (na, nb), (cas_a, cas_b), c_term, c_next, combo, adjugate, kb, kmax, init,
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
        den_w = lcm(den_w, p.denominator)
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
