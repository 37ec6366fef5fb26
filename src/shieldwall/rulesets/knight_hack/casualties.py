"""Percentile casualties (Clarification 3): one d100 against a target number T.

"find melee factor by type of combatants add to this all applicable modifiers. The number you need
to roll with percentage dice to inflict casualties is that number or less. If your roll was half
the number you required then you inflict an additional casualty. If the number rolled is also half
the number required to inflict the second casualty then you inflict a total of 3 casualties. This
is all done from the original roll and not rolled 3 times."

Written once as "the distribution of outcomes given a situation" (:meth:`CasualtySituation.dist`,
an enumeration of the 100 faces) and "a sample from it" (:meth:`CasualtySituation.roll`, one face
of the battle's generator); both go through :meth:`CasualtySituation.outcome`, so the odds and the
game can never disagree. Rulings R2-R4 (``docs/rulings/knight-hack.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from shieldwall.core.dice import D100, Dist

if TYPE_CHECKING:
    import numpy as np

#: most casualties one roll inflicts ("a total of 3 casualties")
MAX_ROLLED = 3

AutoMode = Literal["floor", "add"]


def rolled_casualties(r: int, target: int) -> int:
    """Casualties of the d100 face ``r`` (1..100, "00" read as 100) against ``target``.

    ``r <= T`` one (knight-hack:casualties.target), ``2r <= T`` two, ``4r <= T`` three
    (knight-hack:casualties.multiple): "half" compared exactly, T never rounded (R3).

    >>> [rolled_casualties(r, 60) for r in (61, 60, 31, 30, 16, 15, 1)]
    [0, 1, 1, 2, 2, 3, 3]
    >>> [rolled_casualties(r, 45) for r in (23, 22, 12, 11)]
    [1, 2, 2, 3]
    """
    if not 1 <= r <= 100:
        raise ValueError(f"a d100 face is 1..100, got {r}")
    if 4 * r <= target:
        return 3
    if 2 * r <= target:
        return 2
    return 1 if r <= target else 0


@dataclass(frozen=True, slots=True)
class CasualtySituation:
    """One unit's casualty roll in one round: its target number and what caps the result.

    ``automatic`` is the Melee Casualty Chart's automatic casualties (0, 1 or 2;
    knight-hack:casualties.automatic): a floor under the roll by ruling R4 (``auto="floor"``), or
    added to it (variant ``auto="add"``), the total capped at 3. Whole figures come off, never more
    than the ``figures`` the target has left (knight-hack:casualties.whole-figures).
    """

    target: int
    automatic: int = 0
    figures: int = MAX_ROLLED
    auto: AutoMode = "floor"

    def __post_init__(self) -> None:
        if not 0 <= self.automatic <= 2:
            raise ValueError(f"automatic casualties are 0, 1 or 2, got {self.automatic}")
        if self.figures < 0:
            raise ValueError(f"figures left cannot be negative, got {self.figures}")

    def outcome(self, r: int) -> int:
        """Casualties inflicted when the d100 shows ``r``."""
        rolled = rolled_casualties(r, self.target)
        total = max(self.automatic, rolled) if self.auto == "floor" else self.automatic + rolled
        return min(total, MAX_ROLLED, self.figures)

    def dist(self) -> Dist:
        """The exact distribution of casualties: every face of the d100 enumerated."""
        return D100.dist().map(self.outcome)

    def roll(self, rng: np.random.Generator) -> tuple[int, int]:
        """``(r, casualties)``: exactly one d100 drawn from the battle's generator."""
        r = D100.roll(rng)
        return r, self.outcome(r)

    def thresholds(self) -> tuple[float, float, float]:
        """``(T, T/2, T/4)``: the faces at or under which 1, 2, 3 casualties are inflicted (for logs)."""
        return (float(self.target), self.target / 2, self.target / 4)
