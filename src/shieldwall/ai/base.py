"""The bot interface and registry."""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from shieldwall.core.errors import UnknownName
from shieldwall.core.game import State


class Bot(ABC):
    """Chooses one order at each decision. A bot's own randomness comes from its own seeded
    generator, never from the battle's (so a bot never changes the battle's dice)."""

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = np.random.default_rng(np.random.SeedSequence(seed if seed is not None else 0))

    @abstractmethod
    def choose(self, state: State) -> Any: ...


#: name -> (module, class); a bot may be generic or specific to some rule systems.
_BOTS: dict[str, tuple[str, str]] = {
    "random": ("shieldwall.ai.random_bot", "RandomBot"),
    "scripted": ("shieldwall.ai.scripted", "ScriptedBot"),
}


def bot_names() -> list[str]:
    return list(_BOTS)


def make_bot(name: str, seed: int | None = None) -> Bot:
    if name not in _BOTS:
        raise UnknownName("bot", name, bot_names())
    mod, cls = _BOTS[name]
    bot: Bot = getattr(importlib.import_module(mod), cls)(seed)
    return bot


def bot_seed(seed: int | None, side_index: int) -> int:
    """A bot's seed derived from the battle seed, independent of the battle's own stream."""
    ss = np.random.SeedSequence(seed if seed is not None else 0).spawn(3)[1 + side_index]
    return int(ss.generate_state(1)[0])
