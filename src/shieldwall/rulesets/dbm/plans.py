"""dbm-3.2's plans for the search bot's own side (``RuleSystem.search_plans``; the plan portfolio,
``mcts:...:pf``, ``shieldwall.ai.portfolio``), beside the scripted bot. Bots, not rules: each is the
scripted bot with one choice changed, so the pre-battle choices, the press forward and the
baggage are the scripted bot's.

``hold``
    spends no PIPs in a bound: the army stands where it deployed (in its terrain, its
    fortification) and lets the enemy come; it still fights, and presses forward after a combat
    as the scripted bot does. On the built-in scenarios the side that stands loses less often to
    ``random`` than the side that attacks (docs/agents.md, "Each rule system's defaults").
``attack``
    advances every command the scripted bot would, and those it would hold back because their
    nearest enemies beat them (the favour test always passes): whatever the odds, close in.
"""

from __future__ import annotations

from typing import Any

from shieldwall.ai.base import Bot
from shieldwall.core.game import State
from shieldwall.rulesets.dbm.bots import ScriptedBot
from shieldwall.rulesets.dbm.orders import Order


class HoldBot(ScriptedBot):
    name = "hold"

    def choose(self, state: State) -> Any:
        d = state.decision()
        if d is not None and d.kind == "bound":
            return Order("end")  # every bound decision, whichever path the scripted bot takes
        return super().choose(state)


class _AlwaysFavoured:
    """Every command's favour test passes (the ``attack`` plan; a ``bots.FavourTest``)."""

    def of(self, *args: Any, **kwargs: Any) -> bool:
        return True


class AttackBot(ScriptedBot):
    name = "attack"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.favoured = _AlwaysFavoured()

    @staticmethod
    def _favoured(*args: Any, **kwargs: Any) -> bool:
        """The favour test of the scripted bot's other path for a bound (``ScriptedBot.choose``):
        passes too."""
        return True


#: the search bot's plans for its own side, beside the scripted bot (``RuleSystem.search_plans``)
PLANS: dict[str, type[Bot]] = {"hold": HoldBot, "attack": AttackBot}
