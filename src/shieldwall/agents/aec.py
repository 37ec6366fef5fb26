"""A battle of any rule system as a PettingZoo AEC environment.

The agents are the sides (``Game.info.sides``); the agent to act is the side that owns the state's
pending decision (``State.decision().side``), so a side may act many times in a row (a whole
movement phase) before the other acts. Actions and observations are encoded by
:mod:`shieldwall.agents.encoding`; the observations respect hidden information. Rewards come at the
end only: +1 to the winner, -1 to the others, 0 to all in a draw. A battle that has not ended after
the runaway guard of :func:`shieldwall.match.decision_limit` (or ``max_decisions``) is truncated.

Seeding: ``reset(seed=s)`` plays the battle of seed ``s``, with the same dice as
``shieldwall battle --seed s``; ``reset()`` plays the next seed drawn from a generator seeded by
the last seed given (to ``reset`` or to the constructor), so a sequence of resets replays too.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from shieldwall import registry
from shieldwall.agents.encoding import MAX_ACTIONS, Encoding, battle_seed
from shieldwall.core.game import Game, State
from shieldwall.io.scenarios import load_game
from shieldwall.match import decision_limit

#: battle seeds drawn for unseeded resets lie in [0, SEED_RANGE)
SEED_RANGE = 2**31 - 1


def load(
    ruleset_or_scenario: str | Path | Game,
    scenario: str | None = None,
    variants: Mapping[str, Any] | None = None,
) -> Game:
    """A game from a built-in scenario name (``<ruleset>/<stem>``), a scenario file, a rule system
    id (its default scenario) or a rule system id and a scenario stem; a ``Game`` as it is."""
    if isinstance(ruleset_or_scenario, Game):
        return ruleset_or_scenario
    name = str(ruleset_or_scenario)
    if scenario is not None:
        name = f"{name}/{scenario}"
    else:
        rs = registry.find(name)
        if rs is not None and rs.default_scenario:
            name = f"{rs.id}/{rs.default_scenario}"
    return load_game(name, variants)


def outcome(state: State, side: str) -> float:
    """+1 if ``side`` won the finished battle, -1 if another side did, 0 for a draw (or unfinished)."""
    result = state.result()
    if result is None or result.winner is None:
        return 0.0
    return 1.0 if result.winner == side else -1.0


class ShieldwallAEC(AECEnv):  # type: ignore[misc]
    """One scenario's battles as a PettingZoo AEC environment (module docstring)."""

    RENDER_MODES = ("ansi",)
    metadata = {"name": "shieldwall_v0", "render_modes": list(RENDER_MODES), "is_parallelizable": False}

    def __init__(
        self,
        game: Game,
        seed: int | None = None,
        max_actions: int = MAX_ACTIONS,
        max_units: int | None = None,
        max_decisions: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r} is not one of {', '.join(self.RENDER_MODES)}")
        seed = battle_seed(seed)
        self.game = game
        self.render_mode = render_mode
        self.possible_agents: list[str] = list(game.info.sides)
        opening = game.new_state(seed)
        self.encoding = Encoding(opening, max_actions, max_units)
        self.max_decisions = max_decisions if max_decisions is not None else decision_limit(opening)
        self.observation_spaces: dict[str, spaces.Space[Any]] = {
            a: self.encoding.observation_space for a in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Space[Any]] = {
            a: self.encoding.action_space for a in self.possible_agents
        }
        self._seeds = np.random.default_rng(seed)
        self._state: State | None = None
        self.battle_seed: int | None = None
        self.decisions = 0

    # --- the PettingZoo API --------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = battle_seed(seed)
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            self.battle_seed = int(seed)
        else:
            self.battle_seed = int(self._seeds.integers(SEED_RANGE))
        self._state = self.game.new_state(self.battle_seed)
        self.decisions = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._settle(None)

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        state = self.battle
        menu = self.infos.get(agent, {}).get("menu_length")
        return self.encoding.observe(state, agent, menu if isinstance(menu, int) else None)

    def step(self, action: Any) -> None:
        if self._state is None:  # (before reset, or after close: not an AttributeError)
            raise RuntimeError("the environment has no battle: call reset() first")
        if not self.agents:  # (every agent has stepped out of the ended battle: not a KeyError)
            raise RuntimeError("the battle is over and every agent has left it: call reset()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.battle
        order = self.encoding.order(state, action)
        state.apply(order)
        self.decisions += 1
        self._cumulative_rewards[agent] = 0.0
        self._settle(agent)
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        state = self.battle
        d = state.decision()
        if d is None:
            result = state.result()
            return f"battle over: {result.reason if result else 'no result'}"
        lines = [f"{d.side}: {d.prompt}"]
        lines += [f"  {i} {o}" for i, o in enumerate(self.encoding.menu(state))]
        return "\n".join(lines)

    def close(self) -> None:
        self._state = None

    # --- shieldwall's own ----------------------------------------------------------------------

    @property
    def battle(self) -> State:
        """The battle itself, every secret included (its event log, its result): for analysis and
        replays, not for an agent's eyes (an agent's view is :meth:`observe`)."""
        if self._state is None:
            raise RuntimeError("the environment has no battle: call reset() first")
        return self._state

    def menu(self) -> list[Any]:
        """The acting side's legal orders: action ``i`` is ``menu()[i]``."""
        return self.encoding.menu(self.battle)

    def _settle(self, mover: str | None) -> None:
        """After a reset or an order: whose turn it is, the infos, and the end of the battle."""
        state = self.battle
        self.rewards = {a: 0.0 for a in self.agents}
        d = state.decision()
        if d is not None and self.decisions < self.max_decisions:
            self.infos = {a: {} for a in self.agents}
            self.infos[d.side] = {"decision": d.kind, "menu_length": len(state.legal_orders())}
            self.agent_selection = d.side
            return
        over = d is None
        for a in self.agents:
            self.rewards[a] = outcome(state, a) if over else 0.0
            self.terminations[a] = over
            self.truncations[a] = not over
            self.infos[a] = {}
        # the dead agents are stepped (with None) in order, starting after the last mover
        order = self.agents
        start = (order.index(mover) + 1) % len(order) if mover in order else 0
        self.agent_selection = order[start]
