"""The simultaneous-rounds duel solver (``simultaneous.simultaneous_duel``) against its two predecessors.

``reference_rounds.py`` is the first, ``Fraction`` version; ``packed_rounds.py`` the second (one
stage per round, values packed three to an integer). The current solver goes through intermediate
states (casualties, then morale tests), merges the two stages of its round distribution when that
is cheaper, and finds the win probabilities forwards (the start mass pushed down the blocks, where
both oracles solve backwards): every result must be *identical* (exact fractions, the same horizon
and tail). Random round models (any casualty distributions, any test outcomes, cycles, units that
can never hurt each other) exercise what the rules' models may never produce.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from packed_rounds import packed_simultaneous_duel
from reference_rounds import reference_simultaneous_duel

from shieldwall.odds.simultaneous import RoundsSolution, Weights, simultaneous_duel
from shieldwall.rulesets.into_the_dark import odds as itd

_FLAGS = ((False, False), (False, True), (True, False), (True, True))


def _wins(sol: RoundsSolution) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """The win probabilities of a solution (the round distribution left out)."""
    return sol.first_wins, sol.second_wins, sol.draw, sol.undecided


class RandomModel:
    """A random round model: casualty distributions per (side, figures, shaken, round 1 or later),
    test outcomes (weights out of 36) per (figures, figures, flags, loser), an opening. Every
    answer is a deterministic function of the seed and the question."""

    def __init__(
        self, seed: int, na: int, nb: int, max_hits: int, stall: int, end: int, impetuous: bool
    ) -> None:
        self.seed, self.na, self.nb = seed, na, nb
        self.max_hits, self.stall, self.end, self.impetuous = max_hits, stall, end, impetuous

    def _rng(self, *key: object) -> random.Random:
        return random.Random(f"{self.seed}:{key!r}")

    @property
    def start(self) -> tuple[int, int]:
        return self.na, self.nb

    def opening(self) -> tuple[Weights, int]:
        if not self.impetuous:
            return (((False, False), 1),), 1
        r = self._rng("opening")
        out: dict[object, int] = {}
        for _ in range(6):
            k: object = r.choice(["A", (False, False), (False, True)])
            out[k] = out.get(k, 0) + 1
        return tuple(out.items()), 6

    def casualties(
        self, attacker: str, figures: int, shaken: bool, later: bool
    ) -> tuple[tuple[tuple[int, int], ...], int]:
        r = self._rng("cas", attacker, figures, shaken, later)
        # ``stall``: how often a side can do nothing at all (0: never stuck; 3: never hurts)
        if self.stall >= 3 or (self.stall == 2 and attacker == "A" and figures == 1):
            return ((0, 1),), 1
        n = r.randint(0, self.max_hits + (0 if later else 2))
        items = tuple((x, r.randint(0 if x else 1, 5)) for x in range(n + 1))
        items = tuple((x, w) for x, w in items if w)
        if self.stall == 0 and len(items) > 1:
            items = tuple((x, w) for x, w in items if x) or items
        return items, sum(w for _, w in items)

    def after_melee(self, fa: int, fb: int, sa: bool, sb: bool, loser: str, later: bool) -> Weights:
        r = self._rng("tests", fa, fb, sa, sb, loser, later)
        choices: list[object] = list(_FLAGS)
        if self.end:  # how often the tests end the duel
            choices += ["A", "B", "D"][: self.end]
        out: dict[object, int] = {}
        left = 36
        while left:
            q = min(left, r.choice((1, 2, 3, 6, 12)))
            k = r.choice(choices)
            out[k] = out.get(k, 0) + q
            left -= q
        return tuple(out.items())


models = st.builds(
    RandomModel,
    seed=st.integers(0, 10**6),
    na=st.integers(1, 6),
    nb=st.integers(1, 6),
    max_hits=st.integers(0, 3),
    stall=st.integers(0, 3),
    end=st.integers(0, 3),
    impetuous=st.booleans(),
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(
    model=models,
    merge=st.sampled_from([None, True, False]),
    limbs=st.sampled_from([None, True, False]),
    max_turns=st.sampled_from([1, 2, 5, 1000]),
)
def test_random_models_match_the_reference_solver(
    model: RandomModel, merge: bool | None, limbs: bool | None, max_turns: int
) -> None:
    tail = Fraction(1, 10**6)  # short horizons, so that the tail is often cut
    fast = simultaneous_duel(model, tail, max_turns, merge=merge, limbs=limbs)
    if max_turns <= 1:
        ref = reference_simultaneous_duel(model, tail, 2)
        assert _wins(fast) == _wins(ref)
        assert fast.horizon == 1
        return
    assert fast == reference_simultaneous_duel(model, tail, max_turns)
    assert fast == packed_simultaneous_duel(model, tail, max_turns)
    total = fast.first_wins + fast.second_wins + fast.draw + fast.undecided
    assert total == 1


@pytest.mark.parametrize(("merge", "limbs"), [(True, True), (True, False), (False, False)])
@pytest.mark.parametrize(
    ("first", "second", "flags"),
    [
        ("12 CAF average", "12 CPF average", (False, False, False, False)),
        ("12 LAM elite", "12 CUF fanatic warband", (True, True, False, False)),
        ("10 CAF average shieldwall", "10 CAF average", (False, False, True, True)),
        ("16 CPF average shieldwall", "14 CUF average warband", (False, False, False, False)),
    ],
)
def test_both_round_distributions_equal_the_original(
    first: str, second: str, flags: tuple[bool, ...], merge: bool, limbs: bool
) -> None:
    """The rules' own models, every form of the round distribution (merged or in two stages, in
    numpy limbs or Python integers), against the Fraction oracle."""
    a, b = itd.side(itd.parse_spec(first)), itd.side(itd.parse_spec(second))
    fast = simultaneous_duel(itd.DuelModel(a, b, *flags), merge=merge, limbs=limbs)
    assert fast == reference_simultaneous_duel(itd.DuelModel(a, b, *flags))


@pytest.mark.slow
def test_large_duel_equals_the_packed_solver() -> None:
    """24 against 24 (12 diagonals of blocks more, 3,500-digit denominators): identical to the
    previous solver (which absorbs backwards), with and without the win-probabilities-only
    shortcut."""
    a = itd.side(itd.parse_spec("24 CPF average shieldwall"))
    b = itd.side(itd.parse_spec("24 CUF average warband"))
    fast = simultaneous_duel(itd.DuelModel(a, b, False, False, False, False))
    old = packed_simultaneous_duel(itd.DuelModel(a, b, False, False, False, False))
    assert fast == old
    old = packed_simultaneous_duel(itd.DuelModel(a, b, True, False, False, False), max_turns=1)
    quick = simultaneous_duel(itd.DuelModel(a, b, True, False, False, False), max_turns=1)
    assert (quick.first_wins, quick.second_wins, quick.draw) == (old.first_wins, old.second_wins, old.draw)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(model=models)
def test_forward_absorption_equals_both_oracles(model: RandomModel) -> None:
    """The win probabilities pushed forwards (the start mass) are the same fractions as those solved
    backwards (three values per state, ``packed_rounds``) and the Fraction oracle's: random models
    with units that can never hurt each other (undecided), draws, duels ended in the first round,
    and blocks whose states cycle among themselves (rounds with no casualties)."""
    tail = Fraction(1, 10**6)
    fwd = simultaneous_duel(model, tail, 1)
    back = packed_simultaneous_duel(model, tail, 1)
    assert _wins(fwd) == _wins(back)
    ref = reference_simultaneous_duel(model, tail, 2)
    assert _wins(fwd) == _wins(ref)


@pytest.mark.parametrize(
    "model",
    [
        RandomModel(1, 4, 5, 2, 3, 0, False),  # never hurt each other, never rout: all undecided
        RandomModel(2, 5, 4, 2, 3, 2, True),  # only the tests end it (no casualties ever)
        RandomModel(3, 6, 6, 1, 1, 3, True),  # cycles, draws, first-round wins
        RandomModel(4, 6, 5, 3, 2, 0, False),  # the first unit stuck at one figure
        RandomModel(5, 1, 1, 0, 1, 3, True),  # one block
    ],
)
def test_forward_absorption_edge_cases(model: RandomModel) -> None:
    """Hand-picked random models, the whole solution (round distribution included) against both
    oracles, and the win probabilities alone."""
    tail = Fraction(1, 10**6)
    ref = reference_simultaneous_duel(model, tail, 1000)
    assert simultaneous_duel(model, tail, 1000) == ref
    assert packed_simultaneous_duel(model, tail, 1000) == ref
    quick = simultaneous_duel(model, tail, 1)
    assert _wins(quick) == _wins(ref)


@settings(max_examples=300)
@given(st.lists(st.integers(-(10**6), 10**6), min_size=16, max_size=16))
def test_the_4x4_adjugate_matches_cofactor_expansion(entries: list[int]) -> None:
    """The block solve's closed-form 4x4 adjugate (``exact_linear.adjugate4``) is the adjugate: every
    entry is the signed 3x3 minor, computed here by the oracle's plain cofactor expansion."""
    from packed_rounds import _det

    from shieldwall.odds.exact_linear import adjugate4

    rows = [entries[4 * r : 4 * r + 4] for r in range(4)]
    adj, det = adjugate4(tuple(tuple(r) for r in rows))
    assert det == _det(rows)
    for r in range(4):
        for c in range(4):
            minor = [row[:c] + row[c + 1 :] for k, row in enumerate(rows) if k != r]
            assert adj[c][r] == (-1) ** (r + c) * _det(minor)


