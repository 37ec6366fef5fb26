"""A battle of any rule system as an OpenSpiel game, the dice as explicit chance nodes.

``pyspiel.load_game("shieldwall", {"scenario": "<ruleset>/<stem>"})`` (after
``import shieldwall.agents.openspiel``, which registers the game) gives a ``pyspiel.Game`` on which
OpenSpiel's own algorithms run: its MCTS bot, ``evaluate_bots``, random playouts.

Players
    The sides, in the rule system's order (``Game.info.sides``): player ``i`` is side ``i``. The
    player to move is the side that owns the pending decision, so a player may move many times in
    a row (a whole movement phase).

Actions
    Action ``i`` is entry ``i`` of the legal menu (``State.legal_orders()``), as in the PettingZoo
    environment (:mod:`shieldwall.agents.encoding`); ``num_distinct_actions`` is ``max_actions``
    (default 64) and a longer menu is cut to its first ``max_actions`` entries.

Chance
    The rules draw their dice from the battle's generator (``rng.integers``: every die of every
    rule system, through :class:`shieldwall.core.dice.Die` and ``Dist.sample``). Here an order is
    applied with a stand-in generator (:class:`ChanceScript`) that answers each draw with the next
    outcome chosen at a chance node; when the order needs a draw not yet chosen, the application is
    dropped (on a copy: the state is untouched) and the state becomes a chance node over that draw's
    ``n`` equally likely outcomes. Once chosen, the order is applied again from the start with one
    more outcome, until it completes. The rules are unchanged: the same orders and the same
    outcomes give the same battle as ``shieldwall battle`` with those dice.

    The rolls a rule system makes while it *sets up* a battle (an opening roll-off for the
    initiative, say) come from the game parameter ``seed``; every roll after the first decision is
    a chance node.

Observations
    Strings: the JSON of what the side may see (:func:`shieldwall.visibility.view_for`, exactly
    what the web page shows it), for both the observation and the information state; tensors: the
    PettingZoo observation vector. The game declares imperfect information (a rule system may
    conceal units, e.g. in concealed deployment; one that does not simply shows everything).

Returns
    +1 to the winner, -1 to the others, 0 to all in a draw, at the end only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel

from shieldwall import registry
from shieldwall.agents.aec import load
from shieldwall.agents.encoding import MAX_ACTIONS, Encoding
from shieldwall.core import view_json
from shieldwall.core.game import Game, State
from shieldwall.core.reference import REFERENCE
from shieldwall.match import decision_limit
from shieldwall.visibility import view_for

SHORT_NAME = "shieldwall"
#: the ``scenario`` parameter's default: the default rule system's default scenario
DEFAULT_SCENARIO = ""
#: the most outcomes one chance node may have (a ``Dist.sample`` over a big weight total)
MAX_CHANCE_OUTCOMES = 1_000_000
#: a bound on the chance nodes of one battle, over its decision limit (the longest order of the
#: built-in battles rolls a few dozen dice)
CHANCE_PER_DECISION = 64


class NeedDraw(BaseException):  # noqa: N818 - a signal, not an error
    """Raised inside the rules when they draw past the outcomes chosen so far. A ``BaseException``
    so that no ``except Exception`` in rules code can swallow it."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.n = n


class ChanceScript:
    """Stands in for a ``numpy.random.Generator`` while one order is applied: every ``integers``
    draw is answered by the next chosen outcome; a draw past them raises :class:`NeedDraw`."""

    def __init__(self, outcomes: Sequence[int] = ()) -> None:
        self.outcomes = list(outcomes)
        self.used = 0

    def integers(
        self, low: Any, high: Any = None, size: Any = None, dtype: Any = np.int64, endpoint: bool = False
    ) -> Any:
        lo, hi = (0, int(low)) if high is None else (int(low), int(high))
        n = hi - lo + (1 if endpoint else 0)
        if size is None:
            return np.int64(lo + self._draw(n))
        count = int(np.prod(size))
        return np.array([lo + self._draw(n) for _ in range(count)], dtype=np.int64).reshape(size)

    def _draw(self, n: int) -> int:
        if n < 1 or n > MAX_CHANCE_OUTCOMES:
            raise ValueError(f"a draw over {n} outcomes cannot be a chance node (1 to {MAX_CHANCE_OUTCOMES})")
        if self.used < len(self.outcomes):
            v = self.outcomes[self.used]
            if not 0 <= v < n:
                raise ValueError(f"chance outcome {v} is not one of the {n} of this draw")
            self.used += 1
            return v
        raise NeedDraw(n)

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"the rules drew with rng.{name}(): only rng.integers() draws are chance nodes")


