"""Dice and exact distributions, checked against icepool as an independent oracle."""

from __future__ import annotations

from fractions import Fraction

import icepool
import numpy as np
import pytest

from shieldwall.core.dice import AVERAGE_DIE, D6, D10, D100, DICE, Die, Dist, copy_rng, pool, seeded_rng


def oracle(die: icepool.Die) -> dict[int, Fraction]:
    """icepool's exact probabilities as {outcome: Fraction}, dropping zero-weight outcomes."""
    den = die.denominator()
    return {int(o): Fraction(q, den) for o, q in die.items() if q}


# ---------------------------------------------------------------------------------------------
# Named dice


def test_named_dice_faces() -> None:
    assert D6.faces == (1, 2, 3, 4, 5, 6)
    assert AVERAGE_DIE.name == "d5"
    assert AVERAGE_DIE.faces == (2, 3, 3, 4, 4, 5)
    assert D10.faces == tuple(range(10))
    assert D100.faces == tuple(range(1, 101))
    assert DICE["d6"] is D6
    assert DICE["d5"] is AVERAGE_DIE
    assert DICE["d100"] is D100
    assert set(DICE) == {"d6", "d5", "d10", "d100"}


def test_average_die_distribution() -> None:
    # faces 2,3,3,4,4,5: P(2)=1/6, P(3)=2/6, P(4)=2/6, P(5)=1/6 -> weights reduce to 1,2,2,1
    d = AVERAGE_DIE.dist()
    assert dict(d) == {2: 1, 3: 2, 4: 2, 5: 1}
    assert d.total == 6
    assert d.mean() == Fraction(7, 2)
    assert d.probabilities() == oracle(icepool.Die([2, 3, 3, 4, 4, 5]))


@pytest.mark.parametrize("die", [D6, AVERAGE_DIE, D10, D100], ids=lambda d: d.name)
def test_roll_returns_only_faces_and_covers_them(die: Die) -> None:
    rng = np.random.default_rng(1234)
    rolls = [die.roll(rng) for _ in range(3000)]
    assert set(rolls) <= set(die.faces)
    many = die.roll_n(rng, 20000)
    assert len(many) == 20000
    assert set(many) == set(die.faces)  # every face turns up in 20k rolls (even each d100 face)
    assert all(isinstance(v, int) for v in many[:50])


@pytest.mark.parametrize("die", [D6, AVERAGE_DIE, D100], ids=lambda d: d.name)
def test_rolls_reproducible_with_same_seed(die: Die) -> None:
    a = np.random.default_rng(99)
    b = np.random.default_rng(99)
    assert [die.roll(a) for _ in range(50)] == [die.roll(b) for _ in range(50)]
    assert die.roll_n(a, 100) == die.roll_n(b, 100)
    c = np.random.default_rng(100)
    assert die.roll_n(np.random.default_rng(99), 100) != die.roll_n(c, 100)


def test_roll_n_nonpositive_is_empty_and_consumes_nothing() -> None:
    rng = np.random.default_rng(5)
    assert D6.roll_n(rng, 0) == []
    assert D6.roll_n(rng, -3) == []
    # the generator was not advanced: same next draw as a fresh one
    assert D6.roll(rng) == D6.roll(np.random.default_rng(5))


def test_roll_n_frequencies_match_average_die() -> None:
    rng = np.random.default_rng(2024)
    n = 60_000
    rolls = np.array(AVERAGE_DIE.roll_n(rng, n))
    # P(3) = 1/3; sd of the frequency = sqrt(1/3*2/3/60000) ~ 0.0019; allow 5 sd = 0.01
    assert abs(np.mean(rolls == 3) - 1 / 3) < 0.01
    assert abs(np.mean(rolls == 5) - 1 / 6) < 0.01
    assert abs(rolls.mean() - 3.5) < 0.02  # sd of the mean ~ 0.0037


# ---------------------------------------------------------------------------------------------
# Dist construction and queries


def test_dist_gcd_reduction_and_mapping_protocol() -> None:
    d = Dist({0: 2, 2: 6})
    assert dict(d) == {0: 1, 2: 3}
    assert d.total == 4
    assert d[2] == 3
    assert len(d) == 2
    assert list(d) == [0, 2]
    assert 1 not in d
    with pytest.raises(KeyError):
        d[1]
    assert d.probability(0) == Fraction(1, 4)
    assert d.probability(2) == Fraction(3, 4)
    assert d.probability(7) == 0


def test_dist_zero_weights_dropped_and_sorted() -> None:
    d = Dist({5: 3, 1: 0, -2: 3})
    assert list(d) == [-2, 5]
    assert dict(d) == {-2: 1, 5: 1}


