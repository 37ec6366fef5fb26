"""A melee between two units: rounds of simultaneous percentile rolls (Clarifications 1 and 3).

"Each melee is fought to conclusion during that turn or up to three rounds … until one unit wins or
a draw occurs. Some melees can continue into the next turn. Units may loss melee but continue to
fight because they make their morale." (``knight-hack:melee.rounds``,
``knight-hack:melee.loser-fights-on``.)

Each round both units roll one d100 at once (ruling R16) and casualties come off at the end of the
round; the unit that inflicted more wins the round, equal is a draw that ends the melee for this
turn with contact kept (R15). The loser tests morale at its level now (page 15 modifiers on its
losses): a pass and it fights the next round, up to three rounds a turn; a fail and ``morale.toml``
``on_fail.melee-loser`` applies. A unit with no figures left is destroyed. A rear contact on an open
order unit destroys it at its first casualty (``knight-hack:charge.rear-open``, R23).

As everywhere in this package the rules are written once as a distribution of outcomes given a
situation (:meth:`MeleeRound.dist`, :func:`melee_turn`), sampled in play (:meth:`MeleeRound.roll`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Literal

from shieldwall.core.dice import D100
from shieldwall.rulesets.knight_hack.casualties import CasualtySituation
from shieldwall.rulesets.knight_hack.morale import MoraleTest

if TYPE_CHECKING:
    import numpy as np

#: rounds a melee may be fought in one turn
ROUNDS_PER_TURN = 3

RoundWinner = Literal["a", "b", "draw"]
TurnEnd = Literal["draw", "continues", "a-fails", "b-fails", "a-destroyed", "b-destroyed", "both-destroyed"]


@dataclass(frozen=True, slots=True)
class MeleeRound:
    """One round: ``a_roll`` is A's casualty roll on B, ``b_roll`` B's on A (each capped at the
    figures its target has left)."""

    a_roll: CasualtySituation
    b_roll: CasualtySituation
    #: A fights B's rear and B is open order: one casualty destroys B (and the same for A)
    a_rear_open: bool = False
    b_rear_open: bool = False

    def outcome(self, ra: int, rb: int) -> tuple[int, int]:
        """(casualties on B, casualties on A) for the two d100 faces."""
        on_b, on_a = self.a_roll.outcome(ra), self.b_roll.outcome(rb)
        if self.a_rear_open and on_b:
            on_b = self.a_roll.figures
        if self.b_rear_open and on_a:
            on_a = self.b_roll.figures
        return on_b, on_a

    def dist(self) -> dict[tuple[int, int], Fraction]:
        """Exact joint distribution of (casualties on B, on A): the two rolls are independent."""
        da = _faces(self.a_roll, self.a_rear_open)
        db = _faces(self.b_roll, self.b_rear_open)
        return {(x, y): px * py for x, px in da.items() for y, py in db.items()}

    def roll(self, rng: np.random.Generator) -> tuple[int, int, int, int]:
        """``(ra, rb, on_b, on_a)``: exactly two d100 draws, A's first."""
        ra, rb = D100.roll(rng), D100.roll(rng)
        on_b, on_a = self.outcome(ra, rb)
        return ra, rb, on_b, on_a


def _faces(sit: CasualtySituation, rear_open: bool) -> dict[int, Fraction]:
    p = sit.dist().probabilities()
    if not rear_open:
        return p
    out: dict[int, Fraction] = {}
    for k, v in p.items():
        kk = sit.figures if k else 0
        out[kk] = out.get(kk, Fraction(0)) + v
    return out


def round_winner(on_b: int, on_a: int) -> RoundWinner:
    """More casualties inflicted wins the round; equal is a draw (R15)."""
    return "a" if on_b > on_a else "b" if on_a > on_b else "draw"


@dataclass(frozen=True, slots=True)
class MeleeSide:
    """One side of a melee for a whole turn: T against the other, the chart's automatic casualties,
    its figures now, and its morale level as a function of its losses (``levels[lost]``)."""

    target: int
    automatic: int
    figures: int
    #: morale level after losing 0, 1, 2, ... figures this turn (index by figures lost so far)
    levels: tuple[int, ...]
    rear_open: bool = False

    def level_after(self, lost: int) -> int:
        return self.levels[min(lost, len(self.levels) - 1)]


def melee_turn(a: MeleeSide, b: MeleeSide, rounds: int = ROUNDS_PER_TURN) -> dict[TurnEnd, Fraction]:
    """Exact distribution of how this turn's melee ends (up to ``rounds`` rounds)."""
    return dict(_turn(a, b, rounds, 0, 0))


@cache
def _turn(
    a: MeleeSide, b: MeleeSide, rounds: int, lost_a: int, lost_b: int
) -> tuple[tuple[TurnEnd, Fraction], ...]:
    out: dict[TurnEnd, Fraction] = {}

    def add(k: TurnEnd, p: Fraction) -> None:
        out[k] = out.get(k, Fraction(0)) + p

    fa, fb = a.figures - lost_a, b.figures - lost_b
    rnd = MeleeRound(
        CasualtySituation(a.target, a.automatic, fb),
        CasualtySituation(b.target, b.automatic, fa),
        a_rear_open=b.rear_open,
        b_rear_open=a.rear_open,
    )
    for (on_b, on_a), p in rnd.dist().items():
        na, nb = lost_a + on_a, lost_b + on_b
        if na >= a.figures or nb >= b.figures:
            add(
                "both-destroyed"
                if na >= a.figures and nb >= b.figures
                else "a-destroyed"
                if na >= a.figures
                else "b-destroyed",
                p,
            )
            continue
        w = round_winner(on_b, on_a)
        if w == "draw":
            add("draw", p)
            continue
        loser, lost = (a, na) if w == "b" else (b, nb)
        passed = MoraleTest(loser.level_after(lost)).dist().probability(1)
        if passed < 1:
            add("a-fails" if w == "b" else "b-fails", p * (1 - passed))
        if passed:
            if rounds <= 1:
                add("continues", p * passed)
            else:
                for k, q in _turn(a, b, rounds - 1, na, nb):
                    add(k, p * passed * q)
    return tuple(sorted(out.items()))
