"""The PettingZoo AEC environment and the Gymnasium wrapper pass their libraries' own checks on
every built-in scenario; the encoding of orders and views; hidden information; determinism."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from shieldwall.agents import MAX_ACTIONS, MenuCut, ShieldwallAEC, env, side_env
from shieldwall.agents.encoding import GLOBAL, UNIT, Encoding
from shieldwall.ai.base import bot_seed, make_bot
from shieldwall.core.errors import UnknownName
from shieldwall.core.game import Decision
from shieldwall.io.scenarios import builtin_scenarios, load_game
from shieldwall.match import play
from shieldwall.plugin import RuleSystem
from shieldwall.visibility import view_for

SCENARIOS = list(builtin_scenarios())
QUICK = "one-hour-dark-ages/bryn-glas"
CONCEALED = {"deployment": "alternate", "concealed_deployment": True}


def test_every_rule_system_has_a_built_in_scenario_here() -> None:
    assert {s.split("/")[0] for s in SCENARIOS} >= {"one-hour-dark-ages", "into-the-dark"}


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", SCENARIOS)
def test_pettingzoo_api_test(name: str) -> None:
    api_test(env(name, seed=5), num_cycles=20)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", SCENARIOS)
def test_pettingzoo_seed_test(name: str) -> None:
    seed_test(lambda: env(name), num_cycles=20)


class Counting(ShieldwallAEC):
    """Counts the battles that ended with every agent gone (api_test resets after them)."""

    ended = 0

    def _was_dead_step(self, action: Any) -> None:
        super()._was_dead_step(action)
        if not self.agents:
            self.ended += 1


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_pettingzoo_api_test_plays_a_whole_battle() -> None:
    e = Counting(load_game(QUICK), seed=2)
    api_test(e, num_cycles=2000)
    assert e.ended == 1  # the play test's battle ended and every agent left


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_api_test_can_fail_here() -> None:
    """The check is real: an environment that forgets to remove a dead agent fails it."""

    class Broken(ShieldwallAEC):
        def _was_dead_step(self, action: Any) -> None:
            return None

    with pytest.raises(AssertionError):
        api_test(Broken(load_game(QUICK), seed=2), num_cycles=2000)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", SCENARIOS)
def test_pettingzoo_api_and_seed_tests_over_whole_battles(name: str) -> None:
    e = Counting(load_game(name), seed=4)
    api_test(e, num_cycles=5000)
    assert e.ended == 1
    seed_test(lambda: env(name), num_cycles=5000)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_a_third_party_rule_system_passes_too(toy: RuleSystem) -> None:
    """The toy plugin (tests/toy), which the environments have never heard of, passes every check."""
    e = Counting(load_game("toy-duel/skirmish"), seed=1)
    api_test(e, num_cycles=1000)
    assert e.ended == 1
    seed_test(lambda: env("toy-duel/skirmish"), num_cycles=1000)
    check_env(side_env("toy-duel", opponent="random"))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", SCENARIOS)
def test_gymnasium_check_env(name: str) -> None:
    check_env(side_env(name, opponent="random", render_mode="ansi"))


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_gymnasium_check_env_against_the_rule_systems_own_bot_and_either_side() -> None:
    for side in ("red", "blue"):
        e = side_env("into-the-dark/wye-fords", side=side)
        assert e.opponent == "scripted"
        check_env(e)


def test_loading_by_rule_system_and_stem() -> None:
    assert (
        env("one-hour-dark-ages", "catraeth").game.scenario_name
        == load_game("one-hour-dark-ages/catraeth").scenario_name
    )
    rs_default = env("one-hour-dark-ages").game.scenario_name
    assert rs_default == load_game("one-hour-dark-ages/bryn-glas").scenario_name
    with pytest.raises(UnknownName):
        env("no-such-scenario")
    with pytest.raises(UnknownName):
        side_env(QUICK, opponent="no-such-bot")
    with pytest.raises(UnknownName):
        side_env(QUICK, side="green")


def _masked_random_battle(name: str, seed: int, picks: int, **kw: Any) -> tuple[list[Any], list[Any]]:
    """Observations and rewards of a battle played by actions drawn with a fixed generator."""
    e = env(name, **kw)
    e.reset(seed=seed)
    rng = np.random.default_rng(99)
    seen: list[Any] = []
    for agent in e.agent_iter(picks):
        obs, reward, term, trunc, info = e.last()
        seen.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward, info))
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(rng.choice(legal)))
    events = [ev.to_dict() for ev in e.battle.events]
    return seen, events


@pytest.mark.parametrize("name", [QUICK, "into-the-dark/senlac"])
def test_same_seed_and_actions_give_the_same_observations_rewards_and_events(name: str) -> None:
    a = _masked_random_battle(name, 8, 150)
    b = _masked_random_battle(name, 8, 150)
    assert a == b
    c = _masked_random_battle(name, 9, 150)
    assert c[1] != a[1]  # another seed, another battle


def test_a_whole_battle_is_deterministic_to_its_rewards() -> None:
    seen_a, events_a = _masked_random_battle(QUICK, 3, 10_000)
    seen_b, events_b = _masked_random_battle(QUICK, 3, 10_000)
    assert (seen_a, events_a) == (seen_b, events_b)
    assert events_a[-1]["kind"] == "result"
    finals = {agent: reward for agent, *_, reward, _info in seen_a[-2:]}
    assert set(finals) == {"red", "blue"}
    assert sorted(finals.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_reset_seed_is_the_battle_seed_and_actions_are_menu_indices() -> None:
    """Bots choosing through the environment's actions replay the battle ``match.play`` plays."""
    game = load_game(QUICK)
    expected = play(game, 7, "scripted", "random").state.events
    e = env(QUICK)
    e.reset(seed=7)
    bots = {
        s: make_bot(b, bot_seed(7, i), game.info.id)
        for i, (s, b) in enumerate([("red", "scripted"), ("blue", "random")])
    }
    for agent in e.agent_iter():
        _obs, _r, term, trunc, _info = e.last()
        if term or trunc:
            e.step(None)
            continue
        order = bots[agent].choose(e.battle)
        menu = e.menu()
        assert order in menu
        e.step(menu.index(order))
    assert [ev.to_dict() for ev in e.battle.events] == [ev.to_dict() for ev in expected]