def test_dist_equality_and_hash() -> None:
    assert Dist({1: 1, 2: 1}) == Dist({1: 7, 2: 7})
    assert hash(Dist({1: 1, 2: 1})) == hash(Dist({2: 4, 1: 4}))
    assert Dist({1: 1, 2: 1}) != Dist({1: 1, 2: 2})
    assert Dist({1: 1}) != Dist({2: 1})
    assert Dist({1: 1}) != {1: 1}  # not equal to a plain dict
    assert len({Dist({1: 2}), Dist({1: 5}), Dist({3: 1})}) == 2


@pytest.mark.parametrize("weights", [{}, {1: 0}, {1: 0, 2: 0}])
def test_dist_empty_rejected(weights: dict[int, int]) -> None:
    with pytest.raises(ValueError, match="at least one outcome"):
        Dist(weights)


@pytest.mark.parametrize("weights", [{1: -1}, {1: 2, 2: -1}, {0: -3, 1: 0}])
def test_dist_negative_weights_rejected(weights: dict[int, int]) -> None:
    with pytest.raises(ValueError, match="non-negative"):
        Dist(weights)


def test_uniform_and_constant() -> None:
    assert Dist.uniform(range(1, 7)).probabilities() == oracle(icepool.d6)
    assert Dist.uniform([1, 1, 2]) == Dist({1: 2, 2: 1})
    c = Dist.constant(4)
    assert dict(c) == {4: 1}
    assert c.mean() == 4
    assert c.probability(4) == 1
    with pytest.raises(ValueError):
        Dist.uniform([])


def test_from_fractions() -> None:
    d = Dist.from_fractions({0: Fraction(1, 6), 1: Fraction(1, 2), 2: Fraction(1, 3)})
    # lcm(6, 2, 3) = 6 -> weights 1, 3, 2
    assert dict(d) == {0: 1, 1: 3, 2: 2}
    assert d.total == 6
    assert d.probabilities() == {0: Fraction(1, 6), 1: Fraction(1, 2), 2: Fraction(1, 3)}
    # zero probabilities are dropped, gcd-reduced
    e = Dist.from_fractions({3: Fraction(2, 4), 4: Fraction(0), 5: Fraction(1, 2)})
    assert dict(e) == {3: 1, 5: 1}
    with pytest.raises(ValueError):
        Dist.from_fractions({1: Fraction(-1, 2), 2: Fraction(3, 2)})


def test_mean_and_p_where_against_icepool() -> None:
    d = D6.dist()
    assert d.mean() == Fraction(7, 2) == icepool.d6.mean()
    assert d.p_where(lambda k: k >= 4) == Fraction(1, 2)
    assert d.p_where(lambda k: k >= 5) == Fraction(1, 3)
    assert d.p_where(lambda k: k > 6) == 0
    three = pool(D6, 3)
    ice = 3 @ icepool.d6
    assert three.mean() == Fraction(21, 2) == ice.mean()
    assert three.p_where(lambda k: k >= 15) == oracle(ice >= 15)[True] == Fraction(20, 216)


# ---------------------------------------------------------------------------------------------
# Dist algebra


def test_add_int_shifts() -> None:
    d = D6.dist() + 2
    assert d.probabilities() == oracle(icepool.d6 + 2)
    assert list(d) == [3, 4, 5, 6, 7, 8]
    assert (2 + D6.dist()) == d
    assert (D6.dist() + -1).probabilities() == oracle(icepool.d6 - 1)


def test_add_dist_convolution() -> None:
    two = D6.dist() + D6.dist()
    assert two.probabilities() == oracle(icepool.d6 + icepool.d6)
    assert two[7] == 6 and two.total == 36
    mixed = D6.dist() + AVERAGE_DIE.dist()
    assert mixed.probabilities() == oracle(icepool.d6 + icepool.Die([2, 3, 3, 4, 4, 5]))
    assert sum([D6.dist(), D6.dist()]) == two  # 0 + d via __radd__


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5])
def test_mul_sums_independent_copies(n: int) -> None:
    d = D6.dist() * n
    expected = oracle(n @ icepool.d6) if n else {0: Fraction(1)}
    assert d.probabilities() == expected
    assert (n * D6.dist()) == d
    assert pool(D6, n) == d


def test_three_average_dice_and_d100() -> None:
    avg = icepool.Die([2, 3, 3, 4, 4, 5])
    assert pool(AVERAGE_DIE, 3).probabilities() == oracle(3 @ avg)
    assert pool(D100, 2).probabilities() == oracle(2 @ icepool.d100)


def test_mul_negative_rejected() -> None:
    with pytest.raises(ValueError):
        D6.dist() * -1


