"""Playing a battle between two bots (used by the CLI, the simulator and the tests)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shieldwall import collector
from shieldwall.ai.base import Bot, bot_seed, make_bot
from shieldwall.core.game import Game, State

#: A runaway guard, not a rule: a battle that has not ended after this many decisions per unit on the
#: table (and at least ``MIN_DECISIONS``) is a bug in a rule system's turn limit. It grows with the
#: armies, so no legal battle, however big, reaches it.
DECISIONS_PER_UNIT = 2000
MIN_DECISIONS = 20000


def decision_limit(state: State) -> int:
    """The runaway guard for a battle starting at ``state``."""
    units = state.view().get("units") or ()
    return max(MIN_DECISIONS, DECISIONS_PER_UNIT * len(units))


@dataclass
class Played:
    state: State
    orders: list[Any]


def play(
    game: Game,
    seed: int | None,
    red: str | Bot = "scripted",
    blue: str | Bot = "scripted",
    on_order: Callable[[State, Any], None] | None = None,
) -> Played:
    """Play one battle to the end. Bots named here are the game's rule system's (``make_bot``) and
    get seeds derived from the battle seed. ``on_order`` may read the state, not change it (the state
    is sealed while the battle is played: ``State.seal``). The collector's young collections are
    further apart while the battle is played (``collector.battles``)."""
    sides = game.info.sides
    bots: dict[str, Bot] = {}
    for i, (side, b) in enumerate(zip(sides, (red, blue), strict=True)):
        bots[side] = make_bot(b, bot_seed(seed, i), game.info.id) if isinstance(b, str) else b
    with collector.battles():
        state = game.new_state(seed)
        limit = decision_limit(state)
        orders: list[Any] = []
        state.seal()  # (only orders change it until the battle ends: ``State.seal``)
        try:
            while not state.is_terminal():
                if len(orders) >= limit:
                    raise RuntimeError(
                        f"battle did not end after {limit} decisions (a rule system's turn limit failed)"
                    )
                d = state.decision()
                assert d is not None
                order = bots[d.side].choose(state)
                state.apply(order)
                orders.append(order)
                if on_order is not None:
                    on_order(state, order)
        finally:
            state.unseal()
    return Played(state, orders)
