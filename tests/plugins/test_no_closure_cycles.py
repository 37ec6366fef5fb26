"""A battle leaves no reference cycle made by a nested function (issue 16, docs/performance.md
"Menus freed when they are done with").

Compiled by mypyc, a function nested in another keeps the outer frame's variables in an
environment object; when one nested function calls another, the environment holds that function
and the function holds the environment: a cycle that only the cyclic garbage collector frees. One
such cycle in One-Hour's move menu (``menus.move_candidates``: ``add`` and ``advance``) left every
move menu, its entries, their checks and orders, about 13,000 objects a battle on bryn-glas, to the
collector, which then took 15% of a scripted battle's time. Knight Hack's scripted bot
(``_unit``'s ``after``), DBM's march limit (``ok`` and ``trigger``) and Into the Dark's general
on his own (``_general_figure``'s ``danger``, called from its lambdas) had the same pattern.

Each built-in scenario is played with the collector off and every object it finds unreachable
saved (``gc.DEBUG_SAVEALL``); none may be a closure's environment (mypyc's ``..._env`` classes) or a
cell (the interpreter's). Nor may a finished battle, once dropped, leave anything else for the
collector: a One-Hour unit tells the state that owns it of each change, and since it refers to its
owner weakly (``model.Unit.owner_ref``) a battle no longer leaves its state and units, about 1,100
objects with the events, in a cycle (docs/performance.md, "A finished One-Hour battle freed at
once"); nor may a searched decision (``mcts``), which copies the state for every playout (a
One-Hour decision left 4,466 objects before).
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest

from shieldwall.ai.base import make_bot
from shieldwall.io.scenarios import builtin_scenarios, load_game
from shieldwall.match import play

SCENARIOS = sorted(builtin_scenarios())
#: rule options whose code the default battles do not reach: scenario -> options
WITH_OPTIONS = {"into-the-dark/senlac": {"command_and_control": True}}  # (a general on his own)


@contextmanager
def saved_garbage() -> Iterator[list[object]]:
    """While it runs, the collector is off; on leaving, it collects once and saves what it found
    unreachable in the list it gave (``gc.garbage``), which it then empties."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    found: list[object] = []
    try:
        yield found
        gc.collect()
        found.extend(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()


def _garbage_of(run: Callable[[], object]) -> list[str]:
    with saved_garbage() as found:
        run()
    return _closure_parts(found)


def _closure_parts(objs: list[object]) -> list[str]:
    out = []
    for o in objs:
        t = type(o)
        if t.__name__ == "cell" or t.__name__.endswith("_env"):
            out.append(f"{t.__module__}.{t.__qualname__}")
    return sorted(set(out))


def _kinds(objs: list[object]) -> list[str]:
    return sorted({f"{type(o).__module__}.{type(o).__qualname__}" for o in objs})


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_finished_battle_leaves_nothing_for_the_collector(name: str) -> None:
    """No closure left in a cycle (named apart, the cause this test was written for), and nothing
    else either. (Loading is not under test, the battle is; the memos a battle fills stay
    reachable, so they are not garbage.)"""
    game = load_game(name)
    with saved_garbage() as found:
        assert play(game, 1, "scripted", "random").state.is_terminal()
    assert _closure_parts(found) == [], f"{name}: closures left in reference cycles"
    assert _kinds(found) == [], (
        f"{name}: a finished battle left {len(found)} objects in cycles: {_kinds(found)[:8]}"
    )


#: one scenario of each rule system, for a searched decision
FIRST_OF_EACH = sorted({n.split("/")[0]: n for n in reversed(SCENARIOS)}.values())


@pytest.mark.parametrize("name", FIRST_OF_EACH)
def test_a_searched_decision_leaves_nothing_for_the_collector(name: str) -> None:
    """The search copies the state for every playout and drops the copies: none may be a cycle
    (a One-Hour copy was one until its units held their state weakly)."""
    game = load_game(name)
    state = game.new_state(3)
    bot = make_bot("mcts", 7, game.info.id)
    with saved_garbage() as found:
        state.apply(bot.choose(state))
    assert _kinds(found) == [], (
        f"{name}: a searched decision left {len(found)} objects in cycles: {_kinds(found)[:8]}"
    )


@pytest.mark.parametrize("name", sorted(WITH_OPTIONS))
def test_a_battle_with_options_leaves_nothing_for_the_collector(name: str) -> None:
    game = load_game(name, WITH_OPTIONS[name])
    with saved_garbage() as found:
        for seed in range(3):
            assert play(game, seed).state.is_terminal()
    assert _closure_parts(found) == [], f"{name} {WITH_OPTIONS[name]}: closures left in reference cycles"
    assert _kinds(found) == [], (
        f"{name} {WITH_OPTIONS[name]}: battles left objects in cycles: {_kinds(found)[:8]}"
    )


def test_the_check_sees_a_closure_cycle() -> None:
    """The check above can fail: two nested functions that call each other make the cycle it
    looks for (in the interpreter, through the cells of their closures)."""

    def outer() -> None:
        def a(n: int) -> int:
            return b(n - 1) if n else 0

        def b(n: int) -> int:
            return a(n)

        a(2)

    assert "builtins.cell" in _garbage_of(outer)
