"""Per-battle seeds derived from one simulation seed.

Battle ``i`` of a simulation with seed ``S`` gets the seed of the ``i``-th child of
``numpy.random.SeedSequence(S)`` -- exactly ``SeedSequence(S).spawn(N)[i]`` -- turned into a
non-negative 63-bit integer (so it fits a Parquet ``int64`` and can be typed back into
``shieldwall battle --seed``). A battle's seed depends only on ``S`` and ``i``: never on the number
of workers, the backend, the batch size or the other battles of the run.

Children are built one at a time (``SeedSequence(S, spawn_key=(i,))`` is the same child that
``spawn`` makes), so the seeds of a million battles are never all held in memory.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

#: Seeds are masked to 63 bits: non-negative and representable as a signed 64-bit integer.
_MASK = (1 << 63) - 1


def child_seed(seed: int, index: int) -> int:
    """The seed of battle ``index`` (0-based) of a simulation with seed ``seed``."""
    if index < 0:
        raise ValueError("battle index must be non-negative")
    ss = np.random.SeedSequence(seed, spawn_key=(index,))
    return int(ss.generate_state(1, dtype=np.uint64)[0]) & _MASK


def battle_seeds(seed: int, n: int, start: int = 0) -> Iterator[tuple[int, int]]:
    """``(index, seed)`` for battles ``start .. start+n-1``, lazily."""
    for i in range(start, start + n):
        yield i, child_seed(seed, i)


def spawned_seeds(seed: int, n: int) -> list[int]:
    """The same seeds through ``SeedSequence(seed).spawn(n)`` (the reference the tests compare to)."""
    return [
        int(c.generate_state(1, dtype=np.uint64)[0]) & _MASK for c in np.random.SeedSequence(seed).spawn(n)
    ]
