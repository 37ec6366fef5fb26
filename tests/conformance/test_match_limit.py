"""``match.play``'s runaway guard grows with the armies: no legal big battle can reach it."""

from __future__ import annotations

from typing import Any

from shieldwall.io.scenarios import load_game
from shieldwall.match import DECISIONS_PER_UNIT, MIN_DECISIONS, decision_limit


class _Many:
    def __init__(self, n: int) -> None:
        self.n = n

    def view(self) -> dict[str, Any]:
        return {"units": [{"id": str(i)} for i in range(self.n)]}


def test_the_decision_limit_scales_with_the_number_of_units() -> None:
    assert decision_limit(_Many(3)) == MIN_DECISIONS  # type: ignore[arg-type]
    assert decision_limit(_Many(300)) == 300 * DECISIONS_PER_UNIT > MIN_DECISIONS  # type: ignore[arg-type]


def test_a_builtin_battle_is_far_below_its_limit() -> None:
    st = load_game("one-hour-dark-ages/bryn-glas").new_state(1)
    assert decision_limit(st) >= MIN_DECISIONS
