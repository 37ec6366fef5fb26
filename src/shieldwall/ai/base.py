"""The bot interface and the bots by name.

A bot is either generic (it plays any rule system through the public State API, e.g. ``random``,
``mcts``) or a rule system's own: its plugin declares it (``RuleSystem.bots``, name -> ``Bot``
subclass). For one rule system its own names come first, then the generic ones.

The search bot ``mcts`` (:mod:`shieldwall.ai.mcts`) takes its budget and options after a colon
(``mcts:2000`` playouts, ``mcts:1s`` seconds, ``mcts:64:hend:sh``; :mod:`shieldwall.ai.search_spec`),
passed to its class as ``cls(seed, spec, ruleset)``. ``bot_names`` lists it
(as ``mcts``, its default budget) after the generic ``random``; ``check_bot`` accepts every budget
of it, for the hosts that take a bot's name (``simulate``, the web table).
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from typing import Any

import numpy as np

from shieldwall import registry
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


#: the generic bots, for every rule system: name -> (module, class)
_GENERIC: dict[str, tuple[str, str]] = {
    "random": ("shieldwall.ai.random_bot", "RandomBot"),
}
#: generic bots that take a budget (``name:budget``); listed by ``bot_names`` under their bare name
_SEARCH: dict[str, tuple[str, str]] = {
    "mcts": ("shieldwall.ai.mcts", "MCTSBot"),
}


def bot_names(ruleset: str | None = None) -> list[str]:
    """The bots of a rule system (its own, then the generic ones); of every rule system when None."""
    if ruleset is None:
        own = [n for rs in registry.systems().values() for n in rs.bots]
    else:
        own = list(registry.get(ruleset).bots)
    return list(dict.fromkeys([*own, *_GENERIC, *_SEARCH]))


def check_bot(name: str, ruleset: str | None = None) -> None:
    """Raise ``UnknownName`` (listing the valid names) or the search bot's ``BadBudget`` unless
    ``name`` is a bot of ``ruleset`` (a listed name, or a search bot with a budget: ``mcts:500``)."""
    make_bot(name, 0, ruleset)


def make_bot(name: str, seed: int | None = None, ruleset: str | None = None) -> Bot:
    """The bot ``name`` for a battle of ``ruleset`` (only the generic bots when None), seeded."""
    rs = registry.get(ruleset) if ruleset is not None else None
    cls = rs.bot_class(name) if rs is not None else None
    if cls is not None:
        own: Bot = cls(seed)
        return own
    base, colon, budget = name.partition(":")
    if base in _SEARCH:
        if colon and not budget.strip():
            # (``mcts:`` was plain ``mcts`` here and refused at the web table: one reading for all)
            from shieldwall.ai.search_spec import BadBudget

            raise BadBudget(
                f"bot {name!r}: nothing after the colon ({base}:N for N playouts, or plain {base})"
            )
        mod, attr = _SEARCH[base]
        # the search bot's spec over the rule system's default options (``search_options``)
        search: Bot = getattr(importlib.import_module(mod), attr)(seed, budget, ruleset)
        return search
    if colon or name not in _GENERIC:
        raise UnknownName("bot", name, bot_names(ruleset) if ruleset is not None else [*_GENERIC, *_SEARCH])
    mod, attr = _GENERIC[name]
    cls = getattr(importlib.import_module(mod), attr)
    bot: Bot = cls(seed)
    return bot


def bot_seed(seed: int | None, side_index: int) -> int:
    """A bot's seed derived from the battle seed, independent of the battle's own stream."""
    ss = np.random.SeedSequence(seed if seed is not None else 0).spawn(3)[1 + side_index]
    return int(ss.generate_state(1)[0])
