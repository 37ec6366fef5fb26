"""The round distribution of a simultaneous-rounds duel, propagated exactly in numpy integer limbs.

The round-by-round weights of a duel (``simultaneous.simultaneous_duel``) are integers over one common
denominator that grows by a fixed factor a round, hundreds of bits after a few dozen rounds, and
every round is the same sparse linear map. In pure Python every product is an interpreted
operation; here every weight is split into ``b``-bit limbs held in an ``int64`` array, one row a
state, and a round is a handful of vectorised operations over all the products at once:

* apply the round's two sparse stages of integer transition weights (:class:`Stage`: the
  casualties, from the states to the intermediate states; the tests, from those to the next
  states): every target's sum of weight times source limb, gathered and summed segment by segment
  (``np.add.reduceat`` over the entries sorted by target) — exact, because ``b`` is chosen so that
  no sum can reach ``2**63`` (``(2**b - 1) * (the largest total of path weights into one target of
  either stage) < 2**63``);
* carry every limb's overflow into the next limb until all limbs are below ``2**b`` again.

The limbs are read back into Python integers only for the three terminal outcomes of a round and
for the mass still in play (the stop test), so every number reported is the exact integer the pure
Python loop computes. When the weights are too large for limbs of at least 8 bits, the caller
falls back to that loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import chain, pairwise
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from shieldwall.odds.results import Progress

#: narrower limbs than this are not worth it: the caller uses its pure Python loop instead
MIN_LIMB_BITS = 8
#: about this many products (entries times limbs) are formed at a time, so that they stay in the
#: processor's cache
CHUNK = 1 << 16


class Stage:
    """A sparse linear map of integer weights, ``y[t] = sum(w * x[s])`` over its entries ``(s, t,
    w)`` (a pair may repeat), applied to the rows of an ``int64`` array of limbs.

    The entries are sorted by target once; :meth:`apply` gathers the source rows of a run of
    entries, multiplies them by their weights and sums each target's segment (``np.add.reduceat``),
    a run of about ``CHUNK`` products at a time."""

    __slots__ = ("n", "targets", "starts", "src", "wts", "_runs")

    def __init__(self, src: Any, tgt: Any, wts: Any, n: int) -> None:
        import numpy as np

        order = np.argsort(tgt, kind="stable")
        self.n = n
        self.src = src[order]
        self.wts = wts[order]
        #: the targets with entries, and where each one's entries start
        self.targets, self.starts = np.unique(tgt[order], return_index=True)
        #: entries a run -> the runs (whole segments): sources, weights, targets, segment starts
        self._runs: dict[int, list[tuple[Any, Any, Any, Any]]] = {}

    def totals(self, into: Any) -> Any:
        """Per target, the sum of weight times ``into[source]`` (floats: for the limb width)."""
        import numpy as np

        out = np.zeros(self.n, dtype=np.float64)
        if len(self.src):
            out[self.targets] = np.add.reduceat(self.wts * into[self.src], self.starts)
        return out

    def runs(self, per: int) -> list[tuple[Any, Any, Any, Any]]:
        """The entries in runs of whole segments of about ``per`` entries, memoised."""
        got = self._runs.get(per)
        if got is None:
            import numpy as np

            starts, size = self.starts, len(self.src)
            # each run's first segment: the one holding every ``per``-th entry
            cuts = np.unique(np.searchsorted(starts, np.arange(0, size, per), side="right") - 1).tolist()
            cuts.append(len(starts))
            wts = self.wts[:, None]
            got = []
            for a, b in pairwise(cuts):
                lo = int(starts[a])
                hi = int(starts[b]) if b < len(starts) else size
                got.append((self.src[lo:hi], wts[lo:hi], self.targets[a:b], starts[a:b] - lo))
            self._runs[per] = got
        return got

    def apply(self, x: Any) -> Any:
        """The map applied to every column of ``x`` (``n_sources x limbs``, int64): exact as long
        as no target's sum reaches ``2**63``."""
        import numpy as np

        out = np.zeros((self.n, x.shape[1]), dtype=np.int64)
        # entries a run: a power of two (few distinct runs as the limbs grow)
        per = 1 << max(8, (CHUNK // max(1, x.shape[1])).bit_length() - 1)
        reduceat = np.add.reduceat
        for src, wts, targets, starts in self.runs(per):
            prod = x[src]
            prod *= wts
            out[targets] = reduceat(prod, starts, axis=0)
        return out


def transitions(
    used: list[int],
    sources: list[list[int]],
    weights: list[list[int]],
    nexts: list[list[tuple[int, int]]],
    terms: list[int],
    dterm: list[tuple[int, int, int]],
    kb: int,
    n: int,
    common: int,
) -> tuple[tuple[Stage, Stage], Any] | None:
    """A round as arrays, from its two stages: intermediate ``used[u]`` is entered from the states
    ``sources[u]`` with ``weights[u]`` (over the common denominator) and leads to the states
    ``(used[u] // 12) * 4 + j`` with weights ``q`` out of 36 for ``(j, q)`` in ``nexts[used[u]]``,
    or ends the duel with the packed weights ``terms[used[u]]`` (``kb`` bits a field, first / second
    / draw); ``dterm[s]`` are the rounds from state ``s`` that destroy a unit. Every state's rounds
    weigh ``common`` in all (so no sum below exceeds it). Returns the two stages (states to the
    intermediates ``0..len(used) - 1``, intermediates to states) and the ``3 x n`` terminal weights
    per state, or None when a weight does not fit in ``int64``."""
    import numpy as np

    if common.bit_length() > 62:
        return None
    nu = len(used)
    len1 = np.fromiter(map(len, sources), np.int64, nu)
    s_flat = np.fromiter(chain.from_iterable(sources), np.int64)
    w_flat = np.fromiter(chain.from_iterable(weights), np.int64)
    u_flat = np.repeat(np.arange(nu), len1)
    nx = [nexts[t] for t in used]
    len2 = np.fromiter(map(len, nx), np.int64, nu)
    c4 = np.fromiter(((t // 12) << 2 for t in used), np.int64, nu)
    j_flat = np.fromiter((j for pairs in nx for j, _ in pairs), np.int64) + np.repeat(c4, len2)
    q_flat = np.fromiter((q for pairs in nx for _, q in pairs), np.int64)
    # an intermediate that leads to no state only ends the duel: it takes no part in the stages
    goes = (len2 > 0)[u_flat]
    casualties = Stage(s_flat[goes], u_flat[goes], w_flat[goes], nu)
    tests = Stage(np.repeat(np.arange(nu), len2), j_flat, q_flat, n)
    term = np.zeros((3, n), dtype=np.int64)
    kmask = (1 << kb) - 1
    for k in range(3):
        per_u = np.fromiter(((terms[t] >> (kb * k)) & kmask for t in used), np.int64, nu)
        np.add.at(term[k], s_flat, w_flat * per_u[u_flat])
        term[k, : len(dterm)] += np.fromiter((d[k] for d in dterm), np.int64, len(dterm))
    return (casualties, tests), term


def propagate(
    stages: Sequence[Stage],
    term: Any,
    weights: list[int],
    den_w: int,
    common: int,
    undecided: Fraction,
    tail: Fraction,
    max_turns: int,
    by_turn: list[dict[int, Fraction]],
    bits: int | None = None,
    progress: Progress | None = None,
) -> tuple[int, Fraction] | None:
    """Propagate the round weights from round 1 (``weights`` over ``den_w``) until the duel is over
    or the unfinished (and not undecided) mass is below ``tail`` or ``max_turns`` is reached, as
    ``simultaneous.simultaneous_duel``'s pure Python loop does. A round is ``stages`` applied in turn (the
    last one's targets are the states; the weight of every path through them is over ``common``;
    :func:`transitions`) and ``term`` (per terminal outcome, the weight of each state's rounds that
    end the duel so). Fills ``by_turn`` and returns ``(horizon, mass beyond)``, or None (and fills
    nothing) when the weights leave limbs narrower than ``MIN_LIMB_BITS``. ``bits`` asks for
    narrower limbs than the widest safe ones (tests: more limbs, more carries).
    ``progress("turns", turn, None)``, if given, is called after each round."""
    import numpy as np

    n = len(weights)
    # the largest total of path weights into one target of any stage (or into one outcome), a
    # little over (floats)
    into = np.ones(n, dtype=np.float64)
    most = float(term.sum(axis=1, dtype=np.float64).max(initial=0.0))
    for stage in stages:
        into = stage.totals(into)
        most = max(most, float(into.max(initial=0.0)))
    b = 62 - (int(most * (1 + 1e-9)) + 1).bit_length()
    b = min(b, 62 - n.bit_length())  # and the mass in play: n limbs summed
    if bits is not None:
        b = min(b, bits)
    if b < MIN_LIMB_BITS:
        return None
    mask = (1 << b) - 1

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
        nx = x
        for stage in stages:
            nx = stage.apply(nx)
        while True:  # carry until every limb is below 2**b
            carry = nx >> b
            if not carry.any():
                break
            if carry[:, -1].any():  # pragma: no cover - the limbs always leave room for a carry
                raise ArithmeticError("round weights outgrew their limbs")
            nx &= mask
            nx[:, 1:] += carry[:, :-1]
        for o in range(len(term)):
            got = to_int(absorbed[o])
            if got:
                by_turn[o][turn] = Fraction(got, den_w)
        x = nx
        if progress is not None:
            progress("turns", turn, None)
    return turn, beyond
