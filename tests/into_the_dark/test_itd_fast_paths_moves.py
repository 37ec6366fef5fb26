"""The into-the-dark move checks' fast paths (issue 16, fifth slice) answer as the plain code does.

Each is compared with its reference at every call of seeded battles (the scripted general's
look-ahead and menus make thousands of them): a move refused on its cost floor before it is traced
(``moves.plan_move(..., verdict=True)``) is one the full check refuses too.
"""

from __future__ import annotations

from typing import Any

from shieldwall.core.errors import IllegalOrder
from shieldwall.io.scenarios import load_game
from shieldwall.match import play
from shieldwall.rulesets.into_the_dark import act_move, menus, moves
from shieldwall.rulesets.into_the_dark.model import Unit

BATTLES = (("into-the-dark/senlac", 5), ("into-the-dark/wye-fords", 6))


def test_a_move_refused_on_its_cost_floor_is_one_the_full_check_refuses(monkeypatch: Any) -> None:
    """At every ``plan_move`` of seeded battles that needs only a verdict (the menus, the general's
    look-ahead), the verdict is the full check's: refused on the cost floor only when the traced
    move is refused too, and the same trace when it is allowed."""
    real = moves.plan_move
    seen = {"floor": 0, "traced": 0, "refused": 0}

    def both(st: Any, u: Unit, steps: Any, *, verdict: bool = False) -> Any:
        try:
            want: Any = real(st, u, steps)
        except IllegalOrder as e:
            want = e
        if not verdict:
            if isinstance(want, IllegalOrder):
                raise want
            return want
        try:
            got: Any = real(st, u, steps, verdict=True)
        except IllegalOrder as e:
            got = e
        if isinstance(got, IllegalOrder):
            assert isinstance(want, IllegalOrder), (u.id, steps, moves.remaining(st, u))
            if "at least" in str(got):
                seen["floor"] += 1
                assert moves.cost_floor(st, u, steps) > moves.remaining(st, u)
            else:
                assert str(got) == str(want)
                seen["refused"] += 1
            raise got
        assert not isinstance(want, IllegalOrder), (u.id, steps)
        assert got == want
        seen["traced"] += 1
        return got

    monkeypatch.setattr(menus, "plan_move", both)
    monkeypatch.setattr(act_move, "plan_move", both)
    for scenario, seed in BATTLES:
        play(load_game(scenario), seed, "scripted", "scripted")
    assert seen["floor"] > 100 and seen["traced"] > 100 and seen["refused"] > 20, seen
