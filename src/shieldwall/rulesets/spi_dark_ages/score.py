"""spi-dark-ages: each side's standing by its own victory conditions (the plugin's ``score``).

How a battle is won here (``turn.finish``, clause ``victory.end``): when the scenario's Game-Turns
run out, or an army has no unit left on the map, the side that has inflicted more victory points
of losses wins (``victory.vp``: each eliminated unit scores its type's VP, a command unit 10); not
the side with more units left. A demoralized unit (``demoralization``) cannot attack and is the
likeliest next loss, so a part of its VP counts as lost already:

    standing(side) = tanh((lost'(other) - lost'(side)) / scale),
    lost' = VP lost + DEMORALIZED * VP of the side's demoralized units on the map,
    scale = SCALE * the mean VP of the two armies

in [-1, 1], 0 when even. The search bot (``shieldwall.ai.mcts``) scores unfinished playouts with it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shieldwall.rulesets.spi_dark_ages.board import Board
    from shieldwall.rulesets.spi_dark_ages.state import DarkAgesState

#: the share of a demoralized unit's VP that counts as lost
DEMORALIZED = 0.5
#: the share of an army's VP (net) that makes the standing tanh(1) ~ 0.76
SCALE = 0.15


def effective_losses(board: Board, side: str) -> float:
    """VP ``side`` has lost, plus ``DEMORALIZED`` times the VP of its demoralized units on the map."""
    shaken = sum(
        board.vp_lost(u)
        for u in board.units.values()
        if u.side == side and u.gone is None and u.demoralized is not None
    )
    return float(board.losses[side]) + DEMORALIZED * shaken


def score(state: DarkAgesState) -> dict[str, float]:
    """Each side's standing in [-1, 1] (module docstring)."""
    b = state.board
    a, c = b.sides
    army = {s: sum(b.vp_lost(u) for u in b.units.values() if u.side == s) for s in (a, c)}
    scale = max(1.0, SCALE * (army[a] + army[c]) / 2)
    lost = {s: effective_losses(b, s) for s in (a, c)}
    return {a: math.tanh((lost[c] - lost[a]) / scale), c: math.tanh((lost[a] - lost[c]) / scale)}
