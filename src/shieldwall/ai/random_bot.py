"""``random``: a uniformly random legal order at every decision."""

from __future__ import annotations

from typing import Any

from shieldwall.ai.base import Bot
from shieldwall.core.game import State


class RandomBot(Bot):
    name = "random"

    def choose(self, state: State) -> Any:
        orders = state.legal_orders()
        return orders[int(self.rng.integers(len(orders)))]
