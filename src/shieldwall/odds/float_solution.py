"""Duels to the finish solved in float64 (the default; ``--exact`` asks for the exact fractions):
the solutions, and the rounding-error bound they carry.

Both float solvers (:mod:`shieldwall.odds.float_alternating`, :mod:`shieldwall.odds.float_rounds`)
compute every probability from the rules' integer weights with additions, multiplications and
divisions of non-negative numbers only. A value computed so, with at most ``N`` roundings on any
path from the exact inputs, has a relative error of at most ``gamma(N) = N u / (1 - N u)``, ``u =
2**-53`` the unit roundoff of float64 (Higham, *Accuracy and Stability of Numerical Algorithms*,
2nd ed., lemma 3.1 and section 3.1); every probability is at most 1, so ``gamma(N)`` also bounds its
absolute error. Each solver counts ``N`` generously from the sizes of the duel and reports the bound
as ``error_bound``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

#: the unit roundoff of float64
UNIT_ROUNDOFF = 2.0**-53


def gamma(n: int) -> float:
    """``n u / (1 - n u)``: the relative error of a value after at most ``n`` roundings of
    subtraction-free arithmetic (1.0 when the count is too large for the bound to say anything).

    >>> gamma(0), gamma(1000) < 1.2e-13
    (0.0, True)
    """
    nu = n * UNIT_ROUNDOFF
    return 1.0 if nu >= 0.5 else nu / (1 - nu)


def _turns(maps: tuple[Mapping[int, float], ...]) -> dict[int, float]:
    out: dict[int, float] = {}
    for t in sorted(set().union(*maps)):
        p = sum(m.get(t, 0.0) for m in maps)
        if p:
            out[t] = p
    return out


@dataclass(frozen=True, slots=True)
class FloatDuel:
    """An alternating duel (``markov.alternating_duel``) solved in float64; ``error_bound`` bounds
    the absolute error of every probability in it."""

    first_wins: float
    second_wins: float
    undecided: float
    first_by_turn: Mapping[int, float]
    second_by_turn: Mapping[int, float]
    beyond: float
    horizon: int
    error_bound: float

    @property
    def turns(self) -> dict[int, float]:
        """P(the duel ends in full turn T), for T up to the horizon (only T with P > 0)."""
        return _turns((self.first_by_turn, self.second_by_turn))


@dataclass(frozen=True, slots=True)
class FloatRounds:
    """A duel of simultaneous rounds (``simultaneous.simultaneous_duel``) solved in float64;
    ``error_bound`` bounds the absolute error of every probability in it."""

    first_wins: float
    second_wins: float
    draw: float
    undecided: float
    first_by_turn: Mapping[int, float]
    second_by_turn: Mapping[int, float]
    draw_by_turn: Mapping[int, float]
    beyond: float
    horizon: int
    error_bound: float

    @property
    def turns(self) -> dict[int, float]:
        """P(the duel ends in round T), for T up to the horizon (only T with P > 0)."""
        return _turns((self.first_by_turn, self.second_by_turn, self.draw_by_turn))
