"""The search's aligned playouts (``shieldwall.ai.playout.Roller``) on a made-up battle whose point
of the game is its decision count in thirds: one root order steps one decision on, another skips
five (as an order that ends a phase skips the decisions the other spends in it). After the same
horizon the two stand at different points; aligned, the one behind is played on to the other's,
within the cap, and a battle that ended stays where it ended."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import numpy as np

from shieldwall.ai.base import Bot
from shieldwall.ai.playout import Roller, Run
from shieldwall.ai.search_spec import ALIGN_SHARE
from shieldwall.core.game import Decision, State


class Line:
    """A battle that is a line of decisions: ``step`` moves one on, ``skip`` five; over at ``end``."""

    game = SimpleNamespace(info=SimpleNamespace(sides=("red", "blue")))

    def __init__(self, at: int, end: int = 1000) -> None:
        self.at, self.end = at, end

    def is_terminal(self) -> bool:
        return self.at >= self.end

    def decision(self) -> Decision | None:
        return None if self.is_terminal() else Decision("red", "go", "go")

    def apply(self, order: str) -> None:
        self.at += 5 if order == "skip" else 1


class Stepper:
    def choose(self, state: Any) -> str:
        return "step"


class Skipper:
    def choose(self, state: Any) -> str:
        return "skip"


def _progress(state: Any) -> tuple[int]:
    return (cast(Line, state).at // 3,)


def _score(state: Any) -> dict[str, float]:
    at = cast(Line, state).at
    return {"red": at / 100, "blue": -at / 100}


def _roller(horizon: int) -> Roller:
    return Roller("red", 1.0, np.random.default_rng(0), _score, _progress, horizon)


def _run(at: int, end: int = 1000) -> Run:
    return Run(cast(State, Line(at, end)), cast(Bot, Stepper()), None, {})


def _at(run: Run) -> int:
    return cast(Line, run.sim).at


def test_the_playout_behind_is_played_on_to_the_other_s_point() -> None:
    stepped, skipped = _run(1), _run(5)  # after the root orders "step" and "skip"
    roller = _roller(4)
    for r in (stepped, skipped):
        roller.roll(r)
    assert (_at(stepped), _at(skipped)) == (5, 9)  # the horizon alone: points (1,) and (3,)
    roller.align([stepped, skipped])
    assert _progress(stepped.sim) == _progress(skipped.sim) == (3,)
    assert (stepped.aligned, skipped.aligned) == (4, 0) and stepped.played == 8
    assert not stepped.short and not skipped.short


def test_finish_rolls_aligns_and_scores_every_playout() -> None:
    runs = [_run(5), _run(1), _run(2)]
    values = _roller(4).finish(runs)
    assert {_progress(r.sim) for r in runs} == {(3,)}  # horizon: 9, 5 and 6; aligned: 9, 9, 9
    assert [v["red"] for v in values] == [0.09, 0.09, 0.09]


def test_the_cap_stops_a_playout_short_and_says_so() -> None:
    stepped, skipped = _run(1), _run(30)
    roller = _roller(1)
    for r in (stepped, skipped):
        roller.roll(r)
    roller.align([stepped, skipped])
    assert stepped.aligned == ALIGN_SHARE * 1 and stepped.short
    assert _progress(stepped.sim) < _progress(skipped.sim)


def test_a_battle_that_ended_stays_where_it_ended_and_the_others_pass_it() -> None:
    over, behind = _run(1, end=7), _run(1)
    over.sim.apply("skip")  # the first battle's root order skips; it ends within the horizon
    behind.sim.apply("step")
    roller = _roller(4)
    for r in (over, behind):
        roller.roll(r)
    assert over.sim.is_terminal() and _at(over) == 7 and _at(behind) == 6
    assert _progress(behind.sim) == _progress(over.sim) == (2,)  # level, but one battle is over
    roller.align([over, behind])
    assert _at(over) == 7 and over.aligned == 0
    # the one still going plays what ended the other: on past that point (to the next third)
    assert _at(behind) == 9 and _progress(behind.sim) == (3,) and behind.aligned == 3
    assert not behind.short


def test_playouts_the_rounds_leave_behind_are_marked_short() -> None:
    """Every order skips five and the point of the game is the decision count itself: each round
    the one behind overshoots the other (27 -> 30, 30 -> 32, 32 -> 35, 35 -> 37), and when the
    rounds run out one is still behind, with the cap not reached."""
    a, b = _run(0), _run(2)
    for r in (a, b):
        r.policy = cast(Bot, Skipper())
    roller = Roller("red", 1.0, np.random.default_rng(0), _score, lambda s: (cast(Line, s).at,), 5)
    roller.finish([a, b])
    assert (_at(a), _at(b)) == (35, 37) and (a.aligned, b.aligned) == (2, 2)
    assert a.short and not b.short


def test_without_a_progress_hook_or_a_horizon_nothing_is_aligned() -> None:
    for roller in (
        Roller("red", 1.0, np.random.default_rng(0), None, None, 4),
        Roller("red", 1.0, np.random.default_rng(0), None, _progress, None),
    ):
        a, b = _run(1, end=40), _run(5, end=40)
        if roller.horizon is not None:
            for r in (a, b):
                roller.roll(r)
        roller.align([a, b])
        assert a.aligned == b.aligned == 0
