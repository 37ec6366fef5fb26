"""One side of a battle as a Gymnasium environment, the other sides played by shieldwall bots.

The learner commands ``side``; every decision of another side is taken by a bot made with
:func:`shieldwall.ai.base.make_bot` (any name the rule system knows: its own bots, then the generic
ones), seeded from the battle seed as ``shieldwall battle`` seeds it (:func:`shieldwall.ai.base.bot_seed`),
so ``reset(seed=s)`` meets the same opponent and dice as ``shieldwall battle --seed s``. ``step``
applies the learner's order, then lets the bots play until the learner decides again or the
battle ends.

Spaces and encoding as :mod:`shieldwall.agents.encoding`. An action the mask does not allow (an
index at or past the menu's end) is taken modulo the menu's length, so every action of the space is
playable (Gymnasium's ``check_env`` and unmasked learners send such actions); a masked learner never
sends one. ``info["illegal_action"]`` says when that happened. Reward: +1 / -1 / 0 at the end for a
win, a loss or a draw, 0 before.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from shieldwall.agents.aec import SEED_RANGE, outcome
from shieldwall.agents.encoding import MAX_ACTIONS, Encoding, action_index, battle_seed
from shieldwall.ai.base import Bot, bot_names, bot_seed, make_bot
from shieldwall.core.errors import UnknownName
from shieldwall.core.game import Game, State
from shieldwall.match import decision_limit


class SideEnv(gymnasium.Env[dict[str, np.ndarray[Any, Any]], np.int64]):
    """One side against bots (module docstring)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: Game,
        side: str | None = None,
        opponent: str | None = None,
        max_actions: int = MAX_ACTIONS,
        max_units: int | None = None,
        max_decisions: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        sides = list(game.info.sides)
        if side is None:
            side = sides[0]
        if side not in sides:
            raise UnknownName("side", side, sides)
        if render_mode is not None and render_mode != "ansi":
            raise ValueError(f"render_mode {render_mode!r} is not 'ansi' (the only one)")
        self.game = game
        self.side = side
        self.sides = sides
        self.opponent = opponent if opponent is not None else bot_names(game.info.id)[0]
        make_bot(self.opponent, 0, game.info.id)  # an unknown name fails here, listing the valid ones
        self.render_mode = render_mode
        opening = game.new_state(0)
        self.encoding = Encoding(opening, max_actions, max_units)
        self.observation_space: spaces.Space[dict[str, np.ndarray[Any, Any]]] = (
            self.encoding.observation_space  # type: ignore[assignment]
        )
        self.action_space: spaces.Space[np.int64] = self.encoding.action_space
        self.max_decisions = max_decisions if max_decisions is not None else decision_limit(opening)
        self._state: State | None = None
        self._bots: dict[str, Bot] = {}
        self.battle_seed: int | None = None
        self.decisions = 0

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
        seed = battle_seed(seed)
        super().reset(seed=seed)
        self.battle_seed = int(seed) if seed is not None else int(self.np_random.integers(SEED_RANGE))
        self._state = self.game.new_state(self.battle_seed)
        self._bots = {
            s: make_bot(self.opponent, bot_seed(self.battle_seed, i), self.game.info.id)
            for i, s in enumerate(self.sides)
            if s != self.side
        }
        self.decisions = 0
        self._bots_play()
        return self._observe()

    def step(
        self, action: np.int64 | int
    ) -> tuple[dict[str, np.ndarray[Any, Any]], float, bool, bool, dict[str, Any]]:
        state = self.battle
        if state.is_terminal() or self.decisions >= self.max_decisions:
            raise RuntimeError("the battle is over: call reset() before step()")
        orders = self.encoding.menu(state)
        index = action_index(action)
        illegal = not 0 <= index < len(orders)
        state.apply(orders[index % len(orders)])
        self.decisions += 1
        self._bots_play()
        terminated = state.is_terminal()
        truncated = not terminated and self.decisions >= self.max_decisions
        reward = outcome(state, self.side) if terminated else 0.0
        obs, info = self._observe()
        info["illegal_action"] = illegal
        return obs, reward, terminated, truncated, info

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

    @property
    def battle(self) -> State:
        """The battle itself, every secret included: for analysis, not for the learner's eyes."""
        if self._state is None:
            raise RuntimeError("the environment has no battle: call reset() first")
        return self._state

    def menu(self) -> list[Any]:
        """The learner's legal orders now: action ``i`` is ``menu()[i]``."""
        return self.encoding.menu(self.battle)

    def _bots_play(self) -> None:
        state = self.battle
        while self.decisions < self.max_decisions:
            d = state.decision()
            if d is None or d.side == self.side:
                return
            state.apply(self._bots[d.side].choose(state))
            self.decisions += 1

    def _observe(self) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
        """The learner's observation and info."""
        state = self.battle
        n = self.encoding.menu_length(state, self.side)
        d = state.decision()
        info: dict[str, Any] = {} if d is None or n == 0 else {"decision": d.kind, "menu_length": n}
        return self.encoding.observe(state, self.side, n), info
