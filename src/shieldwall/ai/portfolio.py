"""The search bot's plan portfolio (``mcts:...:pf``): several plans for its own side in its rollouts.

The search perturbs one order of a plan: every playout continues with a rollout policy, and with
the rule system's own bot playing the searching side there, a battle that bot loses whatever its
next order is gives every order the same value, and the search finds nothing to change. After
Churchill and Buro's Portfolio Greedy Search (2013), a rule system may offer other plans for the
searching side (``RuleSystem.search_plans``: name -> bot class, e.g. hold the ground, attack
whatever the odds); the search races them, the rule system's own bot first, on common battles (the
same determinization, dice and rollout seeds for every plan of a sample), each playing the
searching side from the decision to the rollout's horizon while the other sides play as in every
rollout (the rule system's own bot, or the opponent mix). The plan with the best mean value wins
(among equals, the earlier: the rule system's own bot); its order is the prior of the root search
and its bot plays the searching side in that search's rollouts. The choice is made again at every
decision.

The host names no rule system: the plans are whatever the plugin lists; a plugin that lists none
has a portfolio of its own bot alone, and ``pf`` changes nothing for it.
"""

from __future__ import annotations

from typing import Any

from shieldwall.ai.base import Bot
from shieldwall.core.game import State


class Split(Bot):
    """A rollout policy: ``side``'s decisions by ``own`` (a plan's bot), every other side's by
    ``other`` (the rule system's own bot)."""

    name = "split"

    def __init__(self, side: str, own: Bot, other: Bot) -> None:
        super().__init__(None)
        self.side, self.own, self.other = side, own, other

    def choose(self, state: State) -> Any:
        d = state.decision()
        return (self.own if d is not None and d.side == self.side else self.other).choose(state)


def plans_of(first: Any, listed: Any) -> list[tuple[str, Any]]:
    """The portfolio: the rule system's own first bot class ``first`` (as ``"own"``), then each
    plan the plugin lists (``RuleSystem.search_plans``, a mapping name -> bot class, or None), a
    class already in the portfolio left out. A rule system with no bot of its own has no
    portfolio (its rollouts are random: no plan could play beside its bot)."""
    if first is None:
        return []
    out: list[tuple[str, Any]] = [("own", first)]
    for name, cls in dict(listed or {}).items():
        if all(cls is not c for _, c in out):
            out.append((str(name), cls))
    return out


def best_plan(totals: list[float]) -> int:
    """The index of the plan with the best mean value (``totals``: each plan's summed values over
    the same common battles; the first among equals, the rule system's own bot when it ties)."""
    return max(range(len(totals)), key=totals.__getitem__)