def test_the_mask_covers_the_menu_and_only_the_deciding_side_has_one() -> None:
    e = env(QUICK)
    e.reset(seed=1)
    for _ in range(30):
        agent = e.agent_selection
        n = len(e.battle.legal_orders())
        obs = e.observe(agent)
        assert obs["action_mask"].tolist() == [1] * n + [0] * (MAX_ACTIONS - n)
        assert obs["observation"][1] == 1.0 and e.infos[agent]["menu_length"] == n
        for other in e.agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
                assert e.observe(other)["observation"][1] == 0.0
        e.step(n - 1)


def test_an_action_outside_the_menu_is_refused_with_a_clear_error() -> None:
    e = env(QUICK)
    e.reset(seed=1)
    n = len(e.menu())
    before = len(e.battle.events)
    for bad in (n, -1, 64, "north"):
        with pytest.raises(ValueError, match="action"):
            e.step(bad)
    assert len(e.battle.events) == before


def test_a_menu_longer_than_the_action_space_is_cut_with_a_warning() -> None:
    e = env(QUICK, max_actions=3)
    e.reset(seed=1)
    assert len(e.battle.legal_orders()) > 3
    with pytest.warns(MenuCut, match="raise max_actions"):
        assert len(e.menu()) == 3
    obs = e.observe(e.agent_selection)
    assert obs["action_mask"].tolist() == [1, 1, 1]
    assert e.infos[e.agent_selection]["menu_length"] > 3
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        e.menu()  # warned once per environment


