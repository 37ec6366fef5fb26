"""The round distribution of a simultaneous-rounds duel, propagated exactly in numpy integer limbs.

The round-by-round weights of a duel (``markov.simultaneous_duel``) are integers over one common
denominator that grows by a fixed factor a round, hundreds of bits after a few dozen rounds, and
every round is the same sparse linear map. In pure Python every product is an interpreted
operation; here every weight is split into ``b``-bit limbs held in an ``int64`` array, one row a
state, and a round is a handful of vectorised operations over all the products at once:

* gather the sources' limbs, multiply them by the transition weights, add them up per target
  (``np.add.reduceat``) — exact, because ``b`` is chosen so that no sum can reach ``2**63``
  (``(2**b - 1) * (the largest total of weights into one target) < 2**63``);
* carry every limb's overflow into the next limb until all limbs are below ``2**b`` again.

The limbs are read back into Python integers only for the three terminal outcomes of a round and
for the mass still in play (the stop test), so every number reported is the exact integer the pure
Python loop computes. When the weights are too large for limbs of at least 8 bits, the caller
falls back to that loop.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

#: narrower limbs than this are not worth it: the caller uses its pure Python loop instead
MIN_LIMB_BITS = 8


def limb_bits(rows: list[tuple[int, list[int], list[int]]], ends: list[tuple[list[int], list[int]]]) -> int:
    """The widest limb for which every sum of products stays below ``2**63``.

    >>> limb_bits([(0, [1, 2], [3, 4])], [([0], [5])])
    59
    """
    most = max([sum(ws) for _, _, ws in rows] + [sum(ws) for _, ws in ends] + [1])
    return 62 - most.bit_length()


def propagate(
    rows: list[tuple[int, list[int], list[int]]],
    ends: list[tuple[list[int], list[int]]],
    weights: list[int],
    den_w: int,
    common: int,
    undecided: Fraction,
    tail: Fraction,
    max_turns: int,
    by_turn: list[dict[int, Fraction]],
    bits: int | None = None,
) -> tuple[int, Fraction] | None:
    """Propagate the round weights from round 1 (``weights`` over ``den_w``) until the duel is over
    or the unfinished (and not undecided) mass is below ``tail`` or ``max_turns`` is reached, as
    ``markov.simultaneous_duel``'s pure Python loop does. ``rows`` are the state-to-state
    transitions ``(target, sources, weights over common)``, ``ends`` per terminal outcome
    ``(states, weights over common)``. Fills ``by_turn`` and returns ``(horizon, mass beyond)``, or
    None (and fills nothing) when the weights leave limbs narrower than ``MIN_LIMB_BITS``.
    ``bits`` asks for narrower limbs than the widest safe ones (tests: more limbs, more carries)."""
    n = len(weights)
    b = min(limb_bits(rows, ends), 62 - n.bit_length())  # and the mass in play: n limbs summed
    if bits is not None:
        b = min(b, bits)
    if b < MIN_LIMB_BITS:
        return None
    import numpy as np

    mask = (1 << b) - 1
    src = np.array([s for _, srcs, _ in rows for s in srcs], dtype=np.int64)
    wts = np.array([w for _, _, ws in rows for w in ws], dtype=np.int64)[:, None]
    starts = np.cumsum([0] + [len(srcs) for _, srcs, _ in rows[:-1]], dtype=np.int64)
    targets = np.array([j for j, _, _ in rows], dtype=np.int64)
    term = np.zeros((len(ends), n), dtype=np.int64)
    for k, (states, ws) in enumerate(ends):
        term[k, states] = ws

    def limbs_needed(den: int) -> int:
        return den.bit_length() // b + 2

    def to_int(limbs: Any) -> int:
        v = 0
        for x in reversed(limbs.tolist()):
            v = (v << b) + x
        return v

    n_limbs = limbs_needed(den_w)
    x = np.zeros((n, n_limbs), dtype=np.int64)
    for s, w in enumerate(weights):
        for li in range(n_limbs):
            x[s, li] = (w >> (b * li)) & mask
    tn, td = tail.numerator, tail.denominator
    turn = 1
    beyond = Fraction(0)
    while x.any():
        left = to_int(x.sum(axis=0))  # each column sum < n * 2**b
        # ``ongoing - undecided < tail``, in integers when nothing is undecided
        stop = Fraction(left, den_w) - undecided < tail if undecided else left * td < tn * den_w
        if turn >= max_turns or stop:
            beyond = Fraction(left, den_w)
            break
        turn += 1
        den_w *= common
        grow = limbs_needed(den_w) - n_limbs
        if grow > 0:  # the weights are at most den_w: room for them, and for a carry
            x = np.hstack([x, np.zeros((n, grow), dtype=np.int64)])
            n_limbs += grow
        absorbed = term @ x
        nx = np.zeros_like(x)
        if len(rows):
            g = x[src]
            g *= wts
            nx[targets] = np.add.reduceat(g, starts, axis=0)
        while True:  # carry until every limb is below 2**b
            carry = nx >> b
            if not carry.any():
                break
            if carry[:, -1].any():  # pragma: no cover - the limbs always leave room for a carry
                raise ArithmeticError("round weights outgrew their limbs")
            nx &= mask
            nx[:, 1:] += carry[:, :-1]
        for k in range(len(ends)):
            got = to_int(absorbed[k])
            if got:
                by_turn[k][turn] = Fraction(got, den_w)
        x = nx
    return turn, beyond
