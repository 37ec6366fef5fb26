"""Dice: named dice, seeded sampling and exact distributions with integer weights.

Rules code describes an attack as a distribution of outcomes (``Dist``) and samples it with the
battle's one seeded ``numpy.random.Generator``; the odds engine enumerates the same ``Dist``.
Nothing in shieldwall calls Python's ``random``.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import gcd
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np


def seeded_rng(seed: int | None) -> np.random.Generator:
    """A battle's one generator: ``seed`` (None plays as 0) through a ``numpy.random.SeedSequence``."""
    import numpy as np

    return np.random.default_rng(np.random.SeedSequence(seed if seed is not None else 0))


def copy_rng(rng: np.random.Generator) -> np.random.Generator:
    """A generator that draws exactly what ``rng`` would draw from here on (for a state's copy):
    ``copy.deepcopy(rng)`` made three times faster (a state copied for every look-ahead spends most
    of its copy there). The new bit generator of the same kind is seeded with 0, then given
    ``rng``'s whole state (its counter and any buffered bits); its ``seed_seq`` is not ``rng``'s,
    which nothing that plays a battle reads (it matters only to ``spawn``)."""
    return rng_from_saved(save_rng(rng))


def save_rng(rng: np.random.Generator) -> tuple[Any, Any]:
    """What ``copy_rng(rng)`` copies, taken now and without building a generator: the kind of
    ``rng``'s bit generator and its whole state (or, for another kind of generator, a deep copy).
    ``rng_from_saved`` builds the generator from it when it is first needed (a state's copy made
    for a look-ahead mostly rolls no die: ``type(bg)(0)`` is four fifths of ``copy_rng``'s time)."""
    import numpy as np

    if type(rng) is not np.random.Generator:
        return None, copy.deepcopy(rng)
    bg = rng.bit_generator
    return type(bg), bg.state


def rng_from_saved(saved: tuple[Any, Any]) -> np.random.Generator:
    """The generator ``save_rng`` saved: it draws exactly what the saved one would have drawn from
    the moment it was saved (``copy_rng``'s generator). The saved state is read, not changed."""
    import numpy as np

    kind, state = saved
    if kind is None:
        return copy.deepcopy(state)  # type: ignore[no-any-return]
    new = kind(0)
    new.state = state
    return np.random.Generator(new)


@dataclass(frozen=True, slots=True)
class Die:
    """A die with named, equally likely faces (faces may repeat, as on the average die)."""

    name: str
    faces: tuple[int, ...]

    def roll(self, rng: np.random.Generator) -> int:
        return self.faces[int(rng.integers(len(self.faces)))]

    def roll_n(self, rng: np.random.Generator, n: int) -> list[int]:
        if n <= 0:
            return []
        idx = rng.integers(len(self.faces), size=n)
        return [self.faces[int(i)] for i in idx]

    def dist(self) -> Dist:
        """The faces as a distribution (memoised: a ``Dist`` is immutable)."""
        return _uniform(self.faces)


D6 = Die("d6", (1, 2, 3, 4, 5, 6))
#: The UK "average die": pips 2, 3, 3, 4, 4, 5 (called d5 in the One-Hour Dark Age rules).
AVERAGE_DIE = Die("d5", (2, 3, 3, 4, 4, 5))
D10 = Die("d10", tuple(range(10)))
D100 = Die("d100", tuple(range(1, 101)))

DICE: dict[str, Die] = {d.name: d for d in (D6, AVERAGE_DIE, D10, D100)}


class Dist(Mapping[int, int]):
    """An exact discrete distribution over integers, as integer weights (like icepool).

    ``Dist({0: 1, 2: 3})`` means P(0)=1/4, P(2)=3/4. Weights are reduced by their gcd.
    """

    __slots__ = ("_w", "_total")

    def __init__(self, weights: Mapping[int, int]) -> None:
        w = {int(k): int(v) for k, v in weights.items() if v}
        if not w:
            raise ValueError("a distribution needs at least one outcome with positive weight")
        if any(v < 0 for v in w.values()):
            raise ValueError("weights must be non-negative")
        g = 0
        for v in w.values():
            g = gcd(g, v)
        self._w = {k: v // g for k, v in sorted(w.items())}
        self._total = sum(self._w.values())

    @classmethod
    def uniform(cls, values: Iterable[int]) -> Dist:
        w: dict[int, int] = {}
        for v in values:
            w[v] = w.get(v, 0) + 1
        return cls(w)

    @classmethod
    def constant(cls, value: int) -> Dist:
        return cls({value: 1})

    @classmethod
    def from_fractions(cls, probs: Mapping[int, Fraction]) -> Dist:
        den = 1
        for p in probs.values():
            den = den * p.denominator // gcd(den, p.denominator)
        return cls({k: int(p * den) for k, p in probs.items()})

    # Mapping protocol -------------------------------------------------------------------------
    def __getitem__(self, key: int) -> int:
        return self._w[key]

    def __iter__(self) -> Iterator[int]:
        return iter(self._w)

    def __len__(self) -> int:
        return len(self._w)

    def __repr__(self) -> str:
        return f"Dist({self._w})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Dist):
            return self._w == other._w
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self._w.items()))

    # Queries ----------------------------------------------------------------------------------
    @property
    def total(self) -> int:
        return self._total

    def probability(self, value: int) -> Fraction:
        return Fraction(self._w.get(value, 0), self._total)

    def probabilities(self) -> dict[int, Fraction]:
        return {k: Fraction(v, self._total) for k, v in self._w.items()}

    def mean(self) -> Fraction:
        return Fraction(sum(k * v for k, v in self._w.items()), self._total)

    def p_where(self, pred: Callable[[int], bool]) -> Fraction:
        return Fraction(sum(v for k, v in self._w.items() if pred(k)), self._total)

    # Algebra ----------------------------------------------------------------------------------
    def map(self, f: Callable[[int], int]) -> Dist:
        w: dict[int, int] = {}
        for k, v in self._w.items():
            nk = f(k)
            w[nk] = w.get(nk, 0) + v
        return Dist(w)

    def __add__(self, other: Dist | int) -> Dist:
        if isinstance(other, int):
            return self.map(lambda k: k + other)
        w: dict[int, int] = {}
        for a, va in self._w.items():
            for b, vb in other._w.items():
                w[a + b] = w.get(a + b, 0) + va * vb
        return Dist(w)

    __radd__ = __add__

    def __mul__(self, n: int) -> Dist:
        """Sum of ``n`` independent copies (``3 * d`` is three dice added)."""
        if n < 0:
            raise ValueError("cannot sum a negative number of dice")
        out = Dist.constant(0)
        for _ in range(n):
            out = out + self
        return out

    __rmul__ = __mul__

    def sample(self, rng: np.random.Generator) -> int:
        """Draw one outcome with the battle's generator (one ``integers`` call)."""
        r = int(rng.integers(self._total))
        for k, v in self._w.items():
            if r < v:
                return k
            r -= v
        raise AssertionError("unreachable")


@lru_cache(maxsize=64)
def _uniform(faces: tuple[int, ...]) -> Dist:
    return Dist.uniform(faces)


def pool(die: Die, n: int) -> Dist:
    """The distribution of the sum of ``n`` of ``die``."""
    return die.dist() * n