def test_map_merges_outcomes() -> None:
    # hits on 4+ of a d6
    hits = D6.dist().map(lambda k: 1 if k >= 4 else 0)
    assert dict(hits) == {0: 1, 1: 1}
    assert hits.probabilities() == oracle(icepool.d6.map(lambda k: 1 if k >= 4 else 0))
    halved = (D6.dist() + D6.dist()).map(lambda k: k // 2)
    assert halved.probabilities() == oracle((icepool.d6 + icepool.d6).map(lambda k: k // 2))
    # three dice, count of 5+ results, as a sum of per-die maps
    per = D6.dist().map(lambda k: int(k >= 5))
    assert (per * 3).probabilities() == oracle(3 @ icepool.d6.map(lambda k: int(k >= 5)))


def test_algebra_does_not_mutate_operands() -> None:
    d = D6.dist()
    before = dict(d)
    _ = d + d, d + 3, d * 4, d.map(lambda k: -k)
    assert dict(d) == before


# ---------------------------------------------------------------------------------------------
# Sampling


def test_sample_reproducible_and_in_support() -> None:
    d = Dist({0: 1, 2: 3, 9: 2})
    a = [d.sample(np.random.default_rng(7)) for _ in range(5)]
    assert len(set(a)) == 1  # same fresh seed, same draw
    rng1, rng2 = np.random.default_rng(11), np.random.default_rng(11)
    s1 = [d.sample(rng1) for _ in range(200)]
    s2 = [d.sample(rng2) for _ in range(200)]
    assert s1 == s2
    assert set(s1) == {0, 2, 9}


def test_sample_uses_one_integers_call() -> None:
    d = pool(D6, 3)
    rng = np.random.default_rng(3)
    d.sample(rng)
    ref = np.random.default_rng(3)
    ref.integers(d.total)
    assert rng.integers(1 << 30) == ref.integers(1 << 30)


def test_sample_frequencies() -> None:
    d = Dist({0: 1, 2: 3}) + Dist({0: 1, 5: 1})  # {0: 1, 2: 3, 5: 1, 7: 3} / 8
    probs = d.probabilities()
    assert probs == {0: Fraction(1, 8), 2: Fraction(3, 8), 5: Fraction(1, 8), 7: Fraction(3, 8)}
    rng = np.random.default_rng(20240601)
    n = 60_000
    draws = np.array([d.sample(rng) for _ in range(n)])
    # each frequency's sd <= sqrt(0.25/60000) ~ 0.002; tolerance 0.01 is 5 sd
    for k, p in probs.items():
        assert abs(np.mean(draws == k) - float(p)) < 0.01, k
    assert set(np.unique(draws)) == set(probs)


def test_sample_three_d6_frequencies_against_icepool() -> None:
    d = pool(D6, 3)
    ice = oracle(3 @ icepool.d6)
    rng = np.random.default_rng(77)
    n = 60_000
    counts: dict[int, int] = {}
    for _ in range(n):
        k = d.sample(rng)
        counts[k] = counts.get(k, 0) + 1
    assert set(counts) <= set(ice)
    for k, p in ice.items():
        # largest p is 1/8: sd ~ 0.00135; 0.007 is > 5 sd
        assert abs(counts.get(k, 0) / n - float(p)) < 0.007, k


def test_seeded_rng_follows_the_seed_sequence_and_plays_none_as_zero() -> None:
    want = np.random.default_rng(np.random.SeedSequence(7)).integers(0, 1000, 5).tolist()
    assert seeded_rng(7).integers(0, 1000, 5).tolist() == want
    assert seeded_rng(None).integers(0, 1000, 5).tolist() == seeded_rng(0).integers(0, 1000, 5).tolist()
    assert seeded_rng(8).integers(0, 1000, 5).tolist() != want


def _same(a: object, b: object) -> bool:
    """Equal bit generator states (dicts of numbers and arrays)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.array_equal(a, b))  # type: ignore[arg-type]
    return a == b


@pytest.mark.parametrize("kind", ["PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64"])
def test_copy_rng_draws_what_the_original_draws_and_leaves_it_alone(kind: str) -> None:
    """``copy_rng`` (a state's copy) continues exactly where the generator stands, buffered bits
    included (a 32-bit draw leaves half a 64-bit word), as ``copy.deepcopy`` does; the two then go
    their own ways."""
    import copy

    rng = np.random.Generator(getattr(np.random, kind)(7))
    rng.integers(0, 6, size=5)
    rng.integers(0, 2**31, dtype=np.uint32)  # leaves a buffered half word in some bit generators
    fast, slow = copy_rng(rng), copy.deepcopy(rng)
    assert fast is not rng and fast.bit_generator is not rng.bit_generator
    assert _same(fast.bit_generator.state, rng.bit_generator.state)
    want = [
        slow.integers(1, 7, size=40).tolist(),
        slow.random(3).tolist(),
        int(slow.integers(0, 9, dtype=np.uint32)),
    ]
    got = [
        fast.integers(1, 7, size=40).tolist(),
        fast.random(3).tolist(),
        int(fast.integers(0, 9, dtype=np.uint32)),
    ]
    assert got == want
    assert rng.integers(1, 7, size=40).tolist() == want[0]  # the original did not move
    assert (
        copy_rng(seeded_rng(3)).integers(1, 7, size=10).tolist()
        == seeded_rng(3).integers(1, 7, size=10).tolist()
    )