def _rng_owner(state: State) -> Any:
    """The object holding the battle's generator as ``rng`` (the state, or its board)."""
    if isinstance(getattr(state, "rng", None), np.random.Generator | ChanceScript):
        return state
    board = getattr(state, "board", None)
    if board is not None and isinstance(getattr(board, "rng", None), np.random.Generator | ChanceScript):
        return board
    name = type(state).__name__
    raise TypeError(f"{name} keeps no generator as .rng (or .board.rng): its dice cannot be chance nodes")


class _Setup:
    """What every state of one game shares (a clone shares it too)."""

    def __init__(self, sides: list[str], encoding: Encoding) -> None:
        self.sides = sides
        self.encoding = encoding

    def __deepcopy__(self, memo: dict[int, Any]) -> _Setup:
        return self


class _Live:
    """The battle of one state; a clone of the state gets the rule system's own ``copy()``.

    A new initial state's battle is set up when first asked for (``start``): OpenSpiel clones a
    Python state by making a new initial state and deep-copying the original's attributes over it,
    so the battle set up for the new state would be thrown away unread (and a battle's setup costs
    milliseconds). On the reference path (``shieldwall.core.reference``) it is set up at once."""

    def __init__(
        self,
        state: State | None = None,
        start: Callable[[], State] | None = None,
        menu: list[Any] | None = None,
        kept: dict[Any, Any] | None = None,
    ) -> None:
        self._state = state
        self._start = start
        self._menu = menu
        self._kept: dict[Any, Any] = {} if kept is None else kept
        if state is None and REFERENCE.on:
            self._state = self._set_up()

    def _set_up(self) -> State:
        assert self._start is not None
        state = self._start()
        self._start = None
        return state

    @property
    def state(self) -> State:
        if self._state is None:
            self._state = self._set_up()
        return self._state

    def menu(self, encoding: Encoding) -> list[Any]:
        """The battle's legal menu (``encoding.menu``), worked out once: a live battle is never
        changed (an action is applied to a copy, which becomes a new ``_Live``), and OpenSpiel asks
        for the menu of one state many times (its legal actions, each action's string, the action
        applied). A clone's copy keeps it. On the reference path it is worked out at every call."""
        if REFERENCE.on:
            return encoding.menu(self.state)
        if self._menu is None:
            self._menu = encoding.menu(self.state)
        return self._menu

    def kept(self, key: Any, make: Callable[[], Any]) -> Any:
        """``make()``, worked out once per live battle and ``key`` (its string, a side's view string
        or observation): OpenSpiel's checks ask for each many times, and the battle never changes.
        A clone's copy shares them (it is the same battle). On the reference path: every call."""
        if REFERENCE.on:
            return make()
        if key not in self._kept:
            self._kept[key] = make()
        return self._kept[key]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Live:
        return _Live(self.state.copy(), menu=self._menu, kept=self._kept)


_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="shieldwall battle (any rule system)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"scenario": DEFAULT_SCENARIO, "seed": 0, "max_actions": MAX_ACTIONS},
)


