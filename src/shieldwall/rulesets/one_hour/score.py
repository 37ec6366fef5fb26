"""one-hour-dark-ages: each side's standing by its own victory conditions (the plugin's ``score``).

How a battle is won here (``state.OneHourState``): a side with no Units left loses; with Force
Morale (``force-morale``) a side routs when its die fails to beat the number of its Units destroyed,
so the risk grows with the *count* of Units lost, not with their share of the army; at the turn
limit the side that lost fewer Units wins, and with equal losses the less worn side (ruling on the
turn limit). So the estimate counts Units lost, plus a part of the live Units' wear (a Unit near its
hit limit is a loss soon to come, but counts for less than one destroyed):

    standing(side) = tanh((lost'(other) - lost'(side)) / SCALE),  lost' = lost + WEAR * sum(hits / max_hits)

in [-1, 1], 0 when even. The search bot (``shieldwall.ai.mcts``) scores unfinished playouts with it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from shieldwall.rulesets.one_hour.model import SIDES, other

if TYPE_CHECKING:
    from shieldwall.rulesets.one_hour.state import OneHourState

#: the share of a live Unit's wear (hits / hit limit) that counts as a Unit lost
WEAR = 0.5
#: Units lost (net) that make the standing tanh(1) ~ 0.76
SCALE = 2.0


def effective_losses(state: OneHourState, side: str) -> float:
    """Units of ``side`` destroyed, plus ``WEAR`` times its live Units' summed hits / hit limit."""
    wear = sum(u.hits / u.max_hits for u in state.live(side) if u.max_hits)
    return float(state.lost[side]) + WEAR * wear


def score(state: OneHourState) -> dict[str, float]:
    """Each side's standing in [-1, 1] (module docstring)."""
    lost = {s: effective_losses(state, s) for s in SIDES}
    return {s: math.tanh((lost[other(s)] - lost[s]) / SCALE) for s in SIDES}
