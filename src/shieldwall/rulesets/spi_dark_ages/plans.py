"""spi-dark-ages's plans for the search bot's own side (``RuleSystem.search_plans``; the plan
portfolio, ``mcts:...:pf``, ``shieldwall.ai.portfolio``), beside the scripted bot. Bots, not rules:
the scripted bot with one choice changed.

``hold``
    moves nothing: every Movement Phase is ended at once (a unit already moving is done, unless
    the rules make it go on: a fleet may not stop in another fleet's hex, ``stacking.C``, and the
    scripted bot then moves it). It still allocates melee and fire and fires defensively as the
    scripted bot does. On Tours and Stamford Bridge the scripted bot's tan side, advancing into
    green, loses most battles to the scripted green (docs/agents.md, "SPI at playouts to the
    end"); a side that stands and lets the enemy come is the other way to play.
"""

from __future__ import annotations

from typing import Any

from shieldwall.ai.base import Bot
from shieldwall.core.game import State
from shieldwall.rulesets.spi_dark_ages.bots import ScriptedBot


class HoldBot(ScriptedBot):
    name = "hold"

    def choose(self, state: State) -> Any:
        d = state.decision()
        if d is not None and d.kind == "move":
            menu = state.legal_orders()
            for kind in ("end", "done"):
                got = next((o for o in menu if o.kind == kind), None)
                if got is not None:
                    return got
        return super().choose(state)


#: the search bot's plans for its own side, beside the scripted bot (``RuleSystem.search_plans``)
PLANS: dict[str, type[Bot]] = {"hold": HoldBot}
