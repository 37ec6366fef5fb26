"""Morale level (Clarification 2) and the morale test (Clarification 1).

"The Basic Morale Level of any unit is the cost per figure times the number of figures in the unit
plus the Basic point cost for the unit by troop type. So 12 heavy infantry C Class cost 3 points
each plus 40 points per troop type which works out to 76 points for their morale level. To this add
or subtract the modifiers on page 15." (``knight-hack:morale.level``; the page 15 modifiers are
data, ``morale.toml``.) A test passes when a d100 shows the level or less; "If a unit's morale value
is over 100 then this may not be necessary as they cannot fail morale": a level of 100 or more
passes with no die drawn (``knight-hack:morale.auto-pass``, ruling R5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from shieldwall.core.dice import D100, Dist
from shieldwall.rulesets.knight_hack.factors import Term
from shieldwall.rulesets.knight_hack.tables import Tables

if TYPE_CHECKING:
    import numpy as np

#: a level at which no test can fail (R5: pass iff r <= level, and r is at most 100)
AUTO_PASS = 100

BmlFigures = Literal["muster", "current"]


def basic_morale_level(tables: Tables, type_id: str, cls: str, figures: int) -> int:
    """cost per figure x figures + the type's base cost (12 heavy infantry C: 12 x 3 + 40 = 76)."""
    t = tables.types[type_id]
    return t.cost_per_figure[cls] * figures + t.base_cost


@dataclass(frozen=True, slots=True)
class MoraleState:
    """What the page 15 modifiers look at (the conditions of :data:`schemas.MORALE_CONDITIONS`)."""

    muster: int
    lost: int = 0
    disordered: bool = False
    flanked: bool = False
    leader_near: bool = False
    leader_lost: bool = False
    fanatic: bool = False

    def steps(self, when: str) -> int:
        if when == "casualties-quarter":
            return (4 * self.lost) // self.muster if self.muster else 0
        return int(bool(getattr(self, when.replace("-", "_"))))


def morale_level(
    tables: Tables, type_id: str, cls: str, state: MoraleState, bml_figures: BmlFigures = "muster"
) -> tuple[int, tuple[Term, ...]]:
    """The unit's morale level now and its terms: the basic level on the muster figures (R6; variant
    ``bml_figures=current``: the figures left), then the page 15 modifiers that apply."""
    figures = state.muster if bml_figures == "muster" else state.muster - state.lost
    bml = basic_morale_level(tables, type_id, cls, figures)
    t = tables.types[type_id]
    terms = [Term("basic", bml, f"{figures} x {t.cost_per_figure[cls]} + {t.base_cost}")]
    for m in tables.morale.modifier:
        n = state.steps(m.when)
        if n:
            terms.append(Term(f"modifier:{m.id}", m.value * n, m.when + (f" x{n}" if n > 1 else "")))
    return sum(x.value for x in terms), tuple(terms)


@dataclass(frozen=True, slots=True)
class MoraleTest:
    """A morale test at ``level``: passed on a d100 roll of ``level`` or less."""

    level: int

    @property
    def automatic(self) -> bool:
        """A level of 100 or more cannot fail: no die is drawn (knight-hack:morale.auto-pass)."""
        return self.level >= AUTO_PASS

    def passes(self, r: int) -> bool:
        return r <= self.level

    def dist(self) -> Dist:
        """1 = passed, 0 = failed, over the 100 faces (a single certain outcome when automatic)."""
        if self.automatic:
            return Dist.constant(1)
        return D100.dist().map(lambda r: int(self.passes(r)))

    def roll(self, rng: np.random.Generator) -> tuple[bool, int | None]:
        """``(passed, r)``; ``r`` is None for an automatic pass (no draw, so replays stay stable)."""
        if self.automatic:
            return True, None
        r = D100.roll(rng)
        return self.passes(r), r
