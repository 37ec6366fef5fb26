"""Knight Hack melee: rounds, the winner, the loser's test, rear contacts on open order."""

from __future__ import annotations

from fractions import Fraction

from shieldwall.rulesets.knight_hack.casualties import CasualtySituation
from shieldwall.rulesets.knight_hack.melee import MeleeRound, MeleeSide, melee_turn, round_winner


def test_melee_rounds_winner_is_the_side_inflicting_more() -> None:
    assert round_winner(2, 1) == "a" and round_winner(0, 1) == "b" and round_winner(1, 1) == "draw"


def test_melee_rounds_joint_distribution_is_independent_rolls() -> None:
    rnd = MeleeRound(CasualtySituation(60), CasualtySituation(30))
    d = rnd.dist()
    assert sum(d.values()) == 1
    assert d[(0, 0)] == Fraction(40, 100) * Fraction(70, 100)
    assert d[(3, 3)] == Fraction(15, 100) * Fraction(7, 100)


def test_melee_rounds_two_draws_a_round() -> None:
    class Spy:
        def __init__(self, *faces: int) -> None:
            self.faces, self.draws = list(faces), 0

        def integers(self, n: int) -> int:
            self.draws += 1
            return self.faces.pop(0) - 1

    rng = Spy(15, 50)
    assert MeleeRound(CasualtySituation(60), CasualtySituation(60)).roll(rng) == (15, 50, 3, 1)  # type: ignore[arg-type]
    assert rng.draws == 2


def _levels(n: int, level: int) -> tuple[int, ...]:
    return tuple(level for _ in range(n + 1))


def test_melee_rounds_at_most_three_then_continues() -> None:
    # both sides never hurt each other: every round is a draw, the melee stops at once this turn
    still = MeleeSide(0, 0, 6, _levels(6, 50))
    assert melee_turn(still, still) == {"draw": Fraction(1)}
    # A always inflicts 1, B never: A wins every round; B always passes (level 100): three rounds,
    # then the melee continues into the next turn with B three figures down
    a = MeleeSide(100, 0, 12, _levels(12, 50))
    b = MeleeSide(0, 0, 12, _levels(12, 100))
    sure = {k: v for k, v in melee_turn(a, b).items() if v}
    assert sure == {"continues": Fraction(1)}
    assert melee_turn(a, b, rounds=1) == {"continues": Fraction(1)}


def test_melee_loser_fights_on_when_it_passes() -> None:
    a = MeleeSide(100, 0, 12, _levels(12, 50))
    b = MeleeSide(0, 0, 12, _levels(12, 60))
    got = melee_turn(a, b)
    p = Fraction(60, 100)
    assert got == {"b-fails": 1 - p * p * p, "continues": p * p * p}


def test_charge_rear_open_destroyed_at_the_first_casualty() -> None:
    # A contacts the rear of open-order B: one casualty removes all eight figures
    rnd = MeleeRound(CasualtySituation(60, figures=8), CasualtySituation(0, figures=6), a_rear_open=True)
    assert rnd.outcome(60, 50) == (8, 0) and rnd.outcome(61, 50) == (0, 0)
    a = MeleeSide(60, 0, 6, _levels(6, 50))
    b = MeleeSide(0, 0, 8, _levels(8, 100), rear_open=True)
    # round 1: a casualty destroys B; no casualty on either side is a draw, ending this turn's melee
    assert melee_turn(a, b) == {"b-destroyed": Fraction(60, 100), "draw": Fraction(40, 100)}
