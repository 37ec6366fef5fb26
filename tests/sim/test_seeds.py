"""Per-battle seeds: SeedSequence spawning, independent of how the run is cut up."""

from __future__ import annotations

import numpy as np

from shieldwall.sim.seeds import battle_seeds, child_seed, spawned_seeds


def test_child_seeds_are_the_spawned_children() -> None:
    for seed in (0, 1, 12345, 2**40 + 7):
        ref = spawned_seeds(seed, 20)
        assert [s for _, s in battle_seeds(seed, 20)] == ref
        kids = np.random.SeedSequence(seed).spawn(20)
        assert ref == [int(k.generate_state(1, dtype=np.uint64)[0]) & (2**63 - 1) for k in kids]


def test_a_battles_seed_depends_only_on_the_run_seed_and_its_index() -> None:
    whole = list(battle_seeds(7, 30))
    pieces = list(battle_seeds(7, 10)) + list(battle_seeds(7, 12, start=10)) + list(battle_seeds(7, 8, 22))
    assert whole == pieces
    assert [i for i, _ in whole] == list(range(30))
    assert child_seed(7, 13) == whole[13][1]


def test_seeds_fit_a_signed_64_bit_column_and_differ() -> None:
    seeds = [s for _, s in battle_seeds(3, 500)]
    assert all(0 <= s < 2**63 for s in seeds)
    assert len(set(seeds)) == 500
    assert set(seeds).isdisjoint(s for _, s in battle_seeds(4, 500))
