"""An OpenSpiel clone sets up no battle it throws away (issue 16): OpenSpiel clones a Python state by
making a new initial state and deep-copying the original's attributes over it; the new state's
battle is set up only when first asked for, so the clone's setup is the copy alone."""

from __future__ import annotations

import json
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel")

from shieldwall.agents import openspiel as osp  # noqa: E402
from shieldwall.core.reference import reference_path  # noqa: E402


def _play(game: Any, n: int) -> Any:
    state = game.new_initial_state()
    for i in range(n):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[i % len(state.chance_outcomes())][0])
        else:
            acts = state.legal_actions()
            state.apply_action(acts[(7 * i) % len(acts)])
    return state


@pytest.mark.filterwarnings("ignore::shieldwall.agents.encoding.MenuCut")  # long hex menus are cut at 64
@pytest.mark.parametrize("scenario", ["one-hour-dark-ages/bryn-glas", "spi-dark-ages/tours"])
def test_a_clone_sets_up_no_battle_and_plays_on_as_the_original(scenario: str, monkeypatch: Any) -> None:
    game = pyspiel.load_game(osp.SHORT_NAME, {"scenario": scenario, "seed": 2})
    state = _play(game, 30)
    started = []
    real = osp.ShieldwallGame.opening

    def opening(self: Any) -> Any:
        started.append(1)
        return real(self)

    monkeypatch.setattr(osp.ShieldwallGame, "opening", opening)
    clone = state.clone()
    assert started == [] and clone.battle is not state.battle
    assert str(clone) == str(state) and clone.history() == state.history()
    fresh = game.new_initial_state()
    assert started == []  # not until its battle is asked for
    assert json.loads(str(fresh))["turn"] == json.loads(str(_play(game, 0)))["turn"]
    assert started == [1, 1]
    with reference_path():
        game.new_initial_state()
    assert len(started) == 3  # the reference path sets the battle up at once


@pytest.mark.filterwarnings("ignore::shieldwall.agents.encoding.MenuCut")
@pytest.mark.parametrize(
    "scenario",
    [
        "spi-dark-ages/tours",
        "into-the-dark/senlac",
        "one-hour-dark-ages/bryn-glas",
        "dbm-3.2/ash-burh",
        "knight-hack/bourgtheroulde-1124",
    ],
)
def test_states_play_the_same_battle_on_both_paths(scenario: str) -> None:
    """Lazily set-up battles copied from the game's opening, and menus, strings and observations
    kept per live battle (and its clones), play what the reference path plays: every action's
    string, legal actions, the state after each and what each side observes of it, in new initial
    states made along the way too."""
    game = pyspiel.load_game(osp.SHORT_NAME, {"scenario": scenario, "seed": 4})

    def record() -> list[Any]:
        state, out = game.new_initial_state(), []
        observer = game.make_py_observer()
        for i in range(60):
            if state.is_terminal():
                break
            if state.is_chance_node():
                action = state.chance_outcomes()[i % len(state.chance_outcomes())][0]
            else:
                acts = state.legal_actions()
                out.append((acts, [state.action_to_string(state.current_player(), a) for a in acts]))
                action = acts[(7 * i) % len(acts)]
            if i % 5 == 0:
                state = state.clone()
            if i % 7 == 3:  # a new initial state played up to here, in between
                fresh = game.new_initial_state()
                for a in state.history():
                    fresh.apply_action(a)
                assert str(fresh) == str(state)
                state = fresh
            state.apply_action(action)
            out.append(str(state))
            for player in range(game.num_players()):  # what each side observes, asked twice
                for _ in range(2):
                    observer.set_from(state, player)
                    out.append((observer.string_from(state, player), observer.tensor.tobytes()))
        return out

    fast = record()
    with reference_path():
        ref = record()
    assert fast == ref
