"""The OpenSpiel game: every built-in scenario passes OpenSpiel's own random-simulation test, a
seeded battle replays through the chance nodes event for event, and OpenSpiel's MCTS bot plays a
whole battle."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import evaluate_bots, mcts  # noqa: E402

from shieldwall import registry  # noqa: E402
from shieldwall.agents import openspiel as osp  # noqa: E402
from shieldwall.ai.base import bot_seed, make_bot  # noqa: E402
from shieldwall.io.scenarios import load_game  # noqa: E402

SCENARIOS = [f"{rid}/{f}" for rid in registry.ids() for f in registry.get(rid).scenario_files()]


def _game(scenario: str, seed: int = 1, max_actions: int = 64) -> Any:
    return pyspiel.load_game(osp.SHORT_NAME, {"scenario": scenario, "seed": seed, "max_actions": max_actions})


@pytest.mark.filterwarnings("ignore::shieldwall.agents.encoding.MenuCut")  # long hex menus are cut at 64
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_openspiel_random_sim_test_passes_on_every_scenario(scenario: str) -> None:
    game = _game(scenario)
    assert game.num_players() == len(load_game(scenario, None).info.sides)
    # OpenSpiel's own checks: legal actions, chance outcomes summing to 1, returns at the end,
    # clones that play on independently, observation strings and tensors
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


class Recorder:
    """A generator that passes every ``integers`` draw through and writes each die down."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.draws: list[tuple[int, int]] = []  # (outcomes, outcome)

    def integers(self, low: Any, high: Any = None, size: Any = None, **kw: Any) -> Any:
        lo, hi = (0, int(low)) if high is None else (int(low), int(high))
        out = self.rng.integers(low, high, size=size, **kw)
        for v in np.atleast_1d(out).ravel():
            self.draws.append((hi - lo, int(v) - lo))
        return out


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_seeded_battle_replays_through_the_chance_nodes_event_for_event(scenario: str) -> None:
    battle = load_game(scenario, None)
    state = battle.new_state(5)
    owner = osp._rng_owner(state)
    owner.rng = Recorder(owner.rng)
    bots = {s: make_bot("random", bot_seed(5, i), battle.info.id) for i, s in enumerate(battle.info.sides)}
    actions: list[int] = []
    longest = 0
    while not state.is_terminal():
        d = state.decision()
        assert d is not None
        menu = state.legal_orders()
        longest = max(longest, len(menu))
        order = bots[d.side].choose(state)
        actions.append([str(o) for o in menu].index(str(order)))
        state.apply(order)
    draws = owner.rng.draws

    # an action space as long as the longest menu, so that every order the bots chose is an action
    os_state = _game(scenario, seed=5, max_actions=max(longest, 1)).new_initial_state()
    chance = 0
    for a in actions:
        assert not os_state.is_chance_node()
        os_state.apply_action(a)
        while os_state.is_chance_node():
            n, v = draws[chance]
            assert len(os_state.chance_outcomes()) == n  # the node is the die the rules rolled
            os_state.apply_action(v)
            chance += 1
    assert chance == len(draws) and os_state.is_terminal()
    assert [e.to_dict() for e in os_state.battle.events] == [e.to_dict() for e in state.events]
    assert os_state.battle.result() == state.result()


def test_openspiel_mcts_bot_plays_a_whole_battle() -> None:
    class Neutral(mcts.Evaluator):  # type: ignore[misc]
        """No rollouts: the search's values come from the battles it finishes inside the tree."""

        def evaluate(self, state: Any) -> Any:
            return np.zeros(state.num_players())

        def prior(self, state: Any) -> Any:
            if state.is_chance_node():
                return state.chance_outcomes()
            legal = state.legal_actions(state.current_player())
            return [(a, 1.0 / len(legal)) for a in legal]

    game = _game("one-hour-dark-ages/bryn-glas")
    bots = [mcts.MCTSBot(game, 2.0, 8, Neutral(), random_state=np.random.RandomState(i)) for i in range(2)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(3))
    assert sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])


def test_a_draw_past_the_chosen_outcomes_is_a_chance_node_and_bad_outcomes_are_refused() -> None:
    script = osp.ChanceScript([2, 0])
    assert int(script.integers(6)) == 2 and list(script.integers(1, 7, size=1)) == [1]
    with pytest.raises(osp.NeedDraw) as need:
        script.integers(100)
    assert need.value.n == 100
    with pytest.raises(ValueError, match="chance outcome 7 is not one of the 6"):
        osp.ChanceScript([7]).integers(6)
    with pytest.raises(AttributeError, match=r"rng.random\(\): only rng.integers\(\) draws are chance nodes"):
        osp.ChanceScript().random()


def test_a_bad_action_is_refused_and_leaves_the_state_as_it_was() -> None:
    """Found by an exploratory test of the agent interfaces: a chance outcome out of range stayed
    among the chosen ones, so every later action failed; a negative action was read as an index
    from the menu's end; past the menu, on a finished battle and for the chance outcomes of a
    decision the errors were IndexError and ZeroDivisionError."""
    game = _game("knight-hack/bourgtheroulde-1124")
    s = game.new_initial_state()
    assert s.chance_outcomes() == []  # (a decision: no chance outcomes)
    before = str(s)
    for bad in (-2, -3, 10_000):  # (-1 is OpenSpiel's kInvalidAction, refused before it reaches us)
        with pytest.raises(ValueError, match="not on the menu"):
            s.apply_action(bad)
        assert str(s) == before and s.history() == []
    rng = np.random.RandomState(0)
    while not s.is_chance_node():
        s.apply_action(int(rng.choice(s.legal_actions())))
    n = len(s.chance_outcomes())
    history = s.history()
    with pytest.raises(ValueError, match=f"chance outcome {n} is not one of the {n}"):
        s.apply_action(n)
    assert s.history() == history and len(s.chance_outcomes()) == n
    s.apply_action(0)  # (a good outcome is taken after a bad one)
    while not s.is_terminal():
        legal = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        s.apply_action(int(rng.choice(legal)))
    with pytest.raises(ValueError, match="the battle is over"):
        s.apply_action(0)