def test_observations_hold_what_the_side_sees_and_nothing_hidden() -> None:
    e = env("into-the-dark/senlac", variants=CONCEALED)
    e.reset(seed=1)
    found_hidden = False
    for _ in range(60):
        st = e.battle
        everyone = st.view()["units"]
        for side in e.agents:
            seen = view_for(st, [side])["units"]
            present = e.observe(side)["observation"][GLOBAL::UNIT]
            assert int(present.sum()) == len(seen)
            hidden = [u for u in everyone if side in (u.get("hidden_from") or [])]
            if hidden:
                found_hidden = True
                assert len(seen) < len(everyone)
        if st.is_terminal():
            break
        e.step(0)
    assert found_hidden  # concealed deployment hid a unit from a side


class Stub:
    """Just enough of a State for the encoding: one decision of red's, a view of three units."""

    def __init__(self, units: list[dict[str, Any]]) -> None:
        self.units = units

    def decision(self) -> Decision:
        return Decision("red", "move", "move", unit="r1")

    def legal_orders(self) -> list[str]:
        return ["hold", "go"]

    def view(self) -> dict[str, Any]:
        return {"turn": 2, "max_turns": 4, "table": {"width": 40.0, "depth": 20.0}, "units": self.units}


def _units(hidden_x: float, hidden_from: list[str]) -> list[dict[str, Any]]:
    common = {"heading": 90.0, "hits": 1, "max_hits": 4}
    return [
        {"id": "r1", "side": "red", "x": 10.0, "y": 5.0, **common},
        {"id": "b1", "side": "blue", "x": 30.0, "y": 15.0, **common},
        {"id": "r2", "side": "red", "x": hidden_x, "y": 5.0, "hidden_from": hidden_from, **common},
    ]


def test_an_observation_does_not_change_with_what_is_hidden() -> None:
    """Two states that differ only in where a unit hidden from blue stands look alike to blue."""
    enc = Encoding(Stub(_units(20.0, ["blue"])))  # type: ignore[arg-type]
    a = enc.observe(Stub(_units(20.0, ["blue"])), "blue")  # type: ignore[arg-type]
    b = enc.observe(Stub(_units(36.0, ["blue"])), "blue")  # type: ignore[arg-type]
    assert np.array_equal(a["observation"], b["observation"])
    assert int(a["observation"][GLOBAL::UNIT].sum()) == 2 and not a["action_mask"].any()
    # red sees it, and where it stands
    c = enc.observe(Stub(_units(20.0, ["blue"])), "red")  # type: ignore[arg-type]
    d = enc.observe(Stub(_units(36.0, ["blue"])), "red")  # type: ignore[arg-type]
    assert not np.array_equal(c["observation"], d["observation"])
    row = c["observation"][GLOBAL + 2 * UNIT : GLOBAL + 3 * UNIT]
    assert row.tolist() == pytest.approx([1, 1, 0.5, 0.25, 1, 0, 0.25, 0, 0], abs=1e-6)
    assert c["observation"][:GLOBAL].tolist() == pytest.approx([0.5, 1, 2 / MAX_ACTIONS])
    assert c["action_mask"][:3].tolist() == [1, 1, 0]
    # the unit the decision is about is marked
    assert c["observation"][GLOBAL + 8] == 1.0


def test_the_gymnasium_wrapper_plays_a_battle_to_its_reward() -> None:
    e = side_env(QUICK, side="blue", opponent="random")
    obs, info = e.reset(seed=3)
    rng = np.random.default_rng(0)
    total, steps, done = 0.0, 0, False
    while not done:
        assert e.battle.decision().side == "blue"  # type: ignore[union-attr]
        obs, reward, term, trunc, info = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert info["illegal_action"] is False
        total += reward
        steps += 1
        done = term or trunc
    result = e.battle.result()
    assert result is not None
    assert total == (0.0 if result.winner is None else 1.0 if result.winner == "blue" else -1.0)
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)


