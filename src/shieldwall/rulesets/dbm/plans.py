"""dbm-3.2's plans for the search bot's own side (``RuleSystem.search_plans``; the plan portfolio,
``mcts:...:pf``, ``shieldwall.ai.portfolio``), beside the scripted bot. Bots, not rules: each is the
scripted bot with one or two choices changed: each deploys in one rank (``own``, below), and
otherwise the pre-battle choices, the press forward and the baggage are the scripted bot's.

``own`` (``line``)
    the scripted bot deploying its commands in one rank (``deploy line``, or by hand the first
    ``line`` placement) where the scripted bot deploys them deep: the searching side's default
    plan (the portfolio's first: it plays the side unless another plan wins the race; the other
    side's rollouts keep the scripted bot). In DBM a friend directly behind an element destroyed
    in close combat is destroyed with it (the rules' "destroyed elements", p.24: friends directly
    behind it), while a second rank helps only some pairs
    (spears and pikes of a grade, blades of a grade against knights, warband in four ranks: the
    rear-support and outcome clauses), so on the built-in scenarios a deep deployment often loses
    two elements where a line loses one. (A bot, not a rule: no ruling.)
    Against ``random`` and ``scripted``, twenty battles a side (docs/agents.md, "Deploying in
    line"), the line did better on most sides and no side worse by more than two battles.
    The deployment is one decision before the battle, whose consequences the race's 10-decision
    horizon cannot see (every plan scores 0 there, and ties go to the first plan): hence a plan
    of its own, first, rather than a plan raced against the deep deployment.
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
from shieldwall.rulesets.dbm.nearest import Favoured
from shieldwall.rulesets.dbm.orders import Order


def in_line(state: State) -> Any:
    """The deployment in one rank: ``deploy line`` (or, placing by hand, the first ``line``
    placement), or None when the decision offers neither."""
    orders = state.legal_orders()
    for o in orders:
        if o.kind == "deploy" and o.arg == "line":
            return o
    for o in orders:
        if o.kind == "place" and ":line@" in (o.arg or ""):
            return o
    return None


class LineBot(ScriptedBot):
    name = "line"

    def choose(self, state: State) -> Any:
        d = state.decision()
        if d is not None and d.kind == "deploy":
            o = in_line(state)
            if o is not None:
                return o
        return super().choose(state)


class HoldBot(LineBot):
    name = "hold"

    def choose(self, state: State) -> Any:
        d = state.decision()
        if d is not None and d.kind == "bound":
            return Order("end")  # every bound decision, whichever path the scripted bot takes
        return super().choose(state)


class _AlwaysFavoured(Favoured):
    """Every command's favour test passes (the ``attack`` plan)."""

    def of(self, *args: Any, **kwargs: Any) -> bool:
        return True


class AttackBot(LineBot):
    name = "attack"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.favoured = _AlwaysFavoured()

    @staticmethod
    def _favoured(*args: Any, **kwargs: Any) -> bool:
        """The favour test of the scripted bot's other path for a bound (``ScriptedBot.choose``):
        passes too."""
        return True


#: the search bot's plans for its own side (``RuleSystem.search_plans``): ``own`` first in place of
#: the scripted bot
PLANS: dict[str, type[Bot]] = {"own": LineBot, "hold": HoldBot, "attack": AttackBot}