class ShieldwallGame(pyspiel.Game):  # type: ignore[misc]
    """A scenario as an OpenSpiel game (module docstring)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_GAME_TYPE.parameter_specification, **(params or {})}
        self.battle: Game = load(str(params["scenario"]) or registry.default().id)
        self.seed = int(params["seed"])
        self._opening: State | None = None  # the battle every new initial state copies (``opening``)
        opening = self.battle.new_state(self.seed)
        _rng_owner(opening)  # a rule system whose dice cannot be chance nodes is refused here
        encoding = Encoding(opening, max_actions=int(params["max_actions"]))
        self.setup = _Setup(list(self.battle.info.sides), encoding)
        self.sides = self.setup.sides
        self.encoding = self.setup.encoding
        limit = decision_limit(opening)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.max_actions,
            max_chance_outcomes=MAX_CHANCE_OUTCOMES,
            num_players=len(self.sides),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=limit * (1 + CHANCE_PER_DECISION),
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> ShieldwallState:
        return ShieldwallState(self)

    def opening(self) -> State:
        """A new initial battle, its dice drawn as chance nodes: a copy (the rule system's ``copy()``)
        of the one set up with the game, since every new initial state is the same battle (the
        game's scenario and seed) and setting one up costs milliseconds (OpenSpiel's checks ask for
        thousands). On the reference path it is set up afresh."""
        if REFERENCE.on:
            state = self.battle.new_state(self.seed)
        else:
            if self._opening is None:
                self._opening = self.battle.new_state(self.seed)
            state = self._opening.copy()
        _rng_owner(state).rng = ChanceScript()
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return ViewObserver(self)


class ShieldwallState(pyspiel.State):  # type: ignore[misc]
    """A battle in progress, with at most one order waiting for its dice."""

    def __init__(self, game: ShieldwallGame) -> None:
        super().__init__(game)
        self._sw = game.setup
        self._live = _Live(start=game.opening)
        self.pending: Any = None  # the order waiting for dice
        self.chosen: list[int] = []  # the outcomes chosen for it so far
        self.draw = 0  # the outcomes of the draw it waits for (0: none)

    @property
    def battle(self) -> State:
        """The shieldwall state (the orders applied, none waiting)."""
        return self._live.state

    # --- the pyspiel.State interface ---------------------------------------------------------

    def current_player(self) -> int:
        if self.battle.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.draw:
            return int(pyspiel.PlayerId.CHANCE)
        d = self.battle.decision()
        assert d is not None
        return self._sw.sides.index(d.side)

    def _legal_actions(self, player: int) -> list[int]:
        if self.draw or self.battle.is_terminal():
            return []
        return list(range(len(self._live.menu(self._sw.encoding))))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if not self.draw:  # (a decision or the end: no chance outcomes, not a division by zero)
            return []
        p = 1.0 / self.draw
        return [(i, p) for i in range(self.draw)]

    def _apply_action(self, action: int) -> None:
        # checked before anything changes: a bad outcome was kept among the chosen ones, and every
        # later call failed; a negative action was read as an index from the menu's end
        if self.battle.is_terminal():
            raise ValueError("the battle is over: no action applies")
        a = int(action)
        if self.draw:
            if not 0 <= a < self.draw:
                raise ValueError(
                    f"chance outcome {a} is not one of the {self.draw} of this draw (0 to {self.draw - 1})"
                )
            self.chosen.append(a)
        else:
            menu = self._live.menu(self._sw.encoding)
            if not 0 <= a < len(menu):
                raise ValueError(f"action {a} is not on the menu of {len(menu)} (0 to {len(menu) - 1})")
            self.pending = menu[a]
            self.chosen = []
        self._try()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {action} of {self.draw}"
        menu = self._live.menu(self._sw.encoding)
        return str(menu[action]) if 0 <= action < len(menu) else f"action {action}"

    def is_terminal(self) -> bool:
        return self.battle.is_terminal()

    def returns(self) -> list[float]:
        result = self.battle.result()
        if result is None or result.winner is None:
            return [0.0] * len(self._sw.sides)
        return [1.0 if s == result.winner else -1.0 for s in self._sw.sides]

    def __str__(self) -> str:
        text: str = self._live.kept("view", lambda: view_json.dumps(self.battle.view()))
        return text

    # --- the order waiting for its dice --------------------------------------------------------

    def _try(self) -> None:
        trial = self.battle.copy()
        script = ChanceScript(self.chosen)
        _rng_owner(trial).rng = script
        try:
            trial.apply(self.pending)
        except NeedDraw as need:
            self.draw = need.n
            return
        self._live = _Live(trial)
        _rng_owner(self.battle).rng = ChanceScript()
        self.pending, self.chosen, self.draw = None, [], 0


class ViewObserver:
    """What a side may see: the view's JSON as the string, the PettingZoo vector as the tensor."""

    def __init__(self, game: ShieldwallGame) -> None:
        self._game = game.setup
        space = game.encoding.observation_space["observation"]
        self.tensor = np.zeros(tuple(space.shape or ()), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ShieldwallState, player: int) -> None:
        side = self._game.sides[player]
        self.tensor[:] = state._live.kept(
            ("observation", side), lambda: self._game.encoding.observe(state.battle, side)["observation"]
        )

    def string_from(self, state: ShieldwallState, player: int) -> str:
        side = self._game.sides[player]
        text: str = state._live.kept(("view", side), lambda: view_json.dumps(view_for(state.battle, [side])))
        return text


pyspiel.register_game(_GAME_TYPE, ShieldwallGame)

__all__ = ["ChanceScript", "NeedDraw", "ShieldwallGame", "ShieldwallState", "ViewObserver", "SHORT_NAME"]