def test_the_gymnasium_wrapper_takes_an_unmasked_action_modulo_the_menu() -> None:
    e = side_env(QUICK, opponent="random")
    e.reset(seed=3)
    n = len(e.menu())
    expected = e.menu()[(n + 1) % n]
    twin = side_env(QUICK, opponent="random")
    twin.reset(seed=3)
    _o, _r, _t, _u, info = e.step(n + 1)
    assert info["illegal_action"] is True
    twin.step((n + 1) % n)
    assert [ev.to_dict() for ev in e.battle.events] == [ev.to_dict() for ev in twin.battle.events]
    assert str(expected)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_one_hour_hand_deployment_passes_the_api_seed_and_gymnasium_checks() -> None:
    """With One Hour's ``hand_deployment`` variant (ruling R50) the battle opens with a deploy
    decision per unit, its menu of legal places within the action space, through to a whole battle."""
    variants = {"hand_deployment": True}
    e = env(QUICK, seed=5, variants=variants)
    e.reset(seed=5)
    d = e.battle.decision()
    assert d is not None and d.kind == "deploy" and 1 < len(e.menu()) <= 64
    whole = Counting(load_game(QUICK, variants), seed=2)
    api_test(whole, num_cycles=2000)
    assert whole.ended == 1
    seed_test(lambda: env(QUICK, variants=variants), num_cycles=20)
    check_env(side_env(QUICK, opponent="random", variants=variants))


def test_spi_s_first_menu_fits_the_default_and_end_can_be_chosen() -> None:
    """SPI's Movement Phase lists every step of every unit, then ``end``: Stamford Bridge's first
    menu has 144 entries. With the old default of 64 it was cut and ``end`` could not be chosen
    (found by an exploratory test of the agent interfaces)."""
    import warnings

    e = env("spi-dark-ages/stamford-bridge")
    with warnings.catch_warnings():
        warnings.simplefilter("error", MenuCut)
        e.reset(seed=0)
        agent = e.agent_selection
        n = e.infos[agent]["menu_length"]
        assert n > 64 and n <= MAX_ACTIONS
        assert int(e.observe(agent)["action_mask"].sum()) == n
        assert str(e.battle.legal_orders()[n - 1]) == "end"


def test_actions_are_whole_numbers_and_steps_need_a_battle() -> None:
    """Found by an exploratory test of the agent interfaces: 0.7, 1.5, "0" and True were taken for
    menu entries (``int()``), infinity raised OverflowError, the Gymnasium wrapper raised TypeError
    for None; a step before reset raised AttributeError and one after every agent had left the
    ended battle KeyError."""
    e = env(QUICK)
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)
    e.reset(seed=1)
    before = [ev.to_dict() for ev in e.battle.events]
    for bad in (0.7, 1.5, "0", True, float("inf"), np.float32(0.0), None):
        with pytest.raises(ValueError, match="menu index"):
            e.step(bad)
    assert [ev.to_dict() for ev in e.battle.events] == before
    e.step(np.int64(0))  # (numpy's integers are integers)
    while e.agents:
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
        else:
            e.step(int(np.flatnonzero(e.observe(agent)["action_mask"])[0]))
    with pytest.raises(RuntimeError, match="reset"):
        e.step(None)
    g = side_env(QUICK, opponent="random")
    g.reset(seed=1)
    for bad in (None, float("nan"), 2.9):
        with pytest.raises(ValueError, match="menu index"):
            g.step(bad)


def test_a_seed_is_a_whole_number_named_when_refused() -> None:
    """numpy's "expected non-negative integer" and "SeedSequence expects int" did not say it was
    the seed (found by an exploratory test of the agent interfaces)."""
    for bad in (-1, 1.5, "3", True, 2**64):
        with pytest.raises(ValueError, match="seed is a whole number"):
            env(QUICK, seed=bad)
        with pytest.raises(ValueError, match="seed is a whole number"):
            env(QUICK).reset(seed=bad)
        with pytest.raises(ValueError, match="seed is a whole number"):
            side_env(QUICK).reset(seed=bad)
    e = env(QUICK, seed=np.int64(5))
    e.reset()
    assert e.battle_seed is not None