@pytest.mark.parametrize("bits", [8, 13, 31])
def test_narrow_limbs_carry_exactly(bits: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The round distribution in limbs narrower than needed (many limbs, several carry passes a
    round, the limbs growing as the weights do) is still the Python loop's, integer for integer."""
    from functools import partial

    from shieldwall.odds import round_limbs

    a = itd.side(itd.parse_spec("12 LAM elite"))
    b = itd.side(itd.parse_spec("12 CUF fanatic warband"))
    want = simultaneous_duel(itd.DuelModel(a, b, True, False, False, False), limbs=False)
    monkeypatch.setattr(round_limbs, "propagate", partial(round_limbs.propagate, bits=bits))
    assert simultaneous_duel(itd.DuelModel(a, b, True, False, False, False), limbs=True) == want


@pytest.mark.parametrize("chunk", [1, 64, 1 << 16])
def test_a_stage_is_the_sparse_product_in_exact_integers(chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``round_limbs.Stage.apply`` (entries sorted by target, summed a run of segments at a time) is
    the sparse product computed in Python integers: pairs given twice summed, targets with no entry
    zero, sums near ``2**62`` exact, for runs of a few entries or all of them."""
    import numpy as np

    from shieldwall.odds import round_limbs

    monkeypatch.setattr(round_limbs, "CHUNK", chunk)
    rng = random.Random(chunk)
    n_src, n_tgt, limbs = 40, 30, 5
    entries = [
        (rng.randrange(n_src), rng.randrange(0, n_tgt, 2), rng.randrange(1, 1 << 20)) for _ in range(600)
    ]
    entries += entries[:50]  # repeated pairs
    src, tgt, wts = (np.array(col, dtype=np.int64) for col in zip(*entries, strict=True))
    x = [[rng.randrange(1 << 32) for _ in range(limbs)] for _ in range(n_src)]
    want = [[0] * limbs for _ in range(n_tgt)]
    for s, t, w in entries:
        for li in range(limbs):
            want[t][li] += w * x[s][li]
    assert 1 << 56 < max(map(max, want)) < 1 << 63
    got = round_limbs.Stage(src, tgt, wts, n_tgt).apply(np.array(x, dtype=np.int64))
    assert got.tolist() == want


def test_limbs_refuse_weights_too_wide_for_them() -> None:
    """Weights whose sums leave limbs under 8 bits, or that do not fit in int64, are left to the
    Python loop (None)."""
    import numpy as np

    from shieldwall.odds import round_limbs

    one = np.array([0], dtype=np.int64)
    wide = np.array([1 << 56], dtype=np.int64)
    term = np.zeros((3, 2), dtype=np.int64)
    by_turn: list[dict[int, Fraction]] = [{}, {}, {}]
    tail = Fraction(1, 10**15)
    assert (
        round_limbs.propagate(
            (round_limbs.Stage(one, one, wide, 2),),
            term,
            [1, 0],
            1,
            1 << 56,
            Fraction(0),
            tail,
            1000,
            by_turn,
        )
        is None
    )
    assert by_turn == [{}, {}, {}]
    assert (
        round_limbs.transitions([0], [[0]], [[1 << 58]], [[(0, 36)]], [0], [(0, 0, 0)], 8, 2, 36 << 58)
        is None
    )
